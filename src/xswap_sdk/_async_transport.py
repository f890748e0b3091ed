"""The request loop, written once: `AsyncTransport` sends operations and runs flows.

This is the hand-written source; ``_sync_transport.py`` is generated from it by
``scripts/unasync.py`` (``await`` dropped, ``httpx.AsyncClient`` read as
``httpx.Client``), so the blocking and the async clients share every decision below.

One call is a plain attempt loop. Each attempt asks the auth for credentials (logging in
first when the client has none yet and can get them), sends, reads the answer within the
size cap and the deadline, and turns it into a result or an error. A failure either ends
the call or, when ``xswap_sdk._retry`` allows it and the deadline leaves room, waits and
tries again. A 401 on a client that can log in is answered by one login and one resend,
with a retry budget of its own; a second 401 is raised. A 402 on a client with an x402
payer, to an operation the service prices (`Operation.priced`: the relayer's
submissions), is answered by one payment and one resend; a second 402 is raised, never
paid, and so is a 402 to any other operation (`PaymentNotDueError`).
"""

from __future__ import annotations

import os
import time
from collections.abc import AsyncIterator, Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

import httpx

from ._concurrency import AsyncGate
from ._flow import Ask, Begin, Call, Chain, Flow, Now, Random, Record, Sign, Sleep, Wait
from ._operation import Operation
from ._options import RequestOptions
from ._transport import (
    Answer,
    AsyncPaidHook,
    BaseTransport,
    Extras,
    async_settle,
    emit,
    gave_up,
    payment_headers,
)
from .errors import AuthenticationError, PaymentRequiredError, XSwapError

if TYPE_CHECKING:
    from ._journey import Resumption
    from ._pagination import PageWalk

__all__ = ["AsyncTransport"]

T = TypeVar("T")
R = TypeVar("R")


class AsyncTransport(BaseTransport[httpx.AsyncClient]):
    """Sends operations with an `httpx.AsyncClient`, and drives flows and page walks."""

    gate_type = AsyncGate

    async def request(
        self,
        operation: Operation[T],
        options: RequestOptions | None = None,
        *,
        until: float | None = None,
        on_paid: AsyncPaidHook | None = None,
        answers: list[Answer] | None = None,
        payment: Mapping[str, str] | None = None,
    ) -> T:
        """Send ``operation`` (logging in and retrying as allowed) and return its result.

        ``until`` is a clock time (``monotonic``) the call must end by, on top of its own
        deadline: the end of the wait a polling flow is in. ``on_paid`` is awaited with
        an x402 payment's headers before the paid request is sent (a journey writes it
        to disk first). ``answers`` receives each HTTP answer as it arrives (a journey
        keeps the last). ``payment``: the x402 payment headers of an earlier attempt of
        this request, sent again as they are (a resumed journey's): no new payment.
        """
        options = options or {}
        call_timeout = self._timeout(operation, options)
        max_retries = self._max_retries(options)
        deadline_at = self._deadline_at(options, until)
        extras = self._extras(operation, options)
        auth = self.auth
        attempt = 0
        relogged = False
        paid = False
        if payment:
            base = extras or Extras({}, [], {})
            extras = Extras({**base.headers, **payment}, base.query, base.body)
            operation = operation.keeping_secret(*payment.values())
            paid = True
        while True:
            attempt += 1
            seen = auth.generation
            if auth.needs_login(operation):
                await self._login(operation, seen, options)
                # A 401 on what this login gave must lead to one more login, not a resend.
                seen = auth.generation
            try:
                answer = await self._exchange(operation, call_timeout, deadline_at, extras, attempt)
                if answers is not None:
                    answers.append(answer)
                if self.hooks.on_response is not None:
                    event = self._response_event(operation, answer, attempt)
                    await self._notify(self.hooks.on_response, event)
                return self._handle_answer(operation, answer, attempt=attempt)
            except AuthenticationError:
                if relogged or not auth.can_login(operation):
                    raise
                relogged = True
                await self._login(operation, seen, options)
                attempt = 0
            except XSwapError as exc:
                if isinstance(exc, PaymentRequiredError) and self.payer is not None:
                    # x402: pay once and send the same request again in this loop; a
                    # second 402 is never paid (the first payment may still settle),
                    # and a call the service does not price (a read) is never paid.
                    if not operation.priced:
                        gave_up(exc, attempt)
                        raise self._payment_not_due(operation, exc) from None
                    if paid:
                        gave_up(exc, attempt)
                        raise self._payment_not_accepted(operation, exc) from None
                    paying = self._paying(operation, exc, extras)
                    if paying is not None:
                        operation, extras = paying
                        if on_paid is not None:
                            await on_paid(payment_headers(extras))
                        paid = True
                        continue
                retry = self._retry(operation, exc, attempt, max_retries, deadline_at)
                if retry is None:
                    gave_up(exc, attempt)
                    raise
                if self.hooks.on_retry is not None:
                    await self._notify(self.hooks.on_retry, retry)
                await self.clock.asleep(retry.delay)

    async def _notify(self, hook: Callable[[Any], object], event: object) -> None:
        """Run an event hook and settle what it returned: see `async_settle`."""
        await async_settle(event, emit(hook, event))

    async def _exchange(
        self,
        operation: Operation[Any],
        call_timeout: httpx.Timeout,
        deadline_at: float | None,
        extras: Extras | None,
        attempt: int,
    ) -> Answer:
        """One attempt's HTTP exchange, once the in-flight gate lets it through: send,
        and read the whole answer within the size cap and the deadline."""
        gate = self.pool.gate
        slot = None
        if gate is not None:
            # A burst waits here, within the call's deadline, not in httpcore's queue.
            waited = self._check_deadline(operation, deadline_at, sent=False)
            slot = await gate.acquire(waited)
            if slot is None:
                raise self._deadline_error(operation, sent=False)
        try:
            timeout = self._attempt_timeout(operation, call_timeout, deadline_at, sent=False)
            client = self.pool.get()
            if self.hooks.on_request is not None:
                await self._notify(self.hooks.on_request, self._request_event(operation, attempt))
            request = self._build_request(client, operation, timeout, extras, attempt)
            stack = self.pool.stack  # httpx, or httpx2 for a caller's httpx2 client
            url = stack.url(request.url)
            started = time.perf_counter()
            try:
                # Never follow a redirect: it would take the credentials (and a signed
                # payment) to an address the caller did not configure.
                response = await client.send(request, stream=True, follow_redirects=False)
            except stack.error as exc:
                del request  # it carries the credentials; keep it out of the traceback
                raise self._connection_error(operation, exc, timeout) from exc
            del request
            failure: XSwapError | None = None
            headers = stack.headers(response.headers)
            try:
                body = self._body(operation, headers)
                async for chunk in response.aiter_bytes():
                    body.append(chunk)
                    self._check_deadline(operation, deadline_at, sent=True)
            except stack.error as exc:
                failure = self._connection_error(operation, exc, timeout, sent=True)
                failure.__cause__ = exc
            except XSwapError as exc:
                failure = exc
            finally:
                await response.aclose()
            status = response.status_code
            # The response keeps the request, and with it the credentials.
            del response
            if failure is not None:
                raise failure
            return Answer(status, headers, body.getvalue(), url, time.perf_counter() - started)
        finally:
            if slot is not None:
                slot.release()

    async def _login(
        self, operation: Operation[Any] | None, seen: int, options: RequestOptions
    ) -> None:
        auth = self.auth
        async with auth.async_lock():
            # Another call may have logged in while this one waited for the lock.
            if auth.generation == seen:
                await self.run(auth.login_flow(operation), options)

    async def ensure_login(self, options: RequestOptions | None = None) -> None:
        """Log in now if the client has no credentials yet and can get them, so a flow
        that will need them learns of a refused login before it sends anything."""
        if self.auth.needs_login(None):
            await self._login(None, self.auth.generation, options or {})

    async def run(
        self,
        flow: Flow[R],
        options: RequestOptions | None = None,
        *,
        resumption: Resumption | None = None,
    ) -> R:
        """Drive ``flow`` to completion: send each call, sleep each sleep, and throw
        each call's SDK error back into the flow so it can decide. A flow that yields
        `Begin` is a money journey, which the journey driver runs from there on (see
        ``xswap_sdk._async_driver``); ``resumption`` resumes the journey it names."""
        result: Any = None
        error: XSwapError | None = None
        try:
            while True:
                try:
                    step = flow.send(result) if error is None else flow.throw(error)
                except StopIteration as stop:
                    return stop.value  # type: ignore[no-any-return]
                result, error = None, None
                if isinstance(step, Begin):
                    # Its terms may hold signatures (a request its caller signed): the
                    # driver gets them, and this frame keeps no reference to them.
                    begin: list[Begin] = [step]
                    del step
                    from ._async_driver import AsyncDriver  # lazy: money journeys only

                    driver = AsyncDriver(self, flow, options)
                    return await driver.drive(begin.pop(), resumption)  # type: ignore[no-any-return]
                if isinstance(step, Call):
                    try:
                        result = await self.request(step.operation, options, until=step.until)
                    except XSwapError as exc:
                        error = exc
                elif isinstance(step, Sleep):
                    await self.clock.asleep(step.seconds)
                elif isinstance(step, Record):
                    pass  # outside a journey there is nothing to write
                else:
                    try:
                        result = await self._perform(step, options)
                    except XSwapError as exc:
                        error = exc
        finally:
            flow.close()

    async def _perform(self, step: Any, options: RequestOptions | None) -> Any:
        """A step outside a journey, performed with nothing recorded."""
        if isinstance(step, Wait):
            return await self.run(step.flow, options)
        if isinstance(step, Now):
            return time.time() if step.chain else self.clock.time()
        if isinstance(step, Random):
            return "0x" + os.urandom(step.size).hex()
        if isinstance(step, Sign):
            # lazy: the signer (coincurve), only when a flow signs
            from .signing.signer import _perform_sign

            return _perform_sign(step)
        if isinstance(step, Ask):
            from ._async_driver import answer_of  # lazy: flows that ask only

            return answer_of(step)
        if isinstance(step, Chain):
            helper = getattr(step.io, step.op, None)
            if helper is None:
                from ._chain_steps import unavailable  # lazy: chain steps only

                raise unavailable(step.op)
            return await _awaited(helper(*step.args))
        raise TypeError(f"a flow cannot yield {type(step).__name__}")

    async def iterate(
        self, walk: PageWalk[T], options: RequestOptions | None = None
    ) -> AsyncIterator[T]:
        """Drive a page walk, yielding its items; a page is read only when the caller
        has taken every item of the one before."""
        from ._pagination import Emit  # lazy: page walks only

        result: Any = None
        try:
            while True:
                try:
                    step = walk.send(result)
                except StopIteration:
                    return
                result = None
                if isinstance(step, Emit):
                    yield step.item
                else:
                    result = await self.request(step.operation, options)
        finally:
            walk.close()

    async def aclose(self) -> None:
        """Close the connection pool, if this transport owns it and we created it."""
        if self.owns_pool:
            client = self.pool.close()
            if client is not None:
                await client.aclose()


async def _awaited(value: Any) -> Any:
    """``value``, awaited when it is awaitable (an async web3 helper's result)."""
    if hasattr(value, "__await__"):
        return await value
    return value
