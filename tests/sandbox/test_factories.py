"""The sandbox's client factories take their client's own arguments: type checkers see
them (``tests/typing/user_script.py`` under ``mypy --strict``), and so do notebooks and
editors that read signatures at run time."""

from __future__ import annotations

import inspect

import pytest

from xswap_sdk.sandbox import Sandbox
from xswap_sdk.testing import TEST_SIGNER

from ..support import CLIENTS

FACTORIES = {
    f"{prefix}{service}_client": pair[index]
    for service, pair in CLIENTS.items()
    for index, prefix in enumerate(("", "async_"))
}


@pytest.mark.parametrize(("factory", "client"), FACTORIES.items())
def test_a_factory_shows_the_arguments_of_its_client(factory: str, client: type) -> None:
    with Sandbox() as sb:
        shown = inspect.signature(getattr(sb, factory))
    assert list(shown.parameters) == list(inspect.signature(client).parameters)
    assert "timeout" in shown.parameters
    assert shown.return_annotation is client


def test_the_arguments_reach_the_client() -> None:
    with Sandbox() as sb:
        relayer = sb.relayer_client(max_retries=0, chain_list_ttl=0)
        assert relayer.max_retries == 0
        assert relayer.get_supported_chains()  # still wired to the sandbox
        flash = sb.flash_client(signer=TEST_SIGNER)
        assert f"signer={TEST_SIGNER.address}" in repr(flash)
        # Positional, as before: still accepted at run time.
        assert f"signer={TEST_SIGNER.address}" in repr(sb.flash_client(TEST_SIGNER))
