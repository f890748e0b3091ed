"""Status (both documented shapes), supported chains, token search and token lists."""

from __future__ import annotations

from typing import Any

import pytest
from pytest_httpx import HTTPXMock

from xswap_sdk import errors
from xswap_sdk.routing import SupportedChain, TokenSearchResult, TransactionStatus

from ..support import (
    ROUTING_URL,
    SOURCE_TX_HASH,
    TEST_ADDRESS,
    USDC_ARBITRUM,
    USDC_BASE,
    bridge_status_wire,
    resolve,
    routing_ok,
    supported_chain_wire,
)

STATUS_URL = f"{ROUTING_URL}/status?txHash={SOURCE_TX_HASH}&fromChain=8453"
DEST_HASH = "0x" + "de" * 32

SPEC_STATUS = {
    **bridge_status_wire("completed", DEST_HASH),
    "kind": "bridge",
    "routeKind": "directBridge",
    "swapId": "sw-1",
    "relayerTxId": "65f1a2b3c4d5e6f708192a3b",
    "updatedAtMs": 1735689700000,
    "provider": {"key": "cctp", "name": "Circle CCTP"},
    "details": None,
    "fromToken": {"address": USDC_BASE, "symbol": "USDC"},
    "toToken": {"address": USDC_ARBITRUM, "symbol": "USDC"},
}

SECOND_SHAPE = {
    "providerKey": "across",
    "txRef": "ref-77",
    "state": "FAILED",
    "sourceTxHash": SOURCE_TX_HASH,
    "destinationTxHash": None,
    "tachyonTxId": "65f1a2b3c4d5e6f708192a3c",
}


async def test_get_status_sends_the_spec_query_and_reads_the_spec_shape(
    routing: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(
        url=f"{STATUS_URL}&userAddress={TEST_ADDRESS}", json=routing_ok(SPEC_STATUS)
    )
    status = await resolve(
        routing.get_status(SOURCE_TX_HASH.upper().replace("0X", "0x"), 8453, TEST_ADDRESS.lower())
    )
    assert isinstance(status, TransactionStatus)
    assert status.current_status == "completed"
    assert status.provider.key == "cctp"
    assert status.relayer_tx_id == "65f1a2b3c4d5e6f708192a3b"
    assert status.src_tx_details.tx_hash == SOURCE_TX_HASH
    assert status.dest_tx_details.chain_id == 42161
    assert status.source_tx_hash_any == SOURCE_TX_HASH
    assert status.destination_tx_hash_any == DEST_HASH
    assert status.from_token == {"address": USDC_BASE, "symbol": "USDC"}
    assert status.is_failed is False
    assert status.model_dump(exclude_none=True)["relayerTxId"] == "65f1a2b3c4d5e6f708192a3b"


async def test_get_status_reads_the_second_shape(routing: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=STATUS_URL, json=routing_ok(SECOND_SHAPE))
    status = await resolve(routing.get_status(SOURCE_TX_HASH, "8453"))
    assert status.status is None
    assert status.state == "FAILED"
    assert status.current_status == "FAILED"
    assert status.is_failed is True
    assert status.provider_key == "across"
    assert status.tx_ref == "ref-77"
    assert status.source_tx_hash_any == SOURCE_TX_HASH
    assert status.destination_tx_hash_any is None
    assert status.relayer_tx_id == "65f1a2b3c4d5e6f708192a3c"  # from tachyonTxId


async def test_get_status_accepts_a_non_evm_reference(routing: Any, httpx_mock: HTTPXMock) -> None:
    signature = (
        "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW"
    )
    httpx_mock.add_response(json=routing_ok({"status": "pending"}))
    await resolve(routing.get_status(signature, 0))
    assert httpx_mock.get_requests()[0].url.params["txHash"] == signature


@pytest.mark.parametrize(
    ("call", "argument"),
    [
        (lambda c: c.get_status("0x1234", 8453), "tx_hash"),
        (lambda c: c.get_status("", 8453), "tx_hash"),
        (lambda c: c.get_status(SOURCE_TX_HASH, -1), "from_chain"),
        (lambda c: c.get_status(SOURCE_TX_HASH, 8453, "nobody"), "user_address"),
        (lambda c: c.search_token(""), "query"),
        (lambda c: c.search_token("USDC", chain_id="base"), "chain_id"),
        (lambda c: c.get_tokens(chain_id=-3), "chain_id"),
    ],
)
async def test_bad_input_is_refused_before_any_request(
    routing: Any, httpx_mock: HTTPXMock, call: Any, argument: str
) -> None:
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(call(routing))
    assert info.value.argument == argument
    assert httpx_mock.get_requests() == []


CHAINS = [
    {
        **supported_chain_wire(8453, "0x1231deb6f5749ef6ce6943a275a1d3e7486f4eae"),
        "name": "base",
        "displayName": "Base",
        "logoUrl": "https://icons.test/base.svg",
        "explorerUrl": "https://basescan.org",
        "publicRpcUrl": "https://mainnet.base.org",
        "features": {"gaslessSwaps": True, "crossChain": True, "permit2": False},
    },
    {
        **supported_chain_wire(999, "0x1231deb6f5749ef6ce6943a275a1d3e7486f4eae"),
        "id": "999",  # a decimal string: read as an int
        "name": "hyperevm",
        "displayName": "HyperEVM",
        "logoUrl": "https://icons.test/hyperevm.svg",
        "explorerUrl": "https://hyperevmscan.io",
        "publicRpcUrl": "https://rpc.hyperliquid.xyz/evm",
        "nativeToken": {
            "symbol": "HYPE",
            "name": "Hype",
            "decimals": 18,
            "logoUrl": "https://icons.test/hype.svg",
            "marketdataId": "hyperliquid",
        },
    },
]


async def test_supported_chains_with_features(routing: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=f"{ROUTING_URL}/supported-chains", json=routing_ok(CHAINS))
    chains = await resolve(routing.get_supported_chains())
    assert all(isinstance(chain, SupportedChain) for chain in chains)
    base, hyper = chains
    assert base.id == 8453
    assert base.display_name == "Base"
    assert base.service_contract == "0x1231DEB6f5749EF6cE6943a275A1D3E7486F4EaE"
    assert base.native_token.marketdata_id == "ethereum"
    assert base.features.gasless_swaps is True
    assert base.features.permit2 is False
    assert hyper.id == 999
    assert hyper.native_token.symbol == "HYPE"
    assert hyper.features.permit2 is True


async def test_search_token_sends_query_and_chain(routing: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        url=f"{ROUTING_URL}/search-token?query=usd+coin&chainId=8453",
        json=routing_ok(
            [
                {
                    "address": USDC_BASE.lower(),
                    "chainId": 8453,
                    "decimals": 6,
                    "logoUrl": "https://icons.test/usdc.svg",
                    "name": "USD Coin",
                    "symbol": "USDC",
                }
            ]
        ),
    )
    (token,) = await resolve(routing.search_token("usd coin", chain_id=8453))
    assert isinstance(token, TokenSearchResult)
    assert (token.chain_id, token.address, token.decimals) == (8453, USDC_BASE, 6)


TOKEN = {"address": USDC_BASE, "chainId": 8453, "decimals": 6, "symbol": "USDC"}
SOL_USDC = {"address": "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "symbol": "USDC"}


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ([TOKEN], [(8453, USDC_BASE)]),
        ({"tokens": [TOKEN]}, [(8453, USDC_BASE)]),
        (
            {"8453": [TOKEN], "42161": [{"address": USDC_ARBITRUM, "symbol": "USDC"}]},
            [(8453, USDC_BASE), (42161, USDC_ARBITRUM)],
        ),
        ({"0": [SOL_USDC]}, [(0, SOL_USDC["address"])]),
    ],
    ids=["list", "tokens-key", "by-chain", "non-evm"],
)
async def test_get_tokens_reads_each_plausible_shape(
    routing: Any, httpx_mock: HTTPXMock, data: Any, expected: list[tuple[int, str]]
) -> None:
    httpx_mock.add_response(url=f"{ROUTING_URL}/tokens", json=routing_ok(data))
    tokens = await resolve(routing.get_tokens())
    assert [(t.chain_id, t.address) for t in tokens] == expected


async def test_get_tokens_for_one_chain(routing: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=f"{ROUTING_URL}/tokens?chainId=42161", json=routing_ok([]))
    assert await resolve(routing.get_tokens(42161)) == []
