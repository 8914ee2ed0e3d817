"""Kyuuri scenario tests, trick play: the follow rule, the tie rule, the Ace rule and Swedish Gurka."""

from __future__ import annotations

import pytest

from cardenvs.core.errors import IllegalActionError
from tests.kyuuri.helpers import events_since, legal, new_game, play

# Dealer 2 of three players: player 0 (the dealer's left neighbour) leads, then 1, then 2.
SEED_EXAMPLE = ["6 2 4 7 J Q 9", "K 2 5 6 9 A A", "3 4 5 8 10 Q A"]


def test_seed_example_6_k_3() -> None:
    """The seed: 6 led; the second player may play 6 or higher (or the lowest card) and plays K; the third
    may then play K or A (or the lowest card) and plays 3; K takes the trick and its player leads next."""
    game = new_game(SEED_EXAMPLE, dealer=2)
    assert game.current_player == 0
    assert legal(game) == ["2", "4", "6", "7", "9", "J", "Q"]  # the leader plays anything
    play(game, "6")
    assert legal(game) == ["2", "6", "9", "K", "A"]  # not 5: below 6 and not the lowest
    play(game, "K")
    assert legal(game) == ["3", "A"]  # 8, 10 and Q beat the 6 but not the K
    play(game, "3")
    [trick] = events_since(game, "trick")
    assert trick["seats"] == [0, 1, 2] and trick["cards"] == ["6", "K", "3"] and trick["winner"] == 1
    assert game.current_player == 1 and game.trick.leader == 1


def test_follow_rule_compares_with_the_highest_card_not_the_previous_one() -> None:
    game = new_game(SEED_EXAMPLE, dealer=2)
    play(game, "6 2")  # the second player sheds its lowest card
    assert legal(game) == ["3", "8", "10", "Q", "A"]  # still at least 6 (4 and 5 are not allowed)
    with pytest.raises(IllegalActionError, match="at least as high as the highest card in the trick \\(6\\)"):
        play(game, "5")
    with pytest.raises(IllegalActionError, match="holds no 7"):
        play(game, "7")


def test_the_lowest_card_may_be_played_even_when_a_higher_card_is_allowed() -> None:
    game = new_game(SEED_EXAMPLE, dealer=2)
    play(game, "6")
    assert "2" in legal(game) and "9" in legal(game)
    play(game, "2 Q")
    [trick] = events_since(game, "trick")
    assert trick["winner"] == 2


def test_equal_ranks_the_last_played_takes_the_trick() -> None:
    game = new_game(["7 2 3 4 5 6 8", "7 9 10 J Q K A", "7 9 10 J Q K A"], dealer=2)
    play(game, "7 7")
    assert legal(game) == ["7", "9", "10", "J", "Q", "K", "A"]  # equal to the highest is allowed
    play(game, "7")
    [trick] = events_since(game, "trick")
    assert trick["winner"] == 2 and game.current_player == 2


def test_a_tie_below_the_highest_card_does_not_take_the_trick() -> None:
    game = new_game(["9 2 3 4 5 6 8", "2 7 10 J Q K A", "2 7 10 J Q K A"], dealer=2)
    play(game, "9 2 2")
    [trick] = events_since(game, "trick")
    assert trick["winner"] == 0


def test_ace_led_allows_an_ace_or_the_lowest_card_by_default() -> None:
    game = new_game(["A 2 3 4 5 6 8", "A 7 9 10 J Q K", "A 7 9 10 J Q K"], dealer=2)
    play(game, "A")
    assert legal(game) == ["7", "A"]


def test_ace_lead_forces_the_lowest_card() -> None:
    game = new_game(["A 2 3 4 5 6 8", "A 7 9 10 J Q K", "A 7 9 10 J Q K"], dealer=2, ace_lead_forces_lowest=True)
    play(game, "A")
    assert legal(game) == ["7"]  # even holding an Ace
    with pytest.raises(IllegalActionError, match="an Ace was led"):
        play(game, "A")
    play(game, "7")
    assert legal(game) == ["7"]


def test_the_ace_rule_applies_only_to_a_led_ace() -> None:
    game = new_game(["K 2 3 4 5 6 8", "A 7 9 10 J Q K", "A 7 9 10 J Q K"], dealer=2, ace_lead_forces_lowest=True)
    play(game, "K A")
    assert legal(game) == ["7", "A"]


def test_swedish_gurka_compares_with_the_previous_card_and_deals_six() -> None:
    hands = ["6 2 4 7 J Q", "K 2 5 6 9 A", "3 4 5 8 10 Q"]
    game = new_game(hands, dealer=2, swedish_gurka=True)
    play(game, "6 2")
    assert legal(game) == ["3", "4", "5", "8", "10", "Q"]  # anything at least 2, the previous card
    play(game, "4")
    [trick] = events_since(game, "trick")
    assert trick["winner"] == 0  # the highest card still takes the trick
    default = new_game([h + " 9" for h in ["6 2 4 7 J Q", "K 2 5 6 A A", "3 4 5 8 10 Q"]], dealer=2)
    play(default, "6 2")
    assert legal(default) == ["3", "8", "9", "10", "Q"]


def test_swedish_gurka_previous_card_after_a_high_card() -> None:
    game = new_game(["6 2 4 7 J Q", "K 2 5 6 9 A", "3 4 5 8 10 Q"], dealer=2, swedish_gurka=True)
    play(game, "6 K")
    assert legal(game) == ["3"]  # nothing at least K but the lowest card


def test_swedish_gurka_has_six_tricks_and_the_sixth_scores() -> None:
    game = new_game(["A A A A K 4", "2 2 3 3 5 7", "2 2 3 3 6 7"], dealer=2, swedish_gurka=True)
    play(game, "A 2 2 A 2 2 A 3 3 A 3 3 K 5 6")
    assert len(events_since(game, "trick")) == 5 and not events_since(game, "deal_over")
    play(game, "4 7 7")
    [over] = events_since(game, "deal_over")
    assert over["losers"] == [2] and over["points"] == 7


def test_random_swedish_deals_have_six_cards() -> None:
    import numpy as np

    from cardenvs.kyuuri.options import KyuuriOptions
    from cardenvs.kyuuri.rules import KyuuriGame

    game = KyuuriGame(KyuuriOptions(num_players=7, swedish_gurka=True), np.random.default_rng(3))
    assert game.hands.sum(axis=1).tolist() == [6] * 7
    assert int(game.stock.sum()) == 52 - 42


def test_play_passes_to_the_left_and_skips_eliminated_players() -> None:
    game = new_game(["9 2 3 4 5 6 8", "", "2 7 10 J Q K A", "", "2 7 10 J Q K A"], dealer=4, eliminated=[1, 3])
    assert game.current_player == 0
    play(game, "9")
    assert game.current_player == 2
    play(game, "10")
    assert game.current_player == 4
    play(game, "J")
    [trick] = events_since(game, "trick")
    assert trick["seats"] == [0, 2, 4] and trick["winner"] == 4
