"""No JWT or signature from a flash login or swap reaches a log record, a repr or an
error message, even when the service echoes them back."""

from __future__ import annotations

import json
import logging
from typing import Any

import httpx
import pytest
from eth_account.signers.local import LocalAccount
from pytest_httpx import HTTPXMock

from xswap_sdk import errors

from ..support import ADDRESS, TEST_PRIVATE_KEY, resolve
from .sandboxed import SandboxFlash

PLANTED_JWT = "eyJhbGciOiJIUzI1NiJ9.PLANTED-flash-jwt.c2lnbmF0dXJl"


async def test_no_jwt_or_signature_leaks(
    make_flash: Any,
    backend: SandboxFlash,
    wallet: LocalAccount,
    httpx_mock: HTTPXMock,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    signatures: list[str] = []

    def echoing(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/auth/verify":
            signature = json.loads(request.content)["signature"]
            signatures.append(signature)
            return httpx.Response(401, json={"message": f"bad signature {signature}"})
        if request.url.path == "/referrals":
            token = request.headers["authorization"]
            return httpx.Response(403, json={"message": f"token {token} not allowed"})
        return backend(request)

    httpx_mock.reset()
    httpx_mock.add_callback(echoing, is_reusable=True)
    client = make_flash(signer=wallet, jwt=PLANTED_JWT)
    raised: list[BaseException] = []
    with pytest.raises(errors.PermissionDeniedError) as denied:
        await resolve(client.get_referrals())
    raised.append(denied.value)
    with pytest.raises(errors.LoginError) as failed:
        await resolve(client.login())
    raised.append(failed.value)
    raised.append(failed.value.__cause__)  # type: ignore[arg-type]

    secrets = [PLANTED_JWT, TEST_PRIVATE_KEY[2:], *(s[2:] for s in signatures)]
    assert signatures
    texts = [str(e) for e in raised] + [repr(e) for e in raised]
    texts += [repr(client), repr(client.with_options(timeout=2)), repr(client._session)]
    texts += [record.getMessage() + repr(vars(record)) for record in caplog.records]
    for text in texts:
        for secret in secrets:
            assert secret not in text
    assert "[redacted]" in str(denied.value)


def test_a_swap_request_repr_hides_the_signed_order() -> None:
    from xswap_sdk.flash import SwapRequest

    signature = "0x" + "5e" * 65
    request = SwapRequest(
        signed_order=[{"intent": {}, "signature": signature}],
        user_address=ADDRESS,
        chain_id=8453,
        swap_router_address=ADDRESS,
        swap_calldata="0x",
        slippage_bps=50,
    )
    assert signature[2:] not in repr(request)
    assert request.to_wire()["signedOrder"][0]["signature"] == signature


async def test_captured_responses_keep_no_login_token(
    make_flash: Any, backend: SandboxFlash, wallet: LocalAccount
) -> None:
    client = make_flash(signer=wallet)
    with client.capture_responses() as responses:
        await resolve(client.get_history())
    verify = next(r for r in responses if r.path == "/auth/verify")
    assert verify.json()["token"] == "[redacted]"
    token = client.session.token.get_secret_value()
    assert all(token not in r.text for r in responses)
    assert responses[-1].path == "/history"  # other answers are kept as received
