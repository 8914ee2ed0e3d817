"""The state of the JAX Zheng Shang You (:class:`~cardenvs.fast.zheng_shang_you.ZhengShangYouFast`), and what its
helper modules read of the game at its options, named here so that they need not import the class that imports
them."""

from __future__ import annotations

from typing import NamedTuple, Protocol

import jax

from cardenvs.core.layout import ObservationLayout
from cardenvs.zheng_shang_you.options import ZsyOptions

Array = jax.Array


class State(NamedTuple):
    """One game (or, under ``vmap``, a batch: every field gains a leading axis). Cards are (54,) bool sets in pick
    order (3♣ … 2♠ BJ RJ); seats are absolute."""

    hands: Array  # (n, 54) cards held (a play being built stays in hand until it is made)
    played: Array  # (n, 54) cards each seat played this deal (public)
    known: Array  # (n, n, 54) known[o, s]: cards observer o knows seat s holds (the exchange)
    places: Array  # (n,) finishing place this deal (1 = first out), 0 while holding cards
    passed: Array  # (n,) bool, passed since the last play of the trick
    passes: Array  # () passes since the last play
    dealer: Array  # ()
    totals: Array  # (units,) match points per scoring unit
    prev_order: Array  # (n,) the previous deal's finishing order (seats, 1st first), -1 before the first
    prev_places: Array  # (n,) places in the previous deal as the observation shows them (0: none)
    deals_played: Array  # ()
    top_cards: Array  # (54,) the combination to beat (all false when leading)
    top_shape: Array  # () its shape index (lead-menu order), -1 when leading
    top_rank: Array  # () its top rank value
    top_wild: Array  # () bool
    top_suited: Array  # () bool
    top_seat: Array  # () who played it, -1 when leading
    build_shape: Array  # () shape of the play being built (the top's when following), -1 before a lead's choice
    build_top: Array  # () its declared top rank ((set) sequences) or its rank (after a set's first card), -1 before
    build_picks: Array  # (54,) cards picked so far
    build_last: Array  # () the last card picked, -1 before
    stage: Array  # () exchange stage (0 give highest … 3 take back), -1 outside the exchange
    table: Array  # (2,) exchange cards on the table (better-, worse-placed giver's), -1 for none
    revealed: Array  # () bool, the table's cards are face up
    key: Array  # (2,) uint32, shuffles the later deals of a match
    current_player: Array  # () seat to act, -1 once the game is over
    terminated: Array  # () bool
    truncated: Array  # () bool, the step cap was reached
    rewards: Array  # (n,) float32, earned by the last step
    step_count: Array  # () decisions taken
    legal_action_mask: Array  # (152,) bool, for the player to act
    observation: Array  # (observation size,) float32, the player to act's view (seat 0's once over)


class ZhengShangYouSetup(Protocol):
    """A JAX Zheng Shang You at its options (:class:`~cardenvs.fast.zheng_shang_you.ZhengShangYouFast`)."""

    options: ZsyOptions
    num_players: int
    units: jax.Array
    """(n,) each seat's scoring unit."""
    layout: ObservationLayout
