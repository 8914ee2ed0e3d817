"""A seat's decision as one prompt: rules, history since its last move, its position, the legal moves."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardenvs.core.engine import RulesEngine
from cardenvs.core.events import Event
from cardenvs.core.position import join_lines
from cardenvs.games import definition
from cardenvs.text.history import since_last_move
from cardenvs.text.moves import TextMove, seat_moves

LISTED_MOVES = 60
"""Up to this many legal moves are numbered; beyond it, the one-step moves are numbered and the rest are
described step by step (Yukushi's claims run to thousands of card choices)."""


@dataclass(frozen=True)
class SeatPrompt:
    """The prompt of one decision and the moves it offers (``moves[:listed]`` are numbered 1…``listed``)."""

    rules: str
    situation: str
    moves: list[TextMove]
    listed: int

    @property
    def text(self) -> str:
        """Rules summary and situation together (what a model that sees the rules each move is sent)."""
        return f"{self.rules}\n\n{self.situation}"


def rules_summary(env_id: str) -> str:
    """The game's rules in a few sentences (its definition's ``rules_summary``), and how to answer."""
    rules: str = definition(env_id).part("rules_summary")
    return f"{rules.strip()}\n\n{ANSWER}"


ANSWER = (
    "Each turn you see what happened since your last move, your position (cards you cannot see are written ?) "
    "and your legal moves. Answer with the number of one listed move, or write one legal move out in full, "
    "step by step as shown (for example declare(7) pick(7) done)."
)


def seat_prompt(env_id: str, world: RulesEngine[Any], seat: int, events: Sequence[Event]) -> SeatPrompt:
    """The prompt of ``seat`` (the player to act in ``world``) given the events it has seen (its public view).

    ``world`` is the true game or any world the seat cannot tell from it (see the package docstring)."""
    if world.current_player != seat:
        raise ValueError(f"{env_id}: seat {seat} is not the player to act (player {world.current_player} is)")
    write = definition(env_id).write_position
    if write is None:
        raise NotImplementedError(f"{env_id} has no position notation, which the text seat writes")
    moves = seat_moves(world)
    numbered = moves if len(moves) <= LISTED_MOVES else [m for m in moves if len(m.actions) == 1][:LISTED_MOVES]
    ordered = numbered + [m for m in moves if m not in numbered]
    history = since_last_move(events, seat) or ["(nothing yet)"]
    parts = [
        f"You are player {seat}.",
        "Since your last move:\n" + "\n".join(f"- {line}" for line in history),
        "Your position:\n" + join_lines(write(world, seat)).rstrip(),
        _moves_text(numbered, ordered[len(numbered) :]),
    ]
    return SeatPrompt(rules_summary(env_id), "\n\n".join(parts), ordered, len(numbered))


def _moves_text(numbered: Sequence[TextMove], described: Sequence[TextMove]) -> str:
    lines = [f"Your legal moves ({len(numbered) + len(described)}):"]
    lines += [f"{i}. {m.label}" for i, m in enumerate(numbered, start=1)]
    if described:
        lines.append(f"{'Or one' if numbered else 'One'} of {len(described)} moves written out step by step:")
        for step in range(max(len(m.steps) for m in described)):
            words = dict.fromkeys(m.steps[step] for m in described if len(m.steps) > step)
            lines.append(f"  step {step + 1}: one of " + " ".join(words))
        lines.append(f"  for example: {described[0].label}")
    return "\n".join(lines)
