"""Swap USDC from the gateway wallet into WETH on Base, step by step and in one call.

Runs with no network and no account: a small STAND-IN for the swap backend answers
through `httpx.MockTransport` (it checks the login signature and the signed order the
way the backend would). Drop ``http_client`` and ``clock`` and pass your own wallet to
talk to the real backend.

    python examples/flash_swap.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

try:
    import xswap_sdk  # noqa: F401
except ImportError:  # run from a checkout without installing the package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import httpx
from eth_account import Account

from xswap_sdk import FlashClient, VirtualClock, errors, from_units
from xswap_sdk.signing import (
    BurnIntent,
    recover_burn_intent_set_signer,
    recover_burn_intent_signer,
    recover_personal_sign,
)

# A public test key: never use it for funds.
TEST_KEY = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01789f8bd37"
WETH_ON_BASE = "0x4200000000000000000000000000000000000006"
GATEWAY_WALLET = "0x77777777Dcc4d5A8B6E418Fd04D8997ef11000eE"
GATEWAY_MINTER = "0x2222222d7164433c4C09B0b0D809a9b52C04C205"
SWAP_ROUTER = "0x" + "a7" * 20


# ------------------------------------------------------------------ the stand-in backend


def stand_in_backend(clock: VirtualClock) -> httpx.MockTransport:
    """A STAND-IN for the swap backend: chains, login, quotes, balances, swaps, history."""
    chains = [
        {
            "id": chain_id,
            "name": name,
            "domain": domain,
            "gatewayWallet": GATEWAY_WALLET,
            "gatewayMinter": GATEWAY_MINTER,
            "usdc": {"address": usdc, "decimals": 6, "symbol": "USDC", "version": "2"},
        }
        for chain_id, name, domain, usdc in (
            (8453, "Base", 6, "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913"),
            (42161, "Arbitrum", 3, "0xaf88d065e77c8cc2239327c5edb3a432268e5831"),
            (10, "OP", 2, "0x0b2c639c533813f4aa9d7837caf62653d097ff85"),
        )
    ]
    messages: dict[str, tuple[str, str]] = {}
    swaps: list[str] = []
    polls = {"count": 0}

    def handle(request: httpx.Request) -> httpx.Response:
        path = request.url.path
        body = json.loads(request.content) if request.content else {}
        if path == "/supported-chains":
            return httpx.Response(200, json=chains)
        if path == "/auth/message":
            text = f"Sign in to Flash as {body['userAddress']}"
            messages["m-1"] = (text, body["userAddress"])
            return httpx.Response(200, json={"message": text, "messageId": "m-1"})
        if path == "/auth/verify":
            text, address = messages.pop(body["messageId"])
            if recover_personal_sign(text, body["signature"]) != address:
                return httpx.Response(401, json={"message": "Invalid signature"})
            return httpx.Response(200, json={"token": "demo-jwt", "user_address": address})
        if path == "/quote":
            amount = request.url.params["inputAmount"]
            return httpx.Response(200, json=quote(amount, expires_at=int(clock.time()) + 30))
        if path.startswith("/balance/"):
            held = {42161: 6_500_000, 8453: 2_000_000, 10: 9_000_000}
            return httpx.Response(200, json=balances(path.rsplit("/", 1)[1], held))
        if request.headers.get("authorization") != "Bearer demo-jwt":
            return httpx.Response(401, json={"message": "Unauthorized"})
        if path == "/swap":
            check_signed_order(body)
            swaps.append("0x" + f"{len(swaps) + 1:064x}")
            return httpx.Response(200, json={"transactionHash": swaps[-1], "status": "pending"})
        if path == "/history":
            polls["count"] += 1
            status = "completed" if polls["count"] >= 2 else "pending"
            records = [
                {"transactionHash": h, "status": status, "amountUsdc": "10", "chainId": 8453}
                for h in reversed(swaps)
            ]
            return httpx.Response(
                200,
                json={"swaps": records, "pagination": {"current_page": 1, "has_next": False}},
            )
        return httpx.Response(404, json={"message": "not found"})

    return httpx.MockTransport(handle)


def quote(amount: str, *, expires_at: int) -> dict[str, Any]:
    return {
        "token_in": {"address": "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913", "amount": amount},
        "token_out": {"address": WETH_ON_BASE, "amount": "3012345678901234", "decimals": 18},
        "fees": {"total_fee": "2025000", "gateway_fee": "2010000", "execution_fee": "15000"},
        "hook_data": "0x",
        "swap_router_address": SWAP_ROUTER,
        "swap_calldata": "0x12345678",
        "expires_at": expires_at,
    }


def balances(address: str, held: dict[int, int]) -> dict[str, Any]:
    entries = [{"chainId": c, "balance": str(v), "depositor": address} for c, v in held.items()]
    return {"balances": entries, "totalBalance": str(sum(held.values()))}


def check_signed_order(body: dict[str, Any]) -> None:
    """What the backend and Circle check: the order recovers to its user."""
    order = body["signedOrder"]
    intents = [BurnIntent.model_validate(element["intent"]) for element in order]
    signature = order[0]["signature"]
    if len(intents) == 1:
        signer = recover_burn_intent_signer(intents[0], signature)
    else:
        signer = recover_burn_intent_set_signer(intents, signature)
    assert signer == body["userAddress"], "recovered signer does not match sourceSigner"


# ------------------------------------------------------------------ the SDK at work


def main() -> None:
    wallet = Account.from_key(TEST_KEY)
    clock = VirtualClock()  # the stand-in's quotes expire on this clock; waits cost nothing
    flash = FlashClient(
        signer=wallet,
        base_url="https://flash.invalid",
        http_client=httpx.Client(transport=stand_in_backend(clock)),
        clock=clock,
    )
    with flash:
        # Step by step: everything the one-call swap does, visible.
        chains = flash.get_supported_chains()
        quote = flash.get_quote(
            input_amount=10_000_000,  # 10 USDC
            output_token=WETH_ON_BASE,
            chain_id=8453,
            sender=wallet.address,
            slippage="0.5",
        )
        held = flash.get_balance(wallet.address)
        order = flash.build_order(quote, chains=chains, balances=held, user=wallet.address)
        print("order: fewest chains, largest usable balance first")
        for source in order.sources:
            print(
                f"  chain {source.chain_id}: {from_units(source.value, 6)} USDC "
                f"(+ max fee {from_units(source.max_fee, 6)}) of {from_units(source.balance, 6)}"
            )
        signed = flash.sign_order(order, wallet)
        print(f"signed as one {order.primary_type} by {signed.signer}")

        # In one call, waiting for the outcome (the client logs in by itself).
        try:
            submission = flash.swap(
                wallet,
                input_amount=10_000_000,
                output_token=WETH_ON_BASE,
                chain_id=8453,
                slippage="0.5",
                max_fee_cap=2_500_000,
                wait=True,
            )
        except errors.QuoteRejectedError as exc:
            print(f"quote refused before signing: {exc}")
            return
        except errors.InsufficientBalanceError as exc:
            print(f"deposit more USDC first: {exc}")
            return
        except errors.SwapFailedError as exc:
            print(f"swap failed: {exc}")
            return
        record = submission.record
        assert record is not None
        print(f"swap {submission.transaction_hash[:12]}... {record.status}")
        for past in flash.iter_history():
            print(f"  history: {past.transaction_hash[:12]}... {past.status}")


if __name__ == "__main__":
    main()
