"""A scripted game for credit-assignment tests: who decides when, and who is paid what, is fixed in advance.

A deal is a :class:`Script`: the players who decide, in order (a player listed twice in a row is making a
composite move in sub-steps), the rewards paid at the end, and optionally rewards paid after some decision
(a match paying per game). Every decision has two legal actions with no effect on the outcome, so the credit
each seat must get is known whatever is played.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Self

import numpy as np

from cardenvs.core.aec import CardGameEnv
from cardenvs.core.engine import TERMINAL, GameDefinition, RulesEngine
from cardenvs.core.events import EventLog
from cardenvs.core.layout import ActionTable, ObservationLayout


@dataclass(frozen=True)
class Script:
    deciders: tuple[int, ...]
    final: tuple[float, ...]
    paid_after: dict[int, tuple[float, ...]] = field(default_factory=dict)
    """Decision index → rewards paid right after it (besides the final ones)."""


@dataclass(frozen=True)
class ScriptOptions:
    num_players: int = 3


class ScriptedGame(RulesEngine[ScriptOptions]):
    def __init__(self, options: ScriptOptions, script: Script):
        self.options, self.num_players, self.script = options, options.num_players, script
        self.layout = ObservationLayout(
            [("step", 1, 100.0, "decisions so far"), ("me", options.num_players, 1.0, "one-hot of my seat")]
        )
        self.actions = ActionTable([("move", ("a", "b"), "two moves with the same effect")])
        self.events = EventLog()
        self.step_index = 0
        self.moves: list[tuple[int, int]] = []
        self.pending: np.ndarray | None = None
        self.current_player = script.deciders[0] if script.deciders else TERMINAL

    def _legal_mask(self) -> np.ndarray:
        return np.ones(2, dtype=np.int8)

    def _why_illegal(self, action: int) -> str:
        return "both actions are always legal in a scripted game"

    def _apply(self, action: int) -> None:
        self.moves.append((self.current_player, action))
        paid = self.script.paid_after.get(self.step_index)
        self.step_index += 1
        if self.step_index == len(self.script.deciders):
            self.current_player = TERMINAL
            final = np.asarray(self.script.final, dtype=float)
            paid = final if paid is None else np.asarray(paid) + final
        else:
            self.current_player = self.script.deciders[self.step_index]
        if paid is not None:
            self.pending = np.asarray(paid, dtype=float)

    def legal_moves(self) -> list[Hashable]:
        return [0, 1]

    def move_actions(self, move: Hashable) -> list[int]:
        return [int(move)]  # type: ignore[call-overload]

    def observation(self, player: int) -> np.ndarray:
        obs = self.layout.empty()
        obs[0] = self.step_index
        obs[1 + player] = 1.0
        return obs

    def take_rewards(self) -> np.ndarray | None:
        out, self.pending = self.pending, None
        return out

    def privileged_state(self) -> dict[str, Any]:
        return {"step": self.step_index}

    def _resample_hidden(self, observer: int, rng: np.random.Generator) -> Self:
        return self.clone()

    def card_multiset(self) -> list[int]:
        return []

    def render_text(self) -> str:
        return f"step {self.step_index}"


def scripted_env(scripts: Sequence[Script], num_players: int = 3, **env_options: Any) -> CardGameEnv:
    """An AEC env whose deals are ``scripts`` in turn (the last one repeats)."""
    deals: Iterator[Script] = iter([scripts[0], *scripts])  # the adapter deals once to probe the spaces

    def new_game(options: ScriptOptions, rng: np.random.Generator) -> ScriptedGame:
        return ScriptedGame(options, next(deals, scripts[-1]))

    definition = GameDefinition("scripted", 0, ScriptOptions, new_game, lambda o: 1000, lambda o: o.num_players)
    return CardGameEnv(definition, num_players=num_players, **env_options)
