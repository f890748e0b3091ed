"""The sandbox's own controls over HTTP, under ``/sandbox``: what `Sandbox` offers in
Python (funding, time, faults, scripted outcomes, the request log), for programs in any
language.

Every control answers JSON; a bad request is a 400 ``{"error", "message"}`` naming the
JSON field. The controls are not services: faults never apply to them and the request
log does not record them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Final, Protocol

from pydantic import Field, StrictBool, StrictInt, StrictStr, ValidationError

from .._clock import VirtualClock
from .._models import invalid_input
from ..chains import SOLANA
from ..errors import InvalidInputError
from ..flash._orders import build_order
from ..flash.models import Quote
from ..gateway.models import Depositor
from ..registry import DEFAULT_REGISTRY
from ..types import Address, ChainId, TokenAmount
from ._http import HTTPError, Request, Response, Service, checked, neutral_rule
from ._world import iso
from .faults import SERVICES, Fault
from .flash import FLASH_CHAINS, SANDBOX_ROUTERS, chain_json

if TYPE_CHECKING:
    from collections.abc import Iterable

    from .._clock import Clock
    from .faults import Faults
    from .flash import FlashService
    from .relayer import RelayerService
    from .routing import RoutingService


class Controlled(Protocol):
    """What the controls drive: the `Sandbox`, described here rather than imported,
    since the sandbox builds its controls (``_sandbox.py`` imports this module)."""

    @property
    def clock(self) -> Clock:
        """The sandbox's clock."""
        ...

    @property
    def faults(self) -> Faults:
        """The fault rules."""
        ...

    @property
    def relayer(self) -> RelayerService:
        """The relayer service."""
        ...

    @property
    def flash(self) -> FlashService:
        """The swap backend."""
        ...

    @property
    def routing(self) -> RoutingService:
        """The routing service."""
        ...

    @property
    def requests(self) -> Iterable[Any]:
        """Every request seen (`xswap_sdk.sandbox.RecordedRequest`)."""
        ...

    def fund(self, address: str, chain_id: int, amount: int | str) -> int:
        """Give ``address`` USDC on ``chain_id``; its new balance."""
        ...


__all__ = ["PREFIX", "ControlService", "Controlled"]

PREFIX: Final = "sandbox"
"""The path prefix of the controls: ``/sandbox/fund`` and so on."""

_Seconds = Annotated[float, Field(ge=0, le=86_400, allow_inf_nan=False)]
_Count = Annotated[StrictInt, Field(ge=1)]
_Status = Annotated[StrictInt, Field(ge=500, le=599)]
_ROUTING_TAMPERS: Final = ("gasless_quote", "routing_chains", "route", "built_transaction")
"""The routing service's tamper rules, by the name after ``Faults.tamper_``."""
_KINDS: Final = (
    "latency",
    "rate_limit",
    "server_error",
    "refuse_connection",
    "drop_after_processing",
)


def _body(request: Request) -> dict[str, Any]:
    body = request.json() if request.body else {}
    if not isinstance(body, dict):
        raise HTTPError(400, "the request body must be a JSON object")
    return body


def _optional(body: dict[str, Any], name: str, type_: Any) -> Any:
    value = body.get(name)
    return None if value is None else checked(name, type_, value)


def _required(body: dict[str, Any], name: str, type_: Any) -> Any:
    if body.get(name) is None:
        raise HTTPError(400, f"{name} is required")
    return checked(name, type_, body[name])


def _decimal_strings(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _decimal_strings(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_decimal_strings(item) for item in value]
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return value


def fault_json(index: int, rule: Fault) -> dict[str, Any]:
    """A fault rule as ``GET /sandbox/faults`` lists it."""
    return {
        "index": index,
        "kind": rule.kind,
        "service": rule.service,
        "method": rule.method,
        "path": rule.path,
        "remaining": rule.remaining,
        "seconds": rule.seconds,
        "status": rule.status or None,
        "retryAfter": rule.retry_after,
        "hits": rule.hits,
    }


class ControlService(Service):
    """``/sandbox/*``: fund, time, faults, scripted outcomes and the request log."""

    name = PREFIX

    def __init__(self, sandbox: Controlled) -> None:
        super().__init__()
        self._sandbox = sandbox
        add = self.router.add
        add(
            "POST",
            "/fund",
            self._fund,
            summary="put USDC (smallest units) in a wallet's gateway balance on a chain",
            body=("address", "chainId", "amount"),
        )
        add("GET", "/time", self._time, summary="the sandbox's clock")
        add(
            "POST",
            "/wait",
            self._wait,
            summary="let seconds pass (at once on virtual time; answered after them in real time)",
            body=("seconds",),
        )
        add("GET", "/faults", self._faults, summary="the fault rules that can still fire")
        add(
            "POST",
            "/faults",
            self._add_fault,
            summary="add a fault rule for the next matching requests",
            body=(
                "kind",
                "service?",
                "method?",
                "path?",
                "times?",
                "seconds?",
                "status?",
                "retryAfter?",
            ),
        )
        add("DELETE", "/faults", self._clear_faults, summary="remove every fault rule")
        add("GET", "/requests", self._requests, summary="every service request seen, in order")
        add(
            "POST",
            "/relayer/fail-next",
            self._relayer_fail_next,
            summary="the next submissions end FAILED",
            body=("message?", "count?", "label?"),
        )
        add(
            "POST",
            "/relayer/retry-next",
            self._relayer_retry_next,
            summary="the next submissions pass through NEEDS_TO_BE_RETRIED once",
            body=("count?", "label?"),
        )
        add(
            "POST",
            "/flash/fail-next",
            self._flash_fail_next,
            summary="the next accepted swaps end failed (their USDC goes back)",
            body=("count?",),
        )
        add(
            "POST",
            "/flash/order",
            self._flash_order,
            summary="build the burn intents of a quote, per the spec, to sign with any "
            "EIP-712 tool (a helper: the live service has no such endpoint)",
            body=("quote", "userAddress", "chainId", "sources?"),
        )
        add(
            "POST",
            "/routing/tamper",
            self._routing_tamper,
            summary="play a malicious routing service: change its next answers "
            f"({', '.join(_ROUTING_TAMPERS)})",
            body=("rule", "changes", "chainId?", "times?"),
        )
        add(
            "POST",
            "/routing/broadcast",
            self._broadcast,
            summary="stand in for sending a built transaction: returns the txHash /status follows",
            body=("data", "fail?"),
        )

    def error_response(self, error: HTTPError) -> Response:
        """``{"error": "<code>", "message": "<text>"}``."""
        code = error.code or {400: "bad_request", 404: "not_found"}.get(error.status, "error")
        return Response.json({"error": code, "message": error.message}, error.status, error.headers)

    # ------------------------------------------------------------------ money and time

    def _fund(self, request: Request) -> Response:
        body = _body(request)
        # An EVM address, or a base58 key for Solana (whose balances Gateway keeps).
        address: str = _required(body, "address", Depositor)
        chain_id: int = _required(body, "chainId", ChainId)
        amount: int = _required(body, "amount", TokenAmount)
        try:
            balance = self._sandbox.fund(address, chain_id, amount)
        except ValueError as exc:
            if chain_id == SOLANA:
                raise HTTPError(400, str(exc)) from None
            served = ", ".join(str(chain.id) for chain in FLASH_CHAINS)
            raise HTTPError(
                400,
                f"chainId: the swap backend serves chains {served} (and Circle Gateway Solana, "
                f"{SOLANA}, with a base58 address), not {chain_id}",
            ) from None
        return Response.json({"address": address, "chainId": chain_id, "balance": str(balance)})

    def _clock_json(self, now: float) -> dict[str, Any]:
        virtual = isinstance(self._sandbox.clock, VirtualClock)
        return {"now": now, "iso": iso(now), "clock": "virtual" if virtual else "real"}

    def _time(self, request: Request) -> Response:
        return Response.json(self._clock_json(self._sandbox.clock.time()))

    def _wait(self, request: Request) -> Response:
        seconds: float = _required(_body(request), "seconds", _Seconds)
        # The answer leaves ``seconds`` later: both adapters wait that long on the
        # sandbox's clock, which a virtual clock does at once.
        then = self._sandbox.clock.time() + seconds
        return Response.json(self._clock_json(then)).delayed(seconds)

    # ------------------------------------------------------------------ faults

    def _faults(self, request: Request) -> Response:
        rules = self._sandbox.faults.rules
        return Response.json({"faults": [fault_json(i, rule) for i, rule in enumerate(rules)]})

    def _add_fault(self, request: Request) -> Response:
        body = _body(request)
        kind = body.get("kind")
        if kind not in _KINDS:
            raise HTTPError(400, f"kind must be one of {', '.join(_KINDS)}")
        service = body.get("service")
        if service is not None and service not in SERVICES:
            raise HTTPError(400, f"service must be one of {', '.join(SERVICES)}, or null")
        target: dict[str, Any] = {
            "service": service,
            "method": _optional(body, "method", StrictStr),
            "path": _optional(body, "path", StrictStr),
            "times": _optional(body, "times", _Count) if "times" in body else 1,
        }
        if target["path"] is not None and not target["path"].startswith("/"):
            raise HTTPError(400, "path must start with / (the path inside the service)")
        faults = self._sandbox.faults
        retry_after = _optional(body, "retryAfter", _Seconds)
        if kind == "latency":
            rule = faults.latency(_required(body, "seconds", _Seconds), **target)
        elif kind == "rate_limit":
            rule = faults.rate_limit(retry_after=retry_after, **target)
        elif kind == "server_error":
            status = _optional(body, "status", _Status) or 503
            rule = faults.server_error(status, retry_after=retry_after, **target)
        elif kind == "refuse_connection":
            rule = faults.refuse_connection(**target)
        else:
            rule = faults.drop_after_processing(**target)
        return Response.json(fault_json(len(faults.rules) - 1, rule), 201)

    def _clear_faults(self, request: Request) -> Response:
        removed = len(self._sandbox.faults.rules)
        self._sandbox.faults.clear()
        return Response.json({"removed": removed})

    def _requests(self, request: Request) -> Response:
        seen = [
            {
                "service": item.service,
                "method": item.method,
                "path": item.path,
                "status": item.status,
                "processed": item.processed,
                "fault": item.fault,
            }
            for item in self._sandbox.requests
        ]
        return Response.json({"requests": seen})

    # ------------------------------------------------------------------ scripted outcomes

    def _relayer_fail_next(self, request: Request) -> Response:
        body = _body(request)
        message = _optional(body, "message", StrictStr) or "execution reverted"
        count = _optional(body, "count", _Count) or 1
        label = _optional(body, "label", StrictStr)
        self._sandbox.relayer.fail_next(message, count=count, label=label)
        return Response.json({"count": count, "label": label, "message": message})

    def _relayer_retry_next(self, request: Request) -> Response:
        body = _body(request)
        count = _optional(body, "count", _Count) or 1
        label = _optional(body, "label", StrictStr)
        self._sandbox.relayer.retry_next(count=count, label=label)
        return Response.json({"count": count, "label": label})

    def _flash_fail_next(self, request: Request) -> Response:
        count = _optional(_body(request), "count", _Count) or 1
        self._sandbox.flash.fail_next(count=count)
        return Response.json({"count": count})

    def _flash_order(self, request: Request) -> Response:
        body = _body(request)
        quote = body.get("quote")
        if not isinstance(quote, dict):
            raise HTTPError(400, "quote is required: the answer of GET /flash/quote, as is")
        user: str = _required(body, "userAddress", Address)
        chain_id: int = _required(body, "chainId", ChainId)
        sources = body.get("sources")
        if sources is not None and not isinstance(sources, dict):
            raise HTTPError(400, 'sources must be an object {"<chainId>": "<amount>"}, or null')
        try:
            checked_quote = Quote.model_validate(quote)
        except ValidationError as exc:
            raise HTTPError(400, neutral_rule(str(invalid_input(exc, argument="quote")))) from None
        flash = self._sandbox.flash
        try:
            order = build_order(
                checked_quote,
                chains=[chain_json(chain) for chain in FLASH_CHAINS],
                balances={chain.id: flash.balance(user, chain.id) for chain in FLASH_CHAINS},
                user=user,
                sources=sources,
                chain_id=chain_id,
                registry=DEFAULT_REGISTRY.with_routers(*SANDBOX_ROUTERS),
            )
        except InvalidInputError as exc:
            raise HTTPError(400, neutral_rule(str(exc))) from None
        typed = order.typed_data()
        return Response.json(
            {
                "primaryType": order.primary_type,
                # uint256 values as decimal strings: JSON numbers lose precision above
                # 2**53 in JavaScript and jq.
                "typedData": {**typed, "message": _decimal_strings(typed["message"])},
                "signedOrder": [{"intent": intent.to_wire()} for intent in order.intents],
                "swap": {
                    "userAddress": order.user,
                    "chainId": order.chain_id,
                    "swapRouterAddress": order.swap_router_address,
                    "swapCalldata": order.swap_calldata,
                },
                "sources": [
                    {"chainId": source.chain_id, "value": str(source.value)}
                    for source in order.sources
                ],
            }
        )

    def _routing_tamper(self, request: Request) -> Response:
        body = _body(request)
        rule = body.get("rule")
        if rule not in _ROUTING_TAMPERS:
            raise HTTPError(400, f"rule must be one of {', '.join(_ROUTING_TAMPERS)}")
        changes = body.get("changes")
        if not isinstance(changes, dict) or not changes:
            raise HTTPError(
                400, 'changes must be an object of dotted paths, e.g. {"receiver": "0x..."}'
            )
        times = _optional(body, "times", _Count) if "times" in body else 1
        faults = self._sandbox.faults
        if rule == "routing_chains":
            chain_id: int = _required(body, "chainId", ChainId)
            fault = faults.tamper_routing_chains(chain_id, changes, times=times)
        else:
            fault = getattr(faults, f"tamper_{rule}")(changes, times=times)
        return Response.json(fault_json(len(faults.rules) - 1, fault), 201)

    def _broadcast(self, request: Request) -> Response:
        body = _body(request)
        data: str = _required(body, "data", StrictStr)
        fail = bool(_optional(body, "fail", StrictBool))
        try:
            tx_hash = self._sandbox.routing.broadcast({"data": data}, fail=fail)
        except ValueError:
            raise HTTPError(
                404,
                "data matches no transaction the sandbox built from a quoted route "
                "(POST /routing/build-path with a route, /routing/build-path-by-id or "
                "GET /routing/build-best-path)",
            ) from None
        return Response.json({"txHash": tx_hash})
