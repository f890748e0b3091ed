"""HS256 JSON Web Tokens with the standard library's `hmac`: enough for the sandbox
to issue and check the swap backend's login tokens without another dependency."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from typing import Any

__all__ = ["TokenError", "decode", "encode"]

_HEADER = {"alg": "HS256", "typ": "JWT"}


class TokenError(Exception):
    """A token that must be refused; the message says why (safe to show)."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _sign(signing_input: str, secret: bytes) -> str:
    return _b64(hmac.new(secret, signing_input.encode(), hashlib.sha256).digest())


def encode(claims: dict[str, Any], secret: bytes) -> str:
    """A signed token carrying ``claims``."""
    head = _b64(json.dumps(_HEADER, separators=(",", ":")).encode())
    body = _b64(json.dumps(claims, separators=(",", ":")).encode())
    return f"{head}.{body}.{_sign(f'{head}.{body}', secret)}"


def decode(token: str, secret: bytes, *, now: float) -> dict[str, Any]:
    """The claims of a token signed with ``secret`` whose ``exp`` is after ``now``.

    Raises:
        TokenError: malformed, signed with another key or algorithm, or expired.
    """
    parts = token.split(".")
    if len(parts) != 3:
        raise TokenError("malformed token")
    head, body, signature = parts
    try:
        header = json.loads(_unb64(head))
        claims = json.loads(_unb64(body))
    except ValueError:
        raise TokenError("malformed token") from None
    if not isinstance(header, dict) or header.get("alg") != "HS256":
        raise TokenError("unsupported token algorithm")
    if not hmac.compare_digest(signature, _sign(f"{head}.{body}", secret)):
        raise TokenError("invalid token signature")
    if not isinstance(claims, dict) or not isinstance(claims.get("exp"), int | float):
        raise TokenError("malformed token")
    if claims["exp"] <= now:
        raise TokenError("token expired")
    return claims
