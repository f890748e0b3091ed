"""Shared by the Gateway tests: answers as Circle's reference shows them."""

from __future__ import annotations

from typing import Any

from xswap_sdk.gateway import build_transfer_intent
from xswap_sdk.testing import TEST_SIGNER

TRANSFER_ID = "3c90c3cc-0d44-4b50-8888-8dd25736052a"

# Circle's TransferSpec, field by field in its order (wire names).
SPEC_FIELDS = [
    "version",
    "sourceDomain",
    "destinationDomain",
    "sourceContract",
    "destinationContract",
    "sourceToken",
    "destinationToken",
    "sourceDepositor",
    "destinationRecipient",
    "sourceSigner",
    "destinationCaller",
    "value",
    "salt",
    "hookData",
]


def domain_info(domain: int = 6, chain: str = "Base") -> dict[str, Any]:
    """One ``/v1/info`` domain entry."""
    return {
        "chain": chain,
        "network": "Mainnet",
        "domain": domain,
        "processedHeight": "8666762",
        "burnIntentExpirationHeight": "8666792",
        "walletContract": {
            "address": "0x77777777Dcc4d5A8B6E418Fd04D8997ef11000eE",
            "supportedTokens": ["USDC"],
        },
        "minterContract": {
            "address": "0x2222222d7164433c4C09B0b0D809a9b52C04C205",
            "supportedTokens": ["USDC"],
        },
    }


def fees() -> dict[str, Any]:
    """A ``fees`` object."""
    return {
        "total": "1.178",
        "token": "USDC",
        "perIntent": [
            {
                "transferSpecHash": "0x" + "12" * 32,
                "domain": 0,
                "baseFee": "2",
                "transferFee": "0.125",
            }
        ],
        "forwardingFee": "0.210000",
    }


def transfer_answer() -> dict[str, Any]:
    """What ``POST /v1/transfer`` returns."""
    return {
        "transferId": TRANSFER_ID,
        "attestation": "0x" + "aa" * 40,
        "signature": "0x" + "bb" * 65,
        "fees": fees(),
        "expirationBlock": "123456",
    }


def transfer_record(status: str, **fields: Any) -> dict[str, Any]:
    """What ``GET /v1/transfer/{id}`` returns."""
    record: dict[str, Any] = {
        "destinationDomain": 3,
        "status": status,
        "burnIntents": [
            {"transferSpecHash": "0x" + "12" * 32, "maxBlockHeight": "99", "maxFee": "2010000"}
        ],
        "forwardingDetails": {"forwardingEnabled": False},
        "fees": fees(),
        "attestation": {
            "payload": "0x" + "aa" * 40,
            "signature": "0x" + "bb" * 65,
            "expirationBlock": "123456",
        },
    }
    record.update(fields)
    return record


def transfer_intent(value: int = 5_000_000, **overrides: Any) -> Any:
    """A direct transfer's intent of ``value`` from the test signer on Base to itself on
    Arbitrum (`build_transfer_intent`'s arguments in ``overrides``)."""
    arguments: dict[str, Any] = {
        "source_chain_id": 8453,
        "destination_chain_id": 42161,
        "depositor": TEST_SIGNER.address,
        "recipient": TEST_SIGNER.address,
        "value": value,
        **overrides,
    }
    return build_transfer_intent(**arguments)
