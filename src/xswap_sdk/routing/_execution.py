"""Executing a quoted route with web3: check it, approve the exact amount, send, follow.

The routing service's own integration guide says: approve the route's
``allowanceTarget``, send the built transaction, then poll ``/status``; before gasless
swaps, approve Permit2 once. `RoutingClient.execute_route` and
`RoutingClient.check_permit2_allowance` do it, and what they sign follows the SDK's rule
(see the Trust model page): every value comes from the caller, from a pinned fact, or
is checked against one.

What `execute_route` checks before anything is signed:

- the route is one `RoutingClient.get_quote` returned (it keeps the quote's arguments)
  and still says what was asked, on both sides: the same input token, chain, amount and
  sender (the signer), and the same receiver, output token and destination chain, with
  a minimum output between the quoted output less the slippage asked (`route_floor`)
  and the quoted output (`check_route_terms`);
- web3 is connected to the route's source chain, and the built transaction is for it;
- the transaction calls the routing contract of that chain (the client's
  ``routing_contracts`` pin, else `xswap_sdk.registry.ROUTING_CONTRACTS`; the service's
  ``serviceContract`` only with ``unsafe_trust_service_parties=True``), and its
  ``allowanceTarget`` is that same contract: an approval never goes to an address the
  transaction does not call;
- an ERC-20 input sends no native value; a native input sends exactly the amount;
- the transaction (and the route) has not expired, when it is built and again right
  before it is signed (`check_expiry`, `check_route_expiry`); with ``requote=`` an
  expired one is built again and checked anew, and a new route must guarantee no less
  than the one chosen (`check_not_worse`; see ``_route_journey``).

The approval is for exactly the route's amount (never unlimited), of the token the
caller asked for, to the checked contract; it is sent only when the allowance is short
and ``approve=True``. What stays trusted: the transaction's calldata, which the routing
contract executes and the SDK cannot read (as with any aggregator).

Permit2 (`xswap_sdk.registry.PERMIT2`) is pinned: `check_permit2_allowance` approves it,
and nothing else, for exactly the amount given.

web3 is imported only here, when a route runs (the ``web3`` extra).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any, ClassVar, Final

from pydantic import BaseModel, ConfigDict

from .._lazy import require
from .._models import check_argument
from .._slippage import DEFAULT_MAX_SLIPPAGE
from ..errors import InvalidInputError, QuoteRejectedError, UnsafePayloadError
from ..registry import PERMIT2
from ..signing.signer import Signer, signer_address
from ..simulation import Simulation
from ..types import Address, TokenAmount, _same_address
from .models import BuildBestPathRequest, BuiltPath, Route, Transaction, TransactionStatus

if TYPE_CHECKING:
    pass

__all__ = [
    "NATIVE_TOKENS",
    "AllowanceCheck",
    "ExecutionPlan",
    "RouteExecution",
    "approval_fields",
    "ROUTE_EXPIRED",
    "TX_EXPIRED",
    "check_built_best_path",
    "check_expiry",
    "check_not_worse",
    "check_route_expiry",
    "check_route_terms",
    "check_transaction",
    "plan_allowance",
    "plan_execution",
    "plan_route",
    "route_expired",
    "route_fields",
    "route_floor",
]

NATIVE_TOKENS: Final = frozenset(
    {
        "0x0000000000000000000000000000000000000000",
        "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee",
    }
)
"""The addresses routing services use for a chain's native token (lower case)."""

_FLOAT_ROUNDING: Final = 10**12
_APPROVE: Final = bytes.fromhex("095ea7b3")  # approve(address,uint256)
_ALLOWANCE: Final = bytes.fromhex("dd62ed3e")  # allowance(address,address)


class AllowanceCheck(BaseModel):
    """An ERC-20 allowance, read and, when asked, raised to what is needed.

    Attributes:
        chain_id: the chain it was read on.
        token: the ERC-20.
        owner: whose tokens.
        spender: who may move them (the routing contract, or Permit2).
        amount: what is needed.
        allowance: the allowance read before any approval.
        approval_tx_hash: the hash of the approval sent, or ``None`` when none was.
        simulation: the approval's simulation, or ``None`` when none was sent or it
            was not simulated.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(frozen=True)

    chain_id: int
    token: str
    owner: str
    spender: str
    amount: int
    allowance: int
    approval_tx_hash: str | None = None
    simulation: Simulation | None = None

    @property
    def sufficient(self) -> bool:
        """Whether ``spender`` may now move ``amount``: it already could, or the
        approval was sent (and mined successfully)."""
        return self.allowance >= self.amount or self.approval_tx_hash is not None


class RouteExecution(BaseModel):
    """What `RoutingClient.execute_route` did.

    Attributes:
        transaction: the built transaction that was sent, as checked.
        tx_hash: its hash on the source chain (follow it with ``get_status``).
        allowance: the input token's allowance to the routing contract, and the
            approval if one was sent; ``None`` for a native-token input.
        record: the last ``/status`` record when the call waited, else ``None``
            (``status`` is its status, as text).
        simulation: what the approval and the route transaction moved in their
            simulation before they were signed, or ``None`` when not simulated.
        journey_id: the ``route`` journey in the client's journal, or ``None``
            without one.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(frozen=True)

    transaction: Transaction
    tx_hash: str
    allowance: AllowanceCheck | None = None
    record: TransactionStatus | None = None
    simulation: Simulation | None = None
    journey_id: str | None = None

    @property
    def status(self) -> str | None:
        """The route's status, as text (``"completed"``...), when the call waited;
        ``None`` otherwise (follow ``tx_hash`` with ``get_status``)."""
        return None if self.record is None else self.record.current_status


@dataclass(frozen=True, slots=True)
class ExecutionPlan:
    """The checked arguments of a route execution.

    Attributes:
        route: the route to build.
        owner: the signer's address, the route's sender.
        chain_id: the source chain.
        token: the ERC-20 input, or ``None`` for the native token.
        amount: the input amount, in smallest units.
    """

    route: Route
    owner: str
    chain_id: int
    token: str | None
    amount: int


def _web3(web3: object, web3_type: str, feature: str) -> None:
    module = require("web3", extra="web3", feature=feature)
    if web3 is None:
        raise InvalidInputError("web3", f"is needed: pass a connected {web3_type}")
    if not isinstance(web3, getattr(module, web3_type)):
        raise InvalidInputError("web3", f"must be a web3.{web3_type} for this client")


def plan_execution(
    signer: Signer, route: object, *, web3: object, web3_type: str, approve: object
) -> ExecutionPlan:
    """Check `execute_route`'s arguments and the route against what was asked, before
    any I/O.

    Raises:
        MissingDependencyError: web3 is not installed.
        InvalidInputError: a bad argument, or a route without the quote it answered.
        UnsafePayloadError: the route disagrees with the quote's arguments or the signer.
    """
    _web3(web3, web3_type, "RoutingClient.execute_route")
    owner = signer_address(signer)
    if not isinstance(approve, bool):
        raise InvalidInputError("approve", "must be True or False")
    if not isinstance(route, Route):
        raise InvalidInputError("route", "must be a Route from get_quote()")
    return plan_route(route, owner)


def plan_route(route: Route, owner: str) -> ExecutionPlan:
    """Check a route against the quote's arguments and the signer's address ``owner``:
    the first route of `execute_route`, and each new one a re-quote brings.

    Raises:
        InvalidInputError: a route without the quote it answered, or another sender.
        UnsafePayloadError: the route disagrees with the quote's arguments.
    """
    asked = route.request
    if asked is None:
        raise InvalidInputError(
            "route",
            "must come from get_quote() of this SDK, which keeps what was asked so the "
            "approval can be checked against it; ask for a fresh quote",
        )
    source = route.from_token
    for field, received, expected in (
        ("route.fromToken.address", source.address, asked.from_token),
        ("route.sender", route.sender, asked.sender),
    ):
        if not _same_address(str(received), str(expected)):
            raise UnsafePayloadError(field, expected=expected, received=received)
    for field, received_int, expected_int in (
        ("route.fromToken.chain", source.chain, asked.from_chain),
        ("route.amount", route.amount, asked.amount),
    ):
        if received_int != expected_int:
            raise UnsafePayloadError(field, expected=expected_int, received=received_int)
    check_route_terms(route)
    if not _same_address(asked.sender, owner):
        raise InvalidInputError("signer", f"must be the route's sender {asked.sender}, not {owner}")
    token = None if source.address.lower() in NATIVE_TOKENS else asked.from_token
    return ExecutionPlan(route, owner, asked.from_chain, token, asked.amount)


def route_floor(route: Route, slippage: Decimal | None) -> int:
    """The least ``minAmountOut`` a route may state: its quoted output less the
    ``slippage`` asked (`DEFAULT_MAX_SLIPPAGE` when none was), less one part in 10**12
    for a service's floating-point rounding."""
    keep = Decimal(100) - (DEFAULT_MAX_SLIPPAGE if slippage is None else slippage)
    rounding = route.amount_out // _FLOAT_ROUNDING + 1
    return max(1, int(Decimal(route.amount_out) * keep / 100) - rounding)


def check_route_terms(route: Route) -> None:
    """Refuse a route whose output side is not the one asked: another receiver (the
    caller's, else the sender), output token or destination chain, a minimum output
    above the quoted output, or below the floor the slippage asked implies
    (`route_floor`).

    Raises:
        UnsafePayloadError: a term of the route differs from the request.
    """
    asked = route.request
    if asked is None:
        return
    receiver = asked.receiver or asked.sender
    target = route.to_token
    for field, received, expected in (
        ("route.receiver", route.receiver, receiver),
        ("route.toToken.address", target.address, asked.to_token),
    ):
        if not _same_address(str(received), str(expected)):
            raise UnsafePayloadError(field, expected=expected, received=received)
    if target.chain != asked.to_chain:
        raise UnsafePayloadError(
            "route.toToken.chain", expected=asked.to_chain, received=target.chain
        )
    floor = route_floor(route, asked.slippage)
    if not floor <= route.min_amount_out <= route.amount_out:
        slipped = "the slippage asked" if asked.slippage is not None else "5 % (no slippage asked)"
        raise UnsafePayloadError(
            "route.minAmountOut",
            expected=f"from {floor} to {route.amount_out} (the quoted output less {slipped})",
            received=route.min_amount_out,
        )


def _stated_amount(route: Mapping[str, Any], name: str) -> int | None:
    value = route.get(name)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.isdigit():
        return int(value)
    if value is None:
        return None
    raise UnsafePayloadError(
        f"route.{name}", expected="an amount in smallest units", received=value
    )


def check_built_best_path(built: BuiltPath, request: BuildBestPathRequest) -> BuiltPath:
    """Check a ``/build-best-path`` answer against its request: the transaction is for
    ``from_chain``; the route's stated output and minimum are at least
    ``min_output_amount`` and the minimum is no higher than the output. The route's
    other fields are not documented, so what it does not state is not checked.

    Raises:
        UnsafePayloadError: a stated term differs from the request.
    """
    if built.tx.chain != request.from_chain:
        raise UnsafePayloadError("Tx.chain", expected=request.from_chain, received=built.tx.chain)
    out = _stated_amount(built.route, "amountOut")
    least = _stated_amount(built.route, "minAmountOut")
    floor = request.min_output_amount
    for name, stated in (("amountOut", out), ("minAmountOut", least)):
        if floor is not None and stated is not None and stated < floor:
            raise UnsafePayloadError(
                f"route.{name}",
                expected=f"at least your min_output_amount {floor}",
                received=stated,
            )
    if out is not None and least is not None and least > out:
        raise UnsafePayloadError(
            "route.minAmountOut", expected=f"at most the quoted output {out}", received=least
        )
    return built


def check_transaction(
    tx: Transaction, plan: ExecutionPlan, contract: str, *, now: float
) -> Transaction:
    """Check the built transaction against the plan and the routing contract.

    Raises:
        UnsafePayloadError: another chain, target, allowance target or value.
        QuoteRejectedError: the transaction has expired (`check_expiry`).
    """
    if tx.chain != plan.chain_id:
        raise UnsafePayloadError("tx.chain", expected=plan.chain_id, received=tx.chain)
    if not _same_address(tx.to, contract):
        raise UnsafePayloadError(
            "tx.to",
            expected=f"the routing contract of chain {plan.chain_id}, {contract}",
            received=tx.to,
        )
    value = tx.value or 0
    if plan.token is None:
        if value != plan.amount:
            raise UnsafePayloadError("tx.value", expected=plan.amount, received=value)
    else:
        if value != 0:
            raise UnsafePayloadError(
                "tx.value", expected="0 (the input is an ERC-20)", received=value
            )
        target = tx.allowance_target
        if target is None or not _same_address(target, contract):
            raise UnsafePayloadError(
                "tx.allowanceTarget",
                expected=f"the contract the transaction calls, {contract}",
                received=target,
                hint="An approval to any other address could be spent by it.",
            )
    return check_expiry(tx, now=now)


TX_EXPIRED: Final = "tx.expiry"
"""The argument of the `QuoteRejectedError` of a built transaction that expired."""

ROUTE_EXPIRED: Final = "route.expiry"
"""... and of a route (the quote) that expired before it was built."""


def check_expiry(tx: Transaction, *, now: float) -> Transaction:
    """Refuse a built transaction whose ``expiry`` has passed by the client's clock.

    Raises:
        QuoteRejectedError: it expired (argument `TX_EXPIRED`).
    """
    if tx.expiry and tx.expiry <= now:
        raise QuoteRejectedError(
            TX_EXPIRED,
            f"the built transaction expired {now - tx.expiry:.0f} s ago; build it again",
            quote=tx,
        )
    return tx


def route_expired(route: Route, *, now: float) -> bool:
    """Whether the route (the quote) can no longer be built: its ``expiry`` has passed."""
    return bool(route.expiry) and route.expiry <= now


def check_route_expiry(route: Route, *, now: float) -> Route:
    """Refuse a route whose ``expiry`` has passed by the client's clock.

    Raises:
        QuoteRejectedError: it expired (argument `ROUTE_EXPIRED`).
    """
    if route_expired(route, now=now):
        raise QuoteRejectedError(
            ROUTE_EXPIRED,
            f"the route expired {now - route.expiry:.0f} s ago; quote again",
            quote=route,
        )
    return route


def check_not_worse(new: Route, first: Route) -> Route:
    """Refuse a new route (a re-quote) that guarantees less output than the route the
    caller chose: a re-quote is never silently worse.

    Raises:
        QuoteRejectedError: its ``minAmountOut`` is below the first route's.
    """
    if new.min_amount_out < first.min_amount_out:
        raise QuoteRejectedError(
            "route.minAmountOut",
            f"the new route guarantees {new.min_amount_out}, less than the "
            f"{first.min_amount_out} of the route you chose; quote again yourself to "
            "accept less",
            quote=new,
        )
    return new


def plan_allowance(
    signer: Signer, *, token: object, amount: object, web3: object, web3_type: str, approve: object
) -> tuple[str, str, int]:
    """Check `check_permit2_allowance`'s arguments: the owner, token and amount.

    Raises:
        MissingDependencyError: web3 is not installed.
        InvalidInputError: a bad argument.
    """
    _web3(web3, web3_type, "RoutingClient.check_permit2_allowance")
    owner = signer_address(signer)
    checked_token: str = check_argument("token", Address, token)
    units: int = check_argument("amount", TokenAmount, amount)
    if units == 0:
        raise InvalidInputError("amount", "must be positive")
    if not isinstance(approve, bool):
        raise InvalidInputError("approve", "must be True or False")
    return owner, checked_token, units


def _encode(types: list[str], values: list[Any]) -> bytes:
    # Imported here: eth_abi builds its type grammar on import (about 0.1 s), and
    # importing the routing client should not pay for it.
    from eth_abi.abi import encode

    return encode(types, values)


def approval_fields(token: str, spender: str, amount: int) -> dict[str, Any]:
    """``approve(spender, amount)`` on ``token``: exactly ``amount``, never unlimited."""
    data = _APPROVE + _encode(["address", "uint256"], [spender, amount])
    return {"to": token, "data": "0x" + data.hex(), "value": 0}


def route_fields(tx: Transaction) -> dict[str, Any]:
    """The checked route transaction as web3 fields."""
    return {"to": tx.to, "data": tx.data, "value": tx.value or 0, "gas": tx.gas_limit}


PERMIT2_SPENDER: Final = PERMIT2
"""The spender `check_permit2_allowance` approves: Permit2, pinned in the registry."""
