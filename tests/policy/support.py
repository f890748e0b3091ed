"""What the policy tests share: signing calls for every kind the gate describes."""

from __future__ import annotations

from typing import Any

from xswap_sdk.policy import SigningRequest
from xswap_sdk.registry import DEFAULT_REGISTRY
from xswap_sdk.signing import (
    build_burn_intent,
    sign_burn_intent,
    sign_burn_intent_set,
    sign_permit,
)
from xswap_sdk.testing import TEST_SIGNER

BASE = DEFAULT_REGISTRY.chain(8453)
ARBITRUM = DEFAULT_REGISTRY.chain(42161)
ROUTER = "0xd121d94C845642B8B43D6e1Bd99CAaa3b7b43DAe"
SPENDER = "0x1111111254EEB25477B68fb85Ed929f73A960582"
DEADLINE = 2_000_000_000


class Unplugged:
    """A signer with the test signer's address whose device fails every signature."""

    address = TEST_SIGNER.address

    def sign_message(self, message: object) -> object:
        raise RuntimeError("device unplugged")

    def sign_typed_data(self, **kwargs: object) -> object:
        raise RuntimeError("device unplugged")


def intent(source: Any = BASE, value: int = 5_000_000, max_fee: int = 2_010_000) -> Any:
    """A burn intent from ``source`` to Arbitrum's router, signed by the test signer."""
    return build_burn_intent(
        source_domain=source.domain,
        destination_domain=ARBITRUM.domain,
        source_contract=source.gateway_wallet,
        destination_contract=ARBITRUM.gateway_minter,
        source_token=source.usdc,
        destination_token=ARBITRUM.usdc,
        user=TEST_SIGNER.address,
        recipient=ROUTER,
        destination_caller=ROUTER,
        value=value,
        max_fee=max_fee,
        max_block_height=123_456,
    )


def permit(value: int = 5_000_000, spender: str = SPENDER) -> Any:
    """A USDC permit on Base for ``spender``."""
    return sign_permit(
        TEST_SIGNER,
        token_name="USD Coin",
        token_version="2",
        chain_id=8453,
        token_address=BASE.usdc,
        spender=spender,
        value=value,
        nonce=0,
        deadline=DEADLINE,
    )


def one_intent(value: int = 5_000_000) -> Any:
    """Sign one burn intent."""
    return sign_burn_intent(intent(value=value), TEST_SIGNER)


def intent_set(*values: int) -> Any:
    """Sign a set of intents, one per value, alternating Base and Arbitrum as source."""
    sources = [BASE, ARBITRUM]
    return sign_burn_intent_set(
        [intent(sources[i % 2], value) for i, value in enumerate(values)], TEST_SIGNER
    )


class Hook:
    """An approval hook that keeps what it was asked and answers ``answer``."""

    def __init__(self, answer: object = True) -> None:
        self.answer = answer
        self.seen: list[SigningRequest] = []

    def __call__(self, request: SigningRequest) -> bool:
        self.seen.append(request)
        if isinstance(self.answer, BaseException):
            raise self.answer
        return self.answer  # type: ignore[return-value]
