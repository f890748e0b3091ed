"""``xswap resume --rpc-url`` (and ``XSWAP_RPC_URLS``) against fake JSON-RPC nodes on
127.0.0.1 (tests/cli/rpcnode.py). The journeys are real: a deposit or route flow run by
the journey driver with stand-in chain helpers, stopped as its transaction was about to
be broadcast (``broadcast/sending`` on disk). Resumed, it is looked up by its hash on the
chain: found, it is completed (or fails when it reverted and the journey waited for
it); not found, its journaled bytes are sent again, once. Each node is asked its chain
only when a journey needs one; a bad URL, a dead node or a missing web3 are reported
without the URL. The real node is tests/anvil/test_resume_cli.py."""

from __future__ import annotations

import json
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from eth_utils.crypto import keccak

from xswap_sdk._cli import ExitCode, main
from xswap_sdk._cli._nodes import journey_chains
from xswap_sdk.gateway import build_transfer_intent
from xswap_sdk.journal import Journal, SQLiteJournal
from xswap_sdk.routing import _route_journey as routes
from xswap_sdk.routing._execution import plan_route
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.signing import sign_burn_intent
from xswap_sdk.testing import TEST_SIGNER

from ..journal.chain_journeys import Crash, crash_at_broadcast, deposit_journey, stand_in
from .rpcnode import FakeNode, serving

ME = TEST_SIGNER.address
USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
WETH_BASE = "0x4200000000000000000000000000000000000006"
SENDS = {"eth_sendRawTransaction", "eth_sendTransaction", "eth_signTransaction"}


@pytest.fixture(autouse=True)
def _no_rpc_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("XSWAP_RPC_URLS", "XSWAP_JOURNAL", "XSWAP_PRIVATE_KEY"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def base() -> Iterator[FakeNode]:
    with serving(8453) as node:
        yield node


@pytest.fixture
def arbitrum() -> Iterator[FakeNode]:
    with serving(42161) as node:
        yield node


def route_journey(path: Path) -> tuple[str, str]:
    """A ``route`` (no approval, not waiting) stopped as its transaction was being
    broadcast: its id and its transaction's hash."""
    with Sandbox() as sb:
        routing = sb.routing_client(journal=path, on_step=crash_at_broadcast)
        [route, *_] = routing.get_quote(
            from_chain=8453,
            to_chain=8453,
            from_token=USDC_BASE,
            to_token=WETH_BASE,
            amount=3_000_000,
            sender=ME,
        )
        run = routes.RouteRun(
            plan=plan_route(route, ME),
            paths=routing.paths,
            pinned=routing._routing_contracts.get(8453) or _pinned(),
            trust_service=False,
            chains=None,
            chains_key=routing.base_url,
            clock=routing.clock,
            approve=False,
            simulate="auto",
            wait=None,
        )
        with pytest.raises(Crash):
            routing._transport.run(routes.route_journey(run, stand_in(0)))
    return _last(path)


def _pinned() -> str:
    from xswap_sdk.registry import routing_contract_of

    found = routing_contract_of(8453)
    assert found is not None
    return found


def _last(path: Path) -> tuple[str, str]:
    journey = SQLiteJournal(path).journeys()[-1]
    sending = journey.last("broadcast", "sending")
    assert sending is not None
    return journey.id, str(sending.data["tx_hash"])


def resume(
    capsys: pytest.CaptureFixture[str], path: Path, *argv: str
) -> tuple[int, dict[str, Any], str]:
    code = main(["resume", *argv, "--journal", str(path), "--json"])
    captured = capsys.readouterr()
    return code, json.loads(captured.out), captured.err


def steps(path: Path, journey_id: str) -> list[tuple[str, str]]:
    journey = SQLiteJournal(path).journey(journey_id)
    assert journey is not None
    return [(s.step, s.status) for s in journey.steps]


@pytest.mark.parametrize("journey", [deposit_journey, route_journey])
def test_a_transaction_on_the_chain_completes_the_journey_and_is_not_sent_again(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, base: FakeNode, journey: Any
) -> None:
    path = tmp_path / "j.db"
    journey_id, tx_hash = journey(path)
    base.receipts[tx_hash] = 1
    code, out, _ = resume(capsys, path, journey_id, "--rpc-url", base.url)
    assert code == ExitCode.OK
    [entry] = out["resumed"]
    assert (entry["state"], entry["chain_id"]) == ("completed", 8453)
    assert ("broadcast", "ok") in steps(path, journey_id)
    assert not SENDS & set(base.asked)
    # Looked up once (a route also waits for its receipt, as the call it resumes does).
    assert base.asked.count("eth_getTransactionReceipt") == (1 if journey is deposit_journey else 2)
    # Resuming again does nothing: the journey is over.
    asked = len(base.asked)
    assert main(["resume", journey_id, "--journal", str(path), "--rpc-url", base.url]) == 0
    assert len(base.asked) == asked


def test_a_transaction_the_chain_does_not_have_is_sent_again_as_the_same_bytes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, base: FakeNode
) -> None:
    path = tmp_path / "j.db"
    journey_id, tx_hash = deposit_journey(path)
    code, out, _ = resume(capsys, path, journey_id, "--rpc-url", base.url)
    assert code == ExitCode.OK
    assert out["resumed"][0]["state"] == "completed"
    [raw] = base.sent
    assert "0x" + keccak(hexstr=raw).hex() == tx_hash  # the journaled bytes, not new ones
    assert "eth_signTransaction" not in base.asked


def test_a_reverted_transaction_fails_a_journey_that_waited_for_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, base: FakeNode
) -> None:
    path = tmp_path / "j.db"
    journey_id, tx_hash = deposit_journey(path, wait=True)
    base.receipts[tx_hash] = 0
    code, out, _ = resume(capsys, path, journey_id, "--rpc-url", base.url)
    assert code == ExitCode.FAILED
    assert out["resumed"][0]["state"] == "failed"
    assert out["resumed"][0]["error"]["type"] == "SwapFailedError"


def test_each_node_is_asked_its_chain_only_when_a_journey_needs_it(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    base: FakeNode,
    arbitrum: FakeNode,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = tmp_path / "j.db"
    first, first_hash = deposit_journey(path)
    second, second_hash = deposit_journey(path, nonce=1)
    base.receipts[first_hash] = 1
    base.receipts[second_hash] = 1
    # The default: XSWAP_RPC_URLS, separated by a comma and spaces. The first node
    # (Arbitrum) is asked, does not serve Base, then Base's is asked once for both.
    monkeypatch.setenv("XSWAP_RPC_URLS", f"{arbitrum.url}, {base.url}")
    code, out, _ = resume(capsys, path, "--all")
    assert code == ExitCode.OK
    assert [(e["id"], e["state"]) for e in out["resumed"]] == [
        (first, "completed"),
        (second, "completed"),
    ]
    assert arbitrum.asked == ["eth_chainId"]
    # Base's node is chosen once; each journey's own chain read was replayed.
    assert base.asked == ["eth_chainId", "eth_getTransactionReceipt", "eth_getTransactionReceipt"]


def test_a_node_after_the_one_needed_is_never_asked(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, base: FakeNode, arbitrum: FakeNode
) -> None:
    path = tmp_path / "j.db"
    journey_id, tx_hash = deposit_journey(path)
    base.receipts[tx_hash] = 1
    argv = ("--rpc-url", base.url, "--rpc-url", arbitrum.url)  # given beats XSWAP_RPC_URLS
    code, _, _ = resume(capsys, path, journey_id, *argv)
    assert code == ExitCode.OK
    assert arbitrum.asked == []


def test_no_node_for_the_chain_says_which_flag_and_leaves_the_journey(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, arbitrum: FakeNode
) -> None:
    path = tmp_path / "j.db"
    journey_id, _ = deposit_journey(path)
    code, out, _ = resume(capsys, path, journey_id, "--rpc-url", arbitrum.url)
    assert code == ExitCode.USAGE
    [entry] = out["resumed"]
    assert entry["no_node_for"] == [8453]
    assert entry["state"] == "running"
    assert entry["error"]["type"] == "MissingCredentialsError"
    assert "--rpc-url" in entry["next"]
    # In text, the line says what to pass (with no --rpc-url at all, too).
    assert main(["resume", journey_id, "--journal", str(path)]) == ExitCode.USAGE
    text = capsys.readouterr().out
    assert "(no --rpc-url node serves chain 8453)" in text
    assert "next: give --rpc-url URL of the journey's chain" in text


def test_text_output_says_which_chain_was_read(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, base: FakeNode
) -> None:
    path = tmp_path / "j.db"
    journey_id, tx_hash = deposit_journey(path)
    base.receipts[tx_hash] = 1
    assert main(["resume", journey_id, "--journal", str(path), "--rpc-url", base.url]) == 0
    assert (
        capsys.readouterr().out.strip()
        == f"{journey_id}  deposit       completed  (chain 8453 read)"
    )


def test_a_dead_node_is_a_network_error_and_the_journey_stays_running(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{sock.getsockname()[1]}/secret-key-path"
    path = tmp_path / "j.db"
    journey_id, _ = deposit_journey(path)
    code, out, err = resume(capsys, path, journey_id, "--rpc-url", dead)
    assert code == ExitCode.SERVICE
    [entry] = out["resumed"]
    assert entry["state"] == "running"
    assert entry["error"]["type"] == "APIConnectionError"
    assert "--rpc-url #1" in entry["error"]["message"]
    assert "secret-key-path" not in json.dumps(out) + err


@pytest.mark.parametrize(
    "url",
    [
        "http://node.example.com/secret-key",  # clear text to another machine
        "ftp://127.0.0.1/secret-key",
        "not a url secret-key",
        "/secret-key",
    ],
)
def test_a_bad_url_is_a_usage_error_that_does_not_show_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, url: str
) -> None:
    path = tmp_path / "j.db"
    journey_id, _ = deposit_journey(path)
    code = main(["resume", journey_id, "--journal", str(path), "--rpc-url", url, "--json"])
    captured = capsys.readouterr()
    assert code == ExitCode.USAGE
    error = json.loads(captured.out)["error"]
    assert error["message"].startswith("--rpc-url #1:")
    assert "secret-key" not in captured.out + captured.err
    assert steps(path, journey_id)[-1] == ("interrupted", "interrupted")  # not resumed


def test_a_bad_url_in_the_variable_names_the_variable(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "j.db"
    journey_id, _ = deposit_journey(path)
    monkeypatch.setenv("XSWAP_RPC_URLS", "https://ok.example.com http://far.example.com")
    assert main(["resume", journey_id, "--journal", str(path)]) == ExitCode.USAGE
    assert "XSWAP_RPC_URLS #2: http:// is allowed only to this machine" in capsys.readouterr().err


def test_without_web3_a_url_is_a_usage_error_naming_the_extra(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    base: FakeNode,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = tmp_path / "j.db"
    journey_id, _ = deposit_journey(path)
    monkeypatch.setitem(sys.modules, "web3", None)  # import web3 now fails
    code = main(["resume", journey_id, "--journal", str(path), "--rpc-url", base.url])
    assert code == ExitCode.USAGE
    assert "the 'web3' extra: pip install \".[web3]\"" in capsys.readouterr().err
    assert base.asked == []
    # Without a URL, resume goes as far as it can without web3, and says what it needs.
    assert main(["resume", journey_id, "--journal", str(path)]) == ExitCode.USAGE


def test_the_chain_of_each_kind_of_journey(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    journal = SQLiteJournal(path)
    assert journey_chains(_only(journal, deposit_journey(path)[0])) == (8453,)
    assert journey_chains(_only(journal, route_journey(path)[0])) == (8453,)
    with Sandbox() as sb:
        sb.fund(ME, 8453, 10_000_000)
        intent = build_transfer_intent(
            source_chain_id=8453,
            destination_chain_id=42161,
            depositor=ME,
            recipient=ME,
            value=2_000_000,
            max_fee=2_000_000,
        )
        result = sb.gateway_client(journal=journal).transfer(sign_burn_intent(intent, TEST_SIGNER))
        relayed = sb.relayer_client(journal=journal).relay(chain_id=8453, to=ME, call_data="0x")
    # A plain transfer never touches a chain (its mint is the caller's own call).
    assert journey_chains(_only(journal, result.journey_id)) == ()
    assert journey_chains(_only(journal, relayed.journey_id)) == ()


def _only(journal: Journal, journey_id: str | None) -> Any:
    assert journey_id is not None
    journey = journal.journey(journey_id)
    assert journey is not None
    return journey
