"""Circle Gateway's own API: balances, fee estimates, transfers and their attestations.

`GatewayClient` and `AsyncGatewayClient` give an independent view of the gateway balance
the swap backend spends (``get_balances``, ``wait_for_gateway_balance`` while a deposit
finalizes) and follow a burn at Circle (``transfer``, ``get_transfer``,
``wait_for_transfer``). `build_transfer_intent` builds a direct transfer's burn intent
from the registry, and `apply_estimate` takes Gateway's fee estimate into your own
burn intent without taking anything else from it. The on-chain side (deposits by
authorization or permit, withdrawals, delegates, ``gatewayMint``) is in
`xswap_sdk.signing`. See ``docs/gateway.md``.
"""

import typing as _typing

from .._exports import attach as _attach

if _typing.TYPE_CHECKING:
    from ._async_client import (
        GATEWAY_MAINNET_URL,
        GATEWAY_SERVICE,
        GATEWAY_TESTNET_URL,
        AsyncGatewayClient,
    )
    from ._operations import (
        DEFAULT_BALANCE_POLL_INTERVAL,
        DEFAULT_BALANCE_TIMEOUT,
        DEFAULT_TRANSFER_POLL_INTERVAL,
        DEFAULT_TRANSFER_TIMEOUT,
        apply_estimate,
        build_transfer_intent,
    )
    from ._sync_client import GatewayClient
    from .models import (
        TERMINAL_TRANSFER_STATES,
        AttestationDetails,
        BalanceSource,
        BalancesRequest,
        ContractInfo,
        DomainBalance,
        DomainInfo,
        EstimatedBurnIntent,
        EstimatedBurnIntentSet,
        EstimatedTransfer,
        ForwardingDetails,
        GatewayBalances,
        GatewayInfo,
        IntentFee,
        TransferDetails,
        TransferFees,
        TransferIntentSummary,
        TransferResult,
        TransferState,
    )

__all__ = [
    "DEFAULT_BALANCE_POLL_INTERVAL",
    "DEFAULT_BALANCE_TIMEOUT",
    "DEFAULT_TRANSFER_POLL_INTERVAL",
    "DEFAULT_TRANSFER_TIMEOUT",
    "GATEWAY_MAINNET_URL",
    "GATEWAY_SERVICE",
    "GATEWAY_TESTNET_URL",
    "TERMINAL_TRANSFER_STATES",
    "AsyncGatewayClient",
    "AttestationDetails",
    "BalanceSource",
    "BalancesRequest",
    "ContractInfo",
    "DomainBalance",
    "DomainInfo",
    "EstimatedBurnIntent",
    "EstimatedBurnIntentSet",
    "EstimatedTransfer",
    "ForwardingDetails",
    "GatewayBalances",
    "GatewayClient",
    "GatewayInfo",
    "IntentFee",
    "TransferDetails",
    "TransferFees",
    "TransferIntentSummary",
    "TransferResult",
    "TransferState",
    "apply_estimate",
    "build_transfer_intent",
]

# Each name above is imported on first use (PEP 562), from where this table says it lives
# (see xswap_sdk._exports): a table, not the source, so that frozen and zipped apps work.
# -- lazy names: written by scripts/lazy_tables.py from the TYPE_CHECKING imports --
_HOMES = {
    "AsyncGatewayClient": ("._async_client", "AsyncGatewayClient"),
    "AttestationDetails": (".models", "AttestationDetails"),
    "BalanceSource": (".models", "BalanceSource"),
    "BalancesRequest": (".models", "BalancesRequest"),
    "ContractInfo": (".models", "ContractInfo"),
    "DEFAULT_BALANCE_POLL_INTERVAL": ("._operations", "DEFAULT_BALANCE_POLL_INTERVAL"),
    "DEFAULT_BALANCE_TIMEOUT": ("._operations", "DEFAULT_BALANCE_TIMEOUT"),
    "DEFAULT_TRANSFER_POLL_INTERVAL": ("._operations", "DEFAULT_TRANSFER_POLL_INTERVAL"),
    "DEFAULT_TRANSFER_TIMEOUT": ("._operations", "DEFAULT_TRANSFER_TIMEOUT"),
    "DomainBalance": (".models", "DomainBalance"),
    "DomainInfo": (".models", "DomainInfo"),
    "EstimatedBurnIntent": (".models", "EstimatedBurnIntent"),
    "EstimatedBurnIntentSet": (".models", "EstimatedBurnIntentSet"),
    "EstimatedTransfer": (".models", "EstimatedTransfer"),
    "ForwardingDetails": (".models", "ForwardingDetails"),
    "GATEWAY_MAINNET_URL": ("._async_client", "GATEWAY_MAINNET_URL"),
    "GATEWAY_SERVICE": ("._async_client", "GATEWAY_SERVICE"),
    "GATEWAY_TESTNET_URL": ("._async_client", "GATEWAY_TESTNET_URL"),
    "GatewayBalances": (".models", "GatewayBalances"),
    "GatewayClient": ("._sync_client", "GatewayClient"),
    "GatewayInfo": (".models", "GatewayInfo"),
    "IntentFee": (".models", "IntentFee"),
    "TERMINAL_TRANSFER_STATES": (".models", "TERMINAL_TRANSFER_STATES"),
    "TransferDetails": (".models", "TransferDetails"),
    "TransferFees": (".models", "TransferFees"),
    "TransferIntentSummary": (".models", "TransferIntentSummary"),
    "TransferResult": (".models", "TransferResult"),
    "TransferState": (".models", "TransferState"),
    "apply_estimate": ("._operations", "apply_estimate"),
    "build_transfer_intent": ("._operations", "build_transfer_intent"),
}
# -- end of lazy names --

if not _typing.TYPE_CHECKING:
    __getattr__, __dir__ = _attach(__name__, _HOMES)
