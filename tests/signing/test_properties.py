"""Properties over random intents, sets and keys (hypothesis)."""

from __future__ import annotations

import json
from typing import Any

from eth_account import Account
from eth_keys.constants import SECPK1_N
from hypothesis import given, settings
from hypothesis import strategies as st

from xswap_sdk.signing import (
    BurnIntent,
    address_to_bytes32,
    build_burn_intent,
    burn_intent_digest,
    burn_intent_set_digest,
    burn_intent_set_typed_data,
    burn_intent_typed_data,
    recover_burn_intent_set_signer,
    recover_burn_intent_signer,
    sign_burn_intent,
    sign_burn_intent_set,
)

from .support import eth_account_digest, intent_wires

_addresses = st.binary(min_size=20, max_size=20).flatmap(
    lambda raw: st.sampled_from(
        [
            Account.from_key(b"\x01" * 32).address,  # checksummed
            "0x" + raw.hex(),  # lowercase
            address_to_bytes32("0x" + raw.hex()),  # bytes32 already
            "0x" + "ab" * 12 + raw.hex(),  # any bytes32 (a Solana account)
        ]
    )
)
_uints = st.integers(min_value=1, max_value=2**256 - 1)

keys = st.integers(min_value=1, max_value=SECPK1_N - 1).map(lambda n: n.to_bytes(32, "big"))


@given(intent_wires())
def test_any_intent_round_trips_through_its_wire_json(wire: dict[str, Any]) -> None:
    intent = BurnIntent.model_validate(wire)
    sent = json.loads(json.dumps(intent.to_wire()))
    again = BurnIntent.model_validate(sent)
    assert again == intent
    assert again.to_wire() == sent
    assert burn_intent_digest(sent) == burn_intent_digest(intent)


@given(intent_wires())
def test_intent_digest_equals_eth_accounts(wire: dict[str, Any]) -> None:
    assert burn_intent_digest(wire) == eth_account_digest(burn_intent_typed_data(wire))


@settings(max_examples=40)
@given(st.lists(intent_wires(), min_size=1, max_size=16))
def test_set_digest_equals_eth_accounts(wires: list[dict[str, Any]]) -> None:
    assert burn_intent_set_digest(wires) == eth_account_digest(burn_intent_set_typed_data(wires))


@settings(max_examples=40)
@given(keys, st.data())
def test_sign_then_recover_any_key(key: bytes, data: st.DataObject) -> None:
    account = Account.from_key(key)
    signer_word = st.just(address_to_bytes32(account.address))
    wire = data.draw(intent_wires(signer_word, signable=True))
    signed = sign_burn_intent(wire, account)
    expected = Account.unsafe_sign_hash(bytes.fromhex(signed.digest[2:]), key).signature
    assert signed.signature == "0x" + bytes(expected).hex()
    assert recover_burn_intent_signer(signed.to_wire()["burnIntent"], signed.signature) == (
        account.address
    )

    wires = data.draw(st.lists(intent_wires(signer_word, signable=True), min_size=1, max_size=4))
    signed_set = sign_burn_intent_set(wires, account)
    sent = signed_set.to_wire()
    assert recover_burn_intent_set_signer(sent["burnIntentSet"]["intents"], sent["signature"]) == (
        account.address
    )


@given(st.binary(min_size=20, max_size=20))
def test_address_to_bytes32_keeps_the_address(raw: bytes) -> None:
    word = address_to_bytes32("0x" + raw.hex())
    assert word == word.lower()
    assert bytes.fromhex(word[2:]) == bytes(12) + raw


@given(
    st.integers(min_value=0, max_value=2**32 - 1),
    st.integers(min_value=0, max_value=2**32 - 1),
    st.lists(_addresses, min_size=6, max_size=6),
    st.one_of(_uints, _uints.map(str)),
    st.one_of(st.binary(max_size=64), st.binary(max_size=64).map(lambda b: "0x" + b.hex())),
    st.one_of(st.none(), st.binary(min_size=32, max_size=32)),
    st.one_of(st.none(), _addresses),
)
def test_a_built_intent_is_what_validating_it_again_gives(
    source: int,
    destination: int,
    addresses: list[str],
    value: int | str,
    hook_data: bytes | str,
    salt: bytes | None,
    caller: str | None,
) -> None:
    # build_burn_intent validates its arguments once and builds the models from them:
    # the intent must be exactly what the models' own validation makes of it.
    intent = build_burn_intent(
        source_domain=source,
        destination_domain=destination,
        source_contract=addresses[0],
        destination_contract=addresses[1],
        source_token=addresses[2],
        destination_token=addresses[3],
        user=addresses[4],
        recipient=addresses[5],
        value=value,
        hook_data=hook_data,
        salt=salt,
        destination_caller=caller,
        max_fee=value,
    )
    again = BurnIntent.model_validate(intent.model_dump())
    assert again == intent
    assert again.model_fields_set == intent.model_fields_set
    assert again.spec.model_fields_set == intent.spec.model_fields_set
    assert again.to_wire() == intent.to_wire()
    assert burn_intent_digest(again) == burn_intent_digest(intent)
