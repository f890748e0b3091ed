"""``xswap resume --rpc-url`` (and ``XSWAP_RPC_URLS``) against fake JSON-RPC nodes on
127.0.0.1 (tests/cli/rpcnode.py): a deposit or route journey stopped after its
transaction was broadcast is completed when the node has the receipt, needs attention
when it has none (or no node serves its chain), fails when it reverted; each node is
asked its chain only when a journey needs one; nothing is ever sent to a node but
``eth_chainId`` and ``eth_getTransactionReceipt``; a bad URL, a dead node or a missing
web3 are reported without the URL. The real node is tests/anvil/test_resume_cli.py."""

from __future__ import annotations

import json
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from xswap_sdk._cli import ExitCode, main
from xswap_sdk._cli._journeys import _takes_web3
from xswap_sdk._cli._nodes import journey_chains
from xswap_sdk.flash._deposit import DepositResult
from xswap_sdk.gateway import GatewayClient, build_transfer_intent
from xswap_sdk.journal import Journal, SQLiteJournal, StepEvent
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.signing import prepare_deposit_with_authorization, sign_burn_intent
from xswap_sdk.testing import TEST_SIGNER

from .rpcnode import FakeNode, serving

ME = TEST_SIGNER.address
TX = "0x" + "ab" * 32
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


def deposit_journey(journal: Journal, tx_hash: str = TX) -> str:
    """The steps `FlashClient.deposit` writes when web3 sends it, up to
    ``broadcast/ok``: the process died before the journey ended."""
    deposit = prepare_deposit_with_authorization(TEST_SIGNER, chain_id=8453, value=5_000_000)
    journey_id = journal.start(
        "deposit", {"deposit": DepositResult(transaction=deposit, chain_id=8453)}
    )
    for step, status in (("signed", "ok"), ("broadcast", "sending"), ("broadcast", "ok")):
        journal.record(journey_id, step, status, {"what": "deposit", "tx_hash": tx_hash})
    return journey_id


def route_journey(journal: Journal, tx_hash: str = TX) -> str:
    """The steps `RoutingClient.execute_route` writes (no approval, not waiting), up to
    ``broadcast/ok``, for a transaction the sandbox built."""
    with Sandbox() as sb, sb.routing_client() as routing:
        [route, *_] = routing.get_quote(
            from_chain=8453,
            to_chain=8453,
            from_token=USDC_BASE,
            to_token=WETH_BASE,
            amount=3_000_000,
            sender=ME,
        )
        tx = routing.build_path(route, ME)
    journey_id = journal.start(
        "route",
        {"chain_id": 8453, "sender": ME, "transaction": tx, "allowance": None, "wait": False},
    )
    for step, status in (("signed", "ok"), ("broadcast", "sending"), ("broadcast", "ok")):
        journal.record(journey_id, step, status, {"what": "route", "tx_hash": tx_hash})
    return journey_id


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
def test_a_receipt_on_the_chain_completes_the_journey(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, base: FakeNode, journey: Any
) -> None:
    path = tmp_path / "j.db"
    journey_id = journey(SQLiteJournal(path))
    base.receipts[TX] = 1
    code, out, _ = resume(capsys, path, journey_id, "--rpc-url", base.url)
    assert code == ExitCode.OK
    [entry] = out["resumed"]
    assert (entry["state"], entry["chain_id"]) == ("completed", 8453)
    assert ("confirmed", "ok") in steps(path, journey_id)
    # Read only (a route's resume checks the node's chain itself too): nothing sent.
    assert set(base.asked) == {"eth_chainId", "eth_getTransactionReceipt"}
    assert base.asked.count("eth_getTransactionReceipt") == 1
    # Resuming again does nothing: the journey is over.
    asked = len(base.asked)
    assert main(["resume", journey_id, "--journal", str(path), "--rpc-url", base.url]) == 0
    assert len(base.asked) == asked


def test_without_a_receipt_it_needs_attention_and_nothing_is_sent(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, base: FakeNode
) -> None:
    path = tmp_path / "j.db"
    journey_id = deposit_journey(SQLiteJournal(path))
    code, out, _ = resume(capsys, path, journey_id, "--rpc-url", base.url)
    assert code == ExitCode.UNKNOWN
    assert out["resumed"][0]["state"] == "needs_attention"
    assert not SENDS & set(base.asked)


def test_a_reverted_receipt_fails_the_journey(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, base: FakeNode
) -> None:
    path = tmp_path / "j.db"
    journey_id = deposit_journey(SQLiteJournal(path))
    base.receipts[TX] = 0
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
    journal = SQLiteJournal(path)
    first, second = deposit_journey(journal), deposit_journey(journal, "0x" + "cd" * 32)
    base.receipts[TX] = 1
    base.receipts["0x" + "cd" * 32] = 1
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
    # Base's node is chosen once; each deposit's resume checks its chain again itself.
    per_journey = ["eth_chainId", "eth_getTransactionReceipt"]
    assert base.asked == ["eth_chainId", *per_journey, *per_journey]


def test_a_node_after_the_one_needed_is_never_asked(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, base: FakeNode, arbitrum: FakeNode
) -> None:
    path = tmp_path / "j.db"
    journey_id = deposit_journey(SQLiteJournal(path))
    base.receipts[TX] = 1
    argv = ("--rpc-url", base.url, "--rpc-url", arbitrum.url)  # given beats XSWAP_RPC_URLS
    code, _, _ = resume(capsys, path, journey_id, *argv)
    assert code == ExitCode.OK
    assert arbitrum.asked == []


def test_no_node_for_the_chain_leaves_it_needing_attention(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, arbitrum: FakeNode
) -> None:
    path = tmp_path / "j.db"
    journey_id = deposit_journey(SQLiteJournal(path))
    code, out, _ = resume(capsys, path, journey_id, "--rpc-url", arbitrum.url)
    assert code == ExitCode.UNKNOWN
    assert out["resumed"][0]["no_node_for"] == [8453]
    assert out["resumed"][0]["state"] == "needs_attention"
    # In text, the line says what to pass (with no --rpc-url at all, too).
    assert main(["resume", journey_id, "--journal", str(path)]) == ExitCode.UNKNOWN
    assert "(no --rpc-url node serves chain 8453: its receipt was not read)" in (
        capsys.readouterr().out
    )


def test_text_output_says_which_chain_was_read(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, base: FakeNode
) -> None:
    path = tmp_path / "j.db"
    journey_id = deposit_journey(SQLiteJournal(path))
    base.receipts[TX] = 1
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
    journey_id = deposit_journey(SQLiteJournal(path))
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
    journey_id = deposit_journey(SQLiteJournal(path))
    code = main(["resume", journey_id, "--journal", str(path), "--rpc-url", url, "--json"])
    captured = capsys.readouterr()
    assert code == ExitCode.USAGE
    error = json.loads(captured.out)["error"]
    assert error["message"].startswith("--rpc-url #1:")
    assert "secret-key" not in captured.out + captured.err
    assert steps(path, journey_id)[-1] == ("broadcast", "ok")  # nothing was resumed


def test_a_bad_url_in_the_variable_names_the_variable(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "j.db"
    journey_id = deposit_journey(SQLiteJournal(path))
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
    journey_id = deposit_journey(SQLiteJournal(path))
    monkeypatch.setitem(sys.modules, "web3", None)  # import web3 now fails
    code = main(["resume", journey_id, "--journal", str(path), "--rpc-url", base.url])
    assert code == ExitCode.USAGE
    assert "the 'web3' extra: pip install \".[web3]\"" in capsys.readouterr().err
    assert base.asked == []
    # Without a URL, resume goes on without web3, as before.
    assert main(["resume", journey_id, "--journal", str(path)]) == ExitCode.UNKNOWN


def test_the_chain_of_each_kind_of_journey(tmp_path: Path) -> None:
    journal = SQLiteJournal(tmp_path / "j.db")
    assert journey_chains(_only(journal, deposit_journey(journal))) == (8453,)
    assert journey_chains(_only(journal, route_journey(journal))) == (8453,)
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
    # Domain 3: Arbitrum One, or Arbitrum Sepolia (the node's chain id tells them apart).
    assert journey_chains(_only(journal, result.journey_id)) == (42161, 421614)
    relay = journal.start("relay", {"chain_id": 8453})
    assert journey_chains(_only(journal, relay)) == ()


def test_a_transfer_journey_reads_its_destination_only_when_gateway_resume_takes_web3(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    arbitrum: FakeNode,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = tmp_path / "j.db"

    def crash(event: StepEvent) -> None:
        if event.step == "signed":
            raise Crash

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
        with pytest.raises(Crash):
            sb.gateway_client(journal=path, on_step=crash).transfer(
                sign_burn_intent(intent, TEST_SIGNER)
            )
    [stopped] = SQLiteJournal(path).journeys()
    # Resume resends the signed intents; the service is gone, so nothing arrives.
    monkeypatch.setenv("XSWAP_GATEWAY_URL", "http://127.0.0.1:9")
    code, out, _ = resume(capsys, path, stopped.id, "--rpc-url", arbitrum.url)
    assert code == ExitCode.SERVICE
    assert out["resumed"][0]["error"]["type"] == "APIConnectionError"
    if _takes_web3(GatewayClient()):
        assert arbitrum.asked[:1] == ["eth_chainId"]
        assert out["resumed"][0]["chain_id"] == 42161
    else:
        assert arbitrum.asked == []


class Crash(BaseException):
    """Stands for the process dying: no ``except Exception`` catches it."""


def _only(journal: Journal, journey_id: str | None) -> Any:
    assert journey_id is not None
    journey = journal.journey(journey_id)
    assert journey is not None
    return journey
