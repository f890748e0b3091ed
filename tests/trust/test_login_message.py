"""The login message is checked before the caller's key signs it, and logins are
capped per minute."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xswap_sdk import errors
from xswap_sdk._clock import VirtualClock
from xswap_sdk.flash._login_message import LoginBudget, check_login_message
from xswap_sdk.sandbox import Sandbox

from .support import TEST_ADDRESS

HOST = "flash.rath.fi"


def siwe(domain: str = HOST, account: str = TEST_ADDRESS, uri: str | None = None) -> str:
    return (
        f"{domain} wants you to sign in with your Ethereum account:\n"
        f"{account}\n\n"
        "Sign in to Flash.\n\n"
        f"URI: {uri or 'https://' + domain.split('://')[-1]}\n"
        "Version: 1\n"
        "Chain ID: 1\n"
        "Nonce: 8f1c2d3e\n"
        "Issued At: 2025-01-01T00:00:00Z"
    )


def test_the_sandbox_message_passes() -> None:
    with Sandbox() as sb:
        issued = sb.flash.accounts.issue_message({"userAddress": TEST_ADDRESS})
    check_login_message(issued["message"], address=TEST_ADDRESS, host="sandbox.invalid")


@pytest.mark.parametrize(
    "message",
    [
        siwe(),
        siwe(account=TEST_ADDRESS.lower()),
        siwe(domain="FLASH.rath.fi"),
        siwe(domain=f"https://{HOST}"),
    ],
)
def test_honest_messages_pass(message: str) -> None:
    check_login_message(message, address=TEST_ADDRESS, host=HOST)


PLAIN = [
    f"Sign in to Flash\nAddress: {TEST_ADDRESS.lower()}\nNonce: msg-1",
    f"Welcome! Your wallet {TEST_ADDRESS.upper().replace('0X', '0x')} signs in.",
]


@pytest.mark.parametrize("message", PLAIN)
def test_other_formats_pass_only_with_the_loud_opt_in(message: str) -> None:
    with pytest.raises(errors.UnsafePayloadError) as info:
        check_login_message(message, address=TEST_ADDRESS, host=HOST)
    assert "unsafe_login_message=True" in str(info.value)
    check_login_message(message, address=TEST_ADDRESS, host=HOST, unsafe_any_format=True)


def test_another_sites_plain_text_login_is_refused() -> None:
    # The attack of issue 19: whoever answers /auth/message logs in elsewhere as you.
    other = (
        "Welcome to OpenSea!\n\nClick to sign in and accept the Terms of Service.\n\n"
        f"Wallet address:\n{TEST_ADDRESS.lower()}\n\nNonce:\n7c1d9f0e"
    )
    with pytest.raises(errors.UnsafePayloadError) as info:
        check_login_message(other, address=TEST_ADDRESS, host=HOST)
    assert info.value.field == "auth message"


@pytest.mark.parametrize(
    "broken",
    [
        siwe().replace("Version: 1", "Version: 2"),
        siwe().replace("Chain ID: 1\n", ""),
        siwe().replace("Nonce: 8f1c2d3e", "Nonce: 1"),
        siwe().replace("Issued At", "Issued"),
        siwe() + "\nYou also approve a transfer.",
        siwe().replace("URI: https://", "URI: "),
    ],
)
def test_a_malformed_sign_in_message_is_refused(broken: str) -> None:
    with pytest.raises(errors.UnsafePayloadError):
        check_login_message(broken, address=TEST_ADDRESS, host=HOST)


def test_optional_fields_and_resources_pass() -> None:
    full = (
        siwe()
        + "\nExpiration Time: 2025-01-01T00:05:00Z\nRequest ID: 42\nResources:\n"
        + f"- https://{HOST}/terms"
    )
    check_login_message(full, address=TEST_ADDRESS, host=HOST)


@pytest.mark.parametrize(
    ("message", "field"),
    [
        ("Sign in to Flash\nNonce: 1", "auth message"),
        (f"Sign in as 0x{'11' * 20}", "auth message"),
        (f"Sign in: 0x{TEST_ADDRESS[2:]}ff", "auth message"),  # part of a longer hex
        (f"Sign in: ab{TEST_ADDRESS}", "auth message"),  # part of a longer word
        (siwe(domain="evil.example"), "auth message domain"),
        (siwe(domain="https://evil.example"), "auth message domain"),
        (siwe(domain=f"{HOST}.evil.example"), "auth message domain"),
        (siwe(uri="https://evil.example/login"), "auth message URI"),
        (f"Hello {TEST_ADDRESS}\n" + siwe(domain="evil.example"), "auth message domain"),
        (
            siwe(account="0x" + "22" * 20) + f"\nfor {TEST_ADDRESS}",
            "auth message account",
        ),
        (f"Sign in {TEST_ADDRESS} \u202eevil", "auth message"),
    ],
)
def test_messages_for_another_account_or_site_are_refused(message: str, field: str) -> None:
    for loose in (False, True):
        with pytest.raises(errors.UnsafePayloadError) as info:
            check_login_message(message, address=TEST_ADDRESS, host=HOST, unsafe_any_format=loose)
        assert info.value.field == field or (not loose and info.value.field == "auth message")
        assert isinstance(info.value, errors.SigningError)


def test_ports_must_agree_when_both_are_given() -> None:
    local = siwe(domain="127.0.0.1:8080", uri="http://127.0.0.1:8080/")
    check_login_message(local, address=TEST_ADDRESS, host="127.0.0.1:8080")
    check_login_message(local, address=TEST_ADDRESS, host="127.0.0.1")
    with pytest.raises(errors.UnsafePayloadError):
        check_login_message(local, address=TEST_ADDRESS, host="127.0.0.1:9090")


@pytest.mark.parametrize("message", [f"Sign in {TEST_ADDRESS} \udc80", b"bytes", None])
def test_text_that_cannot_be_signed_is_a_login_error(message: object) -> None:
    with pytest.raises(errors.LoginError):
        check_login_message(message, address=TEST_ADDRESS, host=HOST)  # type: ignore[arg-type]


@given(st.text(max_size=200))
def test_a_message_that_does_not_name_the_account_is_always_refused(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return
    if TEST_ADDRESS[2:].lower() in text.lower():
        return
    with pytest.raises(errors.UnsafePayloadError):
        check_login_message(text, address=TEST_ADDRESS, host=HOST)


@given(st.text(alphabet=st.characters(blacklist_categories=["Cs", "Cf"]), max_size=100))
def test_naming_the_account_in_plain_text_is_enough(text: str) -> None:
    message = f"{text}\nAccount: {TEST_ADDRESS}\n{text}"
    if "wants you to sign in" in message:
        return
    check_login_message(message, address=TEST_ADDRESS, host=HOST, unsafe_any_format=True)


def test_the_login_budget_caps_logins_per_minute() -> None:
    clock = VirtualClock()
    budget = LoginBudget(clock=clock)
    assert budget.remaining == 3
    for _ in range(3):
        budget.spend()
    assert budget.remaining == 0
    assert not budget.try_spend()
    clock.advance(20)
    with pytest.raises(errors.LoginRateLimitError) as info:
        budget.spend()
    # The cap is named as the SDK's own, with when to retry; the backend is not blamed.
    assert str(info.value).startswith(
        "login cap reached: the SDK signs at most 3 login messages a minute for one "
        "signer and host, and 3 were signed in the last 60 s; retry in 40 s."
    )
    assert "backend" not in str(info.value)
    assert isinstance(info.value, errors.LoginError)
    assert (info.value.retry_after, info.value.limit, info.value.window) == (40, 3, 60)
    clock.advance(10)
    assert budget.retry_after() == pytest.approx(30)
    clock.advance(30)
    assert budget.retry_after() == 0
    assert budget.try_spend()
    assert budget.remaining == 2


def test_a_budget_of_its_own_size() -> None:
    clock = VirtualClock()
    budget = LoginBudget(1, window=10, clock=clock)
    budget.spend()
    with pytest.raises(errors.LoginError):
        budget.spend()
    clock.advance(10)
    budget.spend()
    assert "limit=1" in repr(budget)
    for bad in ({"limit": 0}, {"limit": True}, {"window": 0}, {"window": "60"}):
        with pytest.raises(ValueError):
            LoginBudget(**bad)  # type: ignore[arg-type]


def test_the_shared_budget_is_one_per_signer_and_host_across_threads() -> None:
    from concurrent.futures import ThreadPoolExecutor

    from xswap_sdk.flash._login_message import shared_login_budget

    clock = VirtualClock()

    def spend(_: int) -> bool:
        return shared_login_budget(TEST_ADDRESS.lower(), "Flash.Rath.fi", clock).try_spend()

    with ThreadPoolExecutor(8) as pool:
        spent = list(pool.map(spend, range(40)))
    assert spent.count(True) == 3
    assert shared_login_budget(TEST_ADDRESS, "flash.rath.fi", clock).remaining == 0
    # Another host, another signer or another clock: budgets of their own.
    assert shared_login_budget(TEST_ADDRESS, "other.example", clock).remaining == 3
    assert shared_login_budget("0x" + "11" * 20, "flash.rath.fi", clock).remaining == 3
    assert shared_login_budget(TEST_ADDRESS, "flash.rath.fi", VirtualClock()).remaining == 3
