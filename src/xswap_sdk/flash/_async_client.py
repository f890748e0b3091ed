"""`AsyncFlashClient`: the swap backend, logged in and paged.

The hand-written source of ``_sync_client.py`` (`FlashClient`), which
``scripts/unasync.py`` generates from it. Each method is one line over an operation
from ``_operations``, a flow from ``auth`` or ``swap``, or a pure function from
``orders``. Logging in is the transport's business (see `FlashAuth`): an operation that
needs the JWT logs in first when the client has none yet (and can), and after a 401
logs in again once and resends once. A second 401 is raised.
"""

from __future__ import annotations

import functools
import os
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Final, Unpack

import httpx
from pydantic import SecretStr

from .._async_base_client import AsyncAPIClient
from .._async_transport import AsyncTransport
from .._chain_steps import no_chain_io
from .._clock import SYSTEM_CLOCK, Clock
from .._framing import BareJSON
from .._options import (
    DEFAULT_MAX_RESPONSE_BYTES,
    DEFAULT_MAX_RETRIES,
    NOT_GIVEN,
    NotGiven,
    RequestOptions,
    ServiceConfig,
    TimeoutTypes,
    WaitOptions,
    check_credential,
)
from .._pagination import PageWalk, walk_pages
from .._polling import call_options, wait_options
from .._slippage import check_slippage
from ..errors import InvalidInputError
from ..events import RequestHook, ResponseHook, RetryHook
from . import _auth as auth
from . import _balance as balances
from . import _operations as operations
from ._auth import JWT_ENV, AuthSession, FlashAuth, SessionState
from ._balance import DEFAULT_BALANCE_POLL_INTERVAL, DEFAULT_BALANCE_TIMEOUT
from ._operations import DEFAULT_SWAP_POLL_INTERVAL, DEFAULT_SWAP_TIMEOUT

if TYPE_CHECKING:
    import httpx2
    from web3 import AsyncWeb3

    from ..gateway import AsyncGatewayClient
    from ..journal import JournalArg, StepHook
    from ..policy import PolicyLike
    from ..registry import Registry
    from ..relayer import AsyncRelayerClient
    from ..signing.signer import Signer
    from ..simulation import SimulateOption
    from ._auth_models import AuthMessage, AuthVerification
    from ._balance_models import GatewayBalance
    from ._chain_models import Chain
    from ._deposit import DepositMethod, DepositResult
    from ._history_models import (
        HistoryPage,
        LeaderboardEntry,
        LeaderboardPage,
        ReferralOverview,
        SwapRecord,
    )
    from ._orders import BalancesArg, ChainsArg, MaxFeeArg, Order, SignedOrder
    from ._quote_models import Quote
    from ._swap_models import SwapSubmission
    from ._token_models import Token, TokenSearchResult
    from ._trust import TrustedRouters


__all__ = ["FLASH_SERVICE", "AsyncFlashClient"]

FLASH_SERVICE: Final = ServiceConfig(
    name="flash",
    default_base_url="https://flash.rath.fi",
    base_url_env="XSWAP_FLASH_URL",
)


def _history_walk(page: int, page_size: int, status: str | None) -> PageWalk[SwapRecord]:
    operations.get_history(page, page_size, status)  # checks the arguments before any I/O
    return walk_pages(
        lambda n: operations.get_history(n, page_size, status),
        lambda result: result.swaps,
        lambda result: result.pagination is not None and result.pagination.more,
        first_page=page,
        page_number=lambda result: result.pagination.current_page if result.pagination else None,
    )


def _leaderboard_walk(
    page: int, page_size: int, time_range: str | None
) -> PageWalk[LeaderboardEntry]:
    operations.get_leaderboard(page, page_size, time_range)  # checks the arguments first
    return walk_pages(
        lambda n: operations.get_leaderboard(n, page_size, time_range),
        lambda result: result.entries,
        lambda result: result.pagination is not None and result.pagination.more,
        first_page=page,
        page_number=lambda result: result.pagination.current_page if result.pagination else None,
    )


def _session_state(
    signer: Signer | None, jwt: str | SecretStr | None, clock: Clock, unsafe_login_message: bool
) -> SessionState:
    if signer is not None:
        from ..signing.signer import signer_address  # lazy: the signer's code, with a signer

        signer_address(signer)  # a bad signer is refused now, not at the first call
    token = None
    if jwt is not None:
        token = check_credential(jwt, argument="jwt")
    elif os.environ.get(JWT_ENV):
        token = check_credential(os.environ[JWT_ENV], argument="jwt", env_var=JWT_ENV)
    return SessionState(
        token=token, signer=signer, clock=clock, unsafe_login_message=unsafe_login_message
    )


def _checked_routers(trusted_routers: object) -> TrustedRouters | None:
    """``trusted_routers=`` checked (`xswap_sdk.flash._trust.check_trusted_routers`);
    the trust rules' module loads only when routers are given."""
    if trusted_routers is None:
        return None
    from ._trust import check_trusted_routers  # lazy: only with trusted_routers=

    return check_trusted_routers(trusted_routers)


def _flag(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise InvalidInputError(name, "must be True or False")
    return value


@functools.lru_cache(maxsize=64)
def _netloc(base_url: str) -> str:
    """The host (and port) of ``base_url``, parsed once per base URL, not per swap."""
    return httpx.URL(base_url).netloc.decode("ascii")


class AsyncFlashClient(AsyncAPIClient):
    """Async client of the swap backend.

    The options every client shares (``timeout`` ... ``policy``) are described once, with
    their defaults, in the configuration guide's "Shared constructor options"
    (``docs/configuration.md``); each has one line below.

    Args:
        base_url: defaults to ``XSWAP_FLASH_URL``, then ``https://flash.rath.fi``.
        signer: the wallet that logs in (an `eth_account` `LocalAccount` or any
            `xswap_sdk.signing.Signer`). With it, the client logs in on the first call
            that needs it and again once after a 401.
        jwt: a JWT from an earlier login; defaults to ``XSWAP_FLASH_JWT``.
        timeout: seconds, an `httpx.Timeout`, or ``None``; default connect 5 s, read 30 s.
        max_retries: retries of a failed request where retrying is safe (default 2).
        headers: extra headers sent with every request.
        http_client: an `httpx.AsyncClient` or an `httpx2.AsyncClient` you own (its
            connections, proxies and certificates); the SDK never closes it.
        clock: the time source for retry waits, polling and quote expiry.
        registry: the pinned chains, Gateway contracts and USDC addresses that orders,
            swaps and deposits are checked against; `xswap_sdk.registry.DEFAULT_REGISTRY`
            by default. ``DEFAULT_REGISTRY.with_chains(...)`` adds a chain: the only way
            to sign for a contract the SDK does not pin.
        trusted_routers: ``{chain_id: [router, ...]}``: swap routers you vetted, pinned
            on top of the registry's (which pins none by default: Rath publishes none).
            A quote whose router is pinned by neither is refused. Their hook-data
            format is unknown, so a swap through them also needs
            ``unsafe_trust_router_output=True``; pin a router of known format with
            ``registry=DEFAULT_REGISTRY.with_routers(SwapRouter(...))``.
        max_slippage: the largest ``slippage`` accepted, in percent (default 5);
            ``max_slippage=`` on a call raises it for that call.
        unsafe_trust_service_parties: DANGEROUS, trusting the service with your funds:
            accept a swap router that neither you nor the registry pinned when the
            backend names it (in the quote and the chain list). Every burn intent pays
            that router.
        unsafe_trust_router_output: DANGEROUS, trusting the router with the output:
            sign the hook data of a router whose format the SDK cannot read, so who
            receives the output and how much is not checked.
        unsafe_login_message: DANGEROUS: sign a login message that is not a
            Sign-In with Ethereum (EIP-4361) message for this host (it must still name
            your address and no other site).
        gateway: a Circle Gateway client for `wait_for_gateway_balance`; without it,
            the swap backend's ``/balance`` is polled.
        deadline: the most seconds one call may take in all (default 120), or ``None``.
        max_response_bytes: the largest answer read, in bytes (default 8 MiB).
        allow_insecure_http: DANGEROUS: accept ``http://`` to a host other than this one.
        on_request: called with a `xswap_sdk.events.RequestEvent` before each attempt.
        on_response: called with a `xswap_sdk.events.ResponseEvent` for each answer.
        on_retry: called with a `xswap_sdk.events.RetryEvent` before each retry wait.
        limits: the pool of the httpx client the SDK creates (default 100 connections).
        policy: a signing policy whatever a call signs must pass (`xswap_sdk.policy`).
        journal: where money journeys are written, for `resume` (`xswap_sdk.journal`):
            a path, a ``postgresql://`` URL or a `Journal`; ``XSWAP_JOURNAL`` by
            default. Sensitive: signatures.
        journal_key: the key of the journal's MACs, for a journal given as a path or
            a URL; ``XSWAP_JOURNAL_KEY`` by default. Required for PostgreSQL; an SQLite
            file without one keeps a key file beside it.
        on_step: called with each `xswap_sdk.journal.StepEvent` of a money journey.
        progress: one line per money-journey step on stderr (scripts, notebooks).

    Example:
        ```python
        from eth_account import Account
        from xswap_sdk import AsyncFlashClient

        wallet = Account.from_key(key)
        async with AsyncFlashClient(signer=wallet) as flash:
            result = await flash.swap(
                wallet,
                input_amount=10_000_000,  # 10 USDC
                output_token="0x4200000000000000000000000000000000000006",
                chain_id=8453,
                slippage="0.5",
                wait=True,
            )
            print(result.status, result.record.status)
        ```
    """

    _service = FLASH_SERVICE
    _journey_client = "flash"
    _framing = BareJSON()

    def __init__(
        self,
        *,
        base_url: str | None = None,
        signer: Signer | None = None,
        jwt: str | SecretStr | None = None,
        timeout: TimeoutTypes | NotGiven = NOT_GIVEN,
        max_retries: int = DEFAULT_MAX_RETRIES,
        headers: Mapping[str, str] | None = None,
        http_client: httpx.AsyncClient | httpx2.AsyncClient | None = None,
        clock: Clock = SYSTEM_CLOCK,
        registry: Registry | None = None,
        trusted_routers: Mapping[int, Sequence[str]] | None = None,
        gateway: AsyncGatewayClient | None = None,
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
        max_slippage: Decimal | float | int | str | None = None,
        unsafe_trust_service_parties: bool = False,
        unsafe_trust_router_output: bool = False,
        unsafe_login_message: bool = False,
    ) -> None:
        self._unsafe_trust_service_parties = _flag(
            "unsafe_trust_service_parties", unsafe_trust_service_parties
        )
        self._unsafe_trust_router_output = _flag(
            "unsafe_trust_router_output", unsafe_trust_router_output
        )
        # Checked now, so a bad maximum fails at construction, not at the first swap.
        check_slippage(0, max_slippage=max_slippage)
        self._max_slippage = max_slippage
        if registry is not None:
            from ..registry import Registry  # lazy: loaded by whoever built the registry

            if not isinstance(registry, Registry):
                raise InvalidInputError("registry", "must be a xswap_sdk.registry.Registry")
        # None for the default pins, which load at the first call that checks against
        # them (a read checks nothing against them).
        self._given_registry: Registry | None = registry
        self._trusted_routers = _checked_routers(trusted_routers)
        if gateway is not None:
            from ..gateway import AsyncGatewayClient  # lazy: a read or a swap needs none of it

            if not isinstance(gateway, AsyncGatewayClient):
                raise InvalidInputError("gateway", "must be an AsyncGatewayClient or None")
        self._gateway = gateway
        # Set before the base class builds the transport, which asks for the auth.
        self._session = _session_state(
            signer, jwt, clock, _flag("unsafe_login_message", unsafe_login_message)
        )
        super().__init__(
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            headers=headers,
            http_client=http_client,
            clock=clock,
            deadline=deadline,
            max_response_bytes=max_response_bytes,
            allow_insecure_http=allow_insecure_http,
            on_request=on_request,
            on_response=on_response,
            on_retry=on_retry,
            limits=limits,
            policy=policy,
            journal=journal,
            journal_key=journal_key,
            on_step=on_step,
            progress=progress,
        )

    def _make_auth(self) -> FlashAuth:
        # Copies made with with_options share the session, so one login serves them all;
        # a copy for another host gets a session of its own and logs in there: a JWT
        # is sent only to the host that issued it (or that ``jwt=`` was given for).
        if self._session.host is None:
            self._session.host = self._host
        elif self._session.host != self._host:
            self._session = self._session.for_host(self._host)
        return FlashAuth(self._session, client=type(self).__name__, host=self._host)

    def _slippage_limit(
        self, max_slippage: Decimal | float | int | str | None
    ) -> Decimal | float | int | str | None:
        return self._max_slippage if max_slippage is None else max_slippage

    @property
    def _host(self) -> str:
        # What a Sign-In with Ethereum message must name to be signed.
        return _netloc(self.base_url)

    def _transport_for(self, signer: Signer | None) -> AsyncTransport:
        # The one-call swap may log in with its own signer when the client has none.
        if signer is None:
            return self._transport
        return self._transport.with_auth(self._make_auth().with_signer(signer))

    def _own_signer(self) -> Signer | None:
        """The signer a resume uses when given none (see ``APIClientBase.resume``)."""
        return self._session.signer

    def _has_session(self) -> bool:
        """Whether the client can call what needs a login without a new signature."""
        return self._session.token is not None or self._session.signer is not None

    @property
    def registry(self) -> Registry:
        """The pinned facts orders, swaps and deposits are checked against."""
        return self._registry

    @property
    def _registry(self) -> Registry:
        if self._given_registry is not None:
            return self._given_registry
        from ..registry import DEFAULT_REGISTRY  # lazy: the pins, at the first order or swap

        return DEFAULT_REGISTRY

    @property
    def session(self) -> AuthSession | None:
        """The last login's `AuthSession` (``None`` before a login, or with ``jwt=``)."""
        return self._session.session

    def __repr__(self) -> str:
        signer = self._session.signer
        who = ""
        if signer is not None:
            from ..signing.signer import signer_address  # lazy: loaded already with a signer

            who = f", signer={signer_address(signer)}"
        jwt = "set" if self._session.token else "unset"
        return f"{type(self).__name__}(base_url={self.base_url!r}, jwt={jwt}{who})"

    # -- orders (no I/O)

    def build_order(
        self,
        quote: Quote,
        *,
        chains: ChainsArg,
        balances: BalancesArg,
        user: str,
        sources: Mapping[int, int] | None = None,
        max_fee: MaxFeeArg = None,
        chain_id: int | None = None,
        min_amount_out: int | str | None = None,
        max_fee_cap: int | str | None = None,
        recipient: str | None = None,
        max_total_fee: int | str | None = None,
    ) -> Order:
        """Choose source chains and build the burn intents; see `xswap_sdk.flash.build_order`.

        No I/O: pass what `get_supported_chains` and `get_balance` returned.

        Args:
            quote: the quote to fill, from `get_quote`.
            chains: the backend's chains (`get_supported_chains`).
            balances: the user's gateway balances (`get_balance`).
            user: the depositor whose balances are spent (the signer).
            sources: ``{chain_id: amount}`` to choose the source chains yourself.
            max_fee: each intent's ``maxFee``; the quote's gateway fee by default.
            chain_id: the destination chain, when the quote does not say.
            min_amount_out: the least output accepted, in the output token's smallest
                units: both the quote's stated output and the minimum the router's
                hook data and calldata enforce must reach it.
            max_fee_cap: refuse a gateway fee above this per intent, in smallest USDC
                units; by default 2.01 USDC plus 1 bp of the amount.
            recipient: who must receive the output; the quote's request's, else ``user``.
            max_total_fee: refuse an order whose intents' fees add up to more than
                this; by default 2 x 2.01 USDC plus 1 bp of the amount.

        Raises:
            UnsafePayloadError: the quote or the chain list is not what was asked, or
                disagrees with the client's registry or pinned routers.
        """
        from . import _orders as orders  # lazy: orders' and Gateway's signing code

        return orders.build_order(
            quote,
            chains=chains,
            balances=balances,
            user=user,
            sources=sources,
            max_fee=max_fee,
            chain_id=chain_id,
            min_amount_out=min_amount_out,
            max_fee_cap=max_fee_cap,
            trusted_routers=self._trusted_routers,
            registry=self._registry,
            now=self.clock.time(),
            recipient=recipient,
            max_total_fee=max_total_fee,
            unsafe_trust_service_parties=self._unsafe_trust_service_parties,
            unsafe_trust_router_output=self._unsafe_trust_router_output,
        )

    def sign_order(self, order: Order, signer: Signer) -> SignedOrder:
        """Sign an order (one BurnIntent, or one BurnIntentSet); see `xswap_sdk.flash.sign_order`.

        An order from this client's `build_order`, unchanged since, is signed as it was
        checked; any other order is checked in full against the client's registry and
        trusted routers right before it is signed.

        Args:
            order: from `build_order`.
            signer: the depositor.
        """
        from . import _orders as orders  # lazy: orders' and Gateway's signing code

        return orders.sign_order(
            order,
            signer,
            registry=self._registry,
            trusted_routers=self._trusted_routers,
            unsafe_trust_service_parties=self._unsafe_trust_service_parties,
            unsafe_trust_router_output=self._unsafe_trust_router_output,
        )

    # -- login

    async def login(
        self,
        signer: Signer | None = None,
        referred_by_code: str | None = None,
        **options: Unpack[RequestOptions],
    ) -> AuthSession:
        """Log in: sign the backend's message (EIP-191) and keep the JWT.

        Always logs in afresh. The signer that logs in is kept for later re-logins, and
        the token is shared with this client's ``with_options`` copies.

        Args:
            signer: defaults to the client's ``signer``.
            referred_by_code: a referral code to attribute this user to.
            **options: per-call options for these calls (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.

        Returns:
            The session; ``session.token`` is a `pydantic.SecretStr`.

        Raises:
            MissingCredentialsError: no signer here or on the client.
            LoginError: the backend refused the login (chained to its cause).
        """
        chosen = signer if signer is not None else self._session.signer
        if chosen is None:
            raise auth.missing_login(type(self).__name__, "login()")
        from ..signing.signer import signer_address  # lazy: the signer's code, at a login

        login = auth.login(
            chosen,
            referred_by_code,
            host=self._host,
            budget=self._session.budget(signer_address(chosen)),
            unsafe_login_message=self._session.unsafe_login_message,
        )
        flow = self._session.keep(login, chosen)
        async with self._session.async_lock():
            return await self._transport.run(flow, options)

    async def request_auth_message(
        self, user_address: str, **options: Unpack[RequestOptions]
    ) -> AuthMessage:
        """Ask for the message to sign (``POST /auth/message``); `login` does it all.

        The manual login path: the message is checked as `login` checks it before it is
        returned (a well-formed Sign-In with Ethereum message for this client's host and
        ``user_address``), so what you then sign with your own tool is safe to sign.

        Args:
            user_address: the wallet that will sign the message.
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.

        Raises:
            UnsafePayloadError: the message is for another site or account, or not in a
                format the client signs (see ``unsafe_login_message``).
        """
        operation = operations.request_auth_message(user_address)
        message = await self._transport.request(operation, options)
        from ._login_message import check_login_message  # lazy: a login's check only

        check_login_message(
            message.message,
            address=user_address,
            host=self._host,
            unsafe_any_format=self._session.unsafe_login_message,
        )
        return message

    async def verify_auth(
        self,
        signature: str,
        message_id: str,
        referred_by_code: str | None = None,
        **options: Unpack[RequestOptions],
    ) -> AuthVerification:
        """Trade a signed message for a JWT (``POST /auth/verify``).

        The token is returned and not kept; `login` keeps it. Not retried once sent:
        the message id is single-use.

        Args:
            signature: the EIP-191 signature of the message.
            message_id: the ``message_id`` from `request_auth_message`.
            referred_by_code: a referral code to attribute this user to.
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.
        """
        operation = operations.verify_auth(signature, message_id, referred_by_code)
        return await self._transport.request(operation, options)

    # -- reads

    async def get_supported_chains(self, **options: Unpack[RequestOptions]) -> list[Chain]:
        """The chains and their gateway contracts (``GET /supported-chains``).

        Args:
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.
        """
        return await self._transport.request(operations.get_supported_chains(), options)

    async def get_token_list(
        self, chain_id: int | None = None, **options: Unpack[RequestOptions]
    ) -> list[Token]:
        """The tokens of one chain, or of all (``GET /token-list``).

        Args:
            chain_id: the chain, or ``None`` for every chain.
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.
        """
        return await self._transport.request(operations.get_token_list(chain_id), options)

    async def search_token(
        self, chain_id: int, address: str, **options: Unpack[RequestOptions]
    ) -> TokenSearchResult:
        """Look a token up by address (``POST /search-token``).

        Args:
            chain_id: the token's chain.
            address: the token's address.
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.
        """
        return await self._transport.request(operations.search_token(chain_id, address), options)

    async def get_quote(
        self,
        *,
        input_amount: int | str,
        output_token: str,
        chain_id: int,
        sender: str,
        slippage: Decimal | float | int | str,
        recipient: str | None = None,
        max_slippage: Decimal | float | int | str | None = None,
        **options: Unpack[RequestOptions],
    ) -> Quote:
        """Quote a swap of USDC into ``output_token`` on ``chain_id`` (``GET /quote``).

        Args:
            input_amount: USDC in smallest units (``10_000_000`` is 10 USDC).
            output_token: the token to receive.
            chain_id: the destination chain.
            sender: the user's wallet (sent as ``from``).
            slippage: percent, a whole number of basis points: ``1.5`` or ``"0.5"``;
                above ``max_slippage`` it is refused before any I/O.
            recipient: who receives the output; the backend uses ``sender`` if omitted.
            max_slippage: the largest slippage accepted for this call, in percent; the
                client's (default 5) when not given.
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.
        """
        request = operations.quote_request(
            input_amount=input_amount,
            output_token=output_token,
            chain_id=chain_id,
            sender=sender,
            slippage=slippage,
            recipient=recipient,
            max_slippage=self._slippage_limit(max_slippage),
        )
        return await self._transport.request(operations.get_quote(request), options)

    async def get_balance(self, address: str, **options: Unpack[RequestOptions]) -> GatewayBalance:
        """A user's USDC in the gateway wallet, per chain (``GET /balance/{address}``).

        Args:
            address: the depositor's wallet.
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.
        """
        return await self._transport.request(operations.get_balance(address), options)

    async def get_history(
        self,
        page: int = 1,
        page_size: int = 20,
        status: str | None = None,
        **options: Unpack[RequestOptions],
    ) -> HistoryPage:
        """One page of the logged-in user's swaps (``GET /history``, needs login).

        Args:
            page: from 1.
            page_size: 1 to 100.
            status: ``pending``, ``completed`` or ``failed``; all when ``None``.
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.
        """
        operation = operations.get_history(page, page_size, status)
        return await self._transport.request(operation, options)

    async def iter_history(
        self,
        page: int = 1,
        page_size: int = 20,
        status: str | None = None,
        **options: Unpack[RequestOptions],
    ) -> AsyncIterator[SwapRecord]:
        """Every swap, page after page from ``page``, read lazily as you iterate
        (``async for`` on the async client).

        Stops when a page says ``has_next`` is false (or comes back empty). The
        arguments are checked when iteration starts, before the first request.

        Args:
            page: the first page to read, from 1.
            page_size: 1 to 100.
            status: ``pending``, ``completed`` or ``failed``; all when ``None``.
            **options: per-call options for each request (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.
        """
        walk = _history_walk(page, page_size, status)
        async for record in self._transport.iterate(walk, options):
            yield record

    async def get_leaderboard(
        self,
        page: int = 1,
        page_size: int = 50,
        time_range: str | None = None,
        **options: Unpack[RequestOptions],
    ) -> LeaderboardPage:
        """One page of the leaderboard (``GET /leaderboard``).

        Args:
            page: from 1.
            page_size: 1 to 100.
            time_range: ``all``, ``30d``, ``7d`` or ``24h``; the backend's default when
                ``None``.
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.
        """
        operation = operations.get_leaderboard(page, page_size, time_range)
        return await self._transport.request(operation, options)

    async def iter_leaderboard(
        self,
        page: int = 1,
        page_size: int = 50,
        time_range: str | None = None,
        **options: Unpack[RequestOptions],
    ) -> AsyncIterator[LeaderboardEntry]:
        """Every leaderboard entry, page after page, read lazily; see `iter_history`.

        Args:
            page: the first page to read, from 1.
            page_size: 1 to 100.
            time_range: ``all``, ``30d``, ``7d`` or ``24h``; the backend's default when
                ``None``.
            **options: per-call options for each request (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.
        """
        walk = _leaderboard_walk(page, page_size, time_range)
        async for entry in self._transport.iterate(walk, options):
            yield entry

    async def get_referrals(self, **options: Unpack[RequestOptions]) -> ReferralOverview:
        """The logged-in user's referrals (``GET /referrals``, needs login).

        Args:
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.
        """
        return await self._transport.request(operations.get_referrals(), options)

    # -- swapping

    async def submit_swap(
        self,
        signed_order: SignedOrder | Sequence[Mapping[str, Any]],
        *,
        slippage_bps: int,
        user_address: str | None = None,
        chain_id: int | None = None,
        swap_router_address: str | None = None,
        swap_calldata: str | None = None,
        **options: Unpack[RequestOptions],
    ) -> SwapSubmission:
        """Submit a signed order (``POST /swap``, needs login).

        Never retried once sent: if the answer is lost (timeout, 5xx) the error has
        ``outcome_unknown=True``; look in `get_history` before submitting again.

        Args:
            signed_order: a `SignedOrder` from `sign_order` (the other fields then
                default to its order's), or a ``signedOrder`` list of dicts.
            slippage_bps: basis points (150 is 1.5 %).
            user_address: the signer (``userAddress``).
            chain_id: the destination chain.
            swap_router_address: the quote's ``swap_router_address``.
            swap_calldata: the quote's ``swap_calldata``.
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.
        """
        from . import _swap as swaps  # lazy: the swap's code, not loaded by reads

        request = swaps.submission(
            signed_order,
            slippage_bps=slippage_bps,
            user_address=user_address,
            chain_id=chain_id,
            swap_router_address=swap_router_address,
            swap_calldata=swap_calldata,
        )
        journey = swaps.submitted_swap(operations.submit_swap(request))
        return await self._transport.run(journey, options)

    async def swap(
        self,
        signer: Signer,
        *,
        input_amount: int | str,
        output_token: str,
        chain_id: int,
        slippage: Decimal | float | int | str,
        recipient: str | None = None,
        sources: Mapping[int, int] | None = None,
        max_fee_cap: int | str | None = None,
        min_amount_out: int | str | None = None,
        max_slippage: Decimal | float | int | str | None = None,
        max_total_fee: int | str | None = None,
        unsafe_trust_router_output: bool | None = None,
        requote: int = 0,
        accept_quote: Callable[[Quote], bool] | None = None,
        wait: bool = False,
        wait_timeout: float = DEFAULT_SWAP_TIMEOUT,
        poll_interval: float = DEFAULT_SWAP_POLL_INTERVAL,
        **options: Unpack[RequestOptions],
    ) -> SwapSubmission:
        """Swap USDC from the gateway wallet into ``output_token``, in one call.

        Logs in with ``signer`` if the client has no token, then reads the chains, gets
        a quote, checks it, reads the gateway balances, builds and signs the order and
        submits it. ``POST /swap`` is sent at most once.

        Args:
            signer: signs the order (and the login, when one is needed).
            input_amount: USDC in smallest units.
            output_token: the token to receive.
            chain_id: the destination chain.
            slippage: percent, a whole number of basis points (``1.5`` is sent as
                ``slippageBps`` 150); above ``max_slippage`` it is refused before any
                I/O. The router's minimum output must be at least the quoted output
                less this.
            recipient: who receives the output; defaults to the signer. The router's
                hook data and calldata must name it.
            sources: ``{chain_id: amount}`` to choose the source chains yourself.
            max_fee_cap: refuse a quote whose gateway fee (each intent's ``maxFee``)
                is above this, in smallest USDC units; by default 2.01 USDC plus 1 bp of
                the amount per intent.
            min_amount_out: the least of ``output_token`` you accept, in its smallest
                units. Checked twice: against the quote's stated ``token_out.amount``,
                and against the minimum output the router's hook data and calldata
                enforce (decoded, for a router of known format; for a router of unknown
                format only with ``unsafe_trust_router_output``, and then only the
                stated amount is checked).
            max_slippage: the largest ``slippage`` accepted for this call, in percent;
                the client's (default 5) when not given.
            max_total_fee: refuse an order whose intents' ``maxFee`` add up to more
                than this, in smallest USDC units; by default 2 x 2.01 USDC plus 1 bp of
                the amount, whatever the number of source chains.
            unsafe_trust_router_output: DANGEROUS, for this call: sign the hook data
                of a router whose format the SDK cannot read (the router is trusted
                with the output); the client's setting when ``None``.
            requote: when the quote expires before the order is signed, ask for a new
                one up to this many times (default 0: raise `QuoteRejectedError`). Each
                new quote passes every check again (``min_amount_out``,
                ``max_fee_cap``, ``max_total_fee``, the signing policy) before it is
                signed: never silently worse.
            accept_quote: called with each new quote (not the first) after its checks;
                returning ``False`` refuses it with `QuoteRejectedError`, nothing
                signed.
            wait: poll the history until the swap completed or failed. When waiting,
                ``timeout=`` is refused (it would read as the wait's limit,
                ``wait_timeout``): set each request's timeout with
                ``client.with_options(timeout=...)``.
            wait_timeout: seconds to wait with ``wait=True``.
            poll_interval: seconds between history reads with ``wait=True``.
            **options: per-call options for each call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.

        Returns:
            The submission; with ``wait=True``, ``record`` is the completed swap.

        Raises:
            UnsafePayloadError: the quote or the chain list is not what was asked
                (another amount, output token or router, no expiry, less output than
                ``min_amount_out``) or disagrees with the registry; nothing was signed.
            QuoteRejectedError: the quote expired or costs more than ``max_fee_cap``;
                nothing was signed.
            InsufficientBalanceError: the gateway balances cannot cover the amount.
            InvalidInputError: a bad argument, or an unsupported ``chain_id``.
            SwapFailedError: with ``wait=True``, the swap failed.
            WaitTimeoutError: with ``wait=True``, it did not finish in time (it may
                still complete).
            LoginError: the login failed.
        """
        from . import _swap as swaps  # lazy: the swap's code, not loaded by reads

        options = call_options(options, wait=wait)
        plan = swaps.plan_swap(
            signer,
            input_amount=input_amount,
            output_token=output_token,
            chain_id=chain_id,
            slippage=slippage,
            recipient=recipient,
            sources=sources,
            max_fee_cap=max_fee_cap,
            min_amount_out=min_amount_out,
            wait=wait,
            wait_timeout=wait_timeout,
            poll_interval=poll_interval,
            trusted_routers=self._trusted_routers,
            registry=self._registry,
            max_slippage=self._slippage_limit(max_slippage),
            max_total_fee=max_total_fee,
            unsafe_trust_service_parties=self._unsafe_trust_service_parties,
            unsafe_trust_router_output=(
                self._unsafe_trust_router_output
                if unsafe_trust_router_output is None
                else unsafe_trust_router_output
            ),
            requote=requote,
            accept_quote=accept_quote,
        )
        auth.check_identity(self._session, plan.user, plan.signer)
        transport = self._transport_for(signer)
        # Log in before the flow starts, so a refused login costs no quote.
        await transport.ensure_login(options)
        return await transport.run(swaps.swap(plan, clock=self.clock), options)

    async def wait_for_swap(
        self,
        transaction_hash: str,
        *,
        wait_timeout: float = DEFAULT_SWAP_TIMEOUT,
        poll_interval: float = DEFAULT_SWAP_POLL_INTERVAL,
        **options: Unpack[WaitOptions],
    ) -> SwapRecord:
        """Poll the history until the swap with this ``transactionHash`` finished.

        Args:
            transaction_hash: from `SwapSubmission.transaction_hash`.
            wait_timeout: seconds before giving up.
            poll_interval: seconds between reads of the history.
            **options: `WaitOptions` for each request (not ``timeout``: see
                `WaitOptions`).

        Raises:
            SwapFailedError: the swap's status became ``failed``.
            WaitTimeoutError: time ran out; the swap may still complete.
        """
        from . import _swap as swaps  # lazy: the swap's code, not loaded by reads

        flow = swaps.wait_for_swap(
            transaction_hash, timeout=wait_timeout, interval=poll_interval, clock=self.clock
        )
        return await self._transport.run(flow, wait_options(options))

    # -- deposits

    async def deposit(
        self,
        signer: Signer,
        *,
        chain_id: int,
        amount: int | str,
        web3: AsyncWeb3[Any] | None = None,
        relayer: AsyncRelayerClient | None = None,
        method: DepositMethod = "permit",
        token_name: str | None = None,
        token_version: str | None = None,
        simulate: SimulateOption = "auto",
        wait: bool = False,
        wait_timeout: float = DEFAULT_BALANCE_TIMEOUT,
        poll_interval: float = DEFAULT_BALANCE_POLL_INTERVAL,
        **options: Unpack[RequestOptions],
    ) -> DepositResult:
        """Move USDC from the signer's wallet into the gateway wallet on ``chain_id``.

        With ``method="permit"`` (the default), signs a USDC permit (EIP-2612) for the
        chain's gateway wallet and calls ``depositWithPermit``; web3 reads the token's
        nonce, so it is always needed. With ``method="authorization"``, signs an EIP-3009
        ``receiveWithAuthorization`` with a random nonce and calls
        ``depositWithAuthorization``: nothing is read from the chain, so a deposit handed
        to the relayer needs no web3 and no RPC at all. With ``relayer``, the relayer
        sends the transaction (the user needs no gas); otherwise web3 sends it from the
        signer. The gateway wallet and USDC are the registry's, never the backend's.

        Args:
            signer: the USDC holder.
            chain_id: the chain to deposit on.
            amount: USDC in smallest units.
            web3: a connected `web3.AsyncWeb3` for ``chain_id`` (for a permit, or to send).
            relayer: an `AsyncRelayerClient` to send the transaction through.
            method: ``"permit"`` or ``"authorization"``.
            token_name: USDC's EIP-712 name, for an authorization on a chain whose
                registry entry does not pin it (read through web3 when not given).
            token_version: USDC's EIP-712 version, likewise.
            simulate: when web3 sends it, simulate the deposit on web3's node before
                signing the transaction, and refuse one that would not credit the
                signer's Gateway balance with ``amount`` or would move anything else of
                theirs: ``"auto"`` (default, when the node answers
                ``eth_simulateV1``), ``True`` (required) or ``False``. See
                `xswap_sdk.simulation`. A relayed deposit is not simulated.
            wait: when web3 sends it, wait for its receipt and then for Gateway to count
                it in the signer's balance (default ``False``: return once it is
                broadcast). Gateway counts a deposit once its block is final: about 19
                minutes on Ethereum and the rollups settling on it
                (`xswap_sdk.registry.FINALITY_SECONDS`), the time the journey's "slow"
                and "stuck" events are measured against. The balance is read from the
                swap backend. When waiting, ``timeout=`` is refused (it would read as
                the wait's limit, ``wait_timeout``): set each request's timeout with
                ``client.with_options(timeout=...)``.
            wait_timeout: seconds to keep waiting for it (default 1800).
            poll_interval: seconds between two balance reads (default 10).
            **options: per-call options for each request (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.

        Returns:
            The transaction, its hash (web3) or the relayer's transaction id, the
            simulation, the journey's id and, with ``wait``, the balance reached.

        Raises:
            InvalidInputError: a bad argument, or web3 connected (``eth_chainId``) to
                another chain than ``chain_id``, checked before anything is signed.
            UnsafePayloadError: the backend's chain list disagrees with the registry.
            SimulationError: the simulation reverted or moved what the deposit does not
                mean, or ``simulate=True`` and the node cannot simulate (nothing sent).
            SwapFailedError: with ``wait``, the transaction reverted.
            WaitTimeoutError: with ``wait``, Gateway did not count the deposit in time;
                it may still: resume the journey or wait for the balance, never deposit
                again.
        """
        # Deposits' code loads at the first deposit, not with every Flash client.
        from .. import _async_web3 as web3io  # lazy: deposits only
        from .._simulation import check_simulate_option  # lazy: deposits only
        from ..relayer import AsyncRelayerClient  # lazy: deposits only
        from . import _deposit as deposits  # lazy: deposits only
        from . import _deposit_journey as deposit_journeys  # lazy: deposits only
        from ._deposit import DepositResult  # lazy: deposits only

        options = call_options(options, wait=wait)
        simulate = check_simulate_option(simulate)
        waiting = deposit_journeys.check_wait(wait, wait_timeout, poll_interval, relayer)
        flavour: dict[str, Any] = {"web3_type": "AsyncWeb3", "relayer_type": AsyncRelayerClient}
        if method == "authorization":
            plan = deposits.check_authorization_deposit(
                signer, chain_id=chain_id, amount=amount, web3=web3, relayer=relayer, **flavour
            )
        elif method == "permit":
            plan = deposits.check_deposit(
                signer, chain_id=chain_id, amount=amount, web3=web3, relayer=relayer, **flavour
            )
        else:
            raise InvalidInputError("method", "must be 'permit' or 'authorization'")

        how = deposit_journeys.DepositHow(
            method, token_name, token_version, read_domain=web3 is not None
        )
        io = no_chain_io() if web3 is None else web3io.async_chain_io(web3, signer)
        if relayer is not None:
            # The relayer sends it, as a journey of its own client: this one prepares it.
            preparing = deposit_journeys.prepared_deposit(
                plan, how, signer, io, registry=self._registry
            )
            _, transaction = await self._transport.run(preparing, options)
            if method == "permit":
                sent = await relayer.relay(
                    chain_id=transaction.chain_id, to=transaction.to, call_data=transaction.data
                )
            else:
                sent = await relayer.relay(**transaction.relay_arguments())
            return DepositResult(
                transaction=transaction,
                chain_id=plan.chain_id,
                relayer_tx_id=sent,
                journey_id=sent.journey_id,  # the relayer's ``relay`` journey
            )
        flow = deposit_journeys.deposit_journey(
            plan,
            how,
            signer,
            io,
            simulate=simulate,
            registry=self._registry,
            wait=waiting,
            clock=self.clock,
        )
        return await self._transport.run(flow, options)

    async def wait_for_gateway_balance(
        self,
        depositor: str,
        chain_id: int,
        *,
        at_least: int | str,
        wait_timeout: float = DEFAULT_BALANCE_TIMEOUT,
        poll_interval: float = DEFAULT_BALANCE_POLL_INTERVAL,
        **options: Unpack[WaitOptions],
    ) -> int:
        """Poll until the depositor's gateway balance on ``chain_id`` holds at least
        ``at_least``: the way to wait for a deposit to finalize (about 20 minutes on
        Ethereum and Base). Asks Circle Gateway when the client was given a ``gateway``
        client, the swap backend's ``/balance`` otherwise.

        Args:
            depositor: the balance's owner.
            chain_id: the chain deposited on.
            at_least: smallest USDC units to wait for.
            wait_timeout: seconds before giving up (default 1800).
            poll_interval: seconds between two reads (default 10).
            **options: `WaitOptions` for each request (not ``timeout``: see
                `WaitOptions`).

        Returns:
            The balance reached, in smallest USDC units.

        Raises:
            WaitTimeoutError: time ran out; the deposit may still finalize, so look
                again rather than depositing twice.
        """
        if self._gateway is not None:
            entry = await self._gateway.wait_for_gateway_balance(
                depositor,
                chain_id,
                at_least=at_least,
                wait_timeout=wait_timeout,
                poll_interval=poll_interval,
                **options,
            )
            return entry.balance
        flow = balances.wait_for_balance(
            depositor,
            chain_id,
            at_least=at_least,
            timeout=wait_timeout,
            interval=poll_interval,
            clock=self.clock,
        )
        return (await self._transport.run(flow, wait_options(options))).balance
