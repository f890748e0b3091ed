"""The JSON-RPC nodes ``xswap resume`` reads receipts from: ``--rpc-url`` (one per chain,
repeatable), else ``XSWAP_RPC_URLS`` (URLs separated by spaces or commas).

A node's chain is not named on the command line: it is asked (``eth_chainId``) the first
time a journey needs a chain that no node asked so far serves, so a resume that needs no
chain talks to no node. A URL is never shown (a provider's key is often in its path): an
error names it by its place, ``--rpc-url #2``. ``http://`` is accepted only to this
machine, as for the services: a node that lies about a receipt could end a journey
``completed`` or ``failed`` when it is not.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, Final

import httpx

from .._kinds import KINDS
from .._lazy import install_hint
from .._options import is_loopback_host
from ..errors import APIConnectionError, InvalidInputError

if TYPE_CHECKING:
    from ..journal import Journey

__all__ = ["RPC_URLS_ENV", "Nodes", "journey_chains"]

RPC_URLS_ENV: Final = "XSWAP_RPC_URLS"
"""The nodes of ``xswap resume`` when no ``--rpc-url`` is given."""

_TIMEOUT_SECONDS: Final = 30.0
_DESTINATION_DOMAIN: Final = ("destinationDomain", "destination_domain")


class Nodes:
    """The nodes given, each made a blocking `web3.Web3` and asked its chain only when
    needed.

    Raises:
        InvalidInputError: a URL that is not an absolute ``https://`` URL (or
            ``http://`` to this machine), or URLs given without the ``web3`` extra.
    """

    def __init__(self, urls: Sequence[str], argument: str) -> None:
        self._urls = [_checked(url, f"{argument} #{n}") for n, url in enumerate(urls, 1)]
        self._argument = argument
        self._asked: dict[int, Any] = {}  # chain id -> Web3
        self._next = 0  # the first URL not asked yet
        if self._urls:
            try:
                import web3  # noqa: F401
            except ImportError:
                raise InvalidInputError(
                    argument, f"reading receipts needs web3, from {install_hint('web3')}"
                ) from None

    @classmethod
    def from_arguments(cls, given: Sequence[str] | None) -> Nodes:
        """``--rpc-url`` as given, else the URLs of ``XSWAP_RPC_URLS``."""
        if given:
            return cls(given, "--rpc-url")
        listed = os.environ.get(RPC_URLS_ENV, "")
        return cls([url for url in re.split(r"[\s,]+", listed) if url], RPC_URLS_ENV)

    def __bool__(self) -> bool:
        return bool(self._urls)

    def web3_for(self, chain_ids: Sequence[int]) -> tuple[int, Any] | None:
        """The chain of ``chain_ids`` a node serves and a `web3.Web3` on it, asking the
        nodes not asked yet in order, until one serves one of them; ``None`` when none
        does.

        Raises:
            APIConnectionError: a node that had to be asked did not answer
                ``eth_chainId`` (nothing was sent that moves money).
        """
        for wanted in chain_ids:
            if wanted in self._asked:
                return wanted, self._asked[wanted]
        if not self._urls:
            return None
        for chain_id, web3 in self._ask():
            if chain_id in chain_ids:
                return chain_id, web3
        return None

    def _ask(self) -> Iterator[tuple[int, Any]]:
        from web3 import HTTPProvider, Web3

        while self._next < len(self._urls):
            place = f"{self._argument} #{self._next + 1}"
            web3 = Web3(
                HTTPProvider(self._urls[self._next], request_kwargs={"timeout": _TIMEOUT_SECONDS})
            )
            self._next += 1
            try:
                chain_id = int(web3.eth.chain_id)
            except Exception as exc:  # requests, web3 and JSON errors alike; never the URL
                raise APIConnectionError(
                    f"{place}: the node did not answer eth_chainId ({type(exc).__name__}); "
                    "nothing was resumed, try again",
                    request_sent=True,
                    method="POST",
                    path="eth_chainId",
                ) from None
            # The first node of a chain serves it; a later one of the same chain is unused.
            self._asked.setdefault(chain_id, web3)
            yield chain_id, self._asked[chain_id]


def _checked(url: object, place: str) -> str:
    if not isinstance(url, str) or not url.isascii() or any(ch.isspace() for ch in url):
        raise InvalidInputError(place, "must be an http(s):// URL without spaces")
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, ValueError, TypeError):
        raise InvalidInputError(place, "must be a valid absolute URL") from None
    if parsed.scheme not in ("http", "https") or not parsed.host:
        raise InvalidInputError(place, "must be an absolute http:// or https:// URL")
    if parsed.scheme == "http" and not is_loopback_host(parsed.host):
        raise InvalidInputError(
            place,
            "http:// is allowed only to this machine (localhost, 127.0.0.0/8, ::1): a node "
            "reached in clear text could be made to lie about a receipt; use https://",
        )
    return url


def journey_chains(journey: Journey) -> tuple[int, ...]:
    """The chain whose node resuming ``journey`` may read or send through, as its kind
    in the table of journey kinds says (``xswap_sdk._kinds``); empty for a kind that
    never touches a chain."""
    kind = KINDS.get(journey.kind)
    chain = None if kind is None else kind.chain_of(journey)
    return () if chain is None else (chain,)


def _ints(value: object) -> tuple[int, ...]:
    return (value,) if isinstance(value, int) and not isinstance(value, bool) else ()
