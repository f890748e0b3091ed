"""The sandbox over the network: a thin Starlette adapter, served by uvicorn.

Every request goes to `Sandbox.exchange`, the same entry point the in-process clients
use, so both modes answer alike. Starlette and uvicorn come from the ``sandbox`` extra
and are imported only here, on first use.

Lost connections: ASGI has no message for "close without answering", so a dropped
connection closes the socket through the server's transport, which uvicorn exposes;
the client sees the connection end with no answer. Under another ASGI server the
adapter starts the answer and breaks it off mid-body instead. A connection cannot be
refused once the server has accepted it, so ``refuse_connection`` is served as a
connection closed before the request is handled: nothing happens, as with a refusal,
but the client cannot tell that it was never processed (to see a real refusal, point
the client at a closed port).

Before the sandbox sees a request, the outermost layer refuses a foreign ``Host`` (DNS
rebinding), a cross-site browser request and an oversized body (see ``_guard.py``).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, Literal

from .._clock import Clock, SystemClock, VirtualClock
from .._lazy import require
from ._guard import DEFAULT_MAX_BODY, refusal
from ._sandbox import Sandbox
from .faults import SERVICES

__all__ = ["create_app", "serve"]

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

_RAW_SEND = "xswap_sdk.raw_send"
_FEATURE = "serving the sandbox"


async def _drop(scope: Scope, send: Send) -> None:
    """Close the client's connection without an answer."""
    raw_send = scope.get(_RAW_SEND, send)
    cycle: Any = getattr(raw_send, "__self__", None)
    transport = getattr(cycle, "transport", None)
    if transport is not None and hasattr(cycle, "disconnected"):
        transport.close()
        # Let the server notice the disconnection, so that it neither logs the missing
        # answer nor tries to send a 500 of its own.
        for _ in range(100):
            if cycle.disconnected:
                return
            await asyncio.sleep(0)
        return
    # Elsewhere: start an answer that promises a body, then break it off.
    await send(
        {"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"1")]}
    )
    raise ConnectionAbortedError("sandbox fault: connection dropped")


class _Endpoint:
    """The one ASGI endpoint: every method, every path, through `Sandbox.exchange`."""

    def __init__(self, sandbox: Sandbox) -> None:
        self.sandbox = sandbox
        self._requests = require("starlette.requests", extra="sandbox", feature=_FEATURE)
        self._responses = require("starlette.responses", extra="sandbox", feature=_FEATURE)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = self._requests.Request(scope, receive)
        outcome = self.sandbox.exchange(
            request.method,
            request.url.path,
            query=request.query_params.multi_items(),
            headers=dict(request.headers),
            body=await request.body(),
        )
        if outcome.drop == "before":
            await _drop(scope, send)
            return
        if outcome.delay > 0:
            await self.sandbox.clock.asleep(outcome.delay)
        if outcome.drop == "after" or outcome.response is None:
            await _drop(scope, send)
            return
        answer = outcome.response
        response = self._responses.Response(
            answer.body,
            status_code=answer.status,
            headers=dict(answer.headers),
            media_type=answer.content_type,
        )
        await response(scope, receive, send)


async def _refuse(send: Send, status: int, code: str, message: str) -> None:
    body = json.dumps({"error": code, "message": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _read_body(receive: Receive, limit: int) -> bytes | None:
    """The whole request body, or ``None`` once it passes ``limit`` bytes."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def create_app(
    sandbox: Sandbox, *, bound_host: str = "127.0.0.1", max_body: int = DEFAULT_MAX_BODY
) -> Callable[[Scope, Receive, Send], Awaitable[None]]:
    """An ASGI application serving ``sandbox``: a Starlette app with one endpoint for
    the three services under their prefixes, the ``/sandbox`` controls and an index
    at ``/``.

    Args:
        sandbox: the sandbox to serve.
        bound_host: the address the server listens on; besides loopback names, the one
            ``Host`` accepted (every IP literal when it is ``0.0.0.0`` or ``::``).
        max_body: the largest request body read, in bytes; above it, HTTP 413.

    Raises:
        MissingDependencyError: Starlette is not installed (the ``sandbox`` extra:
            ``pip install ".[sandbox]"`` in a checkout).
    """
    applications = require("starlette.applications", extra="sandbox", feature=_FEATURE)
    routing = require("starlette.routing", extra="sandbox", feature=_FEATURE)
    # An ASGI callable (not a function) as the endpoint: Starlette routes every method
    # to it unchanged.
    app = applications.Starlette(routes=[routing.Route("/{path:path}", _Endpoint(sandbox))])

    async def outermost(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        headers = {
            name.decode("latin-1").lower(): value.decode("latin-1")
            for name, value in scope.get("headers", [])
        }
        refused = refusal(headers, bound_host=bound_host, scheme=scope.get("scheme", "http"))
        if refused is not None:
            await _refuse(send, *refused)
            return
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > max_body:
            await _refuse(send, 413, "body_too_large", f"the body exceeds {max_body} bytes")
            return
        body = await _read_body(receive, max_body)
        if body is None:
            await _refuse(send, 413, "body_too_large", f"the body exceeds {max_body} bytes")
            return
        replayed = False

        async def replay() -> MutableMapping[str, Any]:
            nonlocal replayed
            if replayed:
                return await receive()  # http.disconnect, when the client goes
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        # The server's own send, kept before middleware wraps it, to reach the socket.
        scope[_RAW_SEND] = send
        await app(scope, replay, send)

    return outermost


def serve(
    *,
    host: str = "127.0.0.1",
    port: int = 8787,
    seed: int = 0,
    log_level: str = "info",
    virtual_time: bool = False,
    jwt_secret: bytes | None = None,
    max_body: int = DEFAULT_MAX_BODY,
    banner: Literal["text", "json"] = "text",
) -> None:
    """Serve a new sandbox on ``host:port`` with uvicorn until interrupted.

    Args:
        host: the address to bind; keep the default (loopback) unless others must
            reach it.
        port: the port.
        seed: the seed of ids and prices.
        log_level: uvicorn's log level.
        virtual_time: run on a `VirtualClock` (time moves only through ``POST
            /sandbox/wait`` and the services' own waits) instead of in real time.
        jwt_secret: sign the swap backend's JWTs with this key (to issue the same
            tokens across restarts); default: a random key for this process.
        max_body: the largest request body read, in bytes.
        banner: how the URLs and API keys are announced on standard output before
            serving: lines of text, or one line of JSON (``base_url``, ``urls``,
            ``api_keys``, ``seed``, ``virtual_time``) for a program to read.

    Raises:
        MissingDependencyError: Starlette or uvicorn is not installed.
    """
    uvicorn = require("uvicorn", extra="sandbox", feature=_FEATURE)
    clock: Clock = VirtualClock() if virtual_time else SystemClock()
    base_url = f"http://{f'[{host}]' if ':' in host else host}:{port}"
    sandbox = Sandbox(seed=seed, clock=clock, base_url=base_url, jwt_secret=jwt_secret)
    app = create_app(sandbox, bound_host=host, max_body=max_body)
    if banner == "json":
        announcement = {
            "base_url": base_url,
            "urls": {service: sandbox.url(service) for service in SERVICES},
            "api_keys": dict(sandbox.api_keys),
            "seed": seed,
            "virtual_time": virtual_time,
        }
        print(json.dumps(announcement), flush=True)
    else:
        _print_banner(sandbox, base_url, seed=seed, virtual_time=virtual_time)
    uvicorn.run(app, host=host, port=port, log_level=log_level)


def _print_banner(sandbox: Sandbox, base_url: str, *, seed: int, virtual_time: bool) -> None:
    time_kind = "virtual time" if virtual_time else "real time"
    print(f"xswap sandbox on {base_url} (seed {seed}, {time_kind})", flush=True)
    print(f"  index    {base_url}/  (every endpoint, its query and body names)", flush=True)
    for service in SERVICES:
        print(f"  {service:8} {sandbox.url(service)}", flush=True)
    print(f"  controls {base_url}/sandbox  (fund, wait, faults, ...)", flush=True)
    for service, key in sandbox.api_keys.items():
        print(f"  api-key  {service}: {key}", flush=True)
