"""Models of Circle Gateway's API: what it answers, and the balance request.

Answers are read tolerantly (`WireModel`: unknown fields are kept, statuses are an open
set) but the fields Circle's reference lists in every answer are required, so an answer
without them is a `ResponseValidationError` rather than a silent ``None``: ``version``
and ``domains`` of ``/v1/info`` with each domain's contracts and heights, ``token`` and
``balances`` of ``/v1/balances`` with each entry's domain, depositor and balance,
``transferId``, ``attestation`` and ``signature`` of ``/v1/transfer``, and the
``status`` of ``/v1/transfer/{id}``. Fields that appear only in some answers (fees,
forwarding details, the mint's transaction hash) are optional.

Amounts in these answers are decimal USDC strings (``"1.000000"``), unlike burn intents,
whose ``value`` and ``maxFee`` are smallest units. The models read them exactly into
``int`` smallest units (`xswap_sdk.types.UsdcUnits`: ``"1.500000"`` is ``1500000``), the
one unit of every amount in the SDK, and write them back as decimal strings in JSON;
`xswap_sdk.types.format_amount` shows them to people.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Final, Literal, overload

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, PrivateAttr, StringConstraints

from .._base58 import fold, is_solana_key
from .._models import LenientAddress, LenientInt, RequestModel, WireModel
from ..errors import InvalidInputError
from ..registry import Registry
from ..signing._fields import Uint32
from ..simulation import Simulation
from ..types import Address, UsdcUnits, to_checksum
from ._info import ContractInfo, DomainInfo, GatewayInfo

if TYPE_CHECKING:
    from solders.instruction import Instruction

    from ..signing.attestations import ExpectedIntents
    from ..signing.burn_intents import BurnIntent
    from ..signing.calls import ContractCall
    from ..signing.solana_programs import SolanaKey

__all__ = [
    "TERMINAL_TRANSFER_STATES",
    "AttestationDetails",
    "BalanceSource",
    "BalancesRequest",
    "ContractInfo",
    "DomainBalance",
    "DomainInfo",
    "EstimatedBurnIntent",
    "EstimatedBurnIntentSet",
    "EstimatedTransfer",
    "ForwardingDetails",
    "GatewayBalances",
    "GatewayInfo",
    "IntentFee",
    "MintResult",
    "RecoveredTransfer",
    "TransferDetails",
    "TransferFees",
    "TransferIntentSummary",
    "TransferResult",
    "TransferState",
]

TransferState = Literal["pending", "confirmed", "finalized", "failed", "expired"]
"""A transfer's documented states: ``pending`` (attested, not yet minted), ``confirmed``
(minted on the destination chain), ``finalized`` (that mint is final), ``failed`` (on
chain or while forwarding) and ``expired`` (the attestation was not used in time).
Fields typed ``TransferState | str`` accept states Circle may add."""

TERMINAL_TRANSFER_STATES: Final = frozenset({"finalized", "failed", "expired"})

TokenSymbol = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9]{1,16}$")]
"""A token as Gateway names it (``"USDC"``)."""


# ------------------------------------------------------------------------------ /v1/balances


def _depositor(value: object) -> str:
    # A Solana key goes as it is (base58: Gateway's canonical form of a Solana address);
    # anything else must be an EVM address, sent checksummed.
    return value if isinstance(value, str) and is_solana_key(value) else to_checksum(value)


Depositor = Annotated[str, BeforeValidator(_depositor)]
"""A depositor as Gateway's API takes it: an EVM address (checksummed) or a Solana key
(base58, as it is)."""


class BalanceSource(RequestModel):
    """One ``{depositor, domain}`` of a balances request; without ``domain``, every
    domain where the depositor is valid."""

    depositor: Depositor
    """The address whose deposits to count: an EVM address, or a Solana key in base58
    (on Solana's domain, 5)."""
    domain: Uint32 | None = None
    """A Gateway domain number; ``None`` for every domain."""


class BalancesRequest(RequestModel):
    """The body of ``POST /v1/balances``."""

    token: TokenSymbol = "USDC"
    """The token to count, as Gateway names it."""
    sources: list[BalanceSource] = Field(min_length=1)
    """Whose balances to read, and where; at least one."""


class DomainBalance(WireModel):
    """A depositor's available balance on one domain."""

    domain: LenientInt
    """The Gateway domain number."""
    depositor: LenientAddress
    """The address whose deposits these are (checksummed; a Solana key in base58)."""
    balance: UsdcUnits
    """In smallest USDC units (``1500000`` is 1.5 USDC; Gateway sends ``"1.500000"``)."""
    withdrawing: UsdcUnits | None = None
    """Being withdrawn (waiting out the withdrawal delay), in smallest USDC units;
    ``None`` when Gateway does not say."""
    withdrawable: UsdcUnits | None = None
    """Withdrawable now, in smallest USDC units: 0, or all of ``withdrawing`` once the
    withdrawal delay has passed (as the GatewayWallet's ``withdrawableBalance``);
    ``None`` when Gateway does not say."""

    @property
    def balance_units(self) -> int:
        """The same as `balance`, which is in smallest units too (kept from 0.1)."""
        return self.balance


class GatewayBalances(WireModel):
    """What ``POST /v1/balances`` returns: the available balance per domain.

    Available means spendable by burn intents: deposits count once Gateway has seen
    them in a finalized block, and amounts being withdrawn do not count.
    """

    token: str
    """The token counted (``"USDC"``)."""
    balances: list[DomainBalance]
    """One entry per depositor and domain asked about."""

    def for_domain(self, domain: int, depositor: str | None = None) -> DomainBalance | None:
        """The entry of ``domain`` (and ``depositor``, when given), or ``None``."""
        for entry in self.balances:
            if entry.domain != domain:
                continue
            if depositor is None or fold(entry.depositor) == fold(depositor):
                return entry
        return None

    @property
    def total(self) -> int:
        """Every entry's balance added up, in smallest USDC units."""
        return sum(entry.balance for entry in self.balances)

    @property
    def total_units(self) -> int:
        """The same as `total`, which is in smallest units too (kept from 0.1)."""
        return self.total

    def _repr_html_(self) -> str:
        from .. import _html  # lazy: a notebook's display only

        return _html.gateway_balances_html(self)  # how a notebook shows it


# ------------------------------------------------------------------------------ fees


class IntentFee(WireModel):
    """The fee of one burn intent of a transfer."""

    transfer_spec_hash: str | None = None
    """The keccak-256 hash of the intent's transfer spec, ``0x`` hex: which intent this is."""
    domain: LenientInt | None = None
    """The intent's source domain."""
    base_fee: UsdcUnits | None = None
    """In smallest USDC units (Gateway sends decimal USDC)."""
    transfer_fee: UsdcUnits | None = None
    """In smallest USDC units (Gateway sends decimal USDC)."""


class TransferFees(WireModel):
    """What a transfer costs (Gateway sends decimal USDC; read as smallest units)."""

    total: UsdcUnits
    """The whole fee, in smallest USDC units."""
    token: str
    """The fee's token (``USDC``)."""
    per_intent: list[IntentFee] = Field(default_factory=list)
    """The fee of each burn intent."""
    forwarding_fee: UsdcUnits | None = None
    """Charged when Gateway's forwarder mints for you (``enable_forwarder``), in smallest
    USDC units."""

    @property
    def total_units(self) -> int:
        """The same as `total`, which is in smallest units too (kept from 0.1)."""
        return self.total


# ------------------------------------------------------------------------------ /v1/estimate


class EstimatedBurnIntent(WireModel):
    """A burn intent as ``/v1/estimate`` returns it: with the ``maxFee`` and
    ``maxBlockHeight`` Gateway would accept now.

    ``spec`` is kept as sent (Gateway may shorten bytes32 addresses to 20 bytes in it).
    Take only the fee and the height from it: `xswap_sdk.gateway.apply_estimate` copies
    them into your own intent after checking that the spec is yours.
    """

    max_block_height: LenientInt
    """The last source block at which the intent may be spent, as Gateway would accept it
    now."""
    max_fee: LenientInt
    """In smallest USDC units."""
    spec: dict[str, Any]
    """The transfer spec as Gateway sent it back (wire names, not checked)."""


class EstimatedBurnIntentSet(WireModel):
    """A burn intent set as ``/v1/estimate`` returns it."""

    intents: list[EstimatedBurnIntent]
    """Its intents, in the order they were sent."""


class EstimatedTransfer(WireModel):
    """One element of the ``/v1/estimate`` answer: the estimated intent (or set), and
    the fees when Gateway states them."""

    burn_intent: EstimatedBurnIntent | None = None
    """The estimated intent, when a single intent was sent."""
    burn_intent_set: EstimatedBurnIntentSet | None = None
    """The estimated set, when a burn intent set was sent."""
    fees: TransferFees | None = None
    """What the transfer would cost, when Gateway states it."""

    @property
    def intents(self) -> list[EstimatedBurnIntent]:
        """The estimated intents of this element, whichever form it came in."""
        if self.burn_intent is not None:
            return [self.burn_intent]
        return list(self.burn_intent_set.intents) if self.burn_intent_set else []


def _estimate_list(value: Any) -> Any:
    # Circle's reference shows the answer both as a bare array and wrapped in "body".
    if isinstance(value, dict) and isinstance(value.get("body"), list):
        return value["body"]
    return value


EstimateAnswer = Annotated[list[EstimatedTransfer], BeforeValidator(_estimate_list)]
"""The ``/v1/estimate`` answer: a list, bare or in ``{"body": [...]}``."""


# ------------------------------------------------------------------------------ /v1/transfer


class MintResult(BaseModel):
    """What ``GatewayClient.mint`` (or ``send_transfer`` with ``web3``) sent: the
    ``gatewayMint`` transaction of a transfer's attestation, which succeeded."""

    model_config: ClassVar[ConfigDict] = ConfigDict(frozen=True, defer_build=True)

    transfer_id: str
    """Gateway's id of the transfer that was minted."""
    chain_id: int
    """The destination chain it was minted on."""
    tx_hash: str
    """The mint's transaction hash, ``0x`` hex (Gateway's ``transaction_hash`` when a
    resume found the transfer minted there)."""
    simulation: Simulation | None = None
    """The mint's simulation (the attested recipients paid), or ``None`` when it was not
    simulated (``simulate=False``, a node without ``eth_simulateV1``, or a resume that
    found the mint already sent)."""
    journey_id: str | None = None
    """The journey the mint was written to (the transfer's, or a ``mint`` journey of its
    own), or ``None`` without a journal."""


class RecoveredTransfer(BaseModel):
    """What ``GatewayClient.recover_transfer`` did with a stuck transfer: minted it now,
    or found it minted already, once every attested transfer was checked to pay
    ``recipient`` in native USDC on its pinned destination chain."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    transfer_id: str
    """Gateway's id of the transfer."""
    chain_id: int
    """Its destination chain."""
    recipient: Address
    """Who the attested transfers pay (checked)."""
    value: int
    """What they pay in all, in smallest USDC units (before any fee taken at the
    destination: the attested values are minted as they are)."""
    status: str
    """Gateway's status of the transfer when it was read (``pending``, ``failed`` for a
    forwarding that failed, ``confirmed``...)."""
    minted_already: bool
    """Whether the destination's GatewayMinter had minted it already (read on the chain:
    ``isTransferSpecHashUsed``), so nothing was sent."""
    tx_hash: str | None = None
    """The mint's transaction hash: the one sent now, or when it was minted already the
    one Gateway names (``None`` when Gateway names none)."""
    simulation: Simulation | None = None
    """The simulation of the mint sent now, or ``None`` (not simulated, or nothing
    sent)."""
    journey_id: str | None = None
    """The ``call`` journey the mint was written to, or ``None`` without a journal (or
    when nothing was sent)."""


class TransferResult(WireModel):
    """What ``POST /v1/transfer`` returns: the attestation to mint with.

    Mint it on the destination chain with `mint_call` (``gatewayMint`` on the
    registry's GatewayMinter, after checking the attestation is the transfer that was
    signed), before ``expiration_block``; follow it with
    ``GatewayClient.wait_for_transfer(result.transfer_id)``.
    """

    transfer_id: str
    """Gateway's id of the transfer, for `GatewayClient.get_transfer`."""
    attestation: str
    """The attestation payload, ``0x`` hex."""
    signature: str = Field(repr=False)
    """Gateway's signature over the attestation, ``0x`` hex."""
    fees: TransferFees | None = None
    """What the transfer costs, when Gateway states it."""
    expiration_block: LenientInt | None = None
    """The destination block after which the attestation can no longer be minted."""

    _intents: tuple[BurnIntent, ...] = PrivateAttr(default=())
    _mint: MintResult | None = PrivateAttr(default=None)

    @property
    def mint(self) -> MintResult | None:
        """The mint ``GatewayClient.send_transfer`` sent with its ``web3``, or ``None``
        (the transfer is attested and yours to mint)."""
        return self._mint

    @property
    def intents(self) -> tuple[BurnIntent, ...]:
        """The burn intents this result attests, as sent (empty for a result rebuilt by
        hand: see `with_intents`)."""
        return self._intents

    def with_intents(self, intents: ExpectedIntents) -> TransferResult:
        """This result, remembering the burn intents it attests, for `mint_call`.

        ``GatewayClient.transfer`` does this with what it sent; call it on a result you
        rebuilt yourself (``TransferResult.model_validate(saved)``).

        Raises:
            InvalidInputError: ``intents`` are not burn intents.
        """
        from ..signing.attestations import expected_intents  # lazy: signing code

        copy = self.model_copy()
        copy._intents = tuple(expected_intents(intents))
        return copy

    @overload
    def mint_call(
        self,
        chain_id: int,
        *,
        intents: ExpectedIntents | None = None,
        registry: Registry | None = None,
        payer: None = None,
        destination_caller: None = None,
    ) -> ContractCall: ...

    @overload
    def mint_call(
        self,
        chain_id: int,
        *,
        intents: ExpectedIntents | None = None,
        registry: Registry | None = None,
        payer: SolanaKey,
        destination_caller: SolanaKey | None = None,
    ) -> Instruction: ...

    def mint_call(
        self,
        chain_id: int,
        *,
        intents: ExpectedIntents | None = None,
        registry: Registry | None = None,
        payer: SolanaKey | None = None,
        destination_caller: SolanaKey | None = None,
    ) -> ContractCall | Instruction:
        """The mint of this attestation, once it is checked to mint exactly the burn
        intents signed for it (see `xswap_sdk.signing.gateway_mint_call`): the
        ``gatewayMint(attestation, signature)`` call on an EVM chain's GatewayMinter,
        from `xswap_sdk.registry`; on Solana (``mint_call(SOLANA, payer=...)``), the
        GatewayMinter program's ``gateway_mint`` as a solders ``Instruction``.

        Args:
            chain_id: the destination chain of the transfer's burn intents.
            intents: the burn intents signed for this transfer; by default those
                ``GatewayClient.transfer`` sent (or `with_intents` gave).
            registry: the pinned chains; the default registry when not given.
            payer: Solana only, and required there: who signs and pays for the mint
                (base58, or a ``Pubkey``).
            destination_caller: Solana only: the mint's second signer (the ``payer``
                when not given); the intents' ``destinationCaller`` when they name one.

        Raises:
            InvalidInputError: no ``intents`` are known (a result built by hand), or
                they are for another destination chain; ``payer`` missing on Solana or
                given on EVM.
            UnsafePayloadError: the attestation mints anything else than those intents
                (another recipient, value, chain or token), does not decode, or its
                signature is not 65 bytes; or the registry does not know ``chain_id``.
            MissingDependencyError: a mint on Solana without the ``solana`` extra.
        """
        from ..signing.gateway_wallet import gateway_mint_call  # lazy: signing code

        if intents is None:
            if not self._intents:
                raise InvalidInputError(
                    "intents",
                    "required: the burn intents signed for this transfer (this result "
                    "did not come from GatewayClient.transfer; see with_intents)",
                )
            intents = list(self._intents)
        if payer is None and destination_caller is None:
            return gateway_mint_call(
                chain_id=chain_id,
                attestation=self.attestation,
                signature=self.signature,
                intents=intents,
                registry=registry,
            )
        if payer is None:
            raise InvalidInputError("payer", "is required with destination_caller (Solana)")
        return gateway_mint_call(
            chain_id=chain_id,
            attestation=self.attestation,
            signature=self.signature,
            intents=intents,
            registry=registry,
            payer=payer,
            destination_caller=destination_caller,
        )


# ------------------------------------------------------------------------------ /v1/transfer/{id}


class TransferIntentSummary(WireModel):
    """A burn intent of a transfer, as ``GET /v1/transfer/{id}`` summarises it."""

    transfer_spec_hash: str | None = None
    """The keccak-256 hash of the intent's transfer spec, ``0x`` hex."""
    max_block_height: LenientInt | None = None
    """The last source block at which the intent could be spent."""
    max_fee: LenientInt | None = None
    """The most fee the intent allowed, in smallest USDC units."""


class ForwardingDetails(WireModel):
    """Whether Gateway's forwarder mints the transfer, and why it failed if it did."""

    forwarding_enabled: bool | None = None
    """Whether Gateway's forwarder mints the transfer on the destination chain."""
    failure_reason: str | None = None
    """Why forwarding failed, if it did."""


class AttestationDetails(WireModel):
    """A transfer's attestation, as ``GET /v1/transfer/{id}`` returns it."""

    payload: str | None = None
    """The attestation payload, ``0x`` hex."""
    signature: str | None = Field(default=None, repr=False)
    """Gateway's signature over the payload, ``0x`` hex."""
    expiration_block: LenientInt | None = None
    """The destination block after which the attestation can no longer be minted."""


class TransferDetails(WireModel):
    """A transfer's record (``GET /v1/transfer/{id}``)."""

    status: TransferState | str
    """Where the transfer is (see `TransferState`); a state Circle adds is kept as is."""
    destination_domain: LenientInt | None = None
    """The Gateway domain the transfer mints on."""
    burn_intents: list[TransferIntentSummary] = Field(default_factory=list)
    """The burn intents it spends."""
    transaction_hash: str | None = None
    """The mint on the destination chain, once there is one."""
    forwarding_details: ForwardingDetails | None = None
    """Whether Gateway's forwarder mints it, and why that failed if it did."""
    fees: TransferFees | None = None
    """What the transfer costs, when Gateway states it."""
    attestation: AttestationDetails | None = None
    """The attestation to mint with, once Gateway has issued it."""

    @property
    def is_terminal(self) -> bool:
        """Whether the status is finalized, failed or expired."""
        return self.status in TERMINAL_TRANSFER_STATES
