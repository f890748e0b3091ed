"""Client configuration: constructor arguments first, then environment, then defaults.

The environment is read when a client is constructed, never at import time, so a test
or a notebook can set variables before creating a client.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, TypedDict

import httpx
from pydantic import SecretStr

from ._logging import redact_headers
from .errors import InvalidInputError

__all__ = [
    "DEFAULT_MAX_RETRIES",
    "DEFAULT_TIMEOUT",
    "NOT_GIVEN",
    "ClientOptions",
    "NotGiven",
    "RequestOptions",
    "ServiceConfig",
    "TimeoutTypes",
]

DEFAULT_TIMEOUT: Final = httpx.Timeout(30.0, connect=5.0)
"""Connect within 5 s; read, write and pool waits up to 30 s each."""

DEFAULT_MAX_RETRIES: Final = 2

TimeoutTypes = float | httpx.Timeout | None
"""Seconds for every phase, an `httpx.Timeout` per phase, or ``None`` for no limit."""


class NotGiven:
    """Marks an argument the caller did not pass, where ``None`` has a meaning of its own
    (``timeout=None`` disables timeouts)."""

    _instance: NotGiven | None = None

    def __new__(cls) -> NotGiven:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN: Final = NotGiven()


class RequestOptions(TypedDict, total=False):
    """Per-call overrides accepted by every client method as keyword arguments.

    Attributes:
        timeout: seconds, an `httpx.Timeout`, or ``None`` to wait forever.
        max_retries: retries after the first attempt (``0`` disables retrying).
    """

    timeout: TimeoutTypes
    max_retries: int


@dataclass(frozen=True, slots=True)
class ServiceConfig:
    """What one service needs to be configured: names of its settings and defaults."""

    name: str
    default_base_url: str
    base_url_env: str
    api_key_env: str | None = None
    api_key_header: str | None = None


def normalize_timeout(value: TimeoutTypes, *, argument: str = "timeout") -> httpx.Timeout:
    """Turn the accepted timeout forms into an `httpx.Timeout`."""
    if value is None:
        return httpx.Timeout(None)
    if isinstance(value, httpx.Timeout):
        return value
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise InvalidInputError(
            argument, "must be a positive number of seconds, an httpx.Timeout, or None"
        )
    return httpx.Timeout(float(value))


def check_max_retries(value: object, *, argument: str = "max_retries") -> int:
    """Validate a retry count: a non-negative int."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidInputError(argument, "must be a non-negative int")
    return value


def _check_base_url(value: object) -> str:
    if not isinstance(value, str):
        raise InvalidInputError("base_url", "must be a string such as 'https://host'")
    url = httpx.URL(value)
    if url.scheme not in ("http", "https") or not url.host:
        raise InvalidInputError("base_url", "must be an absolute http:// or https:// URL")
    if url.query:
        raise InvalidInputError("base_url", "must not carry a query string")
    return value.rstrip("/")


def _check_headers(value: object) -> dict[str, str]:
    if not isinstance(value, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise InvalidInputError("headers", "must be a mapping of str to str")
    return dict(value)


@dataclass(frozen=True, slots=True)
class ClientOptions:
    """The resolved settings of one client; immutable, copied by ``with_options``.

    The API key is a `pydantic.SecretStr`: its ``repr`` and ``str`` hide the value.
    """

    service: ServiceConfig
    base_url: str
    api_key: SecretStr | None = None
    timeout: httpx.Timeout = field(default_factory=lambda: DEFAULT_TIMEOUT)
    max_retries: int = DEFAULT_MAX_RETRIES
    headers: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def resolve(
        cls,
        service: ServiceConfig,
        *,
        base_url: str | None = None,
        api_key: str | SecretStr | None = None,
        timeout: TimeoutTypes | NotGiven = NOT_GIVEN,
        max_retries: int = DEFAULT_MAX_RETRIES,
        headers: Mapping[str, str] | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> ClientOptions:
        """Resolve settings: arguments first, then environment variables, then defaults."""
        env = os.environ if environ is None else environ
        url = base_url or env.get(service.base_url_env) or service.default_base_url
        key: SecretStr | None = None
        if isinstance(api_key, SecretStr):
            key = api_key
        elif api_key is not None:
            if not isinstance(api_key, str):
                raise InvalidInputError("api_key", "must be a string")
            key = SecretStr(api_key)
        elif service.api_key_env and env.get(service.api_key_env):
            key = SecretStr(env[service.api_key_env])
        if key is not None and not key.get_secret_value().strip():
            raise InvalidInputError("api_key", "must not be empty")
        return cls(
            service=service,
            base_url=_check_base_url(url),
            api_key=key,
            timeout=DEFAULT_TIMEOUT
            if isinstance(timeout, NotGiven)
            else normalize_timeout(timeout),
            max_retries=check_max_retries(max_retries),
            headers=_check_headers(headers or {}),
        )

    def replace(
        self,
        *,
        base_url: str | NotGiven = NOT_GIVEN,
        api_key: str | SecretStr | NotGiven = NOT_GIVEN,
        timeout: TimeoutTypes | NotGiven = NOT_GIVEN,
        max_retries: int | NotGiven = NOT_GIVEN,
        headers: Mapping[str, str] | NotGiven = NOT_GIVEN,
    ) -> ClientOptions:
        """A copy with some settings changed; the same validation applies."""
        changes: dict[str, Any] = {}
        if not isinstance(base_url, NotGiven):
            changes["base_url"] = _check_base_url(base_url)
        if not isinstance(api_key, NotGiven):
            changes["api_key"] = api_key if isinstance(api_key, SecretStr) else SecretStr(api_key)
        if not isinstance(timeout, NotGiven):
            changes["timeout"] = normalize_timeout(timeout)
        if not isinstance(max_retries, NotGiven):
            changes["max_retries"] = check_max_retries(max_retries)
        if not isinstance(headers, NotGiven):
            changes["headers"] = {**self.headers, **_check_headers(headers)}
        return dataclasses.replace(self, **changes)

    def __repr__(self) -> str:
        # Custom headers may carry credentials (an Authorization token), so values of
        # sensitive headers are hidden; the API key is a SecretStr and hides itself.
        return (
            f"ClientOptions(service={self.service.name!r}, base_url={self.base_url!r}, "
            f"api_key={self.api_key!r}, timeout={self.timeout!r}, "
            f"max_retries={self.max_retries!r}, headers={redact_headers(self.headers)!r})"
        )
