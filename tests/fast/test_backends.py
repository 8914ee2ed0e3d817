"""``cardenvs.vector.batched_games``: which backend it hands out, the errors of an impossible ``backend="jax"``, and
that the JAX batch gives the reference engines' observations, masks, players and rewards through the same
interface. Only the last test needs JAX (and compiles, with the optimiser off)."""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
from typing import Any

import numpy as np
import pytest

from cardenvs.core.cards import ranks_text
from cardenvs.core.errors import InvalidOptionError
from cardenvs.vector import JAX_FROM_GAMES, BatchedGames, batched_games
from cardenvs.yukushi.rules import YukushiGame
from tests.fast.lockstep import QUICK_COMPILE

HAS_JAX = importlib.util.find_spec("jax") is not None


def no_jax(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "jax" else real(name, *a))


def test_python_and_small_batches_take_the_engines() -> None:
    assert isinstance(batched_games("yukushi-v0", 4, backend="python"), BatchedGames)
    assert isinstance(batched_games("yukushi-v0", JAX_FROM_GAMES - 1), BatchedGames)  # auto: dispatch would lose


@pytest.mark.parametrize(
    ("env_id", "options", "message"),
    [
        ("yukushi-v0", {"refused": True}, "a stand-in refusal"),
        ("yukushi-v0", {"no fast path": True}, "no fast path"),
    ],
)
def test_auto_falls_back_where_jax_cannot_and_jax_says_why(
    env_id: str, options: dict[str, Any], message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if options.pop("no fast path", False):  # a game without one (every game may get one: take it away)
        module = importlib.import_module("cardenvs.yukushi.env")  # the package's ``env`` is the constructor
        monkeypatch.setattr(module, "DEFINITION", dataclasses.replace(module.DEFINITION, fast=""))
    elif options.pop("refused"):  # an option the fast class refuses (the JAX games may come to play them all)
        if not HAS_JAX:
            pytest.skip("the fast classes refuse options only where JAX is installed")
        import cardenvs.fast.yukushi

        def refuse(**options: Any) -> None:
            raise InvalidOptionError("the JAX path does not play this option (a stand-in refusal)")

        monkeypatch.setattr(cardenvs.fast.yukushi, "YukushiFast", refuse)
    assert isinstance(batched_games(env_id, JAX_FROM_GAMES, **options), BatchedGames)
    with pytest.raises(InvalidOptionError, match=message):
        batched_games(env_id, JAX_FROM_GAMES, backend="jax", **options)


def test_without_jax_auto_takes_the_engines_and_jax_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    no_jax(monkeypatch)
    assert isinstance(batched_games("yukushi-v0", JAX_FROM_GAMES), BatchedGames)
    with pytest.raises(InvalidOptionError, match="JAX is not installed"):
        batched_games("yukushi-v0", JAX_FROM_GAMES, backend="jax")


def test_bad_backends_and_options_are_refused_alike() -> None:
    with pytest.raises(InvalidOptionError, match="backend must be one of auto, python, jax"):
        batched_games("yukushi-v0", 4, backend="numba")  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="num_players"):
        batched_games("yukushi-v0", JAX_FROM_GAMES, backend="jax", num_players=9)


def test_the_jax_batch_matches_the_engines_and_re_deals_at_the_cap() -> None:
    pytest.importorskip("jax")
    from cardenvs.fast.batched import FastBatchedGames

    options = {"num_players": 3, "challenge_model": "B"}
    fast = FastBatchedGames(4, 3, QUICK_COMPILE, game="yukushi-v0", max_steps=12, **options)
    batch = fast.reset()
    hands, leaders = np.asarray(fast.state.hands), np.asarray(fast.state.turn)
    opts = fast.env.options
    refs = [YukushiGame.from_deal(opts, [ranks_text(h) for h in hands[i]], leader=int(leaders[i])) for i in range(4)]
    rng = np.random.default_rng(0)
    for _ in range(12):
        for i, game in enumerate(refs):
            assert batch.players[i] == game.current_player
            np.testing.assert_array_equal(batch.observations[i], game.observation(game.current_player))
            np.testing.assert_array_equal(batch.masks[i], game.legal_mask())
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in batch.masks])
        batch = fast.step(actions)
        for i, game in enumerate(refs):
            game.apply(int(actions[i]))
            earned = game.take_rewards()
            np.testing.assert_array_equal(batch.rewards[i], np.zeros(3) if earned is None else earned)
            assert not batch.terminated[i] and not game.is_terminal  # nobody can empty 17 cards in 12 decisions
    assert batch.truncated.all() and (np.asarray(fast.state.step_count) == 0).all()  # re-dealt at the cap
    with pytest.raises(InvalidOptionError, match="4 actions"):
        fast.step(np.zeros(3))
