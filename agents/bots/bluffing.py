"""Card counting shared by the bluffing-game bots (Verish' ne verish', Yukushi).

Both games' observations carry the same claim groups (``cardenvs.core.bluffing.claim_feature_groups``), so the
chance that the latest claim is true is worked out once, here, from the observer's own view only.
"""

from __future__ import annotations

from collections.abc import Callable
from math import comb

import numpy as np

View = Callable[[str], np.ndarray]
"""Reads one named feature group of the current observation."""


def prob_at_least(successes: int, population: int, draws: int, needed: int) -> float:
    """Hypergeometric P(X >= needed) for ``draws`` cards from ``population`` holding ``successes`` hits."""
    if needed <= 0:
        return 1.0
    draws = min(draws, population)
    total = comb(population, draws)
    if total == 0 or needed > min(successes, draws):
        return 0.0
    hits = sum(comb(successes, k) * comb(population - successes, draws - k) for k in range(needed, draws + 1))
    return hits / total


def latest_claim(view: View) -> tuple[int, int, int]:
    """``(claimed rank, cards placed, relative seat of the owner)`` of the latest play."""
    return (
        int(np.argmax(view("claim_rank"))),
        int(view("last_play_count")[0]),
        int(np.argmax(view("last_play_by"))),
    )


def claim_truth_probability(view: View, claimed: int | None = None) -> float:
    """Chance that the latest play really is ``claimed`` (default: the cards placed) cards of the claimed rank,
    given my hand, the copies I cannot place, what I know for certain each other player holds, and the
    claimant's hand size before the play: 0 when the claim is impossible from what I know."""
    claim, count, owner = latest_claim(view)
    needed = count if claimed is None else claimed
    sizes = view("hand_sizes").astype(int)
    unseen = view("unseen").astype(int)
    known = view("known_held").reshape(len(sizes) - 1, -1).astype(int)
    others_known = sum(int(known[j - 1, claim]) for j in range(1, len(sizes)) if j != owner)
    possible = int(unseen[claim]) - others_known
    if needed > possible:
        return 0.0
    population = int(unseen.sum()) - int(known.sum()) + int(known[owner - 1].sum())
    return prob_at_least(possible, max(population, 1), int(sizes[owner]) + count, needed)
