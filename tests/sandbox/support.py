"""Raw-HTTP helpers for the swap backend's tests: log in, quote, and build a signed
order the way the spec says, without the flash client."""

from __future__ import annotations

from typing import Any

import httpx
from eth_account.signers.local import LocalAccount

from xswap_sdk.signing import build_burn_intent, personal_sign, sign_burn_intent_set
from xswap_sdk.testing import TEST_SIGNER

WETH_ON_ARBITRUM = "0x82aF49447D8a07e3bd95BD0d56f35241523fBab1"
USDC_ON_ARBITRUM = "0xaf88d065e77c8cC2239327C5EDb3A432268e5831"


def login(http: httpx.Client, signer: LocalAccount = TEST_SIGNER, **extra: Any) -> dict[str, Any]:
    """Log in; return the verify answer."""
    message = http.post("/flash/auth/message", json={"userAddress": signer.address}).json()
    response = http.post(
        "/flash/auth/verify",
        json={
            "messageId": message["messageId"],
            "signature": personal_sign(signer, message["message"]),
            **extra,
        },
    )
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def bearer(token: str) -> dict[str, str]:
    """The Authorization header for ``token``."""
    return {"Authorization": f"Bearer {token}"}


def get_quote(
    http: httpx.Client,
    amount: int,
    *,
    chain_id: int = 42161,
    token: str = WETH_ON_ARBITRUM,
    user: str = TEST_SIGNER.address,
) -> dict[str, Any]:
    """A quote for ``amount`` USDC units into ``token`` on ``chain_id``."""
    response = http.get(
        "/flash/quote",
        params={
            "inputAmount": str(amount),
            "outputToken": token,
            "chainId": chain_id,
            "from": user,
            "slippage": 1,
        },
    )
    assert response.status_code == 200, response.text
    quote: dict[str, Any] = response.json()
    return quote


def swap_body(
    http: httpx.Client,
    quote: dict[str, Any],
    values: dict[int, int],
    *,
    signer: LocalAccount = TEST_SIGNER,
    chain_id: int = 42161,
    max_fee: int | None = None,
    **overrides: Any,
) -> dict[str, Any]:
    """A ``POST /swap`` body moving ``values`` (source chain id -> USDC units), built
    from the chain list and the quote; ``overrides`` replace intent arguments."""
    chains = {chain["id"]: chain for chain in http.get("/flash/supported-chains").json()}
    destination = chains[chain_id]
    intents = []
    for source_id, value in values.items():
        source = chains[source_id]
        arguments: dict[str, Any] = {
            "source_domain": source["domain"],
            "destination_domain": destination["domain"],
            "source_contract": source["gatewayWallet"],
            "destination_contract": destination["gatewayMinter"],
            "source_token": source["usdc"]["address"],
            "destination_token": destination["usdc"]["address"],
            "user": signer.address,
            "recipient": quote["swap_router_address"],
            "value": value,
            "hook_data": quote["hook_data"],
            "max_fee": quote["fees"]["gateway_fee"] if max_fee is None else max_fee,
            **overrides,
        }
        intents.append(build_burn_intent(**arguments))
    signed = sign_burn_intent_set(intents, signer)
    return {
        "signedOrder": signed.to_signed_order(),
        "userAddress": signer.address,
        "chainId": chain_id,
        "swapRouterAddress": quote["swap_router_address"],
        "swapCalldata": quote["swap_calldata"],
        "slippageBps": 100,
    }
