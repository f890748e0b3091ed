"""Ed25519 signature verification, written out from RFC 8032 (section 5.1.7, and its
reference code in section 6), for the sandbox's oracle.

The SDK verifies Solana signatures with pycryptodome; the sandbox, which its tests run
against, must not share that code (a bug there would then pass its own tests), nor
need a package the base install lacks. Plain integers: slow (milliseconds a
signature), and fine for a sandbox.
"""

from __future__ import annotations

import hashlib
from typing import Final

__all__ = ["verify"]

_P: Final = 2**255 - 19
_L: Final = 2**252 + 27742317777372353535851937790883648493
_D: Final = -121665 * pow(121666, _P - 2, _P) % _P
_SQRT_M1: Final = pow(2, (_P - 1) // 4, _P)

_Point = tuple[int, int, int, int]  # extended coordinates (X, Y, Z, T), x = X/Z, y = Y/Z


def _recover_x(y: int, sign: int) -> int | None:
    if y >= _P:
        return None
    x2 = (y * y - 1) * pow(_D * y * y + 1, _P - 2, _P) % _P
    if x2 == 0:
        return None if sign else 0
    x = pow(x2, (_P + 3) // 8, _P)
    if (x * x - x2) % _P:
        x = x * _SQRT_M1 % _P
    if (x * x - x2) % _P:
        return None
    return _P - x if (x & 1) != sign else x


def _add(a: _Point, b: _Point) -> _Point:
    e = (a[1] - a[0]) * (b[1] - b[0]) % _P
    f = (a[1] + a[0]) * (b[1] + b[0]) % _P
    g = 2 * a[3] * b[3] * _D % _P
    h = 2 * a[2] * b[2] % _P
    e, f, g, h = f - e, h - g, h + g, f + e
    return (e * f % _P, g * h % _P, f * g % _P, e * h % _P)


def _times(scalar: int, point: _Point) -> _Point:
    result: _Point = (0, 1, 1, 0)
    while scalar:
        if scalar & 1:
            result = _add(result, point)
        point = _add(point, point)
        scalar >>= 1
    return result


def _same(a: _Point, b: _Point) -> bool:
    return (a[0] * b[2] - b[0] * a[2]) % _P == 0 and (a[1] * b[2] - b[1] * a[2]) % _P == 0


def _point(encoded: bytes) -> _Point | None:
    y = int.from_bytes(encoded, "little")
    sign, y = y >> 255, y & ((1 << 255) - 1)
    x = _recover_x(y, sign)
    return None if x is None else (x, y, 1, x * y % _P)


_BASE_Y: Final = 4 * pow(5, _P - 2, _P) % _P
_BASE: Final = _point(_BASE_Y.to_bytes(32, "little"))


def verify(public_key: bytes, message: bytes, signature: bytes) -> bool:
    """Whether ``signature`` is ``public_key``'s Ed25519 signature of ``message``."""
    if len(public_key) != 32 or len(signature) != 64 or _BASE is None:
        return False
    a = _point(public_key)
    r = _point(signature[:32])
    s = int.from_bytes(signature[32:], "little")
    if a is None or r is None or s >= _L:
        return False
    digest = hashlib.sha512(signature[:32] + public_key + message).digest()
    h = int.from_bytes(digest, "little") % _L
    return _same(_times(s, _BASE), _add(r, _times(h, a)))
