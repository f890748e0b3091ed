"""Swap USDC from the gateway wallet into WETH on Base with the swap backend: log in,
read the balances, quote, then build, sign and submit the order step by step; then the
same in one call, waiting for the swap to complete.

Runs against the SDK's sandbox, an in-process emulator of the swap backend that checks
the login signature and the signed order as the backend does: no network, no funds
(the sandbox credits the gateway balances), and virtual time, so the wait costs nothing.
To use the real backend, build ``FlashClient(signer=your_wallet)`` instead of asking the
sandbox for one.

    python examples/flash_swap.py
"""

from __future__ import annotations

from xswap_sdk import format_amount, from_units
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.testing import TEST_SIGNER

WETH_ON_BASE = "0x4200000000000000000000000000000000000006"


def main() -> None:
    with Sandbox() as sb:
        wallet = TEST_SIGNER.address
        flash = sb.flash_client(signer=TEST_SIGNER)

        print("== log in with a wallet signature")
        session = flash.login()
        print(f"logged in as {session.user_address}")

        print("\n== gateway balances")
        # The sandbox's stand-in for depositing (FlashClient.deposit on a real chain).
        sb.fund(wallet, 8453, 15_000_000)
        sb.fund(wallet, 42161, 15_000_000)
        balances = flash.get_balance(wallet)
        for entry in balances.balances:
            print(f"  {entry.chain_name:13} {format_amount(entry.balance)}")

        print("\n== step by step: 20 USDC -> WETH on Base")
        quote = flash.get_quote(
            input_amount=20_000_000,
            output_token=WETH_ON_BASE,
            chain_id=8453,
            sender=wallet,
            slippage="0.5",
        )
        weth = from_units(quote.token_out.amount or 0, 18) if quote.token_out else 0
        print(f"quote: {weth:.6f} WETH")
        chains = flash.get_supported_chains()
        names = {chain.id: chain.display_name for chain in chains}
        # The fewest source chains, the largest usable balance first; each source also
        # holds the burn intent's maxFee.
        order = flash.build_order(quote, chains=chains, balances=balances, user=wallet)
        for source in order.sources:
            fee, value = format_amount(source.max_fee), format_amount(source.value)
            print(f"  from {names[source.chain_id]:13} {value} (max fee {fee})")
        signed = flash.sign_order(order, TEST_SIGNER)
        print(f"signed once, as a {order.primary_type}")
        submission = flash.submit_swap(signed, slippage_bps=50)
        print(f"submitted: {submission.transaction_hash} ({submission.status})")

        print("\n== in one call: 5 USDC -> WETH on Base, waiting for the outcome")
        # Raises QuoteRejectedError or InsufficientBalanceError before signing anything,
        # and SwapFailedError if the swap fails.
        submission = flash.swap(
            TEST_SIGNER,
            input_amount=5_000_000,
            output_token=WETH_ON_BASE,
            chain_id=8453,
            slippage="0.5",
            max_fee_cap=2_500_000,  # refuse a quote whose gateway fee is above 2.50 USDC
            wait=True,
        )
        record = submission.record
        assert record is not None  # wait=True: the completed swap
        print(f"{record.status}: {submission.transaction_hash}")

        print("\n== history")
        for past in flash.iter_history():
            print(f"  {past.transaction_hash} {past.status:9} {past.amount_usdc} USDC")
        print(f"left in the gateway: {format_amount(flash.get_balance(wallet).total_balance)}")


if __name__ == "__main__":
    main()
