"""The one PettingZoo AEC adapter shared by every game.

:class:`CardGameEnv` wraps any :class:`~cardenvs.core.engine.RulesEngine` and does all the PettingZoo
bookkeeping: agent names ``player_0…``, spaces, rewards and their accumulation, terminations, truncation at
a step cap, the illegal-action policy, action type checks, the event log and rendering.
Game modules only supply a :class:`~cardenvs.core.engine.GameDefinition`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Literal

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from cardenvs.core.engine import GameDefinition, RulesEngine
from cardenvs.core.errors import (
    ActionTypeError,
    CardTextError,
    GameOverError,
    IllegalActionError,
    InvalidOptionError,
    UnknownAgentError,
)
from cardenvs.core.events import EventLog
from cardenvs.core.layout import ActionTable, ObservationLayout
from cardenvs.core.options import build_options
from cardenvs.core.order import FastOrderEnforcingWrapper
from cardenvs.core.position import PositionError, PositionFields, check_header, header_lines, join_lines, rewards_due
from cardenvs.core.seating import agent_name
from cardenvs.core.views import integer_action

IllegalActionPolicy = Literal["raise", "penalize"]
RENDER_MODES = ("human", "ansi", "svg")
MAX_REDEALS = 100


class CardGameEnv(AECEnv[str, dict[str, np.ndarray], int]):
    """PettingZoo AEC environment over one rules engine.

    Args:
        definition: the game.
        render_mode: ``None``, ``"human"`` (``render()`` prints the table as text, PettingZoo's convention),
            ``"ansi"`` (``render()`` returns that text) or ``"svg"`` (``render()`` returns an SVG picture of the
            table, every hand shown; notebooks show an env as that picture).
        max_steps: decisions after which the episode is truncated (a draw); ``None`` takes the game's default.
        illegal_action: ``"raise"`` (default) raises :class:`IllegalActionError` naming the reason;
            ``"penalize"`` follows the PettingZoo convention: the offender gets ``illegal_penalty``, the
            others 0, and the episode ends.
        illegal_penalty: reward of the offender under ``illegal_action="penalize"``.
        **options: the game's own options (see its docs page); unknown names raise.
    """

    # PettingZoo reads metadata from the instance; each env adds its own "name" (hence not a ClassVar).
    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "is_parallelizable": False, "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        definition: GameDefinition[Any],
        *,
        render_mode: str | None = None,
        max_steps: int | None = None,
        illegal_action: IllegalActionPolicy = "raise",
        illegal_penalty: float = -1.0,
        **options: Any,
    ):
        super().__init__()
        env_id = definition.env_id
        if render_mode is not None and render_mode not in RENDER_MODES:
            valid = ", ".join(repr(mode) for mode in RENDER_MODES)
            raise InvalidOptionError(f"render_mode must be None or one of {valid} for {env_id}, got {render_mode!r}")
        if illegal_action not in ("raise", "penalize"):
            raise InvalidOptionError(
                f"illegal_action must be 'raise' or 'penalize' for {env_id}, got {illegal_action!r}"
            )
        if max_steps is not None and (type(max_steps) is not int or max_steps < 1):
            raise InvalidOptionError(f"max_steps must be a positive int or None for {env_id}, got {max_steps!r}")
        if (
            isinstance(illegal_penalty, bool)
            or not isinstance(illegal_penalty, (int, float))
            or not np.isfinite(illegal_penalty)
        ):
            raise InvalidOptionError(
                f"illegal_penalty must be a finite number (int or float) for {env_id}, got {illegal_penalty!r}"
            )
        self.definition = definition
        self.options = build_options(definition.options_type, options, game=env_id)
        self.render_mode = render_mode
        self.max_steps = max_steps if max_steps is not None else definition.default_max_steps(self.options)
        self.illegal_action = illegal_action
        self.illegal_penalty = float(illegal_penalty)
        self.metadata = {**CardGameEnv.metadata, "name": f"{definition.name}_v{definition.version}"}

        n = definition.num_players(self.options)
        self.possible_agents = [agent_name(i) for i in range(n)]
        self._player_of = {a: i for i, a in enumerate(self.possible_agents)}
        probe = definition.new_game(self.options, np.random.default_rng(0))
        self.layout: ObservationLayout = probe.layout
        self.action_table: ActionTable = probe.actions
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(self.layout.low, self.layout.high, (self.layout.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.action_table.size,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces: dict[str, gymnasium.spaces.Space[Any]] = {
            a: spaces.Discrete(self.action_table.size) for a in self.possible_agents
        }
        self._no_mask = np.zeros(self.action_table.size, dtype=np.int8)
        self._rng: np.random.Generator | None = None
        self.game: RulesEngine[Any] | None = None
        self.agents: list[str] = []
        self.num_steps = 0
        self._rewards_dirty = False

    # ------------------------------------------------------------------ PettingZoo API
    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[self.possible_agents[self.player_index(agent)]]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[self.possible_agents[self.player_index(agent)]]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game. ``seed`` makes the whole episode reproducible. ``options={"position": text}`` starts
        from a position (see :meth:`position` and the game's docs page) instead of a deal, its ``?`` cards dealt
        from the seed; game options are fixed at construction and other reset options are ignored."""
        position = self._position_option(options)
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0):
            raise InvalidOptionError(
                f"{self.definition.env_id}: reset(seed=...) takes None or a non-negative int, got {seed!r}"
            )
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
        if position is not None:
            game, due = self._read_position(position, self._rng)
            self._start(game)
            self._cumulative_rewards = dict(zip(self.possible_agents, due, strict=True))
            return
        game = self.definition.new_game(self.options, self._rng)
        for _ in range(MAX_REDEALS):  # a deal that decides the game before any decision is dealt again
            if not game.is_terminal:
                break
            game = self.definition.new_game(self.options, self._rng)
        else:
            raise RuntimeError(f"{self.definition.env_id}: {MAX_REDEALS} deals in a row ended before any decision")
        self._start(game)

    def _start(self, game: RulesEngine[Any]) -> None:
        self.game = game
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.num_steps = 0
        self._rewards_dirty = False
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[game.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self._require_game()
        player = self._player_of.get(agent)
        if player is None:
            player = self.player_index(agent)  # raises, naming the agents
        if player == game.current_player and not (self.terminations[agent] or self.truncations[agent]):
            mask = game.legal_mask().copy()
        else:
            mask = self._no_mask.copy()
        return {"observation": game.observation(player), "action_mask": mask}

    def step(self, action: Any) -> None:
        game = self._require_game()
        if not self.agents:
            raise GameOverError(
                f"{self.definition.env_id}: the episode is over and every agent has been stepped out; call reset()"
            )
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ActionTypeError(
                    f"{agent} has finished (terminated or truncated); the only valid action is None, got {action!r}"
                )
            self._was_dead_step(None)
            return
        action_id = self._action_id(action)
        try:
            # a refused action must leave everything as it was, the rewards of the last step included
            game.apply(action_id)
        except IllegalActionError as error:
            if self.illegal_action == "raise":
                raise
            self._start_step_rewards(agent)
            self._end_with_penalty(agent, str(error))
            return
        self._start_step_rewards(agent)
        self.num_steps += 1
        earned = game.take_rewards()
        if earned is not None:
            for a, r in zip(self.possible_agents, earned, strict=False):
                self.rewards[a] = float(r)
            self._rewards_dirty = True
        if game.is_terminal:
            self.terminations = dict.fromkeys(self.agents, True)
            self._deads_step_first()
        elif self.num_steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
            for a in self.agents:
                self.infos[a]["truncated_at_step"] = self.num_steps
            self._deads_step_first()
        else:
            self.agent_selection = self.possible_agents[game.current_player]
        if self._rewards_dirty:
            self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without render_mode; create the env with render_mode='human'")
            return None
        if self.render_mode == "svg":
            return self._svg()
        text = self._require_game().render_text()
        if self.render_mode == "human":
            print(text, flush=True)
            return None
        return text

    def _svg(self) -> str:
        from cardenvs.render.svg import table_svg  # a layer above the adapter, loaded only to draw
        from cardenvs.render.view import seat_view

        return table_svg(seat_view(self._require_game(), None))

    def _repr_svg_(self) -> str | None:
        """Jupyter shows a dealt env as a picture of its table (every hand shown)."""
        return self._svg() if self.game is not None else None

    def state(self) -> np.ndarray:
        """PRIVILEGED global state for centralised critics: every player's observation, in seat order."""
        game = self._require_game()
        return np.concatenate([game.observation(p) for p in range(len(self.possible_agents))])

    def close(self) -> None:
        """Nothing to release (no window, no subprocess)."""

    # ------------------------------------------------------------------ positions
    def position(self, seat: int | str | None = None) -> str:
        """The current state as position text (see the game's docs page): everything (``seat=None``), or what
        ``seat`` (an index or agent name) knows, the rest written ``?``. ``reset(options={"position": text})``
        starts from it."""
        game = self._require_game()
        write = self.definition.write_position
        if write is None:
            raise NotImplementedError(f"{self.definition.env_id} has no position notation yet")
        if seat is not None and not isinstance(seat, (int, np.integer)):
            seat = self.player_index(seat)
        if seat is not None and not 0 <= seat < len(self.possible_agents):
            raise UnknownAgentError(
                f"{self.definition.env_id}: seat must be None, 0..{len(self.possible_agents) - 1} or an agent name,"
                f" got {seat!r}"
            )
        lines = header_lines(self.definition.env_id, self.options) + write(game, None if seat is None else int(seat))
        due = [self._cumulative_rewards.get(agent, 0.0) for agent in self.possible_agents]
        return join_lines(lines + rewards_due(due))

    def _position_option(self, options: dict[str, Any] | None) -> str | None:
        if options is None:
            return None
        if not isinstance(options, dict):
            raise InvalidOptionError(
                f"{self.definition.env_id}: reset(options=...) takes None or a dict such as {{'position': text}}, "
                f"got {options!r}"
            )
        # other keys are ignored, as PettingZoo's api_test expects (it resets with options={"options": 1})
        position = options.get("position")
        if position is not None and not isinstance(position, str):
            raise InvalidOptionError(f"{self.definition.env_id}: the position must be text, got {position!r}")
        return position

    def _read_position(self, text: str, rng: np.random.Generator) -> tuple[RulesEngine[Any], list[float]]:
        """The engine a position describes and the rewards due to each seat (its ``rewards due`` line)."""
        env_id = self.definition.env_id
        read = self.definition.read_position
        if read is None:
            raise NotImplementedError(f"{env_id} has no position notation yet")
        fields = PositionFields(text, env_id)
        check_header(fields, env_id, self.options)
        fields.refuse_a_finished_game()
        try:
            game = read(self.options, fields, rng)
        except (PositionError, CardTextError) as error:  # card text a reader passed on unchecked is the position's
            raise PositionError(f"{env_id}: {error}".replace(f"{env_id}: {env_id}: ", f"{env_id}: ")) from None
        due = fields.rewards_due(len(self.possible_agents))
        fields.finish()
        return game, due

    # ------------------------------------------------------------------ cardenvs extras
    @property
    def events(self) -> EventLog:
        """The episode's structured event log (all parts; filter with ``visible_to(seat)``)."""
        return self._require_game().events

    def privileged_state(self) -> dict[str, Any]:
        """PRIVILEGED full state (all hands) as JSON-serialisable data, for debugging and analysis."""
        return self._require_game().privileged_state()

    def action_name(self, action: int) -> str:
        """Readable name of an action id."""
        return self.action_table.name(action)

    def legal_moves(self) -> list[Hashable]:
        """Complete moves available to the agent to act, from the current decision point."""
        return self._require_game().legal_moves()

    def move_actions(self, move: Hashable) -> list[int]:
        """The action ids that make ``move`` from the current decision point."""
        return self._require_game().move_actions(move)

    def player_index(self, agent: str) -> int:
        """Player index of an agent name."""
        try:
            return self._player_of[agent]
        except (KeyError, TypeError):
            raise UnknownAgentError(
                f"{self.definition.env_id}: no agent {agent!r}; agents are {', '.join(self.possible_agents)}"
            ) from None

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last()`` (written out: it runs at every step), with a clear error before the first
        ``reset()``."""
        self._require_game()
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    # ------------------------------------------------------------------ internals
    def _require_game(self) -> RulesEngine[Any]:
        if self.game is None:
            raise GameOverError(f"{self.definition.env_id}: call reset() before using the environment")
        return self.game

    def _action_id(self, action: Any) -> int:
        value = integer_action(action)
        if value is not None:
            return value
        raise ActionTypeError(
            f"{self.definition.env_id}: an action must be an integer id in 0..{self.action_table.size - 1} "
            f"(int or NumPy integer), got {action!r} of type {type(action).__name__}"
        )

    def _start_step_rewards(self, agent: str) -> None:
        """Clear the rewards of the previous step once this step is known to happen (PettingZoo convention)."""
        if self._rewards_dirty:
            self._clear_rewards()
            self._rewards_dirty = False
        self._cumulative_rewards[agent] = 0.0

    def _end_with_penalty(self, agent: str, reason: str) -> None:
        for a in self.agents:
            self.rewards[a] = self.illegal_penalty if a == agent else 0.0
        self._rewards_dirty = True
        self.infos[agent]["illegal_action"] = reason
        self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self._deads_step_first()


def env_constructors(
    definition: GameDefinition[Any],
) -> tuple[Callable[..., CardGameEnv], Callable[..., FastOrderEnforcingWrapper]]:
    """A game module's ``raw_env`` (no wrappers) and ``env`` (behind PettingZoo's order-enforcing wrapper, in its
    direct form :class:`~cardenvs.core.order.FastOrderEnforcingWrapper`: what the registry makes); see
    :class:`CardGameEnv` for the options every game shares."""

    def raw_env(**options: Any) -> CardGameEnv:
        return CardGameEnv(definition, **options)

    def env(**options: Any) -> FastOrderEnforcingWrapper:
        return FastOrderEnforcingWrapper(raw_env(**options))

    raw_env.__doc__ = f"``{definition.env_id}`` without wrappers."
    env.__doc__ = f"``{definition.env_id}`` behind PettingZoo's order-enforcing wrapper."
    return raw_env, env
