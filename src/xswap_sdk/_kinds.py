"""The one table of journey kinds, read by the clients' ``resume``, ``xswap resume`` and
the webhook code.

A kind is a flow plus a row here: which client runs it, the function that builds its
flow again from its journaled terms (the same flow a live call runs: resuming is
replaying it, see ``xswap_sdk._journey``), whether going on may need a signer, the chain
a resume may need a node of, and which Gateway notifications tell that its money
arrived. Functions are named as ``"module:function"`` and imported when used, so the
table costs nothing to a program that never resumes.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Literal, cast

if TYPE_CHECKING:
    from ._chain_steps import ChainIO
    from .journal import Journey
    from .signing.signer import Signer
    from .signing.solana import SolanaSigner

__all__ = ["KINDS", "JourneyKind", "ResumeInputs", "kinds_of"]

ClientName = Literal["flash", "routing", "relayer", "gateway"]


@dataclass(frozen=True, slots=True)
class ResumeInputs:
    """What a resume was given besides the journey.

    Attributes:
        signer: who signs what still needs a signature (or logs in), or ``None``: one
            passed to ``resume`` (checked to be the journey's own signer, see
            `JourneyKind.signer`), else the client's own or ``XSWAP_PRIVATE_KEY``'s when
            it is the journey's signer.
        io: the chain helpers of the resume's web3 (or a `ChainIO` that has none).
        restart: whether the journey may sign what was not signed before.
    """

    signer: Signer | SolanaSigner | None
    io: ChainIO
    restart: bool

    @property
    def evm_signer(self) -> Signer | None:
        """``signer``, for a kind an EVM account signs: a resume refused a Solana signer
        for it already (a Solana key is never such a journey's signer address)."""
        return cast("Signer | None", self.signer)


@dataclass(frozen=True, slots=True)
class JourneyKind:
    """One kind of journey.

    Attributes:
        name: the kind, as journaled (``"swap"``).
        client: the client that runs and resumes it.
        rebuild: ``"module:function"``: ``function(client, journey, inputs)`` returns
            ``(flow, transport)``, the journey's flow built from its terms and the
            transport to run it on.
        chain: ``"module:function"``: ``function(terms)`` gives the chain whose node a
            resume may need (``xswap resume --rpc-url``), or ``None``; ``None`` here
            for a kind that never touches a chain.
        notifications: Gateway notification types that say this journey's money arrived,
            each with the step it records (``"minted"``, ``"finalized"``).
        identities: what a notification is matched by: its fields (``txHash``,
            ``transferId``), looked up among the identities the journey recorded.
        signer: where the journey's terms hold its signer's address (a path of keys:
            ``("sender",)``), or ``()`` for a kind with no signer of its own. A resume
            checks a signer it is given against it, once, before its flow is built.
    """

    name: str
    client: ClientName
    rebuild: str
    chain: str | None = None
    notifications: Mapping[str, str] = field(default_factory=dict)
    identities: tuple[str, ...] = ()
    signer: tuple[str, ...] = ()

    def builder(self) -> Callable[..., Any]:
        """The rebuild function."""
        return _load(self.rebuild)

    def chain_of(self, journey: Journey) -> int | None:
        """The chain a resume of ``journey`` may need a node of, or ``None``."""
        if self.chain is None:
            return None
        found = _load(self.chain)(journey.terms)
        return found if isinstance(found, int) and not isinstance(found, bool) else None

    def signer_of(self, journey: Journey) -> str | None:
        """The address (or Solana key) that signs for ``journey``, from its terms, or
        ``None`` for a kind with no signer or terms that do not say."""
        if not self.signer:
            return None
        found: object = journey.terms
        for key in self.signer:
            found = found.get(key) if isinstance(found, Mapping) else None
        return found if isinstance(found, str) and found else None


def _load(name: str) -> Callable[..., Any]:
    module, _, function = name.partition(":")
    loaded: Callable[..., Any] = getattr(importlib.import_module(module), function)
    return loaded


_MINTED: Final = {"gateway.mint.finalized": "minted", "gateway.mint.forwarded": "minted"}

KINDS: Final[Mapping[str, JourneyKind]] = {
    kind.name: kind
    for kind in (
        JourneyKind("swap", "flash", "xswap_sdk.flash._swap:rebuild", signer=("user",)),
        JourneyKind(
            "deposit",
            "flash",
            "xswap_sdk.flash._deposit_journey:rebuild",
            chain="xswap_sdk.flash._deposit_journey:chain_of",
            notifications={"gateway.deposit.finalized": "finalized"},
            identities=("txHash",),
            signer=("owner",),
        ),
        JourneyKind(
            "gasless_swap",
            "routing",
            "xswap_sdk.routing._gasless:rebuild",
            signer=("request", "sender"),
        ),
        JourneyKind(
            "route",
            "routing",
            "xswap_sdk.routing._route_journey:rebuild",
            chain="xswap_sdk.routing._route_journey:chain_of",
            signer=("sender",),
        ),
        JourneyKind("relay", "relayer", "xswap_sdk.relayer._operations:rebuild"),
        JourneyKind("relay_sync", "relayer", "xswap_sdk.relayer._operations:rebuild"),
        JourneyKind(
            "transfer",
            "gateway",
            "xswap_sdk.gateway._transfer_journey:rebuild",
            chain="xswap_sdk.gateway._transfer_journey:chain_of",
            notifications=_MINTED,
            identities=("transferId", "txHash"),
            signer=("sender",),
        ),
        JourneyKind(
            "mint",
            "gateway",
            "xswap_sdk.gateway._mint_journey:rebuild",
            chain="xswap_sdk.gateway._mint_journey:chain_of",
            notifications=_MINTED,
            identities=("transferId", "txHash"),
            signer=("sender",),
        ),
        JourneyKind(
            "call",
            "gateway",
            "xswap_sdk.gateway._call_journey:rebuild",
            chain="xswap_sdk.gateway._call_journey:chain_of",
            notifications=_MINTED,
            identities=("txHash",),
            signer=("sender",),
        ),
    )
}
"""Every journey kind, by name."""


def kinds_of(client: ClientName) -> tuple[str, ...]:
    """The kinds ``client`` runs and resumes."""
    return tuple(name for name, kind in KINDS.items() if kind.client == client)
