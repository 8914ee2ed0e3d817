"""Zheng Shang You's re-deal draws every deal of the hidden cards that keeps the hand sizes and the known cards,
uniformly (issue 22 item 4 made it faster; this holds it to the distribution)."""

from __future__ import annotations

from collections import Counter

import numpy as np

from cardenvs.zheng_shang_you.ranks import bits_list, parse
from tests.zheng_shang_you.driver import new_game

DRAWS = 2_100


def test_the_redeal_is_uniform_over_the_deals_that_keep_sizes_and_known_cards() -> None:
    # seat 1 deals and shows 5♣ (everybody knows it); seat 0 observes: 6♣ … Q♣ (7 cards) are hidden
    game = new_game(["3♣ 4♣", "5♣ 6♣ 7♣", "8♣ 9♣", "10♣ J♣ Q♣"], dealer=1, shown_card="5♣")
    hidden = parse("6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣")
    rng = np.random.default_rng(5)
    deals: Counter[tuple[tuple[int, ...], ...]] = Counter()
    for _ in range(DRAWS):
        world = game.resample_hidden(0, rng)
        hands = [bits_list(bits) for bits in world.hands]
        assert hands[0] == parse("3♣ 4♣") and parse("5♣")[0] in hands[1]
        assert [len(hand) for hand in hands] == [2, 3, 2, 3]
        for seat, hand in enumerate(hands):
            assert world.hand_vec[seat].nonzero()[0].tolist() == hand
        deals[tuple(tuple(c for c in hand if c in hidden) for hand in hands[1:])] += 1
    # 7! / (2! 2! 3!) = 210 deals, each expected DRAWS / 210 times: a chi-square over 209 degrees of freedom
    # (mean 209, sd 20.4) stays far below 209 + 6 sd unless some deals are favoured or never drawn
    assert len(deals) == 210
    expected = DRAWS / 210
    chi_square = sum((count - expected) ** 2 / expected for count in deals.values())
    assert chi_square < 209 + 6 * 20.4, chi_square
