"""Signing for Circle Gateway and the services built on it.

- `Signer`: anything that signs for an address; an `eth_account` `LocalAccount` as is.
- Burn intents: `build_burn_intent`, `sign_burn_intent`, `sign_burn_intent_set`, their
  typed data for signing elsewhere, and `recover_*` to check a signature.
- USDC permits and gateway deposits: `sign_permit`, `deposit_with_permit_calldata`,
  `prepare_deposit_with_permit` (needs the ``web3`` extra), and the bytes-signature
  overload `deposit_with_permit_call`.
- EIP-3009 deposits, with no RPC at all: `sign_deposit_authorization`,
  `prepare_deposit_with_authorization` (``depositWithAuthorization``).
- The rest of the gateway journey as `ContractCall` data: withdrawals
  (`initiate_withdrawal_call`, `withdraw_call`), the balance views, delegates
  (`add_delegate_call`) and `gateway_mint_call` on the destination minter, built only
  for an attestation (`decode_attestation`) of exactly the burn intents you signed.
- General helpers: `personal_sign` (EIP-191 login messages) and `sign_typed_data` (any
  EIP-712 payload, such as a routing service's Permit2 quote).
- EIP-7702: `sign_authorization` makes the relayer's ``authorizationList`` entry
  (`SignedAuthorization`); `recover_authorization` tells who signed one.
- Solana (Gateway domain 5): `sign_burn_intent` with a `SolanaSigner` (a solders
  ``Keypair``) signs a Solana-source intent with Ed25519 (`solana_burn_intent_message`
  is what it signs); `gateway_mint_call` on Solana returns the GatewayMinter's
  ``gateway_mint`` instruction for a checked attestation (`decode_solana_attestation`);
  `solana_deposit_instruction`, `usdc_token_account` and
  `create_usdc_token_account_instruction` cover deposits and recipients. Instructions
  and token accounts need the ``solana`` extra (``solders``).

Signatures are ``0x`` + 130 hex digits, ``r || s || v`` with ``v`` 27 or 28. They are
never put in a ``repr``, a log record or an error message.

A local key signs digests directly; any other `Signer` (hardware wallet, KMS, policy
engine) is handed the full typed data or the plain message, never a bare digest, and
its signature is recovered and checked. Burn intents of value 0, transfer spec versions
other than 1 and deposits of 0, which Circle Gateway's contracts refuse, are refused
before signing.
"""

import typing as _typing

from .._exports import attach as _attach

if _typing.TYPE_CHECKING:
    from .._async_permit_deposit import async_prepare_deposit_with_permit
    from .._sync_permit_deposit import prepare_deposit_with_permit
    from .attestations import (
        GatewayAttestation,
        SolanaAttestation,
        SolanaMintElement,
        decode_attestation,
        decode_solana_attestation,
    )
    from .burn_intents import (
        DEFAULT_MAX_FEE,
        GATEWAY_DOMAIN,
        MAX_INTENTS_PER_SET,
        TRANSFER_SPEC_VERSION,
        BurnIntent,
        BurnIntentSet,
        TransferSpec,
        address_to_bytes32,
        build_burn_intent,
        burn_intent_bytes,
        burn_intent_digest,
        burn_intent_set_digest,
        burn_intent_set_typed_data,
        burn_intent_typed_data,
        transfer_spec_bytes,
        transfer_spec_hash,
    )
    from .call_reading import ReadCall, check_call, read_call
    from .calls import ContractCall, ViewCall
    from .deposit import (
        DEPOSIT_WITH_PERMIT_SELECTOR,
        DepositTransaction,
        deposit_with_permit_calldata,
    )
    from .eip712 import recover_typed_data, sign_typed_data, typed_data_digest
    from .eip3009 import (
        DEFAULT_AUTHORIZATION_LIFETIME,
        DEPOSIT_WITH_AUTHORIZATION_BYTES_SELECTOR,
        DEPOSIT_WITH_AUTHORIZATION_SELECTOR,
        AuthorizationDeposit,
        ReceiveAuthorization,
        TransferAuthorization,
        deposit_with_authorization_call,
        prepare_deposit_with_authorization,
        receive_authorization_typed_data,
        sign_deposit_authorization,
        sign_receive_authorization,
        sign_transfer_authorization,
    )
    from .eip7702 import (
        SignedAuthorization,
        authorization_digest,
        recover_authorization,
        sign_authorization,
    )
    from .gateway_wallet import (
        DEPOSIT_WITH_PERMIT_BYTES_SELECTOR,
        add_delegate_call,
        available_balance_call,
        deposit_with_permit_bytes_calldata,
        deposit_with_permit_call,
        gateway_mint_call,
        initiate_withdrawal_call,
        is_authorized_for_balance_call,
        remove_delegate_call,
        total_balance_call,
        withdraw_call,
        withdrawable_balance_call,
        withdrawal_block_call,
        withdrawal_delay_call,
        withdrawing_balance_call,
    )
    from .permit import DEFAULT_PERMIT_LIFETIME, PermitSignature, permit_typed_data, sign_permit
    from .signed_intents import (
        SignedBurnIntent,
        SignedBurnIntentSet,
        check_burn_intent,
        recover_burn_intent_set_signer,
        recover_burn_intent_signer,
        sign_burn_intent,
        sign_burn_intent_set,
    )
    from .signer import Signer, personal_sign, recover_personal_sign
    from .solana import BURN_INTENT_MESSAGE_PREFIX, SolanaSigner, solana_burn_intent_message
    from .solana_programs import (
        create_usdc_token_account_instruction,
        solana_deposit_instruction,
        usdc_token_account,
    )

__all__ = [
    "BURN_INTENT_MESSAGE_PREFIX",
    "DEFAULT_AUTHORIZATION_LIFETIME",
    "DEFAULT_MAX_FEE",
    "DEFAULT_PERMIT_LIFETIME",
    "DEPOSIT_WITH_AUTHORIZATION_BYTES_SELECTOR",
    "DEPOSIT_WITH_AUTHORIZATION_SELECTOR",
    "DEPOSIT_WITH_PERMIT_BYTES_SELECTOR",
    "DEPOSIT_WITH_PERMIT_SELECTOR",
    "GATEWAY_DOMAIN",
    "MAX_INTENTS_PER_SET",
    "TRANSFER_SPEC_VERSION",
    "AuthorizationDeposit",
    "BurnIntent",
    "BurnIntentSet",
    "ContractCall",
    "ReadCall",
    "DepositTransaction",
    "GatewayAttestation",
    "PermitSignature",
    "ReceiveAuthorization",
    "TransferAuthorization",
    "SignedAuthorization",
    "SignedBurnIntent",
    "SignedBurnIntentSet",
    "Signer",
    "SolanaAttestation",
    "SolanaMintElement",
    "SolanaSigner",
    "TransferSpec",
    "ViewCall",
    "add_delegate_call",
    "address_to_bytes32",
    "async_prepare_deposit_with_permit",
    "available_balance_call",
    "authorization_digest",
    "build_burn_intent",
    "check_call",
    "burn_intent_bytes",
    "burn_intent_digest",
    "burn_intent_set_digest",
    "burn_intent_set_typed_data",
    "burn_intent_typed_data",
    "check_burn_intent",
    "create_usdc_token_account_instruction",
    "decode_attestation",
    "decode_solana_attestation",
    "deposit_with_authorization_call",
    "deposit_with_permit_bytes_calldata",
    "deposit_with_permit_call",
    "deposit_with_permit_calldata",
    "gateway_mint_call",
    "initiate_withdrawal_call",
    "is_authorized_for_balance_call",
    "permit_typed_data",
    "personal_sign",
    "prepare_deposit_with_authorization",
    "prepare_deposit_with_permit",
    "receive_authorization_typed_data",
    "read_call",
    "recover_authorization",
    "recover_burn_intent_set_signer",
    "recover_burn_intent_signer",
    "recover_personal_sign",
    "recover_typed_data",
    "remove_delegate_call",
    "sign_authorization",
    "sign_burn_intent",
    "sign_burn_intent_set",
    "sign_deposit_authorization",
    "sign_permit",
    "sign_receive_authorization",
    "sign_transfer_authorization",
    "sign_typed_data",
    "solana_burn_intent_message",
    "solana_deposit_instruction",
    "total_balance_call",
    "transfer_spec_bytes",
    "transfer_spec_hash",
    "typed_data_digest",
    "usdc_token_account",
    "withdraw_call",
    "withdrawable_balance_call",
    "withdrawal_block_call",
    "withdrawal_delay_call",
    "withdrawing_balance_call",
]

# Each name above is imported on first use (PEP 562), from where this table says it lives
# (see xswap_sdk._exports): a table, not the source, so that frozen and zipped apps work.
# -- lazy names: written by scripts/lazy_tables.py from the TYPE_CHECKING imports --
_HOMES = {
    "AuthorizationDeposit": (".eip3009", "AuthorizationDeposit"),
    "BURN_INTENT_MESSAGE_PREFIX": (".solana", "BURN_INTENT_MESSAGE_PREFIX"),
    "BurnIntent": (".burn_intents", "BurnIntent"),
    "BurnIntentSet": (".burn_intents", "BurnIntentSet"),
    "ContractCall": (".calls", "ContractCall"),
    "DEFAULT_AUTHORIZATION_LIFETIME": (".eip3009", "DEFAULT_AUTHORIZATION_LIFETIME"),
    "DEFAULT_MAX_FEE": (".burn_intents", "DEFAULT_MAX_FEE"),
    "DEFAULT_PERMIT_LIFETIME": (".permit", "DEFAULT_PERMIT_LIFETIME"),
    "DEPOSIT_WITH_AUTHORIZATION_BYTES_SELECTOR": (
        ".eip3009",
        "DEPOSIT_WITH_AUTHORIZATION_BYTES_SELECTOR",
    ),
    "DEPOSIT_WITH_AUTHORIZATION_SELECTOR": (".eip3009", "DEPOSIT_WITH_AUTHORIZATION_SELECTOR"),
    "DEPOSIT_WITH_PERMIT_BYTES_SELECTOR": (".gateway_wallet", "DEPOSIT_WITH_PERMIT_BYTES_SELECTOR"),
    "DEPOSIT_WITH_PERMIT_SELECTOR": (".deposit", "DEPOSIT_WITH_PERMIT_SELECTOR"),
    "DepositTransaction": (".deposit", "DepositTransaction"),
    "GATEWAY_DOMAIN": (".burn_intents", "GATEWAY_DOMAIN"),
    "GatewayAttestation": (".attestations", "GatewayAttestation"),
    "MAX_INTENTS_PER_SET": (".burn_intents", "MAX_INTENTS_PER_SET"),
    "PermitSignature": (".permit", "PermitSignature"),
    "ReadCall": (".call_reading", "ReadCall"),
    "ReceiveAuthorization": (".eip3009", "ReceiveAuthorization"),
    "SignedAuthorization": (".eip7702", "SignedAuthorization"),
    "SignedBurnIntent": (".signed_intents", "SignedBurnIntent"),
    "SignedBurnIntentSet": (".signed_intents", "SignedBurnIntentSet"),
    "Signer": (".signer", "Signer"),
    "SolanaAttestation": (".attestations", "SolanaAttestation"),
    "SolanaMintElement": (".attestations", "SolanaMintElement"),
    "SolanaSigner": (".solana", "SolanaSigner"),
    "TRANSFER_SPEC_VERSION": (".burn_intents", "TRANSFER_SPEC_VERSION"),
    "TransferAuthorization": (".eip3009", "TransferAuthorization"),
    "TransferSpec": (".burn_intents", "TransferSpec"),
    "ViewCall": (".calls", "ViewCall"),
    "add_delegate_call": (".gateway_wallet", "add_delegate_call"),
    "address_to_bytes32": (".burn_intents", "address_to_bytes32"),
    "async_prepare_deposit_with_permit": (
        ".._async_permit_deposit",
        "async_prepare_deposit_with_permit",
    ),
    "authorization_digest": (".eip7702", "authorization_digest"),
    "available_balance_call": (".gateway_wallet", "available_balance_call"),
    "build_burn_intent": (".burn_intents", "build_burn_intent"),
    "burn_intent_bytes": (".burn_intents", "burn_intent_bytes"),
    "burn_intent_digest": (".burn_intents", "burn_intent_digest"),
    "burn_intent_set_digest": (".burn_intents", "burn_intent_set_digest"),
    "burn_intent_set_typed_data": (".burn_intents", "burn_intent_set_typed_data"),
    "burn_intent_typed_data": (".burn_intents", "burn_intent_typed_data"),
    "check_burn_intent": (".signed_intents", "check_burn_intent"),
    "check_call": (".call_reading", "check_call"),
    "create_usdc_token_account_instruction": (
        ".solana_programs",
        "create_usdc_token_account_instruction",
    ),
    "decode_attestation": (".attestations", "decode_attestation"),
    "decode_solana_attestation": (".attestations", "decode_solana_attestation"),
    "deposit_with_authorization_call": (".eip3009", "deposit_with_authorization_call"),
    "deposit_with_permit_bytes_calldata": (".gateway_wallet", "deposit_with_permit_bytes_calldata"),
    "deposit_with_permit_call": (".gateway_wallet", "deposit_with_permit_call"),
    "deposit_with_permit_calldata": (".deposit", "deposit_with_permit_calldata"),
    "gateway_mint_call": (".gateway_wallet", "gateway_mint_call"),
    "initiate_withdrawal_call": (".gateway_wallet", "initiate_withdrawal_call"),
    "is_authorized_for_balance_call": (".gateway_wallet", "is_authorized_for_balance_call"),
    "permit_typed_data": (".permit", "permit_typed_data"),
    "personal_sign": (".signer", "personal_sign"),
    "prepare_deposit_with_authorization": (".eip3009", "prepare_deposit_with_authorization"),
    "prepare_deposit_with_permit": (".._sync_permit_deposit", "prepare_deposit_with_permit"),
    "read_call": (".call_reading", "read_call"),
    "receive_authorization_typed_data": (".eip3009", "receive_authorization_typed_data"),
    "recover_authorization": (".eip7702", "recover_authorization"),
    "recover_burn_intent_set_signer": (".signed_intents", "recover_burn_intent_set_signer"),
    "recover_burn_intent_signer": (".signed_intents", "recover_burn_intent_signer"),
    "recover_personal_sign": (".signer", "recover_personal_sign"),
    "recover_typed_data": (".eip712", "recover_typed_data"),
    "remove_delegate_call": (".gateway_wallet", "remove_delegate_call"),
    "sign_authorization": (".eip7702", "sign_authorization"),
    "sign_burn_intent": (".signed_intents", "sign_burn_intent"),
    "sign_burn_intent_set": (".signed_intents", "sign_burn_intent_set"),
    "sign_deposit_authorization": (".eip3009", "sign_deposit_authorization"),
    "sign_permit": (".permit", "sign_permit"),
    "sign_receive_authorization": (".eip3009", "sign_receive_authorization"),
    "sign_transfer_authorization": (".eip3009", "sign_transfer_authorization"),
    "sign_typed_data": (".eip712", "sign_typed_data"),
    "solana_burn_intent_message": (".solana", "solana_burn_intent_message"),
    "solana_deposit_instruction": (".solana_programs", "solana_deposit_instruction"),
    "total_balance_call": (".gateway_wallet", "total_balance_call"),
    "transfer_spec_bytes": (".burn_intents", "transfer_spec_bytes"),
    "transfer_spec_hash": (".burn_intents", "transfer_spec_hash"),
    "typed_data_digest": (".eip712", "typed_data_digest"),
    "usdc_token_account": (".solana_programs", "usdc_token_account"),
    "withdraw_call": (".gateway_wallet", "withdraw_call"),
    "withdrawable_balance_call": (".gateway_wallet", "withdrawable_balance_call"),
    "withdrawal_block_call": (".gateway_wallet", "withdrawal_block_call"),
    "withdrawal_delay_call": (".gateway_wallet", "withdrawal_delay_call"),
    "withdrawing_balance_call": (".gateway_wallet", "withdrawing_balance_call"),
}
# -- end of lazy names --

if not _typing.TYPE_CHECKING:
    __getattr__, __dir__ = _attach(__name__, _HOMES)
