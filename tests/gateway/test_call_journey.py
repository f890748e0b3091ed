"""`GatewayClient.send_call`: a Gateway contract call (here a withdrawal) sent as a
``call`` journey, on an in-process chain 8453, sync and async. Stopped at any step and
resumed by a fresh client, it is sent at most once (the signer's nonce counts) and
never signed again: completed when the chain has it, failed when it was never signed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from xswap_sdk import errors
from xswap_sdk.journal import SQLiteJournal, StepEvent
from xswap_sdk.registry import DEFAULT_REGISTRY
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.signing import initiate_withdrawal_call
from xswap_sdk.testing import TEST_SIGNER

from ..support import Crash, crash_after, crash_at, resolve
from .chain import CHAIN_ID, destination, mints_sent

pytestmark = pytest.mark.evm

STEPS = [
    ("started", "started"),
    ("verified", "ok"),
    ("signed", "ok"),
    ("broadcast", "sending"),
    ("broadcast", "ok"),
    ("confirmed", "ok"),
    ("completed", "ok"),
]


def _withdrawal() -> Any:
    return initiate_withdrawal_call(
        chain_id=CHAIN_ID, value=1_000_000, depositor=TEST_SIGNER.address
    )


def _client(sb: Sandbox, kind: str, **kwargs: Any) -> Any:
    return (sb.gateway_client if kind == "sync" else sb.async_gateway_client)(**kwargs)


async def _stopped(sb: Sandbox, kind: str, path: Path, web3: Any, on_step: Any) -> Any:
    """The journey of a call that ``on_step`` stopped with `Crash`, and a fresh client
    over its journal."""
    gateway = _client(sb, kind, journal=path, on_step=on_step)
    with pytest.raises(Crash):
        await resolve(gateway.send_call(_withdrawal(), web3=web3, signer=TEST_SIGNER))
    [journey] = SQLiteJournal(path).journeys()
    return journey, _client(sb, kind, journal=path)


async def test_a_call_is_a_journey_whose_signed_bytes_are_written_first(
    kind: str, tmp_path: Path
) -> None:
    web3 = destination(kind)
    events: list[StepEvent] = []
    with Sandbox() as sb:
        gateway = _client(sb, kind, journal=tmp_path / "j.db", on_step=events.append)
        sent = await resolve(gateway.send_call(_withdrawal(), web3=web3, signer=TEST_SIGNER))
    [journey] = SQLiteJournal(tmp_path / "j.db").journeys()
    assert (journey.kind, journey.state, sent.journey_id) == ("call", "completed", journey.id)
    assert [(s.step, s.status) for s in journey.steps] == STEPS
    assert [(e.step, e.status) for e in events] == STEPS
    signed = journey.last("signed")
    assert signed is not None
    assert signed.data["tx_hash"] == sent.tx_hash
    assert signed.data["what"] == "initiateWithdrawal(address,uint256)"
    assert await mints_sent(web3) == 1


@pytest.mark.parametrize("stop", range(len(STEPS) - 1))
async def test_a_call_stopped_at_any_step_is_sent_once(
    kind: str, tmp_path: Path, stop: int
) -> None:
    web3 = destination(kind)
    with Sandbox() as sb:
        journey, fresh = await _stopped(sb, kind, tmp_path / "j.db", web3, crash_after(stop))
        try:
            resumed = await resolve(fresh.resume(journey.id, web3=web3))
        except errors.RestartRequiredError:
            # Stopped before its transaction was signed: only a restart signs it.
            assert journey.last("signed") is None
            resumed = await resolve(
                fresh.resume(journey.id, web3=web3, signer=TEST_SIGNER, restart=True)
            )
        again = await resolve(fresh.resume(journey.id, web3=web3))
    assert resumed.state == again.state == "completed"
    assert await mints_sent(web3) == 1  # sent once: by the run, or the journaled bytes
    signed = journey.last("signed")
    if signed is not None:
        # What was signed before the stop is what went: no second signature.
        assert resumed.result.tx_hash == signed.data["tx_hash"]
        assert [s for s in resumed.journey.steps if s.step == "signed"] == [signed]
    assert resumed.result.journey_id == journey.id


async def test_a_signed_call_resumed_without_web3_says_so_and_sends_nothing(
    kind: str, tmp_path: Path
) -> None:
    web3 = destination(kind)
    with Sandbox() as sb:
        journey, fresh = await _stopped(sb, kind, tmp_path / "j.db", web3, crash_at(step="signed"))
        with pytest.raises(errors.MissingCredentialsError, match="--rpc-url") as missing:
            await resolve(fresh.resume(journey.id))
        assert missing.value.argument == "web3"
        still = SQLiteJournal(tmp_path / "j.db").journey(journey.id)
        assert still is not None
        assert still.state == "running"
        assert await mints_sent(web3) == 0
        # Given web3, the journaled bytes go: nothing is signed anew.
        resumed = await resolve(fresh.resume(journey.id, web3=web3))
    assert resumed.state == "completed"
    assert await mints_sent(web3) == 1


async def test_web3_on_another_chain_is_refused_before_the_journey_starts(
    kind: str, tmp_path: Path
) -> None:
    web3 = destination(kind, chain_id=42161)
    with Sandbox() as sb:
        gateway = _client(sb, kind, journal=tmp_path / "j.db")
        with pytest.raises(errors.InvalidInputError) as info:
            await resolve(gateway.send_call(_withdrawal(), web3=web3, signer=TEST_SIGNER))
        with pytest.raises(errors.InvalidInputError) as not_a_call:
            await resolve(gateway.send_call("0x", web3=web3, signer=TEST_SIGNER))
    assert info.value.argument == "web3"
    assert not_a_call.value.argument == "call"
    assert SQLiteJournal(tmp_path / "j.db").journeys() == []
    assert await mints_sent(web3) == 0


async def test_a_journaled_call_is_read_again_on_resume(kind: str, tmp_path: Path) -> None:
    # A call journey whose journaled call is not one the SDK can read (a USDC transfer
    # labelled as a withdrawal), without unsafe_any_call in its terms, is refused on
    # resume before anything is signed or sent, like the same call given to send_call.
    import json

    from xswap_sdk.journal import Owner, open_journal
    from xswap_sdk.signing import ContractCall

    usdc = DEFAULT_REGISTRY.chain(CHAIN_ID).usdc
    steal = ContractCall(
        to=usdc,
        data="0xa9059cbb" + "00" * 12 + "66" * 20 + f"{1000 * 10**6:064x}",
        chain_id=CHAIN_ID,
        function="withdraw(address)",
    )
    path = tmp_path / "j.db"
    terms = {"call": steal.model_dump(mode="json"), "sender": TEST_SIGNER.address}
    journal = open_journal(path)
    owner = Owner.this_process()
    journey_id = journal.create("call", json.dumps({**terms, "simulate": "auto"}), owner)
    journal.append(journey_id, owner, [], release=True)  # its process is gone
    journal.close()
    web3 = destination(kind)
    with Sandbox() as sb:
        gateway = _client(sb, kind, journal=path)
        with pytest.raises(errors.UnsafePayloadError):
            await resolve(gateway.resume(journey_id, web3=web3, signer=TEST_SIGNER, restart=True))
    assert await mints_sent(web3) == 0
