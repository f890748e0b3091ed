"""Relay a transaction and wait for its execution hash; then two ways it can go wrong:
the relayer reports the transaction FAILED, or a submission ends in an HTTP 503 that
leaves its outcome unknown.

Runs against the SDK's sandbox, an in-process emulator of the relayer: no network, no
key, and virtual time, so the polling below costs nothing. To use the real relayer,
build ``RelayerClient(api_key=...)`` (or set ``XSWAP_RELAYER_API_KEY``) instead of
asking the sandbox for a client.

    python examples/relayer_basics.py
"""

from __future__ import annotations

from xswap_sdk import errors
from xswap_sdk.sandbox import Sandbox

USDC_ON_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
# ERC-20 transfer(address,uint256) of 1 USDC: any calldata will do.
TRANSFER_CALLDATA = (
    "0xa9059cbb"
    "0000000000000000000000005a3ca05337a87116a27a21b11cde16d85efb3586"
    "00000000000000000000000000000000000000000000000000000000000f4240"
)


def main() -> None:
    with Sandbox() as sb:
        relayer = sb.relayer_client()

        print("== relay, then wait for the execution hash")
        tx_id = relayer.relay(chain_id=8453, to=USDC_ON_BASE, call_data=TRANSFER_CALLDATA)
        print(f"submitted: {tx_id}")
        record = relayer.wait_for_execution_hash(tx_id)
        print(f"{record.status}: {record.execution_tx_hash} (cost ${record.cost_usd})")

        print("\n== the relayer accepts the transaction, then it fails")
        sb.relayer.fail_next("execution reverted")
        tx_id = relayer.relay(chain_id=8453, to=USDC_ON_BASE, call_data=TRANSFER_CALLDATA)
        try:
            relayer.wait_for_execution_hash(tx_id)
        except errors.RelayFailedError as exc:
            print(f"{tx_id} failed: {exc.error_message}")

        print("\n== a submission answered with HTTP 503: did the relayer act on it?")
        sb.faults.server_error(503, service="relayer", path="/api/submit-tx")
        seen = len(sb.requests)
        try:
            relayer.relay(chain_id=8453, to=USDC_ON_BASE, call_data=TRANSFER_CALLDATA)
        except errors.APIStatusError as exc:
            # Resending could execute it twice, so the SDK does not: it says it cannot know.
            print(f"HTTP {exc.status_code}, outcome_unknown={exc.outcome_unknown}")
        sent = [r for r in sb.requests[seen:] if r.path == "/api/submit-tx"]
        print(f"submissions sent: {len(sent)} (never retried)")


if __name__ == "__main__":
    main()
