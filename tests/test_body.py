"""Response bodies: nesting checked without recursion, any charset, a size cap, copies
without recursion. Whatever the bytes, decoding returns or raises the SDK's errors."""

from __future__ import annotations

import codecs
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xswap_sdk import errors
from xswap_sdk._body import (
    DEFAULT_MAX_NESTING,
    DEFAULT_MAX_RESPONSE_BYTES,
    BoundedBody,
    copy_json,
    decode_body,
    decode_error_body,
    decode_text,
    json_nesting_depth,
    json_nesting_ok,
    response_charset,
    value_nesting_depth,
)

SRC = str(Path(__file__).resolve().parents[1] / "src")


def depth_of(value: Any) -> int:
    """The nesting depth of a parsed JSON value (small values only: it recurses)."""
    if isinstance(value, dict):
        return 1 + max(map(depth_of, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(depth_of, value), default=0)
    return 0


def nested(depth: int, opener: str = "[", closer: str = "]") -> str:
    return opener * depth + closer * depth


# Strings full of the characters that could fool a scanner: brackets, quotes, escapes.
tricky_text = st.text(alphabet=st.sampled_from('[]{}"\\/ a\n\u00e9\u2028\ud7ff'), max_size=12)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | tricky_text,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(tricky_text, children, max_size=4)
    ),
    max_leaves=40,
)


# ---------------------------------------------------------------------------- nesting


@pytest.mark.parametrize(
    ("document", "depth"),
    [
        ("1", 0),
        ('"[[[["', 0),
        ("[]", 1),
        ("{}", 1),
        ('{"a": [1, {"b": []}]}', 4),
        (r'["\"[[[", "\\", [[]]]', 3),
        (r'["\\\"]]]]"]', 1),
        (nested(70), 70),
        (nested(5, "{", "}").replace("{}", '{"k":[]}'), 6),
    ],
)
def test_nesting_depth_counts_brackets_outside_strings(document: str, depth: int) -> None:
    assert json_nesting_depth(document) == depth
    assert json_nesting_depth(document.encode()) == depth


@given(json_values)
def test_nesting_depth_of_valid_json_is_exact(value: Any) -> None:
    for document in (json.dumps(value), json.dumps(value, ensure_ascii=False, indent=1)):
        assert json_nesting_depth(document) == depth_of(value)
        for limit in (0, 1, 2, 3, 5):
            assert json_nesting_ok(document, limit) == (depth_of(value) <= limit)


@given(st.integers(1, 12), st.integers(0, 9), st.integers(0, 30))
def test_nesting_ok_matches_the_depth_for_repeated_nests(
    depth: int, limit: int, copies: int
) -> None:
    # Many nests side by side push the check past its quick counts onto the reduction.
    document = "[" + ",".join([nested(depth)] * copies) + "]"
    assert json_nesting_ok(document, limit) == (json_nesting_depth(document) <= limit)
    assert json_nesting_ok(document.encode("utf-16"), limit) == json_nesting_ok(document, limit)


@given(st.text(alphabet=st.sampled_from('[]{}"\\,1 '), max_size=200), st.integers(0, 6))
def test_nesting_ok_agrees_with_the_exact_depth_on_any_text(text: str, limit: int) -> None:
    assert json_nesting_ok(text, limit) == (json_nesting_depth(text) <= limit)


def reachable_depth(text: str) -> int:
    """The deepest nesting a JSON parser can reach in ``text``: a character-by-character
    scan that honours strings and escapes and stops where any parser must (a backslash
    outside a string)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == "\\":
            break
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


@given(st.text(alphabet=st.sampled_from('[]{}"\\,1 x'), max_size=300))
def test_the_scan_never_counts_less_than_a_parser_can_reach(text: str) -> None:
    # Exact for valid JSON (above); for anything else it may count more, never less.
    assert json_nesting_depth(text) >= reachable_depth(text)
    for limit in (1, 2, 4):
        if json_nesting_ok(text, limit):
            assert reachable_depth(text) <= limit


def test_utf16_and_utf32_bodies_are_scanned_as_json_reads_them() -> None:
    # In UTF-16 the character U+5B5B is the bytes "[[": a byte scan would be fooled.
    document = json.dumps(["\u5b5b" * 100], ensure_ascii=False)
    for encoding in ("utf-16", "utf-16-le", "utf-32-be"):
        assert json_nesting_depth(document.encode(encoding)) == 1
        assert decode_body(document.encode(encoding)) == ["\u5b5b" * 100]
    deep = nested(100).encode("utf-16-le")
    assert not json_nesting_ok(deep)


@pytest.mark.parametrize(
    "script", ["quickstart.py", "relayer_basics.py", "routing_gasless.py", "flash_swap.py"]
)
def test_the_default_limit_passes_every_sandbox_answer(
    script: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The examples call every kind of endpoint of the three services; the sandbox
    # answers with their documented shapes. Each answer must be far inside the limit.
    import runpy

    from xswap_sdk.sandbox import Sandbox

    handle = Sandbox._handle
    depths: list[int] = []

    def measured(self: Sandbox, request: httpx.Request) -> httpx.Response:
        response = handle(self, request)
        depths.append(json_nesting_depth(response.read()))
        return response

    monkeypatch.setattr(Sandbox, "_handle", measured)
    runpy.run_path(
        str(Path(__file__).resolve().parents[1] / "examples" / script), run_name="__main__"
    )
    capsys.readouterr()
    assert len(depths) >= 5
    assert 2 <= max(depths) <= DEFAULT_MAX_NESTING // 4


# ---------------------------------------------------------------------------- decoding


def test_decode_body_reads_json_text_and_nothing() -> None:
    assert decode_body(b"") is None
    assert decode_body(b'{"a": [1]}') == {"a": [1]}
    assert decode_body(b"\xef\xbb\xbf[1]") == [1]
    assert decode_body(b"Bad Gateway", "text/plain") == "Bad Gateway"
    assert decode_body(b'{"a": 1', "application/json") == '{"a": 1'
    assert decode_body(b"1" * 5000) == "1" * 5000  # past int's digit limit: kept as text


def test_decode_body_refuses_deep_nesting_before_parsing() -> None:
    with pytest.raises(errors.ResponseTooDeepError) as info:
        decode_body(
            nested(200_000).encode(),
            "application/json",
            status_code=200,
            method="POST",
            path="/swap",
            outcome_unknown=True,
        )
    exc = info.value
    assert isinstance(exc, errors.ResponseValidationError)
    assert (exc.limit, exc.status_code, exc.outcome_unknown) == (DEFAULT_MAX_NESTING, 200, True)
    assert exc.body is None
    assert "POST /swap" in str(exc)
    assert "deeper than 64" in str(exc)
    assert "may have accepted it" in str(exc)
    assert decode_body(nested(64).encode()) == json.loads(nested(64))
    with pytest.raises(errors.ResponseTooDeepError):
        decode_body(nested(65).encode())
    with pytest.raises(errors.ResponseTooDeepError):
        decode_body(nested(11).encode(), max_nesting=10)


def test_decode_error_body_keeps_a_deep_body_as_text() -> None:
    deep = nested(1000).encode()
    assert decode_error_body(deep, "application/json") == deep.decode()
    assert decode_error_body(b'{"message": "busy"}') == {"message": "busy"}


@pytest.mark.parametrize(
    ("content", "content_type", "text"),
    [
        (b"<h1>Bad Gateway</h1>", "text/html; charset=utf-16", None),
        (b"<h1>Bad Gateway</h1>!", "text/html; charset=utf-16", None),  # odd length
        (b"Bad Gateway", "text/html; charset=rot13", "Bad Gateway"),
        (b"Bad Gateway", "text/html; charset=base64", "Bad Gateway"),
        (b"Bad Gateway", "text/html; charset=zlib", "Bad Gateway"),
        (b"Bad Gateway", "text/html; charset=no-such-charset", "Bad Gateway"),
        (b"Bad Gateway", "text/html; charset=punycode", "Bad Gateway"),
        (b"Bad Gateway", "text/html; charset=idna", "Bad Gateway"),
        (b"Bad Gateway", "text/html; charset=", "Bad Gateway"),
        (b"Bad Gateway", "text/html; charset=\x00", "Bad Gateway"),
        (b"caf\xe9", "text/plain; charset=ISO-8859-1", "caf\u00e9"),
        (b"caf\xe9", 'text/plain; charset="latin-1"', "caf\u00e9"),
        (b"caf\xe9", "text/plain", "caf\ufffd"),
        (b"\xff\xfe<\x00h\x00>\x00", "text/html; charset=utf-16", "<h>"),
        (b"\x81\x82", "text/plain; charset=utf-8", "\ufffd\ufffd"),
    ],
)
def test_text_bodies_decode_whatever_the_charset(
    content: bytes, content_type: str, text: str | None
) -> None:
    decoded = decode_body(content, content_type)
    assert isinstance(decoded, str)
    if text is not None:
        assert decoded == text
    assert decode_text(content, content_type) == decoded


def test_response_charset_reads_the_parameter() -> None:
    assert response_charset(None) is None
    assert response_charset("text/html") is None
    assert response_charset("text/html; Charset = 'UTF-8' ") == "UTF-8"
    assert response_charset('text/html; q=1; charset="utf-16"') == "utf-16"
    assert response_charset("text/html; charset=") is None


charsets = st.sampled_from(
    [
        "utf-8",
        "utf-16",
        "utf-32",
        "latin-1",
        "cp1252",
        "shift_jis",
        "gb18030",
        "rot13",
        "base64",
        "hex",
        "uu",
        "zlib",
        "bz2",
        "quopri",
        "punycode",
        "idna",
        "utf-7",
        "unicode_escape",
        "raw_unicode_escape",
        "undefined",
        "mbcs",
        "x-unknown",
        "",
        "utf-8\r\nX-Evil: 1",
        "\udcff",
    ]
) | st.text(max_size=12)
bodies = st.one_of(
    st.binary(max_size=300),
    json_values.map(lambda v: json.dumps(v).encode()),
    json_values.map(lambda v: json.dumps(v)[:-1].encode()),  # truncated
    st.tuples(json_values, st.sampled_from(["utf-16", "utf-16-be", "utf-32"])).map(
        lambda pair: json.dumps(pair[0], ensure_ascii=False).encode(pair[1])
    ),
    st.integers(0, 3000).map(lambda depth: nested(depth).encode()),
    st.integers(0, 3000).map(lambda depth: (nested(depth, "{", "}")).encode()),
    st.integers(0, 200).map(lambda depth: ('{"a":' * depth + "1" + "}" * depth).encode()),
    st.sampled_from([b'{"success": false}', b'{"code": 1001}', b"<html>502</html>", b"\xff"]),
)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(bodies, st.one_of(st.none(), charsets.map(lambda c: f"text/html; charset={c}")))
def test_decode_body_only_returns_or_raises_sdk_errors(body: bytes, content_type: Any) -> None:
    try:
        value = decode_body(body, content_type)
    except errors.ResponseTooDeepError:
        assert json_nesting_depth(body) > DEFAULT_MAX_NESTING
    else:
        assert value is None or isinstance(value, str | int | float | bool | list | dict)
        if isinstance(value, list | dict):
            assert depth_of(value) <= DEFAULT_MAX_NESTING
    assert isinstance(
        decode_error_body(body, content_type), str | int | float | bool | list | dict | None
    )
    assert isinstance(decode_text(body, content_type), str)


def test_the_deep_body_does_not_kill_a_process_that_imported_eth_account() -> None:
    # eth_account (through py_ecc) raises the recursion limit to 100,000; json.loads on
    # 200 KB of "[" then overflows the C stack and the process dies with SIGSEGV.
    code = """
        import json, sys
        import eth_account  # noqa: F401
        from xswap_sdk import errors
        from xswap_sdk._body import decode_body, decode_error_body, copy_json
        from xswap_sdk.routing.models import Route

        assert sys.getrecursionlimit() >= 10_000, sys.getrecursionlimit()
        deep = b"[" * 200_000 + b"]" * 200_000
        try:
            decode_body(deep, "application/json")
        except errors.ResponseTooDeepError:
            print("refused")
        assert len(decode_error_body(deep)) == len(deep)
        value = []
        for _ in range(200_000):
            value = [value]
        copy_json(value)
        try:
            Route.from_wire({"path": value})
        except ValueError as exc:  # pydantic's ValidationError
            assert "nests deeper than 64 levels" in str(exc)
        print("alive")
        if sys.argv[1:] == ["unguarded"]:
            json.loads(deep)
    """
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    run = [sys.executable, "-c", textwrap.dedent(code)]
    result = subprocess.run(run, capture_output=True, text=True, env=env, timeout=120, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split() == ["refused", "alive"]
    # The same process dies when the body reaches json.loads: the guard is what saves it.
    unguarded = subprocess.run(
        [*run, "unguarded"], capture_output=True, text=True, env=env, timeout=120, check=False
    )
    assert unguarded.returncode != 0
    assert unguarded.stdout.split() == ["refused", "alive"]


# ---------------------------------------------------------------------------- copies


@given(json_values)
def test_value_nesting_depth_matches_a_recursive_count(value: Any) -> None:
    assert value_nesting_depth(value) == depth_of(value)
    assert value_nesting_depth(value, stop_above=1) == min(depth_of(value), 2)


@given(json_values)
def test_copy_json_equals_and_shares_no_container(value: Any) -> None:
    copied = copy_json(value)
    assert copied == value
    assert json.dumps(copied) == json.dumps(value)  # key order kept
    originals = {id(item) for item in _containers(value)}
    assert not originals & {id(item) for item in _containers(copied)}


def _containers(value: Any) -> list[Any]:
    found, stack = [], [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict | list):
            found.append(item)
            stack.extend(item.values() if isinstance(item, dict) else item)
    return found


def test_copy_json_copies_tuples_as_lists_and_survives_depth() -> None:
    assert copy_json({"a": (1, [2])}) == {"a": [1, [2]]}
    value: list[Any] = []
    for _ in range(100_000):
        value = [value]
    copied = copy_json(value)
    assert value_nesting_depth(copied) == 100_001
    assert copied is not value
    assert copied[0] is not value[0]


# ---------------------------------------------------------------------------- size cap


def test_bounded_body_collects_up_to_the_cap() -> None:
    body = BoundedBody(10)
    body.append(b"12345")
    body.append(b"67890")
    assert body.getvalue() == b"1234567890"
    assert body.size == 10
    with pytest.raises(errors.ResponseTooLargeError) as info:
        body.append(b"x")
    assert info.value.limit == 10
    assert body.getvalue() == b""  # what was collected is dropped
    assert repr(body) == "BoundedBody(size=11, limit=10)"


def test_bounded_body_error_carries_the_context() -> None:
    body = BoundedBody(
        4, status_code=200, method="POST", path="/api/submit-tx", outcome_unknown=True
    )
    with pytest.raises(errors.ResponseTooLargeError) as info:
        body.append(b"12345")
    exc = info.value
    assert isinstance(exc, errors.ResponseValidationError)
    assert (exc.status_code, exc.method, exc.path, exc.outcome_unknown) == (
        200,
        "POST",
        "/api/submit-tx",
        True,
    )
    assert str(exc).startswith("POST /api/submit-tx: the HTTP 200 response body is larger")
    assert "may have accepted it" in str(exc)


def test_declared_length_is_refused_early_unless_compressed() -> None:
    body = BoundedBody(100)
    body.check_declared_length(httpx.Headers({"content-length": "100"}))
    with pytest.raises(errors.ResponseTooLargeError):
        body.check_declared_length(httpx.Headers({"content-length": "101"}))
    body.check_declared_length(httpx.Headers({"content-length": "101", "content-encoding": "gzip"}))
    body.check_declared_length(httpx.Headers({"content-length": "lots"}))
    body.check_declared_length({})


def test_the_default_cap_is_a_few_megabytes() -> None:
    assert 1 << 20 < DEFAULT_MAX_RESPONSE_BYTES <= 16 << 20


def collect(body: BoundedBody, chunks: Any) -> None:
    for chunk in chunks:
        body.append(chunk)


def test_a_streamed_gzip_bomb_stops_at_the_cap() -> None:
    import gzip

    bomb = gzip.compress(b"0" * (4 << 20))
    assert len(bomb) < 10_000

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=bomb, headers={"content-encoding": "gzip"})

    with (
        httpx.Client(transport=httpx.MockTransport(handler)) as client,
        client.stream("GET", "https://x.test/") as response,
    ):
        body = BoundedBody(1 << 20)
        body.check_declared_length(response.headers)
        with pytest.raises(errors.ResponseTooLargeError):
            collect(body, response.iter_bytes())
    # httpx inflates a whole received chunk at once, so the count passes the cap by up
    # to one inflated chunk before the error; nothing past the cap is kept.
    assert body.size > 1 << 20
    assert body.getvalue() == b""


def test_codecs_we_refuse_are_real_codecs() -> None:
    # The refusal list must name codecs as codecs.lookup spells them.
    from xswap_sdk._body import _REFUSED_CODECS

    for name in ("punycode", "idna", "utf-7", "unicode_escape", "raw_unicode_escape"):
        assert codecs.lookup(name).name in _REFUSED_CODECS


# ---------------------------------------------------------------------------- lone surrogates


@pytest.mark.parametrize(
    "content",
    [
        b'{"a": "\\ud800"}',
        b'{"a": ["x", {"b": "tail \\uDFFF"}]}',
        b'{"\\udc00": 1}',
        b'"\\ud83d"',  # a high surrogate without its pair
        '{"a": "\ud800"}'.encode("utf-8", "surrogatepass"),  # raw, not escaped
        '{"a": "\ud800"}'.encode("utf-16", "surrogatepass"),
    ],
)
def test_a_lone_surrogate_is_a_typed_error(content: bytes) -> None:
    with pytest.raises(errors.ResponseValidationError, match="surrogate") as info:
        decode_body(content, status_code=200, method="GET", path="/x", outcome_unknown=True)
    assert info.value.body is None
    assert info.value.outcome_unknown
    # An error body only feeds a message: it comes back as text that encodes.
    decode_error_body(content).encode("utf-8")


def test_paired_surrogates_and_look_alikes_are_text() -> None:
    assert decode_body(b'{"a": "\\ud83d\\ude00"}') == {"a": "\U0001f600"}
    assert decode_body(b'{"a": "\\\\ud800"}') == {"a": "\\ud800"}  # an escaped backslash
    assert decode_body(b'{"a": "\\u00e9"}') == {"a": "\u00e9"}


@given(
    value=json_values,
    surrogate=st.integers(min_value=0xD800, max_value=0xDFFF),
)
@settings(suppress_health_check=[HealthCheck.too_slow])
def test_any_answer_holding_a_lone_surrogate_is_refused(value: Any, surrogate: int) -> None:
    document = json.dumps({"ok": value, "bad": [f"x{chr(surrogate)}y"]})
    with pytest.raises(errors.ResponseValidationError):
        decode_body(document.encode())
    # And the same answer without it parses.
    assert decode_body(json.dumps({"ok": value}).encode()) == {"ok": value}
