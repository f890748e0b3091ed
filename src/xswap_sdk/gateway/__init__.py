"""Circle Gateway's own API: balances, fee estimates, transfers and their attestations.

`GatewayClient` and `AsyncGatewayClient` give an independent view of the gateway balance
the swap backend spends (``get_balances``, ``wait_for_gateway_balance`` while a deposit
finalizes) and follow a burn at Circle (``transfer``, ``get_transfer``,
``wait_for_transfer``); ``send_transfer`` runs a whole transfer, estimate to mint, as
one journey (fee-floor re-quotes, a `MintResult` with ``web3``), ``mint`` mints a
transfer's attestation as journey steps, and ``resume`` finishes either after a crash;
``recover_transfer`` mints a stuck transfer from its id alone (`RecoveredTransfer`).
`build_transfer_intent` builds a direct transfer's burn intent
from the registry, and `apply_estimate` takes Gateway's fee estimate into your own
burn intent without taking anything else from it. Pending deposits (``get_deposits``),
batched payments (``submit_batch``), the x402 facilitator's kinds and transfers, and
webhooks (`verify_webhook`, `NotificationDeduplicator`, and `advance_journeys` for the
money journeys a notification is about) are here too. The on-chain side (deposits by
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
        X402_TRANSFERS_PAGE_SIZE,
        apply_estimate,
        build_transfer_intent,
    )
    from ._sync_client import GatewayClient
    from ._x402_operations import DEFAULT_BATCH_LIFETIME
    from .delegates import FINALITY_SECONDS, DelegateReadiness, delegate_readiness
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
        MintResult,
        RecoveredTransfer,
        TransferDetails,
        TransferFees,
        TransferIntentSummary,
        TransferResult,
        TransferState,
    )
    from .webhooks import (
        NotificationDeduplicator,
        NotificationPublicKey,
        WebhookNotification,
        advance_journeys,
        verify_webhook,
    )
    from .x402 import (
        BatchSubmission,
        PendingDeposit,
        PendingDeposits,
        X402Kind,
        X402Supported,
        X402Transfer,
    )

__all__ = [
    "DEFAULT_BALANCE_POLL_INTERVAL",
    "DEFAULT_BATCH_LIFETIME",
    "DEFAULT_BALANCE_TIMEOUT",
    "DEFAULT_TRANSFER_POLL_INTERVAL",
    "DEFAULT_TRANSFER_TIMEOUT",
    "FINALITY_SECONDS",
    "GATEWAY_MAINNET_URL",
    "GATEWAY_SERVICE",
    "GATEWAY_TESTNET_URL",
    "TERMINAL_TRANSFER_STATES",
    "AsyncGatewayClient",
    "AttestationDetails",
    "BalanceSource",
    "BalancesRequest",
    "BatchSubmission",
    "ContractInfo",
    "DelegateReadiness",
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
    "MintResult",
    "RecoveredTransfer",
    "NotificationDeduplicator",
    "NotificationPublicKey",
    "PendingDeposit",
    "PendingDeposits",
    "TransferDetails",
    "TransferFees",
    "TransferIntentSummary",
    "TransferResult",
    "TransferState",
    "WebhookNotification",
    "X402Kind",
    "X402Supported",
    "X402Transfer",
    "X402_TRANSFERS_PAGE_SIZE",
    "advance_journeys",
    "apply_estimate",
    "build_transfer_intent",
    "delegate_readiness",
    "verify_webhook",
]

# Each name above is imported on first use (PEP 562), from where this table says it lives
# (see xswap_sdk._exports): a table, not the source, so that frozen and zipped apps work.
# -- lazy names: written by scripts/lazy_tables.py from the TYPE_CHECKING imports --
_HOMES = {
    "AsyncGatewayClient": ("._async_client", "AsyncGatewayClient"),
    "AttestationDetails": (".models", "AttestationDetails"),
    "BalanceSource": (".models", "BalanceSource"),
    "BalancesRequest": (".models", "BalancesRequest"),
    "BatchSubmission": (".x402", "BatchSubmission"),
    "ContractInfo": (".models", "ContractInfo"),
    "DEFAULT_BALANCE_POLL_INTERVAL": ("._operations", "DEFAULT_BALANCE_POLL_INTERVAL"),
    "DEFAULT_BALANCE_TIMEOUT": ("._operations", "DEFAULT_BALANCE_TIMEOUT"),
    "DEFAULT_BATCH_LIFETIME": ("._x402_operations", "DEFAULT_BATCH_LIFETIME"),
    "DEFAULT_TRANSFER_POLL_INTERVAL": ("._operations", "DEFAULT_TRANSFER_POLL_INTERVAL"),
    "DEFAULT_TRANSFER_TIMEOUT": ("._operations", "DEFAULT_TRANSFER_TIMEOUT"),
    "DelegateReadiness": (".delegates", "DelegateReadiness"),
    "DomainBalance": (".models", "DomainBalance"),
    "DomainInfo": (".models", "DomainInfo"),
    "EstimatedBurnIntent": (".models", "EstimatedBurnIntent"),
    "EstimatedBurnIntentSet": (".models", "EstimatedBurnIntentSet"),
    "EstimatedTransfer": (".models", "EstimatedTransfer"),
    "FINALITY_SECONDS": (".delegates", "FINALITY_SECONDS"),
    "ForwardingDetails": (".models", "ForwardingDetails"),
    "GATEWAY_MAINNET_URL": ("._async_client", "GATEWAY_MAINNET_URL"),
    "GATEWAY_SERVICE": ("._async_client", "GATEWAY_SERVICE"),
    "GATEWAY_TESTNET_URL": ("._async_client", "GATEWAY_TESTNET_URL"),
    "GatewayBalances": (".models", "GatewayBalances"),
    "GatewayClient": ("._sync_client", "GatewayClient"),
    "GatewayInfo": (".models", "GatewayInfo"),
    "IntentFee": (".models", "IntentFee"),
    "MintResult": (".models", "MintResult"),
    "NotificationDeduplicator": (".webhooks", "NotificationDeduplicator"),
    "NotificationPublicKey": (".webhooks", "NotificationPublicKey"),
    "PendingDeposit": (".x402", "PendingDeposit"),
    "PendingDeposits": (".x402", "PendingDeposits"),
    "RecoveredTransfer": (".models", "RecoveredTransfer"),
    "TERMINAL_TRANSFER_STATES": (".models", "TERMINAL_TRANSFER_STATES"),
    "TransferDetails": (".models", "TransferDetails"),
    "TransferFees": (".models", "TransferFees"),
    "TransferIntentSummary": (".models", "TransferIntentSummary"),
    "TransferResult": (".models", "TransferResult"),
    "TransferState": (".models", "TransferState"),
    "WebhookNotification": (".webhooks", "WebhookNotification"),
    "X402Kind": (".x402", "X402Kind"),
    "X402Supported": (".x402", "X402Supported"),
    "X402Transfer": (".x402", "X402Transfer"),
    "X402_TRANSFERS_PAGE_SIZE": ("._operations", "X402_TRANSFERS_PAGE_SIZE"),
    "advance_journeys": (".webhooks", "advance_journeys"),
    "apply_estimate": ("._operations", "apply_estimate"),
    "build_transfer_intent": ("._operations", "build_transfer_intent"),
    "delegate_readiness": (".delegates", "delegate_readiness"),
    "verify_webhook": (".webhooks", "verify_webhook"),
}
# -- end of lazy names --

if not _typing.TYPE_CHECKING:
    __getattr__, __dir__ = _attach(__name__, _HOMES)
