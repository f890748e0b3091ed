"""`xswap_sdk._keccak`: pycryptodome's Keccak-256 through ctypes gives eth_hash's digests."""

from __future__ import annotations

import os

import pytest
from eth_hash.auto import keccak as eth_hash_keccak

from xswap_sdk import _keccak
from xswap_sdk._keccak import keccak


def test_known_digest() -> None:
    # Keccak-256 of nothing, as Ethereum defines it (not SHA3-256's a7ffc6f8...).
    assert keccak(b"").hex() == "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"


@pytest.mark.parametrize("size", [0, 1, 31, 32, 33, 135, 136, 137, 272, 1000, 5000])
def test_same_as_eth_hash(size: int) -> None:
    data = os.urandom(size)
    assert keccak(data) == eth_hash_keccak(data)


def test_bytes_like_and_refusals() -> None:
    assert keccak(bytearray(b"abc")) == eth_hash_keccak(b"abc")
    assert keccak(memoryview(b"abc")) == eth_hash_keccak(b"abc")
    with pytest.raises(TypeError):
        keccak("abc")  # type: ignore[arg-type]


def test_loaded_without_cffi() -> None:
    # The point of the module: pycryptodome's library through ctypes, not eth_hash.
    assert keccak is not eth_hash_keccak
    assert keccak.__module__ == "xswap_sdk._keccak"


def test_falls_back_to_eth_hash(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("importlib.util.find_spec", lambda name: None)
    fallback = _keccak._load()
    assert fallback(b"abc") == eth_hash_keccak(b"abc")


def test_a_library_that_answers_wrongly_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    # pycryptodome's C functions are declared by hand: a release that changed them would
    # hash wrongly. The known answers are checked at load; a mismatch falls back.
    monkeypatch.setattr(_keccak, "_EMPTY", "00" * 32)
    fallback = _keccak._load()
    assert fallback is eth_hash_keccak
