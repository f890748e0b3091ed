"""How each service frames its answers, unwrapped once, in the transport.

- `BareJSON`: the swap backend answers with the resource itself.
- `CodeEnvelope`: the routing service wraps data in ``{code, data, message}``;
  ``code == 0`` is success, anything else is an `EnvelopeError` even on HTTP 200.
- `SuccessEnvelope`: the relayer sends ``{success: true, data}`` or
  ``{success: false, error: {code, message, category, details, traceId}}``.

A framing also reads an error body (JSON or plain text) into a message, the service's
own error code and a trace id, for `APIStatusError`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from ._record import Frozen
from .errors import EnvelopeError, ResponseValidationError

__all__ = ["BareJSON", "CodeEnvelope", "ErrorDetails", "Framing", "SuccessEnvelope"]

_MAX_MESSAGE = 500


@dataclass(init=False, repr=False, eq=False, slots=True)
class ErrorDetails(Frozen):
    """What an error body says, in the terms `APIStatusError` needs."""

    message: str
    code: str | int | None = None
    trace_id: str | None = None

    def __init__(
        self,
        message: str,
        code: str | int | None = None,
        trace_id: str | None = None,
    ) -> None:
        object.__setattr__(self, "message", message)
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "trace_id", trace_id)


class Framing(Protocol):
    """Unwraps success bodies and reads error bodies for one service."""

    def unwrap(self, body: Any, *, status_code: int, method: str, path: str) -> Any:
        """Return the payload of a 2xx body, or raise `EnvelopeError`."""
        ...

    def error_details(self, body: Any) -> ErrorDetails:
        """Read the message, code and trace id out of an error body."""
        ...


def _text(value: Any) -> str:
    text = value if isinstance(value, str) else repr(value)
    text = " ".join(text.split())
    return text if len(text) <= _MAX_MESSAGE else text[: _MAX_MESSAGE - 3] + "..."


def _generic_details(body: Any) -> ErrorDetails:
    """Common shapes: ``{"message"}``, ``{"error": "..."}``, ``{"detail"}``, plain text."""
    if isinstance(body, str):
        return ErrorDetails(_text(body) or "(empty body)")
    if isinstance(body, dict):
        error = body.get("error")
        if isinstance(error, dict):
            return ErrorDetails(
                _text(error.get("message") or error.get("code") or "unknown error"),
                code=error.get("code"),
                trace_id=error.get("traceId") or body.get("traceId"),
            )
        for key in ("message", "error", "detail", "msg"):
            if body.get(key):
                return ErrorDetails(
                    _text(body[key]), code=body.get("code"), trace_id=body.get("traceId")
                )
    return ErrorDetails("(no error message)" if body in (None, "") else _text(body))


class _GenericErrors:
    """Error bodies in the common shapes; success bodies passed through unchanged."""

    def unwrap(self, body: Any, *, status_code: int, method: str, path: str) -> Any:
        """Return the body unchanged."""
        return body

    def error_details(self, body: Any) -> ErrorDetails:
        """Read ``error.{code,message,traceId}``, ``message``/``error``/``detail``, or text."""
        return _generic_details(body)

    def _fail(self, body: Any, code: Any, status_code: int, method: str, path: str) -> Any:
        details = self.error_details(body)
        raise EnvelopeError(
            details.message,
            code=details.code if code is None else code,
            status_code=status_code,
            body=body,
            trace_id=details.trace_id,
            method=method,
            path=path,
        )

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


# Keys an error body carries besides its message; a 2xx dict of only these says failure.
_ERROR_KEYS = frozenset({"error", "message", "code", "statusCode", "status", "traceId", "details"})


def _not_json(body: Any, method: str, path: str) -> ResponseValidationError:
    return ResponseValidationError(
        "the answer is not JSON (a proxy's page, or a cut-off body?)",
        body=body,
        method=method,
        path=path,
    )


class BareJSON(_GenericErrors):
    """Bodies are the resource itself (swap backend).

    A 2xx body shaped like an error (``{"success": false, ...}``, ``{"code": 1001,
    "message": ...}``, ``{"error": ...}``) is a failure, not a resource with every field
    missing; a body that is not JSON is unusable.
    """

    def unwrap(self, body: Any, *, status_code: int, method: str, path: str) -> Any:
        """Return the body, or raise for an error-shaped or non-JSON one."""
        if isinstance(body, str):
            raise _not_json(body, method, path)
        if isinstance(body, dict) and (
            body.get("success") is False
            or (body.get("error") and set(body) <= _ERROR_KEYS)
            or (
                isinstance(body.get("code"), int)
                and not isinstance(body["code"], bool)
                and body["code"] != 0
                and set(body) <= _ERROR_KEYS | {"data"}
            )
        ):
            return self._fail(body, None, status_code, method, path)
        return body


class CodeEnvelope(_GenericErrors):
    """``{code, data, message}`` with ``code == 0`` for success (routing)."""

    def unwrap(self, body: Any, *, status_code: int, method: str, path: str) -> Any:
        """Return ``data`` when ``code`` is 0; raise `EnvelopeError` otherwise."""
        if isinstance(body, dict) and "code" in body:
            if body["code"] == 0:
                return body.get("data")
            return self._fail(body, body["code"], status_code, method, path)
        if isinstance(body, str):
            # A plain-text body ("Invalid request") is a failure whatever the status.
            return self._fail(body, None, status_code, method, path)
        if isinstance(body, dict) and "success" in body:
            raise ResponseValidationError(
                "the answer is in the relayer's envelope, not the routing service's",
                body=body,
                method=method,
                path=path,
            )
        # Tolerant: an unframed JSON body is taken as the data itself.
        return body


class SuccessEnvelope(_GenericErrors):
    """``{success, data}`` / ``{success: false, error: {...}}`` (relayer)."""

    def unwrap(self, body: Any, *, status_code: int, method: str, path: str) -> Any:
        """Return ``data`` on success; raise `EnvelopeError` when ``success`` is false,
        `ResponseValidationError` for a body that is not the relayer's envelope."""
        if isinstance(body, dict) and "success" in body:
            if body["success"] is True:
                return body.get("data")
            return self._fail(body, None, status_code, method, path)
        if isinstance(body, str):
            raise _not_json(body, method, path)
        if isinstance(body, dict) and "code" in body and "data" in body:
            raise ResponseValidationError(
                "the answer is in the routing service's envelope, not the relayer's",
                body=body,
                method=method,
                path=path,
            )
        return body
