"""Calls to Circle Gateway's contracts, built without web3: the bytes-signature permit
deposit, withdrawals, the balance views, delegates, and ``gatewayMint``.

Every call targets a contract of `xswap_sdk.registry` for the chain asked for (the
GatewayWallet, or the GatewayMinter for a mint) and names the chain's native USDC as
the token: nothing comes from a service. Each builder returns a `ContractCall` (or a
`ViewCall` for a read) to send with web3 or, where anyone may send it, through the
relayer.

The withdrawal path, per Circle's GatewayWallet:

1. ``initiateWithdrawal(token, value)`` moves ``value`` from the available balance to
   the withdrawing one (which burn intents can no longer spend) and starts a delay of
   ``withdrawalDelay()`` blocks; a second call adds to it and restarts the delay.
2. After the delay, ``withdrawableBalance`` equals the withdrawing balance and
   ``withdraw(token)`` sends all of it to the depositor.

Both act on ``msg.sender``, as do ``addDelegate`` and ``removeDelegate``: their calls
name the depositor as the account that must send them (`ContractCall.sender`) and
refuse to be relayed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, overload

from .._models import check_argument
from ..errors import InvalidInputError
from ..registry import DEFAULT_REGISTRY, GatewayChain, Registry
from ..types import Address, HexBytes
from ._fields import Uint256, require_addresses
from .attestations import ExpectedIntents, check_attestation, check_solana_attestation
from .calls import ContractCall, ViewCall
from .deposit import DEPOSIT_WITH_PERMIT_SELECTOR, _permit_calldata
from .permit import PermitSignature
from .solana_programs import SolanaKey, gateway_mint_instruction

if TYPE_CHECKING:
    from solders.instruction import Instruction


__all__ = [
    "DEPOSIT_WITH_PERMIT_BYTES_SELECTOR",
    "SELECTORS",
    "add_delegate_call",
    "available_balance_call",
    "deposit_with_permit_bytes_calldata",
    "deposit_with_permit_call",
    "gateway_mint_call",
    "initiate_withdrawal_call",
    "is_authorized_for_balance_call",
    "remove_delegate_call",
    "total_balance_call",
    "withdraw_call",
    "withdrawable_balance_call",
    "withdrawal_block_call",
    "withdrawal_delay_call",
    "withdrawing_balance_call",
]

DEPOSIT_WITH_PERMIT_BYTES_SELECTOR = "0x26a3fb30"
"""``depositWithPermit(address,address,uint256,uint256,bytes)``: the overload taking one
``bytes`` signature (ERC-7597), for contract wallets."""

SELECTORS: dict[str, str] = {
    "depositWithPermit(address,address,uint256,uint256,uint8,bytes32,bytes32)": (
        DEPOSIT_WITH_PERMIT_SELECTOR
    ),
    "depositWithPermit(address,address,uint256,uint256,bytes)": DEPOSIT_WITH_PERMIT_BYTES_SELECTOR,
    "initiateWithdrawal(address,uint256)": "0xc8393ba9",
    "withdraw(address)": "0x51cff8d9",
    "availableBalance(address,address)": "0x3ccb64ae",
    "withdrawingBalance(address,address)": "0xdf0c6690",
    "withdrawableBalance(address,address)": "0x3bbe1ecd",
    "totalBalance(address,address)": "0x1453b987",
    "withdrawalDelay()": "0xa7ab6961",
    "withdrawalBlock(address,address)": "0xfefeec13",
    "addDelegate(address,address)": "0xe909ebfa",
    "removeDelegate(address,address)": "0x020d308d",
    "isAuthorizedForBalance(address,address,address)": "0x74392bf3",
    "gatewayMint(bytes,bytes)": "0x9fb01cc5",
    "isTransferSpecHashUsed(bytes32)": "0x17580158",
}
"""The 4-byte selector of every gateway function the SDK calls, by Solidity signature
(checked against Circle's compiled ABI and keccak256 in the tests)."""

_ZERO_DEPOSIT_RULE = (
    "must be positive: the gateway wallet refuses a deposit of 0 (DepositValueMustBePositive)"
)
_ZERO_ADDRESS = "0x" + "0" * 40


def _encode(function: str, values: list[Any]) -> str:
    # Imported here: eth_abi builds its type grammar on import (about 0.1 s).
    from eth_abi.abi import encode

    types = function[function.index("(") + 1 : -1]
    return SELECTORS[function] + encode([t for t in types.split(",") if t], values).hex()


def _any_chain(chain_id: object, registry: Registry | None) -> GatewayChain:
    if isinstance(chain_id, bool) or not isinstance(chain_id, int) or chain_id < 1:
        raise InvalidInputError("chain_id", "must be a positive int")
    return (DEFAULT_REGISTRY if registry is None else registry).chain(chain_id)


def _chain(chain_id: object, registry: Registry | None) -> GatewayChain:
    return _any_chain(chain_id, registry).require_evm()


def _address(argument: str, value: object) -> str:
    checked: str = check_argument(argument, Address, value)
    return checked


def _wallet_call(
    chain: GatewayChain, function: str, values: list[Any], *, sender: str | None = None
) -> ContractCall:
    return ContractCall(
        to=chain.gateway_wallet,
        data=_encode(function, values),
        chain_id=chain.chain_id,
        function=function,
        sender=sender,
    )


def _view(
    chain: GatewayChain,
    function: str,
    values: list[Any],
    returns: Literal["uint256", "bool"] = "uint256",
) -> ViewCall:
    return ViewCall(
        to=chain.gateway_wallet,
        data=_encode(function, values),
        chain_id=chain.chain_id,
        function=function,
        returns=returns,
    )


# ------------------------------------------------------------------------------ deposits


def deposit_with_permit_bytes_calldata(
    *, token: str, owner: str, value: int | str, deadline: int | str, signature: str
) -> str:
    """Calldata for ``depositWithPermit(token, owner, value, deadline, signature)``, the
    overload taking one ``bytes`` signature (selector ``0x26a3fb30``).

    A contract wallet's signature (ERC-1271) may have any length; an EOA's is
    ``r || s || v``, 65 bytes.

    Args:
        token: the USDC contract.
        owner: the depositor, who signed the permit.
        value: the amount, in smallest units, more than 0.
        deadline: the permit's deadline.
        signature: the signature bytes, ``0x`` hex.

    Returns:
        The calldata, ``0x`` hex.

    Raises:
        InvalidInputError: naming the first bad argument, a ``value`` of 0, or an empty
            signature.
    """
    checked_token = _address("token", token)
    checked_owner = _address("owner", owner)
    units: int = check_argument("value", Uint256, value)
    if units == 0:
        raise InvalidInputError("value", _ZERO_DEPOSIT_RULE)
    checked_deadline: int = check_argument("deadline", Uint256, deadline)
    raw: str = check_argument("signature", HexBytes, signature)
    if raw == "0x":
        raise InvalidInputError("signature", "must not be empty")
    return _encode(
        "depositWithPermit(address,address,uint256,uint256,bytes)",
        [checked_token, checked_owner, units, checked_deadline, bytes.fromhex(raw[2:])],
    )


def deposit_with_permit_call(
    permit: PermitSignature,
    *,
    signature_form: Literal["vrs", "bytes"] = "vrs",
    registry: Registry | None = None,
) -> ContractCall:
    """The ``depositWithPermit`` call that redeems a signed permit, in either overload.

    Args:
        permit: from `sign_permit` (or `prepare_deposit_with_permit`'s ``permit``),
            whose spender is the chain's GatewayWallet and token its USDC.
        signature_form: ``"vrs"`` (selector ``0x8ef59739``) or ``"bytes"``
            (``0x26a3fb30``, the overload contract wallets need).
        registry: the pinned chains; `xswap_sdk.registry.DEFAULT_REGISTRY` when not
            given.

    Returns:
        The call on the registry's GatewayWallet; anyone may send it.

    Raises:
        InvalidInputError: an unknown ``signature_form``, or a ``value`` of 0.
        UnsafePayloadError: the permit's spender is not the chain's GatewayWallet or
            its token not the chain's USDC, per the registry (or the registry does not
            know the chain).
    """
    chain = _chain(permit.chain_id, registry)
    require_addresses(
        ("permit.spender", permit.spender, chain.gateway_wallet),
        ("permit.token_address", permit.token_address, chain.usdc),
    )
    if signature_form == "vrs":
        data = _permit_calldata(permit.token_address, permit)
        function = "depositWithPermit(address,address,uint256,uint256,uint8,bytes32,bytes32)"
    elif signature_form == "bytes":
        data = deposit_with_permit_bytes_calldata(
            token=permit.token_address,
            owner=permit.owner,
            value=permit.value,
            deadline=permit.deadline,
            signature=permit.signature,
        )
        function = "depositWithPermit(address,address,uint256,uint256,bytes)"
    else:
        raise InvalidInputError("signature_form", "must be 'vrs' or 'bytes'")
    return ContractCall(
        to=chain.gateway_wallet, data=data, chain_id=chain.chain_id, function=function
    )


# ------------------------------------------------------------------------------ withdrawals


def initiate_withdrawal_call(
    *, chain_id: int, value: int | str, depositor: str, registry: Registry | None = None
) -> ContractCall:
    """``initiateWithdrawal(usdc, value)``: start withdrawing ``value`` of the
    depositor's USDC on ``chain_id``.

    The amount leaves the available balance at once (burn intents can no longer spend
    it) and can be withdrawn after ``withdrawalDelay()`` blocks; calling again adds to
    the amount and restarts the delay. The depositor must send it (``msg.sender``).

    Args:
        chain_id: the chain whose gateway balance to withdraw from.
        value: USDC in smallest units, more than 0 and at most the available balance.
        depositor: the account whose balance it is; it must send the transaction.
        registry: the pinned chains; `xswap_sdk.registry.DEFAULT_REGISTRY` when not
            given.

    Returns:
        The call on the registry's GatewayWallet, to be sent by ``depositor``.

    Raises:
        InvalidInputError: a bad argument, or a ``value`` of 0
            (``WithdrawalValueMustBePositive`` on chain).
        UnsafePayloadError: the registry does not know ``chain_id``.
    """
    chain = _chain(chain_id, registry)
    units: int = check_argument("value", Uint256, value)
    if units == 0:
        raise InvalidInputError(
            "value",
            "must be positive: the gateway wallet refuses a withdrawal of 0 "
            "(WithdrawalValueMustBePositive)",
        )
    sender = _address("depositor", depositor)
    return _wallet_call(
        chain, "initiateWithdrawal(address,uint256)", [chain.usdc, units], sender=sender
    )


def withdraw_call(
    *, chain_id: int, depositor: str, registry: Registry | None = None
) -> ContractCall:
    """``withdraw(usdc)``: after the delay, send the whole withdrawing balance to the
    depositor.

    It reverts (``WithdrawalNotYetAvailable``) before ``withdrawalBlock`` and
    (``NoWithdrawingBalance``) when nothing is being withdrawn: read
    `withdrawable_balance_call` first. The depositor must send it.

    Args:
        chain_id: the chain to withdraw on.
        depositor: the account whose balance it is; it must send the transaction.
        registry: the pinned chains; `xswap_sdk.registry.DEFAULT_REGISTRY` when not
            given.

    Returns:
        The call on the registry's GatewayWallet, to be sent by ``depositor``.

    Raises:
        InvalidInputError: a bad argument.
        UnsafePayloadError: the registry does not know ``chain_id``.
    """
    chain = _chain(chain_id, registry)
    sender = _address("depositor", depositor)
    return _wallet_call(chain, "withdraw(address)", [chain.usdc], sender=sender)


def _balance_view(
    function: str, chain_id: int, depositor: str, registry: Registry | None
) -> ViewCall:
    chain = _chain(chain_id, registry)
    return _view(chain, function, [chain.usdc, _address("depositor", depositor)])


def available_balance_call(
    *, chain_id: int, depositor: str, registry: Registry | None = None
) -> ViewCall:
    """``availableBalance(usdc, depositor)``: what burn intents can spend, counted from
    deposits in finalized blocks.

    Args:
        chain_id: the chain to read.
        depositor: the balance's owner.
        registry: the pinned chains; `xswap_sdk.registry.DEFAULT_REGISTRY` when not
            given.

    Raises:
        InvalidInputError: a bad argument.
        UnsafePayloadError: the registry does not know ``chain_id``.
    """
    return _balance_view("availableBalance(address,address)", chain_id, depositor, registry)


def withdrawing_balance_call(
    *, chain_id: int, depositor: str, registry: Registry | None = None
) -> ViewCall:
    """``withdrawingBalance(usdc, depositor)``: what `initiate_withdrawal_call` moved
    out of the available balance and is not withdrawn yet.

    Args:
        chain_id: the chain to read.
        depositor: the balance's owner.
        registry: the pinned chains; `xswap_sdk.registry.DEFAULT_REGISTRY` when not
            given.

    Raises:
        InvalidInputError: a bad argument.
        UnsafePayloadError: the registry does not know ``chain_id``.
    """
    return _balance_view("withdrawingBalance(address,address)", chain_id, depositor, registry)


def withdrawable_balance_call(
    *, chain_id: int, depositor: str, registry: Registry | None = None
) -> ViewCall:
    """``withdrawableBalance(usdc, depositor)``: the withdrawing balance once its delay
    has passed, else 0; what `withdraw_call` would send now.

    Args:
        chain_id: the chain to read.
        depositor: the balance's owner.
        registry: the pinned chains; `xswap_sdk.registry.DEFAULT_REGISTRY` when not
            given.

    Raises:
        InvalidInputError: a bad argument.
        UnsafePayloadError: the registry does not know ``chain_id``.
    """
    return _balance_view("withdrawableBalance(address,address)", chain_id, depositor, registry)


def total_balance_call(
    *, chain_id: int, depositor: str, registry: Registry | None = None
) -> ViewCall:
    """``totalBalance(usdc, depositor)``: the available plus the withdrawing balance.

    Args:
        chain_id: the chain to read.
        depositor: the balance's owner.
        registry: the pinned chains; `xswap_sdk.registry.DEFAULT_REGISTRY` when not
            given.

    Raises:
        InvalidInputError: a bad argument.
        UnsafePayloadError: the registry does not know ``chain_id``.
    """
    return _balance_view("totalBalance(address,address)", chain_id, depositor, registry)


def withdrawal_block_call(
    *, chain_id: int, depositor: str, registry: Registry | None = None
) -> ViewCall:
    """``withdrawalBlock(usdc, depositor)``: the block from which the withdrawing
    balance can be withdrawn (0 when nothing is being withdrawn).

    Args:
        chain_id: the chain to read.
        depositor: the balance's owner.
        registry: the pinned chains; `xswap_sdk.registry.DEFAULT_REGISTRY` when not
            given.

    Raises:
        InvalidInputError: a bad argument.
        UnsafePayloadError: the registry does not know ``chain_id``.
    """
    return _balance_view("withdrawalBlock(address,address)", chain_id, depositor, registry)


def withdrawal_delay_call(*, chain_id: int, registry: Registry | None = None) -> ViewCall:
    """``withdrawalDelay()``: how many blocks a withdrawal waits after
    `initiate_withdrawal_call`.

    Args:
        chain_id: the chain to read.
        registry: the pinned chains; `xswap_sdk.registry.DEFAULT_REGISTRY` when not
            given.

    Raises:
        InvalidInputError: a bad ``chain_id``.
        UnsafePayloadError: the registry does not know ``chain_id``.
    """
    return _view(_chain(chain_id, registry), "withdrawalDelay()", [])


# ------------------------------------------------------------------------------ delegates


def _delegate(delegate: object, depositor: object) -> tuple[str, str]:
    checked_delegate = _address("delegate", delegate)
    sender = _address("depositor", depositor)
    if checked_delegate == _ZERO_ADDRESS:
        raise InvalidInputError("delegate", "must not be the zero address")
    if checked_delegate == sender:
        raise InvalidInputError(
            "delegate", "must not be the depositor itself (CannotDelegateToSelf)"
        )
    return checked_delegate, sender


def add_delegate_call(
    *, chain_id: int, delegate: str, depositor: str, registry: Registry | None = None
) -> ContractCall:
    """``addDelegate(usdc, delegate)``: let ``delegate`` sign burn intents (and
    withdraw) for the depositor's USDC balance on ``chain_id``.

    A hot key can then sign for a cold depositor: its burn intents name the depositor
    as ``sourceDepositor`` and the delegate as ``sourceSigner``. It acts as a full
    allowance; the depositor must send it.

    Args:
        chain_id: the chain whose balance to delegate.
        delegate: the account to authorize; not the depositor, not the zero address.
        depositor: the balance's owner; it must send the transaction.
        registry: the pinned chains; `xswap_sdk.registry.DEFAULT_REGISTRY` when not
            given.

    Returns:
        The call on the registry's GatewayWallet, to be sent by ``depositor``.

    Raises:
        InvalidInputError: a bad argument, or a delegate that is the depositor or the
            zero address (both revert on chain).
        UnsafePayloadError: the registry does not know ``chain_id``.
    """
    chain = _chain(chain_id, registry)
    checked_delegate, sender = _delegate(delegate, depositor)
    return _wallet_call(
        chain, "addDelegate(address,address)", [chain.usdc, checked_delegate], sender=sender
    )


def remove_delegate_call(
    *, chain_id: int, delegate: str, depositor: str, registry: Registry | None = None
) -> ContractCall:
    """``removeDelegate(usdc, delegate)``: stop ``delegate`` from signing for the
    depositor's balance.

    Burn intents the delegate already signed stay valid on chain (so that a burn cannot
    be front-run by a revocation); Gateway no longer attests new ones.

    Args:
        chain_id: the chain whose delegation to revoke.
        delegate: the account to revoke.
        depositor: the balance's owner; it must send the transaction.
        registry: the pinned chains; `xswap_sdk.registry.DEFAULT_REGISTRY` when not
            given.

    Returns:
        The call on the registry's GatewayWallet, to be sent by ``depositor``.

    Raises:
        InvalidInputError: a bad argument, or a delegate that is the depositor or the
            zero address.
        UnsafePayloadError: the registry does not know ``chain_id``.
    """
    chain = _chain(chain_id, registry)
    checked_delegate, sender = _delegate(delegate, depositor)
    return _wallet_call(
        chain, "removeDelegate(address,address)", [chain.usdc, checked_delegate], sender=sender
    )


def is_authorized_for_balance_call(
    *, chain_id: int, depositor: str, delegate: str, registry: Registry | None = None
) -> ViewCall:
    """``isAuthorizedForBalance(usdc, depositor, delegate)``: whether ``delegate`` may
    act for the depositor's balance now (the depositor always may).

    Args:
        chain_id: the chain to read.
        depositor: the balance's owner.
        delegate: the account to check.
        registry: the pinned chains; `xswap_sdk.registry.DEFAULT_REGISTRY` when not
            given.

    Raises:
        InvalidInputError: a bad argument.
        UnsafePayloadError: the registry does not know ``chain_id``.
    """
    chain = _chain(chain_id, registry)
    return _view(
        chain,
        "isAuthorizedForBalance(address,address,address)",
        [chain.usdc, _address("depositor", depositor), _address("delegate", delegate)],
        returns="bool",
    )


# ------------------------------------------------------------------------------ minting


@overload
def gateway_mint_call(
    *,
    chain_id: int,
    attestation: str,
    signature: str,
    intents: ExpectedIntents,
    registry: Registry | None = None,
    payer: None = None,
    destination_caller: None = None,
) -> ContractCall: ...


@overload
def gateway_mint_call(
    *,
    chain_id: int,
    attestation: str,
    signature: str,
    intents: ExpectedIntents,
    registry: Registry | None = None,
    payer: SolanaKey,
    destination_caller: SolanaKey | None = None,
) -> Instruction: ...


def gateway_mint_call(
    *,
    chain_id: int,
    attestation: str,
    signature: str,
    intents: ExpectedIntents,
    registry: Registry | None = None,
    payer: SolanaKey | None = None,
    destination_caller: SolanaKey | None = None,
) -> ContractCall | Instruction:
    """Mint what a Gateway transfer attested, once it is checked to be your transfer:
    ``gatewayMint(attestation, signature)`` on an EVM chain's GatewayMinter (a
    `ContractCall`), or the GatewayMinter program's ``gateway_mint`` on Solana (a
    solders ``Instruction``, with ``payer``).

    ``attestation`` and ``signature`` are what ``GatewayClient.transfer`` returned
    (`TransferResult.attestation` and `TransferResult.signature`). The attestation is
    decoded (Circle's encoding, see `xswap_sdk.signing.attestations`; on Solana the
    reduced format) and must hold exactly the transfers of ``intents``, the burn
    intents you signed: the same recipients, values, destination domain and tokens,
    salts and hook data, for ``chain_id``'s pinned GatewayMinter and USDC. Anyone may
    send the call, unless the burn intents named a ``destinationCaller``.

    On Solana the recipient of each intent is a USDC token account that must exist
    before the mint (`xswap_sdk.signing.solana_programs.create_usdc_token_account_instruction`).

    Args:
        chain_id: the destination chain (the burn intents' destination domain):
            `xswap_sdk.chains.SOLANA` for Solana.
        attestation: the attestation payload, ``0x`` hex.
        signature: Circle's signature over it, ``0x`` hex: 65 bytes.
        intents: the burn intents signed for this transfer: the `SignedBurnIntent` or
            `SignedBurnIntentSet` you sent to ``transfer``, their `BurnIntent`s, or a
            list of them.
        registry: the pinned chains; `xswap_sdk.registry.DEFAULT_REGISTRY` when not
            given.
        payer: Solana only, and required there: who signs the mint and pays the rent of
            its used-hash accounts (base58, or a ``Pubkey``).
        destination_caller: Solana only: the mint's second signer, the ``payer`` when
            not given; it must be the intents' ``destinationCaller`` when they name one.

    Returns:
        The call on the registry's GatewayMinter for ``chain_id``; on Solana, the
        ``gateway_mint`` instruction with its accounts.

    Raises:
        InvalidInputError: malformed hex, no ``intents``, intents for another
            destination than ``chain_id``, a ``payer`` missing on Solana (or given on
            EVM), or a destination caller the intents do not name.
        UnsafePayloadError: the registry does not know ``chain_id``; the attestation does
            not decode or mints anything other than your intents (the field is named);
            or the signature is not one 65-byte signature ``gatewayMint`` accepts.
        MissingDependencyError: a mint on Solana without the ``solana`` extra.
    """
    chain = _any_chain(chain_id, registry)
    if chain.family == "solana":
        if payer is None:
            raise InvalidInputError(
                "payer",
                f"is required to mint on {chain.name}: the account that signs the mint and "
                "pays for it (base58)",
            )
        decoded = check_solana_attestation(attestation, signature, intents=intents, chain=chain)

        payload: str = check_argument("attestation", HexBytes, attestation)
        signed: str = check_argument("signature", HexBytes, signature)
        return gateway_mint_instruction(
            chain,
            bytes.fromhex(payload[2:]),
            bytes.fromhex(signed[2:]),
            decoded,
            payer=payer,
            destination_caller=destination_caller,
        )
    for argument, given in (("payer", payer), ("destination_caller", destination_caller)):
        if given is not None:
            raise InvalidInputError(
                argument,
                f"is for a mint on Solana; on {chain.name} whoever sends the call pays",
            )
    check_attestation(attestation, signature, intents=intents, chain=chain)
    return _mint_call(chain, attestation, signature)


def _spec_hash_used_call(chain: GatewayChain, spec_hash: str) -> ViewCall:
    """``isTransferSpecHashUsed(spec_hash)`` on ``chain``'s GatewayMinter: whether a
    transfer spec was minted there (the minter marks its hash used when it mints it)."""
    function = "isTransferSpecHashUsed(bytes32)"
    return ViewCall(
        to=chain.gateway_minter,
        data=_encode(function, [bytes.fromhex(spec_hash.removeprefix("0x"))]),
        chain_id=chain.chain_id,
        function=function,
        returns="bool",
    )


def _mint_call(chain: GatewayChain, attestation: str, signature: str) -> ContractCall:
    """``gatewayMint(attestation, signature)`` on ``chain``'s GatewayMinter, for an
    attestation already checked (`gateway_mint_call`, or a recovery's own check)."""
    payload: str = check_argument("attestation", HexBytes, attestation)
    signed: str = check_argument("signature", HexBytes, signature)
    function = "gatewayMint(bytes,bytes)"
    return ContractCall(
        to=chain.gateway_minter,
        data=_encode(function, [bytes.fromhex(payload[2:]), bytes.fromhex(signed[2:])]),
        chain_id=chain.chain_id,
        function=function,
    )
