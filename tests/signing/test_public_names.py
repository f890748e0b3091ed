"""The signing package's public names exist and are documented."""

from __future__ import annotations

import inspect

import pytest

import xswap_sdk.signing as signing

CONSTANTS = {
    "BURN_INTENT_MESSAGE_PREFIX",
    "DEFAULT_AUTHORIZATION_LIFETIME",
    "DEFAULT_MAX_FEE",
    "DEFAULT_PERMIT_LIFETIME",
    "DEPOSIT_WITH_AUTHORIZATION_BYTES_SELECTOR",
    "DEPOSIT_WITH_AUTHORIZATION_SELECTOR",
    "DEPOSIT_WITH_PERMIT_BYTES_SELECTOR",
    "DEPOSIT_WITH_PERMIT_SELECTOR",
    "GATEWAY_DOMAIN",
    "MAX_INTENTS_PER_SET",
    "TRANSFER_SPEC_VERSION",
}


@pytest.mark.parametrize("name", sorted(set(signing.__all__) - CONSTANTS))
def test_public_name_is_documented(name: str) -> None:
    obj = getattr(signing, name)
    assert inspect.getdoc(obj), f"{name} has no docstring"
    if inspect.isclass(obj):
        for member_name, member in vars(obj).items():
            if not member_name.startswith("_") and inspect.isfunction(member):
                assert inspect.getdoc(member), f"{name}.{member_name} has no docstring"


def test_all_is_exactly_what_is_exported() -> None:
    exported = {name for name in dir(signing) if not name.startswith("_")}
    modules = {name for name in exported if inspect.ismodule(getattr(signing, name))}
    assert set(signing.__all__) == exported - modules
    assert set(signing.__all__) >= CONSTANTS
