"""Matches: the card exchange, the next dealer, both team games' scoring, the end of a match, rewards."""

from __future__ import annotations

import numpy as np
import pytest

import cardenvs
from cardenvs.core.errors import InvalidOptionError
from cardenvs.zheng_shang_you import exchange as ex
from cardenvs.zheng_shang_you.actions import ids
from cardenvs.zheng_shang_you.options import SJX_PLACE_SETS, ZsyOptions, provisional_sjx_table
from cardenvs.zheng_shang_you.ranks import PICK_TEXT, parse
from cardenvs.zheng_shang_you.scoring import deal_points, match_rewards, place_rewards
from tests.zheng_shang_you.driver import events_of, give, hand_text, new_game, pass_turn, play, take

A = ids()
# Previous deal: 1st seat 2, 2nd seat 0, 3rd seat 3, last seat 1.
PREVIOUS = [2, 0, 3, 1]
HANDS = ["3♣ 4♣ 5♣", "6♣ A♦ A♠ 7♦", "8♣ 9♣ 10♣", "J♣ RJ Q♦"]


def known(game, observer: int, seat: int) -> str:  # type: ignore[no-untyped-def]
    return " ".join(PICK_TEXT[c] for c in np.flatnonzero(game.known.of(observer, seat)))


def table_seen_by(game, seat: int) -> np.ndarray:  # type: ignore[no-untyped-def]
    return game.observation(seat)[game.layout["table_cards"]]


def play_out_the_small_deal(game) -> None:  # type: ignore[no-untyped-def]
    """Hands 3♣ | 4♣ 5♦ | 6♣ 7♦ 8♥ | 9♣ 10♦, seat 0 leading: the finishing order is 0, 3, 1, 2."""
    play(game, "3♣")  # seat 0 out first
    play(game, "4♣")
    pass_turn(game)  # seat 2 keeps its cards
    play(game, "9♣")
    pass_turn(game)
    pass_turn(game)  # seat 3 won the trick and leads
    play(game, "10♦")  # seat 3 out second
    pass_turn(game)
    pass_turn(game)  # nobody beats 10♦ and seat 3 is out: the lead passes to the right, past seat 0, to seat 1
    play(game, "5♦")  # seat 1 out third; seat 2 is last


def test_the_exchange_step_by_step_face_up() -> None:
    game = new_game(HANDS, dealer=3, prev_order=PREVIOUS)
    state = game.exchange
    assert state is not None and state.stage == ex.GIVE_HIGHEST
    # Seat 3 (second-to-last) has a single highest card, RJ: it goes down by itself. Seat 1 (last) holds two
    # aces: it chooses which.
    assert game.current_player == 1
    assert set(np.flatnonzero(game.legal_mask())) == {A.GIVE + parse("A♦")[0], A.GIVE + parse("A♠")[0]}
    assert not table_seen_by(game, 2).any()  # nothing is turned up before both have given
    give(game, "A♠")
    reveal = events_of(game, "exchange_table")[-1]["public"]
    assert reveal == {"stage": "give_highest", "givers": [3, 1], "cards": ["RJ", "A♠"]}
    assert game.current_player == 2  # the previous 1st takes one of the two
    assert set(np.flatnonzero(game.legal_mask())) == {A.TAKE, A.TAKE + 1}
    take(game, 1)  # the worse-placed giver's card, A♠; the 2nd (seat 0) gets RJ
    assert hand_text(game, 2) == "8♣ 9♣ 10♣ A♠" and hand_text(game, 0) == "3♣ 4♣ 5♣ RJ"
    assert known(game, 3, 0) == "RJ" and known(game, 1, 2) == "A♠"  # everybody saw who took what
    # give back: the 1st, then the 2nd, put down any card; nobody sees them before both are down
    assert game.current_player == 2 and game.legal_mask()[A.GIVE : A.TAKE].sum() == 4
    give(game, "8♣")
    assert table_seen_by(game, 2)[parse("8♣")[0]] == 1 and not table_seen_by(game, 0).any()
    assert game.current_player == 0
    give(game, "RJ")  # it may give back the card it has just taken
    assert events_of(game, "exchange_table")[-1]["public"]["cards"] == ["8♣", "RJ"]
    assert game.current_player == 3  # the previous second-to-last takes first
    take(game, 1)
    assert hand_text(game, 3) == "J♣ Q♦ RJ" and hand_text(game, 1) == "6♣ 7♦ 8♣ A♦"
    assert hand_text(game, 0) == "3♣ 4♣ 5♣" and hand_text(game, 2) == "9♣ 10♣ A♠"
    assert known(game, 2, 3) == "RJ" and known(game, 0, 1) == "8♣"
    # the exchange is over: the dealer (the previous 3rd) leads
    assert game.exchange is None and game.current_player == 3 and game.top is None


def test_face_down_returns_are_known_only_to_the_people_involved() -> None:
    game = new_game(HANDS, dealer=3, prev_order=PREVIOUS, return_face_up=False)
    give(game, "A♦")
    take(game, 0)  # seat 2 takes RJ; seat 0 gets A♦
    give(game, "8♣")
    give(game, "3♣")
    assert "cards" not in events_of(game, "exchange_table")[-1]["public"]
    assert not table_seen_by(game, 3).any()  # the taker chooses blind
    take(game, 0)  # seat 3 takes seat 2's card
    assert hand_text(game, 3) == "8♣ J♣ Q♦" and hand_text(game, 1) == "3♣ 6♣ 7♦ A♠"
    assert "card" not in events_of(game, "take")[-1]["public"]
    assert known(game, 2, 3) == "8♣" and known(game, 0, 1) == "3♣"  # each giver knows where its card went
    assert known(game, 1, 3) == "" and known(game, 3, 1) == ""  # the takers do not know each other's card
    # seats 2 and 0 took RJ and A♦ face up, then each gave a card back face down: nobody else is sure any more
    assert known(game, 1, 0) == "" and known(game, 1, 2) == ""


def test_after_a_deal_the_previous_third_deals_and_the_exchange_runs() -> None:
    game = new_game(["3♣", "4♣ 5♦", "6♣ 7♦ 8♥", "9♣ 10♦"], dealer=0)  # a match (the default)
    play_out_the_small_deal(game)
    over = events_of(game, "deal_over")[-1]["public"]
    assert over["order"] == [0, 3, 1, 2] and over["totals"] == [2, 0, 0, 1]
    assert not game.is_terminal and game.deals_played == 1
    assert game.dealer == 1  # the previous 3rd deals
    assert game.exchange is not None and game.exchange.order == [0, 3, 1, 2]
    assert sum(h.bit_count() for h in game.hands) + sum(c >= 0 for c in game.exchange.table) == 54


def test_partners_add_their_points() -> None:
    opts = ZsyOptions(num_players=4, team_mode="partners")
    assert deal_points([0, 2, 1, 3], opts) == [3, 0]
    assert deal_points([1, 0, 3, 2], opts) == [1, 2]
    assert deal_points([3, 1, 0, 2], opts) == [0, 3]
    game = new_game(["3♣", "4♣ 5♦", "6♣ 7♦ 8♥", "9♣ 10♦"], dealer=0, team_mode="partners", totals=[9, 10])
    play_out_the_small_deal(game)  # order 0 3 1 2: team 0 scores 2, team 1 scores 1 -> 11 v 11, a tie
    assert events_of(game, "deal_over")[-1]["public"]["totals"] == [11, 11]
    assert not game.is_terminal  # tied at the target: another deal (A3)


def test_a_shared_win_ends_the_match_on_a_tie() -> None:
    game = new_game(["3♣", "4♣ 5♦", "6♣ 7♦ 8♥", "9♣ 10♦"], dealer=0, totals=[9, 10, 0, 10], tie_rule="shared")
    play_out_the_small_deal(game)  # totals 11, 10, 0, 11: seats 0 and 3 share the best total
    assert game.is_terminal
    rewards = game.take_rewards()
    assert rewards is not None
    np.testing.assert_allclose(rewards, [2 / 3, -1 / 3, -1, 2 / 3])
    assert events_of(game, "game_over")[-1]["public"]["winners"] == [0, 3]


def test_san_jia_xi_provisional_table_and_a_custom_one() -> None:
    opts = ZsyOptions(num_players=6, team_mode="san_jia_xi")
    table = provisional_sjx_table()
    assert len(table) == 20 and sorted(table) == sorted(SJX_PLACE_SETS)
    assert deal_points([0, 2, 4, 1, 3, 5], opts) == [6, 0]  # a three-family sweep
    assert deal_points([0, 2, 1, 3, 4, 5], opts) == [4, 0]  # 1st and 2nd together, third member 5th
    assert deal_points([1, 3, 0, 2, 4, 5], opts) == [0, 3]  # together, third member (seat 5) last
    assert deal_points([0, 1, 2, 3, 4, 5], opts) == [2, 1]  # 1st and 2nd on different teams
    custom = dict.fromkeys(SJX_PLACE_SETS, 0) | {"1,2,3": 10, "1,4,5": 7}
    custom_opts = ZsyOptions(num_players=6, team_mode="san_jia_xi", sjx_score_table=custom)
    assert deal_points([0, 2, 4, 1, 3, 5], custom_opts) == [10, 0]
    assert deal_points([0, 1, 3, 2, 4, 5], custom_opts) == [7, 0]
    with pytest.raises(InvalidOptionError, match="20 keys"):
        ZsyOptions(num_players=6, team_mode="san_jia_xi", sjx_score_table={"1,2,3": 4})


def test_san_jia_xi_shown_card_picks_the_dealer_in_public() -> None:
    env = cardenvs.make_raw("zheng_shang_you-v0", num_players=6, team_mode="san_jia_xi")
    for seed in range(5):
        env.reset(seed=seed)
        game = env.game
        assert game is not None and game.shown is not None
        assert game.hands[game.dealer] >> game.shown & 1 and game.current_player == game.dealer
        deal = events_of(game, "deal")[0]["public"]
        assert deal["shown_card"] == PICK_TEXT[game.shown] and deal["dealer"] == game.dealer
        for observer in range(6):
            if observer != game.dealer:
                rel = (game.dealer - observer) % 6 - 1
                seen = game.observation(observer)[game.layout["known_held"]].reshape(5, -1)[rel]
                assert list(np.flatnonzero(seen)) == [game.shown]


def test_san_jia_xi_the_fifth_deals_next_and_fifty_wins() -> None:
    hands = ["3♣", "4♣", "5♣", "6♣", "7♣", "8♣ 9♣"]
    game = new_game(hands, dealer=0, team_mode="san_jia_xi", totals=[40, 44])
    for card in ("3♣", "4♣", "5♣", "6♣", "7♣"):
        play(game, card)  # each goes out in turn: order 0 1 2 3 4 5
    over = events_of(game, "deal_over")[-1]["public"]
    assert over["order"] == [0, 1, 2, 3, 4, 5] and over["totals"] == [42, 45]
    assert game.dealer == 4  # the 5th deals the next deal
    game = new_game(hands, dealer=0, team_mode="san_jia_xi", totals=[44, 49])
    for card in ("3♣", "4♣", "5♣", "6♣", "7♣"):
        play(game, card)
    assert game.is_terminal  # 46 v 50: team 1 (seats 1, 3, 5) wins
    rewards = game.take_rewards()
    assert rewards is not None and list(rewards) == [-1, 1, -1, 1, -1, 1]


def test_reward_modes() -> None:
    opts = ZsyOptions(num_players=4)
    np.testing.assert_allclose(place_rewards([2, 0, 3, 1], opts), [1 / 3, -1, 1, -1 / 3])
    partners = ZsyOptions(num_players=4, team_mode="partners")
    np.testing.assert_allclose(place_rewards([0, 1, 2, 3], partners), [1 / 3, -1 / 3, 1 / 3, -1 / 3])
    np.testing.assert_allclose(match_rewards([12, 3, 3, 0], opts), [1, 0, 0, -1])
    game = new_game(["3♣", "4♣ 5♦", "6♣ 7♦ 8♥", "9♣ 10♦"], dealer=0, reward_mode="match_points")
    play_out_the_small_deal(game)
    rewards = game.take_rewards()
    assert rewards is not None and list(rewards) == [2, 0, 0, 1]  # paid after every deal of the match


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"num_players": 3}, "4–6"),
        ({"num_players": 5, "team_mode": "partners"}, "needs num_players=4"),
        ({"num_players": 4, "team_mode": "san_jia_xi"}, "needs num_players=6"),
        ({"next_dealer_place": 7}, "next_dealer_place"),
        ({"team_mode": "san_jia_xi", "num_players": 6, "first_dealer": 0}, "shown card"),
        ({"sjx_score_table": provisional_sjx_table()}, "only applies"),
        ({"target_points": 0}, "target_points"),
    ],
)
def test_bad_options_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        cardenvs.make("zheng_shang_you-v0", **options)


def test_both_partners_score_in_a_played_partnership_deal() -> None:
    """Seats 0 and 2 (partners) go out first and second: their team scores 2 + 1 = 3 in the deal, and under
    match_points each of them is paid 3, each opponent 0."""
    hands = ["3♣", "4♣ 5♦", "6♣", "9♣ 10♦"]
    game = new_game(hands, dealer=0, team_mode="partners", reward_mode="match_points")
    play(game, "3♣")  # seat 0 out first
    play(game, "4♣")
    play(game, "6♣")  # seat 2 out second
    play(game, "9♣")
    pass_turn(game)  # seat 1; seat 3 won the trick and leads
    play(game, "10♦")  # seat 3 out third, seat 1 last
    over = events_of(game, "deal_over")[-1]["public"]
    assert over["order"] == [0, 2, 3, 1] and over["totals"] == [3, 0]
    rewards = game.take_rewards()
    assert rewards is not None and list(rewards) == [3, 0, 3, 0]
