"""Every read and send the SDK makes through web3, written once, for `web3.AsyncWeb3`.

The hand-written source of ``_sync_web3.py`` (the same, for `web3.Web3`), which
``scripts/unasync.py`` generates. Deposits, permits and route execution all go through
these few functions: a transaction is signed locally when the signer can sign one (an
`eth_account` ``LocalAccount``, with nonce, gas and fees read from the node), and handed
to the node with ``eth_sendTransaction`` otherwise (a node that holds the account).
web3 itself is imported by the caller that owns the ``web3`` object: nothing here
imports it at run time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ._policy_scope import ACTIVE
from ._web3_support import (
    TOKEN_ABI,
    PermitFacts,
    allowance_call,
    checked_receipt,
    hex_string,
    no_version_errors,
    set_fees,
    transaction_gate,
    uint_from,
)

if TYPE_CHECKING:
    from eth_typing import ChecksumAddress
    from web3 import AsyncWeb3

    from .signing.signer import Signer

__all__ = [
    "async_allowance",
    "async_chain_id",
    "async_permit_facts",
    "async_send_and_confirm",
    "async_send_transaction",
    "async_token_domain",
    "async_wait_for_success",
]


async def async_chain_id(web3: AsyncWeb3[Any]) -> int:
    """The chain id web3 is connected to."""
    return int(await web3.eth.chain_id)


async def async_token_domain(web3: AsyncWeb3[Any], token: str) -> tuple[str, str | None]:
    """The token's EIP-712 ``name()`` and ``version()`` (``None`` when it has none)."""
    missing = no_version_errors()
    contract = web3.eth.contract(address=cast("ChecksumAddress", token), abi=TOKEN_ABI)
    name: str = await contract.functions.name().call()
    try:
        version: str | None = await contract.functions.version().call()
    except missing:
        version = None
    return name, version


async def async_permit_facts(web3: AsyncWeb3[Any], token: str, owner: str) -> PermitFacts:
    """The token's domain, the owner's permit nonce and the chain id."""
    missing = no_version_errors()
    name, version = await async_token_domain(web3, token)
    contract = web3.eth.contract(address=cast("ChecksumAddress", token), abi=TOKEN_ABI)
    try:
        separator: bytes | None = await contract.functions.DOMAIN_SEPARATOR().call()
    except missing:
        separator = None
    nonce: int = await contract.functions.nonces(owner).call()
    return PermitFacts(name, version, separator, nonce, await async_chain_id(web3))


async def async_allowance(web3: AsyncWeb3[Any], token: str, owner: str, spender: str) -> int:
    """``token.allowance(owner, spender)``."""
    call = allowance_call(token, owner, spender)
    return uint_from(await web3.eth.call(call), "allowance()")  # type: ignore[arg-type]


async def async_send_transaction(
    web3: AsyncWeb3[Any], signer: Signer, fields: dict[str, Any]
) -> str:
    """Send a transaction from the signer; return its hash (not waiting for it)."""
    # Imported here: the signing package's permit deposit imports this module.
    from .signing.signer import signer_address

    owner = signer_address(signer)
    fields = {**fields, "from": owner}
    sign = getattr(signer, "sign_transaction", None)
    if sign is None:
        # The node signs: the policies see the chain it is on.
        described = {**fields, "chainId": await async_chain_id(web3)} if ACTIVE.get() else fields
        with transaction_gate(owner, described):
            return hex_string(await web3.eth.send_transaction(fields))  # type: ignore[arg-type]
    fields["nonce"] = await web3.eth.get_transaction_count(owner, "pending")  # type: ignore[arg-type]
    fields["chainId"] = await async_chain_id(web3)
    if fields.get("gas") is None:
        fields["gas"] = await web3.eth.estimate_gas(fields)  # type: ignore[arg-type]
    base_fee = (await web3.eth.get_block("latest")).get("baseFeePerGas")
    tip = await web3.eth.max_priority_fee if base_fee is not None else 0
    gas_price = await web3.eth.gas_price if base_fee is None else 0
    set_fees(fields, base_fee, tip, gas_price)
    with transaction_gate(owner, fields):
        signed = sign(fields)
    return hex_string(await web3.eth.send_raw_transaction(signed.raw_transaction))


async def async_wait_for_success(web3: AsyncWeb3[Any], tx_hash: str, what: str) -> str:
    """Wait until the transaction is mined; return its hash.

    Raises:
        SwapFailedError: it reverted.
    """
    receipt = await web3.eth.wait_for_transaction_receipt(tx_hash)  # type: ignore[arg-type]
    return checked_receipt(receipt, what, tx_hash)


async def async_send_and_confirm(
    web3: AsyncWeb3[Any], signer: Signer, fields: dict[str, Any], what: str
) -> str:
    """`async_send_transaction`, then `async_wait_for_success`: return the hash of a
    transaction that succeeded.

    Raises:
        SwapFailedError: it reverted.
    """
    tx_hash = await async_send_transaction(web3, signer, fields)
    return await async_wait_for_success(web3, tx_hash, what)
