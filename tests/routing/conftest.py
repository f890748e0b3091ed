"""Fixtures for the routing tests: a sandbox, and the contracts of ``tests/evm``,
compiled once, for the route execution tests on an in-process EVM."""

from collections.abc import Iterator

import pytest

from xswap_sdk.sandbox import Sandbox

from ..evm.conftest import compiled  # noqa: F401


@pytest.fixture
def sb() -> Iterator[Sandbox]:
    """A fresh sandbox (a test module may fund its own)."""
    with Sandbox() as sandbox:
        yield sandbox
