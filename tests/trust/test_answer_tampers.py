"""The sandbox's tamper rules for attestations, relayer records, login answers and lone
surrogates: each attack is refused, sync and async, with nothing signed or sent that
the attack chose; the honest flows still pass.

The caller's key lives in a `RecordingSigner`, so what it was asked to sign is the
complete list of its signatures; the sandbox's request log shows what was sent.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from xswap_sdk import errors
from xswap_sdk.gateway import build_transfer_intent
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.signing import sign_authorization, sign_burn_intent

from ..frame_locals import assert_no_secret_in_frames
from ..support import resolve
from .support import ATTACKER, GASLESS, TEST_ADDRESS, WETH_ARBITRUM, RecordingSigner

SWAP: dict[str, Any] = {
    "input_amount": 10_000_000,
    "output_token": WETH_ARBITRUM,
    "chain_id": 42161,
    "slippage": "0.5",
}
JWT = re.compile(r"eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*")


@pytest.fixture
def sb() -> Iterator[Sandbox]:
    with Sandbox() as sandbox:
        sandbox.fund(TEST_ADDRESS, 8453, 30_000_000)
        yield sandbox


def client(sb: Sandbox, kind: str, service: str, *args: Any) -> Any:
    return getattr(sb, f"{'' if kind == 'sync' else 'async_'}{service}_client")(*args)


def relayed(sb: Sandbox) -> list[Any]:
    return [
        *sb.requests.select("relayer", "POST", "/api/submit-tx"),
        *sb.requests.select("relayer", "POST", "/api/submit-tx-sync"),
    ]


# ------------------------------------------------------------------ gateway attestations


async def transfer(sb: Sandbox, kind: str, signer: RecordingSigner) -> tuple[Any, Any]:
    intent = build_transfer_intent(
        source_chain_id=8453,
        destination_chain_id=42161,
        depositor=TEST_ADDRESS,
        recipient=TEST_ADDRESS,
        value=5_000_000,
    )
    signed = sign_burn_intent(intent, signer)
    return signed, await resolve(client(sb, kind, "gateway").transfer(signed))


async def test_the_honest_attestation_is_minted(
    sb: Sandbox, kind: str, signer: RecordingSigner
) -> None:
    _, result = await transfer(sb, kind, signer)
    mint = result.mint_call(42161)
    assert mint.to == sb.gateway_client().registry.chain(42161).gateway_minter
    assert await resolve(client(sb, kind, "relayer").relay(**mint.relay_arguments()))


@pytest.mark.parametrize(
    ("changes", "size", "field"),
    [
        ({"destinationRecipient": ATTACKER}, 65, "attestation[0].spec.destinationRecipient"),
        ({"value": 4_000_000_000}, 65, "attestation[0].spec.value"),
        (
            {"destinationDomain": 0, "destinationRecipient": ATTACKER, "value": 4_000_000_000},
            65,
            "attestation[0].spec.destinationDomain",
        ),
        ({"destinationToken": ATTACKER}, 65, "attestation[0].spec.destinationToken"),
        ({}, 64, "signature"),
    ],
    ids=["recipient", "amount", "other-chain", "token", "64-byte-signature"],
)
async def test_a_mint_of_another_transfer_is_refused(
    sb: Sandbox,
    kind: str,
    signer: RecordingSigner,
    changes: dict[str, Any],
    size: int,
    field: str,
) -> None:
    rule = sb.faults.tamper_gateway_attestation(changes, signature_bytes=size)
    _, result = await transfer(sb, kind, signer)
    assert rule.hits == 1
    with pytest.raises(errors.UnsafePayloadError) as info:
        result.mint_call(42161)
    assert info.value.field == field
    assert relayed(sb) == []
    assert len(signer.typed) == 1  # the burn intent the caller asked for, nothing else


# ------------------------------------------------------------------ relayer records


# A record is the caller's only when its id, chain, target, calldata and value are all
# the submission's: the same id and target with another call or value is another
# transaction's success passed off as this one's.
OTHER_CALL = "0xa9059cbb" + "00" * 12 + ATTACKER[2:].lower() + f"{1000 * 10**6:064x}"


@pytest.mark.parametrize(
    "changes",
    [
        {"id": "someone-elses-tx"},
        {"chainId": 1},
        {"to": ATTACKER},
        {"callData": OTHER_CALL},
        {"value": "1000000000000000000"},
    ],
    ids=["id", "chain", "target", "calldata", "value"],
)
async def test_another_transactions_record_is_not_a_success(
    sb: Sandbox, kind: str, changes: dict[str, Any]
) -> None:
    relayer = client(sb, kind, "relayer")
    tx_id = await resolve(relayer.relay(chain_id=8453, to=TEST_ADDRESS, call_data="0x"))
    field = next(iter(changes))
    sb.faults.tamper_relayer_record(changes)
    sb.clock.advance(10)  # executed by now: only the tamper stands in the way
    with pytest.raises(errors.ResponseValidationError, match=f"its {field} is") as info:
        await resolve(relayer.wait_for_execution_hash(tx_id))
    assert not info.value.outcome_unknown
    with pytest.raises(errors.ResponseValidationError):
        await resolve(relayer.get_relay_status(tx_id))
    assert len(relayed(sb)) == 1


@pytest.mark.parametrize(
    "changes",
    [{"chainId": 1}, {"to": ATTACKER}, {"callData": OTHER_CALL}, {"value": "1"}],
    ids=["chain", "target", "calldata", "value"],
)
async def test_relay_sync_refuses_another_transactions_record(
    sb: Sandbox, kind: str, changes: dict[str, Any]
) -> None:
    sb.faults.tamper_relayer_record(changes)
    relayer = client(sb, kind, "relayer")
    with pytest.raises(errors.ResponseValidationError) as info:
        await resolve(relayer.relay_sync(chain_id=8453, to=TEST_ADDRESS, call_data="0x"))
    assert info.value.outcome_unknown  # ours was sent; its fate is unknown
    assert len(relayed(sb)) == 1


async def test_a_record_for_every_chain_authorization_needs_the_opt_in(sb: Sandbox) -> None:
    delegate = "0x5ce9454909639D2D17A3F753ce7d93fa0b9aB12E"
    signer = RecordingSigner()
    with pytest.raises(errors.InvalidInputError) as info:
        sign_authorization(signer, chain_id=0, address=delegate, nonce=0)
    assert info.value.argument == "chain_id"
    assert "unsafe_any_chain" in info.value.rule
    assert signer.digests == []
    assert signer.typed == []


# ------------------------------------------------------------------ the login answer's JWT


def _exceptions(exc: BaseException | None) -> Iterator[BaseException]:
    while exc is not None:
        yield exc
        exc = exc.__cause__ or exc.__context__


async def test_a_new_jwt_stays_off_the_error(
    sb: Sandbox, kind: str, signer: RecordingSigner
) -> None:
    sb.faults.tamper_login_answer({"is_new_user": "perhaps"})
    flash = client(sb, kind, "flash", signer)
    with pytest.raises(errors.XSwapError) as info:
        await resolve(flash.login())
    raised = list(_exceptions(info.value))
    bodies = [e.body for e in raised if isinstance(e, errors.ResponseValidationError)]
    assert bodies
    assert bodies[0]["token"] == "[redacted]"
    for exc in raised:
        for shown in (str(exc), repr(exc), repr(vars(exc))):
            assert not JWT.search(shown), type(exc).__name__
    assert sb.requests.select("flash", "POST", "/auth/verify")  # the JWT was issued


# ------------------------------------------------------------------ lone surrogates


async def test_a_lone_surrogate_in_a_quote_ends_typed_before_signing(
    sb: Sandbox, kind: str, signer: RecordingSigner
) -> None:
    sb.faults.tamper_lone_surrogate("swap_calldata", service="flash", method="GET", path="/quote")
    with pytest.raises(errors.ResponseValidationError, match="surrogate"):
        await resolve(client(sb, kind, "flash", signer).swap(signer, **SWAP))
    assert signer.typed == []
    assert not sb.requests.select("flash", "POST", "/swap")


async def test_a_lone_surrogate_in_a_login_message_ends_typed_before_signing(
    sb: Sandbox, kind: str, signer: RecordingSigner
) -> None:
    sb.faults.tamper_lone_surrogate("message", service="flash", path="/auth/message")
    with pytest.raises(errors.XSwapError) as info:
        await resolve(client(sb, kind, "flash", signer).login())
    assert any(isinstance(e, errors.ResponseValidationError) for e in _exceptions(info.value))
    assert signer.messages == []
    assert not sb.requests.select("flash", "POST", "/auth/verify")


async def test_a_lone_surrogate_in_a_gasless_quote_ends_typed_before_signing(
    sb: Sandbox, kind: str, signer: RecordingSigner
) -> None:
    sb.faults.tamper_lone_surrogate("data.0.quoteId", service="routing", path="/gasless/quote")
    with pytest.raises(errors.ResponseValidationError, match="surrogate"):
        await resolve(client(sb, kind, "routing").gasless_swap(signer, **GASLESS))
    assert signer.typed == []
    assert not sb.requests.select("routing", "POST", "/gasless/submit-swap")


# ------------------------------------------------------------------ signatures in frames


class KeepingSigner(RecordingSigner):
    """Also hands the signatures it makes to ``kept`` (a list outside the signer, which
    the SDK's frames legitimately hold), to look for them afterwards."""

    def __init__(self, kept: list[str]) -> None:
        super().__init__()
        self._keep = kept.append

    def sign_typed_data(self, **kwargs: Any) -> object:
        signed: Any = super().sign_typed_data(**kwargs)
        self._keep(bytes(signed.signature).hex())
        return signed


@pytest.mark.parametrize("failure", ["server-error", "unreadable-answer"])
async def test_a_permit2_signature_stays_in_no_frame_when_the_submission_fails(
    sb: Sandbox, kind: str, failure: str
) -> None:
    signatures: list[str] = []
    signer = KeepingSigner(signatures)
    if failure == "server-error":
        sb.faults.server_error(500, service="routing", path="/gasless/submit-swap")
    else:
        sb.faults.tamper(
            lambda body: {"code": 0, "data": {"swapId": 5}},
            service="routing",
            path="/gasless/submit-swap",
        )
    with pytest.raises(errors.APIError) as info:
        await resolve(client(sb, kind, "routing").gasless_swap(signer, **GASLESS))
    assert info.value.outcome_unknown
    (signature,) = signatures
    assert_no_secret_in_frames(info.value, [signature])
    assert_no_secret_in_frames(info.value, [signature], objects=False)


async def test_burn_intent_signatures_stay_in_no_frame_when_the_submission_fails(
    sb: Sandbox, kind: str
) -> None:
    signatures: list[str] = []
    signer = KeepingSigner(signatures)
    sb.faults.server_error(500, service="flash", path="/swap")
    with pytest.raises(errors.APIError) as swap_failed:
        await resolve(client(sb, kind, "flash", signer).swap(signer, **SWAP))
    sb.faults.server_error(500, service="gateway", path="/v1/transfer")
    with pytest.raises(errors.APIError) as transfer_failed:
        await transfer(sb, kind, signer)
    assert len(signatures) == 2
    for failure in (swap_failed.value, transfer_failed.value):
        assert failure.outcome_unknown
        assert_no_secret_in_frames(failure, signatures)


# ------------------------------------------------------------------ EIP-3009 windows


@pytest.mark.parametrize(
    ("window", "argument"),
    [
        ({"valid_before": 1}, "valid_before"),  # long past
        ({"valid_after": 4_102_444_800, "valid_before": 4_102_444_800}, "valid_before"),  # empty
    ],
    ids=["expired", "empty"],
)
def test_an_authorization_the_token_would_refuse_is_not_signed(
    window: dict[str, Any], argument: str
) -> None:
    from xswap_sdk.signing import prepare_deposit_with_authorization

    signer = RecordingSigner()
    with pytest.raises(errors.InvalidInputError) as info:
        prepare_deposit_with_authorization(signer, chain_id=8453, value=1_000_000, **window)
    assert info.value.argument == argument
    assert signer.typed == []
    assert signer.digests == []
