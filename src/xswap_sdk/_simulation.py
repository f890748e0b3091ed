"""Simulating a call's transactions and comparing what they move with what it means.

Pure: the one ``eth_simulateV1`` request is made in ``_async_web3.py`` (and its
generated blocking twin). Here: the request's parameters, the reading of its answer
into `AssetMovement` records, and the comparison, written once as data: `RULES` says,
for each kind of transaction, which checks its movements must pass, and each `Intent`
carries the numbers those checks compare with (all from the caller's arguments or a
pinned fact, never from a service).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Literal

from ._simulation_models import (
    NATIVE_TOKEN,
    AssetMovement,
    SimulateOption,
    Simulation,
    SimulationMethod,
)
from .errors import InvalidInputError, SimulationError
from .types import _same_address

if TYPE_CHECKING:
    from .routing._execution import ExecutionPlan

__all__ = [
    "RULES",
    "Intent",
    "approval_intent",
    "call_params",
    "deposit_intent",
    "route_intent",
    "check_simulation",
    "check_simulate_option",
    "intent_of_call",
    "movements_of",
    "reverted",
    "simulate_params",
    "trace_params",
    "traced",
    "unavailable",
    "unavailable_call",
]

Kind = Literal["approval", "route", "deposit", "mint", "withdrawal", "call"]

_TRANSFER: Final = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"
_APPROVAL: Final = "0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925"
# Deposited(address indexed token, address indexed depositor, address indexed sender,
# uint256 value): Circle's GatewayWallet.
_DEPOSITED: Final = "0x4174a9435a04d04d274c76779cad136a41fde6937c56241c09ab9d3c7064a1a9"
_NATIVE: Final = NATIVE_TOKEN.lower()


@dataclass(frozen=True, slots=True)
class Intent:
    """What one transaction means, in the numbers its checks compare with.

    Attributes:
        kind: which row of `RULES` applies.
        fields: the web3 transaction fields (``to``, ``data``, ``value``) to simulate.
        token: the asset that may leave the sender (`NATIVE_TOKEN` for native), or
            ``None`` when nothing may.
        counterparty: the pinned contract that may receive it, or be approved.
        spend: at most this much of ``token`` may leave, to ``counterparty``.
        approval: the allowance ``counterparty`` may be given over ``token``.
        receiver: for a same-chain route, who must receive the output.
        output_token: for a same-chain route, the output token.
        min_output: the least ``receiver`` must receive.
        credits: for a mint, each attested ``(token, recipient, value)``.
        depositor: for a deposit, whose GatewayWallet balance it credits (the sender
            when ``None``).
        credit: for a deposit, what the GatewayWallet must credit the depositor with.
    """

    kind: Kind
    # Left out of repr: a deposit's calldata carries its permit's signature.
    fields: Mapping[str, Any] = field(repr=False)
    token: str | None = None
    counterparty: str | None = None
    spend: int = 0
    approval: int = 0
    receiver: str | None = None
    output_token: str | None = None
    min_output: int = 0
    credits: tuple[tuple[str, str, int], ...] = field(default=())
    depositor: str | None = None
    credit: int = 0


def check_simulate_option(simulate: object) -> SimulateOption:
    """``simulate=`` checked before any I/O.

    Raises:
        InvalidInputError: not ``"auto"``, ``True`` or ``False``.
    """
    if simulate is True or simulate is False or simulate == "auto":
        return simulate
    raise InvalidInputError("simulate", "must be 'auto', True or False")


def _hex(value: int) -> str:
    return hex(int(value))


def simulate_params(sender: str, intents: Sequence[Intent]) -> list[Any]:
    """The parameters of one ``eth_simulateV1`` request: every transaction in order, in
    one block, from ``sender``, with native transfers traced."""
    calls = []
    for intent in intents:
        fields = intent.fields
        call = {
            "from": sender,
            "to": fields["to"],
            "data": fields.get("data") or "0x",
            "value": _hex(fields.get("value") or 0),
        }
        calls.append(call)
    return [
        {"blockStateCalls": [{"calls": calls}], "traceTransfers": True, "validation": False},
        "latest",
    ]


def unavailable(response: Mapping[str, Any]) -> str | None:
    """Why the node could not simulate (its error answer), or ``None`` when it did."""
    error = response.get("error")
    if error is None and isinstance(response.get("result"), list):
        return None
    if isinstance(error, Mapping):
        return f"eth_simulateV1 answered error {error.get('code')}: {error.get('message')!r:.160}"
    if error is not None:
        return f"eth_simulateV1 answered error {error!r:.160}"
    return "eth_simulateV1 answered no result"


def _address(word: str) -> str:
    return "0x" + word[-40:].lower()


def _uint(data: str) -> int | None:
    raw = data[2:] if data.startswith("0x") else data
    if len(raw) != 64:
        return None
    return int(raw, 16)


def _movement(log: Mapping[str, Any], index: int) -> AssetMovement | None:
    topics = [str(topic).lower() for topic in log.get("topics") or ()]
    emitter = str(log.get("address", "")).lower()
    amount = _uint(str(log.get("data", "")))
    # ERC-20 logs have three topics and one word (an ERC-721 Transfer has four);
    # Deposited has four.
    if not topics or amount is None or len(topics) != (4 if topics[0] == _DEPOSITED else 3):
        return None
    head, first, second = topics[0], _address(topics[1]), _address(topics[2])
    if head == _TRANSFER:
        kind = "native" if emitter == _NATIVE else "transfer"
        return AssetMovement(
            kind=kind, token=emitter, from_=first, to=second, amount=amount,
            transaction=index, emitter=emitter,
        )  # fmt: skip
    if head == _APPROVAL:
        return AssetMovement(
            kind="approval", token=emitter, from_=first, to=second, amount=amount,
            transaction=index, emitter=emitter,
        )  # fmt: skip
    if head == _DEPOSITED:
        # The depositor's balance is credited at the emitting GatewayWallet.
        return AssetMovement(
            kind="deposit", token=first, from_=second, to=emitter, amount=amount,
            transaction=index, emitter=emitter,
        )  # fmt: skip
    return None


def movements_of(result: Any, count: int) -> tuple[list[Mapping[str, Any]], list[AssetMovement]]:
    """The simulated calls of the one block, and their movements in order.

    Raises:
        SimulationError: the answer is not one block of ``count`` calls.
    """
    calls = None
    if isinstance(result, list) and len(result) == 1 and isinstance(result[0], Mapping):
        calls = result[0].get("calls")
    if not isinstance(calls, list) or len(calls) != count:
        raise SimulationError(f"the node's eth_simulateV1 answer is not one block of {count} calls")
    movements = []
    for index, call in enumerate(calls):
        for log in call.get("logs") or () if isinstance(call, Mapping) else ():
            if isinstance(log, Mapping) and (movement := _movement(log, index)) is not None:
                movements.append(movement)
    return calls, movements


Check = Callable[[Intent, str, list[AssetMovement]], str | None]


def _only_the_input_leaves(intent: Intent, owner: str, moves: list[AssetMovement]) -> str | None:
    sent = 0
    for move in moves:
        if move.kind not in ("native", "transfer") or not _same_address(move.from_, owner):
            continue
        if not (
            _same_address(move.token, intent.token) and _same_address(move.to, intent.counterparty)
        ):
            return (
                f"{move.amount} of {move.token} would leave {owner} for {move.to}; only "
                f"{intent.spend} of {intent.token} to {intent.counterparty} may"
            )
        sent += move.amount
    if sent > intent.spend:
        return f"{sent} of {intent.token} would leave {owner}, more than the {intent.spend} asked"
    return None


def _approvals_to_the_pinned_spender(
    intent: Intent, owner: str, moves: list[AssetMovement]
) -> str | None:
    for move in moves:
        if move.kind != "approval" or not _same_address(move.from_, owner):
            continue
        if not (
            _same_address(move.token, intent.token) and _same_address(move.to, intent.counterparty)
        ):
            return (
                f"{owner} would approve {move.to} over {move.token}: the call means no "
                "such approval"
            )
        if move.amount > intent.approval:
            return (
                f"{owner} would approve {move.amount} of {move.token} to {move.to}, more "
                f"than the {intent.approval} asked"
            )
    return None


def _approves_exactly(intent: Intent, owner: str, moves: list[AssetMovement]) -> str | None:
    for move in moves:
        if (
            move.kind == "approval"
            and _same_address(move.from_, owner)
            and _same_address(move.token, intent.token)
            and _same_address(move.to, intent.counterparty)
            and move.amount == intent.approval
        ):
            return None
    return f"no Approval of {intent.approval} of {intent.token} to {intent.counterparty}"


def _received(moves: Iterable[AssetMovement], token: str | None, receiver: str | None) -> int:
    return sum(
        move.amount
        for move in moves
        if move.kind in ("native", "transfer")
        and _same_address(move.token, token)
        and _same_address(move.to, receiver)
    )


def _receiver_gets_the_minimum(
    intent: Intent, owner: str, moves: list[AssetMovement]
) -> str | None:
    if intent.output_token is None:
        return None  # a cross-chain route pays out later, on another chain
    got = _received(moves, intent.output_token, intent.receiver)
    if got < intent.min_output:
        return (
            f"the receiver {intent.receiver} would get {got} of {intent.output_token}, "
            f"less than the minimum {intent.min_output}"
        )
    return None


def _gateway_credits_the_owner(
    intent: Intent, sender: str, moves: list[AssetMovement]
) -> str | None:
    owner = intent.depositor or sender
    credited = 0
    for move in moves:
        if move.kind != "deposit" or not _same_address(move.to, intent.counterparty):
            continue
        # Whom the wallet credits is its Deposited event's depositor: a credit to anyone
        # else (with the owner's USDC moved in all the same) is not this deposit.
        if not (_same_address(move.token, intent.token) and _same_address(move.from_, owner)):
            return (
                f"the GatewayWallet {intent.counterparty} would credit {move.from_} with "
                f"{move.amount} of {move.token}, not the depositor {owner}"
            )
        credited += move.amount
    # No Deposited event at all (USDC merely moved to the wallet) says nothing of whom
    # it credits: refused too.
    if credited < intent.credit:
        return (
            f"the GatewayWallet {intent.counterparty} would credit {owner} with {credited}, "
            f"not the {intent.credit} deposited"
        )
    return None


def _attested_recipients_paid(intent: Intent, owner: str, moves: list[AssetMovement]) -> str | None:
    for token, recipient, value in intent.credits:
        got = _received(moves, token, recipient)
        if got < value:
            return f"the attested recipient {recipient} would get {got} of {token}, not {value}"
    return None


RULES: Final[Mapping[Kind, tuple[Check, ...]]] = {
    "approval": (_only_the_input_leaves, _approvals_to_the_pinned_spender, _approves_exactly),
    "route": (_only_the_input_leaves, _approvals_to_the_pinned_spender, _receiver_gets_the_minimum),
    "deposit": (
        _only_the_input_leaves,
        _approvals_to_the_pinned_spender,
        _gateway_credits_the_owner,
    ),
    "mint": (_only_the_input_leaves, _approvals_to_the_pinned_spender, _attested_recipients_paid),
    "withdrawal": (_only_the_input_leaves, _approvals_to_the_pinned_spender),
    "call": (_only_the_input_leaves, _approvals_to_the_pinned_spender),
}
"""For each kind of transaction, the checks its simulated movements must pass:

- every kind: nothing of the sender's leaves but ``spend`` of ``token`` to the pinned
  ``counterparty``, and any approval the sender gives is over ``token``, to
  ``counterparty``, for at most ``approval``;
- an approval sets exactly ``approval``;
- a same-chain route pays the receiver at least ``min_output`` of ``output_token``;
- a deposit credits its depositor's GatewayWallet balance with ``credit`` (the
  wallet's ``Deposited`` event names whom it credits; a credit to anyone else, or no
  event at all, is refused);
- a mint pays each attested recipient its attested value."""


def _revert(call: Mapping[str, Any]) -> str | None:
    if str(call.get("status", "")).lower() in ("0x1", "1"):
        return None
    error = call.get("error")
    detail = error.get("message") if isinstance(error, Mapping) else None
    return f"it would revert ({detail!r:.160})" if detail else "it would revert"


def check_simulation(
    owner: str,
    intents: Sequence[Intent],
    result: Any,
    method: SimulationMethod = "eth_simulateV1",
) -> Simulation:
    """Read an ``eth_simulateV1`` answer (or a trace made into one: `traced`) and
    compare it with the intents.

    Raises:
        SimulationError: a transaction would revert, or its movements break a rule.
    """
    calls, movements = movements_of(result, len(intents))
    everything = tuple(movements)
    for index, (intent, call) in enumerate(zip(intents, calls, strict=True)):
        reason = _revert(call)
        mine = [move for move in movements if move.transaction == index]
        for check in RULES[intent.kind] if reason is None else ():
            if (reason := check(intent, owner, mine)) is not None:
                break
        if reason is not None:
            raise SimulationError(
                f"the {intent.kind} transaction was simulated: {reason}",
                movements=everything,
                transaction=index,
            )
    return Simulation(
        transactions=tuple(i.kind for i in intents), movements=everything, method=method
    )


# -- the fallbacks of "auto" on a node without eth_simulateV1 (one transaction only: a
# trace or a call runs on the latest state, without the transactions before it)


def _call_object(sender: str, intent: Intent) -> dict[str, Any]:
    fields = intent.fields
    return {
        "from": sender,
        "to": fields["to"],
        "data": fields.get("data") or "0x",
        "value": _hex(fields.get("value") or 0),
    }


def trace_params(sender: str, intent: Intent) -> list[Any]:
    """``debug_traceCall`` of one transaction with geth's ``callTracer`` and its logs."""
    tracer = {"tracer": "callTracer", "tracerConfig": {"withLog": True}}
    return [_call_object(sender, intent), "latest", tracer]


def call_params(sender: str, intent: Intent) -> list[Any]:
    """A plain ``eth_call`` of one transaction."""
    return [_call_object(sender, intent), "latest"]


def _frames(frame: Mapping[str, Any]) -> Iterable[Mapping[str, Any]]:
    # Depth first, in execution order; a frame that reverted (its "error") undid its
    # logs and value, and those of the frames under it.
    if frame.get("error") is not None:
        return
    yield frame
    for inner in frame.get("calls") or ():
        if isinstance(inner, Mapping):
            yield from _frames(inner)


def _quantity(value: object) -> int:
    try:
        return int(str(value or "0x0"), 16)
    except ValueError:
        return 0


def _word(address: object) -> str:
    return "0x" + str(address).lower().removeprefix("0x").rjust(64, "0")


def traced(trace: Any) -> list[Any]:
    """A ``callTracer`` trace (with logs) as the one-call ``eth_simulateV1`` answer the
    rules read: its logs, and each call's native value as a traced transfer.

    Raises:
        SimulationError: not a call trace.
    """
    if not isinstance(trace, Mapping) or "type" not in trace:
        raise SimulationError("the node's debug_traceCall answer is not a call trace")
    if trace.get("error") is not None:
        revert = trace.get("revertReason") or trace.get("error")
        return [{"calls": [{"status": "0x0", "error": {"message": str(revert)}, "logs": []}]}]
    logs: list[Mapping[str, Any]] = []
    for frame in _frames(trace):
        value = _quantity(frame.get("value"))
        if value and frame.get("type") in ("CALL", "CREATE", "CREATE2", "SELFDESTRUCT"):
            topics = [_TRANSFER, _word(frame.get("from")), _word(frame.get("to"))]
            logs.append({"address": NATIVE_TOKEN, "topics": topics, "data": f"0x{value:064x}"})
        logs.extend(log for log in frame.get("logs") or () if isinstance(log, Mapping))
    return [{"calls": [{"status": "0x1", "logs": logs}]}]


def reverted(response: Mapping[str, Any]) -> str | None:
    """Why a plain ``eth_call`` says the transaction would revert, or ``None`` when it
    ran (or the node does not answer ``eth_call``: see `unavailable_call`)."""
    error = response.get("error")
    if error is None or unavailable_call(response):
        return None
    message = error.get("message") if isinstance(error, Mapping) else error
    return f"it would revert ({message!r:.160})"


def unavailable_call(response: Mapping[str, Any]) -> bool:
    """Whether a node's answer says it does not offer the method (or gave nothing)."""
    error = response.get("error")
    if error is None:
        return "result" not in response
    code = error.get("code") if isinstance(error, Mapping) else None
    return code == -32601 or not isinstance(error, Mapping)


# -- what a Gateway contract call means

_SPEC_VALUE: Final = 272


def _spec_credit(spec: bytes) -> tuple[str, str, int]:
    token = "0x" + spec[112 + 12 : 144].hex()
    recipient = "0x" + spec[176 + 12 : 208].hex()
    value = int.from_bytes(spec[_SPEC_VALUE : _SPEC_VALUE + 32], "big")
    return token, recipient, value


def attested_credits(payload: bytes) -> tuple[tuple[str, str, int], ...]:
    """Each ``(destination token, recipient, value)`` of a Gateway attestation or
    attestation set (Circle's encoding: magic, max block height, then the transfer
    spec, whose destination token, recipient and value sit at fixed offsets).

    Raises:
        SimulationError: the payload is not an attestation the SDK can read.
    """
    # Circle's magic numbers and header sizes, from the one decoder of the encoding
    # (imported here: a routing client that never simulates a mint does not load it).
    # lazy: the attestation decoder, only when a mint is simulated
    from .signing.attestations import (
        _HEADER,
        _SPEC_HEADER,
        ATTESTATION_MAGIC,
        ATTESTATION_SET_MAGIC,
    )

    out = []
    offset, count = 0, 1
    if payload[:4] == ATTESTATION_SET_MAGIC:
        count, offset = int.from_bytes(payload[4:8], "big"), 8
    for _ in range(count):
        if payload[offset : offset + 4] != ATTESTATION_MAGIC:
            raise SimulationError("the attestation to mint is not in Circle's encoding")
        length = int.from_bytes(payload[offset + _HEADER - 4 : offset + _HEADER], "big")
        spec = payload[offset + _HEADER : offset + _HEADER + length]
        if len(spec) < _SPEC_HEADER or length < _SPEC_HEADER:
            raise SimulationError("the attestation to mint holds a truncated transfer spec")
        out.append(_spec_credit(spec))
        offset += _HEADER + length
    return tuple(out)


def intent_of_call(function: str, fields: Mapping[str, Any], data: bytes, sender: str) -> Intent:
    """What a `xswap_sdk.signing.ContractCall` means, by its function.

    A mint pays what its attestation says; a deposit credits its depositor with its
    value (and, sent by the depositor, moves that much of the sender's USDC to the
    GatewayWallet); anything else moves nothing of the sender's.
    """
    if function == "gatewayMint(bytes,bytes)":
        from eth_abi.abi import decode

        attestation, _signature = decode(["bytes", "bytes"], data[4:])
        return Intent("mint", fields, credits=attested_credits(attestation))
    if function.startswith("depositWith"):
        # Every deposit function starts (token, depositor, value).
        words = [data[4 + 32 * i : 36 + 32 * i] for i in range(3)]
        token, depositor = ("0x" + word[12:].hex() for word in words[:2])
        value = int.from_bytes(words[2], "big")
        own = _same_address(depositor, sender)
        return Intent(
            "deposit", fields, token=token, counterparty=str(fields["to"]),
            spend=value if own else 0, approval=value if own else 0, depositor=depositor,
            credit=value,
        )  # fmt: skip
    if function.startswith(("withdraw(", "initiateWithdrawal(")):
        return Intent("withdrawal", fields)
    return Intent("call", fields)


# -- what the SDK's own sends mean


def approval_intent(fields: Mapping[str, Any], token: str, spender: str, amount: int) -> Intent:
    """``approve(spender, amount)``: sets exactly ``amount``, moves nothing."""
    return Intent("approval", fields, token=token, counterparty=spender, approval=amount)


_NATIVE_ALIASES: Final = frozenset({"0x" + "0" * 40, _NATIVE})


def _token(address: str | None) -> str | None:
    if address is None:
        return None
    return NATIVE_TOKEN if address.lower() in _NATIVE_ALIASES else address


def route_intent(fields: Mapping[str, Any], plan: ExecutionPlan, contract: str) -> Intent:
    """A route's transaction: only the input amount leaves, to the routing contract,
    and on a same-chain route the receiver asked for gets at least the route's
    minimum output (a cross-chain route pays out later, on another chain)."""
    asked = plan.route.request
    output: dict[str, Any] = {}
    if asked is not None and asked.to_chain == asked.from_chain:
        output = {
            "receiver": asked.receiver or asked.sender,
            "output_token": _token(asked.to_token),
            "min_output": int(plan.route.min_amount_out),
        }
    return Intent(
        "route",
        fields,
        token=_token(plan.token) or NATIVE_TOKEN,
        counterparty=contract,
        spend=plan.amount,
        approval=plan.amount,
        **output,
    )


def deposit_intent(
    fields: Mapping[str, Any], *, usdc: str, gateway_wallet: str, amount: int, depositor: str
) -> Intent:
    """A deposit sent by its depositor: ``amount`` of USDC goes to the GatewayWallet
    (by a permit's approval of exactly that, or an authorization), which credits the
    depositor's balance with it."""
    return Intent(
        "deposit",
        fields,
        token=usdc,
        counterparty=gateway_wallet,
        spend=amount,
        approval=amount,
        depositor=depositor,
        credit=amount,
    )
