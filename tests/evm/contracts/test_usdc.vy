# pragma version ~=0.4.3
"""
@title A USDC stand-in for tests: snekmate's ERC-20 with EIP-2612 permit
@notice Like native USDC it exposes `version()`, the EIP-712 domain version
        that permit signatures are made for. Test-only, never deployed.
"""

from ethereum.ercs import IERC20

implements: IERC20

from snekmate.auth import ownable as ow

initializes: ow

from snekmate.tokens import erc20

initializes: erc20[ownable := ow]

exports: erc20.__interface__

_VERSION: immutable(String[20])


@deploy
def __init__(name_: String[25], symbol_: String[5], decimals_: uint8, version_: String[20]):
    ow.__init__()
    erc20.__init__(name_, symbol_, decimals_, name_, version_)
    _VERSION = version_


@external
@view
def version() -> String[20]:
    return _VERSION
