"""Testing code that uses `xswap_sdk`, with no account, key or network.

- A pytest plugin (``xswap_sdk.testing.plugin``, loaded automatically once the package
  is installed) with fixtures for a `xswap_sdk.sandbox.Sandbox` and its clients::

      def test_relay(xswap_relayer):
          tx_id = xswap_relayer.relay(chain_id=8453, to=USDC_ON_BASE, call_data="0x")
          assert xswap_relayer.wait_for_execution_hash(tx_id).execution_tx_hash

- `TEST_SIGNER`: a fixed signer from a well-known public test key. Never send real
  funds to its address: anyone can sign for it.
- `TEST_SOLANA_SIGNER`: the same for Solana, a `SeedSigner` (a
  `xswap_sdk.signing.SolanaSigner` from a 32-byte seed, Ed25519 by pycryptodome: no
  ``solana`` extra needed) from a published seed.
- `VirtualClock`: time that moves only when slept on, shared with the sandbox.

Importing this package is cheap: it imports nothing of the SDK. `VirtualClock` is
imported and `TEST_SIGNER` (which needs ``eth_account``) is built on first use, so the
pytest plugin, which pytest loads at every start, costs nothing until a fixture is used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from eth_account.signers.local import LocalAccount

    from .._clock import VirtualClock
    from ._solana import SeedSigner

    TEST_SIGNER: LocalAccount
    TEST_SOLANA_SIGNER: SeedSigner

__all__ = [
    "SeedSigner",
    "TEST_ADDRESS",
    "TEST_PRIVATE_KEY",
    "TEST_SIGNER",
    "TEST_SOLANA_ADDRESS",
    "TEST_SOLANA_SEED",
    "TEST_SOLANA_SIGNER",
    "VirtualClock",
]

TEST_PRIVATE_KEY: Final = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01789f8bd37"
"""A private key published in web3 documentation: for tests only, never for funds."""

TEST_ADDRESS: Final = "0x5a3Ca05337A87116A27A21b11cDE16D85efb3586"
"""The address of `TEST_PRIVATE_KEY`."""

TEST_SOLANA_SEED: Final = "0x22728d4cfb13a2674ebda0c3582feaa49d614db27b67782f2ce45ae21183b340"
"""A published Ed25519 seed, sha256 of ``xswap-sdk/solana-gateway/depositor`` (the
Solana Gateway vectors' depositor): for tests only, never for funds."""

TEST_SOLANA_ADDRESS: Final = "9Q4cA7kuQ368d5npNTDBFQLKBhzvtSzA5TcXUHnhY2ya"
"""The Solana public key (base58) of `TEST_SOLANA_SEED`."""


def __getattr__(name: str) -> Any:
    # TEST_SIGNER: an eth_account LocalAccount for TEST_PRIVATE_KEY, made on first use
    # because eth_account takes a noticeable time to import.
    if name == "TEST_SIGNER":
        from eth_account import Account

        signer = Account.from_key(TEST_PRIVATE_KEY)
        globals()["TEST_SIGNER"] = signer
        return signer
    if name == "SeedSigner":
        # lazy: PEP 562: a name of this package, loaded when first asked for
        from ._solana import SeedSigner

        globals()["SeedSigner"] = SeedSigner
        return SeedSigner
    if name == "TEST_SOLANA_SIGNER":
        # lazy: PEP 562: a name of this package, loaded when first asked for
        from ._solana import SeedSigner

        solana = SeedSigner(bytes.fromhex(TEST_SOLANA_SEED[2:]))
        globals()["TEST_SOLANA_SIGNER"] = solana
        return solana
    if name == "VirtualClock":
        # lazy: PEP 562: a name of this package, loaded when first asked for
        from .._clock import VirtualClock

        globals()["VirtualClock"] = VirtualClock
        return VirtualClock
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
