# pragma version ~=0.4.3
"""
@title A USDC stand-in for tests: snekmate's ERC-20 with EIP-2612 permit, plus EIP-3009
@notice Like native USDC (FiatToken v2.2) it exposes `version()`, the EIP-712 domain
        version that permits and authorizations are signed for; the bytes-signature
        `permit` of ERC-7597; and `receiveWithAuthorization` of EIP-3009, with its
        bytes-signature form of ERC-7598. Overloads Vyper cannot declare are served by
        `__default__`. Test-only, never deployed.
"""

from ethereum.ercs import IERC20

implements: IERC20

from snekmate.auth import ownable as ow

initializes: ow

from snekmate.tokens import erc20

initializes: erc20[ownable := ow]

exports: erc20.__interface__

from snekmate.utils import ecdsa

_NAME: immutable(String[25])
_VERSION: immutable(String[20])

_DOMAIN_TYPE_HASH: constant(bytes32) = keccak256(
    "EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"
)
_PERMIT_TYPE_HASH: constant(bytes32) = keccak256(
    "Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)"
)
_RECEIVE_TYPE_HASH: constant(bytes32) = keccak256(
    "ReceiveWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"
)
_PERMIT_BYTES: constant(bytes4) = method_id(
    "permit(address,address,uint256,uint256,bytes)", output_type=bytes4
)
_RECEIVE_BYTES: constant(bytes4) = method_id(
    "receiveWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)",
    output_type=bytes4,
)

event AuthorizationUsed:
    authorizer: indexed(address)
    nonce: indexed(bytes32)


authorizationState: public(HashMap[address, HashMap[bytes32, bool]])


@deploy
def __init__(name_: String[25], symbol_: String[5], decimals_: uint8, version_: String[20]):
    ow.__init__()
    erc20.__init__(name_, symbol_, decimals_, name_, version_)
    _NAME = name_
    _VERSION = version_


@external
@view
def version() -> String[20]:
    return _VERSION


@internal
@view
def _digest(struct_hash: bytes32) -> bytes32:
    domain: bytes32 = keccak256(
        abi_encode(_DOMAIN_TYPE_HASH, keccak256(_NAME), keccak256(_VERSION), chain.id, self)
    )
    return keccak256(concat(b"\x19\x01", domain, struct_hash))


@internal
def _receive(
    authorizer: address,
    to: address,
    amount: uint256,
    valid_after: uint256,
    valid_before: uint256,
    nonce: bytes32,
    signature: Bytes[65],
):
    # EIP-3009's receiveWithAuthorization: only the payee may redeem it.
    assert to == msg.sender, "usdc: caller must be the payee"
    assert block.timestamp > valid_after, "usdc: authorization is not yet valid"
    assert block.timestamp < valid_before, "usdc: authorization is expired"
    assert not self.authorizationState[authorizer][nonce], "usdc: authorization is used"
    struct_hash: bytes32 = keccak256(
        abi_encode(_RECEIVE_TYPE_HASH, authorizer, to, amount, valid_after, valid_before, nonce)
    )
    signer: address = ecdsa._recover_sig(self._digest(struct_hash), signature)
    assert signer == authorizer, "usdc: invalid signature"
    self.authorizationState[authorizer][nonce] = True
    log AuthorizationUsed(authorizer=authorizer, nonce=nonce)
    erc20._transfer(authorizer, to, amount)


@external
def receiveWithAuthorization(
    authorizer: address,
    to: address,
    amount: uint256,
    valid_after: uint256,
    valid_before: uint256,
    nonce: bytes32,
    v: uint8,
    r: bytes32,
    s: bytes32,
):
    self._receive(
        authorizer, to, amount, valid_after, valid_before, nonce, concat(r, s, convert(v, bytes1))
    )


@internal
def _permit_bytes(
    owner: address, spender: address, amount: uint256, deadline: uint256, signature: Bytes[65]
):
    assert block.timestamp <= deadline, "erc20: expired deadline"
    current_nonce: uint256 = erc20.nonces[owner]
    erc20.nonces[owner] = current_nonce + 1
    struct_hash: bytes32 = keccak256(
        abi_encode(_PERMIT_TYPE_HASH, owner, spender, amount, current_nonce, deadline)
    )
    signer: address = ecdsa._recover_sig(self._digest(struct_hash), signature)
    assert signer == owner, "erc20: invalid signature"
    erc20._approve(owner, spender, amount)


@external
def __default__():
    # The overloads taking one `bytes` signature, which Vyper cannot declare by name.
    # The encodings are fixed for a 65-byte (EOA) signature: this token takes no other.
    selector: bytes4 = convert(slice(msg.data, 0, 4), bytes4)
    if selector == _PERMIT_BYTES:
        assert len(msg.data) == 4 + 288, "usdc: a 65-byte signature is expected"
        arguments: Bytes[288] = slice(msg.data, 4, 288)
        owner: address = empty(address)
        spender: address = empty(address)
        amount: uint256 = 0
        deadline: uint256 = 0
        signature: Bytes[65] = b""
        owner, spender, amount, deadline, signature = abi_decode(
            arguments, (address, address, uint256, uint256, Bytes[65])
        )
        self._permit_bytes(owner, spender, amount, deadline, signature)
        return
    if selector == _RECEIVE_BYTES:
        assert len(msg.data) == 4 + 352, "usdc: a 65-byte signature is expected"
        call: Bytes[352] = slice(msg.data, 4, 352)
        authorizer: address = empty(address)
        to: address = empty(address)
        amount: uint256 = 0
        valid_after: uint256 = 0
        valid_before: uint256 = 0
        nonce: bytes32 = empty(bytes32)
        signature: Bytes[65] = b""
        authorizer, to, amount, valid_after, valid_before, nonce, signature = abi_decode(
            call, (address, address, uint256, uint256, uint256, bytes32, Bytes[65])
        )
        self._receive(authorizer, to, amount, valid_after, valid_before, nonce, signature)
        return
    raise "usdc: unknown function"
