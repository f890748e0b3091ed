"""The routing service's operations as plain data: validate arguments, build
`Operation`s and flows. No I/O; shared by `RoutingClient` and `AsyncRoutingClient`.

Wire decisions, per operation:

- Queries use the spec's names exactly (``fromChain``, ``feeBps``, the capitalised
  ``Integrator`` and ``Referrer``); booleans go out as ``true`` / ``false``; optional
  arguments left as ``None`` are absent from the query.
- Provider lists (``includeProvider`` / ``excludeProvider``) are sent as one
  comma-separated parameter, one of the two forms the spec allows: a single value
  survives proxies and frameworks that keep only the first of a repeated parameter.
  Provider names may therefore not contain commas.
- Percentages (``slippage``, ``allowedPriceImpact``) go out as plain decimal numbers
  (``0.1``, never ``0.1000000000000000055511151231257827`` or ``1E+1``).

Retry decisions, per operation:

- Every ``GET`` reads, and is retried per the shared policy.
- ``POST /build-path`` and ``POST /build-path-by-id`` only compute transaction data: no
  money moves until the caller sends the transaction they return, so sending them twice
  is harmless and they are retried like reads.
- ``POST /gasless/submit-swap`` executes a swap with the user's funds: it is not
  idempotent, so it is retried only when the request never left this machine; after
  that, a timeout or 5xx raises with ``outcome_unknown=True``.

Credentials: ``GET /supported-chains`` and ``GET /gasless/status`` require the
``api-key`` header (a missing key is reported before any I/O); every other operation
sends it when the client has one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import IntEnum
from typing import TYPE_CHECKING, Any, Final, TypeVar

from pydantic import TypeAdapter, ValidationError

from .._clock import Clock
from .._flow import Flow
from .._models import (
    RequestModel,
    adapter_for,
    check_argument,
    invalid_input,
    refuse_unawaited,
    validate_request,
)
from .._operation import Operation, parser
from .._polling import check_wait_arguments, poll
from .._slippage import check_slippage
from ..errors import InvalidInputError, NotFoundError, SwapFailedError
from ..types import Address, ChainId
from ._chain_models import SupportedChain

if TYPE_CHECKING:
    from ._gasless_models import (
        GaslessQuote,
        GaslessQuoteRequest,
        GaslessStatus,
        GaslessSubmission,
    )
    from ._quote_models import (
        BuildBestPathRequest,
        BuildPathRequest,
        BuiltPath,
        QuoteRequest,
        Route,
        Transaction,
    )
    from ._status_models import TransactionStatus
    from ._token_models import Token, TokenSearchResult

__all__ = ["DEFAULT_POLL_INTERVAL", "DEFAULT_WAIT_TIMEOUT", "RoutingPaths"]

RecordT = TypeVar("RecordT")

DEFAULT_WAIT_TIMEOUT: Final = 900.0
"""How long the ``wait_for_*`` methods poll by default, in seconds (15 minutes, since
bridges take minutes)."""

DEFAULT_POLL_INTERVAL: Final = 5.0
"""Seconds between two status requests while waiting (at most 180 over 15 minutes)."""

_SIGNATURE = re.compile(r"0x[0-9a-fA-F]{130}")


@dataclass(frozen=True, slots=True)
class RoutingPaths:
    """The routing service's HTTP paths. Override any of them with
    ``RoutingClient(paths=RoutingPaths(quote="/v2/quote"))``."""

    quote: str = "/quote"
    """Ranked routes (`RoutingClient.get_quote`)."""
    build_best_path: str = "/build-best-path"
    """The best route's transaction (`RoutingClient.build_best_path`)."""
    build_path: str = "/build-path"
    """A chosen route's transaction (`RoutingClient.build_path`)."""
    build_path_by_id: str = "/build-path-by-id"
    """A quoted route's transaction by its id (`RoutingClient.build_path_by_id`)."""
    status: str = "/status"
    """A route execution's status (`RoutingClient.get_status`)."""
    supported_chains: str = "/supported-chains"
    """The chain list (`RoutingClient.get_supported_chains`)."""
    search_token: str = "/search-token"
    """Token search (`RoutingClient.search_token`)."""
    tokens: str = "/tokens"
    """The token list (`RoutingClient.get_tokens`)."""
    gasless_quote: str = "/gasless/quote"
    """A gasless Permit2 quote (`RoutingClient.get_gasless_quote`)."""
    gasless_submit: str = "/gasless/submit-swap"
    """Submit a signed gasless swap (`RoutingClient.submit_gasless_swap`)."""
    gasless_status: str = "/gasless/status"
    """A gasless swap's status (`RoutingClient.get_gasless_status`)."""


# ---------------------------------------------------------------------------- query strings


def _plain_number(value: Decimal) -> str:
    if value == 0:
        return "0"  # also for Decimal("-0")
    text = format(value, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def _query_value(value: Any) -> str:
    # bool first: it is an int subclass, and the spec writes booleans as true/false.
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, IntEnum):
        return str(int(value))
    if isinstance(value, Decimal):
        return _plain_number(value)
    if isinstance(value, list):
        return ",".join(value)
    return str(value)


def query_params(request: RequestModel) -> list[tuple[str, str]]:
    """A validated request as query pairs, in field order, with unset fields left out."""
    wire = request.model_dump(by_alias=True, exclude_none=True)
    return [(name, _query_value(value)) for name, value in wire.items()]


def _check_text(argument: str, value: object, what: str) -> str:
    refuse_unawaited(argument, value)
    if not isinstance(value, str) or not value.strip():
        raise InvalidInputError(argument, f"must be a non-empty string ({what})")
    return value


# ---------------------------------------------------------------------------- parsing


def _one_or_many(data: Any) -> list[dict[str, Any]]:
    # Some doc versions send one object where others send an array. The adapter is
    # built at the first such read (adapter_for caches it), not when the client loads.
    dicts: TypeAdapter[list[dict[str, Any]]] = adapter_for(list[dict[str, Any]])
    return dicts.validate_python([data] if isinstance(data, Mapping) else data)


def parse_routes(data: Any) -> list[Route]:
    """``/quote`` data: routes in ranking order, each keeping its exact wire form."""
    from ._quote_models import Route  # lazy: the quote models, at the first quote

    return [Route.from_wire(item) for item in _one_or_many(data)]


def parse_gasless_quotes(data: Any) -> list[GaslessQuote]:
    """``/gasless/quote`` data: one object or an array, always returned as a list."""
    from ._gasless_models import GaslessQuote  # lazy: the gasless models, at the first one

    return [GaslessQuote.model_validate(item) for item in _one_or_many(data)]


def parse_tokens(data: Any) -> list[Token]:
    """``/tokens`` data, whose shape is not documented: a list of tokens, an object
    holding one under ``tokens``, or lists keyed by chain id (flattened, the key
    filling in a missing ``chainId``)."""
    from ._token_models import Token  # lazy: the token models, at the first token call

    tokens: TypeAdapter[list[Token]] = adapter_for(list[Token])
    if isinstance(data, Mapping):
        if "tokens" in data:
            return tokens.validate_python(data["tokens"])
        flat: list[Any] = []
        for key, items in data.items():
            for item in items if isinstance(items, list) else [items]:
                if isinstance(item, Mapping) and "chainId" not in item:
                    item = {**item, "chainId": key}
                flat.append(item)
        return tokens.validate_python(flat)
    return tokens.validate_python(data)


# ---------------------------------------------------------------------------- quotes, paths


def quote_request(*, max_slippage: object = None, **fields: Any) -> QuoteRequest:
    """Validate the arguments of `RoutingClient.get_quote`.

    ``slippage`` above ``max_slippage`` (default 5 %) is refused first
    (`xswap_sdk._slippage.check_slippage`).
    """
    from ._quote_models import QuoteRequest  # lazy: the quote models, at the first quote

    check_slippage(fields.get("slippage"), max_slippage=max_slippage)
    return validate_request(QuoteRequest, **fields)


def build_best_path_request(*, max_slippage: object = None, **fields: Any) -> BuildBestPathRequest:
    """Validate the arguments of `RoutingClient.build_best_path`.

    ``slippage`` above ``max_slippage`` (default 5 %) is refused first
    (`xswap_sdk._slippage.check_slippage`).
    """
    from ._quote_models import BuildBestPathRequest  # lazy: the quote models, when used

    check_slippage(fields.get("slippage"), max_slippage=max_slippage)
    return validate_request(BuildBestPathRequest, **fields)


def get_quote(paths: RoutingPaths, request: QuoteRequest) -> Operation[list[Route]]:
    """``GET /quote``; each route keeps ``request`` (`Route.request`)."""

    def parse(data: Any) -> list[Route]:
        routes = parse_routes(data)
        for route in routes:
            route._request = request
        return routes

    return Operation("GET", paths.quote, parse, params=query_params(request))


def build_best_path(paths: RoutingPaths, request: BuildBestPathRequest) -> Operation[BuiltPath]:
    """``GET /build-best-path``."""
    from ._quote_models import BuiltPath  # lazy: the quote models, when used

    return Operation("GET", paths.build_best_path, parser(BuiltPath), params=query_params(request))


def _route_wire(route: object) -> tuple[Route, dict[str, Any]]:
    from ._quote_models import Route  # lazy: the quote models, when used

    if isinstance(route, Route):
        return route, route.to_wire()
    if isinstance(route, Mapping):
        try:
            parsed = Route.from_wire(route)
        except ValidationError as exc:
            raise invalid_input(exc, argument="route") from None
        return parsed, parsed.to_wire()
    refuse_unawaited("route", route)
    raise InvalidInputError("route", "must be a Route from get_quote() or its wire dict")


def build_path(paths: RoutingPaths, route: object, sender: object) -> Operation[Transaction]:
    """``POST /build-path`` with ``{"route": <route as quoted>, "sender": ...}`` (as the
    live service's examples send it) and the spec's fields derived from the route:
    ``fromChain``, ``toChain``, ``fromToken``, ``toToken``, ``Amount`` and ``Sender``."""
    from ._quote_models import Transaction  # lazy: the quote models, when used

    parsed, wire = _route_wire(route)
    checked_sender = check_argument("sender", Address, sender)
    source, target = parsed.from_token, parsed.to_token
    derived = {
        "fromChain": source.chain,
        "toChain": target.chain,
        "fromToken": source.address,
        "toToken": target.address,
        "Amount": str(parsed.amount),
    }
    body = {"route": wire, "sender": checked_sender, **derived, "Sender": checked_sender}
    return Operation("POST", paths.build_path, parser(Transaction), json=body)


def build_path_request(**fields: Any) -> BuildPathRequest:
    """Validate the arguments of `RoutingClient.build_path_flat`."""
    from ._quote_models import BuildPathRequest  # lazy: the quote models, when used

    return validate_request(BuildPathRequest, **fields)


def build_path_flat(paths: RoutingPaths, request: BuildPathRequest) -> Operation[Transaction]:
    """``POST /build-path`` with exactly the spec's flat body: ``fromChain``,
    ``toChain``, ``fromToken``, ``toToken``, ``Amount`` and ``Sender``."""
    from ._quote_models import Transaction  # lazy: the quote models, when used

    return Operation("POST", paths.build_path, parser(Transaction), json=request.to_wire())


def build_path_by_id(
    paths: RoutingPaths, quote_id: object, sender: object | None
) -> Operation[Transaction]:
    """``POST /build-path-by-id`` with ``{"quoteId": ...}``, plus ``sender`` and
    ``Sender`` when one is given (the request shape is not documented)."""
    from ._quote_models import Transaction  # lazy: the quote models, when used

    body: dict[str, Any] = {"quoteId": _check_text("quote_id", quote_id, "a route's quote_id")}
    if sender is not None:
        checked = check_argument("sender", Address, sender)
        body["sender"] = checked
        body["Sender"] = checked
    return Operation("POST", paths.build_path_by_id, parser(Transaction), json=body)


# ---------------------------------------------------------------------------- status


_STATUS_SHAPES = (
    "pass tx_hash and from_chain (the spec's shape) or provider_key and tx_ref (the "
    "second shape), not both"
)


def get_status(
    paths: RoutingPaths,
    tx_hash: object | None,
    from_chain: object | None,
    user_address: object | None,
    *,
    provider_key: object | None = None,
    tx_ref: object | None = None,
) -> Operation[TransactionStatus]:
    """``GET /status`` in either documented request shape:
    ``?txHash=...&fromChain=...[&userAddress=...]`` or ``?providerKey=...&txRef=...``.

    Raises:
        InvalidInputError: arguments of both shapes, neither shape, or half of one
            (before any I/O).
    """
    from ._model_types import TxHashOrReference  # lazy: loaded with the status model
    from ._status_models import TransactionStatus  # lazy: the status model, when used

    first = {"tx_hash": tx_hash, "from_chain": from_chain, "user_address": user_address}
    second = {"provider_key": provider_key, "tx_ref": tx_ref}
    given_first = [name for name, value in first.items() if value is not None]
    given_second = [name for name, value in second.items() if value is not None]
    if given_first and given_second:
        raise InvalidInputError(
            given_second[0], f"cannot be combined with {given_first[0]}: " + _STATUS_SHAPES
        )
    if given_second:
        for name in ("provider_key", "tx_ref"):
            if second[name] is None:
                raise InvalidInputError(name, "is required in the second shape: " + _STATUS_SHAPES)
        params = [
            ("providerKey", _check_text("provider_key", provider_key, "the provider's key")),
            ("txRef", check_argument("tx_ref", TxHashOrReference, tx_ref)),
        ]
        return Operation("GET", paths.status, parser(TransactionStatus), params=params)
    for name in ("tx_hash", "from_chain"):
        if first[name] is None:
            raise InvalidInputError(name, "is required: " + _STATUS_SHAPES)
    params = [
        ("txHash", check_argument("tx_hash", TxHashOrReference, tx_hash)),
        ("fromChain", str(check_argument("from_chain", ChainId, from_chain))),
    ]
    if user_address is not None:
        params.append(("userAddress", check_argument("user_address", Address, user_address)))
    return Operation("GET", paths.status, parser(TransactionStatus), params=params)


# ---------------------------------------------------------------------------- chains, tokens


def get_supported_chains(paths: RoutingPaths) -> Operation[list[SupportedChain]]:
    """``GET /supported-chains`` (needs the API key)."""
    return Operation("GET", paths.supported_chains, parser(list[SupportedChain]), auth="required")


def _chain_params(chain_id: object | None) -> list[tuple[str, str]]:
    if chain_id is None:
        return []
    return [("chainId", str(check_argument("chain_id", ChainId, chain_id)))]


def search_token(
    paths: RoutingPaths, query: object, chain_id: object | None
) -> Operation[list[TokenSearchResult]]:
    """``GET /search-token?query=...[&chainId=...]``."""
    params = [("query", _check_text("query", query, "a symbol, name or address"))]
    params += _chain_params(chain_id)
    from ._token_models import TokenSearchResult  # lazy: the token models, when used

    return Operation("GET", paths.search_token, parser(list[TokenSearchResult]), params=params)


def get_tokens(paths: RoutingPaths, chain_id: object | None) -> Operation[list[Token]]:
    """``GET /tokens[?chainId=...]`` (parameters not documented; ``chainId`` as in
    ``/search-token``)."""
    return Operation("GET", paths.tokens, parse_tokens, params=_chain_params(chain_id))


# ---------------------------------------------------------------------------- gasless


def gasless_quote_request(*, max_slippage: object = None, **fields: Any) -> GaslessQuoteRequest:
    """Validate the arguments of `RoutingClient.get_gasless_quote`.

    ``slippage`` above ``max_slippage`` (default 5 %) is refused first
    (`xswap_sdk._slippage.check_slippage`).
    """
    from ._gasless_models import GaslessQuoteRequest  # lazy: the gasless models, when used

    check_slippage(fields.get("slippage"), max_slippage=max_slippage)
    return validate_request(GaslessQuoteRequest, **fields)


def get_gasless_quote(
    paths: RoutingPaths, request: GaslessQuoteRequest
) -> Operation[list[GaslessQuote]]:
    """``GET /gasless/quote``."""
    return Operation("GET", paths.gasless_quote, parse_gasless_quotes, params=query_params(request))


def check_signature(signature: object) -> str:
    """Validate a 65-byte ``0x`` hex signature (never echoed in the error)."""
    if not isinstance(signature, str) or _SIGNATURE.fullmatch(signature) is None:
        raise InvalidInputError("signature", "must be a 65-byte signature (0x + 130 hex digits)")
    return signature


def submit_gasless_swap(
    paths: RoutingPaths, quote_id: object, signature: object
) -> Operation[GaslessSubmission]:
    """``POST /gasless/submit-swap`` with ``{quoteId, signature}``: moves money, so never
    retried once sent; the signature is kept out of error messages."""
    from ._gasless_models import GaslessSubmission  # lazy: the gasless models, when used

    checked_id = _check_text("quote_id", quote_id, "the gasless quote's quote_id")
    checked_signature = check_signature(signature)
    return Operation(
        "POST",
        paths.gasless_submit,
        parser(GaslessSubmission),
        json={"quoteId": checked_id, "signature": checked_signature},
        idempotent=False,
        secrets=(checked_signature, checked_signature[2:]),
        # Its Permit2 nonce lets the signature move the tokens once, however often sent.
        single_use=True,
        identify=lambda result: (result.swap_id,),
    )


def get_gasless_status(paths: RoutingPaths, swap_id: object) -> Operation[GaslessStatus]:
    """``GET /gasless/status?id=...`` (needs the API key)."""
    from ._gasless_models import GaslessStatus  # lazy: the gasless models, when used

    checked = _check_text("swap_id", swap_id, "the swap_id from submit_gasless_swap")
    return Operation(
        "GET",
        paths.gasless_status,
        parser(GaslessStatus),
        params=[("id", checked)],
        auth="required",
    )


# ---------------------------------------------------------------------------- waiting


def check_wait(
    wait_timeout: float, poll_interval: float, is_done: object
) -> Callable[[Any], bool] | None:
    """Validate the waiting arguments before any I/O; return the caller's predicate."""
    check_wait_arguments(
        wait_timeout, poll_interval, timeout_name="wait_timeout", interval_name="poll_interval"
    )
    if is_done is not None and not callable(is_done):
        raise InvalidInputError("is_done", "must be a function of the status record, or None")
    return is_done


def _executed(record: GaslessStatus) -> bool:
    return bool(record.execution_tx_hash)


def _landed(record: TransactionStatus) -> bool:
    return bool(record.destination_tx_hash_any)


def _wait(
    operation: Operation[RecordT],
    *,
    what: str,
    failed: Callable[[RecordT], bool],
    status_of: Callable[[RecordT], str | None],
    is_done: Callable[[RecordT], bool],
    wait_timeout: float,
    poll_interval: float,
    clock: Clock,
    check_again: str,
) -> Flow[RecordT]:
    def check(record: RecordT) -> bool:
        # Failure first: a caller's predicate never turns a failed swap into a success.
        if failed(record):
            raise SwapFailedError(f"{what} failed (status {status_of(record)!r})", record=record)
        return bool(is_done(record))

    def timeout_message(last: RecordT | None) -> str:
        seen = f"last status {status_of(last)!r}" if last is not None else "no record yet"
        return (
            f"timed out after {wait_timeout:g} s waiting for {what} ({seen}). "
            f"It may still complete: check {check_again} before trying again."
        )

    return poll(
        lambda: operation,
        check,
        timeout=wait_timeout,
        interval=poll_interval,
        clock=clock,
        timeout_message=timeout_message,
        # A swap that was just submitted may not be indexed yet.
        not_yet_visible=(NotFoundError,),
    )


def wait_for_status(
    paths: RoutingPaths,
    tx_hash: object | None,
    from_chain: object | None,
    user_address: object | None,
    *,
    wait_timeout: float,
    poll_interval: float,
    is_done: Callable[[TransactionStatus], bool] | None,
    clock: Clock,
    provider_key: object | None = None,
    tx_ref: object | None = None,
) -> Flow[TransactionStatus]:
    """Poll ``GET /status`` (either request shape) until the destination hash is known
    (or ``is_done``)."""
    operation = get_status(
        paths, tx_hash, from_chain, user_address, provider_key=provider_key, tx_ref=tx_ref
    )
    predicate = check_wait(wait_timeout, poll_interval, is_done)
    params = dict(operation.params or ())
    if "txRef" in params:
        what = f"transaction {params['txRef']} of provider {params['providerKey']}"
    else:
        what = f"transaction {params['txHash']} from chain {params['fromChain']}"
    return _wait(
        operation,
        what=what,
        failed=lambda record: record.is_failed,
        status_of=lambda record: record.current_status,
        is_done=predicate or _landed,
        wait_timeout=wait_timeout,
        poll_interval=poll_interval,
        clock=clock,
        check_again="get_status()",
    )


def wait_for_gasless_status(
    paths: RoutingPaths,
    swap_id: object,
    *,
    wait_timeout: float,
    poll_interval: float,
    is_done: Callable[[GaslessStatus], bool] | None,
    clock: Clock,
) -> Flow[GaslessStatus]:
    """Poll ``GET /gasless/status`` until ``executionTxHash`` is present (or ``is_done``)."""
    operation = get_gasless_status(paths, swap_id)
    predicate = check_wait(wait_timeout, poll_interval, is_done)
    return _wait(
        operation,
        what=f"gasless swap {swap_id}",
        failed=lambda record: record.is_failed,
        status_of=lambda record: record.status,
        is_done=predicate or _executed,
        wait_timeout=wait_timeout,
        poll_interval=poll_interval,
        clock=clock,
        check_again="get_gasless_status()",
    )


def check_routing_contracts(routing_contracts: object) -> dict[int, str]:
    """Validate a client's pinned routing contracts: ``{chain_id: address}``.

    Raises:
        InvalidInputError: not a mapping of chain ids to addresses.
    """
    if routing_contracts is None:
        return {}
    if not isinstance(routing_contracts, Mapping):
        raise InvalidInputError("routing_contracts", "must be a mapping {chain_id: address}")
    return {
        check_argument("routing_contracts (chain id)", ChainId, chain_id): check_argument(
            f"routing_contracts[{chain_id}]", Address, address
        )
        for chain_id, address in routing_contracts.items()
    }
