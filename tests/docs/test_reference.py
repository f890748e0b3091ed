"""The API reference is complete: the docs are built (strict) into a temporary folder,
and mkdocstrings' inventory (``objects.inv``) and the rendered pages are checked for
every public model field and client method, with no private names in signatures."""

from __future__ import annotations

import html
import importlib
import inspect
import os
import re
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from pydantic import BaseModel

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("xswap_sdk.flash", "xswap_sdk.routing", "xswap_sdk.relayer", "xswap_sdk.signing")
CLIENTS = ("FlashClient", "RoutingClient", "RelayerClient")

pytest.importorskip("mkdocs", reason="building the docs needs mkdocs (the dev extra)")
pytest.importorskip("mkdocstrings_handlers.python", reason="needs mkdocstrings[python]")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("site")
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", folder],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        check=True,
        capture_output=True,
    )
    return folder


@pytest.fixture(scope="module")
def inventory(site: Path) -> set[str]:
    raw = (site / "objects.inv").read_bytes()
    header_end = 0
    for _ in range(4):  # four text lines, then the zlib-compressed entries
        header_end = raw.index(b"\n", header_end) + 1
    entries = zlib.decompress(raw[header_end:]).decode()
    return {line.split(" ", 1)[0] for line in entries.splitlines()}


def page_text(site: Path, page: str) -> str:
    raw = (site / "reference" / page / "index.html").read_text()
    return html.unescape(re.sub(r"<[^>]+>", "", raw))


def public_models() -> dict[str, type[BaseModel]]:
    found: dict[str, type[BaseModel]] = {}
    for package in PACKAGES:
        module = importlib.import_module(package)
        for name in module.__all__:
            value = getattr(module, name)
            if inspect.isclass(value) and issubclass(value, BaseModel):
                found[f"{package}.{name}"] = value
    return found


def documented(inventory: set[str], package: str, owner: str, member: str) -> bool:
    # A page documents a package's names (xswap_sdk.flash.Quote.fees) or the module
    # that defines them (xswap_sdk.relayer.models.RelayStatus.id).
    suffix = f".{owner}.{member}"
    return any(entry.startswith(package) and entry.endswith(suffix) for entry in inventory)


def test_every_public_model_field_is_in_the_reference(inventory: set[str]) -> None:
    models = public_models()
    assert len(models) > 50
    missing = [
        f"{path}.{field}"
        for path, model in models.items()
        for field in model.model_fields
        if not documented(inventory, path.rsplit(".", 1)[0], model.__name__, field)
    ]
    assert missing == []


def test_every_client_method_is_in_the_reference(inventory: set[str]) -> None:
    missing = []
    for package in ("xswap_sdk.flash", "xswap_sdk.routing", "xswap_sdk.relayer"):
        module = importlib.import_module(package)
        for name in module.__all__:
            if not name.endswith("Client"):
                continue
            cls = getattr(module, name)
            for method, _ in inspect.getmembers(cls, callable):
                if method.startswith("_"):
                    continue
                if not documented(inventory, package, name, method):
                    missing.append(f"{package}.{name}.{method}")
    assert missing == []


@pytest.mark.parametrize("page", ["flash", "routing", "relayer"])
def test_signatures_show_values_not_private_names(site: Path, page: str) -> None:
    text = page_text(site, page)
    assert "max_retries: int = 2" in text
    assert "DEFAULT_MAX_RETRIES" not in text
    assert "Bases:" not in text
    for private in ("SyncAPIClient", "AsyncAPIClient", "_FlashShared", "_SnakeModel"):
        assert private not in text


@pytest.mark.parametrize(
    ("page", "client"),
    [("flash", "FlashClient"), ("routing", "RoutingClient"), ("relayer", "RelayerClient")],
)
def test_the_sync_client_comes_before_the_async_one(site: Path, page: str, client: str) -> None:
    text = page_text(site, page)
    assert text.index(f"{client}(") < text.index(f"Async{client}(")


def test_a_field_is_rendered_with_its_type_and_description(site: Path) -> None:
    text = re.sub(r"\s+", " ", page_text(site, "relayer"))
    assert "execution_tx_hash: str | None = None The on-chain hash once executed" in text
    assert "cost_usd: Decimal = Field(alias='costUSD') What the gas cost" in text
