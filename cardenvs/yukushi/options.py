"""Options of ``cardenvs/yukushi-v0`` (spec ``shared/rules/yukushi.md``, ambiguity table §8)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from cardenvs.core.cards import SMALL_DECK_SIZES, Deck, highest_ranks_deck
from cardenvs.core.challenge import CHALLENGE_MODELS, ChallengeModel
from cardenvs.core.options import require

DealFrom = Literal["leader", "dealer"]


@dataclass(frozen=True)
class YukushiOptions:
    """Options of ``cardenvs/yukushi-v0``; the defaults follow the spec."""

    num_players: int = 4
    """2–8 players (spec A11; 4–6 recommended)."""
    challenge_model: ChallengeModel = "A"
    """How the asynchronous ゆくし is serialised (spec §5, A3): ``"A"`` simultaneous window, ``"B"`` priority
    poll, ``"C"`` only the player to act may call."""
    window_before_flush: bool = True
    """A last window when the passes come round, before the pile is flushed (spec A5; models A and B)."""
    allow_count_mismatch: bool = False
    """Plays declare a count apart from the cards placed (seed FAQ, spec A1); the number of cards placed and
    hand sizes are then hidden, and a count that differs is a lie."""
    max_play: int = 4
    """Most cards in one play (spec A2); more than 4 is always a lie."""
    play_to_ranking: bool = False
    """Play on until one player holds cards; rewards by finishing order (spec A6). Default: the first player
    out wins and the game ends."""
    forbid_exhausted_rank: bool = False
    """A lead may not declare a rank whose four cards are publicly known to be in other hands (spec A12)."""
    deal_from: DealFrom = "leader"
    """The first card goes to the initiative holder (seed) or, ``"dealer"``, to the player on its right who
    deals (circle9's rewrite; spec A13)."""
    leader: int | None = None
    """Initiative holder of the first game; ``None`` draws one at random (spec A10)."""
    n_games: int = 1
    """Games in one episode (a match); the previous winner leads and deals the next game."""
    deck_size: int = 52
    """The 52-card pack, or a smaller deck of the highest ranks (8 = K and A, 12, …, 48; four cards a rank): the
    small variants that OpenSpiel solves exactly. Not in the seed."""

    def __post_init__(self) -> None:
        require(2 <= self.num_players <= 8, f"num_players must be 2–8 for Yukushi, got {self.num_players}")
        require(
            self.challenge_model in CHALLENGE_MODELS,
            f"challenge_model must be one of {', '.join(CHALLENGE_MODELS)}, got {self.challenge_model!r}",
        )
        require(1 <= self.max_play <= 8, f"max_play must be 1–8 (4 is the seed's most), got {self.max_play}")
        require(
            self.deck_size == 52 or self.deck_size in SMALL_DECK_SIZES,
            f"deck_size must be 52 or a smaller deck of the highest ranks (8, 12, …, 48), got {self.deck_size}",
        )
        require(self.n_games >= 1, f"n_games must be at least 1, got {self.n_games}")
        require(
            self.leader is None or 0 <= self.leader < self.num_players,
            f"leader must be None or a seat 0..{self.num_players - 1}, got {self.leader}",
        )

    @property
    def deck(self) -> Deck:
        """The pack dealt: the ``deck_size // 4`` highest ranks, four cards each."""
        return highest_ranks_deck(self.deck_size // 4)

    @property
    def counts_public(self) -> bool:
        """Whether the number of cards placed (and so hand sizes) is public."""
        return not self.allow_count_mismatch
