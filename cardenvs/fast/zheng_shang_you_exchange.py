"""The card exchange before every deal of a match but the first, as array updates (the reference:
:mod:`cardenvs.zheng_shang_you.exchange` and :mod:`~cardenvs.zheng_shang_you.exchange_phase`).

Stages: 0 the second-to-last and the last put their highest card on the table (a decision only when suits tie),
turned up together; 1 the previous 1st takes one (the 2nd gets the other); 2 the 1st and the 2nd put any card back
(face up unless ``return_face_up=False``); 3 the second-to-last takes one (the last gets the other). Table slot 0
holds the better-placed giver's card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import jax
import jax.numpy as jnp

from cardenvs.fast.arrays import choose, take
from cardenvs.fast.zheng_shang_you_masks import VALUE
from cardenvs.zheng_shang_you.actions import ids
from cardenvs.zheng_shang_you.options import ZsyOptions
from cardenvs.zheng_shang_you.ranks import NUM_CARDS

if TYPE_CHECKING:
    from cardenvs.fast.zheng_shang_you_state import State

Array = jax.Array
INT = jnp.int32
A = ids()
OVER = 4
"""The stage after the last one: the exchange is done and the dealer leads."""


def givers(s: State) -> Array:
    """``(2,)`` seats giving in this stage (or the last giving stage), better-placed first."""
    o = s.prev_order
    return jnp.where(s.stage <= 1, jnp.stack([o[-2], o[-1]]), jnp.stack([o[0], o[1]]))


def takers(s: State) -> Array:
    """``(2,)`` seats taking in this stage (or the next taking stage), in taking order."""
    o = s.prev_order
    return jnp.where(s.stage <= 1, jnp.stack([o[0], o[1]]), jnp.stack([o[-2], o[-1]]))


def give_options(s: State, hand: Array) -> Array:
    """``(54,)``: the cards a giver may put on the table: the highest value held (stage 0), or any card."""
    value = jnp.asarray(VALUE)
    highest = jnp.where(hand, value, -1).max()
    return hand & ((s.stage == 2) | (value == highest))


def exchange_mask(s: State, hand: Array) -> Array:
    """The ``(152,)`` mask of an exchange decision (``hand``: the player to act's)."""
    giving = (s.stage == 0) | (s.stage == 2)
    gives = give_options(s, hand) & giving
    return jnp.concatenate([jnp.zeros(A.GIVE, bool), gives, jnp.full(2, ~giving)])


def _cards(seat: Array, card: Array, n: int) -> Array:
    """``(n, 54)``: only ``card`` of ``seat``."""
    return (jnp.arange(n) == seat)[:, None] & (jnp.arange(NUM_CARDS) == card)[None, :]


def exchange_action(s: State, a: Array, n: int) -> State:
    """A give (the player to act puts a card in the next empty slot) or a take (both takers get their cards)."""
    return choose(a >= A.TAKE, _take(s, a - A.TAKE, n), _give(s, s.current_player, a - A.GIVE, n))


def _give(s: State, giver: Array, card: Array, n: int) -> State:
    slot = jnp.where(s.table[0] < 0, 0, 1)
    return s._replace(hands=s.hands & ~_cards(giver, card, n), table=jnp.where(jnp.arange(2) == slot, card, s.table))


def _take(s: State, first: Array, n: int) -> State:
    """The first taker takes slot ``first``, the second the other slot; who learns which card is where."""
    slots = jnp.stack([first, 1 - first])  # per taker
    gets = take(s.table, slots[0]), take(s.table, slots[1])
    seats, from_seats = takers(s), givers(s)
    observers = jnp.arange(n)
    gains = [_cards(seats[t], gets[t], n) for t in range(2)]
    learned = jnp.zeros_like(s.known)
    for t in range(2):  # face up: everybody; face down: the card's giver only
        sees = s.revealed | (take(from_seats, slots[t]) == observers)
        learned |= sees[:, None, None] & gains[t][None]
    return s._replace(
        hands=s.hands | gains[0] | gains[1],
        known=s.known | learned,
        table=jnp.full(2, -1, INT),
        revealed=jnp.zeros((), bool),
        stage=s.stage + 1,
    )


def advance_exchange(s: State, options: ZsyOptions) -> State:
    """Play the exchange's automatic moves (a giver with one choice, the reveal) up to the next decision, or end
    it (the dealer leads). Outside the exchange (stage -1) nothing changes."""
    n = s.hands.shape[0]
    for _ in range(2):  # at most two gives in a row are automatic, then the reveal
        giving = (s.stage == 0) | (s.stage == 2)
        slot = jnp.where(s.table[0] < 0, 0, jnp.where(s.table[1] < 0, 1, -1))
        giver = take(givers(s), slot)
        options_held = give_options(s, take(s.hands, giver))
        auto = giving & (slot >= 0) & (options_held.sum() == 1)
        card = jnp.argmax(options_held)
        s = choose(auto, _give(s, giver, card, n), s)
        s = _reveal(s, options)
    over = s.stage == OVER
    slot = jnp.where(s.table[0] < 0, 0, 1)
    decider = jnp.where((s.stage == 0) | (s.stage == 2), take(givers(s), slot), takers(s)[0])
    leader = s._replace(
        stage=jnp.full((), -1, INT),
        current_player=s.dealer,
        build_shape=jnp.full((), -1, INT),
        build_top=jnp.full((), -1, INT),
        build_picks=jnp.zeros_like(s.build_picks),
        build_last=jnp.full((), -1, INT),
    )
    decided = s._replace(current_player=jnp.where(s.stage >= 0, decider, s.current_player))
    return choose(over, leader, decided)


def _reveal(s: State, options: ZsyOptions) -> State:
    """Both cards are down in a giving stage: turn them up (or not) and move on to the taking stage."""
    due = ((s.stage == 0) | (s.stage == 2)) & (s.table >= 0).all()
    revealed = (s.stage == 0) | options.return_face_up
    n = s.hands.shape[0]
    seats = givers(s)
    shown = _cards(seats[0], s.table[0], n) | _cards(seats[1], s.table[1], n)
    gave = (jnp.arange(n) == seats[0]) | (jnp.arange(n) == seats[1])
    forgotten = jnp.where(revealed, shown, gave[:, None])  # face down: what others knew of the givers is gone
    return choose(
        due,
        s._replace(known=s.known & ~forgotten[None], revealed=revealed, stage=s.stage + 1),
        s,
    )
