"""The package's type completeness, as ``pyright --verifytypes`` measures it, against a floor.

Usage::

    python scripts/type_completeness.py            # fails below 95 %
    python scripts/type_completeness.py --floor 0.99

It runs basedpyright (the dev extra installs it; it bundles pyright and a Node.js
runtime, so nothing is downloaded at run time) as
``basedpyright --verifytypes xswap_sdk --ignoreexternal --outputjson``: every symbol
the package exports, and every symbol of its own they refer to, must have a known type
(an annotation, not an inference another checker could make differently). Types that
come from other packages (pydantic's metaclass, web3) are not counted against us:
``--ignoreexternal``, as the openai package's published figure is measured. It prints
the score and the first symbols that lower it, and exits 1 below the floor. CI runs it
(``.ci/run``).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys

SHOWN = 20
"""How many incomplete symbols are listed when the score falls short."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--floor", type=float, default=0.95, help="the least score (0 to 1)")
    args = parser.parse_args()
    tool = shutil.which("basedpyright")
    if tool is None:
        print("basedpyright is not installed: pip install -e '.[dev]'", file=sys.stderr)
        return 2
    command = [tool, "--verifytypes", "xswap_sdk", "--ignoreexternal", "--outputjson"]
    # pyright exits 1 whenever the score is below 100 %: the JSON says how far.
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    try:
        report = json.loads(done.stdout)["typeCompleteness"]
    except (ValueError, KeyError):
        print(done.stdout[-2000:], done.stderr[-2000:], sep="\n", file=sys.stderr)
        return 2
    score = float(report["completenessScore"])
    counts = report["exportedSymbolCounts"]
    print(
        f"type completeness of xswap_sdk: {score:.1%} ({counts['withKnownType']} exported "
        f"symbols known, {counts['withAmbiguousType']} ambiguous, "
        f"{counts['withUnknownType']} unknown); floor {args.floor:.0%}"
    )
    if score >= args.floor:
        return 0
    incomplete = [
        (symbol["name"], diagnostic["message"].splitlines()[0])
        for symbol in report["symbols"]
        if not symbol.get("isTypeKnown", True) or symbol.get("isTypeAmbiguous", False)
        for diagnostic in symbol.get("diagnostics", [])[:1]
    ]
    for name, message in incomplete[:SHOWN]:
        print(f"  {name}: {message}")
    if len(incomplete) > SHOWN:
        print(f"  ... and {len(incomplete) - SHOWN} more")
    return 1


if __name__ == "__main__":
    sys.exit(main())
