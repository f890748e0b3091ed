"""The checks ``POST /swap`` makes on a signed order, before any balance moves.

Each burn intent is read with the SDK's own `BurnIntent` model, its signature is
recovered by eth-account (``._oracle``, not the SDK's signing code: one intent signed
alone or as a set of one; several signed once as a set, the signature on the first
element), and every field is compared
with the chain configuration and the quote the order was built from. The messages
follow Circle Gateway's where it has one ("Invalid signature: recovered signer does not
match sourceSigner", "Insufficient max fee: expected at least X, got Y").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import Field, StrictInt

from ..errors import InvalidInputError
from ..signing import (
    MAX_INTENTS_PER_SET,
    BurnIntent,
    address_to_bytes32,
)
from ..signing.burn_intents import as_intent
from ..types import Address, ChainId, HexBytes, from_units
from ._catalog import CHAINS, GATEWAY_MINTER, GATEWAY_WALLET, Chain, Token, usdc
from ._http import HTTPError, checked
from ._oracle import recover_burn_intent, recover_burn_intent_set

__all__ = ["Debit", "Quote", "check_order"]

_BAD_SIGNATURE = "Invalid signature: recovered signer does not match sourceSigner"
_SLIPPAGE_BPS = Annotated[StrictInt, Field(ge=0, le=10_000)]


@dataclass
class Quote:
    """A quote as the swap backend remembers it, found again by its ``swap_calldata``."""

    id: str
    user: str
    recipient: str
    chain: Chain
    input_amount: int
    token_out: Token
    amount_out: int
    min_amount_out: int
    gateway_fee: int
    execution_fee: int
    hook_data: str
    calldata: str
    expires_at: int
    used: bool = False


@dataclass(frozen=True, slots=True)
class Debit:
    """What one burn intent takes from the user's gateway balance on its source chain."""

    chain: Chain
    value: int
    max_fee: int

    @property
    def fee(self) -> int:
        """The fee Gateway charges (its minimum on that chain, never above ``max_fee``)."""
        return self.chain.gateway_min_fee


def _domain_chain(domain: int) -> Chain | None:
    return next((c for c in CHAINS.values() if c.gateway_domain == domain), None)


def _usdc(amount: int) -> str:
    return str(from_units(amount, 6))


def _intents(order: Any) -> tuple[list[BurnIntent], str]:
    if not isinstance(order, list) or not order:
        raise HTTPError(400, "signedOrder must be a non-empty array")
    if len(order) > MAX_INTENTS_PER_SET:
        raise HTTPError(400, f"signedOrder holds at most {MAX_INTENTS_PER_SET} burn intents")
    intents = []
    for index, element in enumerate(order):
        where = f"signedOrder[{index}]"
        if not isinstance(element, dict) or "intent" not in element:
            raise HTTPError(400, f"{where} must be an object with an intent")
        if index > 0 and element.get("signature") is not None:
            raise HTTPError(400, f"{where}: only the first element carries the signature")
        try:
            intents.append(as_intent(element["intent"], f"{where}.intent"))
        except InvalidInputError as exc:
            raise HTTPError(400, f"Invalid burn intent: {exc}") from None
    signature = order[0].get("signature")
    if not isinstance(signature, str):
        raise HTTPError(400, "signedOrder[0].signature is required")
    return intents, signature


def _signers(intents: list[BurnIntent], signature: str) -> set[str]:
    """Who may have signed: one intent may be signed alone or as a set of one."""
    try:
        wire = [intent.to_wire() for intent in intents]
        found = {recover_burn_intent_set(wire, signature)}
        if len(intents) == 1:
            found.add(recover_burn_intent(wire[0], signature))
    except ValueError:
        raise HTTPError(400, "signedOrder[0].signature is not a valid signature") from None
    return {address_to_bytes32(address) for address in found}


def _check_fields(index: int, intent: BurnIntent, quote: Quote, user: str) -> Debit:
    where = f"signedOrder[{index}].intent"
    spec = intent.spec
    source = _domain_chain(spec.source_domain)
    if source is None:
        raise HTTPError(400, f"{where}: sourceDomain {spec.source_domain} is not supported")
    destination = quote.chain
    router = address_to_bytes32(destination.router)
    expected = {
        "version": (1, "the transfer spec version"),
        "destinationDomain": (destination.gateway_domain, f"{destination.display_name}'s domain"),
        "sourceContract": (address_to_bytes32(GATEWAY_WALLET), "the GatewayWallet"),
        "destinationContract": (address_to_bytes32(GATEWAY_MINTER), "the GatewayMinter"),
        "sourceToken": (address_to_bytes32(usdc(source.id).address), "USDC on the source"),
        "destinationToken": (
            address_to_bytes32(usdc(destination.id).address),
            "USDC on the destination",
        ),
        "sourceDepositor": (address_to_bytes32(user), "the user"),
        "sourceSigner": (address_to_bytes32(user), "the user"),
        "destinationRecipient": (router, "the quote's swap router"),
        "destinationCaller": (router, "the quote's swap router"),
        "hookData": (quote.hook_data, "the quote's hook_data"),
    }
    wire = spec.to_wire()
    for name, (value, meaning) in expected.items():
        if wire[name] != value:
            raise HTTPError(400, f"{where}.spec.{name} must be {value} ({meaning})")
    if spec.value <= 0:
        raise HTTPError(400, f"{where}.spec.value must be positive")
    if intent.max_fee < source.gateway_min_fee:
        raise HTTPError(
            400,
            f"Insufficient max fee: expected at least {_usdc(source.gateway_min_fee)}, "
            f"got {_usdc(intent.max_fee)}",
        )
    return Debit(source, spec.value, intent.max_fee)


def _check_quote(body: dict[str, Any], quote: Quote | None, user: str, now: float) -> Quote:
    if quote is None:
        raise HTTPError(400, "unknown quote: swapCalldata matches no quote from GET /quote")
    if quote.used:
        raise HTTPError(409, "this quote was already used for a swap; request a new one")
    if now > quote.expires_at:
        raise HTTPError(400, "the quote has expired; request a new one")
    if quote.user != user:
        raise HTTPError(400, "the quote was made for another wallet")
    if checked("chainId", ChainId, body.get("chainId")) != quote.chain.id:
        raise HTTPError(400, "chainId does not match the quote's destination chain")
    if checked("swapRouterAddress", Address, body.get("swapRouterAddress")) != quote.chain.router:
        raise HTTPError(400, "swapRouterAddress does not match the quote's swap_router_address")
    return quote


def check_order(
    body: Any, *, user: str, quotes: Mapping[str, Quote], now: float
) -> tuple[Quote, list[Debit]]:
    """Check a ``POST /swap`` body sent by the logged-in ``user``.

    Returns:
        The quote it executes and what each intent takes from which chain.

    Raises:
        HTTPError: 400 (or 403 for another wallet's order, 409 for a used quote)
            saying what is wrong.
    """
    if not isinstance(body, dict):
        raise HTTPError(400, "the request body must be a JSON object")
    for name in ("signedOrder", "userAddress", "chainId", "swapRouterAddress", "swapCalldata"):
        if body.get(name) is None:
            raise HTTPError(400, f"{name} is required")
    if checked("userAddress", Address, body["userAddress"]) != user:
        raise HTTPError(403, "userAddress is not the logged-in wallet")
    if body.get("slippageBps") is not None:
        checked("slippageBps", _SLIPPAGE_BPS, body["slippageBps"])
    calldata = checked("swapCalldata", HexBytes, body["swapCalldata"])
    quote = _check_quote(body, quotes.get(calldata), user, now)
    intents, signature = _intents(body["signedOrder"])
    signers = _signers(intents, signature)
    if any(intent.spec.source_signer not in signers for intent in intents):
        raise HTTPError(400, _BAD_SIGNATURE)
    debits = [_check_fields(i, intent, quote, user) for i, intent in enumerate(intents)]
    total = sum(debit.value for debit in debits)
    if total != quote.input_amount:
        raise HTTPError(
            400,
            f"the burn intents move {_usdc(total)} USDC but the quote is for "
            f"{_usdc(quote.input_amount)} USDC",
        )
    return quote, debits
