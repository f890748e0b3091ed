# pragma version ~=0.4.3
"""
@title A stand-in for the routing service's contract, for tests
@notice `executeRoute` is the call the sandbox's built transactions make: it pulls the
        route's input from the sender, as a real routing contract does before swapping
        or bridging. No constructor and no immutables, so its runtime code can be placed
        at the sandbox's routing contract address. Test-only, never deployed.
"""

from ethereum.ercs import IERC20


@external
def executeRoute(quote_id: bytes32, token: address, amount: uint256, sender: address):
    assert sender == msg.sender, "only the route's sender"
    assert extcall IERC20(token).transferFrom(sender, self, amount), "transferFrom"
