"""Chains by name, and the address rules of each chain family the relayer serves.

`KnownChain` names the chains of the JavaScript relayer client's ``ChainId`` enum and of
the specs; it is an `int` enum, so ``KnownChain.BASE`` can be passed wherever a chain id
is taken (``relay(chain_id=KnownChain.BASE, ...)``). It is not named ``ChainId``:
`xswap_sdk.types.ChainId` is the validated ``int`` type every model uses, and one name
for two things would be a trap.

The relayer executes on EVM chains and on Solana, NEAR, Aptos and Sui. Which family a
chain belongs to decides what its ``to`` looks like and what else a submission needs
(`FAMILY_RULES`). The family is looked up by chain id in `DEFAULT_CHAIN_FAMILIES`,
extended by the caller (``RelayerClient(chain_families={id: "sui"})``); a chain id in
neither table is EVM, so a non-EVM address sent to an unknown chain is refused rather
than guessed at.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import IntEnum
from types import MappingProxyType
from typing import Final, Literal, get_args

from ._base58 import solana_key_bytes
from ._record import Frozen
from .errors import InvalidInputError
from .types import MAX_UINT256, to_checksum

__all__ = [
    "DEFAULT_CHAIN_FAMILIES",
    "FAMILY_RULES",
    "SOLANA",
    "SOLANA_DEVNET",
    "ChainFamily",
    "FamilyRules",
    "KnownChain",
    "chain_family",
    "check_address",
    "check_chain_families",
]

ChainFamily = Literal["evm", "solana", "near", "aptos", "sui"]
"""The kinds of chain the relayer executes on."""


class KnownChain(IntEnum):
    """Chain ids by name: the JavaScript relayer client's ``ChainId`` values, the
    routing spec's chains and the chains Circle Gateway serves."""

    ETHEREUM = 1
    OPTIMISM = 10
    BSC = 56
    XDC = 50
    UNICHAIN = 130
    POLYGON = 137
    MONAD = 143
    SONIC = 146
    WORLD_CHAIN = 480
    HYPEREVM = 999
    SEI = 1329
    CHAIN_4663 = 4663
    """Listed by the routing spec (native symbol ETH) without a name."""
    BASE = 8453
    ARBITRUM_ONE = 42161
    AVALANCHE = 43114
    SOLANA = 10100000
    """The relayer's id for Solana (its docs' Solana examples)."""
    APTOS = 88888888
    """The relayer's id for Aptos (its docs' Aptos examples)."""


SOLANA: Final = KnownChain.SOLANA
"""Solana's chain id, ``10100000``: the relayer's id for Solana (its docs' Solana
examples), also the one `xswap_sdk.registry` files Circle Gateway's Solana domain (5)
under. Solana has no chain id of its own."""

SOLANA_DEVNET: Final = 10300000
"""The SDK's own id for Solana devnet, under which `xswap_sdk.registry` files Gateway's
devnet programs (``DEFAULT_REGISTRY.by_domain(5, testnet=True)``). Rath publishes an id
for Solana mainnet only, so this one is the SDK's choice, made to sit beside it (Solana's
token lists number mainnet-beta 101 and devnet 103). No service knows it: Gateway names
chains by domain, and the relayer does not list it."""

DEFAULT_CHAIN_FAMILIES: Final[Mapping[int, ChainFamily]] = MappingProxyType(
    {
        # Both ids are the relayer's own (neither chain has an EVM chain id): its
        # relay and relaySync docs submit Solana transactions with chainId 10100000
        # and Aptos ones with chainId 88888888 ("gasLimit: '100', // Required for
        # Aptos"); docs.rath.fi/tachyon/tachyon-sdk/relay-tx and .../relay-tx-sync.
        #
        # NEAR and Sui: the same pages name them (``to`` "named for NEAR"; a Sui
        # example with ``chainId: ChainId.SUI``) but the copies of the docs that could
        # be searched show no number for either, so none is guessed here. Add yours:
        # RelayerClient(chain_families={<NEAR id>: "near", <Sui id>: "sui"}).
        KnownChain.SOLANA: "solana",
        KnownChain.APTOS: "aptos",
    }
)
"""Chain ids whose family is not EVM, as the relayer numbers them. Any other id is EVM."""

_U64 = 2**64 - 1
_U128 = 2**128 - 1


@dataclass(init=False, repr=False, eq=False, slots=True)
class FamilyRules(Frozen):
    """What a submission to one chain family must look like.

    Attributes:
        address: how ``to`` is written, for messages.
        max_value: the largest ``value`` in the chain's smallest native unit.
        value_unit: that unit's name (wei, lamports, yoctoNEAR, octas, MIST).
        gas_limit_required: the relayer needs ``gasLimit`` (it cannot estimate it).
        authorizations: EIP-7702 authorizations can be sent (EVM only).
    """

    address: str
    max_value: int
    value_unit: str
    gas_limit_required: bool = False
    authorizations: bool = False

    def __init__(
        self,
        address: str,
        max_value: int,
        value_unit: str,
        gas_limit_required: bool = False,
        authorizations: bool = False,
    ) -> None:
        object.__setattr__(self, "address", address)
        object.__setattr__(self, "max_value", max_value)
        object.__setattr__(self, "value_unit", value_unit)
        object.__setattr__(self, "gas_limit_required", gas_limit_required)
        object.__setattr__(self, "authorizations", authorizations)


FAMILY_RULES: Final[Mapping[ChainFamily, FamilyRules]] = MappingProxyType(
    {
        "evm": FamilyRules(
            "a 20-byte hex address (0x + 40 hex digits, EIP-55 checksum if mixed case)",
            MAX_UINT256,
            "wei",
            authorizations=True,
        ),
        "solana": FamilyRules("a base58 public key of 32 bytes", _U64, "lamports"),
        "near": FamilyRules(
            "a NEAR account id (2 to 64 of a-z, 0-9, and - _ . between them)", _U128, "yoctoNEAR"
        ),
        # Aptos and Sui: 32-byte account addresses written in full; "gasLimit ...
        # Required for Aptos and Sui transactions" (docs.rath.fi/tachyon/tachyon-api/
        # relay-tx, the submit request's table).
        "aptos": FamilyRules(
            "a 32-byte hex address (0x + 64 hex digits)", _U64, "octas", gas_limit_required=True
        ),
        "sui": FamilyRules(
            "a 32-byte hex address (0x + 64 hex digits)", _U64, "MIST", gas_limit_required=True
        ),
    }
)
"""Each family's rules (see `FamilyRules`)."""

# Compiled at their first use (re caches them), not at import: every client imports this
# module, and most never check a NEAR, Aptos or Sui address.
_NEAR_ACCOUNT = r"(?:(?:[a-z\d]+[-_])*[a-z\d]+\.)*(?:[a-z\d]+[-_])*[a-z\d]+"
_MOVE_ADDRESS = r"0x[0-9a-fA-F]{64}"
_FAMILIES: Final = frozenset(get_args(ChainFamily))


def _solana(value: str) -> str:
    solana_key_bytes(value)
    return value


def _near(value: str) -> str:
    if not 2 <= len(value) <= 64 or re.fullmatch(_NEAR_ACCOUNT, value) is None:
        raise ValueError
    return value


def _move(value: str) -> str:
    if re.fullmatch(_MOVE_ADDRESS, value) is None:
        raise ValueError
    return value.lower()


_ADDRESS_CHECKS = {
    "evm": to_checksum,
    "solana": _solana,
    "near": _near,
    "aptos": _move,
    "sui": _move,
}


def check_address(family: ChainFamily, value: object, *, argument: str = "to") -> str:
    """Validate an address of ``family``; return it normalised.

    EVM addresses come back EIP-55 checksummed, Aptos and Sui ones in lower case,
    Solana keys and NEAR accounts as given.

    Raises:
        InvalidInputError: not an address of that family.
    """
    rules = FAMILY_RULES[family]
    if not isinstance(value, str):
        raise InvalidInputError(argument, f"must be {rules.address} on {family}")
    try:
        checked: str = _ADDRESS_CHECKS[family](value)
    except ValueError as exc:
        detail = f" ({exc})" if str(exc) else ""
        raise InvalidInputError(argument, f"must be {rules.address} on {family}{detail}") from None
    return checked


def check_chain_families(
    chain_families: object, *, argument: str = "chain_families"
) -> Mapping[int, ChainFamily]:
    """The default table extended (or overridden) by the caller's ``{chain_id: family}``.

    Raises:
        InvalidInputError: not a mapping of non-negative int chain ids to families.
    """
    if chain_families is None:
        return DEFAULT_CHAIN_FAMILIES
    if not isinstance(chain_families, Mapping):
        raise InvalidInputError(argument, 'must be a mapping {chain_id: "evm" | "solana" | ...}')
    merged: dict[int, ChainFamily] = dict(DEFAULT_CHAIN_FAMILIES)
    for chain_id, family in chain_families.items():
        if isinstance(chain_id, bool) or not isinstance(chain_id, int) or chain_id < 0:
            raise InvalidInputError(argument, "keys must be non-negative int chain ids")
        if family not in _FAMILIES:
            raise InvalidInputError(
                f"{argument}[{chain_id}]", f"must be one of {', '.join(sorted(_FAMILIES))}"
            )
        merged[int(chain_id)] = family
    return MappingProxyType(merged)


def chain_family(chain_id: int, families: Mapping[int, ChainFamily] | None = None) -> ChainFamily:
    """The family of ``chain_id`` in ``families`` (the default table when ``None``);
    ``"evm"`` for a chain id it does not list."""
    table = DEFAULT_CHAIN_FAMILIES if families is None else families
    return table.get(int(chain_id), "evm")
