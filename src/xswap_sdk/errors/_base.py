"""The root of the tree, the caller's own mistakes (raised before any I/O), and a
missing optional extra."""

from __future__ import annotations

import copyreg
from collections.abc import Mapping
from typing import Any

__all__ = [
    "InsufficientBalanceError",
    "InvalidInputError",
    "MissingCredentialsError",
    "MissingDependencyError",
    "QuoteRejectedError",
    "XSwapError",
]


class XSwapError(Exception):
    """Root of every exception raised by `xswap_sdk`.

    Its ``sent`` says whether the failed request reached the service: ``"not_sent"``,
    ``"outcome_unknown"`` (it may have: check before sending again) or ``"sent"`` (the
    service answered). An error raised before any request says ``"not_sent"``.
    """

    journey_id: str | None = None
    """The money journey the error ended (or interrupted), when it was raised by one: what
    ``resume`` takes. ``None`` otherwise."""

    _journey_sent: str | None = None

    @property
    def sent(self) -> str:
        """``"not_sent"``, ``"outcome_unknown"`` or ``"sent"``; see the class.

        Raised by a journey after its money request was accepted, it says ``"sent"``
        whatever failed later (a wait that timed out, a status read that failed): the
        money moved, and sending again would move it twice."""
        if getattr(self, "outcome_unknown", False):
            return "outcome_unknown"
        if self._journey_sent is not None:
            return self._journey_sent
        return "sent" if self._reached_service() else "not_sent"

    def _reached_service(self) -> bool:
        # Only a request's error (an APIError) can have reached a service; it says so.
        return False

    def __reduce__(self) -> tuple[Any, ...]:
        # Unpickled (or copied) without calling __init__, whose arguments are not the
        # message that ``args`` holds; the attributes it set come back from the state.
        # copyreg.__newobj__ is pickle's own "cls.__new__(cls, *args)", named by a stable
        # path (typeshed leaves it out).
        reduced = super().__reduce__()
        state = reduced[2:] if isinstance(reduced, tuple) else ()
        rebuild = copyreg.__newobj__  # type: ignore[attr-defined]
        return (rebuild, (type(self), *self.args), *state)


class InvalidInputError(XSwapError, ValueError):
    """An argument broke a rule; raised before any network I/O.

    Attributes:
        argument: the name of the offending argument or field, as the caller spelled it.
        rule: what the value must be.
    """

    def __init__(self, argument: str, rule: str) -> None:
        self.argument = argument
        self.rule = rule
        super().__init__(f"{argument}: {rule}")


class MissingCredentialsError(InvalidInputError):
    """A call needs credentials that the client was not given.

    The message names the constructor argument and the environment variable that provide
    them. Raised before any network I/O.

    Attributes:
        env_var: the environment variable that would provide them, if one does.
    """

    def __init__(self, argument: str, rule: str, *, env_var: str | None = None) -> None:
        self.env_var = env_var
        super().__init__(argument, rule)


class InsufficientBalanceError(InvalidInputError):
    """The gateway balances cannot cover an order: each source chain needs its balance to
    hold the value taken from it plus the intent's ``maxFee``.

    The message names, per chain, what is there and what can be used. Raised before
    anything is signed or sent.

    Attributes:
        shortfall: how much is missing, in smallest USDC units.
        usable: per chain id, what could be taken (balance less the fee, never negative).
    """

    def __init__(self, rule: str, *, shortfall: int, usable: Mapping[int, int]) -> None:
        self.shortfall = shortfall
        self.usable: dict[int, int] = dict(usable)
        super().__init__("balances", rule)


class QuoteRejectedError(InvalidInputError):
    """A quote that looks honest cannot be used: it expired, its gateway fee is above
    the caller's own ``max_fee_cap``, or it lacks a field the order needs. Nothing was
    signed or sent; ask for a new quote. (A quote that is not what was asked for, or
    that disagrees with a pinned fact, is an `UnsafePayloadError` instead.)

    Attributes:
        quote: the rejected quote.
    """

    def __init__(self, argument: str, rule: str, *, quote: Any = None) -> None:
        self.quote = quote
        super().__init__(argument, rule)


class MissingDependencyError(XSwapError, ImportError):
    """A feature needs an optional extra that is not installed.

    The message gives the command that installs it, e.g.
    ``pip install ".[web3]"`` in a checkout of xswap-sdk.
    """
