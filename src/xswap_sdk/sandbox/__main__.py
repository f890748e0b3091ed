"""``python -m xswap_sdk.sandbox``: serve the emulated services on localhost (the same as
``xswap sandbox``).

Needs the ``sandbox`` extra (``pip install ".[sandbox]"`` in a checkout).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from ._cli import DESCRIPTION, add_arguments, run

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> None:
    """Parse the command line and serve until interrupted."""
    parser = argparse.ArgumentParser(prog="python -m xswap_sdk.sandbox", description=DESCRIPTION)
    add_arguments(parser)
    run(parser, parser.parse_args(argv))


if __name__ == "__main__":
    main()
