"""Which signing policies are in force here: one `contextvars.ContextVar`.

The signing gate (`xswap_sdk.signing._gate`) reads it before every signature, and
`xswap_sdk._slippage` reads it for the default slippage maximum. It is set by
`xswap_sdk.policy.use_policy` and around every public method of a client made with
``policy=`` (`scoped`). A context variable follows the code that set it into the
functions it calls, the threads' own contexts and each asyncio task (a task copies its
creator's context), so a policy activated for one call never leaks into another.

This module is imported by the signing primitives, so it is tiny and imports nothing
heavy: with no policy, the gate costs one ``ContextVar.get``.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, Final, Protocol

if TYPE_CHECKING:
    from decimal import Decimal


class InForce(Protocol):
    """What this scope keeps, and what its readers ask of a policy in force: a
    `xswap_sdk.policy.Policy`, described here rather than imported, since the policy
    module builds on this one (``use_policy`` sets the scope)."""

    @property
    def max_slippage(self) -> Decimal:
        """The largest slippage, in percent, a call may accept (``_slippage.py``)."""
        ...

    def _admit(self, request: Any) -> Any:
        """Allow a signing request, or raise; what it reserved (the signing gate)."""
        ...

    def _release(self, reserved: Any) -> None:
        """Give back what `_admit` reserved, when the signature was not made."""
        ...


class _Keywords(Protocol):
    """What `scoped` runs first: `xswap_sdk._keywords.KeywordCheck` (not imported here,
    to keep this module light)."""

    def check(self, owner: object, keywords: dict[str, Any]) -> None: ...


__all__ = ["ACTIVE", "APPROVED", "InForce", "activated", "active_policies", "scoped"]

ACTIVE: Final[ContextVar[tuple[InForce, ...]]] = ContextVar("xswap_sdk_policies", default=())
"""The policies in force, outermost first; every one of them must allow a signature."""


APPROVED: Final[ContextVar[list[Any] | None]] = ContextVar("xswap_sdk_approved", default=None)
"""Where the signing gate adds each `SigningRequest` it let through, while a journaled
journey runs (its ``signed`` step records them); ``None`` otherwise."""


def active_policies() -> tuple[InForce, ...]:
    """The policies in force in this context (empty when none)."""
    return ACTIVE.get()


@contextmanager
def activated(policy: InForce | None) -> Iterator[None]:
    """Put ``policy`` in force for the block, on top of those already in force.

    ``None``, or a policy already in force (a client method calling another), changes
    nothing: a policy is never asked twice about one signature.
    """
    current = ACTIVE.get()
    if policy is None or any(active is policy for active in current):
        yield
        return
    token = ACTIVE.set((*current, policy))
    try:
        yield
    finally:
        ACTIVE.reset(token)


_SCOPED: Final = "__xswap_policy_scoped__"


def scoped(method: Callable[..., Any], keywords: _Keywords | None = None) -> Callable[..., Any]:
    """Wrap a client method so that the client's policy is in force while it runs.

    ``keywords`` (when given) checks the call's keyword arguments first, before the
    method runs, so an unknown one raises `TypeError` before anything is signed or sent
    (see ``xswap_sdk._keywords``). The client's policy is read from
    ``self._options.policy`` on each call, so a ``with_options(policy=...)`` copy uses
    its own. Coroutines, async generators and
    generators keep their kind (the policy is in force during each step of an iterator,
    never between steps, so it cannot leak into the code that consumes it).
    """
    if getattr(method, _SCOPED, False):
        return method
    wrapper: Callable[..., Any]
    if inspect.isasyncgenfunction(method):

        @functools.wraps(method)
        async def async_iterator(self: Any, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
            policy = self._options.policy
            try:
                if keywords is not None:
                    keywords.check(self, kwargs)
                inner = method(self, *args, **kwargs)
            finally:
                del args, kwargs  # a signature given as an argument stays out of this frame
            try:
                while True:
                    with activated(policy):
                        try:
                            item = await inner.__anext__()
                        except StopAsyncIteration:
                            return
                    yield item
            finally:
                await inner.aclose()

        wrapper = async_iterator
    elif inspect.iscoroutinefunction(method):

        @functools.wraps(method)
        async def coroutine(self: Any, *args: Any, **kwargs: Any) -> Any:
            policy = self._options.policy
            try:
                if keywords is not None:
                    keywords.check(self, kwargs)
                if policy is None:
                    return await method(self, *args, **kwargs)
                with activated(policy):
                    return await method(self, *args, **kwargs)
            except BaseException:
                # The traceback keeps this frame: no signature given as an argument in it.
                del args, kwargs
                raise

        wrapper = coroutine
    elif inspect.isgeneratorfunction(method):

        @functools.wraps(method)
        def iterator(self: Any, *args: Any, **kwargs: Any) -> Iterator[Any]:
            policy = self._options.policy
            try:
                if keywords is not None:
                    keywords.check(self, kwargs)
                inner = method(self, *args, **kwargs)
            finally:
                del args, kwargs  # a signature given as an argument stays out of this frame
            try:
                while True:
                    with activated(policy):
                        try:
                            item = next(inner)
                        except StopIteration:
                            return
                    yield item
            finally:
                inner.close()

        wrapper = iterator
    else:

        @functools.wraps(method)
        def function(self: Any, *args: Any, **kwargs: Any) -> Any:
            policy = self._options.policy
            try:
                if keywords is not None:
                    keywords.check(self, kwargs)
                if policy is None:
                    return method(self, *args, **kwargs)
                with activated(policy):
                    return method(self, *args, **kwargs)
            except BaseException:
                # The traceback keeps this frame: no signature given as an argument in it.
                del args, kwargs
                raise

        wrapper = function
    setattr(wrapper, _SCOPED, True)
    return wrapper
