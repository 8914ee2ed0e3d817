"""Options of ``cardenvs/goninkan-v1`` and ``cardenvs/yoninkan-v1`` (spec: ``shared/rules/goninkan.md``).

Defaults follow the spec; every entry of its ambiguity table that changes play is an option. The two games
share the match structure and the scoring options (:class:`KankeiOptions`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from cardenvs.core.options import require

Episode = Literal["round", "match"]
LeadDecider = Literal["elder", "joker_holder", "ace_holder", "random"]
NijukanExchange = Literal["random", "chooser_picks_blind"]
PartnerRank = Literal["A", "J", "K"]
DoubleHolder = Literal["redeal", "one_vs_three", "opposite_partner"]
FirstLead = Literal["dealer_right", "spade_ace"]

DECLARED_BONUS_DEFAULTS: dict[str, tuple[int, int]] = {
    "skunk": (2, 4),
    "juroku": (16, 32),
    "rev_skunk_deal1": (20, 40),
    "rev_skunk": (6, 12),
    "rev_juroku": (32, 64),
}
"""Yoninkan's trick-1 declarations: (success bonus, points to the opponents on failure) (spec §10, A13)."""


@dataclass(frozen=True)
class KankeiOptions:
    """Options both games share: the match, the episode unit and the scoring readings."""

    n_rounds: int = 10
    """Rounds in a match (A14): trumps of deal 1 cycle ♣ ♦ ♥, the last round is ♠."""
    episode: Episode = "round"
    """``round``: one episode is one round (1–3 deals) of a match; ``match``: the whole ``n_rounds`` match."""
    round_number: int | None = None
    """(``episode="round"``) which round of the match the episode plays, 1-based (sets deal 1's trump);
    ``None`` draws it uniformly at random at every reset."""
    dealer: int | None = None
    """Dealer of the first round (a player index); ``None`` draws one uniformly at random."""
    play_all_tricks: bool = False
    """Play all 10 tricks even once the deal is decided (A4)."""
    rev_skunk_d1_includes_failure_point: bool = True
    """A deal-1 reverse skunk pays the failure point on top of its +10 bonus (A3)."""
    juroku_keeps_deal3_bonus: bool = True
    """A successful じゅうろく in deal 3 also gets the deal-3 +1 (A18)."""

    def __post_init__(self) -> None:
        require(self.n_rounds >= 1, f"n_rounds must be at least 1, got {self.n_rounds}")
        require(
            self.round_number is None or 1 <= self.round_number <= self.n_rounds,
            f"round_number must be None or 1..n_rounds={self.n_rounds}, got {self.round_number}",
        )
        require(
            self.round_number is None or self.episode == "round",
            "round_number only applies to episode='round' (a match always starts at round 1)",
        )
        players = self.player_count()
        require(
            self.dealer is None or 0 <= self.dealer < players,
            f"dealer must be None or a player 0..{players - 1}, got {self.dealer}",
        )

    def player_count(self) -> int:
        """Number of players (agents) of the game."""
        raise NotImplementedError


@dataclass(frozen=True)
class GoninkanOptions(KankeiOptions):
    """Options of ``cardenvs/goninkan-v1``."""

    num_players: int = 5
    """5, or 6 with a dealer who sits out each round and scores with the 関係 team."""
    nakayoshi: bool = False
    """なかよし村 rule: deal 1 succeeds with 8 honours; a deal-1 skunk still needs 9 (and a reverse skunk 9)."""
    kankei_lead_decider: LeadDecider = "elder"
    """Who says いく/こい for deal 1's lead (A2): the 関係 player first in play order after the dealer, the
    joker's holder, the trump Ace's holder (these two make that holding public), or a random member."""
    nijukan_exchange: NijukanExchange = "random"
    """二重関 exchange (A7): a chance event, or a blind choice of the opponent sitting between the partners."""

    def __post_init__(self) -> None:
        require(self.num_players in (5, 6), f"num_players must be 5 or 6 for Goninkan, got {self.num_players}")
        super().__post_init__()

    def player_count(self) -> int:
        return self.num_players


@dataclass(frozen=True)
class YoninkanOptions(KankeiOptions):
    """Options of ``cardenvs/yoninkan-v1``."""

    num_players: int = 4
    """Always 4 (use goninkan-v1 for 5 or 6)."""
    yoninkan_partner_rank: PartnerRank = "A"
    """Rank of the trump card that, with the joker, marks the hidden 関係 pair (A1)."""
    yoninkan_double: DoubleHolder = "redeal"
    """One player dealt both key cards in deal 1 (A8): deal again; play 1 against 3 (hidden as usual); or
    partner the player opposite (announced: that deal's teams are public)."""
    yoninkan_first_lead: FirstLead = "dealer_right"
    """Deal 1's opening lead (A9): the dealer's right-hand player, or the ♠A's holder, who must lead it."""
    declarations_in_deal1: bool = True
    """Allow じゅうろく / 逆じゅうろく declarations in deal 1 too (A10); スコンク-type ones always are."""
    max_declarations_per_side: int = 1
    """(A11) 1: one live declaration per side, a later partner may upgrade スコンク→じゅうろく; 2: each player of
    a side may declare, every declaration is settled on its own."""
    targets: Sequence[int] = (9, 8, 9)
    """Honours the 関係 side needs in deals 1, 2, 3 (A12); the others need 17 minus that to defeat them.
    Any sequence of three ints (stored as a tuple)."""
    declared_bonus_table: Mapping[str, Sequence[int]] | None = None
    """(A13) overrides of the declared (success, failure) points; keys from ``skunk``, ``juroku``,
    ``rev_skunk_deal1``, ``rev_skunk``, ``rev_juroku``; ``None`` keeps the spec's derived table."""
    yoninkan_joker_lead_weak_all_tricks: bool = False
    """(A17) a led joker wins only if nobody plays the named suit or a trump in every trick, not just the last."""

    def __post_init__(self) -> None:
        require(self.num_players == 4, f"Yoninkan is a 4-player game (num_players=4), got {self.num_players}")
        require(
            self.max_declarations_per_side in (1, 2),
            f"max_declarations_per_side must be 1 or 2, got {self.max_declarations_per_side}",
        )
        require(
            isinstance(self.targets, (tuple, list))
            and len(self.targets) == 3
            and all(_is_int(t) and 1 <= t <= 16 for t in self.targets),
            f"targets must be three honour counts 1..16 (deals 1, 2, 3), got {self.targets!r}",
        )
        object.__setattr__(self, "targets", tuple(self.targets))
        if self.declared_bonus_table is not None:
            table = self.declared_bonus_table
            require(isinstance(table, dict), f"declared_bonus_table must be a dict or None, got {table!r}")
            unknown = sorted(set(table) - set(DECLARED_BONUS_DEFAULTS))
            require(
                not unknown,
                f"unknown declared_bonus_table keys {unknown}; valid keys: {', '.join(DECLARED_BONUS_DEFAULTS)}",
            )
            for key, pair in table.items():
                require(
                    isinstance(pair, (tuple, list)) and len(pair) == 2 and all(_is_int(v) and v >= 0 for v in pair),
                    f"declared_bonus_table[{key!r}] must be (success, failure) non-negative ints, got {pair!r}",
                )
            object.__setattr__(self, "declared_bonus_table", {k: (v[0], v[1]) for k, v in table.items()})
        super().__post_init__()

    def player_count(self) -> int:
        return self.num_players

    def declared_bonuses(self) -> dict[str, tuple[int, int]]:
        """The declared-bonus table with overrides applied."""
        overrides = {k: (v[0], v[1]) for k, v in (self.declared_bonus_table or {}).items()}
        return {**DECLARED_BONUS_DEFAULTS, **overrides}

    @property
    def deal_targets(self) -> tuple[int, int, int]:
        """``targets`` as a typed triple."""
        return (self.targets[0], self.targets[1], self.targets[2])


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
