"""Bridge USDC from Base to Arbitrum with the routing service: quote the routes, build
the transaction for the best one, then do the same bridge gasless in one call (sign a
Permit2 payload; the relayer pays the gas) and wait for it to execute.

Runs against the SDK's sandbox, an in-process emulator of the routing service and the
relayer: no network, no key, no funds, and virtual time, so the wait costs nothing. To
use the real service, build ``RoutingClient(api_key=...)`` (or set
``XSWAP_ROUTING_API_KEY``) instead of asking the sandbox for one, and sign with your own
account.

    python examples/routing_gasless.py
"""

from __future__ import annotations

from xswap_sdk import format_amount
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.testing import TEST_SIGNER

USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
USDC_ARBITRUM = "0xaf88d065e77c8cC2239327C5EDb3A432268e5831"
AMOUNT = 100_000_000  # 100 USDC, in smallest units


def main() -> None:
    with Sandbox() as sb:
        routing = sb.routing_client()
        wallet = TEST_SIGNER.address

        print(f"== routes for {format_amount(AMOUNT)}, Base -> Arbitrum")
        routes = routing.get_quote(
            from_chain=8453,
            to_chain=42161,
            from_token=USDC_BASE,
            to_token=USDC_ARBITRUM,
            amount=AMOUNT,
            sender=wallet,
            slippage="0.5",
        )
        for route in routes:
            providers = " + ".join(p.name or "?" for p in route.providers or [])
            seconds = (route.estimated_time_ms or 0) / 1000
            print(f"  {providers:16} {format_amount(route.amount_out)} in {seconds:.0f} s")
        tx = routing.build_path(routes[0], wallet)  # the top-ranked route (most value)
        print(f"built: send it to {tx.to} on chain {tx.chain}")

        print("\n== the same bridge, gasless")
        result = routing.gasless_swap(
            TEST_SIGNER,  # signs the Permit2 payload of the quote
            from_chain=8453,
            to_chain=42161,
            from_token=USDC_BASE,
            to_token=USDC_ARBITRUM,
            amount=AMOUNT,
            wait=True,
        )
        status = result.record
        assert status is not None  # wait=True: the final status record
        print(f"swap {result.swap_id}: {result.status}")
        fee, out = format_amount(status.fee_amount or 0), format_amount(status.amount_out or 0)
        print(f"fee {fee}, out {out}")
        print(f"executed: {result.execution_tx_hash}")


if __name__ == "__main__":
    main()
