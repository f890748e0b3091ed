"""Circle Gateway's operations as plain data: validate arguments, build `Operation`s and
flows. No I/O; shared by `GatewayClient` and `AsyncGatewayClient`.

Retry decisions, per operation:

- ``POST /v1/transfer`` asks for an attestation that lets the burn go ahead: not
  idempotent, so it is retried only when the request never left this machine.
- ``POST /v1/balances`` and ``POST /v1/estimate`` only read, and are retried per the
  shared policy like the ``GET``s.

Gateway's ``Insufficient max fee: expected at least X`` refusal (HTTP 400) is raised as
`InsufficientMaxFeeError`, with X parsed: `typed_refusals` turns the transport's
`BadRequestError` into it inside the flow.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, Literal, TypeAlias, TypeVar

from pydantic import ValidationError

from .._base58 import is_solana_key, solana_key_bytes
from .._clock import Clock
from .._flow import Begin, Call, Flow, Record
from .._models import check_argument, validate_request
from .._operation import Operation, parser

# Defined with the poller, so that Flash's balance wait reads them without loading
# Gateway's operations (and their signing code).
from .._polling import (
    DEFAULT_BALANCE_POLL_INTERVAL,
    DEFAULT_BALANCE_TIMEOUT,
    check_wait_arguments,
    poll,
    poll_balance,
)
from ..errors import (
    BadRequestError,
    InsufficientMaxFeeError,
    InvalidInputError,
    NotFoundError,
    QuoteRejectedError,
    TransferFailedError,
    UnsafePayloadError,
)
from ..registry import DEFAULT_FEE_CAP_BPS as _DEFAULT_FEE_CAP_BPS
from ..registry import DEFAULT_MAX_FEE, DEFAULT_REGISTRY, GatewayChain, Registry
from ..types import MAX_UINT256, Address
from ._info import GatewayInfo

__all__ = [
    "X402_TRANSFERS_PAGE_SIZE",
    "journaled_intents",
    "transfer_journey",
    "attested",
    "DEFAULT_BALANCE_POLL_INTERVAL",
    "DEFAULT_BALANCE_TIMEOUT",
    "DEFAULT_FEE_CAP_BASE",
    "DEFAULT_FEE_CAP_BPS",
    "DEFAULT_TRANSFER_POLL_INTERVAL",
    "DEFAULT_TRANSFER_TIMEOUT",
    "apply_estimate",
    "build_transfer_intent",
    "domain_of",
    "domain_family",
]

X402_TRANSFERS_PAGE_SIZE: Final = 50
"""The page size asked of the x402 transfer search by default."""

T = TypeVar("T")

DEFAULT_TRANSFER_TIMEOUT: Final = 1800.0
"""Seconds `wait_for_transfer` waits by default for the mint to be final."""

DEFAULT_TRANSFER_POLL_INTERVAL: Final = 5.0
"""Seconds between two reads of a transfer while waiting."""

INFO_PATH: Final = "/v1/info"
BALANCES_PATH: Final = "/v1/balances"
ESTIMATE_PATH: Final = "/v1/estimate"
TRANSFER_PATH: Final = "/v1/transfer"

_ZERO_WORD = "0x" + "00" * 32
_BPS = 10_000
# The swap backend's default cap on a burn intent's fee (flash._trust.default_max_fee_cap)
# reads these too: flash depends on gateway, not the reverse.
DEFAULT_FEE_CAP_BASE: Final = DEFAULT_MAX_FEE
"""The fixed part of the default gateway fee cap, per burn intent: 2.01 USDC
(`xswap_sdk.registry.DEFAULT_MAX_FEE`, where its source is given)."""

DEFAULT_FEE_CAP_BPS: Final = _DEFAULT_FEE_CAP_BPS
"""The proportional part of the default cap, in basis points of the amount swapped
(`xswap_sdk.registry.DEFAULT_FEE_CAP_BPS`)."""

if TYPE_CHECKING:
    from ..signing.burn_intents import BurnIntent, TransferSpec
    from ..signing.signed_intents import SignedBurnIntent, SignedBurnIntentSet
    from .models import (
        BalancesRequest,
        DomainBalance,
        EstimatedBurnIntent,
        EstimatedTransfer,
        GatewayBalances,
        TransferDetails,
        TransferResult,
    )

    Signed: TypeAlias = SignedBurnIntent | SignedBurnIntentSet
    EstimateItem: TypeAlias = BurnIntent | TransferSpec | Mapping[str, Any]


# ------------------------------------------------------------------------------ arguments


def domain_of(chain_id: object, *, registry: Registry, testnet: bool) -> int:
    """The Gateway domain of ``chain_id``, from the registry, on this client's network.

    Raises:
        InvalidInputError: not a chain id, or a chain of the other network (a testnet
            chain on a mainnet client, or the reverse).
        UnsafePayloadError: the registry does not know the chain.
    """
    if isinstance(chain_id, bool) or not isinstance(chain_id, int) or chain_id < 1:
        raise InvalidInputError("chain_id", "must be a positive int")
    chain = registry.chain(chain_id)
    if chain.testnet != testnet:
        wanted, other = ("testnet", "mainnet") if chain.testnet else ("mainnet", "testnet")
        raise InvalidInputError(
            "chain_id",
            f"{chain.name} ({chain_id}) is a {wanted} chain and this client talks to "
            f"Gateway's {other} API: use GatewayClient(testnet={chain.testnet})",
        )
    return chain.domain


def build_transfer_intent(
    *,
    source_chain_id: int,
    destination_chain_id: int,
    depositor: str,
    recipient: str,
    value: int | str,
    source_signer: str | None = None,
    destination_caller: str | None = None,
    max_fee: int | str = DEFAULT_MAX_FEE,
    max_block_height: int | str | None = None,
    hook_data: str | bytes = "0x",
    salt: str | bytes | None = None,
    registry: Registry | None = None,
) -> BurnIntent:
    """A burn intent for a direct Gateway transfer, its contracts and tokens from the
    registry: the source chain's GatewayWallet and USDC, the destination chain's
    GatewayMinter and USDC, and both chains' domains.

    Either chain may be Solana (`xswap_sdk.chains.SOLANA`, Gateway domain 5). Its
    accounts are written in base58: a Solana ``depositor`` (and ``source_signer``) for
    a Solana source; for a Solana destination, ``recipient`` is the owner's **wallet**,
    which the intent pays through its USDC token account (its associated token account,
    derived here; the wallet itself can hold no USDC and a mint to it fails), and an
    owner that cannot have one (an address off the Ed25519 curve: a program-derived
    address or a token account) is refused. That needs the ``solana`` extra.

    Args:
        source_chain_id: the chain whose gateway balance is spent.
        destination_chain_id: the chain the USDC is minted on (the same network).
        depositor: whose balance is spent (``sourceDepositor``); base58 on Solana.
        recipient: who receives the USDC on the destination chain: an address, or on
            Solana the owner's wallet (base58).
        value: smallest USDC units, more than 0 (at most 2**64 - 1 from Solana).
        source_signer: who signs: the depositor (default), or a delegate it added with
            ``addDelegate`` (``add_delegate`` on Solana).
        destination_caller: who may mint the attestation; anyone (zero) by default, so
            a relayer can mint it; the USDC still goes to ``recipient``. An address of
            the destination's family (base58 on Solana).
        max_fee: the most Gateway may charge, in smallest units (default 2.01 USDC;
            see ``GatewayClient.estimate`` and `apply_estimate`).
        max_block_height: the last source block in which it is valid (on Solana, the
            last slot, a u64); by default none: the largest the source accepts
            (2**256 - 1 on EVM, 2**64 - 1 on Solana), which `apply_estimate` lowers to
            Gateway's estimate.
        hook_data: bytes for the destination's hook, ``"0x"`` for none.
        salt: 32 unique bytes; random when not given.
        registry: the pinned chains; `xswap_sdk.registry.DEFAULT_REGISTRY` when not
            given.

    Returns:
        The intent, ready for `sign_burn_intent` (with a `SolanaSigner` for a Solana
        source).

    Raises:
        InvalidInputError: a bad argument, an address of the other family than its
            chain's, a Solana value past a u64, an off-curve Solana owner, or chains of
            two networks.
        UnsafePayloadError: the registry does not know one of the chains.
        MissingDependencyError: a Solana destination without the ``solana`` extra.
    """
    from ..signing._fields import MAX_UINT64, to_word  # lazy: signing code
    from ..signing.burn_intents import build_burn_intent  # lazy: signing code
    from ..signing.solana import check_u64  # lazy: signing code
    from ..signing.solana_programs import usdc_token_account  # lazy: signing code

    pins = DEFAULT_REGISTRY if registry is None else registry
    source = pins.chain(_chain_id("source_chain_id", source_chain_id))
    destination = pins.chain(_chain_id("destination_chain_id", destination_chain_id))
    if source.testnet != destination.testnet:
        raise InvalidInputError(
            "destination_chain_id", "must be on the same network (mainnet or testnet) as the source"
        )
    if destination.family == "solana":
        try:
            account = usdc_token_account(
                recipient,
                chain_id=destination.chain_id,
                registry=pins,
            )
        except InvalidInputError as exc:
            raise InvalidInputError("recipient", exc.rule) from None
        paid = to_word("solana", account)
    else:
        paid = _account("recipient", destination, recipient)
    if max_block_height is None:
        max_block_height = MAX_UINT64 if source.family == "solana" else MAX_UINT256
    intent = build_burn_intent(
        source_domain=source.domain,
        destination_domain=destination.domain,
        source_contract=to_word(source.family, source.gateway_wallet),
        destination_contract=to_word(destination.family, destination.gateway_minter),
        source_token=to_word(source.family, source.usdc),
        destination_token=to_word(destination.family, destination.usdc),
        user=_account("depositor", source, depositor),
        recipient=paid,
        value=value,
        source_signer=None
        if source_signer is None
        else _account("source_signer", source, source_signer),
        destination_caller=(
            _ZERO_WORD
            if destination_caller is None
            else _account("destination_caller", destination, destination_caller)
        ),
        hook_data=hook_data,
        max_fee=max_fee,
        max_block_height=max_block_height,
        salt=salt,
    )
    if source.family == "solana":
        check_u64(
            (
                ("value", intent.spec.value),
                ("max_fee", intent.max_fee),
                ("max_block_height", intent.max_block_height),
            )
        )
    return intent


def _account(argument: str, chain: GatewayChain, value: object) -> str:
    """An account argument on ``chain`` as its bytes32 word, checked for its family."""
    from ..signing._fields import pad_address  # lazy: signing code
    from ..signing.solana import solana_account  # lazy: signing code

    if chain.family == "solana":
        return "0x" + solana_account(argument, value).hex()
    if is_solana_key(value):
        raise InvalidInputError(
            argument,
            f"is a Solana address, and {chain.name} ({chain.chain_id}) is an EVM chain: "
            "give a 20-byte 0x address",
        )
    address: str = check_argument(argument, Address, value)
    return pad_address(address)


def domain_family(domain: int, registry: Registry | None = None) -> str | None:
    """The family (``"evm"`` or ``"solana"``) of the chains of Gateway ``domain`` in the
    registry, or ``None`` when it knows none."""
    pins = DEFAULT_REGISTRY if registry is None else registry
    chain = pins.by_domain(domain, testnet=False) or pins.by_domain(domain, testnet=True)
    return None if chain is None else chain.family


def _chain_id(argument: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidInputError(argument, "must be a positive int")
    return value


def _check_at_least(at_least: object) -> int:
    from ..types import TokenAmount  # lazy: not for a first read (pydantic's serializers)

    units: int = check_argument("at_least", TokenAmount, at_least)
    return units


def check_size(value: object) -> int | None:
    """Validate ``max_attestation_size``: bytes, or ``None``."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidInputError("max_attestation_size", "must be a positive int (bytes), or None")
    return value


def check_flag(argument: str, value: object) -> bool | None:
    """Validate a flag that may be left out: ``True``, ``False`` or ``None``."""
    if value is not None and not isinstance(value, bool):
        raise InvalidInputError(argument, "must be True, False or None")
    return value


def check_transfer_id(transfer_id: object) -> str:
    """Validate a transfer id: the UUID ``POST /v1/transfer`` returned."""
    if not isinstance(transfer_id, str):
        raise InvalidInputError("transfer_id", "must be the transferId string (a UUID)")
    try:
        return str(uuid.UUID(transfer_id.strip()))
    except ValueError:
        raise InvalidInputError(
            "transfer_id", "must be the transferId POST /v1/transfer returned (a UUID)"
        ) from None


def build_balances_request(
    depositor: str | Sequence[str],
    domains: Sequence[int] | None,
    token: str,
    registry: Registry | None = None,
) -> BalancesRequest:
    """The ``POST /v1/balances`` body: one source per depositor and domain (or per
    depositor alone, for every domain).

    A depositor is an EVM address or a Solana key (base58, sent as it is: Gateway's
    form of a Solana address); one asked about on a domain must be of that domain's
    family (Solana's domain 5 takes a Solana key only, an EVM domain an address only).

    Raises:
        InvalidInputError: a bad address, or one of the other family than its domain.
    """
    from .models import BalancesRequest  # lazy: not for a first read

    depositors: object = [depositor] if isinstance(depositor, str) else depositor
    if isinstance(depositors, bytes) or not isinstance(depositors, Sequence) or not depositors:
        raise InvalidInputError("depositor", "must be an address or a non-empty list of them")
    if domains is not None and (isinstance(domains, str | bytes) or not domains):
        raise InvalidInputError("domains", "must be a non-empty list of domain numbers, or None")
    if domains is None:
        sources: list[dict[str, Any]] = [{"depositor": d} for d in depositors]
    else:
        sources = [{"depositor": d, "domain": n} for d in depositors for n in domains]
    request = validate_request(BalancesRequest, token=token, sources=sources)
    for source in request.sources:
        if source.domain is not None:
            check_depositor(source.depositor, source.domain, registry)
    return request


def check_depositor(depositor: object, domain: int, registry: Registry | None = None) -> str:
    """``depositor`` checked for ``domain``'s family: a base58 Solana key on Solana's
    domain, an EVM address (returned checksummed) elsewhere.

    Raises:
        InvalidInputError: not an address, or one of the other family.
    """
    from .models import Depositor  # lazy: not for a first read

    checked: str = check_argument("depositor", Depositor, depositor)
    solana = is_solana_key(checked)
    family = domain_family(domain, registry)
    if family == "solana" and not solana:
        raise InvalidInputError(
            "depositor",
            f"must be a Solana address (base58) on Gateway domain {domain} (Solana), not {checked}",
        )
    if family == "evm" and solana:
        raise InvalidInputError(
            "depositor",
            f"is a Solana address, and Gateway domain {domain} is an EVM chain's: give a "
            "20-byte 0x address",
        )
    return checked


# ------------------------------------------------------------------------------ operations


def get_info() -> Operation[GatewayInfo]:
    """``GET /v1/info``."""
    return Operation("GET", INFO_PATH, parser(GatewayInfo), auth="none")


def get_balances(request: BalancesRequest) -> Operation[GatewayBalances]:
    """``POST /v1/balances``: a read, so it may be retried."""
    from .models import GatewayBalances  # lazy: not for a first read

    return Operation(
        "POST", BALANCES_PATH, parser(GatewayBalances), json=request.to_wire(), auth="none"
    )


def _estimate_item(item: object, index: int) -> dict[str, Any]:
    from ..signing.burn_intents import TransferSpec, as_intent  # lazy: signing code

    argument = f"intents[{index}]"
    if isinstance(item, TransferSpec):
        return {"spec": item.to_wire()}
    if isinstance(item, Mapping) and "spec" in item and not {"maxFee", "max_fee"} & set(item):
        # A spec alone: Gateway fills in the fee and the height.
        try:
            spec = TransferSpec.model_validate(item["spec"])
        except ValidationError:
            raise InvalidInputError(f"{argument}.spec", "is not a valid transfer spec") from None
        return {"spec": spec.to_wire()}
    return as_intent(item, argument).to_wire()


def estimate(
    intents: EstimateItem | Sequence[EstimateItem], *, max_attestation_size: int | None = None
) -> Operation[list[EstimatedTransfer]]:
    """``POST /v1/estimate``: each element a burn intent (with your ``maxFee`` and
    ``maxBlockHeight``) or a transfer spec alone."""
    from ..signing.burn_intents import BurnIntent, TransferSpec  # lazy: signing code
    from .models import EstimateAnswer  # lazy: not for a first read

    items: object = (
        [intents] if isinstance(intents, BurnIntent | TransferSpec | Mapping) else intents
    )
    if isinstance(items, str | bytes) or not isinstance(items, Sequence) or not items:
        raise InvalidInputError(
            "intents", "must be a burn intent, a transfer spec, or a non-empty list of them"
        )
    body = [_estimate_item(item, index) for index, item in enumerate(items)]
    size = check_size(max_attestation_size)
    params = [("maxAttestationSize", str(size))] if size is not None else None
    return Operation(
        "POST", ESTIMATE_PATH, parser(EstimateAnswer), json=body, params=params, auth="none"
    )


def transfer_body(signed: Signed | Sequence[Signed]) -> list[dict[str, Any]]:
    """The ``POST /v1/transfer`` body: each signed intent or set's ``to_wire()``, exactly
    as it was signed."""
    from ..signing.signed_intents import SignedBurnIntent, SignedBurnIntentSet  # lazy: signing code

    items: object = (
        [signed] if isinstance(signed, SignedBurnIntent | SignedBurnIntentSet) else signed
    )
    if isinstance(items, str | bytes) or not isinstance(items, Sequence) or not items:
        raise InvalidInputError(
            "signed",
            "must be a SignedBurnIntent, a SignedBurnIntentSet, or a non-empty list of them",
        )
    for index, item in enumerate(items):
        if not isinstance(item, SignedBurnIntent | SignedBurnIntentSet):
            raise InvalidInputError(
                f"signed[{index}]",
                "must be a SignedBurnIntent or SignedBurnIntentSet (from sign_burn_intent "
                "or sign_burn_intent_set)",
            )
    return [item.to_wire() for item in items]


def transfer(
    signed: Signed | Sequence[Signed],
    *,
    max_attestation_size: int | None = None,
    enable_forwarder: bool | None = None,
) -> Operation[TransferResult]:
    """``POST /v1/transfer``: not idempotent; the signatures are kept out of errors."""
    from ..signing.attestations import expected_intents  # lazy: signing code
    from .models import TransferResult  # lazy: not for a first read

    body = transfer_body(signed)
    sent = expected_intents(signed if isinstance(signed, Sequence) else [signed])
    read = parser(TransferResult)

    def parse(data: Any) -> TransferResult:
        # The result remembers what it attests, so mint_call() can check the attestation.
        result: TransferResult = read(data)
        return result.with_intents(sent)

    params = []
    size = check_size(max_attestation_size)
    if size is not None:
        params.append(("maxAttestationSize", str(size)))
    if check_flag("enable_forwarder", enable_forwarder) is not None:
        params.append(("enableForwarder", "true" if enable_forwarder else "false"))
    return Operation(
        "POST",
        TRANSFER_PATH,
        parse,
        json=body,
        params=params or None,
        idempotent=False,
        auth="none",
        secrets=tuple(item["signature"] for item in body),
        # Burn intents are used once, by salt: sending them again cannot transfer twice.
        single_use=True,
        identify=_transfer_id,
    )


def _transfer_id(result: TransferResult) -> tuple[str, ...]:
    return (result.transfer_id,)


def get_transfer(transfer_id: str) -> Operation[TransferDetails]:
    """``GET /v1/transfer/{id}``."""
    from .models import TransferDetails  # lazy: not for a first read

    checked = check_transfer_id(transfer_id)
    return Operation(
        "GET",
        f"{TRANSFER_PATH}/{checked}",
        parser(TransferDetails),
        auth="none",
        path_template=f"{TRANSFER_PATH}/{{id}}",
    )


# ------------------------------------------------------------------------------ flows


def typed_refusals(operation: Operation[T]) -> Flow[T]:
    """Send ``operation``; raise Gateway's fee-floor refusal as `InsufficientMaxFeeError`.

    Raises:
        InsufficientMaxFeeError: HTTP 400 ``Insufficient max fee: expected at least X``.
    """
    try:
        result: T = yield Call(operation)
    except BadRequestError as exc:
        typed = InsufficientMaxFeeError.from_error(exc)
        if typed is None:
            raise
        raise typed from None
    return result


def transfer_journey(
    operation: Operation[TransferResult],
    *,
    max_attestation_size: int | None,
    enable_forwarder: bool | None,
) -> Flow[TransferResult]:
    """``POST /v1/transfer`` of intents its caller signed, as a journey of kind
    ``transfer``: its terms are the exact request (the signed intents), then
    ``submitted`` and ``attested`` (the transfer id, which the journal indexes). On
    resume the same bytes are sent again when they may not have arrived: burn intents
    are used once."""
    journey_id: str | None = yield Begin(
        "transfer",
        {
            "submitted": operation.json,
            "max_attestation_size": max_attestation_size,
            "enable_forwarder": enable_forwarder,
        },
    )
    result: TransferResult = yield from typed_refusals(operation)
    yield from attested(result)
    result._journey_id = journey_id
    return result


def attested(result: TransferResult) -> Flow[None]:
    """The ``attested`` step: the transfer id (indexed, for webhooks and recovery)."""
    yield Record(
        "attested",
        data={"transfer_id": result.transfer_id},
        identities=(result.transfer_id,),
    )


def journaled_intents(body: Sequence[Mapping[str, Any]]) -> list[Any]:
    """The burn intents of a journaled ``POST /v1/transfer`` body, for `mint_call`."""
    found: list[Any] = []
    for item in body:
        if "burnIntent" in item:
            found.append(item["burnIntent"])
        elif "burnIntentSet" in item:
            found.extend(item["burnIntentSet"].get("intents", []))
    return found


def wait_for_transfer(
    transfer_id: str,
    *,
    until: Literal["confirmed", "finalized"],
    timeout: float,
    interval: float,
    clock: Clock,
) -> Flow[TransferDetails]:
    """Poll ``GET /v1/transfer/{id}`` until the transfer reaches ``until`` (or is
    finalized), and stop on ``failed`` or ``expired``.

    Raises:
        TransferFailedError: the status became ``failed`` or ``expired``.
        WaitTimeoutError: time ran out; the transfer may still complete.
    """
    operation = get_transfer(transfer_id)
    if until not in ("confirmed", "finalized"):
        raise InvalidInputError("until", "must be 'confirmed' or 'finalized'")
    check_wait_arguments(
        timeout, interval, timeout_name="wait_timeout", interval_name="poll_interval"
    )
    wanted = {"confirmed", "finalized"} if until == "confirmed" else {"finalized"}

    def done(record: TransferDetails) -> bool:
        if record.status in ("failed", "expired"):
            reason = ""
            if record.forwarding_details and record.forwarding_details.failure_reason:
                reason = f": {record.forwarding_details.failure_reason}"
            raise TransferFailedError(
                f"Gateway transfer {operation.path.rsplit('/', 1)[-1]} {record.status}{reason}",
                record=record,
                transfer_status=str(record.status),
            )
        return record.status in wanted

    def timeout_message(last: TransferDetails | None) -> str:
        seen = f"last status {last.status}" if last else "not visible yet"
        return (
            f"timed out after {timeout:g} s waiting for Gateway transfer "
            f"{operation.path.rsplit('/', 1)[-1]} to be {until} ({seen}). It may still "
            "complete: check get_transfer() later."
        )

    return poll(
        lambda: operation,
        done,
        timeout=timeout,
        interval=interval,
        clock=clock,
        timeout_message=timeout_message,
        # Right after POST /v1/transfer the record may not be readable yet.
        not_yet_visible=(NotFoundError,),
    )


def wait_for_balance(
    depositor: str,
    *,
    domain: int,
    at_least: int | str,
    token: str,
    timeout: float,
    interval: float,
    clock: Clock,
    registry: Registry | None = None,
) -> Flow[DomainBalance]:
    """Poll ``POST /v1/balances`` until the depositor's available balance on ``domain``
    is at least ``at_least`` smallest units.

    Raises:
        InvalidInputError: a bad depositor for the domain (a base58 key on Solana's).
        WaitTimeoutError: time ran out (``last_status`` is the last entry seen); the
            deposit may still finalize.
    """
    owner = check_depositor(depositor, domain, registry)
    wanted = _check_at_least(at_least)
    check_wait_arguments(
        timeout, interval, timeout_name="wait_timeout", interval_name="poll_interval"
    )
    balances = get_balances(build_balances_request(owner, [domain], token, registry))

    def entry(data: Any) -> DomainBalance | None:
        return balances.parse(data).for_domain(domain, owner)

    # The answer read down to this depositor's entry, so that a timeout's
    # ``last_status`` is that entry.
    operation = balances.reading(entry)

    return (
        yield from poll_balance(
            operation,
            wanted,
            whose=f"{owner}'s gateway balance on domain {domain}",
            none_yet="no balance listed yet",
            timeout=timeout,
            interval=interval,
            clock=clock,
        )
    )


# ------------------------------------------------------------------------------ estimates


@functools.cache
def _spec_accounts() -> frozenset[str]:
    """A transfer spec's accounts: its bytes32 words but the salt, read from the signed
    type (an estimate's intents are burn intents: their module is loaded by then)."""
    from ..signing.burn_intents import _TRANSFER_SPEC_FIELDS  # lazy: not for a first read

    return frozenset(
        name for name, kind in _TRANSFER_SPEC_FIELDS if kind == "bytes32" and name != "salt"
    )


def _word(key: str, value: object) -> object:
    """A spec value for comparison: addresses padded to bytes32 (an account written in
    base58, as Gateway may write a Solana one, as its 32 bytes), hex lower-cased,
    numbers as ints; a ``hookData`` left out is empty (Circle's kit leaves it out)."""
    from ..signing._fields import pad_address  # lazy: signing code

    if key == "hookData" and value is None:
        return "0x"
    if isinstance(value, str):
        if key in _spec_accounts() and is_solana_key(value.strip()):
            return "0x" + solana_key_bytes(value.strip()).hex()
        text = value.strip().lower()
        if text.startswith("0x") and len(text) == 42:
            return pad_address(text)
        if text.isdigit():
            return int(text)
        return text
    return value


def default_fee_cap(value: int) -> int:
    """The default cap on an estimated ``maxFee``: 2.01 USDC plus 1 basis point of
    ``value`` (the swap backend's default cap, for the same reasons)."""
    return DEFAULT_FEE_CAP_BASE + value * DEFAULT_FEE_CAP_BPS // _BPS


def apply_estimate(
    intent: BurnIntent | Mapping[str, Any],
    estimated: EstimatedBurnIntent | EstimatedTransfer,
    *,
    max_fee_cap: int | None = None,
    allow_higher_fee: bool = False,
) -> BurnIntent:
    """Your burn intent with Gateway's estimated ``maxFee`` and ``maxBlockHeight`` where
    they are tighter than yours, and nothing else of its answer.

    The estimate's spec must be your own, field by field (Gateway may write addresses
    as 20 bytes; that is not a difference): Gateway supplies a price and a height, never
    what moves where. Neither can loosen what you signed for:

    - ``maxBlockHeight`` becomes the lower of yours and the estimate's: an intent built
      to expire in 1,000 blocks keeps that expiry, one built with no expiry (the
      default) takes Gateway's.
    - ``maxFee`` becomes the estimate's when it is at most yours. A higher one is your
      consent to give: it is refused unless ``allow_higher_fee=True``, and even then
      only up to ``max_fee_cap`` (or the default cap).

    Args:
        intent: the intent you built (`build_burn_intent`) and sent to ``estimate``.
        estimated: the matching element of ``GatewayClient.estimate``'s answer.
        max_fee_cap: the most you accept as ``maxFee``, in smallest USDC units; without
            it, 2.01 USDC plus 1 basis point of the value.
        allow_higher_fee: accept an estimated fee above your intent's own ``maxFee``
            (up to the cap) instead of refusing it.

    Returns:
        A new `BurnIntent`, ready to sign.

    Raises:
        InvalidInputError: ``allow_higher_fee`` is not a bool, or a bad ``max_fee_cap``.
        UnsafePayloadError: the estimate's spec differs from yours, it holds no single
            intent, its fee or height is not a uint256, or (with no ``max_fee_cap``) its
            fee is above the default cap.
        QuoteRejectedError: its fee is above your intent's ``maxFee`` (without
            ``allow_higher_fee=True``) or above your ``max_fee_cap``.
    """
    from ..signing._fields import MAX_UINT64  # lazy: signing code
    from ..signing.burn_intents import BurnIntent, as_intent  # lazy: signing code
    from ..signing.solana import is_solana_source  # lazy: signing code
    from ..types import TokenAmount  # lazy: not for a first read (pydantic's serializers)
    from .models import EstimatedTransfer  # lazy: not for a first read

    if not isinstance(allow_higher_fee, bool):
        raise InvalidInputError("allow_higher_fee", "must be True or False")
    own = as_intent(intent)
    cap: int | None = None
    if max_fee_cap is not None:
        cap = check_argument("max_fee_cap", TokenAmount, max_fee_cap)
    if isinstance(estimated, EstimatedTransfer):
        found = estimated.intents
        if len(found) != 1:
            raise UnsafePayloadError(
                "estimate", expected="one estimated burn intent", received=len(found)
            )
        estimated = found[0]
    mine = own.spec.to_wire()
    theirs = estimated.spec
    for key in sorted(set(mine) | set(theirs)):
        if _word(key, theirs.get(key)) != _word(key, mine.get(key)):
            raise UnsafePayloadError(
                f"estimate.spec.{key}", expected=mine.get(key), received=theirs.get(key)
            )
    fee, height = estimated.max_fee, estimated.max_block_height
    if not (0 <= fee <= MAX_UINT256 and 0 <= height <= MAX_UINT256):
        raise UnsafePayloadError(
            "estimate", expected="a uint256 maxFee and maxBlockHeight", received=estimated
        )
    if fee > MAX_UINT64 and is_solana_source(own):
        raise UnsafePayloadError(
            "estimate.max_fee", expected="a u64 maxFee (the source is Solana)", received=fee
        )
    if cap is not None and fee > cap:
        raise QuoteRejectedError(
            "max_fee_cap",
            f"is {cap} units, and Gateway asks a maxFee of {fee}: raise the cap or try again later",
            quote=estimated,
        )
    if cap is None and fee > default_fee_cap(own.spec.value):
        raise UnsafePayloadError(
            "estimate.max_fee",
            expected=f"at most {default_fee_cap(own.spec.value)} (the default cap)",
            received=fee,
            hint="Pass max_fee_cap= to accept a higher fee.",
        )
    if fee > own.max_fee and not allow_higher_fee:
        raise QuoteRejectedError(
            "allow_higher_fee",
            f"is False, and Gateway asks a maxFee of {fee} units, above the {own.max_fee} "
            "your intent allows: pass allow_higher_fee=True to accept it (up to "
            "max_fee_cap), or build the intent with a higher max_fee",
            quote=estimated,
        )
    return BurnIntent.model_validate(
        {
            **own.to_wire(),
            "maxFee": str(fee),
            "maxBlockHeight": str(min(height, own.max_block_height)),
        }
    )
