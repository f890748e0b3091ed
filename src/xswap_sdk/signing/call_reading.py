"""Every contract call read before it is signed: what its bytes do, not what it says.

A `ContractCall` carries a label (``function``), but what is signed is ``to``, ``data``
and ``value``. A call built elsewhere (by hand, by a service, from a journal) can carry
any label over any bytes: ``withdraw(address)`` over ``USDC.transfer(attacker, ...)``.
So before the SDK signs a call it did not build itself (`GatewayClient.send_call`,
`xswap_sdk.simulation.send_call`), `check_call` reads it:

- ``to`` must be a contract the registry pins on ``chain_id``: the GatewayWallet, the
  GatewayMinter or USDC;
- ``data`` must be one of the functions the SDK knows on that contract (`KNOWN_FUNCTIONS`:
  the GatewayWallet's ``deposit*``, ``initiateWithdrawal``, ``withdraw``,
  ``addDelegate``, ``removeDelegate``; the GatewayMinter's ``gatewayMint``; USDC's
  ``approve`` and ``permit``), ABI-encoded exactly (nothing after the arguments);
- a Gateway function's token must be the registry's USDC of the chain;
- the label must be the function the bytes call, and ``value`` 0 (none is payable).

Anything else is refused with `xswap_sdk.errors.UnsafePayloadError` before anything is
signed, unless the caller passes ``unsafe_any_call=True``.

`read_call` is the reading alone (``None`` for bytes it cannot read): the signing gate
uses it to describe a transaction by what it does (`ReadCall.effect`), so a policy sees
a deposit, a withdrawal or a grant of authority, whatever the label.

Sources: Circle's GatewayWallet and GatewayMinter (circlefin/evm-gateway-contracts,
``src/GatewayWallet.sol``, ``src/modules/wallet/*.sol``, ``src/GatewayMinter.sol``) and
USDC's FiatTokenV2 (``approve``, EIP-2612 ``permit``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from .._keccak import keccak
from ..errors import InvalidInputError, UnsafePayloadError
from ..registry import DEFAULT_REGISTRY, GatewayChain, Registry
from ..types import _same_address, to_checksum
from .calls import ContractCall

__all__ = ["KNOWN_FUNCTIONS", "UNLIMITED", "Contract", "ReadCall", "check_call", "read_call"]

Contract = Literal["GatewayWallet", "GatewayMinter", "USDC"]
"""The pinned contracts a call may go to (`xswap_sdk.registry.GatewayChain`)."""

UNLIMITED: Final = 2**256 - 1
"""An allowance of ``type(uint256).max``: no limit at all."""

_VRS: Final = ("v", "r", "s")

KNOWN_FUNCTIONS: Final[Mapping[Contract, Mapping[str, tuple[str, ...]]]] = {
    "GatewayWallet": {
        "deposit(address,uint256)": ("token", "value"),
        "depositFor(address,address,uint256)": ("token", "depositor", "value"),
        "depositWithPermit(address,address,uint256,uint256,uint8,bytes32,bytes32)": (
            "token", "owner", "value", "deadline", *_VRS,
        ),
        "depositWithPermit(address,address,uint256,uint256,bytes)": (
            "token", "owner", "value", "deadline", "signature",
        ),
        "depositWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,"
        "bytes32,bytes32)": (
            "token", "from", "value", "validAfter", "validBefore", "nonce", *_VRS,
        ),
        "depositWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)": (
            "token", "from", "value", "validAfter", "validBefore", "nonce", "signature",
        ),
        "initiateWithdrawal(address,uint256)": ("token", "value"),
        "withdraw(address)": ("token",),
        "addDelegate(address,address)": ("token", "delegate"),
        "removeDelegate(address,address)": ("token", "delegate"),
    },
    "GatewayMinter": {"gatewayMint(bytes,bytes)": ("attestation", "signature")},
    "USDC": {
        "approve(address,uint256)": ("spender", "value"),
        "permit(address,address,uint256,uint256,uint8,bytes32,bytes32)": (
            "owner", "spender", "value", "deadline", *_VRS,
        ),
    },
}  # fmt: skip
"""The functions a call may make, by pinned contract: Solidity signature -> argument
names (Circle's contracts and FiatTokenV2)."""


def _selector(function: str) -> str:
    return "0x" + keccak(function.encode()).hex()[:8]


_BY_SELECTOR: Final[Mapping[Contract, Mapping[str, str]]] = {
    contract: {_selector(function): function for function in functions}
    for contract, functions in KNOWN_FUNCTIONS.items()
}


@dataclass(frozen=True, slots=True)
class ReadCall:
    """What a call to a pinned contract does, read from its bytes.

    Attributes:
        contract: the pinned contract called.
        function: the Solidity signature its selector names (not the call's label).
        arguments: the decoded arguments, by name (addresses checksummed, bytes as
            ``0x`` hex).
        token: what may leave the sender (USDC), or ``None`` when nothing does.
        amount: how much, in smallest units; ``None`` for a grant of everything (a
            delegate, an unlimited allowance) or when nothing leaves.
        counterparty: who receives the funds, the credit or the authority.
        grant: whether it grants authority over the sender's funds (an allowance, a
            delegate) rather than moving them.
        effect: one sentence saying what it does.
    """

    contract: Contract
    function: str
    arguments: Mapping[str, Any] = field(repr=False)
    token: str | None
    amount: int | None
    counterparty: str | None
    grant: bool
    effect: str


def _contract(chain: GatewayChain, to: str) -> Contract | None:
    for name, address in (
        ("GatewayWallet", chain.gateway_wallet),
        ("GatewayMinter", chain.gateway_minter),
        ("USDC", chain.usdc),
    ):
        if _same_address(to, address):
            return name  # type: ignore[return-value]
    return None


def _data(data: object) -> bytes | None:
    if isinstance(data, bytes | bytearray):
        return bytes(data)
    if isinstance(data, str):
        try:
            return bytes.fromhex(data.removeprefix("0x").removeprefix("0X"))
        except ValueError:
            return None
    return None


def _decoded(function: str, raw: bytes) -> dict[str, Any] | None:
    """The arguments of ``function`` in ``raw`` (selector first), or ``None`` when they
    are not its exact ABI encoding (trailing bytes included)."""
    from eth_abi.abi import decode, encode
    from eth_abi.exceptions import DecodingError

    types = [t for t in function[function.index("(") + 1 : -1].split(",") if t]
    body = raw[4:]
    try:
        values = decode(types, body, strict=True)
        if encode(types, values) != body:
            return None
    except (DecodingError, OverflowError, ValueError, TypeError):
        return None
    return {
        name: _plain(type_, value)
        for name, type_, value in zip(_names(function), types, values, strict=True)
    }


def _names(function: str) -> tuple[str, ...]:
    for functions in KNOWN_FUNCTIONS.values():
        if function in functions:
            return functions[function]
    raise KeyError(function)  # pragma: no cover - callers pass known functions


def _plain(type_: str, value: Any) -> Any:
    if type_ == "address":
        return to_checksum(value)
    if isinstance(value, bytes):
        return "0x" + value.hex()
    return value


def read_call(
    to: object,
    data: object,
    chain_id: object,
    *,
    sender: str | None = None,
    registry: Registry | None = None,
) -> ReadCall | None:
    """What a transaction to ``to`` with ``data`` on ``chain_id`` does, when it calls a
    known function (`KNOWN_FUNCTIONS`) of a contract the registry pins there; ``None``
    otherwise (another contract, another function, or bytes that do not decode).

    ``sender`` is who sends it, to say whether a deposit credits them or someone else.
    Pure: no I/O.
    """
    pins = DEFAULT_REGISTRY if registry is None else registry
    chain = pins.get(chain_id) if isinstance(chain_id, int) else None
    raw = _data(data)
    if chain is None or not isinstance(to, str) or raw is None or len(raw) < 4:
        return None
    contract = _contract(chain, to)
    if contract is None:
        return None
    function = _BY_SELECTOR[contract].get("0x" + raw[:4].hex())
    arguments = None if function is None else _decoded(function, raw)
    if function is None or arguments is None:
        return None
    return _meaning(contract, function, arguments, to_checksum(to), sender)


def _meaning(
    contract: Contract, function: str, args: Mapping[str, Any], to: str, sender: str | None
) -> ReadCall:
    name = function[: function.index("(")]
    token = args.get("token")
    value = args.get("value")

    def read(
        effect: str,
        *,
        moves: str | None = None,
        amount: int | None = None,
        counterparty: str | None = None,
        grant: bool = False,
    ) -> ReadCall:
        return ReadCall(contract, function, args, moves, amount, counterparty, grant, effect)

    if name.startswith("deposit"):
        credited = args.get("depositor") or args.get("owner") or args.get("from") or sender
        source = args.get("owner") or args.get("from") or "the sender"
        own = _same_address(credited, sender)
        return read(
            f"deposits {value} of {token} from {source} into the GatewayWallet {to}, "
            f"credited to {credited or 'the sender'}",
            moves=token,
            amount=value,
            counterparty=to if own or credited is None else credited,
        )
    if name == "initiateWithdrawal":
        return read(f"starts withdrawing {value} of {token} from the sender's Gateway balance")
    if name == "withdraw":
        return read(f"withdraws the sender's withdrawable {token} from the GatewayWallet to them")
    if name == "addDelegate":
        delegate = args["delegate"]
        return read(
            f"GRANTS {delegate} authority over the sender's whole Gateway balance of {token}",
            moves=token,
            counterparty=delegate,
            grant=True,
        )
    if name == "removeDelegate":
        return read(f"revokes {args['delegate']}'s authority over the sender's {token} balance")
    if name == "gatewayMint":
        return read(f"mints an attestation's transfers on the GatewayMinter {to}")
    spender = args["spender"]
    shown = "an unlimited allowance" if value == UNLIMITED else f"an allowance of {value}"
    owner = args.get("owner", "the sender")
    return read(
        f"GRANTS {spender} {shown} of {to} (USDC) from {owner}",
        moves=to,
        amount=None if value == UNLIMITED else value,
        counterparty=spender,
        grant=True,
    )


def _refuse(where: str, expected: str, received: object, hint: str | None = None) -> None:
    raise UnsafePayloadError(
        where,
        expected=expected,
        received=received,
        hint=hint
        or "build the call with xswap_sdk.signing, or pass unsafe_any_call=True to send a "
        "call the SDK cannot read",
    )


def check_call(
    call: ContractCall,
    *,
    sender: str | None = None,
    registry: Registry | None = None,
    unsafe_any_call: bool = False,
) -> ReadCall | None:
    """Read ``call`` and refuse it unless it is a known function of a pinned contract
    (see the module docstring), before anything is signed.

    Args:
        call: the call about to be signed.
        sender: who will send it.
        registry: the pinned chains; `xswap_sdk.registry.DEFAULT_REGISTRY` by default.
        unsafe_any_call: DANGEROUS: send any call, to any contract: nothing is checked
            (the reading is still returned when there is one).

    Returns:
        What the call does; ``None`` only with ``unsafe_any_call=True`` for a call the
        SDK cannot read.

    Raises:
        UnsafePayloadError: the field that is not what a known call has (``call.to``,
            ``call.data``, ``call.function``, ``call.value``, ``call.data.token``).
        InvalidInputError: ``unsafe_any_call`` is not a bool.
    """
    if not isinstance(unsafe_any_call, bool):
        raise InvalidInputError("unsafe_any_call", "must be True or False")
    pins = DEFAULT_REGISTRY if registry is None else registry
    read = read_call(call.to, call.data, call.chain_id, sender=sender, registry=pins)
    if unsafe_any_call:
        return read
    chain = pins.get(call.chain_id)
    if chain is None:
        _refuse("call.chain_id", "a chain of the registry", call.chain_id)
    assert chain is not None
    contract = _contract(chain, call.to)
    if contract is None:
        _refuse(
            "call.to",
            f"a contract the registry pins on chain {call.chain_id} (GatewayWallet "
            f"{chain.gateway_wallet}, GatewayMinter {chain.gateway_minter}, USDC {chain.usdc})",
            call.to,
        )
    assert contract is not None
    if read is None:
        raw = _data(call.data) or b""
        function = _BY_SELECTOR[contract].get("0x" + raw[:4].hex())
        if function is None:
            _refuse(
                "call.data",
                f"a call of a known {contract} function: {', '.join(KNOWN_FUNCTIONS[contract])}",
                "0x" + raw[:4].hex(),
            )
        _refuse("call.data", f"the exact ABI encoding of {function}", f"{len(raw)} bytes")
    assert read is not None
    if call.function != read.function:
        _refuse(
            "call.function",
            f"{read.function} (what the calldata calls: it {read.effect})",
            call.function,
            hint="the label is not what the bytes do: do not send this call",
        )
    if call.value != 0:
        _refuse("call.value", f"0 ({read.function} is not payable)", call.value)
    token = read.arguments.get("token")
    if token is not None and not _same_address(token, chain.usdc):
        _refuse("call.data.token", f"{chain.usdc} (USDC on chain {call.chain_id})", token)
    return read
