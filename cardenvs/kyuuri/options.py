"""Options of ``cardenvs/kyuuri-v0`` (spec: ``shared/rules/kyuuri.md``; defaults follow the seed)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from cardenvs.core.cards import NUM_RANKS, SMALL_DECK_SIZES
from cardenvs.core.options import require

EpisodeUnit = Literal["game", "deal"]
RewardMode = Literal["outcome", "penalty"]

HAND_SIZE = 7
SWEDISH_HAND_SIZE = 6
MAX_CARD_VALUE = 14
"""Penalty of an Ace, the highest card value (2–10 face value, J 11, Q 12, K 13, A 14)."""


@dataclass(frozen=True)
class KyuuriOptions:
    """Options of ``cardenvs/kyuuri-v0``."""

    num_players: int = 4
    """2–7 players (7 × 7 = 49 of the 52 cards are dealt)."""
    threshold: int = 21
    """Accumulated penalty at which a player is eliminated."""
    threshold_strict: bool = False
    """Eliminate at a penalty **above** ``threshold`` (Danish Agurk, pagat) instead of at or above it (seed)."""
    reincarnation: bool = False
    """The first time over the limit a player stays in, reset to the highest penalty among the other players
    still below the limit, and gets a cucumber; the second time the player is out."""
    ties_all_score: bool = False
    """Every player who played the highest rank to the last trick scores it (and nobody gets the bonus),
    instead of the last-played of them scoring and the others earning the bonus (seed)."""
    ace_lead_forces_lowest: bool = False
    """When an Ace is led, every other player must play their lowest card (even holding an Ace)."""
    swedish_gurka: bool = False
    """Swedish Gurka: 6 cards each, and a follower compares with the previous card only, not the trick's highest."""
    fixed_deals: int | None = None
    """Play exactly this many deals without elimination; the lowest penalty wins (the seed's variant)."""
    max_deals: int = 200
    """Cap on the number of deals of an elimination game (the bonus can cancel penalties, so a game is not
    bounded otherwise); at the cap the surviving player(s) with the lowest penalty win."""
    episode: EpisodeUnit = "game"
    """``game``: the whole game (to one survivor, or ``fixed_deals``). ``deal``: one deal from zero penalties."""
    reward_mode: RewardMode = "outcome"
    """``outcome`` (zero-sum, at the end): game unit, the winner(s) share +1 and the others share −1; deal unit,
    the last trick's loser(s) share −1 and the others share +1. ``penalty``: at the end of every deal, each
    player gets minus the change its penalty took from that deal's scoring (a bonus pays back)."""
    dealer: int | None = None
    """Dealer of the first deal; ``None`` draws one at random."""
    deck_size: int = 52
    """The 52-card pack, or a smaller deck of the highest ranks (8 = K and A, 12, …, 48; four cards a rank): the
    small variants that OpenSpiel solves exactly. Not in the seed."""
    deal_size: int | None = None
    """Cards dealt to each player (and tricks per deal); ``None``: 7, or 6 in Swedish Gurka. Not in the seed."""

    def __post_init__(self) -> None:
        require(2 <= self.num_players <= 7, f"num_players must be 2–7 for Kyuuri, got {self.num_players}")
        require(self.threshold >= 1, f"threshold must be a positive number of points, got {self.threshold}")
        require(
            self.fixed_deals is None or self.fixed_deals >= 1,
            f"fixed_deals must be None or at least 1, got {self.fixed_deals}",
        )
        require(self.max_deals >= 1, f"max_deals must be at least 1, got {self.max_deals}")
        require(
            not (self.fixed_deals is not None and self.episode == "deal"),
            "fixed_deals plays several deals; it cannot be combined with episode='deal'",
        )
        require(
            self.deck_size == 52 or self.deck_size in SMALL_DECK_SIZES,
            f"deck_size must be 52 or a smaller deck of the highest ranks (8, 12, …, 48), got {self.deck_size}",
        )
        require(
            self.deal_size is None or 1 <= self.deal_size <= HAND_SIZE,
            f"deal_size must be None or 1–{HAND_SIZE} cards, got {self.deal_size}",
        )
        require(
            self.hand_size * self.num_players <= self.deck_size,
            f"{self.num_players} hands of {self.hand_size} cards need {self.hand_size * self.num_players} cards; "
            f"the deck has {self.deck_size} (lower deal_size or num_players, or raise deck_size)",
        )
        require(
            self.dealer is None or 0 <= self.dealer < self.num_players,
            f"dealer must be None or a seat 0..{self.num_players - 1}, got {self.dealer}",
        )

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player (and tricks per deal): ``deal_size``, else 7, or 6 in Swedish Gurka."""
        if self.deal_size is not None:
            return self.deal_size
        return SWEDISH_HAND_SIZE if self.swedish_gurka else HAND_SIZE

    @property
    def rank_copies(self) -> np.ndarray:
        """Copies of each rank (2 … A) in the deck: four of each of the ``deck_size // 4`` highest, else 0."""
        copies = np.zeros(NUM_RANKS, dtype=np.int8)
        copies[NUM_RANKS - self.deck_size // 4 :] = 4
        copies.flags.writeable = False
        return copies

    @property
    def eliminates(self) -> bool:
        """Whether players are eliminated by penalty (not under ``fixed_deals`` nor in a one-deal episode)."""
        return self.fixed_deals is None and self.episode == "game"

    @property
    def deals_cap(self) -> int:
        """Most deals an episode can last."""
        if self.episode == "deal":
            return 1
        return self.fixed_deals if self.fixed_deals is not None else self.max_deals

    @property
    def penalty_bound(self) -> int:
        """Largest accumulated penalty a player can show (the observation's upper bound)."""
        if self.fixed_deals is not None:
            return MAX_CARD_VALUE * self.fixed_deals
        return self.threshold + MAX_CARD_VALUE

    def is_over_limit(self, penalty: int) -> bool:
        """Whether ``penalty`` eliminates (or, with ``reincarnation``, reincarnates) its holder."""
        return penalty > self.threshold if self.threshold_strict else penalty >= self.threshold
