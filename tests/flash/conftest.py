"""Fixtures for the swap backend tests: clients of both kinds, the test wallet, and the
SDK's sandbox answering for the backend (`backend`). The in-process EVM fixtures of
``tests/evm`` are re-exported for the deposit tests."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest
from eth_account import Account
from eth_account.signers.local import LocalAccount
from pytest_httpx import HTTPXMock

from xswap_sdk import AsyncFlashClient, FlashClient
from xswap_sdk._clock import VirtualClock
from xswap_sdk.registry import DEFAULT_REGISTRY
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.sandbox.flash import SANDBOX_ROUTERS

from ..evm.conftest import async_w3, compiled, deploy, deploy_async, w3  # noqa: F401
from ..support import FLASH_JWT, FLASH_URL, TEST_PRIVATE_KEY, resolve
from .payloads import pinned_routers
from .sandboxed import JWT_SECRET, SandboxFlash


@pytest.fixture
def wallet() -> LocalAccount:
    """The test wallet (the shared vectors' public key; never use it for funds)."""
    return Account.from_key(TEST_PRIVATE_KEY)


@pytest.fixture(autouse=True)
def _no_flash_env(monkeypatch: pytest.MonkeyPatch) -> None:
    # A developer's own XSWAP_FLASH_* variables must not leak into the tests.
    monkeypatch.delenv("XSWAP_FLASH_JWT", raising=False)
    monkeypatch.delenv("XSWAP_FLASH_URL", raising=False)


@pytest.fixture
async def make_flash(kind: str, clock: VirtualClock) -> AsyncIterator[Callable[..., Any]]:
    """``make_flash(**kwargs)``: a client of the test's kind at the mocked backend."""
    made: list[Any] = []

    def make(**kwargs: Any) -> Any:
        cls = FlashClient if kind == "sync" else AsyncFlashClient
        # The payloads' router and the sandbox's are pinned, with their format, as a
        # careful caller pins theirs.
        registry = pinned_routers(kwargs.get("registry") or DEFAULT_REGISTRY)
        kwargs["registry"] = registry.with_routers(*SANDBOX_ROUTERS)
        client = cls(**{"base_url": FLASH_URL, "clock": clock, **kwargs})
        made.append(client)
        return client

    yield make
    for client in made:
        await resolve(client.close() if isinstance(client, FlashClient) else client.aclose())


@pytest.fixture
def flash(make_flash: Callable[..., Any]) -> Any:
    """A client holding a JWT (no signer)."""
    return make_flash(jwt=FLASH_JWT)


@pytest.fixture
def backend(httpx_mock: HTTPXMock, clock: VirtualClock) -> Iterator[SandboxFlash]:
    """The sandbox's swap backend, answering every request to the flash URL."""
    sb = Sandbox(clock=clock, jwt_secret=JWT_SECRET, base_url=FLASH_URL)
    fake = SandboxFlash(sb)
    httpx_mock.add_callback(
        fake, url=re.compile(rf"^{re.escape(FLASH_URL)}/.*"), is_reusable=True, is_optional=True
    )
    yield fake
    sb.close()
