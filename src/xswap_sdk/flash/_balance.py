"""Waiting for a gateway balance through the swap backend: the flow behind
``FlashClient.wait_for_gateway_balance`` when no Circle Gateway client is configured.

It polls ``GET /balance/{address}`` until the entry of the chain asked for holds at least
the amount asked for. With a Gateway client the same wait asks Circle instead
(``GatewayClient.wait_for_gateway_balance``), which sees the balance independently of
the backend.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._clock import Clock
from .._flow import Call, Flow
from .._models import check_argument

# The same wait as GatewayClient.wait_for_gateway_balance: a deposit counts once final.
from .._polling import (
    DEFAULT_BALANCE_POLL_INTERVAL,
    DEFAULT_BALANCE_TIMEOUT,
    check_wait_arguments,
    poll_balance,
)
from ..errors import InvalidInputError
from ..types import Address, TokenAmount
from . import _operations as operations

if TYPE_CHECKING:
    from ._balance_models import GatewayBalance, GatewayBalanceEntry

__all__ = [
    "DEFAULT_BALANCE_POLL_INTERVAL",
    "DEFAULT_BALANCE_TIMEOUT",
    "balance_on",
    "wait_for_balance",
]


def _entry(balance: GatewayBalance, chain_id: int) -> GatewayBalanceEntry | None:
    return next((entry for entry in balance.balances if entry.chain_id == chain_id), None)


def balance_on(owner: str, chain_id: int) -> Flow[int]:
    """The owner's gateway balance on ``chain_id`` now (``0`` without an entry)."""
    balance: GatewayBalance = yield Call(operations.get_balance(owner))
    entry = _entry(balance, chain_id)
    return 0 if entry is None else int(entry.balance)


def wait_for_balance(
    depositor: str,
    chain_id: int,
    *,
    at_least: int | str,
    timeout: float,
    interval: float,
    clock: Clock,
) -> Flow[GatewayBalanceEntry]:
    """Poll the backend's ``GET /balance/{address}`` until the depositor's entry for
    ``chain_id`` holds at least ``at_least`` smallest units.

    Args:
        depositor: the balance's owner.
        chain_id: the chain deposited on.
        at_least: smallest USDC units to wait for.
        timeout: seconds before giving up.
        interval: seconds between two reads.
        clock: the client's clock.

    Returns:
        The flow; it returns the entry of ``chain_id``.

    Raises:
        InvalidInputError: a bad argument (when the flow is made, before any I/O).
        WaitTimeoutError: time ran out (``last_status`` is the last entry seen, or
            ``None`` when the backend listed none for the chain).
    """
    owner: str = check_argument("depositor", Address, depositor)
    if isinstance(chain_id, bool) or not isinstance(chain_id, int) or chain_id < 1:
        raise InvalidInputError("chain_id", "must be a positive int")
    wanted: int = check_argument("at_least", TokenAmount, at_least)
    check_wait_arguments(timeout, interval, timeout_name="wait_timeout")
    page = operations.get_balance(owner)

    def parse(data: Any) -> GatewayBalanceEntry | None:
        return _entry(page.parse(data), chain_id)

    # The answer read down to the chain's entry, so that a timeout's ``last_status`` is
    # that entry.
    operation = page.reading(parse)

    return (
        yield from poll_balance(
            operation,
            wanted,
            whose=f"{owner}'s gateway balance on chain {chain_id}",
            none_yet="no entry for the chain yet",
            timeout=timeout,
            interval=interval,
            clock=clock,
        )
    )
