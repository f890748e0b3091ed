"""The relayer's operations as plain data: validate arguments, build `Operation`s and
flows. No I/O; shared by `RelayerClient` and `AsyncRelayerClient`.

Retry decisions, per operation:

- ``POST /api/submit-tx``, ``POST /api/submit-tx-sync`` and ``POST /api/submit-signed-tx``
  submit a transaction: not idempotent, so they are retried only when the request never
  left this machine.
- Everything else reads, and is retried per the shared policy.

Only the three submissions are priced (`Operation.priced`): a keyless client pays the
relayer's x402 demand on them, once each, and never on a read (a status poll, an account
or chain lookup), which a 402 answers with `xswap_sdk.errors.PaymentNotDueError`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import httpx

from .._clock import Clock
from .._flow import Begin, Call, Flow, Record
from .._models import check_argument, refuse_unawaited, validate_request
from .._operation import Operation, parser
from .._record import Frozen
from ..chains import ChainFamily
from ..errors import InvalidInputError, NotFoundError, RelayFailedError, ResponseValidationError
from ..types import Address, ChainId, _same_address
from ._status import RelayStatus

if TYPE_CHECKING:
    from ..journal import Journey
    from .models import (
        AccountInfo,
        RelayerChain,
        SubmitSignedTxRequest,
        SubmitTxRequest,
        SubmitTxResult,
    )

__all__ = ["RelayerPaths", "Submissions"]

SYNC_TIMEOUT_MS_RANGE: Final = (1_000, 120_000)
# How many submissions a client remembers, to check their status records against.
_SUBMISSIONS_KEPT: Final = 4096
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
    """Submit a transaction (`RelayerClient.submit_tx`, `RelayerClient.relay`)."""
    submit_tx_sync: str = "/api/submit-tx-sync"
    """Submit and wait in the service (`RelayerClient.relay_sync`)."""
    submit_signed_tx: str = "/api/submit-signed-tx"
    """Submit a transaction the caller signed (`RelayerClient.relay_signed_tx`)."""
    tx: str = "/api/tx"
    """A transaction's status (`RelayerClient.get_relay_status`)."""
    user: str = "/api/user"
    """An account's status and limits (`RelayerClient.check_account_info`)."""
    supported_chains: str = "/api/supported-chains"
    """The chain list (`RelayerClient.get_supported_chains`)."""


@dataclass(init=False, repr=False, eq=False, slots=True)
class Submitted(Frozen):
    """What a status record must say about a transaction this client submitted: its
    chain, target, calldata and native value, as sent."""

    chain_id: int
    to: str
    call_data: str
    value: int

    def __init__(self, chain_id: int, to: str, call_data: str, value: int) -> None:
        object.__setattr__(self, "chain_id", chain_id)
        object.__setattr__(self, "to", to)
        object.__setattr__(self, "call_data", call_data)
        object.__setattr__(self, "value", value)

    @classmethod
    def of(cls, request: SubmitTxRequest) -> Submitted:
        """What ``request`` submits."""
        return cls(request.chain_id, request.to, request.call_data, request.value)


class Submissions:
    """The chain and target of the transactions a client submitted, by id (the newest
    few thousand), so that every status record read later is checked against them.

    Shared by a client's ``with_options`` copies.
    """

    def __init__(self) -> None:
        self._by_id: dict[str, Submitted] = {}

    def remember(self, tx_id: str, request: SubmitTxRequest) -> None:
        """Note that ``tx_id`` is the submission of ``request``."""
        self._by_id.pop(tx_id, None)
        self._by_id[tx_id] = Submitted.of(request)
        while len(self._by_id) > _SUBMISSIONS_KEPT:
            del self._by_id[next(iter(self._by_id))]

    def get(self, tx_id: str) -> Submitted | None:
        """What ``tx_id`` was submitted as, when this client submitted it."""
        return self._by_id.get(tx_id)

    def __repr__(self) -> str:
        return f"Submissions({len(self._by_id)})"


def _same_data(theirs: object, ours: str) -> bool:
    # Hex in any case, with or without 0x ("0x" and "" are both no calldata).
    if not isinstance(theirs, str):
        return False
    return theirs.lower().removeprefix("0x") == ours.lower().removeprefix("0x")


def check_record(
    record: RelayStatus,
    *,
    method: str,
    path: str,
    tx_id: str | None = None,
    submitted: Submitted | None = None,
    outcome_unknown: bool = False,
) -> RelayStatus:
    """Refuse a status record that is not the submission's: another id, chain, target,
    calldata or native value.

    The relayer (or anything answering for it) could otherwise make another
    transaction's EXECUTED record pass for this one's success: even one with the right
    id, chain and target, but another call (calldata) or value.

    Raises:
        ResponseValidationError: the record's ``id``, ``chainId``, ``to``, ``callData``
            or ``value`` is not the submission's; ``outcome_unknown`` as given
            (``True`` after a submission).
    """
    checks: list[tuple[str, object, object, bool]] = []
    if tx_id is not None:
        checks.append(("id", record.id, tx_id, record.id == tx_id))
    if submitted is not None:
        checks.append(
            ("chainId", record.chain_id, submitted.chain_id, record.chain_id == submitted.chain_id)
        )
        checks.append(("to", record.to, submitted.to, _same_address(record.to, submitted.to)))
        checks.append(
            (
                "callData",
                record.call_data,
                submitted.call_data,
                _same_data(record.call_data, submitted.call_data),
            )
        )
        checks.append(("value", record.value, submitted.value, record.value == submitted.value))
    for field, received, expected, same in checks:
        if not same:
            raise ResponseValidationError(
                f"the relayer answered with another transaction's record: its {field} is "
                f"{received!r}, the submission's {expected!r}. It says nothing of this "
                "transaction: check get_relay_status() before submitting again.",
                body=record.model_dump(),
                method=method,
                path=path,
                outcome_unknown=outcome_unknown,
            )
    return record


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
    from .models import SubmitTxRequest  # lazy: not for a status read

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
    from .models import SubmitTxResult  # lazy: not for a status read

    return Operation(
        "POST",
        paths.submit_tx,
        parser(SubmitTxResult),
        json=request.to_wire(),
        idempotent=False,
        auth="required",
        identify=_tx_id,
        priced=True,
    )


def _tx_id(result: SubmitTxResult | RelayStatus) -> tuple[str, ...]:
    from .models import SubmitTxResult  # lazy: not for a status read

    return (result.tx_id,) if isinstance(result, SubmitTxResult) else (result.id,)


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
    from .models import SubmitSignedTxRequest  # lazy: not for a status read

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
    """``POST /api/submit-signed-tx``: the relayer funds the sender, then broadcasts.
    Single-use: the transaction's nonce lets it be mined once, however often it is sent."""
    from .models import SubmitTxResult  # lazy: not for a status read

    return Operation(
        "POST",
        paths.submit_signed_tx,
        parser(SubmitTxResult),
        json=request.to_wire(),
        idempotent=False,
        auth="required",
        single_use=True,
        identify=_tx_id,
        priced=True,
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
        priced=True,
        timeout=httpx.Timeout(timeout_ms / 1000 + _SYNC_READ_MARGIN_S, connect=5.0),
        identify=_tx_id,
    )


def _terms(request: SubmitTxRequest | SubmitSignedTxRequest) -> dict[str, Any]:
    """A request as a journey's terms: its fields by name, as `build_submit_request`
    (or `build_signed_tx_request`) takes them back."""
    return request.model_dump(mode="json", by_alias=False, exclude_none=True)


def relay(
    paths: RelayerPaths, request: SubmitTxRequest, submissions: Submissions
) -> Flow[SubmitTxResult]:
    """Send ``POST /api/submit-tx`` (`submit_tx`, `relay`) as a journey of kind ``relay``
    (``submitted``: the exact body, then the relayer's transaction id). Never sent twice:
    the relayer signs and pays for it itself, so one that may have arrived needs
    attention on resume."""
    journey_id: str | None = yield Begin("relay", {"submit": "tx", "request": _terms(request)})
    result: SubmitTxResult = yield Call(submit_tx(paths, request))
    submissions.remember(result.tx_id, request)
    result._journey_id = journey_id
    return result


def relay_signed(paths: RelayerPaths, request: SubmitSignedTxRequest) -> Flow[SubmitTxResult]:
    """Send ``POST /api/submit-signed-tx`` (`relay_signed_tx`) as a journey of kind
    ``relay``: the caller's signed transaction can be mined once (its nonce), so one
    that may have arrived is sent again on resume."""
    journey_id: str | None = yield Begin(
        "relay", {"submit": "signed_tx", "request": _terms(request)}
    )
    result: SubmitTxResult = yield Call(submit_signed_tx(paths, request))
    result._journey_id = journey_id
    return result


def relay_sync(
    paths: RelayerPaths,
    request: SubmitTxRequest,
    submissions: Submissions,
    *,
    timeout_ms: int,
    include_receipt: bool | None,
    include_revert_info: bool | None,
) -> Flow[RelayStatus]:
    """Send ``POST /api/submit-tx-sync`` and refuse a record of another chain or target
    (its outcome stays unknown: the transaction was sent). A journey of kind
    ``relay_sync``: ``submitted``, ``executed``."""
    operation = submit_tx_sync(
        paths,
        request,
        timeout_ms=timeout_ms,
        include_receipt=include_receipt,
        include_revert_info=include_revert_info,
    )
    journey_id: str | None = yield Begin(
        "relay_sync",
        {
            "request": _terms(request),
            "timeout_ms": timeout_ms,
            "include_receipt": include_receipt,
            "include_revert_info": include_revert_info,
        },
    )
    record: RelayStatus = yield Call(operation)
    submitted = Submitted.of(request)
    check_record(
        record,
        method=operation.method,
        path=operation.log_path,
        submitted=submitted,
        outcome_unknown=True,
    )
    submissions.remember(record.id, request)
    yield Record("executed", data={"status": record.status, "tx_id": record.id})
    record._journey_id = journey_id
    return record


def rebuild(client: Any, journey: Journey, inputs: Any) -> tuple[Flow[Any], Any]:
    """A ``relay`` or ``relay_sync`` journey's flow, built again from its terms (see
    ``xswap_sdk._kinds``): the same request, checked again."""
    terms = journey.terms
    fields = dict(terms.get("request") or {})
    flow: Flow[Any]
    if journey.kind == "relay" and terms.get("submit") == "signed_tx":
        flow = relay_signed(client.paths, build_signed_tx_request(**_signed_fields(fields)))
    else:
        request = build_submit_request(chain_families=client.chain_families, **fields)
        if journey.kind == "relay":
            flow = relay(client.paths, request, client._submissions)
        else:
            flow = relay_sync(
                client.paths,
                request,
                client._submissions,
                timeout_ms=terms.get("timeout_ms"),  # type: ignore[arg-type]
                include_receipt=terms.get("include_receipt"),
                include_revert_info=terms.get("include_revert_info"),
            )
    return flow, client._transport


def _signed_fields(fields: Mapping[str, Any]) -> dict[str, Any]:
    names = ("signed_tx", "min_balance_required", "from_address", "chain_id", "label")
    unknown = set(fields) - set(names)
    if unknown:
        raise InvalidInputError("journey_id", f"its terms hold unknown fields: {sorted(unknown)}")
    return {name: fields.get(name) for name in names}


def get_relay_status(
    paths: RelayerPaths,
    tx_id: str,
    *,
    include_receipt: bool | None = None,
    include_revert_info: bool | None = None,
    submissions: Submissions | None = None,
) -> Operation[RelayStatus]:
    """``GET /api/tx?id=...``: the record must be ``tx_id``'s, and for a transaction in
    ``submissions``, of its chain and target."""
    checked = _check_tx_id(tx_id)
    params = [("id", checked)]
    if _check_bool("include_receipt", include_receipt) is not None:
        params.append(("includeReceipt", _flag(bool(include_receipt))))
    if _check_bool("include_revert_info", include_revert_info) is not None:
        params.append(("includeRevertInfo", _flag(bool(include_revert_info))))
    read = parser(RelayStatus)

    def parse(data: Any) -> RelayStatus:
        submitted = submissions.get(checked) if submissions is not None else None
        record: RelayStatus = read(data)
        return check_record(record, method="GET", path=paths.tx, tx_id=checked, submitted=submitted)

    return Operation("GET", paths.tx, parse, params=params, auth="required")


def check_account_info(paths: RelayerPaths, address: str) -> Operation[AccountInfo]:
    """``GET /api/user?address=...``."""
    from .models import AccountInfo  # lazy: not for a status read

    checked = check_argument("address", Address, address)
    return Operation(
        "GET", paths.user, parser(AccountInfo), params=[("address", checked)], auth="required"
    )


def get_supported_chains(paths: RelayerPaths) -> Operation[list[RelayerChain]]:
    """The relayer's chain list (path: `RelayerPaths.supported_chains`)."""
    from .models import RelayerChain  # lazy: not for a status read

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
            record=record,
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
    submissions: Submissions | None = None,
) -> Flow[RelayStatus]:
    """Poll ``GET /api/tx`` until the transaction executed (or, with ``until_executed``
    false, until any execution hash is known); every record must be ``tx_id``'s (see
    `get_relay_status`)."""
    from .._polling import check_wait_arguments, poll  # lazy: waits only

    operation = get_relay_status(paths, tx_id, submissions=submissions)
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
