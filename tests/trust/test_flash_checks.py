"""build_order and sign_order check what they sign against the registry and the
caller's request: pure functions, no I/O."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from eth_account import Account

from xswap_sdk import errors
from xswap_sdk.flash import Chain, Order, Quote, build_order, sign_order
from xswap_sdk.flash._operations import quote_request
from xswap_sdk.flash._orders import default_max_fee_cap
from xswap_sdk.registry import DEFAULT_REGISTRY

from ..flash.payloads import (
    FEE,
    START,
    SWAP_ROUTER,
    WETH_BASE,
    chains,
    pinned_routers,
    quote,
    router_data,
)
from .support import ATTACKER, TEST_ADDRESS, TEST_KEY, RecordingSigner

CHAINS = [Chain.model_validate(c) for c in chains()]
HELD = {42161: 20_000_000, 8453: 20_000_000}
WALLET = Account.from_key(TEST_KEY)
REGISTRY = pinned_routers()  # the payloads' router, pinned with its format


def asked(amount: int = 10_000_000, **changes: Any) -> Quote:
    """A quote that knows what it was asked for, as get_quote returns it."""
    built = Quote.model_validate(quote(amount, **changes))
    built._request = quote_request(
        input_amount=amount,
        output_token=WETH_BASE,
        chain_id=8453,
        sender=TEST_ADDRESS,
        slippage="0.5",
        recipient=None,
    )
    return built


def order(**kwargs: Any) -> Order:
    arguments: dict[str, Any] = {
        "chains": CHAINS,
        "balances": HELD,
        "user": TEST_ADDRESS,
        "registry": REGISTRY,
    }
    arguments.update(kwargs)
    if isinstance(arguments["registry"], type(REGISTRY)):
        arguments["registry"] = pinned_routers(arguments["registry"])
    return build_order(arguments.pop("quote", None) or asked(), **arguments)


def test_the_default_fee_cap() -> None:
    assert default_max_fee_cap(40_000_000) >= FEE  # the spec's helper default passes
    assert default_max_fee_cap(40_000_000) < 60_000_000  # 60 USDC on 40 does not
    assert default_max_fee_cap(0) == 2_010_000
    assert default_max_fee_cap(1_000_000_000_000) == 2_010_000 + 100_000_000
    order(quote=asked(gateway_fee=FEE))
    with pytest.raises(errors.UnsafePayloadError) as info:
        order(quote=asked(gateway_fee=60_000_000))
    assert info.value.field == "quote.fees.gateway_fee"
    # The caller may accept more, or less, explicitly.
    order(quote=asked(gateway_fee=3_000_000), max_fee_cap=3_000_000, balances={8453: 20_000_000})
    with pytest.raises(errors.QuoteRejectedError):
        order(quote=asked(gateway_fee=FEE), max_fee_cap=FEE - 1)
    # A flat max_fee of the caller's own replaces the quote's fee: nothing to cap.
    order(quote=asked(gateway_fee=60_000_000), max_fee=FEE)


def test_the_quote_must_be_for_what_was_asked() -> None:
    honest = quote()
    cases = [
        (
            {"token_out": {**honest["token_out"], "address": "0x" + "77" * 20}},
            "quote.token_out.address",
        ),
        ({"token_in": {**honest["token_in"], "amount": "1"}}, "quote.token_in.amount"),
    ]
    for changes, field in cases:
        with pytest.raises(errors.UnsafePayloadError) as info:
            order(quote=asked(**changes))
        assert info.value.field == field
    with pytest.raises(errors.QuoteRejectedError):
        order(now=START + 60)
    order(now=START + 59)
    with pytest.raises(errors.UnsafePayloadError):
        order(min_amount_out=10**30)


def test_a_router_nobody_pinned_is_refused_naming_it_the_chain_and_how_to_pin_it() -> None:
    with pytest.raises(errors.UnsafePayloadError) as info:
        build_order(asked(), chains=CHAINS, balances=HELD, user=TEST_ADDRESS)
    assert info.value.field == "quote.swap_router_address"
    message = str(info.value)
    assert SWAP_ROUTER in message
    assert "chain 8453" in message
    assert "trusted_routers=" in message
    assert "unsafe_trust_service_parties=True" in message


def test_trusted_routers_pin_a_router_of_unknown_format() -> None:
    pinned = {"registry": DEFAULT_REGISTRY, "trusted_routers": {8453: [SWAP_ROUTER.lower()]}}
    # Pinned, but its hook data cannot be read: refused, unless the caller trusts the router.
    with pytest.raises(errors.UnsafePayloadError) as info:
        build_order(asked(), chains=CHAINS, balances=HELD, user=TEST_ADDRESS, **pinned)
    assert info.value.field == "quote.hook_data"
    assert "unsafe_trust_router_output=True" in str(info.value)
    built = build_order(
        asked(),
        chains=CHAINS,
        balances=HELD,
        user=TEST_ADDRESS,
        unsafe_trust_router_output=True,
        **pinned,
    )
    assert built.swap_router_address == SWAP_ROUTER
    for pins in ({8453: ["0x" + "55" * 20]}, {1: [SWAP_ROUTER]}):
        with pytest.raises(errors.UnsafePayloadError) as refused:
            build_order(
                asked(),
                chains=CHAINS,
                balances=HELD,
                user=TEST_ADDRESS,
                registry=DEFAULT_REGISTRY,
                trusted_routers=pins,
                unsafe_trust_router_output=True,
            )
        assert refused.value.field == "quote.swap_router_address"
    for bad in ("router", {8453: "0x" + "55" * 20}, {8453: []}, {8453: ["nope"]}):
        with pytest.raises(errors.InvalidInputError):
            order(trusted_routers=bad)


def test_the_service_router_only_with_the_loud_opt_in() -> None:
    built = build_order(
        asked(),
        chains=CHAINS,
        balances=HELD,
        user=TEST_ADDRESS,
        unsafe_trust_service_parties=True,
        unsafe_trust_router_output=True,
    )
    assert built.swap_router_address == SWAP_ROUTER
    # Even then the router must be the one the chain list names.
    listed = [{**c, "routerAddress": "0x" + "55" * 20} for c in chains()]
    with pytest.raises(errors.UnsafePayloadError):
        build_order(
            asked(),
            chains=listed,
            balances=HELD,
            user=TEST_ADDRESS,
            unsafe_trust_service_parties=True,
            unsafe_trust_router_output=True,
        )
    with pytest.raises(errors.InvalidInputError):
        order(unsafe_trust_service_parties="yes")


@pytest.mark.parametrize(
    ("terms", "field"),
    [
        ({"recipient": ATTACKER}, ".recipient"),
        ({"token_out": ATTACKER}, ".tokenOut"),
        ({"min_amount_out": 0}, ".minAmountOut"),
        ({"min_amount_out": 3_012_345_678_901_234 * 995 // 1000 - 1}, ".minAmountOut"),
    ],
)
def test_hook_data_naming_other_terms_is_refused(terms: dict[str, Any], field: str) -> None:
    hook_data, calldata = router_data(**terms)
    with pytest.raises(errors.UnsafePayloadError) as info:
        order(quote=asked(hook_data=hook_data))
    assert info.value.field == "quote.hook_data" + field
    with pytest.raises(errors.UnsafePayloadError) as called:
        order(quote=asked(swap_calldata=calldata))
    assert called.value.field == "quote.swap_calldata" + field


def test_the_router_minimum_is_held_to_min_amount_out_and_the_slippage() -> None:
    quoted = 3_012_345_678_901_234
    floor = quoted * 995 // 1000  # 0.5 % slippage
    hook_data, calldata = router_data(min_amount_out=floor)
    order(quote=asked(hook_data=hook_data, swap_calldata=calldata))
    with pytest.raises(errors.UnsafePayloadError) as info:
        order(quote=asked(hook_data=hook_data, swap_calldata=calldata), min_amount_out=floor + 1)
    assert info.value.field == "quote.hook_data.minAmountOut"
    # The quote's stated amount alone cannot vouch for it.
    with pytest.raises(errors.UnsafePayloadError):
        order(quote=asked(hook_data=hook_data), min_amount_out=quoted)


@pytest.mark.parametrize(
    "hook_data", ["0x", "0xdeadbeef", "0x" + "00" * 128, "0x" + "11" * 128, "0xzz"]
)
def test_router_data_not_in_its_format_is_refused(hook_data: str) -> None:
    with pytest.raises(errors.UnsafePayloadError) as info:
        order(quote=asked(hook_data=hook_data))
    assert info.value.field.startswith("quote.hook_data")


def test_the_total_fee_is_capped_whatever_the_number_of_chains() -> None:
    three = {1: 6_000_000, 42161: 6_000_000, 8453: 6_000_000}
    with pytest.raises(errors.UnsafePayloadError) as info:
        order(balances=three)
    assert info.value.field == "order.total_max_fee"
    assert "max_total_fee=" in str(info.value)
    assert len(order(balances=three, max_total_fee=3 * FEE).intents) == 3
    with pytest.raises(errors.QuoteRejectedError):
        order(balances=HELD, max_total_fee=FEE - 1)
    assert len(order(balances=HELD).intents) == 1


def test_an_unpinned_chain_needs_a_registry_entry() -> None:
    unknown = chains(56, 8453)
    with pytest.raises(errors.UnsafePayloadError) as info:
        order(chains=unknown, sources={56: 10_000_000}, balances={56: 20_000_000})
    assert info.value.field == "chain_id"
    base = DEFAULT_REGISTRY.chain(8453)
    added = DEFAULT_REGISTRY.with_chains(
        dataclasses.replace(
            base, chain_id=56, name="BNB", domain=56, usdc=unknown[0]["usdc"]["address"]
        )
    )
    listed = [*chains(8453), {**unknown[0], "domain": 56}]
    built = order(
        chains=listed, sources={56: 10_000_000}, balances={56: 20_000_000}, registry=added
    )
    assert built.intents[0].spec.source_domain == 56
    with pytest.raises(errors.InvalidInputError):
        order(registry="default")


def test_a_chain_listed_twice_is_refused() -> None:
    with pytest.raises(errors.UnsafePayloadError) as info:
        order(chains=[*CHAINS, CHAINS[0]])
    assert info.value.field == f"chains[{len(CHAINS)}].id"


def _with_spec(built: Order, index: int, **spec: Any) -> Order:
    intents = list(built.intents)
    intents[index] = intents[index].model_copy(
        update={"spec": intents[index].spec.model_copy(update=spec)}
    )
    return built.model_copy(update={"intents": tuple(intents)})


@pytest.mark.parametrize(
    ("spec", "field"),
    [
        ({"destination_recipient": "0x" + "00" * 12 + "66" * 20}, "spec.destinationRecipient"),
        ({"destination_caller": "0x" + "00" * 12 + "66" * 20}, "spec.destinationCaller"),
        ({"source_contract": "0x" + "00" * 12 + "66" * 20}, "spec.sourceContract"),
        ({"destination_contract": "0x" + "00" * 12 + "66" * 20}, "spec.destinationContract"),
        ({"source_token": "0x" + "00" * 12 + "66" * 20}, "spec.sourceToken"),
        ({"destination_token": "0x" + "00" * 12 + "66" * 20}, "spec.destinationToken"),
        ({"destination_domain": 0}, "spec.destinationDomain"),
        ({"source_domain": 6}, "spec.sourceDomain"),
        ({"value": 0}, "spec.value"),
        ({"version": 2}, "spec.version"),
        ({"hook_data": "0x01"}, "spec.hookData"),
    ],
)
def test_sign_order_checks_every_intent_again(spec: dict[str, Any], field: str) -> None:
    built = order(balances={42161: 6_000_000, 8453: 9_000_000})
    assert len(built.intents) == 2
    tampered = _with_spec(built, 1, **spec)
    signer = RecordingSigner()
    with pytest.raises(errors.UnsafePayloadError) as info:
        sign_order(tampered, signer, registry=REGISTRY)
    assert info.value.field.endswith(field) or info.value.field == "intents.spec.hookData"
    assert signer.typed == []
    assert sign_order(built, signer, registry=REGISTRY).signer == TEST_ADDRESS
    assert signer.typed[0]["primaryType"] == "BurnIntentSet"


def test_sign_order_refuses_mixed_networks_and_foreign_routers() -> None:
    built = order()
    sepolia = DEFAULT_REGISTRY.chain(84532)
    testnet_destination = built.model_copy(update={"chain_id": sepolia.chain_id})
    with pytest.raises(errors.UnsafePayloadError) as info:
        sign_order(testnet_destination, WALLET, registry=REGISTRY)
    assert "mainnet" in str(info.value.expected) or "testnet" in str(info.value.expected)
    # Signed only when the router is pinned where it is signed, too.
    with pytest.raises(errors.UnsafePayloadError) as routed:
        sign_order(built, WALLET, trusted_routers={8453: ["0x" + "55" * 20]})
    assert routed.value.field == "quote.swap_router_address"
    sign_order(built, WALLET, registry=REGISTRY)
    # An order whose router data was changed after it was built is refused.
    moved = built.model_copy(update={"swap_calldata": router_data(recipient=ATTACKER)[1]})
    with pytest.raises(errors.UnsafePayloadError) as changed:
        sign_order(moved, WALLET, registry=REGISTRY)
    assert changed.value.field == "quote.swap_calldata.recipient"
