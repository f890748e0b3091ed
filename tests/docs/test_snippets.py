"""Every fenced Python block in ``docs/`` and ``README.md`` runs as written, against the
sandbox.

How a page's blocks run:

- in order, as ONE script per page (one namespace), exactly as a reader pastes them:
  nothing is rewritten, no client is redirected. A page reaches the sandbox the way a
  reader does, through ``Sandbox()`` and its clients (``sb.relayer_client()``), and
  says in a comment what the live call would be;
- on virtual time (nothing waits for real), as a script: a block with a top-level
  ``await``, ``async for`` or ``async with`` fails (pasted into a file it would not run);
  async examples define a coroutine function and run it with ``asyncio.run(...)``,
  saying in a comment that a notebook awaits it instead (``docs/getting-started.md``
  says so once for every page);
- every quoted error runs: a ``print`` of a caught exception (or of its attributes) in
  an ``except ... as name`` block, with a ``# comment`` on its line, must print what the
  comment says (``...`` stands for any text), so the docs quote the SDK's messages as
  it says them now;
- with no ``XSWAP_*`` variable of the developer's environment (a real key must not make
  a block pass), and with every connection to a host other than this machine refused:
  a block that reaches for a live service fails here, and says how to mark it;
- a block that defines ``test_*`` functions (the testing guide) has them called, with
  the ``xswap_*`` fixtures of the pytest plugin resolved by name.

A block that needs a live service (a key, a chain's JSON-RPC endpoint, a proxy) is
marked, on the line right before its fence, with an HTML comment giving the reason
(invisible in the rendered page)::

    <!-- live: talks to the live relayer, which needs your API key -->
    ```python
    ...
    ```

A marker without a reason is an error, and so is a marker that is not followed by a
Python block. Only ``python`` fences run; ``console``, ``text`` and ``bash`` blocks do not
(``docs/sandbox-http.md``'s bash blocks have their own test).
"""

from __future__ import annotations

import ast
import asyncio
import builtins
import inspect
import io
import os
import re
import sys
import tokenize
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from xswap_sdk.sandbox import Sandbox
from xswap_sdk.testing import TEST_SIGNER

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(
    r"(?:^<!-- live:(?P<reason>[^\n]*?)-->\n)?^```(?P<lang>[\w-]*)[^\n]*\n(?P<code>.*?)^```",
    re.MULTILINE | re.DOTALL,
)
MARKER = re.compile(r"^<!-- live:(.*?)-->$", re.MULTILINE)
LOOPBACK = {"localhost", "127.0.0.1", "::1", "[::1]"}


@dataclass(frozen=True)
class Block:
    page: Path
    line: int
    code: str
    skip_reason: str | None


def python_blocks(page: Path) -> list[Block]:
    text = page.read_text()
    blocks = []
    for match in FENCE.finditer(text):
        if match["lang"] != "python":
            assert match["reason"] is None, f"{page.name}: a live marker before a non-Python block"
            continue
        line = text.count("\n", 0, match.start("code")) + 1
        reason = match["reason"]
        if reason is not None:
            assert reason.strip(), f"{page.name}:{line}: a live marker needs a reason"
        blocks.append(Block(page, line, match["code"], None if reason is None else reason.strip()))
    markers = len(MARKER.findall(text))
    assert markers == sum(block.skip_reason is not None for block in blocks), (
        f"{page.name}: every live marker must sit right before a python fence"
    )
    return blocks


@contextmanager
def as_a_reader() -> Iterator[list[Sandbox]]:
    """Run blocks as a reader would, with no credential of ours and no live service:
    yields the sandboxes the page makes, to close them afterwards."""
    made: list[Sandbox] = []
    original_sandbox_init = Sandbox.__init__

    def record(self: Sandbox, *args: Any, **kwargs: Any) -> None:
        original_sandbox_init(self, *args, **kwargs)
        made.append(self)

    def refuse(host: str) -> None:
        if host not in LOOPBACK:
            raise AssertionError(
                f"a block reached for {host}: use the sandbox, or mark the block as "
                "needing a live service (<!-- live: why --> before its fence)"
            )

    original_sync = httpx.HTTPTransport.handle_request
    original_async = httpx.AsyncHTTPTransport.handle_async_request

    def guarded_sync(self: httpx.HTTPTransport, request: httpx.Request) -> httpx.Response:
        refuse(request.url.host)
        return original_sync(self, request)

    async def guarded_async(
        self: httpx.AsyncHTTPTransport, request: httpx.Request
    ) -> httpx.Response:
        refuse(request.url.host)
        return await original_async(self, request)

    with pytest.MonkeyPatch.context() as patch:
        for name in [name for name in os.environ if name.startswith("XSWAP_")]:
            patch.delenv(name)
        patch.setattr(Sandbox, "__init__", record)
        patch.setattr(httpx.HTTPTransport, "handle_request", guarded_sync)
        patch.setattr(httpx.AsyncHTTPTransport, "handle_async_request", guarded_async)
        yield made


def fixtures(sandbox: Sandbox) -> dict[str, Callable[[], Any]]:
    """The pytest plugin's fixtures, for the testing guide's examples."""
    return {
        "xswap_sandbox": lambda: sandbox,
        "xswap_clock": lambda: sandbox.clock,
        "xswap_signer": lambda: TEST_SIGNER,
        "xswap_flash": lambda: sandbox.flash_client(signer=TEST_SIGNER),
        "xswap_async_flash": lambda: sandbox.async_flash_client(signer=TEST_SIGNER),
        "xswap_routing": lambda: sandbox.routing_client(),
        "xswap_async_routing": lambda: sandbox.async_routing_client(),
        "xswap_relayer": lambda: sandbox.relayer_client(),
        "xswap_async_relayer": lambda: sandbox.async_relayer_client(),
    }


def where(block: Block) -> str:
    page = block.page.relative_to(ROOT) if block.page.is_relative_to(ROOT) else block.page
    return f"{page}:{block.line}"


Printed = dict[tuple[str, int], list[str]]
"""What ``print`` wrote, by (block, line in the block)."""


def recording_print(printed: Printed) -> Callable[..., None]:
    """A ``print`` for the page's namespace: prints, and notes what each line of a
    block printed, for the quoted-error check."""

    def print_(*values: Any, sep: str | None = " ", end: str | None = "\n", **kw: Any) -> None:
        builtins.print(*values, sep=sep, end=end, **kw)
        caller = sys._getframe(1)
        text = (" " if sep is None else sep).join(map(str, values))
        printed.setdefault((caller.f_code.co_filename, caller.f_lineno), []).append(text)

    return print_


def run_block(block: Block, namespace: dict[str, Any], loop: asyncio.AbstractEventLoop) -> None:
    try:
        code = compile(block.code, where(block), "exec")
    except SyntaxError as error:
        if "outside" in str(error) and ("async" in str(error) or "await" in str(error)):
            raise AssertionError(
                f"{where(block)}: {error.msg} (line {error.lineno}): pasted into a script "
                "this does not run; put it in an async def and run it with asyncio.run(...) "
                "(a notebook awaits it instead)"
            ) from None
        raise
    before = set(namespace)
    exec(code, namespace)
    for name in sorted(set(namespace) - before):
        function = namespace[name]
        if name.startswith("test_") and inspect.isfunction(function):
            with Sandbox() as sandbox:
                available = fixtures(sandbox)
                arguments = {
                    parameter: available[parameter]()
                    for parameter in inspect.signature(function).parameters
                }
                outcome = function(**arguments)
                if inspect.iscoroutine(outcome):
                    loop.run_until_complete(outcome)
                loop.run_until_complete(sandbox.aclose())


@pytest.mark.parametrize("page", PAGES, ids=[page.name for page in PAGES])
def test_every_python_block_of_the_page_runs(
    page: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocks = python_blocks(page)
    if not blocks:
        pytest.skip(f"{page.name} has no Python block")
    loop = asyncio.new_event_loop()
    printed: Printed = {}
    try:
        with as_a_reader() as sandboxes:
            namespace: dict[str, Any] = {
                "__name__": f"docs_{page.stem.replace('-', '_')}",
                "print": recording_print(printed),
            }
            try:
                for block in blocks:
                    if block.skip_reason is None:
                        run_block(block, namespace, loop)
            finally:
                for sandbox in sandboxes:  # the page's own, closed or not
                    loop.run_until_complete(sandbox.aclose())
    finally:
        loop.close()
    wrong = [
        f"{block.page.name}:{block.line + line - 1}: quotes {quoted!r}, prints "
        f"{printed.get((where(block), line))}"
        for block in blocks
        if block.skip_reason is None
        for line, quoted in quoted_errors(block.code).items()
        if not any(says(quoted, text) for text in printed.get((where(block), line), []))
    ]
    assert not wrong, "quoted errors that are not what the SDK says:\n" + "\n".join(wrong)


def quoted_errors(code: str) -> dict[int, str]:
    """The comments of the lines that print a caught exception or its attributes
    (``print(exc)``, ``print(exc.rule)`` in ``except ... as exc``), by line number."""
    comments = {
        token.start[0]: token.string.lstrip("#").strip()
        for token in tokenize.generate_tokens(io.StringIO(code).readline)
        if token.type == tokenize.COMMENT
    }
    lines: dict[int, str] = {}
    for handler in ast.walk(ast.parse(code)):
        if not isinstance(handler, ast.ExceptHandler) or handler.name is None:
            continue
        for node in ast.walk(ast.Module(body=handler.body, type_ignores=[])):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "print"
                and any(
                    isinstance(name, ast.Name) and name.id == handler.name
                    for argument in node.args
                    for name in ast.walk(argument)
                )
                and node.lineno in comments
            ):
                lines[node.lineno] = comments[node.lineno]
    return lines


def says(quoted: str, printed: str) -> bool:
    """Whether ``printed`` is what ``quoted`` says, ``...`` standing for any text."""
    pattern = ".*?".join(re.escape(part.strip()) for part in quoted.split("..."))
    return re.fullmatch(pattern, printed.strip(), re.DOTALL) is not None


def test_a_quoted_error_must_be_what_is_printed() -> None:
    code = (
        "try:\n    int('x')\nexcept ValueError as exc:\n"
        "    print(exc)   # invalid literal for int() with base 10: ...\n"
        "    print(exc.args)   # a description, not a quote\n"
        "    print('hello')   # not about the error\n"
    )
    assert quoted_errors(code) == {
        4: "invalid literal for int() with base 10: ...",
        5: "a description, not a quote",
    }
    quoted = "invalid literal for int() with base 10: ..."
    assert says(quoted, "invalid literal for int() with base 10: 'x'")
    assert says("a ... c", "a b c")
    assert not says("a ... c", "a b d")
    assert not says("a description, not a quote", '("invalid literal",)')


def test_a_top_level_await_block_fails_and_says_how_to_wrap_it(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("```python\nimport asyncio\n\nawait asyncio.sleep(0)\n```\n")
    [block] = python_blocks(page)
    loop = asyncio.new_event_loop()
    try:
        with pytest.raises(AssertionError, match=r"asyncio\.run\(\.\.\.\)"):
            run_block(block, {}, loop)
    finally:
        loop.close()


def test_live_blocks_are_few_and_say_why() -> None:
    skipped = [block for page in PAGES for block in python_blocks(page) if block.skip_reason]
    total = sum(len(python_blocks(page)) for page in PAGES)
    assert all(len(block.skip_reason or "") >= 10 for block in skipped)
    assert len(skipped) <= total // 4, [f"{b.page.name}:{b.line}" for b in skipped]


@pytest.mark.parametrize(
    ("client", "stopped_by"),
    [
        # The developer's own key is not seen: the call stops before any request.
        ("RelayerClient()", "XSWAP_RELAYER_API_KEY"),
        # A page's own key gets as far as the transport, which refuses the live host.
        ('RelayerClient(api_key="page-key")', "<!-- live: why -->"),
    ],
)
def test_a_block_that_reaches_for_a_live_service_fails_and_says_why(
    client: str, stopped_by: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XSWAP_RELAYER_API_KEY", "a-real-key-of-the-developer")
    page = tmp_path / "page.md"
    page.write_text(
        f"```python\nfrom xswap_sdk import RelayerClient\n\n{client}.get_supported_chains()\n```\n"
    )
    [block] = python_blocks(page)
    loop = asyncio.new_event_loop()
    try:
        with as_a_reader(), pytest.raises(Exception) as caught:
            run_block(block, {}, loop)
    finally:
        loop.close()
    assert stopped_by in str(caught.value)


def test_the_transport_guard_refuses_a_live_host() -> None:
    with as_a_reader(), httpx.Client() as http, pytest.raises(AssertionError, match="live:"):
        http.get("https://tachyon.rath.fi/api/supported-chains")


FACTORIES = {
    f"{prefix}{service}_client"
    for prefix in ("", "async_")
    for service in ("flash", "routing", "relayer", "gateway")
}


def test_pages_give_the_sandbox_factories_keywords_only() -> None:
    # The factories take their client's keyword-only arguments: a positional signer
    # runs (the sandbox accepts it) but a strict type checker refuses the call and
    # loses the client's type (docs/policy.md runs under mypy --strict in .ci/run).
    positional = [
        f"{block.page.name}:{block.line + node.lineno - 1}"
        for page in PAGES
        for block in python_blocks(page)
        for node in ast.walk(ast.parse(block.code))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in FACTORIES
        and node.args
    ]
    assert positional == []
