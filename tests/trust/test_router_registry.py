"""Swap routers as pinned facts in the registry, and the router formats it can read."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xswap_sdk import errors
from xswap_sdk._router_formats import (
    SANDBOX_ROUTER_FORMAT,
    RouterTerms,
    decode_sandbox_router,
    encode_sandbox_router,
)
from xswap_sdk.registry import DEFAULT_REGISTRY, Registry, SwapRouter

ROUTER = "0x" + "a7" * 20
ADDRESSES = st.binary(min_size=20, max_size=20).map(lambda raw: "0x" + raw.hex())


def test_the_default_registry_pins_no_router_and_reads_the_sandbox_format() -> None:
    assert DEFAULT_REGISTRY.routers == ()
    assert DEFAULT_REGISTRY.router(8453, ROUTER) is None
    assert set(DEFAULT_REGISTRY.router_formats) == {SANDBOX_ROUTER_FORMAT}


def test_routers_are_pinned_per_chain_and_kept_by_new_registries() -> None:
    pinned = DEFAULT_REGISTRY.with_routers(SwapRouter(8453, ROUTER, output_format="f"))
    entry = pinned.router(8453, ROUTER.upper().replace("0X", "0x"))
    assert entry is not None
    assert entry.address == SwapRouter(8453, ROUTER).address  # checksummed
    assert pinned.router(42161, ROUTER) is None
    assert pinned.router(8453, "not an address") is None
    assert pinned != DEFAULT_REGISTRY
    assert DEFAULT_REGISTRY.routers == ()  # left as it was
    grown = pinned.with_chains(DEFAULT_REGISTRY.chain(1))
    assert grown.router(8453, ROUTER) == entry
    replaced = pinned.with_routers(SwapRouter(8453, ROUTER, output_format="g"))
    assert [r.output_format for r in replaced.routers] == ["g"]


@pytest.mark.parametrize(
    "bad",
    [
        {"chain_id": 0, "address": ROUTER},
        {"chain_id": 1, "address": "0x12"},
        {"chain_id": 1, "address": ROUTER, "output_format": ""},
    ],
)
def test_a_bad_router_entry_is_refused(bad: dict[str, object]) -> None:
    with pytest.raises(errors.InvalidInputError):
        SwapRouter(**bad)  # type: ignore[arg-type]


def test_formats_are_data() -> None:
    def decoder(hook_data: str, swap_calldata: str) -> list[RouterTerms]:
        return []

    added = DEFAULT_REGISTRY.with_router_format("mine-v1", decoder)
    assert added.router_formats["mine-v1"] is decoder
    assert "mine-v1" not in DEFAULT_REGISTRY.router_formats
    with pytest.raises(errors.InvalidInputError):
        DEFAULT_REGISTRY.with_router_format("", decoder)
    with pytest.raises(errors.InvalidInputError):
        Registry(router_formats={"x": "not callable"})  # type: ignore[dict-item]
    with pytest.raises(errors.InvalidInputError):
        Registry(routers=["0x12"])  # type: ignore[list-item]


@given(
    quote_id=st.binary(min_size=32, max_size=32),
    recipient=ADDRESSES,
    token=ADDRESSES,
    amount=st.integers(min_value=0, max_value=2**256 - 1),
    least=st.integers(min_value=0, max_value=2**256 - 1),
)
def test_the_sandbox_format_round_trips(
    quote_id: bytes, recipient: str, token: str, amount: int, least: int
) -> None:
    hook, call = encode_sandbox_router(
        quote_id=quote_id,
        recipient=recipient,
        token_out=token,
        amount_in=amount,
        min_amount_out=least,
    )
    hooked, called = decode_sandbox_router(hook, call)
    assert (hooked.recipient or "").lower() == recipient
    assert (called.recipient or "").lower() == recipient
    assert (hooked.token_out or "").lower() == token
    assert hooked.min_amount_out == called.min_amount_out == least
    assert called.amount_in == amount
    # Another quote id in the calldata: the two no longer belong together.
    other = call[:10] + ("00" if call[10:12] != "00" else "11") + call[12:]
    with pytest.raises(ValueError, match="different quotes"):
        decode_sandbox_router(hook, other)
