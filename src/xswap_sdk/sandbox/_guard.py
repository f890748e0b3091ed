"""What the served sandbox refuses before a request reaches it: the defences of a
development server on localhost against web pages in the same browser.

- **DNS rebinding.** A page on ``evil.example`` can make its own name resolve to
  127.0.0.1 and then talk to any local port as "same origin". Its requests still carry
  ``Host: evil.example``, so only loopback names (``localhost``, ``*.localhost``,
  ``127.0.0.1``, ``::1``) and the address the server is bound to are accepted (bound to
  every interface, any IP literal: rebinding needs a name).
- **Cross-site requests.** A page may send a "simple" POST (a form, or ``fetch`` with
  ``text/plain``) to localhost without any preflight. Browsers label their requests:
  one whose ``Origin`` is not the sandbox's own, or whose ``Sec-Fetch-Site`` is not
  ``same-origin`` or ``none`` (typed in the address bar), is refused. curl, scripts and
  server-side programs send neither header and are not affected.
- **Oversized bodies.** A body above the limit (1 MiB by default) is refused with 413
  before it is read in full.

Pure functions over header values, so they are tested without a server.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from typing import Final

__all__ = ["DEFAULT_MAX_BODY", "LOOPBACK_NAMES", "Refusal", "host_name", "refusal"]

DEFAULT_MAX_BODY: Final = 1024 * 1024
"""The largest request body the served sandbox reads, in bytes (1 MiB): a signed order
of 16 burn intents is about 20 KB."""

LOOPBACK_NAMES: Final = frozenset({"localhost", "127.0.0.1", "::1"})
"""Host names that always mean this machine."""

_WILDCARDS: Final = frozenset({"0.0.0.0", "::", ""})

Refusal = tuple[int, str, str]
"""An HTTP status, an error code and a message."""


def host_name(value: str) -> str | None:
    """The host of a ``Host`` header value (``localhost:8787``, ``[::1]:8787``),
    lower-cased, without port or brackets; ``None`` when it is not one."""
    value = value.strip().lower()
    if not value:
        return None
    if value.startswith("["):
        end = value.find("]")
        return value[1:end] if end > 0 else None
    name, _, port = value.partition(":")
    if port and not port.isdigit():
        return None
    return name.rstrip(".") or None


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def host_allowed(name: str, bound_host: str) -> bool:
    """Whether ``name`` (from `host_name`) may reach a server bound to ``bound_host``."""
    bound = bound_host.strip("[]").lower()
    if name in LOOPBACK_NAMES or name.endswith(".localhost") or name == bound:
        return True
    return bound in _WILDCARDS and _is_ip(name)


def refusal(headers: Mapping[str, str], *, bound_host: str, scheme: str = "http") -> Refusal | None:
    """Why a request with these (lower-case) headers must be refused, or ``None``.

    Args:
        headers: the request headers, names in lower case.
        bound_host: the address the server listens on.
        scheme: the scheme the server answers on, for the same-origin check.
    """
    raw_host = headers.get("host", "")
    name = host_name(raw_host)
    if name is None or not host_allowed(name, bound_host):
        return (
            403,
            "host_not_allowed",
            "the Host header must name this machine (localhost, 127.0.0.1, [::1]) or "
            f"the address the sandbox is bound to ({bound_host}): requests for other "
            "names are refused, which defeats DNS rebinding",
        )
    origin = headers.get("origin")
    if origin is not None and origin.strip().lower() != f"{scheme}://{raw_host.strip().lower()}":
        return (
            403,
            "cross_origin",
            f"cross-origin requests are refused (Origin {origin!r}): call the sandbox from "
            "a program (curl, Node, Python...), not from a web page of another origin",
        )
    site = headers.get("sec-fetch-site")
    if site is not None and site.strip().lower() not in ("same-origin", "none"):
        return (
            403,
            "cross_site",
            f"cross-site requests are refused (Sec-Fetch-Site {site!r}): call the sandbox "
            "from a program, not from a web page",
        )
    return None
