"""The SDK's sandbox as the swap backend of the flash tests (the ``backend`` fixture)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import httpx

from xswap_sdk.sandbox import Sandbox
from xswap_sdk.sandbox._jwt import encode as encode_jwt

from ..support import ADDRESS, FLASH_URL

JWT_SECRET = b"the flash tests' sandbox key"


@dataclass
class SandboxFlash:
    """The sandbox's swap backend behind pytest-httpx: requests to ``FLASH_URL`` go to
    ``sb.flash`` (which checks logins and signed orders itself), so a test still sees
    them with ``httpx_mock.get_requests()`` and can put its own callback in front.

    ``held`` is funded into the test wallet's gateway balances at the first request.
    """

    sb: Sandbox
    held: dict[int, int] = field(default_factory=lambda: {42161: 6_000_000, 8453: 9_000_000})
    answers: list[tuple[str, httpx.Response]] = field(default_factory=list)
    _funded: bool = False

    jwt: str = ""
    """A token for the test wallet signed with the sandbox's key, as if it had logged in
    before the test (the wallet is still new to the sandbox)."""

    def __post_init__(self) -> None:
        self.sb.flash.quote_lifetime = 60.0
        now = int(self.sb.clock.time())
        claims = {"sub": ADDRESS, "iat": now, "exp": now + 3600, "jti": "before-the-test"}
        self.jwt = encode_jwt(claims, JWT_SECRET)

    def __call__(self, request: httpx.Request) -> httpx.Response:
        if not self._funded:
            self._funded = True
            for chain_id, amount in self.held.items():
                self.sb.fund(ADDRESS, chain_id, amount)
        url = self.sb.flash_url + str(request.url)[len(FLASH_URL) :]
        forwarded = httpx.Request(
            request.method, url, headers=request.headers, content=request.content
        )
        answer = self.sb.transport.handle_request(forwarded)
        answer.read()
        self.answers.append((request.url.path, answer))
        return httpx.Response(answer.status_code, headers=answer.headers, content=answer.content)

    @property
    def logins(self) -> int:
        """How many logins the sandbox accepted."""
        return len(
            [r for r in self.sb.requests.select("flash", "POST", "/auth/verify") if r.status == 200]
        )

    @property
    def requests(self) -> list[tuple[str, str]]:
        """``(method, path)`` of every request the sandbox received."""
        return [(r.method, r.path) for r in self.sb.requests.select("flash")]

    def count(self, method: str, path: str) -> int:
        """How many requests were received for ``method path``."""
        return len(self.sb.requests.select("flash", method, path))

    @property
    def swaps(self) -> list[dict[str, Any]]:
        """The bodies of the swaps the sandbox accepted."""
        return [
            json.loads(r.body)
            for r in self.sb.requests.select("flash", "POST", "/swap")
            if r.status == 200
        ]

    def answer(self, path: str) -> Any:
        """The JSON of the last answer to ``path``."""
        return next(a.json() for p, a in reversed(self.answers) if p == path)

    def expire_tokens(self) -> None:
        """Every token issued so far is now refused with 401 (time passes their end)."""
        self.sb.clock.advance(self.sb.flash.accounts.token_lifetime)
