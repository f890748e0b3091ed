"""A user's script, typed as a user writes it: no ``None`` checks on what the services
always send.

CI runs ``mypy --strict`` over this file (see ``.ci/run``): every field used here
without a check must be typed as present. It also runs against the sandbox
(``tests/e2e/test_typed_user_script.py``), so what it reads is really there.
"""

from __future__ import annotations

from decimal import Decimal

from xswap_sdk import errors, from_units
from xswap_sdk.flash import Quote, SwapRecord, SwapSubmission
from xswap_sdk.relayer import RelayStatus
from xswap_sdk.routing import GaslessQuote, Route, Transaction
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.testing import TEST_SIGNER

USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
WETH_ARBITRUM = "0x82aF49447D8a07e3bd95BD0d56f35241523fBab1"


def best_route(sb: Sandbox) -> tuple[Route, Transaction]:
    """Quote, pick the route with the most output, build its transaction."""
    routing = sb.routing_client()
    routes = routing.get_quote(
        from_chain=8453,
        to_chain=42161,
        from_token=USDC_BASE,
        to_token=WETH_ARBITRUM,
        amount=100_000_000,
        sender=TEST_SIGNER.address,
    )
    route = max(routes, key=lambda r: r.amount_out)
    minimum: int = route.min_amount_out
    seconds: float = route.estimated_time_ms / 1000
    fee_usd: Decimal = route.fees.route_fee_usd + route.gas_fee.gas_fee_usd
    names = [step.provider.name for step in route.path]
    print(f"{route.route_kind} via {names}: >= {minimum}, {seconds:.0f} s, ${fee_usd:.4f}")
    tx = routing.build_path(route, TEST_SIGNER.address)
    calldata: str = tx.data
    target: str = tx.to
    chain: int = tx.chain
    print(f"send {len(calldata) // 2 - 1} bytes to {target} on chain {chain}")
    return route, tx


def gasless_quote(sb: Sandbox) -> GaslessQuote:
    """A gasless quote: its fee and deadline are always there."""
    quote = sb.routing_client().get_gasless_quote(
        from_chain=8453,
        to_chain=42161,
        from_token=USDC_BASE,
        to_token=WETH_ARBITRUM,
        amount=100_000_000,
        sender=TEST_SIGNER.address,
    )[0]
    fee: int = quote.fee.fee_amount
    deadline: int = quote.deadline
    print(f"gasless fee {from_units(fee, 6)} USDC, signable until {deadline}")
    return quote


def relay(sb: Sandbox) -> RelayStatus:
    """Relay a transaction; the record's fields are there without checks."""
    relayer = sb.relayer_client()
    tx_id = relayer.relay(chain_id=8453, to=USDC_BASE, call_data="0x")
    try:
        # `timeout` is each request's, not the wait's limit (timeout_ms): mypy flags it
        # (an unused ignore would fail --strict), and the wait refuses it before sending.
        relayer.wait_for_execution_hash(tx_id, timeout=30)  # type: ignore[call-arg]
    except errors.InvalidInputError as refused:
        print(f"refused: {refused.argument}")
    record = relayer.wait_for_execution_hash(tx_id)
    chain: int = record.chain_id
    value: int = record.value
    cost: Decimal = record.cost_usd
    print(f"{record.id} {record.status} on {chain}, value {value}, cost ${cost}")
    return record


def swap(sb: Sandbox) -> tuple[Quote, SwapSubmission, SwapRecord]:
    """Fund the gateway, quote, swap and wait; read the outcome without checks."""
    sb.fund(TEST_SIGNER.address, 8453, 30_000_000)
    flash = sb.flash_client(signer=TEST_SIGNER)
    quote = flash.get_quote(
        input_amount=20_000_000,
        output_token=WETH_ARBITRUM,
        chain_id=42161,
        sender=TEST_SIGNER.address,
        slippage="0.5",
    )
    out: int = quote.token_out.amount
    max_fee: int = quote.fees.gateway_fee
    print(f"quote: {from_units(out, 18):.6f} WETH, max fee {from_units(max_fee, 6)} USDC")
    submission = flash.swap(
        TEST_SIGNER,
        input_amount=20_000_000,
        output_token=WETH_ARBITRUM,
        chain_id=42161,
        slippage="0.5",
        wait=True,
    )
    tx_hash: str = submission.transaction_hash
    record = flash.wait_for_swap(tx_hash)
    amount: int = record.amount_usdc_raw
    print(f"{submission.status}: {tx_hash} moved {from_units(amount, 6)} USDC")
    page = flash.get_history()
    total: int = page.summary.total_swaps
    more: bool = page.pagination.has_next
    print(f"history: {total} swap(s), more pages: {more}")
    return quote, submission, record


def configured_clients(sb: Sandbox) -> None:
    """The sandbox's factories take their client's own keyword arguments, typed."""
    relayer = sb.relayer_client(timeout=5.0, max_retries=1, chain_list_ttl=60)
    routing = sb.async_routing_client(deadline=30.0)
    flash = sb.flash_client(signer=TEST_SIGNER, max_retries=0)
    gateway = sb.gateway_client(timeout=None)
    print(type(relayer).__name__, type(routing).__name__, type(flash).__name__, gateway)


def misspelled(sb: Sandbox) -> None:
    """Never run: a misspelled or mistyped argument is a type error (mypy --strict
    reports an ``ignore`` that is not needed, so these prove the factories are typed)."""
    sb.relayer_client(tiemout=5.0)  # type: ignore[call-arg]
    sb.async_flash_client(max_retries="2")  # type: ignore[arg-type]


def one_http_stack() -> None:
    """Never run: an app that already has an httpx2 client (the openai package's) hands
    it to the SDK, blocking and async alike, as it would an httpx one; both type-check."""
    import httpx
    import httpx2

    from xswap_sdk import AsyncRelayerClient, RelayerClient

    RelayerClient(api_key="...", http_client=httpx2.Client())
    AsyncRelayerClient(api_key="...", http_client=httpx2.AsyncClient())
    RelayerClient(api_key="...", http_client=httpx.Client())
    RelayerClient(api_key="...", http_client=httpx2.AsyncClient())  # type: ignore[arg-type]


def main() -> None:
    """Run each part against a fresh sandbox."""
    with Sandbox() as sb:
        best_route(sb)
        gasless_quote(sb)
        relay(sb)
        swap(sb)
        configured_clients(sb)


if __name__ == "__main__":
    main()
