"""Shared by the signing tests: the known-answer vectors, a reference digest computed by
eth_account alone, and hypothesis strategies for burn intents."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from eth_account.messages import encode_typed_data
from eth_hash.auto import keccak
from hypothesis import strategies as st

from xswap_sdk.chains import SOLANA
from xswap_sdk.gateway import build_transfer_intent
from xswap_sdk.signing import BurnIntent, build_burn_intent
from xswap_sdk.testing import TEST_SIGNER

# Vendored from viem/ethers known answers; see tests/data/README.md for the origin.
VECTORS_FILE = Path(__file__).resolve().parents[1] / "data" / "signing-vectors.json"

MAX_UINT32 = 2**32 - 1
MAX_UINT256 = 2**256 - 1

SOLANA_OWNER = "6zhh6WScJQKh5Q5Pwf24Hn7zAMBN5SWXQwga5DgcfWqN"  # the vectors' recipient wallet


def base_to_solana(value: int, **overrides: Any) -> BurnIntent:
    """A transfer intent of ``value`` from the test signer on Base to the Solana wallet
    ``SOLANA_OWNER``."""
    return build_transfer_intent(
        source_chain_id=8453,
        destination_chain_id=SOLANA,
        depositor=TEST_SIGNER.address,
        recipient=SOLANA_OWNER,
        value=value,
        **overrides,
    )


def vectors() -> dict[str, Any]:
    """The known answers computed by viem and ethers (a fresh copy: tests may edit it)."""
    loaded: dict[str, Any] = json.loads(VECTORS_FILE.read_text())
    return loaded


def vector_case(kind: str) -> dict[str, Any]:
    """The first vector case of a kind (``burnIntent``, ``permit``, ...)."""
    return next(case for case in vectors()["cases"] if case["input"]["kind"] == kind)


def single_intent_wire() -> dict[str, Any]:
    """The wire form of the single burn intent vector."""
    given = vector_case("burnIntent")["input"]
    return {key: given[key] for key in ("maxBlockHeight", "maxFee", "spec")}


def eth_account_digest(typed_data: dict[str, Any]) -> str:
    """The EIP-712 digest through eth_account's generic encoder only (the reference)."""
    signable = encode_typed_data(full_message=typed_data)
    return "0x" + keccak(b"\x19" + signable.version + signable.header + signable.body).hex()


def _hex(size: int) -> st.SearchStrategy[str]:
    return st.binary(min_size=size, max_size=size).map(lambda raw: "0x" + raw.hex())


uint32 = st.integers(min_value=0, max_value=MAX_UINT32)
uint256 = st.one_of(
    st.integers(min_value=0, max_value=MAX_UINT256),
    st.sampled_from([0, 1, 2_010_000, MAX_UINT256]),
)
bytes32 = _hex(32)
address_word = _hex(20).map(lambda address: "0x" + "0" * 24 + address[2:])


SOLANA_DOMAIN = 5


def _spec(
    signer_word: st.SearchStrategy[str], *, signable: bool = False
) -> st.SearchStrategy[dict[str, Any]]:
    # A signable intent is one Circle Gateway accepts: version 1 and a positive value.
    version = st.just(1) if signable else uint32
    value = uint256.filter(bool) if signable else uint256
    # An EVM key signs no intent from or to Solana (domain 5) without its own checks
    # (tests/signing/test_solana_signing.py has those).
    domain = uint32.filter(lambda d: d != SOLANA_DOMAIN) if signable else uint32
    return st.fixed_dictionaries(
        {
            "version": version,
            "sourceDomain": domain,
            "destinationDomain": domain,
            "sourceContract": st.one_of(address_word, bytes32),
            "destinationContract": address_word,
            "sourceToken": address_word,
            "destinationToken": address_word,
            "sourceDepositor": address_word,
            "destinationRecipient": st.one_of(address_word, bytes32),
            "sourceSigner": signer_word,
            "destinationCaller": address_word,
            "value": value.map(str),
            "salt": bytes32,
            "hookData": st.binary(max_size=300).map(lambda raw: "0x" + raw.hex()),
        }
    )


def intent_wires(
    signer_word: st.SearchStrategy[str] = address_word, *, signable: bool = False
) -> st.SearchStrategy[Any]:
    """Wire-form burn intents; uint256 fields as decimal strings or ints, as services send.

    With ``signable``, only intents the SDK will sign: version 1 and a positive value.
    """
    amount = st.one_of(uint256.map(str), uint256)
    return st.fixed_dictionaries(
        {
            "maxBlockHeight": amount,
            "maxFee": amount,
            "spec": _spec(signer_word, signable=signable),
        }
    )


# A Gateway transfer from Ethereum to Base, paid to a router: the burn intent tests'.
USER = "0x5a3Ca05337A87116A27A21b11cDE16D85efb3586"
ROUTER = "0x1111111254EEB25477B68fb85Ed929f73A960582"
WALLET = "0x77777777Dcc4d5A8B6E418Fd04D8997ef11000eE"
MINTER = "0x2222222d7164433c4C09B0b0D809a9b52C04C205"
USDC_ETHEREUM = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"
USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"


def build_intent(**overrides: Any) -> BurnIntent:
    """A burn intent of 1 USDC from ``USER`` on Ethereum to ``ROUTER`` on Base, with
    ``overrides`` (`build_burn_intent`'s arguments)."""
    arguments: dict[str, Any] = {
        "source_domain": 0,
        "destination_domain": 6,
        "source_contract": WALLET,
        "destination_contract": MINTER,
        "source_token": USDC_ETHEREUM,
        "destination_token": USDC_BASE,
        "user": USER,
        "recipient": ROUTER,
        "value": 1_000_000,
    }
    return build_burn_intent(**{**arguments, **overrides})
