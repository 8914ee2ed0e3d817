"""Each array-program bot against its Python bot, on the observations of random games of the Python env.

At every decision the chance of each action of the Python bot is known exactly (its draws walked, its plan tracked
as a distribution, :mod:`tests.fast_bots.agreement`). Where the Python bot is bound to one action the array
program must play it under every key: 100% agreement. Elsewhere the array program's actions must be among the
Python bot's, and their frequencies over many keys must match its chances within five standard errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.fast_bots.agreement import collect, jax_choices

jax = pytest.importorskip("jax")
from cardenvs.agents.fast_bots import FAST_BOTS  # noqa: E402  (needs JAX, skipped above without it)

CASES: list[tuple[str, str, dict[str, Any], int]] = [
    ("verish_ne_verish/rule", "verish_ne_verish-v0", {"num_players": 4}, 6),
    ("verish_ne_verish/rule", "verish_ne_verish-v0", {"num_players": 3, "quad_discard_optional": True}, 4),
    ("kyuuri/rule", "kyuuri-v0", {"num_players": 4}, 4),
    ("kyuuri/thrifty", "kyuuri-v0", {"num_players": 5}, 4),
    ("yukushi/honest", "yukushi-v0", {"num_players": 4}, 4),
    ("yukushi/bluffer", "yukushi-v0", {"num_players": 4}, 4),
    ("yukushi/counter", "yukushi-v0", {"num_players": 5}, 4),
    ("yukushi/bluffer", "yukushi-v0", {"num_players": 4, "allow_count_mismatch": True, "max_play": 3}, 4),
    ("goninkan/rule", "goninkan-v1", {"num_players": 6}, 6),
    ("goninkan/rule", "goninkan-v1", {"num_players": 5, "episode": "match", "n_rounds": 2}, 2),
    ("goninkan/rule", "goninkan-v1", {"num_players": 6, "nijukan_exchange": "chooser_picks_blind"}, 6),
    ("yoninkan/rule", "yoninkan-v1", {}, 6),
    ("zheng_shang_you/rule", "zheng_shang_you-v0", {"num_players": 4, "episode": "deal"}, 8),
    ("zheng_shang_you/rule", "zheng_shang_you-v0", {"num_players": 4, "team_mode": "partners", "target_points": 6}, 1),
    ("zheng_shang_you/rule", "zheng_shang_you-v0", {"num_players": 6, "team_mode": "san_jia_xi", "episode": "deal"}, 4),
    ("zheng_shang_you/rule", "zheng_shang_you-v0", {"num_players": 5, "joker_keeps_suitedness": False}, 1),
    ("zheng_shang_you/rule", "zheng_shang_you-v0", {"num_players": 5, "set_sequence_top": "2", "episode": "deal"}, 8),
]
BOUND_DRAWS = 64
"""Keys per observation where the Python bot is bound to one action."""
DRAWS = 512
"""Keys per observation where it draws."""


@pytest.mark.parametrize(("name", "env_id", "options", "games"), CASES, ids=lambda c: str(c))
def test_array_bot_plays_as_the_python_bot(name: str, env_id: str, options: dict[str, Any], games: int) -> None:
    decisions = collect(name, env_id, options, games, seed=7)
    bot = FAST_BOTS[name](env_id, options)
    observations, masks = np.stack(decisions.observations), np.stack(decisions.masks)
    stale = np.array(decisions.stale_plan)
    bound = np.array([max(c.values()) > 1 - 1e-9 for c in decisions.chances]) & ~stale
    drawn = ~bound & ~stale

    bound_at = np.flatnonzero(bound)
    choices = jax_choices(bot, observations[bound_at], masks[bound_at], BOUND_DRAWS)
    assert np.take_along_axis(masks[bound_at], choices, axis=1).all(), "an array-program action is illegal"
    disagreements = [
        (i, decisions.actions[i], set(row.tolist()))
        for i, row in zip(bound_at, choices, strict=True)
        if set(row.tolist()) != {decisions.actions[i]}
    ]
    agreed = len(bound_at) - len(disagreements)
    assert not disagreements, f"{name}: {agreed}/{len(bound_at)} bound decisions agree; first: {disagreements[:3]}"

    drawn_at = np.flatnonzero(drawn)
    if len(drawn_at):
        choices = jax_choices(bot, observations[drawn_at], masks[drawn_at], DRAWS, seed=1)
        for i, row in zip(drawn_at, choices, strict=True):
            chances = decisions.chances[i]
            played = np.bincount(row, minlength=masks.shape[1]) / DRAWS
            assert set(np.flatnonzero(played)) <= set(chances), f"decision {i}: {played.nonzero()} vs {chances}"
            for action, chance in chances.items():
                error = 5 * np.sqrt(chance * (1 - chance) / DRAWS) + 1 / DRAWS
                assert abs(played[action] - chance) <= error, f"decision {i}, action {action}: {played} vs {chances}"
    print(
        f"{name} {options}: {len(bound_at)} bound decisions, all agree; {len(drawn_at)} drawn, frequencies "
        f"match; {int(stale.sum())} in moves on a stale plan"
    )
