"""A tiny JSON-RPC node on 127.0.0.1 for ``xswap resume --rpc-url`` tests: it answers
``eth_chainId`` and ``eth_getTransactionReceipt`` from what the test gives it, takes
``eth_sendRawTransaction`` (kept in ``sent``; the transaction then has a successful
receipt), refuses every other method, and keeps the methods it was asked. It stops when
the test ends."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class FakeNode:
    """What the node serves and what it was asked.

    Attributes:
        url: where it listens.
        chain_id: its chain.
        receipts: transaction hash (lower case) to its status (1 success, 0 reverted);
            a hash not here has no receipt.
        asked: the methods asked, in order.
        sent: the raw transactions sent to it, in order.
    """

    def __init__(self, chain_id: int) -> None:
        self.url = ""
        self.chain_id = chain_id
        self.receipts: dict[str, int] = {}
        self.asked: list[str] = []
        self.sent: list[str] = []

    def answer(self, call: dict[str, Any]) -> dict[str, Any]:
        method = str(call.get("method"))
        self.asked.append(method)
        reply: dict[str, Any] = {"jsonrpc": "2.0", "id": call.get("id")}
        if method == "eth_chainId":
            reply["result"] = hex(self.chain_id)
        elif method == "eth_getTransactionReceipt":
            tx_hash = str(call["params"][0]).lower()
            status = self.receipts.get(tx_hash)
            reply["result"] = None if status is None else _receipt(tx_hash, status)
        elif method == "eth_sendRawTransaction":
            from eth_utils.crypto import keccak

            raw = str(call["params"][0])
            self.sent.append(raw)
            tx_hash = "0x" + keccak(hexstr=raw).hex()
            self.receipts.setdefault(tx_hash, 1)
            reply["result"] = tx_hash
        else:
            reply["error"] = {"code": -32601, "message": f"{method} is not served here"}
        return reply


def _receipt(tx_hash: str, status: int) -> dict[str, Any]:
    return {
        "transactionHash": tx_hash,
        "transactionIndex": "0x0",
        "blockHash": "0x" + "11" * 32,
        "blockNumber": "0x10",
        "from": "0x5a3Ca05337A87116A27A21b11cDE16D85efb3586",
        "to": "0x77777777Dcc4d5A8B6E418Fd04D8997ef11000eE",
        "cumulativeGasUsed": "0x5208",
        "gasUsed": "0x5208",
        "effectiveGasPrice": "0x1",
        "contractAddress": None,
        "logs": [],
        "logsBloom": "0x" + "00" * 256,
        "type": "0x2",
        "status": hex(status),
    }


@contextmanager
def serving(chain_id: int) -> Iterator[FakeNode]:
    """A `FakeNode` of ``chain_id`` listening until the block ends."""
    node = FakeNode(chain_id)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            request = json.loads(self.rfile.read(length))
            if isinstance(request, list):
                body: Any = [node.answer(call) for call in request]
            else:
                body = node.answer(request)
            data = json.dumps(body).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:
            return None

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    node.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield node
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
