"""The public-view check of the conformance kit: re-dealing what a seat cannot see changes none of the events as
that seat sees them, now or after any move (see :class:`~cardenvs.core.views.PublicView`)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import numpy as np

from cardenvs.core.engine import RulesEngine
from cardenvs.core.events import EventLog, seen_by
from cardenvs.testing.errors import fail as _fail
from cardenvs.testing.rollout import EnvSpec, spaced_decisions


def check_public_view(
    env_id: EnvSpec, options: Mapping[str, Any], games: int, seed: int = 0, growth: float = 1.3, moves: int = 4
) -> dict[str, int]:
    """The public event view (:class:`~cardenvs.core.views.PublicView`, the events as :func:`seen_by` the seat)
    shows a seat nothing it may not know:

    * **re-deal**: every card the observer cannot see is re-dealt (``resample_hidden``) and every part of the
      log it cannot see (other seats' private parts, secret parts) is overwritten; its view must not change;
    * **what comes next**: sampled moves of the player to act, from the real state and from the re-dealt one,
      that leave the observer's observation (and mask) the same must show it the same new events: a public
      part that depends on hidden cards is caught here (moves that end a deal are left out: the observation of
      the next deal no longer shows what the last trick revealed; every engine logs a ``deal`` event per deal).

    The decisions checked are spaced geometrically (steps 0, 1, 2, 3, 4, 6, 8, … by a factor ``growth``), so a
    long game costs little more than a short one while its whole length is covered. Returns counts, so callers
    can assert the checks had power."""
    stats = {"views": 0, "hidden_parts": 0, "move_pairs": 0}
    for g in range(games):
        rng = np.random.default_rng(seed * 15485863 + g)
        for d in spaced_decisions(env_id, options, seed + g, growth):
            game = d.env.game
            assert game is not None
            where = f"{env_id} {dict(options)} seed {seed + g} step {d.step}"
            for observer in range(game.num_players):
                other = game.resample_hidden(observer, rng)
                stats["hidden_parts"] += overwrite_unseen_parts(other.events, observer)
                _fail(
                    [seen_by(e, observer) for e in other.events] == [seen_by(e, observer) for e in game.events],
                    f"{where}: player {observer}'s public view changed when what it cannot see was re-dealt",
                )
                stats["views"] += 1
                stats["move_pairs"] += _check_next_events(game, other, observer, rng, moves, where)
    return stats


def overwrite_unseen_parts(log: EventLog, observer: int) -> int:
    """Overwrite every private part of another seat and every secret part; returns how many there were."""
    count = 0
    for event in log.events:
        for seat in event["private"]:
            if seat != observer:
                event["private"][seat] = {"overwritten": True}
                count += 1
        if event["secret"]:
            event["secret"] = {"overwritten": True}
            count += 1
    return count


def _check_next_events(
    game: RulesEngine[Any], other: RulesEngine[Any], observer: int, rng: np.random.Generator, limit: int, where: str
) -> int:
    """Moves of the player to act in both worlds, grouped by the observer's observation (and mask) afterwards; each
    group must show the observer the same new events. The observer's own moves are grouped by the move too (it
    knows its own choices, which its observation need not keep), so they are compared across the worlds only."""
    own = game.current_player == observer
    groups: dict[bytes, list[tuple[str, bool]]] = {}
    sampled = _sample_moves(game, rng, limit)  # the observer's own moves: the same ones in both worlds
    for world in (game, other):
        for move in sampled if own or world is game else _sample_moves(world, rng, limit):
            clone = world.clone()
            start = len(clone.events)
            for a in clone.move_actions(move):
                clone.apply(a)
            if any(e["kind"] == "deal" for e in clone.events.events[start:]):
                continue  # a new deal: the observation starts afresh and no longer shows the last trick's cards
            key = clone.observation(observer).tobytes() + (repr(move).encode() if own else b"")
            if clone.current_player == observer:
                key += clone.legal_mask().tobytes()
            seen = json.dumps([seen_by(e, observer) for e in clone.events.events[start:]], sort_keys=True, default=str)
            groups.setdefault(key, []).append((seen, world is other))
    pairs = 0
    for outcomes in groups.values():
        for seen, redealt in outcomes[1:]:
            _fail(
                seen == outcomes[0][0],
                f"{where}: moves that leave player {observer}'s observation the same show it different events "
                f"({'re-dealt' if redealt else 'real'} world): {seen[:300]} vs {outcomes[0][0][:300]}",
            )
            pairs += 1
    return pairs


def _sample_moves(game: RulesEngine[Any], rng: np.random.Generator, limit: int) -> list[Any]:
    moves = game.legal_moves()
    return [moves[int(i)] for i in rng.choice(len(moves), size=min(limit, len(moves)), replace=False)]
