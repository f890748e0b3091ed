"""Fault injection: make chosen requests slow, rate limited, failing, lost, or lied to.

Each rule names the requests it applies to (service, method, path; ``None`` matches
any) and how many times it fires (``times=None``: every time). The two kinds of lost
connection matter for money:

- `Faults.refuse_connection`: the request never reaches the service, as when the
  connection is refused. Nothing happened, so a client may send it again.
- `Faults.drop_after_processing`: the service handles the request (a transaction *is*
  submitted), then the connection drops before the answer arrives. A client must not
  send a submission again; the SDK says the outcome is unknown.

Tamper rules play a malicious service (a compromised backend, or a proxy that rewrites
answers): the service answers, then the rule changes the JSON before it leaves. Test
that your code, and the SDK under it, refuses to sign what was not asked for:

- `Faults.tamper_flash_quote`: the swap backend's quote (router, output token, amounts,
  fee, expiry, hook data);
- `Faults.tamper_flash_chains`: one chain of the swap backend's chain list (domain,
  ``gatewayWallet``, ``gatewayMinter``, USDC, router);
- `Faults.tamper_gasless_quote`: the routing service's gasless quote, e.g. a field of
  its Permit2 payload (``eip712.message.spender``) or of its summary
  (``quote.receiver``);
- `Faults.tamper_routing_chains`: one chain of the routing service's chain list
  (``serviceContract``);
- `Faults.tamper_route`: the routes of ``GET /quote`` (``receiver``,
  ``toToken.address``, ``minAmountOut``);
- `Faults.tamper_built_transaction`: the transaction ``POST /build-path`` builds
  (``to``, ``allowanceTarget``, ``value``);
- `Faults.tamper_login_message`: the text ``POST /auth/message`` asks to sign;
- `Faults.tamper_gateway_attestation`: the attestation ``POST /v1/transfer`` returns
  (another recipient, amount or chain; a 64-byte signature);
- `Faults.tamper_relayer_record`: the relayer's status record (another id, chain or
  target);
- `Faults.tamper_login_answer`: the answer carrying the new JWT;
- `Faults.tamper_lone_surrogate`: a lone surrogate (``"\\ud800"``) in any answer;
- `Faults.tamper_flash_router`: the backend names its own router consistently, in the
  quote and in every chain of the chain list;
- `Faults.tamper_flash_router_output`: the quote's ``hook_data`` and ``swap_calldata``
  name another recipient, token or minimum output (0 by default);
- `Faults.tamper_login_other_site`: a plain-text login message of another site naming
  the caller's address ("Welcome to <site>! ... Wallet address: 0x...");
- `Faults.tamper_flash_balances`: the gateway balances reported, e.g. spread thin over
  more chains so that an order needs more intents (and more fees);
- `Faults.tamper`: any answer, with your own function.

Changes name fields by dotted paths (``"token_out.address"``, ``"eip712.message.witness
.receiver"``, list indexes as numbers); the value `REMOVE` deletes a field.

Rules are checked in the order they were added. Every matching latency rule adds its
delay; then the first matching rule of another kind decides the request's fate.
"""

from __future__ import annotations

import copy
import fnmatch
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Final, Literal

from .._router_formats import decode_sandbox_router, encode_sandbox_router
from ._attestation import tampered
from ._http import HTTPError, Request, Response, Service

__all__ = [
    "REMOVE",
    "SERVICES",
    "Fault",
    "FaultKind",
    "Faults",
    "Outcome",
    "Tamper",
    "set_path",
]

SERVICES: Final = ("flash", "routing", "relayer", "gateway")
"""The names of the emulated services, as used in rules and in the request log."""

FaultKind = Literal[
    "latency",
    "rate_limit",
    "server_error",
    "refuse_connection",
    "drop_after_processing",
    "tamper",
]
"""What a rule does to the requests it matches."""

Tamper = Callable[[Any], Any]
"""Changes a parsed JSON answer: edits it in place (returning ``None``) or returns the
answer to send instead."""


class _Remove:
    """The marker `REMOVE`: a change that deletes the field it names."""

    def __repr__(self) -> str:
        return "REMOVE"


REMOVE: Final = _Remove()
"""As a value in a tamper rule's changes: delete that field."""


def _step(container: Any, part: str) -> tuple[Any, Any]:
    key: Any = int(part) if isinstance(container, list) else part
    return container, key


def set_path(document: Any, path: str, value: Any) -> None:
    """Set (or, with `REMOVE`, delete) the field at a dotted ``path`` of ``document``.

    Raises:
        KeyError: a step of the path does not exist.
    """
    parts = path.split(".")
    node = document
    for part in parts[:-1]:
        container, key = _step(node, part)
        node = container[key]
    container, key = _step(node, parts[-1])
    if value is REMOVE:
        del container[key]
    else:
        container[key] = copy.deepcopy(value)


def _apply_changes(target: Any, changes: Mapping[str, Any]) -> None:
    for path, value in changes.items():
        set_path(target, path, value)


def _changing(changes: Mapping[str, Any]) -> Callable[[Any], None]:
    """An edit applying ``changes``, copied now (the caller's later edits do not count)."""
    fields = dict(changes)
    return lambda target: _apply_changes(target, fields)


_FIELD_TAMPERS: dict[str, tuple[str, str, str, bool]] = {
    "tamper_flash_quote": ("flash", "GET", "/quote", False),
    "tamper_gasless_quote": ("routing", "GET", "/gasless/quote", True),
    "tamper_route": ("routing", "GET", "/quote", True),
    "tamper_built_transaction": ("routing", "POST", "/build-path", True),
    "tamper_login_answer": ("flash", "POST", "/auth/verify", False),
}
"""Each ``Faults`` method that changes fields of one answer: the service, method and
path it changes, and whether the fields are in the routing service's ``data``."""


def _enveloped(edit: Callable[[Any], None]) -> Tamper:
    """Apply ``edit`` to the routing service's ``data`` (each element of a list)."""

    def tamper(body: Any) -> None:
        data = body.get("data") if isinstance(body, dict) else None
        for item in data if isinstance(data, list) else [data]:
            if isinstance(item, dict):
                edit(item)

    return tamper


@dataclass(eq=False)
class Fault:
    """One fault rule. Returned by the `Faults` methods; read it to see how often it
    fired, or pass it to `Faults.remove`.

    Attributes:
        kind: what the rule does.
        service: the service it applies to, or ``None`` for all.
        method: the HTTP method it applies to, or ``None`` for all.
        path: the path inside the service (``/api/submit-tx``), a glob
            (``/gasless/*``), or ``None`` for all.
        remaining: how many more times it fires; ``None`` for always.
        seconds: the added latency (``latency`` rules).
        status: the HTTP status answered (``rate_limit`` and ``server_error`` rules).
        retry_after: the ``Retry-After`` header value in seconds, if any.
        hits: how many times it has fired.
        edit: how a ``tamper`` rule changes the answer.
    """

    kind: FaultKind
    service: str | None = None
    method: str | None = None
    path: str | None = None
    remaining: int | None = 1
    seconds: float = 0.0
    status: int = 0
    retry_after: float | None = None
    hits: int = 0
    edit: Tamper | None = None

    def tampered(self, response: Response) -> Response:
        """``response`` as a ``tamper`` rule changes it (successful JSON answers only)."""
        if self.edit is None or not 200 <= response.status < 300:
            return response
        if not response.content_type.startswith("application/json"):
            return response
        body = json.loads(response.body)
        changed = self.edit(body)
        body = body if changed is None else changed
        return replace(response, body=json.dumps(body, separators=(",", ":")).encode())

    def matches(self, service: str, request: Request) -> bool:
        """Whether this rule applies to ``request`` sent to ``service`` now."""
        if self.remaining == 0:
            return False
        if self.service is not None and self.service != service:
            return False
        if self.method is not None and self.method != request.method:
            return False
        return self.path is None or fnmatch.fnmatchcase(request.path, self.path)

    def fire(self) -> None:
        """Count one use."""
        self.hits += 1
        if self.remaining is not None:
            self.remaining -= 1

    def error(self) -> HTTPError:
        """The error answered by a ``rate_limit`` or ``server_error`` rule."""
        headers = {}
        if self.retry_after is not None:
            headers["Retry-After"] = format(self.retry_after, "g")
        message = "Too many requests" if self.status == 429 else "Service unavailable"
        if self.status not in (429, 503):
            message = "Internal server error"
        return HTTPError(self.status, message, headers=headers)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What became of one request.

    Attributes:
        response: the answer (``None`` when the request never reached the service).
        processed: whether the service handled it (its state may have changed).
        delay: seconds before the answer leaves (latency plus the service's own wait).
        drop: ``"before"`` (never reached the service), ``"after"`` (handled, then
            the connection was lost), ``"timeout"`` (handled, but the answer came
            later than the client waits); ``None`` when the answer is delivered.
        fault: the rule that decided the outcome, if any.
    """

    response: Response | None
    processed: bool
    delay: float = 0.0
    drop: Literal["before", "after", "timeout"] | None = None
    fault: Fault | None = None


def _check_times(times: object) -> int | None:
    if times is None:
        return None
    if isinstance(times, bool) or not isinstance(times, int) or times < 1:
        raise ValueError("times must be a positive int, or None for every matching request")
    return times


def _check_seconds(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
        raise ValueError(f"{name} must be a non-negative number of seconds")
    return float(value)


class Faults:
    """The fault rules of one sandbox (``sb.faults``)."""

    def __init__(self) -> None:
        self._rules: list[Fault] = []

    @property
    def rules(self) -> list[Fault]:
        """The rules that can still fire, in the order they were added."""
        return [rule for rule in self._rules if rule.remaining != 0]

    def _add(
        self,
        kind: FaultKind,
        service: str | None,
        method: str | None,
        path: str | None,
        times: int | None,
        *,
        seconds: float = 0.0,
        status: int = 0,
        retry_after: float | None = None,
        edit: Tamper | None = None,
    ) -> Fault:
        if service is not None and service not in SERVICES:
            raise ValueError(f"service must be one of {', '.join(SERVICES)}, or None")
        if method is not None and not isinstance(method, str):
            raise ValueError("method must be a string such as 'POST', or None")
        if path is not None and not (isinstance(path, str) and path.startswith("/")):
            raise ValueError("path must start with '/' (the path inside the service)")
        rule = Fault(
            kind,
            service=service,
            method=method.upper() if method else None,
            path=path,
            remaining=_check_times(times),
            seconds=seconds,
            status=status,
            retry_after=retry_after,
            edit=edit,
        )
        self._rules.append(rule)
        return rule

    def latency(
        self,
        seconds: float,
        *,
        service: str | None = None,
        method: str | None = None,
        path: str | None = None,
        times: int | None = 1,
    ) -> Fault:
        """Answer matching requests ``seconds`` later.

        With a `VirtualClock` the clock moves forward instead of anyone waiting. When
        the delay reaches the client's read timeout, an in-process client gets
        `httpx.ReadTimeout` after the service handled the request, as over a network.
        """
        seconds = _check_seconds("seconds", seconds)
        return self._add("latency", service, method, path, times, seconds=seconds)

    def rate_limit(
        self,
        *,
        retry_after: float | None = 1.0,
        service: str | None = None,
        method: str | None = None,
        path: str | None = None,
        times: int | None = 1,
    ) -> Fault:
        """Answer matching requests with HTTP 429 and ``Retry-After`` (seconds), in the
        service's error shape, without handling them."""
        if retry_after is not None:
            retry_after = _check_seconds("retry_after", retry_after)
        return self._add(
            "rate_limit", service, method, path, times, status=429, retry_after=retry_after
        )

    def server_error(
        self,
        status: int = 503,
        *,
        retry_after: float | None = None,
        service: str | None = None,
        method: str | None = None,
        path: str | None = None,
        times: int | None = 1,
    ) -> Fault:
        """Answer matching requests with a 5xx status in the service's error shape,
        without handling them."""
        if isinstance(status, bool) or not isinstance(status, int) or not 500 <= status <= 599:
            raise ValueError("status must be an int from 500 to 599")
        if retry_after is not None:
            retry_after = _check_seconds("retry_after", retry_after)
        return self._add(
            "server_error", service, method, path, times, status=status, retry_after=retry_after
        )

    def refuse_connection(
        self,
        *,
        service: str | None = None,
        method: str | None = None,
        path: str | None = None,
        times: int | None = 1,
    ) -> Fault:
        """Fail matching requests before they reach the service (in-process:
        `httpx.ConnectError`). The service sees nothing, so resending is safe."""
        return self._add("refuse_connection", service, method, path, times)

    def drop_after_processing(
        self,
        *,
        service: str | None = None,
        method: str | None = None,
        path: str | None = None,
        times: int | None = 1,
    ) -> Fault:
        """Handle matching requests, then lose the connection before the answer
        (in-process: `httpx.RemoteProtocolError`). What the request did stands."""
        return self._add("drop_after_processing", service, method, path, times)

    def tamper(
        self,
        edit: Tamper,
        *,
        service: str | None = None,
        method: str | None = None,
        path: str | None = None,
        times: int | None = 1,
    ) -> Fault:
        """Let the service answer matching requests, then change the answer's JSON with
        ``edit`` (successful JSON answers only), as a malicious service would.

        Only successful JSON answers are changed; an error answer leaves the rule for
        the next matching request.

        Args:
            edit: gets the parsed JSON body; edits it in place, or returns the body to
                send instead.
            service: the service it applies to, or ``None`` for all.
            method: the HTTP method, or ``None`` for all.
            path: the path inside the service, a glob, or ``None`` for all.
            times: how many answers to change; ``None`` for every one.
        """
        if not callable(edit):
            raise ValueError("edit must be a function of the parsed JSON body")
        return self._add("tamper", service, method, path, times, edit=edit)

    def _tamper_fields(self, name: str, changes: Mapping[str, Any], times: int | None) -> Fault:
        service, method, path, enveloped = _FIELD_TAMPERS[name]
        edit = _changing(changes)
        return self.tamper(
            _enveloped(edit) if enveloped else edit,
            service=service,
            method=method,
            path=path,
            times=times,
        )

    def tamper_flash_quote(self, changes: Mapping[str, Any], *, times: int | None = 1) -> Fault:
        """Change the swap backend's quote (``GET /quote``), e.g.
        ``{"swap_router_address": attacker}``, ``{"token_out.address": other}``,
        ``{"token_in.amount": "1"}``, ``{"fees.gateway_fee": "60000000"}``,
        ``{"expires_at": REMOVE}`` or ``{"hook_data": "0x..."}``."""
        return self._tamper_fields("tamper_flash_quote", changes, times)

    def tamper_flash_chains(
        self, chain_id: int, changes: Mapping[str, Any], *, times: int | None = 1
    ) -> Fault:
        """Change one chain of the swap backend's ``GET /supported-chains``, e.g.
        ``{"domain": 0}``, ``{"gatewayWallet": attacker}``, ``{"gatewayMinter": ...}``,
        ``{"usdc.address": ...}`` or ``{"routerAddress": ...}``."""
        fields = dict(changes)

        def edit(body: Any) -> None:
            for chain in body:
                if isinstance(chain, dict) and chain.get("id") == chain_id:
                    _apply_changes(chain, fields)

        return self.tamper(
            edit, service="flash", method="GET", path="/supported-chains", times=times
        )

    def tamper_gasless_quote(self, changes: Mapping[str, Any], *, times: int | None = 1) -> Fault:
        """Change every quote of the routing service's ``GET /gasless/quote``, e.g.
        ``{"eip712.message.spender": attacker}``,
        ``{"eip712.message.permitted.amount": str(2**256 - 1)}`` (a permit for
        everything to a stranger), or its summary: ``{"quote.receiver": attacker}``,
        ``{"quote.amountOut": "1", "quote.minAmountOut": "1"}``."""
        return self._tamper_fields("tamper_gasless_quote", changes, times)

    # -------------------------------------------------------------- the routing service

    def tamper_routing_chains(
        self, chain_id: int, changes: Mapping[str, Any], *, times: int | None = 1
    ) -> Fault:
        """Change one chain of the routing service's ``GET /supported-chains``, e.g.
        ``{"serviceContract": attacker}``: the contract a client that trusts the service
        (``unsafe_trust_service_parties=True``) would take as Permit2 spender, route
        target and allowance target. Pinned clients do not read it."""
        fields = dict(changes)

        def edit(item: Any) -> None:
            if item.get("id") == chain_id:
                _apply_changes(item, fields)

        return self.tamper(
            _enveloped(edit), service="routing", method="GET", path="/supported-chains",
            times=times,
        )  # fmt: skip

    def tamper_route(self, changes: Mapping[str, Any], *, times: int | None = 1) -> Fault:
        """Change every route of the routing service's ``GET /quote``, e.g. someone
        else's output: ``{"receiver": attacker}``, ``{"toToken.address": other}``,
        ``{"toToken.chain": 10}`` or ``{"minAmountOut": "1"}``."""
        return self._tamper_fields("tamper_route", changes, times)

    def tamper_built_transaction(
        self, changes: Mapping[str, Any], *, times: int | None = 1
    ) -> Fault:
        """Change the transaction ``POST /build-path`` builds, e.g.
        ``{"to": attacker}``, ``{"allowanceTarget": attacker}`` or ``{"value": "5"}``."""
        return self._tamper_fields("tamper_built_transaction", changes, times)

    def tamper_login_message(
        self, message: str | Callable[[str], str], *, times: int | None = 1
    ) -> Fault:
        """Replace the text ``POST /auth/message`` asks the wallet to sign: a new text,
        or a function of the honest one (``lambda text: text.replace(...)``)."""

        def edit(body: Any) -> None:
            honest = body.get("message", "")
            body["message"] = message(honest) if callable(message) else message

        return self.tamper(edit, service="flash", method="POST", path="/auth/message", times=times)

    # -- tampers of the gateway, the relayer, the login answer, and any answer's text

    def tamper_gateway_attestation(
        self,
        changes: Mapping[str, Any] | None = None,
        *,
        signature_bytes: int = 65,
        times: int | None = 1,
    ) -> Fault:
        """Rewrite the attestation ``POST /v1/transfer`` answers: every attested transfer
        spec with ``changes`` (wire names: ``{"destinationRecipient": attacker,
        "value": 4_000_000_000, "destinationDomain": 0}``), signed again by the sandbox's
        attester, its signature cut or padded to ``signature_bytes`` (64 for an EIP-2098
        signature ``gatewayMint`` refuses)."""
        fields = dict(changes or {})
        return self.tamper(
            lambda body: tampered(body, fields, signature_bytes),
            service="gateway",
            method="POST",
            path="/v1/transfer",
            times=times,
        )

    def tamper_relayer_record(
        self, changes: Mapping[str, Any], *, times: int | None = None
    ) -> Fault:
        """Change the status record the relayer answers (``GET /api/tx`` and ``POST
        /api/submit-tx-sync``), e.g. ``{"id": other}``, ``{"chainId": 1}`` or
        ``{"to": attacker}``: another transaction's record passed off as this one's."""
        fields = dict(changes)

        def edit(body: Any) -> None:
            record = body.get("data") if isinstance(body, dict) else None
            if isinstance(record, dict) and "status" in record:  # a record, not a txId
                _apply_changes(record, fields)

        return self.tamper(edit, service="relayer", path="/api/*", times=times)

    def tamper_login_answer(self, changes: Mapping[str, Any], *, times: int | None = 1) -> Fault:
        """Change the swap backend's ``POST /auth/verify`` answer, which carries the new
        JWT, e.g. ``{"is_new_user": "perhaps"}``: an answer that does not fit its model,
        whose token must not be kept on the error."""
        return self._tamper_fields("tamper_login_answer", changes, times)

    def tamper_lone_surrogate(
        self,
        field: str,
        *,
        service: str | None = None,
        method: str | None = None,
        path: str | None = None,
        times: int | None = 1,
    ) -> Fault:
        """Put a lone UTF-16 surrogate (``"\\ud800"``: valid JSON, not text) at the
        dotted ``field`` of matching answers, e.g. ``field="data.0.quoteId"`` of the
        routing service's ``/gasless/quote``."""

        def edit(body: Any) -> None:
            set_path(body, field, "\ud800")

        return self.tamper(edit, service=service, method=method, path=path, times=times)

    def tamper_flash_router(self, router: str, *, times: int | None = 1) -> Fault:
        """Make the swap backend name ``router`` as its router everywhere, consistently:
        in the quote (``swap_router_address``) and as every chain's ``routerAddress``
        (``times`` counts the answers changed, of both kinds together)."""

        def edit(body: Any) -> None:
            if isinstance(body, list):
                for chain in body:
                    if isinstance(chain, dict):
                        chain["routerAddress"] = router
            elif isinstance(body, dict) and "swap_router_address" in body:
                body["swap_router_address"] = router
                body["single_swap_router"] = router

        return self.tamper(edit, service="flash", method="GET", path="/*", times=times)

    def tamper_flash_router_output(
        self,
        *,
        recipient: str | None = None,
        token_out: str | None = None,
        min_amount_out: int | None = 0,
        times: int | None = 1,
    ) -> Fault:
        """Rewrite the quote's ``hook_data`` and ``swap_calldata`` (the sandbox router's
        format) to name another ``recipient`` or ``token_out`` and a ``min_amount_out``
        (0 by default): the router would pay someone else, or accept any price."""

        def edit(body: Any) -> None:
            hook, call = decode_sandbox_router(body["hook_data"], body["swap_calldata"])
            quote_id = bytes.fromhex(body["hook_data"][2:66])
            body["hook_data"], body["swap_calldata"] = encode_sandbox_router(
                quote_id=quote_id,
                recipient=recipient or str(hook.recipient),
                token_out=token_out or str(hook.token_out),
                amount_in=call.amount_in or 0,
                min_amount_out=(
                    hook.min_amount_out or 0 if min_amount_out is None else min_amount_out
                ),
            )

        return self.tamper(edit, service="flash", method="GET", path="/quote", times=times)

    def tamper_login_other_site(
        self, site: str = "evil.example", *, times: int | None = 1
    ) -> Fault:
        """Replace the login message with another site's plain-text login that names the
        caller's address ("Welcome to <site>! ... Wallet address: 0x..."): whoever gets
        the signature logs in there as the caller."""

        def other(honest: str) -> str:
            address = honest.split("\n")[1] if "\n" in honest else ""
            return (
                f"Welcome to {site}!\n\nClick to sign in and accept the {site} Terms of "
                f"Service.\n\nThis request will not trigger a blockchain transaction.\n\n"
                f"Wallet address:\n{address}\n\nNonce:\n4f1d2c3b"
            )

        return self.tamper_login_message(other, times=times)

    def tamper_flash_balances(self, balances: Mapping[int, int], *, times: int | None = 1) -> Fault:
        """Report these gateway balances (``{chain_id: smallest units}``) from ``GET
        /balance/{address}``, e.g. the same total spread thin over more chains, so that an
        order needs more burn intents (each with its own ``maxFee``)."""
        wanted = {int(chain): int(amount) for chain, amount in balances.items()}

        def edit(body: Any) -> None:
            for entry in body.get("balances", []):
                if isinstance(entry, dict) and entry.get("chainId") in wanted:
                    entry["balance"] = str(wanted[entry["chainId"]])
            body["totalBalance"] = str(sum(int(e["balance"]) for e in body.get("balances", [])))

        return self.tamper(edit, service="flash", method="GET", path="/balance/*", times=times)

    def remove(self, rule: Fault) -> None:
        """Stop ``rule`` from firing again."""
        rule.remaining = 0

    def clear(self) -> None:
        """Remove every rule."""
        self._rules.clear()

    def apply(self, service: Service, request: Request) -> Outcome:
        """Answer ``request`` through ``service`` with the matching rules applied."""
        delay = 0.0
        deciding: Fault | None = None
        for rule in self._rules:
            if not rule.matches(service.name, request):
                continue
            if rule.kind == "latency":
                rule.fire()
                delay += rule.seconds
            elif deciding is None:
                if rule.kind != "tamper":  # counted only when it changes an answer
                    rule.fire()
                deciding = rule
        if deciding is None:
            response = service.handle(request)
            return Outcome(response, True, delay + response.delay, fault=None)
        if deciding.kind == "refuse_connection":
            return Outcome(None, False, delay, drop="before", fault=deciding)
        if deciding.kind in ("rate_limit", "server_error"):
            return Outcome(service.error_response(deciding.error()), False, delay, fault=deciding)
        if deciding.kind == "tamper":
            honest = service.handle(request)
            response = deciding.tampered(honest)
            if response is honest:
                # An error or a body that is not JSON: left alone, the rule keeps its turn.
                return Outcome(honest, True, delay + honest.delay, fault=None)
            deciding.fire()
            return Outcome(response, True, delay + response.delay, fault=deciding)
        response = service.handle(request)
        return Outcome(response, True, delay + response.delay, drop="after", fault=deciding)

    def __repr__(self) -> str:
        return f"Faults({len(self.rules)} active rule(s))"
