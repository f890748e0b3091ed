"""The configuration tables (README.md and docs/configuration.md) name every client and
every ``XSWAP_*`` environment variable the SDK reads, with each client's default URL."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

import xswap_sdk
from xswap_sdk._options import ServiceConfig
from xswap_sdk.flash._async_client import FLASH_SERVICE
from xswap_sdk.gateway._async_client import GATEWAY_SERVICE, GATEWAY_TESTNET_URL
from xswap_sdk.relayer._async_client import RELAYER_SERVICE
from xswap_sdk.routing._async_client import ROUTING_SERVICE

ROOT = Path(__file__).resolve().parents[2]
SERVICES = [FLASH_SERVICE, ROUTING_SERVICE, RELAYER_SERVICE, GATEWAY_SERVICE]


def variables_read_in_src() -> set[str]:
    found: set[str] = set()
    for path in (ROOT / "src").rglob("*.py"):
        found |= set(re.findall(r"\bXSWAP_[A-Z][A-Z0-9_]*", path.read_text()))
    return found


def configuration_section(page: Path) -> str:
    text = page.read_text()
    if page.name == "README.md":
        start = text.index("## Configuration")
        return text[start : text.index("\n## ", start + 1)]
    return text


@pytest.mark.parametrize("page", ["README.md", "docs/configuration.md"])
def test_the_table_names_every_variable_and_client(page: str) -> None:
    section = configuration_section(ROOT / page)
    variables = variables_read_in_src()
    assert {"XSWAP_FLASH_JWT", "XSWAP_GATEWAY_URL", "XSWAP_LOG"} <= variables
    assert sorted(name for name in variables if f"`{name}" not in section) == []
    clients = [name for name in xswap_sdk.__all__ if name.endswith("Client")]
    assert len(clients) == 8
    missing = [name for name in clients if not name.startswith("Async") and name not in section]
    assert missing == []


@pytest.mark.parametrize("page", ["README.md", "docs/configuration.md"])
def test_the_table_gives_each_default_url(page: str) -> None:
    section = configuration_section(ROOT / page)
    for service in SERVICES:
        assert service.default_base_url in section
        assert service.base_url_env in section
    assert GATEWAY_TESTNET_URL in section


@pytest.mark.parametrize(
    ("client", "service"),
    [
        ("FlashClient", FLASH_SERVICE),
        ("RoutingClient", ROUTING_SERVICE),
        ("RelayerClient", RELAYER_SERVICE),
    ],
)
def test_each_client_docstring_names_its_default_url(client: str, service: ServiceConfig) -> None:
    # (The Gateway client's default depends on testnet=; its docstring names both URLs.)
    doc = getattr(xswap_sdk, client).__doc__ or ""
    assert f"``{service.base_url_env}``, then ``{service.default_base_url}``" in doc


def test_the_architecture_page_lists_each_generated_pair_once() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text()
    row = re.compile(r"^\| `([\w/]*_async_\w+\.py)`[^|]*\| `([\w/]+\.py)`[^|]*\|$", re.MULTILINE)
    rows = row.findall(page)
    assert len(rows) == len(set(rows))
    spec = importlib.util.spec_from_file_location("unasync", ROOT / "scripts" / "unasync.py")
    assert spec is not None
    assert spec.loader is not None
    unasync = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(unasync)
    assert sorted(rows) == sorted(unasync.PAIRS)


def _shared_constructor_options() -> set[str]:
    import inspect

    clients = [getattr(xswap_sdk, name) for name in xswap_sdk.__all__ if name.endswith("Client")]
    shared = set.intersection(*(set(inspect.signature(c).parameters) for c in clients))
    return shared - {"base_url"}


def test_the_shared_constructor_options_are_described_once() -> None:
    text = (ROOT / "docs/configuration.md").read_text()
    start = text.index("## Shared constructor options")
    section = text[start : text.index("\n## ", start + 1)]
    listed = set(re.findall(r"`(\w+)=`", section))
    shared = _shared_constructor_options()
    assert {"timeout", "max_retries", "http_client", "limits", "policy"} <= shared
    assert shared <= listed, f"not in the shared options table: {shared - listed}"
    for name in xswap_sdk.__all__:
        if name.endswith("Client"):
            doc = getattr(xswap_sdk, name).__doc__ or ""
            assert '"Shared constructor options"' in doc, name
