"""Moves and actions of the claim-and-challenge games (Verish' ne verish', Yukushi): the complete claims a player
can make from the play under construction (:class:`~cardenvs.core.bluffing.ClaimTable`), the action ids that make
one, and the shared ``declare`` / ``pick`` / ``done`` action blocks."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from cardenvs.core.bluffing import ClaimTable


def multisets(counts: Sequence[int], max_size: int, min_rank: int = 0) -> Iterator[tuple[int, ...]]:
    """Every non-empty multiset of ranks (as a sorted tuple) of at most ``max_size`` cards drawable from
    ``counts``, using ranks ``>= min_rank`` only."""
    pool = [r for r in range(min_rank, len(counts)) for _ in range(int(counts[r]))]
    seen: set[tuple[int, ...]] = set()
    for size in range(1, max_size + 1):
        for combo in itertools.combinations(pool, size):
            if combo not in seen:
                seen.add(combo)
                yield combo


def claim_moves(table: ClaimTable, seat: int, declarable: Sequence[int], counts: Sequence[int] = ()) -> list[ClaimMove]:
    """Every complete claim ``seat`` can still make: completions of the play under construction; when
    nothing is built yet on a lead, one per rank in ``declarable`` (ignored once a rank is set). Where a game
    declares the count apart, one per count in ``counts`` until it is declared."""
    if table.building_rank >= 0:
        ranks: Sequence[int] = (table.building_rank,)
    elif table.claim_rank >= 0:
        ranks = (table.claim_rank,)
    else:
        ranks = declarable
    built = tuple(k for k in range(table.num_ranks) for _ in range(int(table.building[k])))
    rest = table.hands[seat] - table.building
    room = 0 if table.building_closed else table.max_play - table.building_count
    extensions: list[tuple[int, ...]] = [()] if built else []
    extensions.extend(multisets(rest, room, table.building_min))
    if not counts:
        return [ClaimMove(rank, built + ext) for rank in ranks for ext in extensions]
    declared = (table.building_declared_count,) if table.building_declared_count >= 0 else counts
    return [ClaimMove(rank, built + ext, m) for rank in ranks for m in declared for ext in extensions]


def claim_actions(
    table: ClaimTable, seat: int, move: ClaimMove, declare_id0: int, pick_id0: int, done_id: int, count_id0: int = -1
) -> list[int]:
    """Action ids that finish ``move`` from the current state of the play under construction (``count_id0``:
    first id of the declared-count block, for a move with a ``declared_count`` not yet declared)."""
    cards, nb = move.cards, table.building_count
    built = tuple(k for k in range(table.num_ranks) for _ in range(int(table.building[k]))) if nb else ()
    if cards[:nb] != built or list(cards) != sorted(cards):
        raise ValueError(f"{move} does not extend the cards already picked {built} in rank order")
    ids = [declare_id0 + move.declared_rank] if table.building_rank < 0 and table.claim_rank < 0 else []
    if move.declared_count is not None and table.building_declared_count < 0:
        ids.append(count_id0 + move.declared_count - 1)
    ids += [pick_id0 + k for k in cards[nb:]]  # a list, not a generator: the kit calls this millions of times
    picked_now, left = len(cards) - nb, table.steps_left(seat)
    if table.hidden_count:
        ids += [done_id] * (left - picked_now)
    elif left > picked_now:
        ids.append(done_id)
    return ids


def claim_action_blocks(rank_labels: Sequence[str]) -> list[tuple[str, Sequence[str], str]]:
    """The ``declare`` / ``pick`` / ``done`` action blocks every bluffing game uses to build a claim."""
    return [
        ("declare", rank_labels, "lead: declare the rank claimed for the new pile"),
        ("pick", rank_labels, "put one card of this rank into the play being built (ranks in non-decreasing order)"),
        ("done", [""], "finish the play with the cards picked so far (at least one)"),
    ]


@dataclass(frozen=True, slots=True)
class Challenge:
    """The move that challenges the latest play (ネ・ベリシ, ゆくし)."""


@dataclass(frozen=True, slots=True)
class ClaimMove:
    """A complete claim: the cards placed (sorted ranks) under a declared rank (and declared count)."""

    declared_rank: int
    cards: tuple[int, ...]
    declared_count: int | None = None
