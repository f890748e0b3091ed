"""Keccak-256 for EIP-55 checksums, loaded without cffi.

Every model that holds an address checksums it (`xswap_sdk.types.to_checksum`), so the
first read of any client needs keccak. ``eth_hash`` gives it through pycryptodome, whose
``Crypto.Util._raw_api`` declares each C function with cffi: cffi then imports pycparser
and parses the declarations, about 30 ms of a fresh process's first result (and
``eth_hash`` looks its own version up with ``importlib.metadata``, 7 ms more). This
module calls the same compiled pycryptodome function (``Crypto/Hash/_keccak``, which
``eth_hash`` would call) through ``ctypes``, in 2 ms; where that library cannot be
found or loaded, it falls back to ``eth_hash``. ``tests/test_keccak.py`` compares the
two.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["keccak"]


def _eth_hash() -> Callable[[bytes], bytes]:
    from eth_hash.auto import keccak as eth_hash_keccak  # lazy: only when ctypes cannot load

    return eth_hash_keccak


def _load() -> Callable[[bytes], bytes]:
    """Keccak-256 from pycryptodome's compiled library through ctypes, or ``eth_hash``'s."""
    try:
        import ctypes
        from importlib.machinery import EXTENSION_SUFFIXES
        from importlib.util import find_spec
        from pathlib import Path

        spec = find_spec("Crypto")
        if spec is None or not spec.submodule_search_locations:
            return _eth_hash()
        folder = Path(next(iter(spec.submodule_search_locations))) / "Hash"
        paths = [folder / f"_keccak{suffix}" for suffix in EXTENSION_SUFFIXES]
        found = [path for path in paths if path.is_file()]
        if not found:
            return _eth_hash()
        lib = ctypes.CDLL(str(found[0]))
        init, absorb, digest, destroy = (
            lib.keccak_init,
            lib.keccak_absorb,
            lib.keccak_digest,
            lib.keccak_destroy,
        )
    except (ImportError, OSError, AttributeError):
        return _eth_hash()
    pointer = ctypes.c_void_p
    init.argtypes = [ctypes.POINTER(pointer), ctypes.c_size_t, ctypes.c_uint8]
    absorb.argtypes = [pointer, ctypes.c_char_p, ctypes.c_size_t]
    digest.argtypes = [pointer, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint8]
    destroy.argtypes = [pointer]
    for function in (init, absorb, digest, destroy):
        function.restype = ctypes.c_int
    # One array type made here: create_string_buffer builds its type on every call.
    byref, buffer = ctypes.byref, ctypes.c_char * 32

    def keccak(data: bytes) -> bytes:
        """Keccak-256 (Ethereum's, padding 0x01) of ``data``."""
        if type(data) is not bytes:
            data = bytes(data)
        state = pointer()
        # capacity 512 bits (64 bytes) and 24 rounds: Keccak-256, as pycryptodome's
        # keccak.new(digest_bits=256) asks.
        if init(byref(state), 64, 24):
            raise MemoryError("keccak_init failed")
        try:
            out = buffer()
            if absorb(state, data, len(data)) or digest(state, out, 32, 0x01):
                raise ValueError("keccak failed")
            return out.raw
        finally:
            destroy(state)

    # The functions above are pycryptodome's private C interface, declared here by hand:
    # a release that changed them must not hash wrongly under a signature. Known answers
    # (Keccak-256 of b"" and of b"abc") decide, else eth_hash's own path is used.
    try:
        known = keccak(b"").hex() == _EMPTY and keccak(b"abc").hex() == _ABC
    except (ValueError, MemoryError, OSError):
        known = False
    return keccak if known else _eth_hash()


_EMPTY = "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"
_ABC = "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45"

keccak: Callable[[bytes], bytes] = _load()
"""Keccak-256 of some bytes (the hash Ethereum calls SHA-3)."""
