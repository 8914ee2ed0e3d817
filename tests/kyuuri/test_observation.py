"""Kyuuri observations: seat-relative feature groups, card tracking, and the stock never shown."""

from __future__ import annotations

import numpy as np

from cardenvs.core.cards import rank_index
from cardenvs.kyuuri.rules import KyuuriGame
from tests.kyuuri.helpers import new_game, play

SEED_EXAMPLE = ["6 2 4 7 J Q 9", "K 2 5 6 9 A A", "3 4 5 8 10 Q A"]


def view(game: KyuuriGame, me: int, feature: str) -> list[int]:
    return [int(x) for x in game.layout.view(game.observation(me), feature)]


def one_hot(size: int, index: int) -> list[int]:
    return [int(i == index) for i in range(size)]


def ranks(text: str) -> list[int]:
    counts = [0] * 13
    for token in text.split():
        counts[rank_index(token)] += 1
    return counts


def test_the_trick_in_progress_is_seat_relative() -> None:
    game = new_game(SEED_EXAMPLE, dealer=2)
    play(game, "6")
    trick = np.array(view(game, 1, "trick")).reshape(3, 13)  # player 1: me, player 2, player 0
    assert trick[2].tolist() == ranks("6") and not trick[:2].any()
    assert view(game, 1, "to_beat") == ranks("6")
    assert view(game, 1, "trick_winner") == one_hot(3, 2)
    assert view(game, 1, "leader") == one_hot(3, 2)
    assert view(game, 1, "to_act") == one_hot(3, 0)
    assert view(game, 1, "dealer") == one_hot(3, 1)
    trick2 = np.array(view(game, 2, "trick")).reshape(3, 13)  # player 2: me, player 0, player 1
    assert trick2[1].tolist() == ranks("6")
    assert view(game, 2, "to_act") == one_hot(3, 2)
    play(game, "K")
    assert view(game, 2, "to_beat") == ranks("K") and view(game, 2, "trick_winner") == one_hot(3, 2)


def test_hand_unseen_and_played_cards_by_seat() -> None:
    game = new_game(SEED_EXAMPLE, dealer=2)
    play(game, "6 K 3")
    assert view(game, 0, "hand") == ranks("2 4 7 J Q 9")
    played = np.array(view(game, 0, "played")).reshape(3, 13)
    assert played.tolist() == [ranks("6"), ranks("K"), ranks("3")]
    unseen = np.array([4] * 13) - ranks("2 4 7 J Q 9") - ranks("6 K 3")
    assert view(game, 0, "unseen") == unseen.tolist()
    assert view(game, 0, "tricks_played") == [1]
    assert not any(view(game, 0, "trick")) and not any(view(game, 0, "to_beat"))
    assert view(game, 0, "leader") == one_hot(3, 1) and view(game, 0, "to_act") == one_hot(3, 1)


def test_scores_and_deal_counters_are_seat_relative() -> None:
    hands = ["2 3 4 5 6 7 8", "", "9 10 J Q K A A", "2 3 4 5 6 7 8"]
    game = new_game(hands, dealer=3, penalties=[1, 30, 3, 4], eliminated=[1], cucumbers=[3], reincarnation=True)
    assert view(game, 2, "penalties") == [3, 4, 1, 30]
    assert view(game, 2, "eliminated") == [0, 0, 0, 1]
    assert view(game, 2, "cucumbers") == [0, 1, 0, 0]
    assert view(game, 2, "deals_played") == [0] and view(game, 2, "deals_left") == [200]
    later = new_game(hands, dealer=3, eliminated=[1], fixed_deals=5, deals_played=3)
    assert view(later, 0, "deals_played") == [3] and view(later, 0, "deals_left") == [2]


def test_the_stock_and_other_hands_never_change_an_observation() -> None:
    # Same hand for player 0, same public play; the other hands and the stock differ.
    a = new_game(["2 3 4 5 6 7 8", "9 9 10 10 J J Q", "K K K A A A Q"], dealer=2)
    b = new_game(["2 3 4 5 6 7 8", "9 10 J Q K A 2", "9 10 J Q K A 3"], dealer=2)
    assert not np.array_equal(a.stock, b.stock)
    assert np.array_equal(a.observation(0), b.observation(0))
    play(a, "8 Q Q")
    play(b, "8 Q Q")
    assert np.array_equal(a.observation(0), b.observation(0))


def test_the_stock_is_only_in_the_secret_part_of_the_log() -> None:
    game = new_game(SEED_EXAMPLE, dealer=2)
    [deal] = game.events.of_kind("deal")
    assert deal["secret"]["stock"] == game.privileged_state()["stock"] != ""
    assert "stock" not in deal["public"] and all("stock" not in part for part in deal["private"].values())
    assert deal["private"][1] == {"hand": "2 5 6 9 K A A"}
    for seat in range(3):
        assert all("stock" not in e for e in game.events.visible_to(seat))


def test_observation_size_and_bounds() -> None:
    seven = new_game(
        ["2 2 2 2 3 3 3"] + ["3 4 4 4 4 5 5", "5 5 6 6 6 6 7"] + [""] * 4, dealer=0, eliminated=[3, 4, 5, 6]
    )
    assert seven.layout.size == 13 + 13 + 7 * 13 + 7 * 13 + 13 + 7 * 7 + 3
    obs = seven.observation(0)
    assert obs.dtype == np.float32
    assert (obs >= seven.layout.low).all() and (obs <= seven.layout.high).all()
