"""Action ids of Verish' ne verish' (a stable contract: see the docs page's action table).

With ``R`` ranks in the deck (13 for 52 cards, 9 for 36) the ids are::

    0                 challenge      say ネ・ベリシ: turn over the previous play
    1 .. R            declare(r)     lead: declare the round's rank
    R+1 .. 2R         pick(r)        add one card of rank r to the play being built
    2R+1              done           finish the play
    2R+2 .. 3R+1      discard_quad(r)  (quad_discard_optional) discard four cards of rank r face up
    3R+2              keep_quads     (quad_discard_optional) keep the remaining quads

A play is built in sub-steps by the same player: ``declare`` (lead only), ``pick`` one card at a time with
ranks in non-decreasing order, then ``done`` (implicit once no further pick is possible: three cards
picked, or no rank left). A lead therefore takes 2–5 decisions, a follow 1–4, a challenge 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from cardenvs.core.claim_moves import Challenge, ClaimMove, claim_action_blocks
from cardenvs.core.layout import ActionTable


@dataclass(frozen=True, slots=True)
class QuadDecision:
    """(``quad_discard_optional``) the quads to discard now, ascending ranks; the others are kept."""

    discard: tuple[int, ...]


VerishMove = ClaimMove | Challenge | QuadDecision
"""A complete move: a claim, a challenge ("ネ・ベリシ") or a quad decision."""


@cache
def action_table(rank_labels: tuple[str, ...]) -> ActionTable:
    """The action table for a deck whose ranks are labelled ``rank_labels``."""
    return ActionTable(
        [
            ("challenge", [""], "say ネ・ベリシ: turn over the previous play (follow turns only)"),
            *claim_action_blocks(rank_labels),
            ("discard_quad", rank_labels, "(`quad_discard_optional`) discard the four cards of this rank face up"),
            ("keep_quads", [""], "(`quad_discard_optional`) keep the remaining quads and go on"),
        ]
    )
