"""`AsyncRelayerClient`: submit transactions to the relayer, then follow them.

The hand-written source of ``_sync_client.py`` (`RelayerClient`), which
``scripts/unasync.py`` generates from it. Each method is one line over an operation
from ``_operations``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Final, Unpack

import httpx
from pydantic import SecretStr

from .._async_base_client import AsyncAPIClient
from .._auth import Auth
from .._cache import DEFAULT_CHAIN_LIST_TTL, ChainListCache
from .._clock import SYSTEM_CLOCK, Clock
from .._framing import SuccessEnvelope
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
from .._version import __version__
from ..chains import ChainFamily, check_chain_families
from ..errors import InvalidInputError
from ..events import RequestHook, ResponseHook, RetryHook
from . import _operations as operations
from ._operations import RelayerPaths

if TYPE_CHECKING:
    import httpx2

    from ..journal import JournalArg, StepHook
    from ..policy import PolicyLike
    from ..registry import Registry
    from ..signing.eip7702 import SignedAuthorization
    from ..signing.signer import Signer
    from ._status import RelayStatus
    from ._x402 import X402Payer
    from .models import (
        AccountInfo,
        RelayedTxId,
        RelayerChain,
        SubmitTxResult,
        TransactionType,
    )


__all__ = ["RELAYER_SERVICE", "AsyncRelayerClient"]

RELAYER_SERVICE: Final = ServiceConfig(
    name="relayer",
    default_base_url="https://tachyon.rath.fi",
    base_url_env="XSWAP_RELAYER_URL",
    api_key_env="XSWAP_RELAYER_API_KEY",
    api_key_header="api-key",
)


class AsyncRelayerClient(AsyncAPIClient):
    """Async client of the transaction relayer.

    The options every client shares (``timeout`` ... ``policy``) are described once, with
    their defaults, in the configuration guide's "Shared constructor options"
    (``docs/configuration.md``); each has one line below.

    Args:
        api_key: the relayer API key; defaults to ``XSWAP_RELAYER_API_KEY``. Every
            relayer call needs one unless ``payer`` is given; a missing key is reported
            on the first call, before anything is sent.
        base_url: defaults to ``XSWAP_RELAYER_URL``, then ``https://tachyon.rath.fi``.
        timeout: seconds, an `httpx.Timeout`, or ``None``; default connect 5 s, read 30 s.
        max_retries: retries of a failed request where retrying is safe (default 2).
        headers: extra headers sent with every request.
        http_client: an `httpx.AsyncClient` or an `httpx2.AsyncClient` you own (its
            connections, proxies and certificates); the SDK never closes it.
        clock: the time source for retry waits and polling.
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
        paths: the relayer's HTTP paths, to override any of them.
        chain_families: ``{chain_id: family}`` added to (or overriding)
            `xswap_sdk.chains.DEFAULT_CHAIN_FAMILIES`: ``"evm"``, ``"solana"``,
            ``"near"``, ``"aptos"`` or ``"sui"``. A submission's ``to``, ``value`` and
            ``gas_limit`` are checked by its chain's family; an unlisted chain is EVM.
        chain_list_ttl: seconds the relayer's chain list is kept (default 300); 0 reads
            it on every call. ``refresh=True`` on the chain methods reads it anew.
        payer: relay with no API key, paying each submission from this signer's Circle
            Gateway balance (x402, "Circle Gateway nanopayments"): on HTTP 402 the SDK
            checks the relayer's Gateway-batched payment option against the registry
            (GatewayWallet, USDC, domain ``GatewayWalletBatched`` ``1``) and
            ``max_payment``, signs one EIP-3009 ``TransferWithAuthorization`` and sends
            the request once more; a second 402 raises `PaymentNotAcceptedError`.
            The answer's payment is ``x402_payment`` of `SubmitTxResult`.
        max_payment: with ``payer``, required: the most one request may cost, in
            smallest USDC units (``10_000`` is 0.01 USDC); a dearer price is refused
            with `UnsafePayloadError` and nothing is signed.
        max_total_payment: with ``payer``, the most this client (and its
            ``with_options`` copies) may pay in all, in smallest USDC units; a payment
            past it is refused with `UnsafePayloadError` and nothing is signed. Only
            submissions are paid, once each: a 402 on a read (a status poll) raises
            `PaymentNotDueError`. Each payment passes the client's ``policy`` as a
            `SigningRequest` of kind ``"x402_payment"`` in USDC to the seller.
        registry: the pinned chains payments are checked against;
            `xswap_sdk.registry.DEFAULT_REGISTRY` when not given.

    Example:
        ```python
        async with AsyncRelayerClient(api_key="...") as relayer:
            tx_id = await relayer.relay(chain_id=8453, to="0x...", call_data="0x...")
            done = await relayer.wait_for_execution_hash(tx_id)
            print(done.execution_tx_hash)
        ```
    """

    _service = RELAYER_SERVICE
    _framing = SuccessEnvelope()
    _journey_client = "relayer"

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
        paths: RelayerPaths | None = None,
        chain_families: Mapping[int, ChainFamily] | None = None,
        chain_list_ttl: float = DEFAULT_CHAIN_LIST_TTL,
        payer: Signer | None = None,
        max_payment: int | None = None,
        registry: Registry | None = None,
        max_total_payment: int | None = None,
    ) -> None:
        self._payer: X402Payer | None = None
        if not (payer is None and max_payment is None and max_total_payment is None):
            from ._x402 import (  # lazy: the payer's signing code, for a client that pays
                X402Payer,
                check_max_payment,
                check_max_total_payment,
            )

            cap = check_max_payment(payer, max_payment)
            total_cap = check_max_total_payment(payer, max_total_payment)
        if registry is not None:
            from ..registry import Registry  # lazy: only to check a registry given here

            if not isinstance(registry, Registry):
                raise InvalidInputError("registry", "must be a xswap_sdk.registry.Registry or None")
        if payer is not None and cap is not None:
            from ..registry import DEFAULT_REGISTRY  # lazy: only for a payer's checks

            pins = DEFAULT_REGISTRY if registry is None else registry
            self._payer = X402Payer(payer, cap, pins, clock, max_total_payment=total_cap)
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
        self._transport.payer = self._payer
        self.paths: RelayerPaths = paths or RelayerPaths()
        """The relayer's HTTP paths this client calls."""
        self.chain_families: Mapping[int, ChainFamily] = check_chain_families(chain_families)
        """``{chain_id: family}`` known beyond the built-in ones (``chain_families=``)."""
        # Shared by with_options copies; entries are per base URL.
        self._chains: ChainListCache[RelayerChain] = ChainListCache(chain_list_ttl)
        # What was submitted, so status records are checked against it (shared too).
        self._submissions = operations.Submissions()

    def _make_auth(self) -> Auth:
        """The API key's auth; with an x402 payer and no key, none: requests go without
        a key and the relayer is paid per submission."""
        if self._payer is not None and self._options.api_key is None:
            return Auth()
        return super()._make_auth()

    @property
    def payer_address(self) -> str | None:
        """The address that pays keyless submissions (x402), or ``None``."""
        return None if self._payer is None else self._payer.address

    async def submit_tx(
        self,
        *,
        to: str,
        call_data: str,
        chain_id: int,
        value: int | str = 0,
        should_batch_in_multicall: bool | None = None,
        gas_price: int | str | None = None,
        max_priority_fee_per_gas: int | str | None = None,
        max_fee_per_gas: int | str | None = None,
        gas_limit: int | str | None = None,
        max_usd: Decimal | int | str | None = None,
        label: str | None = None,
        max_gas: int | str | None = None,
        retries: int | None = None,
        transaction_type: TransactionType | None = None,
        is_authenticated_tx: bool | None = None,
        derivation_path: str | None = None,
        authorization_list: Sequence[SignedAuthorization | Mapping[str, Any]] | None = None,
        **options: Unpack[RequestOptions],
    ) -> SubmitTxResult:
        """Submit a transaction for the relayer to execute (``POST /api/submit-tx``).

        Every argument is validated before anything is sent, by the family of
        ``chain_id`` (see the ``chain_families`` argument of the client): an EVM, Solana,
        NEAR, Aptos or Sui ``to``; a ``value`` that fits the chain's native integer; a
        ``gas_limit`` on Aptos and Sui, which require one. Amounts are integers in the
        chain's smallest unit, as ``int`` or a decimal string. Pass either ``gas_price``
        or both EIP-1559 fees, not both kinds.

        Not retried once sent: if the answer is lost (timeout, 5xx) the error has
        ``outcome_unknown=True``; check `get_relay_status` before submitting again.

        Args:
            to: the contract or account to call, as its chain writes addresses.
            call_data: hex calldata (``"0x"`` for none).
            chain_id: the target chain (a `xswap_sdk.chains.KnownChain` or any int).
            value: native value to send, in the chain's smallest unit.
            should_batch_in_multicall: let the relayer batch this in a multicall.
            gas_price: legacy gas price, in wei.
            max_priority_fee_per_gas: EIP-1559 tip, in wei.
            max_fee_per_gas: EIP-1559 fee cap, in wei.
            gas_limit: maximum gas for execution (required on Aptos and Sui).
            max_usd: maximum gas cost in USD.
            label: a label for your own bookkeeping.
            max_gas: the ``maxGas`` field of the relayer's example requests.
            retries: how many times the relayer may retry execution.
            transaction_type: the relayer's transaction type: ``"flash"`` (its
                default), ``"flash-blocks"``, or a type it adds later.
            is_authenticated_tx: the relayer's ``isAuthenticatedTx`` flag.
            derivation_path: the relayer account's derivation path.
            authorization_list: EIP-7702 authorizations (EVM only), from
                `xswap_sdk.signing.sign_authorization` or as the relayer's dicts; each
                is checked (its signature must recover) and must be for ``chain_id``
                or for every chain (0).
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.

        Returns:
            The submission, whose ``tx_id`` identifies it (and, when the relayer says,
            ``estimated_cost_usd``); ``journey_id``: its ``relay`` journey, with a
            journal.
        """
        request = operations.build_submit_request(
            chain_families=self.chain_families,
            to=to,
            call_data=call_data,
            chain_id=chain_id,
            value=value,
            should_batch_in_multicall=should_batch_in_multicall,
            gas_price=gas_price,
            max_priority_fee_per_gas=max_priority_fee_per_gas,
            max_fee_per_gas=max_fee_per_gas,
            gas_limit=gas_limit,
            max_usd=max_usd,
            label=label,
            max_gas=max_gas,
            retries=retries,
            transaction_type=transaction_type,
            is_authenticated_tx=is_authenticated_tx,
            derivation_path=derivation_path,
            authorization_list=authorization_list,
        )
        flow = operations.relay(self.paths, request, self._submissions)
        return await self._transport.run(flow, options)

    async def relay(
        self,
        *,
        chain_id: int,
        to: str,
        call_data: str,
        value: int | str = 0,
        label: str | None = None,
        gas_limit: int | str | None = None,
        should_batch_in_multicall: bool | None = None,
        gas_price: int | str | None = None,
        max_priority_fee_per_gas: int | str | None = None,
        max_fee_per_gas: int | str | None = None,
        max_usd: Decimal | int | str | None = None,
        max_gas: int | str | None = None,
        retries: int | None = None,
        transaction_type: TransactionType | None = None,
        is_authenticated_tx: bool | None = None,
        derivation_path: str | None = None,
        authorization_list: Sequence[SignedAuthorization | Mapping[str, Any]] | None = None,
        **options: Unpack[RequestOptions],
    ) -> RelayedTxId:
        """Submit a transaction and return its id, like the JavaScript client's ``relay``.

        `submit_tx` returning only the id; it takes the same arguments, checked the same
        way, and is never retried once sent.

        Args:
            chain_id: the target chain.
            to: the contract or account to call, as its chain writes addresses.
            call_data: hex calldata (``"0x"`` for none).
            value: native value to send, in the chain's smallest unit.
            label: a label for your own bookkeeping.
            gas_limit: maximum gas for execution (required on Aptos and Sui).
            should_batch_in_multicall: let the relayer batch this in a multicall.
            gas_price: legacy gas price, in wei.
            max_priority_fee_per_gas: EIP-1559 tip, in wei.
            max_fee_per_gas: EIP-1559 fee cap, in wei.
            max_usd: maximum gas cost in USD.
            max_gas: the ``maxGas`` field of the relayer's example requests.
            retries: how many times the relayer may retry execution.
            transaction_type: ``"flash"`` (the relayer's default), ``"flash-blocks"``,
                or a type it adds later.
            is_authenticated_tx: the relayer's ``isAuthenticatedTx`` flag.
            derivation_path: the relayer account's derivation path.
            authorization_list: EIP-7702 authorizations (EVM only).
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.

        Returns:
            The relayer's transaction id: a `str` (a `RelayedTxId`) whose
            ``journey_id`` is the ``relay`` journey in the client's journal (``None``
            without one).
        """
        request = operations.build_submit_request(
            chain_families=self.chain_families,
            chain_id=chain_id,
            to=to,
            call_data=call_data,
            value=value,
            label=label,
            gas_limit=gas_limit,
            should_batch_in_multicall=should_batch_in_multicall,
            gas_price=gas_price,
            max_priority_fee_per_gas=max_priority_fee_per_gas,
            max_fee_per_gas=max_fee_per_gas,
            max_usd=max_usd,
            max_gas=max_gas,
            retries=retries,
            transaction_type=transaction_type,
            is_authenticated_tx=is_authenticated_tx,
            derivation_path=derivation_path,
            authorization_list=authorization_list,
        )
        flow = operations.relay(self.paths, request, self._submissions)
        result = await self._transport.run(flow, options)
        from .models import RelayedTxId  # lazy: the relayer's other models, for a submission

        return RelayedTxId(result.tx_id, result.journey_id)

    async def relay_sync(
        self,
        *,
        chain_id: int,
        to: str,
        call_data: str,
        value: int | str = 0,
        label: str | None = None,
        gas_limit: int | str | None = None,
        gas_price: int | str | None = None,
        max_priority_fee_per_gas: int | str | None = None,
        max_fee_per_gas: int | str | None = None,
        max_usd: Decimal | int | str | None = None,
        timeout_ms: int = 30_000,
        include_receipt: bool | None = None,
        include_revert_info: bool | None = None,
        should_batch_in_multicall: bool | None = None,
        max_gas: int | str | None = None,
        retries: int | None = None,
        transaction_type: TransactionType | None = None,
        is_authenticated_tx: bool | None = None,
        derivation_path: str | None = None,
        authorization_list: Sequence[SignedAuthorization | Mapping[str, Any]] | None = None,
        **options: Unpack[RequestOptions],
    ) -> RelayStatus:
        """Submit and let the relayer wait for the outcome (``POST /api/submit-tx-sync``).

        Takes every argument of `submit_tx` (sent under ``tx``, checked the same way).
        The relayer answers with the latest record when the transaction is terminal or
        after ``timeout_ms``; the HTTP read timeout is set to outlast it. Like
        `submit_tx`, never retried once sent.

        Args:
            chain_id: the target chain.
            to: the contract or account to call, as its chain writes addresses.
            call_data: hex calldata (``"0x"`` for none).
            value: native value to send, in the chain's smallest unit.
            label: a label for your own bookkeeping.
            gas_limit: maximum gas for execution (required on Aptos and Sui).
            gas_price: legacy gas price, in wei.
            max_priority_fee_per_gas: EIP-1559 tip, in wei.
            max_fee_per_gas: EIP-1559 fee cap, in wei.
            max_usd: maximum gas cost in USD.
            timeout_ms: how long the relayer waits, 1000 to 120000 milliseconds (the
                service's own unit).
            include_receipt: ask for the transaction receipt in the record.
            include_revert_info: ask for revert details in the record.
            should_batch_in_multicall: let the relayer batch this in a multicall.
            max_gas: the ``maxGas`` field of the relayer's example requests.
            retries: how many times the relayer may retry execution.
            transaction_type: ``"flash"`` (the relayer's default), ``"flash-blocks"``,
                or a type it adds later.
            is_authenticated_tx: the relayer's ``isAuthenticatedTx`` flag.
            derivation_path: the relayer account's derivation path.
            authorization_list: EIP-7702 authorizations (EVM only).
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.

        Returns:
            The transaction's record when the relayer stopped waiting.

        Raises:
            ResponseValidationError: the record is another transaction's (its chain or
                ``to`` is not this submission's), with ``outcome_unknown=True``: this
                transaction was sent, and its fate is unknown.
        """
        request = operations.build_submit_request(
            chain_families=self.chain_families,
            chain_id=chain_id,
            to=to,
            call_data=call_data,
            value=value,
            label=label,
            gas_limit=gas_limit,
            gas_price=gas_price,
            max_priority_fee_per_gas=max_priority_fee_per_gas,
            max_fee_per_gas=max_fee_per_gas,
            max_usd=max_usd,
            should_batch_in_multicall=should_batch_in_multicall,
            max_gas=max_gas,
            retries=retries,
            transaction_type=transaction_type,
            is_authenticated_tx=is_authenticated_tx,
            derivation_path=derivation_path,
            authorization_list=authorization_list,
        )
        flow = operations.relay_sync(
            self.paths,
            request,
            self._submissions,
            timeout_ms=timeout_ms,
            include_receipt=include_receipt,
            include_revert_info=include_revert_info,
        )
        return await self._transport.run(flow, options)

    async def relay_signed_tx(
        self,
        *,
        signed_tx: str,
        min_balance_required: int | str,
        from_address: str,
        chain_id: int,
        label: str | None = None,
        **options: Unpack[RequestOptions],
    ) -> SubmitTxResult:
        """Submit a transaction you signed; the relayer funds its sender with at least
        ``min_balance_required`` and broadcasts it (``POST /api/submit-signed-tx``, the
        JavaScript client's ``relaySignedTx``).

        Before anything is sent, the sender is recovered from ``signed_tx`` and must be
        ``from_address``, and the transaction's chain id must be ``chain_id`` (a
        transaction without one, pre-EIP-155, is refused). Not retried once sent: if
        the answer is lost the error has ``outcome_unknown=True``; check
        `get_relay_status` (or the chain) before submitting again.

        Args:
            signed_tx: the raw signed EVM transaction, ``0x`` hex (any type).
            min_balance_required: the least native balance the sender needs, in wei
                (typically gas limit times max fee per gas).
            from_address: the transaction's signer, whom the relayer funds.
            chain_id: the chain the transaction is for.
            label: a label for your own bookkeeping.
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.

        Returns:
            The submission, whose ``tx_id`` is followed like any other;
            ``journey_id``: its ``relay`` journey, with a journal.

        Raises:
            InvalidInputError: a bad argument, or a sender or chain id that is not the
                transaction's.
        """
        request = operations.build_signed_tx_request(
            signed_tx=signed_tx,
            min_balance_required=min_balance_required,
            from_address=from_address,
            chain_id=chain_id,
            label=label,
        )
        return await self._transport.run(operations.relay_signed(self.paths, request), options)

    async def get_relay_status(
        self,
        tx_id: str,
        *,
        include_receipt: bool | None = None,
        include_revert_info: bool | None = None,
        **options: Unpack[RequestOptions],
    ) -> RelayStatus:
        """Read a transaction's record (``GET /api/tx``).

        Args:
            tx_id: the id from `submit_tx` or `relay`.
            include_receipt: ask for the transaction receipt in the record.
            include_revert_info: ask for revert details in the record.
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.

        Raises:
            ResponseValidationError: the record is not ``tx_id``'s, or, for a
                transaction this client submitted, is for another chain or ``to``.
        """
        operation = operations.get_relay_status(
            self.paths,
            tx_id,
            include_receipt=include_receipt,
            include_revert_info=include_revert_info,
            submissions=self._submissions,
        )
        return await self._transport.request(operation, options)

    async def wait_for_execution_hash(
        self,
        tx_id: str,
        timeout_ms: float = 5000,
        poll_interval_ms: float = 50,
        **options: Unpack[WaitOptions],
    ) -> RelayStatus:
        """Poll until the transaction is EXECUTED and return that record.

        The JavaScript client's ``waitForExecutionHash``, with its defaults and, like
        it, durations in milliseconds. NOT_PICKED_UP, PENDING and NEEDS_TO_BE_RETRIED
        keep it polling, and so does a 404 right after submission.

        Args:
            tx_id: the id from `submit_tx` or `relay`.
            timeout_ms: milliseconds to keep polling.
            poll_interval_ms: milliseconds between requests.
            **options: `WaitOptions` for each request (not ``timeout``: see
                `WaitOptions`).

        Raises:
            RelayFailedError: the status became FAILED (the error carries the record).
            ResponseValidationError: a record of another transaction: another id, or,
                for a transaction this client submitted, another chain or ``to``.
            WaitTimeoutError: time ran out; the transaction may still execute.
        """
        flow = operations.wait_for_hash(
            self.paths,
            tx_id,
            timeout_ms=timeout_ms,
            poll_interval_ms=poll_interval_ms,
            clock=self.clock,
            until_executed=True,
            submissions=self._submissions,
        )
        from .._polling import wait_options  # lazy: waits only

        return await self._transport.run(flow, wait_options(options, limit="timeout_ms"))

    async def wait_for_pending_execution_hash(
        self,
        tx_id: str,
        timeout_ms: float = 5000,
        poll_interval_ms: float = 50,
        **options: Unpack[WaitOptions],
    ) -> RelayStatus:
        """Poll until an execution hash is known, even while still PENDING.

        Args:
            tx_id: the id from `submit_tx` or `relay`.
            timeout_ms: milliseconds to keep polling.
            poll_interval_ms: milliseconds between requests.
            **options: `WaitOptions` for each request (not ``timeout``: see
                `WaitOptions`).

        Raises:
            RelayFailedError: the status became FAILED.
            ResponseValidationError: a record of another transaction (as for
                `wait_for_execution_hash`).
            WaitTimeoutError: time ran out; the transaction may still execute.
        """
        flow = operations.wait_for_hash(
            self.paths,
            tx_id,
            timeout_ms=timeout_ms,
            poll_interval_ms=poll_interval_ms,
            clock=self.clock,
            until_executed=False,
            submissions=self._submissions,
        )
        from .._polling import wait_options  # lazy: waits only

        return await self._transport.run(flow, wait_options(options, limit="timeout_ms"))

    async def check_account_info(
        self, address: str, **options: Unpack[RequestOptions]
    ) -> AccountInfo:
        """Read a relayer account's balances (``GET /api/user``).

        Args:
            address: the account's address.
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.
        """
        operation = operations.check_account_info(self.paths, address)
        return await self._transport.request(operation, options)

    async def get_supported_chains(
        self, *, refresh: bool = False, **options: Unpack[RequestOptions]
    ) -> list[RelayerChain]:
        """List the chains the relayer executes on.

        The list is kept for ``chain_list_ttl`` seconds (see the client's arguments),
        so calling this often costs one request every few minutes.

        Args:
            refresh: read the list again even if a fresh one is kept.
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.
        """
        operation = operations.get_supported_chains(self.paths)
        flow = self._chains.read(self.base_url, operation, clock=self.clock, refresh=refresh)
        return await self._transport.run(flow, options)

    async def is_chain_supported(
        self, chain_id: int, *, refresh: bool = False, **options: Unpack[RequestOptions]
    ) -> bool:
        """Whether ``chain_id`` is in the relayer's chain list (kept, see
        `get_supported_chains`).

        Args:
            chain_id: the chain to look for.
            refresh: read the list again even if a fresh one is kept.
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.
        """
        wanted = operations.check_chain_id(chain_id)
        chains = await self.get_supported_chains(refresh=refresh, **options)
        return any(chain.id == wanted for chain in chains)

    def get_version(self) -> str:
        """The version of this SDK, as the JavaScript client's ``getVersion`` returns its
        own; no request is made (the relayer has no version endpoint)."""
        return __version__
