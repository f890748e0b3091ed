"""Burn intents: building, the wire form, typed data, signing sets, and bad input."""

from __future__ import annotations

import json
from typing import Any

import pytest
from eth_account import Account
from eth_account.signers.local import LocalAccount
from pydantic import ValidationError

from xswap_sdk.errors import InvalidInputError
from xswap_sdk.signing import (
    DEFAULT_MAX_FEE,
    BurnIntent,
    BurnIntentSet,
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
from xswap_sdk.types import MAX_UINT256

from .support import (
    MINTER,
    ROUTER,
    USDC_BASE,
    USDC_ETHEREUM,
    USER,
    WALLET,
    build_intent,
    eth_account_digest,
    single_intent_wire,
    vector_case,
)


def pad(address: str) -> str:
    return "0x" + "0" * 24 + address[2:].lower()


def test_address_to_bytes32_lowercases_and_left_pads() -> None:
    expected = "0x0000000000000000000000005a3ca05337a87116a27a21b11cde16d85efb3586"
    assert address_to_bytes32(USER) == expected
    assert address_to_bytes32(USER.lower()) == expected
    assert address_to_bytes32("0x" + USER[2:].upper()) == expected


@pytest.mark.parametrize("bad", [USER[:-1], USER.replace("a3C", "a3c"), 42, "0x" + "00" * 32])
def test_address_to_bytes32_refuses_non_addresses(bad: object) -> None:
    with pytest.raises(InvalidInputError) as caught:
        address_to_bytes32(bad)  # type: ignore[arg-type]
    assert caught.value.argument == "address"


def test_build_applies_the_spec_defaults() -> None:
    intent = build_intent()
    spec = intent.spec
    assert spec.version == 1
    assert intent.max_fee == DEFAULT_MAX_FEE == 2_010_000
    assert intent.max_block_height == MAX_UINT256
    assert spec.hook_data == "0x"
    assert spec.source_depositor == spec.source_signer == pad(USER)
    assert spec.destination_recipient == spec.destination_caller == pad(ROUTER)
    assert spec.source_contract == pad(WALLET)
    assert spec.destination_contract == pad(MINTER)
    assert spec.source_token == pad(USDC_ETHEREUM)
    assert spec.destination_token == pad(USDC_BASE)
    assert len(spec.salt) == 66
    assert build_intent().spec.salt != spec.salt


def test_build_takes_explicit_values() -> None:
    caller = "0x" + "ab" * 20
    solana_recipient = "0x" + "CD" * 32
    intent = build_intent(
        source_signer=ROUTER,
        destination_caller=caller,
        recipient=solana_recipient,
        hook_data=b"\x01\x02",
        max_fee="3000000",
        max_block_height=23_000_000,
        salt=bytes(range(32)),
        version=1,
        value="5",
    )
    spec = intent.spec
    assert spec.source_signer == pad(ROUTER)
    assert spec.destination_caller == pad(caller)
    assert spec.destination_recipient == solana_recipient.lower()
    assert spec.hook_data == "0x0102"
    assert (intent.max_fee, intent.max_block_height, spec.version, spec.value) == (
        3_000_000,
        23_000_000,
        1,
        5,
    )
    assert spec.salt == "0x" + bytes(range(32)).hex()


@pytest.mark.parametrize(
    ("argument", "value"),
    [
        ("value", 1.5),
        ("value", 2**256),
        ("value", -1),
        ("value", True),
        ("value", "1e6"),
        ("max_fee", 2.01),
        ("max_block_height", 2**256),
        ("recipient", ROUTER.replace("1111111254EEB", "1111111254eeB")),
        ("user", "0x1234"),
        ("salt", "0x" + "00" * 31),
        ("salt", b"\x00" * 33),
        ("hook_data", "0x123"),
        ("hook_data", "zz"),
        ("source_domain", 2**32),
        ("destination_domain", -1),
        ("version", 1.0),
    ],
)
def test_build_names_the_bad_argument(argument: str, value: object) -> None:
    with pytest.raises(InvalidInputError) as caught:
        build_intent(**{argument: value})
    assert caught.value.argument == argument


def test_wire_form_is_exactly_circles() -> None:
    wire = single_intent_wire()
    intent = BurnIntent.model_validate(wire)
    assert intent.to_wire() == wire
    # Same keys in the same order, and the JSON types Circle expects.
    assert json.dumps(intent.to_wire()) == json.dumps(wire)
    out = intent.to_wire()
    assert isinstance(out["maxBlockHeight"], str)
    assert isinstance(out["maxFee"], str)
    assert isinstance(out["spec"]["value"], str)
    assert isinstance(out["spec"]["version"], int)
    assert isinstance(out["spec"]["sourceDomain"], int)
    assert out["spec"]["hookData"] == "0x"


def test_wire_form_accepts_integers_and_snake_case() -> None:
    wire = single_intent_wire()
    as_ints = {**wire, "maxBlockHeight": 23_000_000, "maxFee": 2_010_000}
    as_ints["spec"] = {**wire["spec"], "value": 1_000_000, "salt": wire["spec"]["salt"].upper()}
    as_ints["spec"]["salt"] = "0x" + as_ints["spec"]["salt"][2:]
    assert BurnIntent.model_validate(as_ints).to_wire() == wire
    intent = BurnIntent.model_validate(wire)
    assert BurnIntent.model_validate(intent.model_dump()) == intent


SNAKE = {
    "maxBlockHeight": "max_block_height",
    "maxFee": "max_fee",
    "sourceDomain": "source_domain",
    "sourceContract": "source_contract",
    "hookData": "hook_data",
}


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("maxBlockHeight",), str(2**256)),
        (("maxFee",), 1.0),
        (("spec", "version"), 2**32),
        (("spec", "sourceDomain"), "-1"),
        (("spec", "value"), "0x10"),
        (("spec", "salt"), "0x" + "00" * 31),
        (("spec", "sourceContract"), "0x" + "00" * 20),
        (("spec", "hookData"), "0x0"),
    ],
)
def test_wire_form_validates_ranges_and_lengths(path: tuple[str, ...], value: object) -> None:
    wire = single_intent_wire()
    target = wire
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(ValidationError):
        BurnIntent.model_validate(wire)
    # Through the SDK's functions the same problem is an InvalidInputError naming it.
    with pytest.raises(InvalidInputError) as caught:
        burn_intent_digest(wire)
    snake = {
        "maxBlockHeight": "max_block_height",
        "maxFee": "max_fee",
        "sourceDomain": "source_domain",
        "sourceContract": "source_contract",
        "hookData": "hook_data",
    }
    assert caught.value.argument == "intent." + ".".join(snake.get(key, key) for key in path)


def test_unknown_wire_keys_are_refused() -> None:
    # They would be sent without being signed.
    wire = single_intent_wire()
    wire["spec"]["extra"] = "1"
    with pytest.raises(InvalidInputError) as caught:
        burn_intent_digest(wire)
    assert caught.value.argument == "intent.spec.extra"


def test_typed_data_holds_only_the_types_needed() -> None:
    intent = build_intent()
    single = burn_intent_typed_data(intent)
    assert single["primaryType"] == "BurnIntent"
    assert set(single["types"]) == {"EIP712Domain", "TransferSpec", "BurnIntent"}
    assert single["domain"] == {"name": "GatewayWallet", "version": "1"}
    assert single["message"] == intent.to_wire()
    many = burn_intent_set_typed_data([intent, build_intent()])
    assert many["primaryType"] == "BurnIntentSet"
    assert set(many["types"]) == {"EIP712Domain", "TransferSpec", "BurnIntent", "BurnIntentSet"}
    assert many["message"]["intents"][0] == intent.to_wire()


def test_typed_data_is_a_fresh_copy() -> None:
    intent = build_intent()
    typed = burn_intent_typed_data(intent)
    typed["types"]["TransferSpec"].clear()
    typed["domain"]["chainId"] = 1
    assert eth_account_digest(burn_intent_typed_data(intent)) == burn_intent_digest(intent)


def test_digests_match_eth_account() -> None:
    intents = [
        build_intent(),
        build_intent(hook_data="0xdeadbeef"),
        build_intent(value=MAX_UINT256),
    ]
    for intent in intents:
        assert burn_intent_digest(intent) == eth_account_digest(burn_intent_typed_data(intent))
    assert burn_intent_set_digest(intents) == eth_account_digest(
        burn_intent_set_typed_data(intents)
    )


def test_set_of_one_differs_from_the_intent_alone() -> None:
    intent = build_intent()
    assert burn_intent_set_digest([intent]) != burn_intent_digest(intent)


def test_empty_and_zero_hook_data_differ() -> None:
    assert burn_intent_digest(build_intent(hook_data="0x")) != burn_intent_digest(
        build_intent(hook_data="0x00")
    )


def test_sign_and_recover_one_intent(account: LocalAccount) -> None:
    intent = build_intent()
    signed = sign_burn_intent(intent, account)
    assert signed.signer == account.address
    assert signed.digest == burn_intent_digest(intent)
    assert recover_burn_intent_signer(intent, signed.signature) == account.address
    # The JSON that is sent recovers to the signer too.
    sent = json.loads(json.dumps(signed.to_wire()))
    assert set(sent) == {"burnIntent", "signature"}
    assert recover_burn_intent_signer(sent["burnIntent"], sent["signature"]) == account.address
    assert signed.to_signed_order() == [{"intent": intent.to_wire(), "signature": signed.signature}]


def test_sign_and_recover_a_set(account: LocalAccount) -> None:
    intents = [build_intent(source_domain=domain) for domain in (0, 3, 6)]
    signed = sign_burn_intent_set(BurnIntentSet(intents=intents), account)
    assert signed.intents == tuple(intents)
    assert recover_burn_intent_set_signer(intents, signed.signature) == account.address
    sent = json.loads(json.dumps(signed.to_wire()))
    assert set(sent) == {"burnIntentSet", "signature"}
    assert set(sent["burnIntentSet"]) == {"intents"}
    recovered = recover_burn_intent_set_signer(sent["burnIntentSet"]["intents"], sent["signature"])
    assert recovered == account.address
    order = signed.to_signed_order()
    assert [entry["intent"] for entry in order] == [intent.to_wire() for intent in intents]
    assert order[0]["signature"] == signed.signature
    assert all("signature" not in entry for entry in order[1:])


def test_a_changed_intent_recovers_someone_else(account: LocalAccount) -> None:
    intent = build_intent()
    signed = sign_burn_intent(intent, account)
    wire = intent.to_wire()
    wire["spec"]["value"] = "1000001"
    assert recover_burn_intent_signer(wire, signed.signature) != account.address


def test_sixteen_intents_sign_and_seventeen_do_not(account: LocalAccount) -> None:
    intents = [build_intent() for _ in range(17)]
    signed = sign_burn_intent_set(intents[:16], account)
    assert recover_burn_intent_set_signer(intents[:16], signed.signature) == account.address
    with pytest.raises(InvalidInputError) as caught:
        sign_burn_intent_set(intents, account)
    assert caught.value.argument == "intents"
    with pytest.raises(ValidationError):
        BurnIntentSet(intents=intents)


@pytest.mark.parametrize("empty", [[], (), BurnIntentSet.model_construct(intents=[])])
def test_an_empty_set_is_refused(account: LocalAccount, empty: Any) -> None:
    with pytest.raises(InvalidInputError) as caught:
        sign_burn_intent_set(empty, account)
    assert caught.value.argument == "intents"


@pytest.mark.parametrize("not_a_list", ["0x00", b"\x00", 3, None, {"intents": []}])
def test_intents_must_be_a_list(account: LocalAccount, not_a_list: Any) -> None:
    with pytest.raises(InvalidInputError) as caught:
        sign_burn_intent_set(not_a_list, account)
    assert caught.value.argument == "intents"


def test_a_bad_intent_in_a_set_is_named_by_index(account: LocalAccount) -> None:
    wire = build_intent().to_wire()
    wire["spec"]["value"] = 1.5
    with pytest.raises(InvalidInputError) as caught:
        sign_burn_intent_set([build_intent(), build_intent(), wire], account)
    assert caught.value.argument == "intents[2].spec.value"


def test_the_signer_must_be_the_source_signer(account: LocalAccount) -> None:
    someone_else = Account.create().address
    with pytest.raises(InvalidInputError) as caught:
        sign_burn_intent(build_intent(user=someone_else), account)
    assert caught.value.argument == "intent.spec.source_signer"
    with pytest.raises(InvalidInputError) as caught:
        sign_burn_intent_set([build_intent(), build_intent(source_signer=someone_else)], account)
    assert caught.value.argument == "intents[1].spec.source_signer"
    # The depositor may differ from the signer; the signer is what must match.
    sign_burn_intent(build_intent(user=someone_else, source_signer=account.address), account)


def test_signed_results_do_not_print_the_signature(account: LocalAccount) -> None:
    one = sign_burn_intent(build_intent(), account)
    many = sign_burn_intent_set([build_intent()], account)
    for signed in (one, many):
        assert signed.signature[2:] not in repr(signed)
        assert signed.signature[2:] not in str(signed)
        assert signed.digest in repr(signed)


def test_vector_set_wire_round_trips() -> None:
    given = vector_case("burnIntentSet")["input"]["intents"]
    assert BurnIntentSet.model_validate({"intents": given}).to_wire() == {"intents": given}
