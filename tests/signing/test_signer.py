"""The Signer protocol, signature normalisation and checks, and personal_sign."""

from __future__ import annotations

import gc
import logging
import weakref
from typing import Any

import pytest
from eth_account import Account
from eth_account.messages import SignableMessage, encode_defunct
from eth_account.signers.local import LocalAccount
from eth_typing import Hash32

from xswap_sdk.errors import InvalidInputError, SigningError
from xswap_sdk.signing import (
    Signer,
    build_burn_intent,
    personal_sign,
    recover_personal_sign,
    sign_burn_intent,
    sign_typed_data,
)
from xswap_sdk.signing.signer import _keys, recover_digest, sign_digest, signature_bytes

from .support import single_intent_wire

DIGEST = bytes(range(32))


class RemoteSigner:
    """A signer that is not a LocalAccount, like a KMS or hardware wallet client.

    ``form`` picks what it returns: eth_account's object, raw bytes with v 0/1, or hex.
    """

    def __init__(self, key: str, form: str = "object", address: str | None = None) -> None:
        self._account = Account.from_key(key)
        self._form = form
        self.address = address or self._account.address
        self.calls: list[str] = []

    def _out(self, signed: Any) -> object:
        if self._form == "bytes-v01":
            raw = bytes(signed.signature)
            return raw[:64] + bytes((raw[64] - 27,))
        if self._form == "hex":
            return "0x" + bytes(signed.signature).hex()
        if self._form == "short":
            return b"\x01" * 64
        return signed

    def unsafe_sign_hash(self, message_hash: Hash32) -> object:
        self.calls.append("unsafe_sign_hash")
        return self._out(self._account.unsafe_sign_hash(message_hash))

    def sign_message(self, signable_message: SignableMessage) -> object:
        self.calls.append("sign_message")
        return self._out(self._account.sign_message(signable_message))

    def sign_typed_data(
        self, *parts: Any, full_message: dict[str, Any] | None = None, **other: Any
    ) -> object:
        self.calls.append("sign_typed_data")
        return self._account.sign_typed_data(full_message=full_message)


class FailingSigner(RemoteSigner):
    def unsafe_sign_hash(self, message_hash: Hash32) -> object:
        raise TimeoutError("device did not answer")


def test_local_account_is_a_signer(account: LocalAccount) -> None:
    assert isinstance(account, Signer)
    assert isinstance(RemoteSigner(account.key.hex()), Signer)
    assert not isinstance(object(), Signer)


def test_fast_path_equals_eth_account(account: LocalAccount) -> None:
    expected = account.unsafe_sign_hash(Hash32(DIGEST)).signature
    assert sign_digest(account, DIGEST) == bytes(expected)


@pytest.mark.parametrize("form", ["object", "bytes-v01", "hex"])
def test_remote_signers_are_normalised(account: LocalAccount, form: str) -> None:
    remote = RemoteSigner(account.key.hex(), form)
    signature = sign_digest(remote, DIGEST)
    assert signature == sign_digest(account, DIGEST)
    assert signature[64] in (27, 28)
    assert remote.calls == ["unsafe_sign_hash"]


def test_a_signer_that_signs_for_someone_else_is_caught(account: LocalAccount) -> None:
    impostor = RemoteSigner(Account.create().key.hex(), address=account.address)
    with pytest.raises(SigningError) as caught:
        sign_burn_intent(single_intent_wire(), impostor)
    assert "does not recover" in str(caught.value)


def test_a_malformed_signature_from_a_signer_is_a_signing_error(account: LocalAccount) -> None:
    with pytest.raises(SigningError, match="65-byte"):
        sign_digest(RemoteSigner(account.key.hex(), "short"), DIGEST)


def test_a_failing_signer_is_a_signing_error(account: LocalAccount) -> None:
    with pytest.raises(SigningError, match="TimeoutError") as caught:
        sign_digest(FailingSigner(account.key.hex()), DIGEST)
    assert isinstance(caught.value.__cause__, TimeoutError)


@pytest.mark.parametrize("not_a_signer", [object(), "0x" + "11" * 32, None])
def test_not_a_signer_is_invalid_input(not_a_signer: Any) -> None:
    with pytest.raises(InvalidInputError) as caught:
        sign_digest(not_a_signer, DIGEST)
    assert caught.value.argument == "signer"


def test_a_signer_with_a_bad_address_is_invalid_input(account: LocalAccount) -> None:
    remote = RemoteSigner(account.key.hex(), address="not an address")
    with pytest.raises(InvalidInputError) as caught:
        sign_digest(remote, DIGEST)
    assert caught.value.argument == "signer.address"


def test_signature_bytes_normalises_v() -> None:
    body = b"\x11" * 64
    assert signature_bytes(body + b"\x00")[64] == 27
    assert signature_bytes(body + b"\x01")[64] == 28
    assert signature_bytes("0x" + (body + b"\x1c").hex())[64] == 28
    assert signature_bytes((body + b"\x1b").hex())[64] == 27


@pytest.mark.parametrize(
    "bad", [b"\x11" * 64, b"\x11" * 64 + b"\x1d", "0x" + "zz" * 65, "0x" + "11" * 66, 5]
)
def test_signature_bytes_refuses_malformed_signatures(bad: object) -> None:
    with pytest.raises(InvalidInputError) as caught:
        signature_bytes(bad)
    assert caught.value.argument == "signature"
    assert "11" * 8 not in str(caught.value)


def test_recover_refuses_an_impossible_signature() -> None:
    with pytest.raises(SigningError):
        recover_digest(DIGEST, bytes(64) + b"\x1b")


def test_personal_sign_signs_text_even_if_it_looks_like_hex(account: LocalAccount) -> None:
    message = "0xdeadbeef"
    signature = personal_sign(account, message)
    as_text = account.sign_message(encode_defunct(text=message)).signature
    as_bytes = account.sign_message(encode_defunct(hexstr=message)).signature
    assert signature == "0x" + bytes(as_text).hex()
    assert signature != "0x" + bytes(as_bytes).hex()
    assert recover_personal_sign(message, signature) == account.address


def test_personal_sign_handles_unicode(account: LocalAccount) -> None:
    message = "Connexion à l'échange ✓\nNonce: 1"
    signature = personal_sign(account, message)
    expected = account.sign_message(encode_defunct(text=message)).signature
    assert signature == "0x" + bytes(expected).hex()


def test_personal_sign_asks_remote_signers_to_sign_a_message(account: LocalAccount) -> None:
    remote = RemoteSigner(account.key.hex(), "bytes-v01")
    assert personal_sign(remote, "hello") == personal_sign(account, "hello")
    assert remote.calls == ["sign_message"]


def test_recover_personal_sign_accepts_v_zero_or_one(account: LocalAccount) -> None:
    signature = bytes.fromhex(personal_sign(account, "hi")[2:])
    low_v = "0x" + (signature[:64] + bytes((signature[64] - 27,))).hex()
    assert recover_personal_sign("hi", low_v) == account.address


@pytest.mark.parametrize("message", [b"bytes", 7, None])
def test_personal_sign_needs_text(account: LocalAccount, message: Any) -> None:
    with pytest.raises(InvalidInputError) as caught:
        personal_sign(account, message)
    assert caught.value.argument == "message"


def test_cached_keys_do_not_outlive_their_account() -> None:
    account = Account.create()
    sign_digest(account, DIGEST)
    assert account in _keys
    alive = weakref.ref(account)
    del account
    gc.collect()
    assert alive() is None


def test_no_key_or_signature_reaches_logs_reprs_or_errors(
    account: LocalAccount, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    key = account.key.hex()
    intent = build_burn_intent(
        source_domain=0,
        destination_domain=6,
        source_contract=account.address,
        destination_contract=account.address,
        source_token=account.address,
        destination_token=account.address,
        user=account.address,
        recipient=account.address,
        value=1,
    )
    signed = sign_burn_intent(intent, account)
    typed = sign_typed_data(account, {**_permit2_like(), "message": {"a": "1"}})
    texts = [repr(signed), str(signed), caplog.text]
    with pytest.raises(InvalidInputError) as caught:
        recover_personal_sign("x", signed.signature[:-2])
    texts.append(str(caught.value))
    for text in texts:
        assert key not in text
        assert signed.signature[2:] not in text
        assert typed[2:] not in text


def _permit2_like() -> dict[str, Any]:
    return {
        "types": {"Thing": [{"name": "a", "type": "uint256"}]},
        "domain": {"name": "X", "chainId": "1"},
        "primaryType": "Thing",
    }
