"""`AsyncGatewayClient`: Circle Gateway's API, for balances, estimates and transfers.

It sees the gateway balance and follows a burn independently of the swap backend.

The hand-written source of ``_sync_client.py`` (`GatewayClient`), which
``scripts/unasync.py`` generates from it. Each method is one line over an operation or
a flow from ``_operations``.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, Literal, Unpack, cast

import httpx

from .._async_base_client import AsyncAPIClient
from .._clock import SYSTEM_CLOCK, Clock
from .._framing import BareJSON
from .._models import check_argument
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
from .._polling import wait_options
from ..errors import InvalidInputError, NotFoundError, UnsafePayloadError, WebhookSignatureError
from ..events import RequestHook, ResponseHook, RetryHook
from ..registry import DEFAULT_REGISTRY, Registry
from ..types import Address
from . import _operations as operations
from ._operations import (
    DEFAULT_BALANCE_POLL_INTERVAL,
    DEFAULT_BALANCE_TIMEOUT,
    DEFAULT_TRANSFER_POLL_INTERVAL,
    DEFAULT_TRANSFER_TIMEOUT,
    X402_TRANSFERS_PAGE_SIZE,
)

if TYPE_CHECKING:
    import httpx2
    from web3 import AsyncWeb3

    from ..journal import JournalArg, StepHook
    from ..policy import PolicyLike
    from ..signing.burn_intents import BurnIntent
    from ..signing.calls import ContractCall
    from ..signing.signer import Signer
    from ..signing.solana import SolanaSigner
    from ..simulation import SentCall, SimulateOption
    from ._operations import EstimateItem, Signed
    from .models import (
        BalancesRequest,
        DomainBalance,
        EstimatedTransfer,
        GatewayBalances,
        GatewayInfo,
        MintResult,
        RecoveredTransfer,
        TransferDetails,
        TransferResult,
    )
    from .webhooks import NotificationPublicKey, WebhookNotification
    from .x402 import BatchSubmission, PendingDeposits, X402Supported, X402Transfer

__all__ = [
    "GATEWAY_MAINNET_URL",
    "GATEWAY_SERVICE",
    "GATEWAY_TESTNET_URL",
    "AsyncGatewayClient",
]

GATEWAY_MAINNET_URL: Final = "https://gateway-api.circle.com"
"""Circle Gateway's API for mainnets."""

GATEWAY_TESTNET_URL: Final = "https://gateway-api-testnet.circle.com"
"""Circle Gateway's API for testnets."""

GATEWAY_SERVICE: Final = ServiceConfig(
    name="gateway",
    default_base_url=GATEWAY_MAINNET_URL,
    base_url_env="XSWAP_GATEWAY_URL",
)


def _base_url(base_url: str | None, testnet: object) -> str | None:
    """The base URL to configure: the argument; else, for a testnet client with no
    ``XSWAP_GATEWAY_URL``, the testnet API; else ``None`` (the variable, then mainnet)."""
    if not isinstance(testnet, bool):
        raise InvalidInputError("testnet", "must be True or False")
    if base_url is None and testnet and not os.environ.get(GATEWAY_SERVICE.base_url_env):
        return GATEWAY_TESTNET_URL
    return base_url


class AsyncGatewayClient(AsyncAPIClient):
    """Async client of Circle Gateway's API: balances, fee estimates, transfers.

    Gateway's API needs no key. Chains are named by chain id and turned into Gateway
    domains through `xswap_sdk.registry`, on the network this client talks to.

    The options every client shares (``timeout`` ... ``policy``) are described once, with
    their defaults, in the configuration guide's "Shared constructor options"
    (``docs/configuration.md``); each has one line below.

    Args:
        testnet: talk to Gateway's testnet API (``https://gateway-api-testnet.circle.com``)
            and its chains, instead of mainnet's (``https://gateway-api.circle.com``).
        base_url: defaults to ``XSWAP_GATEWAY_URL``, then the API of ``testnet``'s
            network.
        timeout: seconds, an `httpx.Timeout`, or ``None``; default connect 5 s, read 30 s.
        max_retries: retries of a failed request where retrying is safe (default 2).
        headers: extra headers sent with every request.
        http_client: an `httpx.AsyncClient` or an `httpx2.AsyncClient` you own (its
            connections, proxies and certificates); the SDK never closes it.
        clock: the time source for retry waits and polling.
        registry: the pinned chains, to map chain ids to domains;
            `xswap_sdk.registry.DEFAULT_REGISTRY` when not given.
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
        async with AsyncGatewayClient() as gateway:
            entry = await gateway.wait_for_gateway_balance(me, 8453, at_least=5_000_000)
            result = await gateway.transfer(signed_intent)
            done = await gateway.wait_for_transfer(result.transfer_id)
        ```
    """

    _service = GATEWAY_SERVICE
    _journey_client = "gateway"
    _framing = BareJSON()

    def __init__(
        self,
        *,
        testnet: bool = False,
        base_url: str | None = None,
        timeout: TimeoutTypes | NotGiven = NOT_GIVEN,
        max_retries: int = DEFAULT_MAX_RETRIES,
        headers: Mapping[str, str] | None = None,
        http_client: httpx.AsyncClient | httpx2.AsyncClient | None = None,
        clock: Clock = SYSTEM_CLOCK,
        registry: Registry | None = None,
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
        if registry is not None and not isinstance(registry, Registry):
            raise InvalidInputError("registry", "must be a xswap_sdk.registry.Registry or None")
        super().__init__(
            base_url=_base_url(base_url, testnet),
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
        self._testnet = testnet
        self._registry = DEFAULT_REGISTRY if registry is None else registry
        # Webhook signing keys by id; shared by with_options copies.
        self._webhook_keys: dict[str, NotificationPublicKey] = {}

    @property
    def testnet(self) -> bool:
        """Whether this client talks to Gateway's testnet API and chains."""
        return self._testnet

    @property
    def registry(self) -> Registry:
        """The pinned chains this client maps chain ids with."""
        return self._registry

    def domain_of(self, chain_id: int) -> int:
        """The Gateway domain of ``chain_id`` (``6`` for Base), from the registry; no
        request is made.

        Raises:
            InvalidInputError: a chain of the other network than this client's.
            UnsafePayloadError: the registry does not know the chain.
        """
        return operations.domain_of(chain_id, registry=self._registry, testnet=self._testnet)

    async def get_info(self, **options: Unpack[RequestOptions]) -> GatewayInfo:
        """The domains Gateway serves, with their contracts and block heights
        (``GET /v1/info``).

        ``burn_intent_expiration_height`` of a domain is the least ``maxBlockHeight``
        its burn intents may carry now. Contract addresses are Gateway's word: the SDK
        signs only for the registry's.

        Args:
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.
        """
        return await self._transport.request(operations.get_info(), options)

    async def get_balances(
        self,
        depositor: str | Sequence[str],
        *,
        chain_ids: Sequence[int] | None = None,
        domains: Sequence[int] | None = None,
        token: str = "USDC",
        **options: Unpack[RequestOptions],
    ) -> GatewayBalances:
        """Available gateway balances (``POST /v1/balances``).

        Available means spendable by burn intents now: a deposit counts once Gateway
        has seen it in a finalized block, and an amount being withdrawn does not.

        Args:
            depositor: an address, or several; a Solana depositor as its base58 key
                (sent as it is, on Solana's domain 5: ``chain_ids=[SOLANA]``).
            chain_ids: the chains to ask about (turned into domains by the registry);
                every domain when neither this nor ``domains`` is given.
            domains: Gateway domains to ask about, instead of ``chain_ids``.
            token: the token (``"USDC"``).
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.

        Returns:
            One entry per depositor and domain, its ``balance`` in smallest USDC units.

        Raises:
            InvalidInputError: a bad address (or one of the other family than a domain
                asked about: a Solana key off Solana, an EVM address on it), a chain the
                registry does not know, or both ``chain_ids`` and ``domains``.
        """
        request = self._sources(depositor, chain_ids, domains, token)
        return await self._transport.request(operations.get_balances(request), options)

    def _sources(
        self,
        depositor: str | Sequence[str],
        chain_ids: Sequence[int] | None,
        domains: Sequence[int] | None,
        token: str,
    ) -> BalancesRequest:
        """The ``{token, sources}`` body of the balance and deposit reads."""
        if chain_ids is not None:
            if domains is not None:
                raise InvalidInputError("domains", "cannot be combined with chain_ids")
            if isinstance(chain_ids, str | bytes) or not isinstance(chain_ids, Sequence):
                raise InvalidInputError("chain_ids", "must be a list of chain ids, or None")
            try:
                domains = [self.domain_of(chain_id) for chain_id in chain_ids]
            except UnsafePayloadError as unknown:
                # A read signs nothing: a chain the registry does not know is a bad
                # argument here, not a refusal to sign.
                network = [chain for chain in self._registry if chain.testnet == self._testnet]
                known = ", ".join(str(chain.chain_id) for chain in network)
                raise InvalidInputError(
                    "chain_ids",
                    f"{unknown.received} is not a chain of the SDK's registry (known: {known})",
                ) from None
        return operations.build_balances_request(depositor, domains, token, self._registry)

    async def get_deposits(
        self,
        depositor: str | Sequence[str],
        *,
        chain_ids: Sequence[int] | None = None,
        domains: Sequence[int] | None = None,
        token: str = "USDC",
        **options: Unpack[RequestOptions],
    ) -> PendingDeposits:
        """Deposits Gateway has seen but not yet counted (``POST /v1/deposits``): they
        join the available balance once their block is final.

        Args:
            depositor: an address, or several; a Solana depositor as its base58 key.
            chain_ids: the chains to ask about (turned into domains by the registry);
                every domain when neither this nor ``domains`` is given.
            domains: Gateway domains to ask about, instead of ``chain_ids``.
            token: the token (``"USDC"``).
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.

        Returns:
            The pending deposits, amounts in smallest USDC units.

        Raises:
            InvalidInputError: a bad address (or one of the other family than a domain
                asked about: a Solana key off Solana, an EVM address on it), a chain the
                registry does not know, or both ``chain_ids`` and ``domains``.
        """
        from . import _x402_operations as x402_operations  # lazy: not loaded by reads

        request = self._sources(depositor, chain_ids, domains, token)
        return await self._transport.request(x402_operations.get_deposits(request), options)

    async def submit_batch(
        self,
        signer: Signer,
        *,
        chain_id: int,
        to: str,
        value: int | str,
        valid_before: int | None = None,
        nonce: str | None = None,
        **options: Unpack[RequestOptions],
    ) -> BatchSubmission:
        """Pay ``to`` from the signer's Gateway balance on ``chain_id``, settled in
        Gateway's batches (``POST /v1/batch/submit``, a same-chain transfer).

        The SDK signs an EIP-3009 ``TransferWithAuthorization`` from your values and
        pinned facts only: the domain ``GatewayWalletBatched`` ``1`` with the registry's
        GatewayWallet of the chain, and the registry's Gateway domain for both ends.
        It moves money: not retried once sent; a lost answer has ``outcome_unknown``
        set (search the transfer by nonce with `iter_x402_transfers` before paying
        again).

        Args:
            signer: whose Gateway balance pays (an EOA).
            chain_id: the chain of the balance, and of the payment.
            to: who is paid.
            value: smallest USDC units, above 0.
            valid_before: unix time the authorization expires: from seven days
                (Gateway's minimum) to fourteen days (the SDK's maximum) from now;
                604,900 s from now by default, Circle's batching window.
            nonce: 32 bytes, ``0x`` hex; random by default.
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.

        Returns:
            The batched transfer's id.

        Raises:
            InvalidInputError: a bad argument, or a chain of the other network.
            UnsafePayloadError: the registry does not know the chain.
        """
        from . import _x402_operations as x402_operations  # lazy: not loaded by reads

        request, authorization = x402_operations.sign_batch_authorization(
            signer,
            chain_id=chain_id,
            to=to,
            value=value,
            valid_before=valid_before,
            nonce=nonce,
            now=self.clock.time(),
            registry=self._registry,
            testnet=self._testnet,
        )
        operation = x402_operations.submit_batch(request, authorization)
        return await self._transport.request(operation, options)

    async def get_x402_supported(self, **options: Unpack[RequestOptions]) -> X402Supported:
        """The payment kinds Gateway's x402 facilitator settles
        (``GET /v1/x402/supported``): scheme, network, and the GatewayWallet each signs
        for (compare it with the registry before trusting it).

        Args:
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.
        """
        from . import _x402_operations as x402_operations  # lazy: not loaded by reads

        return await self._transport.request(x402_operations.get_x402_supported(), options)

    async def get_x402_transfer(
        self, transfer_id: str, **options: Unpack[RequestOptions]
    ) -> X402Transfer:
        """One batched x402 transfer (``GET /v1/x402/transfers/{id}``).

        Args:
            transfer_id: its UUID (``x402_payment.transaction`` of a paid relay, or
                `submit_batch`'s ``id``).
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.
        """
        from . import _x402_operations as x402_operations  # lazy: not loaded by reads

        operation = x402_operations.get_x402_transfer(transfer_id)
        return await self._transport.request(operation, options)

    async def iter_x402_transfers(
        self,
        *,
        from_address: str | None = None,
        to_address: str | None = None,
        nonce: str | None = None,
        status: str | None = None,
        network: str | None = None,
        token: str | None = None,
        page_size: int = X402_TRANSFERS_PAGE_SIZE,
        **options: Unpack[RequestOptions],
    ) -> AsyncIterator[X402Transfer]:
        """Every x402 transfer matching the filters (``GET /v1/x402/transfers``), page
        after page as you iterate (``async for`` on the async client), following the
        ``Link`` header's cursor.

        Args:
            from_address: who paid.
            to_address: who was paid.
            nonce: the EIP-3009 nonce (``0x`` + 64 hex digits).
            status: ``received``, ``batched``, ``confirmed``, ``completed`` or
                ``failed``; Gateway needs ``from_address``, ``to_address`` or ``nonce``
                with it.
            network: CAIP-2 (``eip155:8453``).
            token: ``USDC``.
            page_size: transfers per page, 1 to 100.
            **options: per-call options for each page (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.

        Raises:
            InvalidInputError: a bad filter, before any request.
            PaginationError: the service sent a cursor twice.
        """
        from . import _x402_operations as x402_operations  # lazy: not loaded by reads

        walk = x402_operations.walk_x402_transfers(
            from_address=from_address,
            to_address=to_address,
            nonce=nonce,
            status=status,
            network=network,
            token=token,
            page_size=page_size,
        )
        async for transfer in self._transport.iterate(walk, options):
            yield transfer

    async def get_notification_public_key(
        self, key_id: str, **options: Unpack[RequestOptions]
    ) -> NotificationPublicKey:
        """The key that signs webhooks with ``X-Circle-Key-Id`` ``key_id``
        (``GET /v2/notifications/publicKey/{id}``), kept on the client by its id, so a
        key is read once.

        Args:
            key_id: the UUID from the ``X-Circle-Key-Id`` header.
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.
        """
        from . import _x402_operations as x402_operations  # lazy: not loaded by reads

        cached = self._webhook_keys.get(key_id)
        if cached is not None:
            return cached
        operation = x402_operations.get_notification_public_key(key_id)
        key = await self._transport.request(operation, options)
        self._webhook_keys[key_id] = key
        return key

    async def verify_webhook(
        self,
        body: bytes | str,
        *,
        signature: str,
        key_id: str,
        **options: Unpack[RequestOptions],
    ) -> WebhookNotification:
        """Check a webhook delivery with the key named by ``X-Circle-Key-Id`` (read once
        and kept, see `get_notification_public_key`) and return the notification; see
        `xswap_sdk.gateway.webhooks.verify_webhook`.

        Args:
            body: the raw request body.
            signature: the ``X-Circle-Signature`` header.
            key_id: the ``X-Circle-Key-Id`` header.
            **options: per-call options for the key's read (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.

        Raises:
            WebhookSignatureError: the signature does not verify, the body is no
                notification, or ``key_id`` names no key (not a UUID, or unknown to
                Gateway): a sender's headers are not trusted either.
        """
        from . import _x402_operations as x402_operations  # lazy: not loaded by reads
        from .webhooks import KEY_ID_HEADER, verify_webhook  # lazy: not loaded by reads

        refused = f"webhook refused: {KEY_ID_HEADER} names no signing key of Gateway"
        try:
            x402_operations.check_uuid("key_id", key_id)
        except InvalidInputError as exc:
            raise WebhookSignatureError(refused) from exc
        try:
            key = await self.get_notification_public_key(key_id, **options)
        except NotFoundError as exc:
            raise WebhookSignatureError(refused) from exc
        return verify_webhook(body, signature, key)

    async def estimate(
        self,
        intents: EstimateItem | Sequence[EstimateItem],
        *,
        max_attestation_size: int | None = None,
        **options: Unpack[RequestOptions],
    ) -> list[EstimatedTransfer]:
        """The fees and expiration heights Gateway would accept now
        (``POST /v1/estimate``); nothing is signed or sent on.

        Take the fee and the height into your own intent with
        `xswap_sdk.gateway.apply_estimate`, which checks that Gateway's answer is about
        your transfer.

        Args:
            intents: a `BurnIntent` (from `build_burn_intent`), a `TransferSpec` alone
                (Gateway fills in the rest), or a list of them.
            max_attestation_size: the largest attestation you can mint, in bytes.
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.

        Returns:
            One element per intent, in order.

        Raises:
            InvalidInputError: a malformed intent or spec.
            InsufficientMaxFeeError: an intent's ``maxFee`` is below Gateway's floor.
        """
        operation = operations.estimate(intents, max_attestation_size=max_attestation_size)
        return await self._transport.run(operations.typed_refusals(operation), options)

    async def transfer(
        self,
        signed: Signed | Sequence[Signed],
        *,
        max_attestation_size: int | None = None,
        enable_forwarder: bool | None = None,
        **options: Unpack[RequestOptions],
    ) -> TransferResult:
        """Ask Gateway to attest signed burn intents (``POST /v1/transfer``).

        Each element is sent as its ``to_wire()``: exactly the values that were signed,
        or Gateway answers "recovered signer does not match sourceSigner". Not retried
        once sent: if the answer is lost the error has ``outcome_unknown=True``.

        Args:
            signed: a `SignedBurnIntent` or `SignedBurnIntentSet` (from
                `sign_burn_intent` or `sign_burn_intent_set`), or a list of them. An
                intent signed with a Solana key is its own element (Gateway takes no
                set from Solana), next to EVM ones of the same transfer.
            max_attestation_size: the largest attestation you can mint, in bytes;
                Gateway refuses to make a larger one.
            enable_forwarder: let Gateway's forwarder mint on the destination chain
                for you (for a forwarding fee).
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.

        Returns:
            The attestation and Gateway's signature: mint with
            ``result.mint_call(destination_chain_id)`` (on Solana,
            ``result.mint_call(SOLANA, payer=...)``, a solders ``Instruction``).

        Raises:
            InvalidInputError: ``signed`` is not signed intents.
            InsufficientMaxFeeError: an intent's ``maxFee`` is below Gateway's floor; its
                ``minimum_units`` says how much to sign for.
        """
        operation = operations.transfer(
            signed,
            max_attestation_size=max_attestation_size,
            enable_forwarder=enable_forwarder,
        )
        del signed  # the operation holds the signatures sealed; keep them out of this frame
        flow = operations.transfer_journey(
            operation,
            max_attestation_size=max_attestation_size,
            enable_forwarder=enable_forwarder,
        )
        return await self._transport.run(flow, options)

    async def send_transfer(
        self,
        signer: Signer | SolanaSigner,
        intents: BurnIntent | Sequence[BurnIntent],
        *,
        max_fee_cap: int | str,
        requote: int = 0,
        accept_quote: Callable[[list[EstimatedTransfer]], bool] | None = None,
        web3: AsyncWeb3[Any] | None = None,
        simulate: SimulateOption = "auto",
        max_attestation_size: int | None = None,
        enable_forwarder: bool | None = None,
        **options: Unpack[RequestOptions],
    ) -> TransferResult:
        """A whole Gateway transfer in one call, as one ``transfer`` journey: estimate,
        take the estimate into your intents, sign, submit, and (with ``web3``) mint.

        Gateway's estimate is applied with `xswap_sdk.gateway.apply_estimate`: it never
        widens your intents' ``maxFee`` or ``maxBlockHeight``, and a fee above
        ``max_fee_cap`` is refused before anything is signed. When Gateway refuses the
        signed fee as below its floor (``InsufficientMaxFeeError``, HTTP 400: nothing
        was transferred), up to ``requote`` new estimates are asked: each is checked
        the same way, offered to ``accept_quote``, and only then signed. Any other
        failure is never signed or sent again. With ``web3`` on the destination chain
        (checked before anything is signed), the mint follows as `mint` sends it, in
        the same journey. See ``docs/journeys.md``.

        Args:
            signer: the intents' ``sourceSigner`` (an `eth_account` ``LocalAccount``);
                with ``web3``, it sends the mint too. For intents that spend a Gateway
                balance on Solana, a `xswap_sdk.signing.SolanaSigner` (a solders
                ``Keypair``), which signs each intent with Ed25519.
            intents: a `BurnIntent` (from `build_transfer_intent` or
                `build_burn_intent`), signed alone; or a list of 1 to 16, signed as one
                burn intent set (from Solana: each signed alone, as Gateway requires).
            max_fee_cap: the most ``maxFee`` you accept per intent, in smallest USDC
                units.
            requote: how many new estimates a fee-floor refusal may ask for (0 to 5).
            accept_quote: called with each new estimate (the list ``estimate``
                returns), after its checks; return ``False`` to refuse it
                (`QuoteRejectedError` naming ``accept_quote``, nothing signed).
            web3: a connected `web3.AsyncWeb3` on the destination chain, to mint the
                attestation; without it the call ends at the attestation.
            simulate: simulate the mint before sending it: ``"auto"``, ``True`` or
                ``False`` (see `xswap_sdk.simulation`).
            max_attestation_size: the largest attestation you can mint, in bytes.
            enable_forwarder: let Gateway's forwarder mint for you (not with ``web3``).
            **options: per-call options for each request (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.

        Returns:
            The attestation (mint it with ``result.mint_call(chain_id)``), its
            ``journey_id``, and with ``web3`` its ``mint`` (`MintResult`).

        Raises:
            InvalidInputError: a bad argument, or web3 on another chain (nothing sent).
            QuoteRejectedError: a fee above ``max_fee_cap`` or your intent's ``maxFee``,
                or a new estimate ``accept_quote`` declined (nothing signed).
            UnsafePayloadError: the estimate is not about your intents, or the
                attestation mints anything else than them (nothing minted).
            InsufficientMaxFeeError: still refused for its fee after ``requote`` new
                estimates.
            SimulationError: the mint's simulation reverted or moved what it does not
                mean (not sent).
            SwapFailedError: the mint reverted.
        """
        from .. import _async_web3 as web3io  # lazy: not loaded by reads
        from . import _transfer_journey as transfers  # lazy: not loaded by reads

        plan = transfers.plan_transfer(
            signer,
            intents,
            max_fee_cap=max_fee_cap,
            requote=requote,
            accept_quote=accept_quote,
            mint=web3 is not None,
            simulate=simulate,
            max_attestation_size=max_attestation_size,
            enable_forwarder=enable_forwarder,
            registry=self._registry,
            testnet=self._testnet,
        )
        io = None if web3 is None else web3io.async_chain_io(web3, cast("Signer", signer))
        return await self._transport.run(transfers.send_transfer(plan, io), options)

    async def mint(
        self,
        transfer: TransferResult,
        *,
        web3: AsyncWeb3[Any],
        signer: Signer,
        chain_id: int | None = None,
        simulate: SimulateOption = "auto",
        **options: Unpack[RequestOptions],
    ) -> MintResult:
        """Mint a transfer's attestation on its destination chain (``gatewayMint`` on
        the registry's GatewayMinter), as steps of a journey.

        The call is checked to mint exactly the burn intents signed for the transfer
        (`TransferResult.mint_call`), web3 to be on its chain, and simulated like
        `xswap_sdk.simulation.send_call` does, before it is signed; the signed bytes
        are journaled before they are broadcast, in a ``mint`` journey whose terms are
        the attestation and the intents. Resume never sends a mint twice (see
        `resume`); a Gateway notification of the mint is recorded on this journey and
        on the transfer's (both know its transfer id).

        Args:
            transfer: the `TransferResult` of `transfer` or `send_transfer` (or one
                rebuilt with ``TransferResult.model_validate(saved).with_intents(...)``).
            web3: a connected `web3.AsyncWeb3` on the destination chain.
            signer: who sends the mint (pays its gas); anyone may, unless the intents
                named a ``destinationCaller``.
            chain_id: the destination chain; by default the intents' destination.
            simulate: ``"auto"``, ``True`` or ``False`` (see `xswap_sdk.simulation`).
            **options: per-call options for the requests (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.

        Returns:
            The transfer id, chain, mint transaction hash, simulation and journey id.

        Raises:
            InvalidInputError: a bad argument, no intents known for the transfer, or
                web3 on another chain (nothing sent).
            UnsafePayloadError: the attestation mints anything else than the intents.
            SimulationError: the simulation reverted or moved what the mint does not
                mean (not sent).
            SwapFailedError: the mint reverted.
        """
        from .. import _async_web3 as web3io  # lazy: not loaded by reads
        from ..signing.signer import signer_address  # lazy: not loaded by reads
        from . import _mint_journey as mints  # lazy: not loaded by reads
        from .models import TransferResult  # lazy: not loaded by reads

        if not isinstance(transfer, TransferResult):
            raise InvalidInputError("transfer", "must be a TransferResult (from transfer())")
        if transfer.mint is not None:
            raise InvalidInputError(
                "transfer",
                f"was minted already (transaction {transfer.mint.tx_hash}); an attestation "
                "mints once",
            )
        sender = signer_address(signer)
        if chain_id is None:
            chain_id = mints.destination_of(transfer, self._registry, self._testnet)
        else:
            self.domain_of(chain_id)
        plan = mints.plan_mint(chain_id, simulate)
        mints.minted_already(self.journal, transfer.transfer_id)
        flow = mints.mint_journey(
            transfer, plan, sender, web3io.async_chain_io(web3, signer), self._registry
        )
        return await self._transport.run(flow, options)

    async def send_call(
        self,
        call: ContractCall,
        *,
        web3: AsyncWeb3[Any],
        signer: Signer,
        simulate: SimulateOption = "auto",
        unsafe_any_call: bool = False,
        **options: Unpack[RequestOptions],
    ) -> SentCall:
        """Send a Gateway contract call from `xswap_sdk.signing` (a withdrawal, a
        delegate, a deposit, a mint built by hand) as a ``call`` journey: what
        `xswap_sdk.simulation.send_call` does, journaled in the client's journal.

        web3 must be on the call's chain; the call is simulated and compared with what
        it means (``simulate=``), signed (the raw bytes journaled before they leave),
        broadcast and confirmed; a ``gatewayMint`` also writes ``minted``. After a
        crash, `resume` looks the transaction up by its journaled hash, or sends the
        journaled bytes when they never left; it never signs again.

        Args:
            call: a `xswap_sdk.signing.ContractCall` (``initiate_withdrawal_call``,
                ``withdraw_call``, ``add_delegate_call``, ``gateway_mint_call``, ...).
            web3: a connected `web3.AsyncWeb3` on ``call.chain_id``.
            signer: who sends it (``call.sender`` when the call names one).
            simulate: ``"auto"`` (default), ``True`` or ``False`` (see
                `xswap_sdk.simulation`).
            unsafe_any_call: DANGEROUS: send a call the SDK cannot read. By default
                the call is read before anything is signed
                (`xswap_sdk.signing.call_reading.check_call`): its ``to`` must be the
                registry's GatewayWallet, GatewayMinter or USDC of ``call.chain_id``,
                its calldata a known function of that contract (``deposit*``,
                ``initiateWithdrawal``, ``withdraw``, ``addDelegate``,
                ``removeDelegate``, ``gatewayMint``, ``approve``, ``permit``) whose
                label (``call.function``) it matches, on USDC, with no value.
            **options: per-call options (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.

        Returns:
            The call, its transaction hash, its simulation and its ``journey_id``.

        Raises:
            InvalidInputError: a bad argument, a signer who is not the call's sender,
                or web3 on another chain (nothing signed).
            UnsafePayloadError: the call is not a known function of a pinned contract,
                or its label is not what its calldata does (nothing signed).
            SimulationError: the simulation reverted or moved what the call does not
                mean, or ``simulate=True`` and the node cannot simulate (nothing sent).
            SwapFailedError: the transaction reverted.
        """
        from .. import _async_web3 as web3io  # lazy: not loaded by reads
        from .._simulation import check_simulate_option  # lazy: not loaded by reads
        from ..signing.call_reading import check_call  # lazy: not loaded by reads
        from ..signing.calls import ContractCall  # lazy: not loaded by reads
        from ..signing.signer import signer_address  # lazy: not loaded by reads
        from . import _call_journey as calls  # lazy: not loaded by reads

        if not isinstance(call, ContractCall):
            raise InvalidInputError("call", "must be a ContractCall from xswap_sdk.signing")
        checked = check_simulate_option(simulate)
        sender = signer_address(signer)
        read = check_call(
            call, sender=sender, registry=self._registry, unsafe_any_call=unsafe_any_call
        )
        # A call the SDK cannot read is sent only once its movements were compared.
        io = web3io.async_chain_io(web3, signer)
        flow = calls.call_journey(call, sender, io, checked, unsafe_any_call=read is None)
        return await self._transport.run(flow, options)

    async def recover_transfer(
        self,
        transfer_id: str,
        *,
        recipient: str,
        web3: AsyncWeb3[Any],
        signer: Signer,
        simulate: SimulateOption = "auto",
        **options: Unpack[RequestOptions],
    ) -> RecoveredTransfer:
        """Mint a stuck transfer from its id alone, with no journal and no signed intents
        at hand: read it and its attestation from Gateway (``GET /v1/transfer/{id}``),
        check it, and mint it on its destination chain, or say it was minted already.

        Every attested transfer must pay ``recipient``, in the native USDC of its
        destination chain as the registry pins it, through that chain's pinned
        GatewayMinter; its specs must be the transfer's (the ``transferSpecHash`` of
        each of its burn intents), its signature one the minter accepts, and its
        ``destinationCaller`` nobody or ``signer``. Anything that cannot be checked is
        refused, named, before anything is signed. Whether it was minted is read from
        the minter on the chain (``isTransferSpecHashUsed``), not from Gateway's status.
        The mint is sent as `send_call` sends a call: simulated (``simulate=``), the
        signed bytes journaled before they leave when the client has a journal.

        Args:
            transfer_id: the transfer's id (a UUID: ``TransferResult.transfer_id``, a
                webhook's, or Gateway's explorer).
            recipient: who must receive it, as you meant to pay (the check that makes
                minting safe without the signed intents).
            web3: a connected `web3.AsyncWeb3` on the transfer's destination chain.
            signer: who sends the mint and pays its gas (anyone may, unless the
                transfer names a ``destinationCaller``).
            simulate: ``"auto"`` (default), ``True`` or ``False`` (see
                `xswap_sdk.simulation`).
            **options: per-call options for each request (`RequestOptions`):
                ``timeout``, ``max_retries``, ``deadline``, ``extra_headers``,
                ``extra_query`` and ``extra_body``; see "Per-call options" in the
                configuration guide.

        Returns:
            What was done (`RecoveredTransfer`): ``minted_already``, the mint's
            ``tx_hash``, the amount and its recipient.

        Raises:
            InvalidInputError: a bad argument (``transfer_id`` not a UUID, ``recipient``
                not an address), or web3 on another chain (nothing sent).
            NotFoundError: Gateway knows no such transfer.
            TransferFailedError: it ``expired``: its attestation can no longer be minted.
            UnsafePayloadError: the transfer pays someone else, another token, on
                another chain or minter; its attestation is missing, malformed or not
                its burn intents'; or it names another ``destinationCaller`` (the field
                is named; nothing signed).
            SimulationError: the mint's simulation reverted or moved what it does not
                mean (not sent).
            SwapFailedError: the mint reverted.
        """
        from .. import _async_web3 as web3io  # lazy: not loaded by reads
        from .._simulation import check_simulate_option  # lazy: not loaded by reads
        from ..signing.signer import signer_address  # lazy: not loaded by reads
        from . import _recovery as recoveries  # lazy: not loaded by reads

        check_argument("recipient", Address, recipient)
        sender = signer_address(signer)
        checked = check_simulate_option(simulate)
        details = await self.get_transfer(transfer_id, **options)
        recovery = recoveries.plan_recovery(
            transfer_id,
            details,
            recipient=recipient,
            sender=sender,
            registry=self._registry,
            testnet=self._testnet,
        )
        used = await web3io.async_read_views(web3, recovery.chain.chain_id, recovery.used_calls())
        if recovery.minted_already(used):
            return recovery.result(None)
        sent = await self.send_call(
            recovery.call, web3=web3, signer=signer, simulate=checked, **options
        )
        return recovery.result(sent)

    async def get_transfer(
        self, transfer_id: str, **options: Unpack[RequestOptions]
    ) -> TransferDetails:
        """A transfer's record (``GET /v1/transfer/{id}``): its status, fees and
        attestation, and the mint's transaction hash once there is one.

        Args:
            transfer_id: `TransferResult.transfer_id`.
            **options: per-call options for this call (`RequestOptions`): ``timeout``,
                ``max_retries``, ``deadline``, ``extra_headers``, ``extra_query`` and
                ``extra_body``; see "Per-call options" in the configuration guide.

        Raises:
            InvalidInputError: ``transfer_id`` is not a UUID.
        """
        return await self._transport.request(operations.get_transfer(transfer_id), options)

    async def wait_for_transfer(
        self,
        transfer_id: str,
        *,
        until: Literal["confirmed", "finalized"] = "finalized",
        wait_timeout: float = DEFAULT_TRANSFER_TIMEOUT,
        poll_interval: float = DEFAULT_TRANSFER_POLL_INTERVAL,
        **options: Unpack[WaitOptions],
    ) -> TransferDetails:
        """Poll a transfer until it is finalized (or confirmed, with ``until``).

        ``pending`` keeps it polling (the attestation exists but nothing is minted
        yet), and so does a 404 right after the transfer was made.

        Args:
            transfer_id: `TransferResult.transfer_id`.
            until: ``"finalized"`` (the mint is final) or ``"confirmed"`` (minted).
            wait_timeout: seconds before giving up.
            poll_interval: seconds between two reads.
            **options: `WaitOptions` for each request (not ``timeout``: see
                `WaitOptions`).

        Raises:
            TransferFailedError: the transfer ``failed`` or ``expired``.
            WaitTimeoutError: time ran out; the transfer may still complete.
        """
        flow = operations.wait_for_transfer(
            transfer_id,
            until=until,
            timeout=wait_timeout,
            interval=poll_interval,
            clock=self.clock,
        )
        return await self._transport.run(flow, wait_options(options))

    async def wait_for_gateway_balance(
        self,
        depositor: str,
        chain_id: int,
        *,
        at_least: int | str,
        wait_timeout: float = DEFAULT_BALANCE_TIMEOUT,
        poll_interval: float = DEFAULT_BALANCE_POLL_INTERVAL,
        token: str = "USDC",
        **options: Unpack[WaitOptions],
    ) -> DomainBalance:
        """Poll until the depositor's available balance on ``chain_id`` is at least
        ``at_least``: the way to wait for a deposit to finalize (about 20 minutes on
        Ethereum and Base).

        Args:
            depositor: the balance's owner (a base58 key on Solana).
            chain_id: the chain deposited on.
            at_least: smallest USDC units to wait for.
            wait_timeout: seconds before giving up.
            poll_interval: seconds between two reads.
            token: the token (``"USDC"``).
            **options: `WaitOptions` for each request (not ``timeout``: see
                `WaitOptions`).

        Returns:
            The depositor's entry for the chain's domain.

        Raises:
            InvalidInputError: a bad argument, or a chain of the other network.
            UnsafePayloadError: the registry does not know the chain.
            WaitTimeoutError: time ran out; ``last_status`` holds the last entry seen.
        """
        flow = operations.wait_for_balance(
            depositor,
            domain=self.domain_of(chain_id),
            at_least=at_least,
            token=token,
            timeout=wait_timeout,
            interval=poll_interval,
            clock=self.clock,
            registry=self._registry,
        )
        return await self._transport.run(flow, wait_options(options))

    def __repr__(self) -> str:
        network = "testnet" if self._testnet else "mainnet"
        return f"{type(self).__name__}(base_url={self.base_url!r}, network={network!r})"
