# pragma version ~=0.4.3
"""
@title snekmate's ERC-20 with EIP-2612 permit, as it is: no `version()` getter
@notice Exercises the SDK's fallback to a configured permit domain version.
"""

from ethereum.ercs import IERC20

implements: IERC20

from snekmate.auth import ownable as ow

initializes: ow

from snekmate.tokens import erc20

initializes: erc20[ownable := ow]

exports: erc20.__interface__


@deploy
def __init__(name_: String[25], symbol_: String[5], decimals_: uint8, version_: String[20]):
    ow.__init__()
    erc20.__init__(name_, symbol_, decimals_, name_, version_)
