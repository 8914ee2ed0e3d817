"""The JAX Kyuuri against the reference engine: the same deals and the same actions give the same players to act,
masks, every seat's observation and rewards, decision for decision, over many random games of several deals.

A batch of games is played in lockstep (one jitted, vmapped step per decision on the JAX side, the reference
engines one by one beside it). Later deals are shuffled inside the JAX step; each one is handed to its reference
engine (``later_deals``) before the action that starts it, so both sides play the same cards throughout; the
first deals are the JAX side's too (``init``: a random dealer, the cards dealt from the dealer's left)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cardenvs.core.cards import ranks_text
from cardenvs.core.errors import InvalidOptionError
from cardenvs.kyuuri.rules import KyuuriGame
from tests.fast.lockstep import play_in_lockstep, random_batch, random_legal

jax = pytest.importorskip("jax")
from cardenvs.fast.kyuuri import KyuuriFast  # noqa: E402  (needs JAX, skipped above without it)

CASES: list[dict[str, Any]] = [
    {"num_players": 7},  # the benchmark's: whole elimination games, several deals each
    {  # ties: several players can go over together
        "num_players": 3,
        "ties_all_score": True,
        "threshold": 10,
        "threshold_strict": True,
        "ace_lead_forces_lowest": True,
        "reward_mode": "penalty",
        "max_deals": 2,  # the games nobody ends by the limit end at the cap
    },
    {"num_players": 5, "swedish_gurka": True, "fixed_deals": 2, "max_steps": 45},  # all truncated in deal 2
    {"num_players": 4, "reincarnation": True, "threshold": 12},  # reincarnated, then out
]


def play_lockstep(options: dict[str, Any], num_games: int, seed: int) -> int:
    """Play ``num_games`` random games on both sides; return the decisions compared."""
    env = KyuuriFast(**options)
    opts = env.options
    state, views, step = random_batch(env, num_games, seed)
    # The reference plays the JAX side's random deals (from_deal checks each: 7 cards a seat, 4 copies a rank).
    hands, dealers = np.asarray(state.hands), np.asarray(state.dealer)
    refs = [
        KyuuriGame.from_deal(opts, [ranks_text(h) for h in hands[i]], dealer=int(dealers[i])) for i in range(num_games)
    ]

    def next_deal(i: int, game: Any, before: Any, after: Any) -> None:
        """The JAX side shuffled the next deal: the reference plays it."""
        dealt, over = np.asarray(after.deals_played)[i], np.asarray(after.terminated)[i]  # NumPy copies are cached
        if dealt > np.asarray(before.deals_played)[i] and not over:
            game.queued_deals = [[ranks_text(h) for h in np.asarray(after.hands)[i]]]

    choose = random_legal(np.random.default_rng(seed))
    return play_in_lockstep(refs, state, views, step, choose, env.max_steps, next_deal)


@pytest.mark.parametrize("options", CASES, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_same_trajectories_as_the_reference_engine(options: dict[str, Any]) -> None:
    decisions = play_lockstep(options, num_games=8, seed=len(options) * 7 + options["num_players"])
    assert decisions > 8 * 20


def test_unsupported_options_are_refused() -> None:
    with pytest.raises(InvalidOptionError, match="num_players"):
        KyuuriFast(num_players=8)
