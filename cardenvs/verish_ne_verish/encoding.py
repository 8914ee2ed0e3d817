"""Observation layout and encoder of Verish' ne verish' (seat-relative: me first, then clockwise)."""

from __future__ import annotations

from functools import cache

import numpy as np

from cardenvs.core.claim_encoding import claim_feature_groups, encode_claims, encode_match, match_feature_groups
from cardenvs.core.layout import ObservationLayout
from cardenvs.verish_ne_verish.rules import VerishGame

PHASES = ("quad_decision", "declare", "challenge_or_pick", "picking")


@cache
def observation_layout(num_players: int, num_ranks: int, deck_size: int, n_games: int = 1) -> ObservationLayout:
    """The named layout for ``num_players`` players and a deck of ``num_ranks`` ranks."""
    n = num_players
    return ObservationLayout(
        [
            *claim_feature_groups(n, num_ranks, deck_size),
            ("discarded", num_ranks, 1, "ranks whose four cards were discarded face up"),
            ("out", n, 1, "relative seats that have gone out safely"),
            ("phase", len(PHASES), 1, "(my turn) one-hot: " + ", ".join(PHASES)),
            *match_feature_groups(n, n_games),
        ]
    )


def layout_of(game: VerishGame) -> ObservationLayout:
    """The layout of ``game``'s options and deck."""
    return observation_layout(game.num_players, game.num_ranks, game.deck.size, game.options.n_games)


def encode(game: VerishGame, me: int, out: np.ndarray | None = None) -> np.ndarray:
    """Player ``me``'s observation vector (written into ``out`` when given)."""
    layout = game.layout
    s, o = layout.slices, layout.offsets
    obs = np.zeros(layout.size, dtype=np.float32) if out is None else out
    if out is not None:
        out.fill(0.0)
    table = game.table
    to_act = game.current_player
    encode_claims(table, obs, layout, me, to_act)
    obs[s["discarded"]] = game.discarded
    gone = game.out
    obs[s["out"]] = gone[me:] + gone[:me]  # seat-relative: me first, then clockwise
    if to_act == me:
        if game.quad_queue:
            phase = 0
        elif game.leading and table.building_rank < 0:
            phase = 1
        elif not game.leading and table.building_count == 0:
            phase = 2
        else:
            phase = 3
        obs[o["phase"] + phase] = 1.0
    encode_match(obs, layout, table.orders[me], game.match_points, game.games_played, game.options.n_games)
    return obs
