"""Building validated, frozen option dataclasses from keyword options.

Every game describes its options as a frozen dataclass whose fields carry the defaults and whose
``__post_init__`` checks ranges. :func:`build_options` adds what every game needs: unknown names and
wrong types are refused with a message that lists what is valid.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from typing import Any, TypeVar

from cardenvs.core.errors import InvalidOptionError

T = TypeVar("T")


def build_options(options_type: type[T], options: Mapping[str, Any], *, game: str) -> T:
    """Instantiate ``options_type`` from ``options``, refusing unknown names and wrongly typed values."""
    fields = {f.name: f for f in dataclasses.fields(options_type)}  # type: ignore[arg-type]
    unknown = sorted(set(options) - set(fields))
    if unknown:
        raise InvalidOptionError(
            f"unknown option(s) {', '.join(map(repr, unknown))} for {game}; valid options: {', '.join(sorted(fields))}"
        )
    hints = typing.get_type_hints(options_type)
    for name, value in options.items():
        check_type(name, value, hints[name], game=game)
    return options_type(**options)


def check_type(name: str, value: Any, hint: Any, *, game: str) -> None:
    """Raise :class:`InvalidOptionError` unless ``value`` matches the annotation ``hint``."""
    if not _matches(value, hint):
        raise InvalidOptionError(
            f"option {name!r} of {game} must be {_describe(hint)}, got {value!r} ({type(value).__name__})"
        )


def require(condition: bool, message: str) -> None:
    """Raise :class:`InvalidOptionError` with ``message`` unless ``condition`` holds."""
    if not condition:
        raise InvalidOptionError(message)


def deal_seat(name: str, given: int | None, option: int | None, num_players: int) -> int:
    """The dealer (or leader) of an explicit deal: the one ``given``, else the options' (``option``), else seat 0.
    Both given and different is an error, as is a seat out of range."""
    if given is not None and option is not None and given != option:
        raise InvalidOptionError(
            f"{name} {given} contradicts the options' {name}={option}; give one or make them agree"
        )
    seat = given if given is not None else option if option is not None else 0
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < num_players:
        raise InvalidOptionError(f"{name} must be a seat 0..{num_players - 1}, got {seat!r}")
    return seat


def _matches(value: Any, hint: Any) -> bool:
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        return any(value == a and type(value) is type(a) for a in typing.get_args(hint))
    if origin in (typing.Union, types.UnionType):
        return any(_matches(value, a) for a in typing.get_args(hint))
    if origin in (tuple, list):
        args = typing.get_args(hint)
        if not isinstance(value, origin):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_matches(v, args[0]) for v in value)
        return not args or (len(args) == len(value) and all(_matches(v, a) for v, a in zip(value, args, strict=False)))
    if origin is dict:
        return isinstance(value, dict)
    if hint is type(None):
        return value is None
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(hint, type):
        return isinstance(value, hint)
    return True


def _describe(hint: Any) -> str:
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        return "one of " + ", ".join(repr(a) for a in typing.get_args(hint))
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_describe(a) for a in typing.get_args(hint))
    if hint is type(None):
        return "None"
    return getattr(hint, "__name__", str(hint))
