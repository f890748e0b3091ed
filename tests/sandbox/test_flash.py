"""The emulated swap backend on the wire: chains, tokens, quotes, balances, login, the
checks on a signed order, history, leaderboard and referrals."""

from __future__ import annotations

import copy
from typing import Any

import httpx
import pytest
from eth_account import Account

from xswap_sdk.sandbox import Sandbox
from xswap_sdk.signing import personal_sign, sign_burn_intent
from xswap_sdk.testing import TEST_ADDRESS, TEST_SIGNER

from .support import (
    USDC_ON_ARBITRUM,
    WETH_ON_ARBITRUM,
    bearer,
    get_quote,
    login,
    swap_body,
)

OTHER = Account.from_key("0x" + "11" * 32)


def signed(message: dict[str, Any], signer: Any) -> dict[str, str]:
    """A verify body: ``message`` signed by ``signer``."""
    return {
        "messageId": message["messageId"],
        "signature": personal_sign(signer, message["message"]),
    }


def test_chains_carry_the_gateway_configuration(http: httpx.Client) -> None:
    chains = {chain["id"]: chain for chain in http.get("/flash/supported-chains").json()}
    assert {(cid, chain["domain"]) for cid, chain in chains.items()} == {
        (1, 0),
        (8453, 6),
        (42161, 3),
    }
    for chain in chains.values():
        assert chain["gatewayWallet"] == "0x77777777Dcc4d5A8B6E418Fd04D8997ef11000eE"
        assert chain["gatewayMinter"] == "0x2222222d7164433c4C09B0b0D809a9b52C04C205"
        assert chain["nativeToken"]["address"] == "0x" + "0" * 40
        assert chain["usdc"]["decimals"] == 6
        assert chain["usdc"]["version"] == "2"
    # The live service sends the USDC address lowercase.
    assert chains[8453]["usdc"]["address"] == "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913"
    assert chains[1]["usdc"]["address"] == "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"
    assert chains[42161]["usdc"]["address"] == USDC_ON_ARBITRUM.lower()
    assert len({chain["routerAddress"] for chain in chains.values()}) == 3


def test_token_list_is_snake_case_with_the_brand_word(http: httpx.Client) -> None:
    tokens = http.get("/flash/token-list", params={"chain_id": 8453}).json()["tokens"]
    assert {token["chain_id"] for token in tokens} == {8453}
    assert set(tokens[0]) == {
        "address", "symbol", "decimals", "logo_url", "name", "chain_id", "in_flash_token_list"
    }  # fmt: skip
    every = http.get("/flash/token-list").json()["tokens"]
    assert {token["chain_id"] for token in every} == {1, 8453, 42161}


def test_search_token_is_camel_case(http: httpx.Client) -> None:
    found = http.post(
        "/flash/search-token", json={"chainId": 42161, "address": WETH_ON_ARBITRUM.lower()}
    ).json()
    assert found["symbol"] == "WETH"
    assert found["chainId"] == 42161
    assert found["inFlashTokenList"] is True
    missing = http.post("/flash/search-token", json={"chainId": 42161, "address": "0x" + "1" * 40})
    assert missing.status_code == 404
    assert set(missing.json()) == {"error", "message"}


def test_a_quote_prices_from_the_table_with_both_fees(http: httpx.Client) -> None:
    quote = get_quote(http, 100_000_000)
    assert quote["fees"] == {
        "total_fee": str(2_010_000 + 100_000),
        "gateway_fee": "2010000",
        "execution_fee": "100000",  # 10 bps of the input
    }
    assert quote["token_in"]["address"] == USDC_ON_ARBITRUM
    eth = int(quote["token_out"]["amount"]) / 1e18
    assert 99.9 / 3200 * 0.99 < eth < 99.9 / 3200 * 1.01
    assert quote["swap_router_address"] == quote["single_swap_router"]
    assert quote["expires_at"] == 1_735_689_600 + 300
    assert quote["swap_calldata"].startswith("0x")
    assert quote["hook_data"].startswith("0x")


def test_usdc_out_is_the_input_minus_the_execution_fee(http: httpx.Client) -> None:
    quote = get_quote(http, 50_000_000, token=USDC_ON_ARBITRUM)
    assert quote["token_out"]["amount"] == str(50_000_000 - 50_000)


@pytest.mark.parametrize(
    "params",
    [
        {"outputToken": WETH_ON_ARBITRUM, "chainId": 42161, "from": TEST_ADDRESS, "slippage": 1},
        {"inputAmount": "1.5", "outputToken": WETH_ON_ARBITRUM, "chainId": 42161,
         "from": TEST_ADDRESS, "slippage": 1},
        {"inputAmount": "100", "outputToken": WETH_ON_ARBITRUM, "chainId": 10,
         "from": TEST_ADDRESS, "slippage": 1},
        {"inputAmount": "5000", "outputToken": WETH_ON_ARBITRUM, "chainId": 42161,
         "from": TEST_ADDRESS, "slippage": 1},
    ],
)  # fmt: skip
def test_bad_quote_requests_are_400_with_a_message(
    http: httpx.Client, params: dict[str, Any]
) -> None:
    response = http.get("/flash/quote", params=params)
    assert response.status_code == 400
    assert response.json()["error"] == "bad_request"
    assert response.json()["message"]


def test_balances_are_what_was_funded(sb: Sandbox, http: httpx.Client) -> None:
    assert sb.fund(TEST_ADDRESS, 8453, 5_000_000) == 5_000_000
    sb.fund(TEST_ADDRESS.lower(), 1, "7")
    body = http.get(f"/flash/balance/{TEST_ADDRESS}").json()
    assert body["totalBalance"] == "5000007"
    base = next(entry for entry in body["balances"] if entry["chainId"] == 8453)
    assert base == {
        "domain": 6,
        "depositor": TEST_ADDRESS,
        "balance": "5000000",
        "chainId": 8453,
        "chainName": "Base",
    }
    with pytest.raises(ValueError, match="not supported"):
        sb.fund(TEST_ADDRESS, 10, 1)


def test_login_message_carries_a_nonce_and_an_expiry(http: httpx.Client) -> None:
    first = http.post("/flash/auth/message", json={"userAddress": TEST_ADDRESS}).json()
    second = http.post("/flash/auth/message", json={"userAddress": TEST_ADDRESS}).json()
    assert TEST_ADDRESS in first["message"]
    assert "Nonce: " in first["message"]
    assert "Expiration Time: " in first["message"]
    assert first["message"] != second["message"]
    assert first["expiry"] == 1_735_689_600 + 300


def test_verify_issues_a_jwt_and_refuses_reuse(http: httpx.Client) -> None:
    message = http.post("/flash/auth/message", json={"userAddress": TEST_ADDRESS}).json()
    body = signed(message, TEST_SIGNER)
    first = http.post("/flash/auth/verify", json=body)
    assert first.status_code == 200
    answer = first.json()
    assert answer["user_address"] == TEST_ADDRESS
    assert answer["is_new_user"] is True
    assert answer["token"].count(".") == 2
    assert http.post("/flash/auth/verify", json=body).status_code == 401
    assert login(http)["is_new_user"] is False


def test_verify_refuses_another_signer_and_an_expired_message(
    sb: Sandbox, http: httpx.Client
) -> None:
    message = http.post("/flash/auth/message", json={"userAddress": TEST_ADDRESS}).json()
    forged = signed(message, OTHER)
    assert http.post("/flash/auth/verify", json=forged).status_code == 401
    sb.wait(301)
    late = signed(message, TEST_SIGNER)
    response = http.post("/flash/auth/verify", json=late)
    assert response.status_code == 401
    assert "expired" in response.json()["message"]


def test_history_needs_a_valid_unexpired_token(sb: Sandbox, http: httpx.Client) -> None:
    token = login(http)["token"]
    assert http.get("/flash/history").status_code == 401
    assert http.get("/flash/history", headers=bearer(token)).status_code == 200
    head, body, signature = token.split(".")
    forged = f"{head}.{body}.{signature[::-1]}"
    assert http.get("/flash/history", headers=bearer(forged)).status_code == 401
    sb.wait(3600)
    expired = http.get("/flash/history", headers=bearer(token))
    assert expired.status_code == 401
    assert expired.json()["message"] == "token expired"


def swap(http: httpx.Client, body: dict[str, Any], token: str) -> httpx.Response:
    return http.post("/flash/swap", json=body, headers=bearer(token))


@pytest.fixture
def funded(sb: Sandbox) -> None:
    sb.fund(TEST_ADDRESS, 8453, 40_000_000)
    sb.fund(TEST_ADDRESS, 1, 30_000_000)


@pytest.mark.usefixtures("funded")
def test_a_swap_from_two_chains_debits_both_and_completes(sb: Sandbox, http: httpx.Client) -> None:
    token = login(http)["token"]
    quote = get_quote(http, 50_000_000)
    response = swap(http, swap_body(http, quote, {8453: 30_000_000, 1: 20_000_000}), token)
    assert response.status_code == 200, response.text
    assert response.json()["status"] == "pending"
    # value + the fee Gateway charges on each source chain (its minimum).
    assert sb.flash.balance(TEST_ADDRESS, 8453) == 40_000_000 - 30_000_000 - 10_000
    assert sb.flash.balance(TEST_ADDRESS, 1) == 30_000_000 - 20_000_000 - 2_000_000
    history = http.get("/flash/history", headers=bearer(token)).json()
    record = history["swaps"][0]
    assert record["status"] == "pending"
    assert record["transactionHash"] == response.json()["transactionHash"]
    assert record["amountUsdcRaw"] == "50000000"
    assert record["amountUsdc"] == "50.000000"
    assert (record["sourceDomain"], record["destinationDomain"]) == (6, 3)
    sb.wait(8)
    record = http.get("/flash/history", headers=bearer(token)).json()["swaps"][0]
    assert record["status"] == "completed"
    assert record["updatedAt"] == "2025-01-01T00:00:08.000Z"


@pytest.mark.usefixtures("funded")
def test_one_intent_may_be_signed_alone(http: httpx.Client) -> None:
    token = login(http)["token"]
    quote = get_quote(http, 10_000_000)
    body = swap_body(http, quote, {8453: 10_000_000})
    alone = sign_burn_intent(body["signedOrder"][0]["intent"], TEST_SIGNER)
    body["signedOrder"] = alone.to_signed_order()
    assert swap(http, body, token).status_code == 200


@pytest.mark.usefixtures("funded")
def test_a_tampered_intent_is_refused_as_a_bad_signature(sb: Sandbox, http: httpx.Client) -> None:
    token = login(http)["token"]
    body = swap_body(http, get_quote(http, 10_000_000), {8453: 10_000_000})
    tampered = copy.deepcopy(body)
    tampered["signedOrder"][0]["intent"]["spec"]["value"] = "10000001"
    response = swap(http, tampered, token)
    assert response.status_code == 400
    assert response.json()["message"] == (
        "Invalid signature: recovered signer does not match sourceSigner"
    )
    assert sb.flash.balance(TEST_ADDRESS, 8453) == 40_000_000


@pytest.mark.usefixtures("funded")
def test_an_order_signed_by_another_wallet_is_refused(http: httpx.Client) -> None:
    token = login(http)["token"]
    body = swap_body(http, get_quote(http, 10_000_000), {8453: 10_000_000})
    other = swap_body(
        http,
        get_quote(http, 10_000_000),
        {8453: 10_000_000},
        signer=OTHER,
        user=OTHER.address,
    )
    body["signedOrder"][0]["signature"] = other["signedOrder"][0]["signature"]
    assert "recovered signer" in swap(http, body, token).json()["message"]


@pytest.mark.usefixtures("funded")
@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"recipient": "0x" + "ab" * 20}, "destinationRecipient"),
        ({"destination_caller": "0x" + "ab" * 20}, "destinationCaller"),
        ({"source_contract": "0x" + "ab" * 20}, "sourceContract"),
        ({"destination_contract": "0x" + "ab" * 20}, "destinationContract"),
        ({"destination_token": "0x" + "ab" * 20}, "destinationToken"),
        ({"destination_domain": 6}, "destinationDomain"),
        ({"hook_data": "0x"}, "hookData"),
    ],
)
def test_fields_must_agree_with_the_chains_and_the_quote(
    http: httpx.Client, overrides: dict[str, Any], field: str
) -> None:
    token = login(http)["token"]
    body = swap_body(http, get_quote(http, 10_000_000), {8453: 10_000_000}, **overrides)
    response = swap(http, body, token)
    assert response.status_code == 400
    assert f"spec.{field} must be" in response.json()["message"]


@pytest.mark.usefixtures("funded")
def test_an_overdrawn_balance_is_refused(sb: Sandbox, http: httpx.Client) -> None:
    token = login(http)["token"]
    # 39 USDC + the 2.01 USDC max fee is more than the 40 USDC on Base.
    body = swap_body(http, get_quote(http, 39_000_000), {8453: 39_000_000})
    response = swap(http, body, token)
    assert response.status_code == 400
    assert response.json()["message"].startswith("Insufficient balance on Base")
    assert sb.flash.balance(TEST_ADDRESS, 8453) == 40_000_000


@pytest.mark.usefixtures("funded")
def test_a_max_fee_under_the_chain_minimum_is_refused(http: httpx.Client) -> None:
    token = login(http)["token"]
    body = swap_body(http, get_quote(http, 10_000_000), {1: 10_000_000}, max_fee=10_000)
    message = swap(http, body, token).json()["message"]
    assert message == "Insufficient max fee: expected at least 2.000000, got 0.010000"


@pytest.mark.usefixtures("funded")
def test_values_must_add_up_to_the_quote(http: httpx.Client) -> None:
    token = login(http)["token"]
    body = swap_body(http, get_quote(http, 10_000_000), {8453: 6_000_000, 1: 3_000_000})
    assert "quote is for 10.000000 USDC" in swap(http, body, token).json()["message"]


@pytest.mark.usefixtures("funded")
def test_a_quote_serves_one_swap_and_expires(sb: Sandbox, http: httpx.Client) -> None:
    token = login(http)["token"]
    body = swap_body(http, get_quote(http, 5_000_000), {8453: 5_000_000})
    assert swap(http, body, token).status_code == 200
    assert swap(http, body, token).status_code == 409
    late = swap_body(http, get_quote(http, 5_000_000), {8453: 5_000_000})
    sb.wait(301)
    token = login(http)["token"]
    assert "expired" in swap(http, late, token).json()["message"]


@pytest.mark.usefixtures("funded")
def test_only_the_first_element_carries_the_signature(http: httpx.Client) -> None:
    token = login(http)["token"]
    body = swap_body(http, get_quote(http, 10_000_000), {8453: 5_000_000, 1: 5_000_000})
    body["signedOrder"][1]["signature"] = body["signedOrder"][0]["signature"]
    assert "only the first element" in swap(http, body, token).json()["message"]


@pytest.mark.usefixtures("funded")
def test_someone_elses_order_is_forbidden(http: httpx.Client) -> None:
    login(http)
    token = login(http, OTHER)["token"]
    body = swap_body(http, get_quote(http, 5_000_000), {8453: 5_000_000})
    assert swap(http, body, token).status_code == 403


@pytest.mark.usefixtures("funded")
def test_a_failed_swap_gives_the_usdc_back(sb: Sandbox, http: httpx.Client) -> None:
    token = login(http)["token"]
    sb.flash.fail_next()
    body = swap_body(http, get_quote(http, 5_000_000), {8453: 5_000_000})
    assert swap(http, body, token).status_code == 200
    assert sb.flash.balance(TEST_ADDRESS, 8453) < 40_000_000
    sb.wait(10)
    failed = http.get("/flash/history", params={"status": "failed"}, headers=bearer(token))
    assert failed.json()["summary"]["totalSwaps"] == 1
    assert sb.flash.balance(TEST_ADDRESS, 8453) == 40_000_000


def test_history_pages_and_sums(sb: Sandbox, http: httpx.Client) -> None:
    sb.fund(TEST_ADDRESS, 8453, 100_000_000)
    token = login(http)["token"]
    for amount in (3_000_000, 4_000_000, 5_000_000):
        body = swap_body(http, get_quote(http, amount), {8453: amount})
        assert swap(http, body, token).status_code == 200
    page = http.get(
        "/flash/history", params={"page": 2, "page_size": 2}, headers=bearer(token)
    ).json()
    assert [record["amountUsdcRaw"] for record in page["swaps"]] == ["3000000"]
    assert page["pagination"] == {
        "current_page": 2,
        "page_size": 2,
        "total_entries": 3,
        "total_pages": 2,
        "has_next": False,
        "has_previous": True,
    }
    assert page["summary"]["totalVolumeRaw"] == "12000000"
    assert page["summary"]["totalFeesRaw"] == "30000"


def test_leaderboard_and_referrals_follow_what_happened(sb: Sandbox, http: httpx.Client) -> None:
    sb.fund(TEST_ADDRESS, 8453, 100_000_000)
    sb.fund(OTHER.address, 8453, 100_000_000)
    sb.flash.accounts.referral_limit = 1
    code = login(http)["referralCode"]
    assert login(http, OTHER, referredByCode=code)["is_new_user"] is True
    third = Account.from_key("0x" + "22" * 32)
    refused = http.post("/flash/auth/message", json={"userAddress": third.address}).json()
    over_limit = http.post(
        "/flash/auth/verify", json={**signed(refused, third), "referredByCode": code}
    )
    assert over_limit.status_code == 400
    mine = swap_body(http, get_quote(http, 10_000_000), {8453: 10_000_000})
    assert swap(http, mine, login(http)["token"]).status_code == 200
    sb.wait(86400 * 2)
    theirs = swap_body(
        http,
        get_quote(http, 30_000_000, user=OTHER.address),
        {8453: 30_000_000},
        signer=OTHER,
    )
    assert swap(http, theirs, login(http, OTHER)["token"]).status_code == 200

    board = http.get("/flash/leaderboard").json()["entries"]
    assert [(e["rank"], e["walletAddress"]) for e in board] == [
        (1, TEST_ADDRESS),  # 10 own + 30 referred
        (2, OTHER.address),
    ]
    assert board[0]["combined_volume"] == "40.000000"
    assert board[0]["referralCount"] == 1
    day = http.get("/flash/leaderboard", params={"time_range": "24h"}).json()["entries"]
    # Only the referred swap is recent: both combine 30 USDC, ties go by address.
    assert [(e["walletAddress"], e["totalVolume"], e["referralVolume"]) for e in day] == [
        (OTHER.address, "30.000000", "0.000000"),
        (TEST_ADDRESS, "0.000000", "30.000000"),
    ]
    overview = http.get("/flash/referrals", headers=bearer(login(http)["token"])).json()
    assert overview == {
        "referrals": [{"user_address": OTHER.address, "total_volume_usdc": 30.0}],
        "total_referral_volume": 30.0,
        "total_referrals_count": 1,
        "remaining_referral_limit": 0,
    }
    assert http.get("/flash/leaderboard", params={"time_range": "1y"}).status_code == 400
