"""What every client shares: configuration, credentials, copies, raw access.

`APIClientBase` holds the resolved options, the auth and the transport. The
flavour-specific part (the transport class, closing, context managers) is written once
in ``_async_base_client.py`` and generated into ``_sync_base_client.py``. A service
client subclasses one of those, names its `ServiceConfig` and framing, and writes each
public method as one line over an operation from its ``_operations`` module.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import inspect
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Self, TypeVar, cast

import httpx
from pydantic import SecretStr

from ._auth import ApiKeyAuth, Auth
from ._capture import RawResponse, capture_responses
from ._clock import SYSTEM_CLOCK, Clock
from ._concurrency import pool_size
from ._framing import Framing
from ._http import HTTPX, Stack, stack_of
from ._keywords import KeywordCheck, keyword_checked, mark
from ._logging import configure_from_env
from ._options import (
    DEFAULT_MAX_RESPONSE_BYTES,
    DEFAULT_MAX_RETRIES,
    DEFAULT_TIMEOUT,
    NOT_GIVEN,
    ClientOptions,
    NotGiven,
    ServiceConfig,
    TimeoutTypes,
    check_limits,
)
from ._policy_scope import scoped
from ._pool import Pool
from ._transport import BaseTransport, Hooks
from .errors import InvalidInputError, JourneyBusyError, JourneyTamperedError
from .events import RequestHook, ResponseHook, RetryHook
from .types import _same_address

if TYPE_CHECKING:
    from ._chain_steps import ChainIO
    from .journal import Journal, JournalArg, Journey, Owner, StepHook
    from .policy import Policy, PolicyLike
    from .signing.signer import Signer
    from .signing.solana import SolanaSigner

__all__ = ["APIClientBase", "checked_claim", "env_signer", "release"]

HttpClientT = TypeVar("HttpClientT", httpx.Client, httpx.AsyncClient)
TransportT = TypeVar("TransportT", bound=BaseTransport[Any])


class APIClientBase(Generic[HttpClientT, TransportT]):
    """Configuration, auth and transport of one client; see the module docstring."""

    _service: ClassVar[ServiceConfig]
    _framing: ClassVar[Framing]
    _http_client_type: ClassVar[type[Any]]
    _transport_type: ClassVar[type[BaseTransport[Any]]]
    _options: ClientOptions
    _transport: TransportT

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # The client's signing policy is in force during each of its public methods, so
        # that whatever a call signs, directly or in a flow, passes it (see
        # xswap_sdk._policy_scope.scoped); and each checks its keywords first, so a
        # misspelt one raises TypeError before anything is signed or sent (see
        # xswap_sdk._keywords).
        super().__init_subclass__(**kwargs)
        for name, member in list(vars(cls).items()):
            if name == "__init__" and inspect.isfunction(member):
                setattr(cls, name, keyword_checked(member))
            elif not name.startswith("_") and inspect.isfunction(member):
                keywords = KeywordCheck(member)
                wrapper = scoped(member, keywords)
                mark(wrapper, keywords)
                setattr(cls, name, wrapper)

    def __init__(
        self,
        *,
        api_key: str | SecretStr | None = None,
        base_url: str | None = None,
        timeout: TimeoutTypes | NotGiven = NOT_GIVEN,
        max_retries: int = DEFAULT_MAX_RETRIES,
        headers: Mapping[str, str] | None = None,
        # An httpx client of HttpClientT's kind, or httpx2's twin of it (see _http.py);
        # the service clients' signatures name both.
        http_client: object = None,
        clock: Clock = SYSTEM_CLOCK,
        deadline: float | NotGiven | None = NOT_GIVEN,
        max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
        allow_insecure_http: bool = False,
        on_request: RequestHook | None = None,
        on_response: ResponseHook | None = None,
        on_retry: RetryHook | None = None,
        limits: httpx.Limits | None = None,
        policy: PolicyLike | None = None,
        journal: JournalArg | None = None,
        journal_key: str | bytes | None = None,
        on_step: StepHook | None = None,
        progress: bool = False,
    ) -> None:
        is_async = self._http_client_type is httpx.AsyncClient
        stack = HTTPX if http_client is None else stack_of(http_client, is_async=is_async)
        if stack is None:
            kind = self._http_client_type.__name__
            raise InvalidInputError(
                "http_client",
                f"must be an httpx.{kind} or an httpx2.{kind} for {type(self).__name__}",
            )
        if not isinstance(clock, Clock):
            raise InvalidInputError("clock", "must have monotonic(), sleep() and asleep()")
        checked_limits = check_limits(limits, http_client_given=http_client is not None)
        configure_from_env()
        self._options = ClientOptions.resolve(
            self._service,
            api_key=api_key,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            headers=headers,
            deadline=deadline,
            max_response_bytes=max_response_bytes,
            allow_insecure_http=allow_insecure_http,
            policy=policy,
            journal=journal,
            journal_key=journal_key,
        )
        self._transport = self._transport_type(  # type: ignore[assignment]
            options=self._options,
            framing=self._framing,
            # The transport drives an httpx2 client as an httpx one: the same API.
            pool=self._pool(cast(HttpClientT | None, http_client), checked_limits, stack),
            auth=self._make_auth(),
            clock=clock,
            hooks=Hooks.checked(
                on_request,
                on_response,
                on_retry,
                can_await=self._http_client_type is httpx.AsyncClient,
                on_step=on_step,
                progress=progress,
            ),
        )
        # As given (the transport's hook has the progress display folded in), so that
        # with_options can change one of them and keep the other.
        self._step_options: tuple[StepHook | None, bool] = (on_step, progress)

    def _pool(
        self, http_client: HttpClientT | None, limits: httpx.Limits, stack: Stack
    ) -> Pool[HttpClientT]:
        """The connection pool: the caller's httpx (or httpx2) client, or an httpx one
        made on first use with ``limits`` and `DEFAULT_TIMEOUT`; either way with a gate
        sized to it."""
        size = limits.max_connections if http_client is None else pool_size(http_client)
        # The gate works around httpcore 1.0's pool; httpcore2's needs none (see _concurrency.py).
        gate = None if size is None or not stack.gated else self._transport_type.gate_type(size)
        http_client_type = self._http_client_type

        def create() -> HttpClientT:
            return http_client_type(limits=limits, timeout=DEFAULT_TIMEOUT)  # type: ignore[no-any-return]

        return Pool(create, http_client, gate, stack)

    def _make_auth(self) -> Auth:
        """The auth of this client's options: the service's API key header, if it has one."""
        service = self._service
        if service.api_key_header is None:
            return Auth()
        return ApiKeyAuth(
            header=service.api_key_header,
            key=self._options.api_key,
            client=type(self).__name__,
            env_var=service.api_key_env,
        )

    @keyword_checked
    def with_options(
        self,
        *,
        api_key: str | SecretStr | NotGiven = NOT_GIVEN,
        base_url: str | NotGiven = NOT_GIVEN,
        timeout: TimeoutTypes | NotGiven = NOT_GIVEN,
        max_retries: int | NotGiven = NOT_GIVEN,
        headers: Mapping[str, str] | NotGiven = NOT_GIVEN,
        deadline: float | NotGiven | None = NOT_GIVEN,
        max_response_bytes: int | NotGiven = NOT_GIVEN,
        allow_insecure_http: bool | NotGiven = NOT_GIVEN,
        policy: PolicyLike | NotGiven | None = NOT_GIVEN,
        journal: JournalArg | NotGiven | None = NOT_GIVEN,
        on_step: StepHook | NotGiven | None = NOT_GIVEN,
        progress: bool | NotGiven = NOT_GIVEN,
    ) -> Self:
        """A copy of this client with some settings changed, sharing its connection pool.

        Closing the copy leaves the pool open; close the original when done.
        ``headers`` are added to the current ones. Each setting is checked as the
        constructor checks it, before anything is copied.

        Args:
            api_key: another API key (clients of services that take one).
            base_url: another base URL.
            timeout: another default timeout.
            max_retries: another default retry count.
            headers: headers to add to (or replace among) the current ones.
            deadline: another total deadline per call, in seconds (``None``: none).
            max_response_bytes: another response size cap.
            allow_insecure_http: allow (or stop allowing) ``http://`` to a host that
                is not this machine.
            policy: another signing policy (`xswap_sdk.policy.Policy` or an approval
                callable), or ``None`` for none.
            journal: another journal for the copy's money journeys: a path to an
                SQLite file, a ``postgresql://`` URL (its key from
                ``XSWAP_JOURNAL_KEY``) or a `xswap_sdk.journal.Journal`; ``None`` for none
                (``XSWAP_JOURNAL`` is not read again).
            on_step: another step hook (see `xswap_sdk.journal.StepHook`), or ``None``
                for none; the progress display stays as it was unless ``progress`` is
                given.
            progress: turn the progress display on or off for the copy.
        """
        if not isinstance(api_key, NotGiven) and self._service.api_key_header is None:
            raise InvalidInputError(
                "api_key", f"is not used by {type(self).__name__}: this service takes no API key"
            )
        steps, hooks = self._step_options, self._transport.hooks
        if not isinstance(on_step, NotGiven) or not isinstance(progress, NotGiven):
            steps = (
                steps[0] if isinstance(on_step, NotGiven) else on_step,
                steps[1] if isinstance(progress, NotGiven) else progress,
            )
            # The constructor's checks; only the step hook of the result is used.
            checked = Hooks.checked(
                None,
                None,
                None,
                can_await=self._http_client_type is httpx.AsyncClient,
                on_step=steps[0],
                progress=steps[1],
            )
            hooks = dataclasses.replace(hooks, on_step=checked.on_step)
        clone = copy.copy(self)
        clone._options = self._options.replace(
            api_key=api_key,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            headers=headers,
            deadline=deadline,
            max_response_bytes=max_response_bytes,
            allow_insecure_http=allow_insecure_http,
            policy=policy,
            journal=journal,
        )
        clone._transport = self._transport.derive(clone._options, clone._make_auth())
        clone._transport.hooks = hooks
        clone._step_options = steps
        return clone

    @property
    def base_url(self) -> str:
        """The service's base URL, without a trailing slash."""
        return self._options.base_url

    @property
    def timeout(self) -> httpx.Timeout:
        """The default timeout of every request: the one given to this client, else its
        ``http_client``'s own, else `DEFAULT_TIMEOUT`."""
        return self._options.timeout or self._transport.pool.timeout

    @property
    def max_retries(self) -> int:
        """How many times a failed request may be retried, by default."""
        return self._options.max_retries

    @property
    def deadline(self) -> float | None:
        """The most seconds one call may take in all, retries included (``None``: no
        overall limit)."""
        return self._options.deadline

    @property
    def policy(self) -> Policy | None:
        """The signing policy in force during each call of this client, or ``None``."""
        return self._options.policy

    @property
    def journal(self) -> Journal | None:
        """Where this client's money journeys are written, or ``None``."""
        return self._options.journal

    @property
    def clock(self) -> Clock:
        """The clock used for retry waits and polling."""
        return self._transport.clock

    # -- resume (the I/O part is the flavour's ``resume``)

    _journey_client: ClassVar[str | None] = None
    """The name this client has in the table of journey kinds (``xswap_sdk._kinds``)."""

    def _resumable(
        self, journey_id: object, force: object, restart: object
    ) -> tuple[Journal, str | None]:
        """The journal and the kind of the journey to resume, checked before any I/O
        but the journal's; the kind is ``None`` for a journey that is over.

        Raises:
            InvalidInputError: a bad argument, no journal, no such journey, or one of
                another client's kind.
            JourneyTamperedError: its MAC does not verify.
        """
        from ._kinds import kinds_of  # lazy: resuming a journey only
        from .journal import DONE_STATES  # lazy: journals and resumes only

        for name, flag in (("force", force), ("restart", restart)):
            if not isinstance(flag, bool):
                raise InvalidInputError(name, "must be True or False")
        journal = self._options.journal
        if journal is None:
            raise InvalidInputError(
                "journal",
                "resume needs the journal the journey was written to (journal= or XSWAP_JOURNAL)",
            )
        if not isinstance(journey_id, str) or not journey_id:
            raise InvalidInputError("journey_id", "must be a journey id from the journal")
        journey = journal.journey(journey_id)
        if journey is None:
            raise InvalidInputError("journey_id", f"no journey {journey_id} in the journal")
        kinds = kinds_of(self._journey_client) if self._journey_client else ()  # type: ignore[arg-type]
        if journey.kind not in kinds:
            raise InvalidInputError(
                "journey_id",
                f"is a {journey.kind} journey; {type(self).__name__} resumes "
                f"{', '.join(kinds) or 'no'} journeys",
            )
        checked_claim(journey)
        return journal, None if journey.state in DONE_STATES else journey.kind

    def _signer_for_resume(self) -> Signer | None:
        """The signer a resume uses when given none: the client's own, else one from
        ``XSWAP_PRIVATE_KEY``, else ``None``."""
        own: Signer | None = getattr(self, "_own_signer", lambda: None)()
        return own if own is not None else env_signer()

    def _resume_signer(self, journey: Journey, signer: object) -> Signer | SolanaSigner | None:
        """Who signs for a resume of ``journey``, checked once before its flow is built.

        ``signer``, when given, must be the journey's own signer (`JourneyKind.signer`):
        another one is refused, naming ``signer``, before any request. When none is
        given, the client's own or ``XSWAP_PRIVATE_KEY``'s is used only if it is the
        journey's signer; another key (or one of the other family: an EVM key for a
        Solana transfer) is left out rather than refused, so a resume that needs no new
        signature still finishes, and one that does says a signer is missing.
        """
        # lazy: the journey kinds and the Solana key check, only when a journey resumes
        from ._base58 import encode
        from ._kinds import KINDS
        from .signing.signer import signer_address
        from .signing.solana import is_solana_signer, solana_public_key

        def key_of(who: object) -> str:
            if is_solana_signer(who):
                return encode(solana_public_key(who))
            return signer_address(who)

        expected = KINDS[journey.kind].signer_of(journey)
        if signer is not None:
            given = key_of(signer)  # a bad one is refused before any I/O
            if expected is not None and not _same_address(given, expected):
                raise InvalidInputError(
                    "signer",
                    f"is {given}, but journey {journey.id} ({journey.kind}) is signed by "
                    f"{expected}",
                )
            return cast("Signer | SolanaSigner", signer)
        default = self._signer_for_resume()
        if default is None or expected is None:
            return default
        return default if _same_address(signer_address(default), expected) else None

    def _rebuild(
        self,
        journey: Journey,
        signer: Signer | SolanaSigner | None,
        io: ChainIO | None,
        restart: bool,
    ) -> tuple[Any, Any]:
        """The journey's flow built from its terms, and the transport to run it on (see
        ``xswap_sdk._kinds``); ``signer`` is `_resume_signer`'s."""
        from ._chain_steps import no_chain_io  # lazy: resuming a journey only
        from ._kinds import KINDS, ResumeInputs  # lazy: resuming a journey only

        inputs = ResumeInputs(signer=signer, io=io or no_chain_io(), restart=restart)
        built: tuple[Any, Any] = KINDS[journey.kind].builder()(self, journey, inputs)
        return built

    @contextmanager
    def capture_responses(self) -> Iterator[list[RawResponse]]:
        """Collect the raw HTTP response of every request made in this block.

        Works in sync and async code alike (it is scoped by `contextvars`), and sees the
        calls of this client and of its ``with_options`` copies::

            with client.capture_responses() as responses:
                client.get_relay_status(tx_id)
            print(responses[-1].status_code, responses[-1].headers["x-request-id"])
        """
        with capture_responses(self._transport.pool) as responses:
            yield responses

    def __repr__(self) -> str:
        key = ""
        if self._service.api_key_header is not None:
            key = f", api_key={'set' if self._options.api_key else 'unset'}"
        return f"{type(self).__name__}(base_url={self.base_url!r}{key})"


def _evm_only(signer: Signer | SolanaSigner | None) -> Signer | None:
    """``signer`` when it signs EVM transactions, else ``None``: a resume's chain steps
    send from an EVM account, never from a Solana key."""
    # lazy: the Solana key check, only when a journey resumes on a web3
    from .signing.solana import is_solana_signer

    return None if is_solana_signer(signer) else cast("Signer | None", signer)


def checked_claim(journey: Journey) -> Journey:
    """``journey``, when its MAC verifies.

    Raises:
        JourneyTamperedError: it does not: it was not written with this journal's key.
    """
    if not journey.authentic:
        raise JourneyTamperedError(
            f"journey {journey.id} ({journey.kind}) does not carry a valid MAC of this "
            "journal's key: it was written by someone else, or with another key "
            "(journal_key=, XSWAP_JOURNAL_KEY). It is refused and left as it is; nothing "
            "was signed or sent",
            journey_id=journey.id,
        )
    return journey


def release(journal: Journal | None, journey_id: str, owner: Owner) -> None:
    """Give up ``owner``'s lease of the journey, if it still holds it (the driver gives
    it up at the end of its run; a resume that never got that far, here)."""
    if journal is None:
        return
    with contextlib.suppress(JourneyBusyError):  # given up already, or taken over
        journal.append(journey_id, owner, [], release=True)


def env_signer() -> Signer | None:
    """A signer from ``XSWAP_PRIVATE_KEY`` (an eth_account account), or ``None``.

    Raises:
        InvalidInputError: the variable is set but is not a private key.
    """
    import os

    from .journal import PRIVATE_KEY_ENV  # lazy: journals and resumes only

    if not os.environ.get(PRIVATE_KEY_ENV):
        return None
    from eth_account import Account

    try:
        account: Signer = Account.from_key(os.environ[PRIVATE_KEY_ENV])
    except Exception:  # eth_account raises several kinds; never echo the value
        raise InvalidInputError(PRIVATE_KEY_ENV, "must be a 0x hex private key") from None
    return account
