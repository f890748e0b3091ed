"""A misspelt keyword raises `TypeError` naming the nearest valid one, before anything is
signed or sent: every public method of every client, sync and async, the constructors
and ``with_options`` included, whatever per-call options (``**options``) it takes.

The methods come from the clients themselves (as in tests/test_wire.py), so a new
method is covered without a line here. Each client is wired to a transport that fails
the test if a request reaches it, and to a signing policy that fails it if anything is
about to be signed.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from xswap_sdk import (
    AsyncFlashClient,
    AsyncRelayerClient,
    FlashClient,
    RelayerClient,
    errors,
)
from xswap_sdk._options import RequestOptions
from xswap_sdk.testing import TEST_SIGNER

from .frame_locals import assert_no_secret_in_frames
from .support import CLIENTS, resolve

OPTIONS = tuple(RequestOptions.__annotations__)


def methods() -> Iterator[tuple[type[Any], str]]:
    """Every public method of every client class, the constructor included."""
    for pair in CLIENTS.values():
        for cls in pair:
            for name, _ in inspect.getmembers(cls, callable):
                if not name.startswith("_") or name == "__init__":
                    yield cls, name


METHODS = list(methods())


def keywords(cls: type[Any], name: str) -> list[str]:
    """The keywords ``cls.name`` takes: its parameters, and its options' keys."""
    found = []
    for param in inspect.signature(getattr(cls, name)).parameters.values():
        if param.name == "self" or param.kind is inspect.Parameter.VAR_POSITIONAL:
            continue
        if param.kind is inspect.Parameter.VAR_KEYWORD:
            wait = "WaitOptions" in str(param.annotation)
            found += [o for o in OPTIONS if not (wait and o == "timeout")]
        else:
            found.append(param.name)
    return found


def misspelt(keyword: str) -> str:
    """A typo of ``keyword``: two letters swapped in its middle, or its last doubled."""
    middle = len(keyword) // 2
    swapped = keyword[: middle - 1] + keyword[middle] + keyword[middle - 1] + keyword[middle + 1 :]
    return swapped if swapped != keyword and len(keyword) > 3 else keyword + keyword[-1]


class Untouchable:
    """A transport and a policy that fail the test if they are ever reached."""

    def __init__(self) -> None:
        self.requests: list[httpx.Request] = []
        self.signings: list[Any] = []

    def handle(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        raise AssertionError(f"a request was sent: {request.method} {request.url}")

    def approve(self, request: Any) -> bool:
        self.signings.append(request)
        raise AssertionError("something was about to be signed")

    def client_args(self, cls: type[Any]) -> dict[str, Any]:
        transport = httpx.MockTransport(self.handle)
        is_async = cls.__name__.startswith("Async")
        http_client = (httpx.AsyncClient if is_async else httpx.Client)(transport=transport)
        args: dict[str, Any] = {"http_client": http_client, "policy": self.approve}
        if cls in CLIENTS["flash"]:
            args["signer"] = TEST_SIGNER
        if "api_key" in inspect.signature(cls).parameters:
            args["api_key"] = "test-key-123456"
        return args


async def call(target: Any, *args: Any, **kwargs: Any) -> Any:
    """Call, awaiting a coroutine and draining an iterator, so the method really runs."""
    result = await resolve(target(*args, **kwargs))
    if hasattr(result, "__aiter__"):
        return [item async for item in result]
    if isinstance(result, Iterator):
        return list(result)
    return result


@pytest.mark.parametrize(
    ("cls", "name"), METHODS, ids=[f"{cls.__name__}.{name}" for cls, name in METHODS]
)
async def test_a_misspelt_keyword_is_refused_with_the_nearest_one(
    cls: type[Any], name: str
) -> None:
    guard = Untouchable()
    taken = keywords(cls, name)
    client = None if name == "__init__" else cls(**guard.client_args(cls))
    try:
        for keyword in taken:
            typo = misspelt(keyword)
            assert typo not in taken
            target = cls if client is None else getattr(client, name)
            shown = cls.__name__ if client is None else f"{cls.__name__}.{name}"
            with pytest.raises(TypeError) as info:
                # Positional arguments are left out: the keywords are checked first.
                await call(target, **{typo: 1})
            assert str(info.value).startswith(
                f"{shown}() got an unexpected keyword argument {typo!r}"
            ), info.value
            assert str(info.value).endswith(f"Did you mean {keyword!r}?"), info.value
    finally:
        if client is not None:
            await resolve(client.aclose() if hasattr(client, "aclose") else client.close())
    assert guard.requests == []
    assert guard.signings == []


def test_every_client_method_is_covered() -> None:
    # The enumeration finds the methods this issue named, in both flavours.
    found = {(cls.__name__, name) for cls, name in METHODS}
    for cls in (FlashClient, AsyncFlashClient):
        for name in ("__init__", "with_options", "swap", "get_quote", "build_order"):
            assert (cls.__name__, name) in found
    assert len(METHODS) > 150


@pytest.fixture
def client_pair(kind: str) -> Iterator[tuple[Any, Untouchable]]:
    guard = Untouchable()
    cls = FlashClient if kind == "sync" else AsyncFlashClient
    yield cls(**guard.client_args(cls)), guard
    assert guard.requests == []
    assert guard.signings == []


async def test_the_issue_s_typos(client_pair: tuple[Any, Untouchable]) -> None:
    flash, _ = client_pair
    swap_args = {
        "input_amount": 10_000_000,
        "output_token": "0x4200000000000000000000000000000000000006",
        "chain_id": 8453,
        "slippage": "0.5",
    }
    cases = {
        "min_amout_out": "'min_amount_out'",
        "max_fee_capp": "'max_fee_cap'",
        "timeuot": "'timeout'",
        "max_retry": "'max_retries'",
    }
    for typo, nearest in cases.items():
        with pytest.raises(TypeError, match=f"Did you mean {nearest}"):
            await resolve(flash.swap(TEST_SIGNER, **swap_args, **{typo: 10**30}))
    with pytest.raises(TypeError, match="Did you mean 'timeout'"):
        await resolve(flash.get_quote(**swap_args, sender=TEST_SIGNER.address, timeuot=5))


@pytest.mark.parametrize("setting", ["journal", "progress", "on_step", "policy"])
async def test_a_client_setting_given_to_a_call_says_where_it_goes(
    client_pair: tuple[Any, Untouchable], setting: str
) -> None:
    flash, _ = client_pair
    name = type(flash).__name__
    with pytest.raises(TypeError) as info:
        await resolve(flash.get_supported_chains(**{setting: None}))
    assert str(info.value) == (
        f"{name}.get_supported_chains() got an unexpected keyword argument {setting!r}: it "
        f"is a client setting; pass it to {name}({setting}=...) or "
        f"client.with_options({setting}=...)"
    )


async def test_a_setting_with_options_cannot_change_says_so(
    client_pair: tuple[Any, Untouchable],
) -> None:
    flash, _ = client_pair
    with pytest.raises(TypeError, match=r"a copy keeps it; make a new client with \w+\(signer="):
        flash.with_options(signer=TEST_SIGNER)


async def test_a_method_without_per_call_options_says_so(
    client_pair: tuple[Any, Untouchable],
) -> None:
    flash, _ = client_pair
    with pytest.raises(TypeError, match="takes no per-call options"):
        flash.sign_order(None, TEST_SIGNER, timeout=5)


async def test_a_wait_still_explains_its_timeout(kind: str) -> None:
    # ``timeout=`` on a wait is a known keyword with a better error of its own.
    guard = Untouchable()
    cls = RelayerClient if kind == "sync" else AsyncRelayerClient
    relayer = cls(**guard.client_args(cls))
    with pytest.raises(errors.InvalidInputError, match="timeout_ms"):
        await resolve(relayer.wait_for_execution_hash("6a" * 12, timeout=5))
    with pytest.raises(TypeError, match="Did you mean 'timeout_ms'"):
        await resolve(relayer.wait_for_execution_hash("6a" * 12, timeout_sm=5))
    assert guard.requests == []


def test_no_keyword_is_kept_in_the_frames() -> None:
    # A constructor refused for a typo does not keep its API key in the wrapper's frame.
    secret = "sk-live-5f2b9c81d4"
    with pytest.raises(TypeError) as info:
        RelayerClient(api_key=secret, timeuot=5)
    assert_no_secret_in_frames(info.value, [secret])
