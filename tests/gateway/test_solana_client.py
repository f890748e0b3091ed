"""GatewayClient and AsyncGatewayClient with Solana: the bodies sent are the vectors'
byte for byte (a mocked API), and whole transfers run against the sandbox, whose Gateway
checks Ed25519 signatures with its own encoder and the cryptography package: a Solana
keypair spends a Gateway balance to Base, an EVM key spends to a Solana wallet, Solana to
Solana; deposits and balances of base58 depositors; a tampered estimate or attestation
of any field is refused before anything is signed or minted."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pytest_httpx import HTTPXMock
from solders.keypair import Keypair
from solders.pubkey import Pubkey

from xswap_sdk import errors
from xswap_sdk.chains import SOLANA
from xswap_sdk.gateway import apply_estimate, build_transfer_intent
from xswap_sdk.registry import DEFAULT_REGISTRY
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.signing import (
    ContractCall,
    decode_solana_attestation,
    sign_burn_intent,
    transfer_spec_hash,
)
from xswap_sdk.testing import TEST_SIGNER, TEST_SOLANA_ADDRESS

from ..support import Crash, crash_at, resolve
from .conftest import GATEWAY_URL
from .support import TRANSFER_ID

VECTORS = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "solana-gateway-vectors.json").read_text()
)
CASES = VECTORS["cases"]
DEPOSITOR = Keypair.from_seed(bytes.fromhex(VECTORS["keys"]["solana_depositor"]["seed_hex"][2:]))
ME = TEST_SIGNER.address
OWNER = VECTORS["keys"]["solana_recipient_owner"]["pubkey"]
OWNER_ATA = VECTORS["keys"]["solana_recipient_owner"]["usdc_ata_mainnet"]
PAYER = Keypair.from_seed(bytes([8] * 32)).pubkey()
MAINNET = DEFAULT_REGISTRY.chain(SOLANA)


def sent(httpx_mock: HTTPXMock, index: int = -1) -> Any:
    return json.loads(httpx_mock.get_requests()[index].content)


def bodies(sb: Sandbox, path: str) -> list[Any]:
    return [json.loads(r.body) for r in sb.requests.select("gateway", "POST", path)]


# ------------------------------------------------------------------------------ the bodies


def takes_the_transfer(httpx_mock: HTTPXMock) -> None:
    """Gateway takes the next ``POST /v1/transfer`` (201, a dummy attestation)."""
    answer = {
        "transferId": TRANSFER_ID,
        "attestation": "0x" + "aa" * 100,
        "signature": "0x" + "bb" * 65,
    }
    httpx_mock.add_response(
        url=f"{GATEWAY_URL}/v1/transfer", method="POST", json=answer, status_code=201
    )


@pytest.mark.parametrize("name", ["solana_to_base", "solana_to_solana", "base_to_solana"])
async def test_the_transfer_body_is_the_vectors_byte_for_byte(
    gateway: Any, httpx_mock: HTTPXMock, name: str
) -> None:
    case = CASES[name]
    signer = DEPOSITOR if case["source_family"] == "solana" else TEST_SIGNER
    if signer is TEST_SIGNER:
        from eth_account import Account

        signer = Account.from_key(VECTORS["keys"]["evm_signer"]["private_key"])
    signed = sign_burn_intent(build_transfer_intent(**case["build_args"]), signer)
    takes_the_transfer(httpx_mock)
    result = await resolve(gateway.transfer(signed))
    assert sent(httpx_mock) == case["transfer_body"]
    assert result.intents == (signed.intent,)


async def test_a_solana_and_an_evm_intent_go_in_one_transfer(
    gateway: Any, httpx_mock: HTTPXMock
) -> None:
    from eth_account import Account

    evm = Account.from_key(VECTORS["keys"]["evm_signer"]["private_key"])
    to_solana = sign_burn_intent(
        build_transfer_intent(**CASES["base_to_solana"]["build_args"]), evm
    )
    from_solana = sign_burn_intent(
        build_transfer_intent(**CASES["solana_to_solana"]["build_args"]), DEPOSITOR
    )
    takes_the_transfer(httpx_mock)
    await resolve(gateway.transfer([from_solana, to_solana]))
    assert sent(httpx_mock) == [
        CASES["solana_to_solana"]["transfer_body"][0],
        CASES["base_to_solana"]["transfer_body"][0],
    ]


async def test_balances_of_a_solana_depositor(gateway: Any, httpx_mock: HTTPXMock) -> None:
    entry = {"domain": 5, "depositor": TEST_SOLANA_ADDRESS, "balance": "12.500000"}
    httpx_mock.add_response(
        url=f"{GATEWAY_URL}/v1/balances", method="POST", json={"token": "USDC", "balances": [entry]}
    )
    balances = await resolve(gateway.get_balances(TEST_SOLANA_ADDRESS, chain_ids=[SOLANA]))
    assert sent(httpx_mock) == VECTORS["balances_request"]["body"]
    found = balances.for_domain(5, TEST_SOLANA_ADDRESS)
    assert found is not None
    assert found.balance == 12_500_000
    assert found.depositor == TEST_SOLANA_ADDRESS
    assert balances.for_domain(5, TEST_SOLANA_ADDRESS.lower()) is None  # base58 is case-sensitive
    with pytest.raises(errors.InvalidInputError, match="Solana address"):
        await resolve(gateway.get_balances(ME, chain_ids=[SOLANA]))
    assert len(httpx_mock.get_requests()) == 1


async def test_an_estimate_of_a_solana_intent_sends_its_wire_form(
    gateway: Any, httpx_mock: HTTPXMock
) -> None:
    case = CASES["solana_to_base"]
    intent = build_transfer_intent(**case["build_args"])
    echoed = {**case["intent_wire"], "maxBlockHeight": "380000000", "maxFee": "10000"}
    # Gateway may write a Solana account in base58 and leave an empty hookData out.
    echoed["spec"] = {
        key: value for key, value in case["intent_wire"]["spec"].items() if key != "hookData"
    }
    echoed["spec"]["sourceDepositor"] = TEST_SOLANA_ADDRESS
    httpx_mock.add_response(
        url=f"{GATEWAY_URL}/v1/estimate", method="POST", json=[{"burnIntent": echoed}]
    )
    [estimated] = await resolve(gateway.estimate(intent))
    assert sent(httpx_mock) == [case["intent_wire"]]
    applied = apply_estimate(intent, estimated)
    assert (applied.max_fee, applied.max_block_height) == (10_000, 380_000_000)


# ------------------------------------------------------------------------------ the sandbox


async def test_a_solana_keypair_spends_its_gateway_balance_to_base(
    sb: Sandbox, sb_gateway: Any
) -> None:
    sb.fund(TEST_SOLANA_ADDRESS, SOLANA, 10_000_000)
    balances = await resolve(sb_gateway.get_balances(TEST_SOLANA_ADDRESS))
    assert [(e.domain, e.balance) for e in balances.balances] == [(5, 10_000_000)]
    own = build_transfer_intent(
        source_chain_id=SOLANA,
        destination_chain_id=8453,
        depositor=TEST_SOLANA_ADDRESS,
        recipient=ME,
        value=4_000_000,
    )
    [estimated] = await resolve(sb_gateway.estimate(own))
    ready = apply_estimate(own, estimated)
    assert ready.max_block_height < 2**64 - 1  # a slot, Gateway's
    signed = sign_burn_intent(ready, DEPOSITOR)
    result = await resolve(sb_gateway.transfer(signed))
    call = result.mint_call(8453)
    assert isinstance(call, ContractCall)
    assert call.to == DEFAULT_REGISTRY.chain(8453).gateway_minter
    done = await resolve(sb_gateway.wait_for_transfer(result.transfer_id))
    assert done.status == "finalized"
    assert sb.gateway.balance(TEST_SOLANA_ADDRESS, SOLANA) == 10_000_000 - 4_000_000 - 10_000
    assert bodies(sb, "/v1/transfer")[-1] == [signed.to_wire()]


async def test_an_evm_key_spends_to_a_solana_wallet(sb: Sandbox, sb_gateway: Any) -> None:
    sb.fund(ME, 8453, 10_000_000)
    own = build_transfer_intent(
        source_chain_id=8453, destination_chain_id=SOLANA, depositor=ME, recipient=OWNER,
        value=3_000_000,
    )  # fmt: skip
    [estimated] = await resolve(sb_gateway.estimate(own))
    signed = sign_burn_intent(apply_estimate(own, estimated), TEST_SIGNER)
    result = await resolve(sb_gateway.transfer(signed))
    decoded = decode_solana_attestation(result.attestation)
    assert decoded.destination_contract == MAINNET.gateway_minter
    assert decoded.max_block_height == result.expiration_block
    [element] = decoded.elements
    assert (element.destination_recipient, element.value) == (OWNER_ATA, 3_000_000)
    assert element.transfer_spec_hash == transfer_spec_hash(signed.intent.spec)
    mint = result.mint_call(SOLANA, payer=PAYER)
    assert str(mint.program_id) == MAINNET.gateway_minter
    assert str(mint.accounts[8].pubkey) == OWNER_ATA
    assert (await resolve(sb_gateway.wait_for_transfer(result.transfer_id))).status == "finalized"


async def test_solana_to_solana_and_a_delegate(sb: Sandbox, sb_gateway: Any) -> None:
    hot = Keypair.from_seed(bytes([4] * 32))
    sb.fund(TEST_SOLANA_ADDRESS, SOLANA, 5_000_000)
    own = build_transfer_intent(
        source_chain_id=SOLANA, destination_chain_id=SOLANA, depositor=TEST_SOLANA_ADDRESS,
        source_signer=str(hot.pubkey()), recipient=OWNER, value=1_000_000,
    )  # fmt: skip
    signed = sign_burn_intent(own, hot)
    with pytest.raises(errors.BadRequestError, match="not authorized"):
        await resolve(sb_gateway.transfer(signed))
    sb.gateway.add_delegate(TEST_SOLANA_ADDRESS, str(hot.pubkey()))
    result = await resolve(sb_gateway.transfer(signed))
    assert (
        decode_solana_attestation(result.attestation).elements[0].destination_recipient == OWNER_ATA
    )
    assert sb.gateway.balance(TEST_SOLANA_ADDRESS, SOLANA) == 5_000_000 - 1_010_000


async def test_a_solana_deposit_counts_once_final(sb: Sandbox, sb_gateway: Any) -> None:
    final_at = sb.gateway.deposit(TEST_SOLANA_ADDRESS, SOLANA, 2_000_000)
    assert final_at - sb.clock.time() == pytest.approx(13)
    pending = await resolve(sb_gateway.get_deposits(TEST_SOLANA_ADDRESS, chain_ids=[SOLANA]))
    [deposit] = pending.deposits
    assert (deposit.domain, deposit.amount, deposit.depositor) == (
        5,
        2_000_000,
        TEST_SOLANA_ADDRESS,
    )
    assert not deposit.transaction_hash.startswith("0x")  # a base58 signature
    entry = await resolve(
        sb_gateway.wait_for_gateway_balance(TEST_SOLANA_ADDRESS, SOLANA, at_least=2_000_000)
    )
    assert entry.balance == 2_000_000
    with pytest.raises(errors.InvalidInputError):
        await resolve(sb_gateway.wait_for_gateway_balance(ME, SOLANA, at_least=1))


async def test_the_sandbox_checks_every_signed_field(sb: Sandbox, sb_gateway: Any) -> None:
    # Changed after signing, any field makes the Ed25519 signature fail: the sandbox
    # verifies it over its own encoding of what was sent.
    sb.fund(TEST_SOLANA_ADDRESS, SOLANA, 50_000_000)
    signed = sign_burn_intent(
        build_transfer_intent(
            source_chain_id=SOLANA, destination_chain_id=8453, depositor=TEST_SOLANA_ADDRESS,
            recipient=ME, value=1_000_000, max_block_height=2**63,
        ),
        DEPOSITOR,
    )  # fmt: skip
    wire = signed.intent.to_wire()
    changes: dict[str, Any] = {
        "maxBlockHeight": str(2**63 + 1),
        "maxFee": "2010001",
        "value": "1000001",
        "salt": "0x" + "77" * 32,
        "hookData": "0x01",
        "destinationRecipient": "0x" + "00" * 12 + "66" * 20,
        "destinationCaller": "0x" + "00" * 12 + "66" * 20,
    }
    http = sb.http_client()
    for name, value in changes.items():
        body = json.loads(json.dumps(wire))
        if name in ("maxBlockHeight", "maxFee"):
            body[name] = value
        else:
            body["spec"][name] = value
        answer = http.post(
            f"{sb.url('gateway')}/v1/transfer",
            json=[{"burnIntent": body, "signature": signed.signature}],
        )
        assert answer.status_code == 400, name
        assert "sourceSigner" in answer.json()["message"], name
    set_from_solana = {"burnIntentSet": {"intents": [wire]}, "signature": signed.signature}
    answer = http.post(f"{sb.url('gateway')}/v1/transfer", json=[set_from_solana])
    assert answer.status_code == 400
    assert "BurnIntentSets originating from Solana" in answer.json()["message"]
    assert not sb.gateway.transfer_ids
    await resolve(sb_gateway.transfer(signed))
    assert len(sb.gateway.transfer_ids) == 1


SPEC_FIELDS = [
    "version", "sourceDomain", "destinationDomain", "sourceContract", "destinationContract",
    "sourceToken", "destinationToken", "sourceDepositor", "destinationRecipient",
    "sourceSigner", "destinationCaller", "value", "salt", "hookData",
]  # fmt: skip


@pytest.mark.parametrize("direction", ["from_solana", "to_solana"])
@pytest.mark.parametrize("field", SPEC_FIELDS)
async def test_an_estimate_that_changes_any_field_is_refused_before_signing(
    sb: Sandbox, sb_gateway: Any, field: str, direction: str
) -> None:
    thief = str(Keypair.from_seed(bytes([6] * 32)).pubkey())
    forged: dict[str, Any] = {
        "version": 2, "sourceDomain": 3, "destinationDomain": 3, "value": "999999999",
        "salt": "0x" + "99" * 32, "hookData": "0xbeef",
    }  # fmt: skip

    def change(body: Any) -> None:
        spec = body[0]["burnIntent"]["spec"]
        spec[field] = forged.get(field, thief)

    sb.faults.tamper(change, service="gateway", path="/v1/estimate")
    if direction == "from_solana":
        own = build_transfer_intent(
            source_chain_id=SOLANA, destination_chain_id=8453, depositor=TEST_SOLANA_ADDRESS,
            recipient=ME, value=1_000_000,
        )  # fmt: skip
    else:
        own = build_transfer_intent(
            source_chain_id=8453, destination_chain_id=SOLANA, depositor=ME, recipient=OWNER,
            value=1_000_000,
        )  # fmt: skip
    [estimated] = await resolve(sb_gateway.estimate(own))
    with pytest.raises(errors.UnsafePayloadError) as info:
        apply_estimate(own, estimated)
    assert info.value.field == f"estimate.spec.{field}"


async def test_an_attestation_paying_someone_else_is_not_minted(
    sb: Sandbox, sb_gateway: Any
) -> None:
    thief = bytes(Keypair.from_seed(bytes([6] * 32)).pubkey())

    def redirect(body: Any) -> None:
        payload = bytearray(bytes.fromhex(body["attestation"][2:]))
        payload[88 + 32 : 88 + 64] = thief  # the first element's recipient
        from xswap_sdk.sandbox._attestation import sign_attestation

        body["attestation"] = "0x" + payload.hex()
        body["signature"] = sign_attestation(bytes(payload))

    sb.fund(ME, 8453, 10_000_000)
    sb.faults.tamper(redirect, service="gateway", path="/v1/transfer")
    own = build_transfer_intent(
        source_chain_id=8453, destination_chain_id=SOLANA, depositor=ME, recipient=OWNER,
        value=1_000_000,
    )  # fmt: skip
    result = await resolve(sb_gateway.transfer(sign_burn_intent(own, TEST_SIGNER)))
    with pytest.raises(errors.UnsafePayloadError) as info:
        result.mint_call(SOLANA, payer=PAYER)
    assert info.value.field == "attestation.elements[0].destinationRecipient"
    assert info.value.received == str(Pubkey(thief))


def test_the_http_controls_fund_a_solana_balance(sb: Sandbox) -> None:
    http = sb.http_client()
    body = {"address": TEST_SOLANA_ADDRESS, "chainId": SOLANA, "amount": "2500000"}
    answer = http.post(f"{sb.base_url}/sandbox/fund", json=body)
    assert answer.status_code == 200, answer.text
    assert answer.json()["balance"] == "2500000"
    assert sb.gateway.balance(TEST_SOLANA_ADDRESS, SOLANA) == 2_500_000
    wrong = http.post(f"{sb.base_url}/sandbox/fund", json={**body, "address": ME})
    assert wrong.status_code == 400
    assert "base58" in wrong.json()["message"]


# ------------------------------------------------------------------------------ send_transfer


def _solana_intent(value: int) -> Any:
    return build_transfer_intent(
        source_chain_id=SOLANA,
        destination_chain_id=8453,
        depositor=TEST_SOLANA_ADDRESS,
        recipient=ME,
        value=value,
    )


async def test_send_transfer_signs_each_solana_intent_alone_as_a_journey(
    sb: Sandbox, kind: str, tmp_path: Path
) -> None:
    from xswap_sdk.journal import open_journal

    sb.fund(TEST_SOLANA_ADDRESS, SOLANA, 10_000_000)
    path = tmp_path / "j.db"
    gateway = (
        sb.gateway_client(journal=path) if kind == "sync" else sb.async_gateway_client(journal=path)
    )
    intents = [_solana_intent(2_000_000), _solana_intent(1_000_000)]
    result = await resolve(gateway.send_transfer(DEPOSITOR, intents, max_fee_cap=50_000))
    [body] = bodies(sb, "/v1/transfer")
    # Gateway takes no burn intent set from Solana: two elements, each signed alone.
    assert [sorted(item) for item in body] == [["burnIntent", "signature"]] * 2
    assert all(len(item["signature"]) == 2 + 128 for item in body)  # Ed25519
    assert result.mint_call(8453).to == DEFAULT_REGISTRY.chain(8453).gateway_minter
    [journey] = open_journal(path).journeys()
    assert (journey.kind, journey.state, journey.terms["sender"]) == (
        "transfer",
        "completed",
        TEST_SOLANA_ADDRESS,
    )


async def _stopped_solana_transfer(
    sb: Sandbox, kind: str, path: Path, on_step: Callable[[Any], None]
) -> tuple[Any, Callable[..., Any]]:
    """A 3 USDC transfer from the Solana depositor that ``on_step`` stops with `Crash`:
    the journey the journal at ``path`` holds then, and the client factory to resume it."""
    from xswap_sdk.journal import open_journal

    sb.fund(TEST_SOLANA_ADDRESS, SOLANA, 10_000_000)
    make = sb.gateway_client if kind == "sync" else sb.async_gateway_client
    with pytest.raises(Crash):
        await resolve(
            make(journal=path, on_step=on_step).send_transfer(
                DEPOSITOR, _solana_intent(3_000_000), max_fee_cap=50_000
            )
        )
    [journey] = open_journal(path).journeys()
    return journey, make


async def test_send_transfer_killed_as_it_sends_from_solana_resumes_without_a_key(
    sb: Sandbox, kind: str, tmp_path: Path
) -> None:
    path = tmp_path / "j.db"
    journey, make = await _stopped_solana_transfer(sb, kind, path, crash_at(status="sending"))
    # The journaled Ed25519 signature is sent as it is: no key is needed, none is asked.
    resumed = await resolve(make(journal=path).resume(journey.id))
    assert resumed.state == "completed"
    assert len(bodies(sb, "/v1/transfer")) == 1
    assert sb.gateway.balance(TEST_SOLANA_ADDRESS, SOLANA) < 10_000_000 - 3_000_000


async def test_a_solana_transfer_stopped_before_signing_resumes_with_its_solana_signer(
    sb: Sandbox, kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "j.db"
    journey, make = await _stopped_solana_transfer(sb, kind, path, crash_at(step="verified"))
    # An EVM key in the environment is not this journey's signer: it is left out, and
    # the resume says what it lacks instead of refusing the key it was never given.
    monkeypatch.setenv("XSWAP_PRIVATE_KEY", "0x" + "11" * 32)
    with pytest.raises(errors.MissingCredentialsError) as missing:
        await resolve(make(journal=path).resume(journey.id, restart=True))
    assert missing.value.argument == "signer"
    # An EVM signer passed in is refused, naming the journey's Solana key.
    with pytest.raises(errors.InvalidInputError) as refused:
        await resolve(make(journal=path).resume(journey.id, restart=True, signer=TEST_SIGNER))
    assert refused.value.argument == "signer"
    assert str(DEPOSITOR.pubkey()) in str(refused.value)
    assert bodies(sb, "/v1/transfer") == []
    # The Solana keypair signs the intent it had not signed, and the transfer ends.
    resumed = await resolve(make(journal=path).resume(journey.id, restart=True, signer=DEPOSITOR))
    assert resumed.state == "completed"
    assert len(bodies(sb, "/v1/transfer")) == 1


async def test_send_transfer_refuses_web3_for_a_mint_on_solana(sb_gateway: Any) -> None:
    intent = build_transfer_intent(
        source_chain_id=8453, destination_chain_id=SOLANA, depositor=ME, recipient=OWNER,
        value=1_000_000,
    )  # fmt: skip
    with pytest.raises(errors.InvalidInputError) as refused:
        await resolve(
            sb_gateway.send_transfer(TEST_SIGNER, intent, max_fee_cap=50_000, web3=object())
        )
    assert refused.value.argument == "web3"
