"""Wallet-signature login and the session that keeps its JWT.

The login is one flow, shared by both clients: ask the backend for a message
(``POST /auth/message``), sign it as an EIP-191 personal message, and trade the
signature for a JWT (``POST /auth/verify``). Any failure on the way raises `LoginError`,
chained to its cause.

A client's `SessionState` holds the JWT, the signer that may log in again, and a
generation number that grows with each new token. Copies made with ``with_options``
share it, so a login or a re-login done through one copy serves them all. `FlashAuth`
is the transport's view of it (see ``xswap_sdk._auth``): the request loop logs in
before the first call that needs the JWT and once more after a 401. Concurrent calls
that all meet a 401 re-login once: each remembers the generation it sent with, and
under the session's lock only the first finds it unchanged and logs in; the others see
a newer generation and resend with the new token.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Final

from pydantic import BaseModel, ConfigDict, SecretStr

from .._auth import Auth, new_login_lock
from .._clock import SYSTEM_CLOCK, Clock
from .._concurrency import LoopBound
from .._flow import Call, Flow
from .._operation import Operation
from ..errors import (
    APIError,
    InvalidInputError,
    LoginError,
    MissingCredentialsError,
    PolicyRefusedError,
    SigningError,
)
from ..types import _same_address
from . import _operations as operations

if TYPE_CHECKING:
    import asyncio

    from ..signing.signer import Signer
    from ._auth_models import AuthMessage, AuthVerification
    from ._login_message import LoginBudget

__all__ = [
    "JWT_ENV",
    "AuthSession",
    "FlashAuth",
    "SessionState",
    "check_identity",
    "login",
    "missing_login",
]

JWT_ENV: Final = "XSWAP_FLASH_JWT"
"""The environment variable a client reads its JWT from when ``jwt=`` is not given."""


class AuthSession(BaseModel):
    """The result of a login: who is logged in, and the JWT.

    Attributes:
        user_address: the address the backend logged in (checksummed).
        referral_code: the user's own referral code.
        is_new_user: whether this login created the account.
        token: the JWT, as a `pydantic.SecretStr`: ``repr`` and ``str`` hide it, and
            ``token.get_secret_value()`` gives it (to keep it in ``XSWAP_FLASH_JWT``).
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(frozen=True, defer_build=True)

    user_address: str | None = None
    referral_code: str | None = None
    is_new_user: bool | None = None
    token: SecretStr


class SessionState:
    """The JWT and the re-login machinery of one client and its ``with_options`` copies.

    The token and its generation are replaced together, as one tuple, so a reader never
    pairs a new generation with an old token.
    """

    def __init__(
        self,
        *,
        token: SecretStr | None,
        signer: Signer | None,
        clock: Clock = SYSTEM_CLOCK,
        host: str | None = None,
        unsafe_login_message: bool = False,
    ) -> None:
        self._state: tuple[SecretStr | None, int] = (token, 0)
        self.signer = signer
        self.session: AuthSession | None = None
        self.clock = clock
        # The host whose token this is: a token is never sent to another host.
        self.host = host
        self.unsafe_login_message = unsafe_login_message
        self._lock = threading.Lock()
        self._async_lock = LoopBound(new_login_lock)

    def budget(self, address: str) -> LoginBudget:
        """The logins-per-minute budget of ``address`` at this session's host, shared by
        every client of the process on the same clock (see `shared_login_budget`)."""
        from ._login_message import shared_login_budget  # lazy: a login's budget only

        return shared_login_budget(address, self.host or "", self.clock)

    def for_host(self, host: str) -> SessionState:
        """A session for another host: the same signer, no token (it logs in there)."""
        return SessionState(
            token=None,
            signer=self.signer,
            clock=self.clock,
            host=host,
            unsafe_login_message=self.unsafe_login_message,
        )

    @property
    def token(self) -> SecretStr | None:
        """The current JWT, if any."""
        return self._state[0]

    @property
    def generation(self) -> int:
        """How many tokens this session has been given by logins."""
        return self._state[1]

    def snapshot(self) -> tuple[SecretStr | None, int]:
        """The token and its generation, read together."""
        return self._state

    def lock(self) -> threading.Lock:
        """The lock blocking calls log in under."""
        return self._lock

    def async_lock(self) -> asyncio.Lock:
        """The lock async calls log in under, on the running event loop."""
        return self._async_lock.get()

    def store(self, session: AuthSession, signer: Signer) -> AuthSession:
        """Keep a new login's token; later re-logins use ``signer``."""
        self._state = (session.token, self._state[1] + 1)
        self.session = session
        self.signer = signer
        return session

    def keep(self, flow: Flow[AuthSession], signer: Signer) -> Flow[AuthSession]:
        """Run a login flow and `store` what it returns."""
        return self.store((yield from flow), signer)

    def __repr__(self) -> str:
        return (
            f"SessionState(token={'set' if self.token else 'unset'}, generation={self.generation})"
        )


class FlashAuth(Auth):
    """The transport's view of a `SessionState`: the bearer token, and logging in.

    Args:
        state: the session, shared with ``with_options`` copies.
        client: the client's class name, for the error that says how to log in.
        signer: a signer for this call only (the one-call swap's), used when the
            session has none of its own.
    """

    def __init__(
        self, state: SessionState, *, client: str, host: str, signer: Signer | None = None
    ) -> None:
        super().__init__()
        self.state = state
        self._client = client
        self._host = host
        self._signer = signer

    def with_signer(self, signer: Signer) -> FlashAuth:
        """The same session, able to log in with ``signer`` when it has no signer."""
        return FlashAuth(self.state, client=self._client, host=self._host, signer=signer)

    @property
    def generation(self) -> int:
        """The session's generation; see `SessionState.generation`."""
        return self.state.generation

    def _login_signer(self, what: str) -> Signer:
        chosen = self.state.signer or self._signer
        if chosen is None:
            raise missing_login(self._client, what)
        return chosen

    def _own_token(self) -> SecretStr | None:
        # A token issued by one host is never sent to another.
        return self.state.token if self.state.host in (None, self._host) else None

    def headers(self, operation: Operation[Any], /) -> Mapping[str, str]:
        """The bearer token for the operations that need it, nothing for others."""
        if operation.auth != "required":
            return {}
        token = self._own_token()
        if token is None:
            raise missing_login(self._client, f"{operation.method} {operation.log_path}")
        return {"Authorization": f"Bearer {token.get_secret_value()}"}

    def secrets(self) -> list[str]:
        """The JWT, to scrub from error messages."""
        token = self.state.token
        return [token.get_secret_value()] if token is not None else []

    def needs_login(self, operation: Operation[Any] | None, /) -> bool:
        """Whether there is no JWT yet for an operation (or a flow) that needs one."""
        return (operation is None or operation.auth == "required") and self._own_token() is None

    def can_login(self, operation: Operation[Any], /) -> bool:
        """Whether a 401 on ``operation`` may be answered by logging in again."""
        return operation.auth == "required" and (self.state.signer or self._signer) is not None

    def login_flow(self, operation: Operation[Any] | None, /) -> Flow[AuthSession]:
        """Log in with the session's signer (or this call's) and keep the new JWT.

        Raises:
            MissingCredentialsError: there is no signer to log in with.
        """
        what = "this call" if operation is None else f"{operation.method} {operation.log_path}"
        signer = self._login_signer(what)
        from ..signing.signer import signer_address  # lazy: the signer, at a login

        flow = login(
            signer,
            host=self._host,
            budget=self.state.budget(signer_address(signer)),
            unsafe_login_message=self.state.unsafe_login_message,
        )
        return self.state.keep(flow, signer)

    def lock(self) -> threading.Lock:
        """The session's lock, shared with the client's copies."""
        return self.state.lock()

    def async_lock(self) -> asyncio.Lock:
        """The session's async lock, shared with the client's copies."""
        return self.state.async_lock()

    def __repr__(self) -> str:
        return f"FlashAuth({self.state!r})"


def check_identity(session: SessionState, address: str, signer: Signer | None = None) -> None:
    """Refuse to act for ``address`` with a session that belongs to someone else.

    The backend ties the JWT to one wallet; an order signed by another would be
    submitted under the wrong login. ``signer``, when given, is the signer whose
    address ``address`` is (a swap plan's): when the session's signer is that very
    object, its address is not read again.
    """
    known = [session.session.user_address] if session.session else []
    if session.signer is not None and session.signer is not signer:
        from ..signing.signer import signer_address  # lazy: the signer's code, with a signer

        known.append(signer_address(session.signer))
    for other in known:
        if other is not None and not _same_address(other, address):
            raise InvalidInputError(
                "signer",
                f"is {address}, but this client is logged in as {other}: use a client "
                "for that wallet (or call login(signer) first)",
            )


def missing_login(client: str, what: str) -> MissingCredentialsError:
    """The error for an authenticated call on a client that cannot log in."""
    return MissingCredentialsError(
        "signer",
        f"{what} needs a login: pass signer=... (to log in automatically) or jwt=... to "
        f"{client}, set {JWT_ENV}, or call login(signer) first",
        env_var=JWT_ENV,
    )


def login(
    signer: Signer,
    referred_by_code: str | None = None,
    *,
    host: str,
    budget: LoginBudget | None = None,
    unsafe_login_message: bool = False,
) -> Flow[AuthSession]:
    """The login flow: message, EIP-191 signature, verification.

    Arguments are checked at once, before any I/O. The message is signed only when it
    is a well-formed Sign-In with Ethereum message for ``host`` and the signer's
    address (see `check_login_message`), and only while ``budget`` allows another
    login.

    Args:
        signer: the wallet that logs in.
        referred_by_code: a referral code to attribute the user to.
        host: the swap backend's host (``host[:port]`` of its base URL).
        budget: the logins-per-minute budget of the signer at ``host``.
        unsafe_login_message: DANGEROUS: sign a message of another format when it
            names the address and no other site.

    Raises:
        InvalidInputError: ``signer`` is not a `Signer`, or a bad ``referred_by_code``.
    """
    from ..signing.signer import signer_address  # lazy: the signer, at a login

    address = signer_address(signer)
    if referred_by_code is not None and (
        not isinstance(referred_by_code, str) or not referred_by_code.strip()
    ):
        raise InvalidInputError("referred_by_code", "must be a non-empty string or None")
    return _login_steps(signer, address, referred_by_code, host, budget, unsafe_login_message)


def _login_steps(
    signer: Signer,
    address: str,
    referred_by_code: str | None,
    host: str,
    budget: LoginBudget | None,
    unsafe_login_message: bool,
) -> Flow[AuthSession]:
    if budget is not None:
        budget.spend()
    try:
        message: AuthMessage = yield Call(operations.request_auth_message(address))
    except APIError as exc:
        raise LoginError(f"login failed: no message to sign ({exc})") from exc
    # The backend chooses the text; the wallet's signature must not be usable elsewhere.
    from ..signing.signer import personal_sign  # lazy: the signer, at a login
    from ._login_message import check_login_message  # lazy: a login's check only

    check_login_message(
        message.message, address=address, host=host, unsafe_any_format=unsafe_login_message
    )
    try:
        signature = personal_sign(signer, message.message)
    except PolicyRefusedError:
        raise  # the caller's own policy said no: not a failed login
    except SigningError as exc:
        raise LoginError(f"login failed: the message could not be signed ({exc})") from exc
    try:
        verified: AuthVerification = yield Call(
            operations.verify_auth(signature, message.message_id, referred_by_code)
        )
    except APIError as exc:
        raise LoginError(f"login failed: the signature was not accepted ({exc})") from exc
    if not verified.token.get_secret_value().strip():
        raise LoginError("login failed: the backend returned an empty token")
    if verified.user_address is not None and not _same_address(verified.user_address, address):
        # A token for someone else would sign our swaps in their name: refuse it.
        raise LoginError(
            f"login failed: the backend logged in {verified.user_address}, not {address}"
        )
    return AuthSession(
        user_address=verified.user_address or address,
        referral_code=verified.referral_code,
        is_new_user=verified.is_new_user,
        token=verified.token,
    )
