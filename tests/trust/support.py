"""Shared by the trust tests: signers that are not local keys, and a check that the
caller's key signed nothing over a payload."""

from __future__ import annotations

import copy
from typing import Any

from eth_account import Account
from eth_account.messages import SignableMessage, encode_typed_data
from eth_account.signers.local import LocalAccount

# Tokens the trust tests swap, and an address no honest party uses.
ATTACKER = "0x" + "66" * 20
USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
USDC_ARBITRUM = "0xaf88d065e77c8cC2239327C5EDb3A432268e5831"
WETH_ARBITRUM = "0x82aF49447D8a07e3bd95BD0d56f35241523fBab1"
WETH_BASE = "0x4200000000000000000000000000000000000006"

GASLESS: dict[str, Any] = {  # a gasless Base USDC -> Arbitrum WETH swap
    "from_chain": 8453,
    "to_chain": 42161,
    "from_token": USDC_BASE,
    "to_token": WETH_ARBITRUM,
    "amount": 250_000_000,
}
SWAP: dict[str, Any] = {  # a 40 USDC swap to WETH on Arbitrum (flash)
    "input_amount": 40_000_000,
    "output_token": WETH_ARBITRUM,
    "chain_id": 42161,
    "slippage": "0.5",
}

# The shared vectors' public test key: never use it for funds.
TEST_KEY = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01789f8bd37"
TEST_ADDRESS = "0x5a3Ca05337A87116A27A21b11cDE16D85efb3586"


class RecordingSigner:
    """A signer that is not a LocalAccount (a hardware wallet, a KMS): it records every
    request, signs typed data and messages with its key, and refuses raw digests, as a
    device that will not sign blind."""

    def __init__(self, key: str = TEST_KEY) -> None:
        self._account: LocalAccount = Account.from_key(key)
        self.address = self._account.address
        self.typed: list[dict[str, Any]] = []
        self.messages: list[SignableMessage] = []
        self.digests: list[bytes] = []

    def unsafe_sign_hash(self, message_hash: Any) -> object:
        self.digests.append(bytes(message_hash))
        raise AssertionError("a remote signer was handed a bare digest")

    def sign_message(self, signable_message: SignableMessage) -> object:
        self.messages.append(signable_message)
        return self._account.sign_message(signable_message)

    def sign_typed_data(
        self, *parts: Any, full_message: dict[str, Any] | None = None, **other: Any
    ) -> object:
        # eth_account's domain_data, message_types and message_data: never used.
        assert not parts
        assert not other
        assert full_message is not None
        self.typed.append(copy.deepcopy(full_message))
        return self._account.sign_typed_data(full_message=full_message)


class TamperingSigner(RecordingSigner):
    """Shows the caller one thing and signs another: it changes the message's first
    numeric leaf (by one) before signing, so its signature is over different data."""

    def sign_typed_data(
        self, *parts: Any, full_message: dict[str, Any] | None = None, **other: Any
    ) -> object:
        assert full_message is not None
        self.typed.append(copy.deepcopy(full_message))
        changed = copy.deepcopy(full_message)
        _bump(changed["message"])
        return self._account.sign_typed_data(full_message=changed)

    def sign_message(self, signable_message: SignableMessage) -> object:
        self.messages.append(signable_message)
        return self._account.sign_message(
            SignableMessage(
                signable_message.version,
                signable_message.header,
                signable_message.body + b" (and more)",
            )
        )


class OtherKeySigner(RecordingSigner):
    """Claims the test address but signs with another key."""

    def __init__(self) -> None:
        super().__init__(Account.create().key.hex())
        self.address = TEST_ADDRESS


def _bump(value: Any) -> bool:
    if isinstance(value, dict):
        return any(_bump_item(value, key) for key in sorted(value))
    if isinstance(value, list):
        return any(_bump_item(value, index) for index in range(len(value)))
    return False


def _bump_item(container: Any, key: Any) -> bool:
    item = container[key]
    if isinstance(item, int | str) and str(item).isdigit():
        container[key] = str(int(item) - 1 if int(item) else 1)
        return True
    return _bump(item)


def eip712_digest_of(typed_data: dict[str, Any]) -> bytes:
    """The digest eth_account computes for a full payload (the reference)."""
    from eth_hash.auto import keccak

    signable = encode_typed_data(full_message=copy.deepcopy(typed_data))
    return bytes(keccak(b"\x19" + signable.version + signable.header + signable.body))


async def run_flow(client: Any, flow: Any, signer: Any = None) -> Any:
    """Run a flow through a client's own sending machinery, as its methods do (login
    first, for a flow run for a signer). For flows whose client argument does not exist
    yet; works with the per-client ``_run`` and with a transport that has ``run``."""
    from ..support import resolve

    transport = getattr(client, "_transport", None)
    if transport is not None and hasattr(transport, "run"):
        if signer is not None and hasattr(client, "_transport_for"):
            transport = client._transport_for(signer)
            await resolve(transport.ensure_login({}))
        return await resolve(transport.run(flow, {}))
    if signer is not None:
        return await resolve(client._run(flow, {}, signer))
    return await resolve(client._run(flow, {}))
