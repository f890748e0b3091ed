"""Fixtures for the signing tests."""

from __future__ import annotations

import pytest
from eth_account import Account
from eth_account.signers.local import LocalAccount

from .support import vectors


@pytest.fixture
def account() -> LocalAccount:
    """The vectors' public test account (never use it for funds)."""
    return Account.from_key(vectors()["privateKey"])
