"""The gasless quote's Permit2 payload, checked field by field against what was asked.

A gasless swap signs ``eip712`` from ``GET /gasless/quote``: a Permit2 signature transfer
that lets a spender pull the caller's tokens. Signed as given, a hostile service could
make the caller sign away any token, any amount, to anyone, forever. So the SDK builds
the message it expects from the caller's own arguments and the routing contract of the
source chain, and compares the service's payload with it: every key, every type
definition, every value. Anything else raises `UnsafePayloadError` and nothing is
signed.

What is expected (Uniswap's Permit2 and its permit2-sdk define the shapes):

- domain: exactly ``{name: "Permit2", chainId: from_chain, verifyingContract: PERMIT2}``
  (no ``version``; a ``chainId`` sent as a string is read as the number it names);
- primary type ``PermitTransferFrom`` (``acquisitionMode`` 2) or
  ``PermitWitnessTransferFrom`` (3) with permit2-sdk's exact type definitions, and no
  other type (``EIP712Domain``, when present, must list those three domain fields);
- ``permitted``: the caller's ``from_token`` and exactly ``amount``;
- ``spender``: the routing contract of ``from_chain``, pinned (never the service's
  choice unless the caller trusts it);
- ``nonce``: any uint256 (Permit2 nonces are unordered; the service picks one), equal to
  the quote's own ``nonce`` when it gives one;
- ``deadline``: in the future and no later than now plus the requested window
  (``deadline_minutes``, else 30 minutes) and one minute of clock skew, equal to the
  quote's own ``deadline`` when it gives one;
- with a witness, ``SwapWitness(bytes32 quoteId, address receiver, uint256 toChainId,
  address toToken, uint256 minAmountOut)``: ``quoteId`` is keccak256 of the quote's id,
  the receiver, destination chain and token are the caller's, and ``minAmountOut`` is at
  least the caller's ``min_amount_out`` and at least the quoted output less
  ``slippage`` (with one part in 10**12 for floating-point rounding), at most the
  quoted output, and
  the quote's own ``minAmountOut`` when it states one.

The quoted output (``quote.amountOut``) comes from the same service: a service that
lies about it consistently can lower the minimum the slippage check allows. Pass
``min_amount_out`` to hold the witness to a number of your own.

The quote's summary (``quote.quote``) is compared with the request in every mode
(`check_quote_summary`): receiver, sender, tokens, chains, input amount, and an output
and minimum output no lower than the caller's floor.

What stays trusted: with ``PermitTransferFrom`` (no witness, only when the caller asks
for ``acquisition_mode=2`` and gives no receiver, minimum or slippage) the signature does
not name the output, the receiver or the destination: the routing contract and the
transaction the relayer sends decide them. The default, ``acquisition_mode=3``, signs
them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal
from typing import Any, Final

from .._keccak import keccak
from ..errors import QuoteRejectedError, UnsafePayloadError
from ..registry import PERMIT2
from ..types import MAX_UINT256, _same_address
from .models import AcquisitionMode, GaslessQuote, GaslessQuoteRequest

__all__ = [
    "DEFAULT_PERMIT_WINDOW",
    "PERMIT_CLOCK_SKEW",
    "PERMIT_EXPIRED",
    "SWAP_WITNESS_TYPE",
    "check_permit2_payload",
    "check_quote_summary",
    "expected_types",
    "witness_quote_id",
]

DEFAULT_PERMIT_WINDOW: Final = 30 * 60
"""Seconds ahead a Permit2 deadline may be when the caller gives no ``deadline_minutes``:
long enough for a relayed swap, short enough that a leaked signature soon expires."""

PERMIT_CLOCK_SKEW: Final = 60
"""Seconds the service's clock may run ahead of the caller's."""

PERMIT_EXPIRED: Final = "quote.eip712.message.deadline"
"""The argument of the `QuoteRejectedError` of a quote whose permit deadline passed:
the one refusal a gasless swap's ``requote=`` asks a new quote for."""

_TOKEN_PERMISSIONS: Final = (("token", "address"), ("amount", "uint256"))
_PERMIT_FIELDS: Final = (
    ("permitted", "TokenPermissions"),
    ("spender", "address"),
    ("nonce", "uint256"),
    ("deadline", "uint256"),
)
SWAP_WITNESS_TYPE: Final = (
    ("quoteId", "bytes32"),
    ("receiver", "address"),
    ("toChainId", "uint256"),
    ("toToken", "address"),
    ("minAmountOut", "uint256"),
)
"""The witness a gasless swap's Permit2 signature carries (``SwapWitness``)."""

_DOMAIN_FIELDS: Final = (
    ("name", "string"),
    ("chainId", "uint256"),
    ("verifyingContract", "address"),
)
_ADDRESS = re.compile(r"0x[0-9a-fA-F]{40}")
_DECIMAL = re.compile(r"[0-9]+")
_HEX = re.compile(r"0x[0-9a-fA-F]+")
_FLOAT_ROUNDING = 10**12
_NOT_GIVEN = object()


def _fields(pairs: tuple[tuple[str, str], ...]) -> list[dict[str, str]]:
    return [{"name": name, "type": kind} for name, kind in pairs]


def expected_types(primary_type: str) -> dict[str, list[dict[str, str]]]:
    """The exact ``types`` of a Permit2 payload of ``primary_type`` (without
    ``EIP712Domain``), as Uniswap's permit2-sdk writes them.

    Raises:
        KeyError: not ``PermitTransferFrom`` or ``PermitWitnessTransferFrom``.
    """
    if primary_type == "PermitTransferFrom":
        return {
            "PermitTransferFrom": _fields(_PERMIT_FIELDS),
            "TokenPermissions": _fields(_TOKEN_PERMISSIONS),
        }
    if primary_type == "PermitWitnessTransferFrom":
        return {
            "PermitWitnessTransferFrom": _fields((*_PERMIT_FIELDS, ("witness", "SwapWitness"))),
            "TokenPermissions": _fields(_TOKEN_PERMISSIONS),
            "SwapWitness": _fields(SWAP_WITNESS_TYPE),
        }
    raise KeyError(primary_type)


def witness_quote_id(quote_id: str) -> str:
    """The witness's ``quoteId``: keccak256 of the quote's id (UTF-8), ``0x`` hex."""
    return "0x" + keccak(quote_id.encode("utf-8")).hex()


def _uint(field: str, value: object) -> int:
    """A uint256 sent as an int, a decimal string or a 0x hex string."""
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and _DECIMAL.fullmatch(value):
        number = int(value)
    elif isinstance(value, str) and _HEX.fullmatch(value):
        number = int(value, 16)
    if number is None or not 0 <= number <= MAX_UINT256:
        raise UnsafePayloadError(field, expected="a uint256", received=value)
    return number


def _address(field: str, value: object, expected: str) -> None:
    if not isinstance(value, str) or not _ADDRESS.fullmatch(value):
        raise UnsafePayloadError(field, expected=expected, received=value)
    if not _same_address(value, expected):
        raise UnsafePayloadError(field, expected=expected, received=value)


def _keys(field: str, value: object, expected: tuple[str, ...]) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise UnsafePayloadError(
            field, expected=f"an object with {', '.join(expected)}", received=value
        )
    if set(value) != set(expected):
        raise UnsafePayloadError(
            f"{field} keys", expected=sorted(expected), received=sorted(map(str, value))
        )
    return value


def _equal_uint(field: str, value: object, expected: int) -> None:
    if _uint(field, value) != expected:
        raise UnsafePayloadError(field, expected=expected, received=value)


def _check_types(types: object, primary_type: str) -> None:
    expected = expected_types(primary_type)
    if not isinstance(types, Mapping):
        raise UnsafePayloadError("eip712.types", expected="an object", received=types)
    given = dict(types)
    domain_type = given.pop("EIP712Domain", _NOT_GIVEN)
    if domain_type is not _NOT_GIVEN and domain_type != _fields(_DOMAIN_FIELDS):
        raise UnsafePayloadError(
            "eip712.types.EIP712Domain", expected=_fields(_DOMAIN_FIELDS), received=domain_type
        )
    if set(given) != set(expected):
        raise UnsafePayloadError(
            "eip712.types", expected=sorted(expected), received=sorted(map(str, given))
        )
    for name, fields in expected.items():
        if given[name] != fields:
            raise UnsafePayloadError(f"eip712.types.{name}", expected=fields, received=given[name])


def _check_domain(domain: object, from_chain: int) -> None:
    checked = _keys("eip712.domain", domain, ("name", "chainId", "verifyingContract"))
    if checked["name"] != "Permit2":
        raise UnsafePayloadError("eip712.domain.name", expected="Permit2", received=checked["name"])
    _equal_uint("eip712.domain.chainId", checked["chainId"], from_chain)
    _address("eip712.domain.verifyingContract", checked["verifyingContract"], PERMIT2)


def _least_out(quote: GaslessQuote, slippage: Decimal | None, min_amount_out: int | None) -> int:
    """The least ``minAmountOut`` the witness may name."""
    quoted = quote.quote.amount_out if quote.quote is not None else None
    if quoted is None:
        if min_amount_out is None:
            raise UnsafePayloadError(
                "quote.amountOut",
                expected="the quoted output, to check the witness's minAmountOut",
                received=None,
                hint="Or pass min_amount_out yourself.",
            )
        return min_amount_out
    keep = Decimal(100) - (slippage or Decimal(0))
    # Services compute the minimum in floating point (a JavaScript number, a Python
    # float): its rounding, at most a few parts in 10**16, is allowed for, and no more.
    rounding = quoted // _FLOAT_ROUNDING + 1
    from_slippage = max(0, int(Decimal(quoted) * keep / 100) - rounding)
    return max(from_slippage, min_amount_out or 0)


def _check_witness(
    witness: object,
    *,
    quote: GaslessQuote,
    request: GaslessQuoteRequest,
    min_amount_out: int | None,
) -> None:
    field = "eip712.message.witness"
    checked = _keys(field, witness, tuple(name for name, _ in SWAP_WITNESS_TYPE))
    quote_id = witness_quote_id(quote.quote_id)
    given_id = checked["quoteId"]
    if not isinstance(given_id, str) or given_id.lower() != quote_id:
        raise UnsafePayloadError(f"{field}.quoteId", expected=quote_id, received=given_id)
    receiver = request.receiver or request.sender
    _address(f"{field}.receiver", checked["receiver"], receiver)
    _equal_uint(f"{field}.toChainId", checked["toChainId"], request.to_chain)
    _address(f"{field}.toToken", checked["toToken"], request.to_token)
    least = _least_out(quote, request.slippage, min_amount_out)
    given_out = _uint(f"{field}.minAmountOut", checked["minAmountOut"])
    if given_out < least or given_out == 0:
        raise UnsafePayloadError(
            f"{field}.minAmountOut",
            expected=f"at least {max(least, 1)} (the quoted output less the slippage asked)",
            received=checked["minAmountOut"],
        )
    summary = quote.quote
    stated = summary.min_amount_out if summary is not None else None
    if stated is not None and stated != given_out:
        raise UnsafePayloadError(
            f"{field}.minAmountOut",
            expected=f"the quote's own minAmountOut {stated}",
            received=checked["minAmountOut"],
        )
    quoted = summary.amount_out if summary is not None else None
    if quoted is not None and given_out > quoted:
        raise UnsafePayloadError(
            f"{field}.minAmountOut",
            expected=f"at most the quoted output {quoted}",
            received=checked["minAmountOut"],
        )


def _summary_token(value: object) -> object:
    # The sandbox states a token as its address; the live service as {address, amount}.
    if isinstance(value, Mapping):
        return value.get("address")
    return value


def _summary_address(field: str, value: object, expected: str, *, required: bool) -> None:
    if value is None:
        if required:
            raise UnsafePayloadError(
                field,
                expected=f"{expected}, stated: a permit without a witness binds nothing else",
                received=None,
            )
        return
    _address(field, value, expected)


def check_quote_summary(
    quote: GaslessQuote, *, request: GaslessQuoteRequest, min_amount_out: int | None = None
) -> None:
    """Refuse a gasless quote whose summary (``quote``) says another swap than the one
    asked: another receiver, sender, output token, chain or input amount, or an output
    (or minimum output) below the caller's ``min_amount_out``, or a stated minimum below
    the quoted output less ``slippage``.

    Run in every mode. With a witness the signature binds the receiver, destination and
    minimum itself; without one (``PermitTransferFrom``) the summary is the only place
    they are stated, so the receiver, output token and destination chain must be there.

    Raises:
        UnsafePayloadError: a stated term differs from the request.
    """
    summary = quote.quote
    field = "quote.quote"
    bare = request.acquisition_mode == AcquisitionMode.PERMIT2
    receiver = request.receiver or request.sender
    _summary_address(f"{field}.receiver", summary.receiver, receiver, required=bare)
    _summary_address(f"{field}.sender", summary.sender, request.sender, required=False)
    to_token = _summary_token(summary.to_token)
    _summary_address(f"{field}.toToken", to_token, request.to_token, required=bare)
    from_token = _summary_token(summary.from_token)
    _summary_address(f"{field}.fromToken", from_token, request.from_token, required=False)
    for name, stated, asked in (
        ("toChain", summary.to_chain, request.to_chain),
        ("fromChain", summary.from_chain, request.from_chain),
        ("amountIn", summary.amount_in, request.amount),
    ):
        if stated is None and name == "toChain" and bare:
            raise UnsafePayloadError(f"{field}.{name}", expected=asked, received=None)
        if stated is not None and stated != asked:
            raise UnsafePayloadError(f"{field}.{name}", expected=asked, received=stated)
    quoted, least = summary.amount_out, summary.min_amount_out
    if min_amount_out is not None:
        for name, stated in (("amountOut", quoted), ("minAmountOut", least)):
            if name == "amountOut" and stated is None:
                raise UnsafePayloadError(
                    f"{field}.amountOut",
                    expected=f"at least your min_amount_out {min_amount_out}",
                    received=None,
                )
            if stated is not None and stated < min_amount_out:
                raise UnsafePayloadError(
                    f"{field}.{name}",
                    expected=f"at least your min_amount_out {min_amount_out}",
                    received=stated,
                )
    if quoted is not None and least is not None:
        floor = _least_out(quote, request.slippage, None)
        if least < floor or least > quoted:
            raise UnsafePayloadError(
                f"{field}.minAmountOut",
                expected=f"from {floor} to {quoted} (the quoted output less the slippage asked)",
                received=least,
            )


def check_permit2_payload(
    quote: GaslessQuote,
    *,
    request: GaslessQuoteRequest,
    spender: str,
    now: float,
    min_amount_out: int | None = None,
) -> None:
    """Refuse a gasless quote whose ``eip712`` payload is not exactly the Permit2
    message the caller's arguments call for (see the module docstring for every rule).

    Args:
        quote: the quote to sign.
        request: what the caller asked for (``from_chain``, ``from_token``, ``amount``,
            ``sender``, ``receiver``, ``to_chain``, ``to_token``, ``slippage``,
            ``acquisition_mode``, ``deadline_minutes``).
        spender: the routing contract of ``request.from_chain``: pinned by the caller
            or the registry (the service's ``/supported-chains`` only when the caller
            trusts it).
        now: the time in Unix seconds, by the caller's clock.
        min_amount_out: the least output the caller accepts, if given.

    Raises:
        UnsafePayloadError: a key, a type or a value that is not the expected one.
        QuoteRejectedError: the permit's deadline has already passed.
    """
    check_quote_summary(quote, request=request, min_amount_out=min_amount_out)
    payload = _keys("eip712", quote.eip712, ("domain", "types", "primaryType", "message"))
    primary = payload["primaryType"]
    wanted: tuple[str, ...] = ("PermitTransferFrom", "PermitWitnessTransferFrom")
    if request.acquisition_mode == AcquisitionMode.PERMIT2:
        wanted = ("PermitTransferFrom",)
    elif request.acquisition_mode == AcquisitionMode.PERMIT2_WITNESS:
        wanted = ("PermitWitnessTransferFrom",)
    if primary not in wanted:
        raise UnsafePayloadError(
            "eip712.primaryType", expected=" or ".join(wanted), received=primary
        )
    _check_domain(payload["domain"], request.from_chain)
    _check_types(payload["types"], primary)
    witness = primary == "PermitWitnessTransferFrom"
    names = ("permitted", "spender", "nonce", "deadline", *(("witness",) if witness else ()))
    message = _keys("eip712.message", payload["message"], names)
    permitted = _keys("eip712.message.permitted", message["permitted"], ("token", "amount"))
    _address("eip712.message.permitted.token", permitted["token"], request.from_token)
    _equal_uint("eip712.message.permitted.amount", permitted["amount"], request.amount)
    _address("eip712.message.spender", message["spender"], spender)
    nonce = _uint("eip712.message.nonce", message["nonce"])
    if quote.nonce is not None and _uint("quote.nonce", quote.nonce) != nonce:
        raise UnsafePayloadError(
            "eip712.message.nonce", expected=f"the quote's nonce {quote.nonce}", received=nonce
        )
    deadline = _uint("eip712.message.deadline", message["deadline"])
    if quote.deadline is not None and quote.deadline != deadline:
        raise UnsafePayloadError(
            "eip712.message.deadline",
            expected=f"the quote's deadline {quote.deadline}",
            received=deadline,
        )
    window = (
        request.deadline_minutes * 60
        if request.deadline_minutes is not None
        else DEFAULT_PERMIT_WINDOW
    )
    latest = int(now) + window + PERMIT_CLOCK_SKEW
    if deadline > latest:
        raise UnsafePayloadError(
            "eip712.message.deadline",
            expected=f"at most {latest} (now plus {window // 60} minutes and the clock skew)",
            received=deadline,
            hint="Pass deadline_minutes= to allow a longer-lived permit.",
        )
    if deadline <= now:
        raise QuoteRejectedError(
            PERMIT_EXPIRED,
            f"the permit's deadline passed {now - deadline:.0f} s ago; ask for a new quote",
            quote=quote,
        )
    if witness:
        _check_witness(
            message["witness"], quote=quote, request=request, min_amount_out=min_amount_out
        )
