"""The rules of high card (pure engine, seat-indexed)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardenvs.core.engine import TERMINAL, RulesEngine
from cardenvs.core.events import EventLog
from cardenvs.core.layout import ActionTable

CARDS = ("J", "Q", "K", "A")
ACTIONS = ActionTable([("fold", [""], "give up"), ("show", [""], "turn the card over")])


@dataclass(frozen=True)
class HighCardOptions:
    """Options of ``high_card-v0``."""

    num_players: int = 2


class HighCardGame(RulesEngine[HighCardOptions]):
    """Two players, one card each; seat 0 then seat 1 shows or folds."""

    def __init__(self, options: HighCardOptions, rng: np.random.Generator):
        self.options, self.num_players, self.rng = options, 2, rng
        self.cards = [int(c) for c in rng.permutation(len(CARDS))[:2]]
        self.shown: list[bool | None] = [None, None]
        self.current_player, self.events, self.actions = 0, EventLog(), ACTIONS
        self.layout = self._observer().layout(self)
        self.events.add("deal", None, private={p: {"card": CARDS[c]} for p, c in enumerate(self.cards)})

    def _legal_mask(self) -> np.ndarray:
        return np.ones(2, np.int8) if self.current_player != TERMINAL else np.zeros(2, np.int8)

    def _why_illegal(self, action: int) -> str:
        return "the game is over"

    def _apply(self, action: int) -> None:
        seat, show = self.current_player, action == ACTIONS["show"][0]
        self.shown[seat] = show
        self.events.add("show" if show else "fold", seat, public={"card": CARDS[self.cards[seat]]} if show else {})
        self.current_player = seat + 1 if seat == 0 else TERMINAL
        if self.current_player == TERMINAL:
            points = [(2 + self.cards[p]) * bool(self.shown[p]) for p in range(2)]
            winner = -1 if points[0] == points[1] else int(np.argmax(points))
            self._rewards = np.array([0.0, 0.0] if winner < 0 else [1.0 - 2 * winner, 2 * winner - 1.0])

    def legal_moves(self) -> list[Hashable]:
        return list(self.legal_actions())

    def move_actions(self, move: Hashable) -> list[int]:
        return [int(move)]  # type: ignore[call-overload]

    def privileged_state(self) -> dict[str, Any]:
        return {"hands": [CARDS[c] for c in self.cards], "shown": list(self.shown)}

    def card_multiset(self) -> list[int]:
        return sorted(self.cards)
