"""A stuck transfer rescued from its id on Circle's real GatewayMinter (anvil, at Base's
address): `GatewayClient.recover_transfer` reads the sandbox's record (attestation
included, as Circle's ``GET /v1/transfer/{id}`` returns it), checks it, simulates and
sends the mint; asked again, the real minter's ``isTransferSpecHashUsed`` says it was
minted already (so the sandbox's ``transferSpecHash`` is the contract's), and nothing is
sent twice."""

from __future__ import annotations

from typing import Any

import pytest

from xswap_sdk import errors
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.testing import TEST_SIGNER

from ..support import resolve
from .conftest import USDC, Anvil, stuck_transfer
from .test_simulation import RECIPIENT, Connect, _balance, _nonce, connect, sb  # noqa: F401

pytestmark = pytest.mark.anvil

VALUE = 4_000_000


@pytest.fixture
def gateway(sb: Sandbox, kind: str) -> Any:  # noqa: F811
    return sb.gateway_client() if kind == "sync" else sb.async_gateway_client()


@pytest.fixture
def transfer_id(anvil: Anvil, sb: Sandbox) -> str:  # noqa: F811
    return stuck_transfer(anvil, sb, recipient=RECIPIENT.lower(), value=VALUE, funded=30_000_000)


async def test_a_stuck_transfer_is_minted_once_from_its_id(
    transfer_id: str,
    gateway: Any,
    anvil: Anvil,
    connect: Connect,  # noqa: F811
) -> None:
    web3 = connect(anvil.url)
    before = _nonce(anvil)
    recovered = await resolve(
        gateway.recover_transfer(
            transfer_id, recipient=RECIPIENT.lower(), web3=web3, signer=TEST_SIGNER, simulate=True
        )
    )
    assert not recovered.minted_already
    assert recovered.simulation is not None
    assert recovered.simulation.transactions == ("mint",)
    assert _balance(anvil, USDC, RECIPIENT) == VALUE
    assert _nonce(anvil) == before + 1
    again = await resolve(
        gateway.recover_transfer(
            transfer_id, recipient=RECIPIENT.lower(), web3=web3, signer=TEST_SIGNER
        )
    )
    assert again.minted_already
    assert _balance(anvil, USDC, RECIPIENT) == VALUE  # minted once
    assert _nonce(anvil) == before + 1


async def test_a_stuck_transfer_to_someone_else_is_not_minted(
    transfer_id: str,
    gateway: Any,
    anvil: Anvil,
    connect: Connect,  # noqa: F811
) -> None:
    with pytest.raises(errors.UnsafePayloadError, match="destinationRecipient"):
        await resolve(
            gateway.recover_transfer(
                transfer_id,
                recipient=TEST_SIGNER.address,
                web3=connect(anvil.url),
                signer=TEST_SIGNER,
            )
        )
    assert _balance(anvil, USDC, RECIPIENT) == 0
