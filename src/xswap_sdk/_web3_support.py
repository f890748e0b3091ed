"""What the SDK's web3 calls share that does no I/O: ABIs, call data, fee rules.

The reads and sends themselves are written once in ``_async_web3.py`` (and generated
into ``_sync_web3.py``); web3 is imported only when one of them runs (the ``web3``
extra), so ``import xswap_sdk`` works without it.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Final

from ._lazy import install_hint
from .errors import SwapFailedError

__all__ = [
    "TOKEN_ABI",
    "PermitFacts",
    "allowance_call",
    "checked_receipt",
    "hex_string",
    "no_version_errors",
    "set_fees",
    "transaction_gate",
    "uint_from",
]

TOKEN_ABI: Final[list[dict[str, Any]]] = [
    {
        "type": "function",
        "name": name,
        "stateMutability": "view",
        "inputs": inputs,
        "outputs": [{"name": "", "type": output}],
    }
    for name, inputs, output in (
        ("name", [], "string"),
        ("version", [], "string"),
        ("nonces", [{"name": "owner", "type": "address"}], "uint256"),
        ("DOMAIN_SEPARATOR", [], "bytes32"),
    )
]
"""The token views a permit or an authorization needs (EIP-2612, EIP-712)."""


@dataclass(frozen=True, slots=True)
class PermitFacts:
    """What signing a token's permit needs from the chain.

    Attributes:
        name: the token's ``name()``.
        version: its ``version()``, or ``None`` when it has none.
        domain_separator: its ``DOMAIN_SEPARATOR()``, or ``None`` when it has none.
        nonce: the owner's permit nonce (``nonces(owner)``).
        chain_id: the chain web3 is connected to.
    """

    name: str
    version: str | None
    domain_separator: bytes | None
    nonce: int
    chain_id: int


_ALLOWANCE: Final = "0xdd62ed3e"  # allowance(address,address)


def allowance_call(token: str, owner: str, spender: str) -> dict[str, Any]:
    """The ``eth_call`` fields of ``token.allowance(owner, spender)``."""
    words = "".join(address[2:].lower().rjust(64, "0") for address in (owner, spender))
    return {"to": token, "data": _ALLOWANCE + words}


def uint_from(raw: Any, what: str) -> int:
    """A uint256 answer of an ``eth_call``."""
    data = bytes(raw)
    if len(data) != 32:
        raise SwapFailedError(f"{what} answered {len(data)} bytes, not a uint256")
    return int.from_bytes(data, "big")


def hex_string(value: Any) -> str:
    """A transaction hash as ``0x`` hex, whatever web3 returned it as."""
    text = value.hex() if isinstance(value, bytes | bytearray) else str(value)
    return text if text.startswith("0x") else "0x" + text


def set_fees(fields: dict[str, Any], base_fee: int | None, tip: int, gas_price: int) -> None:
    """Fee fields for a transaction signed locally: legacy without a base fee, else
    EIP-1559 with the usual wallet rule (room for the base fee to double, plus the tip)."""
    if base_fee is None:
        fields["gasPrice"] = gas_price
    else:
        fields["maxPriorityFeePerGas"] = tip
        fields["maxFeePerGas"] = 2 * base_fee + tip


def checked_receipt(receipt: Any, what: str, tx_hash: str) -> str:
    """``tx_hash`` when its receipt says it succeeded.

    Raises:
        SwapFailedError: it reverted.
    """
    if int(receipt["status"]) != 1:
        raise SwapFailedError(f"the {what} transaction {tx_hash} reverted", record=receipt)
    return tx_hash


def no_version_errors() -> tuple[type[Exception], ...]:
    """What a call to a function the token lacks (``version()``) makes web3 raise."""
    try:
        from web3.exceptions import BadFunctionCallOutput, ContractLogicError, Web3ValueError
    except ImportError as exc:
        raise ImportError(f"reading a token needs web3, from {install_hint('web3')}") from exc
    errors: tuple[type[Exception], ...] = (
        ContractLogicError,
        BadFunctionCallOutput,
        Web3ValueError,
    )
    try:
        # web3's in-process EthereumTesterProvider lets eth-tester's own revert through.
        from eth_tester.exceptions import TransactionFailed
    except ImportError:
        return errors
    return (*errors, TransactionFailed)


def transaction_gate(owner: str, fields: Mapping[str, Any]) -> AbstractContextManager[object]:
    """The signing gate (`xswap_sdk.signing._gate.passing`) for a transaction that
    ``owner`` is about to sign, or have its node sign and send: every signing policy in
    force must allow it first. Nothing at all while no policy is in force."""
    # lazy: the signer (coincurve), only when a transaction is signed or sent
    from .signing.signer import _gated

    described = dict(fields)
    return _gated(lambda gate: gate.describe_transaction(owner, described))
