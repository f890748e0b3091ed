"""A Gateway transfer minted by its journey on Circle's real GatewayMinter (anvil, at
Base's address): `GatewayClient.send_transfer` with web3 gets the sandbox's
attestation (its attester added to the minter, as Circle's is on the live chains),
simulates the mint, sends it and writes ``minted``; a journey stopped after the
attestation, or after the mint left, is resumed to exactly one mint."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from xswap_sdk import errors
from xswap_sdk.gateway import build_transfer_intent
from xswap_sdk.journal import SQLiteJournal
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.sandbox._attestation import ATTESTER as SANDBOX_ATTESTER
from xswap_sdk.testing import TEST_SIGNER

from ..support import Crash, crash_at, resolve
from .conftest import MINTER, USDC, Anvil, calldata
from .test_simulation import RECIPIENT, Connect, _balance, _nonce, connect, sb  # noqa: F401

pytestmark = pytest.mark.anvil

VALUE = 4_000_000


def _gateway(sb: Sandbox, kind: str, **kwargs: Any) -> Any:  # noqa: F811
    return sb.gateway_client(**kwargs) if kind == "sync" else sb.async_gateway_client(**kwargs)


def _ready(anvil: Anvil, sb: Sandbox) -> Any:  # noqa: F811
    # The minter trusts the sandbox's attester, and the signer has a balance on Arbitrum.
    anvil.send(MINTER, calldata("addAttestationSigner(address)", SANDBOX_ATTESTER.address))
    sb.fund(TEST_SIGNER.address, 42161, 30_000_000)
    return build_transfer_intent(
        source_chain_id=42161,
        destination_chain_id=8453,
        depositor=TEST_SIGNER.address,
        recipient=RECIPIENT.lower(),
        value=VALUE,
    )


async def test_send_transfer_mints_on_the_real_minter(
    sb: Sandbox,  # noqa: F811
    kind: str,
    anvil: Anvil,
    connect: Connect,  # noqa: F811
    tmp_path: Path,
) -> None:
    intent = _ready(anvil, sb)
    gateway = _gateway(sb, kind, journal=tmp_path / "j.db")
    result = await resolve(
        gateway.send_transfer(
            TEST_SIGNER, intent, max_fee_cap=1_000_000, web3=connect(anvil.url), simulate=True
        )
    )
    assert result.mint is not None
    assert result.mint.simulation is not None
    assert result.mint.simulation.transactions == ("mint",)
    assert _balance(anvil, USDC, RECIPIENT) == VALUE
    [journey] = SQLiteJournal(tmp_path / "j.db").journeys()
    assert journey.state == "completed"
    assert journey.last("minted").data["tx_hash"] == result.mint.tx_hash  # type: ignore[union-attr]


@pytest.mark.parametrize("at", [("attested", "ok"), ("broadcast", "ok")])
async def test_a_transfer_stopped_after_its_attestation_is_minted_once_by_resume(
    sb: Sandbox,  # noqa: F811
    kind: str,
    anvil: Anvil,
    connect: Connect,  # noqa: F811
    tmp_path: Path,
    at: tuple[str, str],
) -> None:
    intent = _ready(anvil, sb)
    web3 = connect(anvil.url)
    crash = crash_at(step=at[0], status=at[1])
    gateway = _gateway(sb, kind, journal=tmp_path / "j.db", on_step=crash)
    with pytest.raises(Crash):
        await resolve(gateway.send_transfer(TEST_SIGNER, intent, max_fee_cap=1_000_000, web3=web3))
    [journey] = SQLiteJournal(tmp_path / "j.db").journeys()
    sent = _nonce(anvil)
    fresh = _gateway(sb, kind, journal=tmp_path / "j.db")
    if at[0] == "attested":
        # The mint was never signed: a resume signs it only when asked to restart.
        with pytest.raises(errors.RestartRequiredError):
            await resolve(fresh.resume(journey.id, web3=web3, signer=TEST_SIGNER))
    resumed = await resolve(
        fresh.resume(journey.id, web3=web3, signer=TEST_SIGNER, restart=at[0] == "attested")
    )
    assert resumed.state == "completed"
    assert _balance(anvil, USDC, RECIPIENT) == VALUE  # minted once
    assert _nonce(anvil) == (sent + 1 if at[0] == "attested" else sent)
    assert resumed.result.mint.tx_hash == resumed.journey.last("minted").data["tx_hash"]
