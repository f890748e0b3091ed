"""``GatewayClient.recover_transfer``: a transfer attested but never minted, rescued from
its id alone (no journal, no signed intents), against the sandbox's Gateway and an
in-process destination chain; and every check of `plan_recovery`, which refuses,
named, whatever it cannot check."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from xswap_sdk import errors
from xswap_sdk.gateway import RecoveredTransfer, TransferDetails, build_transfer_intent
from xswap_sdk.gateway._recovery import plan_recovery
from xswap_sdk.journal import SQLiteJournal
from xswap_sdk.registry import DEFAULT_REGISTRY
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.sandbox._attestation import encode_attestation, sign_attestation
from xswap_sdk.signing import gateway_mint_call, sign_burn_intent
from xswap_sdk.signing._fields import pad_address
from xswap_sdk.testing import TEST_SIGNER

from ..support import recording_http_client, resolve
from .chain import ANSWERS_FALSE, ANSWERS_TRUE, destination, mints_sent

ME = TEST_SIGNER.address
RECIPIENT = "0x5a3Ca05337A87116A27A21b11cDE16D85efb3586"
OTHER = "0x" + "66" * 20
SOURCE = 42161
VALUE = 5_000_000
BASE = DEFAULT_REGISTRY.chain(8453)


def intent(**overrides: Any) -> Any:
    """A transfer from Arbitrum to Base (the test chain), to ``RECIPIENT``."""
    arguments: dict[str, Any] = {
        "source_chain_id": SOURCE,
        "destination_chain_id": 8453,
        "depositor": ME,
        "recipient": RECIPIENT,
        "value": VALUE,
        **overrides,
    }
    return build_transfer_intent(**arguments)


def client(sb: Sandbox, kind: str, **kwargs: Any) -> Any:
    return sb.gateway_client(**kwargs) if kind == "sync" else sb.async_gateway_client(**kwargs)


@pytest.fixture
def sb() -> Any:
    with Sandbox() as sandbox:
        sandbox.fund(ME, SOURCE, 30_000_000)
        yield sandbox


def stuck(sb: Sandbox, **overrides: Any) -> tuple[str, Any]:
    """A transfer attested and never minted; all that is kept is its id (and, for the
    test's own checks, what was signed)."""
    signed = sign_burn_intent(intent(**overrides), TEST_SIGNER)
    with sb.gateway_client() as gateway:
        result = gateway.transfer(signed)
    return result.transfer_id, signed


async def test_a_stuck_transfer_is_minted_from_its_id_alone(
    sb: Sandbox, kind: str, tmp_path: Path
) -> None:
    transfer_id, signed = stuck(sb)
    chain = destination(kind, minter=ANSWERS_FALSE)
    gateway = client(sb, kind, journal=tmp_path / "j.db")
    recovered = await resolve(
        gateway.recover_transfer(transfer_id, recipient=RECIPIENT, web3=chain, signer=TEST_SIGNER)
    )
    assert isinstance(recovered, RecoveredTransfer)
    assert (recovered.transfer_id, recovered.chain_id) == (transfer_id, 8453)
    assert (recovered.recipient, recovered.value) == (RECIPIENT, VALUE)
    assert (recovered.status, recovered.minted_already) == ("pending", False)
    assert await mints_sent(chain) == 1
    # What was sent is exactly the mint of the attestation of what was signed.
    details = sb.gateway_client().get_transfer(transfer_id)
    expected = gateway_mint_call(
        chain_id=8453,
        attestation=details.attestation.payload,
        signature=details.attestation.signature,
        intents=signed,
    )
    sent = await resolve(chain.eth.get_transaction(recovered.tx_hash))
    assert sent["to"] == BASE.gateway_minter
    assert "0x" + bytes(sent["input"]).hex() == expected.data
    # Sent as a call journey of the client's journal (resumable like send_call's).
    [journey] = SQLiteJournal(tmp_path / "j.db").journeys()
    assert (journey.id, journey.kind, journey.state) == (recovered.journey_id, "call", "completed")
    assert journey.last("minted").data["tx_hash"] == recovered.tx_hash  # type: ignore[union-attr]


async def test_a_transfer_the_minter_used_is_minted_already(sb: Sandbox, kind: str) -> None:
    transfer_id, _ = stuck(sb)
    chain = destination(kind, minter=ANSWERS_TRUE)
    gateway = client(sb, kind)
    recovered = await resolve(
        gateway.recover_transfer(transfer_id, recipient=RECIPIENT, web3=chain, signer=TEST_SIGNER)
    )
    assert recovered.minted_already
    assert (recovered.tx_hash, recovered.journey_id) == (None, None)  # Gateway names none yet
    assert await mints_sent(chain) == 0
    minted = "0x" + "ab" * 32
    sb.gateway.report_mint(transfer_id, minted)
    again = await resolve(
        gateway.recover_transfer(transfer_id, recipient=RECIPIENT, web3=chain, signer=TEST_SIGNER)
    )
    assert (again.minted_already, again.status, again.tx_hash) == (True, "confirmed", minted)
    assert await mints_sent(chain) == 0


async def test_a_transfer_to_someone_else_is_refused_and_nothing_sent(
    sb: Sandbox, kind: str
) -> None:
    transfer_id, _ = stuck(sb)
    chain = destination(kind, minter=ANSWERS_FALSE)
    with pytest.raises(errors.UnsafePayloadError) as caught:
        await resolve(
            client(sb, kind).recover_transfer(
                transfer_id, recipient=OTHER, web3=chain, signer=TEST_SIGNER
            )
        )
    assert caught.value.field == "attestation[0].spec.destinationRecipient"
    assert caught.value.received == pad_address(RECIPIENT)
    assert await mints_sent(chain) == 0


async def test_web3_on_another_chain_is_refused_before_anything_is_signed(
    sb: Sandbox, kind: str
) -> None:
    transfer_id, _ = stuck(sb)
    chain = destination(kind, chain_id=1, minter=ANSWERS_FALSE)
    with pytest.raises(errors.InvalidInputError, match="web3"):
        await resolve(
            client(sb, kind).recover_transfer(
                transfer_id, recipient=RECIPIENT, web3=chain, signer=TEST_SIGNER
            )
        )
    assert await mints_sent(chain) == 0


async def test_bad_arguments_are_refused_before_any_request(sb: Sandbox, kind: str) -> None:
    chain = destination(kind, minter=ANSWERS_FALSE)
    gateway = client(sb, kind)
    with pytest.raises(errors.InvalidInputError, match="transfer_id"):
        await resolve(
            gateway.recover_transfer("nope", recipient=RECIPIENT, web3=chain, signer=TEST_SIGNER)
        )
    transfer_id = "3c90c3cc-0d44-4b50-8888-8dd25736052a"
    with pytest.raises(errors.InvalidInputError, match="recipient"):
        await resolve(
            gateway.recover_transfer(transfer_id, recipient="0x12", web3=chain, signer=TEST_SIGNER)
        )
    with pytest.raises(errors.InvalidInputError, match="simulate"):
        await resolve(
            gateway.recover_transfer(
                transfer_id, recipient=RECIPIENT, web3=chain, signer=TEST_SIGNER, simulate="x"
            )
        )
    assert sb.requests.select("gateway", "GET", f"/v1/transfer/{transfer_id}") == []
    with pytest.raises(errors.NotFoundError):
        await resolve(
            gateway.recover_transfer(
                transfer_id, recipient=RECIPIENT, web3=chain, signer=TEST_SIGNER
            )
        )


# plan_recovery: every check, on Gateway's record tampered one field at a time.


def record(sb: Sandbox, transfer_id: str) -> dict[str, Any]:
    with sb.gateway_client() as gateway:
        return gateway.get_transfer(transfer_id).model_dump(mode="json", by_alias=True)


def plan(wire: dict[str, Any], recipient: str = RECIPIENT, sender: str = ME) -> Any:
    return plan_recovery(
        "3c90c3cc-0d44-4b50-8888-8dd25736052a",
        TransferDetails.model_validate(wire),
        recipient=recipient,
        sender=sender,
        registry=DEFAULT_REGISTRY,
        testnet=False,
    )


def reattested(wire: dict[str, Any], signed: Any, **changes: Any) -> dict[str, Any]:
    """``wire`` with an attestation of ``signed``'s spec changed by ``changes``, signed
    as the sandbox's Gateway signs."""
    payload = encode_attestation([(10**9, {**signed.intent.spec.to_wire(), **changes})])
    return {
        **wire,
        "attestation": {"payload": "0x" + payload.hex(), "signature": sign_attestation(payload)},
    }


def test_the_honest_record_plans_the_mint(sb: Sandbox) -> None:
    transfer_id, signed = stuck(sb)
    wire = record(sb, transfer_id)
    recovery = plan(wire)
    assert recovery.chain.chain_id == 8453
    assert recovery.value == VALUE
    assert recovery.call.to == BASE.gateway_minter
    assert [a.spec for a in recovery.attestations] == [signed.intent.spec]
    # The sandbox lists Circle's transferSpecHash: the hash the minter marks used.
    assert [a.spec_hash for a in recovery.attestations] == [
        wire["burnIntents"][0]["transferSpecHash"]
    ]
    assert [call.to for call in recovery.used_calls()] == [BASE.gateway_minter]
    assert recovery.minted_already([0]) is False
    assert recovery.minted_already([1]) is True


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"destinationToken": pad_address(OTHER)}, "attestation[0].spec.destinationToken"),
        ({"destinationContract": pad_address(OTHER)}, "attestation[0].spec.destinationContract"),
        ({"destinationDomain": 3}, "attestation[0].spec.destinationDomain"),
        ({"destinationRecipient": pad_address(OTHER)}, "attestation[0].spec.destinationRecipient"),
        ({"destinationCaller": pad_address(OTHER)}, "attestation[0].spec.destinationCaller"),
        ({"value": 0}, "attestation[0].spec.value"),
        ({"salt": "0x" + "77" * 32}, "attestation"),  # not this transfer's spec
    ],
)
def test_an_attestation_that_is_not_as_it_must_be_is_refused_named(
    sb: Sandbox, change: dict[str, Any], field: str
) -> None:
    transfer_id, signed = stuck(sb)
    with pytest.raises(errors.UnsafePayloadError) as caught:
        plan(reattested(record(sb, transfer_id), signed, **change))
    assert caught.value.field == field
    assert "Nothing was signed" in str(caught.value)


def test_a_destination_caller_of_the_signer_is_accepted(sb: Sandbox) -> None:
    transfer_id, signed = stuck(sb)
    wire = reattested(record(sb, transfer_id), signed, destinationCaller=pad_address(ME))
    # The spec changed: so does its hash, which Gateway would list.
    wire["burnIntents"] = [{"transferSpecHash": h} for h in _hashes(wire["attestation"]["payload"])]
    assert plan(wire, sender=ME).call.chain_id == 8453
    with pytest.raises(errors.UnsafePayloadError, match="destinationCaller"):
        plan(wire, sender=OTHER)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"attestation": None}, "transfer.attestation"),
        ({"attestation": {"payload": "0x12"}}, "transfer.attestation"),
        ({"destinationDomain": 99}, "transfer.destinationDomain"),
        ({"destinationDomain": None}, "transfer.destinationDomain"),
        ({"burnIntents": []}, "transfer.burnIntents[].transferSpecHash"),
        ({"burnIntents": [{"maxFee": "1"}]}, "transfer.burnIntents[].transferSpecHash"),
        ({"burnIntents": [{"transferSpecHash": "0x" + "00" * 32}]}, "attestation"),
    ],
)
def test_what_gateway_does_not_say_is_refused_named(
    sb: Sandbox, change: dict[str, Any], field: str
) -> None:
    transfer_id, _ = stuck(sb)
    with pytest.raises(errors.UnsafePayloadError) as caught:
        plan({**record(sb, transfer_id), **change})
    assert caught.value.field == field


def test_a_malformed_attestation_or_signature_is_refused(sb: Sandbox) -> None:
    transfer_id, _ = stuck(sb)
    wire = record(sb, transfer_id)
    short = {**wire, "attestation": {**wire["attestation"], "signature": "0x" + "11" * 64}}
    with pytest.raises(errors.UnsafePayloadError) as caught:
        plan(short)
    assert caught.value.field == "signature"
    garbage = {**wire, "attestation": {**wire["attestation"], "payload": "0xdeadbeef"}}
    with pytest.raises(errors.UnsafePayloadError) as caught:
        plan(garbage)
    assert caught.value.field == "attestation"


def test_an_expired_transfer_cannot_be_minted(sb: Sandbox) -> None:
    transfer_id, _ = stuck(sb)
    with pytest.raises(errors.TransferFailedError, match="expired") as caught:
        plan({**record(sb, transfer_id), "status": "expired"})
    assert caught.value.transfer_status == "expired"


def test_a_failed_forwarding_is_rescued(sb: Sandbox) -> None:
    transfer_id, _ = stuck(sb)
    assert plan({**record(sb, transfer_id), "status": "failed"}).status == "failed"


def test_specs_minted_by_another_attestation_are_refused(sb: Sandbox) -> None:
    transfer_id, _ = stuck(sb)
    two = build_transfer_intent(
        source_chain_id=SOURCE,
        destination_chain_id=8453,
        depositor=ME,
        recipient=RECIPIENT,
        value=1,
    )
    wire = record(sb, transfer_id)
    first = plan(wire)
    specs = [(10**9, a.spec.to_wire()) for a in first.attestations] + [(10**9, two.spec.to_wire())]
    payload = encode_attestation(specs)
    attestation = {"payload": "0x" + payload.hex(), "signature": sign_attestation(payload)}
    hashes = [{"transferSpecHash": h} for h in _hashes(payload)]
    both = plan({**wire, "attestation": attestation, "burnIntents": hashes})
    with pytest.raises(errors.UnsafePayloadError, match="1 of 2 used already"):
        both.minted_already([1, 0])


def _hashes(payload: bytes | str) -> list[str]:
    from xswap_sdk.signing.attestations import decode_attestation

    return [a.spec_hash for a in decode_attestation(payload)]


async def test_every_argument_of_recover_transfer_reaches_the_wire(sb: Sandbox, kind: str) -> None:
    http, seen = recording_http_client(sb, kind)
    transfer_id, _ = stuck(sb)
    chain = destination(kind, minter=ANSWERS_FALSE)
    recovered = await resolve(
        client(sb, kind, http_client=http).recover_transfer(
            transfer_id,
            recipient=RECIPIENT,
            web3=chain,
            signer=TEST_SIGNER,
            simulate=False,
            timeout=5.0,
            max_retries=0,
            deadline=60.0,
            extra_headers={"x-probe": "recover"},
            extra_query={"probe": "recover"},
        )
    )
    [request] = seen  # the read; the mint is chain I/O only
    assert request.url.path == f"/gateway/v1/transfer/{transfer_id}"
    assert request.headers["x-probe"] == "recover"
    assert request.url.params["probe"] == "recover"
    assert request.extensions["timeout"]["read"] == 5.0
    assert (recovered.simulation, await mints_sent(chain)) == (None, 1)
    await resolve(http.aclose() if kind == "async" else http.close())
