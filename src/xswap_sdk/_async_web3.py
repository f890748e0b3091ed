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

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from . import _simulation
from ._chain_steps import ChainIO, check_connected
from ._logging import logger
from ._policy_scope import ACTIVE
from ._simulation_models import SentCall, SimulateOption, Simulation
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
from .errors import InvalidInputError, MissingCredentialsError, SimulationError, WaitTimeoutError
from .signing.call_reading import check_call, read_call
from .signing.calls import ContractCall, ViewCall
from .signing.signer import Signer, signer_address
from .types import _same_address

if TYPE_CHECKING:
    from eth_typing import ChecksumAddress
    from web3 import AsyncWeb3


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
        simulate=lambda sender, intents, option, movements_required=False: (
            async_check_by_simulation(
                web3, sender, intents, option, movements_required=movements_required
            )
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
        WaitTimeoutError: it was not mined within web3's wait (120 s by default); it may
            still be: resume the journey, never send it again.
    """
    try:
        receipt = await web3.eth.wait_for_transaction_receipt(tx_hash)  # type: ignore[arg-type]
    except Exception as exc:  # web3's TimeExhausted, without importing web3 here
        if type(exc).__name__ != "TimeExhausted":
            raise

        raise WaitTimeoutError(
            f"the {what} transaction {tx_hash} was not mined in time; it may still be: "
            "look it up (or resume the journey) before sending anything again",
            timeout=120.0,
        ) from None
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


async def _ask(web3: AsyncWeb3[Any], method: str, params: list[Any]) -> Any:
    """The node's JSON-RPC answer to ``method``, or an error answer when the provider
    itself failed."""
    try:
        provider: Any = web3.provider
        response: Any = await provider.make_request(method, params)
    except Exception as exc:  # any provider's own failure means: could not ask
        # Its type only: a provider's message can hold the node's URL, and so a key.
        response = {"error": f"the provider raised {type(exc).__name__}"}
    return response if isinstance(response, Mapping) else {"error": "no JSON-RPC answer"}


async def async_check_by_simulation(
    web3: AsyncWeb3[Any],
    sender: str,
    intents: Sequence[_simulation.Intent],
    simulate: SimulateOption,
    *,
    movements_required: bool = False,
) -> Simulation | None:
    """Check the transactions on web3's node with the best method it offers
    (`xswap_sdk.simulation`): ``eth_simulateV1``; else, for one transaction, a call
    trace with logs, then a plain ``eth_call``. ``None`` when not checked
    (``simulate=False``, or ``"auto"`` on a node that offers none, which is logged).

    ``movements_required``: a call the SDK cannot read is refused unless its movements
    were compared (``eth_simulateV1`` or the trace).

    Raises:
        SimulationError: a transaction would revert or breaks a rule of
            ``_simulation.RULES``; or ``simulate=True`` (or ``movements_required``) and
            the node cannot compare the movements.
    """
    if simulate is False or not intents:
        return None
    response = await _ask(web3, "eth_simulateV1", _simulation.simulate_params(sender, intents))
    reason = _simulation.unavailable(response)
    if reason is None:
        return _simulation.check_simulation(sender, intents, response["result"])
    checked: Simulation | None = None
    if len(intents) == 1:
        (intent,) = intents
        trace = await _ask(web3, "debug_traceCall", _simulation.trace_params(sender, intent))
        if not _simulation.unavailable_call(trace) and trace.get("error") is None:
            answer = _simulation.traced(trace.get("result"))
            return _simulation.check_simulation(sender, intents, answer, "debug_traceCall")
        plain = await _ask(web3, "eth_call", _simulation.call_params(sender, intent))
        revert = _simulation.reverted(plain)
        if revert is not None:
            raise SimulationError(f"the {intent.kind} transaction was called: {revert}")
        if not _simulation.unavailable_call(plain):
            checked = Simulation(transactions=(intent.kind,), movements=(), method="eth_call")
    if simulate is True or movements_required:
        why = "simulate=True" if simulate is True else "the call is not one the SDK can read"
        raise SimulationError(
            f"{why}, but the node could not simulate ({reason}) nor trace the call with "
            "its logs, so what it moves cannot be compared: use a node with "
            "eth_simulateV1, or pass simulate=False to send it unchecked"
        )
    if checked is not None:
        return checked
    logger.warning(
        "not simulated: the node could not simulate the %s transaction(s) (%s); "
        "sending without a simulation (pass simulate=True to require one)",
        "/".join(intent.kind for intent in intents),
        reason,
    )
    return None


async def async_send_call(
    web3: AsyncWeb3[Any],
    signer: Signer,
    call: ContractCall,
    *,
    simulate: SimulateOption,
    unsafe_any_call: bool = False,
) -> SentCall:
    """`xswap_sdk.simulation.async_send_call`: read, check, simulate, send and confirm."""
    checked = _simulation.check_simulate_option(simulate)
    if not isinstance(call, ContractCall):
        raise InvalidInputError("call", "must be a ContractCall from xswap_sdk.signing")
    sender = signer_address(signer)
    read = check_call(call, sender=sender, unsafe_any_call=unsafe_any_call)
    fields, intent = call_transaction(call, sender)
    check_connected(await async_chain_id(web3), call.chain_id)
    simulation = await async_check_by_simulation(
        web3, sender, [intent], checked, movements_required=read is None
    )
    tx_hash = await async_send_and_confirm(web3, signer, fields, call.function)
    return SentCall(call=call, tx_hash=tx_hash, simulation=simulation)


def call_transaction(call: ContractCall, sender: str) -> tuple[dict[str, Any], _simulation.Intent]:
    """The transaction fields of a `xswap_sdk.signing.ContractCall` sent by ``sender``,
    and what its simulation must show (`_simulation.intent_of_call`).

    Raises:
        InvalidInputError: the call acts on another account than ``sender``.
    """
    if call.sender is not None and not _same_address(call.sender, sender):
        raise InvalidInputError("signer", f"must be {call.sender}: {call.function} acts on it")

    fields = {"to": call.to, "data": call.data, "value": call.value}
    data = bytes.fromhex(call.data.removeprefix("0x"))
    # What the bytes call, never the label: a call the SDK cannot read means "call"
    # (nothing of the sender's may move).
    read = read_call(call.to, call.data, call.chain_id, sender=sender)
    function = read.function if read is not None else ""
    return fields, _simulation.intent_of_call(function, fields, data, sender)
