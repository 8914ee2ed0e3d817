"""Observation layout and encoder of Zheng Shang You (seat-relative: me first, then in play order).

Cards are indexed in strength order (pick indices: 3♣ 3♦ 3♥ 3♠ 4♣ … 2♠ BJ RJ), like the ``pick`` actions.
Everything a player may know is here: its hand, who played which cards this deal, the cards it knows
others hold (from the exchange or the San Jia Xi shown card), the combination to beat, passes, places,
scores; and, on its own turn only, the phase and the move under construction.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from cardenvs.core.layout import ObservationLayout
from cardenvs.zheng_shang_you.actions import NUM_TOPS
from cardenvs.zheng_shang_you.combos import MAX_HAND, SEQUENCE, lead_shapes, shape_index
from cardenvs.zheng_shang_you.exchange import STAGES
from cardenvs.zheng_shang_you.ranks import NUM_CARDS, NUM_VALUES
from cardenvs.zheng_shang_you.tables import MAX_TOTAL_RATIO, SEAT_ROWS

if TYPE_CHECKING:
    from cardenvs.zheng_shang_you.rules import ZsyRules

PHASES = ("lead", "follow", "declare_top", "pick", *STAGES)
"""``lead``: choose a shape; ``follow``: pass or start a play; ``declare_top``/``pick``: build a play;
then the four exchange stages."""
MAX_DEALS = 50


@cache
def observation_layout(num_players: int) -> ObservationLayout:
    """The named layout for ``num_players`` players."""
    n, shapes = num_players, len(lead_shapes())
    seat = "per relative seat (me first, then in play order)"
    return ObservationLayout(
        [
            ("hand", NUM_CARDS, 1, "my cards, strength order 3♣ … 2♠ BJ RJ"),
            # The next six groups are one (6, n) table of the engine (SEAT_ROWS): keep them adjacent, in order.
            ("hand_sizes", n, MAX_HAND + 1, f"cards held, {seat}; 15 in mid-exchange"),
            ("passed", n, 1, "relative seats that passed since the last play of this trick"),
            ("places", n, 1, "finishing place / n of relative seats already out (0: still holding cards)"),
            ("dealer", n, 1, "one-hot relative seat of this deal's dealer"),
            ("totals", n, MAX_TOTAL_RATIO, "match points of each relative seat's scoring unit / target"),
            ("prev_places", n, 1, "places in the previous deal / n (zero in the first deal)"),
            ("teammates", n, 1, "relative seats of my scoring unit (me included; only me in the individual game)"),
            ("played", n * NUM_CARDS, 1, f"cards played this deal, {seat}"),
            (
                "known_held",
                (n - 1) * NUM_CARDS,
                1,
                "cards I know the other relative seats hold (exchange, shown card)",
            ),
            ("top_cards", NUM_CARDS, 1, "cards of the combination to beat (all zero when leading)"),
            ("top_shape", shapes, 1, "one-hot shape of the combination to beat, in `shape` action order"),
            ("top_rank", NUM_VALUES, 1, "one-hot top rank of the combination to beat (3 … RJ)"),
            ("top_flags", 2, 1, "the combination to beat is wild (holds a stand-in), is a suited sequence"),
            ("top_by", n, 1, "one-hot relative seat that played the combination to beat"),
            ("deals_played", 1, MAX_DEALS, "deals finished in this match"),
            ("phase", len(PHASES), 1, "(my turn) one-hot: " + ", ".join(PHASES)),
            ("build_shape", shapes, 1, "(my turn) one-hot shape chosen for the play being built"),
            ("build_top", NUM_TOPS, 1, "(my turn) one-hot top rank declared for the (set) sequence being built"),
            ("build_cards", NUM_CARDS, 1, "(my turn) cards picked so far for the play being built"),
            ("exchange_stage", len(STAGES), 1, "one-hot exchange stage in progress (public)"),
            ("table_cards", 2 * NUM_CARDS, 1, "exchange cards on the table I can see: better-, worse-placed giver's"),
        ]
    )


@dataclass(frozen=True, slots=True)
class _Offsets:
    """Plain-int offsets of the feature groups (cheaper than layout lookups in the step path)."""

    hand: int
    hand_sizes: int
    played: int
    known_held: int
    top_cards: int
    top_shape: int
    top_rank: int
    top_flags: int
    top_by: int
    passed: int
    places: int
    dealer: int
    teammates: int
    totals: int
    prev_places: int
    deals_played: int
    phase: int
    build_shape: int
    build_top: int
    build_cards: int
    exchange_stage: int
    table_cards: int


@cache
def _offsets(num_players: int) -> _Offsets:
    features = observation_layout(num_players).features
    first = features[SEAT_ROWS[0]].offset
    assert all(features[name].offset == first + k * num_players for k, name in enumerate(SEAT_ROWS))
    return _Offsets(**{name: f.offset for name, f in features.items()})


@cache
def _seat_rows_index(num_players: int, me: int) -> np.ndarray:
    """Flat indices into the engine's ``(6, n)`` seat table that read it seat-relative for ``me``."""
    order = [(me + k) % num_players for k in range(num_players)]
    return np.array([row * num_players + seat for row in range(len(SEAT_ROWS)) for seat in order])


def layout_of(game: ZsyRules) -> ObservationLayout:
    """The layout of ``game``'s player count."""
    return observation_layout(game.num_players)


def encode(game: ZsyRules, me: int, out: np.ndarray | None = None) -> np.ndarray:
    """Player ``me``'s observation vector (written into ``out`` when given)."""
    n = game.num_players
    o: _Offsets = _offsets(n)
    if out is None:
        obs = np.zeros(game.layout.size, dtype=np.float32)
    else:
        obs = out
        obs.fill(0.0)
    obs[o.hand : o.hand + NUM_CARDS] = game.hand_vec[me]
    game.seats.reshape(-1).take(_seat_rows_index(n, me), out=obs[o.hand_sizes : o.hand_sizes + len(SEAT_ROWS) * n])
    obs[o.teammates : o.teammates + n] = game.teammates[me]
    obs[o.played : o.played + n * NUM_CARDS] = game.played.flat(me)
    obs[o.known_held : o.known_held + (n - 1) * NUM_CARDS] = game.known.flat(me, 1)
    top = game.top
    if top is not None:
        for p in top.cards:  # scalar writes beat fancy indexing for a handful of cards
            obs[o.top_cards + p] = 1.0
        obs[o.top_shape + shape_index()[top.shape]] = 1.0
        obs[o.top_rank + top.top] = 1.0
        obs[o.top_flags] = top.wild
        obs[o.top_flags + 1] = top.suited
        obs[o.top_by + (game.top_seat - me) % n] = 1.0
    obs[o.deals_played] = min(game.deals_played, MAX_DEALS)
    state = game.exchange
    if state is not None:
        obs[o.exchange_stage + state.stage] = 1.0
        for slot, card in enumerate(state.table):
            if card >= 0 and (state.revealed or state.givers[slot] == me):
                obs[o.table_cards + slot * NUM_CARDS + card] = 1.0
    if game.current_player == me:
        _encode_my_turn(game, obs, o)
    return obs


def _encode_my_turn(game: ZsyRules, obs: np.ndarray, o: _Offsets) -> None:
    state = game.exchange
    if state is not None:
        obs[o.phase + 4 + state.stage] = 1.0
        return
    b = game.builder
    assert b is not None
    if b.shape is None:
        phase = 0
    elif not b.started:
        phase = 1
    else:
        phase = 2 if b.needs_top else 3
        if game.top is None:
            obs[o.build_shape + shape_index()[b.shape]] = 1.0
        if b.top >= 0 and b.shape[0] >= SEQUENCE:
            obs[o.build_top + b.top] = 1.0
        for p in b.picks:
            obs[o.build_cards + p] = 1.0
    obs[o.phase + phase] = 1.0
