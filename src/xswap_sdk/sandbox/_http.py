"""A small request / response / router layer over plain data, with no web framework.

The emulated services are written against these types only, so the same code answers
in-process (through `httpx.MockTransport`) and over the network (through the Starlette
adapter in ``server.py``). A handler takes a `Request` and returns a `Response`, or
raises `HTTPError`, which the service renders in its own error shape.
"""

from __future__ import annotations

import json
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from .._models import check_argument
from ..errors import InvalidInputError

__all__ = [
    "HTTPError",
    "Handler",
    "Request",
    "Response",
    "RouteInfo",
    "Router",
    "Service",
    "check_api_key",
    "checked",
    "neutral_rule",
]

_PLACEHOLDER = re.compile(r"\{(\w+)\}")


class HTTPError(Exception):
    """A failure a handler reports; the service turns it into its own error body.

    Args:
        status: the HTTP status.
        message: the human-readable message.
        code: the service's error code; ``None`` lets the service pick its default
            for ``status``.
        details: extra data for services whose error body carries it.
        headers: response headers (``Retry-After`` on a 429).
    """

    def __init__(
        self,
        status: int,
        message: str,
        *,
        code: str | None = None,
        details: Any = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        self.status = status
        self.message = message
        self.code = code
        self.details = details
        self.headers: dict[str, str] = dict(headers or {})
        super().__init__(f"HTTP {status}: {message}")


def checked(name: str, type_: Any, value: Any, *, code: str | None = None) -> Any:
    """``value`` validated as ``type_`` (an `xswap_sdk.types` type, say), the same rule
    the clients apply.

    Raises:
        HTTPError: 400 naming ``name`` and the rule it broke, with ``code``.
    """
    try:
        return check_argument(name, type_, value)
    except InvalidInputError as exc:
        rule = neutral_rule(exc.rule)
        raise HTTPError(400, f"{name}: {rule}", code=code, details={"field": name}) from None


_PYTHON_HINT = re.compile(r" \(use \w+\(\)[^)]*\)")
_FLOATS = "must be an int or a decimal string of digits; floats are refused"


def neutral_rule(rule: str) -> str:
    """An SDK validation rule in words for any language: the served sandbox answers
    curl and JavaScript too, so no hint at a Python helper (``to_units()``) and no
    Python type names."""
    rule = _PYTHON_HINT.sub("", rule)
    return rule.replace(
        _FLOATS,
        "must be an integer in smallest units (a JSON integer or a string of decimal "
        'digits, e.g. "1500000" for 1.5 USDC); numbers with a fraction are refused',
    )


def check_api_key(
    request: Request,
    expected: str,
    *,
    missing_code: str | None = None,
    wrong_code: str | None = None,
) -> None:
    """Refuse a request whose ``api-key`` header is missing or not ``expected``.

    Raises:
        HTTPError: 401, with ``missing_code`` or ``wrong_code``.
    """
    key = request.header("api-key")
    if not key:
        raise HTTPError(401, "unauthorized: the api-key header is missing", code=missing_code)
    if key != expected:
        raise HTTPError(401, "unauthorized: invalid api-key", code=wrong_code)


@dataclass(frozen=True, slots=True)
class Request:
    """One request as a service sees it.

    Attributes:
        method: the HTTP method, upper case.
        path: the path inside the service (``/api/tx``), without its query string.
        query: the query parameters as pairs, so a name may repeat.
        headers: the headers, with lower-case names.
        body: the raw body.
        path_params: values of ``{placeholders}`` in the matched route.
    """

    method: str
    path: str
    query: Sequence[tuple[str, str]] = ()
    headers: Mapping[str, str] = field(default_factory=dict)
    body: bytes = b""
    path_params: Mapping[str, str] = field(default_factory=dict)

    def header(self, name: str) -> str | None:
        """A header's value (the name in any case), or ``None``."""
        return self.headers.get(name.lower())

    def arg(self, name: str) -> str | None:
        """The first value of query parameter ``name``, or ``None``."""
        return next((value for key, value in self.query if key == name), None)

    def args(self, name: str) -> list[str]:
        """Every value of query parameter ``name``, in order."""
        return [value for key, value in self.query if key == name]

    def json(self) -> Any:
        """The body parsed as JSON.

        Raises:
            HTTPError: 400 when the body is empty or not JSON.
        """
        try:
            return json.loads(self.body)
        except ValueError:
            raise HTTPError(400, "the request body is not valid JSON") from None


@dataclass(frozen=True, slots=True)
class Response:
    """One answer.

    Attributes:
        status: the HTTP status.
        body: the raw body.
        content_type: the ``Content-Type`` header.
        headers: further headers, as pairs.
        delay: seconds the answer takes to leave the service (``submit-tx-sync``
            waits for the transaction); the adapter waits that long on the clock.
    """

    status: int
    body: bytes
    content_type: str = "application/json"
    headers: Sequence[tuple[str, str]] = ()
    delay: float = 0.0

    @classmethod
    def json(
        cls, data: Any, status: int = 200, headers: Mapping[str, str] | None = None
    ) -> Response:
        """A JSON answer."""
        body = json.dumps(data, separators=(",", ":")).encode()
        return cls(status, body, headers=tuple((headers or {}).items()))

    @classmethod
    def text(
        cls, text: str, status: int = 200, headers: Mapping[str, str] | None = None
    ) -> Response:
        """A plain-text answer."""
        return cls(
            status, text.encode(), "text/plain; charset=utf-8", tuple((headers or {}).items())
        )

    def delayed(self, seconds: float) -> Response:
        """This answer, leaving ``seconds`` later."""
        return replace(self, delay=self.delay + seconds)

    def all_headers(self) -> list[tuple[str, str]]:
        """Every header to send, ``Content-Type`` first."""
        return [("content-type", self.content_type), *self.headers]


Handler = Callable[[Request], Response]


def _compile(template: str) -> re.Pattern[str]:
    # Literal text is escaped; each {name} matches one path segment; a trailing slash
    # is tolerated, as most servers do.
    parts: list[str] = []
    position = 0
    for match in _PLACEHOLDER.finditer(template):
        parts.append(re.escape(template[position : match.start()]))
        parts.append(f"(?P<{match.group(1)}>[^/]+)")
        position = match.end()
    parts.append(re.escape(template[position:]))
    return re.compile("".join(parts) + "/?")


@dataclass(frozen=True, slots=True)
class RouteInfo:
    """What one endpoint takes, as ``GET /`` of the served sandbox lists it.

    Attributes:
        method: the HTTP method.
        path: the path template inside the service (``/balance/{address}``).
        summary: one line on what it does.
        query: the query parameter names; a trailing ``?`` marks an optional one.
        body: the JSON body's field names, marked the same way.
        auth: the credentials it needs: ``"api-key"``, ``"bearer"`` or ``None``.
    """

    method: str
    path: str
    summary: str = ""
    query: tuple[str, ...] = ()
    body: tuple[str, ...] = ()
    auth: str | None = None

    def describe(self) -> dict[str, Any]:
        """The JSON form: names with a ``required`` flag each."""

        def fields(names: tuple[str, ...]) -> list[dict[str, Any]]:
            return [
                {"name": name.removesuffix("?"), "required": not name.endswith("?")}
                for name in names
            ]

        return {
            "method": self.method,
            "path": self.path,
            "summary": self.summary,
            "auth": self.auth,
            "query": fields(self.query),
            "body": fields(self.body),
        }


class Router:
    """Maps a method and a path template (``/balance/{address}``) to a handler, and
    keeps what each endpoint takes (`RouteInfo`) for the served index."""

    def __init__(self) -> None:
        self._routes: list[tuple[str, re.Pattern[str], Handler]] = []
        self._infos: list[RouteInfo] = []

    def add(
        self,
        method: str,
        template: str,
        handler: Handler,
        *,
        summary: str = "",
        query: Sequence[str] = (),
        body: Sequence[str] = (),
        auth: str | None = None,
    ) -> None:
        """Serve ``method`` requests whose path matches ``template``; ``summary``,
        ``query``, ``body`` and ``auth`` describe it (see `RouteInfo`)."""
        self._routes.append((method.upper(), _compile(template), handler))
        self._infos.append(
            RouteInfo(method.upper(), template, summary, tuple(query), tuple(body), auth)
        )

    @property
    def routes(self) -> list[RouteInfo]:
        """Every endpoint, in the order it was added."""
        return list(self._infos)

    def dispatch(self, request: Request) -> Response:
        """Call the handler for ``request``.

        Raises:
            HTTPError: 404 for an unknown path, 405 for a known path and another method.
        """
        allowed: list[str] = []
        for method, pattern, handler in self._routes:
            match = pattern.fullmatch(request.path)
            if match is None:
                continue
            if method != request.method:
                allowed.append(method)
                continue
            return handler(replace(request, path_params=match.groupdict()))
        if allowed:
            raise HTTPError(
                405,
                f"{request.method} is not allowed on {request.path}",
                headers={"Allow": ", ".join(allowed)},
            )
        raise HTTPError(404, f"no such endpoint: {request.method} {request.path}")


class Service(ABC):
    """One emulated service: a router and the shape of its error bodies."""

    name: ClassVar[str]
    """The path prefix and the name used in fault rules and the request log."""

    def __init__(self) -> None:
        self.router: Router = Router()

    def handle(self, request: Request) -> Response:
        """Answer ``request``, rendering any `HTTPError` in the service's error shape."""
        try:
            return self.router.dispatch(request)
        except HTTPError as error:
            return self.error_response(error)

    @abstractmethod
    def error_response(self, error: HTTPError) -> Response:
        """Render ``error`` as this service does (also used for injected faults)."""
