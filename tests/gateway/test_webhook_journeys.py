"""`advance_journeys`: a verified Gateway notification, delivered signed by the sandbox
to an endpoint on 127.0.0.1, is recorded on the journeys it is about and on no other: a
deposit journey by its transaction hash (``finalized``), a transfer journey by its
transfer id (``minted``). A waiting journey is then completed; a repeated delivery
records nothing more; only ``Journal.record`` writes. Sync and async clients."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from xswap_sdk import errors
from xswap_sdk.gateway import WebhookNotification, advance_journeys, build_transfer_intent
from xswap_sdk.journal import Journal, Journey, JourneyState, Row, SQLiteJournal
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.signing import sign_burn_intent
from xswap_sdk.testing import TEST_SIGNER

from ..journal.chain_journeys import Crash
from ..journal.chain_journeys import deposit_journey as chain_deposit
from ..support import resolve
from .support import transfer_intent
from .test_nanopayments import receiver  # noqa: F401

ME = TEST_SIGNER.address
NOWHERE_TX = "0x" + "cd" * 32


def deposit_journey(journal: SQLiteJournal, nonce: int, *, ended: bool) -> tuple[str, str]:
    """A real ``deposit`` journey (see tests/journal/chain_journeys.py): stopped as its
    transaction was broadcast (``ended=False``: the process died), or completed. Its id
    and its transaction's hash."""
    return chain_deposit(journal.path, nonce=nonce, stop=not ended)


def delivered(
    sb: Sandbox, received: list[Any], notification_type: str, event: dict[str, Any]
) -> list[WebhookNotification]:
    """``event`` sent twice by the sandbox (a retried delivery), each verified."""
    sb.gateway.send_webhook(notification_type, event, times=2)
    with sb.gateway_client() as gateway:
        return [
            gateway.verify_webhook(
                body,
                signature=headers["X-Circle-Signature"],
                key_id=headers["X-Circle-Key-Id"],
            )
            for body, headers in received[-2:]
        ]


def steps(journal: Journal, journey_id: str) -> list[tuple[str, str]]:
    journey = journal.journey(journey_id)
    assert journey is not None
    return [(s.step, s.status) for s in journey.steps]


def test_a_finalized_deposit_completes_its_waiting_journey_once(
    sb: Sandbox,
    receiver: tuple[str, list[Any]],  # noqa: F811
    tmp_path: Path,
) -> None:
    url, received = receiver
    sb.gateway.subscribe_webhooks(url)
    journal = SQLiteJournal(tmp_path / "j.db")
    waiting, deposit_tx = deposit_journey(journal, 0, ended=False)
    elsewhere, _ = deposit_journey(journal, 1, ended=False)
    event = {
        "id": "c3d4e5f6-a7b8-9012-cdef-123456789012",
        "walletAddress": ME.lower(),
        "domain": "6",
        "env": "mainnet",
        "amount": "5.000000",
        "from": ME.lower(),
        "txHash": deposit_tx.upper().replace("0X", "0x"),  # case does not matter
    }
    first, again = delivered(sb, received, "gateway.deposit.finalized", event)
    assert advance_journeys(journal, first) == [waiting]
    journey = journal.journey(waiting)
    assert journey is not None
    assert journey.state == "completed"
    finalized = journey.last("finalized")
    assert finalized is not None
    assert finalized.data["notification_id"] == first.notification_id
    assert finalized.data["tx_hash"] == event["txHash"]
    assert finalized.data["amount"] == "5.000000"
    assert finalized.data["source"] == "webhook"
    # The retried delivery (same notificationId) records nothing, even read afresh.
    assert advance_journeys(tmp_path / "j.db", again) == []
    assert steps(journal, waiting)[-1] == ("finalized", "ok")
    assert [name for name, _ in steps(journal, waiting)].count("finalized") == 1
    # The other deposit is untouched.
    other = journal.journey(elsewhere)
    assert other is not None
    assert other.state == "running"
    assert other.last("finalized") is None


def test_a_finalized_deposit_is_recorded_on_a_completed_journey_without_changing_it(
    sb: Sandbox, tmp_path: Path
) -> None:
    journal = SQLiteJournal(tmp_path / "j.db")
    done, deposit_tx = deposit_journey(journal, 0, ended=True)
    notification = _signed(sb, "gateway.deposit.finalized", {"txHash": deposit_tx}, "n-1")
    assert advance_journeys(journal, notification) == [done]
    journey = journal.journey(done)
    assert journey is not None
    assert journey.state == "completed"
    assert journey.steps[-1].step == "finalized"


async def test_a_mint_notification_is_recorded_on_its_transfer_journey(
    sb: Sandbox,
    kind: str,
    receiver: tuple[str, list[Any]],  # noqa: F811
    tmp_path: Path,
) -> None:
    url, received = receiver
    sb.gateway.subscribe_webhooks(url)
    sb.fund(ME, 8453, 30_000_000)
    path = tmp_path / "j.db"
    gateway = (
        sb.gateway_client(journal=path) if kind == "sync" else sb.async_gateway_client(journal=path)
    )
    results = []
    for _ in range(2):
        intent = transfer_intent(4_000_000, max_fee=2_000_000)
        results.append(await resolve(gateway.transfer(sign_burn_intent(intent, TEST_SIGNER))))
    mine, other = results
    event = {"transferId": mine.transfer_id, "domain": "3", "amount": "4.000000"}
    first, again = delivered(sb, received, "gateway.mint.finalized", event)
    journal = SQLiteJournal(path)
    assert advance_journeys(journal, first) == [mine.journey_id]
    assert advance_journeys(journal, again) == []
    minted = journal.journey(mine.journey_id)
    assert minted is not None
    assert minted.state == "completed"
    assert [s.step for s in minted.steps][-2:] == ["completed", "minted"]
    assert minted.steps[-1].data["notification_type"] == "gateway.mint.finalized"
    untouched = journal.journey(other.journey_id)
    assert untouched is not None
    assert untouched.last("minted") is None
    # A forwarded mint is another notification: recorded too, once.
    forwarded = _signed(sb, "gateway.mint.forwarded", event, "n-forwarded")
    assert advance_journeys(journal, forwarded) == [mine.journey_id]
    assert advance_journeys(journal, forwarded) == []


def test_a_transfer_stopped_after_its_answer_is_matched_and_completed(
    sb: Sandbox, tmp_path: Path
) -> None:
    def crash(event: Any) -> None:
        if event.step == "attested":
            raise Crash

    sb.fund(ME, 8453, 30_000_000)
    intent = build_transfer_intent(
        source_chain_id=8453, destination_chain_id=42161, depositor=ME, recipient=ME,
        value=4_000_000, max_fee=2_000_000,
    )  # fmt: skip
    with pytest.raises(Crash):
        sb.gateway_client(journal=tmp_path / "j.db", on_step=crash).transfer(
            sign_burn_intent(intent, TEST_SIGNER)
        )
    [transfer_id] = sb.gateway.transfer_ids
    journal = SQLiteJournal(tmp_path / "j.db")
    [stopped] = journal.journeys()
    # The answer was indexed with its transfer id, before any "attested" step.
    assert journal.find(transfer_id) == [stopped.id]
    notification = _signed(sb, "gateway.mint.finalized", {"transferId": transfer_id}, "n-2")
    assert advance_journeys(journal, notification) == [stopped.id]
    journey = journal.journey(stopped.id)
    assert journey is not None
    assert journey.state == "completed"


def test_notifications_about_nothing_journaled_record_nothing(sb: Sandbox, tmp_path: Path) -> None:
    journal = SQLiteJournal(tmp_path / "j.db")
    deposit, deposit_tx = deposit_journey(journal, 0, ended=False)
    before = steps(journal, deposit)
    for notification_type, event in (
        ("gateway.deposit.finalized", {"txHash": NOWHERE_TX}),
        ("gateway.deposit.finalized", {}),
        # A mint is never matched to a deposit, even by a hash it journaled.
        ("gateway.mint.finalized", {"transferId": deposit_tx}),
        ("gateway.something.new", {"txHash": deposit_tx}),
    ):
        notification = _signed(sb, notification_type, event, f"n-{notification_type}")
        assert advance_journeys(journal, notification) == []
    assert steps(journal, deposit) == before


def test_only_journal_record_writes_and_journeys_are_found_by_their_index(
    sb: Sandbox,
) -> None:
    recorded: list[tuple[str, str, str, JourneyState | None]] = []
    looked: list[str] = []
    rows = (
        Row(0, 0, "started", "started", {}, None, 0),
        Row(1, 1, "broadcast", "ok", {"tx_hash": NOWHERE_TX}, None, 0),
    )

    class Memory:
        lease_seconds = 60.0

        def create(self, *args: Any, **kwargs: Any) -> str:
            raise AssertionError("advance_journeys starts no journey")

        def claim(self, *args: Any, **kwargs: Any) -> Journey:
            raise AssertionError("advance_journeys runs no journey")

        def append(self, *args: Any, **kwargs: Any) -> None:
            raise AssertionError("advance_journeys writes with record() only")

        def find(self, identity: str) -> list[str]:
            looked.append(identity)
            return ["j-1"] if identity == NOWHERE_TX else []

        def record(self, journey_id: str, step: str, status: str, *_: Any, **kw: Any) -> None:
            recorded.append((journey_id, step, status, kw.get("state")))

        def journey(self, journey_id: str) -> Journey | None:
            return Journey("j-1", "deposit", "needs_attention", 0, 0, {}, rows)

        def journeys(self, *, states: Any = None) -> list[Journey]:
            raise AssertionError("a notification's journey is found by the index, not a scan")

    notification = _signed(sb, "gateway.deposit.finalized", {"txHash": NOWHERE_TX}, "n-3")
    assert advance_journeys(Memory(), notification) == ["j-1"]  # type: ignore[arg-type]
    assert recorded == [("j-1", "finalized", "ok", "completed")]
    assert looked == [NOWHERE_TX]


@pytest.mark.parametrize(
    ("journal", "notification", "argument"),
    [
        (None, "ok", "journal"),
        (42, "ok", "journal"),
        ("ok", {"notificationId": "n"}, "notification"),
        ("ok", b"{}", "notification"),
    ],
)
def test_bad_arguments_are_refused(
    sb: Sandbox, tmp_path: Path, journal: Any, notification: Any, argument: str
) -> None:
    if journal == "ok":
        journal = tmp_path / "j.db"
    if notification == "ok":
        notification = _signed(sb, "gateway.deposit.finalized", {}, "n-4")
    with pytest.raises(errors.InvalidInputError) as raised:
        advance_journeys(journal, notification)
    assert raised.value.argument == argument


def _signed(
    sb: Sandbox, notification_type: str, event: dict[str, Any], notification_id: str
) -> WebhookNotification:
    from xswap_sdk.gateway import verify_webhook

    body = sb.gateway.notification_body(notification_type, event, notification_id=notification_id)
    return verify_webhook(body, sb.gateway.sign_webhook(body), sb.gateway.webhook_public_key())
