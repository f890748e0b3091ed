# pragma version ~=0.4.3
"""
@title A minimal gateway wallet, per Circle's public GatewayWallet interface
@notice Deposits by EIP-2612 permit (the v, r, s `depositWithPermit`, selector
        0x8ef59739, and the bytes-signature overload, 0x26a3fb30) and by EIP-3009
        authorization (`depositWithAuthorization`, 0x8a94d4fc, and its bytes
        overload, 0x438d4835); balances that are available, withdrawing or
        withdrawable; `initiateWithdrawal` then `withdraw` after `withdrawalDelay()`
        blocks; delegates. Overloads Vyper cannot declare are served by `__default__`.
        The revert reasons are the names of Circle's custom errors. Test-only.
"""

from ethereum.ercs import IERC20


interface IToken:
    def permit(
        owner: address, spender: address, amount: uint256, deadline: uint256, v: uint8, r: bytes32, s: bytes32
    ): nonpayable
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
    ): nonpayable


event Deposited:
    token: indexed(address)
    depositor: indexed(address)
    sender: indexed(address)
    value: uint256


event WithdrawalInitiated:
    token: indexed(address)
    depositor: indexed(address)
    value: uint256
    remainingAvailable: uint256
    totalWithdrawing: uint256
    withdrawalBlock: uint256


event WithdrawalCompleted:
    token: indexed(address)
    depositor: indexed(address)
    value: uint256


event DelegateAdded:
    token: indexed(address)
    depositor: indexed(address)
    delegate: address


event DelegateRemoved:
    token: indexed(address)
    depositor: indexed(address)
    delegate: address


_PERMIT_BYTES: constant(bytes4) = method_id(
    "depositWithPermit(address,address,uint256,uint256,bytes)", output_type=bytes4
)
_AUTHORIZATION_BYTES: constant(bytes4) = method_id(
    "depositWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)",
    output_type=bytes4,
)
_TOKEN_PERMIT_BYTES: constant(bytes4) = method_id(
    "permit(address,address,uint256,uint256,bytes)", output_type=bytes4
)
_TOKEN_RECEIVE_BYTES: constant(bytes4) = method_id(
    "receiveWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)",
    output_type=bytes4,
)
_UNAUTHORIZED: constant(uint8) = 0
_AUTHORIZED: constant(uint8) = 1
_REVOKED: constant(uint8) = 2

owner: public(address)
withdrawalDelay: public(uint256)
_available: HashMap[address, HashMap[address, uint256]]
_withdrawing: HashMap[address, HashMap[address, uint256]]
_withdrawal_blocks: HashMap[address, HashMap[address, uint256]]
_delegates: HashMap[address, HashMap[address, HashMap[address, uint8]]]


@deploy
def __init__():
    self.owner = msg.sender
    self.withdrawalDelay = 5


@external
def updateWithdrawalDelay(new_delay: uint256):
    assert msg.sender == self.owner, "OwnableUnauthorizedAccount"
    self.withdrawalDelay = new_delay


# ------------------------------------------------------------------ deposits


@internal
def _credit(token: address, depositor: address, amount: uint256):
    assert amount > 0, "DepositValueMustBePositive"
    self._available[token][depositor] += amount
    log Deposited(token=token, depositor=depositor, sender=depositor, value=amount)


@external
def depositWithPermit(
    token: address, owner: address, amount: uint256, deadline: uint256, v: uint8, r: bytes32, s: bytes32
):
    # Vyper reserves the name `value`; parameter names are not part of the selector.
    self._credit(token, owner, amount)
    extcall IToken(token).permit(owner, self, amount, deadline, v, r, s)
    assert extcall IERC20(token).transferFrom(owner, self, amount, default_return_value=True)


@external
def depositWithAuthorization(
    token: address,
    authorizer: address,
    amount: uint256,
    valid_after: uint256,
    valid_before: uint256,
    nonce: bytes32,
    v: uint8,
    r: bytes32,
    s: bytes32,
):
    self._credit(token, authorizer, amount)
    extcall IToken(token).receiveWithAuthorization(
        authorizer, self, amount, valid_after, valid_before, nonce, v, r, s
    )


@external
def __default__():
    # The overloads taking one `bytes` signature (a 65-byte one here), which Vyper cannot
    # declare by name; each passes the signature on to the token's bytes form.
    selector: bytes4 = convert(slice(msg.data, 0, 4), bytes4)
    if selector == _PERMIT_BYTES:
        assert len(msg.data) == 4 + 288, "a 65-byte signature is expected"
        call: Bytes[288] = slice(msg.data, 4, 288)
        token: address = empty(address)
        owner: address = empty(address)
        amount: uint256 = 0
        deadline: uint256 = 0
        signature: Bytes[65] = b""
        token, owner, amount, deadline, signature = abi_decode(
            call, (address, address, uint256, uint256, Bytes[65])
        )
        self._credit(token, owner, amount)
        raw_call(
            token,
            abi_encode(owner, self, amount, deadline, signature, method_id=_TOKEN_PERMIT_BYTES),
        )
        assert extcall IERC20(token).transferFrom(owner, self, amount, default_return_value=True)
        return
    if selector == _AUTHORIZATION_BYTES:
        assert len(msg.data) == 4 + 352, "a 65-byte signature is expected"
        encoded: Bytes[352] = slice(msg.data, 4, 352)
        token: address = empty(address)
        authorizer: address = empty(address)
        amount: uint256 = 0
        valid_after: uint256 = 0
        valid_before: uint256 = 0
        nonce: bytes32 = empty(bytes32)
        signature: Bytes[65] = b""
        token, authorizer, amount, valid_after, valid_before, nonce, signature = abi_decode(
            encoded, (address, address, uint256, uint256, uint256, bytes32, Bytes[65])
        )
        self._credit(token, authorizer, amount)
        raw_call(
            token,
            abi_encode(
                authorizer,
                self,
                amount,
                valid_after,
                valid_before,
                nonce,
                signature,
                method_id=_TOKEN_RECEIVE_BYTES,
            ),
        )
        return
    raise "unknown function"


# ------------------------------------------------------------------ balances


@external
@view
def availableBalance(token: address, depositor: address) -> uint256:
    return self._available[token][depositor]


@external
@view
def withdrawingBalance(token: address, depositor: address) -> uint256:
    return self._withdrawing[token][depositor]


@external
@view
def withdrawableBalance(token: address, depositor: address) -> uint256:
    if self._withdrawal_blocks[token][depositor] > block.number:
        return 0
    return self._withdrawing[token][depositor]


@external
@view
def totalBalance(token: address, depositor: address) -> uint256:
    return self._available[token][depositor] + self._withdrawing[token][depositor]


@external
@view
def deposits(token: address, depositor: address) -> uint256:
    # Kept for the older tests and examples: the total balance.
    return self._available[token][depositor] + self._withdrawing[token][depositor]


@external
@view
def withdrawalBlock(token: address, depositor: address) -> uint256:
    return self._withdrawal_blocks[token][depositor]


# ------------------------------------------------------------------ withdrawals


@external
def initiateWithdrawal(token: address, amount: uint256):
    assert amount > 0, "WithdrawalValueMustBePositive"
    available: uint256 = self._available[token][msg.sender]
    assert amount <= available, "WithdrawalValueExceedsAvailableBalance"
    self._available[token][msg.sender] = available - amount
    self._withdrawing[token][msg.sender] += amount
    withdrawal_block: uint256 = block.number + self.withdrawalDelay
    self._withdrawal_blocks[token][msg.sender] = withdrawal_block
    log WithdrawalInitiated(
        token=token,
        depositor=msg.sender,
        value=amount,
        remainingAvailable=available - amount,
        totalWithdrawing=self._withdrawing[token][msg.sender],
        withdrawalBlock=withdrawal_block,
    )


@external
def withdraw(token: address):
    assert self._withdrawal_blocks[token][msg.sender] <= block.number, "WithdrawalNotYetAvailable"
    amount: uint256 = self._withdrawing[token][msg.sender]
    assert amount > 0, "NoWithdrawingBalance"
    self._withdrawing[token][msg.sender] = 0
    self._withdrawal_blocks[token][msg.sender] = 0
    assert extcall IERC20(token).transfer(msg.sender, amount, default_return_value=True)
    log WithdrawalCompleted(token=token, depositor=msg.sender, value=amount)


# ------------------------------------------------------------------ delegates


@external
def addDelegate(token: address, delegate: address):
    assert delegate != empty(address), "InvalidAddress"
    assert delegate != msg.sender, "CannotDelegateToSelf"
    self._delegates[token][msg.sender][delegate] = _AUTHORIZED
    log DelegateAdded(token=token, depositor=msg.sender, delegate=delegate)


@external
def removeDelegate(token: address, delegate: address):
    assert delegate != empty(address), "InvalidAddress"
    if self._delegates[token][msg.sender][delegate] != _AUTHORIZED:
        return
    self._delegates[token][msg.sender][delegate] = _REVOKED
    log DelegateRemoved(token=token, depositor=msg.sender, delegate=delegate)


@external
@view
def isAuthorizedForBalance(token: address, depositor: address, addr: address) -> bool:
    if addr == depositor:
        return True
    return self._delegates[token][depositor][addr] == _AUTHORIZED
