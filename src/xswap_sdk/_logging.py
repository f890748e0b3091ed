"""The ``xswap_sdk`` logger: metadata only, never a secret.

Records carry the method, the path template (never a query string), the status, the
attempt number, the elapsed time and the service's trace id, as message arguments and as
``xswap_*`` attributes on the record for structured handlers. Headers and bodies are
never logged, so API keys, JWTs, signatures and private keys cannot reach a record.

The logger has no handler of its own. ``XSWAP_LOG=debug`` (or ``info``) attaches one
stderr handler to this logger only, when the first client is created.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections.abc import Mapping
from typing import Final

__all__ = ["SENSITIVE_HEADERS", "configure_from_env", "logger", "redact_headers"]

logger: Final = logging.getLogger("xswap_sdk")

SENSITIVE_HEADERS: Final = frozenset(
    {"api-key", "x-api-key", "authorization", "proxy-authorization", "cookie", "set-cookie"}
)
"""Header names whose values are credentials (compared in lowercase)."""

_ENV_VAR: Final = "XSWAP_LOG"
_LEVELS: Final = {"debug": logging.DEBUG, "info": logging.INFO}
_configured: bool = False
_lock = threading.Lock()


class _EnvHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Marks the handler we added, so it is added once."""


def configure_from_env() -> None:
    """Honour ``XSWAP_LOG`` once per process; called by client constructors."""
    global _configured
    with _lock:
        if _configured:
            return
        _configured = True
        level = _LEVELS.get(os.environ.get(_ENV_VAR, "").strip().lower())
        if level is None or any(isinstance(h, _EnvHandler) for h in logger.handlers):
            return
        handler = _EnvHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        logger.addHandler(handler)
        logger.setLevel(level)


def log_response(
    *,
    service: str,
    method: str,
    path: str,
    status: int,
    attempt: int,
    elapsed: float,
    trace_id: str | None,
) -> None:
    """One DEBUG record per HTTP response received."""
    if logger.isEnabledFor(logging.DEBUG):
        logger.debug(
            "%s %s %s -> %d in %.1f ms (attempt %d)%s",
            service,
            method,
            path,
            status,
            elapsed * 1000,
            attempt,
            f" trace_id={trace_id}" if trace_id else "",
            extra=_extra(service, method, path, status, attempt, elapsed, trace_id),
        )


def log_retry(
    *,
    service: str,
    method: str,
    path: str,
    attempt: int,
    delay: float,
    reason: str,
    status: int | None,
    trace_id: str | None,
) -> None:
    """One INFO record per retry, saying why and how long we wait."""
    if logger.isEnabledFor(logging.INFO):
        logger.info(
            "%s %s %s failed (%s, attempt %d); retrying in %.2f s",
            service,
            method,
            path,
            reason,
            attempt,
            delay,
            extra={
                **_extra(service, method, path, status, attempt, None, trace_id),
                "xswap_retry_delay": delay,
            },
        )


def _extra(
    service: str,
    method: str,
    path: str,
    status: int | None,
    attempt: int,
    elapsed: float | None,
    trace_id: str | None,
) -> dict[str, object]:
    return {
        "xswap_service": service,
        "xswap_method": method,
        "xswap_path": path,
        "xswap_status": status,
        "xswap_attempt": attempt,
        "xswap_elapsed_ms": None if elapsed is None else round(elapsed * 1000, 3),
        "xswap_trace_id": trace_id,
    }


def redact_headers(headers: Mapping[str, str]) -> dict[str, str]:
    """A copy of ``headers`` with credential values replaced, for reprs."""
    return {
        name: "[redacted]" if name.lower() in SENSITIVE_HEADERS else value
        for name, value in headers.items()
    }
