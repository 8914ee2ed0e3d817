"""Options of ``cardenvs/zheng_shang_you-v0`` (spec ``shared/rules/zheng_shang_you.md`` §8)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from cardenvs.core.options import require
from cardenvs.zheng_shang_you.combos import ComboRules
from cardenvs.zheng_shang_you.ranks import ACE, TWO

TeamMode = Literal["individual", "partners", "san_jia_xi"]
Episode = Literal["match", "deal"]
RewardMode = Literal["place", "match_points"]
TieRule = Literal["extra_deal", "shared"]

SJX_PLACE_SETS: tuple[str, ...] = tuple(",".join(map(str, c)) for c in itertools.combinations(range(1, 7), 3))
"""The 20 keys of a San Jia Xi table: a team's three places, ascending, e.g. ``"1,2,4"``."""


def provisional_sjx_table() -> dict[str, int]:
    """The spec's **provisional, unverified** San Jia Xi table (§6.3): the team of 1st and 2nd scores
    ``9 - place of its third member`` (6, 5, 4, 3); if 1st and 2nd are on different teams, the team of 1st
    scores 2 and the team of 2nd scores 1; every other team scores 0. Not from the source."""
    table = {}
    for key in SJX_PLACE_SETS:
        places = [int(x) for x in key.split(",")]
        if places[:2] == [1, 2]:
            table[key] = 9 - places[2]
        else:
            table[key] = 2 if 1 in places else 1 if 2 in places else 0
    return table


@dataclass(frozen=True)
class ZsyOptions:
    """Options of ``cardenvs/zheng_shang_you-v0``; defaults follow the spec."""

    num_players: int = 4
    """4–6 players."""
    team_mode: TeamMode = "individual"
    """``individual``; ``partners``: 2 v 2 with four players, partners opposite, points added;
    ``san_jia_xi``: 3 v 3 with six players (San Jia Xi / Huo Jian), alternate seats."""
    episode: Episode = "match"
    """``match``: one episode is a whole match to the target; ``deal``: one episode is one deal (a first deal,
    so there is no card exchange)."""
    target_points: int | None = None
    """Points that end the match; ``None``: 11 (individual, and partners — A4), 50 (San Jia Xi)."""
    reward_mode: RewardMode = "place"
    """``place``: zero-sum, by finishing place (deal episodes) or by final match standing (match episodes);
    ``match_points``: after every deal, the points the player's scoring unit won in it."""
    exchange: bool = True
    """(A7) the card exchange before every deal but the first (team games included)."""
    return_face_up: bool = True
    """(A6) the cards 1st and 2nd give back are placed face up (public) rather than face down."""
    joker_keeps_suitedness: bool = True
    """(A2) a sequence whose natural cards share a suit is suited even with jokers in it."""
    set_sequence_top: Literal["A", "2"] = "A"
    """(A5) highest rank of a set sequence; with ``"2"`` a run may end K-A-2, its 2-rank group being natural 2s."""
    tie_rule: TieRule = "extra_deal"
    """(A3) when the match ends with the best total shared: play another deal, or let the tied share the win."""
    next_dealer_place: int | None = None
    """(A10) the place in the previous deal of the next dealer; ``None``: 3rd (5th in San Jia Xi)."""
    first_dealer: int | None = None
    """Dealer of the first deal; ``None`` draws one (San Jia Xi always uses its shown card)."""
    sjx_score_table: dict[str, int] | None = None
    """(A1) San Jia Xi points of a team by its three places (keys ``"1,2,3"`` … ``"4,5,6"``, all 20);
    ``None``: the spec's provisional table (:func:`provisional_sjx_table`), **unverified against the source**."""

    def __post_init__(self) -> None:
        n = self.num_players
        require(4 <= n <= 6, f"num_players must be 4–6 for Zheng Shang You, got {n}")
        require(
            self.team_mode != "partners" or n == 4,
            f"team_mode='partners' (2 v 2) needs num_players=4, got {n}",
        )
        require(
            self.team_mode != "san_jia_xi" or n == 6,
            f"team_mode='san_jia_xi' (3 v 3) needs num_players=6, got {n}",
        )
        require(
            self.target_points is None or self.target_points >= 1,
            f"target_points must be None or a positive int, got {self.target_points}",
        )
        require(
            self.next_dealer_place is None or 1 <= self.next_dealer_place <= n,
            f"next_dealer_place must be None or a place 1..{n}, got {self.next_dealer_place}",
        )
        require(
            self.first_dealer is None or 0 <= self.first_dealer < n,
            f"first_dealer must be None or a seat 0..{n - 1}, got {self.first_dealer}",
        )
        require(
            self.first_dealer is None or self.team_mode != "san_jia_xi",
            "first_dealer cannot be set with team_mode='san_jia_xi': the shown card picks the first dealer",
        )
        if self.sjx_score_table is not None:
            table = self.sjx_score_table
            require(
                self.team_mode == "san_jia_xi",
                f"sjx_score_table only applies to team_mode='san_jia_xi', not {self.team_mode!r}",
            )
            require(
                sorted(table) == sorted(SJX_PLACE_SETS),
                f"sjx_score_table needs exactly the 20 keys {', '.join(SJX_PLACE_SETS)}; got {sorted(table)}",
            )
            bad = {k: v for k, v in table.items() if isinstance(v, bool) or not isinstance(v, int) or v < 0}
            require(not bad, f"sjx_score_table values must be non-negative ints, got {bad}")

    @property
    def target(self) -> int:
        """Points that end the match."""
        if self.target_points is not None:
            return self.target_points
        return 50 if self.team_mode == "san_jia_xi" else 11

    @property
    def dealer_place(self) -> int:
        """Place (1-based) in the previous deal of the next dealer."""
        if self.next_dealer_place is not None:
            return self.next_dealer_place
        return 5 if self.team_mode == "san_jia_xi" else 3

    @property
    def combo_rules(self) -> ComboRules:
        return ComboRules(self.joker_keeps_suitedness, TWO if self.set_sequence_top == "2" else ACE)

    @property
    def teams(self) -> tuple[int, ...]:
        """Scoring unit of each seat: the seat itself, or its team (seat parity: partners sit opposite,
        San Jia Xi teams alternate)."""
        if self.team_mode == "individual":
            return tuple(range(self.num_players))
        return tuple(seat % 2 for seat in range(self.num_players))

    @property
    def num_units(self) -> int:
        return self.num_players if self.team_mode == "individual" else 2

    @cached_property
    def sjx_table(self) -> dict[str, int]:
        """The San Jia Xi table in force."""
        return dict(self.sjx_score_table) if self.sjx_score_table is not None else provisional_sjx_table()
