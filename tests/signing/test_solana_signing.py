"""Signing with a Solana key: what is refused before the key is asked (a tamper of
every field of the intent that has a rule, and the EVM side's Solana destinations),
what a signer must return, sets, and how the signing gate describes a Solana intent
for policies."""

from __future__ import annotations

from typing import Any

import pytest
from solders.keypair import Keypair

from xswap_sdk import errors
from xswap_sdk.chains import SOLANA, SOLANA_DEVNET
from xswap_sdk.gateway import build_transfer_intent
from xswap_sdk.policy import Policy, SigningRequest
from xswap_sdk.registry import DEFAULT_REGISTRY, GatewayChain
from xswap_sdk.signing import (
    BurnIntent,
    SolanaSigner,
    sign_burn_intent,
    sign_burn_intent_set,
    solana_burn_intent_message,
)
from xswap_sdk.signing.signed_intents import check_burn_intent
from xswap_sdk.testing import TEST_SIGNER, TEST_SOLANA_ADDRESS, TEST_SOLANA_SIGNER

from .support import SOLANA_OWNER, base_to_solana

MAINNET = DEFAULT_REGISTRY.chain(SOLANA)
DEVNET = DEFAULT_REGISTRY.chain(SOLANA_DEVNET)
BASE = DEFAULT_REGISTRY.chain(8453)
OWNER = SOLANA_OWNER
OWNER_ATA = "3Yu8dCTg9GabYv2Yg15sWcLUSoYewvQFaUWipUfkbZ2d"
OTHER_KEY = Keypair.from_seed(bytes([3] * 32))
U64 = 2**64 - 1


def word(key: str) -> str:
    from xswap_sdk.signing._fields import to_word

    return to_word("solana", key)


class Spy:
    """A SolanaSigner that records what it was asked to sign."""

    def __init__(self, inner: Any = TEST_SOLANA_SIGNER, answer: Any = None) -> None:
        self.inner = inner
        self.answer = answer
        self.asked: list[bytes] = []

    def pubkey(self) -> object:
        return self.inner.pubkey()

    def sign_message(self, message: bytes, /) -> object:
        self.asked.append(message)
        if self.answer is not None:
            return self.answer(message)
        return self.inner.sign_message(message)


def from_solana(destination: int = 8453, **overrides: Any) -> BurnIntent:
    recipient = OWNER if destination in (SOLANA, SOLANA_DEVNET) else TEST_SIGNER.address
    return build_transfer_intent(
        source_chain_id=SOLANA,
        destination_chain_id=destination,
        depositor=TEST_SOLANA_ADDRESS,
        recipient=recipient,
        value=1_000_000,
        **overrides,
    )


def tampered(intent: BurnIntent, name: str, value: Any) -> dict[str, Any]:
    wire = intent.to_wire()
    if name in ("maxBlockHeight", "maxFee"):
        wire[name] = str(value)
    else:
        wire["spec"][name] = value
    return wire


def test_the_spy_signs_an_honest_intent_once() -> None:
    spy = Spy()
    signed = sign_burn_intent(from_solana(), spy)
    assert spy.asked == [solana_burn_intent_message(signed.intent)]
    assert isinstance(Keypair(), SolanaSigner)
    assert not isinstance(TEST_SIGNER, SolanaSigner)


# Every field of a Solana-source intent to Base with a rule, tampered; the field the
# refusal names (snake case) and its type. Fields without one are the caller's to choose:
# value (within a u64), salt, hookData and sourceDepositor (a delegate signs for another).
UNSAFE, INVALID = errors.UnsafePayloadError, errors.InvalidInputError
SOLANA_TAMPERS: dict[str, tuple[Any, str, type[Exception]]] = {
    "maxBlockHeight": (U64 + 1, "intent.max_block_height", INVALID),
    "maxFee": (U64 + 1, "intent.max_fee", INVALID),
    "value": (U64 + 1, "intent.spec.value", INVALID),
    "version": (2, "intent.spec.version", INVALID),
    "sourceDomain": (6, "intent.spec.source_domain", INVALID),
    "destinationDomain": (99, "intent.spec.destination_domain", UNSAFE),
    "sourceContract": (word(MAINNET.gateway_minter), "intent.spec.source_contract", UNSAFE),
    "sourceToken": (word(DEVNET.usdc), "intent.spec.source_token", UNSAFE),
    "sourceSigner": (word(str(OTHER_KEY.pubkey())), "intent.spec.source_signer", INVALID),
    "destinationContract": (
        "0x" + "00" * 12 + "22" * 20,
        "intent.spec.destination_contract",
        UNSAFE,
    ),
    "destinationToken": (
        "0x" + "00" * 12 + "33" * 20,
        "intent.spec.destination_token",
        UNSAFE,
    ),
    "destinationRecipient": (word(OWNER), "intent.spec.destination_recipient", INVALID),
    "destinationCaller": (word(OWNER), "intent.spec.destination_caller", INVALID),
}


@pytest.mark.parametrize("name", sorted(SOLANA_TAMPERS))
def test_a_tampered_solana_intent_is_refused_before_the_key_is_asked(name: str) -> None:
    value, field, error = SOLANA_TAMPERS[name]
    spy = Spy()
    with pytest.raises(error) as info:
        sign_burn_intent(tampered(from_solana(), name, value), spy)
    refused: Any = info.value
    assert (refused.field if isinstance(refused, UNSAFE) else refused.argument) == field
    assert spy.asked == []


def test_a_zero_value_is_refused() -> None:
    spy = Spy()
    with pytest.raises(errors.InvalidInputError, match="positive"):
        sign_burn_intent(tampered(from_solana(), "value", "0"), spy)
    assert spy.asked == []


SOLANA_DESTINATION_TAMPERS: dict[str, tuple[Any, str, type[Exception]]] = {
    "destinationContract": (
        word(DEVNET.gateway_minter),
        "intent.spec.destination_contract",
        UNSAFE,
    ),
    "destinationToken": (word(DEVNET.usdc), "intent.spec.destination_token", UNSAFE),
    "destinationRecipient": ("0x" + "00" * 32, "intent.spec.destination_recipient", INVALID),
}


@pytest.mark.parametrize("source", ["solana", "evm"])
@pytest.mark.parametrize("name", sorted(SOLANA_DESTINATION_TAMPERS))
def test_a_tampered_solana_destination_is_refused_whoever_signs(name: str, source: str) -> None:
    value, field, error = SOLANA_DESTINATION_TAMPERS[name]
    if source == "solana":
        intent, signer = from_solana(SOLANA), Spy()
    else:
        intent = base_to_solana(1_000_000)
        signer = TEST_SIGNER
    with pytest.raises(error) as info:
        sign_burn_intent(tampered(intent, name, value), signer)
    named = (
        info.value.field
        if isinstance(info.value, errors.UnsafePayloadError)
        else info.value.argument
    )  # type: ignore[attr-defined]
    assert named == field
    if isinstance(signer, Spy):
        assert signer.asked == []


def test_an_evm_address_as_a_solana_recipient_is_refused() -> None:
    intent = base_to_solana(1_000_000)
    padded = "0x" + "00" * 12 + TEST_SIGNER.address[2:].lower()
    with pytest.raises(errors.InvalidInputError, match="EVM address"):
        sign_burn_intent(tampered(intent, "destinationRecipient", padded), TEST_SIGNER)
    with pytest.raises(errors.InvalidInputError, match="EVM address"):
        sign_burn_intent_set([tampered(intent, "destinationRecipient", padded)], TEST_SIGNER)


def test_a_devnet_intent_needs_devnet_programs_on_both_ends() -> None:
    devnet = build_transfer_intent(
        source_chain_id=SOLANA_DEVNET,
        destination_chain_id=SOLANA_DEVNET,
        depositor=TEST_SOLANA_ADDRESS,
        recipient=OWNER,
        value=1,
    )
    assert devnet.spec.source_contract == word(DEVNET.gateway_wallet)
    assert sign_burn_intent(devnet, TEST_SOLANA_SIGNER).scheme == "ed25519"
    mixed = tampered(devnet, "destinationContract", word(MAINNET.gateway_minter))
    with pytest.raises(errors.UnsafePayloadError) as info:
        sign_burn_intent(mixed, TEST_SOLANA_SIGNER)
    assert info.value.field == "intent.spec.destination_contract"


def test_a_registry_may_pin_other_programs() -> None:
    # A local validator's deployment, in place of devnet: pinned by the caller, it may be
    # signed for (a domain names one chain per network).
    local = GatewayChain(
        chain_id=SOLANA_DEVNET,
        name="Solana local",
        domain=5,
        usdc=OWNER_ATA,
        gateway_wallet=str(OTHER_KEY.pubkey()),
        gateway_minter=OWNER,
        testnet=True,
        family="solana",
    )
    registry = DEFAULT_REGISTRY.with_chains(local)
    assert registry.by_domain(5, testnet=True) == local
    intent = build_transfer_intent(
        source_chain_id=SOLANA_DEVNET,
        destination_chain_id=84532,
        depositor=TEST_SOLANA_ADDRESS,
        recipient=TEST_SIGNER.address,
        value=1,
        registry=registry,
    )
    with pytest.raises(errors.UnsafePayloadError):
        sign_burn_intent(intent, TEST_SOLANA_SIGNER)  # not pinned by default
    assert sign_burn_intent(intent, TEST_SOLANA_SIGNER, registry=registry).scheme == "ed25519"


def test_the_wrong_kind_of_key_is_refused() -> None:
    with pytest.raises(errors.InvalidInputError, match="SolanaSigner") as info:
        sign_burn_intent(from_solana(), TEST_SIGNER)
    assert info.value.argument == "signer"
    evm = build_transfer_intent(
        source_chain_id=8453,
        destination_chain_id=42161,
        depositor=TEST_SIGNER.address,
        recipient=TEST_SIGNER.address,
        value=1,
    )
    spy = Spy()
    with pytest.raises(errors.InvalidInputError) as info:
        sign_burn_intent(evm, spy)
    assert info.value.argument == "intent.spec.source_domain"
    assert spy.asked == []


def test_no_set_from_solana() -> None:
    with pytest.raises(errors.InvalidInputError) as info:
        sign_burn_intent_set([from_solana()], TEST_SIGNER)
    assert info.value.argument == "intents[0].spec.source_domain"
    with pytest.raises(errors.InvalidInputError) as info:
        sign_burn_intent_set([from_solana()], TEST_SOLANA_SIGNER)  # type: ignore[arg-type]
    assert info.value.argument == "signer"


@pytest.mark.parametrize(
    ("answer", "match"),
    [
        (lambda message: b"\x00" * 64, "does not verify"),
        (lambda message: OTHER_KEY.sign_message(message), "does not verify"),
        # Solana's off-chain message format: another envelope around the same bytes.
        (
            lambda message: TEST_SOLANA_SIGNER.sign_message(b"\xffsolana offchain" + message),
            "does not verify",
        ),
        (lambda message: b"\x01" * 65, "64 bytes"),
        (lambda message: None, "64 bytes"),
    ],
)
def test_a_signature_that_does_not_verify_is_refused(answer: Any, match: str) -> None:
    with pytest.raises(errors.SigningError, match=match):
        sign_burn_intent(from_solana(), Spy(answer=answer))


def test_signatures_come_back_in_any_byte_form() -> None:
    expected = sign_burn_intent(from_solana(salt="0x" + "01" * 32), TEST_SOLANA_SIGNER)
    for form in (bytes, lambda raw: "0x" + raw.hex(), lambda raw: raw.hex(), bytearray):
        spy = Spy(answer=lambda message, form=form: form(TEST_SOLANA_SIGNER.sign_message(message)))
        again = sign_burn_intent(expected.intent, spy)
        assert again.signature == expected.signature


def test_a_failing_or_odd_signer_is_typed() -> None:
    def boom(message: bytes) -> bytes:
        raise RuntimeError("device unplugged")

    with pytest.raises(errors.SigningError, match="RuntimeError"):
        sign_burn_intent(from_solana(), Spy(answer=boom))

    class NoKey(Spy):
        def pubkey(self) -> object:
            return "not a key"

    with pytest.raises(errors.InvalidInputError) as info:
        sign_burn_intent(from_solana(), NoKey())
    assert info.value.argument == "signer.pubkey()"


def test_check_burn_intent_refuses_what_signing_refuses_and_names_the_signer() -> None:
    intent = from_solana()
    assert check_burn_intent(intent, TEST_SOLANA_SIGNER) == TEST_SOLANA_ADDRESS
    with pytest.raises(errors.InvalidInputError):
        check_burn_intent(intent, OTHER_KEY)
    evm = base_to_solana(1)
    assert check_burn_intent(evm, TEST_SIGNER) == TEST_SIGNER.address


# ------------------------------------------------------------------------------ the gate


def described(call: Any) -> SigningRequest:
    seen: list[SigningRequest] = []

    def hook(request: SigningRequest) -> bool:
        seen.append(request)
        return True

    call(hook)
    (request,) = seen
    return request


def test_a_solana_intent_is_described_like_an_evm_one() -> None:
    intent = from_solana(SOLANA, max_fee=2_000_000, max_block_height=400_000_000)
    request = described(lambda hook: sign_burn_intent(intent, TEST_SOLANA_SIGNER, policy=hook))
    assert request.kind == "burn_intent"
    assert request.signer == TEST_SOLANA_ADDRESS
    assert request.chain_id == SOLANA
    assert request.token == MAINNET.usdc
    assert request.amount == 1_000_000
    assert request.counterparty == OWNER_ATA  # the recipient's token account, base58
    assert request.fee == 2_000_000
    assert request.details["destination_chain_id"] == SOLANA
    assert request.details["scheme"] == "ed25519"
    assert request.details["max_block_height"] == "400000000"
    assert request.details["message"] == intent.to_wire()
    to_base = described(
        lambda hook: sign_burn_intent(from_solana(), TEST_SOLANA_SIGNER, policy=hook)
    )
    assert to_base.counterparty == TEST_SIGNER.address
    assert to_base.details["destination_chain_id"] == 8453


def test_an_evm_intent_to_solana_names_the_token_account() -> None:
    intent = base_to_solana(1)
    request = described(lambda hook: sign_burn_intent(intent, TEST_SIGNER, policy=hook))
    assert request.counterparty == OWNER_ATA
    assert request.token == BASE.usdc
    assert request.details["destination_chain_id"] == SOLANA


def test_policies_judge_solana_intents_by_case_sensitive_accounts() -> None:
    intent = from_solana(SOLANA)
    allowed = Policy(
        allowed_counterparties=[OWNER_ATA], allowed_tokens=["USDC"], max_per_day=1_000_000
    )
    sign_burn_intent(intent, TEST_SOLANA_SIGNER, policy=allowed)
    assert allowed.spent_today(TEST_SOLANA_ADDRESS, "USDC") == 1_000_000
    assert allowed.spent_today(TEST_SOLANA_ADDRESS, MAINNET.usdc) == 1_000_000
    spy = Spy()
    with pytest.raises(errors.PolicyRefusedError) as info:
        sign_burn_intent(from_solana(SOLANA), spy, policy=allowed)
    assert info.value.rule == "max_per_day"
    assert spy.asked == []
    # A base58 key's case is part of it: the same letters in another case are another key.
    wrong_case = Policy(allowed_counterparties=[OWNER_ATA.lower()])
    with pytest.raises(errors.PolicyRefusedError) as info:
        sign_burn_intent(intent, spy, policy=wrong_case)
    assert info.value.rule == "allowed_counterparties"
    assert spy.asked == []
