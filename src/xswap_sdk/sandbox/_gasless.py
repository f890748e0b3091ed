"""Gasless swaps of the emulated routing service: a Permit2 payload to sign, the
signature checked on submission, then a relayed transaction whose state is the swap's.

The payload is real Permit2 typed data: domain ``{name: "Permit2", chainId,
verifyingContract: 0x000000000022D473030F116dDEE9F6B43aC78BA3}`` (no ``version``),
primary type ``PermitTransferFrom`` (``acquisitionMode`` 2) or
``PermitWitnessTransferFrom`` with a swap witness (3). On submission the signature is
recovered by eth-account (``._oracle``, not the SDK's signing code) and must be the
quote's sender.
The swap is then handed to the sandbox relayer, so it moves through the relayer's
states (and `RelayerService.fail_next` can fail it); the live service's spelling
``tachyonTxId`` carries the relayer's transaction id.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Final

from eth_hash.auto import keccak

from ..errors import InvalidInputError
from ._abi import abi_words
from ._catalog import CHAINS, PERMIT2, derived_address
from ._http import HTTPError
from ._oracle import recover_typed_data
from ._routes import Plan, RouteQuery, min_amount_out, plan_routes, rank
from ._world import World, iso
from .relayer import RelayerService

__all__ = ["RELAYER_ID_FIELD", "GaslessDesk"]

RELAYER_ID_FIELD: Final = "tachyonTxId"
"""How the live service names the relayer's transaction id (the spec: ``relayerTxId``)."""

FEE_RECIPIENT: Final = derived_address("xswap-sandbox gasless fee recipient")
_EXECUTE_SELECTOR = keccak(b"executeGasless(bytes32,address,uint256,uint256,uint256)")[:4]
_RELAYED_GAS = 250_000

_DOMAIN_TYPE = [
    {"name": "name", "type": "string"},
    {"name": "chainId", "type": "uint256"},
    {"name": "verifyingContract", "type": "address"},
]
_TOKEN_PERMISSIONS = [{"name": "token", "type": "address"}, {"name": "amount", "type": "uint256"}]
_PERMIT_FIELDS = [
    {"name": "permitted", "type": "TokenPermissions"},
    {"name": "spender", "type": "address"},
    {"name": "nonce", "type": "uint256"},
    {"name": "deadline", "type": "uint256"},
]
_WITNESS = [
    {"name": "quoteId", "type": "bytes32"},
    {"name": "receiver", "type": "address"},
    {"name": "toChainId", "type": "uint256"},
    {"name": "toToken", "type": "address"},
    {"name": "minAmountOut", "type": "uint256"},
]
_STATES: Final = {
    "NOT_PICKED_UP": "pending",
    "PENDING": "processing",
    "NEEDS_TO_BE_RETRIED": "processing",
    "EXECUTED": "completed",
    "FAILED": "failed",
}


@dataclass
class _Quote:
    id: str
    query: RouteQuery
    plan: Plan
    fee: int
    nonce: int
    deadline: int
    typed_data: dict[str, Any]
    used: bool = False


@dataclass(frozen=True, slots=True)
class _Swap:
    id: str
    quote: _Quote
    relayer_tx_id: str
    created_at: float


def _permit2(quote_id: bytes, query: RouteQuery, plan: Plan, nonce: int, deadline: int,
             witness: bool) -> dict[str, Any]:  # fmt: skip
    source = query.from_token
    message: dict[str, Any] = {
        "permitted": {"token": source.address, "amount": str(query.amount)},
        "spender": CHAINS[source.chain_id].routing_contract,
        "nonce": str(nonce),
        "deadline": str(deadline),
    }
    types: dict[str, Any] = {"EIP712Domain": _DOMAIN_TYPE, "TokenPermissions": _TOKEN_PERMISSIONS}
    if witness:
        message["witness"] = {
            "quoteId": "0x" + quote_id.hex(),
            "receiver": query.receiver,
            "toChainId": str(query.to_token.chain_id),
            "toToken": query.to_token.address,
            "minAmountOut": str(min_amount_out(plan, query)),
        }
        types["PermitWitnessTransferFrom"] = [
            *_PERMIT_FIELDS,
            {"name": "witness", "type": "SwapWitness"},
        ]
        types["SwapWitness"] = _WITNESS
    else:
        types["PermitTransferFrom"] = _PERMIT_FIELDS
    return {
        "domain": {"name": "Permit2", "chainId": source.chain_id, "verifyingContract": PERMIT2},
        "types": types,
        "primaryType": "PermitWitnessTransferFrom" if witness else "PermitTransferFrom",
        "message": message,
    }


def _aggregator(plan: Plan) -> str:
    """The DEX aggregator a route swaps through (its bridge when it only bridges)."""
    return next((p.name for p in plan.providers if p.type == "dex"), plan.providers[0].name)


class GaslessDesk:
    """The gasless quotes and swaps of one routing service."""

    def __init__(self, world: World, relayer: RelayerService) -> None:
        self._world = world
        self._relayer = relayer
        self._quotes: dict[str, _Quote] = {}
        self._swaps: dict[str, _Swap] = {}

    def _fee(self, query: RouteQuery) -> int:
        """What the relayed transaction's gas and the integrator fee cost, in input
        token units."""
        chain = CHAINS[query.from_token.chain_id]
        gas_usd = _RELAYED_GAS * chain.gas_price_wei / 1e18 * chain.native_usd
        source = query.from_token
        gas = int(gas_usd / source.price_usd * 10**source.decimals)
        return max(1, gas) + query.amount * query.fee_bps // 10_000

    def quote(
        self, query: RouteQuery, *, witness: bool, deadline_minutes: int
    ) -> list[dict[str, Any]]:
        """``GET /gasless/quote``: up to three ranked quotes, each with its payload."""
        if query.from_token.is_native:
            raise HTTPError(400, "gasless swaps need an ERC-20 input token (Permit2)")
        fee = self._fee(query)
        if fee >= query.amount:
            raise HTTPError(400, "amount is too small to cover the gasless fee")
        # The fee (gas and integrator) is taken first; the rest is routed.
        routed = replace(query, amount=query.amount - fee, fee_bps=0)
        deadline = int(self._world.now() + deadline_minutes * 60)
        answers = []
        for plan in rank(plan_routes(self._world, routed), routed)[:3]:
            quote_id = self._world.uuid()
            nonce = self._world.rng.getrandbits(248)
            typed = _permit2(keccak(quote_id.encode()), query, plan, nonce, deadline, witness)
            quote = _Quote(quote_id, query, plan, fee, nonce, deadline, typed)
            self._quotes[quote_id] = quote
            answers.append(self._quote_json(quote))
        if not answers:
            raise HTTPError(404, "no gasless route found for this pair")
        return answers

    def _quote_json(self, quote: _Quote) -> dict[str, Any]:
        query, plan = quote.query, quote.plan
        source = query.from_token
        return {
            "quoteId": quote.id,
            "eip712": quote.typed_data,
            "nonce": str(quote.nonce),
            "deadline": quote.deadline,
            "quote": {
                "fromChain": source.chain_id,
                "toChain": query.to_token.chain_id,
                "sender": query.sender,
                "receiver": query.receiver,
                "fromToken": source.address,
                "toToken": query.to_token.address,
                "amountIn": str(query.amount),
                "amountOut": str(plan.amount_out),
                "minAmountOut": str(min_amount_out(plan, query)),
                "aggregator": _aggregator(plan),
                "routeKind": plan.kind,
                "bridgeProviders": [p.name for p in plan.providers if p.type == "bridge"],
            },
            "fee": {
                "feeAmount": str(quote.fee),
                "feeUsd": round(quote.fee / 10**source.decimals * source.price_usd, 6),
                "feeRecipient": FEE_RECIPIENT,
            },
        }

    def submit(self, body: Any) -> dict[str, Any]:
        """``POST /gasless/submit-swap``: check the signature, relay the swap."""
        if not isinstance(body, dict) or not body.get("quoteId") or not body.get("signature"):
            raise HTTPError(400, "quoteId and signature are required")
        quote = self._quotes.get(str(body["quoteId"]))
        if quote is None:
            raise HTTPError(404, "unknown quoteId")
        if quote.used:
            raise HTTPError(409, "this quote was already submitted")
        if self._world.now() > quote.deadline:
            raise HTTPError(400, "the quote's deadline has passed; request a new quote")
        try:
            signature = body["signature"]
            if not isinstance(signature, str):
                raise InvalidInputError("signature", "must be a string")
            signer = recover_typed_data(quote.typed_data, signature)
        except (InvalidInputError, ValueError):
            raise HTTPError(400, "signature must be a 65-byte hex signature") from None
        if signer != quote.query.sender:
            raise HTTPError(400, "invalid signature: the permit was not signed by the sender")
        quote.used = True
        query = quote.query
        calldata = _EXECUTE_SELECTOR + abi_words(
            keccak(quote.id.encode()), query.sender, query.amount, quote.nonce, quote.deadline
        )
        tx_id = self._relayer.submit(
            {
                "to": CHAINS[query.from_token.chain_id].routing_contract,
                "callData": "0x" + calldata.hex(),
                "chainId": query.from_token.chain_id,
                "value": "0",
                "label": "gasless",
                "transactionType": "gasless",
            }
        )
        swap = _Swap(self._world.uuid(), quote, tx_id, self._world.now())
        self._swaps[swap.id] = swap
        return {
            "amountIn": str(query.amount),
            "amountOut": str(quote.plan.amount_out),
            "executionTxHash": None,
            "feeAmount": str(quote.fee),
            "fromToken": query.from_token.address,
            "toToken": query.to_token.address,
            "fromChain": query.from_token.chain_id,
            "toChain": query.to_token.chain_id,
            "status": "pending",
            "swapId": swap.id,
            RELAYER_ID_FIELD: tx_id,
            "routeKind": {
                "kind": quote.plan.kind,
                "providers": [p.name for p in quote.plan.providers],
            },
        }

    def status(self, swap_id: str) -> dict[str, Any]:
        """``GET /gasless/status``: the swap as its relayed transaction stands now."""
        swap = self._swaps.get(swap_id)
        if swap is None:
            raise HTTPError(404, f"gasless swap {swap_id} not found")
        now = self._world.now()
        record = self._relayer.record(swap.relayer_tx_id, now)
        quote, query = swap.quote, swap.quote.query
        executed = record["status"] == "EXECUTED"
        return {
            "aggregator": _aggregator(quote.plan),
            "amountIn": str(query.amount),
            "amountOut": str(quote.plan.amount_out),
            "createdAt": iso(swap.created_at),
            "updatedAt": iso(self._relayer.changed_at(swap.relayer_tx_id, now)),
            "executionTxHash": record["executionTxHash"] if executed else None,
            "feeAmount": str(quote.fee),
            "from": query.sender,
            "recipient": query.receiver,
            "fromChainId": query.from_token.chain_id,
            "toChainId": query.to_token.chain_id,
            "fromToken": query.from_token.address,
            "toToken": query.to_token.address,
            "routeKind": quote.plan.kind,
            "status": _STATES.get(record["status"], record["status"].lower()),
            "swapId": swap.id,
            RELAYER_ID_FIELD: swap.relayer_tx_id,
        }
