"""Signing for Circle Gateway and the services built on it.

- `Signer`: anything that signs for an address; an `eth_account` `LocalAccount` as is.
- Burn intents: `build_burn_intent`, `sign_burn_intent`, `sign_burn_intent_set`, their
  typed data for signing elsewhere, and `recover_*` to check a signature.
- USDC permits and gateway deposits: `sign_permit`, `deposit_with_permit_calldata`,
  `prepare_deposit_with_permit` (needs the ``web3`` extra).
- General helpers: `personal_sign` (EIP-191 login messages) and `sign_typed_data` (any
  EIP-712 payload, such as a routing service's Permit2 quote).
- EIP-7702: `sign_authorization` makes the relayer's ``authorizationList`` entry
  (`SignedAuthorization`); `recover_authorization` tells who signed one.

Signatures are ``0x`` + 130 hex digits, ``r || s || v`` with ``v`` 27 or 28. They are
never put in a ``repr``, a log record or an error message.

A local key signs digests directly; any other `Signer` (hardware wallet, KMS, policy
engine) is handed the full typed data or the plain message, never a bare digest, and
its signature is recovered and checked. Burn intents of value 0, transfer spec versions
other than 1 and deposits of 0, which Circle Gateway's contracts refuse, are refused
before signing.
"""

from .authorization import (
    SignedAuthorization,
    authorization_digest,
    recover_authorization,
    sign_authorization,
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
    burn_intent_digest,
    burn_intent_set_digest,
    burn_intent_set_typed_data,
    burn_intent_typed_data,
)
from .deposit import (
    DEPOSIT_WITH_PERMIT_SELECTOR,
    DepositTransaction,
    async_prepare_deposit_with_permit,
    deposit_with_permit_calldata,
    prepare_deposit_with_permit,
)
from .eip712 import recover_typed_data, sign_typed_data, typed_data_digest
from .permit import DEFAULT_PERMIT_LIFETIME, PermitSignature, permit_typed_data, sign_permit
from .signed_intents import (
    SignedBurnIntent,
    SignedBurnIntentSet,
    recover_burn_intent_set_signer,
    recover_burn_intent_signer,
    sign_burn_intent,
    sign_burn_intent_set,
)
from .signer import Signer, personal_sign, recover_personal_sign

__all__ = [
    "DEFAULT_MAX_FEE",
    "DEFAULT_PERMIT_LIFETIME",
    "DEPOSIT_WITH_PERMIT_SELECTOR",
    "GATEWAY_DOMAIN",
    "MAX_INTENTS_PER_SET",
    "TRANSFER_SPEC_VERSION",
    "BurnIntent",
    "BurnIntentSet",
    "DepositTransaction",
    "PermitSignature",
    "SignedAuthorization",
    "SignedBurnIntent",
    "SignedBurnIntentSet",
    "Signer",
    "TransferSpec",
    "address_to_bytes32",
    "async_prepare_deposit_with_permit",
    "authorization_digest",
    "build_burn_intent",
    "burn_intent_digest",
    "burn_intent_set_digest",
    "burn_intent_set_typed_data",
    "burn_intent_typed_data",
    "deposit_with_permit_calldata",
    "permit_typed_data",
    "personal_sign",
    "prepare_deposit_with_permit",
    "recover_authorization",
    "recover_burn_intent_set_signer",
    "recover_burn_intent_signer",
    "recover_personal_sign",
    "recover_typed_data",
    "sign_authorization",
    "sign_burn_intent",
    "sign_burn_intent_set",
    "sign_permit",
    "sign_typed_data",
    "typed_data_digest",
]
