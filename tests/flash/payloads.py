"""Payloads in the swap backend's wire form, for tests that answer with them through
pytest-httpx (the tests that need a backend with state use the SDK's sandbox: the
``backend`` fixture), and `recover_order_signer`, which checks a signed order as the
sandbox does, with eth_account, from the JSON that was sent.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from xswap_sdk._router_formats import SANDBOX_ROUTER_FORMAT, encode_sandbox_router
from xswap_sdk.registry import DEFAULT_REGISTRY, GatewayChain, Registry, SwapRouter
from xswap_sdk.sandbox._oracle import recover_burn_intent, recover_burn_intent_set
from xswap_sdk.types import to_checksum

from ..support import ADDRESS

START = 1_735_689_600  # VirtualClock's default start (2025-01-01T00:00:00Z)

GATEWAY_WALLET = "0x77777777Dcc4d5A8B6E418Fd04D8997ef11000eE"
GATEWAY_MINTER = "0x2222222d7164433c4C09B0b0D809a9b52C04C205"
ROUTER = to_checksum("0x" + "5e" * 20)
SWAP_ROUTER = to_checksum("0x" + "a7" * 20)
WETH_BASE = "0x4200000000000000000000000000000000000006"
# Lowercase, as the live service sends USDC addresses.
USDC = {
    1: "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48",
    10: "0x0b2c639c533813f4aa9d7837caf62653d097ff85",
    137: "0x3c499c542cef5e3811e1192ce70d8cc03d5c3359",
    8453: "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913",
    42161: "0xaf88d065e77c8cc2239327c5edb3a432268e5831",
}
DOMAINS = {1: 0, 10: 2, 137: 7, 8453: 6, 42161: 3}
NAMES = {1: "Ethereum", 10: "OP", 137: "Polygon", 8453: "Base", 42161: "Arbitrum"}
QUOTED_OUT = 3_012_345_678_901_234
QUOTE_ID = bytes.fromhex("1d" * 32)


def router_data(
    amount: int = 10_000_000,
    *,
    recipient: str = ADDRESS,
    token_out: str = WETH_BASE,
    min_amount_out: int = QUOTED_OUT,
) -> tuple[str, str]:
    """``(hook_data, swap_calldata)`` in the sandbox router's format, which the payloads'
    router speaks too (pinned with it by `pinned_routers`)."""
    return encode_sandbox_router(
        quote_id=QUOTE_ID,
        recipient=recipient,
        token_out=token_out,
        amount_in=amount,
        min_amount_out=min_amount_out,
    )


HOOK_DATA, SWAP_CALLDATA = router_data()
FEE = 2_010_000


def pinned_routers(registry: Registry = DEFAULT_REGISTRY) -> Registry:
    """``registry`` with the payloads' router pinned, with its format, on each of its
    chains, as a caller pins the router they vetted."""
    return registry.with_routers(
        *(
            SwapRouter(c.chain_id, SWAP_ROUTER, output_format=SANDBOX_ROUTER_FORMAT)
            for c in registry
        )
    )


def siwe(address: str = ADDRESS, *, host: str = "flash.test", nonce: str = "n0nce1234") -> str:
    """A Sign-In with Ethereum message for ``host`` (the payloads') and ``address``."""
    return (
        f"{host} wants you to sign in with your Ethereum account:\n{address}\n\n"
        "Sign in to Flash.\n\n"
        f"URI: https://{host}\nVersion: 1\nChain ID: 1\nNonce: {nonce}\n"
        "Issued At: 2025-01-01T00:00:00Z"
    )


AUTH_PATHS = ("/swap", "/history", "/referrals")


def auth_message(text: str = siwe(), message_id: str = "m-1", **changes: Any) -> dict[str, Any]:
    """A sign-in message as ``POST /auth/message`` sends it (naming the wallet, or the
    SDK would not sign it)."""
    return {"message": text, "expiry": START + 300, "messageId": message_id, **changes}


def verification(token: str, address: str = ADDRESS, **changes: Any) -> dict[str, Any]:
    """A login answer as ``POST /auth/verify`` sends it (``user_address`` lowercase)."""
    return {
        "token": token,
        "user_address": address.lower(),
        "referralCode": "REF123",
        "is_new_user": False,
        **changes,
    }


def chain(chain_id: int, **changes: Any) -> dict[str, Any]:
    """A chain as ``GET /supported-chains`` sends it (camelCase)."""
    body: dict[str, Any] = {
        "id": chain_id,
        "name": NAMES.get(chain_id, f"chain-{chain_id}").lower(),
        "displayName": NAMES.get(chain_id, f"Chain {chain_id}"),
        "logoUrl": f"https://logos.test/{chain_id}.svg",
        "explorerUrl": f"https://explorer.test/{chain_id}",
        "domain": DOMAINS.get(chain_id, chain_id % 1000),
        "routerAddress": SWAP_ROUTER,  # the router its quotes name
        "gatewayWallet": GATEWAY_WALLET,
        "gatewayMinter": GATEWAY_MINTER,
        "nativeToken": {
            "address": "0x" + "00" * 20,
            "name": "Ether",
            "symbol": "ETH",
            "decimals": 18,
            "logoUrl": "https://logos.test/eth.svg",
        },
        "usdc": {
            "address": USDC.get(chain_id, "0x" + f"{chain_id:040x}"),
            "name": "USD Coin",
            "symbol": "USDC",
            "decimals": 6,
            "logoUrl": "https://logos.test/usdc.svg",
            "version": "2",
        },
    }
    body.update(changes)
    return body


def pin(*listed: dict[str, Any]) -> list[GatewayChain]:
    """Registry entries for chains made up by a test, as they are listed: the tests
    that use chains Circle does not have pin them, as a caller adding a chain would."""
    return [
        GatewayChain(
            chain_id=body["id"],
            name=body["displayName"],
            domain=body["domain"],
            usdc=body["usdc"]["address"],
            gateway_wallet=body["gatewayWallet"],
            gateway_minter=body["gatewayMinter"],
            testnet=False,
        )
        for body in listed
    ]


def chains(*ids: int) -> list[dict[str, Any]]:
    """Several chains (default: Ethereum, OP, Polygon, Base, Arbitrum)."""
    return [chain(chain_id) for chain_id in (ids or (1, 10, 137, 8453, 42161))]


def quote(
    amount: int = 10_000_000,
    *,
    gateway_fee: int | None = FEE,
    expires_at: int | None = START + 60,
    hook_data: str | None = "router",
    recipient: str = ADDRESS,
    **changes: Any,
) -> dict[str, Any]:
    """A quote as ``GET /quote`` sends it (snake_case); its hook data and calldata are
    the router's for ``amount`` and ``recipient`` unless given."""
    own_hook, own_calldata = router_data(amount, recipient=recipient)
    hook_data = own_hook if hook_data == "router" else hook_data
    body: dict[str, Any] = {
        "token_in": {
            "address": USDC[8453],
            "amount": str(amount),
            "decimals": 6,
            "logo_url": "https://logos.test/usdc.svg",
            "price_usd": "0.9998",
            "usd_amount": "9.998",
        },
        "token_out": {
            "address": WETH_BASE,
            "amount": str(QUOTED_OUT),
            "decimals": 18,
            "logo_url": "https://logos.test/weth.svg",
            "price_usd": "3318.41",
            "usd_amount": "9.9961",
        },
        "fees": {
            "total_fee": str((gateway_fee or 0) + 15_000),
            "gateway_fee": None if gateway_fee is None else str(gateway_fee),
            "execution_fee": "15000",
        },
        "single_swap_router": ROUTER,
        "hook_data": hook_data,
        "swap_router_address": SWAP_ROUTER.lower(),
        "swap_calldata": own_calldata,
        "expires_at": expires_at,
    }
    body.update(changes)
    return body


def balance(held: Mapping[int, int], address: str = ADDRESS) -> dict[str, Any]:
    """A gateway balance as ``GET /balance/{address}`` sends it."""
    return {
        "balances": [
            {
                "domain": DOMAINS.get(chain_id, chain_id % 1000),
                "depositor": address.lower(),
                "balance": str(amount),
                "chainId": chain_id,
                "chainName": NAMES.get(chain_id, str(chain_id)),
            }
            for chain_id, amount in held.items()
        ],
        "totalBalance": str(sum(held.values())),
    }


def token(address: str = WETH_BASE, **changes: Any) -> dict[str, Any]:
    """A token in the snake_case shape of the token list."""
    body: dict[str, Any] = {
        "address": address.lower(),
        "symbol": "WETH",
        "decimals": 18,
        "logo_url": "https://logos.test/weth.svg",
        "name": "Wrapped Ether",
        "chain_id": 8453,
        "in_service_token_list": True,
    }
    body.update(changes)
    return body


def swap_record(transaction_hash: str, status: str = "pending", **changes: Any) -> dict[str, Any]:
    """A swap record as ``GET /history`` lists it (camelCase)."""
    body: dict[str, Any] = {
        "id": "6f1c1a8e-8b1e-4a53-9a59-6f4f8c1d2e3f",
        "sourceDomain": 3,
        "destinationDomain": 6,
        "sourceToken": USDC[42161],
        "destinationToken": WETH_BASE.lower(),
        "tokenIn": token(USDC[8453], symbol="USDC", decimals=6, name="USD Coin"),
        "tokenOut": token(),
        "amountUsdc": "10.000000",
        "amountUsdcRaw": "10000000",
        "chainId": 8453,
        "minAmountOut": "0.002997",
        "serviceFee": "0.015",
        "serviceFeeRaw": "15000",
        "transactionHash": transaction_hash,
        "status": status,
        "txId": "gw-" + transaction_hash[2:10],
        "createdAt": "2025-01-01T00:00:10Z",
        "updatedAt": "2025-01-01T00:00:30Z",
    }
    body.update(changes)
    return body


def leaderboard_entry(rank: int, address: str = ADDRESS, **changes: Any) -> dict[str, Any]:
    """A leaderboard row as ``GET /leaderboard`` sends it (camelCase, but for
    ``combined_volume``)."""
    return {
        "rank": rank,
        "walletAddress": address.lower(),
        "totalVolume": "1500.25",
        "totalVolumeRaw": "1500250000",
        "swapCount": 12,
        "referralCount": 2,
        "referralVolume": "100",
        "referralVolumeRaw": "100000000",
        "combined_volume": "1600.25",
        "referralCode": f"TOP{rank}",
        "lastSwapAt": "2025-01-01T00:00:00Z",
        **changes,
    }


def pagination(page: int, pages: int, size: int = 20, total: int | None = None) -> dict[str, Any]:
    """A pagination object (snake_case)."""
    return {
        "current_page": page,
        "page_size": size,
        "total_entries": pages * size if total is None else total,
        "total_pages": pages,
        "has_next": page < pages,
        "has_previous": page > 1,
    }


def history(records: Iterable[dict[str, Any]], page: int = 1, pages: int = 1) -> dict[str, Any]:
    """A page of ``GET /history``."""
    return {
        "swaps": list(records),
        "pagination": pagination(page, pages),
        "summary": {
            "totalSwaps": 3,
            "totalVolume": "30.5",
            "totalVolumeRaw": "30500000",
            "totalFees": "0.045",
            "totalFeesRaw": "45000",
        },
    }


# ------------------------------------------------------------------ signed order checks


def recover_order_signer(signed_order: list[dict[str, Any]]) -> str:
    """Recover who signed a ``signedOrder`` array with the sandbox's oracle (eth_account,
    not the SDK's signing code): primary type BurnIntent for one element, BurnIntentSet
    for several."""
    intents = [element["intent"] for element in signed_order]
    signature = signed_order[0]["signature"]
    if len(intents) == 1:
        return recover_burn_intent(intents[0], signature)
    return recover_burn_intent_set(intents, signature)
