"""Each rule of a Policy refuses on its own, before anything is signed."""

from __future__ import annotations

import threading
from decimal import Decimal

import pytest

from xswap_sdk import errors
from xswap_sdk._slippage import DEFAULT_MAX_SLIPPAGE, check_slippage
from xswap_sdk.policy import DAY, Policy, SigningRequest, as_policy, use_policy
from xswap_sdk.signing import (
    personal_sign,
    sign_authorization,
    sign_burn_intent,
    sign_permit,
    sign_typed_data,
)
from xswap_sdk.signing.signer import sign_digest
from xswap_sdk.testing import TEST_SIGNER

from .support import (
    ARBITRUM,
    BASE,
    ROUTER,
    SPENDER,
    Hook,
    Unplugged,
    intent,
    intent_set,
    one_intent,
    permit,
)


def refused(rule: str) -> pytest.RaisesContext[errors.PolicyRefusedError]:
    return pytest.raises(errors.PolicyRefusedError, match=rf"\({rule}\)")


def test_no_policy_changes_nothing() -> None:
    assert one_intent(7).intent.spec.value == 7
    assert permit(value=2**256 - 1).value == 2**256 - 1


def test_cap_per_signature() -> None:
    with use_policy(Policy(max_per_signature=5_000_000)):
        assert one_intent(5_000_000)
        with refused("max_per_signature") as caught:
            permit(value=2**256 - 1)
    assert caught.value.rule == "max_per_signature"
    assert caught.value.request.kind == "permit"
    assert isinstance(caught.value, errors.SigningError)
    assert "Nothing was signed" in str(caught.value)


def test_cap_per_signature_counts_a_set_as_its_total() -> None:
    with use_policy(Policy(max_per_signature=9_000_000)), refused("max_per_signature"):
        intent_set(5_000_000, 5_000_000)


def test_cap_per_day_counts_only_what_was_signed() -> None:
    policy = Policy(max_per_day=10_000_000, max_per_signature=8_000_000)
    with use_policy(policy):
        one_intent(6_000_000)
        with refused("max_per_signature"):
            one_intent(9_000_000)  # refused by another rule: not counted
        one_intent(4_000_000)
        with refused("max_per_day") as caught:
            one_intent(1)
    assert "10000000" in caught.value.reason
    assert policy.spent_today(TEST_SIGNER.address, BASE.usdc) == 10_000_000
    # Native USDC is one token on every chain: Arbitrum's shares Base's budget.
    assert policy.spent_today(TEST_SIGNER.address, "USDC") == 10_000_000
    with use_policy(policy), refused("max_per_day"):
        sign_burn_intent(intent(ARBITRUM, 1), TEST_SIGNER)
    # Another token has its own budget (here a permit for WETH, by address).
    weth = "0x4200000000000000000000000000000000000006"
    with use_policy(policy):
        sign_permit(
            TEST_SIGNER,
            token_name="Wrapped Ether",
            token_version="1",
            chain_id=8453,
            token_address=weth,
            spender=SPENDER,
            value=7_000_000,
            nonce=0,
            deadline=2_000_000_000,
        )
    assert policy.spent_today(TEST_SIGNER.address, weth) == 7_000_000
    assert policy.spent_today(TEST_SIGNER.address, ARBITRUM.usdc) == 10_000_000


def test_the_day_rolls() -> None:
    policy = Policy(max_per_day=5_000_000)
    now = [1_000_000.0]
    policy._ledger.now = lambda: now[0]
    with use_policy(policy):
        one_intent(5_000_000)
        with refused("max_per_day"):
            one_intent(1)
        now[0] += DAY + 1
        one_intent(5_000_000)


def test_a_failed_signature_is_not_counted() -> None:
    policy = Policy(max_per_day=5_000_000)
    with use_policy(policy):
        with pytest.raises(errors.SigningError, match="failed to sign"):
            sign_burn_intent(intent(value=5_000_000), Unplugged())
        one_intent(5_000_000)  # the failed one gave its amount back
    assert policy.spent_today(TEST_SIGNER.address, BASE.usdc) == 5_000_000


def test_cap_per_day_is_thread_safe() -> None:
    policy = Policy(max_per_day=10 * 1_000_000)
    signed: list[object] = []
    refusals: list[errors.PolicyRefusedError] = []

    def work() -> None:
        with use_policy(policy):
            for _ in range(5):
                try:
                    signed.append(one_intent(1_000_000))
                except errors.PolicyRefusedError as exc:
                    refusals.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(signed) == 10
    assert len(refusals) == 10
    assert policy.spent_today(TEST_SIGNER.address, BASE.usdc) == 10_000_000


def test_allowed_counterparties() -> None:
    with use_policy(Policy(allowed_counterparties=[ROUTER.lower()])):
        one_intent()
        with refused("allowed_counterparties") as caught:
            permit()
    assert SPENDER in caught.value.reason


def test_allowed_tokens() -> None:
    with use_policy(Policy(allowed_tokens=["0x82aF49447D8a07e3bd95BD0d56f35241523fBab1"])):
        with refused("allowed_tokens"):
            one_intent()
        with refused("allowed_tokens"):
            permit()
    with use_policy(Policy(allowed_tokens=[BASE.usdc.upper().replace("0X", "0x")])):
        one_intent()
        with refused("allowed_tokens"):
            sign_burn_intent(intent(ARBITRUM), TEST_SIGNER)
    with use_policy(Policy(allowed_tokens=["USDC"])):  # native USDC on every chain
        intent_set(1, 2, 3)


def test_max_fee() -> None:
    with use_policy(Policy(max_fee=3_000_000)):
        one_intent()  # 2.01 USDC
        with refused("max_fee"):
            intent_set(5_000_000, 5_000_000)  # 4.02 USDC in all


@pytest.mark.parametrize("answer", [False, None, 1, "yes"])
def test_an_approval_hook_that_does_not_say_true_refuses(answer: object) -> None:
    hook = Hook(answer)
    with use_policy(hook), refused("approve"):
        one_intent()
    assert [request.kind for request in hook.seen] == ["burn_intent"]


def test_an_approval_hook_that_raises_refuses() -> None:
    problem = ConnectionError("the user's phone is off")
    hook = Hook(problem)
    with use_policy(Policy(approve=hook)), refused("approve") as caught:
        permit()
    assert caught.value.__cause__ is problem
    assert "ConnectionError" in str(caught.value)


def test_the_hook_is_asked_last_and_only_about_what_the_rules_allow() -> None:
    hook = Hook()
    with use_policy(Policy(max_per_signature=1, approve=hook)), refused("max_per_signature"):
        one_intent()
    assert hook.seen == []


def test_policies_nest_and_each_must_allow() -> None:
    outer, inner = Hook(), Hook(False)
    with use_policy(outer):
        one_intent()
        with use_policy(inner), refused("approve"):
            one_intent()
        one_intent()
    assert len(outer.seen) == 3
    assert len(inner.seen) == 1


def test_the_same_policy_twice_is_asked_once() -> None:
    hook = Hook()
    policy = Policy(approve=hook)
    with use_policy(policy), use_policy(policy):
        one_intent()
    assert len(hook.seen) == 1


def test_what_cannot_be_read_is_refused_by_the_rules_and_left_to_the_hook() -> None:
    payload = {
        "types": {
            "EIP712Domain": [{"name": "name", "type": "string"}],
            "Mail": [{"name": "contents", "type": "string"}],
        },
        "domain": {"name": "Mail"},
        "primaryType": "Mail",
        "message": {"contents": "hello"},
    }
    for rule, policy in [
        ("max_per_signature", Policy(max_per_signature=10)),
        ("max_per_day", Policy(max_per_day=10)),
        ("allowed_tokens", Policy(allowed_tokens=["native"])),
        ("allowed_counterparties", Policy(allowed_counterparties=[ROUTER])),
        ("max_fee", Policy(max_fee=10)),
    ]:
        with use_policy(policy), refused(rule):
            sign_typed_data(TEST_SIGNER, payload)
        with use_policy(policy), refused(rule):
            sign_digest(TEST_SIGNER, b"\x01" * 32)
    hook = Hook()
    assert sign_typed_data(TEST_SIGNER, payload, policy=hook)
    assert [r.kind for r in hook.seen] == ["typed_data"]
    assert hook.seen[0].details["message"] == {"contents": "hello"}
    assert sign_digest(TEST_SIGNER, b"\x01" * 32)  # no policy in force: signed
    assert len(hook.seen) == 1


def test_an_eip7702_delegation_and_a_login_are_judged_by_their_counterparty() -> None:
    delegate = "0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B"
    policy = Policy(allowed_counterparties=[delegate, "example.org"], max_per_signature=1)
    with use_policy(policy):
        sign_authorization(TEST_SIGNER, chain_id=8453, address=delegate, nonce=0)
        personal_sign(
            TEST_SIGNER,
            f"example.org wants you to sign in with your Ethereum account:\n{TEST_SIGNER.address}",
        )
        with refused("allowed_counterparties"):
            sign_authorization(TEST_SIGNER, chain_id=8453, address=SPENDER, nonce=0)
        with refused("allowed_counterparties"):
            personal_sign(
                TEST_SIGNER, "evil.example wants you to sign in with your Ethereum account:"
            )
        with refused("allowed_counterparties"):
            personal_sign(TEST_SIGNER, "Welcome! Sign this to log in.")


def test_an_async_hook_is_refused_when_the_policy_is_made() -> None:
    async def approve(request: SigningRequest) -> bool:
        return True

    with pytest.raises(errors.InvalidInputError, match="async") as caught:
        as_policy(approve)
    assert caught.value.argument == "approve"


def test_a_plain_callable_is_a_policy() -> None:
    hook = Hook()
    policy = as_policy(hook)
    assert isinstance(policy, Policy)
    assert policy.approve is hook
    assert as_policy(None) is None
    with pytest.raises(errors.InvalidInputError, match="policy"):
        as_policy("yes")


@pytest.mark.parametrize(
    ("arguments", "argument"),
    [
        ({"max_per_signature": -1}, "max_per_signature"),
        ({"max_per_day": 1.5}, "max_per_day"),
        ({"max_fee": True}, "max_fee"),
        ({"allowed_counterparties": ROUTER}, "allowed_counterparties"),
        ({"allowed_tokens": [""]}, "allowed_tokens"),
        ({"max_slippage": "lots"}, "max_slippage"),
        ({"approve": "yes"}, "approve"),
    ],
)
def test_a_bad_rule_is_refused_when_the_policy_is_made(arguments: dict, argument: str) -> None:
    with pytest.raises(errors.InvalidInputError) as caught:
        Policy(**arguments)
    assert caught.value.argument == argument


def test_a_policy_sets_the_slippage_maximum() -> None:
    assert Policy().max_slippage == DEFAULT_MAX_SLIPPAGE == Decimal(5)
    with use_policy(Policy(max_slippage=Decimal(1))):
        assert check_slippage("1") == Decimal(1)
        with pytest.raises(errors.InvalidInputError, match="max_slippage"):
            check_slippage("1.5")
        # A call may lower it, not raise it above the policy's.
        with pytest.raises(errors.InvalidInputError, match="max_slippage"):
            check_slippage("0.8", max_slippage="0.5")
        with pytest.raises(errors.InvalidInputError, match="policy"):
            check_slippage("2", max_slippage="10")
    with use_policy(Policy(max_slippage=20)):
        assert check_slippage("10") == Decimal(10)
    with pytest.raises(errors.InvalidInputError):
        check_slippage("10")  # the policy is no longer in force


def test_a_request_is_frozen_and_its_details_read_only() -> None:
    request = SigningRequest(kind="login", signer=TEST_SIGNER.address, details={"text": "hi"})
    with pytest.raises(AttributeError):
        request.amount = 1  # type: ignore[misc]
    with pytest.raises(TypeError):
        request.details["text"] = "changed"  # type: ignore[index]
    assert hash(request) == hash(SigningRequest(kind="login", signer=TEST_SIGNER.address))


def test_a_value_missing_from_a_payload_that_should_state_it_is_refused() -> None:
    from xswap_sdk.signing import _gate

    def unreadable(**fields: object) -> SigningRequest:
        return SigningRequest(signer=TEST_SIGNER.address, **fields)  # type: ignore[arg-type]

    cases = [
        (Policy(max_per_signature=10), unreadable(kind="permit", token=BASE.usdc)),
        (Policy(max_fee=10), unreadable(kind="burn_intent", token=BASE.usdc, amount=1)),
        (Policy(max_per_day=10), unreadable(kind="eip3009", token=BASE.usdc)),
    ]
    for policy, request in cases:
        with (
            use_policy(policy),
            pytest.raises(errors.PolicyRefusedError, match="cannot be"),
            _gate.passing(lambda request=request: request),
        ):
            raise AssertionError("signed")
    # A login states no amount and no fee: nothing to refuse.
    login = unreadable(kind="login", counterparty="example.org")
    with (
        use_policy(Policy(max_per_signature=10, max_fee=10, max_per_day=10)),
        _gate.passing(lambda: login) as passed,
    ):
        assert passed is login
