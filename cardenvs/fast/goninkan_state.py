"""The state of :mod:`cardenvs.fast.goninkan` (one round of Goninkan as arrays) and the seating helpers."""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp

Array = jax.Array
INT = jnp.int32


class State(NamedTuple):
    """One round (or, under ``vmap``, a batch: every field gains a leading axis). Players are people (indices
    that never change); ``order`` says where they sit after the seat swap."""

    holder: Array  # (d,) int8: who holds each card, -1 once played (a value a card, not (n, d): a small state)
    later_holders: Array  # (2, d) int8: who is dealt each card in deals 2 and 3 (played only after a success;
    # a holder per card rather than (n, d) hands keeps the state small: re-dealing finished games copies it)
    played_by: Array  # (d,) int8: who played each card this deal, -1 (one value a card, not (n, d): a small state)
    trick_cards: Array  # (n,) card each player put to the trick in progress (or just ended), -1 if none
    known: Array  # (n, d) int8: known[o, c] = the player o knows to hold card c, -1 if none
    voids: Array  # (n, 4) bool, suits each player has shown to be out of
    order: Array  # (n, n) int: order[p] = everybody in play order from p (the current seating)
    next_player: Array  # (n,) the next player who plays after each one
    active: Array  # (n,) bool, plays this round (with 6 players the dealer sits out)
    kankei: Array  # (n,) bool, the 関係 team
    holders: Array  # (2,) deal 1's holders of the joker and the trump Ace (after a 二重関 exchange)
    exchanged: Array  # (2,) the 二重関 exchange: the key card given to the partner, the card taken back (-1)
    dealer: Array  # ()
    round_number: Array  # () 1..n_rounds
    deal1_trump: Array  # ()
    deal: Array  # () 1..3
    trump: Array  # () -1 before a deal-2/3 trump is named
    phase: Array  # () PLAY, LEAD_CHOICE, SHOW, TRUMP or SWEEP (cardenvs.goninkan.table)
    trick_no: Array  # () 1..11
    trick_leader: Array  # () -1 before the first trick of a deal
    trick_count: Array  # () cards in the trick
    led_suit: Array  # () suit to follow (the named suit after a joker lead), -1 before the lead
    trick_winner: Array  # () player whose card is winning the trick, -1 before the lead
    best: Array  # () strength of the winning card
    honours: Array  # (n,) honours each player took this deal
    side_honours: Array  # (2,) honours of the 関係 and 無関係 sides this deal
    declared: Array  # (2,) bool: じゅうろく, 逆じゅうろく
    declarer: Array  # (2,)
    sweep_offered: Array  # (2,) bool
    pending_show: Array  # () the first card shown, -1
    chooser: Array  # () the trump chooser of deals 2 and 3
    round_points: Array  # (n,) float32
    match_points: Array  # (n,) float32, points of the finished rounds
    rounds_played: Array  # ()
    current_player: Array  # () player to act, -1 once the round is over
    terminated: Array  # () bool
    truncated: Array  # () bool, the step cap was reached
    rewards: Array  # (n,) float32, earned by the last step (the round's points when it ends)
    step_count: Array  # ()
    legal_action_mask: Array  # (132,) bool, for the player to act
    observation: Array  # (observation size,) float32, the player to act's view (player 0's once over)


class Deal(NamedTuple):
    """What ``init`` draws: the three deals, the dealer, the round and the 二重関 chance outcome."""

    hands: Array  # (3, n, d) bool
    dealer: Array
    round_number: Array
    give_joker: Array  # () bool: a 二重関 holder passes the joker (else the Ace) to the partner
    take_slot: Array  # () 0..9: and takes back the partner's card of this rank in his sorted hand


def at(flags: Array, people: Array) -> Array:
    """``flags[people]`` (a per-player bool for each of ``people``) as one-hot selections."""
    return (flags[None, :] & (people[:, None] == jnp.arange(flags.shape[0])[None, :])).any(axis=1)


def orders(person_at: Array, players: Array, active: Array) -> tuple[Array, Array]:
    """(everybody in play order from each player, the next active player after each) for the seating
    ``person_at`` (``person_at[seat]``)."""
    n = players.shape[0]
    seat_of = (jnp.where(person_at[None, :] == players[:, None], players[None, :], 0)).sum(axis=1)
    seats = (seat_of[:, None] + players[None, :]) % n  # (player, k): the seat k places after him
    order = jnp.where(seats[..., None] == players, person_at, 0).sum(axis=-1)
    later = at(active, order.ravel()).reshape(n, n) & (players[None, :] > 0)
    next_player = jnp.where(players[None, :] == jnp.argmax(later, axis=1)[:, None], order, 0).sum(axis=1)
    return order.astype(INT), next_player.astype(INT)
