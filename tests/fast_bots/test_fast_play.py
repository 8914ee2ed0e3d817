"""The array-program bots in their own setting and as Python policies: every action they choose in the JAX games
is legal, and seated as ``fastbot:<name>`` in the Python env they play level with the Python bot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cardenvs
from cardenvs.agents.play import play_episode
from cardenvs.agents.specs import SpecError, make_policy
from tests.fast.lockstep import compiled
from tests.tournament.whole_games import assert_whole_games

jax = pytest.importorskip("jax")
from cardenvs.agents.fast_bots import FAST_BOTS  # noqa: E402
from cardenvs.fast.batched import redeal_finished  # noqa: E402

GAMES = {
    "random": ("verish_ne_verish-v0", {"num_players": 5}),
    "verish_ne_verish/rule": ("verish_ne_verish-v0", {"num_players": 4, "quad_discard_optional": True}),
    "kyuuri/rule": ("kyuuri-v0", {"num_players": 4}),
    "kyuuri/thrifty": ("kyuuri-v0", {"num_players": 3}),
    "yukushi/honest": ("yukushi-v0", {"num_players": 4}),
    "yukushi/bluffer": ("yukushi-v0", {"num_players": 4, "allow_count_mismatch": True}),
    "yukushi/counter": ("yukushi-v0", {"num_players": 6, "challenge_model": "B"}),
    "goninkan/rule": ("goninkan-v1", {"num_players": 5, "nijukan_exchange": "chooser_picks_blind"}),
    "yoninkan/rule": ("yoninkan-v1", {"episode": "match", "n_rounds": 2}),
    "zheng_shang_you/rule": ("zheng_shang_you-v0", {"num_players": 4, "team_mode": "partners", "target_points": 2}),
}


def test_every_array_bot_has_a_game_here() -> None:
    assert set(GAMES) == set(FAST_BOTS)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_array_bot_plays_only_legal_actions_in_the_jax_game(name: str) -> None:
    env_id, options = GAMES[name]
    env = cardenvs.definition(env_id).part("fast")(**options)
    bot = FAST_BOTS[name](env_id, options)
    games, steps = 16, 300

    def play(state: Any, key: jax.Array) -> tuple[jax.Array, jax.Array]:
        def decide(carry: Any, _: Any) -> Any:
            state, key = carry
            key, choose, deal = jax.random.split(key, 3)
            live = ~(state.terminated | state.truncated)
            actions = bot.act(state.observation, state.legal_action_mask, choose)
            legal = jax.numpy.take_along_axis(state.legal_action_mask, actions[:, None], axis=1)[:, 0]
            after = jax.vmap(env.step)(state, actions)
            return (redeal_finished(env, after, deal, 4), key), ((legal | ~live).all(), after.terminated.sum())

        _, (legal, ended) = jax.lax.scan(decide, (state, key), None, length=steps)
        return legal, ended.sum()

    state = jax.vmap(env.init)(jax.random.split(jax.random.PRNGKey(3), games))
    key = jax.random.PRNGKey(4)
    legal, ended = compiled(play, state, key)(state, key)
    assert np.asarray(legal).all(), f"{name} chose an illegal action"
    if env_id != "kyuuri-v0":  # a Kyuuri game (an elimination over many deals) outlasts the run
        assert int(ended) > 0, "no game ended: the bot may be stuck"


def test_fastbot_spec_plays_level_with_the_python_bot() -> None:
    """Half the seats each, swapped between the two games of a deal; the figure in docs/fast.md is a longer run."""
    env = cardenvs.make("verish_ne_verish-v0", num_players=4)
    margins = []
    for deal in range(12):
        for fast_seats in ((0, 2), (1, 3)):
            policies = [
                make_policy("fastbot:verish_ne_verish/rule" if s in fast_seats else "verish_ne_verish/rule", env)
                for s in range(4)
            ]
            returns = play_episode(env, policies, seed=deal).returns
            fast = np.mean([returns[s] for s in fast_seats])
            margins.append(fast - np.mean([returns[s] for s in range(4) if s not in fast_seats]))
    # Deterministic (seeded); a loose bound: each game's margin is ±2/3, so ±0.5 is 3.7 standard errors.
    assert abs(np.mean(margins)) < 0.5, f"mean margin {np.mean(margins):+.3f} over {len(margins)} games"


def test_fastbot_spec_names_only_written_bots() -> None:
    env = cardenvs.make("kyuuri-v0")
    with pytest.raises(SpecError, match="no array-program bot named 'kyuuri/greedy'"):
        make_policy("fastbot:kyuuri/greedy", env)
    with pytest.raises(SpecError, match="plays verish_ne_verish, not cardenvs/kyuuri-v0"):
        make_policy("fastbot:verish_ne_verish/rule", env)


def test_a_fastbot_entrant_plays_a_tournament_in_worker_processes_under_the_default_move_clock(tmp_path: Path) -> None:
    """Its bot compiles when the policy is built, not on its first timed move, and workers are not forked from a
    process running JAX (the entrant's fingerprint starts JAX in the parent)."""
    import jax.numpy as jnp

    from cardenvs.agents.tournament import Tournament
    from cardenvs.agents.tournament.processes import start_method
    from cardenvs.agents.tournament.runner import DEFAULT_MOVE_TIMEOUT

    jnp.zeros(1).block_until_ready()  # JAX's runtime is started in this process
    assert start_method() != "fork"
    entrants = ["fb=fastbot:zheng_shang_you/rule", "rule=zheng_shang_you/rule"]
    tournament = Tournament("zheng_shang_you-v0", entrants, games=4, options={"num_players": 4, "episode": "deal"})
    result = tournament.run(tmp_path / "t.db", workers=2, move_timeout=DEFAULT_MOVE_TIMEOUT)  # a timeout raises
    assert_whole_games(result, ["fb", "rule"], games=4)
