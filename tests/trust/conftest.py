"""Fixtures of the trust tests: a signer that records what it is asked to sign, and a
sandbox where the test wallet holds gateway USDC on Base and Arbitrum."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from xswap_sdk.sandbox import Sandbox

from .support import TEST_ADDRESS, RecordingSigner


@pytest.fixture
def sb() -> Iterator[Sandbox]:
    with Sandbox() as sandbox:
        # Both chains give: Base 30 - 2.01 usable, then Arbitrum for the rest.
        sandbox.fund(TEST_ADDRESS, 8453, 30_000_000)
        sandbox.fund(TEST_ADDRESS, 42161, 25_000_000)
        yield sandbox


@pytest.fixture
def signer() -> RecordingSigner:
    return RecordingSigner()
