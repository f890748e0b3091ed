"""Clients made with ``policy=`` end to end against the sandbox, sync and async: the
policy's hook sees what is signed, described from the payload, and a refusal means
nothing was signed and nothing was sent."""

from __future__ import annotations

from typing import Any

import pytest

from xswap_sdk import errors
from xswap_sdk.policy import Policy, use_policy
from xswap_sdk.registry import DEFAULT_REGISTRY
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.signing import sign_authorization
from xswap_sdk.testing import TEST_SIGNER

from ..support import resolve
from .support import BASE, Hook

WETH_ARB = "0x82aF49447D8a07e3bd95BD0d56f35241523fBab1"
SWAP = {"input_amount": 60_000_000, "output_token": WETH_ARB, "chain_id": 42161, "slippage": "0.5"}
GASLESS = {
    "from_chain": 8453,
    "to_chain": 42161,
    "from_token": BASE.usdc,
    "to_token": WETH_ARB,
    "amount": 250_000_000,
}
DELEGATE = "0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B"


def flash_client(sb: Sandbox, kind: str, **kwargs: Any) -> Any:
    make = sb.flash_client if kind == "sync" else sb.async_flash_client
    return make(TEST_SIGNER, **kwargs)


def routing_client(sb: Sandbox, kind: str, **kwargs: Any) -> Any:
    return (sb.routing_client if kind == "sync" else sb.async_routing_client)(**kwargs)


def relayer_client(sb: Sandbox, kind: str, **kwargs: Any) -> Any:
    return (sb.relayer_client if kind == "sync" else sb.async_relayer_client)(**kwargs)


def fund(sb: Sandbox) -> None:
    sb.fund(TEST_SIGNER.address, 8453, 50_000_000)
    sb.fund(TEST_SIGNER.address, 42161, 50_000_000)


async def test_a_flash_swap_shows_the_hook_its_login_and_its_order(sb: Sandbox, kind: str) -> None:
    fund(sb)
    hook = Hook()
    flash = flash_client(sb, kind, policy=hook)
    await resolve(flash.swap(TEST_SIGNER, **SWAP))
    login, order = hook.seen
    assert login.kind == "login"
    assert login.counterparty == "sandbox.invalid"
    assert login.signer == TEST_SIGNER.address
    assert login.expires_at is not None
    assert login.details["text"].startswith("sandbox.invalid wants you to sign in")
    chains = {chain.id: chain for chain in await resolve(flash.get_supported_chains())}
    router = chains[42161].router_address
    assert order.kind == "burn_intent_set"
    assert order.amount == SWAP["input_amount"]
    assert order.counterparty == router
    assert {leg.chain_id for leg in order.legs} == {8453, 42161}
    assert sum(leg.amount for leg in order.legs) == order.amount
    assert order.fee == sum(leg.fee for leg in order.legs)
    for leg in order.legs:
        assert leg.kind == "burn_intent"
        assert leg.token == DEFAULT_REGISTRY.chain(leg.chain_id).usdc
        assert leg.details["destination_chain_id"] == 42161
        assert leg.expires_at is None  # a block height, not a time
        assert "max_block_height" in leg.details
    assert len(sb.requests.select("flash", "POST", "/swap")) == 1


async def test_a_refused_order_is_neither_signed_nor_sent(sb: Sandbox, kind: str) -> None:
    fund(sb)
    flash = flash_client(sb, kind, policy=Policy(max_per_signature=50_000_000))
    with pytest.raises(errors.PolicyRefusedError) as caught:
        await resolve(flash.swap(TEST_SIGNER, **SWAP))
    assert caught.value.rule == "max_per_signature"
    assert caught.value.request.amount == 60_000_000
    assert sb.requests.select("flash", "POST", "/swap") == []


async def test_a_daily_cap_is_shared_by_two_clients_and_their_copies(
    sb: Sandbox, kind: str
) -> None:
    fund(sb)
    policy = Policy(max_per_day=15_000_000)
    order = {**SWAP, "input_amount": 10_000_000, "chain_id": 8453, "output_token": BASE.usdc}
    first = flash_client(sb, kind, policy=policy)
    second = flash_client(sb, kind).with_options(policy=policy)
    assert second.policy is policy
    await resolve(first.swap(TEST_SIGNER, **order))
    with pytest.raises(errors.PolicyRefusedError) as caught:
        await resolve(second.swap(TEST_SIGNER, **order))
    assert caught.value.rule == "max_per_day"
    assert len(sb.requests.select("flash", "POST", "/swap")) == 1
    # Without the policy the copy signs: the policy is the client's, not global.
    await resolve(second.with_options(policy=None).swap(TEST_SIGNER, **order))
    assert len(sb.requests.select("flash", "POST", "/swap")) == 2


async def test_a_refused_login_is_not_sent(sb: Sandbox, kind: str) -> None:
    hook = Hook(False)
    flash = flash_client(sb, kind, policy=Policy(approve=hook))
    with pytest.raises(errors.PolicyRefusedError) as caught:
        await resolve(flash.login())
    assert caught.value.rule == "approve"
    assert [request.kind for request in hook.seen] == ["login"]
    assert sb.requests.select("flash", "POST", "/auth/verify") == []
    assert flash.session is None


async def test_a_login_outside_the_allowed_sites_is_refused(sb: Sandbox, kind: str) -> None:
    allowed = flash_client(sb, kind, policy=Policy(allowed_counterparties=["sandbox.invalid"]))
    assert (await resolve(allowed.login())).user_address == TEST_SIGNER.address
    other = flash_client(sb, kind, policy=Policy(allowed_counterparties=["flash.example"]))
    with pytest.raises(errors.PolicyRefusedError, match="allowed_counterparties"):
        await resolve(other.get_referrals())  # logs in first, refused before signing
    assert len(sb.requests.select("flash", "POST", "/auth/verify")) == 1


async def test_a_gasless_swap_shows_the_hook_its_permit2_transfer(sb: Sandbox, kind: str) -> None:
    hook = Hook()
    routing = routing_client(sb, kind, policy=hook)
    await resolve(routing.gasless_swap(TEST_SIGNER, **GASLESS, acquisition_mode=3))
    (permit,) = hook.seen
    chains = {chain.id: chain for chain in await resolve(routing.get_supported_chains())}
    assert permit.kind == "permit2"
    assert permit.chain_id == 8453
    assert permit.token == BASE.usdc
    assert permit.amount == GASLESS["amount"]
    assert permit.counterparty == chains[8453].service_contract
    assert permit.expires_at is not None
    assert permit.details["primary_type"] == "PermitWitnessTransferFrom"
    assert permit.details["witness"]["receiver"] == TEST_SIGNER.address
    assert len(sb.requests.select("routing", "POST", "/gasless/submit-swap")) == 1


async def test_a_refused_gasless_swap_is_not_submitted(sb: Sandbox, kind: str) -> None:
    routing = routing_client(sb, kind, policy=Policy(allowed_tokens=[WETH_ARB]))
    with pytest.raises(errors.PolicyRefusedError, match="allowed_tokens"):
        await resolve(routing.gasless_swap(TEST_SIGNER, **GASLESS))
    assert sb.requests.select("routing", "POST", "/gasless/submit-swap") == []


async def test_an_eip7702_authorization_for_the_relayer(sb: Sandbox, kind: str) -> None:
    hook = Hook()
    relayer = relayer_client(sb, kind, policy=hook)
    with use_policy(hook):
        authorization = sign_authorization(TEST_SIGNER, chain_id=8453, address=DELEGATE, nonce=0)
    (request,) = hook.seen
    # A delegation hands over the whole account: an authority grant to the delegate.
    assert (request.kind, request.chain_id, request.counterparty) == (
        "authority_grant",
        8453,
        DELEGATE,
    )
    assert request.details["grant"] == "eip7702"
    assert request.details["every_chain"] is False
    await resolve(
        relayer.submit_tx(
            to=TEST_SIGNER.address,
            call_data="0x",
            chain_id=8453,
            authorization_list=[authorization],
        )
    )
    assert len(hook.seen) == 1  # the relayer signs nothing itself
    guard = Policy(allowed_counterparties=[TEST_SIGNER.address])
    with (
        use_policy(guard),
        pytest.raises(errors.PolicyRefusedError, match="allowed_counterparties"),
    ):
        sign_authorization(TEST_SIGNER, chain_id=8453, address=DELEGATE, nonce=1)
    assert len(sb.relayer.transaction_ids) == 1


async def test_a_policy_does_not_leak_out_of_a_client_call(sb: Sandbox, kind: str) -> None:
    fund(sb)
    flash = flash_client(sb, kind, policy=Policy(max_per_signature=1))
    with pytest.raises(errors.PolicyRefusedError):
        await resolve(flash.swap(TEST_SIGNER, **SWAP))
    from .support import one_intent

    assert one_intent(5_000_000)  # outside the client's calls, no policy is in force
