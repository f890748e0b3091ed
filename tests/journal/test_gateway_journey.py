"""A Gateway transfer sent with `GatewayClient.send_transfer(..., web3=...)`, stopped at
each of its steps (a hook that raises what no handler catches, like a crash), then
resumed by a fresh client over the same journal, with and without web3 (sync and
async), and with ``restart=True`` where going on needs a new signature. It ends
completed, having sent one ``POST /v1/transfer`` Gateway took and one mint: never a
transfer or a mint twice, and never the intents or the mint signed twice over what was
on disk before the stop."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from xswap_sdk import errors
from xswap_sdk.journal import Journey, SQLiteJournal, StepEvent
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.testing import TEST_SIGNER

from ..gateway.chain import destination, mints_sent
from ..gateway.test_transfer_journey import CAP, SEND_STEPS, client, intent
from ..support import Crash, crash_after, crash_at
from .journeys import resolve


@pytest.fixture
def sb() -> Any:
    with Sandbox() as sandbox:
        sandbox.fund(TEST_SIGNER.address, 42161, 30_000_000)
        yield sandbox


def taken(sb: Sandbox) -> list[bytes]:
    """The ``POST /v1/transfer`` bodies Gateway took (2xx)."""
    return [
        bytes(r.body or b"")
        for r in sb.requests.select("gateway", "POST", "/v1/transfer", processed=True)
        if r.status is not None and r.status < 300
    ]


def sent_bodies(journey: Journey) -> list[bytes]:
    """The transfer bodies a journey wrote before sending them."""
    return [
        json.dumps(s.data["body"], separators=(",", ":")).encode()
        for s in journey.steps
        if (s.step, s.status) == ("submitted", "sending")
    ]


def mint_hashes(journey: Journey) -> set[str]:
    return {
        s.data["tx_hash"]
        for s in journey.steps
        if s.data.get("what") == "mint" and isinstance(s.data.get("tx_hash"), str)
    }


async def finish(sb: Sandbox, kind: str, path: Path, journey_id: str, chain: Any) -> Any:
    """Resume without web3 first, then with it, then with ``restart=True``, as far as
    each needs: the way a person would, told what is missing each time."""
    fresh = client(sb, kind, journal=path)
    missing: str | None = None
    try:
        return await resolve(fresh.resume(journey_id, signer=TEST_SIGNER))
    except errors.MissingCredentialsError as needed:
        missing = needed.argument
    except errors.RestartRequiredError:
        pass
    assert missing in (None, "web3")  # only the chain is missing: the signer was given
    try:
        return await resolve(fresh.resume(journey_id, web3=chain, signer=TEST_SIGNER))
    except errors.RestartRequiredError:
        return await resolve(fresh.resume(journey_id, web3=chain, signer=TEST_SIGNER, restart=True))


async def _stopped(sb: Sandbox, kind: str, path: Path, on_step: Any, **kwargs: Any) -> Any:
    """The journey of a transfer that ``on_step`` stopped with `Crash`."""
    with pytest.raises(Crash):
        await resolve(
            client(sb, kind, journal=path, on_step=on_step).send_transfer(
                TEST_SIGNER, intent(), max_fee_cap=CAP, **kwargs
            )
        )
    [stopped] = SQLiteJournal(path).journeys()
    return stopped


@pytest.mark.parametrize("stop", range(len(SEND_STEPS)))
@pytest.mark.usefixtures("no_key_in_env")
async def test_a_transfer_stopped_at_any_step_ends_with_one_transfer_and_one_mint(
    sb: Sandbox, kind: str, tmp_path: Path, stop: int
) -> None:
    path = tmp_path / "j.db"
    chain = destination(kind)
    seen: list[StepEvent] = []
    stopped = await _stopped(sb, kind, path, crash_after(stop, seen), web3=chain)
    before = sent_bodies(stopped)
    resumed = await finish(sb, kind, path, stopped.id, chain)
    journey = resumed.journey
    assert resumed.state == "completed", (seen[-1], journey.steps[-1])
    [body] = taken(sb)
    assert body in sent_bodies(journey)
    if before:
        # The intents on disk before the stop are the ones Gateway took: not signed anew.
        assert set(sent_bodies(journey)) == set(before)
    assert await mints_sent(chain) == 1
    assert len(mint_hashes(journey)) == 1
    if stopped.state != "completed":  # a completed one is left as it is
        assert resumed.result.mint.tx_hash in mint_hashes(journey)
    # Resuming again does nothing more.
    again = await resolve(client(sb, kind, journal=path).resume(stopped.id, web3=chain))
    assert again.state == "completed"
    assert len(taken(sb)) == 1
    assert await mints_sent(chain) == 1


async def test_a_mint_journey_stopped_after_signing_broadcasts_the_same_bytes(
    sb: Sandbox, kind: str, tmp_path: Path
) -> None:
    from xswap_sdk.signing import sign_burn_intent

    path = tmp_path / "j.db"
    chain = destination(kind)
    result = await resolve(client(sb, kind).transfer(sign_burn_intent(intent(), TEST_SIGNER)))

    with pytest.raises(Crash):
        await resolve(
            client(sb, kind, journal=path, on_step=crash_at(step="signed")).mint(
                result, web3=chain, signer=TEST_SIGNER
            )
        )
    [stopped] = SQLiteJournal(path).journeys()
    assert stopped.kind == "mint"
    signed = stopped.last("signed")
    assert signed is not None
    # No signer: the journaled bytes are all it sends.
    resumed = await resolve(client(sb, kind, journal=path).resume(stopped.id, web3=chain))
    assert resumed.state == "completed"
    assert resumed.result.tx_hash == signed.data["tx_hash"]  # the journaled bytes, no new ones
    assert resumed.result.journey_id == stopped.id
    assert await mints_sent(chain) == 1


REQUOTED_EVENTS = 18  # SEND_STEPS, plus the refused submission and the new estimate


@pytest.mark.parametrize("stop", range(REQUOTED_EVENTS))
async def test_a_requoted_transfer_stopped_at_any_step_ends_with_one_transfer(
    sb: Sandbox, kind: str, tmp_path: Path, stop: int
) -> None:
    path = tmp_path / "j.db"
    chain = destination(kind)
    sb.gateway.raise_fee_after_estimate(5_000)
    seen: list[StepEvent] = []
    stopped = await _stopped(sb, kind, path, crash_after(stop, seen), web3=chain, requote=1)
    resumed = await finish(sb, kind, path, stopped.id, chain)
    assert len(taken(sb)) <= 1
    assert await mints_sent(chain) <= 1
    if resumed.state == "needs_attention":
        # Stopped as the first (refused) request was leaving: sent again, it was
        # refused again, which cannot tell whether the first was taken.
        assert (seen[stop].step, seen[stop].status) == ("submitted", "sending")
        assert "may have been taken" in resumed.journey.steps[-1].data["reason"]
        assert taken(sb) == []
    else:
        assert resumed.state == "completed", (seen[-1], resumed.journey.steps[-1])
        assert len(taken(sb)) == 1
        assert await mints_sent(chain) == 1


async def _stopped_at_quoted(sb: Sandbox, kind: str, path: Path, **kwargs: Any) -> Any:
    return await _stopped(sb, kind, path, crash_at(step="quoted"), **kwargs)


@pytest.mark.usefixtures("no_key_in_env")
async def test_a_transfer_stopped_before_signing_goes_on_only_with_restart_and_a_signer(
    sb: Sandbox, kind: str, tmp_path: Path
) -> None:
    stopped = await _stopped_at_quoted(sb, kind, tmp_path / "j.db")
    fresh = client(sb, kind, journal=tmp_path / "j.db")
    with pytest.raises(errors.RestartRequiredError, match="restart=True"):
        await resolve(fresh.resume(stopped.id, signer=TEST_SIGNER))
    with pytest.raises(errors.MissingCredentialsError, match="XSWAP_PRIVATE_KEY"):
        await resolve(fresh.resume(stopped.id, restart=True))
    assert sb.gateway.transfer_ids == []
    still = SQLiteJournal(tmp_path / "j.db").journey(stopped.id)
    assert still is not None
    assert still.state == "running"
    resumed = await resolve(fresh.resume(stopped.id, signer=TEST_SIGNER, restart=True))
    assert resumed.state == "completed"
    assert resumed.result.journey_id == stopped.id
    names = [s.step for s in resumed.journey.steps]
    assert names.count("signed") == 1
    assert names.count("restarted") >= 1  # each resume asked to restart says so
    assert len(sb.gateway.transfer_ids) == 1


async def test_a_restart_refuses_a_signer_that_is_not_the_intents(
    sb: Sandbox, kind: str, tmp_path: Path
) -> None:
    from eth_account import Account

    stopped = await _stopped_at_quoted(sb, kind, tmp_path / "j.db")
    other = Account.from_key("0x" + "42" * 32)
    with pytest.raises(errors.InvalidInputError, match="signer"):
        await resolve(
            client(sb, kind, journal=tmp_path / "j.db").resume(
                stopped.id, signer=other, restart=True
            )
        )
    assert sb.gateway.transfer_ids == []
