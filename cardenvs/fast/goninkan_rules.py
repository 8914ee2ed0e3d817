"""The rules of Goninkan and Yoninkan as array functions for :mod:`cardenvs.fast.goninkan`: each game's deck tables
and action ids (:class:`Tables`), the legal actions of each phase, the tricks (the joker's strength) and a deal's
scoring with its declarations (the reference: :mod:`cardenvs.goninkan.tricks`, :mod:`cardenvs.goninkan.scoring`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from cardenvs.core.cards import SPADES
from cardenvs.core.layout import ActionTable
from cardenvs.goninkan.actions import action_table
from cardenvs.goninkan.ruleset import JOKER_FORCED_TRICK, TRICKS, Ruleset
from cardenvs.goninkan.scoring import HONOURS, Kind, ScoreTable
from cardenvs.goninkan.table import ACE, BLIND_SWAP, LEAD_CHOICE, PLAY, SHOW, SWEEP, TRUMP
from cardenvs.goninkan.tricks import JOKER_LED_WEAK, JOKER_LOWEST, JOKER_WINS

Array = jax.Array
INT = jnp.int32
NO_CHOICE = -2
"""``decl_choice`` before a Yoninkan player's trick-1 declaration (-1: he declared nothing)."""
SKUNK, JUROKU, REV_SKUNK, REV_JUROKU = (int(k) for k in Kind)


@dataclass(frozen=True)
class Tables:
    """One game's deck in index order (plain cards by ascending id, the joker last), its action ids (-1 for a block
    the game lacks) and its rules."""

    rules: Ruleset
    actions: ActionTable
    size: int
    joker: int
    suit: np.ndarray  # suit of each card index (-1 for the joker)
    rank: np.ndarray
    honour: np.ndarray
    play: int
    lead_joker: int
    joker_id: int
    lead_choice: int
    show: int
    trump: int
    sweep: int
    swap: int
    declare: int
    spade_ace: int

    @classmethod
    def of(cls, rules: Ruleset) -> Tables:
        cards = rules.cards
        actions = action_table(cards.text, rules.is_goninkan)
        blocks = {name: -1 for name in ("lead_choice", "blind_swap", "declare")}
        blocks |= {name: block.offset for name, block in actions.blocks.items()}
        return cls(
            rules=rules,
            actions=actions,
            size=cards.size,
            joker=cards.joker,
            suit=np.asarray(cards.suit, np.int32),
            rank=np.asarray(cards.rank, np.int32),
            honour=np.asarray(cards.honour, bool),
            play=blocks["play"],
            lead_joker=blocks["lead_joker"],
            joker_id=blocks["joker"],
            lead_choice=blocks["lead_choice"],
            show=blocks["show"],
            trump=blocks["trump"],
            sweep=blocks["sweep"],
            swap=blocks["blind_swap"],
            declare=blocks["declare"],
            spade_ace=cards.find(ACE, SPADES),
        )

    def key_card(self, trump: Array) -> Array:
        """(d,) bool: the card of ``trump`` that makes 関係 with the joker in deal 1."""
        return (trump == self.suit) & (self.rank == self.rules.key_rank)

    def suit_of(self, card: Array) -> Array:
        return _lookup(self.suit, card)

    def card_strength(self, card: Array, led_suit: Array, trump: Array, trick_no: Array, leading: Array) -> Array:
        """``tricks.card_strength`` of card index ``card``, led (``leading``) or not, to trick ``trick_no``."""
        suit, rank = _lookup(self.suit, card), _lookup(self.rank, card)
        plain = jnp.where(suit == trump, 200 + rank, jnp.where(suit == led_suit, 100 + rank, 0))
        joker = jnp.asarray(JOKER_WINS, INT)
        if self.rules.joker_lead_weak_every_trick:
            joker = jnp.where(leading, JOKER_LED_WEAK, joker)
        if self.rules.joker_lowest_in_last_trick:
            joker = jnp.where(trick_no == TRICKS, jnp.where(leading, JOKER_LED_WEAK, JOKER_LOWEST), joker)
        return jnp.where(card == self.joker, joker, plain)


def _lookup(table: np.ndarray, index: Array) -> Array:
    """``table[index]`` for a small constant table, as a one-hot sum (no gather under ``vmap``)."""
    return jnp.where(jnp.arange(table.shape[0]) == index, table, 0).sum()


class Turn(NamedTuple):
    """What the legal actions of the player to act depend on besides his hand."""

    phase: Array
    trick_count: Array
    led_suit: Array
    trick_no: Array
    pending_show: Array
    declaring: Array  # () bool: (Yoninkan) at the trick-1 declaration sub-step
    open_kinds: Array  # (4,) bool: the declarations open to him there
    declared: Array  # () bool: (Yoninkan) a declaration goes with the card he plays
    forced_lead: Array  # () a card that must open trick 1 (Yoninkan's ♠A), -1


def legal_mask(t: Tables, turn: Turn, hand: Array) -> Array:
    """The legal action ids of the player to act holding ``hand`` ((d,) bool)."""
    rules, d, joker = t.rules, t.size, t.joker
    cards = jnp.arange(d)
    plain = hand & (cards != joker)
    leading = turn.trick_count == 0
    follow = plain & (turn.led_suit == t.suit)
    options = jnp.where(leading | ~follow.any(), plain, follow)
    holds_joker = hand[joker]
    playing = (turn.phase == PLAY) & ~turn.declaring
    if rules.joker_banned_first_and_last:
        forced = holds_joker & (turn.trick_no == JOKER_FORCED_TRICK)  # 踊り番: a joker still held goes in trick 9
        options = options & ~forced
        joker_ok = holds_joker & (turn.trick_no > 1) & (turn.trick_no < TRICKS)
    else:  # Yoninkan: in trick 1 only with a declaration
        joker_ok = holds_joker & ((turn.trick_no > 1) | turn.declared)
    forcing = leading & (turn.trick_no == 1) & (turn.forced_lead >= 0)
    options = jnp.where(forcing, cards == turn.forced_lead, options)
    joker_ok = joker_ok & ~forcing & playing
    highest = jnp.argmax(jnp.where(hand, cards, -1))
    pending = turn.pending_show
    shown = hand & (cards > pending) & ((pending >= 0) | (cards != highest))
    parts = [
        (options & playing)[:joker],
        jnp.broadcast_to(joker_ok & leading, (4,)),
        (joker_ok & ~leading)[None],
    ]
    if t.lead_choice >= 0:
        parts.append(jnp.broadcast_to(turn.phase == LEAD_CHOICE, (2,)))
    parts += [
        shown & (turn.phase == SHOW),
        jnp.broadcast_to(turn.phase == TRUMP, (4,)),
        jnp.broadcast_to(turn.phase == SWEEP, (2,)),
    ]
    if t.swap >= 0:
        parts.append(jnp.broadcast_to(turn.phase == BLIND_SWAP, (t.actions.size - t.swap,)))
    if t.declare >= 0:
        parts.append(turn.declaring & jnp.concatenate([jnp.ones(1, bool), turn.open_kinds]))
    return jnp.concatenate(parts)


class Targets(NamedTuple):
    """A deal's honour counts: the 関係 target, what defeats it, and the skunk count."""

    target: Array
    fail: Array
    skunk: Array


def targets(table: ScoreTable, deal: Array) -> Targets:
    hot = jnp.arange(1, 4) == deal
    pick = lambda values: jnp.where(hot, jnp.asarray(values, INT), 0).sum()  # noqa: E731
    target = pick(table.targets)
    return Targets(target, HONOURS + 1 - target, pick(table.skunk_need))


def declaration_results(t: Targets, kankei: Array, mukan: Array) -> tuple[Array, Array]:
    """((4,) whether each kind of declaration is decided, (4,) whether it succeeded), by ``Kind``."""
    skunk = (kankei >= t.skunk) & (mukan == 0)
    reverse = (mukan >= t.fail) & (kankei == 0)
    decided = jnp.stack(
        [
            (kankei >= t.skunk) | (mukan > 0),
            (kankei == HONOURS) | (mukan > 0),
            (mukan >= t.fail) | (kankei > 0),
            (mukan == HONOURS) | (kankei > 0),
        ]
    )
    return decided, jnp.stack([skunk, kankei == HONOURS, reverse, mukan == HONOURS])


def is_decided(t: Targets, kankei: Array, mukan: Array, counts: Array) -> Array:
    """Whether everything the deal pays is decided (``scoring.is_decided``): ``counts`` are the live declarations
    of each kind ((4,) ints)."""
    juroku_failed = (counts[JUROKU] > 0) & (mukan > 0)
    result = juroku_failed | (kankei >= t.target) | (mukan >= t.fail)
    skunk_status = (kankei >= t.skunk) | (mukan > 0)
    reverse_status = (mukan >= t.fail) | (kankei > 0)
    decided, _ = declaration_results(t, kankei, mukan)
    return result & skunk_status & reverse_status & ((counts == 0) | decided).all()


def settle(
    table: ScoreTable, deal: Array, t: Targets, kankei: Array, mukan: Array, counts: Array, swept: Array
) -> tuple[Array, Array, Array]:
    """(success, points to each 関係-side player (the others get the negative), whether the round's earlier deals
    are cancelled): ``scoring.settle``. ``counts``: live declarations of each kind; ``swept``: (2,) whether the
    関係 / 無関係 side's declaration came after a skunk (the sweep's stakes) rather than in trick 1."""
    first = deal == 1
    _, succeeded = declaration_results(t, kankei, mukan)
    skunk, juroku_won, reverse, rev_won = (succeeded[k] for k in range(4))
    juroku = counts[JUROKU] > 0
    success = (kankei >= t.target) & ~(juroku & (mukan > 0))

    def stake(name: str, which: int) -> int:
        return table.declared.get(name, (0, 0))[which]

    def stakes(which: int) -> Array:  # per kind: the success bonus (0) or the failure points (1)
        juroku_stake = jnp.where(swept[0], table.juroku[which], stake("juroku", which))
        rev_skunk = jnp.where(first, stake("rev_skunk_deal1", which), stake("rev_skunk", which))
        rev_juroku = jnp.where(swept[1], table.rev_juroku[which], stake("rev_juroku", which))
        return jnp.stack([jnp.asarray(stake("skunk", which), INT), juroku_stake, rev_skunk, rev_juroku])

    to_kankei = jnp.where(succeeded, stakes(0), -stakes(1)) * jnp.asarray([1, 1, -1, -1])
    points = (counts * to_kankei).sum()
    points += (counts[SKUNK] + counts[JUROKU] == 0) & success & skunk
    rev_skunk_won = (counts[REV_SKUNK] > 0) & reverse
    plain_reverse = (counts[REV_SKUNK] + counts[REV_JUROKU] == 0) & reverse
    points -= jnp.where(plain_reverse, jnp.where(first, table.rev_skunk_d1_bonus, table.rev_skunk_later_bonus), 0)
    voids_round = ((rev_skunk_won | plain_reverse) & ~first) | ((counts[REV_JUROKU] > 0) & rev_won)
    cancels = voids_round & ~first
    no_failure_point = (rev_skunk_won | plain_reverse) & first & (not table.rev_skunk_d1_with_failure_point)
    result_point = ~voids_round & ~no_failure_point
    points += jnp.where(result_point, jnp.where(success, 1, -1), 0)
    points += result_point & success & (deal == 3) & (table.juroku_keeps_deal3_bonus | ~(juroku & juroku_won))
    return success, points.astype(INT), cancels
