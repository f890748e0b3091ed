"""Fixtures of the journal tests: what ``XSWAP_PRIVATE_KEY`` holds while a journey is
resumed (a key there lets a resume sign; without one it has only the signer given)."""

from __future__ import annotations

import pytest

from xswap_sdk.testing import TEST_PRIVATE_KEY


@pytest.fixture
def key_in_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test key in ``XSWAP_PRIVATE_KEY``."""
    monkeypatch.setenv("XSWAP_PRIVATE_KEY", TEST_PRIVATE_KEY)


@pytest.fixture
def no_key_in_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No ``XSWAP_PRIVATE_KEY``."""
    monkeypatch.delenv("XSWAP_PRIVATE_KEY", raising=False)
