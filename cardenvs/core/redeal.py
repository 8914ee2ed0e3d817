"""Random re-deals under constraints, for ``resample_hidden`` in games where the public record narrows down
who can hold what (a player who showed a void in a suit, a card known to be in one hand).

Cards go to players with fixed capacities (their hand sizes); each card may only go to an allowed set of
players. :func:`constrained_deal` draws a random assignment that meets every constraint, using Hall's
condition to never paint itself into a corner: an assignment of every card exists iff, for each set ``S``
of players, the cards allowed only inside ``S`` fit in the capacity of ``S``. Where nothing narrows it down,
:func:`redeal_counts` shuffles rank counts among places of fixed sizes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np


def _confined(class_counts: Mapping[int, int], m: int) -> list[tuple[int, int]]:
    """``(S, cards allowed only inside S)`` for the sets ``S`` of players, short of all of them, that Hall's
    condition needs checked: the unions of classes. Any other non-empty ``S`` confines exactly the cards of the
    union ``U`` of the classes inside it, in no more room than ``U`` has (``U`` lies in ``S``). Cards allowed
    everywhere (usually most) are confined only by the set of all players: the totals, checked apart."""
    everyone = (1 << m) - 1
    classes = [(mask, count) for mask, count in class_counts.items() if count and mask & everyone != everyone]
    unions = {0}
    for mask, _ in classes:
        unions |= {union | mask for union in unions}
    unions -= {0, everyone}
    return [(subset, sum(count for mask, count in classes if mask & ~subset == 0)) for subset in unions]


def _room(capacity: Sequence[int], subset: int) -> int:
    return sum(capacity[i] for i in range(len(capacity)) if subset >> i & 1)


def hall_feasible(class_counts: Mapping[int, int], capacity: Sequence[int]) -> bool:
    """Whether cards grouped by allowed-player bit set (``class_counts[mask] = number of cards``) can all be
    placed in players of the given ``capacity`` (index = bit): for every set ``S`` of players, the cards allowed
    only inside ``S`` fit in the capacity of ``S`` (Hall's condition; see :func:`_confined` for the sets checked)."""
    if sum(class_counts.values()) > sum(capacity):
        return False
    if class_counts.get(0, 0) > min(capacity, default=0):  # cards allowed nowhere, in the smallest non-empty set
        return False
    return all(inside <= _room(capacity, subset) for subset, inside in _confined(class_counts, len(capacity)))


def constrained_deal(
    cards: Sequence[int], allowed: Sequence[int], capacity: Sequence[int], rng: np.random.Generator
) -> list[list[int]]:
    """Deal ``cards`` to players ``0..m-1`` so that player ``i`` gets exactly ``capacity[i]`` cards and card
    ``cards[k]`` goes to a player in the bit set ``allowed[k]``. Raises ``ValueError`` if impossible.

    Cards allowed everywhere are shuffled and split; the others are placed one at a time, in random order,
    each to a random allowed player among those that keep the rest feasible."""
    m = len(capacity)
    everyone = (1 << m) - 1
    if len(cards) != sum(capacity):
        raise ValueError(f"{len(cards)} cards for {sum(capacity)} places")
    counts: dict[int, int] = {}
    for mask in allowed:
        counts[mask & everyone] = counts.get(mask & everyone, 0) + 1
    if not hall_feasible(counts, capacity) or counts.get(0):
        raise ValueError("no deal meets the constraints")
    hands: list[list[int]] = [[] for _ in range(m)]
    room = list(capacity)
    # Hall's condition kept up card by card on the sets it needs (those of the classes dealt so far are among them):
    # the cards each confines and the room it has left
    confined = _confined(counts, m)
    sets = [subset for subset, _ in confined]
    inside = [cards_inside for _, cards_inside in confined]
    space = [_room(room, subset) for subset in sets]
    constrained = [k for k in range(len(cards)) if allowed[k] & everyone != everyone]
    for i in rng.permutation(len(constrained)).tolist():
        k = constrained[i]
        mask = allowed[k] & everyone
        # what is left fits (it fitted with this card); giving it to a player keeps it so unless a set of players
        # that holds him is filled by the cards it confines
        full = 0
        for j, subset in enumerate(sets):
            if mask & ~subset == 0:
                inside[j] -= 1
            if inside[j] and inside[j] >= space[j]:
                full |= subset
        takers = mask & ~full
        for player in rng.permutation(m).tolist():
            if takers >> player & 1 and room[player]:
                room[player] -= 1
                hands[player].append(cards[k])
                for j, subset in enumerate(sets):
                    if subset >> player & 1:
                        space[j] -= 1
                break
        else:  # pragma: no cover - Hall's condition guarantees a feasible choice
            raise AssertionError("constrained_deal lost feasibility")
    free = [cards[k] for k in range(len(cards)) if allowed[k] & everyone == everyone]
    free = [free[i] for i in rng.permutation(len(free))]
    for player in range(m):
        hands[player].extend(free[: room[player]])
        free = free[room[player] :]
    return hands


def redeal_counts(counts: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The cards counted in the rows of ``counts`` (one place per row, rank counts) shuffled among the places, each
    keeping its size.

    The cards are sorted before the shuffle, so the result depends on which cards are hidden and on ``rng`` only,
    not on where they lay: re-dealt worlds of one information set give one search the same samples."""
    num_places, num_ranks = counts.shape
    tokens = np.repeat(np.arange(num_ranks), counts.sum(axis=0))  # every hidden card, sorted by rank
    rng.shuffle(tokens)
    # place * num_ranks + rank of every token, the first size_0 tokens going to place 0, …
    codes = np.repeat(np.arange(0, num_places * num_ranks, num_ranks), counts.sum(axis=1))
    codes += tokens
    return np.bincount(codes, minlength=num_places * num_ranks).reshape(num_places, num_ranks).astype(counts.dtype)
