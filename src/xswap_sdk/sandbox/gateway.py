"""The emulated Circle Gateway API: info, balances, estimates, transfers.

It serves the swap backend emulator's three chains (Ethereum, Base, Arbitrum One, with
Circle's real domains and contracts) and reads the same world: a depositor's Gateway
balance is the swap backend's (what `Sandbox.fund` put there, less what swaps took), less
what was transferred through this API, less deposits that are not final yet.

- `GatewayService.deposit` deposits on a chain as ``depositWithPermit`` or
  ``depositWithAuthorization`` would: the swap backend emulator counts it at once (as it
  counts `Sandbox.fund`), Gateway's balances once the chain's finality has passed on the
  clock (``deposit_finality``, about 20 minutes as on Ethereum and Base), so
  ``wait_for_gateway_balance`` has something to wait for.
- ``POST /v1/estimate`` answers each intent with the fee Gateway charges on its source
  chain (the same per-chain fee the swap backend emulator charges) and an expiration
  height, writing addresses as 20 bytes as the live API may.
- ``POST /v1/transfer`` checks what Gateway checks: the signature against
  ``sourceSigner`` (the depositor or a delegate added with `GatewayService.add_delegate`),
  the Gateway contracts and USDC, a spec hash used once, the expiration height, the fee
  floor (``Insufficient max fee: expected at least X, got Y``, HTTP 400; the floor
  moves after an estimate with `GatewayService.raise_fee_after_estimate`) and the
  balance. An accepted transfer is ``pending``, then ``confirmed`` after
  ``timings.mint`` seconds (or when `GatewayService.report_mint` reports its mint, with
  ``timings.mint = None``) and ``finalized`` after the destination's finality; or
  ``failed`` / ``expired`` when scripted with `GatewayService.fail_next`, giving its
  balance back.

Solana (Gateway domain 5, chain id `xswap_sdk.chains.SOLANA`) is served too, as Circle
serves it: balances of base58 depositors (``Sandbox.fund(key, SOLANA, ...)``, or
`GatewayService.deposit`, final after ``deposit_finality`` of 13 s), burn intents from
Solana signed with Ed25519 and checked with RFC 8032's verification written out again
over their own encoding (`xswap_sdk.sandbox._oracle.check_solana_burn_intent`, not the SDK's code),
each its own element (a burn intent set from Solana is refused, as Circle refuses it),
values within a u64, expiry in slots; and transfers to Solana attested in Circle's
reduced format (`xswap_sdk.sandbox._attestation.encode_solana_attestation`). Solana
balances are Gateway's own: the swap backend emulator does not serve Solana.

Direct transfers made here are not seen by the swap backend emulator, whose balances
stay its own. Errors are ``{"message": "..."}``.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Final, Literal

from eth_hash.auto import keccak

from .._base58 import encode, fold, is_solana_key
from ..chains import SOLANA
from ..errors import InvalidInputError
from ..registry import DEFAULT_REGISTRY
from ..signing import (
    MAX_INTENTS_PER_SET,
    BurnIntent,
    address_to_bytes32,
)
from ..signing._fields import MAX_UINT64, read_word, to_word
from ..signing.burn_intents import as_intent
from ..types import Address, ChainId, TokenAmount, from_units
from ._attestation import (
    SPEC_FIELDS,
    encode_attestation,
    encode_solana_attestation,
    encode_spec,
    sign_attestation,
)
from ._catalog import CHAINS, Chain
from ._http import HTTPError, Request, Response, Service, checked
from ._nanopayments import NanopaymentsRoutes, X402Transfer
from ._oracle import check_solana_burn_intent, recover_burn_intent, recover_burn_intent_set
from ._world import OutcomeQueue, Timeline, World, iso
from .flash import FLASH_CHAINS, FlashService

__all__ = ["GatewayService", "GatewayTimings", "X402Transfer"]

_BAD_SIGNATURE = "Invalid signature: recovered signer does not match sourceSigner"
# Solana as Gateway serves it here: a slot every 0.4 s; the fee floor (0.01 USDC) and
# the 13 s to a finalized deposit (32 slots) are the sandbox's, Circle publishes neither.
_SOLANA: Final = Chain(
    int(SOLANA),
    "solana",
    "Solana",
    "SOL",
    "Solana",
    150.0,
    "solana",
    "https://explorer.solana.com",
    "https://api.mainnet-beta.solana.com",
    0,
    gateway_domain=DEFAULT_REGISTRY.chain(SOLANA).domain,
    gateway_min_fee=10_000,
)
_GATEWAY_CHAINS: Final = (*FLASH_CHAINS, _SOLANA)
_BLOCK_SECONDS: Final = {1: 12.0, 8453: 2.0, 42161: 0.25, _SOLANA.id: 0.4}
_START_HEIGHTS: Final = {
    1: 21_000_000,
    8453: 25_000_000,
    42161: 300_000_000,
    _SOLANA.id: 380_000_000,
}
_FINALITY: Final = {**dict.fromkeys(_BLOCK_SECONDS, 1200.0), _SOLANA.id: 13.0}
# How far above the processed height a burn intent must expire (Gateway's
# burnIntentExpirationHeight), and how long an attestation stays mintable.
_EXPIRATION_MARGIN: Final = 30
_ATTESTATION_BLOCKS: Final = 10_000
_ADDRESS_FIELDS: Final = tuple(
    name for name, kind in SPEC_FIELDS if kind == "bytes32" and name != "salt"
)

Fate = Literal["failed", "expired"]


@dataclass(frozen=True, slots=True)
class GatewayTimings:
    """How long a transfer spends in each state, in seconds.

    Attributes:
        mint: ``pending`` lasts this long, then ``confirmed`` (minted, as if by someone:
            the sandbox has no chain); ``None``: ``pending`` until a mint is reported
            with `GatewayService.report_mint`, as Gateway sees a mint on the chain.
        finality: after the mint, the destination chain's time to finality, then
            ``finalized``; per chain id, default 1200 s (20 minutes).
    """

    mint: float | None = 2.0
    finality: dict[int, float] = field(default_factory=lambda: dict(_FINALITY))


@dataclass
class _Transfer:
    id: str
    debits: list[tuple[str, Chain, int, int]]  # depositor (folded), chain, value, fee
    destination: Chain
    intents: list[BurnIntent]
    spec_hashes: list[str]
    created_at: float
    timeline: Timeline
    attestation: str
    signature: str
    expiration_block: int
    forwarding: bool


@dataclass
class _Deposit:
    owner: str
    chain_id: int
    amount: int
    final_at: float
    made_at: float = 0.0
    transaction_hash: str = ""


def _usdc(units: int) -> str:
    return str(from_units(units, 6))


def _decimal_balance(units: int) -> str:
    return f"{Decimal(units) / Decimal(10**6):.6f}"


def _domain_chain(domain: int) -> Chain | None:
    return next((chain for chain in _GATEWAY_CHAINS if chain.gateway_domain == domain), None)


def _family(chain: Chain) -> str:
    return DEFAULT_REGISTRY.chain(chain.id).family


def _owner(argument: str, value: object, chain: Chain | None = None) -> str:
    """A depositor as the API takes it: a base58 key (Solana), else an EVM address; of
    ``chain``'s family when one is named."""
    if chain is None or _family(chain) == "solana":
        if isinstance(value, str) and is_solana_key(value):
            return value
        if chain is not None:
            raise HTTPError(400, f"{argument} must be a base58 Solana address on domain 5")
    address: str = checked(argument, Address, value)
    return address


class GatewayService(NanopaymentsRoutes, Service):
    """Circle Gateway's API (``sb.gateway``): ``/v1/info``, ``/v1/balances``,
    ``/v1/estimate``, ``/v1/transfer`` and ``/v1/transfer/{id}``.

    Attributes:
        timings: the state durations of transfers made from now on.
        deposit_finality: seconds until a deposit counts in Gateway's balances, per
            chain id (default 1200 s on each chain).
        forwarding_fee: the fee, in smallest USDC units, of a transfer made with
            ``enableForwarder=true``.
    """

    name = "gateway"
    """Its name in fault rules, the request log and `Sandbox.url`."""

    def __init__(self, world: World, flash: FlashService) -> None:
        super().__init__()
        self._world = world
        self._flash = flash
        self._started = world.now()
        self.timings: GatewayTimings = GatewayTimings()
        self.deposit_finality: dict[int, float] = dict(_FINALITY)
        self.forwarding_fee = 210_000
        self._deposits: list[_Deposit] = []
        # Solana balances (base58 depositor -> smallest units): Gateway's own, since the
        # swap backend emulator, whose balances the EVM chains share, has no Solana.
        self._solana: defaultdict[str, int] = defaultdict(int)
        self._transfers: dict[str, _Transfer] = {}
        self._used_hashes: set[str] = set()
        # Depositor -> delegates (folded: EVM in lower case, Solana keys as they are).
        self._delegates: defaultdict[str, set[str]] = defaultdict(set)
        self._fates: OutcomeQueue[Fate] = OutcomeQueue()
        # Fee rises waiting for the next estimates, and what they added to every floor.
        self._fee_rises: list[int] = []
        self._fee_rise = 0
        self.x402_transfers: dict[str, X402Transfer] = {}
        """Batched transfers accepted from x402 payments and ``/v1/batch/submit``, by id
        (`settle_x402`)."""
        for method, path, handler in (
            ("GET", "/v1/info", self._info),
            ("POST", "/v1/balances", self._balances),
            ("POST", "/v1/estimate", self._estimate),
            ("POST", "/v1/transfer", self._transfer),
            ("GET", "/v1/transfer/{id}", self._get_transfer),
        ):
            self.router.add(method, path, handler)
        self._add_nanopayment_routes()

    def error_response(self, error: HTTPError) -> Response:
        """``{"message": "<text>"}``."""
        return Response.json({"message": error.message}, error.status, error.headers)

    # ------------------------------------------------------------------ the world

    def _chain(self, chain_id: object) -> Chain:
        checked_id: int = checked("chain_id", ChainId, chain_id)
        chain = _SOLANA if checked_id == _SOLANA.id else CHAINS.get(checked_id)
        if chain is None or chain.gateway_domain is None:
            raise HTTPError(400, f"chain {checked_id} is not served")
        return chain

    def _funds(self, address: str, chain_id: int, amount: int | str) -> tuple[Chain, str, int]:
        """The chain, owner and amount of `fund` and `deposit`, checked.

        Raises:
            ValueError: a bad address or amount, or a chain Gateway does not serve here.
        """
        try:
            chain = self._chain(chain_id)
            owner = _owner("address", address, chain)
            units: int = checked("amount", TokenAmount, amount)
        except HTTPError as exc:
            raise ValueError(exc.message) from None
        return chain, owner, units

    def fund(self, address: str, chain_id: int, amount: int | str) -> int:
        """Put ``amount`` USDC (smallest units) in ``address``'s Gateway balance on
        ``chain_id`` at once; return the new balance. On Solana (`SOLANA`) ``address`` is
        a base58 key and the balance Gateway's own; elsewhere it is the swap backend's
        (`FlashService.fund`).

        Raises:
            ValueError: a bad address or amount, or a chain Gateway does not serve here.
        """
        chain, owner, units = self._funds(address, chain_id, amount)
        if chain is not _SOLANA:
            return self._flash.fund(owner, chain.id, units)
        self._solana[owner] += units
        return self.balance(owner, chain.id)

    def _funded(self, owner: str, chain_id: int) -> int:
        if chain_id == _SOLANA.id:
            return self._solana.get(owner, 0)
        return self._flash.balance(owner, chain_id)

    def height(self, chain_id: int, at: float | None = None) -> int:
        """The block height Gateway has processed on ``chain_id`` now (or ``at``)."""
        moment = self._world.now() if at is None else at
        elapsed = max(0.0, moment - self._started)
        return _START_HEIGHTS[chain_id] + int(elapsed / _BLOCK_SECONDS[chain_id])

    def deposit(self, address: str, chain_id: int, amount: int | str) -> float:
        """Deposit ``amount`` USDC (smallest units) for ``address`` on ``chain_id``, as a
        ``depositWithPermit`` or ``depositWithAuthorization`` mined now would (on Solana,
        the GatewayWallet's ``deposit``; ``address`` a base58 key).

        The swap backend emulator counts it at once; Gateway's balances once
        ``deposit_finality`` has passed.

        Returns:
            The clock time (``time()``) at which Gateway counts it.

        Raises:
            ValueError: a bad address or amount, or a chain Gateway does not serve here.
        """
        chain, owner, units = self._funds(address, chain_id, amount)
        if units == 0:
            raise ValueError("amount must be positive (DepositValueMustBePositive)")
        self.fund(owner, chain.id, units)
        final_at = self._world.now() + self.deposit_finality.get(chain.id, 0.0)
        # A Solana transaction is named by its first signature: 64 bytes in base58.
        tx = encode(self._world.rng.randbytes(64)) if chain is _SOLANA else self._world.tx_hash()
        deposit = _Deposit(owner, chain.id, units, final_at, self._world.now(), tx)
        self._deposits.append(deposit)
        return final_at

    def add_delegate(self, depositor: str, delegate: str) -> None:
        """Let ``delegate`` sign burn intents for ``depositor``'s balance, as
        ``addDelegate`` does on chain (on every chain of the sandbox; Solana's
        ``add_delegate`` with base58 keys)."""
        owner = _owner("depositor", depositor)
        added = _owner("delegate", delegate)
        self._delegates[fold(owner)].add(fold(added))

    def remove_delegate(self, depositor: str, delegate: str) -> None:
        """Stop ``delegate`` from signing for ``depositor``'s balance."""
        owner = _owner("depositor", depositor)
        removed = _owner("delegate", delegate)
        self._delegates[fold(owner)].discard(fold(removed))

    def fail_next(self, outcome: Fate = "failed", *, count: int = 1) -> None:
        """Make the next ``count`` accepted transfers end ``failed`` (or ``expired``)
        instead of being minted; their balance goes back."""
        if outcome not in ("failed", "expired"):
            raise ValueError("outcome must be 'failed' or 'expired'")
        self._fates.push(outcome, count)

    def raise_fee_after_estimate(self, units: int, *, count: int = 1) -> None:
        """Raise every chain's fee floor by ``units`` (smallest USDC units) right after
        each of the next ``count`` estimates is answered, as when Gateway's fee moves
        between an estimate and the transfer: an intent signed with the estimated fee
        is then refused with ``Insufficient max fee: expected at least X`` (HTTP 400),
        and the next estimate asks the new fee."""
        if isinstance(units, bool) or not isinstance(units, int) or units <= 0:
            raise ValueError("units must be a positive int")
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise ValueError("count must be a positive int")
        self._fee_rises.extend([units] * count)

    def balance(self, address: str, chain_id: int) -> int:
        """``address``'s available Gateway balance on ``chain_id`` now, in smallest
        units: the swap backend's (on Solana, Gateway's own), less deposits not final
        yet and live transfers."""
        owner = _owner("address", address)
        now = self._world.now()
        pending = sum(
            d.amount
            for d in self._deposits
            if d.owner == owner and d.chain_id == chain_id and d.final_at > now
        )
        transferred = sum(
            value + fee
            for transfer in self._transfers.values()
            if transfer.timeline.at(now)["status"] not in ("failed", "expired")
            for depositor, chain, value, fee in transfer.debits
            if depositor == fold(owner) and chain.id == chain_id
        )
        paid = sum(
            t.amount
            for t in self.x402_transfers.values()
            if t.payer.lower() == owner.lower() and t.chain_id == chain_id
        )
        return self._funded(owner, chain_id) - pending - transferred - paid

    @property
    def transfer_ids(self) -> list[str]:
        """The ids of every accepted transfer, oldest first."""
        return list(self._transfers)

    # ------------------------------------------------------------------ /v1/info

    def _contract(self, address: str) -> dict[str, Any]:
        return {"address": address, "supportedTokens": ["USDC"]}

    def _info(self, request: Request) -> Response:
        domains = []
        for chain in _GATEWAY_CHAINS:
            height = self.height(chain.id)
            pinned = DEFAULT_REGISTRY.chain(chain.id)
            domains.append(
                {
                    "chain": chain.display_name,
                    "network": "Mainnet",
                    "domain": chain.gateway_domain,
                    "walletContract": self._contract(pinned.gateway_wallet),
                    "minterContract": self._contract(pinned.gateway_minter),
                    "processedHeight": str(height),
                    "burnIntentExpirationHeight": str(height + _EXPIRATION_MARGIN),
                }
            )
        return Response.json({"version": 1, "domains": domains})

    # ------------------------------------------------------------------ /v1/balances

    def sources(self, request: Request) -> list[tuple[str, Chain]]:
        """The ``(depositor, chain)`` pairs a ``{token, sources}`` body asks about (the
        balance and deposit reads)."""
        body = request.json()
        if not isinstance(body, dict):
            raise HTTPError(400, "the request body must be a JSON object")
        if body.get("token") != "USDC":
            raise HTTPError(400, "token must be USDC")
        sources = body.get("sources")
        if not isinstance(sources, list) or not sources:
            raise HTTPError(400, "sources must be a non-empty array")
        pairs = []
        for index, source in enumerate(sources):
            if not isinstance(source, dict) or not source.get("depositor"):
                raise HTTPError(400, f"sources[{index}].depositor is required")
            where = f"sources[{index}].depositor"
            if source.get("domain") is None:
                # Every domain where the depositor is valid: Solana's for a base58 key.
                owner = _owner(where, source["depositor"])
                chains = [_SOLANA] if is_solana_key(owner) else list(FLASH_CHAINS)
            else:
                chain = _domain_chain(source["domain"])
                if chain is None or isinstance(source["domain"], bool):
                    raise HTTPError(400, f"sources[{index}].domain is not supported")
                owner = _owner(where, source["depositor"], chain)
                chains = [chain]
            pairs += [(owner, chain) for chain in chains]
        return pairs

    def _balances(self, request: Request) -> Response:
        entries = [
            {
                "domain": chain.gateway_domain,
                "depositor": owner,
                "balance": _decimal_balance(self.balance(owner, chain.id)),
                "withdrawing": _decimal_balance(0),
                "withdrawable": _decimal_balance(0),
            }
            for owner, chain in self.sources(request)
        ]
        return Response.json({"token": "USDC", "balances": entries})

    def pending_deposits(self, owner: str, chain: Chain) -> list[dict[str, Any]]:
        """``owner``'s deposits on ``chain`` that are not final yet, as
        ``POST /v1/deposits`` lists them."""
        now = self._world.now()
        return [
            {
                "depositor": owner,
                "domain": chain.gateway_domain,
                "transactionHash": d.transaction_hash,
                # Base units, as Gateway's /v1/deposits gives them (not a balance's
                # decimal string).
                "amount": str(d.amount),
                "status": "pending",
                "blockHeight": str(self.height(chain.id, d.made_at)),
                "blockHash": self._block_hash(chain, d.transaction_hash),
                "blockTimestamp": iso(d.made_at),
            }
            for d in self._deposits
            if d.owner == owner and d.chain_id == chain.id and d.final_at > now
        ]

    @staticmethod
    def _block_hash(chain: Chain, tx_hash: str) -> str:
        digest = keccak(tx_hash.encode())
        return encode(digest) if chain is _SOLANA else "0x" + digest.hex()

    # ------------------------------------------------------------------ intents

    def _intent(self, value: Any, where: str) -> BurnIntent:
        try:
            return as_intent(value, where)
        except InvalidInputError as exc:
            raise HTTPError(400, f"Invalid burn intent: {exc}") from None

    def _source(self, intent: BurnIntent, where: str) -> Chain:
        spec = intent.spec
        source = _domain_chain(spec.source_domain)
        destination = _domain_chain(spec.destination_domain)
        if source is None:
            raise HTTPError(400, f"{where}: sourceDomain {spec.source_domain} is not supported")
        if destination is None:
            raise HTTPError(
                400, f"{where}: destinationDomain {spec.destination_domain} is not supported"
            )
        pinned_source = DEFAULT_REGISTRY.chain(source.id)
        pinned_destination = DEFAULT_REGISTRY.chain(destination.id)
        expected = {
            "version": 1,
            "sourceContract": to_word(pinned_source.family, pinned_source.gateway_wallet),
            "destinationContract": to_word(
                pinned_destination.family, pinned_destination.gateway_minter
            ),
            "sourceToken": to_word(pinned_source.family, pinned_source.usdc),
            "destinationToken": to_word(pinned_destination.family, pinned_destination.usdc),
        }
        wire = spec.to_wire()
        for name, value in expected.items():
            if wire[name] != value:
                raise HTTPError(400, f"{where}.spec.{name} must be {value}")
        if spec.value <= 0:
            raise HTTPError(400, f"{where}.spec.value must be positive")
        if source is _SOLANA:
            # The GatewayWallet program reads them as u64 (InvalidU64HighBytes).
            for name, value in (
                ("maxBlockHeight", intent.max_block_height),
                ("maxFee", intent.max_fee),
                ("spec.value", spec.value),
            ):
                if value > MAX_UINT64:
                    raise HTTPError(400, f"{where}.{name} must fit in a u64 on Solana")
        return source

    @staticmethod
    def _depositor(intent: BurnIntent) -> str:
        """The intent's depositor as the balances name it (folded)."""
        source = _domain_chain(intent.spec.source_domain)
        family = "solana" if source is _SOLANA else "evm"
        return fold(read_word(family, intent.spec.source_depositor) or "")

    @staticmethod
    def _spec_hash(intent: BurnIntent) -> str:
        # Circle's transferSpecHash: keccak256 of the spec's bytes as attested, the hash
        # the GatewayMinter marks used (TransferSpecLib.getHash, evm-gateway-contracts).
        return "0x" + keccak(encode_spec(intent.spec.to_wire())).hex()

    def _fee(self, source: Chain) -> int:
        return source.gateway_min_fee + self._fee_rise

    # ------------------------------------------------------------------ /v1/estimate

    def _estimate(self, request: Request) -> Response:
        body = request.json()
        if not isinstance(body, list) or not body:
            raise HTTPError(400, "the request body must be a non-empty array of burn intents")
        answer = []
        for index, element in enumerate(body):
            where = f"[{index}]"
            if not isinstance(element, dict) or not isinstance(element.get("spec"), dict):
                raise HTTPError(400, f"{where}: each element needs a spec")
            filled = {"maxBlockHeight": "0", "maxFee": "0", **element}
            intent = self._intent(filled, where)
            source = self._source(intent, where)
            fee = self._fee(source)
            spec = intent.spec.to_wire()
            # The live API may shorten bytes32 addresses to 20 bytes in its answer (EVM
            # ones: a Solana account fills its 32).
            for name in _ADDRESS_FIELDS:
                if not spec[name][2:26].strip("0"):
                    spec[name] = "0x" + spec[name][-40:]
            height = self.height(source.id) + _EXPIRATION_MARGIN + 100
            answer.append(
                {
                    "burnIntent": {
                        "maxBlockHeight": str(height),
                        "maxFee": str(fee),
                        "spec": spec,
                    },
                    "fees": self._fees_json([(source, fee, self._spec_hash(intent))], False),
                }
            )
        if self._fee_rises:
            self._fee_rise += self._fee_rises.pop(0)
        return Response.json(answer)

    def _fees_json(self, charged: list[tuple[Chain, int, str]], forwarding: bool) -> dict[str, Any]:
        total = sum(fee for _, fee, _ in charged) + (self.forwarding_fee if forwarding else 0)
        fees: dict[str, Any] = {
            "total": _usdc(total),
            "token": "USDC",
            "perIntent": [
                {
                    "transferSpecHash": spec_hash,
                    "domain": chain.gateway_domain,
                    "baseFee": _usdc(fee),
                    "transferFee": "0",
                }
                for chain, fee, spec_hash in charged
            ],
        }
        if forwarding:
            fees["forwardingFee"] = _usdc(self.forwarding_fee)
        return fees

    # ------------------------------------------------------------------ /v1/transfer

    def _element(self, element: Any, where: str) -> tuple[list[BurnIntent], str, bool]:
        if not isinstance(element, dict) or not isinstance(element.get("signature"), str):
            raise HTTPError(400, f"{where}: each element needs a signature")
        if "burnIntent" in element:
            return (
                [self._intent(element["burnIntent"], f"{where}.burnIntent")],
                element["signature"],
                False,
            )
        intents = (element.get("burnIntentSet") or {}).get("intents")
        if not isinstance(intents, list) or not intents or len(intents) > MAX_INTENTS_PER_SET:
            raise HTTPError(
                400, f"{where}: burnIntentSet.intents must hold 1 to {MAX_INTENTS_PER_SET} intents"
            )
        parsed = [
            self._intent(item, f"{where}.burnIntentSet.intents[{i}]")
            for i, item in enumerate(intents)
        ]
        if any(_domain_chain(intent.spec.source_domain) is _SOLANA for intent in parsed):
            # Circle's Solana guide: "BurnIntentSets originating from Solana are not
            # supported. Each transfer from Solana must be specified as a separate
            # signed BurnIntent."
            raise HTTPError(
                400, f"{where}: BurnIntentSets originating from Solana are not supported"
            )
        return parsed, element["signature"], True

    def _check_signer(self, intents: list[BurnIntent], signature: str, as_set: bool) -> None:
        if not as_set and _domain_chain(intents[0].spec.source_domain) is _SOLANA:
            self._check_solana_signer(intents[0], signature)
            return
        try:
            wire = [intent.to_wire() for intent in intents]
            if as_set:
                signer = recover_burn_intent_set(wire, signature)
            else:
                signer = recover_burn_intent(wire[0], signature)
        except ValueError:
            raise HTTPError(400, "Invalid signature") from None
        for intent in intents:
            spec = intent.spec
            if spec.source_signer != address_to_bytes32(signer):
                raise HTTPError(400, _BAD_SIGNATURE)
            delegates = self._delegates.get(self._depositor(intent), set())
            if spec.source_signer != spec.source_depositor and signer.lower() not in delegates:
                raise HTTPError(400, "sourceSigner is not authorized for sourceDepositor")

    def _check_solana_signer(self, intent: BurnIntent, signature: str) -> None:
        try:
            check_solana_burn_intent(intent.to_wire(), signature)
        except ValueError:
            raise HTTPError(400, _BAD_SIGNATURE) from None
        spec = intent.spec
        signer = encode(bytes.fromhex(spec.source_signer[2:]))
        delegates = self._delegates.get(self._depositor(intent), set())
        if spec.source_signer != spec.source_depositor and signer not in delegates:
            raise HTTPError(400, "sourceSigner is not authorized for sourceDepositor")

    def _transfer(self, request: Request) -> Response:
        body = request.json()
        if not isinstance(body, list) or not body:
            raise HTTPError(400, "the request body must be a non-empty array")
        forwarding = request.arg("enableForwarder") == "true"
        intents: list[BurnIntent] = []
        for index, element in enumerate(body):
            found, signature, as_set = self._element(element, f"[{index}]")
            self._check_signer(found, signature, as_set)
            intents += found
        now = self._world.now()
        charged: list[tuple[Chain, int, str]] = []
        debits: list[tuple[str, Chain, int, int]] = []
        needed: defaultdict[tuple[str, int], int] = defaultdict(int)
        for index, intent in enumerate(intents):
            source = self._source(intent, f"intents[{index}]")
            spec_hash = self._spec_hash(intent)
            if spec_hash in self._used_hashes:
                raise HTTPError(400, "transfer spec hash already used")
            if intent.max_block_height < self.height(source.id) + _EXPIRATION_MARGIN:
                raise HTTPError(400, "maxBlockHeight is too low")
            fee = self._fee(source)
            if intent.max_fee < fee:
                raise HTTPError(
                    400,
                    f"Insufficient max fee: expected at least {_usdc(fee)}, "
                    f"got {_usdc(intent.max_fee)}",
                )
            depositor = self._depositor(intent)
            needed[(depositor, source.id)] += intent.spec.value + intent.max_fee
            charged.append((source, fee, spec_hash))
            debits.append((depositor, source, intent.spec.value, fee))
        for (depositor, chain_id), amount in needed.items():
            available = self.balance(depositor, chain_id)
            if amount > available:
                name = self._chain(chain_id).display_name
                raise HTTPError(
                    400,
                    f"Insufficient balance on {name}: available "
                    f"{_usdc(max(available, 0))} USDC, needed {_usdc(amount)} USDC "
                    "(value + maxFee of its burn intents)",
                )
        destination = _domain_chain(intents[0].spec.destination_domain)
        assert destination is not None  # checked by _source
        if len({intent.spec.destination_domain for intent in intents}) != 1:
            raise HTTPError(400, "every burn intent of a transfer must share its destinationDomain")
        if destination is _SOLANA and len({i.spec.destination_caller for i in intents}) != 1:
            # A Solana attestation names one destination caller for all it mints.
            raise HTTPError(400, "burn intents to Solana must share their destinationCaller")
        self._used_hashes.update(spec_hash for _, _, spec_hash in charged)
        timeline = Timeline().then(now, status="pending")
        fate = self._fates.take()
        if self.timings.mint is None:
            pass  # pending until report_mint
        elif fate is None:
            self._confirm(timeline, now + self.timings.mint, self._world.tx_hash(), destination)
        else:
            timeline.then(now + self.timings.mint, status=fate)
        transfer_id = str(uuid.UUID(int=self._world.rng.getrandbits(128), version=4))
        # Drawn as before real attestations were made, so seeded sessions stay the same.
        self._world.hex(96 * len(intents) + 65)
        expiration_block = self.height(destination.id) + _ATTESTATION_BLOCKS
        if destination is _SOLANA:
            payload = encode_solana_attestation(
                expiration_block, [intent.spec.to_wire() for intent in intents]
            )
        else:
            payload = encode_attestation(
                [(expiration_block, intent.spec.to_wire()) for intent in intents]
            )
        transfer = _Transfer(
            id=transfer_id,
            debits=debits,
            destination=destination,
            intents=intents,
            spec_hashes=[spec_hash for _, _, spec_hash in charged],
            created_at=now,
            timeline=timeline,
            attestation="0x" + payload.hex(),
            signature=sign_attestation(payload),
            expiration_block=expiration_block,
            forwarding=forwarding,
        )
        self._transfers[transfer.id] = transfer
        return Response.json(
            {
                "transferId": transfer.id,
                "attestation": transfer.attestation,
                "signature": transfer.signature,
                "fees": self._fees_json(charged, forwarding),
                "expirationBlock": str(transfer.expiration_block),
            },
            201,
        )

    def _confirm(self, timeline: Timeline, at: float, tx_hash: str, destination: Chain) -> None:
        timeline.then(at, status="confirmed", transactionHash=tx_hash)
        final = self.timings.finality.get(destination.id, 0.0)
        timeline.then(at + final, status="finalized")

    def report_mint(self, transfer_id: str, tx_hash: str) -> None:
        """Tell the emulated Gateway that the transfer's ``gatewayMint`` was mined in
        transaction ``tx_hash`` (as Gateway learns it from the chain): it is
        ``confirmed`` now, with that ``transactionHash``, then ``finalized`` after the
        destination's finality. For transfers made with ``timings.mint = None``.

        Raises:
            ValueError: no such transfer, or one already minted or over.
        """
        transfer = self._transfers.get(str(transfer_id))
        if transfer is None:
            raise ValueError(f"no transfer {transfer_id}")
        now = self._world.now()
        if transfer.timeline.at(now)["status"] != "pending":
            raise ValueError(f"transfer {transfer_id} is not pending")
        self._confirm(transfer.timeline, now, tx_hash, transfer.destination)

    def _get_transfer(self, request: Request) -> Response:
        raw = request.path_params["id"]
        try:
            transfer_id = str(uuid.UUID(raw))
        except ValueError:
            raise HTTPError(400, "id must be a UUID") from None
        transfer = self._transfers.get(transfer_id)
        if transfer is None:
            raise HTTPError(404, f"Transfer {transfer_id} not found")
        state = transfer.timeline.at(self._world.now())
        record: dict[str, Any] = {
            "destinationDomain": transfer.destination.gateway_domain,
            "status": state["status"],
            "burnIntents": [
                {
                    "transferSpecHash": spec_hash,
                    "maxBlockHeight": str(intent.max_block_height),
                    "maxFee": str(intent.max_fee),
                }
                for intent, spec_hash in zip(transfer.intents, transfer.spec_hashes, strict=True)
            ],
            "forwardingDetails": {"forwardingEnabled": transfer.forwarding},
            "fees": self._fees_json(
                [
                    (chain, fee, spec_hash)
                    for (_, chain, _, fee), spec_hash in zip(
                        transfer.debits, transfer.spec_hashes, strict=True
                    )
                ],
                transfer.forwarding,
            ),
            "attestation": {
                "payload": transfer.attestation,
                "signature": transfer.signature,
                "expirationBlock": str(transfer.expiration_block),
            },
        }
        if state.get("transactionHash"):
            record["transactionHash"] = state["transactionHash"]
        if state["status"] == "failed" and transfer.forwarding:
            record["forwardingDetails"]["failureReason"] = "mint reverted (sandbox)"
        return Response.json(record)
