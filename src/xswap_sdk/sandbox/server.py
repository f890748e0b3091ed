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
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from .._clock import SystemClock
from .._lazy import require
from ._sandbox import Sandbox

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


def create_app(sandbox: Sandbox) -> Callable[[Scope, Receive, Send], Awaitable[None]]:
    """An ASGI application serving ``sandbox``: a Starlette app with one endpoint for
    the three services under their prefixes (and an index at ``/``).

    Raises:
        MissingDependencyError: Starlette is not installed (``pip install
            "xswap-sdk[sandbox]"``).
    """
    applications = require("starlette.applications", extra="sandbox", feature=_FEATURE)
    routing = require("starlette.routing", extra="sandbox", feature=_FEATURE)
    # An ASGI callable (not a function) as the endpoint: Starlette routes every method
    # to it unchanged.
    app = applications.Starlette(routes=[routing.Route("/{path:path}", _Endpoint(sandbox))])

    async def outermost(scope: Scope, receive: Receive, send: Send) -> None:
        # The server's own send, kept before middleware wraps it, to reach the socket.
        scope[_RAW_SEND] = send
        await app(scope, receive, send)

    return outermost


def serve(
    *, host: str = "127.0.0.1", port: int = 8787, seed: int = 0, log_level: str = "info"
) -> None:
    """Serve a new sandbox on ``host:port`` with uvicorn until interrupted, in real time
    (`SystemClock`).

    Raises:
        MissingDependencyError: Starlette or uvicorn is not installed.
    """
    uvicorn = require("uvicorn", extra="sandbox", feature=_FEATURE)
    sandbox = Sandbox(seed=seed, clock=SystemClock(), base_url=f"http://{host}:{port}")
    app = create_app(sandbox)
    print(f"xswap sandbox on http://{host}:{port} (seed {seed})", flush=True)
    for service in ("flash", "routing", "relayer"):
        print(f"  {service:8} {sandbox.url(service)}", flush=True)
    for service, key in sandbox.api_keys.items():
        print(f"  api-key  {service}: {key}", flush=True)
    uvicorn.run(app, host=host, port=port, log_level=log_level)
