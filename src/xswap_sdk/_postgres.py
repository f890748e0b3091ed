"""A PostgreSQL server named by a libpq URL, without its password ever showing.

``postgresql://user:password@host:5432/db`` (or ``postgres://``; a password may also sit
in the query, ``?password=...``) is what a caller gives the SDK for a database it runs.
`PostgresURL` checks it once (libpq's own parser, through psycopg), keeps it in a
`pydantic.SecretStr` (so that no error tracker walking frame locals opens it), shows it
as `PostgresURL.shown` with the password masked, and connects with every failure turned
into a `PostgresUnavailable` whose message names the server by that masked form and has
the password scrubbed out of the driver's text. The connection's error is not chained to
it: a driver's traceback keeps the connection string in its frames.

psycopg 3 is the optional extra ``postgres``; it is imported only when a URL is used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit, urlunsplit

from pydantic import SecretStr

from ._lazy import require
from .errors import InvalidInputError

if TYPE_CHECKING:
    import psycopg

__all__ = ["SCHEMES", "PostgresURL", "PostgresUnavailable", "is_postgres_url"]

SCHEMES: Final = ("postgresql://", "postgres://")
"""How a libpq URL starts (case-insensitive)."""

_MASK: Final = "***"
_CONNECT_SECONDS: Final = 10


def is_postgres_url(value: object) -> bool:
    """Whether ``value`` is a string naming a PostgreSQL server (a libpq URL)."""
    return isinstance(value, str) and value.strip().lower().startswith(SCHEMES)


class PostgresUnavailable(Exception):  # noqa: N818 -- internal; callers raise a typed error
    """The server could not be reached or refused us; the message is safe to show (no
    password) and names the server by its masked URL."""


def _masked(url: str) -> tuple[str, list[str]]:
    """``url`` with its passwords masked, and the passwords found (raw and decoded)."""
    parts = urlsplit(url)
    secrets: list[str] = []
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, _, hosts = netloc.rpartition("@")
        user, colon, password = userinfo.partition(":")
        if colon:
            secrets += [password, unquote(password)]
            netloc = f"{user}:{_MASK}@{hosts}"
    query = parse_qsl(parts.query, keep_blank_values=True)
    shown_query = []
    for key, value in query:
        if key.lower() in ("password", "sslpassword"):
            secrets += [value, quote(value)]
            value = _MASK
        shown_query.append((key, value))
    shown = urlunsplit(parts._replace(netloc=netloc, query=urlencode(shown_query, safe="/*")))
    return shown, [secret for secret in secrets if secret]


class PostgresURL:
    """A checked libpq URL, kept secret; see the module docstring.

    Args:
        url: the URL as given.
        argument: the argument it came in (for the error).

    Raises:
        MissingDependencyError: psycopg (the ``postgres`` extra) is not installed.
        InvalidInputError: ``url`` is not a libpq URL libpq can parse (the message never
            shows its password).
    """

    __slots__ = ("_secrets", "_url", "shown")

    def __init__(self, url: str, *, argument: str) -> None:
        if not is_postgres_url(url):
            raise InvalidInputError(argument, "must be a postgresql:// URL")
        self.shown, found = _masked(url.strip())
        """The URL with its password masked: what messages and reprs show."""
        # Longest first: a password that contains another is masked whole.
        self._secrets = tuple(SecretStr(s) for s in sorted(found, key=len, reverse=True))
        del found
        self._url = SecretStr(url.strip())
        del url  # kept only as a secret: no frame of an error below holds it
        conninfo = require("psycopg.conninfo", extra="postgres", feature="a PostgreSQL URL")
        problem = None
        try:
            ports = str(conninfo.conninfo_to_dict(self._url.get_secret_value()).get("port", ""))
        except Exception as exc:  # psycopg.ProgrammingError; libpq's message may quote it
            problem = self.first_line(exc)
        else:
            # libpq reads a port only when it connects: a bad one is refused here, now.
            if not all(p == "" or (p.isdigit() and 0 < int(p) < 65536) for p in ports.split(",")):
                problem = "a port must be a number from 1 to 65535"
        if problem is not None:  # raised here, outside the except: no chained driver error
            raise InvalidInputError(argument, f"is not a valid libpq URL ({problem})")

    @property
    def has_password(self) -> bool:
        """Whether the URL holds a password (in its user part or its query)."""
        return bool(self._secrets)

    def scrub(self, text: str) -> str:
        """``text`` with this URL's passwords masked wherever they appear."""
        for secret in self._secrets:
            text = text.replace(secret.get_secret_value(), _MASK)
        return text

    def first_line(self, error: BaseException) -> str:
        """The first line of a driver's message (libpq adds hints below it), scrubbed."""
        lines = str(error).strip().splitlines()
        return self.scrub(lines[0].strip() if lines else type(error).__name__)

    def connect(self, **options: Any) -> psycopg.Connection[Any]:
        """A new connection (autocommit: each transaction is explicit).

        Raises:
            PostgresUnavailable: the server cannot be reached or refused the login.
        """
        import psycopg

        try:
            return psycopg.connect(**self._connection_arguments(options))
        except psycopg.Error as exc:
            refused = self._refused(exc)
        raise refused  # outside the except: the driver's error is not chained to it

    async def aconnect(self, **options: Any) -> psycopg.AsyncConnection[Any]:
        """A new connection for asyncio code (autocommit: each transaction is explicit).

        Raises:
            PostgresUnavailable: the server cannot be reached or refused the login.
        """
        import psycopg

        try:
            return await psycopg.AsyncConnection.connect(**self._connection_arguments(options))
        except psycopg.Error as exc:
            refused = self._refused(exc)
        raise refused  # outside the except: the driver's error is not chained to it

    def _connection_arguments(self, options: dict[str, Any]) -> dict[str, Any]:
        # Autocommit: each transaction is explicit.
        return {
            "conninfo": self._url.get_secret_value(),
            "autocommit": True,
            "connect_timeout": _CONNECT_SECONDS,
            **options,
        }

    def _refused(self, error: BaseException) -> PostgresUnavailable:
        return PostgresUnavailable(
            f"cannot connect to {self.shown}: {type(error).__name__}: {self.first_line(error)}"
        )

    def __repr__(self) -> str:
        return f"PostgresURL({self.shown!r})"
