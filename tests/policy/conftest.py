"""The policy tests' fixtures: a fresh sandbox, and each client test run sync and async."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from xswap_sdk.sandbox import Sandbox


@pytest.fixture
def sb() -> Iterator[Sandbox]:
    """A fresh sandbox on virtual time."""
    with Sandbox() as sandbox:
        yield sandbox
