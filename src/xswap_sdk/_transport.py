"""What the blocking and the async transport share: everything but the send and the sleep.

A request arrives as an `Operation` (plain data, see ``xswap_sdk._operation``). The
transport joins the base URL and path, merges headers, asks the client's `Auth` for
credentials, applies the timeout, sends, decides whether a failure may be retried (by
``xswap_sdk._retry``), maps failures to `xswap_sdk.errors`, unwraps the service's
envelope and parses the model. The request loop itself is written once, in
``_async_transport.py``; ``_sync_transport.py`` is generated from it.

Whatever bytes come back, a call ends in a result or an `XSwapError`:

- the status decides before the body is read for meaning: 3xx is a `RedirectError`
  (redirects are never followed, whatever the caller's httpx client says), 4xx/5xx a
  status error whose body only feeds the message;
- a body is read through a size cap and parsed only after its nesting is checked
  (``xswap_sdk._body``), so no answer can exhaust memory or the stack;
- after a request that moves money or state was sent, anything but a usable success
  answer (a 5xx, a timeout, a redirect, an unreadable, truncated or error-shaped 2xx)
  says ``outcome_unknown=True``; a 4xx is the service refusing, so the outcome is known;
- a call has a total deadline across attempts, slow reads and retry waits.

Credentials leave this module only inside the request: the frames that raise keep
neither the `httpx.Request` nor the bare key, so an error tracker that records locals
sees none.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Final,
    Generic,
    Protocol,
    Self,
    TypeAlias,
    TypeVar,
)

import httpx
from pydantic import ValidationError

from ._auth import Auth
from ._body import BoundedBody, decode_body, decode_error_body
from ._capture import RawResponse, _captures, capture_responses
from ._clock import SYSTEM_CLOCK, Clock
from ._concurrency import AsyncGate, Gate
from ._framing import Framing
from ._logging import SENSITIVE_HEADERS, log_response, log_retry, logger
from ._models import WireModel
from ._operation import Operation, query_string
from ._options import (
    ClientOptions,
    RequestOptions,
    check_deadline,
    check_headers,
    check_max_retries,
    clip_timeout,
    normalize_timeout,
)
from ._pool import ClientT, Pool
from ._record import Frozen
from ._retry import is_retryable, parse_retry_after, retry_delay
from ._version import __version__
from .errors import (
    APIConnectionError,
    APIError,
    APIStatusError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    DeadlineExceededError,
    EnvelopeError,
    InternalServerError,
    InvalidInputError,
    NotFoundError,
    PaymentNotAcceptedError,
    PaymentNotDueError,
    PaymentRequiredError,
    PermissionDeniedError,
    RateLimitError,
    RedirectError,
    ResponseValidationError,
    UnprocessableEntityError,
    XSwapError,
)
from .events import (
    RequestEvent,
    RequestHook,
    ResponseEvent,
    ResponseHook,
    RetryEvent,
    RetryHook,
)

if TYPE_CHECKING:
    from .journal import StepHook

__all__ = [
    "Answer",
    "AsyncPaidHook",
    "PaidHook",
    "BaseTransport",
    "Extras",
    "Hooks",
    "Payer",
    "Pool",
    "RawResponse",
    "async_settle",
    "capture_responses",
    "emit",
    "settle",
]

T = TypeVar("T")

USER_AGENT = f"xswap-sdk-python/{__version__}"
_TRACE_HEADERS = ("x-trace-id", "x-request-id", "traceparent")
_MIN_SECRET_LENGTH = 6
_REDACTED = "[redacted]"


PaidHook: TypeAlias = Callable[[Mapping[str, str]], None]
"""Told an x402 payment's headers before the paid request leaves (a blocking client)."""

AsyncPaidHook: TypeAlias = Callable[[Mapping[str, str]], Awaitable[None]]
"""The same, awaited (an async client)."""


class Payer(Protocol):
    """Pays an HTTP 402 (x402): the headers to send the request again with, or ``None``
    when the 402 asks for nothing it can pay. See ``xswap_sdk.relayer._x402``."""

    def pay(self, error: PaymentRequiredError, /) -> Mapping[str, str] | None:
        """The payment headers for ``error``'s requirements."""
        ...


# ---------------------------------------------------------------------------- shared logic


@dataclass(init=False, repr=False, eq=False, slots=True)
class Answer(Frozen):
    """An HTTP answer, read whole (within the size cap), with no tie to its request."""

    status_code: int
    headers: httpx.Headers
    content: bytes
    url: httpx.URL
    elapsed: float

    def __init__(
        self,
        status_code: int,
        headers: httpx.Headers,
        content: bytes,
        url: httpx.URL,
        elapsed: float,
    ) -> None:
        object.__setattr__(self, "status_code", status_code)
        object.__setattr__(self, "headers", headers)
        object.__setattr__(self, "content", content)
        object.__setattr__(self, "url", url)
        object.__setattr__(self, "elapsed", elapsed)


@dataclass(init=False, repr=False, eq=False, slots=True)
class Hooks(Frozen):
    """The client's event hooks (see `xswap_sdk.events`); shared by its copies."""

    on_request: RequestHook | None = None
    on_response: ResponseHook | None = None
    on_retry: RetryHook | None = None
    on_step: StepHook | None = None

    def __init__(
        self,
        on_request: RequestHook | None = None,
        on_response: ResponseHook | None = None,
        on_retry: RetryHook | None = None,
        on_step: StepHook | None = None,
    ) -> None:
        object.__setattr__(self, "on_request", on_request)
        object.__setattr__(self, "on_response", on_response)
        object.__setattr__(self, "on_retry", on_retry)
        object.__setattr__(self, "on_step", on_step)

    @classmethod
    def checked(
        cls,
        on_request: RequestHook | None,
        on_response: ResponseHook | None,
        on_retry: RetryHook | None,
        *,
        can_await: bool,
        on_step: StepHook | None = None,
        progress: bool = False,
    ) -> Hooks:
        """The hooks, each a callable or ``None``; refused otherwise, before any I/O.

        ``can_await`` is true for an async client, which awaits an ``async def`` hook; a
        blocking client cannot, so it refuses one here rather than never running it.
        """
        for name, hook in (
            ("on_request", on_request),
            ("on_response", on_response),
            ("on_retry", on_retry),
            ("on_step", on_step),
        ):
            if hook is None:
                continue
            if not callable(hook):
                raise InvalidInputError(name, "must be a function of the event, or None")
            if not can_await and _is_coroutine_function(hook):
                raise InvalidInputError(
                    name,
                    "is an async function, which a blocking client cannot await: pass a "
                    "plain function, or give it to the async client",
                )
        if not isinstance(progress, bool):
            raise InvalidInputError("progress", "must be True or False")
        if progress:
            from ._progress import with_progress  # lazy: only a client asked for progress

            on_step = with_progress(on_step)
        return cls(on_request, on_response, on_retry, on_step)


def _is_coroutine_function(hook: object) -> bool:
    import inspect  # only for a client given hooks

    # A callable object's async __call__ counts too.
    return inspect.iscoroutinefunction(hook) or inspect.iscoroutinefunction(
        getattr(hook, "__call__", None)  # noqa: B004
    )


def _hook_failed(event: object, exc: BaseException) -> None:
    # A hook is the caller's code: its failure must not turn a sent payment into an error.
    logger.warning(
        "xswap_sdk event hook %s raised %s; ignored", type(event).__name__, type(exc).__name__
    )


def emit(hook: Callable[[Any], object], event: object) -> Awaitable[Any] | None:
    """Call ``hook`` with ``event``; return what it returned if it must be awaited (an
    ``async def`` hook), for the transport to settle (`settle`, `async_settle`)."""
    try:
        result = hook(event)
    except Exception as exc:
        _hook_failed(event, exc)
        return None
    return result if hasattr(result, "__await__") else None


async def async_settle(event: object, pending: Awaitable[Any] | None) -> None:
    """Await what an async hook returned; its failure is logged and ignored."""
    if pending is None:
        return
    try:
        await pending
    except Exception as exc:
        _hook_failed(event, exc)


def settle(event: object, pending: Awaitable[Any] | None) -> None:
    """A blocking client cannot await: an awaitable from a hook (a plain function that
    returns one; ``async def`` hooks were refused) is closed, with a warning."""
    if pending is None:
        return
    close = getattr(pending, "close", None)
    if close is not None:
        close()  # no "coroutine was never awaited" warning at garbage collection
    logger.warning(
        "xswap_sdk event hook %s returned an awaitable, which a blocking client cannot "
        "await; ignored",
        type(event).__name__,
    )


_NO_HOOKS: Final = Hooks()


@dataclass(init=False, repr=False, eq=False, slots=True)
class Extras(Frozen):
    """A call's ``extra_headers``, ``extra_query`` and ``extra_body``, checked."""

    headers: dict[str, str]
    query: list[tuple[str, str]]
    body: dict[str, Any]

    def __init__(
        self,
        headers: dict[str, str],
        query: list[tuple[str, str]],
        body: dict[str, Any],
    ) -> None:
        object.__setattr__(self, "headers", headers)
        object.__setattr__(self, "query", query)
        object.__setattr__(self, "body", body)


def payment_headers(extras: Extras | None) -> dict[str, str]:
    """The x402 payment headers among a paid request's headers (what a journey writes;
    the caller's other extra headers may carry credentials)."""
    headers = {} if extras is None else extras.headers
    return {k: v for k, v in headers.items() if k.lower().startswith(("x-payment", "payment"))}


def _with_request_id(result: T, request_id: str | None) -> T:
    if request_id is None:
        return result
    if isinstance(result, WireModel):
        result._request_id = request_id
    elif isinstance(result, list):
        for item in result:
            if isinstance(item, WireModel):
                item._request_id = request_id
    return result


def _trace_id(headers: httpx.Headers) -> str | None:
    return next((headers[h] for h in _TRACE_HEADERS if h in headers), None)


def _merged_query(
    defaults: httpx.QueryParams, params: list[tuple[str, str]]
) -> list[tuple[str, str]]:
    """An httpx client's own query parameters, then the call's, merged as httpx merges
    them: a name the call sends replaces the client's."""
    sent = {name for name, _ in params}
    return [(k, v) for k, v in defaults.multi_items() if k not in sent] + params


def _scrub(text: str, secrets: list[str]) -> str:
    for secret in secrets:
        if len(secret) >= _MIN_SECRET_LENGTH and secret in text:
            text = text.replace(secret, _REDACTED)
    return text


def _redacted(content: bytes, keys: tuple[str, ...]) -> bytes:
    # Only bodies the SDK parsed as JSON reach here, so this cannot recurse deep.
    try:
        data = json.loads(content)
    except ValueError:
        return content
    if isinstance(data, dict):
        for key in keys:
            if key in data:
                data[key] = _REDACTED
    return json.dumps(data).encode()


_STATUS_ERRORS: dict[int, type[APIStatusError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    402: PaymentRequiredError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    422: UnprocessableEntityError,
    429: RateLimitError,
}


class BaseTransport(Generic[ClientT]):
    """The state and the non-I/O steps of a transport; see the module docstring."""

    gate_type: ClassVar[type[Gate] | type[AsyncGate]]
    """Makes the in-flight gate of a pool of the given size (see ``xswap_sdk._concurrency``)."""

    def __init__(
        self,
        *,
        options: ClientOptions,
        framing: Framing,
        pool: Pool[ClientT],
        auth: Auth,
        clock: Clock = SYSTEM_CLOCK,
        hooks: Hooks = _NO_HOOKS,
    ) -> None:
        self.options = options
        self.framing = framing
        self.pool: Pool[ClientT] = pool
        self.auth = auth
        self.clock = clock
        self.hooks = hooks
        self.owns_pool = True
        self.payer: Payer | None = None
        """Pays a 402 (x402) once per call, when the client has a payer."""
        # The merged headers (see `_headers`), in a holder that `with_auth`'s copies (one
        # a call or a flow) share, so the merge is made once per client, not per call.
        self._merged_headers: list[tuple[list[tuple[bytes, bytes]], httpx.Headers]] = []

    @property
    def service(self) -> str:
        """The service's name, for logs and captured responses."""
        return self.options.service.name

    def derive(self, options: ClientOptions, auth: Auth) -> Self:
        """A transport with other settings over the same connection pool."""
        clone = self.with_auth(auth)
        clone.options = options
        clone._merged_headers = []
        # The pool belongs to the original client: closing a copy must not close it.
        clone.owns_pool = False
        return clone

    def with_auth(self, auth: Auth) -> Self:
        """This transport with other credentials, for one call or flow."""
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone.auth = auth
        return clone

    # -- before sending

    def _timeout(self, operation: Operation[Any], options: RequestOptions) -> httpx.Timeout:
        # The call's, the operation's own, the client's, then the httpx client's.
        if "timeout" in options:
            return normalize_timeout(options["timeout"])
        if isinstance(operation.timeout, httpx.Timeout):
            return operation.timeout
        return self.options.timeout or self.pool.timeout

    def _max_retries(self, options: RequestOptions) -> int:
        if "max_retries" in options:
            return check_max_retries(options["max_retries"])
        return self.options.max_retries

    def _extras(self, operation: Operation[Any], options: RequestOptions) -> Extras | None:
        """The call's extra headers, query and body, checked before any I/O."""
        if not ("extra_headers" in options or "extra_query" in options or "extra_body" in options):
            return None
        headers = check_headers(options.get("extra_headers") or {}, argument="extra_headers")
        credential = self.options.service.api_key_header
        for name in headers:
            lowered = name.lower()
            if lowered in SENSITIVE_HEADERS or lowered == (credential or "").lower():
                raise InvalidInputError(
                    f"extra_headers[{name!r}]",
                    "must not set a credentials header: give the client its api_key= or "
                    "jwt= instead",
                )
        query = options.get("extra_query") or {}
        if not isinstance(query, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in query.items()
        ):
            raise InvalidInputError("extra_query", "must be a mapping of str to str")
        sent = {name for name, _ in operation.params or ()}
        for name in query:
            if name in sent:
                raise InvalidInputError(
                    f"extra_query[{name!r}]", "is sent by the SDK already: use its argument"
                )
        body = options.get("extra_body") or {}
        if not isinstance(body, Mapping) or not all(isinstance(k, str) for k in body):
            raise InvalidInputError("extra_body", "must be a mapping with str keys")
        if body and not isinstance(operation.json, dict):
            raise InvalidInputError(
                "extra_body", f"{operation.method} {operation.log_path} sends no JSON object body"
            )
        for name in body:
            if name in operation.json:
                raise InvalidInputError(
                    f"extra_body[{name!r}]",
                    "is sent by the SDK already (and may be what was signed): use its argument",
                )
        return Extras(headers, list(query.items()), dict(body))

    def _deadline_at(self, options: RequestOptions, until: float | None) -> float | None:
        """The clock time (``monotonic``) by which the call must end, if any: the call's
        deadline, or the end of the wait it belongs to (``until``), whichever is first."""
        seconds = check_deadline(options["deadline"]) if "deadline" in options else None
        if "deadline" not in options:
            seconds = self.options.deadline
        ends = [until] if until is not None else []
        if seconds is not None:
            ends.append(self.clock.monotonic() + seconds)
        return min(ends) if ends else None

    def _attempt_timeout(
        self,
        operation: Operation[Any],
        timeout: httpx.Timeout,
        deadline_at: float | None,
        *,
        sent: bool,
    ) -> httpx.Timeout:
        """The attempt's timeout, every phase clipped to the time the deadline leaves."""
        remaining = self._check_deadline(operation, deadline_at, sent=sent)
        return timeout if remaining is None else clip_timeout(timeout, remaining)

    def _check_deadline(
        self, operation: Operation[Any], deadline_at: float | None, *, sent: bool
    ) -> float | None:
        """The seconds left before the deadline (``None``: no deadline); raises
        `DeadlineExceededError` when none are."""
        if deadline_at is None:
            return None
        remaining = deadline_at - self.clock.monotonic()
        if remaining <= 0:
            raise self._deadline_error(operation, sent=sent)
        return remaining

    def _build_request(
        self,
        client: ClientT,
        operation: Operation[Any],
        timeout: httpx.Timeout,
        extras: Extras | None,
        attempt: int,
    ) -> Any:
        """The request to send, of the client's library (an `httpx.Request`, or an
        httpx2 one for an httpx2 client)."""
        headers = self._headers(client)
        params = list(operation.params or ())
        body = operation.json
        if extras is not None:
            for name, value in extras.headers.items():
                headers[name] = value
            params += extras.query
            if extras.body:
                body = {**body, **extras.body}
        # Last, so that nothing else can replace the credentials.
        if operation.auth != "none":
            for name, value in self.auth.headers(operation).items():
                headers[name] = value
        if client.params:
            params = _merged_query(client.params, params)
        url = self.options.base_url + operation.path
        if params:
            url += ("&" if "?" in url else "?") + query_string(params)
        # What client.build_request would build, made directly: it parses the URL three
        # times over, which costs more than the rest of a call's work on our side.
        stack = self.pool.stack
        return stack.request(
            operation.method,
            url,
            headers=headers if stack.native else headers.raw,
            cookies=client.cookies,
            json=body,
            extensions={"timeout": timeout.as_dict()},
        )

    def _headers(self, client: ClientT) -> httpx.Headers:
        """A fresh copy of the httpx client's headers with the SDK's and the client
        options' on top; the merge is cached until the httpx client's headers change."""
        current = client.headers.raw
        holder = self._merged_headers
        cached = holder[0] if holder else None
        if cached is None or cached[0] != current:
            # From the raw pairs: the client's headers may be httpx2's.
            merged = httpx.Headers(current, encoding=client.headers.encoding)
            merged.update(
                {
                    "User-Agent": USER_AGENT,
                    "Accept": "application/json",
                    # A compressed body inflates in chunks the size cap cannot see into.
                    "Accept-Encoding": "identity",
                    **self.options.headers,
                }
            )
            cached = (current, merged)
            holder[:] = [cached]
        return httpx.Headers(cached[1])

    def _body(self, operation: Operation[Any], headers: httpx.Headers) -> BoundedBody:
        """The accumulator a body streams into: refuses an announced size over the cap."""
        body = BoundedBody(
            self.options.max_response_bytes,
            method=operation.method,
            path=operation.log_path,
            outcome_unknown=not operation.idempotent,
        )
        body.check_declared_length(headers)
        return body

    def _secrets(self, operation: Operation[Any]) -> list[str]:
        """The values no error message may show: this request's signatures, the client's
        credentials, and the values of sensitive custom headers."""
        secrets = [*operation.secrets, *self.auth.secrets()]
        for name, value in self.options.headers.items():
            if name.lower() in SENSITIVE_HEADERS:
                secrets += [value, value.rpartition(" ")[2]]  # and the token of "Bearer x"
        return secrets

    # -- when something goes wrong

    def _connection_error(
        self,
        operation: Operation[Any],
        exc: Exception,
        timeout: httpx.Timeout,
        *,
        sent: bool = False,
    ) -> APIConnectionError:
        """The SDK error of a failed exchange (``exc``: an error of the client's
        library, httpx's or httpx2's)."""
        stack = self.pool.stack
        # Only these prove the request never reached the server; anything later may have.
        never_sent = not sent and isinstance(exc, stack.never_sent)
        cls = APITimeoutError if isinstance(exc, stack.timeout_error) else APIConnectionError
        what = "connection failed"
        if cls is APITimeoutError:
            step = stack.phase(exc)
            limit = getattr(timeout, step)
            what = f"{step} timed out" + (f" after {limit:g} s" if limit is not None else "")
        phase = "before the request was sent" if never_sent else "after the request was sent"
        return cls(
            f"{what} {phase} ({type(exc).__name__})",
            request_sent=not never_sent,
            method=operation.method,
            path=operation.log_path,
            outcome_unknown=not never_sent and not operation.idempotent,
        )

    def _deadline_error(
        self, operation: Operation[Any], *, sent: bool, asked: float | None = None
    ) -> DeadlineExceededError:
        waiting = f"; the service asked to wait {asked:g} s more" if asked is not None else ""
        return DeadlineExceededError(
            f"the call's deadline passed{waiting} (set deadline= per client or per call)",
            request_sent=sent,
            method=operation.method,
            path=operation.log_path,
            outcome_unknown=sent and not operation.idempotent,
        )

    def _retry(
        self,
        operation: Operation[Any],
        exc: XSwapError,
        attempt: int,
        max_retries: int,
        deadline_at: float | None,
    ) -> RetryEvent | None:
        """The retry of ``operation`` after failed attempt ``attempt`` (its ``delay`` is
        the seconds to wait first), or ``None`` when it must not be retried. Raises
        `DeadlineExceededError` when it may be retried but not within the deadline."""
        now = self.clock.time()
        if attempt > max_retries or not is_retryable(exc, idempotent=operation.idempotent, now=now):
            return None
        delay = retry_delay(exc, attempt, now=now)
        if deadline_at is not None and self.clock.monotonic() + delay >= deadline_at:
            sent = not isinstance(exc, APIConnectionError) or exc.request_sent
            raise self._deadline_error(operation, sent=sent, asked=delay) from exc
        status = exc.status_code if isinstance(exc, APIStatusError) else None
        reason = f"HTTP {status}" if status else type(exc).__name__
        log_retry(
            service=self.service,
            method=operation.method,
            path=operation.log_path,
            attempt=attempt,
            delay=delay,
            reason=reason,
            status=status,
            trace_id=getattr(exc, "trace_id", None),
        )
        return RetryEvent(
            self.service, operation.method, operation.log_path, attempt, delay, reason, status
        )

    # -- paying (x402)

    def _paying(
        self, operation: Operation[T], exc: PaymentRequiredError, extras: Extras | None
    ) -> tuple[Operation[T], Extras] | None:
        """The same request carrying the payment of ``exc``'s requirements, or ``None``
        when it asks for nothing this payer can pay (``exc`` is raised as it is)."""
        assert self.payer is not None
        answer = self.payer.pay(exc)
        payment: dict[str, str] = dict(answer or {})
        if not payment:
            return None
        base = extras or Extras({}, [], {})
        paid = Extras({**base.headers, **payment}, base.query, base.body)
        # The payment is a signature: no error message may quote it.
        return operation.keeping_secret(*payment.values()), paid

    def _payment_not_due(
        self, operation: Operation[Any], exc: PaymentRequiredError
    ) -> PaymentNotDueError:
        return _from_402(
            PaymentNotDueError,
            f"the service answered 402 to {operation.method} {operation.log_path}, a call "
            f"it does not price ({exc.message}); the SDK pays only submissions, so nothing "
            "was signed",
            operation,
            exc,
        )

    def _payment_not_accepted(
        self, operation: Operation[Any], exc: PaymentRequiredError
    ) -> PaymentNotAcceptedError:
        return _from_402(
            PaymentNotAcceptedError,
            f"the service answered 402 again after the SDK paid ({exc.message}); the "
            "payment may still be settled: check your Gateway balance before calling "
            "again (the SDK never pays twice for one call)",
            operation,
            exc,
            outcome_unknown=True,
        )

    # -- after receiving

    def _request_event(self, operation: Operation[Any], attempt: int) -> RequestEvent:
        """What the ``on_request`` hook receives before attempt ``attempt``."""
        return RequestEvent(self.service, operation.method, operation.log_path, attempt)

    def _response_event(
        self, operation: Operation[Any], answer: Answer, attempt: int
    ) -> ResponseEvent:
        """What the ``on_response`` hook receives for ``answer``."""
        return ResponseEvent(
            self.service,
            operation.method,
            operation.log_path,
            attempt,
            answer.status_code,
            answer.elapsed,
            _trace_id(answer.headers),
        )

    def _handle_answer(self, operation: Operation[T], answer: Answer, *, attempt: int) -> T:
        """Turn an answer into the operation's result, or raise the SDK error it means."""
        if logger.isEnabledFor(logging.DEBUG):  # else the trace id is looked up for nothing
            log_response(
                service=self.service,
                method=operation.method,
                path=operation.log_path,
                status=answer.status_code,
                attempt=attempt,
                elapsed=answer.elapsed,
                trace_id=_trace_id(answer.headers),
            )
        self._capture(operation, answer, attempt)
        return self.read_answer(operation, answer)

    def read_answer(self, operation: Operation[T], answer: Answer) -> T:
        """The result ``answer`` means for ``operation``, or the SDK error it means:
        every check a fresh answer gets (status, size, nesting, framing, model). A
        journey's replay reads its recorded answers through this too."""
        headers = answer.headers
        trace_id = _trace_id(headers)
        status = answer.status_code
        if 300 <= status < 400:
            raise RedirectError.from_location(
                status,
                headers.get("location"),
                request_url=answer.url,
                method=operation.method,
                path=operation.log_path,
                outcome_unknown=not operation.idempotent,
            )
        content_type = headers.get("content-type")
        if status >= 400 or status < 200:
            body = decode_error_body(answer.content, content_type)
            raise self._status_error(operation, status, headers, body, trace_id)
        unknown = not operation.idempotent
        body = decode_body(
            answer.content,
            content_type,
            status_code=status,
            method=operation.method,
            path=operation.log_path,
            outcome_unknown=unknown,
        )
        try:
            data = self.framing.unwrap(
                body, status_code=status, method=operation.method, path=operation.log_path
            )
        except EnvelopeError as exc:
            exc.message = _scrub(exc.message, self._secrets(operation))
            exc.args = (exc.message,)
            # A 2xx that says failure is no usable success: the service may have acted.
            exc.outcome_unknown = unknown
            raise
        except ResponseValidationError as exc:
            exc.outcome_unknown = unknown
            raise
        try:
            result = operation.parse(data)
            if operation.with_headers is not None:
                result = operation.with_headers(result, headers)
            return _with_request_id(result, trace_id)
        except ValidationError as exc:
            # Not chained: pydantic's text quotes the response, which may hold a token.
            first = exc.errors(include_input=False, include_url=False)[0]
            where = ".".join(map(str, first["loc"])) or "the top level"
            raise ResponseValidationError(
                f"response does not fit the expected model ({exc.error_count()} problem(s); "
                f"first at {where}: {first['msg']})",
                body=body,
                errors=exc.errors(include_input=False, include_url=False),
                method=operation.method,
                path=operation.log_path,
                outcome_unknown=unknown,
            ) from None

    def _capture(self, operation: Operation[Any], answer: Answer, attempt: int) -> None:
        captures = [c for c in _captures.get() if c.pool is self.pool]
        if not captures:
            return
        content = answer.content
        if operation.redact and 200 <= answer.status_code < 300:
            content = _redacted(content, operation.redact)
        raw = RawResponse(
            service=self.service,
            method=operation.method,
            path=operation.path,
            status_code=answer.status_code,
            headers=answer.headers,
            content=content,
            elapsed=answer.elapsed,
            attempt=attempt,
        )
        for capture in captures:
            capture.append(raw)

    def _status_error(
        self,
        operation: Operation[Any],
        status: int,
        headers: httpx.Headers,
        body: Any,
        trace_id: str | None,
    ) -> APIStatusError:
        details = self.framing.error_details(body)
        cls = _STATUS_ERRORS.get(status) or (
            InternalServerError if status >= 500 else APIStatusError
        )
        kwargs: dict[str, Any] = {
            "status_code": status,
            "body": body,
            "code": details.code,
            "trace_id": details.trace_id or trace_id,
            "headers": headers,
            "method": operation.method,
            "path": operation.log_path,
            # A 4xx is the service refusing; anything else after sending may have acted.
            "outcome_unknown": not (400 <= status < 500) and not operation.idempotent,
        }
        if cls is RateLimitError:
            kwargs["retry_after"] = parse_retry_after(
                headers.get("retry-after"), now=self.clock.time()
            )
        return cls(_scrub(details.message, self._secrets(operation)), **kwargs)


def gave_up(exc: XSwapError, attempts: int) -> None:
    """Note on ``exc`` how many attempts were made before it is raised."""
    if isinstance(exc, APIError):
        exc.attempts = attempts


_E402 = TypeVar("_E402", bound=PaymentRequiredError)


def _from_402(
    kind: type[_E402],
    message: str,
    operation: Operation[Any],
    exc: PaymentRequiredError,
    **extra: Any,
) -> _E402:
    """``kind`` for a 402 answer ``exc`` to ``operation``: its answer's details kept."""
    return kind(
        message,
        status_code=exc.status_code,
        body=exc.body,
        code=exc.code,
        trace_id=exc.trace_id,
        headers=exc.headers,
        method=operation.method,
        path=operation.log_path,
        **extra,
    )
