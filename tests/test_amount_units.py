"""One unit for money: no public model holds a token amount as `Decimal` or ``float``.

Every amount is an ``int`` in the token's smallest units (see ``xswap_sdk.types``). This
walks every pydantic model and dataclass that a public module exports and fails on any
field typed ``Decimal`` or ``float`` (alone, optional, in a list, annotated) unless the
allowlist below says why it is not a token amount: a price or value in US dollars (no
smallest unit), a percentage, a duration or a time.
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import typing
from decimal import Decimal
from typing import Any

import pydantic
import pytest

import xswap_sdk
from xswap_sdk.types import UsdcNumberUnits, UsdcUnits, format_amount, from_units, to_units

USD = "a value in US dollars, not a token amount: it has no smallest unit"
PERCENT = "a percentage, not an amount"
SECONDS = "a duration or a time in seconds, not an amount"

NOT_AMOUNTS: dict[str, str] = {
    # Swap backend
    "xswap_sdk.flash.models.QuoteToken.price_usd": USD,
    "xswap_sdk.flash.models.QuoteToken.usd_amount": USD,
    "xswap_sdk.flash.models.QuoteRequest.slippage": PERCENT,
    # Relayer: its account balances and limits are prepaid US dollars.
    "xswap_sdk.relayer.models.RelayStatus.cost_usd": USD,
    "xswap_sdk.relayer.models.RelayStatus.latency": SECONDS,
    "xswap_sdk.relayer.models.SubmitTxRequest.max_usd": USD,
    "xswap_sdk.relayer.models.SubmitTxResult.estimated_cost_usd": USD,
    "xswap_sdk.relayer.models.UserConfig.per_tx_limit": USD,
    "xswap_sdk.relayer.models.UserConfig.daily_limit": USD,
    "xswap_sdk.relayer.models.UserConfig.daily_amount_consumed": USD,
    "xswap_sdk.relayer.models.AccountInfo.available_balance": USD,
    "xswap_sdk.relayer.models.AccountInfo.pending_balance": USD,
    # An x402 payment's amount is exact in `amount` (smallest USDC units); this is its USD value.
    "xswap_sdk.relayer.models.X402Payment.amount_usd": USD,
    # Routing: USD values and percentages.
    "xswap_sdk.routing.models.BuildBestPathRequest.slippage": PERCENT,
    "xswap_sdk.routing.models.BuildBestPathRequest.allowed_price_impact": PERCENT,
    "xswap_sdk.routing.models.GaslessQuoteRequest.slippage": PERCENT,
    "xswap_sdk.routing.models.QuoteRequest.slippage": PERCENT,
    "xswap_sdk.routing.models.QuoteRequest.allowed_price_impact": PERCENT,
    "xswap_sdk.routing.models.Route.slippage": PERCENT,
    "xswap_sdk.routing.models.GasFee.gas_fee_usd": USD,
    "xswap_sdk.routing.models.GaslessFee.fee_usd": USD,
    "xswap_sdk.routing.models.Route.amount_usd": USD,
    "xswap_sdk.routing.models.Route.amount_out_usd": USD,
    "xswap_sdk.routing.models.Route.min_amount_out_usd": USD,
    "xswap_sdk.routing.models.RouteFees.integrator_fee_usd": USD,
    "xswap_sdk.routing.models.RouteFees.route_fee_usd": USD,
    "xswap_sdk.routing.models.RouteToken.price_usd": USD,
    # Signing policies: the largest slippage a call may accept.
    "xswap_sdk.policy.Policy.max_slippage": PERCENT,
    # Timings of responses, events and the sandbox.
    "xswap_sdk._capture.RawResponse.elapsed": SECONDS,
    "xswap_sdk.events.ResponseEvent.elapsed": SECONDS,
    "xswap_sdk.events.RetryEvent.delay": SECONDS,
    "xswap_sdk._journal_core.JournalStep.at": SECONDS,
    "xswap_sdk._journal_core.Journey.created_at": SECONDS,
    "xswap_sdk._journal_core.Journey.updated_at": SECONDS,
    "xswap_sdk._journal_core.Journey.lease_until": SECONDS,
    "xswap_sdk._journal_core.Owner.started": SECONDS,
    "xswap_sdk._journal_core.Row.at": SECONDS,
    "xswap_sdk.sandbox.faults.Fault.seconds": SECONDS,
    "xswap_sdk.sandbox.faults.Fault.retry_after": SECONDS,
    "xswap_sdk.sandbox.faults.Outcome.delay": SECONDS,
    "xswap_sdk.sandbox.gateway.GatewayTimings.mint": SECONDS,
    "xswap_sdk.sandbox.gateway.GatewayTimings.finality": SECONDS,
    "xswap_sdk.sandbox.relayer.RelayerTimings.pickup": SECONDS,
    "xswap_sdk.sandbox.relayer.RelayerTimings.execution": SECONDS,
    "xswap_sdk.sandbox.relayer.RelayerTimings.retry": SECONDS,
    "xswap_sdk.sandbox._nanopayments.X402Transfer.created_at": SECONDS,
    "xswap_sdk.sandbox.relayer.NonEvmChain.native_usd": USD,
}
"""``module.Class.field`` -> why a `Decimal` or ``float`` there is not a token amount."""


def public_modules() -> list[str]:
    names = ["xswap_sdk"]
    for info in pkgutil.walk_packages(xswap_sdk.__path__, "xswap_sdk."):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        names.append(info.name)
    return names


def exported_models() -> dict[str, type]:
    found: dict[str, type] = {}
    for name in public_modules():
        module = importlib.import_module(name)
        for public in getattr(module, "__all__", ()):
            value = getattr(module, public)
            if not isinstance(value, type):
                continue
            if issubclass(value, pydantic.BaseModel) or dataclasses.is_dataclass(value):
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return found


def fields(cls: type) -> dict[str, Any]:
    if issubclass(cls, pydantic.BaseModel):
        return {name: info.annotation for name, info in cls.model_fields.items()}
    hints = typing.get_type_hints(cls, include_extras=True)
    return {field.name: hints[field.name] for field in dataclasses.fields(cls)}


def inexact(annotation: Any) -> bool:
    """Whether ``annotation`` holds a `Decimal` or a ``float`` anywhere in it."""
    if annotation in (Decimal, float):
        return True
    return any(inexact(argument) for argument in typing.get_args(annotation))


MODELS = exported_models()


def test_the_walk_sees_the_models_of_every_service() -> None:
    modules = {cls.__module__ for cls in MODELS.values()}
    for service in ("flash", "gateway", "relayer", "routing"):
        assert f"xswap_sdk.{service}.models" in modules, service
    assert len(MODELS) > 50


def test_no_public_model_holds_an_amount_as_decimal_or_float() -> None:
    offending = {
        f"{path}.{name}": annotation
        for path, cls in MODELS.items()
        for name, annotation in fields(cls).items()
        if inexact(annotation) and f"{path}.{name}" not in NOT_AMOUNTS
    }
    assert not offending, (
        "amounts are int smallest units (xswap_sdk.types.UsdcUnits reads decimal USDC); "
        f"a field that is not an amount goes into NOT_AMOUNTS with its reason: {offending}"
    )


def test_the_allowlist_names_only_fields_that_exist_and_need_it() -> None:
    for path in NOT_AMOUNTS:
        model, _, name = path.rpartition(".")
        assert model in MODELS, path
        assert inexact(fields(MODELS[model])[name]), f"{path} is exact now: drop it"


def test_the_walk_catches_a_decimal_amount() -> None:
    class Leaky(pydantic.BaseModel):
        balance: Decimal | None = None

    class Exact(pydantic.BaseModel):
        balance: UsdcUnits | None = None

    assert inexact(fields(Leaky)["balance"])
    assert not inexact(fields(Exact)["balance"])


@pytest.mark.parametrize(
    ("wire", "units"),
    [("1.500000", 1_500_000), ("0", 0), ("0.000001", 1), ("123456789.123456", 123_456_789_123_456)],
)
def test_usdc_units_read_the_wire_exactly_and_write_it_back(wire: str, units: int) -> None:
    adapter = pydantic.TypeAdapter(UsdcUnits)
    assert adapter.validate_python(wire) == units
    assert adapter.validate_python(units) == units  # an int is smallest units already
    assert adapter.dump_python(units, mode="json") == f"{from_units(units, 6):f}"
    assert to_units(adapter.dump_python(units, mode="json"), 6) == units


@pytest.mark.parametrize("wire", ["1.0000001", "-1", "abc", 1.5, "NaN", True, -1])
def test_usdc_units_refuse_what_is_not_an_exact_amount(wire: Any) -> None:
    with pytest.raises(pydantic.ValidationError):
        pydantic.TypeAdapter(UsdcUnits).validate_python(wire)


def test_a_json_number_of_usdc_is_usdc() -> None:
    adapter = pydantic.TypeAdapter(UsdcNumberUnits)
    assert adapter.validate_python(12.5) == 12_500_000
    assert adapter.validate_python(12) == 12_000_000  # twelve USDC, not twelve units
    assert adapter.validate_python(0.1 + 0.2) == 300_000  # a float rounds to a unit


@pytest.mark.parametrize(
    ("units", "decimals", "symbol", "text"),
    [
        (1_500_000, 6, "USDC", "1.50 USDC"),
        (1_234_567, 6, "USDC", "1.234567 USDC"),
        (0, 6, "USDC", "0.00 USDC"),
        (25, 6, None, "0.000025"),
        (10**18 + 5, 18, "WETH", "1.000000000000000005 WETH"),
        (-2_500_000, 6, "USDC", "-2.50 USDC"),
        (7, 0, "X", "7 X"),
    ],
)
def test_format_amount_is_exact_and_reads_back(
    units: int, decimals: int, symbol: str | None, text: str
) -> None:
    assert format_amount(units, decimals, symbol) == text
    number = text.split(" ")[0].lstrip("-")
    assert to_units(number, decimals) == abs(units)


def test_format_amount_refuses_floats() -> None:
    with pytest.raises(xswap_sdk.errors.InvalidInputError):
        format_amount(1.5)  # type: ignore[arg-type]
