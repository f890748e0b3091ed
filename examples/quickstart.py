"""xswap-sdk in one run: swap USDC from two chains through the swap backend, relay a
transaction, route a gasless swap, and spend a Solana wallet's Circle Gateway balance on
Base, all against the built-in sandbox.

Needs nothing but the SDK installed from a checkout (``pip install .``): no account, no
key, no network. The
sandbox emulates the three services in-process, on virtual time, so the waits below
cost nothing. To talk to the real services, build the clients yourself
(``RelayerClient(api_key=...)`` and so on) instead of asking the sandbox for them.

    python examples/quickstart.py
"""

from __future__ import annotations

from xswap_sdk import format_amount, from_units
from xswap_sdk.chains import SOLANA
from xswap_sdk.gateway import apply_estimate, build_transfer_intent
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.signing import sign_burn_intent
from xswap_sdk.testing import TEST_SIGNER, TEST_SOLANA_SIGNER

USDC = {
    8453: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    42161: "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
}
WETH_ON_ARBITRUM = "0x82aF49447D8a07e3bd95BD0d56f35241523fBab1"
# ERC-20 transfer(address,uint256) of 1 USDC to the signer: any calldata will do.
TRANSFER_CALLDATA = (
    "0xa9059cbb"
    "0000000000000000000000005a3ca05337a87116a27a21b11cde16d85efb3586"
    "00000000000000000000000000000000000000000000000000000000000f4240"
)


def weth(amount: int) -> str:
    """Smallest WETH units (18 decimals) as a readable amount."""
    return f"{from_units(amount, 18):.6f} WETH"


def step(title: str) -> None:
    print(f"\n== {title}")


def swap_usdc_from_two_chains(sb: Sandbox) -> None:
    wallet = TEST_SIGNER.address
    step("Swap backend: log in with a wallet signature")
    flash = sb.flash_client(signer=TEST_SIGNER)
    session = flash.login()
    print(f"logged in as {session.user_address} (referral code {session.referral_code})")

    step("Swap backend: chains and their Circle Gateway contracts")
    chains = flash.get_supported_chains()
    for chain in chains:
        print(
            f"  {chain.display_name:13} chain {chain.id:<6} domain {chain.domain}  "
            f"USDC {chain.usdc.address}"
        )

    step("Swap backend: USDC in the gateway wallet")
    # The sandbox's stand-in for depositing (FlashClient.deposit on a real chain).
    sb.fund(wallet, 8453, 30_000_000)
    sb.fund(wallet, 42161, 25_000_000)
    balance = flash.get_balance(wallet)
    for entry in balance.balances:
        print(f"  {entry.chain_name:13} {format_amount(entry.balance)}")
    print(f"  {'total':13} {format_amount(balance.total_balance)}")

    step("Swap backend: quote 40 USDC -> WETH on Arbitrum")
    quote = flash.get_quote(
        input_amount=40_000_000,
        output_token=WETH_ON_ARBITRUM,
        chain_id=42161,
        sender=wallet,
        slippage="0.5",
    )
    print(
        f"out: {weth(quote.token_out.amount)}; "
        f"gateway fee up to {format_amount(quote.fees.gateway_fee)}, "
        f"execution fee {format_amount(quote.fees.execution_fee)}"
    )

    step("Swap backend: build, sign and submit an order from Base and Arbitrum")
    order = flash.build_order(
        quote, chains=chains, balances=balance, user=wallet,
        sources={8453: 25_000_000, 42161: 15_000_000},  # each also holds the max fee
    )  # fmt: skip
    for source in order.sources:
        print(f"  burn intent on chain {source.chain_id}: {format_amount(source.value)}")
    signed = flash.sign_order(order, TEST_SIGNER)
    print(f"signed once ({order.primary_type}) by {signed.signer}")
    submission = flash.submit_swap(signed, slippage_bps=50)
    print(f"submitted: {submission.status}, {submission.transaction_hash}")

    step("Swap backend: watch it complete in the history")
    record = flash.wait_for_swap(submission.transaction_hash, poll_interval=2)
    print(
        f"{record.status} at {record.updated_at}: {format_amount(record.amount_usdc)} -> WETH "
        f"(at least {weth(record.min_amount_out)})"
    )
    summary = flash.get_history().summary
    print(f"history: {summary.total_swaps} swap(s), {format_amount(summary.total_volume_raw)}")
    print(f"left in the gateway: {format_amount(flash.get_balance(wallet).total_balance)}")


def relay_a_transaction(sb: Sandbox) -> None:
    step("Relayer: submit a transaction and wait for its hash")
    relayer = sb.relayer_client()
    chains = [chain.name for chain in relayer.get_supported_chains()]
    print(f"chains: {', '.join(chains)}")
    tx_id = relayer.relay(chain_id=8453, to=USDC[8453], call_data=TRANSFER_CALLDATA)
    print(f"submitted: {tx_id} ({relayer.get_relay_status(tx_id).status})")
    record = relayer.wait_for_execution_hash(tx_id)
    print(f"{record.status} in {record.latency or 0:.0f} ms: {record.execution_tx_hash}")
    print(f"gas paid: ${record.cost_usd}")


def route_and_swap_gasless(sb: Sandbox) -> None:
    step("Routing: quote USDC on Base -> WETH on Arbitrum")
    # progress=True: each money journey (the gasless swap below) prints one line per
    # step on stderr: started, quoted, verified, signed, submitted, waiting, ...
    routing = sb.routing_client(progress=True)
    amount = 250_000_000
    routes = routing.get_quote(
        from_chain=8453,
        to_chain=42161,
        from_token=USDC[8453],
        to_token=WETH_ON_ARBITRUM,
        amount=amount,
        sender=TEST_SIGNER.address,
        slippage="0.5",
        route_mode="fastest",
    )
    for route in routes[:3]:
        providers = " + ".join(p.name for p in route.providers)
        print(
            f"  {providers:22} {weth(route.amount_out)} in {route.estimated_time_ms / 1000:.0f} s"
        )
    tx = routing.build_path(routes[0], TEST_SIGNER.address)
    print(f"to send yourself: {tx.to} on chain {tx.chain}, {len(tx.data) // 2 - 1} bytes")

    step("Routing: the same swap gasless (sign a Permit2 payload, the relayer pays gas)")
    result = routing.gasless_swap(
        TEST_SIGNER,
        from_chain=8453,
        to_chain=42161,
        from_token=USDC[8453],
        to_token=WETH_ON_ARBITRUM,
        amount=amount,
        wait=True,
    )
    status = result.record
    assert status is not None  # wait=True: the final status record
    print(f"swap {result.swap_id}: {result.status}")
    print(f"fee: {format_amount(status.fee_amount)}, out: {weth(status.amount_out)}")
    print(f"executed in {result.execution_tx_hash} (relayer tx {status.relayer_tx_id})")


def spend_a_solana_balance_on_base(sb: Sandbox) -> None:
    step("Circle Gateway: a Solana wallet's balance spent on Base (signed with Ed25519)")
    wallet = TEST_SOLANA_SIGNER.pubkey()  # base58; a solders Keypair signs the same way
    sb.fund(wallet, SOLANA, 10_000_000)
    gateway = sb.gateway_client()
    intent = build_transfer_intent(
        source_chain_id=SOLANA,
        destination_chain_id=8453,
        depositor=wallet,
        recipient=TEST_SIGNER.address,
        value=5_000_000,
    )
    [estimate] = gateway.estimate(intent)
    signed = sign_burn_intent(apply_estimate(intent, estimate), TEST_SOLANA_SIGNER)
    result = gateway.transfer(signed)
    mint = result.mint_call(8453)  # checked to mint exactly what was signed
    print(f"signed by {signed.signer} ({signed.scheme}); mint on Base: {mint.function}")
    print(f"transfer {result.transfer_id}: {gateway.wait_for_transfer(result.transfer_id).status}")


def main() -> None:
    with Sandbox() as sb:
        print(f"sandbox: {sb.base_url} (seed {sb.seed}), wallet {TEST_SIGNER.address}")
        swap_usdc_from_two_chains(sb)
        relay_a_transaction(sb)
        route_and_swap_gasless(sb)
        spend_a_solana_balance_on_base(sb)
        elapsed = sb.clock.monotonic()
        print(f"\ndone: {len(sb.requests)} requests, {elapsed:.0f} s of sandbox time")


if __name__ == "__main__":
    main()
