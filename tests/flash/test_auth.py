"""Login: the signature, the kept token, lazy login, exactly one re-login after a 401
(shared by concurrent calls), and the errors that say how to authenticate."""

from __future__ import annotations

import asyncio
import json
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from eth_account import Account
from eth_account.signers.local import LocalAccount
from pydantic import SecretStr
from pytest_httpx import HTTPXMock

from xswap_sdk import AsyncFlashClient, FlashClient, errors
from xswap_sdk.flash import AuthSession
from xswap_sdk.signing import recover_personal_sign

from ..support import ADDRESS, FLASH_JWT, FLASH_URL, resolve
from .payloads import auth_message, history, siwe, verification
from .sandboxed import SandboxFlash

HISTORY = f"{FLASH_URL}/history?page=1&page_size=20"


def paths(httpx_mock: HTTPXMock) -> list[str]:
    return [f"{r.method} {r.url.path}" for r in httpx_mock.get_requests()]


async def test_login_signs_the_message_and_keeps_the_token(
    make_flash: Any, backend: SandboxFlash, wallet: LocalAccount, httpx_mock: HTTPXMock
) -> None:
    # A friend logged in before, straight at the sandbox: their code is one it knows.
    with backend.sb.flash_client(signer=Account.create()) as friends:
        code = friends.login().referral_code
    backend.sb.requests.clear()
    client = make_flash(signer=wallet)
    session = await resolve(client.login(referred_by_code=code))
    assert isinstance(session, AuthSession)
    assert session.user_address == ADDRESS
    assert session.is_new_user is True
    assert session.referral_code not in (None, "", code)
    token = session.token.get_secret_value()
    assert token == backend.answer("/auth/verify")["token"]
    assert token not in repr(session)
    assert token not in str(session)
    assert client.session == session
    message_request, verify_request = httpx_mock.get_requests()
    assert json.loads(message_request.content) == {"userAddress": ADDRESS}
    verify = json.loads(verify_request.content)
    assert verify["messageId"] == backend.answer("/auth/message")["messageId"]
    assert verify["referredByCode"] == code
    assert backend.logins == 1  # the sandbox recovered the wallet from the signature
    await resolve(client.get_history())
    assert httpx_mock.get_requests()[-1].headers["authorization"] == f"Bearer {token}"


async def test_the_login_signature_recovers_to_the_signer(
    make_flash: Any, httpx_mock: HTTPXMock, wallet: LocalAccount
) -> None:
    # Names the wallet (or it is not signed); the nonce looks like hex, still signed as text.
    message = siwe(wallet.address, nonce="m7m7m7m7m7")
    httpx_mock.add_response(url=f"{FLASH_URL}/auth/message", json=auth_message(message, "m-7"))
    httpx_mock.add_response(
        url=f"{FLASH_URL}/auth/verify", json=verification("jwt-7", wallet.address)
    )
    client = make_flash()
    session = await resolve(client.login(wallet))
    signature = json.loads(httpx_mock.get_requests()[1].content)["signature"]
    assert recover_personal_sign(message, signature) == wallet.address
    assert session.user_address == wallet.address  # sent back lowercase, checksummed


async def test_a_client_with_a_signer_logs_in_lazily_once(
    make_flash: Any, backend: SandboxFlash, wallet: LocalAccount, httpx_mock: HTTPXMock
) -> None:
    client = make_flash(signer=wallet)
    await resolve(client.get_supported_chains())  # needs no login
    assert backend.logins == 0
    await resolve(client.get_history())
    await resolve(client.get_history(page=2))
    assert backend.logins == 1
    assert paths(httpx_mock) == [
        "GET /supported-chains",
        "POST /auth/message",
        "POST /auth/verify",
        "GET /history",
        "GET /history",
    ]


async def test_a_401_logs_in_again_once_and_resends_once(
    make_flash: Any, backend: SandboxFlash, wallet: LocalAccount, httpx_mock: HTTPXMock
) -> None:
    client = make_flash(signer=wallet, jwt=backend.jwt)
    await resolve(client.get_history())
    assert backend.logins == 0
    backend.expire_tokens()
    await resolve(client.get_history())
    assert backend.logins == 1
    assert paths(httpx_mock)[1:] == [
        "GET /history",
        "POST /auth/message",
        "POST /auth/verify",
        "GET /history",
    ]
    auths = [r.headers.get("authorization") for r in httpx_mock.get_requests()]
    fresh = backend.answer("/auth/verify")["token"]
    assert auths == [f"Bearer {backend.jwt}"] * 2 + [None, None, f"Bearer {fresh}"]


async def test_a_second_401_is_raised_not_looped(
    make_flash: Any, httpx_mock: HTTPXMock, wallet: LocalAccount
) -> None:
    httpx_mock.add_response(url=HISTORY, status_code=401, json={"message": "expired"})
    httpx_mock.add_response(url=f"{FLASH_URL}/auth/message", json=auth_message(message_id="1"))
    httpx_mock.add_response(
        url=f"{FLASH_URL}/auth/verify", json=verification("still-bad", wallet.address)
    )
    httpx_mock.add_response(url=HISTORY, status_code=401, json={"message": "expired"})
    client = make_flash(signer=wallet, jwt=FLASH_JWT)
    with pytest.raises(errors.AuthenticationError):
        await resolve(client.get_history())
    assert len(httpx_mock.get_requests()) == 4


async def test_a_401_without_a_signer_is_raised(flash: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=HISTORY, status_code=401, json={"message": "expired"})
    with pytest.raises(errors.AuthenticationError) as info:
        await resolve(flash.get_history())
    assert info.value.status_code == 401
    assert FLASH_JWT not in str(info.value)
    assert len(httpx_mock.get_requests()) == 1


def test_concurrent_threads_share_one_relogin(
    backend: SandboxFlash, wallet: LocalAccount, httpx_mock: HTTPXMock
) -> None:
    workers = 6
    barrier = threading.Barrier(workers, timeout=30)
    stale = f"Bearer {backend.jwt}"

    def held_until_all_arrive(request: httpx.Request) -> httpx.Response:
        # Every worker's first request carries the stale token and is answered only when
        # all of them are in flight, so all of them meet the 401 before any re-login.
        if request.url.path == "/history" and request.headers.get("authorization") == stale:
            barrier.wait()
        return backend(request)

    client = FlashClient(base_url=FLASH_URL, signer=wallet, jwt=backend.jwt)
    backend.expire_tokens()
    httpx_mock.reset()
    httpx_mock.add_callback(held_until_all_arrive, is_reusable=True)
    with client, ThreadPoolExecutor(workers) as pool:
        pages = list(pool.map(lambda _: client.get_history(), range(workers)))
    assert len(pages) == workers
    assert backend.logins == 1
    assert backend.count("GET", "/history") == 2 * workers
    assert backend.count("POST", "/auth/verify") == 1


async def test_concurrent_tasks_share_one_relogin(
    backend: SandboxFlash, wallet: LocalAccount, httpx_mock: HTTPXMock
) -> None:
    tasks = 6
    arrived = 0
    all_in = asyncio.Event()
    stale = f"Bearer {backend.jwt}"

    async def held_until_all_arrive(request: httpx.Request) -> httpx.Response:
        nonlocal arrived
        if request.url.path == "/history" and request.headers.get("authorization") == stale:
            arrived += 1
            if arrived == tasks:
                all_in.set()
            await all_in.wait()
        return backend(request)

    backend.expire_tokens()
    httpx_mock.reset()
    httpx_mock.add_callback(held_until_all_arrive, is_reusable=True)
    async with AsyncFlashClient(base_url=FLASH_URL, signer=wallet, jwt=backend.jwt) as client:
        pages = await asyncio.gather(*(client.get_history() for _ in range(tasks)))
    assert len(pages) == tasks
    assert backend.logins == 1
    assert backend.count("GET", "/history") == 2 * tasks


async def test_concurrent_first_calls_share_one_lazy_login(
    backend: SandboxFlash, wallet: LocalAccount, kind: str
) -> None:
    if kind == "sync":
        with (
            FlashClient(base_url=FLASH_URL, signer=wallet) as client,
            ThreadPoolExecutor(4) as pool,
        ):
            list(pool.map(lambda _: client.get_history(), range(4)))
    else:
        async with AsyncFlashClient(base_url=FLASH_URL, signer=wallet) as client:
            await asyncio.gather(*(client.get_history() for _ in range(4)))
    assert backend.logins == 1


def test_an_async_client_logs_in_again_from_a_second_event_loop(
    backend: SandboxFlash, wallet: LocalAccount, httpx_mock: HTTPXMock
) -> None:
    # A notebook or script that calls asyncio.run twice with one client: the login lock
    # that concurrent calls waited on in the first loop must not refuse to wait in the
    # second.
    async def slow_login(request: httpx.Request) -> httpx.Response:
        if request.url.path.startswith("/auth/"):
            await asyncio.sleep(0.01)  # the other calls queue on the lock meanwhile
        return backend(request)

    httpx_mock.reset()
    httpx_mock.add_callback(slow_login, is_reusable=True)
    client = AsyncFlashClient(base_url=FLASH_URL, signer=wallet)

    async def concurrent_calls() -> None:
        await asyncio.gather(*(client.get_history() for _ in range(4)))

    asyncio.run(concurrent_calls())
    backend.expire_tokens()
    asyncio.run(concurrent_calls())
    assert backend.logins == 2


async def test_no_credentials_says_how_to_authenticate_before_any_io(
    make_flash: Any, httpx_mock: HTTPXMock
) -> None:
    client = make_flash()
    for call in (client.get_history, client.get_referrals, lambda: client.login()):
        with pytest.raises(errors.MissingCredentialsError) as info:
            await resolve(call())
        message = str(info.value)
        for hint in ("signer=", "jwt=", "XSWAP_FLASH_JWT", "login("):
            assert hint in message
        assert info.value.env_var == "XSWAP_FLASH_JWT"
    assert httpx_mock.get_requests() == []
    # Reads that need no login still work without credentials.
    httpx_mock.add_response(url=f"{FLASH_URL}/supported-chains", json=[])
    assert await resolve(client.get_supported_chains()) == []


async def test_the_jwt_comes_from_the_environment(
    make_flash: Any, httpx_mock: HTTPXMock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XSWAP_FLASH_JWT", "jwt-from-env-123")
    client = make_flash()
    httpx_mock.add_response(url=HISTORY, json=history([]))
    await resolve(client.get_history())
    assert httpx_mock.get_requests()[0].headers["authorization"] == "Bearer jwt-from-env-123"
    assert "jwt-from-env-123" not in repr(client)
    assert "jwt=set" in repr(client)


async def test_an_explicit_jwt_wins_over_the_environment(
    make_flash: Any, httpx_mock: HTTPXMock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XSWAP_FLASH_JWT", "jwt-from-env-123")
    client = make_flash(jwt=SecretStr("jwt-argument-456"))
    httpx_mock.add_response(url=HISTORY, json=history([]))
    await resolve(client.get_history())
    assert httpx_mock.get_requests()[0].headers["authorization"] == "Bearer jwt-argument-456"


@pytest.mark.parametrize(
    ("kwargs", "argument"),
    [({"jwt": ""}, "jwt"), ({"jwt": 5}, "jwt"), ({"signer": "0xabc"}, "signer")],
)
def test_bad_constructor_arguments(make_flash: Any, kwargs: dict[str, Any], argument: str) -> None:
    with pytest.raises(errors.InvalidInputError) as info:
        make_flash(**kwargs)
    assert info.value.argument == argument


async def test_with_options_copies_share_the_session(
    make_flash: Any, backend: SandboxFlash, wallet: LocalAccount
) -> None:
    client = make_flash(signer=wallet)
    copy = client.with_options(timeout=5)
    await resolve(copy.get_history())
    await resolve(client.get_history())
    assert backend.logins == 1
    assert client.session is not None
    assert client.session is copy.session


@pytest.mark.parametrize(
    ("route", "response", "cause"),
    [
        ("/auth/message", (500, {"message": "boom"}), errors.APIStatusError),
        ("/auth/verify", (401, {"message": "bad sig"}), errors.APIStatusError),
        ("/auth/verify", (200, verification("")), None),
        ("/auth/verify", (200, {"user_address": ADDRESS}), errors.ResponseValidationError),
        ("/auth/verify", (200, verification("t", "0x" + "11" * 20)), None),
    ],
)
async def test_login_failures_raise_login_error(
    make_flash: Any,
    httpx_mock: HTTPXMock,
    wallet: LocalAccount,
    route: str,
    response: tuple[int, dict[str, Any]],
    cause: type[BaseException] | None,
) -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path == route:
            return httpx.Response(response[0], json=response[1])
        return httpx.Response(200, json=auth_message())

    httpx_mock.add_callback(answer, is_reusable=True)
    client = make_flash(signer=wallet, max_retries=0)
    with pytest.raises(errors.LoginError) as info:
        await resolve(client.get_history())
    if cause is not None:
        assert isinstance(info.value.__cause__, cause)
    assert client.session is None
    assert all(r.url.path != "/history" for r in httpx_mock.get_requests())


async def test_a_signer_that_fails_raises_login_error(
    make_flash: Any, httpx_mock: HTTPXMock
) -> None:
    class Broken:
        address = ADDRESS

        def unsafe_sign_hash(self, message_hash: Any) -> Any:
            raise RuntimeError("hardware wallet unplugged")

        def sign_message(self, signable_message: Any) -> Any:
            raise RuntimeError("hardware wallet unplugged")

        def sign_typed_data(self, *args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("hardware wallet unplugged")

    httpx_mock.add_response(url=f"{FLASH_URL}/auth/message", json=auth_message())
    client = make_flash()
    with pytest.raises(errors.LoginError, match="could not be signed"):
        await resolve(client.login(Broken()))


async def test_login_with_another_signer_switches_the_session(
    make_flash: Any, backend: SandboxFlash, wallet: LocalAccount
) -> None:
    other = Account.create()
    client = make_flash(signer=wallet)
    session = await resolve(client.login(other))
    assert session.user_address == other.address
    backend.expire_tokens()
    await resolve(client.get_history())  # re-login uses the signer that logged in last
    assert client.session.user_address == other.address
    assert backend.logins == 2
