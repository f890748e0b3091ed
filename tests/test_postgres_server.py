"""The suite's own PostgreSQL server (``tests/postgres.py``): it runs unprivileged, asks
for the password on TCP and on its unix socket alike, and gives each module a fresh
database."""

from __future__ import annotations

import os
from typing import Any

import psycopg
import pytest

from . import postgres


def test_the_server_runs_unprivileged_and_asks_for_the_password(postgres_server: Any) -> None:
    with psycopg.connect(postgres_server.url) as conn:
        assert conn.execute("SELECT current_user").fetchone() == (postgres.USER,)
        if postgres_server.socket_dir is not None:  # a server this suite started
            [data] = conn.execute("SHOW data_directory").fetchone() or [""]
            # PostgreSQL runs as whoever owns its data directory: never root.
            assert os.stat(str(data)).st_uid != 0
    without = postgres_server.url.replace(":" + postgres.PASSWORD, "")
    with pytest.raises(psycopg.OperationalError, match="password"):
        psycopg.connect(without, connect_timeout=5).close()


def test_the_unix_socket_answers_with_the_password(postgres_server: Any) -> None:
    if postgres_server.socket_dir is None:
        pytest.skip("a server of your own (XSWAP_TEST_POSTGRES_URL) has no socket here")
    port = postgres_server.url.rsplit(":", 1)[1].split("/")[0]
    url = (
        f"postgresql://{postgres.USER}:{postgres.PASSWORD}@/postgres"
        f"?host={postgres_server.socket_dir}&port={port}"
    )
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT 1").fetchone() == (1,)


def test_each_module_gets_a_fresh_database(postgres_url: str) -> None:
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        name = conn.execute("SELECT current_database()").fetchone()
        tables = conn.execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"
        ).fetchone()
    assert name == ("t_test_postgres_server",)
    assert tables == (0,)
