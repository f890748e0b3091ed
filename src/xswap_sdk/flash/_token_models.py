"""The Flash models of tokens (``/token-list``, ``/search-token``), re-exported by
`xswap_sdk.flash.models`; loaded at the first token call."""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import (
    Field,
    model_validator,
)

from .._exports import name_by_home
from .._models import LenientAddress, LenientInt, RequestModel, WireModel
from ..types import (
    Address,
    ChainId,
)
from ._model_types import (
    _SnakeModel,
)

__all__ = [
    "SearchTokenRequest",
    "Token",
    "TokenList",
    "TokenSearchResult",
]

_SNAKE_FLAG = re.compile(r"in_[a-z0-9]+_token_list")
_CAMEL_FLAG = re.compile(r"in[A-Z][A-Za-z0-9]*TokenList")


def _map_token_list_flag(data: Any, canonical: str) -> Any:
    """Read any ``in_<word>_token_list`` / ``in<Word>TokenList`` key into ``canonical``."""
    if not isinstance(data, dict) or canonical in data:
        return data
    for key in data:
        if isinstance(key, str) and (_SNAKE_FLAG.fullmatch(key) or _CAMEL_FLAG.fullmatch(key)):
            mapped = dict(data)
            mapped[canonical] = mapped.pop(key)
            return mapped
    return data


# ------------------------------------------------------------------------------ tokens


class Token(_SnakeModel):
    """A token of ``GET /token-list`` (snake_case), also the shape of the tokens in a
    swap record."""

    address: LenientAddress
    """The token's address (checksummed)."""
    symbol: str
    """The token's symbol."""
    decimals: LenientInt
    """The token's decimals."""
    logo_url: str
    """The token's logo."""
    name: str
    """The token's name."""
    chain_id: LenientInt
    """The chain the token is on."""
    in_service_token_list: bool
    """Whether the backend lists the token itself (any brand-word key is read here)."""

    @model_validator(mode="before")
    @classmethod
    def _brand_flag(cls, data: Any) -> Any:
        return _map_token_list_flag(data, "in_service_token_list")


class TokenSearchResult(WireModel):
    """The answer of ``POST /search-token`` (camelCase)."""

    address: LenientAddress
    """The token's address (checksummed)."""
    symbol: str
    """The token's symbol."""
    decimals: LenientInt
    """The token's decimals."""
    name: str
    """The token's name."""
    chain_id: LenientInt
    """The chain the token is on."""
    logo_url: str
    """The token's logo."""
    in_service_token_list: bool = Field(alias="inServiceTokenList")
    """Whether the backend lists the token itself (any brand-word key is read here)."""

    @model_validator(mode="before")
    @classmethod
    def _brand_flag(cls, data: Any) -> Any:
        return _map_token_list_flag(data, "inServiceTokenList")


class TokenList(_SnakeModel):
    """The body of ``GET /token-list``: ``{"tokens": [...]}``."""

    tokens: list[Token]
    """The tokens."""


class SearchTokenRequest(RequestModel):
    """The body of ``POST /search-token``."""

    chain_id: Annotated[ChainId, Field(gt=0)]
    """The chain to look on."""
    address: Address
    """The token's address."""


# Named by their public home (see `name_by_home`).
name_by_home(globals(), "xswap_sdk.flash.models")
