"""`FlashClient` and `AsyncFlashClient`: the swap backend, logged in and paged.

Each method is one line over an operation from `xswap_sdk.flash.api`, a flow from
`xswap_sdk.flash.auth` or `xswap_sdk.flash.swap`, or a pure function from
`xswap_sdk.flash.orders`; the two classes differ only in ``await``.

Every call goes through ``_send``: an operation that needs the JWT logs in first when
the client has none yet (and can), and after a 401 logs in again once and resends once.
A second 401 is raised. Flows (the one-call swap, waits) and page walks call ``_send``
too, so they get the same treatment.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Final, TypeVar, Unpack

import httpx
from pydantic import SecretStr

from .._base_client import AsyncAPIClient, SyncAPIClient
from .._clock import SYSTEM_CLOCK, Clock
from .._flow import Flow, run_async, run_sync
from .._framing import BareJSON
from .._operation import Operation
from .._options import (
    DEFAULT_MAX_RETRIES,
    NOT_GIVEN,
    NotGiven,
    RequestOptions,
    ServiceConfig,
    TimeoutTypes,
)
from .._pagination import PageWalk, iterate_async, iterate_sync, walk_pages
from ..errors import AuthenticationError, InvalidInputError
from ..relayer import AsyncRelayerClient, RelayerClient
from ..signing.deposit import async_prepare_deposit_with_permit, prepare_deposit_with_permit
from ..signing.signer import Signer, signer_address
from . import _operations as api
from . import auth, orders
from . import deposit as deposits
from . import swap as swaps
from .auth import JWT_ENV, AuthSession, SessionState
from .deposit import DepositResult
from .models import (
    AuthMessage,
    AuthVerification,
    Chain,
    GatewayBalance,
    HistoryPage,
    LeaderboardEntry,
    LeaderboardPage,
    Quote,
    ReferralOverview,
    SwapRecord,
    SwapSubmission,
    Token,
    TokenSearchResult,
)
from .orders import BalancesArg, ChainsArg, MaxFeeArg, Order, SignedOrder
from .swap import DEFAULT_SWAP_POLL_INTERVAL, DEFAULT_SWAP_TIMEOUT

if TYPE_CHECKING:
    from web3 import AsyncWeb3, Web3

__all__ = ["AsyncFlashClient", "FlashClient"]

T = TypeVar("T")
R = TypeVar("R")

FLASH_SERVICE: Final = ServiceConfig(
    name="flash",
    default_base_url="https://flash.rath.fi",
    base_url_env="XSWAP_FLASH_URL",
)


def _history_walk(page: int, page_size: int, status: str | None) -> PageWalk[SwapRecord]:
    api.get_history(page, page_size, status)  # checks the arguments before any I/O
    return walk_pages(
        lambda n: api.get_history(n, page_size, status),
        lambda result: result.swaps,
        lambda result: result.pagination is not None and result.pagination.more,
        first_page=page,
    )


def _leaderboard_walk(
    page: int, page_size: int, time_range: str | None
) -> PageWalk[LeaderboardEntry]:
    api.get_leaderboard(page, page_size, time_range)  # checks the arguments before any I/O
    return walk_pages(
        lambda n: api.get_leaderboard(n, page_size, time_range),
        lambda result: result.entries,
        lambda result: result.pagination is not None and result.pagination.more,
        first_page=page,
    )


class _FlashShared:
    """What both clients share that does no I/O: the session, auth headers, orders."""

    _session: SessionState

    def _init_session(self, signer: Signer | None, jwt: str | SecretStr | None) -> None:
        if signer is not None:
            signer_address(signer)  # a bad signer is refused now, not at the first call
        token = jwt if jwt is not None else os.environ.get(JWT_ENV) or None
        if token is not None and not isinstance(token, SecretStr):
            if not isinstance(token, str):
                raise InvalidInputError("jwt", "must be a string")
            token = SecretStr(token)
        if token is not None and not token.get_secret_value().strip():
            raise InvalidInputError("jwt", "must not be empty")
        self._session = SessionState(token=token, signer=signer)

    def _auth_headers(self, operation: Operation[Any], /) -> Mapping[str, str]:
        """The bearer token for the three operations that need it, nothing for others."""
        if operation.auth != "required":
            return {}
        token = self._session.token
        if token is None:
            raise auth.missing_login(
                type(self).__name__, f"{operation.method} {operation.log_path}"
            )
        return {"Authorization": f"Bearer {token.get_secret_value()}"}

    def _login_signer(self, signer: Signer | None, what: str) -> Signer:
        chosen = self._session.signer or signer
        if chosen is None:
            raise auth.missing_login(type(self).__name__, what)
        return chosen

    @property
    def session(self) -> AuthSession | None:
        """The last login's `AuthSession` (``None`` before a login, or with ``jwt=``)."""
        return self._session.session

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
    ) -> Order:
        """Choose source chains and build the burn intents; see `orders.build_order`.

        No I/O: pass what `get_supported_chains` and `get_balance` returned.
        """
        return orders.build_order(
            quote,
            chains=chains,
            balances=balances,
            user=user,
            sources=sources,
            max_fee=max_fee,
            chain_id=chain_id,
        )

    def sign_order(self, order: Order, signer: Signer) -> SignedOrder:
        """Sign an order (one BurnIntent, or one BurnIntentSet); see `orders.sign_order`."""
        return orders.sign_order(order, signer)

    def __repr__(self) -> str:
        base_url: str = getattr(self, "base_url", "?")
        signer = self._session.signer
        who = f", signer={signer_address(signer)}" if signer is not None else ""
        jwt = "set" if self._session.token else "unset"
        return f"{type(self).__name__}(base_url={base_url!r}, jwt={jwt}{who})"


class FlashClient(_FlashShared, SyncAPIClient):
    """Blocking client of the swap backend.

    Args:
        base_url: defaults to ``XSWAP_FLASH_URL``, then ``https://flash.rath.fi``.
        signer: the wallet that logs in (an `eth_account` `LocalAccount` or any
            `xswap_sdk.signing.Signer`). With it, the client logs in on the first call
            that needs it and again once after a 401.
        jwt: a JWT from an earlier login; defaults to ``XSWAP_FLASH_JWT``.
        timeout: seconds, an `httpx.Timeout`, or ``None`` for none; default connect 5 s,
            read 30 s.
        max_retries: retries of a failed request where retrying is safe (default 2).
        headers: extra headers sent with every request.
        http_client: an `httpx.Client` you own; we never close it.
        clock: the time source for retry waits, polling and quote expiry.

    Example:
        ```python
        from eth_account import Account
        from xswap_sdk import FlashClient

        wallet = Account.from_key(key)
        with FlashClient(signer=wallet) as flash:
            result = flash.swap(
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
        http_client: httpx.Client | None = None,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        super().__init__(
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            headers=headers,
            http_client=http_client,
            clock=clock,
        )
        self._init_session(signer, jwt)

    # -- sending, with login and one re-login

    def _login_once(self, seen: int, signer: Signer, options: RequestOptions) -> None:
        session = self._session
        with session.lock:
            # Another call may have logged in while this one waited for the lock.
            if session.generation == seen:
                session.store(self._run(auth.login(signer), options), signer)

    def _send(
        self, operation: Operation[T], options: RequestOptions, signer: Signer | None = None
    ) -> T:
        if operation.auth != "required":
            return self._request(operation, options)
        what = f"{operation.method} {operation.log_path}"
        token, seen = self._session.snapshot()
        if token is None:
            self._login_once(seen, self._login_signer(signer, what), options)
            seen = self._session.generation
        try:
            return self._request(operation, options)
        except AuthenticationError:
            if self._session.signer is None and signer is None:
                raise
            self._login_once(seen, self._login_signer(signer, what), options)
            return self._request(operation, options)

    def _run(self, flow: Flow[R], options: RequestOptions, signer: Signer | None = None) -> R:
        if signer is not None:
            # A flow run for a signer (the one-call swap) logs in before it starts, so a
            # refused login costs no quote.
            token, seen = self._session.snapshot()
            if token is None:
                self._login_once(seen, self._login_signer(signer, "swap"), options)
        return run_sync(flow, lambda op: self._send(op, options, signer), self.clock)

    # -- login

    def login(
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
            **options: ``timeout`` and ``max_retries`` for these calls.

        Returns:
            The session; ``session.token`` is a `pydantic.SecretStr`.

        Raises:
            MissingCredentialsError: no signer here or on the client.
            LoginError: the backend refused the login (chained to its cause).
        """
        chosen = self._login_signer(signer, "login()") if signer is None else signer
        flow = auth.login(chosen, referred_by_code)
        with self._session.lock:
            return self._session.store(self._run(flow, options), chosen)

    def request_auth_message(
        self, user_address: str, **options: Unpack[RequestOptions]
    ) -> AuthMessage:
        """Ask for the message to sign (``POST /auth/message``); `login` does it all."""
        return self._send(api.request_auth_message(user_address), options)

    def verify_auth(
        self,
        signature: str,
        message_id: str,
        referred_by_code: str | None = None,
        **options: Unpack[RequestOptions],
    ) -> AuthVerification:
        """Trade a signed message for a JWT (``POST /auth/verify``).

        The token is returned and not kept; `login` keeps it.
        """
        return self._send(api.verify_auth(signature, message_id, referred_by_code), options)

    # -- reads

    def get_supported_chains(self, **options: Unpack[RequestOptions]) -> list[Chain]:
        """The chains and their gateway contracts (``GET /supported-chains``)."""
        return self._send(api.get_supported_chains(), options)

    def get_token_list(
        self, chain_id: int | None = None, **options: Unpack[RequestOptions]
    ) -> list[Token]:
        """The tokens of one chain, or of all (``GET /token-list``)."""
        return self._send(api.get_token_list(chain_id), options)

    def search_token(
        self, chain_id: int, address: str, **options: Unpack[RequestOptions]
    ) -> TokenSearchResult:
        """Look a token up by address (``POST /search-token``)."""
        return self._send(api.search_token(chain_id, address), options)

    def get_quote(
        self,
        *,
        input_amount: int | str,
        output_token: str,
        chain_id: int,
        sender: str,
        slippage: Decimal | float | int | str,
        recipient: str | None = None,
        **options: Unpack[RequestOptions],
    ) -> Quote:
        """Quote a swap of USDC into ``output_token`` on ``chain_id`` (``GET /quote``).

        Args:
            input_amount: USDC in smallest units (``10_000_000`` is 10 USDC).
            output_token: the token to receive.
            chain_id: the destination chain.
            sender: the user's wallet (sent as ``from``).
            slippage: percent, a whole number of basis points: ``1.5`` or ``"0.5"``.
            recipient: who receives the output; the backend uses ``sender`` if omitted.
            **options: ``timeout`` and ``max_retries`` for this call.
        """
        request = api.quote_request(
            input_amount=input_amount,
            output_token=output_token,
            chain_id=chain_id,
            sender=sender,
            slippage=slippage,
            recipient=recipient,
        )
        return self._send(api.get_quote(request), options)

    def get_balance(self, address: str, **options: Unpack[RequestOptions]) -> GatewayBalance:
        """A user's USDC in the gateway wallet, per chain (``GET /balance/{address}``)."""
        return self._send(api.get_balance(address), options)

    def get_history(
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
            **options: ``timeout`` and ``max_retries`` for this call.
        """
        return self._send(api.get_history(page, page_size, status), options)

    def iter_history(
        self,
        page: int = 1,
        page_size: int = 20,
        status: str | None = None,
        **options: Unpack[RequestOptions],
    ) -> Iterator[SwapRecord]:
        """Every swap, page after page from ``page``, read lazily as you iterate.

        Stops when a page says ``has_next`` is false (or comes back empty). The
        arguments are checked when iteration starts, before the first request.
        """
        walk = _history_walk(page, page_size, status)
        yield from iterate_sync(walk, lambda op: self._send(op, options))

    def get_leaderboard(
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
            **options: ``timeout`` and ``max_retries`` for this call.
        """
        return self._send(api.get_leaderboard(page, page_size, time_range), options)

    def iter_leaderboard(
        self,
        page: int = 1,
        page_size: int = 50,
        time_range: str | None = None,
        **options: Unpack[RequestOptions],
    ) -> Iterator[LeaderboardEntry]:
        """Every leaderboard entry, page after page, read lazily; see `iter_history`."""
        walk = _leaderboard_walk(page, page_size, time_range)
        yield from iterate_sync(walk, lambda op: self._send(op, options))

    def get_referrals(self, **options: Unpack[RequestOptions]) -> ReferralOverview:
        """The logged-in user's referrals (``GET /referrals``, needs login)."""
        return self._send(api.get_referrals(), options)

    # -- swapping

    def submit_swap(
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
            **options: ``timeout`` and ``max_retries`` for this call.
        """
        request = swaps.submission(
            signed_order,
            slippage_bps=slippage_bps,
            user_address=user_address,
            chain_id=chain_id,
            swap_router_address=swap_router_address,
            swap_calldata=swap_calldata,
        )
        return self._send(api.submit_swap(request), options)

    def swap(
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
                ``slippageBps`` 150).
            recipient: who receives the output; defaults to the signer.
            sources: ``{chain_id: amount}`` to choose the source chains yourself.
            max_fee_cap: refuse a quote whose gateway fee (each intent's ``maxFee``)
                is above this, in smallest USDC units.
            wait: poll the history until the swap completed or failed.
            wait_timeout: seconds to wait with ``wait=True``.
            poll_interval: seconds between history reads with ``wait=True``.
            **options: ``timeout`` and ``max_retries`` for each call.

        Returns:
            The submission; with ``wait=True``, ``record`` is the completed swap.

        Raises:
            QuoteRejectedError: the quote expired, costs more than ``max_fee_cap``, or
                is not for ``input_amount``; nothing was signed.
            InsufficientBalanceError: the gateway balances cannot cover the amount.
            InvalidInputError: a bad argument, or an unsupported ``chain_id``.
            SwapFailedError: with ``wait=True``, the swap failed.
            WaitTimeoutError: with ``wait=True``, it did not finish in time (it may
                still complete).
            LoginError: the login failed.
        """
        plan = swaps.plan_swap(
            signer,
            input_amount=input_amount,
            output_token=output_token,
            chain_id=chain_id,
            slippage=slippage,
            recipient=recipient,
            sources=sources,
            max_fee_cap=max_fee_cap,
            wait=wait,
            wait_timeout=wait_timeout,
            poll_interval=poll_interval,
        )
        auth.check_identity(self._session, plan.user)
        return self._run(swaps.swap(plan, clock=self.clock), options, signer)

    def wait_for_swap(
        self,
        transaction_hash: str,
        *,
        wait_timeout: float = DEFAULT_SWAP_TIMEOUT,
        poll_interval: float = DEFAULT_SWAP_POLL_INTERVAL,
        **options: Unpack[RequestOptions],
    ) -> SwapRecord:
        """Poll the history until the swap with this ``transactionHash`` finished.

        Args:
            transaction_hash: from `SwapSubmission.transaction_hash`.
            wait_timeout: seconds before giving up.
            poll_interval: seconds between reads of the history.
            **options: ``timeout`` and ``max_retries`` for each request.

        Raises:
            SwapFailedError: the swap's status became ``failed``.
            WaitTimeoutError: time ran out; the swap may still complete.
        """
        flow = swaps.wait_for_swap(
            transaction_hash, timeout=wait_timeout, interval=poll_interval, clock=self.clock
        )
        return self._run(flow, options)

    # -- deposits

    def deposit(
        self,
        signer: Signer,
        *,
        chain_id: int,
        amount: int | str,
        web3: Web3 | None = None,
        relayer: RelayerClient | None = None,
        **options: Unpack[RequestOptions],
    ) -> DepositResult:
        """Move USDC from the signer's wallet into the gateway wallet on ``chain_id``.

        Signs a USDC permit for the chain's gateway wallet and calls
        ``depositWithPermit``. With ``relayer``, the relayer sends the transaction (the
        user needs no gas); otherwise web3 sends it from the signer.

        Args:
            signer: the USDC holder.
            chain_id: the chain to deposit on.
            amount: USDC in smallest units.
            web3: a connected `web3.Web3` for ``chain_id``; always needed, to read the
                permit nonce.
            relayer: a `RelayerClient` to send the transaction through.
            **options: ``timeout`` and ``max_retries`` for the chain list request.

        Returns:
            The transaction, and its hash (web3) or the relayer's transaction id.
        """
        plan = deposits.check_deposit(
            signer,
            chain_id=chain_id,
            amount=amount,
            web3=web3,
            relayer=relayer,
            relayer_type=RelayerClient,
            asynchronous=False,
        )
        assert web3 is not None  # checked above
        target = deposits.deposit_target(self.get_supported_chains(**options), plan.chain_id)
        transaction = deposits.check_prepared(
            prepare_deposit_with_permit(
                web3,
                signer,
                gateway_wallet=target.gateway_wallet,
                usdc=target.usdc,
                value=plan.amount,
                usdc_version=target.usdc_version,
            ),
            plan,
        )
        if relayer is not None:
            tx_id = relayer.relay(
                chain_id=transaction.chain_id, to=transaction.to, call_data=transaction.data
            )
            return DepositResult(
                transaction=transaction, chain_id=plan.chain_id, relayer_tx_id=tx_id
            )
        tx_hash = deposits.send_transaction(web3, signer, transaction)
        return DepositResult(transaction=transaction, chain_id=plan.chain_id, tx_hash=tx_hash)


class AsyncFlashClient(_FlashShared, AsyncAPIClient):
    """Async client of the swap backend; the same methods as `FlashClient`, awaited.

    ``iter_history`` and ``iter_leaderboard`` are async iterators (``async for``).
    Use ``async with`` or `aclose` to release connections.
    """

    _service = FLASH_SERVICE
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
        http_client: httpx.AsyncClient | None = None,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        super().__init__(
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            headers=headers,
            http_client=http_client,
            clock=clock,
        )
        self._init_session(signer, jwt)

    # -- sending, with login and one re-login

    async def _login_once(self, seen: int, signer: Signer, options: RequestOptions) -> None:
        session = self._session
        async with session.async_lock():
            if session.generation == seen:
                session.store(await self._run(auth.login(signer), options), signer)

    async def _send(
        self, operation: Operation[T], options: RequestOptions, signer: Signer | None = None
    ) -> T:
        if operation.auth != "required":
            return await self._request(operation, options)
        what = f"{operation.method} {operation.log_path}"
        token, seen = self._session.snapshot()
        if token is None:
            await self._login_once(seen, self._login_signer(signer, what), options)
            seen = self._session.generation
        try:
            return await self._request(operation, options)
        except AuthenticationError:
            if self._session.signer is None and signer is None:
                raise
            await self._login_once(seen, self._login_signer(signer, what), options)
            return await self._request(operation, options)

    async def _run(self, flow: Flow[R], options: RequestOptions, signer: Signer | None = None) -> R:
        if signer is not None:
            token, seen = self._session.snapshot()
            if token is None:
                await self._login_once(seen, self._login_signer(signer, "swap"), options)
        return await run_async(flow, lambda op: self._send(op, options, signer), self.clock)

    # -- login

    async def login(
        self,
        signer: Signer | None = None,
        referred_by_code: str | None = None,
        **options: Unpack[RequestOptions],
    ) -> AuthSession:
        """Log in and keep the JWT; see `FlashClient.login`."""
        chosen = self._login_signer(signer, "login()") if signer is None else signer
        flow = auth.login(chosen, referred_by_code)
        async with self._session.async_lock():
            return self._session.store(await self._run(flow, options), chosen)

    async def request_auth_message(
        self, user_address: str, **options: Unpack[RequestOptions]
    ) -> AuthMessage:
        """Ask for the message to sign; see `FlashClient.request_auth_message`."""
        return await self._send(api.request_auth_message(user_address), options)

    async def verify_auth(
        self,
        signature: str,
        message_id: str,
        referred_by_code: str | None = None,
        **options: Unpack[RequestOptions],
    ) -> AuthVerification:
        """Trade a signed message for a JWT; see `FlashClient.verify_auth`."""
        return await self._send(api.verify_auth(signature, message_id, referred_by_code), options)

    # -- reads

    async def get_supported_chains(self, **options: Unpack[RequestOptions]) -> list[Chain]:
        """The chains and their gateway contracts (``GET /supported-chains``)."""
        return await self._send(api.get_supported_chains(), options)

    async def get_token_list(
        self, chain_id: int | None = None, **options: Unpack[RequestOptions]
    ) -> list[Token]:
        """The tokens of one chain, or of all (``GET /token-list``)."""
        return await self._send(api.get_token_list(chain_id), options)

    async def search_token(
        self, chain_id: int, address: str, **options: Unpack[RequestOptions]
    ) -> TokenSearchResult:
        """Look a token up by address (``POST /search-token``)."""
        return await self._send(api.search_token(chain_id, address), options)

    async def get_quote(
        self,
        *,
        input_amount: int | str,
        output_token: str,
        chain_id: int,
        sender: str,
        slippage: Decimal | float | int | str,
        recipient: str | None = None,
        **options: Unpack[RequestOptions],
    ) -> Quote:
        """Quote a swap; see `FlashClient.get_quote`."""
        request = api.quote_request(
            input_amount=input_amount,
            output_token=output_token,
            chain_id=chain_id,
            sender=sender,
            slippage=slippage,
            recipient=recipient,
        )
        return await self._send(api.get_quote(request), options)

    async def get_balance(self, address: str, **options: Unpack[RequestOptions]) -> GatewayBalance:
        """A user's USDC in the gateway wallet, per chain (``GET /balance/{address}``)."""
        return await self._send(api.get_balance(address), options)

    async def get_history(
        self,
        page: int = 1,
        page_size: int = 20,
        status: str | None = None,
        **options: Unpack[RequestOptions],
    ) -> HistoryPage:
        """One page of the user's swaps; see `FlashClient.get_history`."""
        return await self._send(api.get_history(page, page_size, status), options)

    async def iter_history(
        self,
        page: int = 1,
        page_size: int = 20,
        status: str | None = None,
        **options: Unpack[RequestOptions],
    ) -> AsyncIterator[SwapRecord]:
        """Every swap, page after page, read lazily (``async for``); see
        `FlashClient.iter_history`."""
        walk = _history_walk(page, page_size, status)
        async for record in iterate_async(walk, lambda op: self._send(op, options)):
            yield record

    async def get_leaderboard(
        self,
        page: int = 1,
        page_size: int = 50,
        time_range: str | None = None,
        **options: Unpack[RequestOptions],
    ) -> LeaderboardPage:
        """One page of the leaderboard; see `FlashClient.get_leaderboard`."""
        return await self._send(api.get_leaderboard(page, page_size, time_range), options)

    async def iter_leaderboard(
        self,
        page: int = 1,
        page_size: int = 50,
        time_range: str | None = None,
        **options: Unpack[RequestOptions],
    ) -> AsyncIterator[LeaderboardEntry]:
        """Every leaderboard entry, read lazily (``async for``)."""
        walk = _leaderboard_walk(page, page_size, time_range)
        async for entry in iterate_async(walk, lambda op: self._send(op, options)):
            yield entry

    async def get_referrals(self, **options: Unpack[RequestOptions]) -> ReferralOverview:
        """The logged-in user's referrals (``GET /referrals``, needs login)."""
        return await self._send(api.get_referrals(), options)

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
        """Submit a signed order; see `FlashClient.submit_swap`."""
        request = swaps.submission(
            signed_order,
            slippage_bps=slippage_bps,
            user_address=user_address,
            chain_id=chain_id,
            swap_router_address=swap_router_address,
            swap_calldata=swap_calldata,
        )
        return await self._send(api.submit_swap(request), options)

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
        wait: bool = False,
        wait_timeout: float = DEFAULT_SWAP_TIMEOUT,
        poll_interval: float = DEFAULT_SWAP_POLL_INTERVAL,
        **options: Unpack[RequestOptions],
    ) -> SwapSubmission:
        """Swap in one call; see `FlashClient.swap`."""
        plan = swaps.plan_swap(
            signer,
            input_amount=input_amount,
            output_token=output_token,
            chain_id=chain_id,
            slippage=slippage,
            recipient=recipient,
            sources=sources,
            max_fee_cap=max_fee_cap,
            wait=wait,
            wait_timeout=wait_timeout,
            poll_interval=poll_interval,
        )
        auth.check_identity(self._session, plan.user)
        return await self._run(swaps.swap(plan, clock=self.clock), options, signer)

    async def wait_for_swap(
        self,
        transaction_hash: str,
        *,
        wait_timeout: float = DEFAULT_SWAP_TIMEOUT,
        poll_interval: float = DEFAULT_SWAP_POLL_INTERVAL,
        **options: Unpack[RequestOptions],
    ) -> SwapRecord:
        """Poll until the swap finished; see `FlashClient.wait_for_swap`."""
        flow = swaps.wait_for_swap(
            transaction_hash, timeout=wait_timeout, interval=poll_interval, clock=self.clock
        )
        return await self._run(flow, options)

    # -- deposits

    async def deposit(
        self,
        signer: Signer,
        *,
        chain_id: int,
        amount: int | str,
        web3: AsyncWeb3[Any] | None = None,
        relayer: AsyncRelayerClient | None = None,
        **options: Unpack[RequestOptions],
    ) -> DepositResult:
        """Deposit USDC into the gateway wallet; see `FlashClient.deposit` (here with an
        `AsyncWeb3` and an `AsyncRelayerClient`)."""
        plan = deposits.check_deposit(
            signer,
            chain_id=chain_id,
            amount=amount,
            web3=web3,
            relayer=relayer,
            relayer_type=AsyncRelayerClient,
            asynchronous=True,
        )
        assert web3 is not None  # checked above
        chains = await self.get_supported_chains(**options)
        target = deposits.deposit_target(chains, plan.chain_id)
        transaction = deposits.check_prepared(
            await async_prepare_deposit_with_permit(
                web3,
                signer,
                gateway_wallet=target.gateway_wallet,
                usdc=target.usdc,
                value=plan.amount,
                usdc_version=target.usdc_version,
            ),
            plan,
        )
        if relayer is not None:
            tx_id = await relayer.relay(
                chain_id=transaction.chain_id, to=transaction.to, call_data=transaction.data
            )
            return DepositResult(
                transaction=transaction, chain_id=plan.chain_id, relayer_tx_id=tx_id
            )
        tx_hash = await deposits.async_send_transaction(web3, signer, transaction)
        return DepositResult(transaction=transaction, chain_id=plan.chain_id, tx_hash=tx_hash)
