"""Dealing unknown cards into places that may hold at most so many cards of a rank (a position's ``?`` cards).

A uniform shuffle is kept when it respects the caps. Otherwise it is repaired by swaps, then mixed by random swaps
that keep the caps: the proposal is symmetric, so the chain's stationary law is the uniform one over the deals that
respect the caps (rejection alone needs more tries than is practical where a long hidden hand must avoid four of a
kind, e.g. Verish' ne verish' late in a game).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

MIXING_SWEEPS = 20
"""Swap proposals per card after a repair."""


def deal_capped(
    ranks: np.ndarray,
    sizes: Sequence[int],
    known: Sequence[np.ndarray],
    caps: Sequence[int | None],
    rng: np.random.Generator,
) -> list[np.ndarray]:
    """Deal the cards ``ranks`` (one rank index per card) to places of ``sizes`` cards that already hold ``known``
    rank counts, so that place ``i`` holds at most ``caps[i]`` cards of any rank (``None``: no cap). Returns the
    rank counts dealt to each place; where no swap can meet the caps the result breaks them (the caller's checks
    refuse it)."""
    num_ranks = len(known[0]) if len(known) else 0
    tokens = np.array(ranks, dtype=np.int64)
    rng.shuffle(tokens)
    owner = np.repeat(np.arange(len(sizes)), sizes)
    held = [np.array(k, dtype=np.int64) for k in known]
    for place, rank in zip(owner, tokens, strict=True):
        held[place][rank] += 1
    limit = [np.iinfo(np.int64).max if c is None else c for c in caps]

    def fits(i: int, j: int) -> bool:
        """Whether swapping cards ``i`` and ``j`` keeps both places within their caps."""
        p, q, a, b = owner[i], owner[j], tokens[i], tokens[j]
        return p == q or a == b or (held[p][b] + 1 <= limit[p] and held[q][a] + 1 <= limit[q])

    def swap(i: int, j: int) -> None:
        p, q, a, b = owner[i], owner[j], tokens[i], tokens[j]
        held[p][a] -= 1
        held[p][b] += 1
        held[q][b] -= 1
        held[q][a] += 1
        tokens[i], tokens[j] = b, a

    def excess() -> list[int]:
        return [i for i in range(len(tokens)) if held[owner[i]][tokens[i]] > limit[owner[i]]]

    over = excess()
    if not over:
        return _counts(owner, tokens, len(sizes), num_ranks)
    for _ in range(50 * len(tokens)):
        if not over:
            break
        i = over[int(rng.integers(len(over)))]
        j = int(rng.integers(len(tokens)))
        a, b, q = tokens[i], tokens[j], owner[j]
        if owner[i] != q and a != b and held[owner[i]][b] + 1 <= limit[owner[i]] and held[q][a] + 1 <= limit[q]:
            swap(i, j)
            over = excess()
    if not over:
        for _ in range(MIXING_SWEEPS * len(tokens)):
            i, j = int(rng.integers(len(tokens))), int(rng.integers(len(tokens)))
            if fits(i, j):
                swap(i, j)
    return _counts(owner, tokens, len(sizes), num_ranks)


def _counts(owner: np.ndarray, tokens: np.ndarray, places: int, num_ranks: int) -> list[np.ndarray]:
    return [np.bincount(tokens[owner == p], minlength=num_ranks) for p in range(places)]
