"""Every known-answer case in the shared vectors (computed by viem and ethers) matches
byte for byte, through the fast path and through eth_account's generic one."""

from __future__ import annotations

from typing import Any

import pytest
from eth_account import Account

from xswap_sdk.signing import (
    BurnIntent,
    burn_intent_set_typed_data,
    burn_intent_typed_data,
    burn_intents,
    deposit_with_permit_calldata,
    permit,
    permit_typed_data,
    personal_sign,
    recover_burn_intent_set_signer,
    recover_burn_intent_signer,
    recover_personal_sign,
    recover_typed_data,
    sign_burn_intent,
    sign_burn_intent_set,
    sign_permit,
    sign_typed_data,
    typed_data_digest,
)
from xswap_sdk.signing.signer import _prefixed_message, personal_sign_digest

from .support import eth_account_digest, vectors

CASES = vectors()["cases"]
KINDS = {"burnIntent", "burnIntentSet", "permit", "depositWithPermitCalldata", "personalSign"}


def test_every_case_is_of_a_known_kind() -> None:
    # A case of a new kind would otherwise be silently left untested.
    assert {case["input"]["kind"] for case in CASES} <= KINDS
    assert len(CASES) >= len(KINDS)


def check_signature_parts(signature: str, expected: dict[str, Any]) -> None:
    assert signature == expected["signature"]
    raw = bytes.fromhex(signature[2:])
    assert raw[64] == expected["v"]
    assert raw[64] - 27 == expected["yParity"]
    assert "0x" + raw[:32].hex() == expected["r"]
    assert "0x" + raw[32:64].hex() == expected["s"]


def check_burn_intent(given: dict[str, Any], expected: dict[str, Any]) -> None:
    wire = {key: given[key] for key in ("maxBlockHeight", "maxFee", "spec")}
    account = Account.from_key(given["privateKey"])
    signed = sign_burn_intent(wire, account)
    assert signed.digest == expected["digest"]
    check_signature_parts(signed.signature, expected)
    assert signed.intent.to_wire() == wire
    assert recover_burn_intent_signer(wire, signed.signature) == expected["signer"]

    intent = BurnIntent.model_validate(wire)
    assert expected["encodedType"] == burn_intents._BURN_INTENT_TYPE
    assert "0x" + burn_intents._BURN_INTENT_TYPEHASH.hex() == expected["typeHash"]
    assert "0x" + burn_intents._GATEWAY_DOMAIN_SEPARATOR.hex() == expected["domainSeparator"]
    assert "0x" + burn_intents._intent_hash(intent).hex() == expected["structHash"]

    typed = burn_intent_typed_data(wire)
    assert eth_account_digest(typed) == expected["digest"]
    assert sign_typed_data(account, typed) == expected["signature"]
    assert (
        Account.sign_typed_data(given["privateKey"], full_message=typed).signature.hex()
        == (expected["signature"][2:])
    )


def check_burn_intent_set(given: dict[str, Any], expected: dict[str, Any]) -> None:
    account = Account.from_key(given["privateKey"])
    signed = sign_burn_intent_set(given["intents"], account)
    assert signed.digest == expected["digest"]
    check_signature_parts(signed.signature, expected)
    assert signed.intents_wire() == given["intents"]
    assert recover_burn_intent_set_signer(given["intents"], signed.signature) == expected["signer"]

    intents = [BurnIntent.model_validate(item) for item in given["intents"]]
    assert expected["encodedType"] == burn_intents._BURN_INTENT_SET_TYPE
    assert "0x" + burn_intents._BURN_INTENT_SET_TYPEHASH.hex() == expected["typeHash"]
    assert "0x" + burn_intents._GATEWAY_DOMAIN_SEPARATOR.hex() == expected["domainSeparator"]
    assert "0x" + burn_intents._set_hash(intents).hex() == expected["structHash"]

    typed = burn_intent_set_typed_data(given["intents"])
    assert eth_account_digest(typed) == expected["digest"]
    assert recover_typed_data(typed, expected["signature"]) == expected["signer"]


def check_permit(given: dict[str, Any], expected: dict[str, Any]) -> None:
    domain = given["domain"]
    arguments = {
        "token_name": domain["name"],
        "token_version": domain["version"],
        "chain_id": domain["chainId"],
        "token_address": domain["verifyingContract"],
        "spender": given["spender"],
        "value": given["value"],
        "nonce": given["nonce"],
        "deadline": given["deadline"],
    }
    account = Account.from_key(given["privateKey"])
    signed = sign_permit(account, **arguments)
    assert signed.digest == expected["digest"]
    check_signature_parts(signed.signature, expected)
    assert (signed.v, signed.r, signed.s) == (expected["v"], expected["r"], expected["s"])
    assert signed.owner == expected["owner"] == given["owner"]

    assert expected["encodedType"] == permit._PERMIT_TYPE
    assert "0x" + permit._PERMIT_TYPEHASH.hex() == expected["typeHash"]
    args = permit._PermitArguments(owner=given["owner"], **arguments)
    assert "0x" + permit._permit_hash(args).hex() == expected["structHash"]
    domain_separator = permit._permit_domain(
        domain["name"], domain["version"], domain["chainId"], domain["verifyingContract"]
    )
    assert "0x" + domain_separator.hex() == expected["domainSeparator"]

    typed = permit_typed_data(owner=given["owner"], **arguments)
    assert eth_account_digest(typed) == expected["digest"]
    assert typed_data_digest(typed) == expected["digest"]
    assert recover_typed_data(typed, expected["signature"]) == expected["signer"]


def check_calldata(given: dict[str, Any], expected: dict[str, Any]) -> None:
    arguments = {key: given[key] for key in ("token", "owner", "value", "deadline", "v", "r", "s")}
    calldata = deposit_with_permit_calldata(**arguments)
    assert calldata == expected["calldata"]
    assert calldata.startswith(expected["selector"])


def check_personal_sign(given: dict[str, Any], expected: dict[str, Any]) -> None:
    account = Account.from_key(given["privateKey"])
    signature = personal_sign(account, given["message"])
    check_signature_parts(signature, expected)
    assert "0x" + personal_sign_digest(given["message"]).hex() == expected["hash"]
    assert recover_personal_sign(given["message"], signature) == expected["signer"]
    assert "0x" + _prefixed_message(given["message"]).hex() == expected["prefixedMessage"]


CHECKS = {
    "burnIntent": check_burn_intent,
    "burnIntentSet": check_burn_intent_set,
    "permit": check_permit,
    "depositWithPermitCalldata": check_calldata,
    "personalSign": check_personal_sign,
}


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_vector(case: dict[str, Any]) -> None:
    CHECKS[case["input"]["kind"]](case["input"], case["expected"])


def test_vectors_share_one_signer() -> None:
    data = vectors()
    assert Account.from_key(data["privateKey"]).address == data["signer"]
