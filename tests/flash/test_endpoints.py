"""Every swap backend endpoint, sync and async: the exact request, the bearer header only
where the spec asks for it, and the tolerant models of the answers."""

from __future__ import annotations

import json
from datetime import datetime
from decimal import Decimal
from typing import Any

import pytest
from pytest_httpx import HTTPXMock

from xswap_sdk import errors
from xswap_sdk.flash import (
    Chain,
    GatewayBalance,
    HistoryPage,
    LeaderboardPage,
    Quote,
    ReferralOverview,
    SwapSubmission,
    Token,
    TokenSearchResult,
)
from xswap_sdk.types import to_checksum

from ..support import ADDRESS, FLASH_JWT, FLASH_URL, resolve
from .payloads import (
    GATEWAY_MINTER,
    GATEWAY_WALLET,
    HOOK_DATA,
    SWAP_CALLDATA,
    SWAP_ROUTER,
    USDC,
    WETH_BASE,
    balance,
    chain,
    history,
    leaderboard_entry,
    pagination,
    quote,
    siwe,
    swap_record,
    token,
    verification,
)

BEARER = f"Bearer {FLASH_JWT}"


def sent_json(httpx_mock: HTTPXMock, index: int = -1) -> Any:
    return json.loads(httpx_mock.get_requests()[index].content)


def only_request(httpx_mock: HTTPXMock) -> Any:
    (request,) = httpx_mock.get_requests()
    return request


async def test_supported_chains_read_every_field(flash: Any, httpx_mock: HTTPXMock) -> None:
    arbitrum_usdc = {**chain(42161)["usdc"], "version": 2}  # a number: read as "2"
    body = [chain(8453), chain(42161, usdc=arbitrum_usdc)]
    body[0]["bridgeFee"] = "0.1"  # unknown fields are kept
    httpx_mock.add_response(url=f"{FLASH_URL}/supported-chains", method="GET", json=body)
    chains = await resolve(flash.get_supported_chains())
    assert all(isinstance(c, Chain) for c in chains)
    base, arbitrum = chains
    assert (base.id, base.name, base.display_name, base.domain) == (8453, "base", "Base", 6)
    assert base.logo_url == "https://logos.test/8453.svg"
    assert base.explorer_url == "https://explorer.test/8453"
    assert base.gateway_wallet == GATEWAY_WALLET
    assert base.gateway_minter == GATEWAY_MINTER
    assert base.router_address is not None
    assert base.native_token is not None
    assert base.native_token.address == "0x" + "00" * 20
    assert base.native_token.decimals == 18
    assert base.usdc is not None
    assert base.usdc.address == "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"  # checksummed
    assert (base.usdc.decimals, base.usdc.version, base.usdc.symbol) == (6, "2", "USDC")
    assert arbitrum.usdc is not None
    assert arbitrum.usdc.version == "2"
    assert base.model_extra == {"bridgeFee": "0.1"}
    assert base.model_dump()["gatewayWallet"] == GATEWAY_WALLET
    request = only_request(httpx_mock)
    assert "authorization" not in request.headers


async def test_request_auth_message_posts_the_address(flash: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        url=f"{FLASH_URL}/auth/message",
        method="POST",
        json={"message": siwe(), "expiry": 1735689900, "messageId": "m-1"},
    )
    message = await resolve(flash.request_auth_message(ADDRESS.lower()))
    assert (message.message, message.expiry, message.message_id) == (siwe(), 1735689900, "m-1")
    assert sent_json(httpx_mock) == {"userAddress": ADDRESS}
    assert "authorization" not in only_request(httpx_mock).headers


async def test_verify_auth_posts_the_signature_and_hides_the_token(
    flash: Any, httpx_mock: HTTPXMock
) -> None:
    signature = "0x" + "ab" * 65
    httpx_mock.add_response(
        url=f"{FLASH_URL}/auth/verify",
        method="POST",
        json={
            "token": "jwt-secret-value",
            "user_address": ADDRESS.lower(),
            "referralCode": "REF9",
            "is_new_user": False,
        },
    )
    verified = await resolve(flash.verify_auth(signature, "m-1", referred_by_code="FRIEND"))
    assert sent_json(httpx_mock) == {
        "signature": signature,
        "messageId": "m-1",
        "referredByCode": "FRIEND",
    }
    assert verified.token.get_secret_value() == "jwt-secret-value"
    assert "jwt-secret-value" not in repr(verified)
    assert (verified.user_address, verified.referral_code, verified.is_new_user) == (
        ADDRESS,
        "REF9",
        False,
    )


async def test_verify_auth_without_a_referral_code(flash: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=f"{FLASH_URL}/auth/verify", json=verification("t"))
    await resolve(flash.verify_auth("0x" + "ab" * 65, "m-1"))
    assert sent_json(httpx_mock) == {"signature": "0x" + "ab" * 65, "messageId": "m-1"}


async def test_token_list_for_all_chains_and_one(flash: Any, httpx_mock: HTTPXMock) -> None:
    listed = token()
    branded = token(USDC[8453], symbol="USDC")
    del branded["in_service_token_list"]
    branded["in_rath_token_list"] = False  # the live brand word, whatever it is
    httpx_mock.add_response(url=f"{FLASH_URL}/token-list", json={"tokens": [listed, branded]})
    httpx_mock.add_response(url=f"{FLASH_URL}/token-list?chain_id=8453", json={"tokens": []})
    tokens = await resolve(flash.get_token_list())
    assert all(isinstance(t, Token) for t in tokens)
    assert tokens[0].address == WETH_BASE
    assert (tokens[0].symbol, tokens[0].decimals, tokens[0].chain_id) == ("WETH", 18, 8453)
    assert tokens[0].logo_url == "https://logos.test/weth.svg"
    assert tokens[0].in_service_token_list is True
    assert tokens[1].in_service_token_list is False
    assert await resolve(flash.get_token_list(chain_id=8453)) == []
    assert tokens[0].model_dump()["in_service_token_list"] is True  # snake_case wire form


async def test_search_token_posts_camel_case_and_reads_it(
    flash: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(
        url=f"{FLASH_URL}/search-token",
        method="POST",
        json={
            "address": WETH_BASE.lower(),
            "symbol": "WETH",
            "decimals": 18,
            "name": "Wrapped Ether",
            "chainId": 8453,
            "logoUrl": "https://logos.test/weth.svg",
            "inFlashTokenList": True,
        },
    )
    found = await resolve(flash.search_token(8453, WETH_BASE.lower()))
    assert isinstance(found, TokenSearchResult)
    assert sent_json(httpx_mock) == {"chainId": 8453, "address": WETH_BASE}
    assert (found.chain_id, found.logo_url, found.in_service_token_list) == (
        8453,
        "https://logos.test/weth.svg",
        True,
    )
    assert "authorization" not in only_request(httpx_mock).headers


async def test_get_quote_sends_the_exact_query(flash: Any, httpx_mock: HTTPXMock) -> None:
    recipient = "0x" + "12" * 20
    httpx_mock.add_response(
        url=(
            f"{FLASH_URL}/quote?inputAmount=10000000&outputToken={WETH_BASE}&chainId=8453"
            f"&from={ADDRESS}&slippage=1.5&recipient=0x1212121212121212121212121212121212121212"
        ),
        method="GET",
        json=quote(),
    )
    result = await resolve(
        flash.get_quote(
            input_amount="10000000",
            output_token=WETH_BASE,
            chain_id=8453,
            sender=ADDRESS.lower(),
            slippage=1.5,
            recipient=recipient,
        )
    )
    assert isinstance(result, Quote)
    assert result.token_in is not None
    assert result.token_in.amount == 10_000_000
    assert result.token_in.price_usd == Decimal("0.9998")
    assert result.token_in.usd_amount == Decimal("9.998")
    assert result.token_out is not None
    assert result.token_out.amount == 3012345678901234
    assert result.fees is not None
    assert (result.fees.total_fee, result.fees.gateway_fee, result.fees.execution_fee) == (
        2_025_000,
        2_010_000,
        15_000,
    )
    assert result.swap_router_address == SWAP_ROUTER
    assert result.swap_calldata == SWAP_CALLDATA
    assert result.hook_data == HOOK_DATA
    assert result.expires_at == 1_735_689_660
    assert result.request is not None
    assert result.request.input_amount == 10_000_000
    assert "authorization" not in only_request(httpx_mock).headers


@pytest.mark.parametrize(
    ("slippage", "sent"), [("0.5", "0.5"), (Decimal("1.50"), "1.5"), (3, "3"), ("0.01", "0.01")]
)
async def test_quote_slippage_is_sent_as_exact_percent_text(
    flash: Any, httpx_mock: HTTPXMock, slippage: Any, sent: str
) -> None:
    httpx_mock.add_response(json=quote())
    await resolve(
        flash.get_quote(
            input_amount=1, output_token=WETH_BASE, chain_id=1, sender=ADDRESS, slippage=slippage
        )
    )
    assert only_request(httpx_mock).url.params["slippage"] == sent
    assert "recipient" not in only_request(httpx_mock).url.params


async def test_quote_expiry_in_milliseconds_is_recognised(
    flash: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(json=quote(expires_at=1_735_689_660_000, hook_data=None))
    result = await resolve(
        flash.get_quote(
            input_amount=1, output_token=WETH_BASE, chain_id=1, sender=ADDRESS, slippage=1
        )
    )
    assert result.expires_at_seconds == 1_735_689_660.0
    assert result.hook_data == "0x"  # null hook data is empty bytes


async def test_get_balance_reads_every_chain(flash: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        url=f"{FLASH_URL}/balance/{ADDRESS}", method="GET", json=balance({8453: 5, 42161: 7})
    )
    result = await resolve(flash.get_balance(ADDRESS.lower()))
    assert isinstance(result, GatewayBalance)
    assert result.total_balance == 12
    first = result.balances[0]
    assert (first.domain, first.depositor, first.balance, first.chain_id, first.chain_name) == (
        6,
        ADDRESS,
        5,
        8453,
        "Base",
    )
    assert "authorization" not in only_request(httpx_mock).headers


async def test_get_history_sends_the_bearer_and_reads_the_page(
    flash: Any, httpx_mock: HTTPXMock
) -> None:
    record = swap_record("0x" + "ab" * 32, "completed", bonus="kept")
    httpx_mock.add_response(
        url=f"{FLASH_URL}/history?page=2&page_size=10&status=completed",
        method="GET",
        json=history([record], page=2, pages=3),
    )
    page = await resolve(flash.get_history(page=2, page_size=10, status="completed"))
    assert isinstance(page, HistoryPage)
    assert only_request(httpx_mock).headers["authorization"] == BEARER
    (swap,) = page.swaps
    assert swap.status == "completed"
    assert (swap.source_domain, swap.destination_domain, swap.chain_id) == (3, 6, 8453)
    assert swap.source_token == to_checksum(USDC[42161])
    assert swap.amount_usdc == 10_000_000  # read exactly from "10.000000" USDC
    assert swap.amount_usdc_raw == 10_000_000
    assert swap.min_amount_out == 2_997_000_000_000_000  # "0.002997" WETH, 18 decimals
    assert swap.model_dump(mode="json")["minAmountOut"] == "0.002997000000000000"
    assert (swap.service_fee, swap.service_fee_raw) == (15_000, 15_000)
    assert swap.token_in is not None
    assert swap.token_in.symbol == "USDC"
    assert swap.tx_id == "gw-abababab"
    assert isinstance(swap.created_at, datetime)
    assert swap.model_extra == {"bonus": "kept"}
    assert page.pagination is not None
    assert (page.pagination.current_page, page.pagination.has_next) == (2, True)
    assert page.pagination.has_previous is True
    assert page.summary is not None
    assert page.summary.total_swaps == 3
    assert page.summary.total_volume == 30_500_000
    assert (page.summary.total_volume_raw, page.summary.total_fees_raw) == (30_500_000, 45_000)
    assert page.summary.total_fees == 45_000


async def test_history_defaults(flash: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=f"{FLASH_URL}/history?page=1&page_size=20", json=history([]))
    assert (await resolve(flash.get_history())).swaps == []


async def test_leaderboard_is_public_and_mixes_spellings(flash: Any, httpx_mock: HTTPXMock) -> None:
    entry = leaderboard_entry(1)
    httpx_mock.add_response(
        url=f"{FLASH_URL}/leaderboard?page=1&page_size=50&time_range=7d",
        json={"entries": [entry], "pagination": pagination(1, 1, size=50)},
    )
    httpx_mock.add_response(
        url=f"{FLASH_URL}/leaderboard?page=1&page_size=50",
        json={"entries": [], "pagination": pagination(1, 1, size=50, total=0)},
    )
    board = await resolve(flash.get_leaderboard(time_range="7d"))
    assert isinstance(board, LeaderboardPage)
    (row,) = board.entries
    assert (row.rank, row.wallet_address, row.swap_count, row.referral_count) == (1, ADDRESS, 12, 2)
    assert (row.total_volume, row.combined_volume) == (1_500_250_000, 1_600_250_000)
    assert (row.total_volume_raw, row.referral_volume_raw) == (1_500_250_000, 100_000_000)
    assert row.referral_volume == 100_000_000
    assert row.referral_code == "TOP1"
    assert isinstance(row.last_swap_at, datetime)
    assert row.model_dump()["combined_volume"] == 1_600_250_000
    assert row.model_dump(mode="json", by_alias=True)["combined_volume"] == "1600.250000"
    assert (await resolve(flash.get_leaderboard())).entries == []
    assert all("authorization" not in r.headers for r in httpx_mock.get_requests())


async def test_referrals_send_the_bearer(flash: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        url=f"{FLASH_URL}/referrals",
        json={
            "referrals": [{"user_address": ADDRESS.lower(), "total_volume_usdc": 12.5}],
            "total_referral_volume": 12.5,
            "total_referrals_count": 1,
            "remaining_referral_limit": 9,
        },
    )
    overview = await resolve(flash.get_referrals())
    assert isinstance(overview, ReferralOverview)
    assert overview.referrals[0].user_address == ADDRESS
    assert overview.referrals[0].total_volume_usdc == 12_500_000  # a JSON number of USDC
    assert overview.total_referral_volume == 12_500_000
    assert (overview.total_referrals_count, overview.remaining_referral_limit) == (1, 9)
    assert only_request(httpx_mock).headers["authorization"] == BEARER


def raw_order() -> list[dict[str, Any]]:
    return [{"intent": {"maxFee": "1"}, "signature": "0x" + "cd" * 65}]


async def test_submit_swap_posts_the_body_with_the_bearer(
    flash: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(
        url=f"{FLASH_URL}/swap",
        method="POST",
        json={"transactionHash": "0x" + "ef" * 32, "status": "pending", "message": "ok"},
    )
    submission = await resolve(
        flash.submit_swap(
            raw_order(),
            slippage_bps=150,
            user_address=ADDRESS.lower(),
            chain_id=8453,
            swap_router_address=SWAP_ROUTER.lower(),
            swap_calldata=SWAP_CALLDATA.upper().replace("0X", "0x"),
        )
    )
    assert isinstance(submission, SwapSubmission)
    assert (submission.status, submission.message) == ("pending", "ok")
    assert submission.record is None
    assert sent_json(httpx_mock) == {
        "signedOrder": raw_order(),
        "userAddress": ADDRESS,
        "chainId": 8453,
        "swapRouterAddress": SWAP_ROUTER,
        "swapCalldata": SWAP_CALLDATA,
        "slippageBps": 150,
    }
    assert only_request(httpx_mock).headers["authorization"] == BEARER


@pytest.mark.parametrize("status", [500, 503])
async def test_submit_swap_is_sent_once_even_on_5xx(
    flash: Any, httpx_mock: HTTPXMock, status: int
) -> None:
    httpx_mock.add_response(url=f"{FLASH_URL}/swap", status_code=status, json={"message": "down"})
    with pytest.raises(errors.InternalServerError) as info:
        await resolve(
            flash.submit_swap(
                raw_order(),
                slippage_bps=50,
                user_address=ADDRESS,
                chain_id=8453,
                swap_router_address=SWAP_ROUTER,
                swap_calldata="0x",
            )
        )
    assert info.value.outcome_unknown
    assert len(httpx_mock.get_requests()) == 1
    assert ("cd" * 65) not in str(info.value)


async def test_reads_are_retried_on_503(flash: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=f"{FLASH_URL}/supported-chains", status_code=503)
    httpx_mock.add_response(url=f"{FLASH_URL}/supported-chains", json=[chain(1)])
    assert [c.id for c in await resolve(flash.get_supported_chains())] == [1]
    assert len(httpx_mock.get_requests()) == 2


async def test_error_bodies_become_status_errors(flash: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        url=f"{FLASH_URL}/search-token", status_code=404, json={"message": "Token not found"}
    )
    with pytest.raises(errors.NotFoundError, match="Token not found"):
        await resolve(flash.search_token(1, WETH_BASE))


@pytest.mark.parametrize(
    ("call", "argument"),
    [
        (lambda c: c.get_token_list(chain_id="base"), "chain_id"),
        (lambda c: c.get_token_list(chain_id=0), "chain_id"),
        (lambda c: c.search_token(1, "0x1234"), "address"),
        (lambda c: c.get_balance("nope"), "address"),
        (lambda c: c.request_auth_message("0x12"), "user_address"),
        (lambda c: c.verify_auth("abc", "m"), "signature"),
        (lambda c: c.verify_auth("0x" + "ab" * 65, " "), "message_id"),
        (lambda c: c.verify_auth("0x" + "ab" * 65, "m", referred_by_code=""), "referred_by_code"),
        (lambda c: c.get_history(page=0), "page"),
        (lambda c: c.get_history(page=True), "page"),
        (lambda c: c.get_history(page_size=0), "page_size"),
        (lambda c: c.get_history(page_size=101), "page_size"),
        (lambda c: c.get_history(status="done"), "status"),
        (lambda c: c.get_leaderboard(page_size=1.5), "page_size"),
        (lambda c: c.get_leaderboard(time_range="1y"), "time_range"),
        (
            lambda c: c.get_quote(
                input_amount=1.5, output_token=WETH_BASE, chain_id=1, sender=ADDRESS, slippage=1
            ),
            "input_amount",
        ),
        (
            lambda c: c.get_quote(
                input_amount=0, output_token=WETH_BASE, chain_id=1, sender=ADDRESS, slippage=1
            ),
            "input_amount",
        ),
        (
            lambda c: c.get_quote(
                input_amount=1, output_token=WETH_BASE, chain_id=1, sender=ADDRESS, slippage=1.234
            ),
            "slippage",
        ),
        (
            lambda c: c.get_quote(
                input_amount=1, output_token=WETH_BASE, chain_id=1, sender=ADDRESS, slippage=-1
            ),
            "slippage",
        ),
        (
            lambda c: c.get_quote(
                input_amount=1, output_token=WETH_BASE, chain_id=1, sender=ADDRESS, slippage="x"
            ),
            "slippage",
        ),
        (
            lambda c: c.get_quote(
                input_amount=1, output_token="WETH", chain_id=1, sender=ADDRESS, slippage=1
            ),
            "output_token",
        ),
        (
            lambda c: c.submit_swap(
                raw_order(),
                slippage_bps=1.5,
                user_address=ADDRESS,
                chain_id=1,
                swap_router_address=SWAP_ROUTER,
                swap_calldata="0x",
            ),
            "slippage_bps",
        ),
        (
            lambda c: c.submit_swap(
                [],
                slippage_bps=1,
                user_address=ADDRESS,
                chain_id=1,
                swap_router_address=SWAP_ROUTER,
                swap_calldata="0x",
            ),
            "signed_order",
        ),
        (
            lambda c: c.submit_swap(
                raw_order(), slippage_bps=1, chain_id=1, swap_router_address=SWAP_ROUTER
            ),
            "user_address",
        ),
        (lambda c: c.submit_swap("0xabc", slippage_bps=1), "signed_order"),
        (lambda c: c.wait_for_swap(""), "transaction_hash"),
        (lambda c: c.wait_for_swap("0x1", poll_interval=0), "poll_interval"),
    ],
)
async def test_bad_input_is_refused_before_any_request(
    flash: Any, httpx_mock: HTTPXMock, call: Any, argument: str
) -> None:
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(call(flash))
    assert info.value.argument == argument
    assert httpx_mock.get_requests() == []


async def test_base_url_from_the_environment(
    make_flash: Any, httpx_mock: HTTPXMock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XSWAP_FLASH_URL", "https://flash.env.test/")
    client = make_flash(base_url=None)
    assert client.base_url == "https://flash.env.test"
    httpx_mock.add_response(url="https://flash.env.test/supported-chains", json=[])
    assert await resolve(client.get_supported_chains()) == []


def test_default_base_url(make_flash: Any) -> None:
    assert make_flash(base_url=None).base_url == "https://flash.rath.fi"
