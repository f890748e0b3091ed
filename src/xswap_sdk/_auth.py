"""Credentials, asked by the transport on every attempt: headers, and logging in again.

An `Auth` answers three questions for the request loop: which headers an operation
carries, whether the client must log in before sending it, and whether it may log in
again after a 401. Logging in is a flow (see ``xswap_sdk._flow``) that the transport
runs like any other, under the auth's lock, so one loop serves the static API keys of
the routing service and the relayer and the swap backend's wallet login alike (its
`FlashAuth` lives in ``xswap_sdk.flash._auth``).

Pure: nothing here does I/O.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pydantic import SecretStr

from ._concurrency import LoopBound
from ._flow import Flow
from ._operation import Operation
from .errors import MissingCredentialsError

if TYPE_CHECKING:
    import asyncio

__all__ = ["ApiKeyAuth", "Auth", "new_login_lock"]


class Auth:
    """No credentials and no login: the base of every client's auth.

    Subclasses that log in override `needs_login`, `can_login` and `login_flow`, and
    bump `generation` whenever a login gives them new credentials.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._async_lock = LoopBound(new_login_lock)

    @property
    def generation(self) -> int:
        """How many logins have replaced the credentials; a call remembers the value it
        sent with, so that of many calls meeting a 401 together only one logs in."""
        return 0

    def headers(self, operation: Operation[Any], /) -> Mapping[str, str]:
        """The credential headers for ``operation``; raises `MissingCredentialsError`
        before any I/O when it needs credentials this client cannot supply."""
        return {}

    def secrets(self) -> list[str]:
        """The credential values, to scrub from error messages (never to log)."""
        return []

    def needs_login(self, operation: Operation[Any] | None, /) -> bool:
        """Whether to log in before sending ``operation`` (``None``: before a flow that
        will need credentials)."""
        return False

    def can_login(self, operation: Operation[Any], /) -> bool:
        """Whether a 401 on ``operation`` may be answered by logging in again."""
        return False

    def login_flow(self, operation: Operation[Any] | None, /) -> Flow[Any]:
        """The steps of a login before ``operation`` (``None``: before a flow), which keep
        the new credentials when they succeed."""
        raise NotImplementedError(f"{type(self).__name__} cannot log in")

    def lock(self) -> threading.Lock:
        """The lock blocking calls log in under."""
        return self._lock

    def async_lock(self) -> asyncio.Lock:
        """The lock async calls log in under, on the running event loop."""
        return self._async_lock.get()


class ApiKeyAuth(Auth):
    """A static key in one header (the routing service's and the relayer's ``api-key``).

    Args:
        header: the header that carries the key.
        key: the key, or ``None`` when the client has none.
        client: the client's class name, for the error that says how to give a key.
        env_var: the environment variable the key may also come from.
    """

    def __init__(
        self, *, header: str, key: SecretStr | None, client: str, env_var: str | None
    ) -> None:
        super().__init__()
        self._header = header
        self._key = key
        self._client = client
        self._env_var = env_var

    def headers(self, operation: Operation[Any], /) -> Mapping[str, str]:
        """Send the key when there is one; refuse an operation that requires one when
        there is none."""
        if self._key is not None:
            return {self._header: self._key.get_secret_value()}
        if operation.auth == "required":
            where = f" or set {self._env_var}" if self._env_var else ""
            raise MissingCredentialsError(
                "api_key",
                f"{operation.method} {operation.log_path} needs an API key: pass "
                f"api_key=... to {self._client}{where}",
                env_var=self._env_var,
            )
        return {}

    def secrets(self) -> list[str]:
        """The key, to scrub from error messages."""
        return [self._key.get_secret_value()] if self._key is not None else []

    def __repr__(self) -> str:
        return f"ApiKeyAuth(header={self._header!r}, key={'set' if self._key else 'unset'})"


def new_login_lock() -> asyncio.Lock:
    """A lock for async logins, on the running loop (see `LoopBound`)."""
    import asyncio  # here: a blocking program never pays for importing it

    return asyncio.Lock()
