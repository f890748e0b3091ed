"""Constants and helpers shared by the tests."""

from __future__ import annotations

import inspect
from typing import Any

RELAYER_URL = "https://relayer.test"
RELAYER_KEY = "relayer-key-7f3a9c1e5b"
ADDRESS = "0x5a3Ca05337A87116A27A21b11cDE16D85efb3586"
TX_ID = "65f1a2b3c4d5e6f708192a3b"


async def resolve(value: Any) -> Any:
    """Await ``value`` if the async client returned a coroutine; pass it through otherwise."""
    return await value if inspect.isawaitable(value) else value


def relayer_ok(data: Any) -> dict[str, Any]:
    """The relayer's success envelope."""
    return {"success": True, "data": data, "timestamp": "2025-06-01T12:00:00.000Z"}


def relayer_error(code: str, message: str, trace_id: str = "trace-1") -> dict[str, Any]:
    """The relayer's error envelope."""
    return {
        "success": False,
        "error": {
            "code": code,
            "message": message,
            "category": "VALIDATION_ERROR",
            "details": None,
            "traceId": trace_id,
        },
        "timestamp": "2025-06-01T12:00:00.000Z",
    }


def tx_record(status: str, **fields: Any) -> dict[str, Any]:
    """A relayer transaction record as the live service sends it."""
    record: dict[str, Any] = {
        "id": TX_ID,
        "userId": "user-1",
        "to": ADDRESS.lower(),
        "callData": "0x",
        "value": "0",
        "chainId": 8453,
        "gasPrice": None,
        "maxFeePerGas": None,
        "maxPriorityFeePerGas": None,
        "gasLimit": None,
        "label": "test",
        "status": status,
        "executionTxHash": "0x" + "ab" * 32 if status == "EXECUTED" else None,
        "costUSD": 0.0123,
        "latency": None,
        "timestamp": "2025-06-01T12:00:00.000Z",
    }
    record.update(fields)
    return record


# ------------------------------------------------------------------ swap backend (flash)

FLASH_URL = "https://flash.test"
FLASH_JWT = "eyJhbGciOiJIUzI1NiJ9.flash-jwt-initial.c2ln"
# The public test key of the shared vectors; its address is ADDRESS. Never use it for funds.
TEST_KEY = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01789f8bd37"
