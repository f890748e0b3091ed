"""Fixtures for the emulator's own tests: a fresh sandbox and a raw HTTP client on it,
so the tests see the wire exactly as a client would."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from xswap_sdk.sandbox import Sandbox


@pytest.fixture
def sb() -> Iterator[Sandbox]:
    """A fresh sandbox on virtual time."""
    with Sandbox() as sandbox:
        yield sandbox


@pytest.fixture
def http(sb: Sandbox) -> httpx.Client:
    """A plain httpx client served by the sandbox, with its base URL set to the host."""
    client = sb.http_client()
    client.base_url = httpx.URL(sb.base_url)
    return client
