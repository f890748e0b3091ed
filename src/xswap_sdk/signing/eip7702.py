"""EIP-7702 authorizations: let an account run a contract's code, signed by its key.

An authorization is the tuple ``(chain_id, address, nonce)`` signed by the account (the
*authority*) over ``keccak256(0x05 || rlp([chain_id, address, nonce]))``. A relayer
that sends a type-4 transaction carrying it makes the authority's account delegate to
``address`` for good, until another authorization replaces it. So everything signed is
the caller's own argument: the SDK never takes a delegate, a chain or a nonce from a
service.

`sign_authorization` returns a `SignedAuthorization`, which is the relayer's
``authorizationList`` entry: ``{chainId, address, nonce, r, s, yParity}``. A local key
signs the digest directly; any other signer is asked through its own
``sign_authorization({"chainId", "address", "nonce"})`` (the method `eth_account`
accounts have), so that it sees what it signs, and its answer is recovered and checked.
Like every signature, it first passes the signing gate: a signing policy in force
(`xswap_sdk.policy.use_policy`) sees an ``"eip7702"`` request whose counterparty is the
delegate, and may refuse it with `PolicyRefusedError`.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    PrivateAttr,
    StrictInt,
    model_validator,
)

from .._keccak import keccak
from .._models import RequestModel, check_argument
from ..errors import InvalidInputError, SigningError
from ..types import MAX_UINT256, Address, ChainId, to_checksum
from .signer import (
    Signer,
    _asked,
    _gated,
    _local_account,
    _sign_locally,
    recover_digest,
    signer_address,
)

__all__ = [
    "AUTHORIZATION_MAGIC",
    "SignedAuthorization",
    "authorization_digest",
    "recover_authorization",
    "sign_authorization",
]

AUTHORIZATION_MAGIC = b"\x05"
"""The byte EIP-7702 puts before an authorization's RLP when hashing it."""

_MAX_NONCE = 2**64 - 1
# secp256k1's group order; EIP-7702 (like EIP-2) takes only s <= n/2.
_SECP256K1_N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
_QUANTITY = re.compile(r"0x[0-9a-fA-F]{1,64}")


def _rlp_length(length: int, short: int) -> bytes:
    if length < 56:
        return bytes((short + length,))
    size = length.to_bytes((length.bit_length() + 7) // 8, "big")
    return bytes((short + 55 + len(size),)) + size


def _rlp_item(data: bytes) -> bytes:
    if len(data) == 1 and data[0] < 0x80:
        return data
    return _rlp_length(len(data), 0x80) + data


def _rlp_int(value: int) -> bytes:
    return _rlp_item(value.to_bytes((value.bit_length() + 7) // 8, "big") if value else b"")


def authorization_digest(chain_id: int, address: str, nonce: int) -> bytes:
    """``keccak256(0x05 || rlp([chain_id, address, nonce]))``: what the authority signs.

    Raises:
        InvalidInputError: a chain id outside uint256, a bad address or a nonce
            outside uint64.
    """
    checked_chain, checked_address, checked_nonce = _check_tuple(chain_id, address, nonce)
    payload = (
        _rlp_int(checked_chain)
        + _rlp_item(bytes.fromhex(checked_address[2:]))
        + _rlp_int(checked_nonce)
    )
    return keccak(AUTHORIZATION_MAGIC + _rlp_length(len(payload), 0xC0) + payload)


def _check_tuple(chain_id: object, address: object, nonce: object) -> tuple[int, str, int]:
    checked_chain: int = check_argument("chain_id", ChainId, chain_id)
    if checked_chain > MAX_UINT256:
        raise InvalidInputError("chain_id", "must fit in a uint256")
    checked_address: str = check_argument("address", Address, address)
    if isinstance(nonce, bool) or not isinstance(nonce, int) or not 0 <= nonce <= _MAX_NONCE:
        raise InvalidInputError("nonce", "must be an int from 0 to 2**64 - 1 (EIP-7702)")
    return checked_chain, checked_address, nonce


def _to_word(value: object) -> str:
    # r and s: an int, or 0x hex of up to 32 bytes (viem pads them, others may not).
    if isinstance(value, bool):
        raise ValueError("must be an int or 0x hex of at most 32 bytes")
    if isinstance(value, int):
        if not 0 < value <= MAX_UINT256:
            raise ValueError("must be a positive 256-bit number")
        return f"0x{value:064x}"
    if isinstance(value, str) and _QUANTITY.fullmatch(value):
        return "0x" + value[2:].lower().rjust(64, "0")
    raise ValueError("must be an int or 0x hex of at most 32 bytes")


_Word = Annotated[str, BeforeValidator(_to_word)]
_Nonce = Annotated[StrictInt, Field(ge=0, le=_MAX_NONCE)]
_ChainId = Annotated[ChainId, Field(le=MAX_UINT256)]
_Parity = Annotated[Literal[0, 1], PlainSerializer(int, return_type=int)]


class SignedAuthorization(RequestModel):
    """A signed EIP-7702 authorization, in the relayer's ``authorizationList`` form.

    Build one with `sign_authorization`, or read one made elsewhere (a dict with the
    wire names ``chainId``, ``address``, ``nonce``, ``r``, ``s``, ``yParity``); either
    way the signature must recover to an account, with the low ``s`` EIP-7702 takes.
    ``r`` and ``s`` are kept as ``0x`` + 64 hex digits and left out of ``repr``.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(validate_by_alias=True)

    chain_id: _ChainId
    """The chain it is valid on; 0 means every chain."""
    address: Address
    """The contract whose code the authority's account will run (checksummed)."""
    nonce: _Nonce
    """The authority's account nonce when the authorization is applied."""
    r: _Word = Field(repr=False)
    """The signature's ``r``."""
    s: _Word = Field(repr=False)
    """The signature's ``s`` (at most half the curve order)."""
    y_parity: _Parity
    """The signature's recovery bit, 0 or 1."""

    _authority: str = PrivateAttr(default="")

    @model_validator(mode="after")
    def _recovers(self) -> SignedAuthorization:
        if int(self.s, 16) > _SECP256K1_N // 2:
            raise ValueError("s is above half the curve order, which EIP-7702 refuses")
        try:
            self._authority = recover_digest(self.digest, self.signature)
        except (InvalidInputError, SigningError):
            raise ValueError("the signature does not recover to any account") from None
        return self

    @property
    def digest(self) -> bytes:
        """The 32 bytes that were signed (`authorization_digest`)."""
        return authorization_digest(self.chain_id, self.address, self.nonce)

    @property
    def signature(self) -> str:
        """``r || s || v`` as ``0x`` + 130 hex digits (``v`` 27 or 28)."""
        return f"0x{self.r[2:]}{self.s[2:]}{self.y_parity + 27:02x}"

    @property
    def authority(self) -> str:
        """The account that signed it, recovered from the signature (checksummed)."""
        return self._authority

    def to_eth_account(self) -> dict[str, Any]:
        """The form `eth_account` and web3 put in a transaction's ``authorizationList``
        (``chainId``, ``address``, ``nonce``, ``yParity``, ``r``, ``s`` as ints)."""
        return {
            "chainId": self.chain_id,
            "address": self.address,
            "nonce": self.nonce,
            "yParity": self.y_parity,
            "r": int(self.r, 16),
            "s": int(self.s, 16),
        }


def _answer_signature(answer: object) -> object:
    # eth_account answers with r, s and y_parity; any other answer is left to the
    # signature checks every signer's answer goes through.
    r, s, parity = (getattr(answer, name, None) for name in ("r", "s", "y_parity"))
    if isinstance(r, int) and isinstance(s, int) and parity in (0, 1):
        return r.to_bytes(32, "big") + s.to_bytes(32, "big") + bytes((int(parity) + 27,))
    return answer


def sign_authorization(
    signer: Signer, *, chain_id: int, address: str, nonce: int, unsafe_any_chain: bool = False
) -> SignedAuthorization:
    """Sign an EIP-7702 authorization: ``signer``'s account will run ``address``'s code.

    Every signed value is an argument: the SDK takes none from a service. The result
    goes as it is into the relayer's ``authorization_list``.

    Args:
        signer: the account that delegates (its key signs); an `eth_account`
            ``LocalAccount``, or any signer with a ``sign_authorization(dict)`` method.
        chain_id: the chain the delegation is for. 0 would make it valid on every
            chain, where anyone could replay it: refused unless ``unsafe_any_chain``.
        address: the contract to delegate to. Only delegate to code you trust: it can
            move everything the account holds.
        nonce: the account's nonce when the authorization is applied (its current
            transaction count; one more when the account also sends the transaction).
        unsafe_any_chain: DANGEROUS: allow ``chain_id=0``, a delegation valid on every
            EVM chain, replayable on each where the account's nonce matches.

    Returns:
        The signed authorization; ``authority`` is the signer's address.

    Raises:
        InvalidInputError: a bad argument, ``chain_id=0`` without ``unsafe_any_chain``,
            or ``signer`` is not a `Signer`.
        SigningError: the signer cannot sign authorizations, failed, or signed for
            another account.
    """
    checked_chain, checked_address, checked_nonce = _check_tuple(chain_id, address, nonce)
    if not isinstance(unsafe_any_chain, bool):
        raise InvalidInputError("unsafe_any_chain", "must be True or False")
    if checked_chain == 0 and not unsafe_any_chain:
        raise InvalidInputError(
            "chain_id",
            "is 0, which makes the delegation valid on every chain (anyone may replay it "
            "wherever the nonce matches): pass the chain id, or unsafe_any_chain=True if "
            "you mean every chain",
        )
    owner = signer_address(signer)
    digest = authorization_digest(checked_chain, checked_address, checked_nonce)
    with _gated(
        lambda gate: gate.describe_authorization(
            owner, checked_chain, checked_address, checked_nonce
        )
    ):
        raw = _signed_authorization(
            signer, owner, digest, checked_chain, checked_address, checked_nonce
        )
    return SignedAuthorization(
        chain_id=checked_chain,
        address=checked_address,
        nonce=checked_nonce,
        r="0x" + raw[:32].hex(),
        s="0x" + raw[32:64].hex(),
        y_parity=raw[64] - 27,
    )


def _signed_authorization(
    signer: Signer, owner: str, digest: bytes, chain_id: int, address: str, nonce: int
) -> bytes:
    """65 bytes ``r || s || v`` over ``digest``, from a local key or the signer's own
    ``sign_authorization``."""
    local = _local_account(signer)
    if local is not None:
        return _sign_locally(local, digest)
    sign = getattr(signer, "sign_authorization", None)
    if not callable(sign):
        raise SigningError("the signer cannot sign EIP-7702 authorizations")
    request = {"chainId": chain_id, "address": address, "nonce": nonce}
    # Checked like every other signer's answer: usable, and recovering to the owner.
    return _asked(owner, digest, lambda: _answer_signature(sign(request)))


def recover_authorization(authorization: SignedAuthorization | dict[str, Any]) -> str:
    """The account that signed ``authorization`` (checksummed).

    Raises:
        InvalidInputError: not a well-formed authorization, or its signature does not
            recover.
    """
    if isinstance(authorization, SignedAuthorization):
        return authorization.authority
    checked: SignedAuthorization = check_argument(
        "authorization", SignedAuthorization, authorization
    )
    return to_checksum(checked.authority)
