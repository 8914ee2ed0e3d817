"""Observation layout and encoder of Verish' ne verish' (seat-relative: me first, then clockwise)."""

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
from cardenvs.core.observation_cache import encode_cached, encode_from_scratch
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
    """Player ``me``'s observation vector (written into ``out`` when given): the groups only a logged event changes
    kept per seat between events (see :mod:`cardenvs.core.observation_cache`)."""
    return encode_cached(game, me, out, len(game.events), _write_slow, _write_fast)


def _write_slow(game: VerishGame, me: int, obs: np.ndarray) -> None:
    """Every group but the play under construction and the phase: only a logged event changes them."""
    table = game.table
    encode_claims(table, obs, game.layout, me)
    obs[game.layout.slices["discarded"]] = game.discarded
    gone = game.out
    obs[game.layout.slices["out"]] = gone[me:] + gone[:me]  # seat-relative: me first, then clockwise
    encode_match(obs, game.layout, table.orders[me], game.match_points, game.games_played, game.options.n_games)


def _write_fast(game: VerishGame, me: int, obs: np.ndarray) -> None:
    """The play ``me`` is building and the phase of ``me``'s decision (both only on ``me``'s turn)."""
    table = game.table
    to_act = game.current_player
    encode_building(table, obs, game.layout, me, to_act)
    if to_act != me:
        return
    if game.quad_queue:
        phase = 0
    elif game.leading and table.building_rank < 0:
        phase = 1
    elif not game.leading and table.building_count == 0:
        phase = 2
    else:
        phase = 3
    obs[game.layout.offsets["phase"] + phase] = 1.0


def encode_uncached(game: VerishGame, me: int, out: np.ndarray | None = None) -> np.ndarray:
    """:func:`encode` with every group written now (the reference of the cache's tests)."""
    return encode_from_scratch(game, me, out, _write_slow, _write_fast)
