"""`AsyncRoutingClient`: quotes, executable transactions, status, gasless Permit2 swaps.

The hand-written source of ``_sync_client.py`` (`RoutingClient`), which
``scripts/unasync.py`` generates from it. Each method is one line over an operation or
a flow from ``_operations`` and ``gasless``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Final, Unpack

import httpx
from pydantic import SecretStr

from .._async_base_client import AsyncAPIClient
from .._cache import DEFAULT_CHAIN_LIST_TTL, ChainListCache
from .._clock import SYSTEM_CLOCK, Clock
from .._framing import CodeEnvelope
from .._options import (
    DEFAULT_MAX_RESPONSE_BYTES,
    DEFAULT_MAX_RETRIES,
    NOT_GIVEN,
    NotGiven,
    RequestOptions,
    ServiceConfig,
    TimeoutTypes,
    WaitOptions,
)
from .._polling import call_options, wait_options
from ..errors import InvalidInputError
from ..events import RequestHook, ResponseHook, RetryHook
from . import _operations as operations
from . import _verification as verification
from ._chain_models import SupportedChain
from ._operations import DEFAULT_POLL_INTERVAL, DEFAULT_WAIT_TIMEOUT, RoutingPaths

if TYPE_CHECKING:
    import httpx2
    from web3 import AsyncWeb3

    from ..journal import JournalArg, StepHook
    from ..policy import PolicyLike
    from ..signing import Signer
    from ..simulation import SimulateOption
    from ._execution import AllowanceCheck, RouteExecution
    from ._gasless import GaslessSwapResult
    from ._gasless_models import GaslessQuote, GaslessStatus, GaslessSubmission
    from ._model_types import AcquisitionMode, RankingMode, RouteMode
    from ._quote_models import BuiltPath, Route, Transaction
    from ._status_models import TransactionStatus
    from ._token_models import Token, TokenSearchResult

__all__ = ["ROUTING_SERVICE", "AsyncRoutingClient"]

ROUTING_SERVICE: Final = ServiceConfig(
    name="routing",
    default_base_url="https://api.xpath.rath.fi",
    base_url_env="XSWAP_ROUTING_URL",
    api_key_env="XSWAP_ROUTING_API_KEY",
    api_key_header="api-key",
)


class AsyncRoutingClient(AsyncAPIClient):
    """Async client of the routing service.

    The options every client shares (``timeout`` ... ``policy``) are described once, with
    their defaults, in the configuration guide's "Shared constructor options"
    (``docs/configuration.md``); each has one line below.

    Args:
        api_key: the routing API key; defaults to ``XSWAP_ROUTING_API_KEY``. Required by
            `get_supported_chains` and the gasless status calls (a missing key is
            reported before the request); sent with every other call when set.
        base_url: defaults to ``XSWAP_ROUTING_URL``, then ``https://api.xpath.rath.fi``.
        timeout: seconds, an `httpx.Timeout`, or ``None``; default connect 5 s, read 30 s.
        max_retries: retries of a failed request where retrying is safe (default 2).
        headers: extra headers sent with every request.
        http_client: an `httpx.AsyncClient` or an `httpx2.AsyncClient` you own (its
            connections, proxies and certificates); the SDK never closes it.
        clock: the time source for retry waits and polling.
        routing_contracts: ``{chain_id: address}``: the routing contract a gasless
            Permit2 payload must name as spender, and a route executed with
            `execute_route` must call and approve, on that chain. Added to (and
            replacing, per chain) the contracts `xswap_sdk.registry.ROUTING_CONTRACTS`
            pins. A chain pinned by neither is refused before any request.
        unsafe_trust_service_parties: DANGEROUS: on a chain nothing pins, take the
            routing contract from the service's own ``serviceContract``
            (`get_supported_chains`, kept ``chain_list_ttl``). The service then chooses
            who may pull your tokens and what your approvals are for: this trusts it,
            and whoever can change its answers, with your funds.
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
        paths: the service's HTTP paths, to override any of them.
        chain_list_ttl: seconds the chain list (``/supported-chains``) is kept
            (default 300); 0 reads it every time. ``refresh=True`` on
            `get_supported_chains` reads it anew.

    Example:
        ```python
        async with AsyncRoutingClient(api_key="...") as routing:
            routes = await routing.get_quote(
                from_chain=8453, to_chain=42161,
                from_token=USDC_BASE, to_token=USDC_ARBITRUM,
                amount=1_000_000, sender=wallet, slippage=0.5,
            )
            tx = await routing.build_path(routes[0], sender=wallet)
        ```
    """

    _service = ROUTING_SERVICE
    _journey_client = "routing"
    _framing = CodeEnvelope()

    def __init__(
        self,
        *,
        api_key: str | SecretStr | None = None,
        base_url: str | None = None,
        timeout: TimeoutTypes | NotGiven = NOT_GIVEN,
        max_retries: int = DEFAULT_MAX_RETRIES,
        headers: Mapping[str, str] | None = None,
        http_client: httpx.AsyncClient | httpx2.AsyncClient | None = None,
        clock: Clock = SYSTEM_CLOCK,
        routing_contracts: Mapping[int, str] | None = None,
        unsafe_trust_service_parties: bool = False,
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
        paths: RoutingPaths | None = None,
        chain_list_ttl: float = DEFAULT_CHAIN_LIST_TTL,
    ) -> None:
        super().__init__(
            api_key=api_key,
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
        self.paths: RoutingPaths = paths or RoutingPaths()
        """The routing service's HTTP paths this client calls."""
        self._routing_contracts = operations.check_routing_contracts(routing_contracts)
        if not isinstance(unsafe_trust_service_parties, bool):
            raise InvalidInputError("unsafe_trust_service_parties", "must be True or False")
        self._trust_service = unsafe_trust_service_parties
        # Gasless quotes this client verified, so that a signature over one may be
        # submitted; shared by with_options copies.
        self._verified = verification.VerifiedQuotes()
        # The chain list (serviceContract per chain, features), kept per base URL;
        # shared by with_options copies.
        self._chains: ChainListCache[SupportedChain] = ChainListCache(chain_list_ttl)

    async def get_quote(
        self,
        *,
        from_chain: int,
        to_chain: int,
        from_token: str,
        to_token: str,
        amount: int | str,
        sender: str,
        receiver: str | None = None,
        slippage: Decimal | float | int | str | None = None,
        fee_bps: int | None = None,
        include_providers: Sequence[str] | None = None,
        exclude_providers: Sequence[str] | None = None,
        route_mode: RouteMode | None = None,
        integrator: str | None = None,
        allow_multi_bridge: bool | None = None,
        acquisition_mode: AcquisitionMode | int | None = None,
        priority_provider: str | None = None,
        referrer: str | None = None,
        destination_call_data: str | None = None,
        destination_gas_limit: int | str | None = None,
        allowed_price_impact: Decimal | float | int | str | None = None,
        simulation: bool | None = None,
        max_slippage: Decimal | float | int | str | None = None,
        **options: Unpack[RequestOptions],
    ) -> list[Route]:
        """Ranked routes for a swap or bridge (``GET /quote``).

        Every argument is validated before anything is sent; optional arguments left as
        ``None`` are not sent.

        Args:
            from_chain: the source chain id.
            to_chain: the destination chain id.
            from_token: the input token's address on ``from_chain`` (a mint address
                on a non-EVM chain).
            to_token: the output token's address on ``to_chain``.
            amount: the input amount in the token's smallest units (an ``int`` or a
                string of digits; `xswap_sdk.to_units` converts display amounts).
            sender: the wallet that supplies the input.
            receiver: the wallet that receives the output (the service defaults it to
                ``sender``).
            slippage: tolerated slippage in percent (``0.5`` means 0.5%); unset, the
                routes carry no route-level slippage.
            fee_bps: your integrator fee in basis points (100 = 1%).
            include_providers: only use these providers (names, case-insensitive).
            exclude_providers: never use these providers.
            route_mode: ``"fastest"``, ``"max_value"`` (the service's default) or
                ``"suggested"`` (balanced).
            integrator: your integrator id (``Integrator``), echoed in each route.
            allow_multi_bridge: allow routes over more than one bridge.
            acquisition_mode: how the input is taken from the sender
                (`AcquisitionMode`, 0 to 3).
            priority_provider: accepted by the service, no effect on planning.
            referrer: accepted (``Referrer``), no effect on planning.
            destination_call_data: accepted, no effect on planning.
            destination_gas_limit: accepted, no effect on planning.
            allowed_price_impact: accepted (percent), no effect on planning.
            simulation: accepted by ``/quote``, no effect on planning.
            max_slippage: the largest ``slippage`` accepted, in percent (default 5): a
                larger one is refused before anything is sent.
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.

        Returns:
            The routes, best first (the list order is the service's ranking). Pass one
            to `build_path`.
        """
        request = operations.quote_request(
            max_slippage=max_slippage,
            from_chain=from_chain,
            to_chain=to_chain,
            from_token=from_token,
            to_token=to_token,
            amount=amount,
            sender=sender,
            receiver=receiver,
            slippage=slippage,
            fee_bps=fee_bps,
            include_providers=include_providers,
            exclude_providers=exclude_providers,
            route_mode=route_mode,
            integrator=integrator,
            allow_multi_bridge=allow_multi_bridge,
            acquisition_mode=acquisition_mode,
            priority_provider=priority_provider,
            referrer=referrer,
            destination_call_data=destination_call_data,
            destination_gas_limit=destination_gas_limit,
            allowed_price_impact=allowed_price_impact,
            simulation=simulation,
        )
        return await self._transport.request(operations.get_quote(self.paths, request), options)

    async def build_best_path(
        self,
        *,
        from_chain: int,
        to_chain: int,
        from_token: str,
        to_token: str,
        amount: int | str,
        sender: str,
        receiver: str | None = None,
        slippage: Decimal | float | int | str | None = None,
        fee_bps: int | None = None,
        include_providers: Sequence[str] | None = None,
        exclude_providers: Sequence[str] | None = None,
        route_mode: RouteMode | None = None,
        integrator: str | None = None,
        allow_multi_bridge: bool | None = None,
        acquisition_mode: AcquisitionMode | int | None = None,
        priority_provider: str | None = None,
        referrer: str | None = None,
        destination_call_data: str | None = None,
        destination_gas_limit: int | str | None = None,
        allowed_price_impact: Decimal | float | int | str | None = None,
        simulation: bool | None = None,
        min_output_amount: int | str | None = None,
        include_route: bool | None = None,
        max_slippage: Decimal | float | int | str | None = None,
        **options: Unpack[RequestOptions],
    ) -> BuiltPath:
        """Plan the best route and build its transaction in one call
        (``GET /build-best-path``).

        Takes every argument of `get_quote` (``simulation`` here asks for
        simulation-aware planning), plus:

        Args:
            min_output_amount: the least output to accept, in the output token's
                smallest units.
            include_route: add route composition detail when available.
            max_slippage: the largest ``slippage`` accepted, in percent (default 5).
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.

        Returns:
            The transaction to send (``tx``) and the planned route (``route``), checked:
            the transaction is for ``from_chain``, and the route's stated outputs are
            at least ``min_output_amount``.

        Raises:
            UnsafePayloadError: the answer is for another chain, or states less output
                than ``min_output_amount``.
        """
        request = operations.build_best_path_request(
            max_slippage=max_slippage,
            from_chain=from_chain,
            to_chain=to_chain,
            from_token=from_token,
            to_token=to_token,
            amount=amount,
            sender=sender,
            receiver=receiver,
            slippage=slippage,
            fee_bps=fee_bps,
            include_providers=include_providers,
            exclude_providers=exclude_providers,
            route_mode=route_mode,
            integrator=integrator,
            allow_multi_bridge=allow_multi_bridge,
            acquisition_mode=acquisition_mode,
            priority_provider=priority_provider,
            referrer=referrer,
            destination_call_data=destination_call_data,
            destination_gas_limit=destination_gas_limit,
            allowed_price_impact=allowed_price_impact,
            simulation=simulation,
            min_output_amount=min_output_amount,
            include_route=include_route,
        )
        built = await self._transport.request(
            operations.build_best_path(self.paths, request), options
        )
        from . import _execution as execution  # lazy: routes' execution code, not loaded by reads

        return execution.check_built_best_path(built, request)

    async def build_path(
        self,
        route: Route | Mapping[str, Any],
        sender: str,
        **options: Unpack[RequestOptions],
    ) -> Transaction:
        """Build the executable transaction for a quoted route (``POST /build-path``).

        The route is sent back exactly as `get_quote` received it, under ``route``,
        with ``sender``; the spec's ``fromChain``, ``toChain``, ``fromToken``,
        ``toToken``, ``Amount`` and ``Sender`` are filled in from the route.

        Args:
            route: a `Route` from `get_quote`, or a route's wire dict.
            sender: the wallet that will send the transaction.
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.

        Returns:
            The transaction; send exactly this (after approving
            ``allowance_target`` when the input is an ERC-20).

        Raises:
            UnsafePayloadError: the route (from `get_quote`) names another receiver,
                output token or destination chain than was asked, or a minimum output
                below the floor of the slippage asked; nothing is sent.
        """
        from ._quote_models import Route  # lazy: the quote models, at the first quote

        if isinstance(route, Route):
            from . import _execution as execution  # lazy: routes' execution code

            execution.check_route_terms(route)
        return await self._transport.request(
            operations.build_path(self.paths, route, sender), options
        )

    async def build_path_flat(
        self,
        *,
        from_chain: int,
        to_chain: int,
        from_token: str,
        to_token: str,
        amount: int | str,
        sender: str,
        **options: Unpack[RequestOptions],
    ) -> Transaction:
        """Build a transaction from the spec's flat body, without a quoted route
        (``POST /build-path``).

        Sends exactly ``{fromChain, toChain, fromToken, toToken, Amount, Sender}``, the
        body the routing spec documents. `build_path` sends a quoted route instead (as
        the live service's examples do); use this when you have no route, or your
        deployment follows the spec.

        Args:
            from_chain: the source chain id.
            to_chain: the destination chain id.
            from_token: the input token's address on ``from_chain``.
            to_token: the output token's address on ``to_chain``.
            amount: the input amount in the token's smallest units (``Amount``).
            sender: the wallet that will send the transaction (``Sender``).
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.

        Returns:
            The transaction to send.
        """
        request = operations.build_path_request(
            from_chain=from_chain,
            to_chain=to_chain,
            from_token=from_token,
            to_token=to_token,
            amount=amount,
            sender=sender,
        )
        return await self._transport.request(
            operations.build_path_flat(self.paths, request), options
        )

    async def build_path_by_id(
        self,
        quote_id: str,
        *,
        sender: str | None = None,
        **options: Unpack[RequestOptions],
    ) -> Transaction:
        """Build the transaction for a route by its quote id (``POST /build-path-by-id``).

        Args:
            quote_id: a route's ``quote_id`` from `get_quote`.
            sender: the sending wallet, when it should be stated again.
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.
        """
        operation = operations.build_path_by_id(self.paths, quote_id, sender)
        return await self._transport.request(operation, options)

    async def get_status(
        self,
        tx_hash: str | None = None,
        from_chain: int | None = None,
        user_address: str | None = None,
        *,
        provider_key: str | None = None,
        tx_ref: str | None = None,
        **options: Unpack[RequestOptions],
    ) -> TransactionStatus:
        """Read a swap or bridge's status (``GET /status``), in either request shape.

        The spec's shape is ``tx_hash`` and ``from_chain`` (and optionally
        ``user_address``); the second documented shape is ``provider_key`` and
        ``tx_ref``. Give one shape, whole: mixing them, or giving neither, raises
        `InvalidInputError` before anything is sent.

        Args:
            tx_hash: the source-chain transaction hash.
            from_chain: the chain the source transaction was sent on.
            user_address: scope the lookup to the initiating wallet.
            provider_key: the provider's key (second shape), e.g. a status record's
                ``provider.key``.
            tx_ref: the provider's reference of the transfer (second shape).
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.

        Returns:
            The status, read from either documented answer shape.
        """
        operation = operations.get_status(
            self.paths, tx_hash, from_chain, user_address, provider_key=provider_key, tx_ref=tx_ref
        )
        return await self._transport.request(operation, options)

    async def wait_for_status(
        self,
        tx_hash: str | None = None,
        from_chain: int | None = None,
        user_address: str | None = None,
        *,
        provider_key: str | None = None,
        tx_ref: str | None = None,
        wait_timeout: float = DEFAULT_WAIT_TIMEOUT,
        poll_interval: float = DEFAULT_POLL_INTERVAL,
        is_done: Callable[[TransactionStatus], bool] | None = None,
        **options: Unpack[WaitOptions],
    ) -> TransactionStatus:
        """Poll `get_status` (either request shape) until the swap or bridge is done,
        and return that record.

        Done means a destination (or execution) hash is known, unless ``is_done`` says
        otherwise. A status of ``failed`` (in any case) raises before ``is_done`` is
        asked. A 404 right after sending keeps it polling.

        Args:
            tx_hash: the source-chain transaction hash.
            from_chain: the chain the source transaction was sent on.
            user_address: scope the lookup to the initiating wallet.
            provider_key: the provider's key (second shape, with ``tx_ref``).
            tx_ref: the provider's reference of the transfer (second shape).
            wait_timeout: seconds to keep polling (default 900, 15 minutes).
            poll_interval: seconds between requests (default 5).
            is_done: your own test of a record, for states the SDK does not know.
            **options: `WaitOptions` for each request (not ``timeout``: see
                `WaitOptions`).

        Raises:
            SwapFailedError: the status became ``failed``; ``status`` holds the record.
            WaitTimeoutError: time ran out; the swap may still complete.
        """
        flow = operations.wait_for_status(
            self.paths,
            tx_hash,
            from_chain,
            user_address,
            provider_key=provider_key,
            tx_ref=tx_ref,
            wait_timeout=wait_timeout,
            poll_interval=poll_interval,
            is_done=is_done,
            clock=self.clock,
        )
        return await self._transport.run(flow, wait_options(options))

    async def get_supported_chains(
        self, *, refresh: bool = False, **options: Unpack[RequestOptions]
    ) -> list[SupportedChain]:
        """List the supported chains with their feature flags (``GET /supported-chains``).

        This list is authoritative for support and features. Needs the API key. It is
        kept for ``chain_list_ttl`` seconds (see the client's arguments). Its
        ``serviceContract`` is used as a routing contract only by a client built with
        ``unsafe_trust_service_parties=True``, on a chain nothing pins.

        Args:
            refresh: read the list again even if a fresh one is kept.
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.
        """
        operation = operations.get_supported_chains(self.paths)
        flow = self._chains.read(self.base_url, operation, clock=self.clock, refresh=refresh)
        return await self._transport.run(flow, options)

    async def search_token(
        self, query: str, chain_id: int | None = None, **options: Unpack[RequestOptions]
    ) -> list[TokenSearchResult]:
        """Find tokens by symbol, name or address (``GET /search-token``).

        Args:
            query: what to match against symbol, name or address.
            chain_id: only this chain's tokens.
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.
        """
        operation = operations.search_token(self.paths, query, chain_id)
        return await self._transport.request(operation, options)

    async def get_tokens(
        self, chain_id: int | None = None, **options: Unpack[RequestOptions]
    ) -> list[Token]:
        """List the tokens of one chain, or of every supported chain (``GET /tokens``).

        Args:
            chain_id: only this chain's tokens (sent as ``chainId``).
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.
        """
        return await self._transport.request(operations.get_tokens(self.paths, chain_id), options)

    async def get_gasless_quote(
        self,
        *,
        from_chain: int,
        to_chain: int,
        from_token: str,
        to_token: str,
        amount: int | str,
        sender: str,
        receiver: str | None = None,
        fee_bps: int | None = None,
        allow_multi_bridge: bool | None = None,
        ranking_mode: RankingMode | None = None,
        slippage: Decimal | float | int | str | None = None,
        acquisition_mode: AcquisitionMode | int | None = None,
        deadline_minutes: int | None = None,
        meta: str | None = None,
        include_providers: Sequence[str] | None = None,
        exclude_providers: Sequence[str] | None = None,
        min_amount_out: int | str | None = None,
        max_slippage: Decimal | float | int | str | None = None,
        sign_unverified_payload: bool = False,
        **options: Unpack[RequestOptions],
    ) -> list[GaslessQuote]:
        """Permit2 quotes for a gasless swap (``GET /gasless/quote``), each verified.

        The service answers with one quote or several; the result is always a list.
        Every quote is checked as `gasless_swap` checks the one it signs (the Permit2
        payload field by field against these arguments and the pinned routing
        contract, and the quote's summary) before any is returned; one that differs
        raises `UnsafePayloadError`. Sign a quote's ``eip712`` payload exactly as given
        and pass the quote (or its ``quote_id``) and the signature to
        `submit_gasless_swap`, or let `gasless_swap` do it all.

        Args:
            from_chain: the source chain id.
            to_chain: the destination chain id.
            from_token: the input token's address on ``from_chain``.
            to_token: the output token's address on ``to_chain``.
            amount: the input amount in the token's smallest units.
            sender: the wallet that signs the Permit2 payload and supplies the input.
            receiver: the wallet that receives the output (defaults to ``sender``).
            fee_bps: your integrator fee in basis points.
            allow_multi_bridge: allow routes over more than one bridge.
            ranking_mode: ``"value_max"``, ``"balanced"`` or ``"speed_max"``.
            slippage: tolerated slippage in percent.
            acquisition_mode: `AcquisitionMode.PERMIT2` (2) or
                `AcquisitionMode.PERMIT2_WITNESS` (3).
            deadline_minutes: how long the signed permit stays valid.
            meta: free-form metadata, sent as given.
            include_providers: only use these providers.
            exclude_providers: never use these providers.
            min_amount_out: the least output accepted, in the output token's smallest
                units; the witness and the summary must promise at least this.
            max_slippage: the largest ``slippage`` accepted, in percent (default 5).
            sign_unverified_payload: DANGEROUS. Return the quotes unchecked (and
                unmarked: `submit_gasless_swap` then needs the same opt-in). Only for a
                service you control whose payload the SDK cannot read.
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.

        Raises:
            InvalidInputError: a bad argument, or ``acquisition_mode=2`` with
                ``receiver``, ``min_amount_out`` or ``slippage`` (before any request).
            UnsafePayloadError: no routing contract is pinned for ``from_chain``
                (before any request), or a quote differs from these arguments.
        """
        request = operations.gasless_quote_request(
            max_slippage=max_slippage,
            from_chain=from_chain,
            to_chain=to_chain,
            from_token=from_token,
            to_token=to_token,
            amount=amount,
            sender=sender,
            receiver=receiver,
            fee_bps=fee_bps,
            allow_multi_bridge=allow_multi_bridge,
            ranking_mode=ranking_mode,
            slippage=slippage,
            acquisition_mode=acquisition_mode,
            deadline_minutes=deadline_minutes,
            meta=meta,
            include_providers=include_providers,
            exclude_providers=exclude_providers,
        )
        if not isinstance(sign_unverified_payload, bool):
            raise InvalidInputError("sign_unverified_payload", "must be True or False")
        from ..registry import routing_contract_of  # lazy: the pins, at the first swap call
        from . import _gasless as gasless  # lazy: gasless swaps' code, not loaded by reads

        least = verification.check_min_amount_out(min_amount_out)
        verification.check_gasless_terms(request, least)
        pinned = routing_contract_of(from_chain, self._routing_contracts)
        if pinned is None and not self._trust_service and not sign_unverified_payload:
            raise verification.unpinned_contract(from_chain)
        flow = gasless.verified_quotes(
            self.paths,
            request,
            pinned=pinned,
            trust_service=self._trust_service,
            chains=self._chains,
            chains_key=self.base_url,
            clock=self.clock,
            min_amount_out=least,
            verified=self._verified,
            sign_unverified_payload=sign_unverified_payload,
        )
        return await self._transport.run(flow, options)

    async def submit_gasless_swap(
        self,
        quote_id: str | GaslessQuote,
        signature: str,
        *,
        sign_unverified_payload: bool = False,
        **options: Unpack[RequestOptions],
    ) -> GaslessSubmission:
        """Execute a gasless swap with the user's Permit2 signature
        (``POST /gasless/submit-swap``).

        Only a signature over a verified payload is sent: the quote must come from
        `get_gasless_quote` of this client (or be checked with
        `xswap_sdk.routing.verify_gasless_quote`), and the signature must recover,
        over its ``eip712`` payload as it was verified, to the quote's sender.

        Moves money, so it is not retried once sent: if the answer is lost (timeout,
        5xx) the error has ``outcome_unknown=True``; check `get_gasless_status` before
        submitting again.

        Args:
            quote_id: the verified `GaslessQuote`, or its ``quote_id``.
            signature: the 65-byte signature of the quote's ``eip712`` payload.
            sign_unverified_payload: DANGEROUS. Submit a signature over a quote the SDK
                never verified (with a warning in the log).
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.

        Returns:
            The submission, whose ``swap_id`` identifies the swap.

        Raises:
            UnsafePayloadError: the quote was not verified, or the signature is not its
                sender's over the verified payload; nothing is sent.
        """
        checked_id = verification.check_submission(
            quote_id, signature, self._verified, sign_unverified_payload=sign_unverified_payload
        )
        operation = operations.submit_gasless_swap(self.paths, checked_id, signature)
        return await self._transport.request(operation, options)

    async def get_gasless_status(
        self, swap_id: str, **options: Unpack[RequestOptions]
    ) -> GaslessStatus:
        """Read a gasless swap's record (``GET /gasless/status``). Needs the API key.

        Args:
            swap_id: the ``swap_id`` from `submit_gasless_swap`.
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.
        """
        return await self._transport.request(
            operations.get_gasless_status(self.paths, swap_id), options
        )

    async def wait_for_gasless_status(
        self,
        swap_id: str,
        *,
        wait_timeout: float = DEFAULT_WAIT_TIMEOUT,
        poll_interval: float = DEFAULT_POLL_INTERVAL,
        is_done: Callable[[GaslessStatus], bool] | None = None,
        **options: Unpack[WaitOptions],
    ) -> GaslessStatus:
        """Poll `get_gasless_status` until the swap executed, and return that record.

        Done means ``execution_tx_hash`` is present, unless ``is_done`` says otherwise.
        A status of ``failed`` (in any case) raises before ``is_done`` is asked. A
        404 right after submission keeps it polling.

        Args:
            swap_id: the ``swap_id`` from `submit_gasless_swap`.
            wait_timeout: seconds to keep polling (default 900, 15 minutes).
            poll_interval: seconds between requests (default 5).
            is_done: your own test of a record, for states the SDK does not know.
            **options: `WaitOptions` for each request (not ``timeout``: see
                `WaitOptions`).

        Raises:
            SwapFailedError: the status became ``failed``; ``status`` holds the record.
            WaitTimeoutError: time ran out; the swap may still complete.
        """
        flow = operations.wait_for_gasless_status(
            self.paths,
            swap_id,
            wait_timeout=wait_timeout,
            poll_interval=poll_interval,
            is_done=is_done,
            clock=self.clock,
        )
        return await self._transport.run(flow, wait_options(options))

    async def gasless_swap(
        self,
        signer: Signer,
        *,
        from_chain: int,
        to_chain: int,
        from_token: str,
        to_token: str,
        amount: int | str,
        receiver: str | None = None,
        fee_bps: int | None = None,
        allow_multi_bridge: bool | None = None,
        ranking_mode: RankingMode | None = None,
        slippage: Decimal | float | int | str | None = None,
        acquisition_mode: AcquisitionMode | int | None = None,
        deadline_minutes: int | None = None,
        meta: str | None = None,
        include_providers: Sequence[str] | None = None,
        exclude_providers: Sequence[str] | None = None,
        wait: bool = False,
        wait_timeout: float = DEFAULT_WAIT_TIMEOUT,
        poll_interval: float = DEFAULT_POLL_INTERVAL,
        is_done: Callable[[GaslessStatus], bool] | None = None,
        min_amount_out: int | str | None = None,
        sign_unverified_payload: bool = False,
        max_slippage: Decimal | float | int | str | None = None,
        requote: int = 0,
        accept_quote: Callable[[GaslessQuote], bool] | None = None,
        **options: Unpack[RequestOptions],
    ) -> GaslessSwapResult:
        """A whole gasless swap in one call: quote, sign, submit, and optionally wait.

        Asks `get_gasless_quote` with the signer's address as ``sender``, builds the
        Permit2 message these arguments call for and compares the first quote's
        ``eip712`` payload with it field by field (token, amount, spender, chain,
        Permit2 itself, deadline and, for a witness, receiver, destination and minimum
        output), signs it only when they agree, submits it with `submit_gasless_swap`
        (never retried once sent), and with ``wait=True`` polls like
        `wait_for_gasless_status`.

        The spender must be the routing contract of ``from_chain``: the client's
        ``routing_contracts`` pin, else the registry's
        (`xswap_sdk.registry.ROUTING_CONTRACTS`); a chain pinned by neither is refused
        before any request (``serviceContract`` from `get_supported_chains` is used
        only with ``unsafe_trust_service_parties=True``).

        The permit carries a witness (``acquisition_mode=3``, the default) naming the
        receiver, destination and minimum output, so the service cannot change them
        after you sign. ``acquisition_mode=2`` (no witness) is refused with
        ``receiver``, ``min_amount_out`` or ``slippage``.

        Args:
            signer: the wallet that owns the input tokens, such as an `eth_account`
                ``LocalAccount`` (see `xswap_sdk.signing.Signer`).
            from_chain: the source chain id.
            to_chain: the destination chain id.
            from_token: the input token's address on ``from_chain``.
            to_token: the output token's address on ``to_chain``.
            amount: the input amount in the token's smallest units.
            receiver: the wallet that receives the output (defaults to the signer).
            fee_bps: your integrator fee in basis points.
            allow_multi_bridge: allow routes over more than one bridge.
            ranking_mode: ``"value_max"``, ``"balanced"`` or ``"speed_max"``.
            slippage: tolerated slippage in percent (at most ``max_slippage``).
            acquisition_mode: `AcquisitionMode.PERMIT2_WITNESS` (3, the default) or
                `AcquisitionMode.PERMIT2` (2: the signature then names no receiver,
                output or destination; refused with the three arguments above).
            deadline_minutes: how long the signed permit stays valid.
            meta: free-form metadata, sent as given.
            include_providers: only use these providers.
            exclude_providers: never use these providers.
            wait: poll until the swap executed (default ``False``: return once it is
                submitted). When waiting, ``timeout=`` is refused (it would read as
                the wait's limit, ``wait_timeout``): set each request's timeout with
                ``client.with_options(timeout=...)``.
            wait_timeout: seconds to keep polling when waiting (default 900).
            poll_interval: seconds between status requests (default 5).
            is_done: your own test of a status record, when waiting.
            min_amount_out: the least output accepted, in the output token's smallest
                units; a witness payload must promise at least this.
            sign_unverified_payload: DANGEROUS. Sign the service's payload as it is,
                without comparing it with what was asked: a compromised or spoofed
                service can then take any of the signer's tokens that Permit2 may move.
                Only for a service you control whose payload the SDK cannot read.
            max_slippage: the largest ``slippage`` accepted, in percent (default 5).
            requote: how many new quotes may replace one whose permit deadline passed
                before it was signed (0 to 5, default 0: refuse it). Each new quote
                passes every check the first did; only an expired quote is asked again,
                never one refused for another rule.
            accept_quote: called with each new quote (not the first) after its checks;
                return ``True`` to sign it. ``False`` refuses it (`QuoteRejectedError`,
                argument ``accept_quote``): nothing is signed or submitted.
            **options: per-call options for each request (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.

        Returns:
            The signed quote, the submission and, when waiting, the final status.

        Raises:
            UnsafePayloadError: the payload is not the Permit2 message these arguments
                call for; nothing was signed or submitted.
            QuoteRejectedError: the permit's deadline passed before signing and
                ``requote`` is spent, or ``accept_quote`` declined the new quote;
                nothing was signed or submitted.
            SigningError: the quote's payload cannot be signed, or the signer failed.
            SwapFailedError: the submission or the status says ``failed``.
            WaitTimeoutError: waiting ran out of time; the swap may still complete.
        """
        from ..registry import routing_contract_of  # lazy: the pins, at the first swap call
        from . import _gasless as gasless  # lazy: gasless swaps' code, not loaded by reads

        options = call_options(options, wait=wait)
        flow = gasless.gasless_swap(
            self.paths,
            signer,
            from_chain=from_chain,
            to_chain=to_chain,
            from_token=from_token,
            to_token=to_token,
            amount=amount,
            receiver=receiver,
            fee_bps=fee_bps,
            allow_multi_bridge=allow_multi_bridge,
            ranking_mode=ranking_mode,
            slippage=slippage,
            acquisition_mode=acquisition_mode,
            deadline_minutes=deadline_minutes,
            meta=meta,
            include_providers=include_providers,
            exclude_providers=exclude_providers,
            wait=wait,
            wait_timeout=wait_timeout,
            poll_interval=poll_interval,
            is_done=is_done,
            clock=self.clock,
            spender=routing_contract_of(from_chain, self._routing_contracts),
            trust_service=self._trust_service,
            chains=self._chains,
            chains_key=self.base_url,
            min_amount_out=min_amount_out,
            sign_unverified_payload=sign_unverified_payload,
            max_slippage=max_slippage,
            requote=requote,
            accept_quote=accept_quote,
        )
        return await self._transport.run(flow, options)

    # -- executing routes with web3

    async def execute_route(
        self,
        signer: Signer,
        route: Route,
        *,
        web3: AsyncWeb3[Any],
        approve: bool = False,
        wait: bool = True,
        wait_timeout: float = DEFAULT_WAIT_TIMEOUT,
        poll_interval: float = DEFAULT_POLL_INTERVAL,
        is_done: Callable[[TransactionStatus], bool] | None = None,
        simulate: SimulateOption = "auto",
        requote: int = 0,
        accept_quote: Callable[[Route | Transaction], bool] | None = None,
        **options: Unpack[RequestOptions],
    ) -> RouteExecution:
        """Execute a quoted route from the signer's wallet: build its transaction, check
        it, approve the exact input amount when asked, send it, and follow ``/status``.

        Before anything is signed, the route must still say what `get_quote` was asked,
        on both sides: input token, chain, amount and sender (the signer); receiver,
        output token, destination chain, and a minimum output no lower than the quoted
        output less the slippage asked (5 % when none was). web3 must be on its source
        chain, and the built transaction must call the chain's routing contract (the
        client's ``routing_contracts`` pin, else the registry's; an unpinned chain is
        refused before any request unless ``unsafe_trust_service_parties``), with that
        same contract as ``allowance_target`` and no native value for an ERC-20 input.
        See ``xswap_sdk.routing._execution``.

        The call is one ``route`` journey (``docs/journeys.md``): the chain id, the
        build, the checks, the allowance read, the simulation, the transactions and the
        wait are its steps, journaled with a ``journal=`` and reported to ``on_step``.

        When the built transaction (or the route) expires before it is signed, and
        only then, ``requote=N`` builds it again, up to ``N`` times (a route that
        expired is quoted again first, with the route's original request): each new
        one passes every check above, must guarantee no less output than ``route``,
        and is offered to ``accept_quote`` before anything is signed.

        Args:
            signer: the route's sender, such as an `eth_account` ``LocalAccount`` (it
                signs the approval and the transaction), or an account the node holds.
            route: a `Route` from `get_quote` of this client.
            web3: a connected `web3.AsyncWeb3` on the route's source chain (needs the
                ``web3`` extra).
            approve: when the allowance is short, approve exactly the route's amount
                first (default ``False``: refuse instead, sending nothing).
            wait: poll `wait_for_status` once sent (default ``True``). When waiting,
                ``timeout=`` is refused (it would read as the wait's limit,
                ``wait_timeout``): set each request's timeout with
                ``client.with_options(timeout=...)``.
            wait_timeout: seconds to keep polling when waiting (default 900).
            poll_interval: seconds between status requests (default 5).
            is_done: your own test of a status record, when waiting.
            simulate: simulate the approval and the route transaction, in order, on
                web3's node before signing, and refuse movements the route does not
                mean: ``"auto"`` (default, when the node answers ``eth_simulateV1``),
                ``True`` (required) or ``False``. See `xswap_sdk.simulation`.
            requote: how many times a built transaction (or route) that expired before
                signing may be built again (0 to 5, default 0: refuse it). Only an
                expiry is built again, never a route refused for another rule.
            accept_quote: called before signing with each new `Route` (when the route
                was quoted again) or new `Transaction` (the same route built again),
                after its checks; return ``True`` to sign it. ``False`` refuses it
                (`QuoteRejectedError`, argument ``accept_quote``) and nothing is signed.
            **options: per-call options for each request (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.

        Returns:
            The transaction, its hash, the allowance (and approval), the simulation
            and, when waiting, the final status.

        Raises:
            InvalidInputError: a bad argument, web3 on another chain, or a short
                allowance without ``approve=True`` (nothing sent).
            UnsafePayloadError: the route or its transaction is not what was asked for
                (nothing signed).
            QuoteRejectedError: the built transaction (or the route) expired and
                ``requote`` is spent, a new route guarantees less than ``route``, or
                ``accept_quote`` declined it (nothing signed).
            SimulationError: the simulation reverted or moved what the route does not
                mean, or ``simulate=True`` and the node cannot simulate (nothing sent).
            SwapFailedError: the approval or the transaction reverted, or the status
                says ``failed``.
            WaitTimeoutError: waiting ran out of time; the transfer may still land.
        """
        from .. import _async_web3 as web3io  # lazy: routes' execution code
        from .._requote import check_requote  # lazy: routes' execution code
        from .._simulation import check_simulate_option  # lazy: routes' execution code
        from . import _execution as execution  # lazy: routes' execution code
        from . import _route_journey as route_journey  # lazy: routes' execution code

        options = call_options(options, wait=wait)
        plan = execution.plan_execution(
            signer, route, web3=web3, web3_type="AsyncWeb3", approve=approve
        )
        predicate = operations.check_wait(wait_timeout, poll_interval, is_done)
        if not isinstance(wait, bool):
            raise InvalidInputError("wait", "must be True or False")
        simulate = check_simulate_option(simulate)
        requote, accept_quote = check_requote(requote, accept_quote)
        from ..registry import routing_contract_of  # lazy: the pins, at the first swap call

        pinned = routing_contract_of(plan.chain_id, self._routing_contracts)
        if pinned is None and not self._trust_service:
            raise verification.unpinned_contract(plan.chain_id)
        run = route_journey.RouteRun(
            plan=plan,
            paths=self.paths,
            pinned=pinned,
            trust_service=self._trust_service,
            chains=self._chains,
            chains_key=self.base_url,
            clock=self.clock,
            approve=approve,
            simulate=simulate,
            wait=route_journey.RouteWait(wait_timeout, poll_interval, predicate) if wait else None,
            requote=requote,
            accept_quote=accept_quote,
            asks=accept_quote is not None,
        )
        journey = route_journey.route_journey(run, web3io.async_chain_io(web3, signer))
        return await self._transport.run(journey, options)

    async def check_permit2_allowance(
        self,
        signer: Signer,
        *,
        token: str,
        amount: int | str,
        web3: AsyncWeb3[Any],
        approve: bool = False,
        simulate: SimulateOption = "auto",
    ) -> AllowanceCheck:
        """Read how much of ``token`` Permit2 may move for the signer and, when asked,
        approve exactly ``amount`` (the one-time approval gasless swaps need).

        The spender is Permit2 (`xswap_sdk.registry.PERMIT2`, pinned), never an address
        from a service. No request goes to the routing service.

        Args:
            signer: the token holder (it signs the approval).
            token: the ERC-20 to swap gaslessly.
            amount: what Permit2 must be able to move, in smallest units.
            web3: a connected `web3.AsyncWeb3` on the token's chain.
            approve: when the allowance is below ``amount``, approve exactly ``amount``
                (default ``False``: only read it).
            simulate: simulate the approval on web3's node before signing it:
                ``"auto"`` (default), ``True`` (required) or ``False``. See
                `xswap_sdk.simulation`.

        Returns:
            The allowance read, and the approval if one was sent; ``sufficient`` says
            whether a gasless swap of ``amount`` can go ahead.

        Raises:
            InvalidInputError: a bad argument.
            SimulationError: the approval's simulation reverted or did not set exactly
                ``amount`` for Permit2 (nothing sent).
            SwapFailedError: the approval reverted.
        """
        from .. import _async_web3 as web3io  # lazy: routes' execution code
        from .. import _simulation as simulation  # lazy: routes' execution code
        from .._simulation import check_simulate_option  # lazy: routes' execution code
        from . import _execution as execution  # lazy: routes' execution code
        from ._execution import AllowanceCheck  # lazy: routes' execution code

        owner, checked_token, units = execution.plan_allowance(
            signer, token=token, amount=amount, web3=web3, web3_type="AsyncWeb3", approve=approve
        )
        simulate = check_simulate_option(simulate)
        chain = await web3io.async_chain_id(web3)
        spender = execution.PERMIT2_SPENDER
        current = await web3io.async_allowance(web3, checked_token, owner, spender)
        result = AllowanceCheck(
            chain_id=chain,
            token=checked_token,
            owner=owner,
            spender=spender,
            amount=units,
            allowance=current,
        )
        if current < units and approve:
            fields = execution.approval_fields(checked_token, spender, units)
            intent = simulation.approval_intent(fields, checked_token, spender, units)
            simulated = await web3io.async_check_by_simulation(web3, owner, [intent], simulate)
            approval = await web3io.async_send_and_confirm(web3, signer, fields, "approval")
            result = result.model_copy(
                update={"approval_tx_hash": approval, "simulation": simulated}
            )
        return result
