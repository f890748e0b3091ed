"""Call goals, against the loopback server: one call, a burst, a waiter.

- One ``get_relay_status`` against raw httpx (``get``, ``raise_for_status``, ``json``
  and the same `RelayStatus` model), blocking and async, in interleaved blocks of calls;
  and the SDK with its deadline and size cap against the SDK without a deadline, to
  show what those guards cost.
- 1,000 concurrent reads on one `AsyncRelayerClient`, with its defaults and with the
  caller's ``httpx.AsyncClient`` at limits 100/100, against raw ``httpx.AsyncClient``
  at 100/100: throughput, and every failure.
- ``wait_for_execution_hash`` on a record the server turns ``EXECUTED`` at a known
  moment: how long after that moment the call returns, against one poll interval plus
  the round trip of the request that saw it, and how many requests it took; and its
  median delay against a raw polling loop's (read, parse, sleep the interval), at 5 ms
  and 50 ms, the two interleaved trial by trial.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import random
import statistics
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
from _loopback import API_KEY, TX_ID
from _measure import Row, ms, paired, us

from xswap_sdk import AsyncRelayerClient, RelayerClient
from xswap_sdk.events import ResponseEvent
from xswap_sdk.relayer import RelayStatus

CALLS_PER_BLOCK = 300
CALL_ROUNDS = 21
BURST = 1000
BURST_ROUNDS = 3
WAIT_TRIALS = 12


def _raw_read(client: Any, base_url: str) -> RelayStatus:
    """One relay status read by ``client`` (httpx's or httpx2's), its JSON and model."""
    response = client.get(f"{base_url}/api/tx", params={"id": TX_ID}, headers={"api-key": API_KEY})
    response.raise_for_status()
    return RelayStatus.model_validate(json.loads(response.content)["data"])


async def _raw_read_async(client: Any, base_url: str) -> RelayStatus:
    """`_raw_read` on an async client."""
    response = await client.get(
        f"{base_url}/api/tx", params={"id": TX_ID}, headers={"api-key": API_KEY}
    )
    response.raise_for_status()
    return RelayStatus.model_validate(json.loads(response.content)["data"])


def _per_call(call: Callable[[], object]) -> Callable[[], float]:
    def block() -> float:
        started = time.perf_counter()
        for _ in range(CALLS_PER_BLOCK):
            call()
        return (time.perf_counter() - started) / CALLS_PER_BLOCK

    return block


def _per_call_async(
    loop: asyncio.AbstractEventLoop, call: Callable[[], Awaitable[object]]
) -> Callable[[], float]:
    async def calls() -> float:
        started = time.perf_counter()
        for _ in range(CALLS_PER_BLOCK):
            await call()
        return (time.perf_counter() - started) / CALLS_PER_BLOCK

    return lambda: loop.run_until_complete(calls())


def one_call_rows(base_url: str) -> list[Row]:
    """One read, blocking and async, against raw httpx; and the guards' cost."""
    raw = httpx.Client()
    sdk = RelayerClient(api_key=API_KEY, base_url=base_url)
    unguarded = sdk.with_options(deadline=None)
    assert sdk.get_relay_status(TX_ID) == _raw_read(raw, base_url)
    for _ in range(200):  # warm connections, caches and branch predictors alike
        _raw_read(raw, base_url)
        sdk.get_relay_status(TX_ID)
    base, ours, ratio = paired(
        _per_call(lambda: _raw_read(raw, base_url)),
        _per_call(lambda: sdk.get_relay_status(TX_ID)),
        CALL_ROUNDS,
    )
    rows = [
        Row(
            "one blocking read + parse (median per call)",
            us(ours),
            f"raw `httpx.Client` + `json` + the model: {us(base)}",
            ratio,
            "<= 1.05x",
            ratio <= 1.05,
        )
    ]
    free, guarded, guard_ratio = paired(
        _per_call(lambda: unguarded.get_relay_status(TX_ID)),
        _per_call(lambda: sdk.get_relay_status(TX_ID)),
        CALL_ROUNDS,
    )
    rows.append(
        Row(
            "the same, with the default deadline and size cap",
            us(guarded),
            f"the SDK with `deadline=None`: {us(free)}",
            guard_ratio,
            "no measurable cost (<= 1.02x)",
            guard_ratio <= 1.02,
        )
    )
    sdk.close()
    raw.close()

    loop = asyncio.new_event_loop()
    try:
        araw = httpx.AsyncClient()
        asdk = AsyncRelayerClient(api_key=API_KEY, base_url=base_url)

        async def warm() -> None:
            for _ in range(200):
                await _raw_read_async(araw, base_url)
                await asdk.get_relay_status(TX_ID)

        loop.run_until_complete(warm())
        base, ours, ratio = paired(
            _per_call_async(loop, lambda: _raw_read_async(araw, base_url)),
            _per_call_async(loop, lambda: asdk.get_relay_status(TX_ID)),
            CALL_ROUNDS,
        )
        rows.append(
            Row(
                "one async read + parse (median per call)",
                us(ours),
                f"raw `httpx.AsyncClient`: {us(base)}",
                ratio,
                "<= 1.05x",
                ratio <= 1.05,
            )
        )
        loop.run_until_complete(asdk.aclose())
        loop.run_until_complete(araw.aclose())
    finally:
        loop.close()
    return rows


async def _burst(read: Callable[[], Awaitable[object]], label: str) -> tuple[float, int]:
    """Reads per second of ``BURST`` concurrent reads, and how many failed."""
    started = time.perf_counter()
    results = await asyncio.gather(*(read() for _ in range(BURST)), return_exceptions=True)
    elapsed = time.perf_counter() - started
    failures = Counter(f"{type(r).__name__}: {r}" for r in results if isinstance(r, BaseException))
    for failure, count in failures.items():
        print(f"    {label} failed {count} time(s) with {failure}")
    return BURST / elapsed, failures.total()


def fan_out_rows(base_url: str) -> list[Row]:
    """1,000 concurrent reads on one async client, against raw httpx at 100/100."""
    limits = httpx.Limits(max_connections=100, max_keepalive_connections=100)
    # At httpx's default 5 s timeout, raw httpx fails the whole burst on this machine
    # (httpcore's pool starves the event loop until connects time out): a generous
    # timeout gives the baseline a throughput to compare with. The caller's client gets
    # the same settings.
    patient = httpx.Timeout(60.0)

    async def measure() -> list[Row]:
        raw = httpx.AsyncClient(limits=limits, timeout=patient)
        defaults = AsyncRelayerClient(api_key=API_KEY, base_url=base_url)
        given = AsyncRelayerClient(
            api_key=API_KEY,
            base_url=base_url,
            http_client=httpx.AsyncClient(limits=limits, timeout=patient),
        )
        sides: list[tuple[str, Callable[[], Awaitable[object]]]] = [
            ("raw", lambda: _raw_read_async(raw, base_url)),
            ("SDK defaults", lambda: defaults.get_relay_status(TX_ID)),
            ("SDK on the caller's 100/100 client", lambda: given.get_relay_status(TX_ID)),
        ]
        print(f"  {BURST} concurrent reads per burst; a warm-up burst each, then rounds")
        for label, read in sides:
            await _burst(read, label)
        rates: dict[str, list[float]] = {label: [] for label, _ in sides}
        failures: dict[str, int] = dict.fromkeys(rates, 0)
        for index in range(BURST_ROUNDS):
            line = []
            for label, read in sides[index % 3 :] + sides[: index % 3]:
                rate, failed = await _burst(read, label)
                rates[label].append(rate)
                failures[label] += failed
                line.append(f"{label} {rate:.0f}/s ({failed} failed)")
            print(f"    round {index + 1}: " + "; ".join(line))
        rows = []
        for label, _ in sides[1:]:
            ratios = [ours / base for ours, base in zip(rates[label], rates["raw"], strict=True)]
            ratio = statistics.median(ratios)
            strict = label == "SDK defaults"
            rows.append(
                Row(
                    f"{BURST} concurrent reads on one async client, {label} "
                    f"(median of {BURST_ROUNDS} rounds)",
                    f"{statistics.median(rates[label]):.0f} reads/s, {failures[label]} failed",
                    f"raw `httpx.AsyncClient` 100/100: {statistics.median(rates['raw']):.0f} "
                    f"reads/s, {failures['raw']} failed",
                    ratio,
                    ">= 0.9x, 0 failures" if strict else ">= 0.9x",
                    ratio >= 0.9 and (failures[label] == 0 or not strict),
                )
            )
        await defaults.aclose()
        await given.aclose()
        await raw.aclose()
        return rows

    return asyncio.run(measure())


class _WaitProbe:
    """Counts a waiter's requests and keeps the round trip of the last answer."""

    def __init__(self) -> None:
        self.requests = 0
        self.last_round_trip = 0.0

    def on_request(self, _event: object) -> None:
        self.requests += 1

    def on_response(self, event: ResponseEvent) -> None:
        self.last_round_trip = event.elapsed


def _flip_id(delay: float) -> tuple[str, float]:
    """A record id the server turns EXECUTED ``delay`` seconds from now, and that moment
    on this process's ``perf_counter``."""
    flip_wall = time.time() + delay
    flip_local = time.perf_counter() + delay
    return f"flip-{int(flip_wall * 1e9)}", flip_local


def _wait_row(flavour: str, interval: float, trials: list[tuple[float, float, int, float]]) -> Row:
    """A waiter row from trials of (latency, round trip, requests, elapsed)."""
    excess = [latency - (interval + trip) for latency, trip, _, _ in trials]
    worst = max(range(len(trials)), key=lambda i: excess[i])
    latency, trip, _, _ = trials[worst]
    over_budget = [
        requests
        for _, _, requests, elapsed in trials
        if requests > 1 + int(elapsed / interval + 1e-9)
    ]
    return Row(
        f"{flavour} `wait_for_execution_hash` at {interval * 1000:g} ms: return after the "
        f"record turns EXECUTED (worst of {len(trials)})",
        f"{ms(latency)}; median {ms(statistics.median(t[0] for t in trials))}",
        f"one interval + that round trip: {ms(interval + trip)}",
        latency / (interval + trip),
        "<= 1x; at most one request per interval",
        max(excess) <= 0 and not over_budget,
    )


async def _wait_trials(
    client_class: Any, base_url: str, interval: float, rng: random.Random
) -> list[tuple[float, float, int, float]]:
    """``WAIT_TRIALS`` waits of a blocking or async client, as (latency after the flip,
    round trip, requests, elapsed); a blocking client's calls are not awaited."""
    probe = _WaitProbe()
    client = client_class(
        api_key=API_KEY,
        base_url=base_url,
        on_request=probe.on_request,
        on_response=probe.on_response,
    )
    trials = []
    for _ in range(WAIT_TRIALS):
        tx_id, flip = _flip_id(rng.uniform(4, 8) * interval)
        probe.requests = 0
        started = time.perf_counter()
        waited = client.wait_for_execution_hash(tx_id, poll_interval_ms=interval * 1000)
        if inspect.isawaitable(waited):
            await waited
        done = time.perf_counter()
        trials.append((done - flip, probe.last_round_trip, probe.requests, done - started))
    closed = client.close() if hasattr(client, "close") else client.aclose()
    if inspect.isawaitable(closed):
        await closed
    return trials


def waiter_rows(base_url: str) -> list[Row]:
    """The waiter's latency after the state changes, blocking and async."""
    rows = []
    rng = random.Random(12)
    for interval in (0.05, 0.005):
        for flavour, client_class in (("blocking", RelayerClient), ("async", AsyncRelayerClient)):
            trials = asyncio.run(_wait_trials(client_class, base_url, interval, rng))
            rows.append(_wait_row(flavour, interval, trials))
    return rows


WAIT_DELAY_TRIALS = {0.005: 80, 0.05: 40}
"""Trials per side at each interval. The flip moments are stratified (see `_phases`): with
random ones, the median of 20 delays at 50 ms moved by a quarter from run to run."""


def _phases(trials: int, rng: random.Random) -> list[float]:
    """Flip delays, in intervals: ``2 + (i + 0.5) / trials`` for each trial, shuffled, so
    that both sides meet the same spread of phases between the flip and the next poll."""
    phases = [2 + (index + 0.5) / trials for index in range(trials)]
    rng.shuffle(phases)
    return phases


def _raw_wait(client: httpx.Client, base_url: str, tx_id: str, interval: float) -> RelayStatus:
    """A raw polling loop: read, parse, stop when EXECUTED, else sleep one interval."""
    while True:
        response = client.get(
            f"{base_url}/api/tx", params={"id": tx_id}, headers={"api-key": API_KEY}
        )
        response.raise_for_status()
        record = RelayStatus.model_validate(json.loads(response.content)["data"])
        if record.status == "EXECUTED":
            return record
        time.sleep(interval)


async def _raw_wait_async(
    client: httpx.AsyncClient, base_url: str, tx_id: str, interval: float
) -> RelayStatus:
    """`_raw_wait` with an `httpx.AsyncClient` and `asyncio.sleep`."""
    while True:
        response = await client.get(
            f"{base_url}/api/tx", params={"id": tx_id}, headers={"api-key": API_KEY}
        )
        response.raise_for_status()
        record = RelayStatus.model_validate(json.loads(response.content)["data"])
        if record.status == "EXECUTED":
            return record
        await asyncio.sleep(interval)


def _delay_row(flavour: str, interval: float, ours: list[float], raw: list[float]) -> Row:
    """A row comparing the median delays after the flip, SDK against the raw loop."""
    mine, theirs = statistics.median(ours), statistics.median(raw)
    quartiles = statistics.quantiles(ours, n=4)
    raw_quartiles = statistics.quantiles(raw, n=4)
    ratio = mine / theirs
    return Row(
        f"{flavour} `wait_for_execution_hash` at {interval * 1000:g} ms: median delay from "
        f"the record turning EXECUTED to the return ({len(ours)} trials each, interleaved, "
        "same flip phases)",
        f"{ms(mine)} (quartiles {ms(quartiles[0])}-{ms(quartiles[2])})",
        f"a raw polling loop (read, parse, sleep the interval): {ms(theirs)} "
        f"(quartiles {ms(raw_quartiles[0])}-{ms(raw_quartiles[2])})",
        ratio,
        "<= 1.25x",
        ratio <= 1.25,
    )


def wait_delay_rows(base_url: str) -> list[Row]:
    """A wait's median delay after the state changes, against a raw polling loop at the
    same interval, blocking and async; trials alternate which side goes first."""
    rows = []
    rng = random.Random(30)
    for interval, trials in WAIT_DELAY_TRIALS.items():
        raw = httpx.Client()
        sdk = RelayerClient(api_key=API_KEY, base_url=base_url)
        delays: dict[str, list[float]] = {"raw": [], "sdk": []}
        for trial, phase in enumerate(_phases(trials, rng)):
            for side in ("raw", "sdk") if trial % 2 else ("sdk", "raw"):
                tx_id, flip = _flip_id(phase * interval)
                if side == "raw":
                    _raw_wait(raw, base_url, tx_id, interval)
                else:
                    sdk.wait_for_execution_hash(tx_id, poll_interval_ms=interval * 1000)
                delays[side].append(time.perf_counter() - flip)
        sdk.close()
        raw.close()
        rows.append(_delay_row("blocking", interval, delays["sdk"], delays["raw"]))

        async def run_async(interval: float = interval, trials: int = trials) -> list[Row]:
            raw = httpx.AsyncClient()
            sdk = AsyncRelayerClient(api_key=API_KEY, base_url=base_url)
            delays: dict[str, list[float]] = {"raw": [], "sdk": []}
            for trial, phase in enumerate(_phases(trials, rng)):
                for side in ("raw", "sdk") if trial % 2 else ("sdk", "raw"):
                    tx_id, flip = _flip_id(phase * interval)
                    if side == "raw":
                        await _raw_wait_async(raw, base_url, tx_id, interval)
                    else:
                        await sdk.wait_for_execution_hash(tx_id, poll_interval_ms=interval * 1000)
                    delays[side].append(time.perf_counter() - flip)
            await sdk.aclose()
            await raw.aclose()
            return [_delay_row("async", interval, delays["sdk"], delays["raw"])]

        rows += asyncio.run(run_async())
    return rows
