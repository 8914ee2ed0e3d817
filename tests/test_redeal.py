"""The constrained re-deal of Goninkan and Yoninkan (``cardenvs.core.redeal``): its Hall check against the
definition, and its draws pinned, so that making it faster cannot change what it samples (issue 22 item 4)."""

from __future__ import annotations

import hashlib
import random

import numpy as np

from cardenvs.core.redeal import constrained_deal, hall_feasible

PINNED_DEALS = "fbe2a2cee93a5a3862bb8930c3469da34c86485f5a150e23fd0c1ef4ef407c05"
"""Digest of the deals below as the re-deal drew them before it was sped up (commit 24c404b)."""


def hall_by_definition(class_counts: dict[int, int], capacity: list[int]) -> bool:
    if sum(class_counts.values()) > sum(capacity):
        return False
    for subset in range(1, 1 << len(capacity)):
        inside = sum(count for mask, count in class_counts.items() if mask & ~subset == 0)
        if inside > sum(c for i, c in enumerate(capacity) if subset >> i & 1):
            return False
    return True


def random_classes(draw: random.Random) -> tuple[dict[int, int], list[int]]:
    m = draw.randint(1, 5)
    capacity = [draw.randint(0, 4) for _ in range(m)]
    counts: dict[int, int] = {}
    for _ in range(draw.randint(0, 5)):
        mask = draw.randint(1, (1 << m) - 1) if draw.random() < 0.8 else (1 << m) - 1
        counts[mask] = counts.get(mask, 0) + draw.randint(0, 3)
    return counts, capacity


def test_the_hall_check_agrees_with_its_definition() -> None:
    draw = random.Random(1)
    verdicts = []
    for _ in range(3_000):
        counts, capacity = random_classes(draw)
        verdicts.append(hall_feasible(counts, capacity))
        assert verdicts[-1] == hall_by_definition(counts, capacity), (counts, capacity)
    assert 0.2 < sum(verdicts) / len(verdicts) < 0.8  # both answers are exercised


def test_the_constrained_deal_draws_what_it_drew_before() -> None:
    draw = random.Random(2)
    digest = hashlib.sha256()
    dealt = 0
    while dealt < 400:
        counts, capacity = random_classes(draw)
        if not hall_feasible(counts, capacity) or sum(counts.values()) != sum(capacity):
            continue
        allowed = [mask for mask, count in sorted(counts.items()) for _ in range(count)]
        hands = constrained_deal(list(range(len(allowed))), allowed, capacity, np.random.default_rng(dealt))
        assert all(allowed[card] >> player & 1 for player, hand in enumerate(hands) for card in hand)
        assert [len(hand) for hand in hands] == capacity
        digest.update(repr(hands).encode())
        dealt += 1
    assert digest.hexdigest() == PINNED_DEALS
