"""A Gateway transfer sent with `GatewayClient.send_transfer(..., web3=...)`, stopped at
each of its steps (a hook that raises what no handler catches, like a crash), then
resumed by a fresh client over the same journal, with and without web3 (sync and
async). It ends completed (minted exactly once), needs_attention (a request or a mint
that may have left, or a mint with no web3 to send it) or failed (nothing signed, or
Gateway refused it). Never a second ``POST /v1/transfer`` that may have arrived, never a
second mint broadcast, and never a new signature over what was already signed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from xswap_sdk.journal import SQLiteJournal, StepEvent
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.testing import TEST_PRIVATE_KEY, TEST_SIGNER

from ..gateway.chain import destination, mints_sent
from ..gateway.test_transfer_journey import CAP, SEND_STEPS, client, intent, posted
from .journeys import resolve


class Crash(BaseException):
    """Stands for the process dying: no ``except Exception`` catches it."""


@pytest.fixture
def sb() -> Any:
    with Sandbox() as sandbox:
        sandbox.fund(TEST_SIGNER.address, 42161, 30_000_000)
        yield sandbox


def _mint_hashes(journey: Any) -> set[str]:
    return {
        s.data["tx_hash"]
        for s in journey.steps
        if s.data.get("what") == "mint" and isinstance(s.data.get("tx_hash"), str)
    }


@pytest.mark.parametrize("with_web3", [True, False], ids=["web3", "no-web3"])
@pytest.mark.parametrize("stop", range(len(SEND_STEPS)))
async def test_a_transfer_stopped_at_any_step_resumes_to_one_mint(
    sb: Sandbox, kind: str, tmp_path: Path, stop: int, with_web3: bool, monkeypatch: Any
) -> None:
    monkeypatch.delenv("XSWAP_PRIVATE_KEY", raising=False)
    path = tmp_path / "j.db"
    chain = destination(kind)
    seen: list[StepEvent] = []

    def crash(event: StepEvent) -> None:
        seen.append(event)
        if len(seen) > stop:
            raise Crash

    gateway = client(sb, kind, journal=path, on_step=crash)
    with pytest.raises(Crash):
        await resolve(gateway.send_transfer(TEST_SIGNER, intent(), max_fee_cap=CAP, web3=chain))
    [stopped] = SQLiteJournal(path).journeys()
    posts, mints = posted(sb), await mints_sent(chain)
    fresh = client(sb, kind, journal=path)
    web3 = chain if with_web3 else None
    resumed = await resolve(fresh.resume(stopped.id, web3=web3, signer=TEST_SIGNER))
    journey = resumed.journey
    assert posted(sb) <= 1, "POST /v1/transfer handled twice"
    assert await mints_sent(chain) <= 1, "minted twice"
    assert len(_mint_hashes(journey)) <= 1, "a second mint transaction was signed"
    signed_bodies = {
        json.dumps(s.data["body"]) for s in journey.steps if s.step == "signed" and "body" in s.data
    }
    assert len(signed_bodies) <= 1, "the intents were signed twice"
    if journey.last("signed") is None:
        assert resumed.state == "failed"
        assert posted(sb) == 0
    elif resumed.state == "completed":
        assert posted(sb) == 1
        assert await mints_sent(chain) == 1
        assert [s.step for s in journey.steps].count("minted") == 1
        if stopped.state != "completed":
            assert resumed.result.mint.tx_hash in _mint_hashes(journey)
    else:
        assert resumed.state == "needs_attention", (seen[-1], resumed.state)
        assert resumed.journey.steps[-1].data.get("next")
        if journey.steps[-1].status == "not_sent":
            # Attested, and the mint is due with no web3 to send it.
            assert not with_web3
            assert posted(sb) == 1
            assert await mints_sent(chain) == mints == 0
        else:
            # Only where something may have left: nothing is sent again.
            sending = stopped.last("submitted", "sending") is not None
            left = any(s.step == "broadcast" for s in stopped.steps)
            assert (sending and stopped.last("submitted", "ok") is None) or left
            assert (posted(sb), await mints_sent(chain)) == (posts, mints)
    # Resuming again, now with web3 and the key from XSWAP_PRIVATE_KEY: a mint only due
    # for lack of web3 is sent, once; anything else stays as it is.
    monkeypatch.setenv("XSWAP_PRIVATE_KEY", TEST_PRIVATE_KEY)
    again = await resolve(fresh.resume(stopped.id, web3=chain))
    assert posted(sb) <= 1
    assert await mints_sent(chain) <= 1
    if (
        resumed.state == "needs_attention"
        and not with_web3
        and resumed.journey.last("needs_attention", "not_sent")
    ):
        assert again.state == "completed"
        assert await mints_sent(chain) == 1
    elif resumed.state in ("completed", "failed"):
        assert again.state == resumed.state


async def test_a_mint_gateway_says_is_done_is_not_sent_again(
    sb: Sandbox, kind: str, tmp_path: Path
) -> None:
    path = tmp_path / "j.db"
    chain = destination(kind)

    def crash(event: StepEvent) -> None:
        if (event.step, event.status) == ("broadcast", "sending"):
            raise Crash

    gateway = client(sb, kind, journal=path, on_step=crash)
    with pytest.raises(Crash):
        await resolve(gateway.send_transfer(TEST_SIGNER, intent(), max_fee_cap=CAP, web3=chain))
    [stopped] = SQLiteJournal(path).journeys()
    sb.wait(10)  # the sandbox's Gateway sees the transfer minted (by someone)
    minted = sb.gateway_client().get_transfer(sb.gateway.transfer_ids[0])
    resumed = await resolve(client(sb, kind, journal=path).resume(stopped.id))
    assert resumed.state == "completed"
    assert resumed.journey.last("found") is not None
    assert resumed.result.mint.tx_hash == minted.transaction_hash
    assert await mints_sent(chain) == 0


async def test_a_mint_journey_stopped_after_signing_broadcasts_the_same_bytes(
    sb: Sandbox, kind: str, tmp_path: Path
) -> None:
    from xswap_sdk.signing import sign_burn_intent

    path = tmp_path / "j.db"
    chain = destination(kind)
    result = await resolve(client(sb, kind).transfer(sign_burn_intent(intent(), TEST_SIGNER)))

    def crash(event: StepEvent) -> None:
        if event.step == "signed":
            raise Crash

    with pytest.raises(Crash):
        await resolve(
            client(sb, kind, journal=path, on_step=crash).mint(
                result, web3=chain, signer=TEST_SIGNER
            )
        )
    [stopped] = SQLiteJournal(path).journeys()
    assert stopped.kind == "mint"
    signed = stopped.last("signed")
    assert signed is not None
    resumed = await resolve(client(sb, kind, journal=path).resume(stopped.id, web3=chain))
    assert resumed.state == "completed"
    assert resumed.result.tx_hash == signed.data["tx_hash"]  # the journaled bytes, no new ones
    assert resumed.result.journey_id == stopped.id
    assert await mints_sent(chain) == 1


async def test_a_transfer_never_asked_to_mint_is_minted_when_resume_has_web3(
    sb: Sandbox, kind: str, tmp_path: Path
) -> None:
    path = tmp_path / "j.db"
    chain = destination(kind)
    gateway = client(sb, kind, journal=path)
    result = await resolve(gateway.send_transfer(TEST_SIGNER, intent(), max_fee_cap=CAP))
    plain = await resolve(client(sb, kind, journal=path).resume(result.journey_id))
    assert (plain.state, plain.result) == ("completed", None)
    resumed = await resolve(
        client(sb, kind, journal=path).resume(result.journey_id, web3=chain, signer=TEST_SIGNER)
    )
    assert resumed.state == "completed"
    assert resumed.result.mint is not None
    assert [s.step for s in resumed.journey.steps].count("completed") == 2
    assert await mints_sent(chain) == 1


REQUOTED_EVENTS = 20  # SEND_STEPS, plus the refused submission and the new estimate


@pytest.mark.parametrize("stop", range(REQUOTED_EVENTS))
async def test_a_requoted_transfer_stopped_at_any_step_resumes_without_signing_again(
    sb: Sandbox, kind: str, tmp_path: Path, stop: int
) -> None:
    path = tmp_path / "j.db"
    chain = destination(kind)
    sb.gateway.raise_fee_after_estimate(5_000)
    seen: list[StepEvent] = []

    def crash(event: StepEvent) -> None:
        seen.append(event)
        if len(seen) > stop:
            raise Crash

    gateway = client(sb, kind, journal=path, on_step=crash)
    with pytest.raises(Crash):
        await resolve(
            gateway.send_transfer(TEST_SIGNER, intent(), max_fee_cap=CAP, web3=chain, requote=1)
        )
    [stopped] = SQLiteJournal(path).journeys()
    signed_before = [
        s.data["body"] for s in stopped.steps if s.step == "signed" and "body" in s.data
    ]
    resumed = await resolve(
        client(sb, kind, journal=path).resume(stopped.id, web3=chain, signer=TEST_SIGNER)
    )
    journey = resumed.journey
    signed_after = [
        s.data["body"] for s in journey.steps if s.step == "signed" and "body" in s.data
    ]
    if signed_before:
        assert signed_after == signed_before, "resume signed the intents again"
    else:  # nothing was signed: run again from the start, with the signer given
        assert resumed.state == "completed"
        assert journey.last("resumed") is not None
    assert len(sb.gateway.transfer_ids) <= 1
    assert await mints_sent(chain) <= 1
    if resumed.state == "completed":
        assert len(sb.gateway.transfer_ids) == 1
        assert await mints_sent(chain) == 1
    elif resumed.state == "failed":
        # Nothing accepted: stopped before the new intents were signed.
        assert sb.gateway.transfer_ids == []
        assert len(signed_before) <= 1
    else:
        assert resumed.state == "needs_attention", (seen[-1], resumed.state)
        sending = journey.last("submitted", "sending")
        assert sending is not None or any(s.step == "broadcast" for s in stopped.steps)


async def _stopped_at_quoted(sb: Sandbox, kind: str, path: Path, **kwargs: Any) -> Any:
    def crash(event: StepEvent) -> None:
        if event.step == "quoted":
            raise Crash

    with pytest.raises(Crash):
        await resolve(
            client(sb, kind, journal=path, on_step=crash).send_transfer(
                TEST_SIGNER, intent(), max_fee_cap=CAP, **kwargs
            )
        )
    [stopped] = SQLiteJournal(path).journeys()
    return stopped


async def test_a_transfer_stopped_before_signing_runs_again_with_a_signer(
    sb: Sandbox, kind: str, tmp_path: Path, monkeypatch: Any
) -> None:
    monkeypatch.delenv("XSWAP_PRIVATE_KEY", raising=False)
    stopped = await _stopped_at_quoted(sb, kind, tmp_path / "j.db")
    resumed = await resolve(
        client(sb, kind, journal=tmp_path / "j.db").resume(stopped.id, signer=TEST_SIGNER)
    )
    assert resumed.state == "completed"
    assert resumed.result.journey_id == stopped.id
    names = [s.step for s in resumed.journey.steps]
    assert names[:4] == ["started", "quoted", "resumed", "quoted"]
    assert names.count("signed") == 1
    assert len(sb.gateway.transfer_ids) == 1


async def test_without_a_signer_or_with_a_hook_a_transfer_stopped_before_signing_fails(
    sb: Sandbox, kind: str, tmp_path: Path, monkeypatch: Any
) -> None:
    monkeypatch.delenv("XSWAP_PRIVATE_KEY", raising=False)
    alone = await _stopped_at_quoted(sb, kind, tmp_path / "a.db")
    resumed = await resolve(client(sb, kind, journal=tmp_path / "a.db").resume(alone.id))
    assert (resumed.state, resumed.journey.steps[-1].status) == ("failed", "not_sent")
    hooked = await _stopped_at_quoted(sb, kind, tmp_path / "h.db", accept_quote=lambda e: True)
    assert hooked.arguments["accept_quote"] is True
    resumed = await resolve(
        client(sb, kind, journal=tmp_path / "h.db").resume(hooked.id, signer=TEST_SIGNER)
    )
    assert resumed.state == "failed"  # the hook cannot be asked again: not run again
    assert sb.gateway.transfer_ids == []


async def test_a_restart_refuses_a_signer_that_is_not_the_intents(
    sb: Sandbox, kind: str, tmp_path: Path
) -> None:
    from eth_account import Account

    from xswap_sdk import errors

    stopped = await _stopped_at_quoted(sb, kind, tmp_path / "j.db")
    other = Account.from_key("0x" + "42" * 32)
    with pytest.raises(errors.InvalidInputError, match="source_signer"):
        await resolve(client(sb, kind, journal=tmp_path / "j.db").resume(stopped.id, signer=other))
    assert sb.gateway.transfer_ids == []


async def test_a_mint_that_left_is_found_at_gateway_by_its_own_hash(
    sb: Sandbox, kind: str, tmp_path: Path
) -> None:
    path = tmp_path / "j.db"
    chain = destination(kind)
    sb.gateway.timings = type(sb.gateway.timings)(mint=None)  # pending until a mint is seen

    def crash(event: StepEvent) -> None:
        if (event.step, event.status) == ("broadcast", "ok"):
            raise Crash

    gateway = client(sb, kind, journal=path, on_step=crash)
    with pytest.raises(Crash):
        await resolve(gateway.send_transfer(TEST_SIGNER, intent(), max_fee_cap=CAP, web3=chain))
    [stopped] = SQLiteJournal(path).journeys()
    [sent] = _mint_hashes(stopped)
    [transfer_id] = sb.gateway.transfer_ids
    # Without web3 and before Gateway saw it: only a person can tell.
    fresh = client(sb, kind, journal=path)
    unknown = await resolve(fresh.resume(stopped.id))
    assert unknown.state == "needs_attention"
    assert unknown.journey.steps[-1].status == "outcome_unknown"
    sb.gateway.report_mint(transfer_id, sent)  # Gateway's indexer sees the mint
    resumed = await resolve(fresh.resume(stopped.id))
    assert resumed.state == "completed"
    assert resumed.result.mint.tx_hash == sent
    assert resumed.journey.last("found").data["tx_hash"] == sent  # type: ignore[union-attr]
    assert await mints_sent(chain) == 1
