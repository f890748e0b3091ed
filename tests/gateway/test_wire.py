"""Every keyword of every public GatewayClient method reaches the wire, or has its effect.

The same harness as ``tests/test_wire.py`` (whose recorder, samples and checks are
reused): the parameters come from the client's own signatures, so a new argument without
a sample here fails `test_every_gateway_parameter_has_a_sample`.
"""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from xswap_sdk import errors
from xswap_sdk.gateway import AsyncGatewayClient, GatewayClient, build_transfer_intent
from xswap_sdk.registry import DEFAULT_REGISTRY
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.signing import sign_burn_intent
from xswap_sdk.testing import TEST_SIGNER

from ..test_wire import (
    COMMON,
    OPTIONS,
    Env,
    From,
    Recorder,
    Sample,
    made,
    outcome,
    path_ends,
    polled_every,
    refused,
    result_is,
    timed_out,
    url_starts,
    wire,
)

NOT_ARGUMENTS = {"close", "aclose", "capture_responses"}
UNKNOWN_TRANSFER = "3c90c3cc-0d44-4b50-8888-8dd25736052a"
ME = TEST_SIGNER.address


class GatewayEnv(Env):
    """The shared `Env`, making Gateway clients."""

    def client(self, service: str, **overrides: Any) -> Any:
        args: dict[str, Any] = {
            "base_url": self.sandbox.url("gateway"),
            "clock": self.sandbox.clock,
            "http_client": self.http_client(),
        }
        cls = GatewayClient if self.kind == "sync" else AsyncGatewayClient
        client = cls(**{**args, **overrides})
        self.made.append(client)
        return client


def _testnet_url(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
    # The sandbox URL is passed too, so what ``testnet`` changes is the chains' network.
    assert isinstance(error, errors.InvalidInputError), error
    assert "testnet" in str(error)


def _registry_used(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
    # The client asks for the registry's domain of chain 8453 (the sandbox does not
    # serve domain 77 and says so).
    wire("domain")(env, 77, result, error)


def _waited_for(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
    # 50 USDC are there: one unit more is never reached, and the message says what was.
    assert isinstance(error, errors.WaitTimeoutError), error
    assert f"reach {value} units" in str(error)


def _polled_transfer(env: Env, value: Any, result: Any, error: BaseException | None) -> None:
    assert error is None, error
    polled_every(f"/v1/transfer/{env.transfer_id}")(env, value, result, error)


def _intent(value: int = 1_000_000, **overrides: Any) -> Any:
    return build_transfer_intent(
        source_chain_id=8453,
        destination_chain_id=42161,
        depositor=ME,
        recipient=ME,
        value=value,
        **overrides,
    )


CUSTOM = DEFAULT_REGISTRY.chain(8453)
REGISTRY_WITH_DOMAIN_77 = DEFAULT_REGISTRY.with_chains(
    type(CUSTOM)(
        chain_id=8453,
        name="Base (re-numbered)",
        domain=77,
        usdc=CUSTOM.usdc,
        gateway_wallet=CUSTOM.gateway_wallet,
        gateway_minter=CUSTOM.gateway_minter,
        testnet=False,
    )
)

GATEWAY: dict[tuple[str, str], Sample] = {
    ("__init__", "base_url"): Sample(From(lambda env: env.sandbox.url("gateway")), url_starts),
    ("__init__", "testnet"): Sample(True, _testnet_url),
    ("__init__", "registry"): Sample(REGISTRY_WITH_DOMAIN_77, _registry_used),
    ("with_options", "api_key"): Sample("gateway-key", refused(errors.InvalidInputError)),
    ("with_options", "base_url"): Sample(
        From(lambda env: env.sandbox.url("gateway") + "/v2"), url_starts
    ),
    ("get_balances", "depositor"): Sample(
        "0x000000000000000000000000000000000000bEEF", wire("depositor")
    ),
    ("get_balances", "chain_ids"): Sample([42161], wire("domain", lambda _: 3)),
    ("get_balances", "domains"): Sample([0], wire("domain", lambda domains: domains[0])),
    ("get_balances", "token"): Sample("EURC", wire("token")),
    ("estimate", "intents"): Sample(
        From(lambda env: _intent(2_345_678)), wire("value", lambda i: str(i.spec.value))
    ),
    ("estimate", "max_attestation_size"): Sample(4096, wire("maxAttestationSize")),
    ("transfer", "signed"): Sample(
        From(lambda env: sign_burn_intent(_intent(1_234_567), TEST_SIGNER)),
        wire("value", lambda s: str(s.intent.spec.value)),
    ),
    ("transfer", "max_attestation_size"): Sample(8192, wire("maxAttestationSize")),
    ("transfer", "enable_forwarder"): Sample(True, wire("enableForwarder", lambda _: "true")),
    ("get_transfer", "transfer_id"): Sample(
        UNKNOWN_TRANSFER, path_ends(lambda value: f"/v1/transfer/{value}")
    ),
    ("wait_for_transfer", "transfer_id"): Sample(
        From(lambda env: env.transfer_id), result_is(lambda record, _: record.status)
    ),
    ("wait_for_transfer", "until"): Sample(
        "confirmed", result_is(lambda record, value: record.status == value)
    ),
    ("wait_for_transfer", "wait_timeout"): Sample(
        0.5, timed_out(1.0), extra={"poll_interval": 0.25}
    ),
    ("wait_for_transfer", "poll_interval"): Sample(
        0.75, _polled_transfer, extra={"until": "confirmed"}
    ),
    ("wait_for_gateway_balance", "depositor"): Sample(ME, wire("depositor")),
    ("wait_for_gateway_balance", "chain_id"): Sample(1, wire("domain", lambda _: 0)),
    ("wait_for_gateway_balance", "at_least"): Sample(
        50_000_001, _waited_for, extra={"wait_timeout": 30, "poll_interval": 10}
    ),
    ("wait_for_gateway_balance", "wait_timeout"): Sample(
        40.0, timed_out(1.0), extra={"at_least": 10**12}
    ),
    ("wait_for_gateway_balance", "poll_interval"): Sample(
        7.0, polled_every("/v1/balances"), extra={"at_least": 10**12, "wait_timeout": 30}
    ),
    ("wait_for_gateway_balance", "token"): Sample("EURC", wire("token")),
    ("domain_of", "chain_id"): Sample(42161, result_is(lambda domain, _: domain == 3)),
}


def sample_for(method: str, param: str) -> Sample | None:
    return GATEWAY.get((method, param)) or COMMON.get(param)


def prepare(env: Env, method: str) -> None:
    sb = env.sandbox
    sb.fund(ME, 8453, 50_000_000)
    sb.fund(ME, 1, 2_000_000)
    if method == "wait_for_transfer":
        gateway = sb.gateway_client()
        result = gateway.transfer(sign_burn_intent(_intent(), TEST_SIGNER))
        env.state["transfer_id"] = result.transfer_id


def base_arguments(env: Env, method: str) -> dict[str, Any]:
    if method == "get_balances":
        return {"depositor": ME}
    if method == "estimate":
        return {"intents": _intent()}
    if method == "transfer":
        return {"signed": sign_burn_intent(_intent(), TEST_SIGNER)}
    if method in ("get_transfer",):
        return {"transfer_id": UNKNOWN_TRANSFER}
    if method == "wait_for_transfer":
        return {"transfer_id": env.transfer_id, "poll_interval": 60.0}
    if method == "wait_for_gateway_balance":
        return {"depositor": ME, "chain_id": 8453, "at_least": 1}
    if method == "domain_of":
        return {"chain_id": 8453}
    return {}


def parameters() -> list[tuple[str, str]]:
    found = []
    for name, member in inspect.getmembers(GatewayClient, callable):
        if (name.startswith("_") and name != "__init__") or name in NOT_ARGUMENTS:
            continue
        for param in inspect.signature(member).parameters.values():
            if param.name == "self":
                continue
            if param.kind is inspect.Parameter.VAR_KEYWORD:
                found += [(name, option) for option in OPTIONS]
            else:
                found.append((name, param.name))
    return found


PARAMETERS = parameters()


def test_every_gateway_parameter_has_a_sample() -> None:
    missing = [p for p in PARAMETERS if sample_for(*p) is None]
    assert not missing, f"give these arguments a sample in tests/gateway/test_wire.py: {missing}"


def test_both_flavours_take_the_same_arguments() -> None:
    for name, member in inspect.getmembers(GatewayClient, callable):
        if name.startswith("_") and name != "__init__":
            continue
        twin = getattr(AsyncGatewayClient, {"close": "aclose"}.get(name, name))
        assert list(inspect.signature(member).parameters) == list(
            inspect.signature(twin).parameters
        ), name


async def _probe(client: Any) -> Any:
    return await outcome(lambda: client.get_balances(ME, chain_ids=[8453]))


@pytest.mark.parametrize(("method", "param"), PARAMETERS, ids=["-".join(p) for p in PARAMETERS])
async def test_the_argument_reaches_the_wire(kind: str, method: str, param: str) -> None:
    sample = sample_for(method, param)
    assert sample is not None
    with Sandbox() as sandbox:
        env = GatewayEnv(kind, sandbox, Recorder(sandbox))
        try:
            prepare(env, method)
            value = made(sample.value, env)
            extra = {name: made(v, env) for name, v in sample.extra.items()}
            if sample.refuse is not None:
                env.recorder.refuse = sample.refuse(value)
            result: Any = None
            error: BaseException | None = None
            if method == "__init__":
                try:
                    client = env.client("gateway", **{param: value})
                except errors.InvalidInputError as exc:
                    error = exc
                else:
                    result, error = await _probe(client)
            elif method == "with_options":
                try:
                    copy = env.client("gateway").with_options(**{param: value})
                except errors.InvalidInputError as exc:
                    error = exc
                else:
                    result, error = await _probe(copy)
            else:
                client = env.client("gateway")
                arguments = {**base_arguments(env, method), **extra}
                arguments[param] = value
                result, error = await outcome(lambda: getattr(client, method)(**arguments))
            sample.check(env, value, result, error)
        finally:
            await env.close()
