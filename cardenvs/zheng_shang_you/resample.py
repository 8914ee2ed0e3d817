"""Re-dealing what one player cannot see (determinisation for search; the conformance kit's leak test).

For every other seat, the cards the observer knows it holds (exchange, shown card) stay with it; the rest
of its cards, plus an exchange card it has put face down on the table that the observer has not seen, are
pooled and re-dealt keeping every hand size. A face-down table card is then re-chosen from its giver's
cards (a highest one while the highest cards are being given), and a play another player is building is
restarted from the beginning of its turn, since its picks were hidden too.

The re-deal is uniform given sizes and known holdings; it does not condition on inferences from play
(e.g. "the giver of an ace had no 2 or joker at the time").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

import numpy as np

from cardenvs.zheng_shang_you import exchange as ex
from cardenvs.zheng_shang_you.ranks import NUM_CARDS, bits_list

if TYPE_CHECKING:
    from cardenvs.zheng_shang_you.rules import ZsyRules

GameT = TypeVar("GameT", bound="ZsyRules")


_PICK_BITS = np.left_shift(np.int64(1), np.arange(NUM_CARDS, dtype=np.int64))
"""``1 << p`` for every pick index: a row of 0/1 card flags times this is its bit set (54 bits fit an int64)."""
_PICK_OF_BIT = np.arange(NUM_CARDS, dtype=np.int64)


def resample_hidden(game: GameT, observer: int, rng: np.random.Generator) -> GameT:
    """A copy of ``game`` in which every card ``observer`` cannot see is re-dealt (see the module docstring)."""
    twin = game.clone()
    n = twin.num_players
    state = twin.exchange
    pending: dict[int, int] = {}  # giver -> table slot of a card the observer has not seen
    if state is not None:
        for slot, card in enumerate(state.table):
            giver = state.givers[slot]
            if card >= 0 and not state.revealed and giver != observer:
                pending[giver] = slot
    known_rows = ((twin.known.data[observer] != 0) @ _PICK_BITS).tolist()  # seat-relative: row k is observer + k
    seats = [seat for seat in range(n) if seat != observer]
    known: list[int] = []  # per seat of ``seats``: the cards it keeps, then its whole new hand
    sizes: list[int] = []
    pooled = 0
    for seat in seats:
        holding = twin.hands[seat]
        if seat in pending and state is not None:
            holding |= 1 << state.table[pending[seat]]
        seen = known_rows[(seat - observer) % n]
        known.append(holding & seen)
        sizes.append((holding & ~seen).bit_count())
        pooled |= holding & ~seen
    pool = [1 << p for p in bits_list(pooled)]  # sorted, not by holder: the rng alone decides
    order = rng.permutation(len(pool)).tolist()
    start = 0
    for i, size in enumerate(sizes):  # each seat's new cards are the next run of the shuffled pool
        for j in order[start : start + size]:
            known[i] |= pool[j]
        start += size
    for i, seat in enumerate(seats):
        holding = known[i]
        if seat in pending and state is not None:
            choices = ex.highest_cards(holding) if state.stage == ex.GIVE_HIGHEST else bits_list(holding)
            table_card = choices[int(rng.integers(len(choices)))]
            state.table[pending[seat]] = table_card
            holding &= ~(1 << table_card)
        twin.hands[seat] = holding
    hands = np.array(twin.hands, dtype=np.int64)
    twin.hand_vec = ((hands[:, None] >> _PICK_OF_BIT) & 1).astype(np.float32)
    twin._summaries = [None] * n
    if state is None and twin.current_player not in (observer, -1):
        twin._start_turn(twin.current_player)
    return twin
