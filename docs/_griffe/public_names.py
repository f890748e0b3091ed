"""A griffe extension for the API reference: a private or unexported name in a rendered
signature, type or value is shown as what it stands for, so a reader never meets a name
they cannot import.

- A private type alias is replaced by its expansion, without the ``Annotated``
  metadata that carries the SDK's validators: ``amount: LenientInt`` is shown as
  ``amount: int``, ``timeout: TimeoutTypes`` as ``timeout: float | Timeout | None``.
- ``Annotated[T, ...]`` whose metadata names a private validator is shown as ``T`` in a
  type, and as ``Annotated[T, ...]`` in the value of a public alias.
- An attribute value that still names something private (a table built by private
  helpers, an instance attribute copied from a constructor argument) is left out: its
  docstring says what it holds.
- A dataclass field's ``field(...)`` is kept, so that griffe still builds the class's
  ``__init__`` from it (``init=False`` keeps a private field out of the signature);
  only an argument that names something private is replaced, a default or default
  factory by ``...``.

A name that is neither public nor an alias (a private class in a signature) is left as
it is; ``tests/docs/test_reference.py`` fails on it, so it gets exported or hidden.

Loaded by mkdocstrings (``extensions`` in ``mkdocs.yml``) after ``InlineDefaults``; the
SDK does not import it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import griffe

_PACKAGE = "xswap_sdk"
_ANNOTATED = {"typing.Annotated", "typing_extensions.Annotated"}
_FIELD = {"dataclasses.field"}
_MAX_DEPTH = 8
# Fields of an expression that point back up the tree, not at a part of it (a keyword
# argument's ``function`` is the call it belongs to; a call's ``function`` is a part).
_BACK_REFERENCES = {"parent", "member"}


class _Unfixable(Exception):
    """An expression names something private that has no public expansion."""


def _exported(package: griffe.Module) -> set[str]:
    """The paths of every object a public module lists in its ``__all__``."""
    found: set[str] = set()
    modules = [package]
    while modules:
        module = modules.pop()
        modules.extend(module.modules.values())
        if _private_path(module.path) or not module.exports:
            continue
        for name in module.exports:
            member = module.members.get(str(name))
            if member is None:
                continue
            try:
                found.add(member.final_target.path if member.is_alias else member.path)
            except Exception:
                continue
    return found


def _private_path(path: str) -> bool:
    return any(part.startswith("_") and part != "__init__" for part in path.split("."))


class _Publicity:
    """Answers "may a reader import this?" for the objects of one loaded package."""

    def __init__(self, package: griffe.Module) -> None:
        self.collection = package.modules_collection
        self.exported = _exported(package)

    def target(self, path: str) -> griffe.Object | None:
        try:
            member = self.collection.get_member(path)
            return member.final_target if member.is_alias else member
        except Exception:
            return None

    def is_public(self, obj: griffe.Object) -> bool:
        if obj.path in self.exported:
            return True
        parent = obj.parent
        if obj.name.startswith("_") or parent is None:
            return False
        if isinstance(parent, griffe.Class):
            return self.is_public(parent)
        if _private_path(parent.path):
            return False
        exports = parent.exports
        return str(obj.name) in {str(name) for name in exports} if exports else True

    def path_is_public(self, path: str) -> bool:
        if path.split(".", 1)[0] != _PACKAGE:
            return not _private_path(path)
        target = self.target(path)
        return target is not None and self.is_public(target)


class _Cleaner:
    def __init__(self, publicity: _Publicity) -> None:
        self.publicity = publicity

    def clean(self, expr: Any, *, in_type: bool, depth: int = 0) -> Any:
        """The expression with every private name expanded; `_Unfixable` if one cannot be."""
        if depth > _MAX_DEPTH:
            raise _Unfixable
        if isinstance(expr, griffe.ExprName) or (
            isinstance(expr, griffe.ExprAttribute)
            and all(isinstance(part, griffe.ExprName) for part in expr.values)
        ):
            return self._name(expr, in_type=in_type, depth=depth)
        if isinstance(expr, griffe.ExprSubscript) and self._is_annotated(expr.left):
            return self._annotated(expr, in_type=in_type, depth=depth)
        if not isinstance(expr, griffe.Expr):
            return expr
        changes: dict[str, Any] = {}
        for field in dataclasses.fields(expr):
            if field.name in _BACK_REFERENCES or (
                field.name == "function" and isinstance(expr, griffe.ExprKeyword)
            ):
                continue
            value = getattr(expr, field.name)
            if isinstance(value, list):
                cleaned = [self.clean(item, in_type=in_type, depth=depth) for item in value]
                if any(new is not old for new, old in zip(cleaned, value, strict=True)):
                    changes[field.name] = cleaned
            elif isinstance(value, griffe.Expr):
                cleaned_one = self.clean(value, in_type=in_type, depth=depth)
                if cleaned_one is not value:
                    changes[field.name] = cleaned_one
        return dataclasses.replace(expr, **changes) if changes else expr

    def _name(
        self, expr: griffe.ExprName | griffe.ExprAttribute, *, in_type: bool, depth: int
    ) -> Any:
        path = expr.canonical_path
        if self.publicity.path_is_public(path):
            return expr
        target = self.publicity.target(path)
        value = getattr(target, "value", None)
        if not isinstance(value, griffe.Expr) or not isinstance(
            target, griffe.Attribute | griffe.TypeAlias
        ):
            raise _Unfixable
        if isinstance(value, griffe.ExprSubscript) and self._is_annotated(value.left):
            value = self._annotated_parts(value)[0]
        return self.clean(value, in_type=in_type, depth=depth + 1)

    def _is_annotated(self, expr: Any) -> bool:
        return (
            isinstance(expr, griffe.ExprName | griffe.ExprAttribute)
            and expr.canonical_path in _ANNOTATED
        )

    @staticmethod
    def _annotated_parts(expr: griffe.ExprSubscript) -> list[Any]:
        inner = expr.slice
        return list(inner.elements) if isinstance(inner, griffe.ExprTuple) else [inner]

    def _annotated(self, expr: griffe.ExprSubscript, *, in_type: bool, depth: int) -> Any:
        base, *metadata = self._annotated_parts(expr)
        base = self.clean(base, in_type=in_type, depth=depth + 1)
        try:
            cleaned = [self.clean(item, in_type=in_type, depth=depth + 1) for item in metadata]
        except _Unfixable:
            if in_type:
                return base
            return dataclasses.replace(expr, slice=griffe.ExprTuple([base, "..."], implicit=True))
        return dataclasses.replace(expr, slice=griffe.ExprTuple([base, *cleaned], implicit=True))


def _is_field_call(value: Any) -> bool:
    return isinstance(value, griffe.ExprCall) and value.canonical_path in _FIELD


class PublicNames(griffe.Extension):
    """Replace private names in signatures, types and values with what they stand for."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        """Walk the loaded package once every module is there."""
        if pkg.name != _PACKAGE:
            return
        self._cleaner = _Cleaner(_Publicity(pkg))
        self._walk(pkg, seen=set())

    def _walk(self, obj: griffe.Object, seen: set[str]) -> None:
        if obj.path in seen:
            return
        seen.add(obj.path)
        for member in obj.members.values():
            if isinstance(member, griffe.Alias):
                continue
            if isinstance(member, griffe.Function):
                self._function(member)
            elif isinstance(member, griffe.Attribute):
                member.annotation = self._type(member.annotation)
                if _is_field_call(member.value):
                    member.value = self._field(member.value)
                else:
                    member.value = self._value(member.value)
            elif isinstance(member, griffe.Class | griffe.Module):
                self._walk(member, seen)

    def _function(self, function: griffe.Function) -> None:
        for parameter in function.parameters:
            parameter.annotation = self._type(parameter.annotation)
            if isinstance(parameter.default, griffe.Expr):
                cleaned = self._value(parameter.default)
                parameter.default = "..." if cleaned is None else cleaned
        function.returns = self._type(function.returns)

    def _field(self, call: griffe.ExprCall) -> griffe.ExprCall:
        # The dataclasses extension (run after this one) reads init=, kw_only=, default=
        # and default_factory= from the call: keep them, each expanded on its own.
        arguments: list[Any] = []
        for argument in call.arguments:
            if not isinstance(argument, griffe.ExprKeyword):
                arguments.append(argument)
                continue
            try:
                value = self._cleaner.clean(argument.value, in_type=False)
            except _Unfixable:
                if argument.name in {"default", "default_factory"}:
                    arguments.append(dataclasses.replace(argument, name="default", value="..."))
                continue
            arguments.append(dataclasses.replace(argument, value=value))
        return dataclasses.replace(call, arguments=arguments)

    def _type(self, expr: Any) -> Any:
        try:
            return self._cleaner.clean(expr, in_type=True)
        except _Unfixable:
            return expr  # left for the reference test to report

    def _value(self, expr: Any) -> Any:
        try:
            return self._cleaner.clean(expr, in_type=False)
        except _Unfixable:
            return None
