"""Checked orders: an order from build_order carries what it was checked against, bound
to its content; sign_order signs it without checking it again under the same pins, and
checks anything else in full. A swap runs each trust rule once."""

from __future__ import annotations

import copy
import dataclasses
import importlib.util
import pickle
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from eth_account import Account
from eth_account.signers.local import LocalAccount
from pydantic import ValidationError

from xswap_sdk import errors
from xswap_sdk.flash import Chain, Order, _orders, _trust, build_order, sign_order
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.signing import signed_intents
from xswap_sdk.testing import TEST_SIGNER

from ..support import ADDRESS, TEST_PRIVATE_KEY
from .payloads import chains, pinned_routers, quote, recover_order_signer

CHAINS = [Chain.model_validate(c) for c in chains()]
WALLET: LocalAccount = Account.from_key(TEST_PRIVATE_KEY)
REGISTRY = pinned_routers()
ATTACKER = "0x000000000000000000000000000000000000dEaD"
WETH_ON_BASE = "0x4200000000000000000000000000000000000006"

RULES = (
    "check_quote_terms",
    "check_fee",
    "check_trusted_routers",
    "check_intents",
    "check_order_terms",
    "check_router_output",
    "check_total_fee",
    "pinned_router",
    "output_terms",
)
"""The trust rules of the swap path (``xswap_sdk.flash._trust``), each run once a swap."""


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How many times each trust rule ran (and the signing module's own checks)."""
    counts: Counter[str] = Counter()

    def counting(module: Any, name: str, key: str) -> None:
        original = getattr(module, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            counts[key] += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(module, name, counted)

    for name in RULES:
        counting(_trust, name, name)
    counting(_trust, "signable_problem", "signable_problem")
    counting(signed_intents, "check_signable", "check_signable")
    counting(signed_intents, "check_burn_intent", "check_burn_intent")
    return counts


def built(held: dict[int, int] | None = None, **kwargs: Any) -> Order:
    kwargs.setdefault("registry", REGISTRY)
    return build_order(
        quote(10_000_000),
        chains=CHAINS,
        balances=held or {42161: 6_000_000, 8453: 9_000_000},
        user=ADDRESS,
        chain_id=8453,
        **kwargs,
    )


def word(address: str) -> str:
    return "0x" + "0" * 24 + address[2:].lower()


# ------------------------------------------------------------------ a swap, traced


def _sandbox_swap_args() -> dict[str, Any]:
    return {"input_amount": 20_000_000, "output_token": WETH_ON_BASE, "chain_id": 8453}


def _each_rule_ran_once(runs: Counter[str], intents: int) -> None:
    assert {name: runs[name] for name in RULES} == dict.fromkeys(RULES, 1)
    # Each intent's signability is read once, by check_intents, and not again by the
    # signing module, which signs a checked order as it is.
    assert runs["signable_problem"] == intents
    assert runs["check_signable"] == 0
    assert runs["check_burn_intent"] == 0


def test_a_swap_runs_each_trust_rule_once(runs: Counter[str]) -> None:
    with Sandbox() as sb:
        sb.fund(TEST_SIGNER.address, 8453, 15_000_000)
        sb.fund(TEST_SIGNER.address, 42161, 15_000_000)
        flash = sb.flash_client(signer=TEST_SIGNER)
        flash.login()
        runs.clear()
        submission = flash.swap(TEST_SIGNER, slippage="0.5", **_sandbox_swap_args())
    assert submission.status == "pending"
    _each_rule_ran_once(runs, intents=2)


async def test_an_async_swap_runs_each_trust_rule_once(runs: Counter[str]) -> None:
    async with Sandbox() as sb:
        sb.fund(TEST_SIGNER.address, 8453, 15_000_000)
        sb.fund(TEST_SIGNER.address, 42161, 15_000_000)
        flash = sb.async_flash_client(signer=TEST_SIGNER)
        await flash.login()
        runs.clear()
        submission = await flash.swap(TEST_SIGNER, slippage="0.5", **_sandbox_swap_args())
    assert submission.status == "pending"
    _each_rule_ran_once(runs, intents=2)


def test_a_clients_checked_order_is_signed_without_a_second_check(runs: Counter[str]) -> None:
    with Sandbox() as sb:
        sb.fund(TEST_SIGNER.address, 8453, 15_000_000)
        flash = sb.flash_client(signer=TEST_SIGNER)
        chains_, balances = flash.get_supported_chains(), flash.get_balance(TEST_SIGNER.address)
        quoted = flash.get_quote(
            sender=TEST_SIGNER.address,
            slippage="0.5",
            **{**_sandbox_swap_args(), "input_amount": 5_000_000},
        )
        runs.clear()
        order = flash.build_order(
            quoted, chains=chains_, balances=balances, user=TEST_SIGNER.address
        )
        signed = flash.sign_order(order, TEST_SIGNER)
    assert signed.signer == TEST_SIGNER.address
    assert runs["check_intents"] == 1
    assert runs["pinned_router"] == 1


def _trace_script() -> ModuleType:
    script = Path(__file__).resolve().parents[2] / "scripts" / "trace_swap.py"
    spec = importlib.util.spec_from_file_location("trace_swap", script)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("trace_swap", module)  # its dataclasses look their module up
    spec.loader.exec_module(sys.modules["trace_swap"])
    return sys.modules["trace_swap"]


@pytest.mark.parametrize("flavour", ["sync", "async"])
def test_the_signer_reaches_the_signature_by_a_short_one_way_path(flavour: str) -> None:
    trace_swap = _trace_script()
    trace = trace_swap.trace_sync() if flavour == "sync" else trace_swap.trace_async()
    assert len(trace.path) < 25
    assert trace.returns_up < 5
    assert {rule: trace.rules[f"flash._trust.{rule}"] for rule in RULES} == dict.fromkeys(RULES, 1)


# ------------------------------------------------------------------ the proof


def test_a_checked_order_is_signed_as_checked(runs: Counter[str]) -> None:
    order = built()
    runs.clear()
    signed = sign_order(order, WALLET, registry=REGISTRY)
    assert recover_order_signer(signed.to_wire()) == WALLET.address
    assert signed.digest == "0x" + _orders._digest(order.intents).hex()
    assert sum(runs.values()) == 0


def test_the_proof_holds_for_the_same_pins_only(runs: Counter[str]) -> None:
    order = built()
    for other in (
        {"registry": pinned_routers()},  # equal, but not the registry it was checked with
        {"registry": REGISTRY, "unsafe_trust_service_parties": True},
        {"registry": REGISTRY, "unsafe_trust_router_output": True},
        {"registry": REGISTRY, "trusted_routers": {8453: [ATTACKER]}},
    ):
        runs.clear()
        sign_order(order, WALLET, **other)
        assert runs["check_intents"] == 1, other  # checked in full
        assert runs["pinned_router"] == 1, other


def test_equal_trusted_routers_keep_the_proof(runs: Counter[str]) -> None:
    order = built(trusted_routers={8453: [ATTACKER]})
    runs.clear()
    sign_order(order, WALLET, registry=REGISTRY, trusted_routers={8453: [ATTACKER.lower()]})
    assert runs["check_intents"] == 0


def test_checked_trusted_routers_cannot_be_changed_after_their_check() -> None:
    # A proof holds the checked mapping itself: it must not change under it.
    checked = _trust.check_trusted_routers({8453: [ATTACKER]})
    assert checked is not None
    with pytest.raises(TypeError):
        checked[8453] = frozenset()  # type: ignore[index]


def test_a_checked_order_cannot_be_changed_in_place() -> None:
    order = built()
    with pytest.raises(ValidationError):
        order.swap_router_address = ATTACKER  # type: ignore[misc]


@pytest.mark.parametrize(
    ("field", "value", "refused"),
    [
        ("swap_router_address", ATTACKER, "destinationRecipient"),
        ("user", ATTACKER, "signer"),
        ("amount", 1, "order.sources"),
        ("hook_data", "0x", "intents[0].spec.hookData"),
        ("terms", None, "order.terms"),
    ],
)
def test_a_changed_copy_loses_the_proof_and_is_refused(
    runs: Counter[str], field: str, value: Any, refused: str
) -> None:
    order = built()
    changed = order.model_copy(update={field: value})
    assert changed._proof is order._proof  # pydantic copies it; it no longer describes it
    runs.clear()
    with pytest.raises((errors.UnsafePayloadError, errors.InvalidInputError)) as info:
        sign_order(changed, WALLET, registry=REGISTRY)
    assert refused in str(info.value)


def test_changed_intents_lose_the_proof_and_are_refused(runs: Counter[str]) -> None:
    order = built()
    first = order.intents[0]
    paying_another = first.model_copy(
        update={"spec": first.spec.model_copy(update={"destination_recipient": word(ATTACKER)})}
    )
    changed = order.model_copy(update={"intents": (paying_another, *order.intents[1:])})
    runs.clear()
    with pytest.raises(errors.UnsafePayloadError) as info:
        sign_order(changed, WALLET, registry=REGISTRY)
    assert "destinationRecipient" in str(info.value)
    assert runs["check_intents"] == 1


def test_an_intent_changed_behind_its_frozen_model_loses_the_proof(runs: Counter[str]) -> None:
    order = built()
    object.__setattr__(order.intents[0], "max_fee", 10**12)  # past pydantic's guard
    runs.clear()
    with pytest.raises(errors.UnsafePayloadError) as info:
        sign_order(order, WALLET, registry=REGISTRY)
    assert "maxFee" in str(info.value)


def test_an_equal_value_put_behind_the_frozen_model_loses_the_proof(runs: Counter[str]) -> None:
    # The proof holds the very objects the digest was computed from, not equal ones: a
    # value swapped for another, even an equal one, is checked in full (and then signed).
    order = built()
    spec = order.intents[0].spec
    object.__setattr__(spec, "salt", "".join(list(spec.salt)))
    runs.clear()
    signed = sign_order(order, WALLET, registry=REGISTRY)
    assert runs["check_intents"] == 1
    assert recover_order_signer(signed.to_wire()) == WALLET.address


def test_a_checked_order_computes_its_digest_once(monkeypatch: pytest.MonkeyPatch) -> None:
    computed: list[bytes] = []
    original = _orders._digest

    def counted(intents: Any) -> bytes:
        computed.append(original(intents))
        return computed[-1]

    monkeypatch.setattr(_orders, "_digest", counted)
    order = built()
    signed = sign_order(order, WALLET, registry=REGISTRY)
    assert len(computed) == 1
    assert signed.digest == "0x" + computed[0].hex()
    assert recover_order_signer(signed.to_wire()) == WALLET.address


def test_a_field_changed_behind_the_frozen_model_loses_the_proof(runs: Counter[str]) -> None:
    order = built()
    object.__setattr__(order, "swap_router_address", ATTACKER)
    with pytest.raises(errors.UnsafePayloadError):
        sign_order(order, WALLET, registry=REGISTRY)


def test_an_order_built_by_hand_is_checked_in_full(runs: Counter[str]) -> None:
    order = built()
    by_hand = Order.model_validate(order.model_dump())
    assert by_hand._proof is None
    runs.clear()
    sign_order(by_hand, WALLET, registry=REGISTRY)
    assert runs["check_intents"] == 1
    assert runs["check_router_output"] == 1
    paying_another = Order.model_validate({**order.model_dump(), "swap_router_address": ATTACKER})
    with pytest.raises(errors.UnsafePayloadError):
        sign_order(paying_another, WALLET, registry=REGISTRY)


def test_a_copy_made_elsewhere_is_checked_in_full(runs: Counter[str]) -> None:
    order = built()
    for copied in (copy.deepcopy(order), pickle.loads(pickle.dumps(order))):
        assert copied == order  # equal fields, checked or not
        assert copied._proof is None
        runs.clear()
        sign_order(copied, WALLET, registry=REGISTRY)
        assert runs["check_intents"] == 1


def test_a_proof_made_elsewhere_is_not_one(runs: Counter[str]) -> None:
    order = built()
    proof = order._proof
    assert proof is not None
    order._proof = dataclasses.replace(proof, seal=object())
    runs.clear()
    sign_order(order, WALLET, registry=REGISTRY)
    assert runs["check_intents"] == 1
