# pragma version ~=0.4.3
"""
@title A minimal gateway wallet: deposits pulled with an EIP-2612 permit
@notice Has the spec's `depositWithPermit(token, owner, value, deadline, v, r, s)`
        (selector 0x8ef59739): it redeems the owner's permit, then pulls the
        tokens with transferFrom and credits the owner. Test-only.
"""

from ethereum.ercs import IERC20


interface IERC20Permit:
    def permit(
        owner: address, spender: address, amount: uint256, deadline: uint256, v: uint8, r: bytes32, s: bytes32
    ): nonpayable


event Deposited:
    token: indexed(address)
    depositor: indexed(address)
    value: uint256


deposits: public(HashMap[address, HashMap[address, uint256]])


@external
def depositWithPermit(
    token: address, owner: address, amount: uint256, deadline: uint256, v: uint8, r: bytes32, s: bytes32
):
    # Vyper reserves the name `value`; parameter names are not part of the selector.
    extcall IERC20Permit(token).permit(owner, self, amount, deadline, v, r, s)
    assert extcall IERC20(token).transferFrom(owner, self, amount, default_return_value=True)
    self.deposits[token][owner] += amount
    log Deposited(token=token, depositor=owner, value=amount)
