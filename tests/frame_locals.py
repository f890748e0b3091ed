"""What an error tracker would capture from a raised error: the local variables of every
frame of its traceback (Sentry's default), searched for planted secrets.

`assert_no_secret_in_frames` walks the traceback of an exception and of the exceptions
it was raised from or during, and, in each frame of the chosen modules, looks through
every local: strings and bytes, containers, `httpx.Headers`, `httpx.Request`, and the
attributes of objects, a few levels deep, as a tracker's serializer would; plus the
``repr`` of each local, which is what trackers send for objects they do not walk.
`pydantic.SecretStr`, `SecretBytes` and `Secret` are masking containers and are not opened.

    with pytest.raises(errors.AuthenticationError) as info:
        client.get_relay_status(tx_id)
    assert_no_secret_in_frames(info.value, [API_KEY])
"""

from __future__ import annotations

import contextlib
import types
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import httpx
from pydantic import Secret, SecretBytes, SecretStr

__all__ = ["Finding", "assert_no_secret_in_frames", "find_secrets_in_frames"]

# pydantic's masking containers: their repr is "**********", and no tracker opens them.
_MASKED = (SecretStr, SecretBytes, Secret)
_OPAQUE = (
    types.ModuleType,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    types.FrameType,
    types.CodeType,
    types.TracebackType,
    type,
)


@dataclass(frozen=True)
class Finding:
    """Where a secret was found.

    Attributes:
        frame: ``module.function`` of the frame.
        local: the name of the local variable.
        path: where inside it (``.headers['api-key']``), or ``repr()``.
    """

    frame: str
    local: str
    path: str

    def __str__(self) -> str:
        return f"{self.frame}: local {self.local!r} at {self.path or '(itself)'}"


def _exceptions(exc: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    pending: list[BaseException | None] = [exc]
    while pending:
        current = pending.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        pending += [current.__cause__, current.__context__]


def _frames(exc: BaseException) -> Iterator[types.FrameType]:
    for current in _exceptions(exc):
        tb = current.__traceback__
        while tb is not None:
            yield tb.tb_frame
            tb = tb.tb_next


def _children(value: Any, objects: bool) -> Iterator[tuple[str, Any]]:
    """The parts of a value a serializer would descend into."""
    if isinstance(value, Mapping) and not isinstance(value, httpx.Headers):
        for key, item in list(value.items()):
            yield f"[key {key!r}]", key
            yield f"[{key!r}]", item
    elif isinstance(value, list | tuple | set | frozenset):
        for index, item in enumerate(value):
            yield f"[{index}]", item
    elif not objects:
        return
    elif isinstance(value, httpx.Headers):
        for name, header in value.raw:
            yield f"[{name!r}]", header
    elif isinstance(value, httpx.Request):
        yield ".url", str(value.url)
        yield ".headers", value.headers
        with contextlib.suppress(httpx.RequestNotRead):
            yield ".content", value.content
    elif isinstance(value, httpx.Response):
        yield ".headers", value.headers
        yield ".request", getattr(value, "_request", None)
    elif not isinstance(value, _OPAQUE):
        attributes: dict[str, Any] = {}
        if hasattr(value, "__dict__"):
            attributes.update(vars(value))
        for cls in type(value).__mro__:
            for slot in getattr(cls, "__slots__", ()):
                if isinstance(slot, str) and hasattr(value, slot):
                    attributes.setdefault(slot, getattr(value, slot))
        for name, item in attributes.items():
            yield f".{name}", item


def _contains(value: Any, secrets: list[str]) -> bool:
    if isinstance(value, str):
        return any(secret in value for secret in secrets)
    if isinstance(value, bytes | bytearray | memoryview):
        data = bytes(value)
        return any(secret.encode("utf-8", "surrogatepass") in data for secret in secrets)
    return False


def _search(value: Any, secrets: list[str], depth: int, objects: bool) -> Iterator[str]:
    seen: set[int] = set()
    stack: list[tuple[str, Any, int]] = [("", value, 0)]
    while stack:
        path, item, level = stack.pop()
        if isinstance(item, _MASKED) or id(item) in seen:
            continue
        seen.add(id(item))
        if _contains(item, secrets):
            yield path
            continue
        if level < depth and not isinstance(item, str | bytes | bytearray | memoryview):
            children = _children(item, objects)
            stack.extend((path + step, child, level + 1) for step, child in children)


def find_secrets_in_frames(
    exc: BaseException,
    secrets: Iterable[str],
    *,
    modules: tuple[str, ...] | None = ("xswap_sdk",),
    depth: int = 6,
    objects: bool = True,
) -> list[Finding]:
    """Every place a secret sits in a local of a frame of ``exc``'s traceback.

    Args:
        exc: the raised error (its ``__cause__`` and ``__context__`` are searched too).
        secrets: the values that must not appear.
        modules: search frames of modules under these names only (``None``: every
            frame, including the test's own, which usually holds the secret).
        depth: how many levels into containers and attributes to look.
        objects: also open other objects: their attributes, `httpx.Request` and
            `httpx.Headers`. Stricter than Sentry, which walks dicts and sequences but
            shows other objects by ``repr``; ``False`` checks what Sentry would send.

    Returns:
        The findings, empty when no secret was found.
    """
    planted = [secret for secret in secrets if secret]
    findings: list[Finding] = []
    for frame in _frames(exc):
        module = str(frame.f_globals.get("__name__", "?"))
        if modules is not None and not module.startswith(modules):
            continue
        where = f"{module}.{frame.f_code.co_name}"
        for name, value in frame.f_locals.items():
            paths = _search(value, planted, depth, objects)
            findings.extend(Finding(where, name, path) for path in paths)
            try:
                shown = repr(value)
            except Exception:  # a broken __repr__ hides nothing from us
                continue
            if _contains(shown, planted):
                findings.append(Finding(where, name, "repr()"))
    return findings


def assert_no_secret_in_frames(
    exc: BaseException,
    secrets: Iterable[str],
    *,
    modules: tuple[str, ...] | None = ("xswap_sdk",),
    depth: int = 6,
    objects: bool = True,
) -> None:
    """Fail, listing where, when a secret sits in a frame local of ``exc``'s traceback.

    Also checks the error's own ``str`` and ``repr``. See `find_secrets_in_frames` for
    the arguments.
    """
    planted = [secret for secret in secrets if secret]
    found = find_secrets_in_frames(exc, planted, modules=modules, depth=depth, objects=objects)
    findings = [str(finding) for finding in found]
    for current in _exceptions(exc):
        for shown in (str(current), repr(current)):
            if _contains(shown, planted):
                findings.append(f"the message of {type(current).__name__}")
    assert not findings, "secret found in:\n  " + "\n  ".join(findings)
