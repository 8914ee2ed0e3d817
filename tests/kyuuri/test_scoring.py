"""Kyuuri scenario tests, scoring: the last trick, the bonus and its floor, elimination, reincarnation,
ties_all_score, dealer rotation, the end of the game, fixed_deals, max_deals and the one-deal episode."""

from __future__ import annotations

import numpy as np
import pytest

from cardenvs.core.engine import TERMINAL
from cardenvs.kyuuri.scoring import card_value
from tests.kyuuri.helpers import events_since, new_game, play, play_highest_until_deal_over

# Dealer 2 of three: player 0 leads A A A A K K, the others must shed their lowest cards, and the last trick
# is the seed's example: 4 (player 0), 7 (player 1), 7 (player 2).
LAST_TRICK_4_7_7 = ["A A A A K K 4", "2 2 3 3 5 5 7", "2 2 3 3 6 6 7"]


def test_card_values() -> None:
    assert [card_value(r) for r in range(13)] == [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]


def test_seed_example_last_trick_4_7_7_third_player_scores_second_gets_the_bonus() -> None:
    game = new_game(LAST_TRICK_4_7_7, dealer=2, penalties=[0, 10, 3])
    over = play_highest_until_deal_over(game)
    tricks = events_since(game, "trick")
    assert [t["winner"] for t in tricks] == [0, 0, 0, 0, 0, 0, 2]
    assert tricks[-1]["cards"] == ["4", "7", "7"]
    assert over["losers"] == [2] and over["points"] == 7 and over["card"] == "7"
    assert over["bonus"] == [[1, 7]]
    assert over["penalties"] == [0, 3, 10]  # 0 (six tricks won, none counts), 10 - 7, 3 + 7


def test_the_bonus_never_takes_a_penalty_below_zero() -> None:
    game = new_game(LAST_TRICK_4_7_7, dealer=2, penalties=[0, 5, 0])
    over = play_highest_until_deal_over(game)
    assert over["bonus"] == [[1, 5]] and over["penalties"] == [0, 0, 7]


def test_the_bonus_goes_to_every_other_player_of_the_losing_rank() -> None:
    # Four players, dealer 3: player 0 leads; the last trick is 9, 9, 9, 4: the third 9 (player 2) scores.
    hands = ["A A A A K K 9", "2 2 3 3 4 4 9", "2 2 3 3 5 5 9", "4 4 5 5 6 6 7"]
    game = new_game(hands, dealer=3, penalties=[10, 4, 0, 6])
    over = play_highest_until_deal_over(game)
    assert events_since(game, "trick")[-1]["cards"] == ["9", "9", "9", "7"]
    assert over["losers"] == [2] and over["bonus"] == [[0, 9], [1, 4]]
    assert over["penalties"] == [1, 0, 9, 6]


def test_the_leader_of_the_last_trick_scores_when_nobody_plays_as_high() -> None:
    game = new_game(["A A A A K K Q", "2 2 3 3 5 5 7", "2 2 3 3 6 6 8"], dealer=2)
    over = play_highest_until_deal_over(game)
    assert over["losers"] == [0] and over["points"] == 12 and over["bonus"] == []


def test_ties_all_score_every_player_of_the_top_rank_scores_and_nobody_gets_a_bonus() -> None:
    game = new_game(LAST_TRICK_4_7_7, dealer=2, penalties=[0, 10, 3], ties_all_score=True)
    over = play_highest_until_deal_over(game)
    assert over["losers"] == [1, 2] and over["bonus"] == [] and over["penalties"] == [0, 17, 10]


@pytest.mark.parametrize(("strict", "before", "out"), [(False, 14, True), (True, 14, False), (True, 15, True)])
def test_elimination_at_21_or_above_21(strict: bool, before: int, out: bool) -> None:
    game = new_game(LAST_TRICK_4_7_7, dealer=2, penalties=[0, 0, before], threshold_strict=strict)
    play_highest_until_deal_over(game)
    assert bool(game.eliminated_array[2]) is out
    assert [e["player"] for e in events_since(game, "out")] == ([2] if out else [])
    if out:
        assert events_since(game, "out")[0]["place"] == 3 and game.in_play == 2
        assert 2 not in events_since(game, "deal")[-1]["players"]  # the next deal leaves player 2 out


def test_a_custom_threshold() -> None:
    game = new_game(LAST_TRICK_4_7_7, dealer=2, penalties=[0, 0, 22], threshold=30)
    play_highest_until_deal_over(game)
    assert not game.eliminated_array[2] and int(game.penalties_array[2]) == 29


def test_the_last_survivor_wins_the_game() -> None:
    game = new_game(["A A A A K K 4", "2 2 3 3 5 5 7"], dealer=1, penalties=[20, 14])
    play_highest_until_deal_over(game)
    assert game.current_player == TERMINAL
    [end] = events_since(game, "game_over")
    assert end["winners"] == [0] and end["places"] == [1, 2] and end["reason"] == "last survivor"
    assert game.take_rewards().tolist() == [1.0, -1.0]  # type: ignore[union-attr]


def test_the_outcome_rewards_of_a_longer_game_are_zero_sum_and_paid_once() -> None:
    game = new_game(LAST_TRICK_4_7_7, dealer=2, penalties=[0, 0, 14])
    play_highest_until_deal_over(game)
    assert game.take_rewards() is None  # nothing until the game ends
    rng = np.random.default_rng(1)
    while game.current_player != TERMINAL:
        legal = game.legal_actions()
        game.apply(legal[int(rng.integers(len(legal)))])
    rewards = game.take_rewards()
    [end] = events_since(game, "game_over")
    assert len(end["winners"]) == 1 and rewards is not None
    expected = [1.0 if s in end["winners"] else -0.5 for s in range(3)]
    assert rewards.tolist() == expected and end["rewards"] == expected
    assert end["places"][2] == 3 and sorted(end["places"]) == [1, 2, 3]


def test_reincarnation_first_time_over_resets_to_the_highest_other_penalty() -> None:
    game = new_game(LAST_TRICK_4_7_7, dealer=2, penalties=[12, 3, 14], reincarnation=True)
    play_highest_until_deal_over(game)
    assert not game.eliminated_array[2] and game.cucumbers_array[2]
    assert game.penalties_array.tolist() == [12, 0, 12]  # the bonus took player 1 to 0 first
    assert events_since(game, "reincarnate") == [{"player": 2, "penalty": 12}]


def test_reincarnation_second_time_over_is_out() -> None:
    game = new_game(LAST_TRICK_4_7_7, dealer=2, penalties=[12, 3, 14], cucumbers=[2], reincarnation=True)
    play_highest_until_deal_over(game)
    assert game.eliminated_array[2] and not events_since(game, "reincarnate")


def test_ties_all_score_can_take_everybody_over_the_limit_then_the_lowest_wins() -> None:
    game = new_game(["A A A A K K 7", "2 2 3 3 5 5 7"], dealer=1, penalties=[14, 16], ties_all_score=True)
    over = play_highest_until_deal_over(game)
    assert over["losers"] == [0, 1] and over["penalties"] == [21, 23]
    [end] = events_since(game, "game_over")
    assert end["winners"] == [0] and end["places"] == [1, 2]
    assert [e["player"] for e in events_since(game, "out")] == [1]


def test_dealer_rotation_skips_eliminated_players() -> None:
    # Five seats, 1 and 3 out; dealer 0, so player 2 leads, then 4, then 0.
    hands = ["2 2 3 3 6 6 8", "", "A A A A K K 4", "", "2 2 3 3 5 5 7"]
    game = new_game(hands, dealer=0, eliminated=[1, 3])
    assert game.current_player == 2
    over = play_highest_until_deal_over(game)
    assert over["losers"] == [0] and over["points"] == 8
    assert game.dealer == 2 and game.current_player == 4  # 1 and 3 are skipped
    assert events_since(game, "deal")[-1]["players"] == [4, 0, 2]


def test_the_next_dealer_skips_a_player_eliminated_in_this_deal() -> None:
    # Four players, dealer 0: player 1 leads and takes the last trick with a Q, reaching 21.
    hands = ["4 4 5 5 6 6 J", "A A A A K K Q", "2 2 3 3 4 4 9", "2 2 3 3 5 5 10"]
    second = ["2 2 3 3 5 5 7", "", "2 2 3 3 6 6 8", "A A A A K K 4"]  # player 3 leads, then 0, then 2
    game = new_game(hands, dealer=0, penalties=[0, 9, 0, 0], later_deals=[second])
    over = play_highest_until_deal_over(game)
    assert events_since(game, "trick")[-1]["cards"] == ["Q", "9", "10", "J"]
    assert over["losers"] == [1] and game.eliminated_array[1]
    assert game.dealer == 2 and game.current_player == 3
    assert play_highest_until_deal_over(game)["losers"] == [2]
    assert events_since(game, "trick")[-1]["seats"] == [3, 0, 2]


def test_fixed_deals_play_without_elimination_and_the_lowest_penalty_wins() -> None:
    # Deal 2 is dealt by player 0, so player 1 leads: 9 (player 1), 8 (player 2), 10 (player 0).
    second = ["2 2 3 3 5 5 10", "A A A A K K 9", "2 2 3 3 4 4 8"]
    game = new_game(LAST_TRICK_4_7_7, dealer=2, penalties=[0, 0, 20], fixed_deals=2, later_deals=[second])
    play_highest_until_deal_over(game)
    assert not game.eliminated_array.any() and int(game.penalties_array[2]) == 27
    assert game.dealer == 0 and game.current_player == 1
    over = play_highest_until_deal_over(game)
    assert over["losers"] == [0] and over["points"] == 10
    [end] = events_since(game, "game_over")
    assert end["winners"] == [1] and end["places"] == [2, 1, 3] and end["reason"] == "fixed deals played"
    assert end["rewards"] == [-0.5, 1.0, -0.5]


def test_fixed_deals_tied_lowest_share_the_win() -> None:
    game = new_game(LAST_TRICK_4_7_7, dealer=2, fixed_deals=1)
    play_highest_until_deal_over(game)
    [end] = events_since(game, "game_over")
    assert end["winners"] == [0, 1] and end["places"] == [1, 1, 3] and end["rewards"] == [0.5, 0.5, -1.0]


def test_max_deals_caps_an_elimination_game() -> None:
    game = new_game(LAST_TRICK_4_7_7, dealer=2, penalties=[3, 0, 0], max_deals=1)
    play_highest_until_deal_over(game)
    [end] = events_since(game, "game_over")
    assert end["reason"] == "max_deals reached" and end["winners"] == [1]
    assert end["places"] == [2, 1, 3] and game.current_player == TERMINAL


def test_one_deal_episode_outcome_rewards() -> None:
    game = new_game(LAST_TRICK_4_7_7, dealer=2, episode="deal")
    play_highest_until_deal_over(game)
    assert game.current_player == TERMINAL
    [end] = events_since(game, "game_over")
    assert end["winners"] == [0, 1] and end["places"] == [1, 1, 3] and end["reason"] == "one deal"
    assert game.take_rewards().tolist() == [0.5, 0.5, -1.0]  # type: ignore[union-attr]


def test_one_deal_episode_with_every_player_on_the_top_rank_is_a_draw() -> None:
    game = new_game(["A A A A K K 7", "2 2 3 3 5 5 7"], dealer=1, episode="deal", ties_all_score=True)
    play_highest_until_deal_over(game)
    assert game.take_rewards().tolist() == [0.0, 0.0]  # type: ignore[union-attr]


def test_penalty_rewards_are_paid_at_the_end_of_every_deal() -> None:
    game = new_game(LAST_TRICK_4_7_7, dealer=2, penalties=[0, 4, 0], reward_mode="penalty")
    play(game, "A 2 2")
    assert game.take_rewards() is None
    play_highest_until_deal_over(game)
    assert game.take_rewards().tolist() == [0.0, 4.0, -7.0]  # type: ignore[union-attr]
    assert game.current_player != TERMINAL  # the game goes on with the next deal


def test_apply_limit_edge_cases() -> None:
    from cardenvs.kyuuri.options import KyuuriOptions
    from cardenvs.kyuuri.scoring import apply_limit

    reincarnating = KyuuriOptions(num_players=3, reincarnation=True)
    # Everybody over at once: the ones without a cucumber come back at 0 (nobody is left below the limit).
    both = apply_limit([0, 1, 2], [22, 25, 30], [False, False, True], reincarnating)
    assert both.reincarnated == ((0, 0), (1, 0)) and both.out == (2,) and both.last_standing == ()
    # Without reincarnation, everybody over at once: the lowest penalties are the last standing.
    plain = apply_limit([0, 1, 2], [23, 21, 21], [False] * 3, KyuuriOptions(num_players=3))
    assert plain.out == (0,) and plain.last_standing == (1, 2)
    assert apply_limit([0, 2], [20, 0, 5], [False] * 3, KyuuriOptions(num_players=3)).out == ()


def test_share_rewards_and_places() -> None:
    from cardenvs.kyuuri.scoring import places_by_penalty, share_rewards

    assert share_rewards(4, [2], 1.0).tolist() == pytest.approx([-1 / 3, -1 / 3, 1.0, -1 / 3])
    assert share_rewards(4, [0, 3], -1.0).tolist() == [-0.5, 0.5, 0.5, -0.5]
    assert share_rewards(3, [0, 1, 2], 1.0).tolist() == [0.0, 0.0, 0.0]
    assert places_by_penalty([0, 1, 3], [5, 2, 99, 5]) == {0: 2, 1: 1, 3: 2}


def test_reincarnation_resets_to_the_highest_penalty_of_the_players_still_in() -> None:
    """Player 3, eliminated earlier, holds the highest total (30): it does not count. Player 2 goes over for the
    first time and comes back at 12, the highest penalty among the players still in the game."""
    hands = [*LAST_TRICK_4_7_7, ""]
    game = new_game(hands, dealer=2, penalties=[12, 3, 14, 30], eliminated=[3], reincarnation=True)
    play_highest_until_deal_over(game)
    assert not game.eliminated_array[2] and game.cucumbers_array[2]
    assert game.penalties_array.tolist()[:3] == [12, 0, 12]
    assert events_since(game, "reincarnate") == [{"player": 2, "penalty": 12}]
