"""Client configuration: constructor arguments first, then environment, then defaults.

The environment is read when a client is constructed, never at import time, so a test
or a notebook can set variables before creating a client.

Everything is checked here, before any I/O, and refused as `InvalidInputError` naming
the argument (or the environment variable) and the rule, never the value:

- Credentials (API key, JWT) and header values: printable ASCII only, no CR, LF or other
  control character. Surrounding whitespace is **stripped**, not refused: a key read
  from a file or a variable often ends with a newline, and no key or token begins or
  ends with whitespace. Credentials are kept in a `pydantic.SecretStr`.
- Base URLs: ``https://``, or ``http://`` to a loopback host only (``localhost``,
  ``127.0.0.0/8``, ``::1``; see `is_loopback_host`) unless ``allow_insecure_http=True``
  is passed; never a ``user:password@`` part, a query or a fragment.
- Timeouts: positive and finite seconds, per phase of an `httpx.Timeout` too; ``None``
  alone means "no limit". The total ``deadline`` of a call follows the same rule.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, TypedDict

import httpx
from pydantic import SecretStr

from ._body import DEFAULT_MAX_RESPONSE_BYTES
from ._logging import redact_headers
from ._record import Frozen
from .errors import InvalidInputError

if TYPE_CHECKING:
    from .journal import Journal, JournalArg
    from .policy import Policy, PolicyLike

__all__ = [
    "DEFAULT_DEADLINE",
    "DEFAULT_MAX_RESPONSE_BYTES",
    "DEFAULT_MAX_RETRIES",
    "DEFAULT_LIMITS",
    "DEFAULT_TIMEOUT",
    "NOT_GIVEN",
    "ClientOptions",
    "NotGiven",
    "RequestOptions",
    "ServiceConfig",
    "TimeoutTypes",
    "WaitOptions",
    "check_base_url",
    "check_credential",
    "check_deadline",
    "check_header_value",
    "check_headers",
    "check_limits",
    "check_max_response_bytes",
    "check_max_retries",
    "check_seconds",
    "clip_timeout",
    "is_loopback_host",
    "normalize_timeout",
]

DEFAULT_TIMEOUT: Final = httpx.Timeout(30.0, connect=5.0)
"""Connect within 5 s; read, write and pool waits up to 30 s each. The timeout of the
connection pool the SDK creates; a client you pass in as ``http_client`` keeps its own."""

DEFAULT_LIMITS: Final = httpx.Limits(
    max_connections=100, max_keepalive_connections=100, keepalive_expiry=5.0
)
"""The connection pool the SDK creates: up to 100 connections, every one of them kept
alive between requests (httpx's own default keeps 20, so a burst above 20 would open
and close a connection per request)."""

DEFAULT_MAX_RETRIES: Final = 2

DEFAULT_DEADLINE: Final = 120.0
"""The most seconds one call may take as a whole, by default: every attempt, every
read of a body however slowly it drips, and every wait between retries.

The per-phase `DEFAULT_TIMEOUT` bounds each socket operation, so a server that sends a
byte every 100 ms never trips it; the deadline does. 120 s covers three attempts at the
30 s read timeout plus the backoff between them. Set per client or per call with
``deadline=``; ``None`` removes it (the per-phase timeouts still apply).
"""

TimeoutTypes = float | httpx.Timeout | None
"""Seconds for every phase, an `httpx.Timeout` per phase, or ``None`` for no limit."""


class NotGiven:
    """The type of `NOT_GIVEN`, the default of an argument where ``None`` has a meaning
    of its own (``timeout=None`` disables timeouts, ``deadline=None`` removes the
    deadline): ``timeout: float | Timeout | None | NotGiven = NOT_GIVEN`` means "keep
    the client's setting" when left out.

    There is one instance, falsy; test for it with ``value is NOT_GIVEN``. Name the type
    in a wrapper of your own that passes such an argument through.
    """

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
"""The value of an argument that was not passed (see `NotGiven`)."""


class RequestOptions(TypedDict, total=False):
    """Per-call overrides accepted by every client method as keyword arguments.

    Attributes:
        timeout: seconds, an `httpx.Timeout`, or ``None`` to wait forever.
        max_retries: retries after the first attempt (``0`` disables retrying).
        deadline: the most seconds the whole call may take, retries included, or
            ``None`` for no overall limit; see `DEFAULT_DEADLINE`.
        extra_headers: headers to add to this call's requests, for what a service
            accepts before the SDK knows it. They may not set the credentials header.
        extra_query: query parameters to add; they may not repeat one the SDK sends.
        extra_body: keys to add to a JSON object body; they may not replace one the SDK
            sends (what it signed stays as signed), and a call with no JSON body refuses
            them.
    """

    timeout: TimeoutTypes
    max_retries: int
    deadline: float | None
    extra_headers: Mapping[str, str]
    extra_query: Mapping[str, str]
    extra_body: Mapping[str, Any]


class WaitOptions(TypedDict, total=False):
    """Per-call overrides of a ``wait_*`` method: `RequestOptions` without ``timeout``.

    A wait's own limit is its ``wait_timeout`` (seconds) or, for the relayer's waits that
    mirror the JavaScript client, ``timeout_ms`` (milliseconds). ``timeout=`` would read
    as that limit but is the per-request timeout, so a wait refuses it with
    `InvalidInputError` before sending anything; set the timeout of each request with
    ``client.with_options(timeout=...)``.

    Attributes:
        max_retries: retries after the first attempt of each request.
        deadline: the most seconds each request may take, retries included.
        extra_headers: headers to add to each request.
        extra_query: query parameters to add to each request.
        extra_body: keys to add to each JSON object body.
    """

    max_retries: int
    deadline: float | None
    extra_headers: Mapping[str, str]
    extra_query: Mapping[str, str]
    extra_body: Mapping[str, Any]


@dataclass(init=False, repr=False, eq=False, slots=True)
class ServiceConfig(Frozen):
    """What one service needs to be configured: names of its settings and defaults."""

    name: str
    default_base_url: str
    base_url_env: str
    api_key_env: str | None = None
    api_key_header: str | None = None

    def __init__(
        self,
        name: str,
        default_base_url: str,
        base_url_env: str,
        api_key_env: str | None = None,
        api_key_header: str | None = None,
    ) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "default_base_url", default_base_url)
        object.__setattr__(self, "base_url_env", base_url_env)
        object.__setattr__(self, "api_key_env", api_key_env)
        object.__setattr__(self, "api_key_header", api_key_header)


_SECONDS_RULE: Final = "must be a positive, finite number of seconds"


def check_seconds(
    value: object, *, argument: str, allow_zero: bool = False, allow_none: bool = False
) -> float | None:
    """Validate a duration in seconds: a finite int or float, above zero.

    NaN (which never expires), infinity (use ``None`` where "no limit" is allowed),
    negative numbers, zero (unless ``allow_zero``), booleans and strings are refused.

    Args:
        value: the duration.
        argument: the argument's name, for the error.
        allow_zero: accept ``0`` (e.g. "do not wait at all").
        allow_none: accept ``None``, meaning no limit.

    Returns:
        The duration as a float, or ``None``.

    Raises:
        InvalidInputError: the value breaks the rule.
    """
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        rule = "must be a number of seconds" + (", or None for no limit" if allow_none else "")
        raise InvalidInputError(argument, rule)
    try:
        seconds = float(value)
    except OverflowError:  # an int too large for a float
        seconds = math.inf
    if math.isnan(seconds):
        raise InvalidInputError(argument, "must be a number of seconds, not NaN")
    if math.isinf(seconds):
        hint = "; pass None for no limit" if allow_none else ""
        raise InvalidInputError(argument, f"must be a finite number of seconds{hint}")
    if seconds < 0 or (seconds == 0 and not allow_zero):
        minimum = "zero or more" if allow_zero else "above zero"
        raise InvalidInputError(argument, f"must be {minimum} seconds")
    return seconds


def normalize_timeout(value: TimeoutTypes, *, argument: str = "timeout") -> httpx.Timeout:
    """Turn the accepted timeout forms into an `httpx.Timeout`, refusing what would
    never expire or expire at once.

    Args:
        value: seconds for every phase, an `httpx.Timeout`, or ``None`` for no limit.
        argument: the argument's name, for the error.

    Returns:
        The timeout.

    Raises:
        InvalidInputError: a number (or a phase of an `httpx.Timeout`) that is not a
            positive, finite number of seconds; NaN and infinity included. A phase
            may be ``None`` (no limit for that phase).
    """
    if value is None:
        return httpx.Timeout(None)
    if isinstance(value, httpx.Timeout):
        for phase in ("connect", "read", "write", "pool"):
            check_seconds(getattr(value, phase), argument=f"{argument}.{phase}", allow_none=True)
        return value
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInputError(
            argument, f"{_SECONDS_RULE}, an httpx.Timeout, or None for no limit"
        )
    # None is handled above; allowing it here only makes the infinity rule say to use it.
    return httpx.Timeout(check_seconds(value, argument=argument, allow_none=True))


def clip_timeout(timeout: httpx.Timeout, remaining: float) -> httpx.Timeout:
    """Shorten every phase of ``timeout`` to the time left before a deadline.

    For the transport: each attempt sends with the clipped timeout, so no single read
    can outlast the call's deadline. ``remaining`` is floored at 1 ms, since an httpx
    phase of 0 would not wait at all; check the deadline before calling this.

    Args:
        timeout: the call's per-phase timeout (a phase may be ``None``).
        remaining: seconds left before the deadline.

    Returns:
        A timeout whose every phase is at most ``remaining``.
    """
    left = max(remaining, 0.001)
    phases = (timeout.connect, timeout.read, timeout.write, timeout.pool)
    if all(phase is not None and phase <= left for phase in phases):
        return timeout  # the usual case, far from the deadline: nothing to shorten

    def clip(phase: float | None) -> float:
        return left if phase is None else min(phase, left)

    return httpx.Timeout(
        connect=clip(timeout.connect),
        read=clip(timeout.read),
        write=clip(timeout.write),
        pool=clip(timeout.pool),
    )


def check_deadline(value: object, *, argument: str = "deadline") -> float | None:
    """Validate a call's total deadline: positive, finite seconds, or ``None``.

    Args:
        value: the deadline in seconds, or ``None`` for no overall limit.
        argument: the argument's name, for the error.

    Returns:
        The deadline, or ``None``.

    Raises:
        InvalidInputError: NaN, infinity (pass ``None``), zero, negative, or not a number.
    """
    return check_seconds(value, argument=argument, allow_none=True)


def check_max_retries(value: object, *, argument: str = "max_retries") -> int:
    """Validate a retry count: a non-negative int.

    Args:
        value: the count.
        argument: the argument's name, for the error.

    Returns:
        The count.

    Raises:
        InvalidInputError: not an int, a bool, or negative.
    """
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidInputError(argument, "must be a non-negative int")
    return value


def check_max_response_bytes(value: object, *, argument: str = "max_response_bytes") -> int:
    """Validate a response size cap: a positive int of bytes.

    Args:
        value: the cap.
        argument: the argument's name, for the error.

    Returns:
        The cap.

    Raises:
        InvalidInputError: not an int, a bool, or below 1.
    """
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidInputError(argument, "must be a positive int (bytes)")
    return value


def check_limits(value: object, *, http_client_given: bool) -> httpx.Limits:
    """Validate the connection pool limits of the httpx client the SDK creates.

    Args:
        value: an `httpx.Limits`, or ``None`` for `DEFAULT_LIMITS`.
        http_client_given: whether the caller passed their own ``http_client``, whose
            pool the SDK does not configure.

    Returns:
        The limits.

    Raises:
        InvalidInputError: not an `httpx.Limits`, or given together with an
            ``http_client``.
    """
    if value is None:
        return DEFAULT_LIMITS
    if not isinstance(value, httpx.Limits):
        raise InvalidInputError("limits", "must be an httpx.Limits, or None for the defaults")
    if http_client_given:
        raise InvalidInputError(
            "limits",
            "configures the pool the SDK creates: give your http_client its own limits instead",
        )
    return value


# Printable ASCII and the horizontal tab; what is left of a credential or header value
# once its surrounding whitespace is stripped must be made of these.
_HEADER_VALUE: Final = re.compile(r"[\x20-\x7e\t]*")
_TOKEN: Final = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_SURROUNDING_WHITESPACE: Final = " \t\r\n"


def check_header_value(value: object, *, argument: str) -> str:
    """Validate a header value; surrounding whitespace (spaces, tabs, CR, LF) is
    stripped.

    What remains must be printable ASCII (tabs allowed): a CR or LF inside would split
    the header, and a non-ASCII character makes httpx raise at the first request. The
    value is never quoted in the error, since it may be a credential.

    Args:
        value: the header value.
        argument: the argument's name, for the error (e.g. ``headers['X-Team']``).

    Returns:
        The stripped value.

    Raises:
        InvalidInputError: not a string, or it holds a control or non-ASCII character.
    """
    if not isinstance(value, str):
        raise InvalidInputError(argument, "must be a string")
    stripped = value.strip(_SURROUNDING_WHITESPACE)
    if not _HEADER_VALUE.fullmatch(stripped):
        raise InvalidInputError(
            argument,
            "must be printable ASCII, without CR, LF or other control characters "
            "(surrounding whitespace is stripped; the value is not shown)",
        )
    return stripped


def check_credential(value: object, *, argument: str, env_var: str | None = None) -> SecretStr:
    """Validate an API key or a JWT and wrap it in a `pydantic.SecretStr`.

    Surrounding whitespace, such as the newline at the end of a key read from a file,
    is **stripped**; what remains must be non-empty printable ASCII without CR, LF,
    tabs or other control characters. The value never appears in the error, nor in a
    local variable of the frame that raises it (error trackers capture those).

    Args:
        value: the credential, a ``str`` or a `pydantic.SecretStr`.
        argument: the constructor argument it came from (``api_key``, ``jwt``).
        env_var: the environment variable it came from, if it did; the error then
            names the variable.

    Returns:
        The stripped credential, masked.

    Raises:
        InvalidInputError: not a string, empty, or holding a forbidden character.
    """
    name = env_var or argument
    if isinstance(value, str):
        value = SecretStr(value)  # from here on, no local holds the bare value
    if not isinstance(value, SecretStr):
        raise InvalidInputError(name, "must be a string")
    cleaned, problem = _clean_credential(value)
    if problem is not None:
        raise InvalidInputError(name, problem)
    return cleaned


def _clean_credential(secret: SecretStr) -> tuple[SecretStr, str | None]:
    """The stripped credential and what is wrong with it, if anything; never raises,
    so its frame (which sees the bare value) is gone before any error is raised."""
    stripped = secret.get_secret_value().strip(_SURROUNDING_WHITESPACE)
    if not stripped:
        return secret, "must not be empty"
    if not _HEADER_VALUE.fullmatch(stripped) or "\t" in stripped:
        return secret, (
            "must be printable ASCII without CR, LF, tabs or other control characters "
            "(surrounding whitespace is stripped; the value is not shown)"
        )
    return SecretStr(stripped), None


def check_headers(value: object, *, argument: str = "headers") -> dict[str, str]:
    """Validate extra headers: names are HTTP tokens, values pass `check_header_value`.

    Args:
        value: a mapping of header name to value.
        argument: the argument's name, for the error.

    Returns:
        A new dict with the stripped values.

    Raises:
        InvalidInputError: not a mapping of str to str, a name that is not an HTTP token
            (letters, digits and ``!#$%&'*+-.^_`|~``), or a bad value.
    """
    if not isinstance(value, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise InvalidInputError(argument, "must be a mapping of str to str")
    checked: dict[str, str] = {}
    for name, header_value in value.items():
        if not _TOKEN.fullmatch(name):
            raise InvalidInputError(
                argument,
                "header names must be HTTP tokens: ASCII letters, digits and "
                "!#$%&'*+-.^_`|~, no spaces or control characters (the name is not shown)",
            )
        checked[name] = check_header_value(header_value, argument=f"{argument}[{name!r}]")
    return checked


_LOOPBACK_NAMES: Final = frozenset({"localhost"})


def is_loopback_host(host: str) -> bool:
    """Whether ``host`` can only be this machine.

    True for ``localhost``, an address in ``127.0.0.0/8`` and ``::1``.

    Args:
        host: a host name or IP address (IPv6 with or without brackets).

    Returns:
        Whether plain ``http://`` to it keeps credentials on this machine.
    """
    name = host.strip("[]").rstrip(".").lower()
    if name in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def check_base_url(
    value: object, *, argument: str = "base_url", allow_insecure_http: bool = False
) -> str:
    """Validate a service's base URL; return it without a trailing slash.

    Args:
        value: the URL.
        argument: the argument (or environment variable) it came from.
        allow_insecure_http: accept ``http://`` to a host that is not loopback,
            sending credentials and payloads in clear text.

    Returns:
        The URL, with trailing slashes removed.

    Raises:
        InvalidInputError: not an absolute ``http(s)://`` URL; it has a
            ``user:password@`` part, a query or a fragment, whitespace or control
            characters; or it is ``http://`` to a non-loopback host without the opt-in.
            The URL itself is not quoted: it may hold a password.
    """
    if not isinstance(value, str):
        raise InvalidInputError(argument, "must be a string such as 'https://host'")
    if not value.isascii() or any(ch.isspace() or not ch.isprintable() for ch in value):
        raise InvalidInputError(argument, "must be ASCII without spaces or control characters")
    try:
        url = httpx.URL(value)
    except (httpx.InvalidURL, ValueError, TypeError):
        raise InvalidInputError(argument, "must be a valid absolute URL") from None
    if url.scheme not in ("http", "https") or not url.host:
        raise InvalidInputError(argument, "must be an absolute http:// or https:// URL")
    if url.userinfo:
        raise InvalidInputError(
            argument,
            "must not carry a user name or password (user:password@host); pass "
            "credentials as api_key= or headers= (the URL is not shown)",
        )
    if url.query:
        raise InvalidInputError(argument, "must not carry a query string")
    if url.fragment or "#" in value:
        raise InvalidInputError(argument, "must not carry a fragment (#...)")
    if url.scheme == "http" and not allow_insecure_http and not is_loopback_host(url.host):
        raise InvalidInputError(
            argument,
            "http:// is allowed only to a loopback host (localhost, 127.0.0.0/8, ::1): "
            "use https://, or pass allow_insecure_http=True to send credentials and "
            "payloads in clear text",
        )
    return value.rstrip("/")


def _check_policy(policy: object) -> Policy | None:
    """``policy=`` as a `xswap_sdk.policy.Policy` (imported only when one is given)."""
    if policy is None:
        return None
    # lazy: policy= is rare: the policy module (and its ledger) only when one is given
    from .policy import as_policy

    return as_policy(policy)


def _check_journal(
    journal: object, environ: Mapping[str, str] | None, key: str | bytes | None = None
) -> Journal | None:
    """``journal=`` as a `xswap_sdk.journal.Journal`, else ``XSWAP_JOURNAL``'s; ``None``
    (and nothing imported) when neither is given. ``key`` (else ``XSWAP_JOURNAL_KEY``)
    is the key of one opened from a path or a URL."""
    env = os.environ if environ is None else environ
    if journal is None and not env.get("XSWAP_JOURNAL"):
        if key is not None:
            raise InvalidInputError("journal_key", "is given without a journal")
        return None
    # lazy: journal= is rare: the journal only when one is given
    from .journal import open_journal

    return open_journal(journal, env, key=key)  # type: ignore[arg-type]


def _read_environment(
    service: ServiceConfig, environ: Mapping[str, str] | None
) -> tuple[str | None, SecretStr | None]:
    """The service's base URL and API key from the environment (the key masked).

    A function of its own so that no frame that may raise holds ``os.environ``, whose
    ``repr`` would show every secret in the environment to an error tracker.
    """
    env = os.environ if environ is None else environ
    url = env.get(service.base_url_env) or None
    key = env.get(service.api_key_env) if service.api_key_env else None
    return url, SecretStr(key) if key else None


@dataclass(init=False, repr=False, eq=False, slots=True)
class ClientOptions(Frozen):
    """The resolved settings of one client; immutable, copied by ``with_options``.

    The API key is a `pydantic.SecretStr`: its ``repr`` and ``str`` hide the value.

    Attributes:
        service: what the service needs configured.
        base_url: the checked base URL, without a trailing slash.
        api_key: the API key, masked, or ``None``.
        timeout: the per-phase timeout of each request; ``None`` when not set, so that
            the httpx client's own applies (`DEFAULT_TIMEOUT` for the one the SDK
            creates).
        max_retries: retries after the first attempt.
        headers: extra headers, checked and stripped.
        deadline: the most seconds one call may take in all (see `DEFAULT_DEADLINE`),
            or ``None`` for no overall limit.
        max_response_bytes: the largest response body read (see
            `xswap_sdk._body.DEFAULT_MAX_RESPONSE_BYTES`).
        allow_insecure_http: whether ``http://`` to a non-loopback host was allowed;
            kept so that ``replace(base_url=...)`` applies the same choice.
        policy: the signing policy in force during each call of the client (see
            `xswap_sdk.policy`), or ``None``.
        journal: where the client's money journeys are written (see
            `xswap_sdk.journal`), or ``None``.
    """

    service: ServiceConfig
    base_url: str
    api_key: SecretStr | None = None
    timeout: httpx.Timeout | None = None
    max_retries: int = DEFAULT_MAX_RETRIES
    headers: Mapping[str, str] = field(default_factory=dict)
    deadline: float | None = DEFAULT_DEADLINE
    max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES
    allow_insecure_http: bool = False
    policy: Policy | None = None
    journal: Journal | None = None

    def __init__(
        self,
        service: ServiceConfig,
        base_url: str,
        api_key: SecretStr | None = None,
        timeout: httpx.Timeout | None = None,
        max_retries: int = DEFAULT_MAX_RETRIES,
        headers: Mapping[str, str] | None = None,
        deadline: float | None = DEFAULT_DEADLINE,
        max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
        allow_insecure_http: bool = False,
        policy: Policy | None = None,
        journal: Journal | None = None,
    ) -> None:
        object.__setattr__(self, "service", service)
        object.__setattr__(self, "base_url", base_url)
        object.__setattr__(self, "api_key", api_key)
        object.__setattr__(self, "timeout", timeout)
        object.__setattr__(self, "max_retries", max_retries)
        object.__setattr__(self, "headers", {} if headers is None else headers)
        object.__setattr__(self, "deadline", deadline)
        object.__setattr__(self, "max_response_bytes", max_response_bytes)
        object.__setattr__(self, "allow_insecure_http", allow_insecure_http)
        object.__setattr__(self, "policy", policy)
        object.__setattr__(self, "journal", journal)

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
        deadline: float | NotGiven | None = NOT_GIVEN,
        max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
        allow_insecure_http: bool = False,
        environ: Mapping[str, str] | None = None,
        policy: PolicyLike | None = None,
        journal: JournalArg | None = None,
        journal_key: str | bytes | None = None,
    ) -> ClientOptions:
        """Resolve settings: arguments first, then environment variables, then defaults.

        Every setting is checked here, before any I/O; see the module's rules.

        Args:
            service: the service's names and defaults.
            base_url: the base URL; defaults to the service's ``XSWAP_*_URL`` variable,
                then to its public URL.
            api_key: the API key; defaults to the service's ``XSWAP_*_API_KEY``.
            timeout: per-phase timeout; when not given, the httpx client's own.
            max_retries: retries after the first attempt.
            headers: extra headers for every request.
            deadline: the total seconds per call; `DEFAULT_DEADLINE` when not given,
                ``None`` for no overall limit.
            max_response_bytes: the response size cap.
            allow_insecure_http: accept ``http://`` to a non-loopback host (credentials
                then travel in clear text), whether from ``base_url`` or the variable.
            environ: the environment to read (``os.environ`` when ``None``).
            policy: a `xswap_sdk.policy.Policy`, or an approval callable, put in force
                during each call of the client.
            journal: a path, a ``postgresql://`` URL or a `xswap_sdk.journal.Journal`;
                defaults to ``XSWAP_JOURNAL``'s, else none.
            journal_key: the journal key of a journal given as a path or a URL;
                defaults to ``XSWAP_JOURNAL_KEY``'s.

        Returns:
            The settings.

        Raises:
            InvalidInputError: a setting breaks its rule; the error names the argument,
                or the environment variable the value came from.
        """
        if isinstance(api_key, str):
            api_key = SecretStr(api_key)  # no local of this frame holds the bare key
        if not isinstance(allow_insecure_http, bool):
            raise InvalidInputError("allow_insecure_http", "must be True or False")
        env_url, env_key = _read_environment(service, environ)
        environ_for_journal = (
            None
            if environ is None
            else {k: v for k, v in environ.items() if k in ("XSWAP_JOURNAL", "XSWAP_JOURNAL_KEY")}
        )
        environ = None  # a caller's stand-in environment may hold secrets too
        if base_url:
            url, url_argument = base_url, "base_url"
        elif env_url:
            url, url_argument = env_url, service.base_url_env
        else:
            url, url_argument = service.default_base_url, "base_url"
        key: SecretStr | None = None
        if api_key is not None:
            key = check_credential(api_key, argument="api_key")
        elif env_key is not None:
            key = check_credential(env_key, argument="api_key", env_var=service.api_key_env)
        return cls(
            service=service,
            base_url=check_base_url(
                url, argument=url_argument, allow_insecure_http=allow_insecure_http
            ),
            api_key=key,
            timeout=None if isinstance(timeout, NotGiven) else normalize_timeout(timeout),
            max_retries=check_max_retries(max_retries),
            headers=check_headers(headers or {}),
            deadline=DEFAULT_DEADLINE
            if isinstance(deadline, NotGiven)
            else check_deadline(deadline),
            max_response_bytes=check_max_response_bytes(max_response_bytes),
            allow_insecure_http=allow_insecure_http,
            policy=_check_policy(policy),
            journal=_check_journal(journal, environ_for_journal, journal_key),
        )

    def replace(
        self,
        *,
        base_url: str | NotGiven = NOT_GIVEN,
        api_key: str | SecretStr | NotGiven = NOT_GIVEN,
        timeout: TimeoutTypes | NotGiven = NOT_GIVEN,
        max_retries: int | NotGiven = NOT_GIVEN,
        headers: Mapping[str, str] | NotGiven = NOT_GIVEN,
        deadline: float | NotGiven | None = NOT_GIVEN,
        max_response_bytes: int | NotGiven = NOT_GIVEN,
        allow_insecure_http: bool | NotGiven = NOT_GIVEN,
        policy: PolicyLike | NotGiven | None = NOT_GIVEN,
        journal: JournalArg | NotGiven | None = NOT_GIVEN,
    ) -> ClientOptions:
        """A copy with some settings changed; the same validation applies.

        ``headers`` are added to the current ones. ``allow_insecure_http`` keeps its
        current value unless given; turning it off re-checks the current base URL.

        Args:
            base_url: a new base URL.
            api_key: a new API key.
            timeout: a new per-phase timeout.
            max_retries: a new retry count.
            headers: headers to add.
            deadline: a new total deadline per call, or ``None`` for none.
            max_response_bytes: a new response size cap.
            allow_insecure_http: allow ``http://`` to a non-loopback host, or not.
            policy: another signing policy, or ``None`` for none.
            journal: another journal (a path or a `xswap_sdk.journal.Journal`), or
                ``None`` for none (``XSWAP_JOURNAL`` is not read again).

        Returns:
            The new settings.

        Raises:
            InvalidInputError: a setting breaks its rule.
        """
        changes: dict[str, Any] = {}
        allow = self.allow_insecure_http
        if not isinstance(allow_insecure_http, NotGiven):
            if not isinstance(allow_insecure_http, bool):
                raise InvalidInputError("allow_insecure_http", "must be True or False")
            allow = changes["allow_insecure_http"] = allow_insecure_http
        if not isinstance(base_url, NotGiven):
            changes["base_url"] = check_base_url(base_url, allow_insecure_http=allow)
        elif allow != self.allow_insecure_http:
            check_base_url(self.base_url, allow_insecure_http=allow)
        if isinstance(api_key, str):
            api_key = SecretStr(api_key)  # no local of this frame holds the bare key
        if not isinstance(api_key, NotGiven):
            changes["api_key"] = check_credential(api_key, argument="api_key")
        if not isinstance(timeout, NotGiven):
            changes["timeout"] = normalize_timeout(timeout)
        if not isinstance(max_retries, NotGiven):
            changes["max_retries"] = check_max_retries(max_retries)
        if not isinstance(headers, NotGiven):
            changes["headers"] = {**self.headers, **check_headers(headers)}
        if not isinstance(deadline, NotGiven):
            changes["deadline"] = check_deadline(deadline)
        if not isinstance(max_response_bytes, NotGiven):
            changes["max_response_bytes"] = check_max_response_bytes(max_response_bytes)
        if not isinstance(policy, NotGiven):
            changes["policy"] = _check_policy(policy)
        if not isinstance(journal, NotGiven):
            # A journal opened from a URL or a path reads its key from XSWAP_JOURNAL_KEY.
            changes["journal"] = None if journal is None else _check_journal(journal, None)
        return dataclasses.replace(self, **changes)

    def __repr__(self) -> str:
        # Custom headers may carry credentials (an Authorization token), so values of
        # sensitive headers are hidden; the API key is a SecretStr and hides itself.
        # The base URL cannot hold a password: check_base_url refuses one.
        return (
            f"ClientOptions(service={self.service.name!r}, base_url={self.base_url!r}, "
            f"api_key={self.api_key!r}, timeout={self.timeout!r}, "
            f"max_retries={self.max_retries!r}, headers={redact_headers(self.headers)!r}, "
            f"deadline={self.deadline!r}, max_response_bytes={self.max_response_bytes!r}"
            f"{', allow_insecure_http=True' if self.allow_insecure_http else ''}"
            f"{', policy=set' if self.policy is not None else ''})"
        )
