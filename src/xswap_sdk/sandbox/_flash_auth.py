"""The swap backend's wallet-signature login: sign-in messages, JWTs, users, referrals.

``POST /auth/message`` issues an EIP-4361 (Sign-In with Ethereum) message for the
sandbox's host (domain, ``URI``, ``Version: 1``, ``Chain ID``, nonce, issue time and
expiry); the wallet signs its text with EIP-191
``personal_sign``; ``POST /auth/verify`` recovers the signer with eth-account
(``._oracle``, not the SDK's signing code), refuses an unknown, expired, reused or
wrongly signed message, and returns an HS256 JWT carrying ``exp``.
"""

from __future__ import annotations

import secrets
import string
from dataclasses import InitVar, dataclass, field
from typing import Any

from ..errors import InvalidInputError
from ..types import Address
from . import _jwt
from ._http import HTTPError, Request, checked
from ._oracle import recover_message
from ._world import World, iso

__all__ = ["Accounts", "User"]

_CODE_ALPHABET = string.ascii_uppercase + string.digits


@dataclass
class User:
    """Someone who logged in at least once."""

    address: str
    referral_code: str
    joined_at: float
    referred_by: str | None = None
    """The address of the user whose code was given at the first login."""


@dataclass
class _Message:
    address: str
    text: str
    expires_at: int
    used: bool = False


@dataclass
class Accounts:
    """Login state: issued messages, users, and the key that signs their tokens.

    Attributes:
        message_lifetime: seconds a sign-in message stays valid.
        token_lifetime: seconds a JWT stays valid.
        referral_limit: how many users one referral code may bring in.
    """

    world: World
    domain: str
    message_lifetime: float = 300.0
    token_lifetime: float = 3600.0
    referral_limit: int = 10
    users: dict[str, User] = field(default_factory=dict)
    jwt_secret: InitVar[bytes | None] = None
    _messages: dict[str, _Message] = field(default_factory=dict)
    _secret: bytes = b""

    def __post_init__(self, jwt_secret: bytes | None) -> None:
        # Drawn from the seeded generator all the same, so every id and price that
        # follows stays what the seed made it; the key itself is random per sandbox
        # (a served sandbox's tokens must not be forgeable from its seed) unless one
        # is given.
        self.world.rng.randbytes(32)
        self._secret = secrets.token_bytes(32) if jwt_secret is None else jwt_secret

    def issue_message(self, body: Any) -> dict[str, Any]:
        """``POST /auth/message``: a message for ``userAddress`` to sign."""
        address = _address(body, "userAddress")
        now = self.world.now()
        expires_at = int(now + self.message_lifetime)
        message_id = self.world.uuid()
        text = (
            f"{self.domain} wants you to sign in with your Ethereum account:\n"
            f"{address}\n\n"
            "Sign in to the xswap sandbox swap backend. This request costs nothing.\n\n"
            f"URI: http://{self.domain}\n"
            "Version: 1\n"
            "Chain ID: 1\n"
            f"Nonce: {self.world.hex(16)}\n"
            f"Issued At: {iso(now)}\n"
            f"Expiration Time: {iso(expires_at)}"
        )
        self._messages[message_id] = _Message(address, text, expires_at)
        return {"message": text, "expiry": expires_at, "messageId": message_id}

    def verify(self, body: Any) -> dict[str, Any]:
        """``POST /auth/verify``: check the signature and issue a JWT."""
        if not isinstance(body, dict):
            raise HTTPError(400, "the request body must be a JSON object")
        message = self._messages.get(str(body.get("messageId")))
        if message is None:
            raise HTTPError(401, "unknown messageId: request a new sign-in message")
        if message.used:
            raise HTTPError(401, "this sign-in message was already used")
        if self.world.now() >= message.expires_at:
            raise HTTPError(401, "this sign-in message has expired")
        signature = body.get("signature")
        try:
            if not isinstance(signature, str):
                raise InvalidInputError("signature", "must be a string")
            signer = recover_message(message.text, signature)
        except (InvalidInputError, ValueError):
            raise HTTPError(400, "signature must be a 65-byte hex signature") from None
        if signer != message.address:
            raise HTTPError(401, "the signature does not match the address")
        message.used = True
        user, is_new = self._user(message.address, body.get("referredByCode"))
        now = self.world.now()
        claims = {
            "sub": user.address,
            "iat": int(now),
            "exp": int(now + self.token_lifetime),
            "jti": self.world.hex(8),
        }
        return {
            "token": _jwt.encode(claims, self._secret),
            "user_address": user.address,
            "referralCode": user.referral_code,
            "is_new_user": is_new,
        }

    def _user(self, address: str, code: object) -> tuple[User, bool]:
        user = self.users.get(address)
        if user is not None:
            return user, False
        referrer = None
        if code:
            referrer = next((u for u in self.users.values() if u.referral_code == code), None)
            if referrer is None:
                raise HTTPError(400, f"unknown referral code {code!r}")
            if len(self.referred_by(referrer.address)) >= self.referral_limit:
                raise HTTPError(400, f"referral code {code!r} has reached its referral limit")
        user = User(
            address,
            "".join(self.world.rng.choice(_CODE_ALPHABET) for _ in range(8)),
            self.world.now(),
            referrer.address if referrer else None,
        )
        self.users[address] = user
        return user, True

    def referred_by(self, address: str) -> list[User]:
        """The users who joined with ``address``'s referral code."""
        return [user for user in self.users.values() if user.referred_by == address]

    def authenticate(self, request: Request) -> str:
        """The address of the caller's valid ``Authorization: Bearer`` JWT.

        Raises:
            HTTPError: 401 when the token is missing, malformed, forged or expired.
        """
        scheme, _, token = (request.header("authorization") or "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise HTTPError(401, "missing bearer token: log in with /auth/message and /auth/verify")
        try:
            claims = _jwt.decode(token.strip(), self._secret, now=self.world.now())
        except _jwt.TokenError as exc:
            raise HTTPError(401, str(exc)) from None
        return str(claims["sub"])


def _address(body: Any, name: str) -> str:
    if not isinstance(body, dict) or body.get(name) is None:
        raise HTTPError(400, f"{name} is required")
    address: str = checked(name, Address, body[name])
    return address
