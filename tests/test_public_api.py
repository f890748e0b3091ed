"""The public surface: exactly __all__, documented, and the same for sync and async."""

from __future__ import annotations

import inspect
import types

import pytest

import xswap_sdk
from xswap_sdk import errors

EXPECTED = {
    "MAX_UINT256",
    "NOT_GIVEN",
    "Address",
    "AsyncFlashClient",
    "AsyncGatewayClient",
    "AsyncRelayerClient",
    "AsyncRoutingClient",
    "Bytes32",
    "ChainId",
    "Clock",
    "FlashClient",
    "GatewayClient",
    "HexBytes",
    "KnownChain",
    "NotGiven",
    "RawResponse",
    "RelayerClient",
    "RequestOptions",
    "RoutingClient",
    "SystemClock",
    "TokenAmount",
    "VirtualClock",
    "WaitOptions",
    "__version__",
    "errors",
    "format_amount",
    "from_units",
    "to_checksum",
    "to_units",
}

CLIENT_PAIRS = [
    (getattr(xswap_sdk, name.removeprefix("Async")), getattr(xswap_sdk, name))
    for name in sorted(EXPECTED)
    if name.startswith("Async") and name.endswith("Client")
]
# Methods whose names differ by design between the blocking and async clients.
SYNC_ONLY = {"close", "__enter__", "__exit__"}
ASYNC_ONLY = {"aclose", "__aenter__", "__aexit__"}
# Public methods that never touch the network, so the async clients keep them plain.
NO_IO = {
    "with_options",
    "capture_responses",
    "get_version",
    "build_order",
    "sign_order",
    "domain_of",
}


def test_all_is_exactly_the_expected_surface() -> None:
    assert set(xswap_sdk.__all__) == EXPECTED
    assert len(xswap_sdk.__all__) == len(set(xswap_sdk.__all__))


def test_every_exported_name_exists_and_nothing_else_is_public() -> None:
    for name in xswap_sdk.__all__:
        assert hasattr(xswap_sdk, name), name
    public = {
        name
        for name, value in vars(xswap_sdk).items()
        if not name.startswith("_") and not isinstance(value, types.ModuleType)
    }
    assert public <= set(xswap_sdk.__all__), public - set(xswap_sdk.__all__)


def public_methods(cls: type) -> dict[str, object]:
    return {
        name: member
        for name, member in inspect.getmembers(cls)
        if (not name.startswith("_") or name in SYNC_ONLY | ASYNC_ONLY) and callable(member)
    }


@pytest.mark.parametrize(("sync_cls", "async_cls"), CLIENT_PAIRS)
def test_every_sync_method_has_an_async_twin_with_the_same_signature(
    sync_cls: type, async_cls: type
) -> None:
    sync_methods = public_methods(sync_cls)
    async_methods = public_methods(async_cls)
    assert set(sync_methods) - SYNC_ONLY == set(async_methods) - ASYNC_ONLY
    for name in set(sync_methods) - SYNC_ONLY:
        sync_sig = inspect.signature(sync_methods[name])  # type: ignore[arg-type]
        async_sig = inspect.signature(async_methods[name])  # type: ignore[arg-type]
        sync_params = [(p.name, p.kind, p.default) for p in sync_sig.parameters.values()]
        async_params = [(p.name, p.kind, p.default) for p in async_sig.parameters.values()]
        assert sync_params == async_params, name
        if inspect.iscoroutinefunction(async_methods[name]):
            assert not inspect.iscoroutinefunction(sync_methods[name]), name
            assert sync_sig.return_annotation == async_sig.return_annotation, name


@pytest.mark.parametrize(("sync_cls", "async_cls"), CLIENT_PAIRS)
def test_async_methods_that_may_do_io_are_coroutines(sync_cls: type, async_cls: type) -> None:
    for name, method in public_methods(async_cls).items():
        if name in NO_IO or name in ASYNC_ONLY:
            continue
        assert inspect.iscoroutinefunction(method) or inspect.isasyncgenfunction(method), name


def documented_objects() -> list[tuple[str, object]]:
    found: list[tuple[str, object]] = []
    for name in xswap_sdk.__all__:
        value = getattr(xswap_sdk, name)
        if inspect.isclass(value) or inspect.isfunction(value):
            found.append((name, value))
        if inspect.isclass(value) and value.__module__.startswith("xswap_sdk"):
            for member_name, member in vars(value).items():
                if not member_name.startswith("_") and (
                    inspect.isfunction(member) or isinstance(member, property)
                ):
                    found.append((f"{name}.{member_name}", member))
    for name in errors.__all__:
        found.append((f"errors.{name}", getattr(errors, name)))
    return found


@pytest.mark.parametrize(("name", "obj"), documented_objects())
def test_every_public_name_has_a_docstring(name: str, obj: object) -> None:
    assert inspect.getdoc(obj), f"{name} has no docstring"


# ---------------------------------------------------------------------------- every public module


def public_modules() -> list[str]:
    """Every module of the package a user may import: no part of its name private."""
    import pkgutil

    found = ["xswap_sdk"]
    for info in pkgutil.walk_packages(xswap_sdk.__path__, "xswap_sdk."):
        if not any(part.startswith("_") for part in info.name.split(".")):
            found.append(info.name)
    return sorted(found)


PUBLIC_MODULES = public_modules()


@pytest.mark.parametrize("name", PUBLIC_MODULES)
def test_a_public_module_says_what_it_exports_and_documents_it(name: str) -> None:
    import importlib

    module = importlib.import_module(name)
    exported = getattr(module, "__all__", None)
    assert exported is not None, f"{name} has no __all__"
    assert len(exported) == len(set(exported)), f"{name}.__all__ repeats a name"
    for export in exported:
        assert hasattr(module, export), f"{name}.__all__ names {export}, which does not exist"
    # Nothing defined here is public by accident: a class or function of this module
    # that is not exported has a private name.
    for attribute, value in vars(module).items():
        if attribute.startswith("_") or attribute in exported:
            continue
        if (inspect.isclass(value) or inspect.isfunction(value)) and (
            getattr(value, "__module__", None) == name
        ):
            raise AssertionError(f"{name}.{attribute} is public but not in __all__")
    for export in exported:
        value = getattr(module, export)
        if inspect.isclass(value) or inspect.isfunction(value):
            assert inspect.getdoc(value), f"{name}.{export} has no docstring"
