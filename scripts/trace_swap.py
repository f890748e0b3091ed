"""Trace one sandbox swap: how often each trust rule runs, and the signer's path.

    python scripts/trace_swap.py            # AsyncFlashClient.swap
    python scripts/trace_swap.py --sync     # FlashClient.swap
    python scripts/trace_swap.py --path     # also print the signer's path, entry by entry
    python scripts/trace_swap.py --reach    # a wider path: the signer anywhere in reach

One swap of 20 USDC into WETH on Base, from two source chains (a ``BurnIntentSet``),
against the in-process sandbox, with the client logged in beforehand (the login is its
own signature, not the order's). A profile hook (`sys.setprofile`) sees every Python
call from the moment ``swap`` is entered until the order's signature is made (the
``Sign`` step of the burn intents is performed), and counts:

- **trust rules**: every call of a function of the SDK named ``check_*``,
  ``_check_*``, ``pinned_*`` or listed in `_RULES` (the checks a value meets before it
  is signed), over the whole swap;
- **the signer's path**: the calls that receive the swap's signer, as an argument or as
  the ``signer`` field of an argument (the swap's plan, a ``Sign`` step). A *module
  entry* is such a call into an SDK module other than its caller's (the nearest SDK
  frame below it); a generator or coroutine resumed by the driver is the same call
  going on, not a new entry. A *return to a higher layer* is a module entry whose
  layer (`_LAYERS`, top to bottom: the client, the engine that drives flows, the flows,
  the checks, signing, the base) is above the layer of the entry before it: the path
  going back up instead of down.

With ``--reach``, a call is on the path when the signer can be reached from its
arguments through two hops of SDK objects' fields or a generator's locals (the
transport holding the login holding the signer, the flow holding its plan): every
method of an object that keeps the signer counts, not only the hand-offs.

The numbers are a measure of this one swap: another swap (one source, a requote, a
policy in force) takes other paths.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import dataclasses
import itertools
import sys
from collections.abc import Callable
from types import FrameType
from typing import Any, Final

from xswap_sdk.sandbox import Sandbox
from xswap_sdk.testing import TEST_SIGNER

WETH_ON_BASE: Final = "0x4200000000000000000000000000000000000006"

_RULES: Final = frozenset(
    {
        "output_terms",
        "signable_problem",
        "check_signable",
        "check_slippage",
    }
)
"""Trust rules whose names do not say so."""

_LAYERS: Final = (
    # 0: what the caller calls
    ("xswap_sdk.flash._async_client", "xswap_sdk.flash._sync_client", "xswap_sdk._async_base"),
    # 1: the engine that drives flows (transport, journey driver)
    (
        "xswap_sdk._async_transport",
        "xswap_sdk._sync_transport",
        "xswap_sdk._async_driver",
        "xswap_sdk._sync_driver",
        "xswap_sdk._transport",
        "xswap_sdk._journey",
        "xswap_sdk._journal",
        "xswap_sdk._sync_base",
        "xswap_sdk._base_client",
    ),
    # 2: the flows and what they build
    (
        "xswap_sdk.flash._swap",
        "xswap_sdk.flash._orders",
        "xswap_sdk.flash._auth",
        "xswap_sdk.flash._operations",
        "xswap_sdk._requote",
        "xswap_sdk._polling",
    ),
    # 3: the checks against the caller and the registry
    ("xswap_sdk.flash._trust", "xswap_sdk.flash.models"),
    # 4: signing and its gate
    ("xswap_sdk.signing",),
    # 5: the base everything stands on
    ("xswap_sdk",),
)


def layer_of(module: str) -> int:
    """The layer of ``module`` (0 is the top); the longest matching prefix decides."""
    best, length = len(_LAYERS) - 1, -1
    for index, prefixes in enumerate(_LAYERS):
        for prefix in prefixes:
            if module.startswith(prefix) and len(prefix) > length:
                best, length = index, len(prefix)
    return best


def _sdk(module: str) -> bool:
    return module.startswith("xswap_sdk") and not module.startswith(
        ("xswap_sdk.sandbox", "xswap_sdk.testing")
    )


def _is_rule(name: str) -> bool:
    return name.startswith(("check_", "_check_", "pinned_")) or name in _RULES


_RESUMABLE: Final = 0x20 | 0x80 | 0x200  # CO_GENERATOR | CO_COROUTINE | CO_ASYNC_GENERATOR


def _field(value: object, name: str) -> object:
    """``value.name`` read without running any code (no property, no __getattr__)."""
    own = getattr(value, "__dict__", None)
    if isinstance(own, dict) and name in own:
        return own[name]
    for cls in type(value).__mro__:
        if name in getattr(cls, "__slots__", ()):
            try:
                return object.__getattribute__(value, name)
            except AttributeError:
                return None
    return None


def _fields(value: object) -> list[object]:
    """The fields of an SDK object, or the locals of a suspended generator/coroutine."""
    frame = getattr(value, "gi_frame", None) or getattr(value, "cr_frame", None)
    if isinstance(frame, FrameType):
        return list(frame.f_locals.values())
    if not (type(value).__module__ or "").startswith("xswap_sdk"):
        return []
    own = getattr(value, "__dict__", None)
    found = list(own.values()) if isinstance(own, dict) else []
    for cls in type(value).__mro__:
        for name in getattr(cls, "__slots__", ()):
            found.append(_field(value, name))
    return found


@dataclasses.dataclass
class Trace:
    """What one swap ran."""

    signer: object
    reach: int = 0
    rules: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)
    path: list[tuple[str, str, int]] = dataclasses.field(default_factory=list)
    signed: bool = False
    _seen: set[FrameType] = dataclasses.field(default_factory=set)

    def _holds(self, frame: FrameType) -> bool:
        code = frame.f_code
        names = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
        local = frame.f_locals
        if self.reach:
            return any(self._reaches(local.get(name), self.reach, set()) for name in names)
        for name in names:
            value = local.get(name)
            if value is self.signer or _field(value, "signer") is self.signer:
                return True
        return False

    def _reaches(self, value: object, hops: int, seen: set[int]) -> bool:
        if value is self.signer:
            return True
        if hops == 0 or id(value) in seen:
            return False
        seen.add(id(value))
        return any(self._reaches(field, hops - 1, seen) for field in _fields(value))

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if self.signed:
            return
        module = frame.f_globals.get("__name__", "")
        if event == "return":
            if module == "xswap_sdk.signing.signer" and frame.f_code.co_name == "_perform_sign":
                step = frame.f_locals.get("step")
                if str(getattr(step, "what", "")).startswith("burn intent"):
                    self.signed = True
            return
        if event != "call" or not _sdk(module):
            return
        if frame.f_code.co_flags & _RESUMABLE:
            if frame in self._seen:
                return  # resumed, not entered
            self._seen.add(frame)
        name = frame.f_code.co_name
        if _is_rule(name):
            self.rules[f"{module.removeprefix('xswap_sdk.')}.{name}"] += 1
        if not self._holds(frame):
            return
        caller = frame.f_back
        while caller is not None and not _sdk(caller.f_globals.get("__name__", "")):
            caller = caller.f_back
        above = "" if caller is None else caller.f_globals.get("__name__", "")
        if above != module:
            self.path.append((module, frame.f_code.co_qualname, layer_of(module)))

    @property
    def returns_up(self) -> int:
        """Entries whose layer is above the one of the entry before."""
        layers = [layer for _, _, layer in self.path]
        return sum(1 for before, after in itertools.pairwise(layers) if after < before)


def _swap_args() -> dict[str, Any]:
    return {
        "input_amount": 20_000_000,
        "output_token": WETH_ON_BASE,
        "chain_id": 8453,
        "slippage": "0.5",
    }


def _fund(sb: Sandbox) -> None:
    # Two sources: neither chain alone covers 20 USDC and its fee.
    sb.fund(TEST_SIGNER.address, 8453, 15_000_000)
    sb.fund(TEST_SIGNER.address, 42161, 15_000_000)


def _traced(call: Callable[[], Any], reach: int) -> Trace:
    trace = Trace(TEST_SIGNER, reach)
    before = sys.getprofile()
    sys.setprofile(trace.profile)
    try:
        call()
    finally:
        sys.setprofile(before)
    if not trace.signed:
        raise SystemExit("the swap ended without signing its order")
    return trace


def trace_sync(reach: int = 0) -> Trace:
    """Trace `FlashClient.swap`."""
    with Sandbox() as sb:
        _fund(sb)
        flash = sb.flash_client(signer=TEST_SIGNER)
        flash.login()
        return _traced(lambda: flash.swap(TEST_SIGNER, **_swap_args()), reach)


def trace_async(reach: int = 0) -> Trace:
    """Trace `AsyncFlashClient.swap`."""

    async def main() -> Trace:
        async with Sandbox() as sb:
            _fund(sb)
            flash = sb.async_flash_client(signer=TEST_SIGNER)
            await flash.login()
            done: list[Trace] = []

            async def swapping() -> None:
                await flash.swap(TEST_SIGNER, **_swap_args())

            # The profile hook is per thread: set it around the awaited swap only.
            trace = Trace(TEST_SIGNER, reach)
            before = sys.getprofile()
            sys.setprofile(trace.profile)
            try:
                await swapping()
            finally:
                sys.setprofile(before)
            if not trace.signed:
                raise SystemExit("the swap ended without signing its order")
            done.append(trace)
            return done[0]

    return asyncio.run(main())


def report(trace: Trace, *, show_path: bool) -> None:
    """Print the counts (and the path)."""
    print("trust rules run (calls over the whole swap):")
    for name, count in sorted(trace.rules.items()):
        print(f"  {count:3}  {name}")
    modules = {module for module, _, _ in trace.path}
    print(
        f"signer's path: {len(trace.path)} module entries, {len(modules)} modules, "
        f"{trace.returns_up} returns to a higher layer"
    )
    if show_path:
        previous = None
        for module, function, layer in trace.path:
            mark = "^" if previous is not None and layer < previous else " "
            print(f"  {mark} L{layer} {module.removeprefix('xswap_sdk.')}:{function}")
            previous = layer


def main() -> None:
    """Run the traced swap and print what it ran."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sync", action="store_true", help="trace FlashClient.swap")
    parser.add_argument("--path", action="store_true", help="print the signer's path")
    parser.add_argument(
        "--reach", action="store_true", help="follow the signer two hops into objects"
    )
    args = parser.parse_args()
    reach = 2 if args.reach else 0
    trace = trace_sync(reach) if args.sync else trace_async(reach)
    report(trace, show_path=args.path)


if __name__ == "__main__":
    main()
