"""The JAX Yukushi against the reference engine: the same deals and the same actions give the same players to act,
masks, every seat's observation and rewards, decision for decision, over many random games.

A batch of games is played in lockstep (one jitted, vmapped step per decision on the JAX side, the reference
engines one by one beside it). The deals are the JAX side's (``init``: a random initiative holder, the deck dealt
clockwise from it), handed to the reference as explicit deals. Random legal play calls ゆくし sparingly and
passes often (``CALL``, ``PASS``): a uniform draw would call in most windows and hardly ever pass a run round to
its flush."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cardenvs.core.cards import ranks_text
from cardenvs.core.errors import InvalidOptionError
from cardenvs.yukushi.encoding import HIDDEN_COUNT_GROUPS
from cardenvs.yukushi.options import YukushiOptions
from cardenvs.yukushi.rules import YukushiGame
from tests.fast.lockstep import play_in_lockstep, random_batch

jax = pytest.importorskip("jax")
from cardenvs.fast.yukushi import CHALLENGE, YukushiFast  # noqa: E402  (needs JAX, skipped above without it)
from cardenvs.fast.yukushi import PASS as PASS_ID  # noqa: E402

CALL = 0.15
"""Chance that a window of random players calls (each of the ``n - 1`` others calls with ``CALL / (n - 1)``)."""
PASS = 0.7
"""Chance that a random player passes where it may (else it plays): runs must be passed round to be flushed."""

CASES: list[dict[str, Any]] = [
    {"num_players": 8},  # the benchmark's
    {"num_players": 2, "window_before_flush": False, "max_play": 6, "leader": 1},
    {"num_players": 5, "challenge_model": "B", "play_to_ranking": True, "n_games": 2},  # a match of two rankings
    {"num_players": 3, "challenge_model": "C", "deal_from": "dealer", "forbid_exhausted_rank": True, "max_steps": 120},
    # counts declared apart from the cards placed (hidden counts) in a match of two games, the winner leading next
    {"num_players": 4, "allow_count_mismatch": True, "max_play": 3, "n_games": 2, "deal_from": "dealer"},
]


def choose(rng: np.random.Generator) -> Any:
    """A random legal action that calls ゆくし sparingly (see ``CALL``)."""

    def pick(game: YukushiGame) -> int:
        legal = np.flatnonzero(game.legal_mask())
        if CHALLENGE in legal and len(legal) > 1:
            if rng.random() < CALL / (game.num_players - 1):
                return CHALLENGE
            legal = legal[legal != CHALLENGE]
        if PASS_ID in legal and rng.random() < PASS:
            return PASS_ID
        return int(rng.choice(legal[legal != PASS_ID] if len(legal) > 1 else legal))

    return pick


def play_lockstep(options: dict[str, Any], num_games: int, seed: int) -> int:
    """Play ``num_games`` random games on both sides; return the decisions compared."""
    env = YukushiFast(**options)
    opts: YukushiOptions = env.options
    state, views, step = random_batch(env, num_games, seed)
    hands, leaders = np.asarray(state.hands), np.asarray(state.turn)
    refs = [
        YukushiGame.from_deal(opts, [ranks_text(h) for h in hands[i]], leader=int(leaders[i])) for i in range(num_games)
    ]
    first = leaders if opts.deal_from == "leader" else (leaders - 1) % env.num_players
    sizes = hands.sum(axis=2)  # dealt one at a time from the first seat: the first 52 mod n get one card more
    extra = (np.arange(env.num_players)[None] - first[:, None]) % env.num_players < 52 % env.num_players
    assert (sizes == 52 // env.num_players + extra).all()

    def next_game(i: int, game: YukushiGame, before: Any, after: Any) -> None:
        """The JAX step dealt the match's next game: the reference plays the same cards."""
        if np.asarray(after.games_played)[i] > np.asarray(before.games_played)[i]:
            dealt = np.asarray(after.hands)[i].astype(np.int16)
            leader = int(np.asarray(after.turn)[i])
            expected_first = leader if opts.deal_from == "leader" else (leader - 1) % env.num_players

            def deal_counts(first: int, skip: int = 0) -> tuple[list[np.ndarray], np.ndarray]:
                assert (first, skip) == (expected_first, 0), "the winner leads and is dealt to first"
                return list(dealt), np.zeros(13, np.int16)

            game._deal_counts = deal_counts  # type: ignore[method-assign]
            dealt_games.append(i)

    def step_hiding_counts(s: Any, a: Any) -> Any:
        """The step, and (allow_count_mismatch) no seat's view shows a number of cards placed or held but its own."""
        s, views = step(s, a)
        if opts.allow_count_mismatch:
            shown = np.asarray(views)[:, :, hidden_slices].copy()
            shown[:, :, own_size] = 0
            assert not shown.any(), "a count the reference hides"
        return s, views

    layout = env.layout
    hidden_slices = np.concatenate([np.arange(layout.size)[layout.slices[g]] for g in HIDDEN_COUNT_GROUPS])
    own_size = int(np.flatnonzero(hidden_slices == layout.offsets["hand_sizes"])[0])
    dealt_games: list[int] = []
    pick = choose(np.random.default_rng(seed))
    decisions = play_in_lockstep(refs, state, views, step_hiding_counts, pick, env.max_steps, next_game)
    if opts.n_games > 1:
        assert len(dealt_games) >= num_games, "matches play on into later games"
    return decisions


@pytest.mark.parametrize("options", CASES, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_same_trajectories_as_the_reference_engine(options: dict[str, Any]) -> None:
    decisions = play_lockstep(options, num_games=6, seed=len(options) * 7 + options["num_players"])
    assert decisions > 6 * 40


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"num_players": 9}, "2–8"),
        ({"max_steps": 0}, "max_steps"),
    ],
)
def test_unsupported_options_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        YukushiFast(**options)
