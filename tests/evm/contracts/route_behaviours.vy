# pragma version ~=0.4.3
"""
@title A routing contract whose behaviour a test sets, for the simulation tests
@notice `executeRoute` is the call the sandbox's built transactions make. It pulls the
        route's input plus `extra` from the sender, then pays `pay_amount` of
        `out_token` to `pay_to` (the sender when empty), or reverts when `fail` is set:
        an honest route, or one that pays elsewhere, pays too little, takes too much
        or reverts. No constructor, so its runtime code can be placed at the sandbox's
        routing contract address. Test-only, never deployed.
"""

from ethereum.ercs import IERC20

out_token: public(address)
pay_to: public(address)
pay_amount: public(uint256)
extra: public(uint256)
fail: public(bool)


@external
def configure(out_token: address, pay_to: address, pay_amount: uint256, extra: uint256, fail: bool):
    self.out_token = out_token
    self.pay_to = pay_to
    self.pay_amount = pay_amount
    self.extra = extra
    self.fail = fail


@external
@payable
def executeRoute(quote_id: bytes32, token: address, amount: uint256, sender: address):
    assert not self.fail, "the route failed"
    assert sender == msg.sender, "only the route's sender"
    assert extcall IERC20(token).transferFrom(sender, self, amount + self.extra), "transferFrom"
    if self.pay_amount > 0:
        receiver: address = self.pay_to
        if receiver == empty(address):
            receiver = sender
        assert extcall IERC20(self.out_token).transfer(receiver, self.pay_amount), "transfer"
