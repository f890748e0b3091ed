"""Every fenced Python block in ``docs/`` and ``README.md`` runs as written, against the
sandbox.

How a page's blocks run:

- in order, as ONE script per page (one namespace), exactly as a reader pastes them:
  nothing is rewritten, no client is redirected. A page reaches the sandbox the way a
  reader does, through ``Sandbox()`` and its clients (``sb.relayer_client()``), and
  says in a comment what the live call would be;
- on virtual time (nothing waits for real), with top-level ``await`` allowed (as in
  Jupyter), on one event loop per page;
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
import inspect
import os
import re
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


def run_block(block: Block, namespace: dict[str, Any], loop: asyncio.AbstractEventLoop) -> None:
    page = block.page.relative_to(ROOT) if block.page.is_relative_to(ROOT) else block.page
    where = f"{page}:{block.line}"
    code = compile(block.code, where, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    before = set(namespace)
    result = eval(code, namespace)
    if inspect.iscoroutine(result):
        loop.run_until_complete(result)
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
    try:
        with as_a_reader() as sandboxes:
            namespace: dict[str, Any] = {"__name__": f"docs_{page.stem.replace('-', '_')}"}
            try:
                for block in blocks:
                    if block.skip_reason is None:
                        run_block(block, namespace, loop)
            finally:
                for sandbox in sandboxes:  # the page's own, closed or not
                    loop.run_until_complete(sandbox.aclose())
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
