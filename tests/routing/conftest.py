"""Fixtures for the routing tests: the contracts of ``tests/evm``, compiled once, for
the route execution tests on an in-process EVM."""

from ..evm.conftest import compiled  # noqa: F401
