"""Issue 13 beneath the wire tests: EIP-7702 authorizations, the relayer's typed answers
and errors, the routing service's second status shape and flat build-path body, the
gasless quote's acquisitionMode, and the chain-list cache. Sync and async, against the
sandbox (or pure functions)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from eth_account import Account
from hypothesis import given, settings
from hypothesis import strategies as st

from xswap_sdk import errors
from xswap_sdk._cache import ChainListCache, check_ttl
from xswap_sdk.routing import AcquisitionMode
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.signing import (
    SignedAuthorization,
    authorization_digest,
    recover_authorization,
    sign_authorization,
)
from xswap_sdk.testing import TEST_SIGNER

from .support import resolve

DELEGATE = "0x5ce9454909639D2D17A3F753ce7d93fa0b9aB12E"
KEY = Account.from_key("0x" + "aa" * 32)
USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
USDC_ARBITRUM = "0xaf88d065e77c8cC2239327C5EDb3A432268e5831"


def relayer(sb: Sandbox, kind: str, **kwargs: Any) -> Any:
    return sb.relayer_client(**kwargs) if kind == "sync" else sb.async_relayer_client(**kwargs)


def routing(sb: Sandbox, kind: str, **kwargs: Any) -> Any:
    return sb.routing_client(**kwargs) if kind == "sync" else sb.async_routing_client(**kwargs)


def bodies(sb: Sandbox, service: str, method: str, path: str) -> list[Any]:
    return [json.loads(r.body) for r in sb.requests.select(service, method, path)]


# ---------------------------------------------------------------------------- EIP-7702


@settings(max_examples=60, deadline=None)
@given(
    chain_id=st.integers(0, 2**256 - 1),
    nonce=st.integers(0, 2**64 - 1),
    delegate=st.binary(min_size=20, max_size=20),
)
def test_authorizations_match_eth_account_and_recover(
    chain_id: int, nonce: int, delegate: bytes
) -> None:
    address = "0x" + delegate.hex()
    ours = sign_authorization(
        KEY, chain_id=chain_id, address=address, nonce=nonce, unsafe_any_chain=chain_id == 0
    )
    theirs = Account.sign_authorization(
        {"chainId": chain_id, "address": address, "nonce": nonce}, KEY.key
    )
    assert ours.digest == bytes(theirs.authorization_hash)
    assert (int(ours.r, 16), int(ours.s, 16), ours.y_parity) == (
        theirs.r,
        theirs.s,
        theirs.y_parity,
    )
    assert ours.authority == KEY.address
    assert recover_authorization(ours.to_wire()) == KEY.address
    # What was signed is exactly the arguments.
    assert (ours.chain_id, ours.address.lower(), ours.nonce) == (chain_id, address, nonce)


def test_the_wire_form_is_the_relayers_entry_and_hides_the_signature() -> None:
    signed = sign_authorization(KEY, chain_id=8453, address=DELEGATE, nonce=7)
    wire = signed.to_wire()
    assert list(wire) == ["chainId", "address", "nonce", "r", "s", "yParity"]
    assert len(wire["r"]) == len(wire["s"]) == 66
    assert signed.r not in repr(signed)
    assert signed.s not in repr(signed)
    assert SignedAuthorization.model_validate(wire) == signed
    # eth_account's form for a type-4 transaction of one's own.
    assert signed.to_eth_account()["r"] == int(signed.r, 16)


class ExternalSigner:
    """A signer that is not a local key: it sees the authorization it signs."""

    def __init__(self, account: Any, *, sign_as: Any = None) -> None:
        self.account = account
        self.sign_as = sign_as or account
        self.asked: list[dict[str, Any]] = []

    @property
    def address(self) -> str:
        return str(self.account.address)

    def sign_message(self, message: Any) -> Any:
        raise NotImplementedError

    def sign_typed_data(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError

    def sign_authorization(self, authorization: dict[str, Any]) -> Any:
        self.asked.append(dict(authorization))
        return self.sign_as.sign_authorization(authorization)


def test_a_signer_that_is_not_a_local_key_sees_what_it_signs() -> None:
    signer = ExternalSigner(KEY)
    signed = sign_authorization(signer, chain_id=8453, address=DELEGATE, nonce=2)
    assert signer.asked == [{"chainId": 8453, "address": DELEGATE, "nonce": 2}]
    assert signed.authority == KEY.address
    with pytest.raises(errors.SigningError, match="does not recover"):
        sign_authorization(
            ExternalSigner(KEY, sign_as=TEST_SIGNER), chain_id=8453, address=DELEGATE, nonce=2
        )


@pytest.mark.parametrize(
    ("arguments", "argument"),
    [
        ({"chain_id": -1}, "chain_id"),
        ({"chain_id": 2**256}, "chain_id"),
        ({"nonce": 2**64}, "nonce"),
        ({"nonce": True}, "nonce"),
        ({"address": "0x1234"}, "address"),
    ],
)
def test_bad_authorization_arguments_are_refused(arguments: dict[str, Any], argument: str) -> None:
    base = {"chain_id": 8453, "address": DELEGATE, "nonce": 0}
    with pytest.raises(errors.InvalidInputError) as info:
        sign_authorization(KEY, **{**base, **arguments})
    assert info.value.argument == argument


def test_a_forged_or_high_s_authorization_is_refused() -> None:
    wire = sign_authorization(KEY, chain_id=8453, address=DELEGATE, nonce=0).to_wire()
    n = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
    high_s = {**wire, "s": hex(n - int(wire["s"], 16)), "yParity": 1 - wire["yParity"]}
    for bad in (high_s, {**wire, "r": "0x" + "00" * 32}):
        with pytest.raises(errors.InvalidInputError):
            recover_authorization(bad)
    assert authorization_digest(8453, DELEGATE, 0) == bytes.fromhex(
        Account.sign_authorization(
            {"chainId": 8453, "address": DELEGATE, "nonce": 0}, KEY.key
        ).authorization_hash.hex()
    )


async def test_the_sandbox_recovers_authorizations_and_delegates(kind: str) -> None:
    with Sandbox() as sb:
        client = relayer(sb, kind)
        signed = sign_authorization(TEST_SIGNER, chain_id=8453, address=DELEGATE, nonce=0)
        record = await resolve(
            client.relay_sync(
                chain_id=8453,
                to=TEST_SIGNER.address,
                call_data="0x",
                authorization_list=[signed],
                transaction_type="flash-blocks",
                should_batch_in_multicall=False,
                max_gas=500_000,
                retries=1,
                is_authenticated_tx=True,
                derivation_path="m/44'/60'/0'/0/1",
            )
        )
        assert record.status == "EXECUTED"
        assert record.transaction_type == "flash-blocks"
        assert sb.relayer.delegation(TEST_SIGNER.address) == DELEGATE
        (sent,) = bodies(sb, "relayer", "POST", "/api/submit-tx-sync")
        assert sent["tx"]["authorizationList"] == [signed.to_wire()]
        assert sent["tx"]["isAuthenticatedTx"] is True
        # The service refuses a forged one too (sent around the SDK's check).
        forged = {**signed.to_wire(), "nonce": 1}
        http = sb.http_client()
        answer = http.post(
            f"{sb.relayer_url}/api/submit-tx",
            json={
                "chainId": 8453,
                "to": TEST_SIGNER.address,
                "callData": "0x",
                "authorizationList": [{**forged, "s": "0x" + "ff" * 32}],
            },
            headers={"api-key": sb.relayer.api_key},
        )
        assert answer.status_code == 400


async def test_authorizations_are_for_evm_and_for_the_chain(kind: str) -> None:
    with Sandbox() as sb:
        client = relayer(sb, kind)
        signed = sign_authorization(TEST_SIGNER, chain_id=8453, address=DELEGATE, nonce=0)
        for chain_id, to, gas in (
            (42161, TEST_SIGNER.address, {}),
            (88888888, "0x" + "ab" * 32, {"gas_limit": 10}),
        ):
            with pytest.raises(errors.InvalidInputError) as info:
                await resolve(
                    client.relay(
                        chain_id=chain_id, to=to, call_data="0x", authorization_list=[signed], **gas
                    )
                )
            assert info.value.argument == "authorization_list"
        everywhere = sign_authorization(
            TEST_SIGNER, chain_id=0, address=DELEGATE, nonce=0, unsafe_any_chain=True
        )
        assert await resolve(
            client.relay(
                chain_id=42161,
                to=TEST_SIGNER.address,
                call_data="0x",
                authorization_list=[everywhere],
            )
        )
        assert len(sb.requests.select("relayer", "POST", "/api/submit-tx")) == 1


# ---------------------------------------------------------------------------- relayer answers


async def test_submit_answers_carry_the_estimated_cost(kind: str) -> None:
    with Sandbox() as sb:
        result = await resolve(
            relayer(sb, kind).submit_tx(chain_id=8453, to=TEST_SIGNER.address, call_data="0x")
        )
        assert result.estimated_cost_usd is not None
        assert result.estimated_cost_usd > 0


async def test_the_account_has_its_user_config(kind: str) -> None:
    with Sandbox() as sb:
        sb.relayer.disabled_chains.add(137)
        client = relayer(sb, kind)
        info = await resolve(client.check_account_info(TEST_SIGNER.address))
        config = info.user_config
        assert config is not None
        assert config.disabled_chain_ids == [137]
        assert not config.allows_chain(137)
        assert config.allows_chain(8453)
        assert config.ip_whitelist == []
        assert config.to_address_whitelist is None
        with pytest.raises(errors.BadRequestError) as error:
            await resolve(client.relay(chain_id=137, to=TEST_SIGNER.address, call_data="0x"))
        assert error.value.category == "VALIDATION_ERROR"
        assert error.value.details == {"field": "chainId"}


def test_the_live_default_account_name_is_read() -> None:
    from xswap_sdk.relayer import AccountInfo

    info = AccountInfo.model_validate(
        {
            "userId": "u",
            "address": TEST_SIGNER.address,
            "availableBalance": 1,
            "pendingBalance": 0,
            "defaultTachyonAccount": {"address": DELEGATE, "chainId": 1},
            "userConfig": {"perTxLimit": 5, "disabledChainIds": ["10"], "rateLimit": {}},
        }
    )
    assert info.default_relayer_account == {"address": DELEGATE, "chainId": 1}
    assert info.user_config is not None
    assert info.user_config.per_tx_limit == 5
    assert info.user_config.disabled_chain_ids == [10]


async def test_a_payment_required_error_has_its_category_and_details(kind: str) -> None:
    with Sandbox() as sb:
        sb.relayer.payment_required = True
        with pytest.raises(errors.PaymentRequiredError) as info:
            await resolve(
                relayer(sb, kind).relay(chain_id=8453, to=TEST_SIGNER.address, call_data="0x")
            )
        assert info.value.category == "PAYMENT"
        assert info.value.details["estimatedCostUSD"] > 0


def test_an_envelope_error_has_its_category_and_details() -> None:
    body = {
        "success": False,
        "error": {"code": "X", "message": "m", "category": "VALIDATION_ERROR", "details": [1]},
    }
    error = errors.EnvelopeError("m", code="X", status_code=200, body=body)
    assert (error.category, error.details) == ("VALIDATION_ERROR", [1])
    plain = errors.APIStatusError("m", status_code=400, body="Invalid request")
    assert (plain.category, plain.details) == (None, None)


# ---------------------------------------------------------------------------- routing


async def test_status_in_the_second_shape(kind: str) -> None:
    with Sandbox() as sb:
        client = routing(sb, kind)
        routes = await resolve(
            client.get_quote(
                from_chain=8453,
                to_chain=42161,
                from_token=USDC_BASE,
                to_token=USDC_ARBITRUM,
                amount=1_000_000,
                sender=TEST_SIGNER.address,
                route_mode="fastest",
            )
        )
        tx = await resolve(client.build_path(routes[0], TEST_SIGNER.address))
        source = sb.routing.broadcast(tx)
        first = await resolve(client.get_status(source, 8453))
        provider = first.provider.key
        second = await resolve(client.get_status(provider_key=provider, tx_ref=source))
        assert second.provider_key == provider
        assert second.source_tx_hash_any == source
        done = await resolve(
            client.wait_for_status(provider_key=provider, tx_ref=source, poll_interval=1)
        )
        assert done.destination_tx_hash_any


@pytest.mark.parametrize(
    ("arguments", "argument"),
    [
        ({"tx_hash": "0x" + "11" * 32, "from_chain": 1, "tx_ref": "r"}, "tx_ref"),
        ({"tx_hash": "0x" + "11" * 32, "provider_key": "across"}, "provider_key"),
        ({"user_address": TEST_SIGNER.address, "tx_ref": "r", "provider_key": "k"}, "provider_key"),
        ({}, "tx_hash"),
        ({"tx_hash": "0x" + "11" * 32}, "from_chain"),
        ({"from_chain": 8453}, "tx_hash"),
        ({"tx_ref": "r"}, "provider_key"),
        ({"provider_key": "across"}, "tx_ref"),
        ({"provider_key": " ", "tx_ref": "r"}, "provider_key"),
    ],
)
async def test_status_shapes_are_not_mixed_nor_missing(
    kind: str, arguments: dict[str, Any], argument: str
) -> None:
    with Sandbox() as sb:
        client = routing(sb, kind)
        for method in (client.get_status, client.wait_for_status):
            with pytest.raises(errors.InvalidInputError) as info:
                await resolve(method(**arguments))
            assert info.value.argument == argument
        assert not sb.requests


async def test_build_path_flat_sends_exactly_the_spec_body(kind: str) -> None:
    with Sandbox() as sb:
        client = routing(sb, kind)
        tx = await resolve(
            client.build_path_flat(
                from_chain=8453,
                to_chain=42161,
                from_token=USDC_BASE.lower(),
                to_token=USDC_ARBITRUM,
                amount="2500000",
                sender=TEST_SIGNER.address.lower(),
            )
        )
        assert tx.chain == 8453
        (body,) = bodies(sb, "routing", "POST", "/build-path")
        assert body == {
            "fromChain": 8453,
            "toChain": 42161,
            "fromToken": USDC_BASE,
            "toToken": USDC_ARBITRUM,
            "Amount": "2500000",
            "Sender": TEST_SIGNER.address,
        }
        with pytest.raises(errors.InvalidInputError) as info:
            await resolve(
                client.build_path_flat(
                    from_chain=8453,
                    to_chain=42161,
                    from_token=USDC_BASE,
                    to_token=USDC_ARBITRUM,
                    amount=0,
                    sender=TEST_SIGNER.address,
                )
            )
        assert info.value.argument == "amount"


async def test_the_gasless_quote_asks_for_a_witness_unless_told(kind: str) -> None:
    with Sandbox() as sb:
        seen: list[httpx.Request] = []

        def record(request: httpx.Request) -> httpx.Response:
            seen.append(request)
            return sb._handle(request)

        transport = httpx.MockTransport(record)
        http = (
            httpx.Client(transport=transport)
            if kind == "sync"
            else httpx.AsyncClient(transport=transport)
        )
        client = routing(sb, kind, http_client=http)
        quote = {
            "from_chain": 8453,
            "to_chain": 42161,
            "from_token": USDC_BASE,
            "to_token": USDC_ARBITRUM,
            "amount": 1_000_000,
            "sender": TEST_SIGNER.address,
        }
        plain = await resolve(client.get_gasless_quote(**quote))
        explicit_none = await resolve(client.get_gasless_quote(**quote, acquisition_mode=None))
        bare = await resolve(
            client.get_gasless_quote(**quote, acquisition_mode=AcquisitionMode.PERMIT2)
        )
        modes = [r.url.params.get_list("acquisitionMode") for r in seen]
        # A witness by default: the signature then binds the receiver and the output.
        assert modes == [["3"], ["3"], ["2"]]
        assert plain[0].eip712["primaryType"] == "PermitWitnessTransferFrom"
        assert explicit_none[0].eip712["primaryType"] == "PermitWitnessTransferFrom"
        assert bare[0].eip712["primaryType"] == "PermitTransferFrom"
        await resolve(http.close() if kind == "sync" else http.aclose())


# ---------------------------------------------------------------------------- the cache


async def test_the_chain_list_is_kept_for_its_ttl(kind: str) -> None:
    with Sandbox() as sb:
        client = relayer(sb, kind, chain_list_ttl=60)
        path = ("relayer", "GET", "/api/supported-chains")
        assert await resolve(client.is_chain_supported(8453))
        assert await resolve(client.is_chain_supported(42161))
        assert len(sb.requests.select(*path)) == 1
        sb.wait(59)
        await resolve(client.get_supported_chains())
        assert len(sb.requests.select(*path)) == 1
        sb.wait(1)
        await resolve(client.get_supported_chains())
        assert len(sb.requests.select(*path)) == 2
        await resolve(client.get_supported_chains(refresh=True))
        assert len(sb.requests.select(*path)) == 3
        # A copy shares the list for the same service, never for another base URL.
        copy = client.with_options(timeout=5)
        await resolve(copy.get_supported_chains())
        assert len(sb.requests.select(*path)) == 3
        other = client.with_options(base_url=sb.relayer_url + "/")
        await resolve(other.get_supported_chains())
        assert len(sb.requests.select(*path)) == 3 + (other.base_url != client.base_url)


async def test_the_gasless_spender_comes_from_the_kept_list(kind: str) -> None:
    with Sandbox() as sb:
        client = routing(sb, kind)
        await resolve(client.get_supported_chains())
        result = await resolve(
            client.gasless_swap(
                TEST_SIGNER,
                from_chain=8453,
                to_chain=42161,
                from_token=USDC_BASE,
                to_token=USDC_ARBITRUM,
                amount=1_000_000,
            )
        )
        assert result.swap_id
        assert len(sb.requests.select("routing", "GET", "/supported-chains")) == 1


@pytest.mark.parametrize("ttl", [-1, float("inf"), float("nan"), "300", True])
def test_a_bad_ttl_is_refused(ttl: Any) -> None:
    with pytest.raises(errors.InvalidInputError) as info:
        check_ttl(ttl)
    assert info.value.argument == "chain_list_ttl"
    with pytest.raises(errors.InvalidInputError):
        ChainListCache(ttl)
