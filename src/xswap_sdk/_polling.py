"""Poll until a record reaches a terminal state, written once for sync and async.

`poll` is a flow (see ``xswap_sdk._flow``): it asks for the record, checks it, sleeps,
and asks again, until the check says done, the check raises a failure, or the time is
up. The clients' ``wait_for_*`` methods run it; for example
`RelayerClient.wait_for_execution_hash` reproduces the JavaScript relayer client's
``waitForExecutionHash`` with its 5000 ms timeout and 50 ms interval.

Timing follows that client: the first request goes out at once, then one request per
interval while less than ``timeout`` has passed since the start. The interval runs from
the start of the previous request, not from its answer, so a record that changes is
seen within one interval plus one round trip; an answer slower than the interval is
followed at once by the next request, never by two. A record is always requested at
least once, even with a zero timeout. When the time is up, a
`WaitTimeoutError` carries the last record seen; the operation itself may still
complete.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Protocol, TypeVar

from ._clock import Clock
from ._flow import Call, Flow, Sleep
from ._operation import Operation
from ._options import RequestOptions, WaitOptions, check_seconds
from .errors import DeadlineExceededError, InvalidInputError, WaitTimeoutError, XSwapError

__all__ = [
    "DEFAULT_BALANCE_POLL_INTERVAL",
    "DEFAULT_BALANCE_TIMEOUT",
    "call_options",
    "check_wait_arguments",
    "poll",
    "poll_balance",
    "poll_found",
    "wait_options",
]

T = TypeVar("T")


class _Balance(Protocol):
    @property
    def balance(self) -> int: ...


B = TypeVar("B", bound=_Balance)

DEFAULT_BALANCE_TIMEOUT: Final = 1800.0
"""Seconds `wait_for_gateway_balance` waits by default: a deposit counts once Gateway sees
it in a finalized block, about 20 minutes on Ethereum and Base (13 to 19 on other
rollups, seconds on Avalanche or Arc), so half an hour leaves a margin."""

DEFAULT_BALANCE_POLL_INTERVAL: Final = 10.0
"""Seconds between two balance reads while waiting."""

_TOLERANCE = 1e-6


def check_wait_arguments(
    timeout: float,
    interval: float,
    *,
    timeout_name: str = "timeout",
    interval_name: str = "poll_interval",
) -> None:
    """Refuse, before any I/O, a wait timeout that is negative, NaN or infinite (a wait
    must end) and an interval that is not positive and finite."""
    check_seconds(timeout, argument=timeout_name, allow_zero=True)
    check_seconds(interval, argument=interval_name)


def wait_options(options: WaitOptions, *, limit: str = "wait_timeout") -> RequestOptions:
    """A wait's per-call options, refusing ``timeout``, before anything is sent.

    ``timeout=`` reads as the wait's limit but would be each request's timeout (and the
    wait would give up at its own default): the error names ``limit``, the wait's real
    limit argument, and where the per-request timeout is set.
    """
    if "timeout" in options:
        unit = "milliseconds" if limit.endswith("_ms") else "seconds"
        raise InvalidInputError(
            "timeout",
            f"is not this wait's limit: pass {limit}= ({unit}); the timeout of each "
            "request it sends is set with client.with_options(timeout=...)",
        )
    # The same keys as RequestOptions, less one.
    return options  # type: ignore[return-value]


def call_options(options: RequestOptions, *, wait: object) -> RequestOptions:
    """The per-call options of a call that may wait (``wait=True``): refused like a
    wait's (`wait_options`) when it waits, since ``timeout=`` would read as the wait's
    limit; as they are otherwise."""
    if wait is True:
        return wait_options(options)
    return options


def poll(
    fetch: Callable[[], Operation[T]],
    is_done: Callable[[T], bool],
    *,
    timeout: float,
    interval: float,
    clock: Clock,
    timeout_message: Callable[[T | None], str],
    not_yet_visible: tuple[type[XSwapError], ...] = (),
) -> Flow[T]:
    """Request a record every ``interval`` seconds until ``is_done`` says so.

    Args:
        fetch: builds the operation that reads the record.
        is_done: ``True`` when the record is terminal and wanted, ``False`` to keep
            polling; raises (e.g. `RelayFailedError`) when it is terminal and failed.
        timeout: seconds from the first request after which polling gives up.
        interval: seconds between requests.
        clock: the client's clock.
        timeout_message: builds the `WaitTimeoutError` message from the last record.
        not_yet_visible: errors that mean "ask again" rather than failure, such as a 404
            right after submission.

    Raises:
        WaitTimeoutError: time ran out; ``last_status`` holds the last record.
    """
    started = clock.monotonic()
    # The wait's hard end, for every request in it (retries and Retry-After included).
    # A zero timeout still asks once, as the JavaScript client does.
    until = started + timeout if timeout > 0 else None
    last: T | None = None
    while True:
        asked = clock.monotonic()
        try:
            record: T = yield Call(fetch(), until=until)
        except not_yet_visible:
            pass
        except DeadlineExceededError as exc:
            # A slow answer or a Retry-After reached the wait's end: give up on time.
            raise WaitTimeoutError(
                timeout_message(last), last_status=last, timeout=timeout
            ) from exc
        else:
            last = record
            if is_done(record):
                return record
        now = clock.monotonic()
        wait = max(0.0, interval - (now - asked))
        # The next request would start at or after the deadline: the JS client's loop
        # would not send it either, so give up now instead of sleeping first. The
        # tolerance absorbs float drift (99 * 0.05 falls just short of 4.95).
        if now - started + wait >= timeout - _TOLERANCE:
            raise WaitTimeoutError(timeout_message(last), last_status=last, timeout=timeout)
        if wait > 0:
            yield Sleep(wait)


def poll_found(
    operation: Operation[T | None],
    is_done: Callable[[T | None], bool],
    *,
    timeout: float,
    interval: float,
    clock: Clock,
    timeout_message: Callable[[T | None], str],
) -> Flow[T]:
    """`poll` ``operation``, an answer read down to one record (``None`` while it is not
    there), and return the record ``is_done`` accepted (never ``None``)."""
    found = yield from poll(
        lambda: operation,
        is_done,
        timeout=timeout,
        interval=interval,
        clock=clock,
        timeout_message=timeout_message,
    )
    assert found is not None
    return found


def poll_balance(
    operation: Operation[B | None],
    wanted: int,
    *,
    whose: str,
    none_yet: str,
    timeout: float,
    interval: float,
    clock: Clock,
) -> Flow[B]:
    """`poll` ``operation`` (an answer read down to one balance entry, ``None`` while it
    lists none) until the entry holds at least ``wanted`` units, and return the entry.

    ``whose`` names the balance in a timeout's message (``"0x...'s gateway balance on
    chain 8453"``), and ``none_yet`` what was seen when no entry was.
    """

    def done(entry: B | None) -> bool:
        return entry is not None and entry.balance >= wanted

    def timeout_message(last: B | None) -> str:
        seen = f"last seen {last.balance} units" if last else none_yet
        return (
            f"timed out after {timeout:g} s waiting for {whose} to reach {wanted} units "
            f"({seen}). A deposit counts once its block is final: check again later."
        )

    return (
        yield from poll_found(
            operation,
            done,
            timeout=timeout,
            interval=interval,
            clock=clock,
            timeout_message=timeout_message,
        )
    )
