"""A griffe extension for the API reference: a parameter whose default is a module
constant (``max_retries=DEFAULT_MAX_RETRIES``) is shown with the constant's value
(``max_retries=2``), so readers see the default without looking the name up.

Loaded by mkdocstrings (``extensions`` in ``mkdocs.yml``); the SDK does not import it.
"""

from __future__ import annotations

from typing import Any

import griffe

_MAX_LENGTH = 60


def _inline(value: Any, module: griffe.Object) -> str | None:
    # Follow a plain name (or a chain of them) to an attribute with a literal value.
    for _ in range(5):
        if not isinstance(value, griffe.ExprName):
            break
        try:
            target = module.modules_collection.get_member(value.canonical_path)
        except Exception:
            return None
        if isinstance(target, griffe.Alias):
            try:
                target = target.final_target
            except Exception:
                return None
        if not isinstance(target, griffe.Attribute) or target.value is None:
            return None
        value = target.value
    text = str(value)
    if isinstance(value, griffe.ExprName) or len(text) > _MAX_LENGTH or _names_sdk(value):
        return None
    return text


def _names_sdk(value: Any) -> bool:
    # A sentinel (NOT_GIVEN = NotGiven()) reads better by its name than as the call
    # that made it: only values built from literals and other libraries are inlined.
    if not isinstance(value, griffe.Expr):
        return False
    return any(
        isinstance(part, griffe.ExprName) and part.canonical_path.startswith("xswap_sdk")
        for part in value.iterate(flat=True)
    )


class InlineDefaults(griffe.Extension):
    """Replace constant names in parameter defaults with the constants' values."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        """Walk the loaded package once every module is there."""
        self._walk(pkg, seen=set())

    def _walk(self, obj: griffe.Object, seen: set[str]) -> None:
        if obj.path in seen:
            return
        seen.add(obj.path)
        for member in obj.members.values():
            if isinstance(member, griffe.Alias):
                continue
            if isinstance(member, griffe.Function):
                for parameter in member.parameters:
                    if isinstance(parameter.default, griffe.ExprName):
                        inlined = _inline(parameter.default, member.module)
                        if inlined is not None:
                            parameter.default = inlined
            elif isinstance(member, griffe.Class | griffe.Module):
                self._walk(member, seen)
