"""The leak test at states a random rollout rarely reaches: the deal-2 show, the blind 二重関 exchange,
Yoninkan's hidden partners mid-trick and after a hand empties in the last trick, and Goninkan's trick-9 joker
inference."""

from __future__ import annotations

from typing import Any

import numpy as np

import cardenvs
from cardenvs.goninkan.game import KankeiGame
from cardenvs.goninkan.options import GoninkanOptions, YoninkanOptions
from cardenvs.testing import checks
from tests.goninkan.deals import SWEEP_DEAL
from tests.goninkan.helpers import act, card, goninkan, hold_back_joker, play, yoninkan
from tests.goninkan.test_yoninkan import DEAL


def assert_no_leak(game: KankeiGame[Any], seed: int = 0, choices: bool = True) -> dict[str, int]:
    stats = {"redeals": 0, "redeals_changed_state": 0, "choice_pairs": 0}
    rng = np.random.default_rng(seed)
    for observer in range(game.num_players):
        for _ in range(5):
            checks._check_redeal(game, observer, rng, "crafted state", stats)
    if choices and not game.move_in_progress():
        checks._check_hidden_choices(game, rng, 60, "crafted state", stats)
    return stats


def test_show_is_seen_by_the_chooser_only() -> None:
    g = goninkan(SWEEP_DEAL, deal=2, kankei=(1, 3), deal1_holders=(1, 3))
    stats = assert_no_leak(g)
    assert stats["choice_pairs"] > 0 and stats["redeals_changed_state"] > 0
    g.apply(g.actions["show"][card(g, "Q♥")])  # half-way through the show
    assert_no_leak(g)
    g.apply(g.actions["show"][card(g, "Q♠")])
    assert_no_leak(g)  # the chooser keeps knowing the shown cards under every re-deal
    rng = np.random.default_rng(1)
    for observer in (0, 2, 4):
        r = g.resample_hidden(observer, rng)
        assert sorted(r.card_multiset()) == sorted(g.card_multiset())


def test_blind_exchange_leaks_nothing() -> None:
    g = goninkan(SWEEP_DEAL, round_number=1, options=GoninkanOptions(nijukan_exchange="chooser_picks_blind"))
    assert_no_leak(g)  # the slots chosen are public, the cards behind them are not
    g.apply(g.actions["blind_swap"][7])
    assert_no_leak(g)
    # after the exchange, the others only know each 関係 player holds one key card
    rng = np.random.default_rng(2)
    holders = {tuple(r.holder(c) for c in r.key_cards()) for r in (g.resample_hidden(0, rng) for _ in range(30))}
    assert holders == {(1, 3), (3, 1)}


def test_yoninkan_hidden_partners_mid_trick() -> None:
    g = yoninkan(DEAL)
    play(g, "p1:*none 5♥ *none 6♥")
    stats = assert_no_leak(g)
    assert stats["redeals_changed_state"] > 0
    act(g, "declare", "スコンク")  # player 3 is building his move: only he sees the declaration
    assert_no_leak(g)


def test_yoninkan_resampling_respects_what_deal_continuing_reveals() -> None:
    g = yoninkan(DEAL, options=YoninkanOptions(targets=(8, 8, 9)))
    play(g, "p1:*none A♥ *none K♥ *none Q♥ *none J♥ p1:A♦ K♦ Q♦ 10♦")  # player 1 has taken 7 honours
    # if player 1 and player 2 (who has taken none) were the pair, they would still need one more
    rng = np.random.default_rng(3)
    for observer in range(4):
        for _ in range(10):
            r = g.resample_hidden(observer, rng)
            kankei = sum(int(r.honours[p]) for p in r.kankei)
            assert kankei < 8  # any pair that already reached the target would have ended the deal
    assert_no_leak(g)


def test_goninkan_joker_is_with_a_player_yet_to_play_trick_nine() -> None:
    g = goninkan(SWEEP_DEAL, round_number=10, options=GoninkanOptions(play_all_tricks=True))
    act(g, "lead_choice", "いく")
    while not (g.trick_no == 9 and len(g.trick)):
        plays = [a for a in g.legal_actions() if a in g.actions["play"]]
        g.apply(plays[-1])  # the highest plain card: player 1 keeps the joker to trick 9
    assert g.trick.seats == [3] and g.joker in g.hands[1]
    rng = np.random.default_rng(4)
    for observer in (0, 2, 4):
        for _ in range(10):
            assert g.resample_hidden(observer, rng).holder(g.joker) != 3  # 3 played in trick 9 without it
    assert_no_leak(g, choices=False)


def test_yoninkan_views_follow_a_hand_emptied_in_the_last_trick() -> None:
    """A seat's cached view of the hidden teams equals one worked out afresh at every decision: in trick 10 a player
    who has played his last card can no longer hold an unplayed key card, which can settle the teams (a view cached
    before that card missed it). The joker is mostly held back so that key cards reach trick 10."""
    options = cardenvs.make_raw("yoninkan-v1", play_all_tricks=True).options
    rng = np.random.default_rng(0)
    stale = []
    for seed in range(40):
        game = cardenvs.definition("yoninkan-v1").new_game(options, np.random.default_rng(seed))
        while not game.is_terminal:
            cached = [game.observation(p) for p in range(game.num_players)]
            afresh = game.clone()
            afresh.knowledge_changed()
            seats = range(game.num_players)
            stale += [(seed, p) for p in seats if not np.array_equal(cached[p], afresh.observation(p))]
            legal = hold_back_joker(game, np.flatnonzero(game.legal_mask()), rng)
            game.apply(int(legal[rng.integers(len(legal))]))
            game.take_rewards()
    assert stale == []
