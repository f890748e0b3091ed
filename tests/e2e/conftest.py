"""End-to-end fixtures: the SDK's real clients against a fresh sandbox, each test run
once with the blocking client and once with the async one (the ``kind`` fixture).

These fixtures shadow the mocked-transport ``relayer`` fixture of the top-level
conftest: here every request reaches the emulator.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from xswap_sdk.sandbox import Sandbox
from xswap_sdk.testing import TEST_SIGNER


@pytest.fixture
def sb() -> Iterator[Sandbox]:
    """A fresh sandbox on virtual time."""
    with Sandbox() as sandbox:
        yield sandbox


@pytest.fixture
def relayer(sb: Sandbox, kind: str) -> Any:
    """A relayer client of the given kind, wired to the sandbox."""
    return sb.relayer_client() if kind == "sync" else sb.async_relayer_client()


@pytest.fixture
def flash(sb: Sandbox, kind: str) -> Any:
    """A swap backend client of the given kind, logging in with the test signer."""
    if kind == "sync":
        return sb.flash_client(signer=TEST_SIGNER)
    return sb.async_flash_client(signer=TEST_SIGNER)


@pytest.fixture
def routing(sb: Sandbox, kind: str) -> Any:
    """A routing client of the given kind, wired to the sandbox."""
    return sb.routing_client() if kind == "sync" else sb.async_routing_client()
