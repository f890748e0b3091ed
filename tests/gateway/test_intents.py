"""Building a direct transfer's intent from the registry, and taking Gateway's estimate
into it: only the fee and the height, under a cap, and only for your own spec."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xswap_sdk import errors
from xswap_sdk.flash._orders import default_max_fee_cap
from xswap_sdk.gateway import EstimatedBurnIntent, EstimatedTransfer, apply_estimate
from xswap_sdk.gateway._operations import default_fee_cap
from xswap_sdk.registry import DEFAULT_REGISTRY
from xswap_sdk.signing import address_to_bytes32

from .support import SPEC_FIELDS, transfer_intent

ME = "0x5a3Ca05337A87116A27A21b11cDE16D85efb3586"
BASE, ARBITRUM = DEFAULT_REGISTRY.chain(8453), DEFAULT_REGISTRY.chain(42161)


def intent(value: int = 5_000_000, **overrides: Any) -> Any:
    return transfer_intent(value, **{"salt": "0x" + "01" * 32, **overrides})


def estimated(own: Any, *, fee: int = 10_000, height: int = 777, **spec: Any) -> Any:
    wire = own.spec.to_wire()
    # As the live API may write them: addresses in 20 bytes, upper-case hex.
    shortened = {
        key: "0x" + value[-40:].upper()
        if key.endswith(("Contract", "Token", "Depositor"))
        else value
        for key, value in wire.items()
    }
    return EstimatedBurnIntent(max_block_height=height, max_fee=fee, spec={**shortened, **spec})


def test_a_transfer_intent_takes_every_contract_from_the_registry() -> None:
    own = intent()
    spec = own.spec
    assert (spec.source_domain, spec.destination_domain) == (6, 3)
    assert spec.source_contract == address_to_bytes32(BASE.gateway_wallet)
    assert spec.destination_contract == address_to_bytes32(ARBITRUM.gateway_minter)
    assert spec.source_token == address_to_bytes32(BASE.usdc)
    assert spec.destination_token == address_to_bytes32(ARBITRUM.usdc)
    assert spec.source_signer == spec.source_depositor == address_to_bytes32(ME)
    assert spec.destination_caller == "0x" + "0" * 64
    assert own.max_fee == 2_010_000


def test_chains_of_two_networks_or_outside_the_registry_are_refused() -> None:
    with pytest.raises(errors.InvalidInputError) as info:
        intent(destination_chain_id=84532)
    assert info.value.argument == "destination_chain_id"
    with pytest.raises(errors.UnsafePayloadError):
        intent(source_chain_id=56)
    with pytest.raises(errors.InvalidInputError):
        intent(value=0)


def test_the_estimate_brings_its_fee_and_height_and_nothing_else() -> None:
    own = intent()
    ready = apply_estimate(own, estimated(own))
    assert (ready.max_fee, ready.max_block_height) == (10_000, 777)
    assert ready.spec == own.spec
    wrapped = EstimatedTransfer(burn_intent=estimated(own, fee=20_000))
    assert apply_estimate(own.to_wire(), wrapped).max_fee == 20_000


def test_the_default_cap_is_the_swap_backends() -> None:
    for value in (1, 5_000_000, 10**12, 2**200):
        assert default_fee_cap(value) == default_max_fee_cap(value)


def test_a_fee_above_the_cap_is_refused() -> None:
    own = intent(value=40_000_000, max_fee=10**9)
    cap = default_fee_cap(40_000_000)
    assert apply_estimate(own, estimated(own, fee=cap)).max_fee == cap
    with pytest.raises(errors.UnsafePayloadError) as info:
        apply_estimate(own, estimated(own, fee=cap + 1))
    assert info.value.field == "estimate.max_fee"
    with pytest.raises(errors.QuoteRejectedError) as rejected:
        apply_estimate(own, estimated(own, fee=50_001), max_fee_cap=50_000)
    assert rejected.value.argument == "max_fee_cap"
    assert apply_estimate(own, estimated(own, fee=60_000_000), max_fee_cap=10**9).max_fee == (
        60_000_000
    )


def test_a_fee_above_the_intents_own_max_fee_needs_consent() -> None:
    own = intent(max_fee=30_000)
    assert apply_estimate(own, estimated(own, fee=20_000)).max_fee == 20_000  # tighter: taken
    assert apply_estimate(own, estimated(own, fee=30_000)).max_fee == 30_000
    with pytest.raises(errors.QuoteRejectedError) as refused:
        apply_estimate(own, estimated(own, fee=30_001))
    assert refused.value.argument == "allow_higher_fee"
    assert "30001" in str(refused.value)
    assert "30000" in str(refused.value)
    raised = apply_estimate(own, estimated(own, fee=30_001), allow_higher_fee=True)
    assert raised.max_fee == 30_001
    # Consent stops at the cap.
    with pytest.raises(errors.QuoteRejectedError) as capped:
        apply_estimate(own, estimated(own, fee=40_001), allow_higher_fee=True, max_fee_cap=40_000)
    assert capped.value.argument == "max_fee_cap"
    with pytest.raises(errors.InvalidInputError):
        apply_estimate(own, estimated(own), allow_higher_fee="yes")  # type: ignore[arg-type]


def test_the_expiry_is_never_widened() -> None:
    # The caller's 1,000 blocks stay 1,000 blocks, whatever Gateway estimates.
    own = intent(max_block_height=1_000)
    for height in (1_001, 10**9, 2**256 - 1):
        assert apply_estimate(own, estimated(own, height=height)).max_block_height == 1_000
    # A tighter estimate is taken; an intent built without expiry takes Gateway's.
    assert apply_estimate(own, estimated(own, height=900)).max_block_height == 900
    assert apply_estimate(intent(), estimated(intent(), height=777)).max_block_height == 777


@given(
    mine=st.integers(min_value=0, max_value=2**256 - 1),
    theirs=st.integers(min_value=0, max_value=2**256 - 1),
    fee=st.integers(min_value=0, max_value=2_010_000),
    own_fee=st.integers(min_value=0, max_value=2_010_000),
)
def test_no_estimate_loosens_the_intent(mine: int, theirs: int, fee: int, own_fee: int) -> None:
    own = intent(max_block_height=mine, max_fee=own_fee)
    try:
        ready = apply_estimate(own, estimated(own, fee=fee, height=theirs))
    except errors.QuoteRejectedError:
        assert fee > own_fee
        return
    assert ready.max_block_height <= mine
    assert ready.max_fee <= own_fee


def test_an_answer_without_one_intent_or_with_a_bad_fee_is_refused() -> None:
    own = intent()
    with pytest.raises(errors.UnsafePayloadError):
        apply_estimate(own, EstimatedTransfer())
    with pytest.raises(errors.UnsafePayloadError):
        apply_estimate(own, estimated(own, fee=0, height=-1), max_fee_cap=10)


@given(field=st.sampled_from(SPEC_FIELDS), data=st.data())
def test_any_single_change_to_the_spec_is_refused(field: str, data: st.DataObject) -> None:
    own = intent()
    original = own.spec.to_wire()[field]
    if isinstance(original, int):
        changed: Any = data.draw(
            st.integers(min_value=0, max_value=2**32 - 1).filter(lambda n: n != original)
        )
    elif field == "value":
        changed = str(data.draw(st.integers(min_value=1).filter(lambda n: str(n) != original)))
    elif field == "hookData":
        changed = "0x" + data.draw(st.binary(min_size=1, max_size=8)).hex()
    else:
        raw = data.draw(st.binary(min_size=20, max_size=20))
        changed = "0x" + raw.hex()
        if "0x" + "0" * 24 + raw.hex() == original:
            return
    with pytest.raises(errors.UnsafePayloadError) as info:
        apply_estimate(own, estimated(own, **{field: changed}))
    assert info.value.field == f"estimate.spec.{field}"


def test_an_extra_spec_field_in_the_estimate_is_refused() -> None:
    own = intent()
    with pytest.raises(errors.UnsafePayloadError) as info:
        apply_estimate(own, estimated(own, surprise="1"))
    assert info.value.field == "estimate.spec.surprise"
