"""The RLlib multi-agent env: RLlib's own pre-check and episode bookkeeping on every game, keys and masks."""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys

import numpy as np
import pytest

import cardenvs
from cardenvs.core.errors import IllegalActionError, InvalidOptionError

pytest.importorskip("ray.rllib", reason="the cluster extra (ray[rllib]) is not installed")

from gymnasium import spaces
from ray.rllib.env.multi_agent_episode import MultiAgentEpisode
from ray.rllib.utils.pre_checks.env import check_multiagent_environments

from cardenvs.wrappers.rllib import RLlibEnv


@pytest.mark.parametrize("env_id", cardenvs.ENV_IDS)
def test_rllibs_env_pre_check_passes_on_every_game(env_id: str) -> None:
    env = RLlibEnv({"game": env_id})
    check_multiagent_environments(env)  # samples get_action_space(agent).sample() and steps it
    assert env.env.illegal_action == "raise"  # passed without turning illegal actions into penalties


@pytest.mark.parametrize("env_id", cardenvs.ENV_IDS)
def test_rllibs_episode_gives_every_player_what_the_game_paid(env_id: str) -> None:
    """A random legal game through RLlib's MultiAgentEpisode (what its env runners build): it ends, and every agent
    that decided collects the rewards the AEC env paid it, terminal ones paid on another seat's move included."""
    env = RLlibEnv({"game": env_id})
    agent = env.possible_agents[0]
    episode = MultiAgentEpisode(
        observation_space=spaces.Dict(env.observation_spaces),
        action_space=spaces.Dict(env.action_spaces),
        agent_to_module_mapping_fn=lambda agent_id, _episode: "shared",
    )
    observations, infos = env.reset(seed=3)
    episode.add_env_reset(observations=observations, infos=infos)
    paid = dict.fromkeys(env.possible_agents, 0.0)
    space = env.observation_spaces[agent]
    while not episode.is_done:
        (actor,) = observations
        assert space.contains(observations[actor]) and observations[actor]["action_mask"].any()
        action = env.get_action_space(actor).sample()
        assert observations[actor]["action_mask"][action] == 1.0
        observations, rewards, terminateds, truncateds, infos = env.step({actor: action})
        for a, r in rewards.items():
            paid[a] += r
        episode.add_env_step(
            observations, {actor: action}, rewards, infos, terminateds=terminateds, truncateds=truncateds
        )
    assert set(observations) == set(env.possible_agents)
    assert not any(obs["action_mask"].any() for obs in observations.values())
    returns = {a: ep.get_return() for a, ep in episode.agent_episodes.items()}
    assert returns == pytest.approx({a: paid[a] for a in returns})
    assert returns == pytest.approx({a: env.env._cumulative_rewards[a] for a in returns})


def test_observations_have_the_keys_rllibs_masking_module_reads() -> None:
    env = RLlibEnv({"game": "kyuuri-v0", "num_players": 3})
    observations, _ = env.reset(seed=0)
    (agent,) = observations
    obs = observations[agent]
    assert set(obs) == {"observations", "action_mask"}
    assert obs["action_mask"].dtype == np.float32 and obs["observations"].dtype == np.float32
    raw = env.env.observe(agent)
    np.testing.assert_array_equal(obs["action_mask"], raw["action_mask"])
    np.testing.assert_allclose(obs["observations"], raw["observation"] * env.scale)
    assert np.abs(obs["observations"]).max() <= 1.0
    unscaled = RLlibEnv({"game": "kyuuri-v0", "num_players": 3, "normalize": False})
    np.testing.assert_array_equal(unscaled.reset(seed=0)[0][agent]["observations"], raw["observation"])


def test_an_illegal_action_still_raises_and_bad_configs_are_named() -> None:
    env = RLlibEnv({"game": "kyuuri-v0", "num_players": 3})
    observations, _ = env.reset(seed=0)
    (agent,) = observations
    illegal = int(np.flatnonzero(observations[agent]["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step({agent: illegal})
    other = next(a for a in env.possible_agents if a != agent)
    with pytest.raises(InvalidOptionError, match=f"{agent} is the one agent to act"):
        env.step({other: 0})
    with pytest.raises(InvalidOptionError, match="needs 'game'"):
        RLlibEnv({"num_players": 3})
    with pytest.raises(InvalidOptionError, match="reward_scale must be a positive number"):
        RLlibEnv({"game": "kyuuri-v0", "reward_scale": 0})
    with pytest.raises(InvalidOptionError, match="unknown option"):
        RLlibEnv({"game": "kyuuri-v0", "num_playerz": 3})


def test_the_legal_sampling_space_copies_as_a_plain_discrete() -> None:
    """Module specs and checkpoints copy the action space: they must not carry the env along."""
    space = RLlibEnv({"game": "kyuuri-v0"}).action_spaces["player_0"]
    for copied in (pickle.loads(pickle.dumps(space)), copy.deepcopy(space)):
        assert type(copied) is spaces.Discrete and copied == space


def test_importing_cardenvs_and_its_wrappers_does_not_import_ray() -> None:
    code = "import sys, cardenvs, cardenvs.wrappers; print('ray' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
