"""The Flash models of logging in (``/auth/*``), re-exported by
`xswap_sdk.flash.models`; loaded at the first login."""

from __future__ import annotations

from pydantic import (
    Field,
    SecretStr,
)

from .._exports import name_by_home
from .._models import LenientAddress, LenientInt, WireModel

__all__ = [
    "AuthMessage",
    "AuthVerification",
]

# ------------------------------------------------------------------------------ login


class AuthMessage(WireModel):
    """The answer of ``POST /auth/message``: the text to sign and its id."""

    message: str
    """The text to sign (EIP-191 ``personal_sign``)."""
    expiry: LenientInt
    """When the message stops being accepted; seconds or milliseconds (not given)."""
    message_id: str
    """The message's id, sent back with the signature."""


class AuthVerification(WireModel):
    """The answer of ``POST /auth/verify``. ``token`` is a `pydantic.SecretStr`, hidden
    in ``repr`` and ``str``."""

    token: SecretStr
    """The JWT (hidden in ``repr``; ``token.get_secret_value()`` reads it)."""
    user_address: LenientAddress = Field(alias="user_address")
    """The wallet that logged in."""
    referral_code: str
    """The user's own referral code."""
    is_new_user: bool = Field(alias="is_new_user")
    """Whether this login created the user."""


# Named by their public home (see `name_by_home`).
name_by_home(globals(), "xswap_sdk.flash.models")
