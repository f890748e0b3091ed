"""The served sandbox for any language, over a real socket on 127.0.0.1: the curl
journey of ``docs/sandbox-http.md`` run as written, the index, the HTTP controls, and
what the server refuses (foreign Host, cross-site requests, oversized bodies)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn

from xswap_sdk import VirtualClock
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.sandbox._guard import DEFAULT_MAX_BODY, host_allowed, host_name, refusal
from xswap_sdk.sandbox.server import create_app
from xswap_sdk.testing import TEST_SIGNER

from .test_server import free_port

DOC = Path(__file__).resolve().parents[2] / "docs" / "sandbox-http.md"
BASH_BLOCK = re.compile(r"^```bash\n(.*?)^```", re.MULTILINE | re.DOTALL)


class Served:
    """A sandbox on virtual time, served by uvicorn on 127.0.0.1 in a thread."""

    def __init__(self, max_body: int = DEFAULT_MAX_BODY) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.sandbox = Sandbox(clock=VirtualClock(), base_url=self.url)
        app = create_app(self.sandbox, bound_host="127.0.0.1", max_body=max_body)
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> Served:
        self.thread.start()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/", timeout=1).status_code == 200:
                    return self
            except httpx.TransportError:
                time.sleep(0.05)
        raise AssertionError(f"nothing answered at {self.url}")

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    with Served(max_body=64 * 1024) as running:
        yield running


# ------------------------------------------------------------------ the docs journey


@pytest.mark.skipif(
    shutil.which("curl") is None or shutil.which("jq") is None,
    reason="the page's commands need curl and jq on PATH",
)
def test_the_curl_journey_of_the_docs_runs_as_written() -> None:
    blocks = BASH_BLOCK.findall(DOC.read_text())
    assert len(blocks) >= 8, "the page should walk the whole journey in bash blocks"
    script = "set -euo pipefail\n" + "\n".join(blocks)
    with Served() as running:
        result = subprocess.run(
            ["bash", "-c", script],
            env={**os.environ, "SANDBOX": running.url},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, result.stderr + result.stdout
        out = result.stdout
        assert "POST /flash/auth/message" in out  # the index lists endpoints
        assert re.search(r"^logged in: eyJ", out, re.MULTILINE)
        assert "gateway total: 55000000" in out
        assert re.search(r"^submitted: pending 0x[0-9a-f]{64}$", out, re.MULTILINE)
        assert "swap: completed, 40.000000 USDC" in out
        assert re.search(r"^relay: NOT_PICKED_UP$", out, re.MULTILINE)
        assert re.search(r"^relay: EXECUTED 0x[0-9a-f]{64}$", out, re.MULTILINE)
        assert "route: completed" in out
        assert "with the fault: HTTP 503" in out
        assert "last request processed: false" in out
        # What the shell did, the sandbox saw: one swap, two relayer submissions
        # that reached the service (one was answered 503 before it).
        seen = running.sandbox.requests
        assert len(seen.select("flash", "POST", "/swap", processed=True)) == 1
        assert len(seen.select("relayer", "POST", "/api/submit-tx", processed=True)) == 1
        assert running.sandbox.flash.balance(TEST_SIGNER.address, 8453) < 30_000_000


# ------------------------------------------------------------------ the index


def test_the_index_lists_every_endpoint_with_its_names(served: Served) -> None:
    index = httpx.get(f"{served.url}/").json()
    sandbox = served.sandbox
    for name, service in (
        ("flash", sandbox.flash),
        ("routing", sandbox.routing),
        ("relayer", sandbox.relayer),
    ):
        listed = {(e["method"], e["path"]) for e in index["services"][name]["endpoints"]}
        assert listed == {(r.method, r.path) for r in service.router.routes}
    controls = {(e["method"], e["path"]) for e in index["controls"]["endpoints"]}
    assert ("POST", "/fund") in controls
    assert ("POST", "/wait") in controls
    quote = next(e for e in index["services"]["flash"]["endpoints"] if e["path"] == "/quote")
    assert {"name": "recipient", "required": False} in quote["query"]
    assert {"name": "inputAmount", "required": True} in quote["query"]
    swap = next(e for e in index["services"]["flash"]["endpoints"] if e["path"] == "/swap")
    assert swap["auth"] == "bearer"
    assert "signedOrder" in {field["name"] for field in swap["body"]}
    assert index["apiKeys"]["relayer"] == "sandbox-relayer-key"


def test_every_listed_endpoint_is_served(served: Served) -> None:
    # Each listed path answers something other than "no such endpoint".
    index = httpx.get(f"{served.url}/").json()
    groups = [(f"/{name}", s["endpoints"]) for name, s in index["services"].items()]
    groups.append(("/sandbox", index["controls"]["endpoints"]))
    for prefix, endpoints in groups:
        for endpoint in endpoints:
            if endpoint["method"] == "DELETE":
                continue  # would clear state other tests may rely on
            path = endpoint["path"].replace("{address}", TEST_SIGNER.address)
            response = httpx.request(endpoint["method"], f"{served.url}{prefix}{path}")
            assert "no such endpoint" not in response.text, (prefix, path)
            assert response.status_code != 405, (prefix, path)


# ------------------------------------------------------------------ the controls


def test_fund_and_wait_over_http(served: Served) -> None:
    funded = httpx.post(
        f"{served.url}/sandbox/fund",
        json={"address": TEST_SIGNER.address.lower(), "chainId": 42161, "amount": 5_000_000},
    )
    assert funded.status_code == 200
    assert funded.json()["balance"] == str(served.sandbox.flash.balance(TEST_SIGNER.address, 42161))
    before = httpx.get(f"{served.url}/sandbox/time").json()
    assert before["clock"] == "virtual"
    waited = httpx.post(f"{served.url}/sandbox/wait", json={"seconds": 90}).json()
    assert waited["now"] == pytest.approx(before["now"] + 90)
    assert served.sandbox.clock.time() == pytest.approx(before["now"] + 90)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"address": "0x12", "chainId": 8453, "amount": "1"}, "address"),
        ({"address": TEST_SIGNER.address, "chainId": 56, "amount": "1"}, "chainId"),
        ({"address": TEST_SIGNER.address, "chainId": 8453, "amount": 1.5}, "amount"),
        ({"address": TEST_SIGNER.address, "chainId": 8453}, "amount"),
    ],
)
def test_control_errors_name_the_json_field_in_any_language(
    served: Served, body: dict[str, object], field: str
) -> None:
    answer = httpx.post(f"{served.url}/sandbox/fund", json=body)
    assert answer.status_code == 400
    message = answer.json()["message"]
    assert message.startswith(f"{field}")
    assert "()" not in message  # no Python helper such as to_units()
    assert "chain_id" not in message


def test_service_errors_do_not_hint_at_python_helpers(served: Served) -> None:
    answer = httpx.post(
        f"{served.url}/relayer/api/submit-tx",
        headers={"api-key": "sandbox-relayer-key"},
        json={"to": TEST_SIGNER.address, "callData": "0x", "chainId": 8453, "value": 1.5},
    )
    assert answer.status_code == 400
    message = answer.json()["error"]["message"]
    assert "to_units" not in message
    assert "smallest units" in message


def test_faults_over_http(served: Served) -> None:
    added = httpx.post(
        f"{served.url}/sandbox/faults",
        json={"kind": "rate_limit", "service": "relayer", "retryAfter": 3, "times": 1},
    )
    assert added.status_code == 201
    assert [f["kind"] for f in httpx.get(f"{served.url}/sandbox/faults").json()["faults"]] == [
        "rate_limit"
    ]
    limited = httpx.get(
        f"{served.url}/relayer/api/supported-chains", headers={"api-key": "sandbox-relayer-key"}
    )
    assert (limited.status_code, limited.headers["retry-after"]) == (429, "3")
    assert httpx.delete(f"{served.url}/sandbox/faults").status_code == 200
    assert httpx.get(f"{served.url}/sandbox/faults").json()["faults"] == []
    bad = httpx.post(f"{served.url}/sandbox/faults", json={"kind": "earthquake"})
    assert bad.status_code == 400
    assert "kind must be one of" in bad.json()["message"]


# ------------------------------------------------------------------ hardening


@pytest.mark.parametrize(
    ("headers", "error"),
    [
        ({"host": "evil.example"}, "host_not_allowed"),
        ({"host": "evil.example:8787"}, "host_not_allowed"),
        ({"host": "127.0.0.1.nip.io"}, "host_not_allowed"),
        ({"origin": "http://evil.example"}, "cross_origin"),
        ({"origin": "null"}, "cross_origin"),
        ({"sec-fetch-site": "cross-site"}, "cross_site"),
        ({"sec-fetch-site": "same-site"}, "cross_site"),
    ],
)
def test_a_web_page_cannot_reach_it(served: Served, headers: dict[str, str], error: str) -> None:
    before = len(served.sandbox.relayer.transaction_ids)
    answer = httpx.post(
        f"{served.url}/relayer/api/submit-tx",
        headers={"api-key": "sandbox-relayer-key", "content-type": "text/plain", **headers},
        content=b'{"to": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", "callData": "0x", '
        b'"chainId": 8453}',
    )
    assert answer.status_code == 403
    assert answer.json()["error"] == error
    assert len(served.sandbox.relayer.transaction_ids) == before  # never processed


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"host": "localhost"},
        {"sec-fetch-site": "same-origin"},
        {"sec-fetch-site": "none"},
    ],
)
def test_programs_and_same_origin_requests_pass(served: Served, headers: dict[str, str]) -> None:
    if "host" in headers:
        headers = {"host": f"localhost:{served.port}"}
    assert httpx.get(f"{served.url}/", headers=headers).status_code == 200
    origin = {"origin": f"http://{headers.get('host', f'127.0.0.1:{served.port}')}"}
    assert httpx.get(f"{served.url}/", headers={**headers, **origin}).status_code == 200


def test_a_body_over_the_limit_is_refused(served: Served) -> None:
    big = b"x" * (64 * 1024 + 1)
    declared = httpx.post(f"{served.url}/sandbox/fund", content=big)
    assert (declared.status_code, declared.json()["error"]) == (413, "body_too_large")

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        for _ in range(80):
            yield b"y" * 1024

    streamed = httpx.post(f"{served.url}/sandbox/fund", content=chunks())
    assert streamed.status_code == 413
    fits = httpx.post(f"{served.url}/sandbox/fund", content=b"{}")
    assert fits.status_code == 400  # read and answered: "address is required"


def test_host_names_are_parsed_and_judged() -> None:
    assert host_name("LocalHost:8787") == "localhost"
    assert host_name("[::1]:8787") == "::1"
    assert host_name("127.0.0.1") == "127.0.0.1"
    assert host_name("example.com:http") is None
    assert host_name("") is None
    assert host_allowed("app.localhost", "127.0.0.1")
    assert host_allowed("10.0.0.5", "10.0.0.5")
    assert not host_allowed("10.0.0.5", "127.0.0.1")
    assert host_allowed("192.168.1.20", "0.0.0.0")  # every interface: any IP literal
    assert not host_allowed("evil.example", "0.0.0.0")  # but never a name
    assert refusal({}, bound_host="127.0.0.1") is not None  # no Host at all


def test_every_sandbox_gets_its_own_jwt_key_unless_one_is_given() -> None:
    def login_token(sandbox: Sandbox) -> str:
        return sandbox.flash_client(signer=TEST_SIGNER).login().token.get_secret_value()

    with Sandbox(seed=5) as first, Sandbox(seed=5) as second:
        one, two = login_token(first), login_token(second)
        assert one != two
        # The same seed still makes the same ids: only the key differs.
        assert one.split(".")[1] == two.split(".")[1]
    key = b"k" * 32
    with Sandbox(seed=5, jwt_secret=key) as first, Sandbox(seed=5, jwt_secret=key) as second:
        assert login_token(first) == login_token(second)
    with pytest.raises(ValueError, match="jwt_secret"):
        Sandbox(jwt_secret=b"short")
