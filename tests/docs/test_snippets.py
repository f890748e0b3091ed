"""Every fenced Python block in ``docs/`` and ``README.md`` runs, against the sandbox.

How a page's blocks run:

- in order, in one namespace per page, so a block may use what an earlier block of the
  same page defined;
- inside a fresh `Sandbox` on virtual time (nothing waits for real). A client built the
  way the live service needs it (``RelayerClient(api_key=...)``, ``FlashClient()``) is
  pointed at that sandbox: when the snippet does not pass ``http_client``, the test
  gives the client the sandbox's base URL, API key, transport and clock instead, so
  code written for the live service runs unchanged;
- with top-level ``await`` allowed (as in Jupyter), on one event loop per page;
- a block that defines ``test_*`` functions (the testing guide) has them called, with
  the ``xswap_*`` fixtures of the pytest plugin resolved by name.

A block that cannot run here is marked, on the line right before its fence, with an
HTML comment giving the reason (invisible in the rendered page)::

    <!-- not-run: needs a JSON-RPC endpoint of a live chain -->
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
import re
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import xswap_sdk
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.testing import TEST_SIGNER

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(
    r"(?:^<!-- not-run:(?P<reason>[^\n]*?)-->\n)?^```(?P<lang>[\w-]*)[^\n]*\n(?P<code>.*?)^```",
    re.MULTILINE | re.DOTALL,
)
MARKER = re.compile(r"^<!-- not-run:(.*?)-->$", re.MULTILINE)
SERVICES = {
    "FlashClient": "flash",
    "AsyncFlashClient": "flash",
    "RoutingClient": "routing",
    "AsyncRoutingClient": "routing",
    "RelayerClient": "relayer",
    "AsyncRelayerClient": "relayer",
    "GatewayClient": "gateway",
    "AsyncGatewayClient": "gateway",
}


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
            assert match["reason"] is None, (
                f"{page.name}: a not-run marker before a non-Python block"
            )
            continue
        line = text.count("\n", 0, match.start("code")) + 1
        reason = match["reason"]
        if reason is not None:
            assert reason.strip(), f"{page.name}:{line}: a not-run marker needs a reason"
        blocks.append(Block(page, line, match["code"], None if reason is None else reason.strip()))
    markers = len(MARKER.findall(text))
    assert markers == sum(block.skip_reason is not None for block in blocks), (
        f"{page.name}: every not-run marker must sit right before a python fence"
    )
    return blocks


@contextmanager
def clients_on(default: Sandbox) -> Iterator[list[Sandbox]]:
    """Point every client built without an ``http_client`` (or ``limits``) at the
    sandbox the page made last (``default`` until it makes one)."""
    made: list[Sandbox] = [default]
    original_sandbox_init = Sandbox.__init__

    def record(self: Sandbox, *args: Any, **kwargs: Any) -> None:
        original_sandbox_init(self, *args, **kwargs)
        made.append(self)

    with ExitStack() as stack:
        stack.enter_context(pytest.MonkeyPatch.context()).setattr(Sandbox, "__init__", record)
        for name, service in SERVICES.items():
            cls = getattr(xswap_sdk, name)
            original = cls.__init__

            def patched(
                self: Any, *args: Any, __original: Any = original, __service: str = service,
                __async: bool = name.startswith("Async"), **kwargs: Any,
            ) -> None:  # fmt: skip
                # A client given limits= makes its own pool, which cannot reach the
                # sandbox: such a snippet shows configuration and makes no call.
                if "http_client" not in kwargs and "limits" not in kwargs:
                    sandbox = made[-1]
                    kwargs["http_client"] = (
                        sandbox.async_http_client() if __async else sandbox.http_client()
                    )
                    kwargs["base_url"] = sandbox.url(__service)
                    kwargs.setdefault("clock", sandbox.clock)
                    key = sandbox.api_keys.get(__service)
                    if key is not None:
                        kwargs["api_key"] = key
                __original(self, *args, **kwargs)

            stack.enter_context(pytest.MonkeyPatch.context()).setattr(cls, "__init__", patched)
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
    where = f"{block.page.relative_to(ROOT)}:{block.line}"
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
        with clients_on(Sandbox()) as sandboxes:
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


def test_not_run_blocks_are_few_and_say_why() -> None:
    skipped = [block for page in PAGES for block in python_blocks(page) if block.skip_reason]
    total = sum(len(python_blocks(page)) for page in PAGES)
    assert all(len(block.skip_reason or "") >= 10 for block in skipped)
    assert len(skipped) <= total // 4, [f"{b.page.name}:{b.line}" for b in skipped]
