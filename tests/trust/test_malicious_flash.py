"""Issue 19's attacks on the swap backend, played by the sandbox's tamper rules, with the
default settings: each is refused before the key signs anything and before anything is
sent (what the sandbox received is counted), sync and async. The honest flows pass, and
the loudly named opt-ins are the only way to accept what the service chose."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xswap_sdk import AsyncFlashClient, FlashClient, errors
from xswap_sdk._router_formats import encode_sandbox_router
from xswap_sdk.flash import Order, build_order, sign_order
from xswap_sdk.flash.models import Quote
from xswap_sdk.registry import DEFAULT_REGISTRY
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.sandbox.flash import FLASH_CHAINS, SANDBOX_ROUTERS, chain_json

from ..support import resolve
from .support import ATTACKER, SWAP, TEST_ADDRESS, WETH_ARBITRUM, RecordingSigner


def client(sb: Sandbox, kind: str, signer: RecordingSigner, **kwargs: Any) -> Any:
    make = sb.flash_client if kind == "sync" else sb.async_flash_client
    return make(signer, **kwargs)


def received(sb: Sandbox, method: str, path: str) -> int:
    return len(sb.requests.select("flash", method, path))


def refused_before_signing(sb: Sandbox, signer: RecordingSigner) -> None:
    """Nothing was signed but the honest login, and no order reached the backend."""
    assert signer.typed == []
    assert len(signer.messages) == 1
    assert received(sb, "POST", "/swap") == 0


async def test_the_honest_swap_passes(sb: Sandbox, kind: str, signer: RecordingSigner) -> None:
    done = await resolve(client(sb, kind, signer).swap(signer, **SWAP, wait=True))
    assert done.status == "completed"
    assert len(signer.typed) == 1
    assert received(sb, "POST", "/swap") == 1


async def test_the_backend_naming_its_own_router_everywhere_is_refused(
    sb: Sandbox, kind: str, signer: RecordingSigner
) -> None:
    rule = sb.faults.tamper_flash_router(ATTACKER, times=None)
    with pytest.raises(errors.UnsafePayloadError) as info:
        await resolve(client(sb, kind, signer).swap(signer, **SWAP))
    assert rule.hits >= 2  # the chain list and the quote, consistently
    assert info.value.field == "quote.swap_router_address"
    assert ATTACKER.lower() in str(info.value).lower()
    assert "chain 42161" in str(info.value)
    refused_before_signing(sb, signer)


async def test_the_service_router_is_accepted_only_with_the_loud_opt_ins(
    sb: Sandbox, kind: str, signer: RecordingSigner
) -> None:
    # The opt-in trusts the service with the funds: the attacker's router is then paid
    # (the sandbox's backend, which knows its own routers, refuses the order).
    sb.faults.tamper_flash_router(ATTACKER, times=None)
    unsafe = client(
        sb, kind, signer, unsafe_trust_service_parties=True, unsafe_trust_router_output=True
    )
    with pytest.raises(errors.BadRequestError):
        await resolve(unsafe.swap(signer, **SWAP))
    (signed,) = signer.typed
    recipients = {i["spec"]["destinationRecipient"] for i in signed["message"]["intents"]}
    assert recipients == {"0x" + "00" * 12 + ATTACKER[2:]}


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"recipient": ATTACKER}, "quote.hook_data.recipient"),
        ({"recipient": ATTACKER, "min_amount_out": 0}, "quote.hook_data.recipient"),
        ({"min_amount_out": 0}, "quote.hook_data.minAmountOut"),
        ({"token_out": ATTACKER, "min_amount_out": None}, "quote.hook_data.tokenOut"),
    ],
    ids=["recipient", "recipient-and-zero", "zero-minimum", "token"],
)
async def test_router_data_naming_other_terms_is_refused(
    sb: Sandbox, kind: str, signer: RecordingSigner, changes: dict[str, Any], field: str
) -> None:
    sb.faults.tamper_flash_router_output(**changes)
    # Even with every argument the caller has set.
    with pytest.raises(errors.UnsafePayloadError) as info:
        await resolve(
            client(sb, kind, signer).swap(signer, **SWAP, recipient=TEST_ADDRESS, min_amount_out=1)
        )
    assert info.value.field == field
    refused_before_signing(sb, signer)


def plain_client(sb: Sandbox, kind: str, **kwargs: Any) -> Any:
    """A client of the sandbox as a live caller builds one: the SDK's own registry,
    without the sandbox's router pins."""
    if kind == "sync":
        made: Any = FlashClient(http_client=sb.http_client(), **kwargs)
    else:
        made = AsyncFlashClient(http_client=sb.async_http_client(), **kwargs)
    return made


async def test_a_router_of_unknown_format_needs_its_opt_in(
    sb: Sandbox, kind: str, signer: RecordingSigner
) -> None:
    # Pinned by address only: its format is unknown, so the output cannot be checked.
    wired = {"base_url": sb.url("flash"), "clock": sb.clock, "signer": signer}
    routers = {chain.id: [chain.router] for chain in FLASH_CHAINS}
    bare = plain_client(sb, kind, trusted_routers=routers, **wired)
    with pytest.raises(errors.UnsafePayloadError) as info:
        await resolve(bare.swap(signer, **SWAP))
    assert info.value.field == "quote.hook_data"
    assert "unsafe_trust_router_output=True" in str(info.value)
    refused_before_signing(sb, signer)
    # Not pinned at all: refused for the router first.
    nothing = plain_client(sb, kind, **wired)
    with pytest.raises(errors.UnsafePayloadError) as unpinned:
        await resolve(nothing.swap(signer, **SWAP))
    assert unpinned.value.field == "quote.swap_router_address"
    assert signer.typed == []  # (this new client logged in once more: its own session)
    assert received(sb, "POST", "/swap") == 0
    trusting = plain_client(
        sb, kind, trusted_routers=routers, unsafe_trust_router_output=True, **wired
    )
    submitted = await resolve(trusting.swap(signer, **SWAP))
    assert submitted.status == "pending"
    for made in (bare, nothing, trusting):
        await resolve(made.close() if kind == "sync" else made.aclose())


async def test_a_login_message_for_another_site_is_refused(
    sb: Sandbox, kind: str, signer: RecordingSigner
) -> None:
    sb.faults.tamper_login_other_site("opensea.io")
    flash = client(sb, kind, signer)
    with pytest.raises(errors.UnsafePayloadError) as info:
        await resolve(flash.login())
    assert info.value.field == "auth message"
    assert signer.messages == []
    assert received(sb, "POST", "/auth/verify") == 0
    # The manual path checks it too: the message is refused before it is handed back.
    sb.faults.tamper_login_other_site("opensea.io")
    with pytest.raises(errors.UnsafePayloadError):
        await resolve(flash.request_auth_message(TEST_ADDRESS))
    assert signer.messages == []
    # The honest message is signed.
    await resolve(flash.login())
    assert len(signer.messages) == 1


async def test_an_order_split_over_more_chains_cannot_multiply_the_fee_cap(
    sb: Sandbox, kind: str, signer: RecordingSigner
) -> None:
    sb.fund(TEST_ADDRESS, 1, 15_000_000)
    # The money reported as 16 USDC on each of three chains: 40 USDC needs all three.
    sb.faults.tamper_flash_balances({1: 16_000_000, 8453: 16_000_000, 42161: 16_000_000})
    with pytest.raises(errors.UnsafePayloadError) as info:
        await resolve(client(sb, kind, signer).swap(signer, **SWAP))
    assert info.value.field == "order.total_max_fee"
    refused_before_signing(sb, signer)


async def test_a_slippage_above_the_maximum_is_refused_before_any_io(
    sb: Sandbox, kind: str, signer: RecordingSigner
) -> None:
    terms = {
        "input_amount": 1_000_000,
        "output_token": WETH_ARBITRUM,
        "chain_id": 42161,
        "sender": TEST_ADDRESS,
        "slippage": "5.5",
    }
    flash = client(sb, kind, signer)
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(flash.swap(signer, **{**SWAP, "slippage": 50}))
    assert info.value.argument == "slippage"
    assert "max_slippage" in str(info.value)
    with pytest.raises(errors.InvalidInputError):
        await resolve(flash.get_quote(**terms))
    assert list(sb.requests) == []
    quote = await resolve(flash.get_quote(**terms, max_slippage=6))
    assert quote.request is not None


async def test_a_copy_for_another_host_logs_in_there_and_never_sends_this_hosts_jwt(
    sb: Sandbox, kind: str, signer: RecordingSigner
) -> None:
    flash = client(sb, kind, signer)
    await resolve(flash.get_history())
    token = flash.session.token.get_secret_value()
    other = flash.with_options(base_url="http://127.0.0.1:9/flash")
    # The copy has a session of its own, for its host: no token yet, so the first call
    # that needs one logs in there (and is refused: nothing listens on port 9).
    with pytest.raises(errors.XSwapError) as info:
        await resolve(other.get_history(max_retries=0))
    assert token not in str(info.value)
    assert other.session is None
    # The original keeps its own session, and a copy for the same host shares it.
    same = flash.with_options(timeout=5)
    await resolve(same.get_history())
    assert flash.session is not None
    assert flash.session.token.get_secret_value() == token
    assert received(sb, "POST", "/auth/verify") == 1


# ------------------------------------------------------------------ any change is refused


def _honest_order() -> tuple[Order, Any, Quote]:
    sb = Sandbox()
    sb.fund(TEST_ADDRESS, 8453, 30_000_000)
    sb.fund(TEST_ADDRESS, 42161, 25_000_000)
    registry = DEFAULT_REGISTRY.with_routers(*SANDBOX_ROUTERS)
    with sb.flash_client() as flash:
        quote = flash.get_quote(
            input_amount=40_000_000,
            output_token=WETH_ARBITRUM,
            chain_id=42161,
            sender=TEST_ADDRESS,
            slippage="0.5",
        )
    chains = [chain_json(chain) for chain in FLASH_CHAINS]
    built = build_order(
        quote,
        chains=chains,
        balances={8453: 30_000_000, 42161: 25_000_000},
        user=TEST_ADDRESS,
        registry=registry,
        now=sb.clock.time(),
    )
    sb.close()
    return built, registry, quote


HONEST, REGISTRY, QUOTE = _honest_order()
SPEC_FIELDS = [
    "source_domain",
    "destination_domain",
    "source_contract",
    "destination_contract",
    "source_token",
    "destination_token",
    "source_depositor",
    "source_signer",
    "destination_recipient",
    "destination_caller",
    "value",
    "hook_data",
]


def _changed(value: Any, seed: int) -> Any:
    if isinstance(value, int):
        return value + seed + 1 if seed % 2 else max(0, value - seed - 1)
    text = str(value)
    digits = list(text[2:])
    position = seed % len(digits)
    digits[position] = "1" if digits[position] != "1" else "2"
    return "0x" + "".join(digits)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    index=st.integers(min_value=0, max_value=1),
    field=st.sampled_from([*SPEC_FIELDS, "max_fee", "max_block_height"]),
    seed=st.integers(min_value=0, max_value=10_000),
)
def test_any_change_to_a_party_or_term_of_the_signed_intents_is_refused(
    index: int, field: str, seed: int
) -> None:
    intents = list(HONEST.intents)
    intent = intents[index]
    if field in SPEC_FIELDS:
        old = getattr(intent.spec, field)
        spec = intent.spec.model_copy(update={field: _changed(old, seed)})
        changed = intent.model_copy(update={"spec": spec})
    else:
        changed = intent.model_copy(update={field: _changed(getattr(intent, field), seed)})
    intents[index] = changed
    tampered = HONEST.model_copy(update={"intents": tuple(intents)})
    signer = RecordingSigner()
    with pytest.raises(errors.UnsafePayloadError):
        sign_order(tampered, signer, registry=REGISTRY)
    assert signer.typed == []


@settings(max_examples=60, deadline=None)
@given(
    recipient=st.sampled_from([ATTACKER, "0x" + "00" * 19 + "01", TEST_ADDRESS]),
    token=st.sampled_from([ATTACKER, WETH_ARBITRUM]),
    cut=st.integers(min_value=0, max_value=10**18),
)
def test_any_change_to_the_router_terms_is_refused(recipient: str, token: str, cut: int) -> None:
    terms = HONEST.terms
    assert terms is not None
    assert QUOTE.request is not None
    least = terms.least_out
    minimum = max(0, least - 1 - cut % max(1, least))
    if recipient == TEST_ADDRESS and token == WETH_ARBITRUM:
        minimum = max(0, least - 1)  # only the minimum changes
    hook, call = encode_sandbox_router(
        quote_id=bytes.fromhex(str(HONEST.hook_data)[2:66]),
        recipient=recipient,
        token_out=token,
        amount_in=HONEST.amount,
        min_amount_out=minimum,
    )
    quote = QUOTE.model_copy(update={"hook_data": hook, "swap_calldata": call})
    with pytest.raises(errors.UnsafePayloadError) as info:
        build_order(
            quote,
            chains=[chain_json(chain) for chain in FLASH_CHAINS],
            balances={8453: 30_000_000, 42161: 25_000_000},
            user=TEST_ADDRESS,
            chain_id=42161,
            registry=REGISTRY,
            now=QUOTE.expires_at_seconds - 1,
        )
    assert info.value.field.startswith("quote.hook_data")


async def test_the_login_budget_is_shared_by_every_client_of_a_signer_and_host(
    sb: Sandbox, kind: str, signer: RecordingSigner
) -> None:
    # A backend that answers 401 to fresh clients cannot get more than three login
    # signatures a minute out of one key by making the program build new clients.
    sb.flash.accounts.token_lifetime = 0.0  # every JWT has expired when it is used
    # The first client logs in, meets a 401 and logs in again: two signatures.
    with pytest.raises(errors.AuthenticationError):
        await resolve(client(sb, kind, signer).get_history(max_retries=0))
    # A fresh client gets one login from the shared budget, then is refused.
    with pytest.raises((errors.AuthenticationError, errors.LoginError)):
        await resolve(client(sb, kind, signer).get_history(max_retries=0))
    with pytest.raises(errors.LoginRateLimitError, match="retry in 60 s"):
        await resolve(client(sb, kind, signer).get_history(max_retries=0))
    assert len(signer.messages) == 3
    assert received(sb, "POST", "/auth/message") == 3
    sb.wait(60)
    sb.flash.accounts.token_lifetime = 3600.0
    await resolve(client(sb, kind, signer).get_history())
    assert len(signer.messages) == 4
