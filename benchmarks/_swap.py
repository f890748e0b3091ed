"""Swap goals, against the sandbox served in a process of its own (see ``journal_cost``).

- The whole swap's client CPU (``time.process_time`` of this process: the server's
  work is not counted) against its floor: the same HTTP exchanges sent again with a
  raw ``httpx.Client`` (each answer read with ``json.loads``), plus the signing floor
  of the one burn intent the swap signs (EIP-712's keccaks over inputs of their true
  sizes and one ``sign_recoverable``). The exchanges are those of the swap measured
  just before, recorded at the transport, headers and bodies byte for byte.
- The signing gate's share of a swap with a policy in force: the CPU spent inside
  ``xswap_sdk.signing._gate.passing`` (describing the payload and asking each policy)
  over the CPU of the whole swap, summed over the same swaps.

Swaps run with ``wait=False`` (chains, quote, balance, order, signature, ``POST
/swap``) after one swap that logs in and warms the caches. Rounds alternate floor and
swap; the figure is the median of the paired ratios.
"""

from __future__ import annotations

import contextlib
import json
import statistics
import sys
import time
from collections.abc import Iterator
from typing import Any

import coincurve
import httpx
from _measure import Row, ms, paired
from eth_hash.auto import keccak
from journal_cost import TEST_SIGNER, served

from xswap_sdk import SystemClock
from xswap_sdk.policy import Policy
from xswap_sdk.sandbox import Sandbox

SWAP_ROUNDS = 200
GATE_SWAPS = 200
OUTPUT_TOKEN = "0x82aF49447D8a07e3bd95BD0d56f35241523fBab1"


class _Recorder(httpx.BaseTransport):
    """An HTTP transport that keeps every request it sends (method, URL, headers, body)."""

    def __init__(self) -> None:
        self.inner = httpx.HTTPTransport()
        self.sent: list[tuple[str, str, list[tuple[str, str]], bytes]] = []
        # Off once the exchanges are recorded: the measured swaps then go through the
        # same plain transport as the floor, with nothing of the recording on their CPU.
        self.recording = True

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if self.recording:
            body = request.read()
            self.sent.append(
                (request.method, str(request.url), request.headers.multi_items(), body)
            )
        return self.inner.handle_request(request)

    def close(self) -> None:
        self.inner.close()


def _swap(flash: Any) -> None:
    flash.swap(
        TEST_SIGNER,
        input_amount=1_000_000,
        output_token=OUTPUT_TOKEN,
        chain_id=42161,
        slippage="0.5",
    )


def _signing_floor(hook_data: bytes) -> Any:
    """What signing one burn intent cannot skip: the keccaks EIP-712 prescribes (its hook
    data, its transfer spec of a type hash, 13 words and the hook data's hash, the intent
    of a type hash, 2 words and the spec's hash, then ``0x1901 || domain || hash``) and
    one ``sign_recoverable`` of the digest."""
    key = coincurve.PrivateKey(bytes(32 * [0x11]))
    inputs = [hook_data, bytes(15 * 32), bytes(4 * 32), bytes(2 + 2 * 32)]

    def floor() -> None:
        digest = b""
        for data in inputs:
            digest = keccak(data)
        key.sign_recoverable(digest, hasher=None)

    return floor


def _hook_data(body: bytes) -> bytes:
    """The hook data of the intent in a ``POST /swap`` body (empty if not found)."""

    def find(value: Any) -> str | None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key == "hookData" and isinstance(item, str):
                    return item
                found = find(item)
                if found is not None:
                    return found
        if isinstance(value, list):
            for item in value:
                found = find(item)
                if found is not None:
                    return found
        return None

    hook = find(json.loads(body)) or "0x"
    return bytes.fromhex(hook[2:])


def swap_cpu_row(base_url: str) -> Row:
    """A whole swap's client CPU against raw httpx sending the same requests plus the
    signing floor."""
    local = Sandbox(base_url=base_url, clock=SystemClock())
    recorder = _Recorder()
    flash = local.flash_client(
        signer=TEST_SIGNER, http_client=httpx.Client(transport=recorder), clock=SystemClock()
    )
    _swap(flash)  # logs in, warms the caches
    recorder.sent.clear()
    _swap(flash)
    exchanges = list(recorder.sent)
    recorder.recording = False
    posted = [body for method, url, _, body in exchanges if method == "POST"]
    sign = _signing_floor(_hook_data(posted[-1]) if posted else b"")
    raw = httpx.Client()

    def floor_swap() -> float:
        started = time.process_time()
        for method, url, headers, body in exchanges:
            response = raw.request(method, url, headers=headers, content=body)
            json.loads(response.content)
        sign()
        return time.process_time() - started

    def sdk_swap() -> float:
        started = time.process_time()
        _swap(flash)
        return time.process_time() - started

    for _ in range(20):  # warm both sides alike
        floor_swap()
        sdk_swap()
    base, ours, ratio = paired(floor_swap, sdk_swap, SWAP_ROUNDS)
    flash.close()
    raw.close()
    requests = " ".join(f"{method} {httpx.URL(url).path}" for method, url, _, _ in exchanges)
    return Row(
        f"a whole swap's client CPU, `wait=False` (median of {SWAP_ROUNDS} pairs)",
        ms(ours),
        f"its floor, raw `httpx` sending the same {len(exchanges)} requests ({requests}) "
        f"+ `json.loads` + one burn intent's signing floor: {ms(base)}",
        ratio,
        "<= 1.2x",
        ratio <= 1.2,
    )


@contextlib.contextmanager
def _timing_gate(spent: list[float]) -> Iterator[None]:
    """``_gate.passing`` replaced by one that adds its own CPU time to ``spent[0]``."""
    from xswap_sdk.signing import _gate

    original = _gate.passing

    @contextlib.contextmanager
    def passing(describe: Any) -> Iterator[Any]:
        started = time.process_time()
        gate = original(describe)
        request = gate.__enter__()
        spent[0] += time.process_time() - started
        try:
            yield request
        except BaseException:
            started = time.process_time()
            gate.__exit__(*sys.exc_info())
            spent[0] += time.process_time() - started
            raise
        started = time.process_time()
        gate.__exit__(None, None, None)
        spent[0] += time.process_time() - started

    _gate.passing = passing  # type: ignore[assignment]
    try:
        yield
    finally:
        _gate.passing = original  # type: ignore[assignment]


def gate_share_row(base_url: str) -> Row:
    """The CPU inside the signing gate over a swap's, with a policy in force."""
    local = Sandbox(base_url=base_url, clock=SystemClock())
    policy = Policy(max_per_signature=10**12, max_fee=10**9, max_per_day=10**15)
    flash = local.flash_client(
        signer=TEST_SIGNER, http_client=httpx.Client(), clock=SystemClock(), policy=policy
    )
    _swap(flash)
    spent = [0.0]
    totals = []
    with _timing_gate(spent):
        _swap(flash)
        if spent[0] == 0.0:
            raise SystemExit("the swap did not pass the signing gate")
        spent[0] = 0.0
        for _ in range(GATE_SWAPS):
            started = time.process_time()
            _swap(flash)
            totals.append(time.process_time() - started)
    flash.close()
    share = spent[0] / sum(totals)
    return Row(
        f"the signing gate's share of a swap with a policy in force ({GATE_SWAPS} swaps)",
        f"{share * 100:.1f} % ({spent[0] / GATE_SWAPS * 1e6:.0f} us a swap)",
        f"the swap's client CPU: {ms(statistics.median(totals))} (median)",
        None,
        "< 5 %",
        share < 0.05,
    )


def swap_rows() -> list[Row]:
    """Both swap figures, against a sandbox served for them."""
    with served() as base_url:
        return [swap_cpu_row(base_url), gate_share_row(base_url)]
