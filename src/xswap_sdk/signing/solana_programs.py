"""Circle Gateway's Solana programs as solders ``Instruction``s: the mint of an
attestation, a deposit, and the recipient's USDC token account. Needs the ``solana``
extra (``solders``), imported on first use.

Every instruction targets a program of `xswap_sdk.registry` for the Solana network
asked for (mainnet `xswap_sdk.chains.SOLANA`, devnet `xswap_sdk.chains.SOLANA_DEVNET`)
and names its USDC mint; the accounts are derived here (program-derived addresses from
the programs' seeds), never taken from a service. Add the instruction to a transaction
and send it with your Solana tooling, or through the relayer (chain id ``10100000``).

Sources, as `xswap_sdk.registry` (circlefin/solana-gateway-contracts at commit
69c9e2c: ``gateway_mint.rs``, ``deposit.rs``, ``seeds.rs`` of both programs, Anchor's
``#[event_cpi]``, which adds the event authority and the program itself as the last
two accounts):

- ``gateway_mint`` (discriminator ``[12, 0]``): data ``[12, 0]`` + Borsh
  ``{attestation: Vec<u8>, signature: Vec<u8>}``; accounts payer (signer, writable),
  destination caller (signer), the ``gateway_minter`` state PDA, the System and SPL
  Token programs, the ``__event_authority`` PDA and the GatewayMinter, then per
  attested element its custody token account (``gateway_minter_custody`` + mint), the
  recipient token account and the ``used_transfer_spec_hash`` PDA (all writable).
- ``deposit`` (``[22, 0]``): data ``[22, 0]`` + amount (u64, little-endian); accounts
  payer, owner (signers), the ``gateway_wallet`` PDA, the owner's token account, the
  ``gateway_wallet_custody`` PDA, the ``gateway_deposit`` PDA (mint, owner), the
  owner's ``denylist`` PDA, the SPL Token and System programs, the event authority and
  the GatewayWallet. No approval first: the owner signs the token transfer itself.
- The recipient of a mint on Solana is a USDC token account, normally the owner's
  associated token account (ATA); it must exist before the mint
  (`create_usdc_token_account_instruction`, idempotent: ``CreateIdempotent`` of the
  Associated Token Account program, ``spl-associated-token-account`` 's client).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, TypeAlias

from .._base58 import encode, solana_key_bytes
from .._lazy import require
from ..chains import SOLANA
from ..errors import InvalidInputError
from ..registry import DEFAULT_REGISTRY, GatewayChain, Registry
from ._fields import MAX_UINT64
from .attestations import SolanaAttestation
from .solana import solana_account

if TYPE_CHECKING:
    from solders.instruction import AccountMeta, Instruction
    from solders.pubkey import Pubkey

__all__ = [
    "ASSOCIATED_TOKEN_PROGRAM",
    "DEPOSIT_DISCRIMINATOR",
    "GATEWAY_MINT_DISCRIMINATOR",
    "SYSTEM_PROGRAM",
    "TOKEN_PROGRAM",
    "SolanaKey",
    "create_usdc_token_account_instruction",
    "gateway_mint_instruction",
    "solana_deposit_instruction",
    "usdc_token_account",
]

SolanaKey: TypeAlias = "str | Pubkey"
"""A Solana account: base58 text, or a solders ``Pubkey``."""

TOKEN_PROGRAM: Final = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"
"""The SPL Token program, which Gateway's programs use for USDC (``Program<Token>``,
not Token-2022)."""

ASSOCIATED_TOKEN_PROGRAM: Final = "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL"
"""The Associated Token Account program: an owner's token account for a mint."""

SYSTEM_PROGRAM: Final = "11111111111111111111111111111111"
"""The System program (also 32 zero bytes: "no particular destination caller")."""

GATEWAY_MINT_DISCRIMINATOR: Final = bytes((12, 0))
"""The GatewayMinter's ``gateway_mint`` instruction."""

DEPOSIT_DISCRIMINATOR: Final = bytes((22, 0))
"""The GatewayWallet's ``deposit`` instruction."""

_CREATE_IDEMPOTENT: Final = b"\x01"


def _solders(feature: str) -> tuple[type[Pubkey], type[Instruction], type[AccountMeta]]:
    pubkey = require("solders.pubkey", extra="solana", feature=feature)
    instruction = require("solders.instruction", extra="solana", feature=feature)
    return pubkey.Pubkey, instruction.Instruction, instruction.AccountMeta


def _solana_chain(chain_id: object, registry: Registry | None) -> GatewayChain:
    if isinstance(chain_id, bool) or not isinstance(chain_id, int) or chain_id < 1:
        raise InvalidInputError("chain_id", "must be a positive int")
    chain = (DEFAULT_REGISTRY if registry is None else registry).chain(chain_id)
    if chain.family != "solana":
        raise InvalidInputError(
            "chain_id", f"must be a Solana chain of the registry, not {chain.name} ({chain_id})"
        )
    return chain


def _ata(pubkey: type[Pubkey], owner: bytes, mint: str) -> Pubkey:
    from solders.token.associated import get_associated_token_address

    wallet = pubkey(owner)
    if not wallet.is_on_curve():
        raise InvalidInputError(
            "owner",
            f"{encode(owner)} is not a wallet (an Ed25519 key): it is off the curve, as a "
            "program-derived address or a token account is. A token account derived from "
            "it would be unusable and USDC minted to it lost; name the owner's wallet",
        )
    return get_associated_token_address(wallet, pubkey.from_string(mint))


def usdc_token_account(
    owner: SolanaKey, *, chain_id: int = SOLANA, registry: Registry | None = None
) -> str:
    """The USDC token account a Gateway mint on Solana pays for ``owner``: the owner's
    associated token account for the registry's USDC mint (as Circle's kit derives it,
    ``allowOwnerOffCurve = false``).

    Args:
        owner: the owner's wallet (base58, or a ``Pubkey``).
        chain_id: `xswap_sdk.chains.SOLANA` (default) or `xswap_sdk.chains.SOLANA_DEVNET`.
        registry: the pinned chains; `xswap_sdk.registry.DEFAULT_REGISTRY` when not given.

    Returns:
        The token account, base58.

    Raises:
        InvalidInputError: not a Solana address, or one off the Ed25519 curve (a
            program-derived address or a token account, which cannot own this account:
            deriving from a token account is how funds get lost), or not a Solana chain.
        MissingDependencyError: the ``solana`` extra is not installed.
    """
    chain = _solana_chain(chain_id, registry)
    key = solana_account("owner", owner)
    pubkey, _, _ = _solders("Deriving a Solana token account")
    return str(_ata(pubkey, key, chain.usdc))


def create_usdc_token_account_instruction(
    *,
    owner: SolanaKey,
    payer: SolanaKey,
    chain_id: int = SOLANA,
    registry: Registry | None = None,
) -> Instruction:
    """Create ``owner``'s USDC token account if it does not exist (the Associated Token
    Account program's ``CreateIdempotent``): put it before a mint to a new recipient.

    Args:
        owner: the wallet that owns the account (base58, or a ``Pubkey``).
        payer: who pays its rent and signs.
        chain_id: `xswap_sdk.chains.SOLANA` (default) or `xswap_sdk.chains.SOLANA_DEVNET`.
        registry: the pinned chains; `xswap_sdk.registry.DEFAULT_REGISTRY` when not given.

    Raises:
        InvalidInputError: a bad address, an off-curve owner, or not a Solana chain.
        MissingDependencyError: the ``solana`` extra is not installed.
    """
    chain = _solana_chain(chain_id, registry)
    owner_key = solana_account("owner", owner)
    payer_key = solana_account("payer", payer)
    pubkey, instruction, meta = _solders("Building a Solana instruction")
    account = _ata(pubkey, owner_key, chain.usdc)
    return instruction(
        pubkey.from_string(ASSOCIATED_TOKEN_PROGRAM),
        _CREATE_IDEMPOTENT,
        [
            meta(pubkey(payer_key), True, True),
            meta(account, False, True),
            meta(pubkey(owner_key), False, False),
            meta(pubkey.from_string(chain.usdc), False, False),
            meta(pubkey.from_string(SYSTEM_PROGRAM), False, False),
            meta(pubkey.from_string(TOKEN_PROGRAM), False, False),
        ],
    )


def _borsh_bytes(data: bytes) -> bytes:
    return len(data).to_bytes(4, "little") + data


def gateway_mint_instruction(
    chain: GatewayChain,
    attestation: bytes,
    signature: bytes,
    decoded: SolanaAttestation,
    *,
    payer: SolanaKey,
    destination_caller: SolanaKey | None = None,
) -> Instruction:
    """``gateway_mint(attestation, signature)`` on ``chain``'s GatewayMinter program,
    with its accounts: what `xswap_sdk.signing.gateway_mint_call` returns for Solana,
    once the attestation is checked (`decoded` is its reading).

    Args:
        chain: the registry's Solana entry.
        attestation: the attestation bytes.
        signature: Circle's 65-byte signature over them.
        decoded: the attestation, decoded and checked.
        payer: signs and pays the rent of the used-hash accounts.
        destination_caller: the second signer; the payer when not given. Must be the
            attestation's destination caller when it names one.

    Raises:
        InvalidInputError: a bad address, or a destination caller other than the one
            the attestation names.
        MissingDependencyError: the ``solana`` extra is not installed.
    """
    payer_key = solana_account("payer", payer)
    caller_key = (
        payer_key
        if destination_caller is None
        else solana_account("destination_caller", destination_caller)
    )
    named = decoded.destination_caller
    if named != SYSTEM_PROGRAM and encode(caller_key) != named:
        raise InvalidInputError(
            "destination_caller",
            f"must be {named}, the destination caller the burn intents name (the program "
            "refuses any other signer: DestinationCallerMismatch)",
        )
    pubkey, instruction, meta = _solders("Minting on Solana")
    minter = pubkey.from_string(chain.gateway_minter)

    def pda(*seeds: bytes) -> Pubkey:
        return pubkey.find_program_address(list(seeds), minter)[0]

    def custody(mint: str) -> Pubkey:
        return pda(b"gateway_minter_custody", solana_key_bytes(mint))

    accounts = [
        meta(pubkey(payer_key), True, True),
        meta(pubkey(caller_key), True, False),
        meta(pda(b"gateway_minter"), False, False),
        meta(pubkey.from_string(SYSTEM_PROGRAM), False, False),
        meta(pubkey.from_string(TOKEN_PROGRAM), False, False),
        meta(pda(b"__event_authority"), False, False),
        meta(minter, False, False),
    ]
    for element in decoded.elements:
        accounts += [
            meta(custody(element.destination_token), False, True),
            meta(pubkey.from_string(element.destination_recipient), False, True),
            meta(
                pda(b"used_transfer_spec_hash", bytes.fromhex(element.transfer_spec_hash[2:])),
                False,
                True,
            ),
        ]
    data = GATEWAY_MINT_DISCRIMINATOR + _borsh_bytes(attestation) + _borsh_bytes(signature)
    return instruction(minter, data, accounts)


def solana_deposit_instruction(
    *,
    owner: SolanaKey,
    amount: int,
    chain_id: int = SOLANA,
    payer: SolanaKey | None = None,
    owner_token_account: SolanaKey | None = None,
    registry: Registry | None = None,
) -> Instruction:
    """``deposit(amount)`` into the GatewayWallet program: move ``amount`` USDC from the
    owner's token account into its Gateway balance on Solana.

    Never send USDC to the program or its custody account directly: it is not
    credited. The owner signs the transfer itself; no approval comes first.

    Args:
        owner: the depositor, who signs (base58, or a ``Pubkey``).
        amount: smallest USDC units, above 0 (a u64).
        chain_id: `xswap_sdk.chains.SOLANA` (default) or `xswap_sdk.chains.SOLANA_DEVNET`.
        payer: who pays the deposit account's rent the first time, and signs; the owner
            when not given.
        owner_token_account: the owner's USDC token account to take from; its associated
            token account when not given.
        registry: the pinned chains; `xswap_sdk.registry.DEFAULT_REGISTRY` when not given.

    Raises:
        InvalidInputError: a bad address, an amount of 0 or past a u64, or not a Solana
            chain.
        MissingDependencyError: the ``solana`` extra is not installed.
    """
    chain = _solana_chain(chain_id, registry)
    if isinstance(amount, bool) or not isinstance(amount, int) or not 0 < amount <= MAX_UINT64:
        raise InvalidInputError(
            "amount", "must be an int of smallest USDC units, above 0 and at most 2**64 - 1"
        )
    owner_key = solana_account("owner", owner)
    payer_key = owner_key if payer is None else solana_account("payer", payer)
    pubkey, instruction, meta = _solders("Depositing on Solana")
    wallet = pubkey.from_string(chain.gateway_wallet)
    mint = pubkey.from_string(chain.usdc)
    source = (
        _ata(pubkey, owner_key, chain.usdc)
        if owner_token_account is None
        else pubkey(solana_account("owner_token_account", owner_token_account))
    )

    def pda(*seeds: bytes) -> Pubkey:
        return pubkey.find_program_address(list(seeds), wallet)[0]

    accounts = [
        meta(pubkey(payer_key), True, True),
        meta(pubkey(owner_key), True, False),
        meta(pda(b"gateway_wallet"), False, False),
        meta(source, False, True),
        meta(pda(b"gateway_wallet_custody", bytes(mint)), False, True),
        meta(pda(b"gateway_deposit", bytes(mint), owner_key), False, True),
        meta(pda(b"denylist", owner_key), False, False),
        meta(pubkey.from_string(TOKEN_PROGRAM), False, False),
        meta(pubkey.from_string(SYSTEM_PROGRAM), False, False),
        meta(pda(b"__event_authority"), False, False),
        meta(wallet, False, False),
    ]
    data = DEPOSIT_DISCRIMINATOR + amount.to_bytes(8, "little")
    return instruction(wallet, data, accounts)
