"""Signing speed: xswap-sdk's fixed-type EIP-712 encoder against eth_account's generic one.

For burn intent sets of 1, 5 and 16 intents (and a single intent and a permit), times in
one run:

- xswap-sdk: ``sign_burn_intent_set(intents, account)`` (precomputed type hashes, packed
  32-byte words, libsecp256k1 through coincurve);
- eth_account: ``encode_typed_data(full_message=typed_data)`` then
  ``Account.sign_message(signable, key)`` on the same intents' typed data.

It first checks both give the same signature, then prints the best time per signature
and the ratio. Run it with ``python benchmarks/signing.py``; it takes a few seconds.
"""

from __future__ import annotations

import os
import platform
import sys
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

try:
    import xswap_sdk  # noqa: F401
except ImportError:  # run from a checkout without installing the package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import coincurve
from _measure import Row, paired, us
from eth_account import Account
from eth_account.messages import encode_typed_data
from eth_hash.auto import keccak

from xswap_sdk.signing import (
    BurnIntent,
    build_burn_intent,
    burn_intent_set_typed_data,
    burn_intent_typed_data,
    permit_typed_data,
    sign_burn_intent,
    sign_burn_intent_set,
    sign_permit,
)

# A public test key (the shared vectors' key): never use it for funds.
KEY = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01789f8bd37"
ACCOUNT = Account.from_key(KEY)
WALLET = "0x77777777Dcc4d5A8B6E418Fd04D8997ef11000eE"
MINTER = "0x2222222d7164433c4C09B0b0D809a9b52C04C205"
USDC = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"
USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
ROUTER = "0x1111111254EEB25477B68fb85Ed929f73A960582"
GOAL_ROUNDS = 9
PERMIT = {
    "token_name": "USD Coin",
    "token_version": "2",
    "chain_id": 1,
    "token_address": USDC,
    "spender": WALLET,
    "value": 1_000_000,
    "nonce": 0,
    "deadline": 1_767_225_600,
}


def intents(count: int) -> list[BurnIntent]:
    return [
        build_burn_intent(
            source_domain=index % 8,
            destination_domain=6,
            source_contract=WALLET,
            destination_contract=MINTER,
            source_token=USDC,
            destination_token=USDC_BASE,
            user=ACCOUNT.address,
            recipient=ROUTER,
            value=1_000_000 * (index + 1),
            hook_data="0x" + "ab" * 68 if index % 2 else "0x",
            salt=index.to_bytes(32, "big"),
        )
        for index in range(count)
    ]


def eth_account_sign(typed_data: dict[str, Any]) -> str:
    signed = Account.sign_message(encode_typed_data(full_message=typed_data), KEY)
    return "0x" + bytes(signed.signature).hex()


def best_seconds(call: Callable[[], object], budget: float = 0.05) -> float:
    """Best time of one call over 3 rounds of about ``budget`` seconds each."""
    timer = timeit.Timer(call)
    number = max(1, int(budget / timer.timeit(number=1)))
    return min(timer.repeat(repeat=3, number=number)) / number


def cases() -> list[tuple[str, Callable[[], str], Callable[[], str]]]:
    rows: list[tuple[str, Callable[[], str], Callable[[], str]]] = []
    one = intents(1)[0]
    one_typed = burn_intent_typed_data(one)
    rows.append(
        (
            "BurnIntent (single)",
            lambda: sign_burn_intent(one, ACCOUNT).signature,
            lambda: eth_account_sign(one_typed),
        )
    )
    for count in (1, 5, 16):
        batch = intents(count)
        typed = burn_intent_set_typed_data(batch)
        rows.append(
            (
                f"BurnIntentSet of {count}",
                lambda batch=batch: sign_burn_intent_set(batch, ACCOUNT).signature,  # type: ignore[misc]
                lambda typed=typed: eth_account_sign(typed),  # type: ignore[misc]
            )
        )
    permit_typed = permit_typed_data(owner=ACCOUNT.address, **PERMIT)  # type: ignore[arg-type]
    rows.append(
        (
            "Permit (EIP-2612)",
            lambda: sign_permit(ACCOUNT, **PERMIT).signature,  # type: ignore[arg-type]
            lambda: eth_account_sign(permit_typed),
        )
    )
    return rows


def _hashed_inputs(batch: list[BurnIntent]) -> list[bytes]:
    """What EIP-712 hashes to sign this set, one input per keccak it prescribes, at
    their true sizes: each intent's hook data, its transfer spec (type hash, 13 words,
    the hook data's hash) and the intent (type hash, 2 words, the spec's hash); then the
    array of intent hashes, the set (type hash, the array's hash), and the final
    ``0x1901 || domain separator || set hash``."""
    inputs = []
    for intent in batch:
        inputs += [bytes.fromhex(intent.spec.hook_data[2:]), bytes(15 * 32), bytes(4 * 32)]
    return [*inputs, bytes(len(batch) * 32), bytes(2 * 32), bytes(2 + 2 * 32)]


def goal_rows() -> list[Row]:
    """The 5-intent set against eth_account, and against the floor: the keccak calls
    EIP-712 prescribes, over inputs of their true sizes, plus coincurve's
    ``sign_recoverable`` of the digest; no encoding, no checks, no models."""
    batch = intents(5)
    typed = burn_intent_set_typed_data(batch)
    ours = sign_burn_intent_set(batch, ACCOUNT)
    if ours.signature != eth_account_sign(typed):
        raise SystemExit("the SDK and eth_account gave different signatures")
    key = coincurve.PrivateKey(bytes.fromhex(KEY[2:]))
    inputs, digest = _hashed_inputs(batch), bytes.fromhex(ours.digest[2:])

    def floor() -> None:
        for data in inputs:
            keccak(data)
        key.sign_recoverable(digest, hasher=None)

    def best(call: Callable[[], object]) -> Callable[[], float]:
        return lambda: best_seconds(call, budget=0.02)

    theirs, mine, ratio = paired(
        best(lambda: eth_account_sign(typed)),
        best(lambda: sign_burn_intent_set(batch, ACCOUNT)),
        GOAL_ROUNDS,
    )
    floor_time, mine_again, floor_ratio = paired(
        best(floor), best(lambda: sign_burn_intent_set(batch, ACCOUNT)), GOAL_ROUNDS
    )
    return [
        Row(
            "5-intent `BurnIntentSet` signature",
            us(mine),
            f"`eth_account` encode + sign: {us(theirs)}",
            1 / ratio,
            ">= 5x faster",
            1 / ratio >= 5,
        ),
        Row(
            "the same",
            us(mine_again),
            f"floor (EIP-712's keccaks + `sign_recoverable`): {us(floor_time)}",
            floor_ratio,
            "<= 2x",
            floor_ratio <= 2,
        ),
    ]


def main() -> None:
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores; "
        f"coincurve {coincurve.__version__ if hasattr(coincurve, '__version__') else ''}".rstrip()
    )
    print(f"{'case':<22} {'xswap-sdk':>12} {'eth_account':>12} {'ratio':>8}")
    for name, ours, theirs in cases():
        if ours() != theirs():
            raise SystemExit(f"{name}: the two paths gave different signatures")
        our_time, their_time = best_seconds(ours), best_seconds(theirs)
        print(
            f"{name:<22} {our_time * 1e6:>9.0f} us {their_time * 1e6:>9.0f} us "
            f"{their_time / our_time:>7.1f}x"
        )


if __name__ == "__main__":
    main()
