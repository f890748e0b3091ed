"""What reading a body safely costs: `decode_body` (the nesting check, then json.loads)
next to a bare ``json.loads``, on answers the services really send and on hostile ones.

- a relayer status record, a routing ``/quote`` with three routes, a history page of
  100 swaps: the checks should cost a small fraction of the parse;
- 8 MiB bodies (the default size cap) built to be as slow as possible to check:
  the most any answer can cost before it is refused or parsed.

Run it with ``python benchmarks/body_decoding.py``.
"""

from __future__ import annotations

import contextlib
import json
import timeit
from typing import Any

from xswap_sdk._body import BoundedBody, decode_body
from xswap_sdk.errors import XSwapError

RECORD = {
    "success": True,
    "data": {
        "id": "65f1a2b3c4d5e6f708192a3b",
        "status": "EXECUTED",
        "chainId": 8453,
        "to": "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913",
        "callData": "0x" + "ab" * 68,
        "executionTxHash": "0x" + "cd" * 32,
        "costUSD": 0.0123,
        "timestamp": "2025-06-01T12:00:00.000Z",
    },
}
TOKEN = {"address": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", "chain": 8453, "decimals": 6}
ROUTE = {
    "quoteId": "q-7f1c2e",
    "amount": "1000000",
    "amountOut": "998000",
    "fromToken": TOKEN,
    "toToken": {**TOKEN, "chain": 42161},
    "fees": {"routeFee": "2000", "providerFees": [{"name": "cctp", "amount": "0"}]},
    "gasFee": {"gasLimit": "210000", "gasToken": {"symbol": "ETH", "decimals": 18}},
    "path": [{"type": "bridge", "provider": {"name": "cctp", "type": "bridge"}}] * 3,
}
QUOTE = {"code": 0, "message": "success", "data": [ROUTE] * 3}
HISTORY = {
    "swaps": [{**RECORD["data"], "tokenIn": TOKEN, "tokenOut": TOKEN}] * 100,  # type: ignore[dict-item]
    "pagination": {"current_page": 1, "page_size": 100, "has_next": True},
}
CAP = 8 * 1024 * 1024
HOSTILE = {
    "8 MiB of '['": b"[" * CAP,
    "8 MiB of '[]'": b"[]" * (CAP // 2),
    "8 MiB, 64 deep, repeated": (b"[" * 64 + b"]" * 64) * (CAP // 128),
    "8 MiB string": json.dumps({"data": "x" * (CAP - 12)}).encode(),
}


def per_call(function: Any, number: int) -> float:
    return min(timeit.repeat(function, number=number, repeat=5)) / number


def safely(content: bytes) -> None:
    with contextlib.suppress(XSwapError):  # the hostile bodies are refused
        decode_body(content, "application/json")


def collected(content: bytes) -> None:
    body = BoundedBody(CAP)
    for start in range(0, len(content), 65536):
        body.append(content[start : start + 65536])
    body.getvalue()


def main() -> None:
    print(f"{'body':28} {'size':>9} {'json.loads':>11} {'decode_body':>12} {'BoundedBody':>12}")
    for name, value in (("relayer record", RECORD), ("routing quote", QUOTE), ("history", HISTORY)):
        content = json.dumps(value).encode()
        loads = per_call(lambda c=content: json.loads(c), 2000)
        decoded = per_call(lambda c=content: safely(c), 2000)
        bounded = per_call(lambda c=content: collected(c), 2000)
        print(
            f"{name:28} {len(content):9,} {loads * 1e6:9.1f}us {decoded * 1e6:10.1f}us "
            f"{bounded * 1e6:10.1f}us"
        )
    for name, content in HOSTILE.items():
        decoded = per_call(lambda c=content: safely(c), 1)
        print(f"{name:28} {len(content):9,} {'':>11} {decoded * 1e3:10.1f}ms")


if __name__ == "__main__":
    main()
