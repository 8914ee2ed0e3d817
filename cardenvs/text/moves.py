"""Complete legal moves as text, and the parser that reads a reply back into a move's action ids."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from cardenvs.core.engine import RulesEngine


@dataclass(frozen=True)
class TextMove:
    """One complete legal move: its words (the sub-steps' action names) and its action ids."""

    label: str
    actions: tuple[int, ...]
    steps: tuple[str, ...]
    """The action name of each sub-step (``label`` is them joined by spaces)."""


def seat_moves(world: RulesEngine[Any]) -> list[TextMove]:
    """The complete legal moves of the player to act in ``world``, in the engine's order, one per distinct text
    (moves that read the same, such as two equal cards of different suits where suits do not matter, are one)."""
    moves: dict[str, TextMove] = {}
    names: dict[int, str] = {}  # one state: an action's name is asked once (Yukushi leads list ~10⁴ moves)
    for move in world.legal_moves():
        actions = tuple(world.move_actions(move))
        steps = tuple(names.get(a) or names.setdefault(a, world.describe_action(a)) for a in actions)
        label = " ".join(steps)
        moves.setdefault(label, TextMove(label, actions, steps))
    return list(moves.values())


def normalise(text: str) -> str:
    """Lower case, commas, semicolons and quotes as spaces, no spaces inside parentheses, one space between
    words and after every step: how replies and labels compare."""
    text = re.sub(r"[,;`*\"']", " ", text.lower())
    text = re.sub(r"\s*\(\s*", "(", text)
    text = re.sub(r"\s*\)", ") ", text)
    return re.sub(r"\s+", " ", text).strip()


@dataclass(frozen=True)
class ParsedReply:
    """What a reply came to: ``ok`` with the move, ``illegal`` (a number off the list, or a move written out
    that is not legal now) or ``unparseable`` (neither a number nor a move); ``reason`` says which."""

    status: Literal["ok", "illegal", "unparseable"]
    move: TextMove | None
    reason: str


def _last_written(label: str, text: str) -> int:
    """Where ``label`` last appears in ``text`` as whole steps (not the tail of a longer move), or -1.
    Plain string search: thousands of moves are tried per reply."""
    at = text.rfind(label)
    while at >= 0:
        before, after = text[max(at - 2, 0) : at], text[at + len(label) : at + len(label) + 1]
        joined = bool(before) and (_word(before[-1]) or before[-1] == ")" or before == ") ")
        if not joined and not (after and (_word(after) or after == "(")):
            return at
        at = text.rfind(label, 0, at + len(label) - 1) if at > 0 else -1
    return -1


def _word(char: str) -> bool:
    return char.isalnum() or char == "_"


_NUMBER = re.compile(r"(?<![\w(])(\d+)(?![\w)])")
_STEP = re.compile(r"[a-z_]+\([^()\s]*\)")


def parse_reply(reply: str, moves: Sequence[TextMove], listed: int) -> ParsedReply:
    """The move ``reply`` names: a move written out anywhere in it (prose around it is fine; of several, the
    longest, then the last mentioned), else its one number between 1 and ``listed`` (the numbered moves are
    ``moves[:listed]``)."""
    text = normalise(reply)
    written = [(len(m.label), at, m) for m in moves if (at := _last_written(normalise(m.label), text)) >= 0]
    if written:
        return ParsedReply("ok", max(written, key=lambda w: w[:2])[2], "")
    numbers = {int(n) for n in _NUMBER.findall(reply)}
    if len(numbers) == 1:
        (number,) = numbers
        if 1 <= number <= listed:
            return ParsedReply("ok", moves[number - 1], "")
        return ParsedReply("illegal", None, f"{number} is not a listed move number (1-{listed})")
    if _STEP.search(text):
        return ParsedReply("illegal", None, "the move written out is not one of the legal moves")
    if len(numbers) > 1:
        return ParsedReply("unparseable", None, f"several numbers ({sorted(numbers)}) and no move written out")
    return ParsedReply("unparseable", None, "neither a move number nor a move written out")
