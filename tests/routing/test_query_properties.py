"""Property tests of query building: any valid combination of optional parameters is
sent so that parsing the query back gives the same values, and nothing else is sent.

The requests go through a real client (sync) over `httpx.MockTransport`, so the URL
encoding is the one that reaches the service.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import httpx
from hypothesis import given, settings
from hypothesis import strategies as st

from xswap_sdk import RoutingClient
from xswap_sdk.routing import AcquisitionMode

from ..support import ROUTING_URL, TEST_ADDRESS, USDC_ARBITRUM, USDC_BASE, routing_ok

ADDRESSES = st.sampled_from(
    [TEST_ADDRESS, TEST_ADDRESS.lower(), USDC_BASE, USDC_ARBITRUM.upper().replace("0X", "0x")]
)
MINTS = st.from_regex(r"[1-9A-HJ-NP-Za-km-z]{32,44}", fullmatch=True)
PROVIDER = st.text(
    alphabet=st.characters(codec="utf-8", exclude_characters=",", exclude_categories=["Cs"]),
    min_size=1,
    max_size=12,
).filter(lambda name: name.strip() == name and name != "")
PROVIDERS = st.lists(PROVIDER, min_size=1, max_size=4)
FREE_TEXT = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=0, max_size=20
)
PERCENT = st.one_of(
    st.integers(0, 100),
    st.decimals(min_value=0, max_value=100, allow_nan=False, places=6),
    st.floats(min_value=0, max_value=100, allow_nan=False),
)

QUOTE_OPTIONALS: dict[str, st.SearchStrategy[Any]] = {
    "receiver": ADDRESSES,
    "slippage": PERCENT,
    "fee_bps": st.integers(0, 10_000),
    "include_providers": PROVIDERS,
    "exclude_providers": PROVIDERS,
    "route_mode": st.sampled_from(["fastest", "max_value", "suggested"]),
    "integrator": FREE_TEXT,
    "allow_multi_bridge": st.booleans(),
    "acquisition_mode": st.sampled_from([*AcquisitionMode, 0, 1, 2, 3]),
    "priority_provider": FREE_TEXT,
    "referrer": FREE_TEXT,
    "destination_call_data": st.binary(max_size=16).map(lambda b: "0x" + b.hex()),
    "destination_gas_limit": st.integers(0, 2**64),
    "allowed_price_impact": PERCENT,
    "simulation": st.booleans(),
}
BEST_PATH_OPTIONALS = {
    **QUOTE_OPTIONALS,
    "min_output_amount": st.integers(0, 2**256 - 1),
    "include_route": st.booleans(),
}
WIRE_NAMES = {
    "receiver": "receiver",
    "slippage": "slippage",
    "fee_bps": "feeBps",
    "include_providers": "includeProvider",
    "exclude_providers": "excludeProvider",
    "route_mode": "routeMode",
    "integrator": "Integrator",
    "allow_multi_bridge": "allowMultiBridge",
    "acquisition_mode": "acquisitionMode",
    "priority_provider": "priorityProvider",
    "referrer": "Referrer",
    "destination_call_data": "destinationCallData",
    "destination_gas_limit": "destinationGasLimit",
    "allowed_price_impact": "allowedPriceImpact",
    "simulation": "simulation",
    "min_output_amount": "minOutputAmount",
    "include_route": "includeRoute",
}


def optional_subset(strategies: dict[str, st.SearchStrategy[Any]]) -> Any:
    return st.fixed_dictionaries({}, optional=strategies)


def parse_back(name: str, text: str) -> Any:
    """Read a query value as the service would, into the Python value it stands for."""
    if name in ("slippage", "allowed_price_impact"):
        return Decimal(text)
    if name in ("allow_multi_bridge", "simulation", "include_route"):
        assert text in ("true", "false")
        return text == "true"
    if name in ("fee_bps", "destination_gas_limit", "min_output_amount", "acquisition_mode"):
        assert text.isdigit()
        return int(text)
    if name in ("include_providers", "exclude_providers"):
        return text.split(",")
    return text


def expected(name: str, value: Any) -> Any:
    """The value the caller meant, in the form `parse_back` gives."""
    if name in ("slippage", "allowed_price_impact"):
        return Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    if name == "receiver":
        return {a.lower(): a for a in (TEST_ADDRESS, USDC_BASE, USDC_ARBITRUM)}[value.lower()]
    if name == "acquisition_mode":
        return int(value)
    if name == "destination_call_data":
        return value.lower()
    return value


def send(method: str, **arguments: Any) -> httpx.QueryParams:
    seen: list[httpx.Request] = []

    def handle(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        tx = {
            "to": TEST_ADDRESS,
            "data": "0x",
            "chain": 8453,
            "gasLimit": "21000",
            "expiry": 1735690200,
            "simulation": False,
        }
        data: Any = [] if request.url.path == "/quote" else {"Tx": tx, "route": {}}
        return httpx.Response(200, json=routing_ok(data))

    with RoutingClient(
        base_url=ROUTING_URL, http_client=httpx.Client(transport=httpx.MockTransport(handle))
    ) as client:
        # Any slippage of the round trip, not only those under the default maximum.
        getattr(client, method)(**arguments, max_slippage=100)
    (request,) = seen
    return request.url.params


def check_round_trip(params: httpx.QueryParams, optionals: dict[str, Any], token: str) -> None:
    assert params["fromChain"] == "8453"
    assert params["toToken"] == token
    assert params["amount"] == "1000000"
    sent_names = [name for name, _ in params.multi_items()]
    assert len(sent_names) == len(set(sent_names))  # no parameter is repeated
    assert set(sent_names) == {
        "fromChain",
        "toChain",
        "fromToken",
        "toToken",
        "amount",
        "sender",
        *(WIRE_NAMES[name] for name in optionals),
    }
    for name, value in optionals.items():
        text = params[WIRE_NAMES[name]]
        assert "e" not in text.lower() or name not in ("slippage", "allowed_price_impact")
        assert parse_back(name, text) == expected(name, value), name


REQUIRED = {
    "from_chain": 8453,
    "to_chain": 0,
    "from_token": USDC_BASE,
    "amount": 1_000_000,
    "sender": TEST_ADDRESS,
}


@settings(max_examples=150, deadline=None)
@given(optionals=optional_subset(QUOTE_OPTIONALS), token=st.one_of(MINTS, ADDRESSES))
def test_any_valid_quote_query_round_trips(optionals: dict[str, Any], token: str) -> None:
    params = send("get_quote", **REQUIRED, to_token=token, **optionals)
    sent_token = token if not token.startswith("0x") else expected("receiver", token)
    check_round_trip(params, optionals, sent_token)


@settings(max_examples=75, deadline=None)
@given(optionals=optional_subset(BEST_PATH_OPTIONALS))
def test_any_valid_build_best_path_query_round_trips(optionals: dict[str, Any]) -> None:
    params = send("build_best_path", **REQUIRED, to_token=USDC_ARBITRUM, **optionals)
    check_round_trip(params, optionals, USDC_ARBITRUM)
