"""Observation layout and encoder of Goninkan and Yoninkan.

Seat-relative: me first, then everybody else in play order from my right, following the current seating
(Goninkan's seat swaps change it) and including a dealer who sits out. Card vectors use the deck's index
order (plain cards by ascending card id, the joker last).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np

from cardenvs.core.layout import ObservationLayout
from cardenvs.core.tricks import in_play_order
from cardenvs.goninkan.knowledge import KANKEI, MUKAN, team_view
from cardenvs.goninkan.scoring import HONOURS

if TYPE_CHECKING:
    from cardenvs.goninkan.game import KankeiGame
    from cardenvs.goninkan.ruleset import Ruleset

POINT_SCALE = 16.0
"""Points are divided by this in observations."""
DECISIONS = ("play", "declare", "lead_choice", "show", "trump", "sweep", "blind_swap")


def round_point_bound(rules: Ruleset) -> float:
    """An upper bound on |points| one player can score in a round (3 deals), for the observation bounds."""
    t = rules.scores
    stakes = [*t.juroku, *t.rev_juroku, *(v for pair in t.declared.values() for v in pair)]
    per_deal = 2 + t.rev_skunk_d1_bonus + 1 + t.rev_skunk_later_bonus + 6 * max(stakes)
    return 3.0 * per_deal


def observation_layout(rules: Ruleset, n_rounds: int) -> ObservationLayout:
    """The named layout for one ruleset and match length."""
    return _layout(rules.num_players, rules.cards.size, round_point_bound(rules) / POINT_SCALE, n_rounds)


@cache
def _layout(n: int, d: int, rb: float, n_rounds: int) -> ObservationLayout:
    mb = rb * n_rounds
    return ObservationLayout(
        [
            # --- features that change from step to step
            ("hand", d, 1, "my cards"),
            ("played", n * d, 1, "cards each relative seat has played this deal (the trick history)"),
            ("trick", n * d, 1, "cards each relative seat has played to the trick in progress"),
            (
                "known_cards",
                (n - 1) * d,
                1,
                "per other relative seat: cards I know it holds (my partner's key card, the 二重関 exchange, the "
                "two cards shown to me, a holding made public)",
            ),
            ("hand_sizes", n, 10, "cards held by each relative seat"),
            ("voids", n * 4, 1, "per relative seat: suits ♣♦♥♠ it has shown to be out of this deal"),
            ("led_suit", 4, 1, "suit to follow in the trick in progress (the named suit after a joker lead)"),
            ("trick_number", 10, 1, "one-hot: the trick in progress or about to start"),
            ("leader", n, 1, "relative seat that leads (led) the trick in progress"),
            ("trick_winner", n, 1, "relative seat whose card is winning the trick in progress so far"),
            ("kankei", n, 1, "relative seats I know to be 関係"),
            ("mukan", n, 1, "relative seats I know to be 無関係"),
            ("teams_known", 1, 1, "1 when I know every player's side"),
            ("honours", n, HONOURS, "honours (A K Q J) each relative seat has taken this deal"),
            ("side_honours", 2, HONOURS, "honours of the 関係 and 無関係 sides (0 while I do not know the teams)"),
            ("decision", len(DECISIONS), 1, "(my turn) one-hot: " + ", ".join(DECISIONS)),
            ("show_pick", d, 1, "(my turn, show) the first card I picked"),
            ("declaration_pick", 5, 1, "(my turn, trick 1) the declaration chosen for my card: none + 4 kinds"),
            # --- features that change a few times a deal (cached per observer)
            ("trump", 4, 1, "trump suit ♣♦♥♠ (all 0 before a deal-2/3 trump is chosen)"),
            ("deal1_trump", 4, 1, "this round's deal-1 trump (it fixes the key cards)"),
            ("deal_number", 3, 1, "one-hot: deal 1, 2 or 3 of the round"),
            ("dealer", n, 1, "relative seat of the dealer (with 6 players: sits out, scores with 関係)"),
            ("targets", 3, HONOURS, "this deal: 関係 target, 無関係 count that defeats it, skunk count"),
            (
                "declarations",
                n * 4,
                1,
                "live declarations per relative seat: スコンク じゅうろく 逆スコンク 逆じゅうろく",
            ),
            ("round_points", n, rb, "this round's points so far per relative seat (provisional), /16", -rb),
            ("match_points", n, mb, "points of the finished rounds of this episode per relative seat, /16", -mb),
            ("rounds", 2, 1, "share of the match's rounds finished; 1 if this is the match's last round"),
        ]
    )


_NOTHING_KNOWN = np.int8(-1).tobytes()
"""One card of ``game.known`` that nobody is known to hold."""
_SIDES = np.array([[KANKEI], [MUKAN]])
"""Compared with a team view: the ``kankei`` and ``mukan`` features in one operation."""

STATIC_FROM = "trump"
"""First feature of the block that :func:`encode` caches per observer (``game.static_version``)."""


@cache
def _offsets(layout: ObservationLayout) -> dict[str, int]:
    offsets = {name: f.offset for name, f in layout.features.items()}
    assert offsets["mukan"] == offsets["kankei"] + layout.features["kankei"].size, "encode writes both at once"
    return offsets


def layout_of(game: KankeiGame[Any]) -> ObservationLayout:
    """The layout of ``game``'s rules and match length."""
    return observation_layout(game.rules, game.options.n_rounds)


def encode(game: KankeiGame[Any], me: int, out: np.ndarray | None = None, cached: bool = True) -> np.ndarray:
    """Player ``me``'s observation vector (``cached=False`` rebuilds the slowly-changing block from scratch;
    written into ``out`` when given)."""
    layout = game.layout
    o = _offsets(layout)
    if out is None:
        obs = np.zeros(layout.size, dtype=np.float32)
    else:
        obs = out
        obs.fill(0.0)
    n, d = game.num_players, game.deck_size
    order = game.order_index[me]
    relative = game.relative[me]
    obs[o["hand"] : o["hand"] + d] = game.hand_vec[me]
    obs[o["played"] : o["played"] + n * d] = in_play_order(game.played.by_seat, order)
    obs[o["trick"] : o["trick"] + n * d] = in_play_order(game.in_trick.by_seat, order)
    known = game.known[me]
    if known.tobytes() != _NOTHING_KNOWN * known.size:  # some card known (cheaper than a reduction)
        others = order[1:, None]
        obs[o["known_cards"] : o["known_cards"] + (n - 1) * d] = (known[None, :] == others).ravel()
    obs[o["hand_sizes"] : o["hand_sizes"] + n] = game.hand_sizes[order]
    if game.voids != [0] * n:
        obs[o["voids"] : o["voids"] + 4 * n] = in_play_order(game.void_mat, order)
    trick = game.trick
    if len(trick):
        obs[o["led_suit"] + trick.led_suit] = 1
    obs[o["trick_number"] + min(game.trick_no, 10) - 1] = 1
    if trick.leader >= 0:
        obs[o["leader"] + relative[trick.leader]] = 1
    if game.trick_leading >= 0:
        obs[o["trick_winner"] + relative[game.trick_leading]] = 1
    view = team_view(game, me)[order]
    obs[o["kankei"] : o["kankei"] + 2 * n] = (view == _SIDES).ravel()  # kankei then mukan (adjacent)
    obs[o["honours"] : o["honours"] + n] = game.honours[order]
    if game.knows_all[me]:
        obs[o["teams_known"]] = 1
        obs[o["side_honours"] : o["side_honours"] + 2] = game.side_honours
    if game.current_player == me:
        obs[o["decision"] + game.decision_type()] = 1
        if game.pending_show >= 0:
            obs[o["show_pick"] + game.pending_show] = 1
        if game.decl_choice is not None:
            obs[o["declaration_pick"] + game.decl_choice + 1] = 1
    version, block = game.static_cache[me]
    if not cached or version != game.static_version or block is None:
        block = _static_block(game, me, o)
        game.static_cache[me] = (game.static_version, block)
    obs[o[STATIC_FROM] :] = block
    return obs


def _static_block(game: KankeiGame[Any], me: int, o: dict[str, int]) -> np.ndarray:
    """The features from ``STATIC_FROM`` on, for observer ``me``."""
    start = o[STATIC_FROM]
    block = np.zeros(game.layout.size - start, dtype=np.float32)
    n = game.num_players
    order = game.order_index[me]
    relative = game.relative[me]

    def at(name: str) -> int:
        return o[name] - start

    if game.trump >= 0:
        block[at("trump") + game.trump] = 1
    block[at("deal1_trump") + game.deal1_trump] = 1
    block[at("deal_number") + game.deal - 1] = 1
    block[at("dealer") + relative[game.dealer]] = 1
    table, deal = game.rules.scores, game.deal
    block[at("targets") : at("targets") + 3] = (table.target(deal), table.fail_need(deal), table.skunk(deal))
    for decl in game.declarations:
        block[at("declarations") + 4 * relative[decl.player] + decl.kind] = 1
    block[at("round_points") : at("round_points") + n] = game.round_points[order] / POINT_SCALE
    block[at("match_points") : at("match_points") + n] = game.match_points[order] / POINT_SCALE
    block[at("rounds")] = game.rounds_played / game.options.n_rounds
    block[at("rounds") + 1] = game.round_number == game.options.n_rounds
    return block
