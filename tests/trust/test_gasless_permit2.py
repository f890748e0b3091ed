"""The gasless quote's Permit2 payload is compared field by field with what the caller
asked for before it is signed: honest sandbox payloads pass, and any single change to
one is refused."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xswap_sdk import errors
from xswap_sdk._cache import ChainListCache
from xswap_sdk.routing import AcquisitionMode, GaslessQuote
from xswap_sdk.routing import _gasless as gasless
from xswap_sdk.routing import _verification as verification
from xswap_sdk.routing._operations import gasless_quote_request
from xswap_sdk.routing._permit2 import (
    DEFAULT_PERMIT_WINDOW,
    check_permit2_payload,
    witness_quote_id,
)
from xswap_sdk.sandbox import Sandbox

from .support import (
    TEST_ADDRESS,
    USDC_ARBITRUM,
    USDC_BASE,
    WETH_ARBITRUM,
    RecordingSigner,
    run_flow,
)

SWAP: dict[str, Any] = {
    "from_chain": 8453,
    "to_chain": 42161,
    "from_token": USDC_BASE,
    "to_token": WETH_ARBITRUM,
    "amount": 250_000_000,
}


def honest(mode: int | None, **changes: Any) -> tuple[GaslessQuote, Any, str, float]:
    """A quote from the sandbox, the request it answers, the spender and the time."""
    fields = {**SWAP, "acquisition_mode": mode, **changes}
    with Sandbox() as sb:
        routing = sb.routing_client()
        (quote, *_) = routing.get_gasless_quote(sender=TEST_ADDRESS, **fields)
        spender = verification.service_contract(routing.get_supported_chains(), SWAP["from_chain"])
        now = sb.clock.time()
    return quote, gasless_quote_request(sender=TEST_ADDRESS, **fields), spender, now


WITNESS = honest(3, slippage="0.5")
PLAIN = honest(2)


def check(quote: GaslessQuote, request: Any, spender: str, now: float, **kw: Any) -> None:
    check_permit2_payload(quote, request=request, spender=spender, now=now, **kw)


def with_payload(quote: GaslessQuote, payload: Any) -> GaslessQuote:
    return quote.model_copy(update={"eip712": payload})


@pytest.mark.parametrize(
    "changes",
    [
        {"acquisition_mode": 2},
        {"acquisition_mode": 3},
        {"acquisition_mode": 3, "slippage": "1.5", "receiver": "0x" + "12" * 20},
        {"acquisition_mode": 3, "deadline_minutes": 90, "to_token": USDC_ARBITRUM},
        {"acquisition_mode": None},
    ],
)
def test_honest_sandbox_payloads_pass(changes: dict[str, Any]) -> None:
    mode = changes.pop("acquisition_mode")
    check(*honest(mode, **changes))


def test_the_witness_binds_the_quote_and_the_destination() -> None:
    quote, request, _, _ = WITNESS
    witness = quote.eip712["message"]["witness"]
    assert witness["quoteId"] == witness_quote_id(quote.quote_id)
    assert witness["receiver"] == TEST_ADDRESS
    assert int(witness["toChainId"]) == request.to_chain


def test_a_caller_minimum_above_the_witness_is_refused() -> None:
    quote, request, spender, now = WITNESS
    minimum = int(quote.eip712["message"]["witness"]["minAmountOut"])
    check(quote, request, spender, now, min_amount_out=minimum)
    with pytest.raises(errors.UnsafePayloadError) as info:
        check(quote, request, spender, now, min_amount_out=minimum + 1)
    # The quote's summary states the same minimum, and is checked first.
    assert info.value.field in ("quote.quote.minAmountOut", "eip712.message.witness.minAmountOut")


def test_the_deadline_window_and_expiry() -> None:
    quote, request, spender, now = PLAIN
    deadline = int(quote.eip712["message"]["deadline"])
    # The sandbox's default window is 10 minutes, well within the SDK's 30.
    assert deadline - now <= DEFAULT_PERMIT_WINDOW
    with pytest.raises(errors.QuoteRejectedError):
        check(quote, request, spender, deadline + 1)
    later = copy.deepcopy(quote.eip712)
    later["message"]["deadline"] = str(int(now) + DEFAULT_PERMIT_WINDOW + 3600)
    moved = quote.model_copy(update={"eip712": later, "deadline": None})
    with pytest.raises(errors.UnsafePayloadError, match="deadline_minutes"):
        check(moved, request, spender, now)


def test_the_mode_asked_for_is_the_type_signed() -> None:
    quote, request, spender, now = PLAIN
    with pytest.raises(errors.UnsafePayloadError) as info:
        check(quote, request.model_copy(update={"acquisition_mode": AcquisitionMode(3)}),
              spender, now)  # fmt: skip
    assert info.value.field == "eip712.primaryType"


def test_a_string_chain_id_is_read_as_its_number() -> None:
    quote, request, spender, now = PLAIN
    payload = copy.deepcopy(quote.eip712)
    payload["domain"]["chainId"] = "8453"
    check(with_payload(quote, payload), request, spender, now)
    payload["domain"]["chainId"] = "0x2105"
    check(with_payload(quote, payload), request, spender, now)


def test_an_unlimited_permit_to_a_stranger_is_refused() -> None:
    # The attack of issue 9: any token, unlimited, to someone else.
    quote, request, spender, now = PLAIN
    payload = copy.deepcopy(quote.eip712)
    payload["message"]["permitted"]["amount"] = str(2**256 - 1)
    payload["message"]["spender"] = "0x" + "66" * 20
    with pytest.raises(errors.UnsafePayloadError) as info:
        check(with_payload(quote, payload), request, spender, now)
    assert info.value.field == "eip712.message.permitted.amount"


# ------------------------------------------------------------------ any single change


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*path, index))


def _get(root: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        root = root[part]
    return root


def _different(old: Any) -> st.SearchStrategy[Any]:
    """Values that mean something else than ``old`` (not merely spelled otherwise)."""
    if isinstance(old, str) and len(old) == 42 and old.startswith("0x"):
        return (
            st.binary(min_size=20, max_size=20)
            .map(lambda b: "0x" + b.hex())
            .filter(lambda new: new.lower() != old.lower())
        )
    if isinstance(old, int) or (isinstance(old, str) and old.isdigit()):
        number = int(old)
        return st.one_of(
            st.integers(min_value=0, max_value=2**256 - 1).filter(lambda n: n != number),
            st.integers(min_value=0, max_value=2**256 - 1).filter(lambda n: n != number).map(str),
        )
    return st.one_of(
        st.text(max_size=30).filter(lambda new: new != old),
        st.sampled_from([None, 0, [], {}]),
    )


@st.composite
def single_changes(draw: st.DrawFn, payload: dict[str, Any]) -> dict[str, Any]:
    changed = copy.deepcopy(payload)
    # Dropping EIP712Domain from the types does not change the digest: eth_account
    # derives the domain type from the domain itself. It is not a change.
    leaves = [p for p, v in _paths(payload) if p and not isinstance(v, dict | list)]
    containers = [p for p, v in _paths(payload) if isinstance(v, dict)]
    removable = [p for p, _ in _paths(payload) if p and p != ("types", "EIP712Domain")]
    kind = draw(st.sampled_from(["replace", "remove", "add"]))
    if kind == "replace":
        path = draw(st.sampled_from(leaves))
        _get(changed, path[:-1])[path[-1]] = draw(_different(_get(payload, path)))
    elif kind == "remove":
        path = draw(st.sampled_from(removable))
        parent = _get(changed, path[:-1])
        if isinstance(parent, list):
            parent.pop(path[-1])
        else:
            del parent[path[-1]]
    else:
        path = draw(st.sampled_from(containers))
        target = _get(changed, path)
        key = draw(st.text(min_size=1, max_size=12).filter(lambda k: k not in target))
        target[key] = draw(st.one_of(st.text(max_size=10), st.integers(0, 10)))
    return changed


@pytest.mark.parametrize("honest_case", [WITNESS, PLAIN], ids=["witness", "plain"])
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(data=st.data())
def test_any_single_change_of_an_honest_payload_is_refused(
    honest_case: tuple[GaslessQuote, Any, str, float], data: st.DataObject
) -> None:
    quote, request, spender, now = honest_case
    check(quote, request, spender, now)  # the honest one passes
    changed = data.draw(single_changes(quote.eip712))
    with pytest.raises(errors.UnsafePayloadError):
        check(with_payload(quote, changed), request, spender, now)


# ------------------------------------------------------------------ the flow, both clients


async def _swap(sb: Sandbox, kind: str, **kwargs: Any) -> Any:
    client = sb.routing_client() if kind == "sync" else sb.async_routing_client()
    return await run_flow(client, _flow(client, **kwargs))


def _flow(client: Any, **kwargs: Any) -> Any:
    arguments = {
        **SWAP,
        "wait": False,
        "wait_timeout": 60.0,
        "poll_interval": 5.0,
        "is_done": None,
        **kwargs,
    }
    return gasless.gasless_swap(client.paths, RecordingSigner(), **arguments)


@pytest.mark.parametrize("kind", ["sync", "async"])
async def test_the_spender_is_read_once_and_a_wrong_pin_is_refused(kind: str) -> None:
    with Sandbox() as sb:
        cache: ChainListCache[Any] = ChainListCache()
        key = sb.url("routing")
        # The sandbox's Base contract is not the registry's: only a caller who trusts
        # the service takes it from the chain list, and then reads it once.
        trusted = {
            "chains": cache,
            "chains_key": key,
            "trust_service": True,
            # From Arbitrum, which the registry does not pin (it pins Base).
            "from_chain": 42161,
            "from_token": "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
            "to_chain": 8453,
            "to_token": "0x4200000000000000000000000000000000000006",
        }
        with pytest.raises(errors.UnsafePayloadError):
            await _swap(sb, kind, clock=sb.clock, chains=cache, chains_key=key)
        assert not sb.requests.select("routing", "GET", "/supported-chains")
        first = await _swap(sb, kind, clock=sb.clock, **trusted)
        assert first.submission.swap_id
        assert cache.fresh(key, sb.clock)
        await _swap(sb, kind, clock=sb.clock, **trusted)
        assert len(sb.requests.select("routing", "GET", "/supported-chains")) == 1
        with pytest.raises(errors.UnsafePayloadError) as info:
            await _swap(sb, kind, clock=sb.clock, spender="0x" + "66" * 20)
        assert info.value.field == "eip712.message.spender"
        assert len(sb.requests.select("routing", "POST", "/gasless/submit-swap")) == 2


def test_amounts_are_exact_decimals() -> None:
    # The slippage rule uses Decimal arithmetic: 0.1 % of a large amount is exact.
    quote, request, spender, now = honest(3, slippage=Decimal("0.1"), amount=10**15)
    check(quote, request, spender, now)
