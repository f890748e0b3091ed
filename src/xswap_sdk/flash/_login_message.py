"""What the swap backend asks a wallet to sign at login, checked before it is signed,
and how many logins a client may make.

Login signs, with the caller's key, whatever text ``POST /auth/message`` returns. A
compromised backend (or anything rewriting its answers) could return a Sign-In with
Ethereum message for another site, and the caller's signature would log the attacker in
there as the caller. `check_login_message` refuses such text before it is signed.
`LoginBudget` caps how often a client logs in, so that a backend answering 401 again and
again cannot make it sign message after message.

Why `UnsafePayloadError` for a message that fails the checks: it is the error of every
refusal to sign what a service sent (a `SigningError`, so it is caught with the other
signing failures), it names the field, what was expected and what was received, and a
caller who alarms on tampering has one type to watch. Text that cannot be signed at all
(a lone surrogate has no UTF-8 form) is a `LoginError`: the login failed, but nothing
points at tampering.
"""

from __future__ import annotations

import re
import threading
import weakref
from collections import deque
from typing import Final, Protocol

from .._clock import SYSTEM_CLOCK
from ..errors import LoginError, LoginRateLimitError, UnsafePayloadError
from ..types import _same_address, to_checksum

__all__ = [
    "DEFAULT_LOGINS_PER_MINUTE",
    "LoginBudget",
    "MonotonicClock",
    "check_login_message",
    "check_siwe_message",
    "forget_login_budgets",
    "shared_login_budget",
]

DEFAULT_LOGINS_PER_MINUTE: Final = 3
"""How many logins a client makes in any 60 seconds at most: a first login, one re-login
after a 401, and one spare. A backend that needs more is failing or hostile."""

# EIP-4361: "${scheme}://${domain} wants you to sign in with your Ethereum account:"
# (the scheme is optional). Matched on any line, not only the first, so that a message
# cannot hide a sign-in for another site below a harmless first line.
_SIWE_HEADER = re.compile(
    r"^(?:(?P<scheme>[A-Za-z][A-Za-z0-9+.\-]*)://)?(?P<authority>\S+) wants you to sign in "
    r"with your Ethereum account:\s*$",
    re.MULTILINE,
)
_URI_LINE = re.compile(r"^URI:\s*(?P<uri>\S+)\s*$", re.MULTILINE)
_URI_AUTHORITY = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*://(?:[^@/?#]*@)?(?P<authority>[^/?#]*)")
# Right-to-left overrides and isolates reorder what a wallet shows ("Trojan Source"):
# the text displayed would not read as the text signed.
_BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")


def _host_and_port(authority: str) -> tuple[str, str | None]:
    """``example.com:8080`` -> ``("example.com", "8080")``; IPv6 in brackets kept whole."""
    authority = authority.rsplit("@", 1)[-1].strip().lower()
    if authority.startswith("["):
        end = authority.find("]")
        host, rest = authority[: end + 1], authority[end + 1 :]
        return host, rest[1:] if rest.startswith(":") else None
    host, sep, port = authority.partition(":")
    return host.rstrip("."), port if sep else None


def _same_host(authority: str, configured: str) -> bool:
    host, port = _host_and_port(authority)
    want_host, want_port = _host_and_port(configured)
    if host != want_host:
        return False
    return port is None or want_port is None or port == want_port


def _names(message: str, address: str) -> bool:
    wanted = address[2:].lower()
    for match in re.finditer(r"0x[0-9a-fA-F]{40}(?![0-9a-fA-F])", message):
        start = match.start()
        if start > 0 and re.match(r"[0-9A-Za-z]", message[start - 1]):
            continue  # part of a longer word or hex string
        if match.group()[2:].lower() == wanted:
            return True
    return False


_SIWE_FIRST = re.compile(
    r"^(?:(?P<scheme>[A-Za-z][A-Za-z0-9+.\-]*)://)?(?P<authority>[^\s/?#]+) wants you to "
    r"sign in with your Ethereum account:$"
)
_SIWE_FIELDS: Final = (
    ("URI", True),
    ("Version", True),
    ("Chain ID", True),
    ("Nonce", True),
    ("Issued At", True),
    ("Expiration Time", False),
    ("Not Before", False),
    ("Request ID", False),
)
_NONCE = re.compile(r"^[A-Za-z0-9]{8,}$")


def _not_siwe(message: str, host: str, account: str, why: str) -> UnsafePayloadError:
    return UnsafePayloadError(
        "auth message",
        expected=f"an EIP-4361 Sign-In with Ethereum message for {host} and {account}",
        received=message if len(message) <= 300 else message[:300] + "...",
        hint=(
            f"Not signed: {why}. Text in another format could be another site's login. "
            "If your backend really sends another format, pass unsafe_login_message=True "
            "to the client (the text is then only checked to name your address and no "
            "other site)."
        ),
    )


def check_siwe_message(message: str, *, address: str, host: str) -> None:
    """Refuse a login message that is not a well-formed EIP-4361 (Sign-In with Ethereum)
    message for ``host`` and ``address``.

    The message must read, line by line: ``[scheme://]<host> wants you to sign in with
    your Ethereum account:``, the address, a blank line, an optional statement, then the
    fields ``URI`` (on ``host``), ``Version: 1``, ``Chain ID`` (digits), ``Nonce`` (8 or
    more letters and digits), ``Issued At``, optionally ``Expiration Time``, ``Not
    Before``, ``Request ID`` and ``Resources`` (``- <uri>`` lines), in that order, and
    nothing else. The host's port, when both name one, must match.

    Raises:
        UnsafePayloadError: anything else; nothing is signed.
    """
    account = to_checksum(address)
    lines = message.replace("\r\n", "\n").split("\n")
    header = _SIWE_FIRST.match(lines[0])
    if header is None:
        raise _not_siwe(message, host, account, "it is not a Sign-In with Ethereum message")
    if not _same_host(header.group("authority"), host):
        raise UnsafePayloadError(
            "auth message domain",
            expected=host,
            received=header.group("authority"),
            hint="This is a Sign-In with Ethereum message for another site.",
        )
    if len(lines) < 2 or not _same_address(lines[1].strip(), account):
        raise UnsafePayloadError(
            "auth message account",
            expected=account,
            received=lines[1] if len(lines) > 1 else None,
        )
    rest = lines[2:]
    # An optional statement between blank lines, then the fields.
    while rest and rest[0] == "":
        rest = rest[1:]
    if rest and not rest[0].startswith("URI: "):
        rest = rest[1:]  # the statement
        while rest and rest[0] == "":
            rest = rest[1:]
    values: dict[str, str] = {}
    for name, required in _SIWE_FIELDS:
        prefix = f"{name}: "
        if rest and rest[0].startswith(prefix):
            values[name] = rest[0][len(prefix) :].strip()
            rest = rest[1:]
        elif required:
            raise _not_siwe(message, host, account, f"its {name} field is missing or misplaced")
    if rest and rest[0] == "Resources:":
        rest = rest[1:]
        while rest and rest[0].startswith("- "):
            rest = rest[1:]
    if any(line.strip() for line in rest):
        raise _not_siwe(message, host, account, f"it has unexpected text: {rest[0][:80]!r}")
    if values["Version"] != "1":
        raise _not_siwe(message, host, account, "its Version is not 1")
    if not values["Chain ID"].isdigit():
        raise _not_siwe(message, host, account, "its Chain ID is not a number")
    if _NONCE.match(values["Nonce"]) is None:
        raise _not_siwe(message, host, account, "its Nonce is not 8+ letters and digits")
    found = _URI_AUTHORITY.match(values["URI"])
    if found is None or not _same_host(found.group("authority"), host):
        raise UnsafePayloadError(
            "auth message URI",
            expected=f"a URI on {host}",
            received=values["URI"],
            hint="This is a Sign-In with Ethereum message for another site.",
        )


def check_login_message(
    message: str, *, address: str, host: str, unsafe_any_format: bool = False
) -> None:
    """Refuse a login message that the caller's key must not sign.

    By default only a well-formed EIP-4361 message for ``host`` and ``address`` is
    signed (see `check_siwe_message`). With ``unsafe_any_format`` (the client's
    ``unsafe_login_message=True``) text of another shape is accepted too, as long as
    the checks below pass. In both cases the message is refused when it:

    - is not text that can be signed (not a ``str``, or holding a lone surrogate);
    - does not name ``address`` (any case; as a whole ``0x`` + 40 hex digits);
    - holds Unicode direction controls, which make a wallet show other text than is
      signed;
    - is (or holds) an EIP-4361 Sign-In with Ethereum message whose domain, or whose
      ``URI:`` line, is not ``host``, or whose account line is not ``address``.

    The spec does not say what the backend's message looks like; EIP-4361 is the one
    format that binds a login to one site, so it is the only one signed by default.

    Args:
        message: the text ``POST /auth/message`` returned.
        address: the caller's address (the signer's).
        host: the swap backend's configured host, e.g. ``"flash.rath.fi"`` (a port, if
            given, must match one in the message).
        unsafe_any_format: DANGEROUS: sign text that is not EIP-4361 when it names the
            address and no other site.

    Raises:
        UnsafePayloadError: the message is for another account or another site, or is
            not shown as it reads.
        LoginError: the message is not signable text.
        ValueError: ``address`` is not an address (a programming error).
    """
    if not isinstance(message, str):
        raise LoginError("the backend's sign-in message is not text; nothing was signed")
    try:
        message.encode("utf-8")
    except UnicodeEncodeError:
        raise LoginError(
            "the backend's sign-in message cannot be signed: it holds characters with no "
            "UTF-8 form (lone surrogates); nothing was signed"
        ) from None
    account = to_checksum(address)
    direction = _BIDI_CONTROLS.search(message)
    if direction is not None:
        raise UnsafePayloadError(
            "auth message",
            expected="text without Unicode direction controls",
            received=f"U+{ord(direction.group()):04X} at character {direction.start()}",
            hint="A wallet would show this message differently from what is signed.",
        )
    if not _names(message, account):
        raise UnsafePayloadError(
            "auth message",
            expected=f"a sign-in message naming {account}",
            received=message,
        )
    if not unsafe_any_format:
        check_siwe_message(message, address=account, host=host)
        return
    for header in _SIWE_HEADER.finditer(message):
        authority = header.group("authority")
        if not _same_host(authority, host):
            raise UnsafePayloadError(
                "auth message domain",
                expected=host,
                received=authority,
                hint="This is a Sign-In with Ethereum message for another site.",
            )
        following = message[header.end() :].lstrip("\r\n").split("\n", 1)[0].strip()
        if not _same_address(following, account):
            raise UnsafePayloadError("auth message account", expected=account, received=following)
        uri = _URI_LINE.search(message, header.end())
        if uri is not None:
            found = _URI_AUTHORITY.match(uri.group("uri"))
            uri_authority = found.group("authority") if found else uri.group("uri")
            if not _same_host(uri_authority, host):
                raise UnsafePayloadError(
                    "auth message URI",
                    expected=f"a URI on {host}",
                    received=uri.group("uri"),
                    hint="This is a Sign-In with Ethereum message for another site.",
                )


class MonotonicClock(Protocol):
    """Anything with ``monotonic()``: a `xswap_sdk.Clock`, or the ``time`` module."""

    def monotonic(self) -> float:
        """Seconds on a clock that never goes backwards."""
        ...


class LoginBudget:
    """At most ``limit`` logins in any ``window`` seconds (60 by default).

    The client spends one unit before each login (the first one and each re-login after a
    401); when none is left, the login is refused instead of signing another message.
    Safe to share between threads.

    Args:
        limit: logins allowed per window; `DEFAULT_LOGINS_PER_MINUTE` when not given.
        window: the window, in seconds.
        clock: where the time comes from (``clock.monotonic()``); the real clock when
            not given, the client's `VirtualClock` in tests.

    Raises:
        ValueError: ``limit`` is not a positive int, or ``window`` not a positive number.
    """

    def __init__(
        self,
        limit: int = DEFAULT_LOGINS_PER_MINUTE,
        *,
        window: float = 60.0,
        clock: MonotonicClock | None = None,
    ) -> None:
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise ValueError("limit must be a positive int")
        if isinstance(window, bool) or not isinstance(window, int | float) or not window > 0:
            raise ValueError("window must be a positive number of seconds")
        self.limit = limit
        self.window = float(window)
        self._clock: MonotonicClock = SYSTEM_CLOCK if clock is None else clock
        self._spent: deque[float] = deque()
        self._lock = threading.Lock()

    def _forget_old(self, now: float) -> None:
        while self._spent and now - self._spent[0] >= self.window:
            self._spent.popleft()

    @property
    def remaining(self) -> int:
        """How many logins may be made now."""
        with self._lock:
            self._forget_old(self._clock.monotonic())
            return self.limit - len(self._spent)

    def retry_after(self) -> float:
        """Seconds until a login may be made again (0 when one may be made now)."""
        with self._lock:
            now = self._clock.monotonic()
            self._forget_old(now)
            if len(self._spent) < self.limit:
                return 0.0
            return max(0.0, self._spent[0] + self.window - now)

    def try_spend(self) -> bool:
        """Use one login if one is left; return whether it was."""
        with self._lock:
            now = self._clock.monotonic()
            self._forget_old(now)
            if len(self._spent) >= self.limit:
                return False
            self._spent.append(now)
            return True

    def spend(self) -> None:
        """Use one login.

        Raises:
            LoginRateLimitError: ``limit`` logins were already made in the last
                ``window`` seconds; nothing is signed (``retry_after`` says when one
                may be made again).
        """
        if not self.try_spend():
            raise LoginRateLimitError(
                retry_after=self.retry_after(), limit=self.limit, window=self.window
            )

    def __repr__(self) -> str:
        return f"LoginBudget(limit={self.limit}, window={self.window:g})"


# Per clock (each timeline counts its own seconds), per (signer, host): process-wide.
_BUDGETS: weakref.WeakKeyDictionary[object, dict[tuple[str, str], LoginBudget]] = (
    weakref.WeakKeyDictionary()
)
_BUDGETS_LOCK = threading.Lock()


def shared_login_budget(address: str, host: str, clock: MonotonicClock) -> LoginBudget:
    """The one login budget of ``address`` at ``host``, shared by every client in this
    process that uses ``clock`` (the real clock, for every live client).

    A budget per client object would let a program (or a backend that keeps answering
    401 to fresh clients) make three logins a minute per client; shared, the signer
    signs at most `DEFAULT_LOGINS_PER_MINUTE` login messages a minute for one host.
    Clients on different clocks (tests, each on its own `VirtualClock`) count apart.
    """
    key = (address.lower(), host.lower())
    with _BUDGETS_LOCK:
        per_clock = _BUDGETS.get(clock)
        if per_clock is None:
            per_clock = {}
            _BUDGETS[clock] = per_clock
        budget = per_clock.get(key)
        if budget is None:
            budget = LoginBudget(clock=clock)
            per_clock[key] = budget
        return budget


def forget_login_budgets() -> None:
    """Forget every shared login budget (for test suites that log in with one key on the
    real clock from many tests)."""
    with _BUDGETS_LOCK:
        _BUDGETS.clear()
