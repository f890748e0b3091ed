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

from ..errors import InvalidInputError
from ..signing import (
    MAX_INTENTS_PER_SET,
    BurnIntent,
    address_to_bytes32,
)
from ..signing.burn_intents import as_intent
from ..types import Address, ChainId, TokenAmount, from_units
from ._attestation import encode_attestation, encode_spec, sign_attestation
from ._catalog import CHAINS, GATEWAY_MINTER, GATEWAY_WALLET, Chain, usdc
from ._http import HTTPError, Request, Response, Service, checked
from ._nanopayments import NanopaymentsRoutes, X402Transfer
from ._oracle import recover_burn_intent, recover_burn_intent_set
from ._world import OutcomeQueue, Timeline, World, iso
from .flash import FLASH_CHAINS, FlashService

__all__ = ["GatewayService", "GatewayTimings", "X402Transfer"]

_BAD_SIGNATURE = "Invalid signature: recovered signer does not match sourceSigner"
_BLOCK_SECONDS: Final = {1: 12.0, 8453: 2.0, 42161: 0.25}
_START_HEIGHTS: Final = {1: 21_000_000, 8453: 25_000_000, 42161: 300_000_000}
# How far above the processed height a burn intent must expire (Gateway's
# burnIntentExpirationHeight), and how long an attestation stays mintable.
_EXPIRATION_MARGIN: Final = 30
_ATTESTATION_BLOCKS: Final = 10_000
_ADDRESS_FIELDS: Final = (
    "sourceContract",
    "destinationContract",
    "sourceToken",
    "destinationToken",
    "sourceDepositor",
    "destinationRecipient",
    "sourceSigner",
    "destinationCaller",
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
    finality: dict[int, float] = field(
        default_factory=lambda: dict.fromkeys(_BLOCK_SECONDS, 1200.0)
    )


@dataclass
class _Transfer:
    id: str
    debits: list[tuple[str, Chain, int, int]]  # depositor (lower case), chain, value, fee
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
    return next((chain for chain in FLASH_CHAINS if chain.gateway_domain == domain), None)


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
        self.timings = GatewayTimings()
        self.deposit_finality: dict[int, float] = dict.fromkeys(_BLOCK_SECONDS, 1200.0)
        self.forwarding_fee = 210_000
        self._deposits: list[_Deposit] = []
        self._transfers: dict[str, _Transfer] = {}
        self._used_hashes: set[str] = set()
        # Lower-case depositor -> lower-case delegates.
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
        chain = CHAINS.get(checked_id)
        if chain is None or chain.gateway_domain is None:
            raise HTTPError(400, f"chain {checked_id} is not served")
        return chain

    def height(self, chain_id: int, at: float | None = None) -> int:
        """The block height Gateway has processed on ``chain_id`` now (or ``at``)."""
        moment = self._world.now() if at is None else at
        elapsed = max(0.0, moment - self._started)
        return _START_HEIGHTS[chain_id] + int(elapsed / _BLOCK_SECONDS[chain_id])

    def deposit(self, address: str, chain_id: int, amount: int | str) -> float:
        """Deposit ``amount`` USDC (smallest units) for ``address`` on ``chain_id``, as a
        ``depositWithPermit`` or ``depositWithAuthorization`` mined now would.

        The swap backend emulator counts it at once; Gateway's balances once
        ``deposit_finality`` has passed.

        Returns:
            The clock time (``time()``) at which Gateway counts it.

        Raises:
            ValueError: a bad address or amount, or a chain Gateway does not serve here.
        """
        try:
            owner: str = checked("address", Address, address)
            chain = self._chain(chain_id)
            units: int = checked("amount", TokenAmount, amount)
        except HTTPError as exc:
            raise ValueError(exc.message) from None
        if units == 0:
            raise ValueError("amount must be positive (DepositValueMustBePositive)")
        self._flash.fund(owner, chain.id, units)
        final_at = self._world.now() + self.deposit_finality.get(chain.id, 0.0)
        deposit = _Deposit(
            owner, chain.id, units, final_at, self._world.now(), self._world.tx_hash()
        )
        self._deposits.append(deposit)
        return final_at

    def add_delegate(self, depositor: str, delegate: str) -> None:
        """Let ``delegate`` sign burn intents for ``depositor``'s balance, as
        ``addDelegate`` does on chain (on every chain of the sandbox)."""
        owner: str = checked("depositor", Address, depositor)
        added: str = checked("delegate", Address, delegate)
        self._delegates[owner.lower()].add(added.lower())

    def remove_delegate(self, depositor: str, delegate: str) -> None:
        """Stop ``delegate`` from signing for ``depositor``'s balance."""
        owner: str = checked("depositor", Address, depositor)
        removed: str = checked("delegate", Address, delegate)
        self._delegates[owner.lower()].discard(removed.lower())

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
        units: the swap backend's, less deposits not final yet and live transfers."""
        owner: str = checked("address", Address, address)
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
            if depositor == owner.lower() and chain.id == chain_id
        )
        paid = sum(
            t.amount
            for t in self.x402_transfers.values()
            if t.payer.lower() == owner.lower() and t.chain_id == chain_id
        )
        return self._flash.balance(owner, chain_id) - pending - transferred - paid

    @property
    def transfer_ids(self) -> list[str]:
        """The ids of every accepted transfer, oldest first."""
        return list(self._transfers)

    # ------------------------------------------------------------------ /v1/info

    def _contract(self, address: str) -> dict[str, Any]:
        return {"address": address, "supportedTokens": ["USDC"]}

    def _info(self, request: Request) -> Response:
        domains = []
        for chain in FLASH_CHAINS:
            height = self.height(chain.id)
            domains.append(
                {
                    "chain": chain.display_name,
                    "network": "Mainnet",
                    "domain": chain.gateway_domain,
                    "walletContract": self._contract(GATEWAY_WALLET),
                    "minterContract": self._contract(GATEWAY_MINTER),
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
            owner: str = checked(f"sources[{index}].depositor", Address, source["depositor"])
            if source.get("domain") is None:
                chains = list(FLASH_CHAINS)
            else:
                chain = _domain_chain(source["domain"])
                if chain is None or isinstance(source["domain"], bool):
                    raise HTTPError(400, f"sources[{index}].domain is not supported")
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
                "amount": _decimal_balance(d.amount),
                "status": "pending",
                "blockHeight": str(self.height(chain.id, d.made_at)),
                "blockHash": "0x" + keccak(d.transaction_hash.encode()).hex(),
                "blockTimestamp": iso(d.made_at),
            }
            for d in self._deposits
            if d.owner == owner and d.chain_id == chain.id and d.final_at > now
        ]

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
        expected = {
            "version": 1,
            "sourceContract": address_to_bytes32(GATEWAY_WALLET),
            "destinationContract": address_to_bytes32(GATEWAY_MINTER),
            "sourceToken": address_to_bytes32(usdc(source.id).address),
            "destinationToken": address_to_bytes32(usdc(destination.id).address),
        }
        wire = spec.to_wire()
        for name, value in expected.items():
            if wire[name] != value:
                raise HTTPError(400, f"{where}.spec.{name} must be {value}")
        if spec.value <= 0:
            raise HTTPError(400, f"{where}.spec.value must be positive")
        return source

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
            # The live API may shorten bytes32 addresses to 20 bytes in its answer.
            for name in _ADDRESS_FIELDS:
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
        return parsed, element["signature"], True

    def _check_signer(self, intents: list[BurnIntent], signature: str, as_set: bool) -> None:
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
            depositor = "0x" + spec.source_depositor[-40:]
            delegates = self._delegates.get(depositor, set())
            if spec.source_signer != spec.source_depositor and signer.lower() not in delegates:
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
            depositor = "0x" + intent.spec.source_depositor[-40:]
            needed[(depositor, source.id)] += intent.spec.value + intent.max_fee
            charged.append((source, fee, spec_hash))
            debits.append((depositor, source, intent.spec.value, fee))
        for (depositor, chain_id), amount in needed.items():
            available = self.balance(depositor, chain_id)
            if amount > available:
                raise HTTPError(
                    400,
                    f"Insufficient balance on {CHAINS[chain_id].display_name}: available "
                    f"{_usdc(max(available, 0))} USDC, needed {_usdc(amount)} USDC "
                    "(value + maxFee of its burn intents)",
                )
        destination = _domain_chain(intents[0].spec.destination_domain)
        assert destination is not None  # checked by _source
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
