"""The five instrumented journeys, runnable against a sandbox by a test or by the crash
script (in a process of its own, over real sockets)."""

from __future__ import annotations

import inspect
import json
import os
from collections.abc import Callable
from typing import Any

from xswap_sdk.journal import SQLiteJournal
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.signing import sign_burn_intent
from xswap_sdk.testing import TEST_SIGNER

from ..gateway.support import transfer_intent
from ..support import FLASH_SWAP, Crash

ME = TEST_SIGNER.address
USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
USDC_ARBITRUM = "0xaf88d065e77c8cC2239327C5EDb3A432268e5831"
WETH_ARBITRUM = "0x82aF49447D8a07e3bd95BD0d56f35241523fBab1"

# Which client runs each journey, and the money-moving request it sends.
SERVICE = {
    "swap": "flash",
    "gasless_swap": "routing",
    "relay": "relayer",
    "relay_sync": "relayer",
    "transfer": "gateway",
}
MONEY_PATH = {
    "swap": ("flash", "/swap"),
    "gasless_swap": ("routing", "/gasless/submit-swap"),
    "relay": ("relayer", "/api/submit-tx"),
    "relay_sync": ("relayer", "/api/submit-tx-sync"),
    "transfer": ("gateway", "/v1/transfer"),
}


def fund(sb: Sandbox) -> None:
    """What every journey spends."""
    sb.fund(ME, 8453, 30_000_000)


def client(sb: Sandbox, journey: str, flavour: str, **kwargs: Any) -> Any:
    """The sandbox's client for ``journey``, sync or async."""
    service = SERVICE[journey]
    prefix = "async_" if flavour == "async" else ""
    if service == "flash":
        kwargs.setdefault("signer", TEST_SIGNER)
    return getattr(sb, f"{prefix}{service}_client")(**kwargs)


def start(journey: str, api: Any, tag: str | None = None) -> Any:
    """Start ``journey`` on ``api``: the call's result, or a coroutine to await.
    ``tag`` labels a relayed transaction, so that two runs send different bodies."""
    if journey == "swap":
        return api.swap(
            TEST_SIGNER,
            **FLASH_SWAP,
            wait=True,
            poll_interval=0.5,
        )
    if journey == "gasless_swap":
        return api.gasless_swap(
            TEST_SIGNER,
            from_chain=8453,
            to_chain=42161,
            from_token=USDC_BASE,
            to_token=WETH_ARBITRUM,
            amount=5_000_000,
            wait=True,
            poll_interval=0.5,
        )
    if journey == "relay":
        return api.relay(chain_id=8453, to=USDC_BASE, call_data="0x", label=tag)
    if journey == "relay_sync":
        return api.relay_sync(
            chain_id=8453, to=USDC_BASE, call_data="0x", timeout_ms=5_000, label=tag
        )
    intent = transfer_intent(4_000_000, max_fee=2_000_000)
    return api.transfer(sign_burn_intent(intent, TEST_SIGNER))


async def resolve(value: Any) -> Any:
    """Await what an async client returned."""
    return await value if inspect.isawaitable(value) else value


def money_requests(sb: Sandbox, journey: str) -> list[Any]:
    """The money-moving requests the sandbox took for ``journey``'s service: handled and
    answered 2xx (a request sent again and refused moved nothing)."""
    service, path = MONEY_PATH[journey]
    return [
        r
        for r in sb.requests.select(service, "POST", path, processed=True)
        if r.status is not None and 200 <= r.status < 300
    ]


Hook = Callable[[Any], None]


async def stopped(sb: Sandbox, journey: str, kind: str, path: Any, on_step: Hook) -> Any:
    """Start ``journey`` with a client that ``on_step`` stops with `Crash`: the journey
    the journal at ``path`` holds then."""
    import pytest  # the crash script that runs these journeys has no pytest to import

    with pytest.raises(Crash):
        await resolve(start(journey, client(sb, journey, kind, journal=path, on_step=on_step)))
    [interrupted] = SQLiteJournal(path).journeys()
    return interrupted


def report(at: int, status: int, interrupted: Any, resumed: Any, **more: Any) -> None:
    """Print, as one JSON line, how a run killed at step ``at`` (its wait ``status``)
    ended once resumed: the crash scripts' output, one line a step."""
    last = interrupted.steps[-1]
    line = {
        "at": at,
        "exit": os.waitstatus_to_exitcode(status),
        "journey_id": interrupted.id,
        "stopped": f"{last.step}/{last.status}",
        "state": resumed.state,
        **more,
    }
    print(json.dumps(line), flush=True)
