"""Kyuuri's scoring, as pure functions: the last trick's penalty and bonus, the elimination limit (with
reincarnation), final places and the zero-sum outcome rewards."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from cardenvs.core.tricks import winning_position
from cardenvs.kyuuri.options import KyuuriOptions


def card_value(rank: int) -> int:
    """Penalty of a card of canonical rank index ``rank``: 2–10 face value, J 11, Q 12, K 13, A 14."""
    return rank + 2


@dataclass(frozen=True)
class DealScore:
    """What the last trick of a deal scored."""

    losers: tuple[int, ...]
    """Seats that score the penalty: the trick's winner, or (``ties_all_score``) everyone on the top rank."""
    rank: int
    """The top rank of the last trick (canonical rank index)."""
    bonus: tuple[tuple[int, int], ...]
    """``(seat, points recovered)`` for the other players on the loser's rank (floored at 0 penalty)."""

    @property
    def value(self) -> int:
        """The penalty each loser scores: the value of the top rank."""
        return card_value(self.rank)

    def deltas(self, num_players: int) -> list[int]:
        """Change of each seat's accumulated penalty."""
        change = [0] * num_players
        for seat in self.losers:
            change[seat] += self.value
        for seat, points in self.bonus:
            change[seat] -= points
        return change


def score_last_trick(
    seats: Sequence[int], ranks: Sequence[int], penalties: Sequence[int], ties_all_score: bool
) -> DealScore:
    """Score the deal's last trick (``seats[i]`` played ``ranks[i]``, in order) against the ``penalties`` so far.

    The trick goes to the last-played card of the top rank; its player scores the card's value and every
    other player of that rank subtracts the same value, never going below 0 (seed). With ``ties_all_score``
    every player of the top rank scores and there is no bonus."""
    top = ranks[winning_position(ranks, ties_to_last=True)]
    on_top = [s for s, r in zip(seats, ranks, strict=True) if r == top]
    if ties_all_score:
        return DealScore(tuple(on_top), top, ())
    value = card_value(top)
    bonus = tuple((s, min(value, penalties[s])) for s in on_top[:-1])
    return DealScore((on_top[-1],), top, bonus)


@dataclass(frozen=True)
class LimitOutcome:
    """Who the elimination limit hits after a deal."""

    out: tuple[int, ...] = ()
    """Players eliminated now."""
    reincarnated: tuple[tuple[int, int], ...] = ()
    """``(seat, new penalty)`` of players over the limit for the first time, under ``reincarnation``."""
    last_standing: tuple[int, ...] = ()
    """When everybody still in went out at once (only possible with ``ties_all_score``): the ones among them
    with the lowest penalty, who win instead (the game ends)."""


def apply_limit(
    alive: Sequence[int], penalties: Sequence[int], cucumbers: Sequence[bool], options: KyuuriOptions
) -> LimitOutcome:
    """Decide eliminations and reincarnations among the players ``alive`` after a deal's scoring.

    A reincarnated player is reset to the highest penalty among the players still in the game below the
    limit (0 if there is none: several players can only go over together under ``ties_all_score``)."""
    over = [s for s in alive if options.is_over_limit(penalties[s])]
    if not over:
        return LimitOutcome()
    below = [penalties[s] for s in alive if s not in over]
    if options.reincarnation:
        reset = max(below, default=0)
        reincarnated = tuple((s, reset) for s in over if not cucumbers[s])
        out = tuple(s for s in over if cucumbers[s])
    else:
        reincarnated, out = (), tuple(over)
    if len(out) == len(alive):
        best = min(penalties[s] for s in out)
        return LimitOutcome(
            tuple(s for s in out if penalties[s] > best), (), tuple(s for s in out if penalties[s] == best)
        )
    return LimitOutcome(out, reincarnated)


def places_by_penalty(seats: Sequence[int], penalties: Sequence[int], first_place: int = 1) -> dict[int, int]:
    """Competition ranking of ``seats`` by ascending penalty, starting at ``first_place`` (ties share a place)."""
    return {s: first_place + sum(penalties[o] < penalties[s] for o in seats) for s in seats}


def share_rewards(num_players: int, group: Sequence[int], group_total: float) -> np.ndarray:
    """Zero-sum rewards: the players of ``group`` share ``group_total``, the others share its negative
    (all 0 if the group is empty or everybody)."""
    rewards = np.zeros(num_players, dtype=np.float64)
    k = len(group)
    if 0 < k < num_players:
        rewards[:] = -group_total / (num_players - k)
        rewards[list(group)] = group_total / k
    return rewards
