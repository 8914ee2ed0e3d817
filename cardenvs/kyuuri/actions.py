"""Action ids of Kyuuri (a stable contract: see the docs page's action table).

Suits never matter in Kyuuri (ranking, the follow rule, trick winners and scores read ranks only), so an
action names a rank, not a card, and the 13 rank-level actions lose nothing::

    0 .. 12    play(r)    play one card of rank r = 2 3 4 5 6 7 8 9 10 J Q K A (ids in ascending strength)

Every move is one decision: the rank id is ``rank index`` of :mod:`cardenvs.core.cards` (``2`` = 0 … ``A`` = 12).
"""

from __future__ import annotations

from dataclasses import dataclass

from cardenvs.core.cards import NUM_RANKS, RANK_TEXT
from cardenvs.core.layout import ActionTable

ACTIONS = ActionTable(
    [("play", RANK_TEXT, "play one card of this rank (2 … A; suits are irrelevant, so any copy is the same move)")]
)
"""The 13 action ids of Kyuuri."""

assert ACTIONS.size == NUM_RANKS


@dataclass(frozen=True, slots=True)
class PlayRank:
    """The move "play a card of rank ``rank``" (canonical rank index, ``2`` = 0 … ``A`` = 12)."""

    rank: int

    def __str__(self) -> str:
        return f"play({RANK_TEXT[self.rank]})"
