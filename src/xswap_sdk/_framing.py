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

from .errors import EnvelopeError

__all__ = ["BareJSON", "CodeEnvelope", "ErrorDetails", "Framing", "SuccessEnvelope"]

_MAX_MESSAGE = 500


@dataclass(frozen=True, slots=True)
class ErrorDetails:
    """What an error body says, in the terms `APIStatusError` needs."""

    message: str
    code: str | int | None = None
    trace_id: str | None = None


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


class BareJSON(_GenericErrors):
    """Bodies are the resource itself (swap backend)."""


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
        # Tolerant: an unframed JSON body is taken as the data itself.
        return body


class SuccessEnvelope(_GenericErrors):
    """``{success, data}`` / ``{success: false, error: {...}}`` (relayer)."""

    def unwrap(self, body: Any, *, status_code: int, method: str, path: str) -> Any:
        """Return ``data`` on success; raise `EnvelopeError` when ``success`` is false."""
        if isinstance(body, dict) and "success" in body:
            if body["success"] is True:
                return body.get("data")
            return self._fail(body, None, status_code, method, path)
        if isinstance(body, str):
            return self._fail(body, None, status_code, method, path)
        return body
