"""Every keyword that every public client method accepts reaches the wire, or has its effect.

The parameters come from the clients' own signatures (all six clients; constructors,
``with_options`` and the per-call ``timeout`` and ``max_retries`` included), so a new
parameter without an entry in the sample tables fails `test_every_parameter_has_a_sample`.
Each test calls one method against the sandbox with one argument set to a distinctive
value and looks for that value in the recorded HTTP requests: the query, the JSON body (at
any depth), a header, or the URL. Arguments that steer the SDK rather than the request
(waits, intervals, predicates, clocks, signers, pure builders) are checked by their effect.

A forwarding line dropped from a client (``exclude_providers=exclude_providers``, say)
sends nothing or the default, and the test of that argument fails.
"""

from __future__ import annotations

import dataclasses
import inspect
import itertools
import json
import tempfile
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from eth_account import Account

from xswap_sdk import (
    VirtualClock,
    errors,
)
from xswap_sdk._concurrency import pool_size
from xswap_sdk._policy_scope import active_policies
from xswap_sdk.events import RequestEvent, ResponseEvent, RetryEvent
from xswap_sdk.flash import Quote
from xswap_sdk.gateway import build_transfer_intent
from xswap_sdk.policy import Policy
from xswap_sdk.registry import DEFAULT_REGISTRY, Registry
from xswap_sdk.relayer import RelayerPaths
from xswap_sdk.routing import RoutingPaths
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.sandbox._catalog import CHAINS as SANDBOX_CHAINS
from xswap_sdk.sandbox.flash import FLASH_CHAINS, SANDBOX_ROUTERS
from xswap_sdk.signing import sign_authorization, sign_burn_intent
from xswap_sdk.testing import TEST_SIGNER

from .support import CLIENTS, resolve

OPTIONS = ("timeout", "max_retries", "deadline", "extra_headers", "extra_query", "extra_body")
"""The request options every I/O method takes through ``**options``."""
NOT_ARGUMENTS = {"close", "aclose", "capture_responses", "get_version"}
"""Public methods without arguments to forward."""
ELSEWHERE = {
    ("flash", "deposit"): "tests/flash/test_deposit.py (needs an EVM)",
    ("routing", "execute_route"): "tests/routing/test_execution.py (needs an EVM)",
    ("routing", "check_permit2_allowance"): "tests/routing/test_execution.py (needs an EVM)",
    ("gateway", "send_transfer"): "tests/gateway/test_transfer_journey.py (needs an EVM)",
    ("gateway", "mint"): "tests/gateway/test_transfer_journey.py (needs an EVM)",
    ("gateway", "send_call"): "tests/gateway/test_call_journey.py (needs an EVM)",
    ("gateway", "recover_transfer"): "tests/gateway/test_recover_transfer.py (needs an EVM)",
    **{
        (service, "resume"): "tests/journal (needs a journal with an interrupted journey)"
        for service in ("flash", "routing", "relayer", "gateway")
    },
}
"""Methods whose every argument is proven on the wire by another module."""

USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
USDC_ARBITRUM = "0xaf88d065e77c8cC2239327C5EDb3A432268e5831"
WETH_BASE = "0x4200000000000000000000000000000000000006"
OTHER = "0x00000000000000000000000000000000000A11CE"
UNKNOWN_TX = "6a" * 12
UNKNOWN_HASH = "0x" + "77" * 32
SECOND_WALLET = Account.from_key("0x" + "42" * 32)
SOLANA_KEY = "BSNsLtDDM1wN8rjEJQaZreVqRhibsUtsEq9m1G2deAm"
AUTHORIZATION = sign_authorization(SECOND_WALLET, chain_id=8453, address=OTHER, nonce=3)


# ---------------------------------------------------------------------------- harness


class Recorder:
    """Serves the sandbox and records every request with the virtual time it arrived;
    refuses the next ``refuse`` connections (a failure every operation may retry)."""

    def __init__(self, sandbox: Sandbox) -> None:
        self.sandbox = sandbox
        self.requests: list[httpx.Request] = []
        self.times: list[float] = []
        self.refuse = 0

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        self.times.append(self.sandbox.clock.monotonic())
        if self.refuse:
            self.refuse -= 1
            raise httpx.ConnectError("refused by the test", request=request)
        return self.sandbox._handle(request)

    def paths(self) -> list[str]:
        return [request.url.path for request in self.requests]


@dataclass
class Env:
    """One test's world: a fresh sandbox, the recorder, a client flavour, and what
    `prepare` set up for the method under test."""

    kind: str
    sandbox: Sandbox
    recorder: Recorder
    made: list[Any] = field(default_factory=list)
    state: dict[str, Any] = field(default_factory=dict)

    def __getattr__(self, name: str) -> Any:
        try:
            return self.state[name]
        except KeyError:
            raise AttributeError(name) from None

    def http_client(self) -> httpx.Client | httpx.AsyncClient:
        transport = httpx.MockTransport(self.recorder)
        if self.kind == "sync":
            return httpx.Client(transport=transport)
        return httpx.AsyncClient(transport=transport)

    def client(self, service: str, **overrides: Any) -> Any:
        """A client of this test's flavour, recorded, wired to the sandbox."""
        args: dict[str, Any] = {
            "base_url": self.sandbox.url(service),
            "clock": self.sandbox.clock,
            "http_client": self.http_client(),
        }
        if service in self.sandbox.api_keys:
            args["api_key"] = self.sandbox.api_keys[service]
        if service == "flash":
            args["signer"] = TEST_SIGNER
            # The sandbox's routers, pinned with their format, as its own clients pin them.
            args["registry"] = DEFAULT_REGISTRY.with_routers(*SANDBOX_ROUTERS)
        if service == "routing":
            # As the sandbox's own factories do: its routing contracts, pinned.
            args["routing_contracts"] = {c.id: c.routing_contract for c in SANDBOX_CHAINS.values()}
        cls = CLIENTS[service][0 if self.kind == "sync" else 1]
        client = cls(**{**args, **overrides})
        self.made.append(client)
        return client

    async def close(self) -> None:
        for client in self.made:
            await resolve(client.close() if hasattr(client, "close") else client.aclose())


async def outcome(call: Callable[[], Any]) -> tuple[Any, BaseException | None]:
    """Make the call, await it or drain its iterator; return (result, the SDK error)."""
    try:
        value = await resolve(call())
        if hasattr(value, "__aiter__"):
            value = [item async for item in value]
        elif isinstance(value, Iterator):
            value = list(value)
    except errors.XSwapError as exc:
        return None, exc
    return value, None


# ---------------------------------------------------------------------------- finding values


def body(request: httpx.Request) -> Any:
    try:
        return json.loads(request.content) if request.content else None
    except ValueError:
        return None


def pairs(data: Any) -> Iterator[tuple[str, Any]]:
    """Every (key, value) of a JSON document, at any depth."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, Mapping):
            for key, value in item.items():
                yield str(key), value
                stack.append(value)
        elif isinstance(item, list):
            stack.extend(item)


def same(found: Any, expected: Any) -> bool:
    if isinstance(expected, list | tuple):
        return isinstance(found, list | tuple) and [str(x).lower() for x in found] == [
            str(x).lower() for x in expected
        ]
    return str(found).lower() == str(expected).lower()


def sent(env: Env, name: str, expected: Any) -> bool:
    """Whether any request carried ``name`` = ``expected`` in its query, body or headers."""
    for request in env.recorder.requests:
        if any(same(value, expected) for value in request.url.params.get_list(name)):
            return True
        if name in request.headers and same(request.headers[name], expected):
            return True
        if any(key == name and same(value, expected) for key, value in pairs(body(request))):
            return True
    return False


# ---------------------------------------------------------------------------- checks

Check = Callable[[Env, Any, Any, BaseException | None], None]
"""(env, the sample value, the call's result, the call's error) -> asserts."""


def wire(name: str, expected: Callable[[Any], Any] | None = None) -> Check:
    """The value (or ``expected(value)``) appears under ``name`` in a request."""

    def check(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
        want = value if expected is None else expected(value)
        urls = [str(r.url) for r in env.recorder.requests]
        assert sent(env, name, want), f"{name}={want!r} not sent; requests: {urls}"

    return check


def headers_sent(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
    for key, want in value.items():
        assert any(r.headers.get(key) == want for r in env.recorder.requests), key


def api_key_sent(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
    assert any(r.headers.get("api-key") == value for r in env.recorder.requests)


def bearer_sent(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
    assert any(r.headers.get("authorization") == f"Bearer {value}" for r in env.recorder.requests)


def timeout_applied(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
    # Every phase of the first request has the sample; later ones may be clipped shorter
    # by the deadline of the wait they belong to.
    assert env.recorder.requests, "nothing was sent"
    reads = [r.extensions["timeout"]["read"] for r in env.recorder.requests]
    assert reads[0] == value
    assert max(reads) == value


def attempts_made(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
    # The recorder refused every connection: the first request was tried 1 + value times.
    first = env.recorder.paths()[0]
    tried = len(env.recorder.paths())
    assert set(env.recorder.paths()) == {first}
    assert tried == value + 1, (tried, value)
    # A refused login is a LoginError caused by the connection error.
    cause = error.__cause__ if isinstance(error, errors.LoginError) else error
    assert isinstance(cause, errors.APIConnectionError), error


def clock_used(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
    # One refused connection, then a retry after a backoff slept on the client's clock.
    assert value.monotonic() > 0
    assert len(env.recorder.requests) >= 2


def clipped_to_deadline(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
    # The deadline leaves less time than any phase's timeout: every phase is clipped to it.
    first = env.recorder.requests[0].extensions["timeout"]
    assert set(first.values()) == {value}, first


def anything_sent(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
    assert env.recorder.requests


def url_starts(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
    assert env.recorder.requests
    assert all(str(r.url).startswith(value + "/") for r in env.recorder.requests)


def path_ends(suffix: Callable[[Any], str]) -> Check:
    def check(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
        want = suffix(value).lower()
        assert any(p.lower().endswith(want) for p in env.recorder.paths()), env.recorder.paths()

    return check


def timed_out(scale: float) -> Check:
    """The wait raised `WaitTimeoutError` after the sample's time (times ``scale``)."""

    def check(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
        assert isinstance(error, errors.WaitTimeoutError), error
        assert error.timeout == pytest.approx(value * scale)

    return check


def polled_every(path: str, scale: float = 1.0) -> Check:
    """Consecutive requests to ``path`` are the sample's interval apart, in virtual time."""

    def check(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
        times = [
            when
            for when, request in zip(env.recorder.times, env.recorder.requests, strict=True)
            if request.url.path.endswith(path)
        ]
        assert len(times) >= 2, times
        gaps = {round(later - earlier, 6) for earlier, later in itertools.pairwise(times)}
        assert gaps == {round(value * scale, 6)}, gaps

    return check


def asked_times(path: str, times: int) -> Check:
    """``path`` was requested exactly ``times`` times."""

    def check(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
        count = sum(p.endswith(path) for p in env.recorder.paths())
        assert count == times, env.recorder.paths()

    return check


def asked(path: str) -> Check:
    def check(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
        assert any(p.endswith(path) for p in env.recorder.paths()), env.recorder.paths()

    return check


def waited_for_amount(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
    # The balance never reaches the sample, and the timeout's message says what it waited for.
    assert isinstance(error, errors.WaitTimeoutError), error
    assert f"{value:,}" in str(error) or str(value) in str(error), str(error)


def predicate_asked(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
    assert error is None, error
    assert value.calls, "is_done was never asked"
    assert result is value.calls[-1]


def refused(error_type: type[BaseException]) -> Check:
    def check(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
        # A login that fails on the way is a LoginError caused by what failed.
        if isinstance(error, errors.LoginError) and error.__cause__ is not None:
            error = error.__cause__
        assert isinstance(error, error_type), error

    return check


def refused_at(field_name: str) -> Check:
    def check(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
        assert isinstance(error, errors.UnsafePayloadError), error
        assert error.field == field_name, error

    return check


def result_is(test: Callable[[Any, Any], bool]) -> Check:
    def check(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
        assert error is None, error
        assert test(result, value), result

    return check


def swapped_from(domain: int) -> Check:
    def check(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
        assert error is None, error
        submitted = [body(r) for r in env.recorder.requests if r.url.path.endswith("/swap")]
        domains = {v for key, v in pairs(submitted) if key == "sourceDomain"}
        assert domains == {domain}, domains

    return check


class Predicate:
    """An ``is_done`` that says done at once and remembers what it was asked."""

    def __init__(self) -> None:
        self.calls: list[Any] = []

    def __call__(self, record: Any) -> bool:
        self.calls.append(record)
        return True


# ---------------------------------------------------------------------------- samples


async def _twice(method: Callable[..., Any], *args: Any) -> Any:
    await resolve(method(*args))
    return await resolve(method(*args))


@dataclass(frozen=True)
class From:
    """A sample value made from the test's `Env` (its sandbox, or what was prepared)."""

    make: Callable[[Env], Any]


@dataclass(frozen=True)
class Sample:
    """A distinctive value for one argument and how to see that it took effect.

    ``extra`` holds other arguments the sample needs beside it; ``client`` overrides
    the client's constructor arguments; ``refuse`` makes the recorder refuse that many
    connections first; ``probe`` is the call that shows a constructor argument (the
    service's `PROBES` entry by default); ``arrange`` prepares the sandbox (a tamper rule);
    ``warm`` is called with the client before the call under test (to fill its cache).
    """

    value: Any
    check: Check
    extra: Mapping[str, Any] = field(default_factory=dict)
    client: Mapping[str, Any] = field(default_factory=dict)
    refuse: Callable[[Any], int] | None = None
    probe: Callable[[Any], Any] | None = None
    arrange: Callable[[Env], Any] | None = None
    warm: Callable[[Any], Any] | None = None


def made(value: Any, env: Env) -> Any:
    return value.make(env) if isinstance(value, From) else value


class Collect:
    """An event hook that keeps what it was given."""

    def __init__(self) -> None:
        self.events: list[Any] = []

    def __call__(self, event: Any) -> None:
        self.events.append(event)


def hook_got(event_type: type) -> Check:
    def check(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
        assert value.events, "the hook was never called"
        assert all(isinstance(event, event_type) for event in value.events)
        assert all("?" not in event.path for event in value.events)  # templates, no query

    return check


def extra_body_used(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
    # Sent in a JSON object body, or refused before any I/O by a call that has none.
    if isinstance(error, errors.InvalidInputError):
        assert error.argument == "extra_body"
        return
    assert sent(env, "wireExtraBody", "b-1"), [str(r.url) for r in env.recorder.requests]


def pool_limited(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
    # The pool the SDK created for the call, and the gate in front of it.
    client = env.made[-1]
    assert pool_size(client._transport.pool.get()) == value.max_connections
    assert client._transport.pool.gate.size == value.max_connections


class PoliciesSeen:
    """An ``on_request`` hook that keeps the signing policies in force at each request."""

    def __init__(self) -> None:
        self.seen: list[tuple[Any, ...]] = []

    def __call__(self, event: Any) -> None:
        self.seen.append(active_policies())


def policy_in_force(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
    seen = env.state["policies_seen"].seen
    assert seen, "no request was made"
    assert all(any(active is value for active in policies) for policies in seen), seen


def journal_opened(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
    assert env.made[-1].journal.path == value


def journal_keyed(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
    from xswap_sdk.journal import JournalKey

    # The journal was made with this key: it keeps the key's fingerprint, and made its
    # MACs with it (another key is refused at once).
    journal = env.made[-1].journal
    assert journal._key.fingerprint() == JournalKey.from_text(value, "k").fingerprint()


def step_hook_kept(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
    # A read is no journey: the hook is kept for the journeys (tests/journal).
    assert env.made[-1]._transport.hooks.on_step is value


def progress_shown(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
    from xswap_sdk._progress import ProgressPrinter

    assert isinstance(env.made[-1]._transport.hooks.on_step, ProgressPrinter)


COMMON: dict[str, Sample] = {
    "journal": Sample(From(lambda env: Path(tempfile.mkdtemp()) / "wire.db"), journal_opened),
    "journal_key": Sample(
        "wire-journal-key-0123456789",
        journal_keyed,
        client={"journal": From(lambda env: Path(tempfile.mkdtemp()) / "keyed.db")},
    ),
    "on_step": Sample(From(lambda env: Collect()), step_hook_kept),
    "progress": Sample(True, progress_shown),
    "timeout": Sample(1.25, timeout_applied),
    "extra_headers": Sample({"X-Extra-Wire": "e-1"}, headers_sent),
    "extra_query": Sample({"wireExtra": "q-1"}, wire("wireExtra", lambda _: "q-1")),
    "extra_body": Sample({"wireExtraBody": "b-1"}, extra_body_used),
    "on_request": Sample(From(lambda env: Collect()), hook_got(RequestEvent)),
    "on_response": Sample(From(lambda env: Collect()), hook_got(ResponseEvent)),
    "on_retry": Sample(From(lambda env: Collect()), hook_got(RetryEvent), refuse=lambda _: 1),
    "deadline": Sample(0.8, clipped_to_deadline),
    "max_response_bytes": Sample(64, refused(errors.ResponseTooLargeError)),
    "max_retries": Sample(3, attempts_made, refuse=lambda n: n + 1),
    "headers": Sample({"X-Wire-Test": "h-1"}, headers_sent),
    "http_client": Sample(From(lambda env: env.http_client()), anything_sent),
    "clock": Sample(From(lambda env: VirtualClock(start=0)), clock_used, refuse=lambda _: 1),
    # Limits configure the pool the SDK creates, so no http_client here; the call goes
    # to a closed port on this machine and fails at once, after the pool was made.
    # The policy is in force while the client's call runs (seen from its request hook).
    "policy": Sample(
        From(lambda env: Policy()),
        policy_in_force,
        client={
            "on_request": From(lambda env: env.state.setdefault("policies_seen", PoliciesSeen()))
        },
    ),
    "limits": Sample(
        httpx.Limits(max_connections=3, max_keepalive_connections=3),
        pool_limited,
        client={"http_client": None, "base_url": "http://127.0.0.1:9"},
    ),
}
"""Arguments whose sample and check are the same in every client."""


def insecure(service: str, *, copy: bool = False) -> Sample:
    """``allow_insecure_http=True`` with an ``http://`` URL that is not this machine,
    which is refused without it."""
    url = f"http://wire.example/{service}"
    where = {"extra": {"base_url": url}} if copy else {"client": {"base_url": url}}
    return Sample(
        True,
        lambda env, v, r, e: url_starts(env, url, r, e),
        **where,  # type: ignore[arg-type]
    )


def own_url(suffix: str = "") -> Callable[[str], Sample]:
    return lambda service: Sample(From(lambda env: env.sandbox.url(service) + suffix), url_starts)


def _signed_tx(chain_id: int) -> str:
    tx = {
        "type": 2,
        "chainId": chain_id,
        "nonce": 0,
        "to": USDC_BASE,
        "value": 0,
        "gas": 50_000,
        "maxFeePerGas": 10**9,
        "maxPriorityFeePerGas": 1,
        "data": "0x",
    }
    return "0x" + SECOND_WALLET.sign_transaction(tx).raw_transaction.hex()


SIGNED_TX = _signed_tx(8453)
KEYLESS = {"api_key": None, "payer": TEST_SIGNER, "max_payment": 50_000}


def _fund_payer(env: Env) -> None:
    env.sandbox.fund(TEST_SIGNER.address, 8453, 1_000_000)


def payment_sent(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
    from xswap_sdk.relayer._x402 import decode_x402_header

    payments = [
        decode_x402_header(r.headers["payment-signature"])
        for r in env.recorder.requests
        if "payment-signature" in r.headers
    ]
    assert len(payments) == 1, payments
    assert payments[0]["payload"]["authorization"]["from"] == value.address


def _relay(client: Any) -> Any:
    return client.relay(chain_id=8453, to=OTHER, call_data="0x")


RELAYER: dict[tuple[str, str], Sample] = {
    ("__init__", "payer"): Sample(
        TEST_SIGNER,
        payment_sent,
        client={k: v for k, v in KEYLESS.items() if k != "payer"},
        arrange=_fund_payer,
        probe=_relay,
    ),
    ("__init__", "max_payment"): Sample(
        9_999,  # below the sandbox's price of 10_000: refused before signing
        refused(errors.UnsafePayloadError),
        client={k: v for k, v in KEYLESS.items() if k != "max_payment"},
        probe=_relay,
    ),
    ("__init__", "max_total_payment"): Sample(
        9_999,  # below one payment of 10_000: the first is refused before signing
        refused(errors.UnsafePayloadError),
        client=KEYLESS,
        arrange=_fund_payer,
        probe=_relay,
    ),
    ("__init__", "registry"): Sample(
        Registry([chain for chain in DEFAULT_REGISTRY if chain.chain_id != 8453]),
        refused(errors.UnsafePayloadError),
        client=KEYLESS,
        probe=_relay,
    ),
    ("relay_signed_tx", "signed_tx"): Sample(SIGNED_TX, wire("signedTx")),
    ("relay_signed_tx", "min_balance_required"): Sample(424_242, wire("minBalanceRequired")),
    ("relay_signed_tx", "from_address"): Sample(SECOND_WALLET.address, wire("fromAddress")),
    ("relay_signed_tx", "chain_id"): Sample(
        42161, wire("chainId"), extra={"signed_tx": _signed_tx(42161)}
    ),
    ("__init__", "api_key"): Sample(
        From(lambda env: env.sandbox.api_keys["relayer"]), api_key_sent
    ),
    ("__init__", "base_url"): own_url()("relayer"),
    ("__init__", "paths"): Sample(RelayerPaths(tx="/api/tx-wire"), path_ends(lambda p: p.tx)),
    ("with_options", "api_key"): Sample("relayer-key-wire", api_key_sent),
    ("with_options", "base_url"): own_url("/v2")("relayer"),
    ("__init__", "allow_insecure_http"): insecure("relayer"),
    ("with_options", "allow_insecure_http"): insecure("relayer", copy=True),
    ("*", "to"): Sample("0x000000000000000000000000000000000000bEEF", wire("to")),
    ("*", "call_data"): Sample("0xa9059cbb", wire("callData")),
    ("*", "chain_id"): Sample(42161, wire("chainId")),
    ("*", "value"): Sample(777, wire("value")),
    ("*", "should_batch_in_multicall"): Sample(True, wire("shouldBatchInMulticall")),
    ("*", "gas_price"): Sample(1_234_567, wire("gasPrice")),
    ("*", "max_priority_fee_per_gas"): Sample(
        1_111, wire("maxPriorityFeePerGas"), extra={"max_fee_per_gas": 9_999}
    ),
    ("*", "max_fee_per_gas"): Sample(
        8_888, wire("maxFeePerGas"), extra={"max_priority_fee_per_gas": 11}
    ),
    ("*", "gas_limit"): Sample(123_457, wire("gasLimit")),
    ("*", "max_usd"): Sample("3.25", wire("maxUSD")),
    ("*", "label"): Sample("wire-label", wire("label")),
    ("*", "max_gas"): Sample(654_321, wire("maxGas")),
    ("*", "retries"): Sample(4, wire("retries")),
    ("*", "transaction_type"): Sample("flash-blocks", wire("transactionType")),
    ("*", "is_authenticated_tx"): Sample(True, wire("isAuthenticatedTx")),
    ("*", "derivation_path"): Sample("m/44'/60'/0'/0/7", wire("derivationPath")),
    ("*", "authorization_list"): Sample(
        [AUTHORIZATION], wire("authorizationList", lambda v: [a.to_wire() for a in v])
    ),
    ("__init__", "chain_families"): Sample(
        {4242: "solana"},
        # Without the entry, a base58 key for chain 4242 is refused before I/O.
        wire("to", lambda _: SOLANA_KEY),
        probe=lambda client: client.relay(chain_id=4242, to=SOLANA_KEY, call_data="0x"),
    ),
    ("__init__", "chain_list_ttl"): Sample(
        0,
        # Kept 0 seconds: the second question reads the list again.
        asked_times("/api/supported-chains", 2),
        probe=lambda client: _twice(client.is_chain_supported, 8453),
    ),
    ("*", "refresh"): Sample(
        True, asked_times("/api/supported-chains", 2), warm=lambda c: c.get_supported_chains()
    ),
    ("relay_sync", "timeout_ms"): Sample(4_321, wire("timeoutMs")),
    ("*", "include_receipt"): Sample(True, wire("includeReceipt")),
    ("*", "include_revert_info"): Sample(True, wire("includeRevertInfo")),
    ("*", "tx_id"): Sample("5f" * 12, wire("id")),
    ("*", "timeout_ms"): Sample(1_000, timed_out(1 / 1000)),
    ("*", "poll_interval_ms"): Sample(400, polled_every("/api/tx", 1 / 1000)),
    ("*", "address"): Sample("0x000000000000000000000000000000000000c0de", wire("address")),
    ("is_chain_supported", "chain_id"): Sample(4242, result_is(lambda answer, _: answer is False)),
}

QUOTE = {
    "from_chain": 8453,
    "to_chain": 42161,
    "from_token": USDC_BASE,
    "to_token": USDC_ARBITRUM,
    "amount": 5_000_000,
    "sender": TEST_SIGNER.address,
}
GASLESS = {key: value for key, value in QUOTE.items() if key != "sender"}
FROM_ARBITRUM = {**GASLESS, "from_chain": 42161, "from_token": USDC_ARBITRUM,
                 "to_chain": 8453, "to_token": USDC_BASE}  # fmt: skip


def no_error(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
    assert error is None, error


ROUTING: dict[tuple[str, str], Sample] = {
    ("__init__", "api_key"): Sample(
        From(lambda env: env.sandbox.api_keys["routing"]), api_key_sent
    ),
    ("__init__", "base_url"): own_url()("routing"),
    ("__init__", "paths"): Sample(
        RoutingPaths(supported_chains="/chains-wire"), path_ends(lambda p: p.supported_chains)
    ),
    ("with_options", "api_key"): Sample("routing-key-wire", api_key_sent),
    ("with_options", "base_url"): own_url("/v2")("routing"),
    ("__init__", "allow_insecure_http"): insecure("routing"),
    ("with_options", "allow_insecure_http"): insecure("routing", copy=True),
    ("__init__", "unsafe_trust_service_parties"): Sample(
        True,
        # Unpinned, the chain list is read for the routing contract (refused otherwise).
        asked("/supported-chains"),
        client={"routing_contracts": {}},
        probe=lambda client: client.gasless_swap(TEST_SIGNER, **FROM_ARBITRUM),
    ),
    ("*", "max_slippage"): Sample("50", wire("slippage", lambda _: "40"), extra={"slippage": 40}),
    ("get_gasless_quote", "min_amount_out"): Sample(10**30, refused(errors.UnsafePayloadError)),
    ("get_gasless_quote", "sign_unverified_payload"): Sample(
        True,
        no_error,
        arrange=lambda env: env.sandbox.faults.tamper_gasless_quote(
            {"eip712.message.spender": OTHER}
        ),
    ),
    ("submit_gasless_swap", "sign_unverified_payload"): Sample(
        # The other samples submit an unverified quote with the opt-in; without it,
        # nothing is sent.
        False,
        refused(errors.UnsafePayloadError),
    ),
    ("__init__", "routing_contracts"): Sample(
        {8453: OTHER},
        refused(errors.UnsafePayloadError),
        probe=lambda client: client.gasless_swap(TEST_SIGNER, **GASLESS),
    ),
    ("__init__", "chain_list_ttl"): Sample(
        0,
        asked_times("/supported-chains", 2),
        probe=lambda client: _twice(client.get_supported_chains),
    ),
    ("*", "refresh"): Sample(
        True, asked_times("/supported-chains", 2), warm=lambda c: c.get_supported_chains()
    ),
    **{
        (method, "provider_key"): Sample(
            "across",
            wire("providerKey"),
            extra={"tx_ref": "ref-wire", "tx_hash": None, "from_chain": None, **more},
        )
        for method, more in (("get_status", {}), ("wait_for_status", {"wait_timeout": 6}))
    },
    **{
        (method, "tx_ref"): Sample(
            "0x" + "5d" * 32,
            wire("txRef"),
            extra={"provider_key": "relay", "tx_hash": None, "from_chain": None, **more},
        )
        for method, more in (("get_status", {}), ("wait_for_status", {"wait_timeout": 6}))
    },
    ("build_path_flat", "amount"): Sample(7_654_321, wire("Amount")),
    ("build_path_flat", "sender"): Sample(OTHER, wire("Sender")),
    ("gasless_swap", "min_amount_out"): Sample(
        10**30, refused(errors.UnsafePayloadError), extra={"acquisition_mode": 3}
    ),
    ("gasless_swap", "sign_unverified_payload"): Sample(
        True,
        # Signed as given and submitted (the sandbox then refuses the tampered permit),
        # where the default would refuse before signing.
        asked("/gasless/submit-swap"),
        arrange=lambda env: env.sandbox.faults.tamper_gasless_quote(
            {"eip712.message.spender": OTHER}
        ),
    ),
    ("*", "from_chain"): Sample(42161, wire("fromChain")),
    ("*", "to_chain"): Sample(10, wire("toChain")),
    ("*", "from_token"): Sample("0x00000000000000000000000000000000000F00D0", wire("fromToken")),
    ("*", "to_token"): Sample("0x00000000000000000000000000000000000F00D1", wire("toToken")),
    ("*", "amount"): Sample(7_654_321, wire("amount")),
    ("*", "sender"): Sample(OTHER, wire("sender")),
    ("*", "receiver"): Sample("0x000000000000000000000000000000000000BEEF", wire("receiver")),
    ("*", "slippage"): Sample("0.37", wire("slippage")),
    ("*", "fee_bps"): Sample(37, wire("feeBps")),
    ("*", "include_providers"): Sample(["across"], wire("includeProvider", lambda v: v[0])),
    ("*", "exclude_providers"): Sample(["stargate"], wire("excludeProvider", lambda v: v[0])),
    ("*", "route_mode"): Sample("fastest", wire("routeMode")),
    ("*", "integrator"): Sample("wire-integrator", wire("Integrator")),
    ("*", "allow_multi_bridge"): Sample(True, wire("allowMultiBridge")),
    ("*", "acquisition_mode"): Sample(3, wire("acquisitionMode")),
    ("*", "priority_provider"): Sample("relay", wire("priorityProvider")),
    ("*", "referrer"): Sample("wire-referrer", wire("Referrer")),
    ("*", "destination_call_data"): Sample("0xfeed", wire("destinationCallData")),
    ("*", "destination_gas_limit"): Sample(321_987, wire("destinationGasLimit")),
    ("*", "allowed_price_impact"): Sample("2.5", wire("allowedPriceImpact")),
    ("*", "simulation"): Sample(True, wire("simulation")),
    ("*", "min_output_amount"): Sample(4_000_001, wire("minOutputAmount")),
    ("*", "include_route"): Sample(True, wire("includeRoute")),
    ("build_path", "route"): Sample(
        From(lambda env: env.routes[1]), wire("quoteId", lambda route: route.quote_id)
    ),
    ("build_path_by_id", "quote_id"): Sample(
        From(lambda env: env.routes[1].quote_id), wire("quoteId")
    ),
    ("*", "tx_hash"): Sample("0x" + "5c" * 32, wire("txHash")),
    ("*", "user_address"): Sample(OTHER, wire("userAddress")),
    ("*", "query"): Sample("WETH", wire("query")),
    ("*", "chain_id"): Sample(42161, wire("chainId")),
    ("*", "ranking_mode"): Sample("speed_max", wire("rankingMode")),
    ("*", "deadline_minutes"): Sample(17, wire("deadlineMinutes")),
    ("*", "meta"): Sample("wire-meta", wire("meta")),
    ("*", "quote_id"): Sample("gq-wire-1", wire("quoteId")),
    ("*", "signature"): Sample("0x" + "2c" * 65, wire("signature")),
    ("*", "swap_id"): Sample("gs-wire-unknown", wire("id")),
    ("*", "wait_timeout"): Sample(12.0, timed_out(1)),
    ("wait_for_status", "poll_interval"): Sample(3.0, polled_every("/status")),
    ("wait_for_gasless_status", "poll_interval"): Sample(0.75, polled_every("/gasless/status")),
    ("wait_for_status", "is_done"): Sample(
        From(lambda env: Predicate()), predicate_asked, extra={"tx_hash": From(lambda e: e.tx_hash)}
    ),
    ("wait_for_gasless_status", "is_done"): Sample(
        From(lambda env: Predicate()), predicate_asked, extra={"swap_id": From(lambda e: e.swap_id)}
    ),
    ("gasless_swap", "signer"): Sample(SECOND_WALLET, wire("sender", lambda w: w.address)),
    ("gasless_swap", "wait"): Sample(True, asked("/gasless/status")),
    # Checked before any I/O; what they do is tested in tests/routing/test_gasless_requote.py.
    ("gasless_swap", "requote"): Sample(99, refused(errors.InvalidInputError)),
    ("gasless_swap", "accept_quote"): Sample("not callable", refused(errors.InvalidInputError)),
    ("gasless_swap", "wait_timeout"): Sample(0.5, timed_out(1), extra={"wait": True}),
    ("gasless_swap", "poll_interval"): Sample(
        0.75, polled_every("/gasless/status"), extra={"wait": True}
    ),
    ("gasless_swap", "is_done"): Sample(
        From(lambda env: Predicate()),
        lambda env, v, r, e: predicate_asked(env, v, r.record, e),
        extra={"wait": True},
    ),
}

SWAP = {"input_amount": 2_000_000, "output_token": WETH_BASE, "chain_id": 8453, "slippage": "0.5"}

FLASH: dict[tuple[str, str], Sample] = {
    ("__init__", "base_url"): own_url()("flash"),
    ("__init__", "signer"): Sample(SECOND_WALLET, wire("userAddress", lambda w: w.address)),
    ("__init__", "jwt"): Sample("jwt.wire.test", bearer_sent, client={"signer": None}),
    ("with_options", "api_key"): Sample("flash-key", refused(errors.InvalidInputError)),
    ("with_options", "base_url"): own_url("/v2")("flash"),
    ("__init__", "allow_insecure_http"): insecure("flash"),
    ("with_options", "allow_insecure_http"): insecure("flash", copy=True),
    ("__init__", "registry"): Sample(
        From(lambda env: env.other_registry),
        refused(errors.UnsafePayloadError),
        probe=lambda client: client.swap(TEST_SIGNER, **SWAP),
    ),
    ("__init__", "trusted_routers"): Sample(
        {chain.id: [chain.router] for chain in FLASH_CHAINS},
        refused_at("quote.hook_data"),  # pinned by address: past the router, format unknown
        client={"registry": DEFAULT_REGISTRY},
        probe=lambda client: client.swap(TEST_SIGNER, **SWAP),
    ),
    ("__init__", "gateway"): Sample(
        From(lambda env: env.client("gateway")),
        asked("/v1/balances"),
        probe=lambda client: client.wait_for_gateway_balance(TEST_SIGNER.address, 8453, at_least=1),
    ),
    ("wait_for_gateway_balance", "depositor"): Sample(
        SECOND_WALLET.address, path_ends(lambda address: f"/balance/{address}")
    ),
    ("wait_for_gateway_balance", "chain_id"): Sample(
        42161, result_is(lambda units, _: units == 100_000_000)
    ),
    ("wait_for_gateway_balance", "at_least"): Sample(
        10**12, waited_for_amount, extra={"wait_timeout": 30, "poll_interval": 10}
    ),
    ("wait_for_gateway_balance", "wait_timeout"): Sample(
        25.0, timed_out(1), extra={"at_least": 10**12}
    ),
    ("wait_for_gateway_balance", "poll_interval"): Sample(
        7.0,
        polled_every(f"/balance/{TEST_SIGNER.address}"),
        extra={"at_least": 10**12, "wait_timeout": 30},
    ),
    ("__init__", "max_slippage"): Sample(
        "0.25",
        refused(errors.InvalidInputError),
        probe=lambda client: client.swap(TEST_SIGNER, **SWAP),
    ),
    ("*", "max_slippage"): Sample("0.25", refused(errors.InvalidInputError)),
    ("__init__", "unsafe_trust_service_parties"): Sample(
        True,
        refused_at("quote.hook_data"),  # past the router, at its unknown format
        probe=lambda client: client.swap(TEST_SIGNER, **SWAP),
        arrange=lambda env: env.sandbox.faults.tamper_flash_router(OTHER, times=None),
    ),
    ("__init__", "unsafe_trust_router_output"): Sample(
        True,
        refused(errors.BadRequestError),  # signed and sent: the backend refuses the router
        client={"unsafe_trust_service_parties": True},
        probe=lambda client: client.swap(TEST_SIGNER, **SWAP),
        arrange=lambda env: env.sandbox.faults.tamper_flash_router(OTHER, times=None),
    ),
    ("swap", "unsafe_trust_router_output"): Sample(
        True,
        refused(errors.BadRequestError),  # signed and sent: the backend refuses the router
        client={"unsafe_trust_service_parties": True},
        arrange=lambda env: env.sandbox.faults.tamper_flash_router(OTHER, times=None),
    ),
    ("__init__", "unsafe_login_message"): Sample(
        True,
        refused(errors.AuthenticationError),  # signed: the sandbox then refuses the text
        arrange=lambda env: env.sandbox.faults.tamper_login_message(
            f"Sign in to Flash as {TEST_SIGNER.address}"
        ),
    ),
    ("*", "max_total_fee"): Sample(1, refused(errors.QuoteRejectedError)),
    ("build_order", "min_amount_out"): Sample(10**30, refused(errors.UnsafePayloadError)),
    ("build_order", "max_fee_cap"): Sample(1, refused(errors.QuoteRejectedError)),
    ("swap", "min_amount_out"): Sample(10**30, refused(errors.UnsafePayloadError)),
    # Checked before any I/O; what they do is tested in tests/journal/test_requote.py.
    ("swap", "requote"): Sample(99, refused(errors.InvalidInputError)),
    ("swap", "accept_quote"): Sample("not callable", refused(errors.InvalidInputError)),
    ("login", "signer"): Sample(SECOND_WALLET, wire("userAddress", lambda w: w.address)),
    ("*", "referred_by_code"): Sample("REF-WIRE", wire("referredByCode")),
    ("request_auth_message", "user_address"): Sample(OTHER, wire("userAddress")),
    ("verify_auth", "signature"): Sample("0x" + "4e" * 65, wire("signature")),
    ("verify_auth", "message_id"): Sample("m-wire-2", wire("messageId")),
    ("get_token_list", "chain_id"): Sample(42161, wire("chain_id")),
    ("search_token", "chain_id"): Sample(42161, wire("chainId")),
    ("search_token", "address"): Sample(USDC_ARBITRUM, wire("address")),
    ("*", "input_amount"): Sample(1_500_000, wire("inputAmount")),
    ("*", "output_token"): Sample(USDC_BASE, wire("outputToken")),
    ("get_quote", "chain_id"): Sample(42161, wire("chainId")),
    ("swap", "chain_id"): Sample(42161, wire("chainId")),
    ("get_quote", "sender"): Sample(OTHER, wire("from")),
    ("get_quote", "slippage"): Sample("1.25", wire("slippage")),
    ("*", "recipient"): Sample(OTHER, wire("recipient")),
    ("get_balance", "address"): Sample(OTHER, path_ends(lambda address: address)),
    ("*", "page"): Sample(3, wire("page")),
    ("*", "page_size"): Sample(7, wire("page_size")),
    ("*", "status"): Sample("failed", wire("status")),
    ("*", "time_range"): Sample("7d", wire("time_range")),
    ("submit_swap", "signed_order"): Sample(
        From(lambda env: env.signed_order.to_wire()), wire("signedOrder")
    ),
    ("submit_swap", "slippage_bps"): Sample(75, wire("slippageBps")),
    ("submit_swap", "user_address"): Sample(
        From(lambda env: env.signed_order.order.user), wire("userAddress")
    ),
    ("submit_swap", "chain_id"): Sample(
        From(lambda env: env.signed_order.order.chain_id), wire("chainId")
    ),
    ("submit_swap", "swap_router_address"): Sample(
        From(lambda env: env.signed_order.order.swap_router_address), wire("swapRouterAddress")
    ),
    ("submit_swap", "swap_calldata"): Sample(
        From(lambda env: env.signed_order.order.swap_calldata), wire("swapCalldata")
    ),
    ("swap", "signer"): Sample(
        SECOND_WALLET, wire("userAddress", lambda w: w.address), client={"signer": None}
    ),
    ("swap", "slippage"): Sample("1.5", wire("slippageBps", lambda _: 150)),
    ("swap", "sources"): Sample({8453: 2_000_000}, swapped_from(6)),
    ("swap", "max_fee_cap"): Sample(1, refused(errors.QuoteRejectedError)),
    ("swap", "wait"): Sample(True, asked("/history")),
    ("swap", "wait_timeout"): Sample(0.5, timed_out(1), extra={"wait": True}),
    ("swap", "poll_interval"): Sample(0.75, polled_every("/history"), extra={"wait": True}),
    ("wait_for_swap", "transaction_hash"): Sample(
        From(lambda env: env.swapped_hash),
        result_is(lambda record, wanted: record.transaction_hash == wanted),
    ),
    ("wait_for_swap", "wait_timeout"): Sample(0.5, timed_out(1)),
    ("wait_for_swap", "poll_interval"): Sample(
        0.75, polled_every("/history"), extra={"wait_timeout": 5}
    ),
    ("build_order", "quote"): Sample(
        From(lambda env: env.small_quote),
        result_is(lambda order, quote: order.amount == quote.token_in.amount),
    ),
    ("build_order", "chains"): Sample(
        From(lambda env: [c for c in env.chains if c.id != 42161]),
        result_is(lambda order, _: [s.chain_id for s in order.sources] == [8453]),
    ),
    ("build_order", "balances"): Sample(
        {8453: 50_000_000},
        result_is(lambda order, _: [s.chain_id for s in order.sources] == [8453]),
    ),
    ("build_order", "user"): Sample(
        SECOND_WALLET.address,
        result_is(lambda order, user: order.user == user),
        extra={
            "balances": From(lambda env: env.second_balances),
            "recipient": TEST_SIGNER.address,  # the quote pays the wallet that asked
        },
    ),
    ("build_order", "recipient"): Sample(OTHER, refused_at("quote.hook_data.recipient")),
    ("build_order", "sources"): Sample(
        {8453: 2_000_000},
        result_is(lambda order, _: [s.chain_id for s in order.sources] == [8453]),
    ),
    ("build_order", "max_fee"): Sample(
        2_345_678, result_is(lambda order, fee: {s.max_fee for s in order.sources} == {fee})
    ),
    ("build_order", "chain_id"): Sample(8453, result_is(lambda order, c: order.chain_id == c)),
    ("sign_order", "order"): Sample(
        From(lambda env: env.second_order),
        result_is(lambda signed, order: signed.order is order),
        extra={"signer": SECOND_WALLET},
    ),
    ("sign_order", "signer"): Sample(
        SECOND_WALLET,
        result_is(lambda signed, wallet: signed.signer == wallet.address),
        extra={"order": From(lambda env: env.second_order)},
    ),
}

# ---------------------------------------------------------------------------- gateway

UNKNOWN_TRANSFER = "3c90c3cc-0d44-4b50-8888-8dd25736052a"
ME = TEST_SIGNER.address


def _testnet_url(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
    # The sandbox URL is passed too, so what ``testnet`` changes is the chains' network.
    assert isinstance(error, errors.InvalidInputError), error
    assert "testnet" in str(error)


def _registry_used(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
    # The client asks for the registry's domain of chain 8453 (the sandbox does not
    # serve domain 77 and says so).
    wire("domain")(env, 77, result, error)


def _waited_for(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
    # 50 USDC are there: one unit more is never reached, and the message says what was.
    assert isinstance(error, errors.WaitTimeoutError), error
    assert f"reach {value} units" in str(error)


def _polled_transfer(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
    assert error is None, error
    polled_every(f"/v1/transfer/{env.transfer_id}")(env, value, result, error)


def _intent(value: int = 1_000_000, **overrides: Any) -> Any:
    return build_transfer_intent(
        source_chain_id=8453,
        destination_chain_id=42161,
        depositor=ME,
        recipient=ME,
        value=value,
        **overrides,
    )


CUSTOM = DEFAULT_REGISTRY.chain(8453)
REGISTRY_WITH_DOMAIN_77 = DEFAULT_REGISTRY.with_chains(
    type(CUSTOM)(
        chain_id=8453,
        name="Base (re-numbered)",
        domain=77,
        usdc=CUSTOM.usdc,
        gateway_wallet=CUSTOM.gateway_wallet,
        gateway_minter=CUSTOM.gateway_minter,
        testnet=False,
    )
)

GATEWAY: dict[tuple[str, str], Sample] = {
    ("__init__", "base_url"): Sample(From(lambda env: env.sandbox.url("gateway")), url_starts),
    ("__init__", "testnet"): Sample(True, _testnet_url),
    ("__init__", "registry"): Sample(REGISTRY_WITH_DOMAIN_77, _registry_used),
    ("with_options", "api_key"): Sample("gateway-key", refused(errors.InvalidInputError)),
    ("__init__", "allow_insecure_http"): insecure("gateway"),
    ("with_options", "allow_insecure_http"): insecure("gateway", copy=True),
    ("with_options", "base_url"): Sample(
        From(lambda env: env.sandbox.url("gateway") + "/v2"), url_starts
    ),
    ("get_balances", "depositor"): Sample(
        "0x000000000000000000000000000000000000bEEF", wire("depositor")
    ),
    ("get_balances", "chain_ids"): Sample([42161], wire("domain", lambda _: 3)),
    ("get_balances", "domains"): Sample([0], wire("domain", lambda domains: domains[0])),
    ("get_balances", "token"): Sample("EURC", wire("token")),
    ("estimate", "intents"): Sample(
        From(lambda env: _intent(2_345_678)), wire("value", lambda i: str(i.spec.value))
    ),
    ("estimate", "max_attestation_size"): Sample(4096, wire("maxAttestationSize")),
    ("transfer", "signed"): Sample(
        From(lambda env: sign_burn_intent(_intent(1_234_567), TEST_SIGNER)),
        wire("value", lambda s: str(s.intent.spec.value)),
    ),
    ("transfer", "max_attestation_size"): Sample(8192, wire("maxAttestationSize")),
    ("transfer", "enable_forwarder"): Sample(True, wire("enableForwarder", lambda _: "true")),
    ("get_transfer", "transfer_id"): Sample(
        UNKNOWN_TRANSFER, path_ends(lambda value: f"/v1/transfer/{value}")
    ),
    ("wait_for_transfer", "transfer_id"): Sample(
        From(lambda env: env.transfer_id), result_is(lambda record, _: record.status)
    ),
    ("wait_for_transfer", "until"): Sample(
        "confirmed", result_is(lambda record, value: record.status == value)
    ),
    ("wait_for_transfer", "wait_timeout"): Sample(
        0.5, timed_out(1.0), extra={"poll_interval": 0.25}
    ),
    ("wait_for_transfer", "poll_interval"): Sample(
        0.75, _polled_transfer, extra={"until": "confirmed"}
    ),
    ("wait_for_gateway_balance", "depositor"): Sample(ME, wire("depositor")),
    ("wait_for_gateway_balance", "chain_id"): Sample(1, wire("domain", lambda _: 0)),
    ("wait_for_gateway_balance", "at_least"): Sample(
        50_000_001, _waited_for, extra={"wait_timeout": 30, "poll_interval": 10}
    ),
    ("wait_for_gateway_balance", "wait_timeout"): Sample(
        40.0, timed_out(1.0), extra={"at_least": 10**12}
    ),
    ("wait_for_gateway_balance", "poll_interval"): Sample(
        7.0, polled_every("/v1/balances"), extra={"at_least": 10**12, "wait_timeout": 30}
    ),
    ("wait_for_gateway_balance", "token"): Sample("EURC", wire("token")),
    ("domain_of", "chain_id"): Sample(42161, result_is(lambda domain, _: domain == 3)),
    ("get_deposits", "depositor"): Sample(
        "0x000000000000000000000000000000000000bEEF", wire("depositor")
    ),
    ("get_deposits", "chain_ids"): Sample([42161], wire("domain", lambda _: 3)),
    ("get_deposits", "domains"): Sample([0], wire("domain", lambda domains: domains[0])),
    ("get_deposits", "token"): Sample("EURC", wire("token")),
    ("submit_batch", "signer"): Sample(SECOND_WALLET, wire("from", lambda s: s.address)),
    ("submit_batch", "chain_id"): Sample(1, wire("sendingDomain", lambda _: 0)),
    ("submit_batch", "to"): Sample(OTHER, wire("to")),
    ("submit_batch", "value"): Sample(123_456, wire("value")),
    # Eight days after the sandbox's start (1_735_689_600): within Gateway's seven-day
    # minimum and the SDK's fourteen-day maximum.
    ("submit_batch", "valid_before"): Sample(1_735_689_600 + 8 * 86_400, wire("validBefore")),
    ("submit_batch", "nonce"): Sample("0x" + "cd" * 32, wire("nonce")),
    ("get_x402_transfer", "transfer_id"): Sample(
        UNKNOWN_TRANSFER, path_ends(lambda value: f"/v1/x402/transfers/{value}")
    ),
    ("iter_x402_transfers", "from_address"): Sample(ME, wire("from")),
    ("iter_x402_transfers", "to_address"): Sample(OTHER, wire("to")),
    ("iter_x402_transfers", "nonce"): Sample("0x" + "ab" * 32, wire("nonce")),
    ("iter_x402_transfers", "status"): Sample(
        "completed", wire("status"), extra={"from_address": ME}
    ),
    ("iter_x402_transfers", "network"): Sample("eip155:8453", wire("network")),
    ("iter_x402_transfers", "token"): Sample("USDC", wire("token")),
    ("iter_x402_transfers", "page_size"): Sample(7, wire("pageSize")),
    ("get_notification_public_key", "key_id"): Sample(
        From(lambda env: env.sandbox.gateway.webhook_key_id),
        path_ends(lambda value: f"/v2/notifications/publicKey/{value}"),
    ),
    ("verify_webhook", "body"): Sample(
        From(lambda env: env.webhook_body),
        result_is(lambda notification, _: notification.notification_id == "wire-n"),
    ),
    ("verify_webhook", "signature"): Sample(
        From(lambda env: env.webhook_signature),
        result_is(lambda notification, _: notification.notification_type == "wire.test"),
    ),
    ("verify_webhook", "key_id"): Sample(
        From(lambda env: env.sandbox.gateway.webhook_key_id),
        path_ends(lambda value: f"/v2/notifications/publicKey/{value}"),
    ),
}


def prepare_gateway(env: Env, method: str) -> None:
    sb = env.sandbox
    sb.fund(ME, 8453, 50_000_000)
    sb.fund(ME, 1, 2_000_000)
    if method == "verify_webhook":
        body = sb.gateway.notification_body("wire.test", {}, notification_id="wire-n")
        env.state["webhook_body"] = body
        env.state["webhook_signature"] = sb.gateway.sign_webhook(body)
    if method == "wait_for_transfer":
        gateway = sb.gateway_client()
        result = gateway.transfer(sign_burn_intent(_intent(), TEST_SIGNER))
        env.state["transfer_id"] = result.transfer_id


def gateway_arguments(env: Env, method: str) -> dict[str, Any]:
    if method == "get_balances":
        return {"depositor": ME}
    if method == "estimate":
        return {"intents": _intent()}
    if method == "transfer":
        return {"signed": sign_burn_intent(_intent(), TEST_SIGNER)}
    if method in ("get_transfer",):
        return {"transfer_id": UNKNOWN_TRANSFER}
    if method == "wait_for_transfer":
        return {"transfer_id": env.transfer_id, "poll_interval": 60.0}
    if method == "wait_for_gateway_balance":
        return {"depositor": ME, "chain_id": 8453, "at_least": 1}
    if method == "domain_of":
        return {"chain_id": 8453}
    if method == "get_deposits":
        return {"depositor": ME}
    if method == "submit_batch":
        return {"signer": TEST_SIGNER, "chain_id": 8453, "to": OTHER, "value": 1}
    if method == "get_x402_transfer":
        return {"transfer_id": UNKNOWN_TRANSFER}
    if method == "get_notification_public_key":
        return {"key_id": env.sandbox.gateway.webhook_key_id}
    if method == "verify_webhook":
        return {
            "body": env.webhook_body,
            "signature": env.webhook_signature,
            "key_id": env.sandbox.gateway.webhook_key_id,
        }
    return {}


SAMPLES = {"relayer": RELAYER, "routing": ROUTING, "flash": FLASH, "gateway": GATEWAY}


def sample_for(service: str, method: str, param: str) -> Sample | None:
    if method.startswith("wait_") and param == "timeout":
        # A wait refuses the per-request timeout, which reads as its limit: tests/test_waits.py.
        return Sample(30, refused(errors.InvalidInputError))
    table = SAMPLES[service]
    return table.get((method, param)) or table.get(("*", param)) or COMMON.get(param)


# ---------------------------------------------------------------------------- setup


def prepare(env: Env, service: str, method: str) -> None:
    """Put in the sandbox (with unrecorded clients) what the method under test needs."""
    sb = env.sandbox
    if service == "gateway":
        prepare_gateway(env, method)
    if service == "routing":
        routing = sb.routing_client()
        if method in ("build_path", "build_path_by_id", "wait_for_status"):
            env.state["routes"] = routes = routing.get_quote(**QUOTE)
            env.state["tx_hash"] = sb.routing.broadcast(routing.build_path(routes[0], OTHER))
        if method == "wait_for_gasless_status":
            result = routing.gasless_swap(TEST_SIGNER, **GASLESS)
            env.state["swap_id"] = result.swap_id
    if service == "flash":
        # Arbitrum holds more, so an order picks it unless told otherwise.
        for chain_id, amount in ((8453, 50_000_000), (42161, 100_000_000)):
            sb.fund(TEST_SIGNER.address, chain_id, amount)
        sb.fund(SECOND_WALLET.address, 42161, 50_000_000)
        flash = sb.flash_client(TEST_SIGNER)
        base = DEFAULT_REGISTRY.chain(8453)
        # Base with another GatewayWallet: orders for Base must then be refused.
        env.state["other_registry"] = DEFAULT_REGISTRY.with_routers(*SANDBOX_ROUTERS).with_chains(
            dataclasses.replace(base, gateway_wallet=OTHER)
        )
        if method in ("build_order", "sign_order", "submit_swap"):
            quote = flash.get_quote(**SWAP, sender=TEST_SIGNER.address)
            env.state["chains"] = chains = flash.get_supported_chains()
            balances = flash.get_balance(TEST_SIGNER.address)
            env.state["second_balances"] = flash.get_balance(SECOND_WALLET.address)
            small = flash.get_quote(
                **{**SWAP, "input_amount": 1_000_000}, sender=TEST_SIGNER.address
            )
            env.state["small_quote"] = small
            env.state["order_inputs"] = {
                # Without the request it was asked with, so chain_id must be given.
                "quote": Quote.model_validate(quote.model_dump()),
                "chains": chains,
                "balances": balances,
                "user": TEST_SIGNER.address,
                "chain_id": 8453,
            }
            env.state["order"] = order = flash.build_order(
                quote, chains=chains, balances=balances, user=TEST_SIGNER.address
            )
            env.state["signed_order"] = flash.sign_order(order, TEST_SIGNER)
            env.state["second_order"] = flash.build_order(
                quote,
                chains=chains,
                balances=env.state["second_balances"],
                user=SECOND_WALLET.address,
                recipient=TEST_SIGNER.address,  # the quote pays the wallet that asked
            )
        if method == "wait_for_swap":
            swapped = flash.swap(TEST_SIGNER, **SWAP)
            env.state["swapped_hash"] = swapped.transaction_hash


def base_arguments(env: Env, service: str, method: str) -> dict[str, Any]:
    """The arguments a call of ``method`` needs, with ordinary values."""
    if service == "gateway":
        return gateway_arguments(env, method)
    if service == "relayer":
        submit = {"chain_id": 8453, "to": OTHER, "call_data": "0x"}
        if method in ("submit_tx", "relay", "relay_sync"):
            return submit
        if method in ("get_relay_status", "wait_for_execution_hash"):
            return {"tx_id": UNKNOWN_TX}
        if method == "wait_for_pending_execution_hash":
            return {"tx_id": UNKNOWN_TX}
        if method == "check_account_info":
            return {"address": OTHER}
        if method == "relay_signed_tx":
            return {
                "signed_tx": SIGNED_TX,
                "min_balance_required": 1,
                "from_address": SECOND_WALLET.address,
                "chain_id": 8453,
            }
        if method == "is_chain_supported":
            return {"chain_id": 8453}
    if service == "routing":
        if method in ("get_quote", "build_best_path", "get_gasless_quote"):
            return dict(QUOTE)
        if method == "gasless_swap":
            return {"signer": TEST_SIGNER, **GASLESS}
        if method == "build_path":
            return {"route": env.routes[0], "sender": TEST_SIGNER.address}
        if method == "build_path_flat":
            return dict(QUOTE)
        if method == "build_path_by_id":
            return {"quote_id": env.routes[0].quote_id}
        if method in ("get_status", "wait_for_status"):
            return {"tx_hash": UNKNOWN_HASH, "from_chain": 8453}
        if method == "search_token":
            return {"query": "USDC"}
        if method in ("get_gasless_status", "wait_for_gasless_status"):
            return {"swap_id": "gs-unknown"}
        if method == "submit_gasless_swap":
            return {
                "quote_id": "gq-unknown",
                "signature": "0x" + "1b" * 65,
                "sign_unverified_payload": True,
            }
    if service == "flash":
        if method == "get_quote":
            return {**SWAP, "sender": TEST_SIGNER.address}
        if method == "swap":
            return {"signer": TEST_SIGNER, **SWAP}
        if method == "get_balance":
            return {"address": TEST_SIGNER.address}
        if method == "wait_for_gateway_balance":
            return {"depositor": TEST_SIGNER.address, "chain_id": 8453, "at_least": 1}
        if method == "search_token":
            return {"chain_id": 8453, "address": WETH_BASE}
        if method == "request_auth_message":
            return {"user_address": TEST_SIGNER.address}
        if method == "verify_auth":
            return {"signature": "0x" + "3d" * 65, "message_id": "m-wire"}
        if method == "wait_for_swap":
            return {"transaction_hash": UNKNOWN_HASH}
        if method == "submit_swap":
            order = env.signed_order.order
            return {
                "signed_order": env.signed_order.to_wire(),
                "slippage_bps": 50,
                "user_address": order.user,
                "chain_id": order.chain_id,
                "swap_router_address": order.swap_router_address,
                "swap_calldata": order.swap_calldata,
            }
        if method == "build_order":
            return dict(env.order_inputs)
        if method == "sign_order":
            return {"order": env.order, "signer": TEST_SIGNER}
    return {}


PROBES: dict[str, Callable[[Any], Any]] = {
    "relayer": lambda client: client.get_relay_status(UNKNOWN_TX),
    "routing": lambda client: client.get_supported_chains(),
    "flash": lambda client: client.get_history(),
    "gateway": lambda client: client.get_balances(TEST_SIGNER.address, chain_ids=[8453]),
}
"""A call that shows a client's configuration on the wire (the flash one needs a login)."""


# ---------------------------------------------------------------------------- the tests


def parameters() -> list[tuple[str, str, str]]:
    """(service, method, parameter) for every public method and keyword of the clients."""
    found = []
    for service, (sync_cls, _) in CLIENTS.items():
        for name, member in inspect.getmembers(sync_cls, callable):
            if (name.startswith("_") and name != "__init__") or name in NOT_ARGUMENTS:
                continue
            if (service, name) in ELSEWHERE:
                continue
            for param in inspect.signature(member).parameters.values():
                if param.name == "self":
                    continue
                if param.kind is inspect.Parameter.VAR_KEYWORD:
                    found += [(service, name, option) for option in OPTIONS]
                else:
                    found.append((service, name, param.name))
    return found


PARAMETERS = parameters()


def test_every_parameter_has_a_sample() -> None:
    missing = [p for p in PARAMETERS if sample_for(*p) is None]
    assert not missing, f"give these arguments a sample in tests/test_wire.py: {missing}"


def test_both_flavours_take_the_same_arguments() -> None:
    # The async clients are the source of the sync ones; this guards the generator.
    for sync_cls, async_cls in CLIENTS.values():
        for name, member in inspect.getmembers(sync_cls, callable):
            if name.startswith("_") and name != "__init__":
                continue
            twin = getattr(async_cls, {"close": "aclose"}.get(name, name))
            assert list(inspect.signature(member).parameters) == list(
                inspect.signature(twin).parameters
            ), name


@pytest.fixture(autouse=True)
def _no_service_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("XSWAP_RELAYER_URL", "XSWAP_ROUTING_URL", "XSWAP_FLASH_URL", "XSWAP_FLASH_JWT"):
        monkeypatch.delenv(name, raising=False)
    for name in ("XSWAP_RELAYER_API_KEY", "XSWAP_ROUTING_API_KEY"):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.parametrize(
    ("service", "method", "param"), PARAMETERS, ids=["-".join(p) for p in PARAMETERS]
)
async def test_the_argument_reaches_the_wire(
    kind: str, service: str, method: str, param: str
) -> None:
    sample = sample_for(service, method, param)
    assert sample is not None
    with Sandbox() as sandbox:
        env = Env(kind, sandbox, Recorder(sandbox))
        try:
            prepare(env, service, method)
            value = made(sample.value, env)
            extra = {name: made(v, env) for name, v in sample.extra.items()}
            overrides = {name: made(v, env) for name, v in sample.client.items()}
            if sample.refuse is not None:
                env.recorder.refuse = sample.refuse(value)
            if sample.arrange is not None:
                sample.arrange(env)
            probe = sample.probe or PROBES[service]
            result: Any = None
            error: BaseException | None = None
            if method == "__init__":
                client = env.client(service, **{**overrides, param: value})
                result, error = await outcome(lambda: probe(client))
            elif method == "with_options":
                try:
                    copy = env.client(service, **overrides).with_options(**{**extra, param: value})
                except errors.InvalidInputError as exc:
                    error = exc
                else:
                    env.made.append(copy)  # the checks read the last client made
                    result, error = await outcome(lambda: probe(copy))
            else:
                client = env.client(service, **overrides)
                if sample.warm is not None:
                    await resolve(sample.warm(client))
                arguments = {**base_arguments(env, service, method), **extra}
                arguments[param] = value
                result, error = await outcome(lambda: getattr(client, method)(**arguments))
            sample.check(env, value, result, error)
        finally:
            await env.close()
