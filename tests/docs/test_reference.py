"""The API reference is complete and clean.

- The docs are built (strict) into a temporary folder, and mkdocstrings' inventory
  (``objects.inv``) and the rendered pages are checked for every public model field and
  client method.
- What the reference renders is walked with griffe, loaded as mkdocstrings loads it
  (same griffe extensions, same member selection: each ``:::`` block of
  ``docs/reference/*.md`` with its options), in about a second: every name in a rendered
  signature, type, default or value must be importable from a public module (listed in
  an ``__all__``), and every rendered attribute of a class must be described.
"""

from __future__ import annotations

import dataclasses
import enum
import html
import importlib
import inspect
import os
import re
import subprocess
import sys
import textwrap
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import BaseModel

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("xswap_sdk.flash", "xswap_sdk.routing", "xswap_sdk.relayer", "xswap_sdk.signing")
CLIENTS = ("FlashClient", "RoutingClient", "RelayerClient")

pytest.importorskip("mkdocs", reason="building the docs needs mkdocs (the dev extra)")
pytest.importorskip("mkdocstrings_handlers.python", reason="needs mkdocstrings[python]")
griffe = pytest.importorskip("griffe", reason="needs griffe (with mkdocstrings[python])")


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


# ------------------------------------------------------------------ what the reference renders


def handler_options() -> dict[str, Any]:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    for plugin in config["plugins"]:
        if isinstance(plugin, dict) and "mkdocstrings" in plugin:
            options: dict[str, Any] = plugin["mkdocstrings"]["handlers"]["python"]["options"]
            return options
    raise AssertionError("mkdocs.yml has no mkdocstrings plugin")


def reference_blocks() -> Iterator[tuple[str, dict[str, Any]]]:
    """Each ``::: identifier`` of the reference pages, with the options it is given."""
    block = re.compile(r"^::: (\S+)\n((?:    .*\n|\n)*)", re.MULTILINE)
    for page in sorted((ROOT / "docs" / "reference").glob("*.md")):
        for match in block.finditer(page.read_text()):
            extra = yaml.safe_load(textwrap.dedent(match[2])) if match[2].strip() else None
            yield match[1], (extra or {}).get("options", {})


@pytest.fixture(scope="module")
def api() -> Any:
    """The package as mkdocstrings loads it for the reference, extensions applied."""
    extensions = [
        str(ROOT / spec) if ".py:" in spec else spec
        for spec in handler_options().get("extensions", [])
    ]
    return griffe.load(
        "xswap_sdk",
        search_paths=[ROOT / "src"],
        extensions=griffe.load_extensions(*extensions),
        docstring_parser="google",
    )


@dataclass
class Rendered:
    """What the reference shows: expressions by owner, and attributes by class."""

    expressions: list[tuple[str, Any]] = field(default_factory=list)
    attributes: list[tuple[Any, Any]] = field(default_factory=list)  # (class, attribute)
    seen: set[str] = field(default_factory=set)


def _alias_paths(obj: Any) -> list[str]:
    """The path of ``obj`` and of every alias between it and its final target."""
    paths = [obj.path]
    while obj.is_alias:
        try:
            obj = obj.target
        except Exception:  # an alias to something outside the package
            break
        paths.append(obj.path)
    return paths


def _final(obj: Any) -> Any:
    try:
        return obj.final_target if obj.is_alias else obj
    except Exception:  # an alias to something outside the package
        return None


class Selection:
    """mkdocstrings-python's choice of members, for the options this project uses."""

    def __init__(self, options: dict[str, Any]) -> None:
        merged = {**handler_options(), **options}
        self.filters = [
            (re.compile(spec.lstrip("!")), spec.startswith("!")) for spec in merged["filters"]
        ]
        self.inherited = set(merged.get("inherited_members") or [])
        self.merge_init = merged.get("merge_init_into_class", False)

    def shows(self, name: str) -> bool:
        return all(bool(pattern.search(name)) != exclude for pattern, exclude in self.filters)

    def members(self, obj: Any) -> Iterator[Any]:
        if obj.is_class:
            members = dict(obj.members)
            members.update(
                {name: obj.all_members[name] for name in self.inherited if name in obj.all_members}
            )
            for name, member in members.items():
                if self.shows(name) and (not member.is_alias or name in self.inherited):
                    yield member
            return
        exports = {str(name) for name in obj.exports or ()}
        for name, member in obj.members.items():
            # A module shows what it defines, and what it imports only if it exports it.
            if not self.shows(name) or (member.is_alias and name not in exports):
                continue
            target = _final(member)
            if target is not None and not target.is_module:
                yield member


def render(obj: Any, selection: Selection, out: Rendered, owner: Any = None) -> None:
    target = _final(obj)
    if target is None:
        return
    first = target.path not in out.seen
    # Seen by the path a reader imports it from too, and by each alias on the way: a
    # class that names its public home as its __module__ (xswap_sdk.errors' classes,
    # and the models xswap_sdk.routing re-exports from xswap_sdk.routing.models, which
    # loads them from private modules).
    out.seen.update((target.path, *_alias_paths(obj)))
    if not first:
        return
    if target.is_function:
        for parameter in target.parameters:
            out.expressions.append((target.path, parameter.annotation))
            out.expressions.append((target.path, parameter.default))
        out.expressions.append((target.path, target.returns))
    elif target.is_attribute:
        out.expressions += [(target.path, target.annotation), (target.path, target.value)]
        if owner is not None:
            out.attributes.append((owner, target))
    elif target.is_class:
        init = target.members.get("__init__")
        if selection.merge_init and init is not None and not init.is_alias:
            render(init, selection, out)
        for member in selection.members(target):
            render(member, selection, out, owner=target)
    elif target.is_module:
        for member in selection.members(target):
            render(member, selection, out)


@pytest.fixture(scope="module")
def rendered(api: Any) -> Rendered:
    out = Rendered()
    for identifier, options in reference_blocks():
        render(api.modules_collection.get_member(identifier), Selection(options), out)
    return out


# ------------------------------------------------------------------ what a reader can import


def _public_modules() -> list[Any]:
    import pkgutil

    import xswap_sdk

    found = [xswap_sdk]
    for info in pkgutil.walk_packages(xswap_sdk.__path__, "xswap_sdk."):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        try:
            found.append(importlib.import_module(info.name))
        except ImportError:  # an optional extra that is not installed
            continue
    return found


@pytest.fixture(scope="module")
def importable() -> dict[int, str]:
    """id() of every object a public module exports, with the name to import it by."""
    names: dict[int, str] = {}
    for module in _public_modules():
        for name in getattr(module, "__all__", ()):
            names.setdefault(id(getattr(module, name)), f"{module.__name__}.{name}")
    return names


def _runtime(path: str) -> Any:
    """The object a dotted path names at run time; LookupError when there is none."""
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            value: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for part in parts[cut:]:
            if not hasattr(value, part):
                raise LookupError(path)
            value = getattr(value, part)
        return value
    raise LookupError(path)


def is_public(path: str, importable: dict[int, str]) -> bool:
    if not path.startswith("xswap_sdk"):
        return not any(part.startswith("_") for part in path.split("."))
    try:
        value = _runtime(path)
    except LookupError:  # a constructor argument (Cls(arg)), a local name
        return False
    if id(value) in importable:
        return True
    owner, _, name = path.rpartition(".")
    # A member of an exported class or enum: KnownChain.BASE, Sandbox.fund.
    return (
        not name.startswith("_")
        and inspect.isclass(_try_runtime(owner))
        and (is_public(owner, importable))
    )


def _try_runtime(path: str) -> Any:
    try:
        return _runtime(path)
    except LookupError:
        return None


def names_in(expr: Any) -> Iterator[Any]:
    if isinstance(expr, griffe.ExprName):
        yield expr
    elif isinstance(expr, griffe.ExprAttribute) and all(
        isinstance(part, griffe.ExprName) for part in expr.values
    ):
        yield expr  # httpx.Timeout, KnownChain.BASE: one name
    elif isinstance(expr, griffe.Expr):
        for part in expr.iterate(flat=False):
            if part is not expr and isinstance(part, griffe.Expr):
                yield from names_in(part)


def test_the_reference_renders_no_private_or_unexported_name(
    rendered: Rendered, importable: dict[int, str]
) -> None:
    assert len(rendered.expressions) > 1000
    leaks = sorted(
        {
            f"{name.canonical_path} (in {owner})"
            for owner, expr in rendered.expressions
            for name in names_in(expr)
            if not is_public(name.canonical_path, importable)
        }
    )
    assert leaks == []


def test_private_aliases_are_rendered_as_what_they_stand_for(api: Any) -> None:
    get = api.modules_collection.get_member
    assert str(get("xswap_sdk.relayer.models.RelayStatus.value").annotation) == "int"
    timeout = get("xswap_sdk.relayer.RelayerClient.__init__").parameters["timeout"]
    assert str(timeout.annotation) == "float | httpx.Timeout | None | NotGiven"
    assert str(timeout.default) == "NOT_GIVEN"  # a sentinel, by its name
    max_retries = get("xswap_sdk.relayer.RelayerClient.__init__").parameters["max_retries"]
    assert str(max_retries.default) == "2"  # a constant, by its value


def _described_in_class(cls: Any) -> set[str]:
    names: set[str] = set()
    for section in cls.docstring.parsed if cls.docstring else ():
        if section.kind is griffe.DocstringSectionKind.attributes:
            names |= {attribute.name for attribute in section.value}
    return names


def test_every_rendered_field_is_described(rendered: Rendered) -> None:
    undescribed = sorted(
        attribute.path
        for cls, attribute in rendered.attributes
        if not (attribute.docstring and attribute.docstring.value.strip())
        and attribute.name not in _described_in_class(cls)
        and not _is_enum_member(cls)
    )
    assert len(rendered.attributes) > 300
    assert undescribed == []


def _is_enum_member(cls: Any) -> bool:
    value = _try_runtime(cls.path)
    return inspect.isclass(value) and issubclass(value, enum.Enum)


# ------------------------------------------------------------------ per-call options, once


def _options_paragraph(doc: str) -> str:
    """The ``**options:`` entry of a Google-style Args section, continuation lines too."""
    lines = doc.splitlines()
    for index, line in enumerate(lines):
        if line.lstrip().startswith("**options:"):
            indent = len(line) - len(line.lstrip())
            entry = [line.strip()]
            for more in lines[index + 1 :]:
                if not more.strip() or len(more) - len(more.lstrip()) <= indent:
                    break
                entry.append(more.strip())
            return " ".join(entry)
    return ""


def _methods_taking_options() -> Iterator[tuple[str, Any, str]]:
    import xswap_sdk

    for client in [name for name in xswap_sdk.__all__ if name.endswith("Client")]:
        cls = getattr(xswap_sdk, client)
        for name, method in inspect.getmembers(cls, inspect.isfunction):
            if name.startswith("_"):
                continue
            parameter = inspect.signature(method).parameters.get("options")
            if parameter is not None and parameter.kind is inspect.Parameter.VAR_KEYWORD:
                yield f"{client}.{name}", method, str(parameter.annotation)


def test_every_options_line_refers_to_the_per_call_options_with_every_key() -> None:
    from xswap_sdk import _options

    checked, wrong = 0, []
    for where, method, annotation in _methods_taking_options():
        typed_dict = re.fullmatch(r"Unpack\[(\w+)\]", annotation)
        assert typed_dict, f"{where}: **options is {annotation}"
        name = typed_dict[1]
        if where.split(".")[1].startswith("wait_") and name == "RequestOptions":
            continue  # the waits' own options (without timeout=) are documented with them
        line = _options_paragraph(inspect.getdoc(method) or "")
        keys = getattr(_options, name).__annotations__
        named = set(re.findall(r"``(\w+)``", line))
        expected = set(keys) if name == "RequestOptions" else set()
        if f"`{name}`" not in line or not expected <= named:
            wrong.append(f"{where}: {line!r}")
        checked += 1
    assert checked > 60
    assert wrong == []


# What the reference leaves out on purpose, and why.
NOT_IN_THE_REFERENCE = {
    # How the sandbox applies a fault rule to its own answers (faults.py's internals).
    "xswap_sdk.sandbox.faults.Outcome",
}


def test_every_public_model_and_dataclass_is_in_the_reference(rendered: Rendered) -> None:
    missing = set()
    for module in _public_modules():
        for name in getattr(module, "__all__", ()):
            value = getattr(module, name)
            if not inspect.isclass(value):
                continue
            if issubclass(value, BaseModel) or dataclasses.is_dataclass(value):
                path = f"{value.__module__}.{value.__qualname__}"
                if path not in rendered.seen and path not in NOT_IN_THE_REFERENCE:
                    missing.add(path)
    assert sorted(missing) == []
