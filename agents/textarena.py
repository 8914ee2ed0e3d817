"""TextArena (``pip install cardenvs[textarena]``, textarena 0.7.4): importing this module registers every game
in TextArena's registry as ``cardenvs-<game>-v<N>`` (``textarena.make("cardenvs-yukushi-v0")``), so TextArena's
agents and wrappers play our games.

Each player is first sent the rules (:func:`cardenvs.text.seat_prompt`'s summary), then at every decision its
seat's prompt: what happened since its last move, its position and its numbered legal moves. An action is a
reply as :func:`cardenvs.text.parse_reply` reads it (a number or a move written out; TextArena's brackets are
fine). TextArena's conventions: a player whose reply is not a legal move is told why and may answer again once
(``error_allowance``); a second one ends the game with that player at -1 and everyone else at 0. A finished game
gives each player ``1 - 2 (place - 1) / (n - 1)``, +1 for the best place and -1 for the last (ties share the
mean), as TextArena's multi-player games rank players. Options of the game are keyword arguments of
``textarena.make``; ``reset(num_players, seed)`` must name the game's player count.
"""

from __future__ import annotations

from typing import Any

import textarena as ta
from textarena.envs import DEFAULT_WRAPPERS
from textarena.envs.registration import ENV_REGISTRY, register

import cardenvs
from cardenvs.agents.tournament.hooks import hooks_for, places_by_returns
from cardenvs.core.events import seen_by
from cardenvs.text import parse_reply, seat_prompt


class CardenvsTextArenaEnv(ta.Env):
    """One cardenvs game behind TextArena's ``reset / get_observation / step / close`` API."""

    def __init__(self, env_id: str, error_allowance: int = 1, **options: Any):
        self.env_id = env_id
        self.options = options
        self.error_allowance = error_allowance
        self.env = cardenvs.make(env_id, raw=True, **options)

    def reset(self, num_players: int, seed: int | None = None) -> None:
        seats = len(self.env.possible_agents)
        if num_players != seats:
            raise ValueError(
                f"{self.env_id} with options {self.options} seats {seats} players, not {num_players}; "
                "pass num_players=... to textarena.make for another count (where the game allows it)"
            )
        self.env.reset(seed=seed)
        self.returns = [0.0] * num_players
        self.state = ta.State(num_players=num_players, seed=seed)
        self.state.standard_resets(role_mapping={p: f"Player {p}" for p in range(num_players)})
        self.errors = 0
        self._ask()

    def _ask(self) -> None:
        """Send the player to act its prompt (the rules too, before its first decision)."""
        game = self.env.game
        assert game is not None
        seat = game.current_player
        self.prompt = seat_prompt(self.env.definition.env_id, game, seat, [seen_by(e, seat) for e in game.events])
        if self.state.game_info[seat]["turn_count"] == 0:
            self.state.add_observation(self.prompt.rules, ta.ObservationType.PROMPT, to_id=seat)
        self.state.add_observation(self.prompt.situation, ta.ObservationType.GAME_BOARD, to_id=seat)
        self.state.current_player_id = seat

    def step(self, action: str) -> tuple[bool, dict[str, Any]]:
        seat = self.state.current_player_id
        self.state.add_observation(action, ta.ObservationType.PLAYER_ACTION, from_id=seat, to_id=seat)
        parsed = parse_reply(action, self.prompt.moves, self.prompt.listed)
        if parsed.move is None:
            return self._invalid(seat, parsed.reason)
        self.errors = 0
        self.state.game_info[seat]["turn_count"] += 1
        for a in parsed.move.actions:
            self._play(a)
        while self.env.agents and (
            self.env.terminations[self.env.agent_selection] or self.env.truncations[self.env.agent_selection]
        ):
            self._play(None)  # seats already out of the game
        if not self.env.agents or self.env.game is None or self.env.game.is_terminal:
            self._finish()
        else:
            self._ask()
        return self.state.step()

    def _play(self, action: int | None) -> None:
        self.env.step(action)
        for agent, reward in self.env.rewards.items():
            self.returns[self.env.player_index(agent)] += float(reward)

    def _invalid(self, seat: int, reason: str) -> tuple[bool, dict[str, Any]]:
        self.state.game_info[seat]["invalid_move"] = True
        if self.errors < self.error_allowance:
            self.errors += 1
            message = f"That is not a legal move ({reason}). Answer with one legal move."
            self.state.add_observation(message, ta.ObservationType.GAME_ADMIN, to_id=seat)
            return self.state.step()
        self.state.rewards = {p: (-1.0 if p == seat else 0.0) for p in range(self.state.num_players)}
        self.state.game_info[seat]["reason"] = f"invalid move: {reason}"
        self.state.done = True
        return self.state.step()

    def _finish(self) -> None:
        events, returns = self.env.events.events, self.returns
        places = hooks_for(self.env_id).places(events, returns, self.env.options) or places_by_returns(returns)
        n = len(places)
        self.state.rewards = {p: 1.0 - 2.0 * (place - 1.0) / max(n - 1, 1) for p, place in enumerate(places)}
        self.state.done = True


def textarena_id(env_id: str) -> str:
    """``cardenvs/yukushi-v0`` → ``cardenvs-yukushi-v0``."""
    return env_id.replace("/", "-")


def register_all() -> list[str]:
    """Register every cardenvs id with TextArena (again-safe); returns the TextArena ids."""
    ids = []
    for env_id in cardenvs.ENV_IDS:
        name = textarena_id(env_id)
        if name not in ENV_REGISTRY:
            register(name, CardenvsTextArenaEnv, default_wrappers=list(DEFAULT_WRAPPERS), env_id=env_id)
        ids.append(name)
    return ids


TEXTARENA_IDS = register_all()
