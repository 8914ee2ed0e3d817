"""An RLlib ``MultiAgentEnv`` over any cardenvs game, for RLlib's new API stack with no glue.

>>> from cardenvs.wrappers.rllib import RLlibEnv                      # imports ray (cardenvs alone does not)
>>> env = RLlibEnv({"game": "kyuuri-v0", "num_players": 3})
>>> observations, infos = env.reset(seed=0)                          # {agent to act: {"observations", "action_mask"}}

PPO with the ``ActionMaskingTorchRLModule`` of RLlib's examples trains on it as it is (``docs/rllib.md`` has the
config, which the tests run; ``python -m cardenvs.experiments.train_rllib`` is the full recipe).

What it takes care of:

* observations are dicts with the keys RLlib's action-masking modules read: ``observations`` (the game's flat
  vector, scaled into [−1, 1] per feature like :class:`~cardenvs.wrappers.SeatEnv`'s unless ``normalize`` is
  false) and ``action_mask`` (``float32``, 1 for a legal action);
* turn-based play: ``reset`` and ``step`` return the observation of the one agent to act (the same agent again
  for the next sub-step of a composite move), with every agent's reward of that step, so a terminal reward paid on
  another seat's move reaches every player; when the game ends (or is truncated at its step cap) every agent gets
  its last observation, with an all-zero mask;
* ``get_action_space(agent).sample()`` draws a *legal* action of that agent while it is to act (uniformly from
  its mask; the whole space otherwise), so RLlib's env pre-check passes with the env's default
  ``illegal_action="raise"``, which still refuses any illegal action a learner sends.

``config`` holds ``game`` (an env id), optionally ``normalize`` (default true) and ``reward_scale`` (a factor on
every reward, e.g. for games paid in raw points; default 1), and the game's and
:class:`~cardenvs.core.aec.CardGameEnv`'s options (``num_players``, ``max_steps``, ``illegal_action`` …).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.rllib.utils.typing import MultiAgentDict

from cardenvs.core.aec import CardGameEnv
from cardenvs.core.errors import InvalidOptionError
from cardenvs.wrappers.seat_env import observation_scale

ObservationDict = dict[str, np.ndarray]
StepResult = tuple[MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict]


class LegalActions(spaces.Discrete):
    """``Discrete(n)`` whose ``sample()`` (no mask given) draws one of its agent's legal actions while the agent is
    to act. It copies and pickles as a plain ``Discrete`` (the env it reads is never carried along)."""

    def __init__(self, n: int, env: CardGameEnv, agent: str):
        super().__init__(n)
        self._env, self._agent = env, agent

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        if mask is None and probability is None:
            legal = self._legal_mask()
            if legal is not None:
                return super().sample(mask=legal)
        return super().sample(mask=mask, probability=probability)

    def _legal_mask(self) -> np.ndarray | None:
        env = self._env
        if env.game is None or not env.agents or env.agent_selection != self._agent:
            return None
        mask = env.observe(self._agent)["action_mask"]
        return mask if mask.any() else None

    def __reduce__(self) -> tuple[Any, ...]:
        return spaces.Discrete, (int(self.n), None, int(self.start))


class RLlibEnv(MultiAgentEnv):
    """A cardenvs game as an RLlib multi-agent env (see the module docstring)."""

    def __init__(self, config: Mapping[str, Any] | None = None, *, env: CardGameEnv | None = None):
        super().__init__()
        options = dict(config or {})
        normalize = options.pop("normalize", True)
        if not isinstance(normalize, bool):
            raise InvalidOptionError(f"normalize must be true or false, got {normalize!r}")
        reward_scale = options.pop("reward_scale", 1.0)
        if isinstance(reward_scale, bool) or not isinstance(reward_scale, (int, float)) or not reward_scale > 0:
            raise InvalidOptionError(f"reward_scale must be a positive number, got {reward_scale!r}")
        self.reward_scale = float(reward_scale)
        if env is None:
            if "game" not in options:
                from cardenvs.registry import ENV_IDS

                raise InvalidOptionError(f"RLlibEnv's config needs 'game', one of {', '.join(ENV_IDS)}")
            from cardenvs.registry import make_raw

            env = make_raw(options.pop("game"), **options)
        elif options:
            raise InvalidOptionError(f"give either env= or a config of options, not both (got {sorted(options)})")
        self.env: CardGameEnv = env.unwrapped
        layout, size = self.env.layout, self.env.action_table.size
        self.scale = observation_scale(layout) if normalize else np.ones(layout.size, dtype=np.float32)
        low, high = (layout.low * self.scale).astype(np.float32), (layout.high * self.scale).astype(np.float32)
        observation_space = spaces.Dict(
            {
                "observations": spaces.Box(low, high, (layout.size,), np.float32),
                "action_mask": spaces.Box(0.0, 1.0, (size,), np.float32),
            }
        )
        self.names: list[str] = list(self.env.possible_agents)
        self.possible_agents = list(self.names)
        self.agents = list(self.names)
        self.observation_spaces = dict.fromkeys(self.names, observation_space)
        self.action_spaces = {a: LegalActions(size, self.env, a) for a in self.names}
        self.metadata = {"render_modes": self.env.metadata["render_modes"]}
        self.render_mode = self.env.render_mode

    def reset(  # type: ignore[override]  # gymnasium's is one-agent
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[MultiAgentDict, MultiAgentDict]:
        self.env.reset(seed=seed, options=options)
        self.agents = list(self.names)
        agent = self.env.agent_selection
        return {agent: self._observe(agent)}, {agent: {}}

    def step(self, action_dict: MultiAgentDict) -> StepResult:  # type: ignore[override]  # gymnasium's is one-agent
        env = self.env
        agent = env.agent_selection
        if not self.agents:
            raise RuntimeError("the episode is over; call reset()")
        if set(action_dict) != {agent}:
            given = sorted(map(str, action_dict))
            raise InvalidOptionError(
                f"{env.definition.env_id}: {agent} is the one agent to act, got actions for {given}"
            )
        env.step(action_dict[agent])
        rewards: MultiAgentDict = {a: float(env.rewards[a]) * self.reward_scale for a in self.names}
        terminated = all(env.terminations.values())
        truncated = all(env.truncations.values()) and not terminated
        observations: MultiAgentDict
        infos: MultiAgentDict
        if terminated or truncated:
            self.agents = []
            observations = {a: self._observe(a) for a in self.names}
            infos = {a: dict(env.infos[a]) for a in self.names}
        else:
            following = env.agent_selection
            observations, infos = {following: self._observe(following)}, {following: {}}
        return observations, rewards, {"__all__": terminated}, {"__all__": truncated}, infos

    def render(self) -> str | None:  # type: ignore[override]  # the text of render_mode='ansi'
        return self.env.render()

    def close(self) -> None:
        self.env.close()

    def _observe(self, agent: str) -> ObservationDict:
        raw = self.env.observe(agent)
        return {
            "observations": raw["observation"] * self.scale,
            "action_mask": raw["action_mask"].astype(np.float32),
        }
