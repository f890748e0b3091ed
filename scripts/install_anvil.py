"""Install Foundry's ``anvil``, the node the ``anvil`` tests run on (``pytest -m anvil``),
into this checkout's git-ignored ``.cache/anvil``, from the npm package Foundry publishes
it in (``@foundry-rs/anvil-<os>-<arch>``, pinned below; about 43 MB). It needs Node's
``npm`` and the network; ``pytest`` never installs anything by itself: without anvil,
the tests that need it skip and say to run this.

    python scripts/install_anvil.py          # install it (kept if already there); print its path
    python scripts/install_anvil.py --path   # print where it goes; install nothing

``tests/anvil/conftest.py`` looks for anvil in ``XSWAP_ANVIL`` (a path), then on
``PATH``, then where this script puts it. ``.ci/run`` runs this script first, so CI
never skips the anvil tests.
"""

from __future__ import annotations

import argparse
import platform
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "anvil"
ANVIL_VERSION = "1.7.1"
"""The anvil release the tests are known to run on."""

_SYSTEMS = {"Linux": "linux", "Darwin": "darwin"}
_MACHINES = {"x86_64": "amd64", "AMD64": "amd64", "arm64": "arm64", "aarch64": "arm64"}


def package() -> str | None:
    """The npm package of anvil for this machine, or ``None`` when Foundry publishes
    none for it."""
    system = _SYSTEMS.get(platform.system())
    machine = _MACHINES.get(platform.machine())
    return None if system is None or machine is None else f"@foundry-rs/anvil-{system}-{machine}"


def binary() -> Path | None:
    """Where this script puts anvil (it may not be there yet); ``None`` on a machine
    Foundry publishes no package for."""
    name = package()
    return None if name is None else CACHE / "node_modules" / name / "bin" / "anvil"


def install() -> Path:
    """Install anvil into `CACHE` unless it is there; its path.

    Raises:
        SystemExit: no package for this machine, no npm, or npm failed (its message).
    """
    name, path = package(), binary()
    if name is None or path is None:
        raise SystemExit(
            f"no anvil package for {platform.system()} {platform.machine()}: install Foundry "
            "(https://getfoundry.sh) and put anvil on PATH, or its path in XSWAP_ANVIL"
        )
    if path.is_file():
        return path
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit(
            "npm is needed to install anvil (Node.js); or install Foundry "
            "(https://getfoundry.sh) and put anvil on PATH, or its path in XSWAP_ANVIL"
        )
    CACHE.mkdir(parents=True, exist_ok=True)
    print(f"installing {name}@{ANVIL_VERSION} into {CACHE} (about 43 MB)", file=sys.stderr)
    command = [npm, "install", "--no-save", "--silent", "--prefix", str(CACHE)]
    # npm's own output goes to standard error: standard output is the path alone, for
    # anvil="$(python scripts/install_anvil.py)".
    done = subprocess.run([*command, f"{name}@{ANVIL_VERSION}"], stdout=sys.stderr, check=False)
    if done.returncode != 0 or not path.is_file():
        raise SystemExit(f"npm install {name}@{ANVIL_VERSION} failed (exit {done.returncode})")
    return path


def main(argv: list[str] | None = None) -> int:
    """Install (or, with ``--path``, only locate) anvil and print its path."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--path", action="store_true", help="print where anvil goes; install nothing"
    )
    args = parser.parse_args(argv)
    if args.path:
        path = binary()
        if path is None:
            raise SystemExit(f"no anvil package for {platform.system()} {platform.machine()}")
        print(path)
        return 0
    print(install())
    return 0


if __name__ == "__main__":
    sys.exit(main())
