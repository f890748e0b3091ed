"""Prove the wire test (tests/test_wire.py) catches a dropped argument.

Deletes each keyword-forwarding line (``name=name,``) of the async clients, one at a time,
regenerates the sync clients, and runs the wire test of that service. Every deletion must
make it fail; the script prints how many did and lists any that did not, then restores
the sources. It takes a few minutes:

    python scripts/forwarding_mutations.py
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = [
    "src/xswap_sdk/relayer/_async_client.py",
    "src/xswap_sdk/routing/_async_client.py",
    "src/xswap_sdk/flash/_async_client.py",
    "src/xswap_sdk/gateway/_async_client.py",
]
FORWARDING = re.compile(r"\s+(\w+)=\1,\n")
# Methods the wire test leaves to another module (its ELSEWHERE): that module runs too.
ELSEWHERE = {
    "routing": ["tests/routing/test_execution.py"],
    "flash": ["tests/flash/test_deposit.py"],
}


def _run(*args: str) -> int:
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, capture_output=True, check=False
    ).returncode


def main() -> int:
    """Mutate, test, restore; exit 1 if any mutation went unnoticed."""
    caught, missed = 0, []
    for source in SOURCES:
        path = ROOT / source
        original = path.read_text()
        lines = original.splitlines(keepends=True)
        service = source.split("/")[2]
        try:
            for index, line in enumerate(lines):
                if not FORWARDING.fullmatch(line):
                    continue
                path.write_text("".join(lines[:index] + lines[index + 1 :]))
                _run("scripts/unasync.py")
                wire_test = ("-m", "pytest", "-q", "-x", "-p", "no:cacheprovider")
                failed = _run(*wire_test, "tests/test_wire.py", "-k", f"-{service}-") != 0
                if not failed and ELSEWHERE.get(service):
                    failed = _run(*wire_test, *ELSEWHERE[service]) != 0
                if failed:
                    caught += 1
                else:
                    missed.append(f"{source}:{index + 1}: {line.strip()}")
        finally:
            path.write_text(original)
            _run("scripts/unasync.py")
    print(f"{caught + len(missed)} forwarding lines deleted one at a time: {caught} caught")
    for line in missed:
        print(f"  missed {line}")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
