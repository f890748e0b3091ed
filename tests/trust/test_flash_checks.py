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

from ..flash.backend import FEE, START, SWAP_ROUTER, WETH_BASE, chains, quote
from .support import TEST_ADDRESS, TEST_KEY, RecordingSigner

CHAINS = [Chain.model_validate(c) for c in chains()]
HELD = {42161: 20_000_000, 8453: 20_000_000}
WALLET = Account.from_key(TEST_KEY)


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
    arguments: dict[str, Any] = {"chains": CHAINS, "balances": HELD, "user": TEST_ADDRESS}
    arguments.update(kwargs)
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


def test_routers_and_trusted_routers() -> None:
    order(trusted_routers={8453: [SWAP_ROUTER.lower()]})
    for pins in ({8453: ["0x" + "55" * 20]}, {1: [SWAP_ROUTER]}):
        with pytest.raises(errors.UnsafePayloadError) as info:
            order(trusted_routers=pins)
        assert info.value.field == "quote.swap_router_address"
    for bad in ("router", {8453: "0x" + "55" * 20}, {8453: []}, {8453: ["nope"]}):
        with pytest.raises(errors.InvalidInputError):
            order(trusted_routers=bad)


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
        sign_order(tampered, signer)
    assert info.value.field.endswith(field) or info.value.field == "intents.spec.hookData"
    assert signer.typed == []
    assert sign_order(built, signer).signer == TEST_ADDRESS
    assert signer.typed[0]["primaryType"] == "BurnIntentSet"


def test_sign_order_refuses_mixed_networks_and_foreign_routers() -> None:
    built = order()
    sepolia = DEFAULT_REGISTRY.chain(84532)
    testnet_destination = built.model_copy(update={"chain_id": sepolia.chain_id})
    with pytest.raises(errors.UnsafePayloadError) as info:
        sign_order(testnet_destination, WALLET)
    assert "mainnet" in str(info.value.expected) or "testnet" in str(info.value.expected)
    with pytest.raises(errors.UnsafePayloadError) as routed:
        sign_order(built, WALLET, trusted_routers={8453: ["0x" + "55" * 20]})
    assert routed.value.field == "order.swap_router_address"
    sign_order(built, WALLET, trusted_routers={8453: [SWAP_ROUTER]})
