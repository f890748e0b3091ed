"""The emulated routing service on the wire: envelope, keys, ranked routes, built
transactions, status in both shapes, and the Permit2 gasless flow."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from eth_account import Account

from xswap_sdk.sandbox import Sandbox
from xswap_sdk.signing import recover_typed_data, sign_typed_data
from xswap_sdk.testing import TEST_ADDRESS, TEST_SIGNER

USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
USDC_ARB = "0xaf88d065e77c8cC2239327C5EDb3A432268e5831"
WETH_ARB = "0x82aF49447D8a07e3bd95BD0d56f35241523fBab1"
WETH_BASE = "0x4200000000000000000000000000000000000006"
BASE_TO_ARB = {
    "fromChain": 8453,
    "toChain": 42161,
    "fromToken": USDC_BASE,
    "toToken": WETH_ARB,
    "amount": "100000000",
    "sender": TEST_ADDRESS,
}


def ok(response: httpx.Response) -> Any:
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["code"] == 0
    assert body["message"] == "success"
    return body["data"]


def quote(http: httpx.Client, **params: Any) -> list[dict[str, Any]]:
    routes: list[dict[str, Any]] = ok(http.get("/routing/quote", params={**BASE_TO_ARB, **params}))
    return routes


@pytest.mark.parametrize("path", ["/routing/supported-chains", "/routing/gasless/status?id=x"])
@pytest.mark.parametrize("key", [None, "wrong"])
def test_keyed_endpoints_answer_401(http: httpx.Client, path: str, key: str | None) -> None:
    response = http.get(path, headers={"api-key": key} if key else {})
    assert response.status_code == 401
    assert response.json()["code"] == 401
    assert response.json()["data"] is None


def test_supported_chains_with_features(sb: Sandbox, http: httpx.Client) -> None:
    chains = ok(http.get("/routing/supported-chains", headers={"api-key": sb.routing.api_key}))
    assert {(c["id"], c["nativeToken"]["symbol"]) for c in chains} == {
        (8453, "ETH"), (42161, "ETH"), (999, "HYPE"), (137, "MATIC"), (10, "ETH"), (1, "ETH"),
        (56, "BNB"), (143, "MON"), (50, "XDC"), (130, "UNI"), (4663, "ETH"),
    }  # fmt: skip
    for chain in chains:
        assert chain["features"] == {"gaslessSwaps": True, "crossChain": True, "permit2": True}
        assert chain["chainType"] == "evm"
        assert chain["name"] == chain["name"].lower()


def test_supported_chains_answers_plain_text_invalid_request(
    sb: Sandbox, http: httpx.Client
) -> None:
    response = http.get(
        "/routing/supported-chains", params={"page": "x"}, headers={"api-key": sb.routing.api_key}
    )
    assert response.status_code == 400
    assert response.headers["content-type"].startswith("text/plain")
    assert response.text == "Invalid request"


def test_a_5xx_is_plain_text(sb: Sandbox, http: httpx.Client) -> None:
    sb.faults.server_error(500, service="routing")
    response = http.get("/routing/quote", params=BASE_TO_ARB)
    assert response.status_code == 500
    assert response.text == "Internal server error"


def test_routes_are_ranked_by_the_route_mode(http: httpx.Client) -> None:
    by_value = quote(http)
    assert [int(r["amountOut"]) for r in by_value] == sorted(
        (int(r["amountOut"]) for r in by_value), reverse=True
    )
    fastest = quote(http, routeMode="fastest")
    times = [r["estimatedTimeMs"] for r in fastest]
    assert times == sorted(times)
    assert quote(http, routeMode="suggested")[0]["quoteId"]
    # Any other mode is max_value.
    assert [r["routeKind"] for r in quote(http, routeMode="cheapest")] == [
        r["routeKind"] for r in by_value
    ]


def test_provider_filters(http: httpx.Client) -> None:
    names = [
        {p["name"] for p in r["providers"]}
        for r in quote(http, includeProvider="ACROSS", excludeProvider="uniswap")
    ]
    assert names
    assert all(n == {"Across", "KyberSwap"} for n in names)
    repeated = http.get(
        "/routing/quote",
        params=[*BASE_TO_ARB.items(), ("excludeProvider", "across"), ("excludeProvider", "relay")],
    )
    for route in ok(repeated):
        assert not {p["name"] for p in route["providers"]} & {"Across", "Relay"}


def test_route_shape_and_echoes(http: httpx.Client) -> None:
    route = quote(http, Integrator="acme", slippage="0.5", feeBps=25)[0]
    assert route["integratorId"] == "acme"
    assert route["slippage"] == 0.5
    assert route["sender"] == route["receiver"] == TEST_ADDRESS
    assert route["routeKind"] == "swapBridge"
    assert int(route["minAmountOut"]) == int(int(route["amountOut"]) * 0.995)
    assert route["fees"]["integratorFee"] == str(100_000_000 * 25 // 10_000)
    assert route["fromToken"]["chain"] == 8453
    assert route["toToken"]["symbol"] == "WETH"
    assert [step["type"] for step in route["path"]] == ["bridge", "dex"]
    no_slippage = quote(http)[0]
    assert "slippage" not in no_slippage
    assert "integratorId" not in no_slippage
    assert no_slippage["minAmountOut"] == no_slippage["amountOut"]


def test_route_kinds(http: httpx.Client) -> None:
    same_chain = quote(http, toChain=8453, toToken=WETH_BASE)
    assert {r["routeKind"] for r in same_chain} == {"sameChainSwap"}
    usdc = quote(http, toToken=USDC_ARB, allowMultiBridge="true")
    assert {r["routeKind"] for r in usdc} == {"directBridge", "multiBridge"}
    assert "Circle CCTP" in {p["name"] for r in usdc for p in r["providers"]}


@pytest.mark.parametrize(
    "params",
    [{"fromChain": None}, {"toToken": "0x" + "12" * 20}, {"amount": "-1"}, {"toChain": 31337}],
)
def test_bad_quote_requests(http: httpx.Client, params: dict[str, Any]) -> None:
    query = {k: v for k, v in {**BASE_TO_ARB, **params}.items() if v is not None}
    response = http.get("/routing/quote", params=query)
    assert response.status_code == 400
    assert response.json()["code"] == 400


def test_build_path_from_a_route_and_by_id(http: httpx.Client) -> None:
    routes = quote(http)
    tx = ok(http.post("/routing/build-path", json={"route": routes[0], "sender": TEST_ADDRESS}))
    assert tx["chain"] == 8453
    assert tx["to"] == tx["allowanceTarget"]
    assert tx["data"].startswith("0x")
    flat = ok(
        http.post(
            "/routing/build-path",
            json={"fromChain": 8453, "toChain": 42161, "fromToken": USDC_BASE,
                  "toToken": WETH_ARB, "Amount": "100000000", "Sender": TEST_ADDRESS},
        )
    )  # fmt: skip
    assert flat["to"] == tx["to"]
    by_id = ok(http.post("/routing/build-path-by-id", json={"quoteId": routes[1]["quoteId"]}))
    assert by_id["chain"] == 8453
    unknown = http.post("/routing/build-path-by-id", json={"quoteId": "nope"})
    assert unknown.status_code == 404


def test_a_quoted_route_expires(sb: Sandbox, http: httpx.Client) -> None:
    route = quote(http)[0]
    sb.wait(121)
    response = http.post("/routing/build-path-by-id", json={"quoteId": route["quoteId"]})
    assert response.status_code == 400
    assert "expired" in response.json()["message"]


def test_build_best_path_respects_the_minimum(http: httpx.Client) -> None:
    best = ok(http.get("/routing/build-best-path", params={**BASE_TO_ARB, "includeRoute": "true"}))
    assert best["Tx"]["chain"] == 8453
    assert best["route"]["path"]
    too_much = http.get(
        "/routing/build-best-path", params={**BASE_TO_ARB, "minOutputAmount": 10**30}
    )
    assert too_much.status_code == 404


def test_status_follows_a_broadcast_transaction(sb: Sandbox, http: httpx.Client) -> None:
    route = quote(http, routeMode="fastest")[0]
    tx = ok(http.post("/routing/build-path", json={"route": route, "sender": TEST_ADDRESS}))
    source_hash = sb.routing.broadcast(tx)
    status = ok(http.get("/routing/status", params={"txHash": source_hash, "fromChain": 8453}))
    assert status["status"] == "pending"
    assert status["srcTxDetails"]["txHash"] == source_hash
    assert status["destTxDetails"]["txHash"] is None
    assert status["tachyonTxId"] is None
    sb.wait(route["estimatedTimeMs"] / 1000)
    done = ok(http.get("/routing/status", params={"txHash": source_hash, "fromChain": 8453}))
    assert done["status"] == "completed"
    assert done["destTxDetails"]["txHash"].startswith("0x")
    key = route["providers"][0]["name"].lower()
    other = ok(http.get("/routing/status", params={"providerKey": key, "txRef": source_hash}))
    assert other["state"] == "completed"
    assert other["destinationTxHash"] == done["destTxDetails"]["txHash"]
    assert other["sourceTxHash"] == source_hash
    wrong_chain = http.get("/routing/status", params={"txHash": source_hash, "fromChain": 1})
    assert wrong_chain.status_code == 404


def test_status_delay_replaces_the_routes_estimated_time(sb: Sandbox, http: httpx.Client) -> None:
    sb.routing.status_delay = 1.0
    route = quote(http, routeMode="max_value")[0]
    assert route["estimatedTimeMs"] > 2_000
    tx = ok(http.post("/routing/build-path", json={"route": route, "sender": TEST_ADDRESS}))
    source_hash = sb.routing.broadcast(tx)
    params = {"txHash": source_hash, "fromChain": 8453}
    assert ok(http.get("/routing/status", params=params))["status"] == "pending"
    sb.wait(1.0)
    assert ok(http.get("/routing/status", params=params))["status"] == "completed"


def test_a_broadcast_can_fail_and_unknown_transactions_are_refused(
    sb: Sandbox, http: httpx.Client
) -> None:
    route = quote(http)[0]
    tx = ok(http.post("/routing/build-path", json={"route": route, "sender": TEST_ADDRESS}))
    source_hash = sb.routing.broadcast(tx, fail=True)
    sb.wait(3600)
    status = ok(http.get("/routing/status", params={"txHash": source_hash, "fromChain": 8453}))
    assert status["status"] == "failed"
    with pytest.raises(ValueError, match="only transactions it built"):
        sb.routing.broadcast({"data": "0x1234"})


def test_search_token_and_tokens(http: httpx.Client) -> None:
    found = ok(http.get("/routing/search-token", params={"query": "weth"}))
    assert {t["chainId"] for t in found} == {1, 8453, 42161}
    assert set(found[0]) == {"address", "chainId", "decimals", "logoUrl", "name", "symbol"}
    by_address = ok(http.get("/routing/search-token", params={"query": USDC_ARB.lower()}))
    assert [t["symbol"] for t in by_address] == ["USDC"]
    on_base = ok(http.get("/routing/tokens", params={"chainId": 8453}))
    assert {t["chainId"] for t in on_base} == {8453}


def gasless_quotes(http: httpx.Client, **params: Any) -> list[dict[str, Any]]:
    quotes: list[dict[str, Any]] = ok(
        http.get("/routing/gasless/quote", params={**BASE_TO_ARB, **params})
    )
    return quotes


def submit_gasless(
    http: httpx.Client, quote: dict[str, Any], signer: Any = TEST_SIGNER
) -> httpx.Response:
    """Sign a gasless quote's payload as given and submit it."""
    signature = sign_typed_data(signer, quote["eip712"])
    return http.post(
        "/routing/gasless/submit-swap", json={"quoteId": quote["quoteId"], "signature": signature}
    )


def gasless_status(sb: Sandbox, http: httpx.Client, swap_id: str) -> Any:
    return ok(
        http.get(
            "/routing/gasless/status",
            params={"id": swap_id},
            headers={"api-key": sb.routing.api_key},
        )
    )


def test_gasless_quote_is_a_real_permit2_payload(http: httpx.Client) -> None:
    quotes = gasless_quotes(http)
    assert 1 <= len(quotes) <= 3
    payload = quotes[0]["eip712"]
    assert payload["domain"] == {
        "name": "Permit2",
        "chainId": 8453,
        "verifyingContract": "0x000000000022D473030F116dDEE9F6B43aC78BA3",
    }
    assert payload["primaryType"] == "PermitTransferFrom"
    assert payload["message"]["permitted"] == {"token": USDC_BASE, "amount": "100000000"}
    assert payload["message"]["deadline"] == str(quotes[0]["deadline"])
    assert quotes[0]["deadline"] == 1_735_689_600 + 600
    signature = sign_typed_data(TEST_SIGNER, payload)
    assert recover_typed_data(payload, signature) == TEST_ADDRESS
    witness = gasless_quotes(http, acquisitionMode=3, deadlineMinutes=1)[0]
    assert witness["eip712"]["primaryType"] == "PermitWitnessTransferFrom"
    assert witness["eip712"]["message"]["witness"]["receiver"] == TEST_ADDRESS
    assert witness["deadline"] == 1_735_689_600 + 60


def test_gasless_swap_is_relayed_and_reports_the_live_spelling(
    sb: Sandbox, http: httpx.Client
) -> None:
    submitted = ok(submit_gasless(http, gasless_quotes(http)[0]))
    assert submitted["status"] == "pending"
    assert submitted["executionTxHash"] is None
    assert submitted["tachyonTxId"] in sb.relayer.transaction_ids
    status = gasless_status(sb, http, submitted["swapId"])
    assert status["status"] == "pending"
    assert status["executionTxHash"] is None
    sb.wait(5)
    status = gasless_status(sb, http, submitted["swapId"])
    assert status["status"] == "completed"
    relayed = sb.relayer.record(submitted["tachyonTxId"])
    assert status["executionTxHash"] == relayed["executionTxHash"]
    assert status["from"] == TEST_ADDRESS


def test_gasless_submission_checks_the_signature_and_the_quote(
    sb: Sandbox, http: httpx.Client
) -> None:
    chosen = gasless_quotes(http)[0]
    forged = submit_gasless(http, chosen, Account.from_key("0x" + "33" * 32))
    assert forged.status_code == 400
    assert "not signed by the sender" in forged.json()["message"]
    assert sb.relayer.transaction_ids == []
    assert submit_gasless(http, chosen).status_code == 200
    assert submit_gasless(http, chosen).status_code == 409
    late = gasless_quotes(http)[0]
    sb.wait(601)
    assert submit_gasless(http, late).status_code == 400


def test_a_failed_relay_fails_the_gasless_swap(sb: Sandbox, http: httpx.Client) -> None:
    sb.relayer.fail_next("execution reverted", label="gasless")
    swap_id = ok(submit_gasless(http, gasless_quotes(http)[0]))["swapId"]
    sb.wait(10)
    status = gasless_status(sb, http, swap_id)
    assert status["status"] == "failed"
    assert status["executionTxHash"] is None


def test_gasless_needs_an_erc20_input(http: httpx.Client) -> None:
    response = http.get(
        "/routing/gasless/quote", params={**BASE_TO_ARB, "fromToken": "0x" + "0" * 40}
    )
    assert response.status_code == 400
    assert "ERC-20" in response.json()["message"]
