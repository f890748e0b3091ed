"""``xswap recover TRANSFER_ID --recipient ADDR``: the sandbox served on 127.0.0.1 as
Gateway, anvil (Circle's real GatewayMinter) as the destination chain, the key from
``XSWAP_PRIVATE_KEY``: minted once, then found minted already; a transfer to someone
else, no key, or no node for its chain, refused with a usage error and nothing sent."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from xswap_sdk._cli import ExitCode, main
from xswap_sdk._clock import VirtualClock
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.testing import TEST_SIGNER

from ..sandbox.test_server import serving
from .conftest import USDC, Anvil, stuck_transfer
from .test_simulation import RECIPIENT

pytestmark = pytest.mark.anvil

TO = RECIPIENT.lower()
VALUE = 3_000_000
KEY = "0x" + bytes(TEST_SIGNER.key).hex()


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> Iterator[Sandbox]:
    for name in ("XSWAP_RPC_URLS", "XSWAP_JOURNAL", "XSWAP_PRIVATE_KEY"):
        monkeypatch.delenv(name, raising=False)
    with serving(VirtualClock()) as sandbox:
        monkeypatch.setenv("XSWAP_GATEWAY_URL", f"{sandbox.base_url}/gateway")
        yield sandbox


@pytest.fixture
def transfer_id(served: Sandbox, anvil: Anvil) -> str:
    return stuck_transfer(anvil, served, recipient=TO, value=VALUE, funded=10_000_000)


def recover(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    code = main(["recover", *argv, "--json"])
    document = json.loads(capsys.readouterr().out)
    return code, document.get("error", document)


def test_recover_mints_once_then_says_minted_already(
    transfer_id: str,
    anvil: Anvil,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("XSWAP_PRIVATE_KEY", KEY)
    code, out = recover(capsys, transfer_id, "--recipient", TO, "--rpc-url", anvil.url)
    assert code == ExitCode.OK
    assert (out["minted_already"], out["value"], out["chain_id"]) == (False, VALUE, 8453)
    assert anvil.uint(USDC, "balanceOf(address)", RECIPIENT) == VALUE
    code = main(["recover", transfer_id, "--recipient", TO, "--rpc-url", anvil.url])
    assert code == ExitCode.OK
    assert "minted already (3.00 USDC to" in capsys.readouterr().out
    assert anvil.uint(USDC, "balanceOf(address)", RECIPIENT) == VALUE


def test_recover_refuses_what_it_cannot_do(
    transfer_id: str,
    anvil: Anvil,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    code, out = recover(capsys, transfer_id, "--recipient", TO, "--rpc-url", anvil.url)
    assert (code, out["type"]) == (ExitCode.USAGE, "InvalidInputError")
    assert "XSWAP_PRIVATE_KEY" in out["message"]
    monkeypatch.setenv("XSWAP_PRIVATE_KEY", KEY)
    code, out = recover(capsys, transfer_id, "--recipient", TO)
    assert (code, out["type"]) == (ExitCode.USAGE, "InvalidInputError")
    assert "no node given serves the transfer's destination, chain 8453" in out["message"]
    other = TEST_SIGNER.address
    code, out = recover(capsys, transfer_id, "--recipient", other, "--rpc-url", anvil.url)
    assert out["type"] == "UnsafePayloadError"
    assert code == ExitCode.SERVICE
    assert "destinationRecipient" in out["message"]
    assert anvil.uint(USDC, "balanceOf(address)", RECIPIENT) == 0
