"""Quotes and transaction building: the exact wire form of every argument, and the
routes, transactions and built paths read back."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any
from urllib.parse import parse_qsl

import pytest
from pytest_httpx import HTTPXMock

from xswap_sdk import errors
from xswap_sdk.routing import AcquisitionMode, BuiltPath, Route, Transaction

from ..support import (
    ROUTING_URL,
    TEST_ADDRESS,
    USDC_ARBITRUM,
    USDC_BASE,
    resolve,
    route_wire,
    routing_ok,
)

QUOTE_URL = f"{ROUTING_URL}/quote"
REQUIRED: dict[str, Any] = {
    "from_chain": 8453,
    "to_chain": 42161,
    "from_token": USDC_BASE,
    "to_token": USDC_ARBITRUM,
    "amount": 1_000_000,
    "sender": TEST_ADDRESS,
}
REQUIRED_QUERY = (
    f"fromChain=8453&toChain=42161&fromToken={USDC_BASE}&toToken={USDC_ARBITRUM}"
    f"&amount=1000000&sender={TEST_ADDRESS}"
)
TX = {
    "to": "0x1231deb6f5749ef6ce6943a275a1d3e7486f4eae",
    "data": "0x4630a0d8",
    "chain": 8453,
    "gasLimit": "350000",
    "allowanceTarget": "0x1231deb6f5749ef6ce6943a275a1d3e7486f4eae",
    "expiry": 1735690200,
    "simulation": False,
}


def sent_query(httpx_mock: HTTPXMock, index: int = 0) -> str:
    return httpx_mock.get_requests()[index].url.query.decode()


def sent_json(httpx_mock: HTTPXMock, index: int = 0) -> Any:
    return json.loads(httpx_mock.get_requests()[index].content)


async def test_quote_with_only_required_arguments_sends_only_them(
    routing: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(json=routing_ok([route_wire()]))
    await resolve(routing.get_quote(**REQUIRED))
    request = httpx_mock.get_requests()[0]
    assert request.method == "GET"
    assert request.url.path == "/quote"
    assert sent_query(httpx_mock) == REQUIRED_QUERY


async def test_quote_sends_every_parameter_with_the_spec_names(
    routing: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(json=routing_ok([route_wire()]))
    await resolve(
        routing.get_quote(
            **REQUIRED,
            receiver=TEST_ADDRESS.lower(),
            slippage=0.1,
            fee_bps=25,
            include_providers=["cctp", "Across"],
            exclude_providers=("stargate",),
            route_mode="fastest",
            integrator="acme",
            allow_multi_bridge=True,
            acquisition_mode=AcquisitionMode.PERMIT2,
            priority_provider="cctp",
            referrer="ref-1",
            destination_call_data="0xABCD",
            destination_gas_limit=200_000,
            allowed_price_impact=Decimal("1.50"),
            simulation=False,
        )
    )
    assert parse_qsl(sent_query(httpx_mock)) == [
        ("fromChain", "8453"),
        ("toChain", "42161"),
        ("fromToken", USDC_BASE),
        ("toToken", USDC_ARBITRUM),
        ("amount", "1000000"),
        ("sender", TEST_ADDRESS),
        ("receiver", TEST_ADDRESS),  # checksummed on the way out
        ("slippage", "0.1"),
        ("feeBps", "25"),
        ("includeProvider", "cctp,Across"),
        ("excludeProvider", "stargate"),
        ("routeMode", "fastest"),
        ("Integrator", "acme"),
        ("allowMultiBridge", "true"),
        ("acquisitionMode", "2"),
        ("priorityProvider", "cctp"),
        ("Referrer", "ref-1"),
        ("destinationCallData", "0xabcd"),
        ("destinationGasLimit", "200000"),
        ("allowedPriceImpact", "1.5"),
        ("simulation", "false"),
    ]
    # One comma-separated parameter, not repeated ones.
    assert sent_query(httpx_mock).count("includeProvider=") == 1


@pytest.mark.parametrize(
    ("slippage", "sent"),
    [
        (0.1, "0.1"),
        (0.3, "0.3"),
        (1, "1"),
        (Decimal("0.50"), "0.5"),
        (Decimal("1E+1"), "10"),
        ("0.05", "0.05"),
        (0, "0"),
        (100, "100"),
        (1e-7, "0.0000001"),
    ],
)
async def test_slippage_is_sent_as_a_plain_number(
    routing: Any, httpx_mock: HTTPXMock, slippage: Any, sent: str
) -> None:
    httpx_mock.add_response(json=routing_ok([]))
    await resolve(routing.get_quote(**REQUIRED, slippage=slippage, max_slippage=100))
    assert dict(parse_qsl(sent_query(httpx_mock)))["slippage"] == sent


async def test_false_booleans_are_sent_and_none_is_not(routing: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(json=routing_ok([]))
    await resolve(routing.get_quote(**REQUIRED, allow_multi_bridge=False, simulation=None))
    query = dict(parse_qsl(sent_query(httpx_mock)))
    assert query["allowMultiBridge"] == "false"
    assert "simulation" not in query


async def test_a_non_evm_token_address_is_sent_as_given(
    routing: Any, httpx_mock: HTTPXMock
) -> None:
    mint = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"
    httpx_mock.add_response(json=routing_ok([]))
    await resolve(routing.get_quote(**{**REQUIRED, "to_chain": 0, "to_token": mint}))
    assert dict(parse_qsl(sent_query(httpx_mock)))["toToken"] == mint


async def test_quote_reads_ranked_routes(routing: Any, httpx_mock: HTTPXMock) -> None:
    second = route_wire(quoteId="q-2", amountOut="997500", routeKind="swapBridge")
    httpx_mock.add_response(json=routing_ok([route_wire(), second]))
    routes = await resolve(routing.get_quote(**REQUIRED))
    assert [r.quote_id for r in routes] == ["q-7f1c2e", "q-2"]  # the service's ranking
    best = routes[0]
    assert isinstance(best, Route)
    assert best.amount == 1_000_000
    assert best.amount_out == 998_000
    assert best.min_amount_out == 993_010
    assert best.amount_out_usd == Decimal("0.998")
    assert best.sender == TEST_ADDRESS  # checksummed on the way in
    assert best.slippage == Decimal("0.5")
    assert best.estimated_time_ms == 45_000
    assert best.from_token.chain == 8453
    assert best.to_token.address == USDC_ARBITRUM
    assert best.fees.route_fee == 2000
    assert best.gas_fee.gas_limit == 210_000
    assert best.gas_fee.gas_token.symbol == "ETH"
    assert best.path[0].provider.name == "cctp"
    assert best.providers[0].type == "bridge"
    assert routes[1].route_kind == "swapBridge"


async def test_route_keeps_unknown_fields_and_dumps_to_the_wire_form(
    routing: Any, httpx_mock: HTTPXMock
) -> None:
    wire = route_wire(chainlinkPrice=1.0001)
    httpx_mock.add_response(json=routing_ok([wire]))
    (route,) = await resolve(routing.get_quote(**REQUIRED))
    assert route.model_extra == {"chainlinkPrice": 1.0001}
    assert route.to_wire() == wire
    dumped = route.model_dump(mode="json", exclude_none=True)
    assert dumped["amount"] == "1000000"  # amounts dump back to strings
    assert dumped["amountUsd"] == 1.0  # USD values back to numbers
    assert dumped["fromToken"]["priceUsd"] == 1.0


async def test_a_route_missing_what_the_spec_lists_is_refused(
    routing: Any, httpx_mock: HTTPXMock
) -> None:
    sparse = route_wire()
    del sparse["amountOut"]
    httpx_mock.add_response(json=routing_ok([sparse]))
    with pytest.raises(errors.ResponseValidationError) as info:
        await resolve(routing.get_quote(**REQUIRED))
    assert "first at amountOut: Field required" in str(info.value)


async def test_a_route_without_the_optional_echoes_is_read(
    routing: Any, httpx_mock: HTTPXMock
) -> None:
    # slippage and integratorId are echoed only when the quote asked for them.
    bare = route_wire()
    del bare["slippage"], bare["integratorId"]
    httpx_mock.add_response(json=routing_ok([bare]))
    (route,) = await resolve(routing.get_quote(**REQUIRED))
    assert (route.slippage, route.integrator_id) == (None, None)
    assert route.amount_out == 998_000


@pytest.mark.parametrize(
    ("arguments", "argument", "rule"),
    [
        ({"from_chain": -1}, "from_chain", "non-negative"),
        ({"from_chain": "base"}, "from_chain", "non-negative"),
        ({"from_token": "0x1234"}, "from_token", "20-byte hex address"),
        ({"from_token": USDC_BASE.replace("C", "c", 1)}, "from_token", "EIP-55"),
        ({"to_token": ""}, "to_token", "mint address"),
        ({"to_token": "two words"}, "to_token", "mint address"),
        ({"amount": 0}, "amount", "greater than 0"),
        ({"amount": 1.5}, "amount", "floats are refused"),
        ({"amount": "1e6"}, "amount", "base-10 integer"),
        ({"sender": "vitalik.eth"}, "sender", "20-byte hex address"),
        ({"receiver": "0x12"}, "receiver", "20-byte hex address"),
        ({"slippage": -0.1}, "slippage", "between 0 and 100"),
        ({"slippage": 101}, "slippage", "between 0 and 100"),
        ({"slippage": float("nan")}, "slippage", "between 0 and 100"),
        ({"slippage": True}, "slippage", "number of percent"),
        ({"slippage": "half"}, "slippage", "number of percent"),
        ({"fee_bps": -1}, "fee_bps", "greater than or equal to 0"),
        ({"fee_bps": 10_001}, "fee_bps", "less than or equal to 10000"),
        ({"fee_bps": 2.5}, "fee_bps", "integer"),
        ({"include_providers": "cctp"}, "include_providers", "not a string"),
        ({"include_providers": []}, "include_providers", "at least one"),
        ({"exclude_providers": ["a,b"]}, "exclude_providers", "without commas"),
        ({"exclude_providers": [""]}, "exclude_providers", "non-empty"),
        ({"route_mode": "cheapest"}, "route_mode", "fastest"),
        ({"acquisition_mode": 4}, "acquisition_mode", "0, 1, 2 or 3"),
        ({"acquisition_mode": "permit2"}, "acquisition_mode", "0, 1, 2 or 3"),
        ({"acquisition_mode": True}, "acquisition_mode", "0, 1, 2 or 3"),
        ({"acquisition_mode": 2.0}, "acquisition_mode", "0, 1, 2 or 3"),
        ({"allow_multi_bridge": "yes"}, "allow_multi_bridge", "boolean"),
        ({"allow_multi_bridge": 1}, "allow_multi_bridge", "boolean"),
        ({"integrator": 7}, "integrator", "string"),
        ({"destination_call_data": "0xabc"}, "destination_call_data", "even number"),
        ({"destination_gas_limit": -5}, "destination_gas_limit", "between 0"),
        ({"allowed_price_impact": -1}, "allowed_price_impact", "from 0 to 100"),
    ],
)
async def test_bad_quote_input_is_refused_before_any_request(
    routing: Any, httpx_mock: HTTPXMock, arguments: dict[str, Any], argument: str, rule: str
) -> None:
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(routing.get_quote(**{**REQUIRED, **arguments}))
    assert info.value.argument == argument
    assert rule in info.value.rule
    assert httpx_mock.get_requests() == []


async def test_bad_build_best_path_input_is_refused(routing: Any, httpx_mock: HTTPXMock) -> None:
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(routing.build_best_path(**REQUIRED, min_output_amount="lots"))
    assert info.value.argument == "min_output_amount"
    assert httpx_mock.get_requests() == []


async def test_build_best_path_sends_its_extra_parameters_and_reads_tx_and_route(
    routing: Any, httpx_mock: HTTPXMock
) -> None:
    planned = {"steps": [{"type": "bridge", "provider": "cctp"}]}
    httpx_mock.add_response(json=routing_ok({"Tx": TX, "route": planned}))
    built = await resolve(
        routing.build_best_path(
            **REQUIRED,
            slippage=0.5,
            route_mode="max_value",
            min_output_amount="990000",
            include_route=True,
            simulation=True,
        )
    )
    assert httpx_mock.get_requests()[0].url.path == "/build-best-path"
    assert sent_query(httpx_mock) == (
        REQUIRED_QUERY
        + "&slippage=0.5&routeMode=max_value&simulation=true"
        + "&minOutputAmount=990000&includeRoute=true"
    )
    assert isinstance(built, BuiltPath)
    assert built.tx.to == "0x1231DEB6f5749EF6cE6943a275A1D3E7486F4EaE"
    assert built.tx.gas_limit == 350_000
    assert built.tx.chain == 8453
    assert built.route == planned
    assert built.model_dump(mode="json", exclude_none=True)["Tx"]["gasLimit"] == "350000"


async def test_build_path_sends_the_route_as_quoted_with_the_spec_fields(
    routing: Any, httpx_mock: HTTPXMock
) -> None:
    # The quote's addresses are lowercase and its chain is a string: they must go back
    # exactly as they came.
    wire = route_wire(unknownField={"kept": True})
    wire["fromToken"] = {**wire["fromToken"], "address": USDC_BASE.lower(), "chain": "8453"}
    httpx_mock.add_response(url=QUOTE_URL + "?" + REQUIRED_QUERY, json=routing_ok([wire]))
    httpx_mock.add_response(url=f"{ROUTING_URL}/build-path", json=routing_ok(TX))
    routes = await resolve(routing.get_quote(**REQUIRED))
    tx = await resolve(routing.build_path(routes[0], TEST_ADDRESS.lower()))
    assert isinstance(tx, Transaction)
    assert tx.data == "0x4630a0d8"
    request = httpx_mock.get_requests()[1]
    assert request.method == "POST"
    assert sent_json(httpx_mock, 1) == {
        "route": wire,
        "sender": TEST_ADDRESS,
        "fromChain": 8453,
        "toChain": 42161,
        "fromToken": USDC_BASE,
        "toToken": USDC_ARBITRUM,
        "Amount": "1000000",
        "Sender": TEST_ADDRESS,
    }


async def test_build_path_accepts_a_route_dict(routing: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=f"{ROUTING_URL}/build-path", json=routing_ok(TX))
    wire = route_wire()
    await resolve(routing.build_path(wire, TEST_ADDRESS))
    body = sent_json(httpx_mock)
    assert body["route"] == wire
    assert body["Amount"] == "1000000"


async def test_build_path_with_a_route_built_in_code_dumps_its_wire_form(
    routing: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(url=f"{ROUTING_URL}/build-path", json=routing_ok(TX))
    route = Route.model_validate(route_wire(amount=5_000_000))  # not from_wire: no saved form
    await resolve(routing.build_path(route, TEST_ADDRESS))
    body = sent_json(httpx_mock)
    assert body["route"] == route.model_dump(mode="json", exclude_none=True)
    assert body["route"]["amount"] == "5000000"
    assert body["route"]["sender"] == TEST_ADDRESS  # checksummed by the model
    assert body["route"]["fromToken"]["chain"] == 8453
    assert body["Amount"] == "5000000"


def deep_list(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


def test_route_from_wire_keeps_a_private_copy_made_without_recursion() -> None:
    wire = route_wire(extra={"nested": [[{"a": 1}]]})
    route = Route.from_wire(wire)
    wire["extra"]["nested"][0][0]["a"] = 2  # the caller changes what it passed in
    assert route.to_wire()["extra"] == {"nested": [[{"a": 1}]]}
    route.to_wire()["extra"]["nested"].clear()  # and what it got back
    assert route.to_wire()["extra"] == {"nested": [[{"a": 1}]]}
    assert list(route.to_wire()) == list(wire)  # the wire order is kept


def test_route_from_wire_refuses_data_nested_past_the_limit() -> None:
    from pydantic import ValidationError

    Route.from_wire(route_wire(extra=deep_list(60)))  # deep, but within the limit
    with pytest.raises(ValidationError) as info:
        Route.from_wire(route_wire(extra=deep_list(100_000)))
    assert "nests deeper than 64 levels" in str(info.value)  # str() must not recurse
    assert info.value.errors()[0]["type"] == "too_deep"


@pytest.mark.parametrize(
    ("route", "sender", "argument", "rule"),
    [
        (route_wire(fromToken=None), TEST_ADDRESS, "route.fromToken", "valid dictionary"),
        (route_wire(amount=None), TEST_ADDRESS, "route.amount", "integer"),
        (route_wire(amount=[1]), TEST_ADDRESS, "route.amount", "integer"),
        ("q-7f1c2e", TEST_ADDRESS, "route", "Route from get_quote()"),
        (route_wire(), "0x1", "sender", "20-byte hex address"),
        (route_wire(path=deep_list(5_000)), TEST_ADDRESS, "route", "deeper than 64 levels"),
    ],
)
async def test_bad_build_path_input_is_refused_before_any_request(
    routing: Any, httpx_mock: HTTPXMock, route: Any, sender: str, argument: str, rule: str
) -> None:
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(routing.build_path(route, sender))
    assert info.value.argument == argument
    assert rule in info.value.rule
    assert httpx_mock.get_requests() == []


async def test_build_path_by_id(routing: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        url=f"{ROUTING_URL}/build-path-by-id", json=routing_ok(TX), is_reusable=True
    )
    tx = await resolve(routing.build_path_by_id("q-7f1c2e"))
    assert tx.allowance_target == "0x1231DEB6f5749EF6cE6943a275A1D3E7486F4EaE"
    await resolve(routing.build_path_by_id("q-7f1c2e", sender=TEST_ADDRESS.lower()))
    assert sent_json(httpx_mock, 0) == {"quoteId": "q-7f1c2e"}
    assert sent_json(httpx_mock, 1) == {
        "quoteId": "q-7f1c2e",
        "sender": TEST_ADDRESS,
        "Sender": TEST_ADDRESS,
    }
    with pytest.raises(errors.InvalidInputError, match="quote_id"):
        await resolve(routing.build_path_by_id("  "))
    assert len(httpx_mock.get_requests()) == 2


async def test_build_path_is_retried_on_a_5xx_because_it_moves_nothing(
    routing: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(url=f"{ROUTING_URL}/build-path", status_code=502)
    httpx_mock.add_response(url=f"{ROUTING_URL}/build-path", json=routing_ok(TX))
    tx = await resolve(routing.build_path(route_wire(), TEST_ADDRESS))
    assert tx.chain == 8453
    assert len(httpx_mock.get_requests()) == 2
