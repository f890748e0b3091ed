"""Whether a delegate added with ``addDelegate`` can sign for a Gateway balance yet.

On chain, ``isAuthorizedForBalance`` turns true as soon as ``addDelegate`` is mined, but
Gateway's API acts on what it has seen in a final block: a burn intent signed by the
delegate is refused until the ``addDelegate`` block is final on that chain. So a
delegate is ``none`` (not authorized), ``pending`` (authorized on chain, not final yet)
or ``ready``.

`delegate_readiness` decides from two facts read from the chain (the result of
`xswap_sdk.signing.is_authorized_for_balance_call`, and the time of the block that
mined ``addDelegate``) and the finality table `FINALITY_SECONDS` (defined in
`xswap_sdk.registry`, with its source). A chain not in the table needs ``finality_seconds``.
"""

from __future__ import annotations

from typing import Literal

from ..errors import InvalidInputError
from ..registry import FINALITY_SECONDS

__all__ = ["FINALITY_SECONDS", "DelegateReadiness", "delegate_readiness"]

DelegateReadiness = Literal["none", "pending", "ready"]
"""``none``: not authorized on chain; ``pending``: authorized, its block not final for
Gateway yet; ``ready``: Gateway accepts the delegate's signatures."""


def delegate_readiness(
    *,
    authorized: bool,
    added_at: float | None,
    now: float,
    chain_id: int,
    finality_seconds: float | None = None,
) -> DelegateReadiness:
    """Whether a delegate can sign burn intents that Gateway accepts.

    Args:
        authorized: ``isAuthorizedForBalance(usdc, depositor, delegate)`` on the chain.
        added_at: unix time of the block that mined ``addDelegate`` (``None`` when not
            known: then an authorized delegate is taken as added now).
        now: unix time now.
        chain_id: the chain of the balance.
        finality_seconds: Gateway's wait on this chain; `FINALITY_SECONDS`' entry by
            default (required for a chain not in it).

    Returns:
        ``none``, ``pending`` or ``ready``.

    Raises:
        InvalidInputError: a bad argument, or a chain with no known finality.
    """
    if not isinstance(authorized, bool):
        raise InvalidInputError("authorized", "must be True or False")
    for name, value in (("now", now), ("added_at", added_at)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
            raise InvalidInputError(name, "must be a unix time in seconds")
    wait = finality_seconds
    if wait is None:
        wait = FINALITY_SECONDS.get(chain_id)
        if wait is None:
            raise InvalidInputError(
                "finality_seconds",
                f"is required for chain {chain_id}: it is not in FINALITY_SECONDS",
            )
    elif isinstance(wait, bool) or not isinstance(wait, int | float) or wait < 0:
        raise InvalidInputError("finality_seconds", "must be a number of seconds, 0 or more")
    if not authorized:
        return "none"
    added = now if added_at is None else added_at
    return "ready" if now >= added + wait else "pending"
