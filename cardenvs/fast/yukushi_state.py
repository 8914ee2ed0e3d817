"""The state of the JAX Yukushi (:class:`~cardenvs.fast.yukushi.YukushiFast`), and what its helper modules
read of the game at its options, named here so that they need not import the class that imports them."""

from __future__ import annotations

from typing import NamedTuple, Protocol

import jax

from cardenvs.core.layout import ObservationLayout
from cardenvs.yukushi.options import YukushiOptions

Array = jax.Array


class State(NamedTuple):
    """One game (or, under ``vmap``, a batch: every field gains a leading axis). Hands are rank counts."""

    hands: Array  # (n, 13) cards held, the play being built included (as in the reference table)
    pile_by_seat: Array  # (n, 13) cards each seat put into the current pile
    pile_count: Array  # (n,) how many cards each seat put into the current pile (public)
    pile_size: Array  # () cards in the pile
    pile_plays: Array  # () plays on the pile
    claim_rank: Array  # () rank claimed for the run, -1 when the pile is empty
    last_seat: Array  # () owner of the latest play
    last_cards: Array  # (13,) the latest play's cards
    last_count: Array  # () the latest play's size
    last_declared: Array  # () the latest play's declared count (its size, unless allow_count_mismatch)
    pile_declared: Array  # () sum of the counts declared on the pile
    known_held: Array  # (n + 1, n, 13) cards of each rank observer o knows seat h holds (row n: public knowledge)
    flushed: Array  # (n, 13) each seat's own cards flushed unseen
    building_rank: Array  # () rank declared for the play being built (lead), -1 before
    building: Array  # (13,) cards picked so far
    building_count: Array  # ()
    building_min: Array  # () lowest rank the next pick may take
    building_declared: Array  # () (allow_count_mismatch) count declared for the play being built, -1 before
    building_closed: Array  # () (allow_count_mismatch) done steps taken on the play being built
    leading: Array  # () bool, the initiative holder leads a new run
    owner: Array  # () owner of the latest play, -1 when the run has none
    turn: Array  # () seat whose turn action (lead, play or pass) comes next
    passes: Array  # () passes since the latest play
    window_open: Array  # () bool, a challenge window is open on the latest play
    eligible: Array  # (n,) bool, seats that may call in the open window
    queue: Array  # (n,) bool, seats the window still asks (in clockwise order from the owner's left)
    decided: Array  # (n,) bool, seats that answered in the open window
    challengers: Array  # (n,) bool, seats that called in the open window
    out: Array  # (n,) bool, gone out safely
    exit_place: Array  # (n,) order of going out (0 first), -1 while in
    num_out: Array  # ()
    games_played: Array  # () games of the match finished
    match_points: Array  # (n,) int, the match's rewards so far times n - 1
    key: Array  # the random key of the match's later deals
    current_player: Array  # () seat to act, -1 once the game is over
    terminated: Array  # () bool
    truncated: Array  # () bool, the step cap was reached (a draw)
    rewards: Array  # (n,) float32, earned by the last step
    step_count: Array  # () decisions taken
    legal_action_mask: Array  # (30 + max_play,) bool, for the player to act
    observation: Array  # (observation size,) float32, the player to act's view (seat 0's once over)


class YukushiSetup(Protocol):
    """A JAX Yukushi at its options (:class:`~cardenvs.fast.yukushi.YukushiFast`)."""

    options: YukushiOptions
    num_players: int
    max_play: int
    hidden_count: bool
    layout: ObservationLayout
