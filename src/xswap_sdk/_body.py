"""Reading a response body so that it can only end in the SDK's own errors.

A service, or anything between it and us, can send any bytes. What arrives is read in
three steps, each of which either succeeds or raises an `xswap_sdk.errors` exception:

1. `BoundedBody` collects the chunks while the body streams in and stops at
   `DEFAULT_MAX_RESPONSE_BYTES` (`ResponseTooLargeError`), so a 300 MB answer costs
   at most the cap, not 600 MB.
2. `decode_body` turns the bytes into parsed JSON, text, or ``None``. JSON nested deeper
   than `DEFAULT_MAX_NESTING` is refused (`ResponseTooDeepError`) by a scan that does
   not recurse, *before* `json.loads`, pydantic or a copy see it: parsing 200 KB of
   ``[`` exhausts the stack, and once ``eth_account`` is imported (py_ecc raises the
   recursion limit to 100,000) it kills the process with SIGSEGV.
3. Text that is not JSON is decoded with the declared charset when that charset is a
   real text encoding that can decode it, and as UTF-8 with replacement characters
   otherwise, so ``charset=utf-16`` without a BOM, ``rot13`` or ``base64`` never raise.

`decode_error_body` is the lenient variant for 4xx/5xx answers, whose body only feeds an
error message: a too-deep body comes back as its text instead of raising, so the status
still decides the error (and whether a read is retried).

`copy_json` copies parsed JSON without recursion, for models that keep the wire form.

JSON may spell a lone UTF-16 surrogate (``"\\ud800"``) and `json.loads` returns it as is,
but it is not text: encoding it as UTF-8 raises an untyped `UnicodeEncodeError`, which
would surface wherever the value is first encoded (a log line, a request, a signature).
`decode_body` refuses such an answer once, here, with `ResponseValidationError`.

Pure functions and one small accumulator; no I/O.
"""

from __future__ import annotations

import codecs
import io
import json
import re
from collections.abc import Mapping
from itertools import accumulate
from typing import Any, Final

from .errors import ResponseTooDeepError, ResponseTooLargeError, ResponseValidationError

__all__ = [
    "DEFAULT_MAX_NESTING",
    "DEFAULT_MAX_RESPONSE_BYTES",
    "BoundedBody",
    "copy_json",
    "decode_body",
    "decode_error_body",
    "decode_text",
    "json_nesting_depth",
    "json_nesting_ok",
    "lone_surrogate_in",
    "response_charset",
    "value_nesting_depth",
]

DEFAULT_MAX_RESPONSE_BYTES: Final = 8 * 1024 * 1024
"""The largest response body read by default: 8 MiB.

The largest legitimate answers of the three services (a page of history, a list of
quotes with calldata and EIP-712 payloads) are tens of kilobytes; 8 MiB leaves a wide
margin and bounds memory per call. The cap counts decoded bytes (after gzip or brotli),
so a compressed bomb stops at the cap too, give or take one chunk: httpx inflates each
chunk it receives whole (a 64 KB gzip chunk can inflate to tens of MB) before
`BoundedBody` sees it; sending ``Accept-Encoding: identity`` removes even that.
"""

DEFAULT_MAX_NESTING: Final = 64
"""The deepest JSON nesting accepted (arrays and objects, counted together).

The deepest legitimate answer is a routing quote: envelope, list of routes, route,
path step, provider, then an EIP-712 payload's ``types``/``message`` a few levels down,
about 8 levels. 64 leaves a wide margin and stays far from Python's recursion limit.
"""

_NOT_STRUCTURAL: Final = bytes(sorted(set(range(256)) - set(b'"[]{}')))
_AS_PARENS: Final = bytes.maketrans(b"[{]}", b"(())")
_STEP: Final = {ord("("): 1, ord(")"): -1}
_CHUNK: Final = 1 << 16
# A \\u escape of a UTF-16 surrogate (D800-DFFF): the only way, besides raw surrogate
# code points, that json.loads can return one. Pairs are joined by the parser; a hit
# (an escaped emoji, say) only means the parsed value is walked.
_SURROGATE_ESCAPE: Final = re.compile(r"\\u[dD][89a-fA-F]")
_REDUCTION_PASSES: Final = 8

# Codecs that are text encodings to Python but are not charsets a server could mean,
# or decode adversarial input in quadratic time (punycode takes seconds on 200 KB).
_REFUSED_CODECS: Final = frozenset(
    {
        "idna",
        "punycode",
        "raw-unicode-escape",
        "raw_unicode_escape",
        "undefined",
        "unicode-escape",
        "unicode_escape",
        "utf-7",
    }
)


def _structure(text: str) -> bytes:
    """The quotes and brackets of a JSON document, escapes removed.

    Every step is a C-level pass: escaped backslashes, then escaped quotes, are removed
    (left to right, as a JSON lexer pairs them), so every remaining quote opens or closes
    a string; then all bytes but quotes and brackets are dropped (UTF-8 multi-byte
    sequences hold no ASCII byte).
    """
    if "\\" in text:
        text = text.replace("\\\\", "").replace('\\"', "")
    return text.encode("utf-8", "surrogatepass").translate(None, _NOT_STRUCTURAL)


def _brackets(structure: bytes) -> bytes:
    """The brackets outside strings, as ``(`` and ``)``, from `_structure`'s output.

    A bracket is inside a string when an odd number of quotes precede it. Removing two
    adjacent quotes changes no bracket's parity, and removes most strings (those with
    no bracket in them) without splitting; what is left is split at the quotes and the
    odd pieces, the strings' contents, dropped.
    """
    if b'"' in structure:
        structure = structure.replace(b'""', b"")
        if b'"' in structure:
            structure = b"".join(structure.split(b'"')[::2])
    return structure.translate(_AS_PARENS)


def _max_depth(parens: bytes, stop_above: int | None = None) -> int:
    """The highest running depth of a ``(``/``)`` string, in chunks, stopping early
    once it passes ``stop_above``."""
    depth = deepest = 0
    for start in range(0, len(parens), _CHUNK):
        running = list(accumulate(map(_STEP.__getitem__, parens[start : start + _CHUNK])))
        deepest = max(deepest, depth + max(running))
        depth += running[-1]
        if stop_above is not None and deepest > stop_above:
            break
    return deepest


def _as_text(content: str | bytes) -> str | None:
    """A document as `json.loads` would read it; ``None`` when it cannot be decoded."""
    if isinstance(content, str):
        return content
    try:
        return content.decode(json.detect_encoding(content), "surrogatepass")
    except UnicodeDecodeError:
        return None


def json_nesting_depth(text: str | bytes) -> int:
    """The deepest nesting of arrays and objects in a JSON document, without recursion.

    Brackets inside JSON strings (escapes honoured) are not counted. For a document that
    is not valid JSON, the count up to the first error is exact, which is all a parser
    would reach before failing; beyond it the count may be off.

    Bytes are read the way `json.loads` reads them (UTF-8, -16 or -32, detected); bytes
    that do not decode count as 0, since no JSON parser would get past them.

    Args:
        text: the document.

    Returns:
        The depth: 0 for a scalar, 1 for ``[]`` or ``{}``, 2 for ``[[]]``...
    """
    decoded = _as_text(text)
    if decoded is None:
        return 0
    return _max_depth(_brackets(_structure(decoded)))


def json_nesting_ok(text: str | bytes, limit: int = DEFAULT_MAX_NESTING) -> bool:
    """Whether a JSON document nests no deeper than ``limit``, checked without recursion.

    Every step but the last is a C-level pass. The quotes and brackets are picked out
    (a document with no more opening brackets than ``limit`` cannot be deeper); strings
    are dropped; then adjacent ``()`` pairs are removed, a few passes: each pass takes
    one level off every nest, so a well-formed shallow document vanishes. What is left
    is measured, stopping as soon as it is too deep; removed levels are added back, and
    only a borderline case is measured again in full.

    Args:
        text: the document, as text or as the bytes received.
        limit: the deepest nesting allowed.

    Returns:
        ``True`` when the document can be given to `json.loads` safely.
    """
    decoded = _as_text(text)
    if decoded is None:
        return True  # no JSON parser gets past the first byte it cannot decode
    structure = _structure(decoded)
    if structure.count(b"[") + structure.count(b"{") <= limit:
        return True  # not enough brackets to nest deeper, even all in a row
    parens = reduced = _brackets(structure)
    passes = 0
    while passes < _REDUCTION_PASSES and reduced:
        shorter = reduced.replace(b"()", b"")
        if shorter == reduced:
            break
        reduced, passes = shorter, passes + 1
    if not reduced:
        return passes <= limit
    # Removing a pair never changes the depth of what remains, and each pass removes
    # one level at most, so the true depth lies in [left, left + passes].
    left = _max_depth(reduced, stop_above=limit)
    if left > limit:
        return False
    if left + passes <= limit:
        return True
    return _max_depth(parens, stop_above=limit) <= limit


def response_charset(content_type: str | None) -> str | None:
    """The ``charset`` parameter of a ``Content-Type`` header, as sent (unchecked).

    Args:
        content_type: the header value, e.g. ``"text/html; charset=UTF-16"``.

    Returns:
        The charset name without quotes or surrounding spaces, or ``None``.
    """
    if not content_type:
        return None
    for parameter in content_type.split(";")[1:]:
        name, _, value = parameter.partition("=")
        if name.strip().lower() == "charset":
            value = value.strip().strip("\"'").strip()
            return value or None
    return None


def _text_codec(charset: str | None) -> str | None:
    """The codec name for a declared charset, or ``None`` when it is unusable."""
    if charset is None:
        return None
    try:
        info = codecs.lookup(charset)
    except Exception:  # LookupError, or a name the registry cannot even look up
        return None
    # rot13, base64, hex, zlib... are bytes/str transforms, not charsets.
    if not getattr(info, "_is_text_encoding", True) or info.name in _REFUSED_CODECS:
        return None
    return info.name


def decode_text(content: bytes, content_type: str | None = None) -> str:
    """Decode a body that is not JSON as text; never raises.

    The declared charset is used when it names a real text encoding that decodes the
    whole body; otherwise (no charset, an unknown one, a transform such as ``rot13`` or
    ``base64``, or bytes the charset cannot decode, such as ``utf-16`` without a BOM and
    of odd length) the body is read as UTF-8 with U+FFFD for undecodable bytes.

    Args:
        content: the body.
        content_type: the ``Content-Type`` header, or ``None``.

    Returns:
        The text.
    """
    codec = _text_codec(response_charset(content_type))
    if codec is not None:
        try:
            return content.decode(codec)
        except Exception:  # UnicodeError, or a third-party codec misbehaving
            pass
    return content.decode("utf-8", errors="replace")


def decode_body(
    content: bytes,
    content_type: str | None = None,
    *,
    max_nesting: int = DEFAULT_MAX_NESTING,
    status_code: int | None = None,
    method: str | None = None,
    path: str | None = None,
    outcome_unknown: bool = False,
) -> Any:
    """Parse a response body: JSON when it is JSON, otherwise text, ``None`` when empty.

    JSON is recognised by content, whatever the ``Content-Type`` says, and read the way
    `json.loads` reads bytes (UTF-8, -16 or -32). Its nesting is checked first, without
    recursion. Anything that is not JSON is decoded by `decode_text`.

    Args:
        content: the body, as received (and capped by `BoundedBody`).
        content_type: the ``Content-Type`` header, for the charset of a text body.
        max_nesting: the deepest JSON nesting accepted.
        status_code: the HTTP status, for the error message.
        method: the request's method, for the error.
        path: the request's path (template), for the error.
        outcome_unknown: set on the error; pass ``True`` for a request that moved money
            or state.

    Returns:
        The parsed JSON value, a string, or ``None`` for an empty body.

    Raises:
        ResponseTooDeepError: the body is JSON-like and nests deeper than
            ``max_nesting``; it was not parsed.
        ResponseValidationError: the JSON holds a lone UTF-16 surrogate, a string no
            text encoding can write (see `lone_surrogate_in`); nothing of it is kept.
    """
    if not content:
        return None
    try:
        text = content.decode(json.detect_encoding(content), "surrogatepass")
    except UnicodeDecodeError:
        return decode_text(content, content_type)
    if not json_nesting_ok(text, max_nesting):
        raise ResponseTooDeepError(
            limit=max_nesting,
            status_code=status_code,
            method=method,
            path=path,
            outcome_unknown=outcome_unknown,
        )
    try:
        parsed = json.loads(text)
    except ValueError:  # not JSON, a lone BOM, a number past int's digit limit...
        return decode_text(content, content_type)
    if lone_surrogate_in(text, parsed):
        raise ResponseValidationError(
            f"the {'' if status_code is None else f'HTTP {status_code} '}answer holds a lone "
            "UTF-16 surrogate (such as \\ud800): valid JSON, but not text; nothing of it "
            "was used",
            method=method,
            path=path,
            outcome_unknown=outcome_unknown,
        )
    return parsed


def decode_error_body(
    content: bytes, content_type: str | None = None, *, max_nesting: int = DEFAULT_MAX_NESTING
) -> Any:
    """Parse the body of an error answer (4xx/5xx); never raises.

    As `decode_body`, except that a body nested too deep comes back as its text: an
    error body only feeds the message, and the status, not the body, decides which
    error is raised and whether the request is retried.

    Args:
        content: the body.
        content_type: the ``Content-Type`` header.
        max_nesting: the deepest JSON nesting parsed.

    Returns:
        The parsed JSON value, a string, or ``None`` for an empty body.
    """
    try:
        return decode_body(content, content_type, max_nesting=max_nesting)
    except ResponseValidationError:  # too deep, or a lone surrogate: the text, escaped
        return decode_text(content, content_type).encode("utf-8", "replace").decode()


def lone_surrogate_in(text: str, parsed: Any) -> bool:
    """Whether parsed JSON holds a lone UTF-16 surrogate in a string or a key.

    Only a document whose text has a raw surrogate code point, or a ``\\u`` escape of
    one, can; the parsed value is walked (without recursion) only then.

    Args:
        text: the document `json.loads` read.
        parsed: what it returned.

    Returns:
        ``True`` when a string of ``parsed`` cannot be encoded as UTF-8.
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        pass  # a raw surrogate code point: walk
    else:
        if _SURROGATE_ESCAPE.search(text) is None:
            return False
    stack: list[Any] = [parsed]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def copy_json(value: Any) -> Any:
    """A deep copy of parsed JSON (dicts, lists, tuples and scalars), without recursion.

    `copy.deepcopy` recurses, so a deeply nested value exhausts the stack; this walks an
    explicit stack instead. Dicts and lists (and tuples, as lists) are copied; anything
    else is shared, as `copy.deepcopy` shares immutable scalars. A mapping or sequence
    of another type is treated as a scalar.

    Args:
        value: the value to copy.

    Returns:
        The copy.
    """
    if not isinstance(value, dict | list | tuple):
        return value
    root: list[Any] = [None]
    # Each entry: a source container, and where its copy goes (a container and a key).
    stack: list[tuple[Any, Any, Any]] = [(value, root, 0)]
    while stack:
        source, parent, key = stack.pop()
        if isinstance(source, dict):
            copied_dict: dict[Any, Any] = {}
            parent[key] = copied_dict
            for name, item in source.items():
                if isinstance(item, dict | list | tuple):
                    copied_dict[name] = None  # keeps the key order; filled when popped
                    stack.append((item, copied_dict, name))
                else:
                    copied_dict[name] = item
        else:
            copied_list: list[Any] = list(source)
            parent[key] = copied_list
            for index, item in enumerate(copied_list):
                if isinstance(item, dict | list | tuple):
                    stack.append((item, copied_list, index))
    return root[0]


def value_nesting_depth(value: Any, stop_above: int | None = None) -> int:
    """The nesting depth of a Python value made of mappings, lists and tuples, without
    recursion: 0 for a scalar, 1 for ``[]``, 2 for ``[[1]]``...

    For data that did not come through `decode_body` (a route or EIP-712 payload the
    caller saved), before it reaches pydantic, `repr` or a signer, all of which recurse:
    with ``eth_account`` imported, ``repr`` of a list 200,000 deep crashes the process.

    Args:
        value: the value.
        stop_above: stop walking once the depth is known to pass this, and return it.

    Returns:
        The depth (or a number above ``stop_above`` once that is passed).
    """
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, Mapping):
            children: Any = item.values()
        elif isinstance(item, list | tuple):
            children = item
        else:
            continue
        deepest = max(deepest, level)
        if stop_above is not None and deepest > stop_above:
            return deepest
        stack.extend((child, level + 1) for child in children)
    return deepest


class BoundedBody:
    """Collects a response body chunk by chunk and stops at a size cap.

    Use it while streaming, so an oversized body is never held in memory::

        body = BoundedBody(options.max_response_bytes, status_code=response.status_code)
        body.check_declared_length(response.headers)
        for chunk in response.iter_bytes():
            body.append(chunk)
        content = body.getvalue()

    Attributes:
        limit: the cap, in bytes.
        size: how many bytes were accepted so far.
    """

    __slots__ = ("_buffer", "_error_context", "limit", "size")

    def __init__(
        self,
        limit: int = DEFAULT_MAX_RESPONSE_BYTES,
        *,
        status_code: int | None = None,
        method: str | None = None,
        path: str | None = None,
        outcome_unknown: bool = False,
    ) -> None:
        """Start an empty body.

        Args:
            limit: the cap, in bytes (at least 1).
            status_code: the answer's HTTP status, for the error.
            method: the request's method, for the error.
            path: the request's path (template), for the error.
            outcome_unknown: set on the error; ``True`` for a request that moved money
                or state.
        """
        self.limit = limit
        self.size = 0
        self._buffer = io.BytesIO()
        self._error_context: dict[str, Any] = {
            "limit": limit,
            "status_code": status_code,
            "method": method,
            "path": path,
            "outcome_unknown": outcome_unknown,
        }

    def _too_large(self) -> ResponseTooLargeError:
        return ResponseTooLargeError(**self._error_context)

    def check_declared_length(self, headers: Any) -> None:
        """Refuse at once a body whose ``Content-Length`` is past the cap.

        Only applies when the body is not compressed: ``Content-Length`` then counts
        the bytes that would be kept. An unreadable header is ignored; `append` still
        enforces the cap.

        Args:
            headers: the response headers (any mapping with ``get``).

        Raises:
            ResponseTooLargeError: the declared length is past the cap.
        """
        encoding = (headers.get("content-encoding") or "identity").strip().lower()
        declared = (headers.get("content-length") or "").strip()
        if encoding == "identity" and declared.isdigit() and int(declared) > self.limit:
            raise self._too_large()

    def append(self, chunk: bytes) -> None:
        """Add the next chunk of the body.

        Args:
            chunk: bytes as they arrived (decoded, when the body was compressed).

        Raises:
            ResponseTooLargeError: the body is now past the cap; what was collected is
                dropped.
        """
        self.size += len(chunk)
        if self.size > self.limit:
            self._buffer = io.BytesIO()
            raise self._too_large()
        self._buffer.write(chunk)

    def getvalue(self) -> bytes:
        """The body collected so far.

        Returns:
            The bytes.
        """
        return self._buffer.getvalue()

    def __repr__(self) -> str:
        return f"BoundedBody(size={self.size}, limit={self.limit})"
