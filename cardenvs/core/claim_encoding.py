"""Observation groups of the claim-and-challenge games (Verish' ne verish', Yukushi): the claim groups every such
game shares, read from a :class:`~cardenvs.core.bluffing.ClaimTable`, and the groups of a match of several games."""

from __future__ import annotations

import numpy as np

from cardenvs.core.bluffing import ClaimTable
from cardenvs.core.layout import ObservationLayout


def claim_feature_groups(num_players: int, num_ranks: int, deck_size: int) -> list[tuple[str, int, float, str]]:
    """Observation groups shared by the bluffing games, in the order :meth:`ClaimTable.encode` writes them."""
    n, r, d = num_players, num_ranks, float(deck_size)
    return [
        ("hand", r, 4, "my cards, count per rank"),
        ("unseen", r, 4, "copies per rank not in my hand, not mine in the pile and not removed face up or by me"),
        ("claim_rank", r, 1, "one-hot rank claimed for the current pile (all 0 when the pile is empty)"),
        ("pile_size", 1, d, "cards in the face-down pile"),
        ("pile_plays", 1, d, "plays made on the current pile"),
        ("my_cards_in_pile", r, 4, "my own cards in the pile, count per rank"),
        ("last_play_count", 1, d, "cards placed by the latest play"),
        ("last_play_by", n, 1, "one-hot relative seat of the latest play's owner"),
        ("pile_by_seat", n, d, "cards each relative seat put into the current pile"),
        ("hand_sizes", n, d, "cards held by each relative seat"),
        ("known_held", (n - 1) * r, 4, "per other relative seat: cards of each rank I know for certain it still holds"),
        ("to_act", n, 1, "one-hot relative seat of the player to decide"),
        ("building_rank", r, 1, "(my turn) one-hot rank declared for the play I am building"),
        ("building_cards", r, 4, "(my turn) cards picked so far for the play I am building"),
    ]


def match_feature_groups(num_players: int, n_games: int) -> list[tuple[str, int, float, str, float]]:
    """The groups of a match of several games, written by :func:`encode_match`."""
    return [
        ("match_points", num_players, n_games, "rewards won so far in this match, per relative seat", -n_games),
        ("games_left", 1, 1, "share of the match's games still to play, this one included", 0),
    ]


def encode_match(
    obs: np.ndarray, layout: ObservationLayout, order: np.ndarray, points: np.ndarray, played: int, n_games: int
) -> None:
    """Write the match groups: points per relative seat (``order``) and the share of games left."""
    if n_games > 1:
        obs[layout.slices["match_points"]] = points[order]
    obs[layout.offsets["games_left"]] = (n_games - played) / n_games


def encode_claims(table: ClaimTable, obs: np.ndarray, layout: ObservationLayout, me: int) -> None:
    """Write the shared feature groups of ``me``'s observation into ``obs`` (seat-relative), all but the player to act
    and the play under construction (:func:`encode_building`)."""
    n = table.num_players
    order = table.orders[me]
    s, o = layout.slices, layout.offsets
    hand = table.hands[me]
    mine_in_pile = table.pile_by_seat[me]
    obs[s["hand"]] = hand
    obs[s["unseen"]] = table.rank_totals - hand - mine_in_pile - table.removed_public - table.removed_own[me]
    if table.claim_rank >= 0:
        obs[o["claim_rank"] + table.claim_rank] = 1.0
        latest = table.plays[-1]
        obs[o["last_play_count"]] = latest.count
        obs[o["last_play_by"] + (latest.seat - me) % n] = 1.0
        obs[o["pile_size"]] = table.pile_size
        obs[o["pile_plays"]] = len(table.plays)
        obs[s["my_cards_in_pile"]] = mine_in_pile
        obs[s["pile_by_seat"]] = table.pile_count_by_seat[order]
    sizes = table.hand_sizes
    obs[s["hand_sizes"]] = sizes[me:] + sizes[:me]  # seat-relative, as ``orders[me]``
    obs[s["known_held"]] = table.known_held.take(table.known_index[me])


def encode_building(table: ClaimTable, obs: np.ndarray, layout: ObservationLayout, me: int, to_act: int) -> None:
    """Write who is to act and the play ``me`` is building, when it is ``me``'s turn (the groups that change between
    events)."""
    if to_act >= 0:
        obs[layout.offsets["to_act"] + (to_act - me) % table.num_players] = 1.0
    if to_act == me:
        if table.building_rank >= 0:
            obs[layout.offsets["building_rank"] + table.building_rank] = 1.0
        if table.building_count:
            obs[layout.slices["building_cards"]] = table.building
