"""A malicious routing service, played by the sandbox's tamper rules, against the default
settings: nobody the service names gets the caller's tokens or authority, and the terms
the caller gave are bound or checked. Each attack is refused with nothing signed (the
caller's key is a `RecordingSigner`, which sees every message) and nothing submitted
(the sandbox counts the requests); the honest flows are unchanged.

Route execution (approvals and transactions on a chain) is in
``tests/routing/test_execution.py``, on an in-process EVM.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xswap_sdk import errors
from xswap_sdk.registry import ROUTING_CONTRACTS
from xswap_sdk.routing import GaslessQuote, GaslessQuoteRequest, Route, verify_gasless_quote
from xswap_sdk.routing._execution import check_route_terms
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.sandbox._catalog import CHAINS
from xswap_sdk.signing import sign_typed_data

from ..support import resolve
from .support import (
    ATTACKER,
    GASLESS,
    TEST_ADDRESS,
    USDC_ARBITRUM,
    WETH_BASE,
    RecordingSigner,
)

# From Arbitrum: a chain the registry does not pin.
UNPINNED: dict[str, Any] = {
    "from_chain": 42161,
    "to_chain": 8453,
    "from_token": USDC_ARBITRUM,
    "to_token": WETH_BASE,
    "amount": 250_000_000,
}


@pytest.fixture
def sb() -> Iterator[Sandbox]:
    with Sandbox() as sandbox:
        yield sandbox


def routing(sb: Sandbox, kind: str, **kwargs: Any) -> Any:
    make = sb.routing_client if kind == "sync" else sb.async_routing_client
    return make(**kwargs)


def submitted(sb: Sandbox) -> int:
    return len(sb.requests.select("routing", "POST", "/gasless/submit-swap"))


# ------------------------------------------------------------------ honest flows


async def test_the_honest_gasless_swap_binds_the_callers_terms(
    sb: Sandbox, kind: str, signer: RecordingSigner
) -> None:
    result = await resolve(
        routing(sb, kind).gasless_swap(
            signer, **GASLESS, receiver=ATTACKER.replace("66", "12"), slippage="0.5",
            min_amount_out=1,
        )
    )  # fmt: skip
    assert result.submission.swap_id
    (permit,) = signer.typed
    assert permit["primaryType"] == "PermitWitnessTransferFrom"
    assert permit["message"]["witness"]["receiver"] == ATTACKER.replace("66", "12")
    assert permit["message"]["spender"] == CHAINS[8453].routing_contract
    assert not sb.requests.select("routing", "GET", "/supported-chains")


async def test_the_documented_manual_path_works_and_checks(
    sb: Sandbox, kind: str, signer: RecordingSigner
) -> None:
    client = routing(sb, kind)
    quotes = await resolve(client.get_gasless_quote(**GASLESS, sender=signer.address))
    quote = quotes[0]
    assert quote.verified
    signature = sign_typed_data(signer, quote.eip712)
    submission = await resolve(client.submit_gasless_swap(quote, signature))
    assert submission.swap_id
    # By id works as well: the client remembers what it verified.
    second = (await resolve(client.get_gasless_quote(**GASLESS, sender=signer.address)))[0]
    by_id = await resolve(
        client.submit_gasless_swap(second.quote_id, sign_typed_data(signer, second.eip712))
    )
    assert by_id.swap_id
    assert submitted(sb) == 2


# ------------------------------------------------------------------ the routing contract


async def test_a_service_contract_swapped_for_an_attacker_is_never_used(
    sb: Sandbox, kind: str, signer: RecordingSigner
) -> None:
    for chain in (8453, 42161):
        sb.faults.tamper_routing_chains(chain, {"serviceContract": ATTACKER}, times=None)
    # Pinned (the sandbox's clients pin its contracts): the list is not even read.
    await resolve(routing(sb, kind).gasless_swap(signer, **GASLESS))
    assert not sb.requests.select("routing", "GET", "/supported-chains")
    # Unpinned: refused before any request, naming the chain and how to pin it.
    asked = len(sb.requests)
    with pytest.raises(errors.UnsafePayloadError) as info:
        await resolve(routing(sb, kind, routing_contracts={}).gasless_swap(signer, **UNPINNED))
    assert info.value.field == "routing_contracts[42161]"
    assert "routing_contracts=" in str(info.value)
    assert "unsafe_trust_service_parties=True" in str(info.value)
    assert len(sb.requests) == asked
    with pytest.raises(errors.UnsafePayloadError):
        await resolve(
            routing(sb, kind, routing_contracts={}).get_gasless_quote(
                **UNPINNED, sender=signer.address
            )
        )
    assert len(sb.requests) == asked
    assert len(signer.typed) == 1  # the pinned swap's permit only
    assert submitted(sb) == 1


async def test_only_the_loud_opt_in_takes_the_services_contract(
    sb: Sandbox, kind: str, signer: RecordingSigner, caplog: pytest.LogCaptureFixture
) -> None:
    client = routing(sb, kind, routing_contracts={}, unsafe_trust_service_parties=True)
    with caplog.at_level("WARNING", logger="xswap_sdk"):
        result = await resolve(client.gasless_swap(signer, **UNPINNED))
    assert result.submission.swap_id
    assert any("unsafe_trust_service_parties=True" in r.getMessage() for r in caplog.records)
    # And then a tampered list does decide, which is what the opt-in's name says.
    sb.faults.tamper_routing_chains(42161, {"serviceContract": ATTACKER})
    client = routing(sb, kind, routing_contracts={}, unsafe_trust_service_parties=True)
    with pytest.raises(errors.UnsafePayloadError) as info:
        await resolve(client.gasless_swap(signer, **UNPINNED))
    assert info.value.field == "eip712.message.spender"


def test_the_registry_pins_the_published_base_contract() -> None:
    assert ROUTING_CONTRACTS[8453] == "0x737e1b401BF7a67e6b74bB393Dd62D3Bd9b37D0b"


# ------------------------------------------------------------------ gasless terms


@pytest.mark.parametrize(
    ("arguments", "changes", "field"),
    [
        ({"receiver": TEST_ADDRESS}, {"quote.receiver": ATTACKER}, "quote.quote.receiver"),
        ({"acquisition_mode": 2}, {"quote.receiver": ATTACKER}, "quote.quote.receiver"),
        ({"acquisition_mode": 2}, {"quote.toToken": WETH_BASE}, "quote.quote.toToken"),
        ({"acquisition_mode": 2}, {"quote.toChain": 10}, "quote.quote.toChain"),
        ({"acquisition_mode": 2}, {"quote.receiver": None}, "quote.quote.receiver"),
        ({"min_amount_out": 10**9}, {"quote.amountOut": "1"}, "quote.quote.amountOut"),
        (
            {"min_amount_out": 10**9},
            {"quote.amountOut": "1", "quote.minAmountOut": "1",
             "eip712.message.witness.minAmountOut": "1"},
            "quote.quote.amountOut",
        ),
    ],
    ids=["receiver", "receiver-mode-2", "token-mode-2", "chain-mode-2", "no-receiver-mode-2",
         "one-wei", "one-wei-everywhere"],
)  # fmt: skip
async def test_a_quote_for_someone_elses_swap_is_refused(
    sb: Sandbox,
    kind: str,
    signer: RecordingSigner,
    arguments: dict[str, Any],
    changes: dict[str, Any],
    field: str,
) -> None:
    sb.faults.tamper_gasless_quote(changes)
    with pytest.raises(errors.UnsafePayloadError) as info:
        await resolve(routing(sb, kind).gasless_swap(signer, **GASLESS, **arguments))
    assert info.value.field == field
    assert signer.typed == []
    assert submitted(sb) == 0


async def test_a_bare_permit_is_refused_for_terms_it_cannot_bind(
    sb: Sandbox, kind: str, signer: RecordingSigner
) -> None:
    for terms in ({"receiver": TEST_ADDRESS}, {"min_amount_out": 1}, {"slippage": "0.5"}):
        with pytest.raises(errors.InvalidInputError) as info:
            await resolve(
                routing(sb, kind).gasless_swap(signer, **GASLESS, acquisition_mode=2, **terms)
            )
        assert info.value.argument == "acquisition_mode"
    assert sb.requests.select("routing") == []
    # A service that answers a bare permit when a witness was asked: refused.
    sb.faults.tamper_gasless_quote(
        {"eip712.primaryType": "PermitTransferFrom", "quote.amountOut": "1"}
    )
    with pytest.raises(errors.UnsafePayloadError):
        await resolve(routing(sb, kind).gasless_swap(signer, **GASLESS, min_amount_out=10**9))
    assert signer.typed == []
    assert submitted(sb) == 0


async def test_a_slippage_above_the_maximum_is_refused_before_any_request(
    sb: Sandbox, kind: str, signer: RecordingSigner
) -> None:
    client = routing(sb, kind)
    for call in (
        lambda: client.gasless_swap(signer, **GASLESS, slippage=50),
        lambda: client.get_gasless_quote(**GASLESS, sender=signer.address, slippage=50),
        lambda: client.get_quote(**GASLESS, sender=signer.address, slippage=50),
        lambda: client.build_best_path(**GASLESS, sender=signer.address, slippage="5.01"),
    ):
        with pytest.raises(errors.InvalidInputError) as info:
            await resolve(call())
        assert info.value.argument == "slippage"
        assert "max_slippage" in info.value.rule
    assert sb.requests.select("routing") == []
    routes = await resolve(
        client.get_quote(**GASLESS, sender=signer.address, slippage=8, max_slippage=10)
    )
    assert routes
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(client.get_quote(**GASLESS, sender=signer.address, max_slippage=-1))
    assert info.value.argument == "max_slippage"


# ------------------------------------------------------------------ the manual path


async def test_a_permit_for_everything_to_a_stranger_is_refused_on_the_manual_path(
    sb: Sandbox, kind: str, signer: RecordingSigner
) -> None:
    everything = {
        "eip712.message.permitted.amount": str(2**256 - 1),
        "eip712.message.spender": ATTACKER,
    }
    sb.faults.tamper_gasless_quote(everything)
    client = routing(sb, kind)
    with pytest.raises(errors.UnsafePayloadError) as info:
        await resolve(client.get_gasless_quote(**GASLESS, sender=signer.address))
    assert "was refused" in str(info.value)
    # A caller who signs such a payload anyway (it came unverified) cannot submit it.
    sb.faults.tamper_gasless_quote(everything)
    (raw, *_) = await resolve(
        client.get_gasless_quote(**GASLESS, sender=signer.address, sign_unverified_payload=True)
    )
    assert not raw.verified
    signature = sign_typed_data(signer, raw.eip712)
    for quote in (raw, raw.quote_id):
        with pytest.raises(errors.UnsafePayloadError) as info:
            await resolve(client.submit_gasless_swap(quote, signature))
        assert info.value.field == "quote_id"
        assert signature[2:] not in str(info.value)
    assert submitted(sb) == 0


async def test_a_signature_over_another_payload_is_not_submitted(
    sb: Sandbox, kind: str, signer: RecordingSigner
) -> None:
    client = routing(sb, kind)
    quote = (await resolve(client.get_gasless_quote(**GASLESS, sender=signer.address)))[0]
    other = {**quote.eip712, "message": {**quote.eip712["message"], "spender": ATTACKER}}
    for signature in (
        sign_typed_data(signer, other),
        sign_typed_data(RecordingSigner("0x" + "11" * 32), quote.eip712),
    ):
        with pytest.raises(errors.UnsafePayloadError) as info:
            await resolve(client.submit_gasless_swap(quote, signature))
        assert info.value.field == "signature"
        assert signature[2:] not in str(info.value)
    # A payload changed after it was verified is not the one that was.
    quote.eip712["message"]["spender"] = ATTACKER
    with pytest.raises(errors.UnsafePayloadError):
        await resolve(client.submit_gasless_swap(quote, sign_typed_data(signer, quote.eip712)))
    assert submitted(sb) == 0


def test_verify_gasless_quote_checks_a_quote_from_elsewhere(sb: Sandbox) -> None:
    raw = sb.routing_client().get_gasless_quote(
        **GASLESS, sender=TEST_ADDRESS, sign_unverified_payload=True
    )[0]
    saved = GaslessQuote.model_validate(raw.model_dump(mode="json"))
    request = GaslessQuoteRequest(**GASLESS, sender=TEST_ADDRESS)
    # The registry pins Base to the live contract, not the sandbox's: name it here.
    with pytest.raises(errors.UnsafePayloadError):
        verify_gasless_quote(saved, request=request, now=sb.clock.time())
    spender = CHAINS[8453].routing_contract
    assert verify_gasless_quote(saved, request=request, spender=spender, now=sb.clock.time())
    assert saved.verified
    with pytest.raises(errors.UnsafePayloadError):
        verify_gasless_quote(
            saved, request=request, spender=spender, now=sb.clock.time(), min_amount_out=10**30
        )


# ------------------------------------------------------------------ properties

_HONEST: dict[str, Any] = {}


def _honest_quote() -> tuple[GaslessQuote, GaslessQuoteRequest, float]:
    if not _HONEST:
        with Sandbox() as sandbox:
            fields = {**GASLESS, "receiver": TEST_ADDRESS, "slippage": "0.5"}
            quote = sandbox.routing_client().get_gasless_quote(
                **fields, sender=TEST_ADDRESS, sign_unverified_payload=True
            )[0]
            _HONEST["quote"] = quote.model_dump(mode="json", by_alias=True)
            _HONEST["request"] = GaslessQuoteRequest(**fields, sender=TEST_ADDRESS)
            _HONEST["now"] = sandbox.clock.time()
    return (GaslessQuote.model_validate(_HONEST["quote"]), _HONEST["request"], _HONEST["now"])


_addresses = st.binary(min_size=20, max_size=20).map(lambda b: "0x" + b.hex())
_SUMMARY_CHANGES = st.one_of(
    st.tuples(st.sampled_from(["receiver", "sender", "toToken", "fromToken"]), _addresses),
    st.tuples(st.sampled_from(["toChain", "fromChain"]), st.integers(1, 2**32)),
    st.tuples(st.just("amountIn"), st.integers(0, 2**128).map(str)),
    st.tuples(st.just("minAmountOut"), st.integers(0, 2**128).map(str)),
)


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(change=_SUMMARY_CHANGES)
def test_any_change_to_a_party_or_term_of_the_gasless_quote_is_refused(
    change: tuple[str, Any],
) -> None:
    quote, request, now = _honest_quote()
    spender = CHAINS[8453].routing_contract
    verify_gasless_quote(quote, request=request, spender=spender, now=now)
    name, value = change
    wire = quote.model_dump(mode="json", by_alias=True)
    if str(wire["quote"].get(name)).lower() == str(value).lower():
        return  # not a change
    wire["quote"][name] = value
    if name == "minAmountOut":
        wire["eip712"]["message"]["witness"]["minAmountOut"] = value
    with pytest.raises(errors.UnsafePayloadError):
        verify_gasless_quote(
            GaslessQuote.model_validate(wire), request=request, spender=spender, now=now
        )


_ROUTE: dict[str, Any] = {}


def _honest_route() -> Route:
    if not _ROUTE:
        with Sandbox() as sandbox:
            route = sandbox.routing_client().get_quote(
                **GASLESS, sender=TEST_ADDRESS, slippage="0.5"
            )[0]
            _ROUTE["wire"], _ROUTE["request"] = route.to_wire(), route.request
    route = Route.from_wire(_ROUTE["wire"])
    route._request = _ROUTE["request"]
    return route


_ROUTE_CHANGES = st.one_of(
    st.tuples(st.sampled_from([("receiver",), ("toToken", "address")]), _addresses),
    st.tuples(st.just(("toToken", "chain")), st.integers(1, 2**32)),
    st.tuples(st.just(("minAmountOut",)), st.integers(3, 10**6).map(lambda d: -d)),
    st.tuples(st.just(("minAmountOut",)), st.integers(1, 10**30)),
)


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(change=_ROUTE_CHANGES)
def test_any_change_to_a_party_or_term_of_a_route_is_refused(change: tuple[Any, Any]) -> None:
    honest = _honest_route()
    check_route_terms(honest)
    path, value = change
    wire = honest.to_wire()
    node = wire
    for part in path[:-1]:
        node = node[part]
    if path == ("minAmountOut",):
        # Lowered below the slippage's floor (past the allowance for a service's
        # floating-point rounding, one part in 10**12), or raised above the output.
        out, least = int(wire["amountOut"]), int(wire["minAmountOut"])
        value = max(0, least - out // 10**12 + value) if value < 0 else out + value
        value = str(value)
    elif str(node[path[-1]]).lower() == str(value).lower():
        return  # not a change
    node[path[-1]] = value
    changed = Route.from_wire(wire)
    changed._request = honest.request
    with pytest.raises(errors.UnsafePayloadError):
        check_route_terms(changed)


# ------------------------------------------------------------------ build-best-path


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        (lambda data: data["route"].update(minAmountOut="1"), "route.minAmountOut"),
        (lambda data: data["route"].update(amountOut="1"), "route.amountOut"),
        (lambda data: data["Tx"].update(chain=10), "Tx.chain"),
    ],
    ids=["minimum", "output", "chain"],
)
async def test_a_best_path_below_the_callers_floor_is_refused(
    sb: Sandbox, kind: str, edit: Any, field: str
) -> None:
    client = routing(sb, kind)
    asked = {**GASLESS, "sender": TEST_ADDRESS, "min_output_amount": 1_000}
    honest = await resolve(client.build_best_path(**asked))
    assert honest.tx.chain == 8453
    sb.faults.tamper(lambda body: edit(body["data"]), service="routing", path="/build-best-path")
    with pytest.raises(errors.UnsafePayloadError) as info:
        await resolve(client.build_best_path(**asked))
    assert info.value.field == field


# ------------------------------------------------------------------ over HTTP


def test_the_routing_tamper_rules_over_http(sb: Sandbox) -> None:
    root = sb.routing_url.rsplit("/routing", 1)[0]
    with httpx.Client(transport=sb.transport) as http:
        added = http.post(
            f"{root}/sandbox/routing/tamper",
            json={"rule": "route", "changes": {"receiver": ATTACKER}, "times": None},
        )
        assert added.status_code == 201, added.text
        assert added.json()["kind"] == "tamper"
        chains = http.post(
            f"{root}/sandbox/routing/tamper",
            json={"rule": "routing_chains", "chainId": 8453,
                  "changes": {"serviceContract": ATTACKER}},
        )  # fmt: skip
        assert chains.status_code == 201, chains.text
        for bad in ({"rule": "earthquake", "changes": {"a": 1}}, {"rule": "route"},
                    {"rule": "routing_chains", "changes": {"a": 1}}):  # fmt: skip
            assert http.post(f"{root}/sandbox/routing/tamper", json=bad).status_code == 400
    route = sb.routing_client().get_quote(**GASLESS, sender=TEST_ADDRESS)[0]
    assert route.receiver == ATTACKER
    with pytest.raises(errors.UnsafePayloadError):
        sb.routing_client().build_path(route, TEST_ADDRESS)
