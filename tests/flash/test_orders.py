"""build_order and sign_order: source selection, every burn intent field, the limits,
and signatures recovered from typed data by eth_account."""

from __future__ import annotations

from typing import Any

import pytest
from eth_account import Account
from eth_account.signers.local import LocalAccount
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from xswap_sdk import FlashClient, VirtualClock, errors
from xswap_sdk.flash import (
    Chain,
    GatewayBalance,
    Order,
    Quote,
    SignedOrder,
    build_order,
    select_sources,
    sign_order,
)
from xswap_sdk.registry import DEFAULT_REGISTRY, Registry
from xswap_sdk.signing import BurnIntent, burn_intent_set_digest, recover_burn_intent_signer
from xswap_sdk.types import MAX_UINT256

from ..support import ADDRESS, TEST_PRIVATE_KEY
from .payloads import (
    DOMAINS,
    FEE,
    GATEWAY_MINTER,
    GATEWAY_WALLET,
    HOOK_DATA,
    SWAP_CALLDATA,
    SWAP_ROUTER,
    USDC,
    balance,
    chain,
    chains,
    pin,
    pinned_routers,
    quote,
    recover_order_signer,
)

CHAINS = [Chain.model_validate(c) for c in chains()]
AMOUNT = 10_000_000
WALLET: LocalAccount = Account.from_key(TEST_PRIVATE_KEY)
REGISTRY = pinned_routers()  # the payloads' router pinned, with its format


def word(address: str) -> str:
    return "0x" + "0" * 24 + address[2:].lower()


def a_quote(amount: int = AMOUNT, **changes: Any) -> Quote:
    return Quote.model_validate(quote(amount, **changes))


def order(held: dict[int, int], amount: int = AMOUNT, **kwargs: Any) -> Order:
    kwargs.setdefault("chain_id", 8453)
    kwargs["registry"] = pinned_routers(kwargs.get("registry", DEFAULT_REGISTRY))
    # These tests are about choosing sources; the total fee cap has tests of its own.
    kwargs.setdefault("max_total_fee", 10**12)
    return build_order(
        # The wire dict, as a caller may pass it: build_order reads it into a Quote.
        quote(amount, **kwargs.pop("quote_changes", {})),
        chains=kwargs.pop("chains", CHAINS),
        balances=kwargs.pop("balances", held),
        user=ADDRESS,
        **kwargs,
    )


def test_one_source_builds_one_intent_with_every_field_per_the_spec() -> None:
    built = order({42161: 20_000_000})
    assert built.primary_type == "BurnIntent"
    assert (built.user, built.chain_id, built.amount) == (ADDRESS, 8453, AMOUNT)
    assert built.swap_router_address == SWAP_ROUTER
    assert built.swap_calldata == SWAP_CALLDATA
    (intent,) = built.intents
    spec = intent.spec
    assert intent.max_block_height == MAX_UINT256
    assert intent.max_fee == FEE
    assert spec.version == 1
    assert (spec.source_domain, spec.destination_domain) == (DOMAINS[42161], DOMAINS[8453])
    assert spec.source_contract == word(GATEWAY_WALLET)
    assert spec.destination_contract == word(GATEWAY_MINTER)
    assert spec.source_token == word(USDC[42161])
    assert spec.destination_token == word(USDC[8453])
    assert spec.source_depositor == spec.source_signer == word(ADDRESS)
    assert spec.destination_recipient == spec.destination_caller == word(SWAP_ROUTER)
    assert spec.value == AMOUNT
    assert spec.hook_data == HOOK_DATA
    assert len(spec.salt) == 66
    (source,) = built.sources
    assert (source.chain_id, source.domain, source.value, source.max_fee, source.balance) == (
        42161,
        3,
        AMOUNT,
        FEE,
        20_000_000,
    )
    assert built.total_max_fee == FEE


def test_salts_differ_between_builds() -> None:
    first, second = order({42161: 20_000_000}), order({42161: 20_000_000})
    assert first.intents[0].spec.salt != second.intents[0].spec.salt


def test_several_sources_take_the_largest_usable_first() -> None:
    # Usable (balance less the 2.01 fee): Base 6.99, Arbitrum 3.99, OP 0.
    built = order({42161: 6_000_000, 8453: 9_000_000, 10: 1_000_000})
    assert built.primary_type == "BurnIntentSet"
    assert [(s.chain_id, s.value) for s in built.sources] == [(8453, 6_990_000), (42161, 3_010_000)]
    assert sum(intent.spec.value for intent in built.intents) == AMOUNT
    assert [intent.spec.source_domain for intent in built.intents] == [6, 3]
    assert built.total_max_fee == 2 * FEE


def test_ties_go_to_the_lower_chain_id() -> None:
    built = order({42161: 7_010_000, 10: 7_010_000, 137: 7_010_000})
    assert [s.chain_id for s in built.sources] == [10, 137]


def test_one_chain_is_used_when_it_is_enough() -> None:
    built = order({42161: 12_010_000, 8453: 50_000_000, 1: 30_000_000})
    assert [s.chain_id for s in built.sources] == [8453]


def test_fee_headroom_is_needed_on_every_source_chain() -> None:
    exact = order({42161: AMOUNT + FEE})
    assert [s.chain_id for s in exact.sources] == [42161]
    # One unit short of value + fee: a second chain must give that unit and pay a fee.
    split = order({42161: AMOUNT + FEE - 1, 8453: FEE + 1})
    assert [(s.chain_id, s.value) for s in split.sources] == [(42161, AMOUNT - 1), (8453, 1)]
    assert all(s.balance >= s.value + s.max_fee for s in split.sources)


def test_a_fee_per_chain_changes_what_each_chain_can_give() -> None:
    built = order({42161: 11_000_000, 8453: 11_000_000}, max_fee={42161: 500_000, 8453: 3_000_000})
    assert [(s.chain_id, s.value, s.max_fee) for s in built.sources] == [(42161, AMOUNT, 500_000)]
    assert built.intents[0].max_fee == 500_000
    flat = order({42161: 20_000_000}, max_fee=1_234)
    assert flat.intents[0].max_fee == 1_234


def test_a_quote_without_a_gateway_fee_is_refused() -> None:
    # fees.gateway_fee is in the spec's quote, and it becomes every intent's maxFee:
    # a quote without it is refused rather than signed with a guessed fee.
    with pytest.raises(errors.InvalidInputError) as info:
        order({42161: 20_000_000}, quote_changes={"gateway_fee": None})
    assert info.value.argument == "quote.fees.gateway_fee"


def test_sources_override_the_policy() -> None:
    built = order(
        {42161: 20_000_000, 8453: 20_000_000}, sources={42161: 4_000_000, 8453: 6_000_000}
    )
    assert [(s.chain_id, s.value) for s in built.sources] == [(42161, 4_000_000), (8453, 6_000_000)]


@pytest.mark.parametrize(
    ("sources", "argument", "rule"),
    [
        ({42161: 4_000_000}, "sources", "add up to 4.000000 USDC"),
        ({42161: 0, 8453: AMOUNT}, "sources[42161]", "positive"),
        ({999: AMOUNT}, "sources[999]", "configuration"),
        ({42161: 1.5}, "sources[42161]", "floats"),
        ({}, "sources", "non-empty"),
    ],
)
def test_bad_sources_are_refused(sources: dict[int, Any], argument: str, rule: str) -> None:
    with pytest.raises(errors.InvalidInputError) as info:
        order({42161: 20_000_000, 8453: 20_000_000}, sources=sources)
    assert info.value.argument == argument
    assert rule in info.value.rule


def test_sources_without_fee_headroom_name_the_chain() -> None:
    with pytest.raises(errors.InsufficientBalanceError) as info:
        order({42161: 20_000_000, 8453: 6_000_000}, sources={42161: 4_000_000, 8453: 6_000_000})
    assert "8453: needs 8.010000 USDC" in str(info.value)
    assert "short by 2.010000 USDC" in str(info.value)
    assert info.value.shortfall == 2_010_000


def test_a_shortfall_names_each_chain() -> None:
    held = {42161: 6_000_000, 8453: 5_000_000, 10: 1_000_000, 999: 4_000_000}
    with pytest.raises(errors.InsufficientBalanceError) as info:
        order(held)
    message = str(info.value)
    assert isinstance(info.value, errors.InvalidInputError)
    assert info.value.argument == "balances"
    assert "cannot cover 10.000000 USDC: short by 3.020000 USDC" in message
    assert (
        "42161 (arbitrum): balance 6.000000 USDC, max fee 2.010000 USDC, usable 3.990000" in message
    )
    assert "8453 (base): balance 5.000000 USDC, max fee 2.010000 USDC, usable 2.990000" in message
    assert "10 (op): balance 1.000000 USDC, max fee 2.010000 USDC, usable 0.000000" in message
    assert "999: balance 4.000000 USDC, not usable (no chain configuration)" in message
    assert info.value.shortfall == 3_020_000
    assert info.value.usable == {10: 0, 8453: 2_990_000, 42161: 3_990_000}


def test_no_balance_at_all() -> None:
    with pytest.raises(errors.InsufficientBalanceError, match="no gateway balance"):
        order({})


# Seventeen chains Circle does not have (domains 100 and up), pinned by the test.
MADE_UP = [chain(1000 + index, domain=100 + index) for index in range(17)]
MADE_UP_REGISTRY = DEFAULT_REGISTRY.with_chains(*pin(*MADE_UP))


def many_chains(count: int) -> list[Chain]:
    return [Chain.model_validate(body) for body in MADE_UP[:count]] + CHAINS


def test_sixteen_sources_fit_and_seventeen_do_not() -> None:
    each = 1_000_000
    sixteen = {1000 + index: each + FEE for index in range(16)}
    pinned = MADE_UP_REGISTRY
    built = order(sixteen, amount=16 * each, chains=many_chains(17), registry=pinned)
    assert len(built.intents) == 16
    seventeen = {1000 + index: each + FEE for index in range(17)}
    with pytest.raises(errors.InvalidInputError) as info:
        order(seventeen, amount=17 * each, chains=many_chains(17), registry=pinned)
    assert "takes 17 source chains" in info.value.rule
    assert "at most 16" in info.value.rule
    with pytest.raises(errors.InvalidInputError) as by_hand:
        order(
            seventeen,
            amount=17 * each,
            chains=many_chains(17),
            sources=dict.fromkeys(seventeen, each),
            registry=pinned,
        )
    assert by_hand.value.argument == "sources"


def test_balances_from_the_backend_are_read_by_chain_id() -> None:
    built = order({}, balances=GatewayBalance.model_validate(balance({42161: 20_000_000})))
    assert [s.chain_id for s in built.sources] == [42161]
    body = balance({42161: 20_000_000})
    del body["balances"][0]["chainId"]  # in the spec's balance entry: required
    with pytest.raises(ValidationError, match=r"balances\.0\.chainId"):
        GatewayBalance.model_validate(body)


def test_balances_of_someone_else_are_refused() -> None:
    other = GatewayBalance.model_validate(balance({42161: 20_000_000}, address="0x" + "11" * 20))
    with pytest.raises(errors.InvalidInputError, match="not of user"):
        order({}, balances=other)


@pytest.mark.parametrize(
    ("kwargs", "error", "argument"),
    [
        ({"chain_id": 7777}, errors.InvalidInputError, "chain_id"),
        # A quote dict without what the spec lists does not fit the model.
        (
            {"quote_changes": {"swap_router_address": None}},
            errors.InvalidInputError,
            "quote.swap_router_address",
        ),
        (
            {"quote_changes": {"token_in": None}, "chain_id": 8453},
            errors.InvalidInputError,
            "quote.token_in",
        ),
    ],
)
def test_quote_and_destination_problems(kwargs: dict[str, Any], error: Any, argument: Any) -> None:
    with pytest.raises(error) as info:
        order({42161: 20_000_000}, **kwargs)
    assert info.value.argument == argument


def test_the_destination_defaults_to_the_quoted_chain() -> None:
    quoted = a_quote()
    with pytest.raises(errors.InvalidInputError) as info:
        build_order(
            quoted, chains=CHAINS, balances={42161: 20_000_000}, user=ADDRESS, registry=REGISTRY
        )
    assert info.value.argument == "chain_id"  # a quote read from a dict does not know it


def test_a_wire_dict_quote_and_chains_are_accepted() -> None:
    built = build_order(
        quote(),
        chains=chains(),
        balances={"42161": "20000000"},
        user=ADDRESS.lower(),
        chain_id=8453,
        registry=REGISTRY,
    )
    assert built.sources[0].chain_id == 42161


# ------------------------------------------------------------------ signing


def test_one_source_is_signed_as_a_burn_intent() -> None:
    built = order({42161: 20_000_000})
    signed = sign_order(built, WALLET, registry=REGISTRY)
    assert isinstance(signed, SignedOrder)
    wire = signed.to_wire()
    assert len(wire) == 1
    assert wire[0]["intent"] == built.intents[0].to_wire()
    assert recover_order_signer(wire) == WALLET.address  # eth_account, from the JSON
    assert recover_burn_intent_signer(built.intents[0], wire[0]["signature"]) == WALLET.address
    assert signed.signer == WALLET.address
    assert wire[0]["signature"][2:] not in repr(signed)


def test_several_sources_are_signed_once_as_a_set() -> None:
    built = order({42161: 6_000_000, 8453: 9_000_000})
    signed = sign_order(built, WALLET, registry=REGISTRY)
    wire = signed.to_wire()
    assert len(wire) == 2
    assert "signature" in wire[0]
    assert "signature" not in wire[1]
    assert [element["intent"] for element in wire] == [i.to_wire() for i in built.intents]
    assert recover_order_signer(wire) == WALLET.address
    assert signed.digest == burn_intent_set_digest(list(built.intents))
    # The JSON sent carries uint256 values as strings, domains and version as ints.
    spec = wire[0]["intent"]["spec"]
    assert isinstance(spec["value"], str)
    assert isinstance(spec["sourceDomain"], int)
    assert isinstance(wire[0]["intent"]["maxBlockHeight"], str)


def test_typed_data_for_signing_elsewhere() -> None:
    single, several = order({42161: 20_000_000}), order({42161: 6_000_000, 8453: 9_000_000})
    assert single.typed_data()["primaryType"] == "BurnIntent"
    assert "BurnIntentSet" not in single.typed_data()["types"]
    assert several.typed_data()["primaryType"] == "BurnIntentSet"


def test_only_the_orders_user_may_sign() -> None:
    with pytest.raises(errors.InvalidInputError) as info:
        sign_order(order({42161: 20_000_000}), Account.create(), registry=REGISTRY)
    assert info.value.argument == "signer"
    with pytest.raises(errors.InvalidInputError):
        sign_order("not an order", WALLET)  # type: ignore[arg-type]


def test_the_clients_expose_the_same_functions() -> None:
    # The quote's expiry is checked by the client's clock: the virtual one starts before it.
    client = FlashClient(base_url="https://flash.invalid", clock=VirtualClock(), registry=REGISTRY)
    built = client.build_order(
        a_quote(), chains=CHAINS, balances={42161: 20_000_000}, user=ADDRESS, chain_id=8453
    )
    signed = client.sign_order(built, WALLET)
    assert recover_order_signer(signed.to_wire()) == WALLET.address


# ------------------------------------------------------------------ properties

POOL_BODIES = [chain(3000 + index) for index in range(20)]
POOL = [Chain.model_validate(body) for body in POOL_BODIES]
POOL_IDS = [c.id for c in POOL]
POOL_REGISTRY = pinned_routers(Registry(pin(*POOL_BODIES)))  # made-up chains, pinned by the test


def fewest_chains(amount: int, usable: list[int]) -> int | None:
    total = 0
    for count, value in enumerate(sorted(usable, reverse=True), start=1):
        total += value
        if total >= amount:
            return count
    return None


@settings(max_examples=150, deadline=None)
@given(
    held=st.dictionaries(
        st.sampled_from(POOL_IDS), st.integers(min_value=0, max_value=50_000_000), max_size=20
    ),
    amount=st.integers(min_value=1, max_value=200_000_000),
    fee=st.integers(min_value=0, max_value=3_000_000),
)
def test_selection_properties(held: dict[int, int], amount: int, fee: int) -> None:
    usable = [max(0, value - fee) for value in held.values()]
    needed = fewest_chains(amount, usable)
    quoted = Quote.model_validate(quote(amount, gateway_fee=fee))

    def build() -> Order:
        return build_order(
            quoted,
            chains=POOL,
            balances=held,
            user=ADDRESS,
            chain_id=3000,
            registry=POOL_REGISTRY,
            max_fee_cap=3_000_000,
            max_total_fee=10**12,
        )

    if needed is None:
        with pytest.raises(errors.InsufficientBalanceError) as short:
            build()
        assert short.value.shortfall == amount - sum(usable)
        return
    if needed > 16:
        with pytest.raises(errors.InvalidInputError, match="at most 16"):
            build()
        return
    built = build()
    assert sum(intent.spec.value for intent in built.intents) == amount
    assert all(held[s.chain_id] >= s.value + s.max_fee for s in built.sources)
    assert all(s.value > 0 for s in built.sources)
    assert len(built.sources) == needed  # no more chains than needed
    assert len({s.chain_id for s in built.sources}) == len(built.sources)


@settings(max_examples=200, deadline=None)
@given(
    usable=st.dictionaries(st.integers(1, 10**6), st.integers(0, 10**9), max_size=30),
    amount=st.integers(1, 10**10),
)
def test_select_sources_is_deterministic_and_minimal(usable: dict[int, int], amount: int) -> None:
    picked = select_sources(amount, usable)
    again = select_sources(amount, dict(reversed(list(usable.items()))))
    assert picked == again  # the order the balances arrive in does not matter
    needed = fewest_chains(amount, list(usable.values()))
    if needed is None:
        assert picked is None
    else:
        assert picked is not None
        assert len(picked) == needed
        assert sum(picked.values()) == amount
        assert all(0 < value <= usable[c] for c, value in picked.items())


def test_a_signed_intent_round_trips_through_its_wire_form() -> None:
    signed = sign_order(order({42161: 20_000_000}), WALLET, registry=REGISTRY)
    element = signed.to_wire()[0]
    assert BurnIntent.model_validate(element["intent"]) == signed.order.intents[0]
