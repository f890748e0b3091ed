"""What an error may keep of a service's answer, and show of a value in its message.

- `redact_body`: the copy of an answer body an error keeps, credentials, signatures and
  JWTs replaced by ``"[redacted]"``.
- `shown`: a value quoted in a message as a bounded ``repr``, so that a hostile service
  cannot forge, flood or overflow a log line.
"""

from __future__ import annotations

import re
import reprlib
from typing import Any

__all__ = ["redact_body", "shown"]


# Keys whose values are credentials or signatures, compared lower-case without "_" or
# "-": a login's JWT, an API key, a Permit2 or burn-intent signature echoed back.
_SECRET_KEYS = frozenset(
    {
        "token",
        "jwt",
        "accesstoken",
        "refreshtoken",
        "idtoken",
        "authtoken",
        "bearertoken",
        "sessiontoken",
        "authorization",
        "apikey",
        "xapikey",
        "secret",
        "clientsecret",
        "privatekey",
        "mnemonic",
        "password",
        "signature",
        "signatures",
        "sig",
        "permitsignature",
    }
)
# A JWT anywhere in a string (three base64url parts, the header a JSON object). Compiled
# at first use (re keeps it), not at import: most processes never redact a body.
_JWT = r"eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*"
_REDACTED = "[redacted]"


def _is_secret_key(key: object) -> bool:
    return isinstance(key, str) and key.lower().replace("_", "").replace("-", "") in _SECRET_KEYS


def _redact_scalar(value: Any, secret: bool) -> Any:
    if secret and value is not None and not isinstance(value, bool):
        return _REDACTED
    if isinstance(value, str) and "eyJ" in value:
        return re.sub(_JWT, _REDACTED, value)
    return value


def redact_body(body: Any) -> Any:
    """A copy of a service's answer fit to keep on an exception: the value of every
    secret-shaped key (``token``, ``jwt``, ``accessToken``, ``apiKey``, ``signature``,
    ... at any depth, any spelling) and every JWT inside a string replaced by
    ``"[redacted]"``. Walked without recursion; the answer itself is not changed.

    Args:
        body: parsed JSON, text, or ``None``.

    Returns:
        The redacted copy (the same object when it holds nothing to redact).
    """
    if not isinstance(body, dict | list):
        return _redact_scalar(body, False)
    root: list[Any] = [None]
    # Each entry: a source value, whether it sits under a secret key, and where its copy goes.
    stack: list[tuple[Any, bool, Any, Any]] = [(body, False, root, 0)]
    while stack:
        source, secret, parent, key = stack.pop()
        if isinstance(source, dict):
            copied: dict[Any, Any] = {}
            parent[key] = copied
            for name, item in source.items():
                copied[name] = None
                stack.append((item, secret or _is_secret_key(name), copied, name))
        elif isinstance(source, list):
            items: list[Any] = [None] * len(source)
            parent[key] = items
            stack.extend((item, secret, items, index) for index, item in enumerate(source))
        else:
            parent[key] = _redact_scalar(source, secret)
    return root[0]


_SHOWN_CHARS = 160
_SHOWN = reprlib.Repr()
# Bounded in depth and size: a hostile service's value may nest thousands deep.
_SHOWN.maxlevel = 3
_SHOWN.maxstring = _SHOWN_CHARS
_SHOWN.maxother = _SHOWN_CHARS
_SHOWN.maxlist = _SHOWN.maxdict = _SHOWN.maxtuple = _SHOWN.maxset = 8


def shown(value: object, *, quoted: bool) -> str:
    """``value`` for a message, cut in the middle when long.

    What is shown is an address, an amount, a rule or a service's text, never a
    signature or a key. A service's value is shown as a bounded ``repr`` (control
    characters escaped, depth and length capped), so that a hostile service cannot
    forge, flood or overflow a log line.
    """
    if not isinstance(value, str):
        text = _SHOWN.repr(value)
    elif quoted:
        text = repr(value)
    else:
        text = value
    if len(text) <= _SHOWN_CHARS:
        return text
    half = (_SHOWN_CHARS - 5) // 2
    return f"{text[:half]} ... {text[-half:]}"
