"""Chain I/O as steps of a journey's flow, written once for both drivers.

A flow yields `xswap_sdk._flow.Chain` steps naming what it needs of its `ChainIO` (the
web3 helpers its client method bound: async ones in an async client, blocking ones in a
blocking client), and the driver performs them (see ``_async_driver``): it journals a
transaction's signed bytes and hash (``signed``) before it is broadcast, writes
``broadcast/sending`` on disk before the bytes leave, then its hash (``broadcast/ok``);
and on resume it looks a transaction that may have left up by its hash before sending
the same bytes again.

`send` is the sign-broadcast-confirm sequence every chain journey uses; `on_chain` the
check that web3 is on the right chain.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from ._base58 import is_solana_key
from ._flow import Chain, Flow, Record
from ._record import Frozen
from .errors import InvalidInputError, MissingCredentialsError

__all__ = [
    "READS",
    "ChainIO",
    "UnavailableEvmSigner",
    "UnavailableSigner",
    "UnavailableSolanaSigner",
    "check_connected",
    "hash_of",
    "no_chain_io",
    "on_chain",
    "send",
    "unavailable",
    "unavailable_signer",
]

READS: Final = frozenset(
    {"chain_id", "allowance", "simulate", "receipt", "token_domain", "permit_facts"}
)
"""The `ChainIO` helpers that only read (replayed from their record)."""


@dataclass(init=False, repr=False, eq=False, slots=True)
class ChainIO(Frozen):
    """The web3 helpers a journey runs with, bound to one web3 (and signer): async ones
    return awaitables, blocking ones values (see `xswap_sdk._flow.Chain`).

    Attributes:
        sign: fields -> (completed fields, raw signed bytes as hex, or ``None`` when
            the node signs).
        broadcast: (fields, raw) -> the transaction's hash.
        confirm: (hash, what) -> the hash, once mined successfully.
        receipt: hash -> the receipt (its ``status``), or ``None`` when the node has none.
        chain_id: () -> the chain id the node is on (a read before signing).
        allowance: (token, owner, spender) -> the ERC-20 allowance.
        simulate: (sender, intents, option[, movements_required]) -> the simulation of
            the transactions, or ``None`` when not simulated (`xswap_sdk.simulation`;
            ``movements_required``: a call the SDK cannot read, refused unless its
            movements were compared).
        token_domain: (token) -> the token's EIP-712 (name, version).
        permit_facts: (token, owner) -> what a permit needs from the chain.

    ``_async_web3.async_chain_io`` (and its blocking twin) binds them all; a helper
    that is ``None`` is one this web3 cannot do, and a flow asking for it is refused.
    """

    sign: Callable[[dict[str, Any]], Any] | None = None
    broadcast: Callable[[dict[str, Any], str | None], Any] | None = None
    confirm: Callable[[str, str], Any] | None = None
    receipt: Callable[[str], Any] | None = None
    chain_id: Callable[[], Any] | None = None
    allowance: Callable[[str, str, str], Any] | None = None
    simulate: Callable[..., Any] | None = None
    token_domain: Callable[[str], Any] | None = None
    permit_facts: Callable[[str, str], Any] | None = None

    def __init__(
        self,
        sign: Callable[[dict[str, Any]], Any] | None = None,
        broadcast: Callable[[dict[str, Any], str | None], Any] | None = None,
        confirm: Callable[[str, str], Any] | None = None,
        receipt: Callable[[str], Any] | None = None,
        chain_id: Callable[[], Any] | None = None,
        allowance: Callable[[str, str, str], Any] | None = None,
        simulate: Callable[..., Any] | None = None,
        token_domain: Callable[[str], Any] | None = None,
        permit_facts: Callable[[str, str], Any] | None = None,
    ) -> None:
        object.__setattr__(self, "sign", sign)
        object.__setattr__(self, "broadcast", broadcast)
        object.__setattr__(self, "confirm", confirm)
        object.__setattr__(self, "receipt", receipt)
        object.__setattr__(self, "chain_id", chain_id)
        object.__setattr__(self, "allowance", allowance)
        object.__setattr__(self, "simulate", simulate)
        object.__setattr__(self, "token_domain", token_domain)
        object.__setattr__(self, "permit_facts", permit_facts)


def no_chain_io() -> ChainIO:
    """The `ChainIO` of a resume given no web3: a journey replays its recorded chain
    steps without one, and is told which argument it needs at the first live one."""
    return ChainIO()


def unavailable(op: str) -> MissingCredentialsError:
    """The error of a chain step asked of a `ChainIO` that cannot do it (no web3)."""
    return MissingCredentialsError(
        "web3",
        f"is needed to go on ({op} on the chain): pass web3= on the journey's chain "
        "(xswap resume --rpc-url URL)",
    )


class UnavailableSigner:
    """The signer of a resume given none: it has the journey's address (for what the
    flow reads of it) and signs nothing. A journey replays its recorded signatures
    without one; a live signature is refused, naming ``signer``. Made by
    `unavailable_signer`, as an EVM `xswap_sdk.signing.Signer` or a Solana one."""

    def __init__(self, address: str) -> None:
        self._address = address

    @property
    def address(self) -> str:
        """The journey's signer's address (a Solana key in base58)."""
        return self._address

    def missing(self) -> MissingCredentialsError:
        """The error a signature asked of it raises."""
        return MissingCredentialsError(
            "signer",
            f"is needed to go on (a signature by {self._address}): pass signer= or set "
            "XSWAP_PRIVATE_KEY",
        )

    def sign_message(self, signable_message: Any) -> object:
        """Refused: see the class."""
        raise self.missing()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._address!r})"


class UnavailableEvmSigner(UnavailableSigner):
    """An EVM journey's: a `xswap_sdk.signing.Signer` (it "signs" typed data too)."""

    def sign_typed_data(self, *args: Any, **kwargs: Any) -> object:
        """Refused: see the class."""
        raise self.missing()


class UnavailableSolanaSigner(UnavailableSigner):
    """A Solana key's journey's: a `xswap_sdk.signing.SolanaSigner` whose ``pubkey`` is
    the key, so that the flow checks its intents as they were checked."""

    def pubkey(self) -> str:
        """The journey's signer's key, base58."""
        return self.address


def unavailable_signer(address: str) -> UnavailableEvmSigner | UnavailableSolanaSigner:
    """The `UnavailableSigner` of a journey signed by ``address`` (an EVM address, or a
    Solana key in base58)."""
    if is_solana_key(address):
        return UnavailableSolanaSigner(address)
    return UnavailableEvmSigner(address)


def check_connected(connected: int, chain_id: int) -> None:
    """Refuse a web3 connected (``eth_chainId``) to another chain than ``chain_id``,
    before anything is signed or sent.

    Raises:
        InvalidInputError: the chains differ (argument ``web3``).
    """
    if connected != chain_id:
        raise InvalidInputError("web3", f"is connected to chain {connected}, not {chain_id}")


def on_chain(io: ChainIO, chain_id: int) -> Flow[None]:
    """Read the chain ``io``'s node is on, and refuse another than ``chain_id``
    (`check_connected`)."""
    connected = yield Chain(io, "chain_id", ())
    check_connected(int(connected), chain_id)


def hash_of(raw: str | None) -> str | None:
    """The hash of a signed raw transaction (hex), known before it is broadcast."""
    if raw is None:
        return None  # the node signs: the hash is known once it is sent
    from eth_utils.crypto import keccak

    return "0x" + keccak(hexstr=raw).hex()


def send(io: ChainIO, fields: dict[str, Any], what: str, *, confirm: bool = True) -> Flow[str]:
    """Sign (``signed``: the raw bytes and their hash), broadcast (``broadcast``), and
    with ``confirm`` wait for the receipt (``confirmed``); return the hash."""
    complete, raw = yield Chain(io, "sign", (fields,), what)
    tx_hash: str = yield Chain(io, "broadcast", (complete, raw), what)
    if not confirm:
        return tx_hash
    yield Chain(io, "confirm", (tx_hash, what), what)
    yield Record("confirmed", "ok", {"what": what, "tx_hash": tx_hash})
    return tx_hash
