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

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from . import _simulation
from ._chain_steps import ChainIO, check_connected
from ._logging import logger
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

    from .signing.calls import ContractCall, ViewCall
    from .signing.signer import Signer
    from .simulation import SentCall, SimulateOption, Simulation

__all__ = [
    "async_allowance",
    "async_broadcast",
    "async_chain_io",
    "async_receipt",
    "async_sign_transaction",
    "async_chain_id",
    "async_permit_facts",
    "async_read_views",
    "async_send_and_confirm",
    "async_send_call",
    "async_send_transaction",
    "async_check_by_simulation",
    "async_token_domain",
    "async_wait_for_success",
    "call_transaction",
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


async def async_read_views(
    web3: AsyncWeb3[Any], on_chain: int, calls: Sequence[ViewCall]
) -> list[int]:
    """Each view's answer (``eth_call``), once web3 is checked to be on ``on_chain``.

    Raises:
        InvalidInputError: web3 is on another chain (argument ``web3``).
    """
    check_connected(await async_chain_id(web3), on_chain)
    return [call.decode(await web3.eth.call(call.to_call())) for call in calls]  # type: ignore[arg-type]


async def async_send_transaction(
    web3: AsyncWeb3[Any], signer: Signer, fields: dict[str, Any]
) -> str:
    """Send a transaction from the signer; return its hash (not waiting for it)."""
    complete, raw = await async_sign_transaction(web3, signer, fields)
    return await async_broadcast(web3, complete, raw)


def async_chain_io(web3: AsyncWeb3[Any], signer: Signer | None) -> ChainIO:
    """These helpers bound to ``web3`` and ``signer``, for a journey's `Chain` steps
    (``signer`` is ``None`` on resume, which never signs): the reads a journey makes
    before it signs (chain id, allowance, simulation) and its sends."""
    from .errors import MissingCredentialsError

    def sign(fields: dict[str, Any]) -> Any:
        if signer is None:
            raise MissingCredentialsError(
                "signer", "is needed to sign the transaction: pass signer= or set XSWAP_PRIVATE_KEY"
            )
        return async_sign_transaction(web3, signer, fields)

    return ChainIO(
        sign=sign,
        broadcast=lambda fields, raw: async_broadcast(web3, fields, raw),
        confirm=lambda tx_hash, what: async_wait_for_success(web3, tx_hash, what),
        receipt=lambda tx_hash: async_receipt(web3, tx_hash),
        chain_id=lambda: async_chain_id(web3),
        allowance=lambda token, owner, spender: async_allowance(web3, token, owner, spender),
        simulate=lambda sender, intents, option: async_check_by_simulation(
            web3, sender, intents, option
        ),
        token_domain=lambda token: async_token_domain(web3, token),
        permit_facts=lambda token, owner: async_permit_facts(web3, token, owner),
    )


async def async_sign_transaction(
    web3: AsyncWeb3[Any], signer: Signer, fields: dict[str, Any]
) -> tuple[dict[str, Any], str | None]:
    """The transaction from the signer, completed, and its signed raw bytes (0x hex) when
    the signer signs locally (nonce, chain, gas and fees read from the node); ``None``
    when the node holds the account and signs it as `async_broadcast` sends it."""
    # Imported here: the signing package's permit deposit imports this module.
    from .signing.signer import signer_address

    owner = signer_address(signer)
    fields = {**fields, "from": owner}
    sign = getattr(signer, "sign_transaction", None)
    if sign is None:
        return fields, None
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
    return fields, hex_string(signed.raw_transaction)


async def async_broadcast(web3: AsyncWeb3[Any], fields: dict[str, Any], raw: str | None) -> str:
    """Send a transaction `async_sign_transaction` made: its raw bytes, or, when the node
    signs, its fields (every signing policy in force allows them first). Return its hash."""
    if raw is not None:
        return hex_string(await web3.eth.send_raw_transaction(raw))  # type: ignore[arg-type]
    # The node signs: the policies see the chain it is on.
    described = {**fields, "chainId": await async_chain_id(web3)} if ACTIVE.get() else fields
    with transaction_gate(str(fields["from"]), described):
        return hex_string(await web3.eth.send_transaction(fields))  # type: ignore[arg-type]


async def async_receipt(web3: AsyncWeb3[Any], tx_hash: str) -> dict[str, Any] | None:
    """What the SDK reads of the transaction's receipt (``status``, ``blockNumber``), or
    ``None`` when the node has none (not mined, or never seen): a look, not a wait."""
    try:
        receipt = await web3.eth.get_transaction_receipt(tx_hash)  # type: ignore[arg-type]
    except Exception as exc:  # web3's TransactionNotFound, without importing web3 here
        if type(exc).__name__ == "TransactionNotFound":
            return None
        raise
    return {"status": int(receipt["status"]), "blockNumber": int(receipt["blockNumber"])}


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


async def async_check_by_simulation(
    web3: AsyncWeb3[Any],
    sender: str,
    intents: Sequence[_simulation.Intent],
    simulate: SimulateOption,
) -> Simulation | None:
    """Simulate the transactions in order on web3's node and compare their movements
    with the intents; ``None`` when not simulated (``simulate=False``, or ``"auto"`` on a
    node without ``eth_simulateV1``, which is logged).

    Raises:
        SimulationError: a transaction would revert or breaks a rule of
            ``_simulation.RULES``, or ``simulate=True`` and the node cannot simulate.
    """
    from .errors import SimulationError

    if simulate is False or not intents:
        return None
    params = _simulation.simulate_params(sender, intents)
    try:
        provider: Any = web3.provider
        response: Any = await provider.make_request("eth_simulateV1", params)
    except Exception as exc:  # any provider's own failure means: could not simulate
        # Its type only: a provider's message can hold the node's URL, and so a key.
        response = {"error": f"the provider raised {type(exc).__name__}"}
    reason = _simulation.unavailable(response)
    if reason is None:
        return _simulation.check_simulation(sender, intents, response["result"])
    if simulate is True:
        raise SimulationError(f"simulate=True, but the node could not simulate: {reason}")
    logger.warning(
        "not simulated: the node could not simulate the %s transaction(s) (%s); "
        "sending without a simulation (pass simulate=True to require one)",
        "/".join(intent.kind for intent in intents),
        reason,
    )
    return None


async def async_send_call(
    web3: AsyncWeb3[Any], signer: Signer, call: ContractCall, *, simulate: SimulateOption
) -> SentCall:
    """`xswap_sdk.simulation.async_send_call`: check, simulate, send and confirm."""
    from .errors import InvalidInputError
    from .signing.calls import ContractCall
    from .signing.signer import signer_address
    from .simulation import SentCall

    checked = _simulation.check_simulate_option(simulate)
    if not isinstance(call, ContractCall):
        raise InvalidInputError("call", "must be a ContractCall from xswap_sdk.signing")
    sender = signer_address(signer)
    fields, intent = call_transaction(call, sender)
    check_connected(await async_chain_id(web3), call.chain_id)
    simulation = await async_check_by_simulation(web3, sender, [intent], checked)
    tx_hash = await async_send_and_confirm(web3, signer, fields, call.function)
    return SentCall(call=call, tx_hash=tx_hash, simulation=simulation)


def call_transaction(call: ContractCall, sender: str) -> tuple[dict[str, Any], _simulation.Intent]:
    """The transaction fields of a `xswap_sdk.signing.ContractCall` sent by ``sender``,
    and what its simulation must show (`_simulation.intent_of_call`).

    Raises:
        InvalidInputError: the call acts on another account than ``sender``.
    """
    from .errors import InvalidInputError

    if call.sender is not None and call.sender.lower() != sender.lower():
        raise InvalidInputError("signer", f"must be {call.sender}: {call.function} acts on it")
    fields = {"to": call.to, "data": call.data, "value": call.value}
    data = bytes.fromhex(call.data.removeprefix("0x"))
    return fields, _simulation.intent_of_call(call.function, fields, data, sender)
