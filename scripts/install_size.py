"""How much disk a base install of the SDK takes: a fresh venv, ``pip install .``, sizes.

Usage::

    python scripts/install_size.py            # make a venv in a temporary directory
    python scripts/install_size.py --venv V   # measure an existing venv instead

It prints the size of every distribution installed (the files its RECORD lists, as
``du`` counts them: whole 4 KiB blocks), largest first, and the total without pip and
setuptools, which every venv has whatever it installs. The figure in
docs/getting-started.md ("What gets installed") comes from this script. It needs the
package index (pip); it is not run by the test suite.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEEDED = {"pip", "setuptools", "wheel"}
"""What a fresh venv has before anything is installed: not counted."""

_MEASURE = r"""
import json, os
from importlib.metadata import distributions
sizes = {}
for dist in distributions():
    total = 0
    for file in dist.files or ():
        path = file.locate()
        try:
            total += -(-os.stat(path).st_size // 4096) * 4096
        except OSError:
            pass
    sizes[dist.metadata["Name"]] = total
print(json.dumps(sizes))
"""


def measure(python: Path) -> dict[str, int]:
    """Bytes on disk per distribution installed in the venv of ``python``."""
    out = subprocess.run([str(python), "-c", _MEASURE], check=True, capture_output=True)
    return dict(json.loads(out.stdout))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--venv", type=Path, help="measure this venv instead of a fresh one")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        venv = args.venv
        if venv is None:
            venv = Path(scratch) / "venv"
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
            pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
            subprocess.run([*pip, str(ROOT)], check=True)
        sizes = measure(venv / "bin" / "python")
    counted = {name: size for name, size in sizes.items() if name.lower() not in SEEDED}
    for name, size in sorted(counted.items(), key=lambda item: -item[1]):
        print(f"{size / 2**20:7.1f} MiB  {name}")
    total = sum(counted.values())
    count = len(counted)
    print(f"{total / 2**20:7.1f} MiB  in all, {count} distributions (pip, setuptools not counted)")


if __name__ == "__main__":
    main()
