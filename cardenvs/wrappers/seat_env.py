"""A single-agent gymnasium view of any cardenvs AEC env: the learner takes one seat, opponents the others.

:class:`SeatEnv` is the adapter for single-agent learners such as sb3-contrib's ``MaskablePPO``:

* the learner sits at a fixed seat or at a random one per episode; every other seat is played inside the env
  by opponents chosen per deal by an :class:`~cardenvs.wrappers.opponents.OpponentSampler`;
* ``step`` returns the learner's **own** reward summed over everything that happened until its next decision,
  so a terminal reward paid on another seat's move (the game ends when an opponent goes out or calls a
  challenge) reaches the learner on its last transition; rewards paid mid-episode (per deal of a match) too;
* each sub-step of a composite move is one learner step with its own exact mask (``action_masks()``), and
  opponents' sub-steps are played through;
* a deal that ends before the learner's first decision is dealt again (it would be a transition with no
  action behind it);
* an illegal action raises, as the env does by default. Checkers that step unmasked samples (gymnasium's and
  SB3's ``check_env``) need the env made with ``illegal_action="penalize"``: the offending step then ends the
  episode with ``illegal_penalty`` and says why in ``info["illegal_action"]`` (``docs/interop.md``).

The observation is the env's flat ``observation`` vector (its layout is the game's
:class:`~cardenvs.core.layout.ObservationLayout`), scaled into [−1, 1] per feature by default.

It steps the Python engine, never the JAX fast path: one game stepped alone through a jitted step costs about 8×
more per decision than the AEC env (Yukushi, 8 players: 1,600 against 12,400 decisions per CPU second), and the
opponents' public views need the engine's event log (docs/fast.md, "Backends").
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from cardenvs.core.aec import CardGameEnv
from cardenvs.core.errors import InvalidOptionError
from cardenvs.core.layout import ObservationLayout
from cardenvs.core.views import PublicView, policy_action, wants_public_view
from cardenvs.wrappers.opponents import FixedOpponents, Opponent, OpponentSampler

MAX_REDEALS = 1000


def observation_scale(layout: ObservationLayout) -> np.ndarray:
    """Per-feature factors that map the layout's bounds into [−1, 1] (1 where a feature is always 0)."""
    bound = np.maximum(np.abs(layout.low), np.abs(layout.high)).astype(np.float32)
    return np.where(bound > 0, 1.0 / np.where(bound > 0, bound, 1.0), 1.0).astype(np.float32)


class SeatEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One learner seat of a cardenvs AEC env (see the module docstring).

    Args:
        env: a :class:`CardGameEnv` (``cardenvs.registry.make_raw(id, **options)``; wrapped envs are unwrapped).
        opponents: chooses the other seats' players each deal (default: uniformly random legal play).
        seat: the learner's player index, or ``None`` for a random seat each episode.
        normalize: scale observations into [−1, 1] with :func:`observation_scale`.
        reward_scale: factor applied to the learner's rewards (e.g. for games paid in raw points).
    """

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        env: Any,
        opponents: OpponentSampler | None = None,
        *,
        seat: int | None = None,
        normalize: bool = True,
        reward_scale: float = 1.0,
    ):
        raw = env.unwrapped
        if not isinstance(raw, CardGameEnv):
            raise InvalidOptionError(f"SeatEnv wraps a cardenvs CardGameEnv, got {type(raw).__name__}")
        n = len(raw.possible_agents)
        if seat is not None and not (type(seat) is int and 0 <= seat < n):
            raise InvalidOptionError(f"seat must be None (random) or an int in 0..{n - 1}, got {seat!r}")
        self.env = raw
        self.opponents: OpponentSampler = opponents if opponents is not None else FixedOpponents()
        self.fixed_seat = seat
        self.reward_scale = float(reward_scale)
        self.scale = observation_scale(raw.layout) if normalize else np.ones(raw.layout.size, dtype=np.float32)
        low = raw.layout.low * self.scale
        high = raw.layout.high * self.scale
        self.observation_space = spaces.Box(low, high, (raw.layout.size,), np.float32)
        self.action_space = spaces.Discrete(raw.action_table.size)
        self.seat = 0
        self.agent = raw.possible_agents[0]
        self.seated: dict[str, Opponent] = {}
        self.views: dict[str, PublicView] = {}
        """The public views of the opponents that want one (``wants_public_view``)."""
        self._mask = np.zeros(raw.action_table.size, dtype=bool)
        self._seeded = False
        self.redeals = 0
        """Deals thrown away so far because they ended before the learner's first decision."""

    # ------------------------------------------------------------------ gymnasium API
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        for _ in range(MAX_REDEALS):
            env_seed = int(self.np_random.integers(2**31)) if seed is not None or not self._seeded else None
            self._seeded = True
            self._deal(env_seed)
            self._play_opponents()
            if not self._finished():
                return self._observe(), {"seat": self.seat}
            self.redeals += 1
            seed = None
        raise RuntimeError(f"{self.env.definition.env_id}: {MAX_REDEALS} deals in a row ended before the learner acted")

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        if self._finished():
            raise RuntimeError("the episode is over; call reset()")
        reward = self._step_env(int(action))
        reward += self._play_opponents()
        terminated = self.env.terminations[self.agent]
        truncated = self.env.truncations[self.agent] and not terminated
        info: dict[str, Any] = {"seat": self.seat}
        if "illegal_action" in self.env.infos[self.agent]:  # only under the env's illegal_action="penalize"
            info["illegal_action"] = self.env.infos[self.agent]["illegal_action"]
        return self._observe(), reward * self.reward_scale, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now (``bool``), as MaskablePPO asks for them."""
        return self._mask

    # ------------------------------------------------------------------ internals
    def _deal(self, env_seed: int | None) -> None:
        env = self.env
        env.reset(seed=env_seed)
        n = len(env.possible_agents)
        self.seat = self.fixed_seat if self.fixed_seat is not None else int(self.np_random.integers(n))
        self.agent = env.possible_agents[self.seat]
        others = [s for s in range(n) if s != self.seat]
        chosen = self.opponents.sample(others, self.np_random)
        self.seated = {env.possible_agents[s]: p for s, p in chosen.items()}
        wanting = [agent for agent, policy in self.seated.items() if wants_public_view(policy)]
        self.views = {agent: PublicView(env.events, env.player_index(agent)) for agent in wanting}
        for policy in self.seated.values():
            reset = getattr(policy, "reset", None)
            if reset is not None:
                reset(int(self.np_random.integers(2**31)))

    def _finished(self) -> bool:
        return bool(self.env.terminations[self.agent] or self.env.truncations[self.agent])

    def _step_env(self, action: int) -> float:
        """One decision of whoever is to act; returns what it earned the learner."""
        self.env.step(action)
        return float(self.env.rewards[self.agent])

    def _play_opponents(self) -> float:
        """Opponents move until the learner is to decide or the episode ends; the learner's reward meanwhile."""
        env = self.env
        earned = 0.0
        while not self._finished() and env.agent_selection != self.agent:
            agent = env.agent_selection
            action = policy_action(self.seated[agent], env.observe(agent), self.views.get(agent))
            earned += self._step_env(action)
        return earned

    def _observe(self) -> np.ndarray:
        game = self.env.game
        assert game is not None
        if self._finished():
            self._mask = np.zeros(self.env.action_table.size, dtype=bool)
        else:
            self._mask = game.legal_mask().astype(bool)
        return game.observation(self.seat) * self.scale
