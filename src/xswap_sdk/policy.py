"""Signing policies: the caller's own limits on everything the SDK signs.

Every signature the SDK makes (burn intents and burn-intent sets, USDC permits, Permit2
transfers, EIP-3009 authorizations, EIP-7702 authorizations, login messages,
transactions it signs through web3, and any other EIP-712 payload) passes one gate. The
gate reads the payload about to be signed, describes it as a `SigningRequest` (who gets
what, on which chain, until when), and asks every `Policy` in force. A policy that
refuses raises `xswap_sdk.errors.PolicyRefusedError` naming its rule; nothing is
signed.

A policy is put in force in two ways:

- ``policy=`` on a client (`xswap_sdk.FlashClient`, `xswap_sdk.RoutingClient`,
  `xswap_sdk.RelayerClient`, `xswap_sdk.GatewayClient` and their async twins): in force
  during each of that client's calls, in threads and asyncio tasks alike;
- `use_policy` around any code, for example the public signing functions (which also
  take ``policy=`` themselves).

Policies nest: inside ``use_policy(a)``, a client made with ``policy=b`` signs only what
both ``a`` and ``b`` allow. Without any policy, the SDK behaves as before, except that a
slippage above `DEFAULT_MAX_SLIPPAGE` is refused unless ``max_slippage=`` raises it.

A plain callable ``(SigningRequest) -> bool`` may be given wherever a `Policy` is: it
is the policy ``Policy(approve=callable)``.
"""

from __future__ import annotations

import functools
import inspect
import os
from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from types import MappingProxyType
from typing import Any, Final, TypeAlias

from ._base58 import fold
from ._ledger import DAY, Key, LedgerUnavailable, MemoryLedger, Over, Reservation, open_ledger
from ._ledger import SpendingLedger as SpendingLedger
from ._policy_scope import activated
from ._slippage import DEFAULT_MAX_SLIPPAGE, _percent
from .errors import InvalidInputError, PolicyRefusedError
from .journal import Journal

__all__ = [
    "AUTHORITY_GRANT",
    "DAY",
    "DEFAULT_MAX_SLIPPAGE",
    "NATIVE",
    "USDC",
    "LedgerArg",
    "Policy",
    "PolicyLike",
    "SigningRequest",
    "SpendingLedger",
    "as_policy",
    "use_policy",
]

LedgerArg: TypeAlias = str | os.PathLike[str] | Journal | SpendingLedger
"""What ``Policy(ledger=...)`` takes: a path to an SQLite file, a ``postgresql://`` URL,
a journal (its file or its server), or a `SpendingLedger` to share."""

NATIVE: Final = "native"
"""What `Policy.allowed_tokens` names a chain's native coin (ETH) by."""

USDC: Final = "usdc"
"""What `Policy` counts native USDC on every chain of `xswap_sdk.registry.DEFAULT_REGISTRY`
as: one token, so that a daily cap holds across chains (a burn-intent set spends USDC
from several), and ``allowed_tokens=["USDC"]`` allows it on every chain."""


@functools.cache
def _native_usdc() -> frozenset[str]:
    # lazy: the registry (pydantic, the pinned chains), only when a rule asks
    from .registry import DEFAULT_REGISTRY

    return frozenset(fold(chain.usdc) for chain in DEFAULT_REGISTRY)


def _token_key(token: str) -> str:
    """The name a token is counted and allowed by: ``"usdc"`` for native USDC on any
    chain the SDK pins (the USDC mint on Solana too), else its address (lower case, or
    base58 as it is) or ``"native"``."""
    folded = fold(token)
    return USDC if folded in _native_usdc() else folded


AUTHORITY_GRANT: Final = "authority_grant"
"""The `SigningRequest.kind` of a signature that hands over authority rather than a
stated amount: an EIP-7702 delegation (the whole account), a Gateway ``addDelegate``
(the whole Gateway balance), an ERC-20 or Permit2 approval (an allowance, ``amount``
``None`` when unlimited). ``details["grant"]`` says which (``"eip7702"``,
``"gateway_delegate"``, ``"approve"``, ``"permit2_approve"``, ``"permit2"``). Every
amount rule of a `Policy` refuses one unless its grantee (``counterparty``) is in
``allowed_counterparties``."""

_EMPTY: Final[Mapping[str, Any]] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class SigningRequest:
    """What is about to be signed, read from the payload itself, for a policy to judge.

    Amounts are integers in the token's smallest units (USDC has 6 decimals). Addresses
    are checksummed; Solana ones (a burn intent's signer, mint and recipient token
    account on Solana) are base58. A field the SDK cannot read from the payload is
    ``None``.

    A burn-intent set is one request (one signature): ``amount`` is the total of its
    intents' values, ``fee`` the total of their ``maxFee``, and ``legs`` holds one
    ``"burn_intent"`` request per intent (each with its own source chain, token, amount,
    recipient and fee); ``chain_id``, ``token`` and ``counterparty`` are set when every
    leg shares them, else ``None``. Policies check the totals and every leg.

    Attributes:
        kind: what is signed: ``"burn_intent"``, ``"burn_intent_set"``, ``"permit"``
            (EIP-2612), ``"permit2"`` (Permit2 ``PermitTransferFrom`` or
            ``PermitWitnessTransferFrom``), ``"eip3009"`` (``TransferWithAuthorization``
            or ``ReceiveWithAuthorization``; a Gateway-batched one counts as USDC),
            ``"authority_grant"`` (`AUTHORITY_GRANT`: an EIP-7702 delegation, a Gateway
            ``addDelegate``, an ERC-20 or Permit2 approval), ``"login"`` (a text
            message), ``"transaction"`` (sent through web3, described by what its
            calldata does), ``"x402_payment"`` (a keyless relayer's payment: USDC to
            the seller), or, for what the SDK cannot read, ``"typed_data"`` (an EIP-712
            payload of another type) and ``"digest"`` (a bare 32-byte hash).
        signer: the address that signs (a Solana key in base58).
        chain_id: the chain the funds or the authority leave from (a burn intent's
            source chain; ``0`` for an EIP-7702 authorization valid on every chain).
        token: the token that leaves the signer (its address), ``"native"`` for a
            transaction's native value, ``None`` when nothing is moved.
        amount: the total that leaves the signer, in the token's smallest units;
            ``None`` when nothing is moved or the SDK cannot tell.
        counterparty: who receives the funds or the authority: a burn intent's
            ``destinationRecipient`` (the router), a permit's ``spender``, a Permit2
            ``spender``, an EIP-3009 ``to``, an EIP-7702 delegate contract, a
            transaction's ``to`` (or an ERC-20 ``approve`` spender / ``transfer``
            recipient), the site (``host[:port]``) a login message is for.
        expires_at: when the signature stops being usable, in unix seconds (a
            deadline, ``validBefore``, a login's ``Expiration Time``); ``None`` when the
            payload has no time limit (a burn intent's limit is a block height, in
            ``details["max_block_height"]``).
        fee: the most that may be taken as a fee, in the token's smallest units (a burn
            intent's ``maxFee``), or ``None``.
        details: everything else, read-only: the EIP-712 ``primary_type``, ``domain``
            and ``message`` as signed, the login ``text``, the transaction's fields,
            and per kind the values named above in their raw form (for example
            ``destination_chain_id``, ``max_block_height``, ``nonce``, ``witness``).
        legs: a burn-intent set's intents, one request each (empty otherwise).
    """

    kind: str
    signer: str
    chain_id: int | None = None
    token: str | None = None
    amount: int | None = None
    counterparty: str | None = None
    expires_at: int | None = None
    fee: int | None = None
    details: Mapping[str, Any] = field(default_factory=lambda: _EMPTY, compare=False, hash=False)
    legs: tuple[SigningRequest, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.details, MappingProxyType):
            object.__setattr__(self, "details", MappingProxyType(dict(self.details)))

    @property
    def parts(self) -> tuple[SigningRequest, ...]:
        """The requests whose tokens and parties are checked: the legs of a set, else
        this request alone."""
        return self.legs or (self,)


_OPAQUE: Final = frozenset({"typed_data", "digest"})
"""Kinds the SDK cannot read: rules about amounts, tokens, parties or fees refuse them."""

_FEES: Final = frozenset({"burn_intent", "burn_intent_set"})
"""Kinds whose payload states a fee: one whose fee cannot be read is refused by
``max_fee``."""


def _unknown(request: SigningRequest, value: int | None, moves: bool) -> bool:
    """Whether a rule about ``value`` cannot judge ``request``: an unreadable kind, or a
    value missing where the payload should state one (``moves``)."""
    return request.kind in _OPAQUE or (value is None and moves)


def _check_amount(value: object, argument: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidInputError(argument, "must be a non-negative int (smallest units) or None")
    return value


def _check_names(value: object, argument: str) -> frozenset[str] | None:
    if value is None:
        return None
    if isinstance(value, str) or not isinstance(value, Collection):
        raise InvalidInputError(argument, "must be a collection of strings (not one string)")
    names = set()
    for item in value:
        if not isinstance(item, str) or not item.strip():
            raise InvalidInputError(argument, "must hold non-empty strings only")
        names.add(fold(item.strip()))
    return frozenset(names)


@dataclass(frozen=True, slots=True)
class Policy:
    """The caller's limits on what the SDK signs; each rule left at ``None`` is off.

    Rules are checked in this order; the first that fails refuses with
    `xswap_sdk.errors.PolicyRefusedError` naming it, and nothing is signed:

    1. ``allowed_counterparties``, 2. ``allowed_tokens``, 3. ``max_per_signature``,
    4. ``max_fee``, 5. ``max_per_day``, 6. ``approve``.

    An authority grant (kind `AUTHORITY_GRANT`: an EIP-7702 delegation, a Gateway
    delegate, an ERC-20 or Permit2 approval) exposes more than an amount says, so rules
    2, 3 and 5 refuse it unless its grantee is listed in ``allowed_counterparties``;
    a listed grantee's grant is not counted by them.

    Requests the SDK cannot read (kind ``"typed_data"`` or ``"digest"``) are refused by
    rules 1 to 5 when they are set, since nothing can be checked, and otherwise left to
    ``approve``. Amount rules compare integers in each token's smallest units.

    Attributes:
        max_per_signature: the most one signature may move (`SigningRequest.amount`;
            a burn-intent set's total).
        max_per_day: the most one signer may sign away per token in any rolling 24
            hours (`DAY`), counted across every client and call that shares this
            policy, thread-safely, once each signature is made; with ``ledger=``,
            across every process and host that shares the ledger, and across restarts.
            Native USDC on every chain the SDK pins counts as one token (`USDC`).
        allowed_counterparties: the only parties that may receive funds or authority
            (addresses, and the ``host[:port]`` of sites to log in to), in any case;
            Solana accounts in base58, whose case counts (a burn intent minted on
            Solana pays a USDC token account: list that account). A login's
            counterparty is the swap backend's host: list it too.
        allowed_tokens: the only tokens that may leave the signer (addresses, any case;
            Solana mints in base58; ``"native"`` for a chain's native coin; ``"USDC"``
            for native USDC on every chain the SDK pins, Solana's mint included).
        max_fee: the most a signature may allow as a fee (a burn intent's ``maxFee``; a
            set's total).
        max_slippage: the largest slippage, in percent, any call made while this policy
            is in force may accept (`DEFAULT_MAX_SLIPPAGE`, 5 %, by default). It is also
            the default of the calls' own ``max_slippage=``, which may lower it but not
            raise it.
        approve: asked last, with the `SigningRequest`; only ``True`` allows. An app can
            ask its user here, an agent's guardrail can vet the request. An exception it
            raises refuses too (and is chained to the error).
        ledger: where ``max_per_day`` counts (`LedgerArg`): by default in this policy
            object's memory (a restart, or another worker, starts from zero); a path to
            an SQLite file (created ``0600``; a journal's file is fine), a
            ``postgresql://`` URL (the ``postgres`` extra), a journal, or a
            `SpendingLedger` keep the counts in a table of their own (``xswap_ledger``),
            shared by every process that uses it and kept across restarts. Each
            signature's amounts are reserved there before it is made, atomically with
            the check of the cap, and given back if it is not made. A ledger that
            cannot be used refuses the signature (rule ``max_per_day``). Once the policy
            is made, this is the `SpendingLedger` opened (its ``repr`` never shows a
            password). See "Running several workers" in ``docs/journeys.md``.

    A copy made with `dataclasses.replace` starts a daily count of its own, unless it
    counts in a ``ledger``, which the copy shares.

    Raises:
        InvalidInputError: a rule of the wrong type (a negative cap, a string where a
            collection of strings is needed, a slippage that is not a percent, an
            ``async`` approval hook); a ``ledger`` without ``max_per_day``, or one that
            cannot be opened (a malformed URL, a file that cannot be created).
        MissingDependencyError: a ``postgresql://`` ledger without psycopg installed.
    """

    max_per_signature: int | None = None
    max_per_day: int | None = None
    allowed_counterparties: Collection[str] | None = None
    allowed_tokens: Collection[str] | None = None
    max_fee: int | None = None
    max_slippage: Decimal = DEFAULT_MAX_SLIPPAGE
    approve: Callable[[SigningRequest], bool] | None = None
    ledger: LedgerArg | None = None
    _ledger: SpendingLedger = field(
        default_factory=MemoryLedger, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        _check_amount(self.max_per_signature, "max_per_signature")
        _check_amount(self.max_per_day, "max_per_day")
        _check_amount(self.max_fee, "max_fee")
        set_ = object.__setattr__
        set_(
            self,
            "allowed_counterparties",
            _check_names(self.allowed_counterparties, "allowed_counterparties"),
        )
        set_(self, "allowed_tokens", _check_names(self.allowed_tokens, "allowed_tokens"))
        set_(self, "max_slippage", _percent(self.max_slippage, "max_slippage"))
        if self.approve is not None and not callable(self.approve):
            raise InvalidInputError("approve", "must be a callable (SigningRequest) -> bool")
        if inspect.iscoroutinefunction(self.approve):
            # Signing is synchronous, in async clients too: a coroutine would never run.
            raise InvalidInputError(
                "approve",
                "must be a plain function returning a bool, not an async one: it is "
                "called from inside the signing code (run a blocking question in it, or "
                "decide from state your async code prepared)",
            )
        if self.ledger is not None:
            if self.max_per_day is None:
                raise InvalidInputError(
                    "ledger", "counts max_per_day: give max_per_day= too (or no ledger=)"
                )
            # Kept opened, not as given: a URL's password stays inside the ledger.
            set_(self, "ledger", open_ledger(self.ledger))
            set_(self, "_ledger", self.ledger)

    def spent_today(self, signer: str, token: str) -> int:
        """What ``signer`` signed away of ``token`` in the last 24 hours under this
        policy: a token address, ``"native"``, or ``"USDC"`` (native USDC on every chain
        counts as one token; its address on any chain says the same).

        Raises:
            PolicyRefusedError: the policy's ``ledger`` cannot be read.
        """
        try:
            return self._ledger._spent((fold(signer), _token_key(token)))
        except LedgerUnavailable as exc:
            raise PolicyRefusedError("max_per_day", str(exc)) from None

    # The gate's side: admit a request (reserving its amounts), then settle.

    def _refuse(self, rule: str, reason: str, request: SigningRequest) -> PolicyRefusedError:
        return PolicyRefusedError(rule, reason, request=request)

    def _grantee_listed(self, request: SigningRequest) -> bool:
        party = request.counterparty
        return (
            self.allowed_counterparties is not None
            and party is not None
            and fold(party) in self.allowed_counterparties
        )

    def _check_grant(self, request: SigningRequest) -> None:
        """An authority grant hands over everything it exposes (a whole account or
        balance, an allowance): each amount rule refuses it unless its grantee is an
        allowed counterparty, and then none counts it (it moves nothing itself)."""
        if self._grantee_listed(request):
            return
        what = request.details.get("grant", "authority")
        for rule, limit in (
            ("allowed_tokens", self.allowed_tokens),
            ("max_per_signature", self.max_per_signature),
            ("max_per_day", self.max_per_day),
        ):
            if limit is not None:
                raise self._refuse(
                    rule,
                    f"a grant of authority ({what}) to {request.counterparty!r} exposes more "
                    "than an amount can say; list the grantee in allowed_counterparties to "
                    "allow it",
                    request,
                )

    def _check_rules(self, request: SigningRequest) -> None:
        opaque = request.kind in _OPAQUE
        parts = request.parts
        if self.allowed_counterparties is not None:
            for part in parts:
                party = part.counterparty
                if party is None or fold(party) not in self.allowed_counterparties:
                    shown = "an unknown party" if party is None else repr(party)
                    raise self._refuse(
                        "allowed_counterparties",
                        f"{shown} is not an allowed counterparty",
                        request,
                    )
        if request.kind == AUTHORITY_GRANT:
            self._check_grant(request)
            return
        if self.allowed_tokens is not None:
            for part in parts:
                if opaque or (
                    part.token is not None
                    and fold(part.token) not in self.allowed_tokens
                    and _token_key(part.token) not in self.allowed_tokens
                ):
                    shown = "an unknown token" if opaque else repr(part.token)
                    raise self._refuse(
                        "allowed_tokens", f"{shown} is not an allowed token", request
                    )
        moves = request.token is not None or request.kind in _FEES
        for rule, limit, value, what, expected in (
            ("max_per_signature", self.max_per_signature, request.amount, "amount", moves),
            ("max_fee", self.max_fee, request.fee, "fee", request.kind in _FEES),
        ):
            if limit is None:
                continue
            if _unknown(request, value, expected):
                raise self._refuse(rule, f"the {what} cannot be read from the payload", request)
            if value is not None and value > limit:
                raise self._refuse(rule, f"{what} {value} is above the cap of {limit}", request)
        if self.max_per_day is not None and any(
            _unknown(request, part.amount, part.token is not None) for part in parts
        ):
            raise self._refuse(
                "max_per_day", "an amount that cannot be read cannot be counted", request
            )

    def _amounts(self, request: SigningRequest) -> dict[Key, int]:
        amounts: dict[Key, int] = {}
        if request.kind == AUTHORITY_GRANT:
            return amounts  # a grant moves nothing itself: see _check_grant
        for part in request.parts:
            if part.amount and part.token is not None:
                key = (fold(request.signer), _token_key(part.token))
                amounts[key] = amounts.get(key, 0) + part.amount
        return amounts

    def _reserve(self, request: SigningRequest, limit: int) -> Reservation | None:
        amounts = self._amounts(request)
        if not amounts:
            return None
        try:
            reserved = self._ledger._reserve(amounts, limit)
        except LedgerUnavailable as exc:
            raise self._refuse("max_per_day", str(exc), request) from None
        if isinstance(reserved, Over):
            raise self._refuse(
                "max_per_day",
                f"{reserved.key[1]}: {reserved.spent} already signed in the last 24 hours, "
                f"so {amounts[reserved.key]} more is above the cap of {limit}",
                request,
            )
        return reserved

    def _admit(self, request: SigningRequest) -> Reservation | None:
        """Check every rule; return what was reserved in the daily ledger.

        Raises:
            PolicyRefusedError: a rule refused; nothing is reserved.
        """
        self._check_rules(request)
        reserved = None
        if self.max_per_day is not None:
            reserved = self._reserve(request, self.max_per_day)
        if self.approve is not None:
            try:
                approved = self.approve(request)
            except Exception as exc:
                self._release(reserved)
                raise self._refuse(
                    "approve", f"the approval hook raised {type(exc).__name__}", request
                ) from exc
            if approved is not True:
                self._release(reserved)
                raise self._refuse("approve", "the approval hook did not approve", request)
        return reserved

    def _release(self, reserved: Reservation | None) -> None:
        if reserved is not None:
            self._ledger._release(reserved)


PolicyLike: TypeAlias = Policy | Callable[[SigningRequest], bool]
"""A `Policy`, or a plain callable that is its ``approve`` hook."""


def as_policy(policy: object, *, argument: str = "policy") -> Policy | None:
    """A `Policy` from what a caller gave as ``policy=``: a `Policy` as it is, a plain
    callable as ``Policy(approve=callable)``, ``None`` as ``None``.

    Raises:
        InvalidInputError: anything else.
    """
    if policy is None or isinstance(policy, Policy):
        return policy
    if callable(policy):
        return Policy(approve=policy)
    raise InvalidInputError(
        argument, "must be a xswap_sdk.policy.Policy, a callable (SigningRequest) -> bool, or None"
    )


@contextmanager
def use_policy(policy: PolicyLike | None) -> Iterator[Policy | None]:
    """Put ``policy`` in force for the block: every signature made inside it, by a
    signing function or by a client, must pass it (and any other policy in force).

    Works in threads and asyncio tasks alike (a `contextvars.ContextVar`): a task
    started inside the block keeps the policy; other threads and tasks do not see it.
    ``None`` changes nothing.

    Example:
        ```python
        from xswap_sdk.policy import Policy, use_policy
        from xswap_sdk.signing import sign_permit
        from xswap_sdk.testing import TEST_SIGNER

        with use_policy(Policy(max_per_signature=100_000_000)):   # 100 USDC
            sign_permit(TEST_SIGNER, token_name="USD Coin", token_version="2",
                        chain_id=8453,
                        token_address="0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
                        spender="0x77777777Dcc4d5A8B6E418Fd04D8997ef11000eE",
                        value=5_000_000, nonce=0)
        ```

    Yields:
        The policy in force (``policy`` itself, or the `Policy` made from a callable).

    Raises:
        InvalidInputError: ``policy`` is not a `Policy`, a callable or ``None``.
    """
    checked = as_policy(policy)
    with activated(checked):
        yield checked
