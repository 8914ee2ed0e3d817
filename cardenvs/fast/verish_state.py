"""The state of the JAX Verish' ne verish' (:class:`~cardenvs.fast.verish.VerishFast`), and what its helper modules
read of the game at its options, named here so that they need not import the class that imports them."""

from __future__ import annotations

from typing import NamedTuple, Protocol

import jax

from cardenvs.core.layout import ObservationLayout
from cardenvs.verish_ne_verish.rules import VerishOptions

Array = jax.Array


class State(NamedTuple):
    """One game (or, under ``vmap``, a batch: every field gains a leading axis). Hands are rank counts."""

    hands: Array  # (n, r) cards held, the play being built included (as in the reference table)
    pile_by_seat: Array  # (n, r) cards each seat put into the current pile
    pile_count: Array  # (n,) how many cards each seat put into the current pile (public)
    pile_size: Array  # () cards in the pile
    pile_plays: Array  # () plays on the pile
    claim_rank: Array  # () rank claimed for the pile, -1 when empty
    last_seat: Array  # () owner of the latest play
    last_cards: Array  # (r,) the latest play's cards
    last_count: Array  # () the latest play's size
    known_held: Array  # (n + 1, n, r) cards of each rank observer o knows seat h holds (row n: public knowledge)
    discarded: Array  # (r,) bool, ranks discarded face up as quads
    building_rank: Array  # () rank declared for the play being built (lead), -1 before
    building: Array  # (r,) cards picked so far
    building_count: Array  # ()
    building_min: Array  # () lowest rank the next pick may take
    leading: Array  # () bool, the play being built opens the round
    quad_queue: Array  # (n,) bool, (quad_discard_optional) seats still to decide on their quads, the first to act
    quad_min: Array  # () lowest rank the quad decision may still discard
    next_starter: Array  # () seat that starts the round once the quads are settled
    out: Array  # (n,) bool, gone out safely
    exit_place: Array  # (n,) order of going out (0 first), -1 while in
    num_out: Array  # ()
    dealer: Array  # () the game's dealer
    games_played: Array  # () games of the match finished
    match_points: Array  # (n,) int, the match's rewards so far times n - 1
    key: Array  # the random key of the match's later deals
    current_player: Array  # () seat to act, -1 once the game is over
    terminated: Array  # () bool
    truncated: Array  # () bool, the step cap was reached (a draw)
    rewards: Array  # (n,) float32, earned by the last step
    step_count: Array  # () decisions taken
    legal_action_mask: Array  # (actions,) bool, for the player to act
    observation: Array  # (observation size,) float32, the player to act's view (seat 0's once over)


class VerishSetup(Protocol):
    """A JAX Verish' ne verish' at its options (:class:`~cardenvs.fast.verish.VerishFast`)."""

    options: VerishOptions
    layout: ObservationLayout
