"""Start-up goals, each in fresh interpreters: import, the first call, memory.

- ``import xswap_sdk`` against ``import httpx, pydantic``;
- for scale, ``from xswap_sdk import RelayerClient`` (what a program pays at its first
  client) against the same baseline;
- the first result, for each of the four clients: import, build a client and make its
  first read from the loopback server (a relayer record, Flash's and routing's supported
  chains, Gateway's info), against httpx and pydantic doing the same with a
  hand-written model of the same fields;
- resident memory after the import, after 1,000 calls and after 3,000 calls, against
  httpx and pydantic making the same calls.
"""

from __future__ import annotations

import json
import textwrap

from _loopback import API_KEY, FIXED_PATHS, TX_ID
from _measure import Row, ms, paired, run_output, run_seconds

IMPORT_ROUNDS = 15
FIRST_CALL_ROUNDS = 21
"""Rounds of each first result: a fresh process swings by a tenth from one run to the
next on a busy machine, so the median needs more of them than the import does."""

BASELINE_IMPORT = "import httpx, pydantic"

# The hand-written model of the same fields a careful httpx + pydantic script would use.
_MODEL = textwrap.dedent(
    """
    from decimal import Decimal
    from typing import Any

    from pydantic import BaseModel, ConfigDict, Field
    from pydantic.alias_generators import to_camel


    class RelayStatus(BaseModel):
        model_config = ConfigDict(alias_generator=to_camel, frozen=True)

        id: str
        status: str
        user_id: str
        to: str
        call_data: str
        value: int
        chain_id: int
        cost_usd: Decimal = Field(alias="costUSD")
        gas_price: int | None = None
        max_fee_per_gas: int | None = None
        max_priority_fee_per_gas: int | None = None
        gas_limit: int | None = None
        label: str | None = None
        execution_tx_hash: str | None = None
        timestamp: str | None = None
        latency: float | None = None
        error: str | dict[str, Any] | None = None
        retries: int | None = None
        transaction_type: str | None = None
    """
)
_BASELINE_READ = textwrap.dedent(
    f"""
    import sys

    import httpx

    client = httpx.Client()


    def call():
        response = client.get(
            sys.argv[1] + "/api/tx", params={{"id": "{TX_ID}"}}, headers={{"api-key": "{API_KEY}"}}
        )
        response.raise_for_status()
        return RelayStatus.model_validate(response.json()["data"])
    """
)
_SDK_READ = textwrap.dedent(
    f"""
    import sys

    from xswap_sdk import RelayerClient

    client = RelayerClient(api_key="{API_KEY}", base_url=sys.argv[1])


    def call():
        return client.get_relay_status("{TX_ID}")
    """
)
_ONE_CALL = "\nassert call().execution_tx_hash\n"
BASELINE_CALL = _MODEL + _BASELINE_READ + _ONE_CALL
SDK_CALL = _SDK_READ + _ONE_CALL

_CAMEL = textwrap.dedent(
    """
    import sys

    import httpx
    from pydantic import BaseModel, ConfigDict, TypeAdapter
    from pydantic.alias_generators import to_camel


    class Wire(BaseModel):
        model_config = ConfigDict(alias_generator=to_camel, frozen=True)
    """
)
# Each other client's first read, by hand: its model, then the read.
_OTHERS = {
    "flash": (
        """
        class Token(Wire):
            address: str
            name: str
            symbol: str
            decimals: int
            logo_url: str
            version: str | None = None


        class Chain(Wire):
            id: int
            name: str
            display_name: str
            logo_url: str
            explorer_url: str
            domain: int
            router_address: str
            gateway_wallet: str
            gateway_minter: str
            native_token: Token
            usdc: Token


        client = httpx.Client()
        response = client.get(sys.argv[1] + "{path}")
        response.raise_for_status()
        assert TypeAdapter(list[Chain]).validate_python(response.json())
        """,
        """
        import sys

        from xswap_sdk import FlashClient

        client = FlashClient(base_url=sys.argv[1] + "/flash")
        assert client.get_supported_chains()
        """,
    ),
    "routing": (
        """
        class NativeToken(Wire):
            symbol: str
            name: str
            decimals: int
            logo_url: str | None = None
            marketdata_id: str | None = None


        class Features(Wire):
            gasless_swaps: bool
            cross_chain: bool
            permit2: bool


        class SupportedChain(Wire):
            id: int
            name: str
            display_name: str
            logo_url: str
            explorer_url: str
            public_rpc_url: str
            service_contract: str
            chain_type: str
            is_testnet: bool
            native_token: NativeToken
            features: Features


        client = httpx.Client()
        response = client.get(sys.argv[1] + "{path}", headers={{"api-key": "{key}"}})
        response.raise_for_status()
        body = response.json()
        assert body["code"] == 0
        assert TypeAdapter(list[SupportedChain]).validate_python(body["data"])
        """,
        """
        import sys

        from xswap_sdk import RoutingClient

        client = RoutingClient(api_key="{key}", base_url=sys.argv[1] + "/routing")
        assert client.get_supported_chains()
        """,
    ),
    "gateway": (
        """
        class Contract(Wire):
            address: str
            supported_tokens: list[str]


        class Domain(Wire):
            chain: str
            network: str
            domain: int
            wallet_contract: Contract
            minter_contract: Contract
            processed_height: str
            burn_intent_expiration_height: str


        class GatewayInfo(Wire):
            version: int
            domains: list[Domain]


        client = httpx.Client()
        response = client.get(sys.argv[1] + "{path}")
        response.raise_for_status()
        assert GatewayInfo.model_validate(response.json()).domains
        """,
        """
        import sys

        from xswap_sdk import GatewayClient

        client = GatewayClient(base_url=sys.argv[1] + "/gateway")
        assert client.get_info().domains
        """,
    ),
}
FIRST_RESULTS: dict[str, tuple[str, str]] = {"relayer": (BASELINE_CALL, SDK_CALL)}
"""Each client's first result: (httpx + pydantic's script, the SDK's), by service."""
for _service, (_baseline, _sdk) in _OTHERS.items():
    _fields = {"path": FIXED_PATHS[_service], "key": API_KEY}
    FIRST_RESULTS[_service] = (
        _CAMEL + textwrap.dedent(_baseline).format(**_fields),
        textwrap.dedent(_sdk).format(**_fields),
    )
_FIRST_RESULT_READS = {
    "relayer": "a relayer record",
    "flash": "Flash's supported chains",
    "routing": "routing's supported chains",
    "gateway": "Gateway's info",
}

# Resident memory (VmRSS) after the import, after 1,000 calls and after 3,000 more.
_RSS = textwrap.dedent(
    """
    import json


    def rss():
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024


    after_import = rss()
    for _ in range(1000):
        call()
    after_1000 = rss()
    for _ in range(2000):
        call()
    print(json.dumps([after_import, after_1000, rss()]))
    """
)
# "After the import" is read before the first call, so both sides have built their
# client (and the baseline its model) by then.
SDK_RSS = _SDK_READ + _RSS
BASELINE_RSS = _MODEL + _BASELINE_READ + _RSS
# Memory may move by allocator noise, not by a leak: a leak of one object per call
# shows as 2,000 objects or more between the last two readings.
_GROWTH_LIMIT = 1 << 20


def import_rows() -> list[Row]:
    """``import xswap_sdk`` and ``from xswap_sdk import RelayerClient`` against the
    baseline import, in fresh interpreters with bytecode cached."""
    for code in (BASELINE_IMPORT, "import xswap_sdk", "from xswap_sdk import RelayerClient"):
        run_seconds(code)  # writes the bytecode caches, as an installed wheel has them
    rows = []
    for code, goal in (
        ("import xswap_sdk", 1.5),
        ("from xswap_sdk import RelayerClient", None),
    ):
        base, ours, ratio = paired(
            lambda: run_seconds(BASELINE_IMPORT), lambda code=code: run_seconds(code), IMPORT_ROUNDS
        )
        rows.append(
            Row(
                f"`{code}` (fresh interpreter, median of {IMPORT_ROUNDS})",
                ms(ours),
                f"`{BASELINE_IMPORT}`: {ms(base)}",
                ratio,
                f"<= {goal}x" if goal else "reported",
                goal is None or ratio <= goal,
            )
        )
    return rows


def first_result_rows(base_url: str) -> list[Row]:
    """For each client: import, construct and its first read, against httpx + pydantic
    doing the same, in fresh interpreters."""
    rows = []
    for service, (baseline, sdk) in FIRST_RESULTS.items():
        run_seconds(sdk, base_url)  # bytecode caches, and a check that both scripts work
        run_seconds(baseline, base_url)
        base, ours, ratio = paired(
            lambda baseline=baseline: run_seconds(baseline, base_url),
            lambda sdk=sdk: run_seconds(sdk, base_url),
            FIRST_CALL_ROUNDS,
        )
        rows.append(
            Row(
                f"first result, {service}: import + client + {_FIRST_RESULT_READS[service]} "
                f"(fresh interpreter, median of {FIRST_CALL_ROUNDS})",
                ms(ours),
                f"httpx + pydantic doing the same: {ms(base)}",
                ratio,
                "<= 1.1x",
                ratio <= 1.1,
            )
        )
    return rows


def rss_rows(base_url: str) -> list[Row]:
    """Resident memory after import and after calls, SDK and baseline."""
    ours = json.loads(run_output(SDK_RSS, base_url))
    base = json.loads(run_output(BASELINE_RSS, base_url))
    mib = 1 << 20
    growth = ours[2] - ours[1]
    return [
        Row(
            "resident memory after the import and one client",
            f"{ours[0] / mib:.1f} MiB",
            f"httpx + pydantic: {base[0] / mib:.1f} MiB",
            ours[0] / base[0],
            "reported",
            True,
        ),
        Row(
            "resident memory after 1,000 calls; growth over 2,000 more",
            f"{ours[1] / mib:.1f} MiB; {growth / 1024:+.0f} KiB",
            f"httpx + pydantic: {base[1] / mib:.1f} MiB; {(base[2] - base[1]) / 1024:+.0f} KiB",
            ours[1] / base[1],
            "reported; no growth (< 1 MiB)",
            growth < _GROWTH_LIMIT,
        ),
    ]
