"""A small HTTP/1.1 relayer stand-in on 127.0.0.1, in its own process, for the benchmarks.

It answers ``GET /api/tx?id=...`` with the relayer's envelope around one fixed record,
keeps connections alive, and is fast enough (one asyncio protocol, no framework) that
the client side, not the server, decides what the benchmarks measure. It runs in a
child process so that it has a core of its own.

It also answers a fixed body at each path of ``FIXED`` (the sandbox's answers to the
other clients' first reads: Flash's and routing's supported chains, Gateway's info),
written by the parent into a file whose path it passes as the first argument.

A record whose id is ``flip-<unix time in ns>`` is ``PENDING`` until that moment and
``EXECUTED`` from then on: the waiter benchmark knows exactly when the state changed.

The server stops itself when its parent closes its stdin (or dies), and after an hour
in any case. Run alone (``python benchmarks/_loopback.py``) it prints its port.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

TX_ID = "65f1a2b3c4d5e6f708192a3b"
API_KEY = "bench-key-123456"
RECORD: dict[str, Any] = {
    "id": TX_ID,
    "userId": "user-1",
    "to": "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913",
    "callData": "0xa9059cbb" + "00" * 64,
    "value": "0",
    "chainId": 8453,
    "gasPrice": None,
    "maxFeePerGas": "2000000000",
    "maxPriorityFeePerGas": "1000000",
    "gasLimit": "210000",
    "label": "bench",
    "status": "EXECUTED",
    "executionTxHash": "0x" + "ab" * 32,
    "costUSD": 0.0123,
    "latency": 812,
    "timestamp": "2025-06-01T12:00:00.000Z",
}
_LIFETIME_S = 3600


def _answer(status: int, payload: Any) -> bytes:
    body = json.dumps(payload).encode()
    reason = {200: "OK", 404: "Not Found"}[status]
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


_EXECUTED = _answer(200, {"success": True, "data": RECORD})
_NOT_FOUND = _answer(404, {"success": False, "error": "not found"})


FIXED_PATHS = {
    "flash": "/flash/supported-chains",
    "routing": "/routing/supported-chains",
    "gateway": "/gateway/v1/info",
}
"""Where each other client's first read is answered, by service."""
_FIXED: dict[str, bytes] = {}


def fixed_bodies() -> dict[str, Any]:
    """The sandbox's answers to ``FIXED_PATHS``, by path."""
    from xswap_sdk.sandbox import Sandbox

    sandbox = Sandbox()
    client = sandbox.http_client()
    bodies = {}
    for service, path in FIXED_PATHS.items():
        key = sandbox.api_keys.get(service)
        answer = client.get(
            sandbox.url(service) + path.removeprefix(f"/{service}"),
            headers={"api-key": key} if key else {},
        )
        answer.raise_for_status()
        bodies[path] = answer.json()
    sandbox.close()
    return bodies


def _respond(target: str) -> bytes:
    url = urlsplit(target)
    if url.path in _FIXED:
        return _FIXED[url.path]
    if url.path != "/api/tx":
        return _NOT_FOUND
    tx_id = parse_qs(url.query).get("id", [TX_ID])[0]
    if not tx_id.startswith("flip-"):
        return _EXECUTED
    executed = time.time_ns() >= int(tx_id.removeprefix("flip-"))
    record = {
        **RECORD,
        "id": tx_id,
        "status": "EXECUTED" if executed else "PENDING",
        "executionTxHash": RECORD["executionTxHash"] if executed else None,
    }
    return _answer(200, {"success": True, "data": record})


class _Connection(asyncio.Protocol):
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.buffer = b""

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while b"\r\n\r\n" in self.buffer:
            head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
            # The benchmarks send only GETs, which carry no body.
            target = head.split(b"\r\n", 1)[0].split(b" ")[1].decode()
            self.transport.write(_respond(target))


async def _serve() -> None:
    loop = asyncio.get_running_loop()
    server = await loop.create_server(_Connection, "127.0.0.1", 0, backlog=2048)
    port = server.sockets[0].getsockname()[1]
    print(port, flush=True)
    # Stop when the parent closes our stdin or dies, or after an hour at most.
    await asyncio.wait_for(loop.run_in_executor(None, sys.stdin.read), timeout=_LIFETIME_S)
    server.close()


@contextlib.contextmanager
def loopback_server() -> Iterator[str]:
    """Start the server in a child process; yield its base URL; stop it."""
    fixed = tempfile.NamedTemporaryFile("w", suffix=".json")  # noqa: SIM115
    json.dump(fixed_bodies(), fixed)
    fixed.flush()
    child = subprocess.Popen(
        [sys.executable, __file__, fixed.name],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        port = int(child.stdout.readline())
        yield f"http://127.0.0.1:{port}"
    finally:
        assert child.stdin is not None
        child.stdin.close()
        try:
            child.wait(timeout=5)
        except subprocess.TimeoutExpired:
            child.kill()
        fixed.close()


if __name__ == "__main__":
    if len(sys.argv) > 1:
        with open(sys.argv[1]) as bodies:
            _FIXED.update({path: _answer(200, body) for path, body in json.load(bodies).items()})
    with contextlib.suppress(asyncio.TimeoutError, KeyboardInterrupt):
        asyncio.run(_serve())
