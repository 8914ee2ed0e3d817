"""A fixed-size feature vector per complete move, for agents that score ``legal_moves()`` one by one
(DouZero-style move networks, search with learned priors, feature-based bots)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from functools import cache

import numpy as np

from cardenvs.core.layout import ObservationLayout
from cardenvs.zheng_shang_you.actions import Give, Pass, Take
from cardenvs.zheng_shang_you.combos import KIND_NAMES, MAX_HAND, Combo, lead_shapes, shape_index
from cardenvs.zheng_shang_you.ranks import BJ, NUM_CARDS, NUM_VALUES, RJ, TWO, value_of

MOVE_KINDS = ("pass", *KIND_NAMES, "give", "take")


@cache
def move_layout() -> ObservationLayout:
    """The named layout of a move's feature vector."""
    return ObservationLayout(
        [
            ("kind", len(MOVE_KINDS), 1, "one-hot: " + ", ".join(MOVE_KINDS)),
            ("shape", len(lead_shapes()), 1, "one-hot shape of a play, in `shape` action order"),
            ("top_rank", NUM_VALUES, 1, "one-hot top rank of a play (3 … RJ)"),
            ("flags", 2, 1, "the play is wild (holds a stand-in), is a suited sequence"),
            ("size", 1, 1, "cards the move spends / 14"),
            ("high_cards", 3, 4, "2s, black jokers and red jokers the move spends"),
            ("cards", NUM_CARDS, 1, "cards the play spends or the card given, strength order 3♣ … RJ"),
            ("take", 2, 1, "one-hot taken card: the better- or the worse-placed giver's"),
        ]
    )


def move_features(move: Hashable) -> np.ndarray:
    """The feature vector of one move (see :func:`move_layout`)."""
    layout = move_layout()
    f = layout.features
    vec = layout.empty()
    if isinstance(move, Pass):
        vec[f["kind"].offset] = 1.0
    elif isinstance(move, Combo):
        vec[f["kind"].offset + 1 + move.kind] = 1.0
        vec[f["shape"].offset + shape_index()[move.shape]] = 1.0
        vec[f["top_rank"].offset + move.top] = 1.0
        vec[f["flags"].offset : f["flags"].offset + 2] = (move.wild, move.suited)
        _spend(vec, move.cards)
    elif isinstance(move, Give):
        vec[f["kind"].offset + len(KIND_NAMES) + 1] = 1.0
        _spend(vec, (move.card,))
    elif isinstance(move, Take):
        vec[f["kind"].offset + len(KIND_NAMES) + 2] = 1.0
        vec[f["take"].offset + move.slot] = 1.0
    else:
        raise TypeError(f"not a Zheng Shang You move: {move!r}")
    return vec


def moves_features(moves: Sequence[Hashable]) -> np.ndarray:
    """The feature vectors of several moves, one row each."""
    if not moves:
        return np.zeros((0, move_layout().size), dtype=np.float32)
    return np.stack([move_features(m) for m in moves])


def _spend(vec: np.ndarray, cards: Sequence[int]) -> None:
    f = move_layout().features
    vec[f["size"].offset] = len(cards) / MAX_HAND
    high = f["high_cards"].offset
    for p in cards:
        vec[f["cards"].offset + p] = 1.0
        if value_of(p) == TWO:
            vec[high] += 1.0
        elif p == BJ:
            vec[high + 1] = 1.0
        elif p == RJ:
            vec[high + 2] = 1.0
