"""docs/architecture.md's "Adding a game", followed: a package (``high_card``, here under ``tests``) and one line
in ``cardenvs.games.GAMES``; the registry, the env, the seat view (table and words) and the batch pick it up."""

from __future__ import annotations

import pytest

import cardenvs
from cardenvs.core.errors import InvalidOptionError
from cardenvs.games import GAMES, definition_of
from cardenvs.render.view import seat_view
from cardenvs.testing import check_pettingzoo_api
from cardenvs.vector import BatchedGames, batched_games


@pytest.fixture
def high_card(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setitem(GAMES, "high_card", (0, "tests.adding_a_game.high_card.env"))  # the registration line
    return "high_card-v0"


def test_the_registry_makes_the_new_game(high_card: str) -> None:
    env = cardenvs.make_raw(high_card)
    assert cardenvs.definition(high_card).env_id == "cardenvs/high_card-v0"
    env.reset(seed=3)
    env.step(1)
    assert env.game is not None and definition_of(env.game).name == "high_card"
    check_pettingzoo_api(high_card, {}, num_cycles=20)


def test_the_seat_view_uses_the_new_games_table_and_words(high_card: str) -> None:
    env = cardenvs.make_raw(high_card, render_mode="svg")
    env.reset(seed=0)
    env.step(1)  # player_0 shows
    assert env.game is not None
    view = seat_view(env.game, 1)
    assert view["game"] == "high_card"
    assert [p["status"] for p in view["players"]] == ["shown", "to act"]
    assert view["lines"] == ["High card"]
    assert view["history"][-1].startswith("player_0 shows ")
    assert "<svg" in str(env.render())


def test_a_batch_plays_it_on_the_engines_and_jax_is_refused(high_card: str) -> None:
    batch = batched_games(high_card, num_games=2, seed=0)
    assert isinstance(batch, BatchedGames)
    assert batch.step(batch.reset().masks.argmax(axis=1)).observations.shape == (2, 8)
    with pytest.raises(InvalidOptionError, match="no fast path"):
        batched_games(high_card, num_games=64, backend="jax")
