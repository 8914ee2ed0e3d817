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
from cardenvs.zheng_shang_you.ranks import NUM_CARDS, bits_list, to_bits

if TYPE_CHECKING:
    from cardenvs.zheng_shang_you.rules import ZsyRules

GameT = TypeVar("GameT", bound="ZsyRules")


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
    known: dict[int, int] = {}
    hidden: dict[int, list[int]] = {}
    for seat in range(n):
        if seat == observer:
            continue
        holding = twin.hands[seat]
        if seat in pending and state is not None:
            holding |= 1 << state.table[pending[seat]]
        known[seat] = holding & to_bits(np.flatnonzero(twin.known.of(observer, seat)).tolist())
        hidden[seat] = bits_list(holding & ~known[seat])
    pool = sorted(p for cards in hidden.values() for p in cards)  # not by holder: the rng alone decides
    shuffled = [pool[i] for i in rng.permutation(len(pool))]
    for seat, cards in hidden.items():
        holding = known[seat] | to_bits(shuffled[: len(cards)])
        shuffled = shuffled[len(cards) :]
        if seat in pending and state is not None:
            mine = bits_list(holding)
            choices = ex.highest_cards(holding) if state.stage == ex.GIVE_HIGHEST else mine
            table_card = choices[int(rng.integers(len(choices)))]
            state.table[pending[seat]] = table_card
            holding &= ~(1 << table_card)
        twin.hands[seat] = holding
    twin.hand_vec = np.zeros((n, NUM_CARDS), dtype=np.float32)
    for seat, bits in enumerate(twin.hands):
        twin.hand_vec[seat, bits_list(bits)] = 1.0
    twin._summaries = [None] * n
    if state is None and twin.current_player not in (observer, -1):
        twin._start_turn(twin.current_player)
    return twin
