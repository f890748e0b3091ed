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
from collections import deque
from typing import Final, Protocol

from .._clock import SYSTEM_CLOCK
from ..errors import LoginError, UnsafePayloadError
from ..types import to_checksum

__all__ = [
    "DEFAULT_LOGINS_PER_MINUTE",
    "LoginBudget",
    "MonotonicClock",
    "check_login_message",
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


def check_login_message(message: str, *, address: str, host: str) -> None:
    """Refuse a login message that the caller's key must not sign.

    The message is refused when it:

    - is not text that can be signed (not a ``str``, or holding a lone surrogate);
    - does not name ``address`` (any case; as a whole ``0x`` + 40 hex digits);
    - holds Unicode direction controls, which make a wallet show other text than is
      signed;
    - is (or holds) an EIP-4361 Sign-In with Ethereum message whose domain, or whose
      ``URI:`` line, is not ``host``, or whose account line is not ``address``.

    A message of another shape is accepted when it names the address: the spec does not
    say what the backend's message looks like.

    Args:
        message: the text ``POST /auth/message`` returned.
        address: the caller's address (the signer's).
        host: the swap backend's configured host, e.g. ``"flash.rath.fi"`` (a port, if
            given, must match one in the message).

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
        if following.lower() != account.lower():
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
            LoginError: ``limit`` logins were already made in the last ``window``
                seconds; nothing is signed.
        """
        if not self.try_spend():
            wait = self.retry_after()
            raise LoginError(
                f"refusing to log in again: {self.limit} logins in the last "
                f"{self.window:g} s already (the backend keeps rejecting the session, "
                f"or asks for logins it should not). Try again in {wait:.0f} s."
            )

    def __repr__(self) -> str:
        return f"LoginBudget(limit={self.limit}, window={self.window:g})"
