"""Bad input gets a clear error that names the problem and what is valid."""

from __future__ import annotations

import json

import numpy as np
import pytest

import cardenvs
from cardenvs import ActionTypeError, GameOverError, IllegalActionError, InvalidOptionError, UnknownAgentError
from cardenvs.core.aec import CardGameEnv

ID = "verish_ne_verish-v0"


def test_unknown_option_lists_the_valid_ones() -> None:
    with pytest.raises(InvalidOptionError, match=r"unknown option\(s\) 'players'.*valid options: .*num_players"):
        cardenvs.make(ID, players=4)


@pytest.mark.parametrize("n", [0, 1, 7])
def test_bad_player_count(n: int) -> None:
    with pytest.raises(InvalidOptionError, match="num_players must be 2–6"):
        cardenvs.make(ID, num_players=n)


def test_wrongly_typed_option() -> None:
    with pytest.raises(InvalidOptionError, match=r"option .num_players. .* must be int, got .4."):
        cardenvs.make(ID, num_players="4")
    with pytest.raises(InvalidOptionError, match=r"reward_mode.*one of .loser., .exit_order."):
        cardenvs.make(ID, reward_mode="winner")


def test_bad_common_options() -> None:
    with pytest.raises(InvalidOptionError, match="render_mode"):
        cardenvs.make(ID, render_mode="rgb_array")
    with pytest.raises(InvalidOptionError, match="illegal_action"):
        cardenvs.make(ID, illegal_action="ignore")
    with pytest.raises(InvalidOptionError, match="max_steps"):
        cardenvs.make(ID, max_steps=0)


def test_unknown_env_id_lists_the_registered_ones() -> None:
    with pytest.raises(InvalidOptionError, match=r"registered ids: .*cardenvs/verish_ne_verish-v0"):
        cardenvs.make("bluff-v0")


def test_illegal_action_says_why_and_what_is_legal() -> None:
    env = cardenvs.make_raw(ID, num_players=3)
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match=r"challenge.*nothing to challenge yet.*Legal now: 1=declare\(2\)"):
        env.step(0)


def test_wrong_action_types() -> None:
    env = cardenvs.make_raw(ID)
    env.reset(seed=0)
    for bad in (1.0, "1", [1], np.float32(1), True):
        with pytest.raises(ActionTypeError, match="must be an integer id"):
            env.step(bad)
    env.step(np.int64(1))  # NumPy integers are fine (declare the first rank)
    legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
    env.step(np.array([legal[0]]))  # so is a one-element integer array
    assert env.num_steps == 2


def test_step_before_reset_and_after_the_end() -> None:
    env = cardenvs.make_raw(ID, num_players=2)
    with pytest.raises(GameOverError, match="call reset"):
        env.step(1)
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    with pytest.raises(GameOverError, match="episode is over"):
        env.step(1)


def test_dead_agent_must_step_none() -> None:
    env = cardenvs.make_raw(ID, num_players=2, max_steps=1)
    env.reset(seed=1)
    env.step(1)  # truncated at the step cap
    assert all(env.truncations.values())
    with pytest.raises(ActionTypeError, match="only valid action is None"):
        env.step(1)


def test_penalize_option_ends_the_episode_with_the_pettingzoo_convention() -> None:
    env = cardenvs.make_raw(ID, num_players=3, illegal_action="penalize", illegal_penalty=-2.0)
    env.reset(seed=0)
    offender = env.agent_selection
    env.step(0)  # a challenge on the round's first play is illegal
    assert all(env.terminations.values())
    assert env.rewards[offender] == -2.0 and sum(env.rewards.values()) == -2.0
    assert "nothing to challenge" in env.infos[offender]["illegal_action"]


# Options under which each game pays rewards before the episode ends (so a refused action meets a pending reward).
MID_EPISODE_REWARDS: dict[str, dict[str, object]] = {
    "verish_ne_verish-v0": {"n_games": 3},
    "yukushi-v0": {"n_games": 3},
    "kyuuri-v0": {"reward_mode": "penalty"},
    "zheng_shang_you-v0": {"reward_mode": "match_points"},
    "goninkan-v1": {"episode": "match", "n_rounds": 3},
    "yoninkan-v1": {"episode": "match", "n_rounds": 3},
}


def _whole_state(env: CardGameEnv) -> str:
    """Everything an observer of the env can read, as one comparable text."""
    game = env.game
    assert game is not None
    parts = {
        "rewards": env.rewards,
        "cumulative": env._cumulative_rewards,
        "terminations": env.terminations,
        "truncations": env.truncations,
        "infos": env.infos,
        "agents": env.agents,
        "selection": env.agent_selection,
        "steps": env.num_steps,
        "last": [repr(x) for x in env.last()],
        "observations": {a: env.observe(a)["observation"].tolist() for a in env.possible_agents},
        "masks": {a: env.observe(a)["action_mask"].tolist() for a in env.possible_agents},
        "game": game.privileged_state(),
        "events": env.events.to_json(),
        "player": game.current_player,
    }
    return json.dumps(parts, sort_keys=True, default=str)


@pytest.mark.parametrize("env_id", sorted(MID_EPISODE_REWARDS))
def test_a_refused_action_leaves_the_env_exactly_as_it_was(env_id: str) -> None:
    """An illegal action caught and retried must not erase the reward paid on the previous step (nor change
    anything else): checked at the first states of each seed where a reward is pending, and at ordinary states."""
    assert {f"cardenvs/{i}" for i in MID_EPISODE_REWARDS} == set(cardenvs.ENV_IDS), "every id is covered"
    with_reward = 0
    for seed in range(4):
        env = cardenvs.make_raw(env_id, **MID_EPISODE_REWARDS[env_id])
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for n, _agent in enumerate(env.agent_iter()):
            obs, reward, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            illegal = np.flatnonzero(obs["action_mask"] == 0)
            if reward != 0 or n % 50 == 0:
                with_reward += reward != 0
                before = _whole_state(env)
                with pytest.raises(IllegalActionError):
                    env.step(int(illegal[rng.integers(len(illegal))]))
                assert _whole_state(env) == before, f"{env_id} seed {seed} step {n}: a refused action changed the env"
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert with_reward > 0, f"{env_id}: no pending reward met; the test had no power"


def test_illegal_penalty_must_be_finite() -> None:
    for bad in (float("nan"), float("inf"), -float("inf")):
        with pytest.raises(InvalidOptionError, match=r"illegal_penalty must be a finite number.*got (nan|inf|-inf)"):
            cardenvs.make(ID, illegal_penalty=bad)


@pytest.mark.parametrize("seed", [True, 1.5, "3", -1])
def test_reset_refuses_a_seed_that_is_not_a_non_negative_int(seed: object) -> None:
    env = cardenvs.make_raw(ID)
    with pytest.raises(InvalidOptionError, match=r"reset\(seed=...\) takes None or a non-negative int, got"):
        env.reset(seed=seed)  # type: ignore[arg-type]
    env.reset(seed=np.int64(3))  # NumPy integers are ints too


@pytest.mark.parametrize("env_id", [None, 123, 4.5])
def test_an_id_that_is_not_a_string_is_named(env_id: object) -> None:
    with pytest.raises(InvalidOptionError, match=rf"an environment id is a string, got {env_id!r}.*registered ids"):
        cardenvs.make(env_id)  # type: ignore[arg-type]


def test_an_unknown_agent_name_lists_the_agents() -> None:
    env = cardenvs.make_raw(ID, num_players=3)
    env.reset(seed=0)
    for call in (env.observe, env.observation_space, env.action_space, env.player_index):
        with pytest.raises(UnknownAgentError, match=r"no agent 'player_3'; agents are player_0, player_1, player_2"):
            call("player_3")
    with pytest.raises(KeyError):  # still a KeyError for code that catches one
        env.observe("nobody")


def test_last_before_reset_says_to_reset() -> None:
    with pytest.raises(GameOverError, match="call reset"):
        cardenvs.make_raw(ID).last()
