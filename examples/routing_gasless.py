"""A gasless USDC bridge from Base to Arbitrum in one call: quote, sign, submit, wait.

Runs with no network, no key and no funds: a small stand-in for the routing service
answers through `httpx.MockTransport` (the SDK's sandbox emulator will replace it), and a
throwaway account signs. To use the real service, drop ``http_client`` and ``clock``, set
``XSWAP_ROUTING_API_KEY``, and sign with your own account.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import httpx
from eth_account import Account

from xswap_sdk import RoutingClient, VirtualClock, errors
from xswap_sdk.signing import recover_typed_data

USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
USDC_ARBITRUM = "0xaf88d065e77c8cC2239327C5EDb3A432268e5831"
PERMIT2 = "0x000000000022D473030F116dDEE9F6B43aC78BA3"


# ---------------------------------------------------------------------------- stand-in
# NOT the SDK: a minimal imitation of the routing service, for this example only.


def stand_in_routing_service() -> httpx.MockTransport:
    """Answers like the routing service: one Permit2 quote, a submission that checks the
    signature, then a status that is pending twice and then executed."""
    quotes: dict[str, tuple[dict[str, Any], str]] = {}  # quote id -> (payload, sender)
    statuses = itertools.chain(["pending", "relaying"], itertools.repeat("executed"))

    def envelope(data: object, code: int = 0, message: str = "success") -> httpx.Response:
        return httpx.Response(200, json={"code": code, "message": message, "data": data})

    def handle(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/gasless/quote":
            query = request.url.params
            eip712 = {
                # As the live service sends it: no "version", chainId as a string.
                "domain": {
                    "name": "Permit2",
                    "chainId": query["fromChain"],
                    "verifyingContract": PERMIT2,
                },
                "types": {
                    "PermitTransferFrom": [
                        {"name": "permitted", "type": "TokenPermissions"},
                        {"name": "spender", "type": "address"},
                        {"name": "nonce", "type": "uint256"},
                        {"name": "deadline", "type": "uint256"},
                    ],
                    "TokenPermissions": [
                        {"name": "token", "type": "address"},
                        {"name": "amount", "type": "uint256"},
                    ],
                },
                "primaryType": "PermitTransferFrom",
                "message": {
                    "permitted": {"token": query["fromToken"], "amount": query["amount"]},
                    "spender": "0x1231DEB6f5749EF6cE6943a275A1D3E7486F4EaE",
                    "nonce": "7",
                    "deadline": "1735691400",
                },
            }
            quotes["gq-demo"] = (eip712, query["sender"])
            # One doc version sends a single object here, another an array.
            return envelope({"quoteId": "gq-demo", "eip712": eip712, "fee": {"feeAmount": "1000"}})
        if request.url.path == "/gasless/submit-swap":
            body = json.loads(request.content)
            payload, sender = quotes[body["quoteId"]]
            if recover_typed_data(payload, body["signature"]) != sender:
                return envelope(None, code=4001, message="signature does not match the sender")
            return envelope({"swapId": "gs-demo", "status": "submitted"})
        if request.url.path == "/gasless/status":
            status = next(statuses)
            executed = "0x" + "e7" * 32 if status == "executed" else None
            return envelope(
                {"swapId": request.url.params["id"], "status": status, "executionTxHash": executed}
            )
        return httpx.Response(404, text="not found")

    return httpx.MockTransport(handle)


# ---------------------------------------------------------------------------- the example


def main() -> None:
    signer = Account.create()  # a throwaway account: never fund it
    routing = RoutingClient(
        api_key="demo-key",
        base_url="https://routing.invalid",
        http_client=httpx.Client(transport=stand_in_routing_service()),
        clock=VirtualClock(),  # polling without real waiting
    )
    with routing:
        try:
            result = routing.gasless_swap(
                signer,
                from_chain=8453,
                to_chain=42161,
                from_token=USDC_BASE,
                to_token=USDC_ARBITRUM,
                amount=1_000_000,  # 1 USDC
                slippage=0.5,
                wait=True,
            )
        except errors.SwapFailedError as exc:
            print(f"swap failed: {exc}")
            return
        except errors.WaitTimeoutError as exc:
            print(f"not executed yet ({exc}); check get_gasless_status() later")
            return
    print(f"quote:    {result.quote.quote_id}")
    print(f"swap id:  {result.swap_id}")
    print(f"executed: {result.execution_tx_hash}")


if __name__ == "__main__":
    main()
