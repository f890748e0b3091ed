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
