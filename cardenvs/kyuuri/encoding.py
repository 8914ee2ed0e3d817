"""Observation layout and encoder of Kyuuri (seat-relative: me first, then the others in play order).

Everything a Kyuuri player tracks is here: the own hand, every card played this deal and by whom, the
trick in progress (what each seat put on it, who is winning, the rank to match or beat), the accumulated
penalties, eliminations and cucumbers, the dealer and leader, and the deal's progress. The undealt stock is
never shown: ``unseen`` lumps it together with the other players' hands, as a player sees it.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from cardenvs.core.cards import NUM_RANKS
from cardenvs.core.layout import ObservationLayout
from cardenvs.kyuuri.rules import KyuuriGame

R = NUM_RANKS


@cache
def observation_layout(num_players: int, hand_size: int, penalty_bound: int, deals_cap: int) -> ObservationLayout:
    """The named layout for ``num_players`` players (ranks are indexed 2 … A everywhere)."""
    n = num_players
    return ObservationLayout(
        [
            ("hand", R, 4, "my cards, count per rank"),
            ("unseen", R, 4, "copies per rank neither in my hand nor played this deal (others' hands or the stock)"),
            ("played", n * R, 4, "per relative seat: cards it played this deal, count per rank"),
            ("trick", n * R, 1, "per relative seat: one-hot rank it played to the trick in progress"),
            ("to_beat", R, 1, "one-hot rank a follower must match or beat (trick's highest; previous card in Gurka)"),
            ("trick_winner", n, 1, "one-hot relative seat winning the trick in progress (last of the highest)"),
            ("leader", n, 1, "one-hot relative seat that leads (or led) the trick in progress"),
            ("to_act", n, 1, "one-hot relative seat of the player to play"),
            ("dealer", n, 1, "one-hot relative seat of this deal's dealer"),
            ("penalties", n, penalty_bound, "accumulated penalty points per relative seat"),
            ("eliminated", n, 1, "relative seats out of the game"),
            ("cucumbers", n, 1, "(reincarnation) relative seats that have used their one reincarnation"),
            ("tricks_played", 1, hand_size, "tricks completed in this deal"),
            ("deals_played", 1, deals_cap, "deals completed before this one"),
            ("deals_left", 1, deals_cap, "deals the episode can still last, this one included (cap or fixed_deals)"),
        ]
    )


class Encoder:
    """Writes observations of one game; offsets and seat orders are computed once."""

    def __init__(self, layout: ObservationLayout, num_players: int):
        n = num_players
        f = layout.features
        self.size = layout.size
        self.orders = [np.array([(me + k) % n for k in range(n)], dtype=np.intp) for me in range(n)]
        self.hand = f["hand"].slice
        self.unseen = f["unseen"].slice
        self.played = f["played"].slice
        self.trick = f["trick"].offset
        self.to_beat = f["to_beat"].offset
        self.trick_winner = f["trick_winner"].offset
        self.leader = f["leader"].offset
        self.to_act = f["to_act"].offset
        self.dealer = f["dealer"].offset
        self.penalties = f["penalties"].slice
        self.eliminated = f["eliminated"].slice
        self.cucumbers = f["cucumbers"].slice
        self.tricks_played = f["tricks_played"].offset
        self.deals_played = f["deals_played"].offset
        self.deals_left = f["deals_left"].offset

    def encode(self, game: KyuuriGame, me: int, out: np.ndarray | None = None) -> np.ndarray:
        """Player ``me``'s observation vector (written into ``out`` when given)."""
        n = game.num_players
        order = self.orders[me]
        if out is None:
            obs = np.zeros(self.size, dtype=np.float32)
        else:
            obs = out
            obs.fill(0.0)
        hand = game.hands[me]
        obs[self.hand] = hand
        obs[self.unseen] = game.unseen_base - hand
        obs[self.played] = game.played.relative(me)
        trick = game.trick
        for seat, rank in zip(trick.seats, trick.cards, strict=True):
            obs[self.trick + (seat - me) % n * R + rank] = 1.0
        if trick.cards:
            obs[self.to_beat + game.to_beat] = 1.0
            obs[self.trick_winner + (game.trick_winner - me) % n] = 1.0
        if trick.leader >= 0:
            obs[self.leader + (trick.leader - me) % n] = 1.0
        if game.current_player >= 0:
            obs[self.to_act + (game.current_player - me) % n] = 1.0
        obs[self.dealer + (game.dealer - me) % n] = 1.0
        obs[self.penalties] = game.penalties_array.take(order)
        obs[self.eliminated] = game.eliminated_array.take(order)
        obs[self.cucumbers] = game.cucumbers_array.take(order)
        obs[self.tricks_played] = game.tricks_played
        obs[self.deals_played] = game.deals_played
        obs[self.deals_left] = game.options.deals_cap - game.deals_played
        return obs


@cache
def encoder(layout: ObservationLayout, num_players: int) -> Encoder:
    """The encoder of a layout (one per option set, shared by every game)."""
    return Encoder(layout, num_players)


def layout_of(game: KyuuriGame) -> ObservationLayout:
    """The layout of ``game``'s options."""
    o = game.options
    return observation_layout(o.num_players, o.hand_size, o.penalty_bound, o.deals_cap)


def encode(game: KyuuriGame, me: int, out: np.ndarray | None = None) -> np.ndarray:
    """Player ``me``'s observation vector (written into ``out`` when given)."""
    return encoder(game.layout, game.num_players).encode(game, me, out)
