"""`AsyncGatewayClient`: Circle Gateway's API, for balances, estimates and transfers.

It sees the gateway balance and follows a burn independently of the swap backend.

The hand-written source of ``_sync_client.py`` (`GatewayClient`), which
``scripts/unasync.py`` generates from it. Each method is one line over an operation or
a flow from ``_operations``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Final, Literal, Unpack

import httpx

from .._async_base_client import AsyncAPIClient
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
)
from .._polling import wait_options
from ..errors import InvalidInputError
from ..events import RequestHook, ResponseHook, RetryHook
from ..registry import DEFAULT_REGISTRY, Registry
from . import _operations as operations
from ._operations import (
    DEFAULT_BALANCE_POLL_INTERVAL,
    DEFAULT_BALANCE_TIMEOUT,
    DEFAULT_TRANSFER_POLL_INTERVAL,
    DEFAULT_TRANSFER_TIMEOUT,
    EstimateItem,
    Signed,
)
from .models import (
    DomainBalance,
    EstimatedTransfer,
    GatewayBalances,
    GatewayInfo,
    TransferDetails,
    TransferResult,
)

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

    Args:
        testnet: talk to Gateway's testnet API (``https://gateway-api-testnet.circle.com``)
            and its chains, instead of mainnet's (``https://gateway-api.circle.com``).
        base_url: defaults to ``XSWAP_GATEWAY_URL``, then the API of ``testnet``'s
            network.
        timeout: seconds, an `httpx.Timeout`, or ``None`` for none; default connect 5 s,
            read 30 s, or the ``http_client``'s own timeout when you pass one.
        max_retries: retries of a failed request where retrying is safe (default 2).
        headers: extra headers sent with every request.
        http_client: an `httpx.AsyncClient` you own (proxies, certificates,
            transports); we never close it.
        clock: the time source for retry waits and polling (tests and the sandbox
            pass a virtual one).
        registry: the pinned chains, to map chain ids to domains;
            `xswap_sdk.registry.DEFAULT_REGISTRY` when not given.
        deadline: the most seconds one call may take in all, retries, slow answers and
            retry waits included (default 120); ``None`` for no overall limit.
        max_response_bytes: the largest answer read, in bytes (default 8 MiB); a larger
            one raises `ResponseTooLargeError`.
        allow_insecure_http: DANGEROUS: accept an ``http://`` base URL to a host that is
            not this machine, which sends credentials and payments in clear text.
        on_request: called with a `xswap_sdk.events.RequestEvent` before each attempt.
        on_response: called with a `xswap_sdk.events.ResponseEvent` for each answer.
        on_retry: called with a `xswap_sdk.events.RetryEvent` before each retry wait.
        limits: the connection pool the SDK creates (default: 100 connections, all
            kept alive; see ``docs/performance.md``); a client you pass as
            ``http_client`` keeps its own.

    Example:
        ```python
        async with AsyncGatewayClient() as gateway:
            entry = await gateway.wait_for_gateway_balance(me, 8453, at_least=5_000_000)
            result = await gateway.transfer(signed_intent)
            done = await gateway.wait_for_transfer(result.transfer_id)
        ```
    """

    _service = GATEWAY_SERVICE
    _framing = BareJSON()

    def __init__(
        self,
        *,
        testnet: bool = False,
        base_url: str | None = None,
        timeout: TimeoutTypes | NotGiven = NOT_GIVEN,
        max_retries: int = DEFAULT_MAX_RETRIES,
        headers: Mapping[str, str] | None = None,
        http_client: httpx.AsyncClient | None = None,
        clock: Clock = SYSTEM_CLOCK,
        registry: Registry | None = None,
        deadline: float | NotGiven | None = NOT_GIVEN,
        max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
        allow_insecure_http: bool = False,
        on_request: RequestHook | None = None,
        on_response: ResponseHook | None = None,
        on_retry: RetryHook | None = None,
        limits: httpx.Limits | None = None,
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
        )
        self._testnet = testnet
        self._registry = DEFAULT_REGISTRY if registry is None else registry

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
            **options: ``timeout`` and ``max_retries`` for this call.
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
            depositor: an address, or several.
            chain_ids: the chains to ask about (turned into domains by the registry);
                every domain when neither this nor ``domains`` is given.
            domains: Gateway domains to ask about, instead of ``chain_ids``.
            token: the token (``"USDC"``).
            **options: ``timeout`` and ``max_retries`` for this call.

        Returns:
            One entry per depositor and domain, its ``balance`` in smallest USDC units.

        Raises:
            InvalidInputError: a bad address, or both ``chain_ids`` and ``domains``.
        """
        if chain_ids is not None:
            if domains is not None:
                raise InvalidInputError("domains", "cannot be combined with chain_ids")
            if isinstance(chain_ids, str | bytes) or not isinstance(chain_ids, Sequence):
                raise InvalidInputError("chain_ids", "must be a list of chain ids, or None")
            domains = [self.domain_of(chain_id) for chain_id in chain_ids]
        request = operations.build_balances_request(depositor, domains, token)
        return await self._transport.request(operations.get_balances(request), options)

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
            **options: ``timeout`` and ``max_retries`` for this call.

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
                `sign_burn_intent` or `sign_burn_intent_set`), or a list of them.
            max_attestation_size: the largest attestation you can mint, in bytes;
                Gateway refuses to make a larger one.
            enable_forwarder: let Gateway's forwarder mint on the destination chain
                for you (for a forwarding fee).
            **options: ``timeout`` and ``max_retries`` for this call.

        Returns:
            The attestation and Gateway's signature: mint with
            ``result.mint_call(destination_chain_id)``.

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
        return await self._transport.run(operations.typed_refusals(operation), options)

    async def get_transfer(
        self, transfer_id: str, **options: Unpack[RequestOptions]
    ) -> TransferDetails:
        """A transfer's record (``GET /v1/transfer/{id}``): its status, fees and
        attestation, and the mint's transaction hash once there is one.

        Args:
            transfer_id: `TransferResult.transfer_id`.
            **options: ``timeout`` and ``max_retries`` for this call.

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
            depositor: the balance's owner.
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
        )
        return await self._transport.run(flow, wait_options(options))

    def __repr__(self) -> str:
        network = "testnet" if self._testnet else "mainnet"
        return f"{type(self).__name__}(base_url={self.base_url!r}, network={network!r})"
