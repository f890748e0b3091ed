"""Served mode: the Starlette adapter over real sockets, and ``python -m
xswap_sdk.sandbox`` as a program. The only tests that take real time."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
import uvicorn

from xswap_sdk import Clock, RelayerClient, SystemClock, errors
from xswap_sdk._lazy import install_hint
from xswap_sdk.sandbox import Sandbox, server
from xswap_sdk.sandbox.__main__ import main
from xswap_sdk.sandbox.server import create_app

USDC_ON_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
SRC = Path(__file__).resolve().parents[2] / "src"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_until_up(url: str, deadline: float = 20.0) -> None:
    started = time.monotonic()
    while time.monotonic() - started < deadline:
        try:
            if httpx.get(url, timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.05)
    raise AssertionError(f"nothing answered at {url}")


@contextmanager
def serving(clock: Clock) -> Iterator[Sandbox]:
    """A sandbox on ``clock``, served by uvicorn on a free port, in a thread."""
    port = free_port()
    sandbox = Sandbox(clock=clock, base_url=f"http://127.0.0.1:{port}")
    server = uvicorn.Server(
        uvicorn.Config(create_app(sandbox), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_until_up(f"http://127.0.0.1:{port}/")
    try:
        yield sandbox
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def served() -> Iterator[Sandbox]:
    """A sandbox served by uvicorn on a free port, in a thread, on the real clock."""
    with serving(SystemClock()) as sandbox:
        yield sandbox


@pytest.fixture
def relayer(served: Sandbox) -> Iterator[RelayerClient]:
    served.faults.clear()
    with RelayerClient(api_key=served.relayer.api_key, base_url=served.relayer_url) as client:
        yield client


def test_the_served_relayer_answers_real_requests(served: Sandbox, relayer: RelayerClient) -> None:
    tx_id = relayer.relay(chain_id=8453, to=USDC_ON_BASE, call_data="0x")
    assert relayer.get_relay_status(tx_id).status == "NOT_PICKED_UP"
    with pytest.raises(errors.AuthenticationError) as wrong_key:
        relayer.with_options(api_key="nope").get_relay_status(tx_id)
    assert wrong_key.value.code == "AUTH_002"


def test_plain_text_errors_pass_through(served: Sandbox) -> None:
    response = httpx.get(
        f"{served.routing_url}/supported-chains",
        params={"x": "1"},
        headers={"api-key": served.routing.api_key},
    )
    assert (response.status_code, response.text) == (400, "Invalid request")


def test_a_drop_after_processing_closes_the_connection_unanswered(
    served: Sandbox, relayer: RelayerClient
) -> None:
    served.faults.drop_after_processing(service="relayer", path="/api/submit-tx")
    before = len(served.relayer.transaction_ids)
    with pytest.raises(errors.APIConnectionError) as dropped:
        relayer.relay(chain_id=8453, to=USDC_ON_BASE, call_data="0x")
    assert dropped.value.outcome_unknown is True
    assert len(served.relayer.transaction_ids) == before + 1
    served.faults.drop_after_processing(service="relayer")
    with pytest.raises(httpx.RemoteProtocolError, match="without sending"):
        httpx.get(f"{served.relayer_url}/api/supported-chains")


def test_a_refused_connection_is_served_as_a_close_before_handling(
    served: Sandbox, relayer: RelayerClient
) -> None:
    served.faults.refuse_connection(service="relayer", path="/api/submit-tx")
    before = len(served.relayer.transaction_ids)
    with pytest.raises(errors.APIConnectionError):
        relayer.relay(chain_id=8453, to=USDC_ON_BASE, call_data="0x", max_retries=0)
    assert len(served.relayer.transaction_ids) == before


def test_python_m_xswap_sdk_sandbox_serves_on_a_port() -> None:
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]),
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "xswap_sdk.sandbox", "--port", str(port), "--seed", "3",
         "--log-level", "warning"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        wait_until_up(f"http://127.0.0.1:{port}/")
        base = f"http://127.0.0.1:{port}/relayer"
        with RelayerClient(api_key="sandbox-relayer-key", base_url=base) as relayer:
            assert relayer.is_chain_supported(42161)
            tx_id = relayer.relay(chain_id=42161, to=USDC_ON_BASE, call_data="0x")
            assert len(tx_id) == 24
    finally:
        process.terminate()
        out, _ = process.communicate(timeout=10)
    assert f"http://127.0.0.1:{port}/flash" in out
    assert "sandbox-relayer-key" in out


def test_without_the_extra_the_command_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def missing(module: str, *, extra: str, feature: str) -> object:
        raise errors.MissingDependencyError(
            f"{feature} needs {module!r}, from {install_hint(extra)}"
        )

    monkeypatch.setattr(server, "require", missing)
    with pytest.raises(SystemExit) as exited:
        main(["--port", "1"])
    assert exited.value.code == 2
    assert 'pip install ".[sandbox]"' in capsys.readouterr().err
