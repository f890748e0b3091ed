"""Testing code that uses `xswap_sdk`, with no account, key or network.

- A pytest plugin (``xswap_sdk.testing.plugin``, loaded automatically once the package
  is installed) with fixtures for a `xswap_sdk.sandbox.Sandbox` and its clients::

      def test_relay(xswap_relayer):
          tx_id = xswap_relayer.relay(chain_id=8453, to=USDC_ON_BASE, call_data="0x")
          assert xswap_relayer.wait_for_execution_hash(tx_id).execution_tx_hash

- `TEST_SIGNER`: a fixed signer from a well-known public test key. Never send real
  funds to its address: anyone can sign for it.
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

    TEST_SIGNER: LocalAccount

__all__ = ["TEST_ADDRESS", "TEST_PRIVATE_KEY", "TEST_SIGNER", "VirtualClock"]

TEST_PRIVATE_KEY: Final = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01789f8bd37"
"""A private key published in web3 documentation: for tests only, never for funds."""

TEST_ADDRESS: Final = "0x5a3Ca05337A87116A27A21b11cDE16D85efb3586"
"""The address of `TEST_PRIVATE_KEY`."""


def __getattr__(name: str) -> Any:
    # TEST_SIGNER: an eth_account LocalAccount for TEST_PRIVATE_KEY, made on first use
    # because eth_account takes a noticeable time to import.
    if name == "TEST_SIGNER":
        from eth_account import Account

        signer = Account.from_key(TEST_PRIVATE_KEY)
        globals()["TEST_SIGNER"] = signer
        return signer
    if name == "VirtualClock":
        from .._clock import VirtualClock

        globals()["VirtualClock"] = VirtualClock
        return VirtualClock
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
