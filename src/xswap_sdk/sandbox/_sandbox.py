"""`Sandbox`: the three emulated services behind one host, and the in-process wiring.

A request's path starts with the service's prefix (``/flash``, ``/routing``,
``/relayer``); the rest is the service's own path. ``/sandbox`` holds the sandbox's own
controls (funding, time, faults: see ``_controls.py``) and ``GET /`` lists every
endpoint of all four, from their route tables. `Sandbox.exchange` is the one entry
point: it applies the fault rules, lets the service answer and records the request.
The in-process adapter here (an `httpx.MockTransport` handler) and the network adapter
in ``server.py`` only translate to and from it.
"""

from __future__ import annotations

import inspect
import threading
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import TracebackType
from typing import Any, Concatenate, Final, ParamSpec, Self, TypeVar

import httpx

from .._clock import Clock, VirtualClock
from ..chains import SOLANA
from ..flash import AsyncFlashClient, FlashClient
from ..gateway import AsyncGatewayClient, GatewayClient
from ..registry import DEFAULT_REGISTRY, Registry
from ..relayer import AsyncRelayerClient, RelayerClient
from ..routing import AsyncRoutingClient, RoutingClient
from ..signing import Signer
from ._controls import PREFIX as CONTROLS_PREFIX
from ._controls import ControlService
from ._http import Request, Response, Service
from ._world import World
from .faults import SERVICES, Faults, Outcome
from .flash import SANDBOX_ROUTERS, FlashService
from .gateway import GatewayService
from .relayer import RelayerService
from .routing import SANDBOX_ROUTING_CONTRACTS, RoutingService

__all__ = ["BASE_URL", "RecordedRequest", "RequestLog", "Sandbox"]

# In-process clients never leave the machine (an httpx.MockTransport answers them), but
# they send credentials, and a URL the SDK accepts without its http:// opt-in says so.
BASE_URL: Final = "https://sandbox.invalid"
"""The host the in-process clients talk to (``.invalid`` never resolves)."""

ClientT = TypeVar("ClientT")
ClientArgs = ParamSpec("ClientArgs")


def _takes_the_arguments_of(
    client: Callable[ClientArgs, ClientT],
) -> Callable[[Callable[..., ClientT]], Callable[Concatenate[Sandbox, ClientArgs], ClientT]]:
    """Give a client factory the keyword arguments of the client's own constructor.

    Type checkers and editors complete ``sb.relayer_client(time...`` from the
    constructor itself (one source of truth: an argument added to a client is there
    too), and notebooks read the same list from the factory's ``__signature__``.
    """

    def decorate(
        factory: Callable[..., ClientT],
    ) -> Callable[Concatenate[Sandbox, ClientArgs], ClientT]:
        constructor = inspect.signature(client)
        self_parameter = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
        factory.__signature__ = constructor.replace(  # type: ignore[attr-defined]
            parameters=[self_parameter, *constructor.parameters.values()],
            return_annotation=client,
        )
        return factory

    return decorate


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    """One request the sandbox saw.

    Attributes:
        service: ``flash``, ``routing`` or ``relayer`` (``""`` for an unknown prefix).
        method: the HTTP method.
        path: the path inside the service, without the query string.
        status: the status answered, or ``None`` when no answer was sent.
        processed: whether the service handled it (and may have changed state).
        fault: the fault that befell it: ``refuse_connection``,
            ``drop_after_processing``, ``rate_limit``, ``server_error``, ``tamper``
            (the answer was changed), ``timeout`` (the delay reached the client's read
            timeout), or ``None``.
        body: the request body as sent (it may hold a signature: left out of ``repr``),
            so a test can see what a client submitted.
    """

    service: str
    method: str
    path: str
    status: int | None
    processed: bool
    fault: str | None = None
    body: bytes = field(default=b"", repr=False)


class RequestLog(list[RecordedRequest]):
    """Every request the sandbox saw, in order (``sb.requests``)."""

    def select(
        self,
        service: str | None = None,
        method: str | None = None,
        path: str | None = None,
        *,
        processed: bool | None = None,
    ) -> list[RecordedRequest]:
        """The recorded requests that match every given criterion.

        ``len(sb.requests.select("relayer", "POST", "/api/submit-tx", processed=True))``
        is how many submissions the relayer actually handled.
        """
        return [
            seen
            for seen in self
            if (service is None or seen.service == service)
            and (method is None or seen.method == method.upper())
            and (path is None or seen.path == path)
            and (processed is None or seen.processed == processed)
        ]


def _finish(coroutine: Coroutine[Any, Any, None]) -> None:
    # Closing a client over MockTransport never waits for anything, so the coroutine
    # runs to its end at once: a sync close() can finish it without an event loop.
    try:
        coroutine.send(None)
    except StopIteration:
        return
    coroutine.close()
    raise RuntimeError("closing this client needs an event loop: use `await sb.aclose()`")


class Sandbox:
    """An in-process emulator of the swap backend, the routing service and the relayer.

    ```python
    from xswap_sdk.sandbox import Sandbox

    with Sandbox() as sb:
        relayer = sb.relayer_client()
        tx_id = relayer.relay(chain_id=8453, to="0x...", call_data="0x")
        print(relayer.wait_for_execution_hash(tx_id).execution_tx_hash)
    ```

    Args:
        seed: drives every id, hash and price wobble: the same seed and the same
            requests give the same answers.
        clock: the time source. Default: a new `VirtualClock`, so nothing waits for
            real; clients made by the sandbox share it, so their polling sleeps move
            the sandbox's time. Pass `SystemClock()` for real time.
        base_url: the host in-process clients are pointed at.
        jwt_secret: the key the swap backend signs its JWTs with. Default: 32 random
            bytes, new for every sandbox, so a token cannot be forged from the seed;
            pass one to issue the same tokens again.

    Attributes:
        clock: the shared clock.
        faults: fault rules for the next requests (see `xswap_sdk.sandbox.faults`).
        requests: every request seen, for counting what the services received.
        flash: the swap backend emulator (balances, login settings, ...).
        routing: the routing service emulator (``broadcast`` for built transactions).
        relayer: the relayer emulator (timings, scripted failures, ...).
        gateway: Circle Gateway's API emulator (deposits that finalize, transfers,
            the fee floor); it reads the swap backend's balances.
        transport: the `httpx.MockTransport` that serves every in-process client.
        controls: the ``/sandbox`` controls (fund, time, faults...) for HTTP callers.
    """

    def __init__(
        self,
        *,
        seed: int = 0,
        clock: Clock | None = None,
        base_url: str = BASE_URL,
        jwt_secret: bytes | None = None,
    ) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError("seed must be an int")
        if jwt_secret is not None and (not isinstance(jwt_secret, bytes) or len(jwt_secret) < 16):
            raise ValueError("jwt_secret must be bytes, at least 16 of them")
        self.seed = seed
        """The seed of the emulated world (ids, hashes, addresses)."""
        self.clock: Clock = VirtualClock() if clock is None else clock
        self.base_url: str = base_url.rstrip("/")
        """The URL the services are emulated under (``url(service)`` adds the service)."""
        world = World(seed, self.clock)
        self.relayer: RelayerService = RelayerService(world)
        self.flash: FlashService = FlashService(
            world, host=httpx.URL(self.base_url).host, jwt_secret=jwt_secret
        )
        self.routing: RoutingService = RoutingService(world, self.relayer)
        self.gateway: GatewayService = GatewayService(world, self.flash)
        self.relayer.gateway = self.gateway  # settles keyless (x402) submissions
        self._services: dict[str, Service] = {
            service.name: service
            for service in (self.flash, self.routing, self.relayer, self.gateway)
        }
        # Not annotated: the reference would name the private ControlService.
        self.controls = ControlService(self)
        self.faults: Faults = Faults()
        self.requests: RequestLog = RequestLog()
        self.transport: httpx.MockTransport = httpx.MockTransport(self._handle)
        self._lock = threading.RLock()
        self._http_clients: list[httpx.Client | httpx.AsyncClient] = []
        self._clients: list[Any] = []

    # ------------------------------------------------------------------ addresses

    def url(self, service: str) -> str:
        """The base URL of ``service`` (``flash``, ``routing`` or ``relayer``)."""
        if service not in SERVICES:
            raise ValueError(f"service must be one of {', '.join(SERVICES)}")
        return f"{self.base_url}/{service}"

    @property
    def flash_url(self) -> str:
        """The swap backend's base URL."""
        return self.url("flash")

    @property
    def routing_url(self) -> str:
        """The routing service's base URL."""
        return self.url("routing")

    @property
    def relayer_url(self) -> str:
        """The relayer's base URL."""
        return self.url("relayer")

    @property
    def api_keys(self) -> dict[str, str]:
        """The API key of each keyed service: ``{"routing": ..., "relayer": ...}``."""
        return {"routing": self.routing.api_key, "relayer": self.relayer.api_key}

    # ------------------------------------------------------------------ the core

    def exchange(
        self,
        method: str,
        path: str,
        *,
        query: Sequence[tuple[str, str]] = (),
        headers: Mapping[str, str] | None = None,
        body: bytes = b"",
        read_timeout: float | None = None,
    ) -> Outcome:
        """Answer one request to the sandbox host: apply the fault rules, let the
        service answer, and record it. Used by both adapters.

        Args:
            method: the HTTP method.
            path: the full path, service prefix included (``/relayer/api/tx``).
            query: the query parameters, as pairs.
            headers: the request headers.
            body: the raw body.
            read_timeout: how long the client waits for an answer, if it says; a
                longer delay becomes a ``timeout`` outcome.
        """
        prefix, _, rest = path.lstrip("/").partition("/")
        request = Request(
            method.upper(),
            "/" + rest,
            tuple(query),
            {name.lower(): value for name, value in (headers or {}).items()},
            body,
        )
        with self._lock:
            if prefix == CONTROLS_PREFIX:
                # The sandbox's own controls: no faults, not in the request log.
                answer = self.controls.handle(request)
                return Outcome(answer, processed=True, delay=answer.delay)
            service = self._services.get(prefix)
            if service is None:
                outcome = Outcome(self._index(path), processed=False)
            else:
                outcome = self.faults.apply(service, request)
            if read_timeout is not None and outcome.drop is None and outcome.delay >= read_timeout:
                outcome = replace(outcome, drop="timeout", delay=read_timeout)
            self.requests.append(
                RecordedRequest(
                    service=prefix if service is not None else "",
                    method=request.method,
                    path=request.path,
                    status=outcome.response.status if outcome.response else None,
                    processed=outcome.processed,
                    fault="timeout"
                    if outcome.drop == "timeout"
                    else (outcome.fault.kind if outcome.fault else None),
                    body=body,
                )
            )
            return outcome

    def _index(self, path: str) -> Response:
        if path.strip("/"):
            return Response.json(
                {
                    "error": "not_found",
                    "message": "no such service: use /flash, /routing, /relayer or /sandbox "
                    "(GET / lists every endpoint)",
                },
                404,
            )
        return Response.json(self.index())

    def index(self) -> dict[str, Any]:
        """What ``GET /`` answers: every service and control, each endpoint with its
        query and body names (from the route tables), the API keys and the clock."""

        def endpoints(service: Service) -> list[dict[str, Any]]:
            return [route.describe() for route in service.router.routes]

        auth = {
            "flash": "Authorization: Bearer <token from POST /flash/auth/verify> where "
            "an endpoint says bearer",
            "routing": "api-key header where an endpoint says api-key",
            "relayer": "api-key header on every endpoint",
            "gateway": "none (Circle Gateway's API needs no key)",
        }
        return {
            "name": "xswap sandbox",
            "baseUrl": self.base_url,
            "seed": self.seed,
            "clock": "virtual" if isinstance(self.clock, VirtualClock) else "real",
            "apiKeys": self.api_keys,
            "services": {
                name: {
                    "url": self.url(name),
                    "auth": auth[name],
                    "endpoints": endpoints(self._services[name]),
                }
                for name in SERVICES
            },
            "controls": {
                "url": f"{self.base_url}/{CONTROLS_PREFIX}",
                "endpoints": endpoints(self.controls),
            },
            "notes": [
                "Amounts are integers in smallest units, sent as JSON strings or numbers.",
                "Query and body names are the services' own spellings; a name marked "
                "required: false may be left out.",
            ],
        }

    def fund(self, address: str, chain_id: int, amount: int | str) -> int:
        """Put ``amount`` USDC (smallest units) in ``address``'s gateway balance on
        ``chain_id`` (1, 8453 or 42161; or Solana, `xswap_sdk.chains.SOLANA`, with a
        base58 ``address``); return the new balance. See `FlashService.fund` (and
        `GatewayService.fund` for Solana, whose balances only Gateway's API serves)."""
        with self._lock:
            if chain_id == SOLANA:
                return self.gateway.fund(address, chain_id, amount)
            return self.flash.fund(address, chain_id, amount)

    def wait(self, seconds: float) -> None:
        """Let ``seconds`` pass on the sandbox's clock (a `VirtualClock` just moves)."""
        if seconds <= 0:
            return
        if isinstance(self.clock, VirtualClock):
            self.clock.advance(seconds)
        else:
            self.clock.sleep(seconds)

    def _handle(self, request: httpx.Request) -> httpx.Response:
        timeout = request.extensions.get("timeout", {}).get("read")
        outcome = self.exchange(
            request.method,
            request.url.path,
            query=request.url.params.multi_items(),
            headers=dict(request.headers),
            body=request.read(),
            read_timeout=timeout,
        )
        if outcome.drop == "before":
            raise httpx.ConnectError("connection refused (sandbox fault)", request=request)
        self.wait(outcome.delay)
        if outcome.drop == "timeout":
            raise httpx.ReadTimeout("timed out waiting for the answer (sandbox)", request=request)
        if outcome.drop == "after":
            raise httpx.RemoteProtocolError(
                "server disconnected without sending a response (sandbox fault)", request=request
            )
        response = outcome.response
        assert response is not None  # only a "before" drop has no response
        return httpx.Response(
            response.status, headers=response.all_headers(), content=response.body
        )

    # ------------------------------------------------------------------ clients

    def http_client(self) -> httpx.Client:
        """A new `httpx.Client` served by the sandbox (closed with the sandbox)."""
        client = httpx.Client(transport=self.transport)
        self._http_clients.append(client)
        return client

    def async_http_client(self) -> httpx.AsyncClient:
        """A new `httpx.AsyncClient` served by the sandbox (closed with the sandbox)."""
        client = httpx.AsyncClient(transport=self.transport)
        self._http_clients.append(client)
        return client

    def _wire(self, service: str, kwargs: dict[str, Any], *, sync: bool) -> dict[str, Any]:
        args: dict[str, Any] = {"base_url": self.url(service), "clock": self.clock}
        key = self.api_keys.get(service)
        if key is not None:
            args["api_key"] = key
        if service == "flash":
            # The sandbox's routers are made up: its clients pin them, with their
            # format, in the registry they are given (the SDK's by default), as a
            # careful integrator pins the routers it vetted.
            registry = kwargs.get("registry") or DEFAULT_REGISTRY
            if isinstance(registry, Registry):
                kwargs = {**kwargs, "registry": registry.with_routers(*SANDBOX_ROUTERS)}
        if service == "routing":
            # Its routing contracts too: the SDK takes none from a service's answers.
            args["routing_contracts"] = dict(SANDBOX_ROUTING_CONTRACTS)
        if "http_client" not in kwargs:
            args["http_client"] = self.http_client() if sync else self.async_http_client()
        return {**args, **kwargs}

    def _keep(self, client: ClientT) -> ClientT:
        self._clients.append(client)
        return client

    @_takes_the_arguments_of(FlashClient)
    def flash_client(self, signer: Signer | None = None, **kwargs: Any) -> FlashClient:
        """A `FlashClient` wired to the sandbox: its URL, its clock, and its routers
        pinned (with their format) in the client's registry (`SANDBOX_ROUTERS` added to
        ``registry=`` when you give one).

        Takes every `FlashClient` argument, by keyword (type checkers and editors see
        the constructor's own list): ``signer=`` is the wallet the client logs in with,
        on its first call that needs it; an argument the sandbox sets (``base_url``,
        ``clock``, ``http_client``, ``trusted_routers``) may be overridden.
        """
        return self._keep(FlashClient(signer=signer, **self._wire("flash", kwargs, sync=True)))

    @_takes_the_arguments_of(AsyncFlashClient)
    def async_flash_client(self, signer: Signer | None = None, **kwargs: Any) -> AsyncFlashClient:
        """An `AsyncFlashClient` wired to the sandbox; see `flash_client`."""
        return self._keep(
            AsyncFlashClient(signer=signer, **self._wire("flash", kwargs, sync=False))
        )

    @_takes_the_arguments_of(RoutingClient)
    def routing_client(self, **kwargs: Any) -> RoutingClient:
        """A `RoutingClient` wired to the sandbox: its URL, its API key, its clock, and
        its routing contracts as ``routing_contracts``.

        Takes every `RoutingClient` argument, by keyword; an argument the sandbox sets
        (``base_url``, ``api_key``, ``clock``, ``http_client``) may be overridden.
        """
        return self._keep(RoutingClient(**self._wire("routing", kwargs, sync=True)))

    @_takes_the_arguments_of(AsyncRoutingClient)
    def async_routing_client(self, **kwargs: Any) -> AsyncRoutingClient:
        """An `AsyncRoutingClient` wired to the sandbox; see `routing_client`."""
        return self._keep(AsyncRoutingClient(**self._wire("routing", kwargs, sync=False)))

    @_takes_the_arguments_of(RelayerClient)
    def relayer_client(self, **kwargs: Any) -> RelayerClient:
        """A `RelayerClient` wired to the sandbox: its URL, its API key, its clock.

        Takes every `RelayerClient` argument, by keyword; an argument the sandbox sets
        (``base_url``, ``api_key``, ``clock``, ``http_client``) may be overridden.
        """
        return self._keep(RelayerClient(**self._wire("relayer", kwargs, sync=True)))

    @_takes_the_arguments_of(AsyncRelayerClient)
    def async_relayer_client(self, **kwargs: Any) -> AsyncRelayerClient:
        """An `AsyncRelayerClient` wired to the sandbox; see `relayer_client`."""
        return self._keep(AsyncRelayerClient(**self._wire("relayer", kwargs, sync=False)))

    @_takes_the_arguments_of(GatewayClient)
    def gateway_client(self, **kwargs: Any) -> GatewayClient:
        """A `GatewayClient` wired to the sandbox's Gateway API: its URL, its clock.

        Takes every `GatewayClient` argument, by keyword; an argument the sandbox sets
        (``base_url``, ``clock``, ``http_client``) may be overridden.
        """
        return self._keep(GatewayClient(**self._wire("gateway", kwargs, sync=True)))

    @_takes_the_arguments_of(AsyncGatewayClient)
    def async_gateway_client(self, **kwargs: Any) -> AsyncGatewayClient:
        """An `AsyncGatewayClient` wired to the sandbox; see `gateway_client`."""
        return self._keep(AsyncGatewayClient(**self._wire("gateway", kwargs, sync=False)))

    # ------------------------------------------------------------------ closing

    def close(self) -> None:
        """Close every client and `httpx` client the sandbox created."""
        _finish(self.aclose())

    async def aclose(self) -> None:
        """Close everything the sandbox created, from async code."""
        clients, self._clients = self._clients, []
        http_clients, self._http_clients = self._http_clients, []
        for client in clients:
            if hasattr(client, "aclose"):
                await client.aclose()
            else:
                client.close()
        for http in http_clients:
            if isinstance(http, httpx.AsyncClient):
                await http.aclose()
            else:
                http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    def __repr__(self) -> str:
        return f"Sandbox(seed={self.seed}, clock={self.clock!r})"
