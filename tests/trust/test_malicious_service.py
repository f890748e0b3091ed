"""A malicious service, played by the sandbox's tamper rules: every tamper is refused
with UnsafePayloadError before anything is signed, nothing is submitted, and the
caller's key signed nothing over the tampered content. The honest flows still pass.

The caller's key lives only in a `RecordingSigner` (a signer that is not a local key,
so the SDK hands it every message in full): what it was asked to sign is the complete
list of signatures the key made.
"""

from __future__ import annotations

from typing import Any

import pytest

from xswap_sdk import errors
from xswap_sdk.flash import _swap as swaps
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.sandbox._catalog import CHAINS
from xswap_sdk.sandbox.faults import REMOVE
from xswap_sdk.signing import build_burn_intent, burn_intent_typed_data

from ..support import resolve
from .support import (
    ATTACKER,
    GASLESS,
    SWAP,
    TEST_ADDRESS,
    USDC_ARBITRUM,
    USDC_BASE,
    WETH_BASE,
    RecordingSigner,
    run_flow,
)


def flash(sb: Sandbox, kind: str, signer: RecordingSigner) -> Any:
    return sb.flash_client(signer) if kind == "sync" else sb.async_flash_client(signer)


def routing(sb: Sandbox, kind: str) -> Any:
    return sb.routing_client() if kind == "sync" else sb.async_routing_client()


def nothing_submitted(sb: Sandbox) -> bool:
    return not sb.requests.select("flash", "POST", "/swap") and not sb.requests.select(
        "routing", "POST", "/gasless/submit-swap"
    )


def only_logged_in(signer: RecordingSigner) -> None:
    """The key signed the honest login message, and nothing else."""
    assert signer.typed == []
    assert len(signer.messages) == 1
    assert TEST_ADDRESS.encode() in signer.messages[0].body


# ------------------------------------------------------------------ honest flows


async def test_the_honest_swap_and_gasless_swap_still_pass(
    sb: Sandbox, kind: str, signer: RecordingSigner
) -> None:
    submission = await resolve(flash(sb, kind, signer).swap(signer, **SWAP))
    assert submission.status == "pending"
    (order,) = signer.typed
    assert order["primaryType"] == "BurnIntentSet"
    result = await resolve(routing(sb, kind).gasless_swap(signer, **GASLESS))
    assert result.submission.swap_id
    # A witness by default: the signature names the receiver, destination and minimum.
    assert signer.typed[1]["primaryType"] == "PermitWitnessTransferFrom"
    assert len(sb.requests.select("flash", "POST", "/swap", processed=True)) == 1


# ------------------------------------------------------------------ flash quotes


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"swap_router_address": ATTACKER}, "quote.swap_router_address"),
        ({"token_out.address": WETH_BASE}, "quote.token_out.address"),
        ({"token_in.amount": "4000000"}, "quote.token_in.amount"),
        ({"fees.gateway_fee": "60000000"}, "quote.fees.gateway_fee"),
    ],
    ids=["router", "token-out", "amount", "fee"],
)
async def test_a_tampered_flash_quote_is_refused(
    sb: Sandbox, kind: str, signer: RecordingSigner, changes: dict[str, Any], field: str
) -> None:
    rule = sb.faults.tamper_flash_quote(changes)
    with pytest.raises(errors.UnsafePayloadError) as info:
        await resolve(flash(sb, kind, signer).swap(signer, **SWAP))
    assert rule.hits == 1
    assert info.value.field == field
    assert nothing_submitted(sb)
    only_logged_in(signer)


async def test_a_quote_without_an_expiry_is_refused(
    sb: Sandbox, kind: str, signer: RecordingSigner
) -> None:
    # A quote that never expires could be executed at any later price; the spec's quote
    # has expires_at, so one without it does not even parse.
    sb.faults.tamper_flash_quote({"expires_at": REMOVE})
    with pytest.raises(errors.ResponseValidationError, match="expires_at"):
        await resolve(flash(sb, kind, signer).swap(signer, **SWAP))
    assert nothing_submitted(sb)
    only_logged_in(signer)


async def test_hook_data_that_the_router_cannot_have_made_is_refused(
    sb: Sandbox, kind: str, signer: RecordingSigner
) -> None:
    # The sandbox router's format is known: hook data not in it is refused before signing.
    sb.faults.tamper_flash_quote({"hook_data": "0xdeadbeef"})
    with pytest.raises(errors.UnsafePayloadError) as info:
        await resolve(flash(sb, kind, signer).swap(signer, **SWAP))
    assert info.value.field == "quote.hook_data"
    assert nothing_submitted(sb)
    only_logged_in(signer)


# ------------------------------------------------------------------ flash chain lists


@pytest.mark.parametrize(
    ("chain_id", "changes", "field"),
    [
        (42161, {"domain": 0}, "chains[42161].domain"),
        (8453, {"domain": 3}, "chains[8453].domain"),
        (8453, {"gatewayWallet": ATTACKER}, "chains[8453].gatewayWallet"),
        (42161, {"gatewayMinter": ATTACKER}, "chains[42161].gatewayMinter"),
        (8453, {"usdc.address": ATTACKER}, "chains[8453].usdc.address"),
        (42161, {"usdc.address": ATTACKER}, "chains[42161].usdc.address"),
        (42161, {"routerAddress": ATTACKER}, "quote.swap_router_address"),
    ],
    ids=["dest-domain", "same-domain", "wallet", "minter", "usdc-source", "usdc-dest", "router"],
)
async def test_a_tampered_chain_list_is_refused(
    sb: Sandbox,
    kind: str,
    signer: RecordingSigner,
    chain_id: int,
    changes: dict[str, Any],
    field: str,
) -> None:
    sb.faults.tamper_flash_chains(chain_id, changes)
    with pytest.raises(errors.UnsafePayloadError) as info:
        await resolve(flash(sb, kind, signer).swap(signer, **SWAP))
    assert info.value.field == field
    assert nothing_submitted(sb)
    only_logged_in(signer)


async def test_a_router_changed_everywhere_is_refused_by_default(
    sb: Sandbox, kind: str, signer: RecordingSigner
) -> None:
    # A backend that lies consistently (chain list and quote) names a router nobody
    # pinned: refused with the default settings.
    sb.faults.tamper_flash_chains(42161, {"routerAddress": ATTACKER})
    sb.faults.tamper_flash_quote({"swap_router_address": ATTACKER})
    with pytest.raises(errors.UnsafePayloadError) as info:
        await resolve(flash(sb, kind, signer).swap(signer, **SWAP))
    assert info.value.field == "quote.swap_router_address"
    assert nothing_submitted(sb)
    only_logged_in(signer)


async def test_an_output_below_min_amount_out_is_refused(
    sb: Sandbox, kind: str, signer: RecordingSigner
) -> None:
    sb.faults.tamper_flash_quote({"token_out.amount": "1"})
    client = flash(sb, kind, signer)
    plan = swaps.plan_swap(
        signer,
        **SWAP,
        recipient=None,
        sources=None,
        max_fee_cap=None,
        wait=False,
        wait_timeout=60,
        poll_interval=5,
        min_amount_out=10**15,
    )
    with pytest.raises(errors.UnsafePayloadError) as info:
        await run_flow(client, swaps.swap(plan, clock=sb.clock), signer)
    assert info.value.field == "quote.token_out.amount"
    assert nothing_submitted(sb)


# ------------------------------------------------------------------ gasless payloads

SPENDER_BASE = CHAINS[8453].routing_contract


@pytest.mark.parametrize(
    ("mode", "changes", "field"),
    [
        (2, {"eip712.message.spender": ATTACKER}, "eip712.message.spender"),
        (2, {"eip712.message.permitted.amount": str(2**256 - 1)}, "permitted.amount"),
        (2, {"eip712.message.permitted.token": WETH_BASE}, "permitted.token"),
        (2, {"eip712.message.deadline": str(2**48), "deadline": 2**48}, "deadline"),
        (2, {"eip712.message.nonce": "1"}, "eip712.message.nonce"),
        (2, {"eip712.domain.chainId": 1}, "eip712.domain.chainId"),
        (2, {"eip712.domain.name": "Permit3"}, "eip712.domain.name"),
        (2, {"eip712.domain.verifyingContract": ATTACKER}, "verifyingContract"),
        (2, {"eip712.domain.version": "1"}, "eip712.domain keys"),
        (2, {"eip712.primaryType": "PermitWitnessTransferFrom"}, "eip712.primaryType"),
        (2, {"eip712.types.TokenPermissions.1.type": "uint160"}, "TokenPermissions"),
        (2, {"eip712.message.extra": "1"}, "eip712.message keys"),
        (3, {"eip712.message.witness.receiver": ATTACKER}, "witness.receiver"),
        (3, {"eip712.message.witness.toChainId": "10"}, "witness.toChainId"),
        (3, {"eip712.message.witness.toToken": WETH_BASE}, "witness.toToken"),
        (3, {"eip712.message.witness.minAmountOut": "1"}, "witness.minAmountOut"),
        (3, {"eip712.message.witness.quoteId": "0x" + "00" * 32}, "witness.quoteId"),
        (3, {"eip712.types.SwapWitness.4.type": "uint8"}, "eip712.types.SwapWitness"),
    ],
)
async def test_a_tampered_gasless_payload_is_refused(
    sb: Sandbox,
    kind: str,
    signer: RecordingSigner,
    mode: int,
    changes: dict[str, Any],
    field: str,
) -> None:
    sb.faults.tamper_gasless_quote(changes)
    with pytest.raises(errors.UnsafePayloadError) as info:
        await resolve(routing(sb, kind).gasless_swap(signer, **GASLESS, acquisition_mode=mode))
    assert field in info.value.field
    assert "was refused" in str(info.value)
    assert nothing_submitted(sb)
    assert signer.typed == []


def _issue_payloads() -> dict[str, dict[str, Any]]:
    """What issue 9 saw signed as given: a USDC permit for 2**256 - 1 to a stranger with
    no deadline, and a Gateway burn intent moving 5,000 USDC of the caller's balance."""
    permit = {
        "types": {
            "EIP712Domain": [
                {"name": "name", "type": "string"},
                {"name": "version", "type": "string"},
                {"name": "chainId", "type": "uint256"},
                {"name": "verifyingContract", "type": "address"},
            ],
            "Permit": [
                {"name": "owner", "type": "address"},
                {"name": "spender", "type": "address"},
                {"name": "value", "type": "uint256"},
                {"name": "nonce", "type": "uint256"},
                {"name": "deadline", "type": "uint256"},
            ],
        },
        "domain": {"name": "USD Coin", "version": "2", "chainId": 8453,
                   "verifyingContract": USDC_BASE},
        "primaryType": "Permit",
        "message": {"owner": TEST_ADDRESS, "spender": ATTACKER, "value": str(2**256 - 1),
                    "nonce": "0", "deadline": str(2**256 - 1)},
    }  # fmt: skip
    burn = burn_intent_typed_data(
        build_burn_intent(
            source_domain=6,
            destination_domain=3,
            source_contract="0x77777777Dcc4d5A8B6E418Fd04D8997ef11000eE",
            destination_contract="0x2222222d7164433c4C09B0b0D809a9b52C04C205",
            source_token=USDC_BASE,
            destination_token="0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
            user=TEST_ADDRESS,
            recipient=ATTACKER,
            value=5_000_000_000,
        )
    )
    return {"permit": permit, "burn-intent": burn}


@pytest.mark.parametrize("name", ["permit", "burn-intent"])
async def test_the_payloads_of_the_issue_are_refused(
    sb: Sandbox, kind: str, signer: RecordingSigner, name: str
) -> None:
    sb.faults.tamper_gasless_quote({"eip712": _issue_payloads()[name]})
    with pytest.raises(errors.UnsafePayloadError):
        await resolve(routing(sb, kind).gasless_swap(signer, **GASLESS))
    assert nothing_submitted(sb)
    assert signer.typed == []


async def test_a_tampered_service_contract_alone_is_caught(
    sb: Sandbox, kind: str, signer: RecordingSigner
) -> None:
    # The chain list says the routing contract is the attacker's, the quote does not.
    def edit(body: Any) -> None:
        for chain in body["data"]:
            if chain["id"] in (8453, 42161):
                chain["serviceContract"] = ATTACKER

    sb.faults.tamper(edit, service="routing", path="/supported-chains", times=None)
    # Pinned (the sandbox's clients pin its contracts): the list is not even read.
    result = await resolve(routing(sb, kind).gasless_swap(signer, **GASLESS))
    assert result.submission.swap_id
    assert not sb.requests.select("routing", "GET", "/supported-chains")
    # Unpinned (the registry pins Base only), the default refuses before any request;
    # trusting the service, its tampered list decides the spender to expect.
    arbitrum = {**GASLESS, "from_chain": 42161, "from_token": USDC_ARBITRUM,
                "to_chain": 8453, "to_token": WETH_BASE}  # fmt: skip
    make = sb.routing_client if kind == "sync" else sb.async_routing_client
    asked = len(sb.requests)
    with pytest.raises(errors.UnsafePayloadError) as info:
        await resolve(make(routing_contracts={}).gasless_swap(signer, **arbitrum))
    assert info.value.field == "routing_contracts[42161]"
    assert "unsafe_trust_service_parties" in str(info.value)
    assert len(sb.requests) == asked  # refused before any request
    client = make(routing_contracts={}, unsafe_trust_service_parties=True)
    with pytest.raises(errors.UnsafePayloadError) as info:
        await resolve(client.gasless_swap(signer, **arbitrum))
    assert info.value.field == "eip712.message.spender"
    assert len(sb.requests.select("routing", "POST", "/gasless/submit-swap")) == 1
    assert len(signer.typed) == 1  # only the honest swap's permit


async def test_signing_unverified_is_possible_only_when_asked_loudly(
    sb: Sandbox, kind: str, signer: RecordingSigner, caplog: pytest.LogCaptureFixture
) -> None:
    # The opt-in is a parameter of the flow; the client argument is the lead's to add.
    from xswap_sdk.routing import _gasless as gasless

    sb.faults.tamper_gasless_quote({"eip712.message.nonce": "1"})
    client = routing(sb, kind)
    flow = gasless.gasless_swap(
        client.paths,
        signer,
        wait=False,
        wait_timeout=60,
        poll_interval=5,
        is_done=None,
        clock=sb.clock,
        sign_unverified_payload=True,
        **GASLESS,
    )
    with (
        caplog.at_level("WARNING", logger="xswap_sdk"),
        pytest.raises(errors.BadRequestError, match="not signed by the sender"),
    ):
        await run_flow(client, flow)
    assert any("sign_unverified_payload=True" in r.getMessage() for r in caplog.records)
    # What the opt-in does: the caller's key signed the tampered payload as given. (The
    # sandbox knows its own payload, so it refuses the signature.)
    (signed,) = signer.typed
    assert signed["message"]["nonce"] == "1"
    assert not sb.requests.select("routing", "GET", "/supported-chains")


# ------------------------------------------------------------------ login messages


@pytest.mark.parametrize(
    "tampered",
    [
        "evil.example wants you to sign in with your Ethereum account:\n"
        f"{TEST_ADDRESS}\n\nURI: https://evil.example\nVersion: 1\nChain ID: 1\n"
        "Nonce: 12345678\nIssued At: 2025-01-01T00:00:00Z",
        "Sign in to the swap backend. Nonce: 1",
    ],
    ids=["another-site", "no-account"],
)
async def test_a_tampered_login_message_is_refused(
    sb: Sandbox, kind: str, signer: RecordingSigner, tampered: str
) -> None:
    sb.faults.tamper_login_message(tampered)
    client = flash(sb, kind, signer)
    with pytest.raises(errors.UnsafePayloadError) as info:
        await resolve(client.login())
    assert info.value.field.startswith("auth message")
    assert signer.messages == []  # the key was asked to sign nothing
    assert not sb.requests.select("flash", "POST", "/auth/verify")
    # The honest message is signed the next time.
    await resolve(client.login())
    only_logged_in(signer)


async def test_a_backend_that_keeps_refusing_the_session_gets_three_logins_a_minute(
    sb: Sandbox, kind: str, signer: RecordingSigner
) -> None:
    # Every token the backend issues is refused: each call logs in again once (never in
    # a loop), and the fourth login within a minute is refused before anything is signed.
    sb.flash.accounts.token_lifetime = 0.0  # every JWT has expired when it is used
    client = flash(sb, kind, signer)
    failures = []
    for _ in range(3):
        with pytest.raises((errors.AuthenticationError, errors.LoginError)) as info:
            await resolve(client.get_history())
        failures.append(type(info.value))
    assert failures == [
        errors.AuthenticationError,
        errors.AuthenticationError,
        errors.LoginRateLimitError,
    ]
    assert len(signer.messages) == 3  # never more than the budget
    assert "login cap reached: the SDK signs at most 3 login messages a minute" in str(info.value)
