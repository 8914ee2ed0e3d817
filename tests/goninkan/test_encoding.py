"""The observation: layout, bounds, seat-relative order, and the per-observer cache of slowly-changing features."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import cardenvs
from cardenvs.goninkan.encoding import encode
from tests.goninkan.deals import DEAL1
from tests.goninkan.helpers import act, goninkan, play


@pytest.mark.parametrize(
    ("env_id", "options"),
    [
        ("goninkan-v1", {}),
        ("goninkan-v1", {"num_players": 6, "episode": "match", "n_rounds": 3}),
        ("yoninkan-v1", {}),
        ("yoninkan-v1", {"yoninkan_double": "one_vs_three", "episode": "match", "n_rounds": 2}),
    ],
)
def test_cached_observation_equals_a_fresh_one(env_id: str, options: dict[str, Any]) -> None:
    env = cardenvs.make_raw(env_id, **options)
    space = env.observation_space(env.possible_agents[0])["observation"]
    rng = np.random.default_rng(0)
    for seed in range(4):
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            game = env.game
            assert game is not None
            for p in range(game.num_players):
                cached = game.observation(p)
                assert np.array_equal(cached, encode(game, p, cached=False)), f"stale cache for player {p}"
                assert space.contains(cached)
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_observation_is_seat_relative() -> None:
    g = goninkan(DEAL1, round_number=2)
    act(g, "lead_choice", "いく")
    play(g, "p1:3♥ A♥")
    layout = g.layout
    for me in range(5):
        played = layout.view(g.observation(me), "played").reshape(5, -1)
        # relative seat of player 1 (who played 3♥) and player 2 (A♥), seen from ``me``
        assert played[(1 - me) % 5].sum() == 1 and played[(2 - me) % 5].sum() == 1
        assert layout.view(g.observation(me), "kankei").tolist() == [float((p + me) % 5 in (1, 3)) for p in range(5)]
        assert layout.view(g.observation(me), "dealer")[(0 - me) % 5] == 1


def test_trick_winner_follows_the_card_winning_so_far() -> None:
    """Round 2, ♦ trump: an ace holds a trick until a void player trumps it, a higher trump over-trumps, and
    the feature is empty before the next lead."""
    g = goninkan(DEAL1, round_number=2)
    act(g, "lead_choice", "いく")

    def winner_seen_by(me: int) -> list[float]:
        return g.layout.view(g.observation(me), "trick_winner").tolist()

    def check(expected: int | None) -> None:
        for me in range(5):
            want = [0.0] * 5
            if expected is not None:
                want[(expected - me) % 5] = 1.0
            assert winner_seen_by(me) == want, f"player {me} sees {winner_seen_by(me)}, expected {expected}"

    check(None)
    for step, leading in [("p1:3♥", 1), ("p2:A♥", 2), ("p3:4♥", 2), ("p4:K♥", 2)]:
        play(g, step)
        check(leading)
    play(g, "p0:Q♥")  # the trick is over: player 2 leads the next one
    check(None)
    play(g, "p2:A♣ p3:3♣ p4:6♣ p0:Q♣ p1:J♣")
    for step, leading in [("p2:5♥", 2), ("p3:3♦", 3), ("p4:7♥", 3), ("p0:9♥", 3)]:
        play(g, step)
        check(leading)
    play(g, "p1:J♦")  # over-trumps: player 1 wins the trick and leads
    assert g.current_player == 1
    play(g, "p1:4♠")
    check(1)
    play(g, "p2:A♠")
    check(2)
