"""The whole gateway balance journey: deposit by EIP-3009 authorization (relayed, no
RPC), wait for the deposit to finalize at Circle, swap, check the balance independently,
move USDC to another chain through Circle Gateway and follow the burn, then prepare a
withdrawal.

Runs against the SDK's sandbox, which emulates the swap backend, the relayer and Circle
Gateway's API: no network, no funds, and virtual time, so the 20 minutes of finality
cost nothing. The sandbox has no chain, so the deposit the relayer would execute is
simulated with ``sb.gateway.deposit`` (which funds the balances as ``sb.fund`` does,
and lets Circle count it only once final). On a real chain, relay the same calldata
with ``RelayerClient`` and point ``GatewayClient()`` at Circle.

    python examples/gateway_journey.py
"""

from __future__ import annotations

from xswap_sdk import format_amount
from xswap_sdk.gateway import apply_estimate, build_transfer_intent
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.signing import (
    initiate_withdrawal_call,
    prepare_deposit_with_authorization,
    sign_burn_intent,
    withdraw_call,
    withdrawable_balance_call,
)
from xswap_sdk.testing import TEST_SIGNER

BASE, ARBITRUM = 8453, 42161
WETH_ON_BASE = "0x4200000000000000000000000000000000000006"


def main() -> None:
    with Sandbox() as sb:
        me = TEST_SIGNER.address
        gateway = sb.gateway_client()
        relayer = sb.relayer_client()
        flash = sb.flash_client(signer=TEST_SIGNER)

        print("== 1. deposit 30 USDC on Base by authorization, through the relayer")
        deposit = prepare_deposit_with_authorization(TEST_SIGNER, chain_id=BASE, value=30_000_000)
        authorization = deposit.authorization
        print(f"signed ReceiveWithAuthorization for {authorization.to} (the GatewayWallet)")
        print(f"  nonce {authorization.nonce[:18]}... (random: nothing read from the chain)")
        print(f"calldata to relay: {deposit.data[:10]} ({(len(deposit.data) - 2) // 2} bytes)")
        tx_id = relayer.relay(**deposit.relay_arguments())
        print(f"relayer: {relayer.wait_for_execution_hash(tx_id).status}")
        sb.gateway.deposit(me, BASE, 30_000_000)  # what that transaction does on chain

        print("\n== 2. wait until Circle counts it (the block must be final)")
        started = sb.clock.monotonic()
        entry = gateway.wait_for_gateway_balance(me, BASE, at_least=30_000_000)
        minutes = (sb.clock.monotonic() - started) / 60
        print(f"deposit final after {minutes:.0f} min: {format_amount(entry.balance)} on Base")

        print("\n== 3. swap 20 USDC into WETH on Base")
        swapped = flash.swap(
            TEST_SIGNER,
            input_amount=20_000_000,
            output_token=WETH_ON_BASE,
            chain_id=BASE,
            slippage="0.5",
            wait=True,
        )
        print(f"swap {swapped.record.status if swapped.record else swapped.status}")

        print("\n== 4. the balance, as Circle sees it")
        for balance in gateway.get_balances(me).balances:
            print(f"  domain {balance.domain}: {format_amount(balance.balance)}")

        print("\n== 5. move 5 USDC to Arbitrum through Circle Gateway")
        intent = build_transfer_intent(
            source_chain_id=BASE,
            destination_chain_id=ARBITRUM,
            depositor=me,
            recipient=me,
            value=5_000_000,
        )
        [estimated] = gateway.estimate(intent)
        # Only Gateway's fee and height are taken, after checking its answer is our spec.
        intent = apply_estimate(intent, estimated)
        print(f"Gateway asks a max fee of {format_amount(intent.max_fee)}")
        result = gateway.transfer(sign_burn_intent(intent, TEST_SIGNER))
        print(f"attested: transfer {result.transfer_id}")
        mint = result.mint_call(ARBITRUM)
        print(f"mint on Arbitrum: {mint.function} on {mint.to}")
        done = gateway.wait_for_transfer(result.transfer_id)
        print(f"transfer {done.status}")

        print("\n== 6. withdraw 1 USDC on Base, one day (sent by the depositor itself)")
        start = initiate_withdrawal_call(chain_id=BASE, value=1_000_000, depositor=me)
        finish = withdraw_call(chain_id=BASE, depositor=me)
        check = withdrawable_balance_call(chain_id=BASE, depositor=me)
        print(f"  {start.function} from {start.sender}")
        print(f"  then, after withdrawalDelay() blocks: {finish.function}")
        print(f"  read {check.function} to know when")
        print(f"left at Circle: {format_amount(gateway.get_balances(me).total)}")


if __name__ == "__main__":
    main()
