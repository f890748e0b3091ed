# pragma version ~=0.4.3
"""
@title Hashes burn intents per EIP-712, independently of the SDK, and ecrecovers
@notice The type strings are written out as in the swap backend spec; the
        domain is {name: "GatewayWallet", version: "1"} with no chainId.
        Test-only.
"""

struct TransferSpec:
    version: uint32
    sourceDomain: uint32
    destinationDomain: uint32
    sourceContract: bytes32
    destinationContract: bytes32
    sourceToken: bytes32
    destinationToken: bytes32
    sourceDepositor: bytes32
    destinationRecipient: bytes32
    sourceSigner: bytes32
    destinationCaller: bytes32
    value: uint256
    salt: bytes32
    hookData: Bytes[1024]


struct BurnIntent:
    maxBlockHeight: uint256
    maxFee: uint256
    spec: TransferSpec


TRANSFER_SPEC_TYPEHASH: constant(bytes32) = keccak256(
    "TransferSpec(uint32 version,uint32 sourceDomain,uint32 destinationDomain,bytes32 sourceContract,bytes32 destinationContract,bytes32 sourceToken,bytes32 destinationToken,bytes32 sourceDepositor,bytes32 destinationRecipient,bytes32 sourceSigner,bytes32 destinationCaller,uint256 value,bytes32 salt,bytes hookData)"
)
BURN_INTENT_TYPEHASH: constant(bytes32) = keccak256(
    "BurnIntent(uint256 maxBlockHeight,uint256 maxFee,TransferSpec spec)TransferSpec(uint32 version,uint32 sourceDomain,uint32 destinationDomain,bytes32 sourceContract,bytes32 destinationContract,bytes32 sourceToken,bytes32 destinationToken,bytes32 sourceDepositor,bytes32 destinationRecipient,bytes32 sourceSigner,bytes32 destinationCaller,uint256 value,bytes32 salt,bytes hookData)"
)
BURN_INTENT_SET_TYPEHASH: constant(bytes32) = keccak256(
    "BurnIntentSet(BurnIntent[] intents)BurnIntent(uint256 maxBlockHeight,uint256 maxFee,TransferSpec spec)TransferSpec(uint32 version,uint32 sourceDomain,uint32 destinationDomain,bytes32 sourceContract,bytes32 destinationContract,bytes32 sourceToken,bytes32 destinationToken,bytes32 sourceDepositor,bytes32 destinationRecipient,bytes32 sourceSigner,bytes32 destinationCaller,uint256 value,bytes32 salt,bytes hookData)"
)
EIP712_DOMAIN_TYPEHASH: constant(bytes32) = keccak256("EIP712Domain(string name,string version)")
MAX_INTENTS: constant(uint256) = 16


@internal
@pure
def _domain_separator() -> bytes32:
    return keccak256(abi_encode(EIP712_DOMAIN_TYPEHASH, keccak256("GatewayWallet"), keccak256("1")))


@internal
@pure
def _hash_spec(spec: TransferSpec) -> bytes32:
    head: Bytes[384] = abi_encode(
        TRANSFER_SPEC_TYPEHASH,
        spec.version,
        spec.sourceDomain,
        spec.destinationDomain,
        spec.sourceContract,
        spec.destinationContract,
        spec.sourceToken,
        spec.destinationToken,
        spec.sourceDepositor,
        spec.destinationRecipient,
        spec.sourceSigner,
        spec.destinationCaller,
    )
    return keccak256(concat(head, abi_encode(spec.value, spec.salt, keccak256(spec.hookData))))


@internal
@pure
def _hash_intent(intent: BurnIntent) -> bytes32:
    return keccak256(
        abi_encode(BURN_INTENT_TYPEHASH, intent.maxBlockHeight, intent.maxFee, self._hash_spec(intent.spec))
    )


@internal
@pure
def _digest(struct_hash: bytes32) -> bytes32:
    return keccak256(concat(b"\x19\x01", self._domain_separator(), struct_hash))


@internal
@pure
def _hash_set(intents: DynArray[BurnIntent, MAX_INTENTS]) -> bytes32:
    hashes: DynArray[bytes32, MAX_INTENTS] = []
    for intent: BurnIntent in intents:
        hashes.append(self._hash_intent(intent))
    # abi_encode of a dynamic array is its offset, its length, then the items: EIP-712
    # hashes the items alone, packed.
    packed: Bytes[576] = abi_encode(hashes)
    items: Bytes[576] = slice(packed, 64, 32 * len(hashes))
    return keccak256(abi_encode(BURN_INTENT_SET_TYPEHASH, keccak256(items)))


@external
@pure
def burn_intent_digest(intent: BurnIntent) -> bytes32:
    return self._digest(self._hash_intent(intent))


@external
@pure
def burn_intent_set_digest(intents: DynArray[BurnIntent, MAX_INTENTS]) -> bytes32:
    return self._digest(self._hash_set(intents))


@external
@pure
def recover_burn_intent(intent: BurnIntent, v: uint8, r: bytes32, s: bytes32) -> address:
    return ecrecover(self._digest(self._hash_intent(intent)), v, r, s)


@external
@pure
def recover_burn_intent_set(
    intents: DynArray[BurnIntent, MAX_INTENTS], v: uint8, r: bytes32, s: bytes32
) -> address:
    return ecrecover(self._digest(self._hash_set(intents)), v, r, s)
