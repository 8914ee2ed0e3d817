"""Cheap clones and re-deals (issue 22 item 4): a clone shares the event log and builds its generator lazily, and
must still be a faithful, independent, deterministic copy."""

from __future__ import annotations

import numpy as np
import pytest

import cardenvs
from cardenvs.core.bluffing_game import BluffingGame
from cardenvs.core.engine import RulesEngine
from cardenvs.core.redeal import redeal_counts

FAST_CLONES = {
    "cardenvs/verish_ne_verish-v0": {"num_players": 4, "n_games": 3},
    "cardenvs/yukushi-v0": {"num_players": 4, "n_games": 2},
    "cardenvs/kyuuri-v0": {"num_players": 4},
}


def midgame(env_id: str, options: dict[str, int], decisions: int) -> RulesEngine[object]:
    game = cardenvs.definition(env_id).new_game(cardenvs.make_raw(env_id, **options).options, np.random.default_rng(3))
    rng = np.random.default_rng(4)
    for _ in range(decisions):
        legal = game.legal_actions()
        game.apply(legal[int(rng.integers(len(legal)))])
    return game


def play_out(game: RulesEngine[object], seed: int) -> tuple[list[bytes], list[object]]:
    """Random legal play to the end (later deals of a match come from the game's own generator)."""
    rng = np.random.default_rng(seed)
    seen = []
    while not game.is_terminal:
        seen.append(game.observation(game.current_player).tobytes())
        legal = game.legal_actions()
        game.apply(legal[int(rng.integers(len(legal)))])
    return seen, list(game.events)


@pytest.mark.parametrize("env_id", sorted(FAST_CLONES))
def test_a_clone_plays_the_same_future_and_leaves_the_original_alone(env_id: str) -> None:
    game = midgame(env_id, FAST_CLONES[env_id], 30)
    before = (game.privileged_state(), len(game.events), game.rng.bit_generator.state)
    twin, other = game.clone(), game.clone()
    future = play_out(twin, 7)
    assert play_out(other, 7) == future  # the same future, later deals included
    assert (game.privileged_state(), len(game.events), game.rng.bit_generator.state) == before
    assert play_out(game, 7) == future  # and the original's own


@pytest.mark.parametrize("env_id", sorted(FAST_CLONES))
def test_a_redeal_is_deterministic_and_leaves_the_original_alone(env_id: str) -> None:
    game = midgame(env_id, FAST_CLONES[env_id], 20)
    seat, before = game.current_player, game.privileged_state()
    first = game.resample_hidden(seat, np.random.default_rng(9))
    second = game.resample_hidden(seat, np.random.default_rng(9))
    assert first.privileged_state() == second.privileged_state()
    assert np.array_equal(first.observation(seat), game.observation(seat))
    assert game.privileged_state() == before


def test_a_place_of_no_cards_changes_no_draw() -> None:
    """The re-deals keep the observer's row in place as an empty one: that must leave the others' draw as it was."""
    counts = np.array([[1, 0, 2, 0], [0, 3, 1, 1], [2, 1, 0, 1]], dtype=np.int16)
    for where in range(len(counts) + 1):
        with_empty = np.insert(counts, where, 0, axis=0)
        dealt = redeal_counts(with_empty, np.random.default_rng(5))
        assert not dealt[where].any()
        assert np.array_equal(np.delete(dealt, where, axis=0), redeal_counts(counts, np.random.default_rng(5)))
        assert np.array_equal(dealt.sum(axis=0), counts.sum(axis=0))


def test_cached_rank_text_is_the_text_written_out() -> None:
    game = midgame("cardenvs/yukushi-v0", FAST_CLONES["cardenvs/yukushi-v0"], 0)
    assert isinstance(game, BluffingGame)
    rng = np.random.default_rng(2)
    for _ in range(50):
        counts = rng.integers(0, 3, game.num_ranks)
        expected = " ".join(game.rank_labels[k] for k in range(game.num_ranks) for _ in range(counts[k]))
        for dtype in (np.int8, np.int16, np.int64):
            assert game._ranks_text(counts.astype(dtype)) == expected


def test_clearing_a_forked_log_leaves_its_twin_alone() -> None:
    from cardenvs.core.events import EventLog

    log = EventLog()
    log.add("deal", public={"n": 1})
    twin = log.fork()
    twin.clear()
    twin.add("play")
    assert [e["kind"] for e in log.events] == ["deal"] and [e["kind"] for e in twin.events] == ["play"]
