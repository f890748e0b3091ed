"""Relay a transaction and wait for its execution hash.

Runs with no network and no key: a small stand-in for the relayer answers through
`httpx.MockTransport`. Point the client at the real relayer by dropping ``http_client``
and setting ``XSWAP_RELAYER_API_KEY``.
"""

from __future__ import annotations

import itertools
import json

import httpx

from xswap_sdk import RelayerClient, VirtualClock, errors

USDC_ON_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
TRANSFER_CALLDATA = (
    "0xa9059cbb"
    "0000000000000000000000005a3ca05337a87116a27a21b11cde16d85efb3586"
    "00000000000000000000000000000000000000000000000000000000000f4240"
)


def stand_in_relayer() -> httpx.MockTransport:
    """Answers like the relayer: accept, then PENDING twice, then EXECUTED."""
    statuses = itertools.chain(["NOT_PICKED_UP", "PENDING"], itertools.repeat("EXECUTED"))

    def handle(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/api/submit-tx":
            body = json.loads(request.content)
            assert body["callData"].startswith("0xa9059cbb")
            return httpx.Response(200, json={"success": True, "data": {"txId": "6650f1c2a3b4"}})
        status = next(statuses)
        record = {
            "id": request.url.params["id"],
            "status": status,
            "executionTxHash": "0x" + "ab" * 32 if status == "EXECUTED" else None,
            "costUSD": 0.0042,
        }
        return httpx.Response(200, json={"success": True, "data": record})

    return httpx.MockTransport(handle)


def main() -> None:
    relayer = RelayerClient(
        api_key="demo-key",
        base_url="https://relayer.invalid",
        http_client=httpx.Client(transport=stand_in_relayer()),
        clock=VirtualClock(),  # polling without real waiting
    )
    with relayer:
        tx_id = relayer.relay(chain_id=8453, to=USDC_ON_BASE, call_data=TRANSFER_CALLDATA)
        print(f"submitted: {tx_id}")
        try:
            record = relayer.wait_for_execution_hash(tx_id)
        except errors.RelayFailedError as exc:
            print(f"failed: {exc.error_message}")
            return
        except errors.WaitTimeoutError as exc:
            print(f"not executed yet ({exc}); check again later")
            return
        print(f"executed: {record.execution_tx_hash} (cost ${record.cost_usd})")


if __name__ == "__main__":
    main()
