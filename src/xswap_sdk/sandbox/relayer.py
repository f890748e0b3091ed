"""The emulated transaction relayer (Tachyon): submit, then follow a transaction.

Answers in the live envelopes: ``{success: true, data, timestamp}`` and
``{success: false, error: {code, message, category, details, traceId}, timestamp}``,
with the documented codes (``AUTH_001`` missing key, ``AUTH_002`` wrong key,
``VALIDATION_001`` .. ``VALIDATION_004``, ``PAYMENT_REQUIRED``).

A submitted transaction moves NOT_PICKED_UP -> PENDING -> EXECUTED as time passes
(`RelayerTimings`). Halfway through PENDING it is broadcast: its execution hash and gas
fields appear then, so ``wait_for_pending_execution_hash`` has something to find before
EXECUTED. `RelayerService.fail_next` and `RelayerService.retry_next` script the fate of
the next submissions; `RelayerService.fail` fails one that is already in flight.

Besides the EVM chains of the catalogue it relays to Solana (chain id 10100000) and
Aptos (88888888), and to any chain added with `RelayerService.add_chain` (NEAR or Sui
under the id you use): ``to``, ``value`` and ``gasLimit`` are checked by the chain's
family, as the live relayer does. EIP-7702 ``authorizationList`` entries are recovered
(by eth-keys, ``._oracle``) and checked (a bad signature, a high ``s`` or another chain
is refused); once the transaction executes, each authority delegates to its address
(`RelayerService.delegation`). ``/api/user`` carries a ``userConfig``, whose
``disabledChainIds`` (`RelayerService.disabled_chains`) refuse submissions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Annotated, Any, Final, Literal

from pydantic import Field, StrictBool, StrictInt, StrictStr

from ..chains import FAMILY_RULES, ChainFamily, check_address
from ..errors import InvalidInputError
from ..relayer._x402 import decode_x402_header, encode_x402_header
from ..signing.eip3009 import GATEWAY_BATCH_VALIDITY
from ..signing.eip7702 import SignedAuthorization
from ..types import Address, ChainId, HexBytes, TokenAmount
from ._catalog import CHAINS, GATEWAY_WALLET, derived_address, usdc
from ._http import Handler, HTTPError, Request, Response, Service, check_api_key, checked
from ._oracle import recover_authorization
from ._world import OutcomeQueue, Timeline, World, iso

if TYPE_CHECKING:
    from .gateway import GatewayService

__all__ = ["NonEvmChain", "RelayerService", "RelayerTimings"]

API_KEY: Final = "sandbox-relayer-key"
"""The API key the sandbox relayer accepts."""

USER_ID: Final = "sandbox-user"
STARTING_BALANCE_USD: Final = 100.0
SYNC_TIMEOUT_MS: Final = (1_000, 120_000)

_CATEGORIES = {
    400: "VALIDATION_ERROR",
    401: "AUTH_ERROR",
    402: "PAYMENT",
    404: "NOT_FOUND",
    429: "RATE_LIMIT",
}
_DEFAULT_CODES = {
    400: "VALIDATION_001",
    401: "AUTH_001",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    429: "RATE_LIMIT_EXCEEDED",
    503: "SERVICE_UNAVAILABLE",
}
_UINT_FIELDS = ("gasPrice", "maxFeePerGas", "maxPriorityFeePerGas", "gasLimit", "maxGas")
_OPTIONAL_FIELDS: dict[str, Any] = {
    "maxUSD": Annotated[float, Field(gt=0, allow_inf_nan=False)],
    "label": StrictStr,
    "shouldBatchInMulticall": StrictBool,
    "retries": Annotated[StrictInt, Field(ge=0)],
    "transactionType": StrictStr,
    "isAuthenticatedTx": StrictBool,
    "derivationPath": StrictStr,
}


@dataclass(frozen=True, slots=True)
class NonEvmChain:
    """A chain the sandbox relayer serves that is not EVM.

    Attributes:
        id: the relayer's chain id for it.
        family: ``"solana"``, ``"near"``, ``"aptos"`` or ``"sui"``.
        name: its name in the chain list.
        symbol: its native currency's symbol.
        decimals: its native currency's decimals.
        native_usd: the price of one native unit, for cost estimates.
    """

    id: int
    family: ChainFamily
    name: str
    symbol: str
    decimals: int
    native_usd: float


_NON_EVM: Final = (
    NonEvmChain(10100000, "solana", "Solana", "SOL", 9, 150.0),
    NonEvmChain(88888888, "aptos", "Aptos", "APT", 8, 5.0),
)


@dataclass(frozen=True, slots=True)
class RelayerTimings:
    """How long a relayed transaction spends in each state, in seconds.

    Attributes:
        pickup: NOT_PICKED_UP lasts this long.
        execution: then PENDING lasts this long (broadcast halfway), then EXECUTED.
        retry: how long NEEDS_TO_BE_RETRIED lasts, for a transaction scripted with
            `RelayerService.retry_next`.
    """

    pickup: float = 0.5
    execution: float = 1.5
    retry: float = 1.0


Fate = Literal["fail", "retry"]


@dataclass
class _Tx:
    id: str
    fields: dict[str, Any]
    submitted_at: float
    timeline: Timeline
    cost_usd: float
    extra: dict[str, Any] = field(default_factory=dict)


def _invalid(code: str, message: str, field_name: str | None = None) -> HTTPError:
    return HTTPError(400, message, code=code, details={"field": field_name} if field_name else None)


def _field(body: dict[str, Any], name: str, type_: Any) -> Any:
    return checked(name, type_, body[name], code="VALIDATION_003")


class RelayerService(Service):
    """The relayer: ``/api/submit-tx``, ``/api/submit-tx-sync``, ``/api/tx``,
    ``/api/user`` and ``/api/supported-chains`` (``sb.relayer``).

    Attributes:
        api_key: the key every request must carry in ``api-key``.
        timings: the state durations of transactions submitted from now on.
        payment_required: when ``True``, submissions are refused with HTTP 402
            ``PAYMENT_REQUIRED`` (the pay-per-request mode), with the estimated cost in
            ``details``.
    """

    name = "relayer"
    """Its name in fault rules, the request log and `Sandbox.url`."""

    def __init__(self, world: World) -> None:
        super().__init__()
        self._world = world
        self.api_key = API_KEY
        self.timings: RelayerTimings = RelayerTimings()
        self.payment_required = False
        self._txs: dict[str, _Tx] = {}
        self._fates: OutcomeQueue[tuple[Fate, str]] = OutcomeQueue()
        self.non_evm_chains: dict[int, NonEvmChain] = {chain.id: chain for chain in _NON_EVM}
        """The non-EVM chains listed and accepted, by chain id; add one to emulate it."""
        self.disabled_chains: set[int] = set()
        """Chain ids listed as ``disabledChainIds``, whose submissions are refused."""
        self.gateway: GatewayService | None = None
        """The emulated Gateway that settles x402 payments (the sandbox's own); with
        ``None``, a paid submission is refused with 503."""
        self.x402_price = 10_000
        """What a keyless (x402) submission costs, in smallest USDC units (``10_000``
        is 0.01 USDC)."""
        self.x402_chain_id = 8453
        """The chain id the x402 payment is asked on (Base)."""
        self.x402_pay_to: str = derived_address("xswap-sandbox relayer x402 payee")
        """The address the x402 payment goes to (the relayer's payee, checksummed)."""
        self.x402_offer_changes: dict[str, Any] = {}
        """Entries that replace those of the offer (`x402_offer`; ``extra`` is merged
        into its ``extra``), so a test can offer what a compromised relayer would."""
        self.payments_received: list[Any] = []
        """Every decoded ``Payment-Signature`` document received, oldest first, refused
        ones too."""
        self.charge_reads = False
        """Answer every keyless read (a status poll, an account or chain lookup) with
        402 and the x402 offer too, and take each payment sent for one, as a relayer
        out to drain its callers would. The real relayer prices submissions only."""
        self._x402_refusals = 0
        self._paid_txs: set[str] = set()
        submit_fields = (
            "to",
            "callData",
            "chainId",
            "value?",
            *(f"{name}?" for name in _UINT_FIELDS),
            *(f"{name}?" for name in _OPTIONAL_FIELDS),
            "authorizationList?",
        )
        for method, path, handler, summary, query, body in (
            ("POST", "/api/submit-tx", self._submit, "relay a transaction", (), submit_fields),
            (
                "POST",
                "/api/submit-tx-sync",
                self._submit_sync,
                "relay and answer once it settles (or timeoutMs passes)",
                (),
                ("tx", "timeoutMs?", "includeReceipt?", "includeRevertInfo?"),
            ),
            (
                "GET",
                "/api/tx",
                self._get_tx,
                "a relayed transaction's record",
                ("id", "includeReceipt?", "includeRevertInfo?"),
                (),
            ),
            (
                "POST",
                "/api/submit-signed-tx",
                self._submit_signed,
                "fund the sender of a signed transaction, then broadcast it",
                (),
                ("signedTx", "minBalanceRequired", "fromAddress", "chainId", "label?"),
            ),
            ("GET", "/api/user", self._user, "account balances", ("address",), ()),
            ("GET", "/api/supported-chains", self._chains, "chains", (), ()),
        ):
            paid = method == "POST"
            self.router.add(
                method,
                path,
                self._paid(handler) if paid else self._authenticated(handler),
                summary=summary,
                query=query,
                body=body,
                auth="api-key",
            )

    # ------------------------------------------------------------------ scripting

    def fail_next(
        self, message: str = "execution reverted", *, count: int = 1, label: str | None = None
    ) -> None:
        """Make the next ``count`` submissions (with ``label``, if given) end FAILED
        with ``message`` instead of executing.

        Gasless swaps of the routing service are relayed here too, so this fails them
        as well.
        """
        self._fates.push(("fail", message), count, label)

    def retry_next(self, *, count: int = 1, label: str | None = None) -> None:
        """Make the next ``count`` submissions pass through NEEDS_TO_BE_RETRIED once
        before they execute."""
        self._fates.push(("retry", ""), count, label)

    def fail(self, tx_id: str, message: str = "execution reverted") -> None:
        """Make a transaction that has not finished fail now, with ``message``.

        Raises:
            KeyError: no such transaction.
            ValueError: it already executed or failed.
        """
        tx = self._txs[tx_id]
        now = self._world.now()
        if tx.timeline.at(now)["status"] in ("EXECUTED", "FAILED"):
            raise ValueError(f"transaction {tx_id} has already finished")
        tx.timeline.cut(now, status="FAILED", error=message, executionTxHash=None)

    def record(self, tx_id: str, at: float | None = None) -> dict[str, Any]:
        """A transaction's record as ``GET /api/tx`` would return it now (or ``at``).

        Raises:
            KeyError: no such transaction.
        """
        return self._render(self._txs[tx_id], self._world.now() if at is None else at)

    def changed_at(self, tx_id: str, at: float | None = None) -> float:
        """When a transaction's record last changed, as seen now (or ``at``).

        Raises:
            KeyError: no such transaction.
        """
        return self._txs[tx_id].timeline.changed_at(self._world.now() if at is None else at)

    def add_chain(
        self,
        chain_id: int,
        family: ChainFamily,
        *,
        name: str | None = None,
        symbol: str = "NATIVE",
        decimals: int = 9,
        native_usd: float = 1.0,
    ) -> None:
        """Serve a non-EVM chain under ``chain_id`` (NEAR or Sui, say): submissions to
        it are checked by ``family``'s rules. Give the client the same id in its
        ``chain_families``.

        Raises:
            ValueError: ``family`` is not a non-EVM family, or the id is an EVM chain.
        """
        if family == "evm" or family not in FAMILY_RULES:
            raise ValueError("family must be solana, near, aptos or sui")
        if chain_id in CHAINS:
            raise ValueError(f"chain {chain_id} is an EVM chain of the catalogue")
        self.non_evm_chains[chain_id] = NonEvmChain(
            chain_id, family, name or family.title(), symbol, decimals, native_usd
        )

    def refuse_payments(self, count: int = 1) -> None:
        """Answer the next ``count`` paid (x402) submissions with 402 again, as a
        relayer that does not accept the payment would; nothing is debited."""
        self._x402_refusals += count

    def x402_offer(self) -> dict[str, Any]:
        """The x402 payment requirement a keyless submission is answered with: the
        Gateway-batched option on ``x402_chain_id`` for ``x402_price``, with
        ``x402_offer_changes`` applied (its ``extra`` merged), so a test can offer
        what a compromised relayer would."""
        chain = self.x402_chain_id
        offer: dict[str, Any] = {
            "scheme": "exact",
            "network": f"eip155:{chain}",
            "asset": usdc(chain).address,
            "amount": str(self.x402_price),
            "payTo": self.x402_pay_to,
            # Circle's batching sellers' window (@circle-fin/x402-batching): Gateway's
            # seven-day minimum and 100 s.
            "maxTimeoutSeconds": GATEWAY_BATCH_VALIDITY,
            "extra": {
                "name": "GatewayWalletBatched",
                "version": "1",
                "verifyingContract": GATEWAY_WALLET,
            },
        }
        changes = dict(self.x402_offer_changes)
        offer["extra"] = {**offer["extra"], **changes.pop("extra", {})}
        offer.update(changes)
        return offer

    def delegation(self, authority: str) -> str | None:
        """The contract ``authority`` delegates to (EIP-7702), by the last executed
        transaction that carried an authorization of it; ``None`` if none did."""
        wanted = authority.lower()
        now = self._world.now()
        delegate = None
        for tx in self._txs.values():
            if tx.timeline.at(now)["status"] != "EXECUTED":
                continue
            for entry in tx.extra.get("authorizations", ()):
                if entry["authority"].lower() == wanted:
                    delegate = entry["address"]
        return delegate

    @property
    def transaction_ids(self) -> list[str]:
        """The ids of every submitted transaction, oldest first."""
        return list(self._txs)

    # ------------------------------------------------------------------ framing

    def _ok(self, data: Any, *, delay: float = 0.0) -> Response:
        at = self._world.now() + delay
        return Response.json({"success": True, "data": data, "timestamp": iso(at)}).delayed(delay)

    def error_response(self, error: HTTPError) -> Response:
        """The relayer's error envelope."""
        code = error.code or _DEFAULT_CODES.get(error.status, "INTERNAL_ERROR")
        category = _CATEGORIES.get(error.status, "INTERNAL_ERROR")
        body = {
            "success": False,
            "error": {
                "code": code,
                "message": error.message,
                "category": category,
                "details": error.details,
                "traceId": self._world.hex(8),
            },
            "timestamp": iso(self._world.now()),
        }
        return Response.json(body, error.status, error.headers)

    def _authenticated(self, handler: Handler) -> Handler:
        def check(request: Request) -> Response:
            if self.charge_reads and request.header("api-key") is None:
                header = request.header("payment-signature")
                if header is None:
                    raise self._payment_required(self.x402_offer(), "payment required")
                document = decode_x402_header(header)
                self.payments_received.append(document)
                if self.gateway is not None:
                    self.gateway.settle_x402(document.get("payload"), self.x402_offer())
                return handler(request)
            # The record of a transaction paid with x402 is readable by its id alone.
            if request.header("api-key") or request.arg("id") not in self._paid_txs:
                check_api_key(request, self.api_key, missing_code="AUTH_001", wrong_code="AUTH_002")
            return handler(request)

        return check

    def _paid(self, handler: Handler) -> Handler:
        """A submission: with an API key as before; without one, paid with x402 from
        a Gateway balance (402 with the requirement, then a ``Payment-Signature``)."""

        def check(request: Request) -> Response:
            if request.header("api-key") is not None:
                check_api_key(request, self.api_key, missing_code="AUTH_001", wrong_code="AUTH_002")
                return handler(request)
            header = request.header("payment-signature")
            offer = self.x402_offer()
            if header is None:
                raise self._payment_required(offer, "payment required")
            try:
                document = decode_x402_header(header)
            except ValueError:
                raise HTTPError(400, "invalid Payment-Signature header") from None
            self.payments_received.append(document)
            if self._x402_refusals:
                self._x402_refusals -= 1
                raise self._payment_required(offer, "payment not accepted")
            if not isinstance(document, dict) or document.get("accepted") != offer:
                raise HTTPError(400, "the payment does not match the requirement")
            if self.gateway is None:
                raise HTTPError(503, "no Gateway to settle with")
            transfer = self.gateway.settle_x402(document.get("payload"), offer)
            response = handler(request)
            body = json.loads(response.body)
            tx_id = body["data"].get("txId") or body["data"].get("id")
            self._paid_txs.add(tx_id)
            body["data"]["x402Payment"] = {
                "type": "x402-gateway",
                "amount": str(transfer.amount),
                "amountUsd": transfer.amount / 10**6,
                "network": offer["network"],
                "transaction": transfer.id,
                "settledAt": iso(transfer.created_at),
                "payer": transfer.payer,
            }
            return replace(response, body=json.dumps(body).encode())

        return check

    def _payment_required(self, offer: dict[str, Any], message: str) -> HTTPError:
        required = {
            "x402Version": 2,
            "error": message,
            "resource": {"url": "/api/submit-tx"},
            "accepts": [offer],
        }
        return HTTPError(
            402,
            "Payment required: pay with x402 from a Circle Gateway balance",
            code="PAYMENT_REQUIRED",
            details={
                "paymentAmount": offer["amount"],
                "paymentAmountUsd": int(self.x402_price) / 10**6,
                "asset": "USDC",
                "networks": [offer["network"]],
            },
            headers={"PAYMENT-REQUIRED": encode_x402_header(required)},
        )

    # ------------------------------------------------------------------ submitting

    def _family(self, chain_id: int) -> ChainFamily:
        chain = self.non_evm_chains.get(chain_id)
        return "evm" if chain is None else chain.family

    def _parse(self, body: Any) -> dict[str, Any]:
        if not isinstance(body, dict):
            raise _invalid("VALIDATION_001", "the request body must be a JSON object")
        for name in ("to", "callData", "chainId"):
            if body.get(name) is None:
                raise _invalid("VALIDATION_002", f"{name} is required", name)
        chain_id = _field(body, "chainId", ChainId)
        if chain_id not in CHAINS and chain_id not in self.non_evm_chains:
            raise _invalid("VALIDATION_004", f"chain {chain_id} is not supported", "chainId")
        if chain_id in self.disabled_chains:
            raise _invalid(
                "VALIDATION_004", f"chain {chain_id} is disabled for this account", "chainId"
            )
        family = self._family(chain_id)
        rules = FAMILY_RULES[family]
        try:
            to = check_address(family, body["to"])
        except InvalidInputError as exc:
            raise _invalid("VALIDATION_003", f"to: {exc.rule}", "to") from None
        tx: dict[str, Any] = {
            "to": to,
            "callData": _field(body, "callData", HexBytes),
            "chainId": chain_id,
            "value": str(_field(body, "value", TokenAmount)) if "value" in body else "0",
        }
        if int(tx["value"]) > rules.max_value:
            raise _invalid(
                "VALIDATION_003", f"value must fit a {family} amount ({rules.value_unit})", "value"
            )
        for name in _UINT_FIELDS:
            if body.get(name) is not None:
                tx[name] = str(_field(body, name, TokenAmount))
        if rules.gas_limit_required and "gasLimit" not in tx:
            raise _invalid("VALIDATION_002", f"gasLimit is required on {family}", "gasLimit")
        for name, type_ in _OPTIONAL_FIELDS.items():
            if body.get(name) is not None:
                tx[name] = _field(body, name, type_)
        if body.get("authorizationList") is not None:
            tx["authorizationList"] = self._authorizations(
                body["authorizationList"], chain_id, family
            )
        if "gasPrice" in tx and ("maxFeePerGas" in tx or "maxPriorityFeePerGas" in tx):
            raise _invalid(
                "VALIDATION_003",
                "gasPrice cannot be combined with maxFeePerGas/maxPriorityFeePerGas",
                "gasPrice",
            )
        return tx

    def _authorizations(self, entries: Any, chain_id: int, family: ChainFamily) -> list[Any]:
        """Recover and check each EIP-7702 authorization, as a node would before
        applying it; keep who signed it."""
        if not FAMILY_RULES[family].authorizations:
            raise _invalid(
                "VALIDATION_003",
                f"authorizationList is for EVM chains, not {family}",
                "authorizationList",
            )
        if not isinstance(entries, list):
            raise _invalid(
                "VALIDATION_003", "authorizationList must be an array", "authorizationList"
            )
        checked = []
        for index, entry in enumerate(entries):
            where = f"authorizationList[{index}]"
            authorization = _field({where: entry}, where, SignedAuthorization)
            if authorization.chain_id not in (0, chain_id):
                raise _invalid(
                    "VALIDATION_003",
                    f"{where} is for chain {authorization.chain_id}, not {chain_id}",
                    where,
                )
            # Who signed, by eth-keys (the sandbox's own oracle), not by the SDK's code.
            authority = recover_authorization(
                authorization.chain_id,
                authorization.address,
                authorization.nonce,
                authorization.y_parity,
                int(authorization.r, 16),
                int(authorization.s, 16),
            )
            checked.append({**authorization.to_wire(), "authority": authority})
        return checked

    def _estimate(self, fields: dict[str, Any]) -> tuple[int, int, float]:
        """Gas used, gas price and cost in USD of a transaction."""
        calldata = (len(fields["callData"]) - 2) // 2
        gas_used = 21_000 + 16 * calldata + self._world.rng.randrange(0, 40_000)
        other = self.non_evm_chains.get(fields["chainId"])
        if other is not None:
            # A flat fee in native units: enough to show a cost, no chain's real model.
            price = int(fields.get("gasPrice") or 1)
            units = 5_000 * price
            return gas_used, price, round(units / 10**other.decimals * other.native_usd, 6)
        chain = CHAINS[fields["chainId"]]
        price = int(fields.get("gasPrice") or fields.get("maxFeePerGas") or chain.gas_price_wei)
        return gas_used, price, round(gas_used * price / 1e18 * chain.native_usd, 6)

    def submit(self, fields: dict[str, Any]) -> str:
        """Accept a validated transaction and schedule its life; return its id.

        Also the entry point of the routing service's gasless swaps.
        """
        now = self._world.now()
        timings = self.timings
        tx_id = self._world.hex(12)
        gas_used, gas_price, cost = self._estimate(fields)
        fate = self._fates.take(fields.get("label"))
        picked_up = now + timings.pickup
        broadcast = picked_up + timings.execution / 2
        timeline = Timeline().then(now, status="NOT_PICKED_UP", retries=0)
        timeline.then(picked_up, status="PENDING")
        if fate is not None and fate[0] == "fail":
            timeline.then(broadcast, status="FAILED", error=fate[1])
        else:
            if fate is not None:  # a retry: stuck once, then back to PENDING
                timeline.then(broadcast, status="NEEDS_TO_BE_RETRIED", retries=1)
                broadcast += timings.retry
                timeline.then(broadcast, status="PENDING")
            executed = broadcast + timings.execution / 2
            limit = int(fields.get("gasLimit") or gas_used * 6 // 5)
            timeline.then(
                broadcast,
                executionTxHash=self._world.tx_hash(),
                gasPrice=str(gas_price),
                gasLimit=str(limit),
                gasUsed=str(gas_used),
                blockNumber=self._world.rng.randrange(20_000_000, 30_000_000),
            )
            timeline.then(
                executed,
                status="EXECUTED",
                latency=round((executed - now) * 1000),
                costUSD=cost,
                isCharged=True,
            )
        extra = {}
        if "authorizationList" in fields:
            extra["authorizations"] = fields["authorizationList"]
        self._txs[tx_id] = _Tx(tx_id, fields, now, timeline, cost, extra)
        return tx_id

    def _check_payment(self, fields: dict[str, Any]) -> None:
        if self.payment_required:
            cost = self._estimate(fields)[2]
            raise HTTPError(
                402,
                "Payment required: this API key pays per request",
                code="PAYMENT_REQUIRED",
                details={"estimatedCostUSD": cost, "currency": "USD"},
            )

    def _submit(self, request: Request) -> Response:
        fields = self._parse(request.json())
        self._check_payment(fields)
        tx_id = self.submit(fields)
        return self._ok({"txId": tx_id, "estimatedCostUSD": self._txs[tx_id].cost_usd})

    def _submit_signed(self, request: Request) -> Response:
        body = request.json()
        if not isinstance(body, dict):
            raise _invalid("VALIDATION_001", "the request body must be a JSON object")
        for name in ("signedTx", "minBalanceRequired", "fromAddress", "chainId"):
            if name not in body:
                raise _invalid("VALIDATION_002", f"{name} is required", name)
        raw: str = _field(body, "signedTx", HexBytes)
        _field(body, "minBalanceRequired", TokenAmount)
        sender: str = _field(body, "fromAddress", Address)
        chain_id: int = _field(body, "chainId", ChainId)
        if chain_id not in CHAINS:
            raise _invalid("VALIDATION_004", f"chain {chain_id} is not supported", "chainId")
        try:
            from eth_account import Account

            recovered = Account.recover_transaction(raw)
        except Exception:
            raise _invalid("VALIDATION_003", "signedTx is not a signed transaction") from None
        if recovered != sender:
            raise _invalid("VALIDATION_003", "fromAddress did not sign signedTx", "fromAddress")
        fields = {"to": sender, "callData": "0x", "chainId": chain_id, "value": "0"}
        if "label" in body:
            fields["label"] = _field(body, "label", StrictStr)
        tx_id = self.submit(fields)
        self._txs[tx_id].extra["signedTx"] = raw
        return self._ok({"txId": tx_id})

    def _submit_sync(self, request: Request) -> Response:
        body = request.json()
        if not isinstance(body, dict):
            raise _invalid("VALIDATION_001", "the request body must be a JSON object")
        if not isinstance(body.get("tx"), dict):
            raise _invalid("VALIDATION_002", "tx is required and must be an object", "tx")
        timeout_ms = body.get("timeoutMs", 30_000)
        low, high = SYNC_TIMEOUT_MS
        if (
            isinstance(timeout_ms, bool)
            or not isinstance(timeout_ms, int)
            or not (low <= timeout_ms <= high)
        ):
            raise _invalid(
                "VALIDATION_003", f"timeoutMs must be an integer from {low} to {high}", "timeoutMs"
            )
        fields = self._parse(body["tx"])
        self._check_payment(fields)
        tx = self._txs[self.submit(fields)]
        # The relayer holds the answer until the transaction settles or time runs out;
        # the record is read as it will be then, and the adapter waits that long.
        now = self._world.now()
        wait = min(tx.timeline.settles_at - now, timeout_ms / 1000)
        record = self._render(
            tx,
            now + wait,
            receipt=body.get("includeReceipt") is True,
            revert_info=body.get("includeRevertInfo") is True,
        )
        return self._ok(record, delay=wait)

    # ------------------------------------------------------------------ reading

    def _render(
        self, tx: _Tx, moment: float, *, receipt: bool = False, revert_info: bool = False
    ) -> dict[str, Any]:
        state = tx.timeline.at(moment)
        fields = tx.fields
        record: dict[str, Any] = {
            "id": tx.id,
            "userId": USER_ID,
            "to": fields["to"],
            "callData": fields["callData"],
            "value": fields["value"],
            "chainId": fields["chainId"],
            # Before broadcast the live service sends these as null.
            "gasPrice": state.get("gasPrice"),
            "maxFeePerGas": fields.get("maxFeePerGas") if "gasPrice" in state else None,
            "maxPriorityFeePerGas": (
                fields.get("maxPriorityFeePerGas") if "gasPrice" in state else None
            ),
            "gasLimit": state.get("gasLimit"),
            "label": fields.get("label"),
            "status": state["status"],
            "executionTxHash": state.get("executionTxHash"),
            "costUSD": state.get("costUSD", 0),
            "timestamp": iso(tx.submitted_at),
            "latency": state.get("latency"),
            "error": state.get("error"),
            "retries": state["retries"],
            "isCharged": state.get("isCharged", False),
            "transactionType": fields.get("transactionType", "flash"),
        }
        if receipt and state["status"] == "EXECUTED":
            record["receipt"] = {
                "transactionHash": state["executionTxHash"],
                "blockNumber": state["blockNumber"],
                "gasUsed": state["gasUsed"],
                "effectiveGasPrice": state["gasPrice"],
                "status": "success",
            }
        if revert_info and state["status"] == "FAILED":
            record["revertInfo"] = {"reason": state["error"]}
        return record

    def _get_tx(self, request: Request) -> Response:
        tx_id = request.arg("id")
        if not tx_id:
            raise _invalid("VALIDATION_002", "id is required", "id")
        tx = self._txs.get(tx_id)
        if tx is None:
            raise HTTPError(404, f"transaction {tx_id} not found", code="TX_NOT_FOUND")
        record = self._render(
            tx,
            self._world.now(),
            receipt=request.arg("includeReceipt") == "true",
            revert_info=request.arg("includeRevertInfo") == "true",
        )
        return self._ok(record)

    def _user(self, request: Request) -> Response:
        address = request.arg("address")
        if not address:
            raise _invalid("VALIDATION_002", "address is required", "address")
        checked = _field({"address": address}, "address", Address)
        now = self._world.now()
        states = [(tx, tx.timeline.at(now)) for tx in self._txs.values()]
        spent = sum(tx.cost_usd for tx, state in states if state["status"] == "EXECUTED")
        pending = sum(
            tx.cost_usd for tx, state in states if state["status"] not in ("EXECUTED", "FAILED")
        )
        return self._ok(
            {
                "userId": USER_ID,
                "address": checked,
                "availableBalance": round(STARTING_BALANCE_USD - spent - pending, 6),
                "pendingBalance": round(pending, 6),
                "defaultRelayerAccount": {
                    "address": derived_address("xswap-sandbox relayer account"),
                    "derivationPath": "m/44'/60'/0'/0/0",
                },
                "userConfig": {
                    "perTxLimit": 25,
                    "dailyLimit": STARTING_BALANCE_USD,
                    "dailyAmountConsumed": round(spent, 6),
                    "disabledChainIds": sorted(self.disabled_chains),
                    "maxRetries": 3,
                    "circuitBreakerEnabled": False,
                    "ipWhitelist": [],
                    "domainWhitelist": [],
                    "toAddressWhitelist": None,
                    "isDisabled": False,
                },
            }
        )

    def _chains(self, request: Request) -> Response:
        chains = [
            {
                "id": chain.id,
                "name": chain.display_name,
                "iconUrl": f"https://sandbox.invalid/logos/{chain.key}.svg",
                "isTestnet": False,
                "nativeCurrency": {
                    "name": chain.native_name,
                    "symbol": chain.native_symbol,
                    "decimals": 18,
                },
                "blockExplorers": {"default": {"name": "Explorer", "url": chain.explorer_url}},
            }
            for chain in CHAINS.values()
        ]
        chains += [
            {
                "id": chain.id,
                "name": chain.name,
                "iconUrl": f"https://sandbox.invalid/logos/{chain.family}.svg",
                "isTestnet": False,
                "nativeCurrency": {
                    "name": chain.name,
                    "symbol": chain.symbol,
                    "decimals": chain.decimals,
                },
                "blockExplorers": {},
            }
            for chain in self.non_evm_chains.values()
        ]
        return self._ok(chains)
