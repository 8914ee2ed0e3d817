"""Features of a Zheng Shang You move in its situation, which the raw observation holds only implicitly.

A move-advantage network (:mod:`agents.learned.zsy_advantage`) that reads the observation and the move alone has to
discover from them whether the cards still out of sight can beat the move, or how many plays the hand it leaves
needs. The groups of :data:`GROUPS` spell such facts out, each scaled to about ``[0, 1]``: :data:`CONTEXT`, then
:data:`CONTROL`. A checkpoint that lists a group's names in ``meta["features"]`` reads them after
:data:`~agents.learned.zsy_advantage.AFTER`, the groups in this order. All of them are computed from what the
deciding seat sees: its hand, the cards played, the hand sizes and the combination to beat.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import replace

import numpy as np

from cardenvs.agents.bots.zheng_shang_you import rule_lead
from cardenvs.agents.moves import combo_to_beat
from cardenvs.core.layout import ObservationLayout
from cardenvs.zheng_shang_you.actions import Pass
from cardenvs.zheng_shang_you.build_state import NONE, allowed, requirement
from cardenvs.zheng_shang_you.combos import MAX_HAND, SEQUENCE, Combo, ComboRules, lead_shapes
from cardenvs.zheng_shang_you.features import MOVE_KINDS, move_layout
from cardenvs.zheng_shang_you.movegen import combos_of_shape, legal_combos
from cardenvs.zheng_shang_you.ranks import ACE, BJ, NUM_CARDS, TWO, suit_of, to_bits, value_bits, value_of

CONTEXT = ("table_beaters", "table_unbeatable", "plays_left", "unseen_high", "min_opponent", "keeps_lead")
"""After the move: how many combinations of the unseen cards beat what lies on the table (the move, or on a pass
the combination to beat; counted up to :data:`BEATERS_CAP`, log-scaled), whether none does, how many leads the hand
left needs (:func:`plays_left`); the 2s and jokers out of sight; the fewest cards an opponent holds; whether the
move keeps the lead (nothing unseen beats it and cards are left)."""
CONTROL = ("controls_left", "loose_left", "leads_beaten", "weakest_lead")
"""Of the leads the hand left after the move needs (:func:`leads_left`): how many nothing unseen beats (controls,
scaled by 4), how many the rest are (scaled by the largest hand), the sum of their log-scaled beater counts (as
``table_beaters``; scaled by the largest hand) and the largest of those. A hand whose loose leads are at most one
more than its controls goes out once it has the lead."""
BEATERS_CAP = 16
"""Beating combinations counted at most (the unseen cards are spread over several hands: more says little)."""


def move_of_row(row: np.ndarray) -> Pass | Combo:
    """The pass or combination whose :func:`~cardenvs.zheng_shang_you.features.move_layout` row this is."""
    f = move_layout().features
    kind = MOVE_KINDS[int(np.argmax(row[f["kind"].slice]))]
    if kind == "pass":
        return Pass()
    if kind in ("give", "take"):
        raise ValueError(f"a {kind} of the exchange is not a play; only leads and follows have a context")
    shape = lead_shapes()[int(np.argmax(row[f["shape"].slice]))]
    wild, suited = (bool(x) for x in row[f["flags"].slice])
    cards = tuple(int(p) for p in np.flatnonzero(row[f["cards"].slice]))
    return Combo(*shape, int(np.argmax(row[f["top_rank"].slice])), cards, wild, suited)


@functools.lru_cache(maxsize=65_536)
def leads_left(hand: int, rules: ComboRules) -> tuple[Combo, ...]:
    """The leads that shed a hand (a bit set) when each is the longest combination without 2s or jokers, the lowest
    of those (the rule bot's lead; any combination once only those are left)."""
    leads: list[Combo] = []
    while hand:
        leads.append(rule_lead(legal_combos(hand, None, rules)))
        hand &= ~to_bits(leads[-1].cards)
    return tuple(leads)


def plays_left(hand: int, rules: ComboRules) -> int:
    """How many :func:`leads_left` a hand (a bit set) needs."""
    return len(leads_left(hand, rules))


def beaters(unseen: int, combo: Combo, rules: ComboRules) -> int:
    """Combinations of the ``unseen`` cards (a bit set) that beat ``combo``, counted up to :data:`BEATERS_CAP`.
    Only the rank, shape and class of ``combo`` matter, so each is counted once per set of unseen cards; sequences
    are counted by suit and gap (:func:`sequence_beaters`), as listing them would take seconds."""
    return _beaters(unseen, replace(combo, cards=()), rules)


@functools.lru_cache(maxsize=65_536)
def _beaters(unseen: int, combo: Combo, rules: ComboRules) -> int:
    if combo.kind == SEQUENCE:
        return min(sequence_beaters(unseen, combo, rules), BEATERS_CAP)
    return sum(1 for _ in itertools.islice(combos_of_shape(unseen, combo.shape, combo, rules), BEATERS_CAP))


def sequence_beaters(unseen: int, combo: Combo, rules: ComboRules) -> int:
    """How many sequences of the ``unseen`` cards beat the sequence ``combo``: the number the move generator lists,
    counted without listing them. A sequence takes one natural card or a joker (a gap) at each rank; per top rank,
    the gap polynomial ``∏ (naturals + x)`` counts the ways with ``g`` gaps (times ``C(jokers, g)`` for which
    jokers fill them), and the same product over one suit's naturals counts the suited ones."""
    jokers = (unseen >> BJ).bit_count()
    total = 0
    for high in range(combo.length - 1, ACE + 1):
        need = requirement(combo, SEQUENCE, high)
        if need == NONE:
            continue
        ranks = range(high - combo.length + 1, high + 1)
        every = _gap_counts([(unseen & value_bits(v)).bit_count() for v in ranks], jokers)
        suited = [0] * (jokers + 1)
        for suit in range(4):
            one = _gap_counts([int(bool(unseen & value_bits(v) & _suit_bits(suit))) for v in ranks], jokers)
            suited = [a + b for a, b in zip(suited, one, strict=True)]
        if combo.length <= jokers:
            suited[combo.length] -= 4  # all gaps: no natural card, no suit
        if not rules.joker_keeps_suitedness:
            suited[1:] = [0] * jokers
        for gaps in range(jokers + 1):
            ways = math.comb(jokers, gaps)
            plain = every[gaps] - suited[gaps]
            total += ways * (suited[gaps] * allowed(need, True, gaps > 0) + plain * allowed(need, False, gaps > 0))
    return total


def _gap_counts(naturals: Sequence[int], most: int) -> list[int]:
    """Coefficients of ``x**0 … x**most`` in ``∏ (n + x)`` over ``naturals``: choices with that many gaps."""
    counts = [1] + [0] * most
    for n in naturals:
        counts = [n * counts[g] + (counts[g - 1] if g else 0) for g in range(most + 1)]
    return counts


@functools.cache
def _suit_bits(suit: int) -> int:
    return to_bits(p for p in range(BJ) if suit_of(p) == suit)


class Sight:
    """What the seat to move sees of the cards, as bit sets: its ``hand`` and the ``unseen`` cards (neither held
    nor played), read from its raw observation ``vector``."""

    def __init__(self, vector: np.ndarray, layout: ObservationLayout) -> None:
        seen = vector[layout["hand"]] > 0
        played = np.asarray(vector[layout["played"]].reshape(-1, NUM_CARDS).any(axis=0))
        self.unseen_cards = [p for p in range(NUM_CARDS) if not seen[p] and not played[p]]
        self.unseen, self.hand = to_bits(self.unseen_cards), to_bits(np.flatnonzero(seen).tolist())

    def left(self, move: Hashable) -> int:
        """The hand after ``move`` (a pass keeps it whole)."""
        return self.hand & ~to_bits(move.cards) if isinstance(move, Combo) else self.hand


def context_features(
    vector: np.ndarray, layout: ObservationLayout, rules: ComboRules, moves: Sequence[Hashable]
) -> np.ndarray:
    """One row of :data:`CONTEXT` per move (a pass or a combination of a lead or follow) for the raw observation
    ``vector`` of the seat to move."""
    sight = Sight(vector, layout)
    sizes, mates = vector[layout["hand_sizes"]][1:], vector[layout["teammates"]][1:]
    holding = [float(s) for s, m in zip(sizes, mates, strict=True) if s > 0 and not m]
    high = sum(value_of(p) >= TWO for p in sight.unseen_cards) / 6
    shared = (high, (min(holding) if holding else 0.0) / MAX_HAND)
    top = combo_to_beat(vector, layout)
    rows = np.zeros((len(moves), len(CONTEXT)), dtype=np.float32)
    for row, move in zip(rows, moves, strict=True):
        on_table = move if isinstance(move, Combo) else top
        if on_table is None:
            raise ValueError("a pass has no context on a lead: there is nothing on the table")
        count = beaters(sight.unseen, on_table, rules)
        left = sight.left(move)
        row[:] = (
            np.log1p(count) / np.log1p(BEATERS_CAP),
            count == 0,
            plays_left(left, rules) / MAX_HAND,
            *shared,
            isinstance(move, Combo) and count == 0 and left != 0,
        )
    return rows


def control_features(
    vector: np.ndarray, layout: ObservationLayout, rules: ComboRules, moves: Sequence[Hashable]
) -> np.ndarray:
    """One row of :data:`CONTROL` per move (a pass or a combination of a lead or follow) for the raw observation
    ``vector`` of the seat to move."""
    sight = Sight(vector, layout)
    rows = np.zeros((len(moves), len(CONTROL)), dtype=np.float32)
    for row, move in zip(rows, moves, strict=True):
        counts = [beaters(sight.unseen, lead, rules) for lead in leads_left(sight.left(move), rules)]
        beaten = [float(np.log1p(count) / np.log1p(BEATERS_CAP)) for count in counts]
        controls = counts.count(0)
        row[:] = (controls / 4, (len(counts) - controls) / MAX_HAND, sum(beaten) / MAX_HAND, max(beaten, default=0.0))
    return rows


GroupFeatures = Callable[[np.ndarray, ObservationLayout, ComboRules, Sequence[Hashable]], np.ndarray]
GROUPS: dict[str, tuple[tuple[str, ...], GroupFeatures]] = {
    "context": (CONTEXT, context_features),
    "control": (CONTROL, control_features),
}
"""Each group of situation features: its names and the function that computes its rows. A network reads the groups
it lists in this order."""


def situation_names(groups: Sequence[str]) -> list[str]:
    """The feature names of the situation ``groups``, in the order a network reads them."""
    return [name for group in groups for name in GROUPS[group][0]]


def situation_features(
    vector: np.ndarray, layout: ObservationLayout, rules: ComboRules, moves: Sequence[Hashable], groups: Sequence[str]
) -> np.ndarray:
    """The rows of the named ``groups`` side by side, one per move."""
    parts = [GROUPS[group][1](vector, layout, rules, moves) for group in groups]
    return np.concatenate(parts, axis=1) if parts else np.zeros((len(moves), 0), dtype=np.float32)


def shard_context(
    observations: np.ndarray,
    moves: np.ndarray,
    decision: np.ndarray,
    layout: ObservationLayout,
    rules: ComboRules,
    group: str,
) -> np.ndarray:
    """The ``group``'s features (:data:`GROUPS`) of every evaluated move of rollouts: ``moves`` rows (move features
    first) grouped by ``decision``, the row of ``observations`` each belongs to."""
    names, features = GROUPS[group]
    width = move_layout().size
    out = np.zeros((len(moves), len(names)), dtype=np.float32)
    starts = np.flatnonzero(np.r_[True, decision[1:] != decision[:-1]])
    for start, end in itertools.pairwise([*starts.tolist(), len(decision)]):
        vector = observations[decision[start]].astype(np.float32)
        rows = moves[start:end, :width].astype(np.float32)
        out[start:end] = features(vector, layout, rules, [move_of_row(r) for r in rows])
    return out
