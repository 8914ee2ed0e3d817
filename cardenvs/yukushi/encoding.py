"""Observation layout and encoder of Yukushi (seat-relative: me first, then clockwise).

The shared claim groups (:func:`~cardenvs.core.claim_encoding.claim_feature_groups`) carry hands, the pile, certain
knowledge of the others' hands and the play under construction; Yukushi adds declared counts, the turn, passes,
the open challenge window as far as the observer may know it, the cards flushed unseen, who is out and the match.
Nothing about another player's choice in a simultaneous window (model A) is encoded before the window closes.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from cardenvs.core.claim_encoding import (
    claim_feature_groups,
    encode_building,
    encode_claims,
    encode_match,
    match_feature_groups,
)
from cardenvs.core.layout import ObservationLayout
from cardenvs.yukushi.rules import YukushiGame

PHASES = ("declare", "declare_count", "window", "turn", "picking")
HIDDEN_COUNT_GROUPS = ("pile_size", "last_play_count", "pile_by_seat", "hand_sizes")
"""Shared groups that stay zero under ``allow_count_mismatch`` (the observer's own hand size excepted)."""


@cache
def observation_layout(
    num_players: int, max_play: int, n_games: int = 1, num_ranks: int = 13, deck_size: int = 52
) -> ObservationLayout:
    """The named layout for ``num_players`` players and a deck of ``deck_size`` cards in ``num_ranks`` ranks."""
    n = num_players
    return ObservationLayout(
        [
            *claim_feature_groups(n, num_ranks, deck_size),
            (
                "declared_count",
                1,
                deck_size,
                "count declared by the latest play (the cards placed, unless allow_count_mismatch)",
            ),
            ("pile_declared", 1, deck_size * 8, "sum of the counts declared on the current pile"),
            ("building_count", max_play, 1, "(my turn, allow_count_mismatch) one-hot count declared for my play"),
            ("turn", n, 1, "one-hot relative seat whose turn it is to lead, play or pass"),
            ("passes", 1, n, "passes since the latest play"),
            ("window_eligible", n, 1, "relative seats that may call ゆくし in the open window"),
            ("window_declined", n, 1, "(challenge_model B) relative seats that declined in the open window so far"),
            (
                "flushed_unseen",
                1,
                deck_size,
                "cards the others put into flushed piles, never seen (0 if counts are hidden)",
            ),
            ("flushed_mine", 1, deck_size, "cards I put into flushed piles"),
            ("out", n, 1, "relative seats that have gone out"),
            ("phase", len(PHASES), 1, "(my decision) one-hot: " + ", ".join(PHASES)),
            *match_feature_groups(n, n_games),
        ]
    )


def layout_of(game: YukushiGame) -> ObservationLayout:
    """The layout of ``game``'s options."""
    options = game.options
    return observation_layout(options.num_players, options.max_play, options.n_games, game.num_ranks, game.deck.size)


def encode(game: YukushiGame, me: int, out: np.ndarray | None = None) -> np.ndarray:
    """Player ``me``'s observation vector (written into ``out`` when given)."""
    layout = game.layout
    obs = np.zeros(layout.size, dtype=np.float32) if out is None else out
    if out is not None:
        out.fill(0.0)
    encode_claims(game.table, obs, layout, me)
    encode_building(game.table, obs, layout, me, game.current_player)
    order = game.table.orders[me]
    _encode_counts(game, me, obs)
    _encode_turn(game, me, obs, order)
    if game.exit_order:
        obs[layout.slices["out"]] = np.asarray(game.out, dtype=np.float32)[order]
    encode_match(obs, layout, order, game.match_points, game.games_played, game.options.n_games)
    return obs


def _encode_counts(game: YukushiGame, me: int, obs: np.ndarray) -> None:
    """Declared counts, flushed cards, and (under allow_count_mismatch) the hiding of physical counts."""
    s, o = game.layout.slices, game.layout.offsets
    table = game.table
    if not game.counts_public:
        for name in HIDDEN_COUNT_GROUPS:
            obs[s[name]] = 0.0
        obs[o["hand_sizes"]] = table.hand_sizes[me]
    if table.plays:
        obs[o["declared_count"]] = table.plays[-1].declared_count
        obs[o["pile_declared"]] = game.pile_declared
    mine = game.flushed_counts[me]
    if game.counts_public:
        obs[o["flushed_unseen"]] = game.flushed_total - mine
    obs[o["flushed_mine"]] = mine


def _encode_turn(game: YukushiGame, me: int, obs: np.ndarray, order: np.ndarray) -> None:
    """Whose turn it is, passes, my decision's phase and declared count, and the open window's public part."""
    s, o = game.layout.slices, game.layout.offsets
    decider = game.current_player
    if decider >= 0:
        obs[o["turn"] + (game.turn - me) % game.num_players] = 1.0
        if decider == me:
            obs[o["phase"] + game.phase()] = 1.0
            declared = game.table.building_declared_count
            if declared > 0:
                obs[o["building_count"] + declared - 1] = 1.0
    obs[o["passes"]] = game.passes
    window = game.window
    if window is not None:
        obs[s["window_eligible"]] = window.eligible_mask[order]
        if window.model == "B" and window.decided:
            obs[s["window_declined"]] = window.decided_mask()[order]
