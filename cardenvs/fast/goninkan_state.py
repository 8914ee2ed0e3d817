"""The state of :mod:`cardenvs.fast.goninkan` (an episode of Goninkan or Yoninkan as arrays) and the seating helpers."""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp

Array = jax.Array
INT = jnp.int32


class Deal(NamedTuple):
    """What ``init`` draws for an episode of ``R`` rounds (1, or ``n_rounds`` for a match): up to three deals a
    round, the first dealer and round, and each round's draws for the 二重関 exchange and the いく/こい decider.
    The reference engine consumes the same draws in the same order (``tests/fast``)."""

    places: Array  # (3R, d) int8: the deals in the order they may be needed, each card's place in the shuffled
    # deck: place // 10 is the active player (counted by player index, a sitting-out dealer skipped) dealt it
    dealer: Array  # () the first round's dealer
    round_number: Array  # () the first round
    key_order: Array  # (R, 2) the two key cards face down (0: the joker, 1: the Ace): a random 二重関 exchange
    # gives the partner key slot 0; a blind one lets the player between choose a slot
    card_order: Array  # (R, 10) the partner's cards face down (indices into his sorted hand): slot 0 comes back
    # in a random exchange; the blind chooser picks one
    decider_pick: Array  # (R,) 0 or 1: kankei_lead_decider="random": which 関係 member (by player index) decides
    redeal_slot: Array  # (R,) (Yoninkan, yoninkan_double="redeal") a deal 1 that gives one player both key cards
    # is mended instead of dealt again: the key card changes places with the card at this index among the other
    # players' cards (sorted). A deal without a double is dealt directly or mended from one of 9 doubles (its key
    # card swapped with one of the joker holder's 9 other cards), each with chance 1/30: every such deal is as
    # likely as any other, as dealing again makes them.


class State(NamedTuple):
    """One episode (or, under ``vmap``, a batch: every field gains a leading axis). Players are people (indices
    that never change); ``order`` says where they sit after the seat swaps."""

    holder: Array  # (d,) int8: who holds each card, -1 once played (a value a card, not (n, d): a small state)
    draws: Deal  # every chance outcome of the episode, drawn by ``init``: the deals, the 二重関 and decider draws
    deals_dealt: Array  # () deals of ``draws.places`` dealt so far (the next one is dealt at the next deal's start)
    played_by: Array  # (d,) int8: who played each card this deal, -1 (one value a card, not (n, d): a small state)
    trick_cards: Array  # (n,) card each player put to the trick in progress (or just ended), -1 if none
    known: Array  # (n, d) int8: known[o, c] = the player o knows to hold card c, -1 if none
    voids: Array  # (n, 4) bool, suits each player has shown to be out of
    order: Array  # (n, n) int: order[p] = everybody in play order from p (the current seating)
    next_player: Array  # (n,) the next player who plays after each one
    active: Array  # (n,) bool, plays this round (with 6 players the dealer sits out)
    kankei: Array  # (n,) bool, the 関係 team
    holders: Array  # (2,) deal 1's holders of the joker and the trump Ace (after a 二重関 exchange; the lone
    # holder twice while a blind exchange is pending)
    exchanged: Array  # (2,) the 二重関 exchange: the key card given to the partner, the card taken back (-1)
    dealer: Array  # ()
    round_number: Array  # () 1..n_rounds
    deal1_trump: Array  # ()
    deal: Array  # () 1..3
    trump: Array  # () -1 before a deal-2/3 trump is named
    phase: Array  # () PLAY, LEAD_CHOICE, SHOW, TRUMP, SWEEP or BLIND_SWAP (cardenvs.goninkan.table)
    trick_no: Array  # () 1..11
    trick_leader: Array  # () -1 before the first trick of a deal
    trick_count: Array  # () cards in the trick
    led_suit: Array  # () suit to follow (the named suit after a joker lead), -1 before the lead
    trick_winner: Array  # () player whose card is winning the trick, -1 before the lead
    best: Array  # () strength of the winning card
    honours: Array  # (n,) honours each player took this deal
    side_honours: Array  # (2,) honours of the 関係 and 無関係 sides this deal
    decls: Array  # (n, 4) bool: the live declarations by player and kind (scoring.Kind)
    swept: Array  # (2,) bool: the 関係 / 無関係 side's declaration came after a skunk (not in trick 1)
    revealed: Array  # (n,) bool: (Yoninkan) made a declaration this deal, which tells his side
    decl_choice: Array  # () (Yoninkan trick 1) the declaration chosen for the card to come, -1 none, -2 not yet
    forced_lead: Array  # () (Yoninkan) the card that must open trick 1 of deal 1 (the ♠A), -1
    team_public: Array  # () bool: every side is known (Goninkan: always; Yoninkan: after deal 1, or announced)
    sweep_offered: Array  # (2,) bool
    pending_show: Array  # () the first card shown, -1
    chooser: Array  # () the trump chooser of deals 2 and 3
    round_points: Array  # (n,) float32
    match_points: Array  # (n,) float32, points of the finished rounds
    rounds_played: Array  # ()
    current_player: Array  # () player to act, -1 once the episode is over
    terminated: Array  # () bool
    truncated: Array  # () bool, the step cap was reached
    rewards: Array  # (n,) float32, earned by the last step (a round's points when it ends)
    step_count: Array  # ()
    legal_action_mask: Array  # (actions,) bool, for the player to act
    observation: Array  # (observation size,) float32, the player to act's view (player 0's once over)


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
