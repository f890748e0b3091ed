"""Write each lazy package's table of names from its ``if TYPE_CHECKING:`` imports.

A lazy package (see ``xswap_sdk._exports``) lists each public name once, as an import in
its ``TYPE_CHECKING`` block, which type checkers and IDEs read. At run time the package
looks names up in ``_HOMES``, a plain dict written below that block by this script, so a
frozen or zipped app, which has bytecode but no source, imports the SDK too.

    python scripts/lazy_tables.py           # rewrite the tables
    python scripts/lazy_tables.py --check   # exit 1 if any table is stale

``tests/test_exports.py`` runs the check.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _load_exports() -> object:
    # By path: importing it as xswap_sdk._exports would run the package, whose table
    # this script may be about to write.
    path = ROOT / "src" / "xswap_sdk" / "_exports.py"
    spec = importlib.util.spec_from_file_location("_xswap_exports", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


read_homes = _load_exports().read_homes  # type: ignore[attr-defined]

BEGIN = "# -- lazy names: written by scripts/lazy_tables.py from the TYPE_CHECKING imports --\n"
END = "# -- end of lazy names --\n"

PACKAGES = ["", "flash", "gateway", "relayer", "routing", "signing"]
# Lazy modules that are not packages: each service's models, written in private modules.
MODULES = ["flash/models.py", "routing/models.py"]


def table(source: Path) -> str:
    """The ``_HOMES`` block for the package whose ``__init__.py`` is ``source``."""
    lines = [BEGIN, "_HOMES = {\n"]
    for name, (module, attribute) in sorted(read_homes(source).items()):
        line = f"    {name!r}: ({module!r}, {attribute!r}),\n"
        if len(line) > 101:  # as ruff format wraps it
            line = f"    {name!r}: (\n        {module!r},\n        {attribute!r},\n    ),\n"
        lines.append(line.replace("'", '"'))
    lines += ["}\n", END]
    return "".join(lines)


def rewritten(source: Path) -> str:
    """The source of ``source`` with its table up to date."""
    text = source.read_text(encoding="utf-8")
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < 0:
        raise SystemExit(f"{source}: no {BEGIN.strip()!r} ... {END.strip()!r} block")
    return text[:start] + table(source) + text[end + len(END) :]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a table is stale")
    args = parser.parse_args(argv)
    stale = []
    sources = [ROOT / "src" / "xswap_sdk" / package / "__init__.py" for package in PACKAGES]
    sources += [ROOT / "src" / "xswap_sdk" / module for module in MODULES]
    for source in sources:
        new = rewritten(source)
        if new != source.read_text(encoding="utf-8"):
            stale.append(source.relative_to(ROOT))
            if not args.check:
                source.write_text(new, encoding="utf-8")
    for path in stale:
        print(f"{'stale' if args.check else 'rewrote'}: {path}")
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
