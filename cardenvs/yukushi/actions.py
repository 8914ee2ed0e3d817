"""Action ids of Yukushi (a stable contract: see the docs page's action table).

With ``M = max_play`` the ids are::

    0              challenge        say ゆくし: turn over the latest play
    1              decline          (window) let the latest play stand
    2              pass             (turn) pass
    3 .. 15        declare(r)       lead: declare the run's rank
    16 .. 28       pick(r)          add one card of rank r to the play being built
    29             done             finish the play
    30 .. 29+M     count(m)         (allow_count_mismatch) declare "m cards" for the play being built

A play is built in sub-steps by the same player: ``declare`` (lead only), ``count`` (only with
``allow_count_mismatch``), one ``pick`` per card in non-decreasing rank order, then ``done`` (implicit once no
further pick is possible).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from cardenvs.core.claim_moves import Challenge, ClaimMove, claim_action_blocks
from cardenvs.core.layout import ActionTable


@dataclass(frozen=True, slots=True)
class Decline:
    """(window) Let the latest play stand."""


@dataclass(frozen=True, slots=True)
class Pass:
    """(turn) Pass: place no cards."""


YukushiMove = ClaimMove | Challenge | Decline | Pass
"""A complete move: a claim, a call of ゆくし, a decline in a window, or a pass."""


@cache
def action_table(rank_labels: tuple[str, ...], max_play: int) -> ActionTable:
    """The action table for ranks labelled ``rank_labels`` and plays of at most ``max_play`` cards."""
    return ActionTable(
        [
            ("challenge", [""], "say ゆくし: turn over the latest play (in a window, or with the turn action)"),
            ("decline", [""], "(window) let the latest play stand"),
            ("pass", [""], "(turn, pile not empty) pass"),
            *claim_action_blocks(rank_labels),
            (
                "count",
                [str(m) for m in range(1, max_play + 1)],
                "(`allow_count_mismatch`) declare the count of the play being built",
            ),
        ]
    )
