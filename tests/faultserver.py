"""A fault-injecting HTTP/1.1 server over real sockets, for the suite's own tests.

Standard library only. It binds 127.0.0.1 on an ephemeral port, serves from a thread,
and stops itself: on leaving its ``with`` block, and after ``idle_timeout`` seconds
without a request (so a test that forgets it cannot leave it running). It records every
request it received (method, target, headers, body) before answering, so a test can
count what reached the server even when the answer was a broken connection.

What it answers is planned with `Reply` values, built by the functions below:

- `json_reply`, `text_reply`, `html_reply`: plain answers (any status).
- `success_false`, `code_error`: error-shaped envelopes with HTTP 200.
- `truncated_json`: a complete HTTP answer whose JSON body is cut short.
- `deeply_nested`: a JSON body nested ``depth`` levels deep.
- `bad_charset`: a text body with a charset that cannot decode it.
- `redirect`: a 3xx to another origin.
- `dripping`: a body sent one byte every ``interval`` seconds.
- `huge`: a body of ``size`` bytes, generated while it is sent (never held in memory).
- `closed_mid_body`: a ``Content-Length`` promise broken by closing the connection.
- `reset_after_request`: the request is read, then the connection is reset (RST).
- `closed_after_request`: the request is read, then the connection is closed (FIN).
- `delayed`: any reply, after a pause (for read timeouts).

Replies are taken in order from a queue (`FaultServer.enqueue`); ``routes`` answer a
path every time; anything else gets ``default`` (a 500 saying no reply was planned).
A reply may also be a function of the `ReceivedRequest`. Every answer carries
``Connection: close``, so each request arrives on a connection of its own.

    with FaultServer(dripping(b'{"ok": true}', interval=0.1)) as server:
        httpx.get(server.url + "/x", timeout=1)
        assert server.requests[0].path == "/x"
"""

from __future__ import annotations

import contextlib
import json
import socket
import struct
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any, Literal

__all__ = [
    "FaultServer",
    "ReceivedRequest",
    "Reply",
    "bad_charset",
    "closed_after_request",
    "closed_mid_body",
    "code_error",
    "deeply_nested",
    "delayed",
    "dripping",
    "html_reply",
    "huge",
    "json_reply",
    "redirect",
    "reset_after_request",
    "success_false",
    "text_reply",
    "truncated_json",
]

_MAX_HEAD = 64 * 1024
_CHUNK = 64 * 1024


@dataclass(frozen=True, slots=True)
class ReceivedRequest:
    """One request as the server read it.

    Attributes:
        method: the HTTP method.
        target: the request target as sent (path and query).
        headers: the header lines in order, names in lowercase.
        body: the body (a chunked body is de-chunked).
    """

    method: str
    target: str
    headers: tuple[tuple[str, str], ...]
    body: bytes

    @property
    def path(self) -> str:
        """The target without its query string."""
        return self.target.partition("?")[0]

    @property
    def query(self) -> str:
        """The query string, without the ``?``."""
        return self.target.partition("?")[2]

    def header(self, name: str) -> str | None:
        """The first value of header ``name`` (any case), or ``None``."""
        wanted = name.lower()
        return next((value for key, value in self.headers if key == wanted), None)

    def json(self) -> Any:
        """The body parsed as JSON."""
        return json.loads(self.body)


Action = Literal["answer", "reset", "close"]


@dataclass(frozen=True, slots=True)
class Reply:
    """What the server does with one request.

    Attributes:
        status: the HTTP status.
        headers: header lines to send (``Content-Length`` is added unless
            ``content_length`` is ``None``).
        body: the body, when it is small enough to hold.
        stream: a function making the body's chunks, for bodies too large to hold.
        content_length: the length to declare: ``"auto"`` for the real one, a number to
            lie, or ``None`` to send none (the body then ends when the connection does).
        drip_interval: send the body one byte at a time, this many seconds apart.
        cut_after: close the connection after this many body bytes.
        delay: seconds to wait before answering.
        action: ``"answer"``; ``"reset"`` to reset the connection once the request is
            read; ``"close"`` to close it without an answer.
    """

    status: int = 200
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes = b""
    stream: Callable[[], Iterable[bytes]] | None = None
    content_length: int | Literal["auto"] | None = "auto"
    drip_interval: float | None = None
    cut_after: int | None = None
    delay: float = 0.0
    action: Action = "answer"


ReplyPlan = Reply | Callable[[ReceivedRequest], Reply]


# ---------------------------------------------------------------------------- replies


def json_reply(data: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> Reply:
    """A JSON answer."""
    return Reply(
        status=status,
        headers=(("Content-Type", "application/json"), *(headers or {}).items()),
        body=json.dumps(data).encode(),
    )


def text_reply(
    body: bytes | str,
    status: int = 200,
    content_type: str = "text/plain; charset=utf-8",
    headers: Mapping[str, str] | None = None,
) -> Reply:
    """A text answer with the given ``Content-Type``."""
    raw = body.encode() if isinstance(body, str) else body
    return Reply(
        status=status,
        headers=(("Content-Type", content_type), *(headers or {}).items()),
        body=raw,
    )


def html_reply(status: int = 200) -> Reply:
    """An HTML page, as a proxy or a captive portal sends it."""
    page = b"<!doctype html><html><body><h1>Welcome</h1><p>Please sign in.</p></body></html>"
    return text_reply(page, status, "text/html; charset=utf-8")


def success_false(status: int = 200) -> Reply:
    """The relayer's failure envelope, with HTTP 200."""
    return json_reply(
        {
            "success": False,
            "error": {"code": "INTERNAL", "message": "upstream failed", "traceId": "t-1"},
        },
        status,
    )


def code_error(status: int = 200, code: int = 1001) -> Reply:
    """The routing service's failure envelope, with HTTP 200."""
    return json_reply({"code": code, "message": "route not found", "data": None}, status)


def truncated_json(status: int = 200) -> Reply:
    """A complete HTTP answer whose JSON body stops in the middle of a value."""
    return text_reply(b'{"success": true, "data": {"txId": "65f1a2', status, "application/json")


def deeply_nested(depth: int = 100_000, status: int = 200) -> Reply:
    """A JSON body nested ``depth`` arrays deep (200 KB at the default)."""
    return text_reply(b"[" * depth + b"]" * depth, status, "application/json")


def bad_charset(
    charset: str = "utf-16",
    status: int = 502,
    body: bytes = b"<h1>502 Bad Gateway</h1>!",  # odd length: not UTF-16 at all
) -> Reply:
    """A text body whose declared charset cannot decode it (``utf-16`` without a BOM,
    ``rot13``, ``base64``, or a name no codec has)."""
    return text_reply(body, status, f"text/html; charset={charset}")


def redirect(status: int = 307, location: str = "https://elsewhere.example/steal?k=1") -> Reply:
    """A redirect, to another origin by default."""
    return Reply(status=status, headers=(("Location", location),), body=b"")


def dripping(
    body: bytes = b'{"success": true, "data": {}}', interval: float = 0.1, status: int = 200
) -> Reply:
    """``body``, one byte every ``interval`` seconds, after the headers."""
    return Reply(
        status=status,
        headers=(("Content-Type", "application/json"),),
        body=body,
        drip_interval=interval,
    )


def huge(size: int = 50 * 1024 * 1024, status: int = 200, declare_length: bool = False) -> Reply:
    """A JSON string body of ``size`` bytes, made chunk by chunk as it is sent.

    With ``declare_length=False`` no ``Content-Length`` is sent, so the client cannot
    refuse it up front and must stop reading by itself.
    """
    prefix, suffix = b'{"data": "', b'"}'
    filler = size - len(prefix) - len(suffix)

    def chunks() -> Iterator[bytes]:
        yield prefix
        block = b"x" * _CHUNK
        left = filler
        while left > 0:
            yield block[: min(left, _CHUNK)]
            left -= _CHUNK
        yield suffix

    return Reply(
        status=status,
        headers=(("Content-Type", "application/json"),),
        stream=chunks,
        content_length=size if declare_length else None,
    )


def closed_mid_body(
    body: bytes = b'{"success": true, "data": {"txId": "65f1a2b3c4d5e6f708192a3b"}}',
    sent: int = 20,
    status: int = 200,
) -> Reply:
    """Declares the whole ``body``, sends ``sent`` bytes of it, and closes."""
    return Reply(
        status=status,
        headers=(("Content-Type", "application/json"),),
        body=body,
        cut_after=sent,
    )


def reset_after_request() -> Reply:
    """Reads the request, then resets the connection (RST) without answering."""
    return Reply(action="reset")


def closed_after_request() -> Reply:
    """Reads the request, then closes the connection (FIN) without answering."""
    return Reply(action="close")


def delayed(reply: Reply, seconds: float) -> Reply:
    """``reply``, after ``seconds`` of silence."""
    return Reply(
        status=reply.status,
        headers=reply.headers,
        body=reply.body,
        stream=reply.stream,
        content_length=reply.content_length,
        drip_interval=reply.drip_interval,
        cut_after=reply.cut_after,
        delay=seconds,
        action=reply.action,
    )


def _no_plan(request: ReceivedRequest) -> Reply:
    return json_reply(
        {"error": f"fault server: no reply planned for {request.method} {request.path}"}, 500
    )


# ---------------------------------------------------------------------------- the server


class _ConnectionGoneError(Exception):
    """The peer went away, or the server is stopping."""


@dataclass
class _State:
    lock: threading.Lock = field(default_factory=threading.Lock)
    requests: list[ReceivedRequest] = field(default_factory=list)
    queue: deque[ReplyPlan] = field(default_factory=deque)
    bytes_sent: int = 0
    last_activity: float = field(default_factory=time.monotonic)
    connections: set[socket.socket] = field(default_factory=set)


class FaultServer:
    """An HTTP/1.1 server on 127.0.0.1 that answers with planned faults.

    Args:
        *replies: replies to give, in order, to the requests that no route answers.
        routes: replies for exact paths, given every time (e.g. a login step).
        default: the reply once the queue is empty; a 500 by default.
        idle_timeout: seconds without a request (or a byte sent) after which the
            server stops by itself.
    """

    def __init__(
        self,
        *replies: ReplyPlan,
        routes: Mapping[str, ReplyPlan] | None = None,
        default: ReplyPlan = _no_plan,
        idle_timeout: float = 30.0,
    ) -> None:
        self._state = _State()
        self._state.queue.extend(replies)
        self._routes = dict(routes or {})
        self._default = default
        self._idle_timeout = idle_timeout
        self._stopping = threading.Event()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(0.05)
        self.port: int = self._listener.getsockname()[1]
        self._threads: list[threading.Thread] = []
        self._acceptor = threading.Thread(
            target=self._accept_loop, name=f"faultserver:{self.port}", daemon=True
        )
        self._started = False

    # -- public surface

    @property
    def url(self) -> str:
        """``http://127.0.0.1:<port>``."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def requests(self) -> list[ReceivedRequest]:
        """A copy of every request received so far, in order."""
        with self._state.lock:
            return list(self._state.requests)

    @property
    def bytes_sent(self) -> int:
        """Body and head bytes written to clients so far."""
        with self._state.lock:
            return self._state.bytes_sent

    @property
    def running(self) -> bool:
        """Whether the server still accepts connections."""
        return self._started and not self._stopping.is_set()

    def enqueue(self, *replies: ReplyPlan) -> None:
        """Add replies to the end of the queue."""
        with self._state.lock:
            self._state.queue.extend(replies)

    def start(self) -> FaultServer:
        """Start serving (done by ``with``)."""
        if not self._started:
            self._started = True
            self._acceptor.start()
        return self

    def stop(self) -> None:
        """Stop serving, close every connection and wait for the threads (bounded)."""
        self._stopping.set()
        with contextlib.suppress(OSError):
            self._listener.close()
        with self._state.lock:
            open_connections = list(self._state.connections)
        for connection in open_connections:
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)
        if self._acceptor.is_alive() and threading.current_thread() is not self._acceptor:
            self._acceptor.join(timeout=5)
        for thread in list(self._threads):
            if thread is not threading.current_thread():
                thread.join(timeout=5)

    def __enter__(self) -> FaultServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"FaultServer({self.url}, requests={len(self.requests)})"

    # -- serving

    def _touch(self) -> None:
        with self._state.lock:
            self._state.last_activity = time.monotonic()

    def _accept_loop(self) -> None:
        while not self._stopping.is_set():
            with self._state.lock:
                idle = time.monotonic() - self._state.last_activity
            if idle > self._idle_timeout:
                self.stop()
                return
            try:
                connection, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self._touch()
            thread = threading.Thread(
                target=self._serve_connection, args=(connection,), daemon=True
            )
            self._threads = [t for t in self._threads if t.is_alive()]
            self._threads.append(thread)
            thread.start()

    def _serve_connection(self, connection: socket.socket) -> None:
        with self._state.lock:
            self._state.connections.add(connection)
        connection.settimeout(self._idle_timeout)
        try:
            request = _read_request(connection)
            if request is None:
                return
            with self._state.lock:
                self._state.requests.append(request)
            self._touch()
            self._answer(connection, self._plan_for(request))
        except (_ConnectionGoneError, OSError):
            pass
        finally:
            with self._state.lock:
                self._state.connections.discard(connection)
            with contextlib.suppress(OSError):
                connection.close()

    def _plan_for(self, request: ReceivedRequest) -> Reply:
        plan: ReplyPlan
        if request.path in self._routes:
            plan = self._routes[request.path]
        else:
            with self._state.lock:
                plan = self._state.queue.popleft() if self._state.queue else self._default
        return plan if isinstance(plan, Reply) else plan(request)

    def _send(self, connection: socket.socket, data: bytes) -> None:
        if self._stopping.is_set():
            raise _ConnectionGoneError
        try:
            connection.sendall(data)
        except OSError as exc:  # BrokenPipe, ConnectionReset: the client stopped reading
            raise _ConnectionGoneError from exc
        with self._state.lock:
            self._state.bytes_sent += len(data)
            self._state.last_activity = time.monotonic()

    def _answer(self, connection: socket.socket, reply: Reply) -> None:
        if reply.delay and self._stopping.wait(reply.delay):
            return
        if reply.action == "reset":
            # SO_LINGER with a zero timeout makes close() send RST instead of FIN.
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            return
        if reply.action == "close":
            connection.shutdown(socket.SHUT_RDWR)
            return
        length = len(reply.body) if reply.content_length == "auto" else reply.content_length
        if reply.stream is not None and reply.content_length == "auto":
            length = None
        reason = _reason(reply.status)
        head = [f"HTTP/1.1 {reply.status} {reason}", "Connection: close"]
        head += [f"{name}: {value}" for name, value in reply.headers]
        if length is not None:
            head.append(f"Content-Length: {length}")
        self._send(connection, ("\r\n".join(head) + "\r\n\r\n").encode("latin-1"))
        body: Iterable[bytes] = reply.stream() if reply.stream is not None else [reply.body]
        sent = 0
        for chunk in body:
            if reply.cut_after is not None and sent + len(chunk) >= reply.cut_after:
                self._send(connection, chunk[: reply.cut_after - sent])
                connection.shutdown(socket.SHUT_RDWR)
                return
            if reply.drip_interval is None:
                self._send(connection, chunk)
            else:
                for index in range(len(chunk)):
                    self._send(connection, chunk[index : index + 1])
                    if self._stopping.wait(reply.drip_interval):
                        return
            sent += len(chunk)


def _reason(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Unknown"


def _read_request(connection: socket.socket) -> ReceivedRequest | None:
    buffer = b""
    while b"\r\n\r\n" not in buffer:
        data = connection.recv(_CHUNK)
        if not data:
            return None
        buffer += data
        if len(buffer) > _MAX_HEAD:
            raise _ConnectionGoneError
    head, _, rest = buffer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    method, target, _version = lines[0].split(" ", 2)
    headers = tuple(
        (name.strip().lower(), value.strip())
        for name, _, value in (line.partition(":") for line in lines[1:])
    )
    found = dict(headers)
    if "chunked" in found.get("transfer-encoding", "").lower():
        body = _read_chunked(connection, rest)
    else:
        length = int(found.get("content-length", "0") or 0)
        while len(rest) < length:
            data = connection.recv(_CHUNK)
            if not data:
                raise _ConnectionGoneError
            rest += data
        body = rest[:length]
    return ReceivedRequest(method=method, target=target, headers=headers, body=body)


def _read_chunked(connection: socket.socket, buffer: bytes) -> bytes:
    body = b""

    def need(count: int) -> None:
        nonlocal buffer
        while len(buffer) < count:
            data = connection.recv(_CHUNK)
            if not data:
                raise _ConnectionGoneError
            buffer += data

    while True:
        while b"\r\n" not in buffer:
            need(len(buffer) + 1)
        size_line, _, buffer = buffer.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        need(size + 2)
        body += buffer[:size]
        buffer = buffer[size + 2 :]
        if size == 0:
            return body
