"""What the commands print: text for people, or one JSON document with ``--json``."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Mapping, Sequence
from datetime import datetime
from decimal import Decimal
from typing import Any, TextIO

import pydantic

__all__ = ["Output", "add_json_option", "plain", "table"]


def add_json_option(parser: argparse.ArgumentParser) -> None:
    """``--json`` on ``parser``, kept when given before the command instead
    (``xswap --json status ...``)."""
    parser.add_argument(
        "--json",
        action="store_true",
        default=argparse.SUPPRESS,
        help="write one JSON document (amounts in smallest units) instead of text",
    )


def plain(value: Any) -> Any:
    """``value`` as JSON-ready data: models and dataclasses as dicts of their attributes,
    amounts kept as ``int`` smallest units (a model's JSON mode would turn some back into
    the wire's decimal strings), `Decimal` as a string, times in ISO 8601."""
    if isinstance(value, pydantic.BaseModel):
        return plain(value.model_dump(mode="python", by_alias=False))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return plain(dataclasses.asdict(value))
    if isinstance(value, Mapping):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    if isinstance(value, bool | int | float | str) or value is None:
        return value
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, bytes):
        return "0x" + value.hex()
    return str(value)


def table(headers: Sequence[str], rows: Sequence[Sequence[str]], *, right: set[int]) -> str:
    """Rows under headers, columns padded; the columns in ``right`` aligned right."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *rows, strict=True)]

    def line(cells: Sequence[str]) -> str:
        padded = [
            str(cell).rjust(width) if index in right else str(cell).ljust(width)
            for index, (cell, width) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(padded).rstrip()

    return "\n".join([line(headers), *(line(row) for row in rows)])


@dataclasses.dataclass
class Output:
    """Where a command writes: ``json`` picks one JSON document over text."""

    json: bool
    stdout: TextIO = dataclasses.field(default_factory=lambda: sys.stdout)
    stderr: TextIO = dataclasses.field(default_factory=lambda: sys.stderr)

    def result(self, data: Any, text: str) -> None:
        """Write a command's result: ``data`` as JSON, or ``text``."""
        if self.json:
            self.stdout.write(json.dumps(plain(data), indent=2) + "\n")
        else:
            self.stdout.write(text.rstrip("\n") + "\n")

    def error(self, data: Mapping[str, Any], message: str) -> None:
        """Write a failure: ``{"error": data}`` on standard output with ``--json`` (a
        script reads one document either way), ``message`` on standard error otherwise."""
        if self.json:
            self.stdout.write(json.dumps({"error": plain(data)}, indent=2) + "\n")
        else:
            self.stderr.write(f"xswap: {message}\n")
