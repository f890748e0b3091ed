"""`GatewayClient.send_transfer` and `GatewayClient.mint` as journeys, against the
sandbox and an in-process destination chain (tests/gateway/chain.py): every step
written, the mint's signed bytes before they are broadcast, fee-floor re-quotes that
are checked and offered to ``accept_quote`` before they are signed, and arguments
refused before any I/O. Sync and async."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from xswap_sdk import errors
from xswap_sdk.gateway import TransferResult, build_transfer_intent
from xswap_sdk.journal import SQLiteJournal, StepEvent
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.sandbox._catalog import CHAINS
from xswap_sdk.signing import sign_burn_intent
from xswap_sdk.testing import TEST_SIGNER

from ..support import recording_http_client, resolve
from .chain import destination, mints_sent

ME = TEST_SIGNER.address
SOURCE = 42161  # Arbitrum: its gateway balance is spent
VALUE = 5_000_000
CAP = 1_000_000

TRANSFER_STEPS = [
    ("started", "started"),
    ("quoted", "ok"),
    ("verified", "ok"),
    ("signed", "ok"),
    ("submitted", "sending"),
    ("submitted", "ok"),
    ("attested", "ok"),
]
MINT_STEPS = [
    ("verified", "ok"),
    ("signed", "ok"),
    ("broadcast", "sending"),
    ("broadcast", "ok"),
    ("confirmed", "ok"),
    ("minted", "ok"),
]
SEND_STEPS = [*TRANSFER_STEPS, *MINT_STEPS, ("completed", "ok")]


def intent(value: int = VALUE) -> Any:
    """A transfer from Arbitrum to Base (the test chain), to the signer."""
    return build_transfer_intent(
        source_chain_id=SOURCE, destination_chain_id=8453, depositor=ME, recipient=ME, value=value
    )


def client(sb: Sandbox, kind: str, **kwargs: Any) -> Any:
    return sb.gateway_client(**kwargs) if kind == "sync" else sb.async_gateway_client(**kwargs)


def posted(sb: Sandbox, path: str = "/v1/transfer") -> int:
    return len(sb.requests.select("gateway", "POST", path, processed=True))


def steps(journey: Any) -> list[tuple[str, str]]:
    return [(s.step, s.status) for s in journey.steps]


@pytest.fixture
def sb() -> Any:
    with Sandbox() as sandbox:
        sandbox.fund(ME, SOURCE, 30_000_000)
        yield sandbox


@pytest.fixture
def chain(kind: str) -> Any:
    return destination(kind)


async def test_send_transfer_without_web3_ends_at_the_attestation(
    sb: Sandbox, kind: str, tmp_path: Path
) -> None:
    events: list[StepEvent] = []
    gateway = client(sb, kind, journal=tmp_path / "j.db", on_step=events.append)
    result = await resolve(gateway.send_transfer(TEST_SIGNER, intent(), max_fee_cap=CAP))
    [journey] = SQLiteJournal(tmp_path / "j.db").journeys()
    assert (journey.kind, journey.state, result.journey_id) == ("transfer", "completed", journey.id)
    assert steps(journey) == [*TRANSFER_STEPS, ("completed", "ok")]
    assert [(e.step, e.status) for e in events] == steps(journey)
    assert result.mint is None
    # The estimate's fee was taken (lower than the intent's own 2.01 USDC), not widened.
    sending = journey.last("submitted", "sending")
    assert sending is not None
    fee = int(sending.data["body"][0]["burnIntent"]["maxFee"])
    assert fee == CHAINS[SOURCE].gateway_min_fee
    assert fee < intent().max_fee
    assert result.mint_call(8453).chain_id == 8453


async def test_send_transfer_with_web3_mints_in_the_same_journey(
    sb: Sandbox, kind: str, chain: Any, tmp_path: Path
) -> None:
    gateway = client(sb, kind, journal=tmp_path / "j.db")
    result = await resolve(
        gateway.send_transfer(TEST_SIGNER, intent(), max_fee_cap=CAP, web3=chain)
    )
    [journey] = SQLiteJournal(tmp_path / "j.db").journeys()
    assert steps(journey) == SEND_STEPS
    assert journey.arguments["mint"] == {"chain_id": 8453, "simulate": "auto"}
    assert result.mint is not None
    assert (result.mint.transfer_id, result.mint.chain_id) == (result.transfer_id, 8453)
    assert result.mint.journey_id == journey.id
    # The signed bytes and their hash were written before they were broadcast.
    [mint_signed] = [
        s for s in journey.steps if s.step == "signed" and s.data.get("what") == "mint"
    ]
    assert mint_signed.data["raw"].startswith("0x")
    assert mint_signed.data["tx_hash"] == result.mint.tx_hash
    assert journey.last("minted").data["tx_hash"] == result.mint.tx_hash  # type: ignore[union-attr]
    assert await mints_sent(chain) == 1
    receipt = await resolve(chain.eth.get_transaction_receipt(result.mint.tx_hash))
    assert receipt["status"] == 1
    assert receipt["to"] == result.mint_call(8453).to


async def test_a_transfer_is_minted_as_a_mint_journey_of_its_own(
    sb: Sandbox, kind: str, chain: Any, tmp_path: Path
) -> None:
    gateway = client(sb, kind, journal=tmp_path / "j.db")
    result = await resolve(gateway.transfer(sign_burn_intent(intent(), TEST_SIGNER)))
    minted = await resolve(gateway.mint(result, web3=chain, signer=TEST_SIGNER))
    transfer, mint = SQLiteJournal(tmp_path / "j.db").journeys()
    assert (transfer.kind, transfer.state, transfer.id) == (
        "transfer",
        "completed",
        result.journey_id,
    )
    assert [s.step for s in transfer.steps] == [
        "started", "submitted", "submitted", "attested", "completed",
    ]  # fmt: skip
    assert (mint.kind, mint.state, mint.id) == ("mint", "completed", minted.journey_id)
    assert steps(mint) == [("started", "started"), *MINT_STEPS, ("completed", "ok")]
    assert minted.chain_id == 8453
    # Both are found by the transfer id (a webhook of the mint reaches both).
    journal = SQLiteJournal(tmp_path / "j.db")
    assert set(journal.find(result.transfer_id)) == {transfer.id, mint.id}
    assert await mints_sent(chain) == 1


async def test_a_transfer_with_no_journey_is_minted_as_a_mint_journey(
    sb: Sandbox, kind: str, chain: Any, tmp_path: Path
) -> None:
    result = await resolve(client(sb, kind).transfer(sign_burn_intent(intent(), TEST_SIGNER)))
    rebuilt = TransferResult.model_validate(result.model_dump()).with_intents([intent_of(result)])
    gateway = client(sb, kind, journal=tmp_path / "j.db")
    minted = await resolve(gateway.mint(rebuilt, web3=chain, signer=TEST_SIGNER, simulate=False))
    [journey] = SQLiteJournal(tmp_path / "j.db").journeys()
    assert (journey.kind, journey.state, minted.journey_id) == ("mint", "completed", journey.id)
    assert steps(journey) == [("started", "started"), *MINT_STEPS, ("completed", "ok")]
    assert minted.simulation is None
    assert await mints_sent(chain) == 1


def intent_of(result: TransferResult) -> Any:
    [only] = result.intents
    return only


async def test_a_mint_that_cannot_be_simulated_when_required_sends_nothing(
    sb: Sandbox, kind: str, chain: Any, tmp_path: Path
) -> None:
    gateway = client(sb, kind, journal=tmp_path / "j.db")
    with pytest.raises(errors.SimulationError):
        await resolve(
            gateway.send_transfer(TEST_SIGNER, intent(), max_fee_cap=CAP, web3=chain, simulate=True)
        )
    assert await mints_sent(chain) == 0
    [journey] = SQLiteJournal(tmp_path / "j.db").journeys()
    assert journey.last("attested") is not None
    # The transfer went (its money moved) and the attestation stays mintable: the
    # journey is not over, and says so.
    assert journey.state == "running"
    assert (journey.steps[-1].step, journey.steps[-1].status) == ("interrupted", "sent")
    # Resumed, simulate=True is journaled, and this node still cannot simulate.
    fresh = client(sb, kind, journal=tmp_path / "j.db")
    with pytest.raises(errors.SimulationError):
        await resolve(fresh.resume(journey.id, web3=chain, signer=TEST_SIGNER))
    assert await mints_sent(chain) == 0
    again = SQLiteJournal(tmp_path / "j.db").journey(journey.id)
    assert again is not None
    assert again.state == "running"
    assert [s.step for s in again.steps][-2:] == ["resumed", "interrupted"]


async def test_a_mint_on_the_wrong_chain_is_refused_before_anything_is_signed(
    sb: Sandbox, kind: str, tmp_path: Path
) -> None:
    wrong = destination(kind, chain_id=1)
    gateway = client(sb, kind, journal=tmp_path / "j.db")
    with pytest.raises(errors.InvalidInputError, match="web3"):
        await resolve(gateway.send_transfer(TEST_SIGNER, intent(), max_fee_cap=CAP, web3=wrong))
    assert sb.requests.select("gateway") == []
    assert SQLiteJournal(tmp_path / "j.db").journeys() == []


# ------------------------------------------------------------------------------ re-quotes


async def test_a_fee_floor_refusal_is_requoted_checked_and_offered(
    sb: Sandbox, kind: str, tmp_path: Path
) -> None:
    offered: list[Any] = []

    def accept(estimate: Any) -> bool:
        offered.append(estimate)
        return True

    sb.gateway.raise_fee_after_estimate(5_000)
    gateway = client(sb, kind, journal=tmp_path / "j.db")
    result = await resolve(
        gateway.send_transfer(
            TEST_SIGNER, intent(), max_fee_cap=CAP, requote=1, accept_quote=accept
        )
    )
    [journey] = SQLiteJournal(tmp_path / "j.db").journeys()
    assert [s.step for s in journey.steps] == [
        "started", "quoted", "verified", "signed", "submitted", "submitted", "requoted",
        "quoted", "verified", "signed", "submitted", "submitted", "attested", "completed",
    ]  # fmt: skip
    assert journey.steps[5].status == "sent"  # the 400: Gateway took nothing
    assert (posted(sb, "/v1/estimate"), posted(sb)) == (2, 2)
    assert len(offered) == 1  # the new estimate only
    first, second = [
        s.data["body"] for s in journey.steps if (s.step, s.status) == ("submitted", "sending")
    ]
    fee = [int(b[0]["burnIntent"]["maxFee"]) for b in (first, second)]
    assert fee[1] == fee[0] + 5_000
    assert journey.last("requoted").data["minimum_units"] == fee[1]  # type: ignore[union-attr]
    assert result.transfer_id in sb.gateway.transfer_ids


async def test_a_new_estimate_the_hook_declines_is_never_signed(
    sb: Sandbox, kind: str, tmp_path: Path
) -> None:
    sb.gateway.raise_fee_after_estimate(5_000)
    gateway = client(sb, kind, journal=tmp_path / "j.db")
    with pytest.raises(errors.QuoteRejectedError) as declined:
        await resolve(
            gateway.send_transfer(
                TEST_SIGNER, intent(), max_fee_cap=CAP, requote=2, accept_quote=lambda e: False
            )
        )
    assert declined.value.argument == "accept_quote"
    assert (posted(sb, "/v1/estimate"), posted(sb)) == (2, 1)
    [journey] = SQLiteJournal(tmp_path / "j.db").journeys()
    assert journey.state == "failed"
    assert [s.step for s in journey.steps].count("signed") == 1


async def test_a_new_fee_above_the_cap_is_refused_before_signing(
    sb: Sandbox, kind: str, tmp_path: Path
) -> None:
    sb.gateway.raise_fee_after_estimate(CAP)
    gateway = client(sb, kind, journal=tmp_path / "j.db")
    with pytest.raises(errors.QuoteRejectedError) as refused:
        await resolve(gateway.send_transfer(TEST_SIGNER, intent(), max_fee_cap=CAP, requote=3))
    assert refused.value.argument == "max_fee_cap"
    assert posted(sb) == 1
    [journey] = SQLiteJournal(tmp_path / "j.db").journeys()
    assert [s.step for s in journey.steps].count("signed") == 1


async def test_without_requote_the_fee_floor_refusal_is_raised(sb: Sandbox, kind: str) -> None:
    sb.gateway.raise_fee_after_estimate(5_000)
    with pytest.raises(errors.InsufficientMaxFeeError) as low:
        await resolve(client(sb, kind).send_transfer(TEST_SIGNER, intent(), max_fee_cap=CAP))
    assert low.value.sent == "sent"
    assert posted(sb) == 1


async def test_requote_runs_out(sb: Sandbox, kind: str) -> None:
    sb.gateway.raise_fee_after_estimate(5_000, count=3)
    with pytest.raises(errors.InsufficientMaxFeeError):
        await resolve(
            client(sb, kind).send_transfer(TEST_SIGNER, intent(), max_fee_cap=CAP, requote=2)
        )
    assert (posted(sb, "/v1/estimate"), posted(sb)) == (3, 3)


@pytest.mark.parametrize(
    ("arguments", "name"),
    [({"requote": -1}, "requote"), ({"requote": 6}, "requote"), ({"requote": True}, "requote"),
     ({"accept_quote": 3}, "accept_quote"), ({"max_fee_cap": -1}, "max_fee_cap"),
     ({"max_fee_cap": None}, "max_fee_cap"), ({"simulate": "yes", "web3": "w3"}, "simulate"),
     ({"enable_forwarder": True, "web3": "w3"}, "enable_forwarder"),
     ({"max_attestation_size": 0}, "max_attestation_size"),
     ({"intents": []}, "intents"), ({"intents": {"spec": {}}}, "intents")],
)  # fmt: skip
async def test_arguments_are_checked_before_any_io(
    sb: Sandbox, kind: str, arguments: dict[str, Any], name: str
) -> None:
    call = {"intents": intent(), "max_fee_cap": CAP, **arguments}
    with pytest.raises(errors.InvalidInputError, match=name):
        await resolve(client(sb, kind).send_transfer(TEST_SIGNER, **call))
    assert sb.requests.select("gateway") == []


async def test_an_intent_of_another_signer_is_refused_before_any_io(sb: Sandbox, kind: str) -> None:
    from eth_account import Account

    other = Account.from_key("0x" + "42" * 32)
    with pytest.raises(errors.InvalidInputError, match="source_signer"):
        await resolve(client(sb, kind).send_transfer(other, intent(), max_fee_cap=CAP))
    assert sb.requests.select("gateway") == []


async def test_a_list_of_intents_is_signed_as_one_set(sb: Sandbox, kind: str) -> None:
    result = await resolve(
        client(sb, kind).send_transfer(TEST_SIGNER, [intent(), intent(1_000_000)], max_fee_cap=CAP)
    )
    [request] = sb.requests.select("gateway", "POST", "/v1/transfer")
    import json

    [element] = json.loads(request.body)
    assert len(element["burnIntentSet"]["intents"]) == 2
    assert len(result.intents) == 2


async def test_every_argument_of_send_transfer_and_mint_reaches_the_wire(
    sb: Sandbox, kind: str, chain: Any
) -> None:
    http, seen = recording_http_client(sb, kind)
    gateway = client(sb, kind, http_client=http)
    result = await resolve(
        gateway.send_transfer(
            TEST_SIGNER,
            intent(),
            max_fee_cap=CAP,
            max_attestation_size=10_000,
            enable_forwarder=False,
            timeout=5.0,
            max_retries=0,
            deadline=60.0,
            extra_headers={"x-probe": "send"},
            extra_query={"probe": "send"},
        )
    )
    assert [r.url.path for r in seen] == ["/gateway/v1/estimate", "/gateway/v1/transfer"]
    for request in seen:
        assert request.headers["x-probe"] == "send"
        assert request.url.params["probe"] == "send"
        assert request.url.params["maxAttestationSize"] == "10000"
    assert seen[1].url.params["enableForwarder"] == "false"
    assert seen[1].extensions["timeout"]["read"] == 5.0
    seen.clear()
    minted = await resolve(
        gateway.mint(
            result,
            web3=chain,
            signer=TEST_SIGNER,
            chain_id=8453,
            simulate=False,
            extra_headers={"x-probe": "mint"},
        )
    )
    assert seen == []  # a mint is chain I/O only
    assert (minted.chain_id, minted.simulation) == (8453, None)
    assert await mints_sent(chain) == 1
    await resolve(http.aclose() if kind == "async" else http.close())


async def test_a_transfer_its_journey_minted_is_not_minted_again(
    sb: Sandbox, kind: str, chain: Any, tmp_path: Path
) -> None:
    gateway = client(sb, kind, journal=tmp_path / "j.db")
    result = await resolve(
        gateway.send_transfer(TEST_SIGNER, intent(), max_fee_cap=CAP, web3=chain)
    )
    with pytest.raises(errors.InvalidInputError, match="minted already"):
        await resolve(gateway.mint(result, web3=chain, signer=TEST_SIGNER))
    # Without a journal, the result itself says so.
    alone = client(sb, kind)
    with pytest.raises(errors.InvalidInputError, match="minted already"):
        await resolve(alone.mint(result, web3=chain, signer=TEST_SIGNER))
    # A journey that minted it says so too, for a result that no longer does.
    bare = result.model_copy()
    bare._mint = None
    with pytest.raises(errors.InvalidInputError, match="minted already"):
        await resolve(gateway.mint(bare, web3=chain, signer=TEST_SIGNER))
    assert await mints_sent(chain) == 1


def _other_recipient(body: Any) -> None:
    body[0]["burnIntent"]["spec"]["destinationRecipient"] = "0x" + "0b" * 20


def _nothing(body: Any) -> Any:
    return []


@pytest.mark.parametrize("edit", [_other_recipient, _nothing])
async def test_an_estimate_not_about_the_intents_is_never_signed(
    sb: Sandbox, kind: str, tmp_path: Path, edit: Any
) -> None:
    sb.faults.tamper(edit, service="gateway", path="/v1/estimate")
    gateway = client(sb, kind, journal=tmp_path / "j.db")
    with pytest.raises(errors.UnsafePayloadError):
        await resolve(gateway.send_transfer(TEST_SIGNER, intent(), max_fee_cap=CAP))
    assert posted(sb) == 0
    [journey] = SQLiteJournal(tmp_path / "j.db").journeys()
    assert journey.state == "failed"
    assert journey.last("signed") is None


async def test_the_clients_policy_sees_the_intents_and_the_mint(
    sb: Sandbox, kind: str, chain: Any, tmp_path: Path
) -> None:
    asked: list[str] = []

    def policy(request: Any) -> bool:
        asked.append(request.kind)
        return request.kind != "transaction"

    gateway = client(sb, kind, journal=tmp_path / "j.db", policy=policy)
    with pytest.raises(errors.PolicyRefusedError):
        await resolve(gateway.send_transfer(TEST_SIGNER, intent(), max_fee_cap=CAP, web3=chain))
    assert asked == ["burn_intent", "transaction"]
    assert await mints_sent(chain) == 0
    [journey] = SQLiteJournal(tmp_path / "j.db").journeys()
    signed = journey.last("signed")
    assert signed is not None
    assert [a["kind"] for a in signed.data["approved"]] == ["burn_intent"]
    # Refused before it was signed: the attestation is still there to mint, and the
    # journey, whose transfer went, is not over.
    assert journey.state == "running"
    assert journey.last("attested") is not None
