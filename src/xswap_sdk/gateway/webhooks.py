"""Circle Gateway's webhooks: check a notification's signature, read it, drop repeats.

Gateway notifies a subscribed endpoint of ``gateway.deposit.finalized``,
``gateway.mint.finalized`` and ``gateway.mint.forwarded``, at least once and in no
particular order. Each POST carries ``X-Circle-Signature`` (an ECDSA P-256 / SHA-256
signature of the raw body, base64 DER) and ``X-Circle-Key-Id`` (the UUID of the public
key, served by ``GET /v2/notifications/publicKey/{id}``).

- `verify_webhook` checks the signature over the body exactly as received and returns
  the typed `WebhookNotification`, or raises `WebhookSignatureError`; nothing in an
  unverified body is read.
- `GatewayClient.verify_webhook` does the same with the key fetched by its id and kept
  on the client.
- `NotificationDeduplicator` says whether a ``notificationId`` was seen before, so a
  retried delivery is processed once.
- `advance_journeys` records a verified notification on the money journeys of a journal
  it is about (a ``deposit`` journey by its transaction hash, a ``transfer`` journey by
  its transfer id), once per ``notificationId``.

Verification uses ``pycryptodome`` (``Crypto.PublicKey.ECC`` and ``Crypto.Signature.DSS``),
which eth-account's tree installs anyway; the 17 MB ``cryptography`` package is not
needed.
"""

from __future__ import annotations

import base64
import binascii
import json
import threading
from collections import OrderedDict
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final, Literal

from pydantic import Field, ValidationError

from .._kinds import KINDS
from .._models import LenientInt, WireModel
from ..errors import InvalidInputError, WebhookSignatureError

if TYPE_CHECKING:
    from ..journal import Journal, JournalArg, Journey, JourneyState

__all__ = [
    "NOTIFICATION_TYPES",
    "NotificationDeduplicator",
    "NotificationPublicKey",
    "NotificationType",
    "SIGNATURE_HEADER",
    "KEY_ID_HEADER",
    "WebhookNotification",
    "advance_journeys",
    "verify_webhook",
]

SIGNATURE_HEADER: Final = "X-Circle-Signature"
"""The header holding a notification's signature (base64)."""

KEY_ID_HEADER: Final = "X-Circle-Key-Id"
"""The header holding the UUID of the key that signed it."""

NotificationType = Literal[
    "gateway.deposit.finalized", "gateway.mint.finalized", "gateway.mint.forwarded"
]
"""Gateway's documented notification types; fields typed ``NotificationType | str``
accept types Circle adds."""

NOTIFICATION_TYPES: Final = (
    "gateway.deposit.finalized",
    "gateway.mint.finalized",
    "gateway.mint.forwarded",
)

# A notification is a few hundred bytes; a body past this is refused unread.
_MAX_BODY: Final = 1024 * 1024


class WebhookNotification(WireModel):
    """A verified notification (Circle's v2 envelope)."""

    notification_id: str
    """Unique per event, the same on every retry of it: the key to drop repeats with."""
    notification_type: NotificationType | str
    """What happened (``gateway.deposit.finalized``, ...)."""
    notification: dict[str, Any]
    """The event's data, whose shape depends on ``notification_type``, kept as sent."""
    timestamp: datetime | str = Field(union_mode="left_to_right")
    """When it was produced."""
    subscription_id: str | None = None
    """The subscription that produced it."""
    version: LenientInt | None = None
    """The schema version of the envelope (2)."""


class NotificationPublicKey(WireModel):
    """A webhook signing key (``GET /v2/notifications/publicKey/{id}``)."""

    id: str
    """Its UUID (``X-Circle-Key-Id``)."""
    algorithm: str
    """``ECDSA_SHA_256``."""
    public_key: str
    """Base64 DER (SubjectPublicKeyInfo) of the P-256 key."""
    create_date: datetime | str | None = Field(default=None, union_mode="left_to_right")
    """When it was made."""


def _refused(reason: str) -> WebhookSignatureError:
    return WebhookSignatureError(f"webhook refused: {reason}")


# How pycryptodome names P-256 (``EccKey.curve``).
_P256: Final = "NIST P-256"


def _load_key(public_key: object) -> Any:
    """The P-256 public key (a pycryptodome ``EccKey``) from base64 DER, PEM or DER."""
    from Crypto.PublicKey import ECC

    if isinstance(public_key, NotificationPublicKey):
        public_key = public_key.public_key
    if isinstance(public_key, str) and "-----BEGIN" in public_key:
        # Only a public key's PEM: a private key given by mistake is refused, unread.
        if "-----BEGIN PUBLIC KEY-----" not in public_key:
            raise _refused("the public key is not a readable key")
        encoded: str | bytes = public_key
    elif isinstance(public_key, str):
        try:
            encoded = base64.b64decode(public_key, validate=True)
        except (binascii.Error, ValueError):
            raise _refused("the public key is not a readable key") from None
    elif isinstance(public_key, bytes):
        encoded = public_key
    else:
        raise _refused("the public key must be base64 DER, PEM or DER bytes")
    try:
        key = ECC.import_key(encoded)
    except (ValueError, IndexError, TypeError):
        # Not an elliptic-curve key (RSA, garbage) or a curve pycryptodome cannot read.
        raise _refused("the public key is not a readable ECDSA P-256 key") from None
    if key.has_private():
        raise _refused("the public key is not a readable key")
    if key.curve != _P256:
        raise _refused("the public key is not an ECDSA P-256 key")
    return key


def verify_webhook(
    body: bytes | str, signature: str, public_key: str | bytes | NotificationPublicKey
) -> WebhookNotification:
    """Check a Gateway notification's signature and return it, typed.

    Args:
        body: the request body exactly as received (bytes; a str is taken as UTF-8).
            Re-serialised JSON does not verify.
        signature: the ``X-Circle-Signature`` header (base64 DER ECDSA).
        public_key: the key named by ``X-Circle-Key-Id``: its ``publicKey`` (base64
            DER), a PEM, DER bytes, or the `NotificationPublicKey` itself.

    Returns:
        The notification.

    Raises:
        WebhookSignatureError: any mismatch: a signature that does not verify (a
            tampered body, another key), an unreadable signature or key, a key that is
            not P-256, or a verified body that is not a notification.
    """
    from Crypto.Hash import SHA256
    from Crypto.Signature import DSS

    raw = body.encode() if isinstance(body, str) else body
    if not isinstance(raw, bytes | bytearray):
        raise _refused("the body must be the raw bytes received")
    if len(raw) > _MAX_BODY:
        raise _refused("the body is too large to be a notification")
    if not isinstance(signature, str) or not signature.strip():
        raise _refused(f"no {SIGNATURE_HEADER}")
    try:
        der = base64.b64decode(signature.strip(), validate=True)
    except (binascii.Error, ValueError):
        raise _refused(f"{SIGNATURE_HEADER} is not base64") from None
    key = _load_key(public_key)
    try:
        # FIPS 186-3 ECDSA over SHA-256, the signature DER-encoded (r, s): what Circle's
        # ECDSA_SHA_256 is, and what OpenSSL and Java produce and check.
        DSS.new(key, "fips-186-3", encoding="der").verify(SHA256.new(bytes(raw)), der)
    except (ValueError, TypeError):
        raise _refused("the signature does not match the body and the key") from None
    try:
        return WebhookNotification.model_validate(json.loads(raw))
    except (ValueError, RecursionError, ValidationError):
        raise _refused("the signed body is not a Gateway notification") from None


class NotificationDeduplicator:
    """Drops repeated deliveries: Gateway delivers at least once, so the same
    ``notificationId`` can come again.

    Keeps the last ``max_entries`` ids in memory (thread-safe); a process that restarts
    forgets them, so store processed ids durably where a repeat would do harm.

    Args:
        max_entries: how many ids to remember (default 100,000).

    Example:
        ```python
        seen = NotificationDeduplicator()
        if seen.first_time(notification):
            handle(notification)
        ```
    """

    def __init__(self, max_entries: int = 100_000) -> None:
        if isinstance(max_entries, bool) or not isinstance(max_entries, int) or max_entries < 1:
            raise InvalidInputError("max_entries", "must be an int above 0")
        self._max = max_entries
        self._seen: OrderedDict[str, None] = OrderedDict()
        self._lock = threading.Lock()

    def first_time(self, notification: WebhookNotification | str) -> bool:
        """Whether this notification (or id) is new; it is remembered from now on."""
        key = (
            notification.notification_id
            if isinstance(notification, WebhookNotification)
            else notification
        )
        if not isinstance(key, str):
            raise InvalidInputError("notification", "must be a WebhookNotification or its id")
        with self._lock:
            if key in self._seen:
                self._seen.move_to_end(key)
                return False
            self._seen[key] = None
            if len(self._seen) > self._max:
                self._seen.popitem(last=False)
            return True

    def __len__(self) -> int:
        return len(self._seen)


# A journey still waiting (or left for a person) is over once Gateway says its money
# arrived; a completed or failed one only gains the step.
_WAITING: Final = ("running", "needs_attention")


def advance_journeys(journal: JournalArg, notification: WebhookNotification) -> list[str]:
    """Record a verified Gateway notification on the money journeys it is about.

    - ``gateway.deposit.finalized``: the ``deposit`` journey whose journaled transaction
      hash is the notification's ``txHash`` gets a ``finalized`` step (Gateway credited
      the deposit).
    - ``gateway.mint.finalized`` and ``gateway.mint.forwarded``: the ``transfer``
      journey whose journaled transfer id (its ``attested`` step) is the notification's
      ``transferId``, or whose journaled mint transaction hash is its ``txHash``, gets a
      ``minted`` step.

    A journey still ``running`` or ``needs_attention`` is then ``completed``: its money
    arrived. The step's data is the notification's id and type, ``tx_hash``, ``amount``
    (as Gateway wrote it), ``timestamp`` and ``source: "webhook"``. Idempotent: a
    journey that already has a step of this ``notification_id`` is left alone, so a
    retried delivery records nothing more, even after a restart. Only
    `xswap_sdk.journal.Journal.record` writes, so any `Journal` works; give a journey to
    one writer at a time, as for resume (put a `NotificationDeduplicator` in front when
    several workers take deliveries).

    Args:
        journal: the journal the journeys were written to: a path to an SQLite file, a
            ``postgresql://`` URL (its key from ``XSWAP_JOURNAL_KEY``) or a
            `xswap_sdk.journal.Journal`.
        notification: a notification that `verify_webhook` (or
            ``GatewayClient.verify_webhook``) returned: never an unverified body.

    Returns:
        The ids of the journeys a step was recorded on (empty when the notification is
        about none of them, is of another type, or was recorded already).

    Raises:
        InvalidInputError: ``notification`` is not a `WebhookNotification`, or
            ``journal`` is neither a path nor a `Journal`.
    """
    if not isinstance(notification, WebhookNotification):
        raise InvalidInputError(
            "notification", "must be the WebhookNotification that verify_webhook returned"
        )
    if journal is None:
        raise InvalidInputError("journal", "must be a path (str or os.PathLike) or a Journal")
    # lazy: the journal, only for advance_journeys
    from ..journal import open_journal

    opened = open_journal(journal)  # from a path or a URL: its key from XSWAP_JOURNAL_KEY
    assert opened is not None
    try:
        return _advance(opened, notification)
    finally:
        close = getattr(opened, "close", None)
        if opened is not journal and callable(close):
            close()  # opened here, from a path or a URL: closed here


def _advance(journal: Journal, notification: WebhookNotification) -> list[str]:

    kind_type = str(notification.notification_type)
    steps = {
        name: kind.notifications[kind_type]
        for name, kind in KINDS.items()
        if kind_type in kind.notifications
    }
    if not steps:
        return []
    event = notification.notification
    tx_hash = _text(event.get("txHash"))
    transfer_id = _text(event.get("transferId"))
    data: dict[str, Any] = {
        "source": "webhook",
        "notification_id": notification.notification_id,
        "notification_type": notification.notification_type,
        "tx_hash": tx_hash,
        "amount": _text(event.get("amount")),
        "timestamp": str(notification.timestamp),
    }
    # The journeys that recorded what the notification names (the journal's index of
    # identities, not a scan): each of a matching kind, matched by a field its kind
    # is identified by, and still lacking this notification.
    found: dict[str, set[str]] = {}
    for identity, field in ((tx_hash, "txHash"), (transfer_id, "transferId")):
        for key in {identity, identity.lower()} if identity is not None else ():
            for journey_id in journal.find(key):
                found.setdefault(journey_id, set()).add(field)
    advanced: list[str] = []
    for journey_id, fields in found.items():
        journey = journal.journey(journey_id)
        if journey is None or journey.kind not in steps or not journey.authentic:
            continue
        if not fields & set(KINDS[journey.kind].identities):
            continue
        if _recorded(journey, notification.notification_id):
            continue
        state: JourneyState | None = "completed" if journey.state in _WAITING else None
        journal.record(journey.id, steps[journey.kind], "ok", data, state=state)
        advanced.append(journey.id)
    return advanced


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _recorded(journey: Journey, notification_id: str) -> bool:
    return any(s.data.get("notification_id") == notification_id for s in journey.steps)
