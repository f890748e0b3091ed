"""Multi-step flows written once, run by a blocking or an async driver.

A flow is a generator that yields steps and returns its result. It never performs a side
effect itself: it says what it needs, and the driver (the transport's ``run``) does it
and resumes the flow with the result, or throws the SDK error into it so the flow can
decide (a 404 while polling means "not visible yet"). This is how polling, login and
money journeys serve both clients without ``asyncio.run``, which would break inside
Jupyter's running event loop.

In a money journey (a flow that yields `Begin`), every step is also a record: the driver
writes each one to the journal, and on resume runs the same flow again and feeds it the
recorded results (replay; see ``xswap_sdk._journey``). So a journey's flow asks the
driver for everything that could differ from one run to the next: each HTTP request
(`Call`), chain read and send (`Chain`), signature (`Sign`), the time (`Now`), random
bytes (`Random`), and the caller's answer to a question (`Ask`). A wait whose reads need
no record is one `Wait` step: replayed by its result once it ended, run again otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeAlias, TypeVar

from ._operation import Operation
from ._record import Frozen

if TYPE_CHECKING:
    from ._chain_steps import ChainIO
    from .signing.signer import Signer
    from .signing.solana import SolanaSigner

__all__ = [
    "Ask",
    "Begin",
    "Call",
    "Chain",
    "ChainOp",
    "Flow",
    "Now",
    "Random",
    "Record",
    "Sign",
    "Sleep",
    "Step",
    "Wait",
]

T = TypeVar("T")
R = TypeVar("R")


@dataclass(init=False, repr=False, eq=False, slots=True)
class Call(Frozen, Generic[T]):
    """Step: send ``operation`` and resume the flow with its parsed result.

    ``until`` is a clock time (``monotonic``) the request must end by, retries and
    ``Retry-After`` waits included: a wait's own deadline, which no answer extends.
    """

    operation: Operation[T]
    until: float | None = None

    def __init__(self, operation: Operation[T], until: float | None = None) -> None:
        object.__setattr__(self, "operation", operation)
        object.__setattr__(self, "until", until)


@dataclass(init=False, repr=False, eq=False, slots=True)
class Sleep(Frozen):
    """Step: wait ``seconds`` on the client's clock (outside a journey, or inside a
    `Wait`)."""

    seconds: float

    def __init__(self, seconds: float) -> None:
        object.__setattr__(self, "seconds", seconds)


@dataclass(init=False, repr=False, eq=False, slots=True)
class Begin(Frozen):
    """Step: this flow is a money journey of ``kind``, built from ``terms`` (its checked
    arguments as plain JSON values, no secret: what resume builds the same flow from).
    The driver resumes the flow with the journey's id in the client's journal, or
    ``None`` without one."""

    kind: str
    terms: Mapping[str, Any] = field(default_factory=dict)

    def __init__(self, kind: str, terms: Mapping[str, Any] | None = None) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "terms", {} if terms is None else terms)


@dataclass(init=False, repr=False, eq=False, slots=True)
class Record(Frozen):
    """Step: a step people read (``quoted``, ``verified``, ``executed``...), written to
    the journey with ``status`` and ``data`` and reported to ``on_step``; ``state`` sets
    the journey's state too. ``identities`` are what the step identifies (a transaction
    hash, a transfer id): the journal indexes them (`xswap_sdk.journal.Journal.find`).
    A no-op outside a journey."""

    step: str
    status: str = "ok"
    data: Mapping[str, Any] = field(default_factory=dict)
    state: str | None = None
    identities: tuple[str, ...] = ()

    def __init__(
        self,
        step: str,
        status: str = "ok",
        data: Mapping[str, Any] | None = None,
        state: str | None = None,
        identities: tuple[str, ...] = (),
    ) -> None:
        object.__setattr__(self, "step", step)
        object.__setattr__(self, "status", status)
        object.__setattr__(self, "data", {} if data is None else data)
        object.__setattr__(self, "state", state)
        object.__setattr__(self, "identities", identities)


ChainOp: TypeAlias = Literal[
    "chain_id", "allowance", "simulate", "receipt", "token_domain", "permit_facts",
    "sign", "broadcast", "confirm",
]  # fmt: skip
"""What a `Chain` step asks of its `ChainIO`: reads (``chain_id``, ``allowance``,
``simulate``, ``receipt``, ``token_domain``, ``permit_facts``), a transaction's
signature (``sign``), its broadcast (``broadcast``), and the wait for its receipt
(``confirm``)."""


@dataclass(init=False, repr=False, eq=False, slots=True)
class Chain(Frozen):
    """Step: chain I/O through ``io`` (its async or blocking web3 helpers, bound by the
    client method): ``io.<op>(*args)``. The driver performs it (awaiting it in an async
    client) and resumes the flow with the result; an SDK error is thrown back into the
    flow, like a `Call`'s.

    Attributes:
        io: the helpers.
        op: which one (`ChainOp`).
        args: its arguments (plain values: they are what is compared on replay).
        what: which transaction it is about (``"route"``, ``"approval"``, ``"mint"``).
        decode: rebuilds a recorded result (its JSON form) on replay; ``None``: as read.
    """

    io: ChainIO
    op: ChainOp
    args: tuple[Any, ...] = ()
    what: str = ""
    decode: Callable[[Any], Any] | None = None

    def __init__(
        self,
        io: ChainIO,
        op: ChainOp,
        args: tuple[Any, ...] = (),
        what: str = "",
        decode: Callable[[Any], Any] | None = None,
    ) -> None:
        object.__setattr__(self, "io", io)
        object.__setattr__(self, "op", op)
        object.__setattr__(self, "args", args)
        object.__setattr__(self, "what", what)
        object.__setattr__(self, "decode", decode)


@dataclass(init=False, repr=False, eq=False, slots=True)
class Sign(Frozen):
    """Step: ``signer`` signs, through the signing gate and every policy in force; the
    flow is resumed with the signature (``0x`` hex).

    Attributes:
        signer: who signs (a `xswap_sdk.signing.SolanaSigner` for ``"ed25519"``).
        digest: what is signed, and what replay compares: the 32 bytes of an EIP-712
            or EIP-191 digest, or for ``"ed25519"`` the message itself (Ed25519 signs
            it with no hash first).
        payload: the typed data (``"eip712"``) or the text (``"message"``), shown to a
            signer that is not a local key and described to the policies; for
            ``"ed25519"``, a function returning the `SigningRequest` the policies see.
        kind: ``"eip712"``, ``"message"`` or ``"ed25519"`` (a Solana key).
        what: what it signs, for the journal (``"order"``, ``"intents"``, ``"permit"``).
    """

    signer: Signer | SolanaSigner
    digest: bytes
    payload: Any
    kind: Literal["eip712", "message", "ed25519"] = "eip712"
    what: str = ""

    def __init__(
        self,
        signer: Signer | SolanaSigner,
        digest: bytes,
        payload: Any,
        kind: Literal["eip712", "message", "ed25519"] = "eip712",
        what: str = "",
    ) -> None:
        object.__setattr__(self, "signer", signer)
        object.__setattr__(self, "digest", digest)
        object.__setattr__(self, "payload", payload)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "what", what)


@dataclass(init=False, repr=False, eq=False, slots=True)
class Now(Frozen):
    """Step: the time, in Unix seconds by the client's clock (``clock.time()``); with
    ``chain``, the machine's own clock (``time.time()``): for a deadline a chain checks
    against its blocks' timestamps (a permit's, an authorization's), which no client
    clock stands in for."""

    chain: bool = False

    def __init__(self, chain: bool = False) -> None:
        object.__setattr__(self, "chain", chain)


@dataclass(init=False, repr=False, eq=False, slots=True)
class Random(Frozen):
    """Step: ``size`` random bytes (salts, nonces), as ``0x`` hex."""

    size: int = 32

    def __init__(self, size: int = 32) -> None:
        object.__setattr__(self, "size", size)


@dataclass(init=False, repr=False, eq=False, slots=True)
class Ask(Frozen):
    """Step: the caller's answer to a question (``accept_quote`` over a new quote): the
    driver calls ``hook(value)`` and resumes the flow with the answer. An answer must be
    exactly ``True`` or ``False``; anything else is refused. ``hook`` is ``None`` when the
    journey had a hook this run cannot ask (a resume): the answer is ``False``."""

    hook: Callable[[Any], object] | None
    value: Any
    what: str = "quote"

    def __init__(
        self, hook: Callable[[Any], object] | None, value: Any, what: str = "quote"
    ) -> None:
        object.__setattr__(self, "hook", hook)
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "what", what)


@dataclass(init=False, repr=False, eq=False, slots=True)
class Wait(Frozen, Generic[T]):
    """Step: run ``flow`` (a wait: reads and sleeps, nothing that moves money) and resume
    with its result. In a journey only its result is recorded, once it has one: a wait
    that was interrupted, or ran out of time, runs again on resume.

    ``decode`` rebuilds a recorded result; ``encode`` gives its JSON form.
    """

    flow: Generator[Any, Any, T]
    decode: Callable[[Any], T] | None = None
    encode: Callable[[T], Any] | None = None

    def __init__(
        self,
        flow: Generator[Any, Any, T],
        decode: Callable[[Any], T] | None = None,
        encode: Callable[[T], Any] | None = None,
    ) -> None:
        object.__setattr__(self, "flow", flow)
        object.__setattr__(self, "decode", decode)
        object.__setattr__(self, "encode", encode)


Step: TypeAlias = Call[Any] | Sleep | Begin | Record | Chain | Sign | Now | Random | Ask | Wait[Any]
Flow: TypeAlias = Generator[Step, Any, R]
