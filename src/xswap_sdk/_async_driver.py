"""The journey driver, written once: `AsyncDriver` runs a money journey's flow.

This is the hand-written source; ``_sync_driver.py`` is generated from it by
``scripts/unasync.py``. The transport's ``run`` hands a flow to the driver when it yields
`Begin`; from there on the driver performs every step the flow yields (each HTTP
request, chain read and send, signature, time, random value, question to the caller and
wait), writes what it did to the journal (see ``xswap_sdk._journey``), and reports the
steps people read to ``on_step``. Resumed (a `Resumption`), it runs the same flow again
and feeds each step its recorded result until the record ends; the rules it holds
every step to are in ``xswap_sdk._journey``. Journal writes run off the event loop.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import os
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

import httpx

from ._chain_steps import READS, UnavailableSigner, hash_of, unavailable
from ._flow import Ask, Begin, Call, Chain, Flow, Now, Random, Record, Sign, Sleep, Wait
from ._journal_io import async_journal_call
from ._journey import (
    Diverged,
    JourneyRun,
    Resumption,
    Stop,
    begin_terms,
    decode_json,
    encode,
    replay_rows,
    request_digest,
    restart_from,
    value_digest,
    warn_unwritten,
)
from ._options import RequestOptions
from ._policy_scope import APPROVED
from ._transport import Answer, async_settle, emit
from .errors import (
    InvalidInputError,
    JournalError,
    JourneyBusyError,
    MissingCredentialsError,
    RestartRequiredError,
    XSwapError,
)

if TYPE_CHECKING:
    from ._async_transport import AsyncTransport
    from .journal import StepEvent

__all__ = ["AsyncDriver"]

# Errors of the driver itself, never thrown into a flow (which might catch them as a
# failed request): they end the run where it stands.
_DRIVER_ERRORS: Final = (JourneyBusyError, RestartRequiredError, MissingCredentialsError)

_IN_MEMORY: Final = (Record, Now, Random)
"""Steps that neither reach out nor take time: a held write waits past them."""

_ALREADY_KNOWN: Final = ("already known", "known transaction", "alreadyknown")


class AsyncDriver:
    """Runs one journey's flow on ``transport`` (see the module)."""

    def __init__(
        self, transport: AsyncTransport, flow: Flow[Any], options: RequestOptions | None
    ) -> None:
        self.transport = transport
        self.flow = flow
        self.options = options

    async def drive(self, begin: Begin, resumption: Resumption | None) -> Any:
        """Start (or resume) the journey of ``begin`` and run the flow to its end."""
        run, started = await self._begin(begin, resumption)
        del begin  # its terms may hold signatures (a request its caller signed)
        # What the signing policies let through is written with the next ``signed`` step.
        approvals = APPROVED.set(run.approved) if run.writes else None
        try:
            return await self._drive(run, started)
        finally:
            if approvals is not None:
                APPROVED.reset(approvals)

    async def _drive(self, run: JourneyRun, started: StepEvent | None) -> Any:
        flow = self.flow
        try:
            await self._emit(run, started)
        except BaseException as exc:
            await self._ended(run, exc)
            raise
        result: Any = run.journey_id
        error: XSwapError | None = None
        while True:
            try:
                step = flow.send(result) if error is None else flow.throw(error)
            except StopIteration as stop:
                await self._end(run, *run.completed())
                return stop.value
            except BaseException as exc:
                await self._ended(run, exc)
                raise
            result, error = None, None
            try:
                result = await self._step(run, step)
            except _DRIVER_ERRORS as exc:
                await self._ended(run, exc)
                raise
            except XSwapError as exc:
                error = exc
            except (Diverged, Stop) as stopped:
                await self._stopped(run, stopped)
                return None
            except BaseException as exc:
                await self._ended(run, exc)
                raise

    # ----------------------------------------------------------------- start and end

    async def _begin(
        self, begin: Begin, resumption: Resumption | None
    ) -> tuple[JourneyRun, StepEvent | None]:
        """The run of the journey (created in the journal, or resumed), and its first
        event, for `_drive` to report."""
        from .journal import Owner  # lazy: journaled runs only

        transport = self.transport
        journal = transport.options.journal
        on_step = transport.hooks.on_step
        if resumption is not None:
            journey = resumption.journey
            if decode_json(begin_terms(begin)) != dict(journey.terms):
                raise InvalidInputError(
                    "journey_id",
                    f"journey {journey.id}'s terms are not what this version of the SDK "
                    "builds its flow from: resume it with the version that wrote it",
                )
            run = JourneyRun(
                journal,
                on_step,
                begin.kind,
                journey.id,
                resumption.owner,
                replay_rows(journey, resumption.restart),
                resuming=True,
                restart=resumption.restart,
            )
            note: dict[str, Any] = {
                "from": journey.state,
                "restart": resumption.restart,
                "by": resumption.owner.describe(),
            }
            if resumption.restart:
                run.add(None, "restarted", "ok", {"from_pos": restart_from(journey)})
            event = run.add(None, "resumed", "ok", note, event=True)
            await self._write(run, run.flush(), "resumed")
            return run, event
        journey_id = None
        owner = None
        if journal is not None:
            owner = Owner.this_process()
            journey_id = await async_journal_call(
                journal.create, begin.kind, begin_terms(begin), owner
            )
        run = JourneyRun(journal, on_step, begin.kind, journey_id, owner)
        return run, run.started_event(begin.terms)

    async def _end(self, run: JourneyRun, event: StepEvent | None, state: Any) -> None:
        await self._write(run, run.flush(durable=True, state=state, release=True), "the end")
        await self._emit(run, event)

    async def _ended(self, run: JourneyRun, exc: BaseException) -> None:
        """The flow (or the driver) raised ``exc``: write how the journey stands."""
        event, state = run.failed(exc)
        if isinstance(exc, JourneyBusyError):
            return  # another run holds it now: nothing of this one is written
        await self._end(run, event, state)

    async def _stopped(self, run: JourneyRun, stopped: Diverged | Stop) -> None:
        if isinstance(stopped, Diverged):
            data: Mapping[str, Any] = {
                "reason": f"the flow took another path than its record ({stopped}); nothing "
                "was signed or sent",
                "next": "look at the journey (xswap journeys --json) and at the service",
            }
            event = run.add(None, "needs_attention", "diverged", data, event=True)
            state: Any = "needs_attention"
        else:
            event = run.add(None, stopped.step, stopped.status, stopped.data, event=True)
            state = stopped.state
        self.flow.close()
        await self._end(run, event, state)

    # ----------------------------------------------------------------------- steps

    async def _step(self, run: JourneyRun, step: Any) -> Any:
        if run.held is not None and not isinstance(step, _IN_MEMORY):
            # What a money request answered is on disk before anything else can happen.
            await self._write(run, run.flush(), "submitted")
        if isinstance(step, Call):
            if step.operation.idempotent:
                return await self._read(run, step)
            return await self._send(run, step)
        if isinstance(step, Record):
            return await self._record(run, step)
        if isinstance(step, Chain):
            return await self._chain(run, step)
        if isinstance(step, Sign):
            return await self._sign(run, step)
        if isinstance(step, Now):
            return self._value(run, "now", lambda: _now(self.transport, step))
        if isinstance(step, Random):
            return self._value(run, "random", lambda: "0x" + os.urandom(step.size).hex())
        if isinstance(step, Ask):
            return self._ask(run, step)
        if isinstance(step, Wait):
            return await self._wait(run, step)
        if isinstance(step, Sleep):
            raise TypeError("a journey sleeps only inside a Wait step")
        raise TypeError(f"a journey cannot run {type(step).__name__} steps")

    async def _record(self, run: JourneyRun, step: Record) -> None:
        pos, rows = run.next()
        if rows is not None:
            run.expect(pos, rows, step.step)
            return
        data = step.data
        if step.step == "signed" and run.approved:
            data = {**data, "approved": [_request(r) for r in run.approved]}
            run.approved.clear()
        event = run.add(pos, step.step, step.status, data, identities=step.identities, event=True)
        if step.state is not None:
            from .journal import DONE_STATES  # lazy: journeys' states, at a journey's end

            if step.state not in ("running", *DONE_STATES, "needs_attention"):
                raise TypeError(f"no journey state {step.state!r}")
            # Written with the next write (before the next request, or at the end), and
            # reported once written.
            run.hold(state=step.state)  # type: ignore[arg-type]
        run.watch(step.data, self.transport.clock.monotonic())
        await self._emit(run, event)

    def _value(self, run: JourneyRun, name: str, make: Callable[[], Any]) -> Any:
        pos, rows = run.next()
        if rows is not None:
            return run.expect(pos, rows, name).data.get("value")
        value = make()
        run.add(pos, name, "ok", {"value": value})
        return value

    def _ask(self, run: JourneyRun, step: Ask) -> bool | str:
        pos, rows = run.next()
        if rows is not None:
            value = run.expect(pos, rows, "ask").data.get("value")
            return value if value is True or isinstance(value, str) else "declined"
        run.may_sign(f"a new {step.what} after asking accept_quote")
        answer = answer_of(step)
        run.add(pos, "ask", "ok", {"value": answer, "what": step.what})
        return answer

    async def _sign(self, run: JourneyRun, step: Sign) -> str:
        pos, rows = run.next()
        digest = "0x" + step.digest.hex()
        if rows is not None:
            return str(run.expect(pos, rows, "sign", digest).data.get("value"))
        run.may_sign(f"a new {step.what or 'payload'}")
        if isinstance(step.signer, UnavailableSigner):
            raise step.signer.missing()
        # lazy: the signer (coincurve), only when a journey signs
        from .signing.signer import _perform_sign

        signature = _perform_sign(step)
        run.add(pos, "sign", "ok", {"request": digest, "value": signature, "what": step.what})
        return signature

    async def _read(self, run: JourneyRun, step: Call[Any]) -> Any:
        operation = step.operation
        pos, rows = run.next()
        # A read's row is only written, never reported: without a journal (or a record
        # to compare with) its digest would go nowhere.
        request = request_digest(operation)[0] if rows is not None or run.writes else ""
        if rows is not None:
            return self._replayed(operation, run.expect(pos, rows, "read", request))
        answers: list[Answer] = []
        try:
            result = await self.transport.request(
                operation, self.options, until=step.until, answers=answers
            )
        except XSwapError:
            if answers:  # the service answered: the flow may decide on it, so it is kept
                _keep(run, pos, "read", "refused", request, answers[-1])
            raise
        _keep(run, pos, "read", "ok", request, answers[-1])
        return result

    async def _send(self, run: JourneyRun, step: Call[Any]) -> Any:
        """A request that may move money: written (on disk) before it leaves, its answer
        after. On resume, one that may have arrived is sent again only when its content
        takes effect once; else the journey needs attention."""
        operation = step.operation
        pos, rows = run.next()
        # Its rows are written, and reported to on_step: with neither (nor a record to
        # compare with) the request's digest and text would go nowhere.
        kept = rows is not None or run.writes or run.on_step is not None
        request, body = request_digest(operation) if kept else ("", None)
        payment: dict[str, str] | None = None
        resend = False
        if rows is not None:
            run.expect(pos, rows, "submitted", request)
            # An answer is kept with its HTTP status; only a 2xx was accepted.
            answered = [r for r in rows if r.step == "submitted" and "status" in r.data]
            if answered:
                run.accepted = answered[-1].status == "ok"
                return self._replayed(operation, answered[-1])
            paid = [r for r in rows if r.step == "paid"]
            if paid:
                headers = paid[-1].data.get("headers")
                payment = dict(headers) if isinstance(headers, Mapping) else None
            sent = any(r.status in ("sending", "outcome_unknown") for r in rows)
            if sent and not operation.single_use:
                raise Stop(
                    "needs_attention",
                    "outcome_unknown",
                    {
                        "reason": "the request may have reached the service, which cannot say "
                        "whether it did, and sending it again could move money twice; "
                        "nothing was sent again",
                        "next": "check the service (history, status, balance) by hand",
                    },
                    "needs_attention",
                )
            resend = sent
        data = ""
        event = None
        if kept:
            now = self.transport.clock.time()
            params = encode([list(p) for p in operation.params or []])
            # Written by hand around the body's JSON text: the body is serialised once.
            data = (
                f'{{"request":"{request}","method":"{operation.method}",'
                f'"path":{encode(operation.path)},"params":{params},"body":{body or "null"},'
                f'"clock_time":{now!r},"resend":{"true" if resend else "false"}}}'
            )
            event = run.add(pos, "submitted", "sending", data, event=True)
        # The body holds signatures: out of this frame before the request can fail in it.
        del body, data
        await self._write(run, run.flush(durable=True), "submitted/sending", before=True)
        await self._emit(run, event)
        del event
        answers: list[Answer] = []

        async def paying(headers: Mapping[str, str]) -> None:
            # A payment is a signature that can move money: on disk before it leaves.
            run.add(pos, "paid", "sending", {"headers": dict(headers)})
            await self._write(run, run.flush(durable=True), "paid", before=True)

        try:
            result = await self.transport.request(
                operation,
                self.options,
                until=step.until,
                on_paid=paying,
                answers=answers,
                payment=payment,
            )
        except XSwapError as exc:
            if answers and 400 <= answers[-1].status_code < 500:
                event = _keep(run, pos, "submitted", "sent", request, answers[-1], event=True)
            else:
                event = run.add(
                    pos, "submitted", exc.sent, {"error": type(exc).__name__}, event=True
                )
            await self._write(run, run.flush(), "submitted")
            await self._emit(run, event)
            if resend and exc.sent == "sent":
                # Refused now, but the first one may have arrived and been taken: only
                # a person can tell which.
                raise Stop(
                    "needs_attention",
                    "sent",
                    {
                        "reason": f"sent again after it may have arrived, the request was refused "
                        f"({type(exc).__name__}): the first may have been taken",
                        "next": "check the service (history, status, balance) by hand",
                    },
                    "needs_attention",
                ) from exc
            raise
        run.accepted = True
        found = () if operation.identify is None else operation.identify(result)
        event = _keep(
            run, pos, "submitted", "ok", request, answers[-1], identities=found, event=True
        )
        # Written before the flow's next request or wait, or with its end (one write
        # where a swap ends here), and reported once written.
        run.hold()
        await self._emit(run, event)
        return result

    def _replayed(self, operation: Any, row: Any) -> Any:
        """A recorded answer, read again as a fresh one would be."""
        data = row.data
        headers = httpx.Headers({"content-type": str(data.get("type") or "application/json")})
        answer = Answer(int(data.get("status") or 0), headers, row.body or b"", httpx.URL(), 0.0)
        return self.transport.read_answer(operation, answer)

    async def _chain(self, run: JourneyRun, step: Chain) -> Any:
        if step.op in READS:
            return await self._chain_read(run, step)
        if step.op == "sign":
            return await self._chain_sign(run, step)
        if step.op == "broadcast":
            return await self._broadcast(run, step)
        return await self._chain_read(run, step, wait=True)  # confirm: a wait

    async def _chain_read(self, run: JourneyRun, step: Chain, *, wait: bool = False) -> Any:
        pos, rows = run.next()
        request = value_digest([step.op, *step.args])
        if rows is not None:
            value = run.expect(pos, rows, "chain", request).data.get("value")
            return value if step.decode is None else step.decode(value)
        if wait:
            await self._write(run, run.flush(), "before a wait")
        value = await _call_io(step, step.op, *step.args)
        run.add(
            pos,
            "chain",
            "ok",
            {"op": step.op, "what": step.what, "request": request, "value": value},
        )
        return value

    async def _chain_sign(self, run: JourneyRun, step: Chain) -> tuple[dict[str, Any], str | None]:
        pos, rows = run.next()
        request = value_digest(["sign", *step.args])
        if rows is not None:
            row = run.expect(pos, rows, "signed", request)
            return dict(row.data.get("fields") or {}), row.data.get("raw")
        run.may_sign(f"a new {step.what} transaction")
        fields, raw = await _call_io(step, "sign", *step.args)
        data = {
            "what": step.what,
            "request": request,
            "fields": fields,
            "raw": raw,
            "tx_hash": hash_of(raw),
        }
        event = run.add(pos, "signed", "ok", data, event=True)
        # What was signed survives the process before it can be broadcast, so that a
        # resume sends these bytes rather than asking to sign anew.
        await self._write(run, run.flush(), "signed")
        await self._emit(run, event)
        return fields, raw

    async def _broadcast(self, run: JourneyRun, step: Chain) -> str:
        """A transaction's broadcast: written (on disk) before it leaves. On resume, one
        that may have left is looked up by its hash; not found, its signed bytes are
        sent again (its nonce lets it be mined once), or, when the node signs and no
        bytes are known, the journey needs attention."""
        fields, raw = step.args
        planned = hash_of(raw)
        pos, rows = run.next()
        request = value_digest(["broadcast", raw if raw is not None else fields])
        resend = False
        if rows is not None:
            run.expect(pos, rows, "broadcast", request)
            done = [r for r in rows if r.status == "ok"]
            if done:
                run.accepted = True
                return str(done[-1].data.get("tx_hash"))
            if planned is not None and await self._mined(step, planned):
                run.accepted = True
                event = run.add(
                    pos, "broadcast", "ok", {"what": step.what, "tx_hash": planned, "found": True},
                    identities=[planned], event=True,
                )  # fmt: skip
                await self._write(run, run.flush(), "broadcast")
                await self._emit(run, event)
                return planned
            if raw is None:
                raise Stop(
                    "needs_attention",
                    "outcome_unknown",
                    {
                        "reason": f"the {step.what} transaction may have been broadcast (the node "
                        "signed it, so its hash and bytes are unknown) and cannot be looked up; "
                        "nothing was signed or sent again",
                        "next": "look at the sender's transactions on the chain's explorer",
                    },
                    "needs_attention",
                )
            resend = True
        data = {"what": step.what, "request": request, "tx_hash": planned, "resend": resend}
        event = run.add(
            pos, "broadcast", "sending", data, identities=[planned] if planned else (), event=True
        )
        await self._write(run, run.flush(durable=True), "broadcast/sending", before=True)
        await self._emit(run, event)
        try:
            tx_hash = await _call_io(step, "broadcast", fields, raw)
        except Exception as exc:
            if not (resend and planned and any(m in str(exc).lower() for m in _ALREADY_KNOWN)):
                raise
            tx_hash = planned  # the node has it already: the first broadcast reached it
        run.accepted = True
        event = run.add(
            pos, "broadcast", "ok", {"what": step.what, "tx_hash": tx_hash},
            identities=[tx_hash], event=True,
        )  # fmt: skip
        await self._write(run, run.flush(), "broadcast")
        await self._emit(run, event)
        return str(tx_hash)

    async def _mined(self, step: Chain, tx_hash: str) -> bool:
        """Whether the chain has the transaction (a receipt), asked through ``step.io``."""
        receipt = await _call_io(step, "receipt", tx_hash)
        return receipt is not None

    async def _wait(self, run: JourneyRun, step: Wait[Any]) -> Any:
        pos, rows = run.next()
        if rows is not None:
            value = run.expect(pos, rows, "wait").data.get("value")
            return value if step.decode is None else step.decode(value)
        await self._write(run, run.flush(), "before a wait")
        value = await self._waited(run, step.flow)
        shown = value if step.encode is None else step.encode(value)
        run.add(pos, "wait", "ok", {"value": shown})
        run.watching = None
        return value

    async def _waited(self, run: JourneyRun, flow: Flow[Any]) -> Any:
        """A wait's own flow, run live: reads and sleeps, the watchdog after each sleep,
        and the lease renewed while it lasts."""
        transport = self.transport
        result: Any = None
        error: XSwapError | None = None
        try:
            while True:
                try:
                    step = flow.send(result) if error is None else flow.throw(error)
                except StopIteration as stop:
                    return stop.value
                result, error = None, None
                if isinstance(step, Sleep):
                    await transport.clock.asleep(step.seconds)
                    now = transport.clock.monotonic()
                    event = run.tick(now)
                    if event is not None or run.due(now):
                        await self._write(run, run.flush() or _touch(run), "a wait")
                    await self._emit(run, event)
                elif isinstance(step, Call) and step.operation.idempotent:
                    try:
                        result = await transport.request(
                            step.operation, self.options, until=step.until
                        )
                    except _DRIVER_ERRORS:
                        raise
                    except XSwapError as exc:
                        error = exc
                else:
                    raise TypeError(f"a Wait runs reads and sleeps only, not {type(step).__name__}")
        finally:
            flow.close()

    # ----------------------------------------------------------------- the journal

    async def _write(
        self, run: JourneyRun, write: Callable[[], None] | None, what: str, *, before: bool = False
    ) -> None:
        """Run a journal write off the event loop. One that must precede a money request
        (``before``) raises when it fails, so nothing is sent; any other only warns."""
        if write is None:
            return
        try:
            await async_journal_call(write)
        except JourneyBusyError:
            raise
        except Exception as exc:
            await self._release_held(run)
            if before:
                raise JournalError(
                    f"could not write the journal ({type(exc).__name__}) for {run.kind} "
                    f"journey {run.journey_id}: step {what}; nothing was sent",
                    journey_id=run.journey_id,
                    step=what,
                ) from None
            warn_unwritten(run, what, exc)
            return
        await self._release_held(run)

    async def _emit(self, run: JourneyRun, event: StepEvent | None) -> None:
        if event is None or run.on_step is None:
            return
        if run.held is not None:
            run.held.append(event)  # after the rows it follows are written
            return
        await async_settle(event, emit(run.on_step, event))

    async def _release_held(self, run: JourneyRun) -> None:
        """Report the events held until their rows were written, in order."""
        held, run.held = run.held, None
        for event in held or ():
            await self._emit(run, event)


def _request(request: Any) -> Any:
    # Shallow: a request's details are a read-only mapping, which asdict cannot copy.
    if dataclasses.is_dataclass(request) and not isinstance(request, type):
        return {f.name: getattr(request, f.name) for f in dataclasses.fields(request)}
    return request


def _now(transport: AsyncTransport, step: Now) -> float:
    return time.time() if step.chain else transport.clock.time()


def _touch(run: JourneyRun) -> Callable[[], None] | None:
    """An empty write: renews the lease."""
    journal, journey_id, owner = run.journal, run.journey_id, run.owner
    if journal is None or journey_id is None or owner is None:
        return None
    return functools.partial(journal.append, journey_id, owner, [])


def _keep(
    run: JourneyRun,
    pos: int,
    step: str,
    status: str,
    request: str,
    answer: Answer,
    *,
    identities: Sequence[str] = (),
    event: bool = False,
) -> StepEvent | None:
    """Keep an HTTP answer as a row: its status and type, and its exact bytes."""
    data = {
        "request": request,
        "status": answer.status_code,
        "type": answer.headers.get("content-type"),
    }
    return run.add(pos, step, status, data, body=answer.content, identities=identities, event=event)


async def _call_io(step: Chain, op: str, *args: Any) -> Any:
    """``step.io.<op>(*args)``, awaited (the async helpers return awaitables)."""
    helper = getattr(step.io, op, None)
    if helper is None:
        raise unavailable(op)
    value = helper(*args)
    if hasattr(value, "__await__"):
        value = await value
    return value


def answer_of(step: Ask) -> bool | str:
    """The caller's answer to an `Ask` step: ``True`` when its hook returned exactly
    ``True``, else why not (``"declined"``, or what it returned instead).

    Raises:
        InvalidInputError: the hook returned an awaitable (a coroutine function's
            coroutine: a flow calls its hooks and does not wait for them).
    """
    if step.hook is None:
        # The caller's hook cannot be journaled: a restarted journey that had one
        # cannot ask it, and takes no new quote unseen by it.
        return "declined (a resumed journey cannot ask accept_quote, which is not journaled)"
    answer: object = step.hook(step.value)
    if inspect.isawaitable(answer):
        close = getattr(answer, "close", None)
        if callable(close):
            close()  # never to be run: no "never awaited" warning
        raise InvalidInputError(
            "accept_quote", "must be a plain function returning True or False, not a coroutine"
        )
    if answer is True:
        return True
    # A hook that forgot to return (None), or returned a truthy value by accident (a
    # non-empty string, the quote), has not accepted anything.
    return "declined" if answer is False else f"did not return True (it returned {answer!r:.60})"
