"""prepare_deposit_with_permit without a chain: web3 stays optional, and arguments are
checked before any call to the node. (The deposit itself is proven in tests/evm.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from eth_account.signers.local import LocalAccount

import xswap_sdk
from xswap_sdk.errors import InvalidInputError
from xswap_sdk.signing import (
    DepositTransaction,
    async_prepare_deposit_with_permit,
    prepare_deposit_with_permit,
    sign_permit,
)

WALLET = "0x77777777Dcc4d5A8B6E418Fd04D8997ef11000eE"
USDC = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"


class UntouchableWeb3:
    """Fails the test if the SDK talks to the node."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"web3.{name} was used before the arguments were checked")


def test_importing_signing_does_not_import_web3() -> None:
    source_root = str(Path(xswap_sdk.__file__).resolve().parents[1])
    code = "import sys, xswap_sdk.signing; sys.exit('web3' in sys.modules)"
    env = {**os.environ, "PYTHONPATH": source_root}
    assert subprocess.run([sys.executable, "-c", code], env=env, check=False).returncode == 0


def test_missing_web3_says_how_to_install_it(
    account: LocalAccount, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "web3", None)
    monkeypatch.setitem(sys.modules, "web3.exceptions", None)
    with pytest.raises(ImportError, match=r'pip install "\.\[web3\]" in a checkout'):
        prepare_deposit_with_permit(
            UntouchableWeb3(),
            account,
            gateway_wallet=WALLET,
            usdc=USDC,
            value=1,  # type: ignore[arg-type]
        )


@pytest.mark.parametrize(
    ("argument", "value"),
    [("gateway_wallet", "0x1234"), ("usdc", USDC.lower()[:-1]), ("value", 1.5), ("deadline", -5)],
)
def test_arguments_are_checked_before_any_call(
    account: LocalAccount, argument: str, value: object
) -> None:
    arguments: dict[str, Any] = {"gateway_wallet": WALLET, "usdc": USDC, "value": 1}
    with pytest.raises(InvalidInputError) as caught:
        prepare_deposit_with_permit(UntouchableWeb3(), account, **{**arguments, argument: value})  # type: ignore[arg-type]
    assert caught.value.argument == argument


async def test_async_arguments_are_checked_before_any_call(account: LocalAccount) -> None:
    with pytest.raises(InvalidInputError) as caught:
        await async_prepare_deposit_with_permit(
            UntouchableWeb3(),
            account,
            gateway_wallet=WALLET,
            usdc=USDC,
            value="ten",  # type: ignore[arg-type]
        )
    assert caught.value.argument == "value"


def test_deposit_transaction_repr_hides_the_calldata(account: LocalAccount) -> None:
    permit = sign_permit(
        account,
        token_name="USD Coin",
        token_version="2",
        chain_id=1,
        token_address=USDC,
        spender=WALLET,
        value=1,
        nonce=0,
    )
    data = "0x8ef59739" + permit.signature[2:]
    tx = DepositTransaction(to=WALLET, data=data, chain_id=1, permit=permit)
    assert permit.signature[2:] not in repr(tx)
    assert tx.to_transaction() == {"to": WALLET, "data": data, "value": 0, "chainId": 1}
