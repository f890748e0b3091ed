"""Unknown keyword arguments of the clients' methods: a `TypeError` naming the nearest
valid one, before anything is signed or sent.

A method that takes per-call options (``**options: Unpack[RequestOptions]``) would keep
a misspelt keyword among them and drop it: ``swap(..., min_amout_out=...)`` signed and
sent a swap without the minimum the caller meant to set. A type checker catches that;
a script or a notebook does not. So every public method of every client, and the
constructors and ``with_options``, check their keywords against the method's own
parameters and its options' keys (`RequestOptions`, or `WaitOptions` for a wait), as
Python itself checks a function without ``**kwargs``, and name the nearest valid one
(`difflib`). A client setting given to a call (``journal=``, ``on_step=``,
``progress=``...) is named as such, with where it goes.

The check is one ``frozenset.issuperset`` per call; the message is built only when it
fails. `APIClientBase` installs it (see ``_base_client.py``), so a new method is checked
without any line of its own.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from typing import Any, Final

from ._options import RequestOptions, WaitOptions

__all__ = ["KeywordCheck"]

_OPTIONS: Final[dict[str, frozenset[str]]] = {
    "RequestOptions": frozenset(RequestOptions.__annotations__),
    "WaitOptions": frozenset(WaitOptions.__annotations__),
}
"""The per-call options a ``**options: Unpack[...]`` parameter takes, by TypedDict name."""

_ALL_OPTIONS: Final = frozenset().union(*_OPTIONS.values())


def _options_of(function: Callable[..., Any], parameter: inspect.Parameter) -> str:
    """The name of the TypedDict a ``**`` parameter is unpacked from, refusing (at class
    creation, so a test run fails at import) one this module does not know."""
    annotation = parameter.annotation
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
    for name in _OPTIONS:
        if text == f"Unpack[{name}]" or text == name:
            return name
    raise TypeError(
        f"{function.__qualname__}(**{parameter.name}: {text}): the keyword check knows "
        f"only Unpack[{'] and Unpack['.join(_OPTIONS)}]; add the new one to "
        "xswap_sdk._keywords"
    )


class KeywordCheck:
    """The keywords one client method accepts, and the error for one it does not.

    Args:
        function: the method as written (``self`` first).
    """

    __slots__ = ("accepted", "method", "options", "suggested")

    def __init__(self, function: Callable[..., Any]) -> None:
        parameters = inspect.signature(function).parameters.values()
        named = {
            p.name
            for p in parameters
            if p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
        }
        named.discard("self")
        options = frozenset[str]()
        self.options: str | None = None
        for parameter in parameters:
            if parameter.kind is inspect.Parameter.VAR_KEYWORD:
                self.options = _options_of(function, parameter)
                options = _OPTIONS[self.options]
        self.method = function.__name__
        self.accepted: frozenset[str] = frozenset(named | options)
        """Every keyword the method takes."""
        # A wait takes ``timeout=`` only to refuse it with the name of its real limit
        # (see xswap_sdk._polling.wait_options), so it is never suggested.
        extra = {"timeout"} if self.options == "WaitOptions" else set()
        self.accepted |= extra
        self.suggested: tuple[str, ...] = tuple(sorted(named | options))
        """The keywords a misspelt one may be taken for."""

    def check(self, owner: object, keywords: Iterable[str]) -> None:
        """Raise `TypeError` for the first keyword in ``keywords`` the method does not
        take (``owner`` is the client, for the message)."""
        if self.accepted.issuperset(keywords):
            return
        unknown = next(k for k in keywords if k not in self.accepted)
        # The traceback keeps this frame: the values given (an API key) stay out of it.
        del keywords
        raise TypeError(self.message(type(owner), unknown))

    def message(self, cls: type[Any], unknown: str) -> str:
        """Python's own message for an unexpected keyword, with where the keyword
        belongs or the nearest one the method takes."""
        import difflib  # only on the error path

        method = "" if self.method == "__init__" else f".{self.method}"
        call = f"{cls.__name__}{method}()"
        said = f"{call} got an unexpected keyword argument {unknown!r}"
        if self.method not in ("__init__", "with_options"):
            settings = _parameters(cls.__init__)
            if unknown in settings and unknown not in _ALL_OPTIONS:
                where = f"{cls.__name__}({unknown}=...)"
                if unknown in _parameters(getattr(cls, "with_options", None)):
                    where += f" or client.with_options({unknown}=...)"
                return f"{said}: it is a client setting; pass it to {where}"
            if unknown in _ALL_OPTIONS and self.options is None:
                return f"{said}: this method takes no per-call options"
        elif self.method == "with_options" and unknown in _parameters(cls.__init__):
            return f"{said}: a copy keeps it; make a new client with {cls.__name__}({unknown}=...)"
        # difflib finds the similar names; of those, the fewest typing slips away wins
        # (difflib alone takes "ruote" for "requote" rather than "route").
        close = difflib.get_close_matches(unknown, self.suggested, n=5)
        if close:
            nearest = min(close, key=lambda name: _slips(unknown, name))
            return f"{said}. Did you mean {nearest!r}?"
        return said


def _slips(typed: str, meant: str) -> int:
    """How many letters inserted, dropped, changed or swapped with the next turn
    ``meant`` into ``typed`` (the optimal string alignment distance)."""
    previous: list[int] = []
    row = list(range(len(meant) + 1))
    for i, letter in enumerate(typed, 1):
        before, previous, row = previous, row, [i] + [0] * len(meant)
        for j, other in enumerate(meant, 1):
            row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (letter != other))
            if i > 1 and j > 1 and letter == meant[j - 2] and typed[i - 2] == other:
                row[j] = min(row[j], before[j - 2] + 1)
    return row[-1]


def _parameters(function: Callable[..., Any] | None) -> frozenset[str]:
    """The keyword names ``function`` takes (none for ``None``)."""
    if function is None:
        return frozenset()
    check = getattr(function, _CHECK, None)
    if isinstance(check, KeywordCheck):
        return check.accepted
    return KeywordCheck(function).accepted


_CHECK: Final = "__xswap_keyword_check__"


def keyword_checked(function: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a method that runs no policy (a constructor, ``with_options``) so that it
    checks its keywords first; a method already wrapped is returned as is."""
    if getattr(function, _CHECK, None) is not None:
        return function
    import functools

    keywords = KeywordCheck(function)

    @functools.wraps(function)
    def checked(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            keywords.check(self, kwargs)
            return function(self, *args, **kwargs)
        except BaseException:
            # The traceback keeps this frame: no API key or JWT given as an argument in it.
            del args, kwargs
            raise

    setattr(checked, _CHECK, keywords)
    return checked


def mark(wrapper: Callable[..., Any], keywords: KeywordCheck) -> None:
    """Record on ``wrapper`` the check it runs (for `_parameters` and re-wrapping)."""
    setattr(wrapper, _CHECK, keywords)
