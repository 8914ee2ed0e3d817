"""The re-deal check of the text seat (:mod:`cardenvs.text`): a seat's prompt shows it nothing it may not know."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from cardenvs.core.events import seen_by
from cardenvs.testing.errors import fail
from cardenvs.testing.public_view import overwrite_unseen_parts
from cardenvs.testing.rollout import EnvSpec, spaced_decisions
from cardenvs.text import seat_prompt


def check_text_seat(
    env_id: str, options: Mapping[str, Any], games: int, seed: int = 0, growth: float = 1.3
) -> dict[str, int]:
    """At decisions spaced geometrically through seeded random games, the prompt of the player to act
    (:func:`cardenvs.text.seat_prompt`, from the true game and the events as it saw them) equals the prompt
    written from a world in which every card it cannot see is re-dealt (``resample_hidden``) and every part of
    the log it cannot see is overwritten. Returns counts (prompts compared, moves listed), so callers can
    assert the check had power."""
    stats = {"prompts": 0, "moves": 0}
    spec: EnvSpec = env_id
    for g in range(games):
        rng = np.random.default_rng(seed * 7919 + g)
        for d in spaced_decisions(spec, options, seed + g, growth):
            game = d.env.game
            assert game is not None
            seat = game.current_player
            other = game.resample_hidden(seat, rng)
            overwrite_unseen_parts(other.events, seat)
            real = seat_prompt(env_id, game, seat, [seen_by(e, seat) for e in game.events])
            redealt = seat_prompt(env_id, other, seat, [seen_by(e, seat) for e in other.events])
            fail(
                real == redealt,
                f"{env_id} {dict(options)} seed {seed + g} step {d.step}: player {seat}'s prompt changed when what "
                f"it cannot see was re-dealt:\n{real.situation}\n---\n{redealt.situation}",
            )
            stats["prompts"] += 1
            stats["moves"] += len(real.moves)
    return stats
