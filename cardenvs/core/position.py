"""Positions: the readable text form of a game state (as FEN for chess, PBN for bridge).

A position is a few lines of ``key: value``. The first two, ``id:`` (the env id) and ``options:`` (every option
as ``name=value``), are written by :meth:`~cardenvs.core.aec.CardGameEnv.position` and checked when present on
reading (they may be left out: the env's own options are then assumed). The rest belongs to the game and is
documented on its page under ``docs/games/``. ``?`` stands for a card the writer does not know; on reading,
the missing cards of the deck are dealt to the ``?`` places from the reset's seed, so a seat's view
(``position(seat=i)``) plus a seed is one sampled world. ``-`` writes an empty list.

This module holds what every game's notation shares: the line parser, the header and the errors. Each game's
``position.py`` reads and writes its own lines and is wired into its
:class:`~cardenvs.core.engine.GameDefinition`, so the rules engine never imports it.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from cardenvs.core.errors import InvalidOptionError

UNKNOWN = "?"
"""A card the writer of a position does not know."""
EMPTY = "-"
"""An empty list in a position."""
REWARDS_DUE = "rewards due"
"""The line of rewards paid but not yet collected through ``last()`` (one per seat; left out when all are 0)."""


class PositionError(InvalidOptionError):
    """A position that cannot be read, or that no game could reach (the message names the problem)."""


Lines = list[tuple[str, str]]
"""A position's lines as ``(key, value)`` pairs, in writing order."""


class PositionFields:
    """The ``key: value`` lines of a position, read once each: :meth:`finish` rejects lines nobody read."""

    def __init__(self, text: str, game: str):
        if not isinstance(text, str):
            raise PositionError(f"{game}: a position is text (str), got {type(text).__name__}")
        self.game = game
        self.values: dict[str, str] = {}
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            key, colon, value = line.partition(":")
            if not colon:
                raise PositionError(f"{game}: position line {number} {raw!r} is not 'key: value'")
            key = " ".join(key.split()).lower()
            if key in self.values:
                raise PositionError(f"{game}: the position gives {key!r} twice")
            self.values[key] = value.strip()
        self._read: set[str] = set()

    def __contains__(self, key: str) -> bool:
        return key in self.values

    def take(self, key: str, default: str | None = None) -> str:
        """The value of ``key``; ``default`` where the line is absent (no default: the line is required)."""
        self._read.add(key)
        if key in self.values:
            return self.values[key]
        if default is None:
            raise PositionError(f"{self.game}: the position has no {key!r} line")
        return default

    def error(self, key: str, problem: str) -> PositionError:
        """An error about line ``key``, quoting it."""
        return PositionError(f"{self.game}: position line '{key}: {self.values.get(key, '')}': {problem}")

    def integer(self, key: str, low: int, high: int, default: int | None = None) -> int:
        """An integer line in ``low..high``."""
        text = self.take(key, None if default is None else str(default))
        if not is_number(text.removeprefix("-")):
            raise self.error(key, f"expected a whole number in {low}..{high}")
        value = int(text)
        if not low <= value <= high:
            raise self.error(key, f"expected a whole number in {low}..{high}")
        return value

    def numbers(self, key: str, count: int, default: Sequence[float] | None = None) -> list[float]:
        """A line of ``count`` numbers."""
        fallback = None if default is None else " ".join(format_number(x) for x in default)
        tokens = self.take(key, fallback).split()
        try:
            values = [float(t) for t in tokens]
        except ValueError:
            raise self.error(key, f"expected {count} numbers") from None
        if not all(math.isfinite(v) and abs(v) <= LARGEST for v in values):
            raise self.error(key, f"expected {count} finite numbers, each at most {LARGEST:g} in size")
        if len(values) != count:
            raise self.error(key, f"expected {count} numbers, got {len(values)}")
        return values

    def whole_numbers(self, key: str, count: int, low: int, high: int, default: int = 0) -> list[int]:
        """A line of ``count`` whole numbers in ``low..high`` (absent: ``default`` each)."""
        tokens = self.take(key, " ".join([str(default)] * count)).split()
        if len(tokens) != count or not all(is_number(t.removeprefix("-")) and low <= int(t) <= high for t in tokens):
            raise self.error(key, f"expected {count} whole numbers, each in {low}..{high}")
        return [int(t) for t in tokens]

    def seats(self, key: str, num_players: int, default: str = EMPTY) -> list[int]:
        """A line of distinct seat numbers (``-`` for none)."""
        text = self.take(key, default)
        if text == EMPTY:
            return []
        if not all(is_number(t) for t in text.split()):
            raise self.error(key, f"expected seats 0..{num_players - 1} or '-'")
        seats = [int(t) for t in text.split()]
        if any(not 0 <= s < num_players for s in seats) or len(set(seats)) != len(seats):
            raise self.error(key, f"expected distinct seats 0..{num_players - 1} or '-'")
        return seats

    def choice(self, key: str, choices: Sequence[str]) -> str:
        value = self.take(key)
        if value not in choices:
            raise self.error(key, f"expected one of {', '.join(choices)}")
        return value

    def rewards_due(self, num_players: int) -> list[float]:
        """The ``rewards due`` line: what each seat's ``last()`` reports before it acts (0 each when absent)."""
        return self.numbers(REWARDS_DUE, num_players, [0.0] * num_players)

    def refuse_a_finished_game(self) -> None:
        """A finished game is written ``turn: -``: it has no decision to start an episode from."""
        if self.values.get("turn") == EMPTY:
            raise PositionError(
                f"{self.game}: the position's game is over ('turn: -'); a position to start from has a player "
                "to act ('turn: SEAT')"
            )

    def finish(self) -> None:
        """Reject lines that no reader took (a misspelt key must not be ignored)."""
        unknown = [k for k in self.values if k not in self._read]
        if unknown:
            raise PositionError(
                f"{self.game}: unknown position line(s) {', '.join(repr(k) for k in unknown)}; "
                f"this game reads {', '.join(sorted(self._read))}"
            )


LARGEST = 1e12
"""The largest magnitude a number in a position may have (scores and points stay far below it)."""
SAMPLING_TRIES = 200
"""Deals of the ``?`` cards tried before a position is declared impossible."""

T = TypeVar("T")


def deal_unknown(read: Callable[[], T]) -> T:
    """``read()`` (which deals the ``?`` cards from a generator) again until the dealt world is possible: rejection
    keeps the sample uniform over the worlds the written cards allow (e.g. no four of a kind where quads go at once).
    A position without ``?`` cards, or impossible on every try, raises the reader's error."""
    for _ in range(SAMPLING_TRIES - 1):
        try:
            return read()
        except UnluckyDeal:
            continue
    try:
        return read()
    except UnluckyDeal as error:
        tries = f"no deal of the '?' cards in {SAMPLING_TRIES} tries gives a possible position"
        raise PositionError(f"{tries}: {error}") from None


class UnluckyDeal(PositionError):
    """A contradiction that lies in how the ``?`` cards were dealt (another deal may avoid it)."""


def is_number(text: str) -> bool:
    """Whether ``text`` is a whole number written in the digits 0-9 (no sign, no space)."""
    return text.isascii() and text.isdigit()


def format_number(value: float) -> str:
    """``1`` for whole numbers, else the shortest float text (positions keep exact values)."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def seats_text(seats: Iterable[int]) -> str:
    text = " ".join(str(s) for s in seats)
    return text or EMPTY


def options_text(options: Any) -> str:
    """Every option as ``name=value``, in declaration order."""
    return " ".join(f"{f.name}={getattr(options, f.name)!r}" for f in dataclasses.fields(options))


def check_header(fields: PositionFields, env_id: str, options: Any) -> None:
    """The ``game:`` and ``options:`` lines, where given, must be this env's."""
    game = fields.take("id", env_id)
    if game != env_id:
        raise PositionError(f"{env_id}: the position is of {game!r}; make that env to start from it")
    written = fields.take("options", options_text(options)).split()
    mine = options_text(options).split()
    if written != mine:
        differing = sorted(set(written) ^ set(mine))
        raise PositionError(
            f"{env_id}: the position was written with other options ({', '.join(differing)}); "
            f"this env has {' '.join(mine)}: make the env with the position's options"
        )


def rewards_due(due: Sequence[float]) -> Lines:
    """The ``rewards due`` line of rewards paid (e.g. at the end of a deal of a match) but not yet collected
    through ``last()``, one per seat; none when all are 0."""
    return [(REWARDS_DUE, " ".join(format_number(r) for r in due))] if any(due) else []


def header_lines(env_id: str, options: Any) -> Lines:
    return [("id", env_id), ("options", options_text(options))]


def join_lines(lines: Lines) -> str:
    return "".join(f"{key}: {value}\n" for key, value in lines)
