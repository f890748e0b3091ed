"""A signature that was not made: login, signing, a refusal before signing (an unsafe
payload, the caller's policy, a simulation), and a webhook whose signature does not
verify."""

from __future__ import annotations

import math
from typing import Any

from ._base import XSwapError
from ._redaction import shown

__all__ = [
    "LoginError",
    "LoginRateLimitError",
    "PolicyRefusedError",
    "SigningError",
    "SimulationError",
    "UnsafePayloadError",
    "WebhookSignatureError",
]


class LoginError(XSwapError):
    """Wallet-signature login failed (message request, signature, or verification)."""


class LoginRateLimitError(LoginError):
    """A login refused by the SDK's own login cap, before anything was signed or sent.

    The SDK signs at most ``limit`` login messages per ``window`` seconds for one signer
    and host, across every client of the process (3 a minute), so that nothing (a loop
    making clients, a backend answering 401 to every token) can make a key sign login
    messages without end. The backend was not asked.

    Attributes:
        retry_after: seconds until a login is allowed again.
        limit: the logins allowed per window.
        window: the window, in seconds.
    """

    def __init__(self, *, retry_after: float, limit: int, window: float) -> None:
        self.retry_after = retry_after
        self.limit = limit
        self.window = window
        per = "a minute" if window == 60 else f"per {window:g} s"
        super().__init__(
            f"login cap reached: the SDK signs at most {limit} login messages {per} for "
            f"one signer and host, and {limit} were signed in the last {window:g} s; "
            f"retry in {math.ceil(retry_after)} s. A client logs in once, again only "
            "after a 401, and shares its JWT with its with_options copies: keep one "
            "client rather than making one per call"
        )


class SigningError(XSwapError):
    """A signature could not be produced or does not verify."""


class WebhookSignatureError(XSwapError):
    """A webhook notification was refused: its ``X-Circle-Signature`` does not verify
    with the public key (tampered body, wrong key, malformed signature or key), or its
    body is not a notification. Answer the sender with an error and process nothing."""


class UnsafePayloadError(SigningError):
    """Refused before signing: a value that would end up under the caller's signature is
    not what the caller asked for, not a fact the SDK pins (Circle Gateway's contracts
    and domains, native USDC, Permit2, see `xswap_sdk.registry`), or fails a check made
    against one of them.

    This is the error of a service that answers something other than what was asked: a
    compromised backend, a proxy that rewrites answers, or a bug. Nothing was signed and
    nothing was sent. Do not retry blindly: find out why the service answered this.

    Attributes:
        field: where the value sits, e.g. ``"quote.swap_router_address"`` or
            ``"eip712.message.spender"``.
        expected: what the SDK expected there (a value, or a rule such as
            ``"at most 2011000"``).
        received: what the service sent (``None`` when the field was missing).
        hint: what the caller can do, when the SDK knows (also in the message).

    Args:
        field: see above.
        expected: see above.
        received: see above.
        hint: a sentence added to the message, saying what the caller can do.
    """

    def __init__(
        self, field: str, *, expected: object, received: object, hint: str | None = None
    ) -> None:
        self.field = field
        self.expected = expected
        self.received = received
        self.hint = hint
        message = (
            f"refused to sign: {field} is {shown(received, quoted=True)}, expected "
            f"{shown(expected, quoted=False)}. "
            "Nothing was signed or sent."
        )
        if hint:
            message += f" {hint}"
        super().__init__(message)


class PolicyRefusedError(SigningError):
    """Refused before signing by the caller's own signing policy (`xswap_sdk.policy`).

    Nothing was signed and nothing was sent. Unlike `UnsafePayloadError`, the payload
    may be exactly what was asked for: the caller's `xswap_sdk.policy.Policy` (a cap,
    an allow-list, or its approval hook) said no.

    Attributes:
        rule: the rule that refused: ``"allowed_counterparties"``,
            ``"allowed_tokens"``, ``"max_per_signature"``, ``"max_fee"``,
            ``"max_per_day"`` or ``"approve"``.
        reason: why, in words (amounts, parties and tokens; never a signature).
        request: the `xswap_sdk.policy.SigningRequest` that was refused.

    Args:
        rule: see above.
        reason: see above.
        request: see above.
    """

    def __init__(self, rule: str, reason: str, *, request: Any = None) -> None:
        self.rule = rule
        self.reason = reason
        self.request = request
        kind = getattr(request, "kind", None)
        what = f"a {kind} signature" if kind else "a signature"
        super().__init__(
            f"the signing policy refused {what} ({rule}): {shown(reason, quoted=False)}. "
            "Nothing was signed or sent."
        )


class SimulationError(XSwapError):
    """Refused before signing: the transactions a call was about to send were simulated
    on the caller's own node (``eth_simulateV1``) and either reverted or moved assets
    that the call does not mean (the receiver short of the minimum output, more of the
    caller's assets leaving than the input amount, an approval to another spender), or
    the node could not simulate when ``simulate=True`` required it.

    No transaction was signed and nothing was sent. (A deposit's permit or
    authorization is signed before its transaction is simulated, since the transaction
    carries it; it is dropped, never sent.) See the Simulation guide.

    Attributes:
        reason: what was wrong, in a sentence.
        movements: the simulated asset movements
            (`xswap_sdk.simulation.AssetMovement`), empty when there was no simulation.
        transaction: the index of the transaction that failed in the simulated
            batch, or ``None`` when the whole batch is concerned.

    Args:
        reason: see above.
        movements: see above.
        transaction: see above.
    """

    def __init__(
        self, reason: str, *, movements: tuple[Any, ...] = (), transaction: int | None = None
    ) -> None:
        self.reason = reason
        self.movements = movements
        self.transaction = transaction
        where = "" if transaction is None else f" (transaction {transaction} of the batch)"
        super().__init__(f"refused to send: {reason}{where}. No transaction was signed or sent.")
