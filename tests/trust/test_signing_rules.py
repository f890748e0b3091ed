"""The signing helpers refuse what Circle Gateway's contracts refuse, and signers that
are not local keys are shown the whole message, then checked."""

from __future__ import annotations

from typing import Any

import pytest
from eth_account import Account
from eth_account.messages import encode_defunct

from xswap_sdk import errors
from xswap_sdk.signing import (
    burn_intent_set_typed_data,
    burn_intent_typed_data,
    deposit_with_permit_calldata,
    permit_typed_data,
    personal_sign,
    prepare_deposit_with_permit,
    recover_burn_intent_set_signer,
    recover_burn_intent_signer,
    recover_typed_data,
    sign_burn_intent,
    sign_burn_intent_set,
    sign_permit,
    sign_typed_data,
)

from ..signing.support import ROUTER, WALLET, build_intent
from ..support import permit2_typed_data
from .support import (
    TEST_ADDRESS,
    TEST_KEY,
    USDC_BASE,
    OtherKeySigner,
    RecordingSigner,
    TamperingSigner,
)


def intent(**overrides: Any) -> Any:
    return build_intent(**{"user": TEST_ADDRESS, "salt": bytes(32), **overrides})


def wire_with(**spec: Any) -> dict[str, Any]:
    wire = intent().to_wire()
    wire["spec"].update(spec)
    return wire


def permit2_payload() -> dict[str, Any]:
    return permit2_typed_data(spender=ROUTER, nonce="7")


# ------------------------------------------------------------------ what Gateway refuses


@pytest.mark.parametrize(
    ("changes", "argument", "error"),
    [
        ({"value": 0}, "value", "IntentValueMustBePositiveAtIndex"),
        ({"value": "0"}, "value", "IntentValueMustBePositiveAtIndex"),
        ({"version": 2}, "version", "InvalidTransferSpecVersion"),
        ({"version": 0}, "version", "InvalidTransferSpecVersion"),
    ],
)
def test_build_refuses_what_gateway_refuses(changes: Any, argument: str, error: str) -> None:
    with pytest.raises(errors.InvalidInputError) as info:
        intent(**changes)
    assert info.value.argument == argument
    assert error in info.value.rule
    assert intent(value=1).spec.value == 1


@pytest.mark.parametrize(
    ("spec", "field"),
    [({"value": "0"}, "spec.value"), ({"version": 2}, "spec.version")],
)
def test_signing_refuses_what_gateway_refuses(spec: dict[str, Any], field: str) -> None:
    account = Account.from_key(TEST_KEY)
    with pytest.raises(errors.InvalidInputError) as single:
        sign_burn_intent(wire_with(**spec), account)
    assert single.value.argument == f"intent.{field}"
    with pytest.raises(errors.InvalidInputError) as in_set:
        sign_burn_intent_set([intent().to_wire(), wire_with(**spec)], account)
    assert in_set.value.argument == f"intents[1].{field}"
    # The typed data and digests still describe such an intent (to inspect it).
    assert burn_intent_typed_data(wire_with(**spec))["message"]["spec"]


def test_a_deposit_of_zero_is_refused_before_any_node_call() -> None:
    with pytest.raises(errors.InvalidInputError) as info:
        deposit_with_permit_calldata(
            token=USDC_BASE, owner=TEST_ADDRESS, value=0, deadline=1, v=27,
            r="0x" + "11" * 32, s="0x" + "22" * 32,
        )  # fmt: skip
    assert info.value.argument == "value"
    assert "DepositValueMustBePositive" in info.value.rule

    class NoNode:
        def __getattr__(self, name: str) -> Any:
            raise AssertionError(f"the node was asked for {name}")

    with pytest.raises(errors.InvalidInputError, match="DepositValueMustBePositive"):
        prepare_deposit_with_permit(
            NoNode(),  # type: ignore[arg-type]
            Account.from_key(TEST_KEY),
            gateway_wallet=WALLET,
            usdc=USDC_BASE,
            value=0,
        )


# ------------------------------------------------------------------ remote signers


def test_a_remote_signer_is_shown_each_burn_intent_in_full() -> None:
    remote = RecordingSigner()
    local = Account.from_key(TEST_KEY)
    one = intent()
    signed = sign_burn_intent(one, remote)
    assert remote.typed == [burn_intent_typed_data(one)]
    assert signed.signature == sign_burn_intent(one, local).signature
    assert recover_burn_intent_signer(one, signed.signature) == TEST_ADDRESS

    many = [intent(), intent(source_domain=3, value=5)]
    signed_set = sign_burn_intent_set(many, remote)
    assert remote.typed[1] == burn_intent_set_typed_data(many)
    assert remote.typed[1]["primaryType"] == "BurnIntentSet"
    assert len(remote.typed[1]["message"]["intents"]) == 2
    assert recover_burn_intent_set_signer(many, signed_set.signature) == TEST_ADDRESS
    assert remote.digests == []


def test_a_remote_signer_is_shown_the_permit_and_any_payload_in_full() -> None:
    remote = RecordingSigner()
    permit = sign_permit(
        remote,
        token_name="USD Coin",
        token_version="2",
        chain_id=8453,
        token_address=USDC_BASE,
        spender=WALLET,
        value=5,
        nonce=0,
        deadline=2_000_000_000,
    )
    assert remote.typed == [
        permit_typed_data(
            token_name="USD Coin", token_version="2", chain_id=8453, token_address=USDC_BASE,
            owner=TEST_ADDRESS, spender=WALLET, value=5, nonce=0, deadline=2_000_000_000,
        )
    ]  # fmt: skip
    assert permit.owner == TEST_ADDRESS

    payload = permit2_payload()
    signature = sign_typed_data(remote, payload)
    shown = remote.typed[1]
    assert shown["message"] == payload["message"]
    assert shown["primaryType"] == "PermitTransferFrom"
    assert shown["domain"]["chainId"] == 8453  # read as the number it names
    assert recover_typed_data(payload, signature) == TEST_ADDRESS
    assert remote.digests == []


def test_a_remote_signer_is_shown_the_login_text() -> None:
    remote = RecordingSigner()
    message = "flash.rath.fi wants you to sign in with your Ethereum account:\n" + TEST_ADDRESS
    assert personal_sign(remote, message) == personal_sign(Account.from_key(TEST_KEY), message)
    assert remote.messages == [encode_defunct(text=message)]


@pytest.mark.parametrize("signer_type", [TamperingSigner, OtherKeySigner])
def test_a_remote_signature_over_something_else_is_refused(signer_type: type[Any]) -> None:
    signer = signer_type()
    with pytest.raises(errors.SigningError, match="does not recover"):
        sign_burn_intent(intent(), signer)
    with pytest.raises(errors.SigningError, match="does not recover"):
        sign_typed_data(signer, permit2_payload())
    with pytest.raises(errors.SigningError, match="does not recover"):
        personal_sign(signer, "sign in")
    assert signer.typed  # it was asked, with the full message


def test_a_remote_signer_cannot_change_what_the_sdk_keeps() -> None:
    class Scribbler(RecordingSigner):
        def sign_typed_data(self, *args: Any, full_message: Any = None, **kwargs: Any) -> object:
            signed = super().sign_typed_data(full_message=full_message)
            full_message["message"]["spec"]["value"] = "999"
            return signed

    one = intent()
    signed = sign_burn_intent(one, Scribbler())
    assert signed.intent.spec.value == 1_000_000
    assert signed.intent == one


def test_the_refusal_message_is_bounded_whatever_the_service_sent() -> None:
    deep: list[Any] = []
    for _ in range(50_000):
        deep = [deep]
    error = errors.UnsafePayloadError("eip712.message", expected="an object", received=deep)
    assert len(str(error)) < 400
    flood = errors.UnsafePayloadError("auth message", expected="x", received="\n" * 10_000)
    assert "\n" not in str(flood).split("expected")[0]
    assert error.received is deep
