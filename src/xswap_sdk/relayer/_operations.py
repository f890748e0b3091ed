"""The relayer's operations as plain data: validate arguments, build `Operation`s and
flows. No I/O; shared by `RelayerClient` and `AsyncRelayerClient`.

Retry decisions, per operation:

- ``POST /api/submit-tx``, ``POST /api/submit-tx-sync`` and ``POST /api/submit-signed-tx``
  submit a transaction: not idempotent, so they are retried only when the request never
  left this machine.
- Everything else reads, and is retried per the shared policy.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

import httpx

from .._clock import Clock
from .._flow import Flow
from .._models import check_argument, refuse_unawaited, validate_request
from .._operation import Operation, parser
from .._polling import check_wait_arguments, poll
from ..chains import ChainFamily
from ..errors import InvalidInputError, NotFoundError, RelayFailedError
from ..types import Address, ChainId
from .models import (
    AccountInfo,
    RelayerChain,
    RelayStatus,
    SubmitSignedTxRequest,
    SubmitTxRequest,
    SubmitTxResult,
)

__all__ = ["RelayerPaths"]

SYNC_TIMEOUT_MS_RANGE: Final = (1_000, 120_000)
# relay_sync's HTTP read timeout must outlast the relayer's own wait by this margin.
_SYNC_READ_MARGIN_S: Final = 10.0


@dataclass(frozen=True, slots=True)
class RelayerPaths:
    """The relayer's HTTP paths. Override any of them with
    ``RelayerClient(paths=RelayerPaths(supported_chains="/v2/chains"))``.

    ``supported_chains`` is our choice: the public docs do not give the path behind the
    JavaScript client's ``getSupportedChains``.
    """

    submit_tx: str = "/api/submit-tx"
    submit_tx_sync: str = "/api/submit-tx-sync"
    submit_signed_tx: str = "/api/submit-signed-tx"
    tx: str = "/api/tx"
    user: str = "/api/user"
    supported_chains: str = "/api/supported-chains"


def _flag(value: bool) -> str:
    return "true" if value else "false"


def _check_bool(argument: str, value: object) -> bool | None:
    if value is not None and not isinstance(value, bool):
        raise InvalidInputError(argument, "must be True, False or None")
    return value


def _check_tx_id(tx_id: object) -> str:
    refuse_unawaited("tx_id", tx_id)
    if not isinstance(tx_id, str) or not tx_id.strip():
        raise InvalidInputError("tx_id", "must be a non-empty string (the id from submit_tx)")
    return tx_id


def build_submit_request(
    *, chain_families: Mapping[int, ChainFamily] | None = None, **fields: Any
) -> SubmitTxRequest:
    """Validate submit fields, including the gas rules a model cannot express alone.

    ``chain_families`` is the client's table (`xswap_sdk.chains`): the family of
    ``chain_id`` decides how ``to``, ``value``, ``gas_limit`` and
    ``authorization_list`` are checked.
    """
    context = {"chain_families": chain_families} if chain_families is not None else None
    request = validate_request(SubmitTxRequest, validation_context=context, **fields)
    eip1559 = (request.max_fee_per_gas, request.max_priority_fee_per_gas)
    if any(v is not None for v in eip1559):
        if request.gas_price is not None:
            raise InvalidInputError(
                "gas_price",
                "cannot be combined with max_fee_per_gas/max_priority_fee_per_gas "
                "(legacy and EIP-1559 pricing are exclusive)",
            )
        if request.max_fee_per_gas is None:
            raise InvalidInputError(
                "max_fee_per_gas", "is required when max_priority_fee_per_gas is given (EIP-1559)"
            )
        if request.max_priority_fee_per_gas is None:
            raise InvalidInputError(
                "max_priority_fee_per_gas", "is required when max_fee_per_gas is given (EIP-1559)"
            )
        if request.max_priority_fee_per_gas > request.max_fee_per_gas:
            raise InvalidInputError(
                "max_priority_fee_per_gas", "must not exceed max_fee_per_gas (EIP-1559)"
            )
    return request


def submit_tx(paths: RelayerPaths, request: SubmitTxRequest) -> Operation[SubmitTxResult]:
    """``POST /api/submit-tx``."""
    return Operation(
        "POST",
        paths.submit_tx,
        parser(SubmitTxResult),
        json=request.to_wire(),
        idempotent=False,
        auth="required",
    )


def _signed_tx_facts(raw: bytes) -> tuple[str, int | None]:
    """The sender and chain id of a signed transaction (``None``: a pre-EIP-155 one,
    valid on every chain)."""
    from eth_account import Account
    from eth_account.typed_transactions.typed_transaction import TypedTransaction
    from hexbytes import HexBytes

    sender: str = Account.recover_transaction(raw)
    if raw and raw[0] >= 0xC0:  # legacy: RLP list, chain id folded into v (EIP-155)
        import rlp  # type: ignore[import-untyped]

        v = int.from_bytes(rlp.decode(raw)[6], "big")
        return sender, (v - 35) // 2 if v >= 35 else None
    return sender, int(TypedTransaction.from_bytes(HexBytes(raw)).as_dict()["chainId"])


def build_signed_tx_request(
    *,
    signed_tx: object,
    min_balance_required: object,
    from_address: object,
    chain_id: object,
    label: object,
) -> SubmitSignedTxRequest:
    """Validate a signed-transaction submission: the sender recovered from ``signed_tx``
    must be ``from_address`` and its chain id ``chain_id``, or the relayer would fund an
    account that cannot send it (or send it on another chain)."""
    refuse_unawaited("signed_tx", signed_tx)
    request = validate_request(
        SubmitSignedTxRequest,
        signed_tx=signed_tx,
        min_balance_required=min_balance_required,
        from_address=from_address,
        chain_id=chain_id,
        label=label,
    )
    try:
        sender, tx_chain = _signed_tx_facts(bytes.fromhex(request.signed_tx[2:]))
    except Exception:  # eth_account/rlp raise many kinds on bad bytes
        raise InvalidInputError(
            "signed_tx", "must be a signed EVM transaction (raw, 0x hex)"
        ) from None
    if sender != request.from_address:
        raise InvalidInputError(
            "from_address",
            f"must be the transaction's signer: signed_tx recovers to {sender}",
        )
    if tx_chain != request.chain_id:
        found = "no chain id (pre-EIP-155)" if tx_chain is None else f"chain {tx_chain}"
        raise InvalidInputError(
            "chain_id", f"must be the transaction's chain: signed_tx is for {found}"
        )
    return request


def submit_signed_tx(
    paths: RelayerPaths, request: SubmitSignedTxRequest
) -> Operation[SubmitTxResult]:
    """``POST /api/submit-signed-tx``: the relayer funds the sender, then broadcasts."""
    return Operation(
        "POST",
        paths.submit_signed_tx,
        parser(SubmitTxResult),
        json=request.to_wire(),
        idempotent=False,
        auth="required",
    )


def submit_tx_sync(
    paths: RelayerPaths,
    request: SubmitTxRequest,
    *,
    timeout_ms: int,
    include_receipt: bool | None,
    include_revert_info: bool | None,
) -> Operation[RelayStatus]:
    """``POST /api/submit-tx-sync``: submit, and let the relayer wait up to ``timeout_ms``."""
    low, high = SYNC_TIMEOUT_MS_RANGE
    if (
        isinstance(timeout_ms, bool)
        or not isinstance(timeout_ms, int)
        or not low <= timeout_ms <= high
    ):
        raise InvalidInputError("timeout_ms", f"must be an int from {low} to {high}")
    body: dict[str, Any] = {"tx": request.to_wire(), "timeoutMs": timeout_ms}
    if _check_bool("include_receipt", include_receipt) is not None:
        body["includeReceipt"] = include_receipt
    if _check_bool("include_revert_info", include_revert_info) is not None:
        body["includeRevertInfo"] = include_revert_info
    return Operation(
        "POST",
        paths.submit_tx_sync,
        parser(RelayStatus),
        json=body,
        idempotent=False,
        auth="required",
        timeout=httpx.Timeout(timeout_ms / 1000 + _SYNC_READ_MARGIN_S, connect=5.0),
    )


def get_relay_status(
    paths: RelayerPaths,
    tx_id: str,
    *,
    include_receipt: bool | None = None,
    include_revert_info: bool | None = None,
) -> Operation[RelayStatus]:
    """``GET /api/tx?id=...``."""
    params = [("id", _check_tx_id(tx_id))]
    if _check_bool("include_receipt", include_receipt) is not None:
        params.append(("includeReceipt", _flag(bool(include_receipt))))
    if _check_bool("include_revert_info", include_revert_info) is not None:
        params.append(("includeRevertInfo", _flag(bool(include_revert_info))))
    return Operation("GET", paths.tx, parser(RelayStatus), params=params, auth="required")


def check_account_info(paths: RelayerPaths, address: str) -> Operation[AccountInfo]:
    """``GET /api/user?address=...``."""
    checked = check_argument("address", Address, address)
    return Operation(
        "GET", paths.user, parser(AccountInfo), params=[("address", checked)], auth="required"
    )


def get_supported_chains(paths: RelayerPaths) -> Operation[list[RelayerChain]]:
    """The relayer's chain list (path: `RelayerPaths.supported_chains`)."""
    return Operation("GET", paths.supported_chains, parser(list[RelayerChain]), auth="required")


def check_chain_id(chain_id: object) -> int:
    """Validate a chain id argument."""
    checked: int = check_argument("chain_id", ChainId, chain_id)
    return checked


def _raise_if_failed(record: RelayStatus) -> None:
    if record.status == "FAILED":
        reason = record.error_message
        raise RelayFailedError(
            f"relayer transaction {record.id} failed: {reason or 'no reason given'}",
            status=record,
            error_message=reason,
        )


def _executed(record: RelayStatus) -> bool:
    _raise_if_failed(record)
    return record.status == "EXECUTED" and bool(record.execution_tx_hash)


def _hash_known(record: RelayStatus) -> bool:
    _raise_if_failed(record)
    return bool(record.execution_tx_hash)


def wait_for_hash(
    paths: RelayerPaths,
    tx_id: str,
    *,
    timeout_ms: float,
    poll_interval_ms: float,
    clock: Clock,
    until_executed: bool,
) -> Flow[RelayStatus]:
    """Poll ``GET /api/tx`` until the transaction executed (or, with ``until_executed``
    false, until any execution hash is known)."""
    operation = get_relay_status(paths, tx_id)
    check_wait_arguments(
        timeout_ms, poll_interval_ms, timeout_name="timeout_ms", interval_name="poll_interval_ms"
    )
    goal = "to execute" if until_executed else "to get an execution hash"

    def timeout_message(last: RelayStatus | None) -> str:
        seen = f"last status {last.status}" if last else "no record visible yet"
        return (
            f"timed out after {timeout_ms:g} ms waiting for relayer transaction {tx_id} {goal} "
            f"({seen}). It may still execute: check get_relay_status() before submitting it "
            "again."
        )

    return poll(
        lambda: operation,
        _executed if until_executed else _hash_known,
        timeout=timeout_ms / 1000,
        interval=poll_interval_ms / 1000,
        clock=clock,
        timeout_message=timeout_message,
        # Right after submission the record may not be readable yet.
        not_yet_visible=(NotFoundError,),
    )
