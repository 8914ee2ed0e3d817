"""The decision-structure leak test: which seats are asked to decide, in which order and how many times, is
public, so it must not depend on cards an observer cannot see.

From a state of a random game, the hidden cards are re-dealt consistently with what one observer has seen; both
tables then play on with the same public moves (a move of the re-dealt table is chosen so that the observer sees
the same events) and the seats that act, move by move, and their number of decisions (a composite move's
sub-steps) must be the same at both.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from cardenvs.core.engine import RulesEngine
from cardenvs.testing.errors import fail
from cardenvs.testing.rollout import EnvSpec, decisions

CANDIDATES = 48
"""Moves of the re-dealt table tried, at most, to find one that makes the same events as the original's."""


def observer_view(events: Sequence[Mapping[str, Any]], observer: int) -> str:
    """Events as one observer sees them (public parts plus that observer's private parts), as comparable text."""
    seen = [(e["kind"], e["player"], e["public"], e["private"].get(observer, {})) for e in events]
    return json.dumps(seen, sort_keys=True, default=str)


def play_move(game: RulesEngine[Any], move: Any, observer: int) -> tuple[int, str]:
    """Play ``move`` in ``game``; returns its number of decisions and its events as ``observer`` sees them."""
    start = len(game.events)
    actions = game.move_actions(move)
    for a in actions:
        game.apply(a)
    return len(actions), observer_view(game.events.events[start:], observer)


def _same_public_move(
    game: RulesEngine[Any], view: str, count: int, observer: int, first: Any, rng: np.random.Generator
) -> tuple[RulesEngine[Any], int] | None:
    """A clone of ``game`` after a move whose events ``observer`` sees as ``view`` (``first`` is tried first), with
    that move's number of decisions: one of ``count`` decisions if any such move is found; ``None`` if no move
    tried matches."""
    moves = game.legal_moves()
    order = [int(i) for i in rng.permutation(len(moves))[:CANDIDATES]]
    tried = ([moves.index(first)] if first in moves else []) + order
    found = None
    for i in tried:
        clone = game.clone()
        steps, seen = play_move(clone, moves[i], observer)
        if seen == view:
            if steps == count:
                return clone, steps
            found = found or (clone, steps)
    return found


def compare_turns(
    game: RulesEngine[Any], other: RulesEngine[Any], observer: int, rng: np.random.Generator, horizon: int, where: str
) -> int:
    """Play ``horizon`` public moves on ``game`` and its re-deal ``other``; fail if the acting seats or their
    numbers of decisions differ. Returns the moves compared."""
    game, compared = game.clone(), 0
    for k in range(horizon):
        fail(
            game.current_player == other.current_player,
            f"{where}: {k} moves after a re-deal for player {observer}, player {game.current_player} acts in the "
            f"real game but player {other.current_player} in the re-dealt one: who acts depends on hidden cards",
        )
        if game.is_terminal:
            break
        moves, actor = game.legal_moves(), game.current_player
        move = moves[int(rng.integers(len(moves)))]
        count, view = play_move(game, move, observer)
        found = _same_public_move(other, view, count, observer, move, rng)
        if found is None:
            break  # the re-dealt table cannot make this move public-equally (e.g. the card went elsewhere)
        other, other_count = found
        fail(
            count == other_count,
            f"{where}: {k} moves after a re-deal for player {observer}, player {actor}'s move {move} takes "
            f"{count} decisions in the real game but {other_count} in the re-dealt one: "
            "the number of decisions depends on hidden cards",
        )
        compared += 1
    return compared


def check_decision_structure(
    env_id: EnvSpec,
    options: Mapping[str, Any],
    games: int,
    seed: int = 0,
    every: int = 3,
    horizon: int = 3,
    states: int = 60,
) -> int:
    """At every ``every``-th decision (move boundaries only, at most ``states`` a game) of ``games`` random games,
    for one observer (each in turn): re-deal the hidden cards, play ``horizon`` public moves on both tables and
    compare who acts and how many decisions each move takes. Returns the number of moves compared (so a test can
    assert the check had power)."""
    compared = 0
    for g in range(games):
        rng = np.random.default_rng(seed * 15485863 + g)
        checked = 0
        for d in decisions(env_id, options, seed + g):
            game = d.env.game
            assert game is not None
            if d.step % every or game.move_in_progress():
                continue
            # A drawn observer, not one in turn: with a fixed stride the turn order can keep the observer from ever
            # being the actor (Yoninkan: every third decision, four players), and then almost no move is comparable.
            observer = int(rng.integers(game.num_players))
            where = f"{env_id} {dict(options)} seed {seed + g} step {d.step}"
            compared += compare_turns(game, game.resample_hidden(observer, rng), observer, rng, horizon, where)
            checked += 1
            if checked == states:
                break
    return compared
