"""How high card is seen: observation, text picture, event sentences, the public table, the rules summary."""

from __future__ import annotations

import numpy as np

from cardenvs.core.layout import ObservationLayout
from cardenvs.core.render import Words
from cardenvs.render.tables import Table
from tests.adding_a_game.high_card.rules import CARDS, HighCardGame

LAYOUT = ObservationLayout([("my_card", 4, 1.0, "my card, one-hot"), ("shown", 4, 1.0, "a card shown")])
RULES = "You play high card: show your card or fold; the higher card shown wins."
WORDS: dict[str, Words] = {
    "show": lambda who, pub: f"{who} shows {pub['card']}",
    "fold": lambda who, pub: f"{who} folds",
}


def layout_of(game: HighCardGame) -> ObservationLayout:
    return LAYOUT


def encode(game: HighCardGame, seat: int, out: np.ndarray | None) -> np.ndarray:
    obs = np.zeros(LAYOUT.size, np.float32) if out is None else out
    obs[:] = 0.0
    obs[game.cards[seat]] = 1.0
    for p in range(2):
        if game.shown[p]:
            obs[4 + game.cards[p]] = 1.0
    return obs


def render(game: HighCardGame) -> str:
    return " | ".join(f"{CARDS[c]} shown={s}" for c, s in zip(game.cards, game.shown, strict=True))


def table(state: dict[str, object], seat: int | None) -> Table:
    """The public table: who showed, who folded."""
    shown = state["shown"]
    assert isinstance(shown, list)
    return Table(status=["to act" if s is None else "shown" if s else "folded" for s in shown], lines=["High card"])
