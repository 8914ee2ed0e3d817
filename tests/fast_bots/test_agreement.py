"""Each array-program bot against its Python bot, on the observations of random games of the Python env.

Where the Python bot is bound to one action (no random draw in the decision, nor in the plan it is following) the
array program must play that action under every key: 100% agreement. Where the Python bot draws, every action the
array program plays must be one the Python bot could play (its branches are walked exhaustively), and where it
follows a plan drawn earlier, its action must be one the array program plays under some key."""

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
]
DRAWS = 64
"""Keys per observation for the array program's choices."""
MANY_DRAWS = 512
"""Keys per observation where the Python bot's action must be among the array program's: the least likely action
there has a chance of 1/24 or more (a junk card added late: ``pad`` / 12 at worst, 12 junk ranks), missed in 512
draws with a chance under 10⁻⁹."""


@pytest.mark.parametrize(("name", "env_id", "options", "games"), CASES, ids=lambda c: str(c))
def test_array_bot_plays_as_the_python_bot(name: str, env_id: str, options: dict[str, Any], games: int) -> None:
    decisions = collect(name, env_id, options, games, seed=7)
    bot = FAST_BOTS[name](env_id, options)
    observations, masks = np.stack(decisions.observations), np.stack(decisions.masks)
    choices = jax_choices(bot, observations, masks, DRAWS)
    assert np.take_along_axis(masks, choices, axis=1).all(), "an array-program action is illegal"

    stale = np.array(decisions.stale_plan)
    bound = np.array(decisions.bound) & ~stale
    bound_at = np.flatnonzero(bound)
    disagreements = [
        (i, decisions.actions[i], set(choices[i].tolist()))
        for i in bound_at
        if set(choices[i].tolist()) != {decisions.actions[i]}
    ]
    agreed = len(bound_at) - len(disagreements)
    assert not disagreements, f"{name}: {agreed}/{len(bound_at)} bound decisions agree; first: {disagreements[:3]}"
    drawn = ~bound & ~stale
    opening = drawn & np.array(decisions.starts_move)
    for i in np.flatnonzero(opening):
        played = set(choices[i].tolist())
        assert played <= decisions.possible[i], f"decision {i}: {played} not among {decisions.possible[i]}"
    later = np.flatnonzero(drawn & ~opening)  # the Python bot follows a plan drawn earlier in the move
    if len(later):
        many = jax_choices(bot, observations[later], masks[later], MANY_DRAWS, seed=1)
        for i, row in zip(later, many, strict=True):
            assert decisions.actions[i] in row, f"decision {i}: the Python bot's {decisions.actions[i]} never played"
    print(
        f"{name} {options}: {len(bound_at)} bound decisions, all agree; {int(drawn.sum())} drawn "
        f"({int(opening.sum())} opening a move); {int(stale.sum())} in moves on a stale plan"
    )
