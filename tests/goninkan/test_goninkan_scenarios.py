"""Goninkan from explicit deals: every scoring line through the engine, the calls, the seat swap, いく/こい,
deals 2 and 3 (show, trump, じゅうろく), the なかよし村 thresholds and six players."""

from __future__ import annotations

import pytest

from cardenvs.core.engine import TERMINAL
from cardenvs.goninkan.options import GoninkanOptions
from cardenvs.goninkan.table import LEAD_CHOICE, SHOW, SWEEP, TRUMP
from tests.goninkan.deals import DEAL1, REVERSE_DEAL, SWEEP_DEAL
from tests.goninkan.helpers import act, card, goninkan, play, points, show, trump

K13 = [-1.0, 1.0, -1.0, 1.0, -1.0]
"""Round points after a plain deal-1 success of kankei players 1 and 3."""


def last(game, kind):  # type: ignore[no-untyped-def]
    return game.events.of_kind(kind)[-1]["public"]


# ---------------------------------------------------------------- deal 1 (DEAL1: round 2, ♦ trump)
def test_calls_make_the_joker_and_trump_ace_holders_kankei() -> None:
    g = goninkan(DEAL1, round_number=2)
    assert g.trump == 1 and g.kankei == (1, 3)
    assert last(g, "kankei") == {"callers": [1, 3], "nijukan": False}
    # not adjacent (player 2 sits between them): nobody moves
    assert g.person_at == [0, 1, 2, 3, 4] and not g.events.of_kind("seat_swap")
    # the elder 関係 player (first in play order after dealer 0) says いく or こい
    assert g.phase == LEAD_CHOICE and g.current_player == 1


def test_deal1_reverse_skunk_pays_eleven() -> None:
    g = goninkan(DEAL1, round_number=2)
    act(g, "lead_choice", "いく", player=1)
    play(g, "p1:3♥ A♥ 4♥ K♥ Q♥")  # player 2 takes A♥ K♥ Q♥ (3)
    play(g, "p2:A♣ 3♣ K♣ Q♣ J♣")  # 4 more (7)
    assert g.deal == 1 and g.trick_no == 3
    play(g, "p2:A♠ 2♠ K♠ Q♠ 3♠")  # 10 for the mukan side, 0 for kankei: reverse skunk
    over = last(g, "deal_over")
    assert over["honours"] == {"kankei": 0, "mukan": 10} and not over["success"]
    assert sorted(map(tuple, over["lines"])) == [("mukan", 1, "failure"), ("mukan", 10, "逆スコンク")]
    assert points(g) == [11.0, -11.0, 11.0, -11.0, 11.0]
    assert g.current_player == TERMINAL
    assert g.take_rewards().tolist() == [11.0, -11.0, 11.0, -11.0, 11.0]


def test_deal1_failure_pays_one() -> None:
    g = goninkan(DEAL1, round_number=2)
    act(g, "lead_choice", "いく")
    play(g, "3♥ A♥ 4♥ K♥ Q♥ A♣ 3♣ K♣ Q♣ J♣")  # mukan 7
    play(g, "p2:5♠ J♠ 6♠ 7♠ 8♠")  # J♠ wins: kankei 1
    assert g.side_honours == [1, 7]
    play(g, "p3:2♠ K♠ Q♠ 3♠ A♠")  # A♠ takes K♠ Q♠ A♠: mukan 10 with kankei 1
    assert [tuple(x) for x in last(g, "deal_over")["lines"]] == [("mukan", 1, "failure")]
    assert points(g) == [1.0, -1.0, 1.0, -1.0, 1.0] and g.current_player == TERMINAL


def test_deal1_success_without_skunk_and_koi() -> None:
    g = goninkan(DEAL1, round_number=2)
    act(g, "lead_choice", "こい", player=1)  # the partner, player 3, leads
    assert last(g, "lead_choice") == {"choice": "こい", "leader": 3}
    play(g, "p3:A♦ K♦ Q♦ J♦ 5♦")  # kankei 4 (A♦ trump)
    play(g, "p3:4♥ K♥ Q♥ 3♥ A♥")  # mukan 3
    play(g, "p2:A♠ 2♠ K♠ Q♠ BJ")  # the joker wins: kankei 7
    play(g, "p1:8♠ 5♠ J♠ 6♠ 7♠")  # J♠ is the highest spade left: kankei 8
    assert g.deal == 1 and g.side_honours == [8, 3]
    play(g, "p3:3♦ K♣ Q♣ 8♦ 6♥")  # 8♦ (trump) wins K♣ Q♣: kankei 10
    assert [tuple(x) for x in last(g, "deal_over")["lines"]] == [("kankei", 1, "success")]
    assert points(g) == K13
    # deal 2: the deal-1 joker holder (player 1) chooses trump after his partner's show
    assert g.deal == 2 and g.phase == SHOW and g.current_player == 3 and g.chooser == 1


def test_deal1_skunk_then_juroku_then_deal3_bonus() -> None:
    """A whole round: skunk in deal 1, じゅうろく in deal 2, success + deal-3 bonus + skunk in deal 3."""
    g = goninkan(SWEEP_DEAL, round_number=10, later_deals=[SWEEP_DEAL, SWEEP_DEAL])  # last round: ♠ trump
    assert g.trump == 3 and g.kankei == (1, 3)
    act(g, "lead_choice", "いく")
    play(g, "p1:A♥ K♥ Q♥ J♥ J♦")  # 5
    play(g, "p1:A♦ K♦ Q♦ J♣ Q♣")  # 10 with the mukan side at 0: skunk, the deal stops
    assert sorted(tuple(x) for x in last(g, "deal_over")["lines"]) == [
        ("kankei", 1, "success"),
        ("kankei", 1, "スコンク"),
    ]
    assert points(g) == [-2.0, 2.0, -2.0, 2.0, -2.0]
    # deal 2: player 3 shows two cards to player 1, who chooses ♠ and leads
    assert g.deal == 2 and g.current_player == 3
    show(g, "A♠ Q♠")
    assert g.phase == TRUMP and g.current_player == 1
    assert g.known[1, card(g, "A♠")] == 3 and g.known[1, card(g, "Q♠")] == 3
    trump(g, "♠")
    play(g, "p1:A♥ K♥ Q♥ J♥ J♦ p1:A♦ K♦ Q♦ J♣ Q♣")
    assert g.phase == SWEEP and g.current_player == 1  # skunk in deal 2: the trick winner may declare
    act(g, "sweep", "declare")
    assert last(g, "sweep") == {"declared": True, "kind": "じゅうろく", "side": "kankei", "upgrade": False}
    play(g, "p1:A♣ K♣ J♠ 3♥ 3♣")  # J♠ trumps: 13
    play(g, "p3:A♠ 2♠ 3♠ K♠ 4♠")  # 15
    play(g, "p3:Q♠ 5♠ 6♠ 9♥ 7♦")  # 16: じゅうろく made
    assert sorted(tuple(x) for x in last(g, "deal_over")["lines"]) == [
        ("kankei", 1, "success"),
        ("kankei", 8, "じゅうろく"),
    ]
    assert points(g) == [-11.0, 11.0, -11.0, 11.0, -11.0]
    # deal 3: the deal-1 trump-Ace holder (player 3) chooses, after player 1's show, and leads
    assert g.deal == 3 and g.current_player == 1 and g.chooser == 3
    show(g, "A♥ A♦")
    trump(g, "♠")
    play(g, "p3:Q♥ J♥ J♦ A♥ K♥")  # player 1 wins: 5
    play(g, "p1:A♦ K♦ Q♦ J♣ Q♣")  # 10, mukan 0: skunk (deal 3 needs 9)
    act(g, "sweep", "stop", player=1)
    assert sorted(tuple(x) for x in last(g, "deal_over")["lines"]) == [
        ("kankei", 1, "deal-3 bonus"),
        ("kankei", 1, "success"),
        ("kankei", 1, "スコンク"),
    ]
    assert points(g) == [-14.0, 14.0, -14.0, 14.0, -14.0]
    assert g.current_player == TERMINAL
    assert last(g, "game_over")["rewards"] == [-14.0, 14.0, -14.0, 14.0, -14.0]


# ---------------------------------------------------------------- deals 2 and 3 (from_deal at deal 2 / 3)
def deal2(hands: list[str], **kwargs) -> object:  # type: ignore[no-untyped-def]
    g = goninkan(hands, deal=kwargs.pop("deal", 2), kankei=(1, 3), round_points=K13, **kwargs)
    show(g, g.cards_text(g.hands[g.current_player][:2]))
    trump(g, "♠")
    return g


def test_deal2_skunk_declined_stops_and_pays_two() -> None:
    g = deal2(SWEEP_DEAL, deal1_holders=(1, 3))
    play(g, "p1:A♥ K♥ Q♥ J♥ J♦ p1:A♦ K♦ Q♦ J♣ Q♣")
    act(g, "sweep", "stop")
    assert last(g, "sweep") == {"declared": False}
    assert sorted(tuple(x) for x in last(g, "deal_over")["lines"]) == [
        ("kankei", 1, "success"),
        ("kankei", 1, "スコンク"),
    ]
    assert points(g) == [-3.0, 3.0, -3.0, 3.0, -3.0] and g.deal == 3


def test_juroku_failure_is_a_failed_deal_and_ends_the_round() -> None:
    g = deal2(SWEEP_DEAL, deal1_holders=(1, 3))
    play(g, "p1:A♥ K♥ Q♥ J♥ J♦ p1:A♦ K♦ Q♦ J♣ Q♣")
    act(g, "sweep", "declare")
    play(g, "p1:8♣ K♣ 7♥ 3♥ 3♣")  # K♣ wins: the mukan side has an honour, じゅうろく fails
    over = last(g, "deal_over")
    assert not over["success"]
    assert sorted(tuple(x) for x in over["lines"]) == [("mukan", 1, "failure"), ("mukan", 16, "じゅうろく failed")]
    assert points(g) == [16.0, -16.0, 16.0, -16.0, 16.0] and g.current_player == TERMINAL


def test_reverse_skunk_in_deal2_cancels_deal1_and_pays_three() -> None:
    g = deal2(REVERSE_DEAL, deal1_holders=(1, 3))
    play(g, "p1:J♥ A♥ 5♣ K♥ Q♥")  # mukan 4
    play(g, "p2:A♦ 3♦ K♦ Q♦ J♦")  # 8 (deal 2: the mukan side needs 9)
    assert g.phase != SWEEP
    play(g, "p2:A♣ 4♣ K♣ Q♣ J♣")  # 12 with kankei 0
    assert g.phase == SWEEP and g.current_player == 2
    act(g, "sweep", "stop")
    over = last(g, "deal_over")
    assert over["cancelled"] and [tuple(x) for x in over["lines"]] == [("mukan", 3, "逆スコンク")]
    assert points(g) == [3.0, -3.0, 3.0, -3.0, 3.0]  # deal 1's +1 for kankei is gone
    assert g.current_player == TERMINAL


def test_reverse_skunk_in_deal3_cancels_both_earlier_deals() -> None:
    g = deal2(REVERSE_DEAL, deal=3, deal1_holders=(3, 1))  # deal 3: the deal-1 trump-A holder (1) chooses
    g_points_before = points(g)
    assert g_points_before == K13
    play(g, "p1:J♥ A♥ 5♣ K♥ Q♥ p2:A♦ 3♦ K♦ Q♦ J♦")  # 8: enough in deal 3
    assert g.phase == SWEEP and g.current_player == 2
    act(g, "sweep", "stop")
    assert points(g) == [3.0, -3.0, 3.0, -3.0, 3.0]


def test_reverse_juroku_success_cancels_and_pays_sixteen() -> None:
    g = deal2(REVERSE_DEAL, deal1_holders=(1, 3))
    play(g, "p1:J♥ A♥ 5♣ K♥ Q♥ p2:A♦ 3♦ K♦ Q♦ J♦ p2:A♣ 4♣ K♣ Q♣ J♣")
    act(g, "sweep", "declare", player=2)
    play(g, "p2:A♠ 2♠ Q♠ J♠ 3♠")  # 15
    assert g.deal == 2
    play(g, "p2:K♠ 4♠ 5♠ 6♠ 8♠")  # 16
    over = last(g, "deal_over")
    assert over["cancelled"] and [tuple(x) for x in over["lines"]] == [("mukan", 16, "逆じゅうろく")]
    assert points(g) == [16.0, -16.0, 16.0, -16.0, 16.0]


def test_reverse_juroku_failure_pays_kankei_32_and_the_failure_point() -> None:
    g = deal2(REVERSE_DEAL, deal1_holders=(1, 3))
    play(g, "p1:J♥ A♥ 5♣ K♥ Q♥ p2:A♦ 3♦ K♦ Q♦ J♦ p2:A♣ 4♣ K♣ Q♣ J♣")
    act(g, "sweep", "declare")
    # the joker may be played in trick 4 even by a player who could follow; it wins J♠ for kankei
    play(g, "p2:6♦ BJ 7♦ J♠ 8♦")
    over = last(g, "deal_over")
    assert not over["cancelled"]
    assert sorted(tuple(x) for x in over["lines"]) == [("kankei", 32, "逆じゅうろく failed"), ("mukan", 1, "failure")]
    assert points(g) == [-32.0, 32.0, -32.0, 32.0, -32.0]


def test_show_masks_and_trump_choice() -> None:
    g = goninkan(SWEEP_DEAL, deal=2, kankei=(1, 3), deal1_holders=(3, 1))  # deal 2: player 3 held the joker
    assert g.chooser == 3 and g.current_player == 1 and g.phase == SHOW
    hand = g.hands[1]
    shown = {g.actions.name(a) for a in g.legal_actions()}
    assert shown == {f"show({g.cards.text[c]})" for c in hand[:-1]}  # the highest card cannot come first
    g.apply(g.actions["show"][hand[3]])
    assert {g.actions.name(a) for a in g.legal_actions()} == {f"show({g.cards.text[c]})" for c in hand[4:]}
    g.apply(g.actions["show"][hand[7]])
    assert g.events.of_kind("show")[-1]["private"] == {
        3: {"cards": g.cards_text([hand[3], hand[7]])},
        1: {"cards": g.cards_text([hand[3], hand[7]])},
    }
    assert g.events.of_kind("show")[-1]["public"] == {"to": 3}
    assert g.phase == TRUMP and len(g.legal_actions()) == 4
    trump(g, "♥")
    assert g.trump == 2 and g.current_player == 3  # the chooser leads


# ---------------------------------------------------------------- なかよし村
NAKAYOSHI = GoninkanOptions(nakayoshi=True)


def test_nakayoshi_success_with_eight() -> None:
    g = goninkan(DEAL1, round_number=2, options=NAKAYOSHI)
    act(g, "lead_choice", "こい")
    play(g, "p3:A♦ K♦ Q♦ J♦ 5♦ p3:4♥ K♥ Q♥ 3♥ A♥ p2:A♠ 2♠ K♠ Q♠ BJ p1:8♠ 5♠ J♠ 6♠ 7♠")
    # kankei 8, mukan 3: enough in なかよし村 (the default game plays on: see test_deal1_success_without_skunk)
    assert g.deal == 2 and [tuple(x) for x in g.events.of_kind("deal_over")[-1]["public"]["lines"]] == [
        ("kankei", 1, "success")
    ]


@pytest.mark.parametrize("nakayoshi", [False, True])
def test_nakayoshi_skunk_waits_for_nine(nakayoshi: bool) -> None:
    g = goninkan(SWEEP_DEAL, round_number=10, options=GoninkanOptions(nakayoshi=nakayoshi))
    act(g, "lead_choice", "いく")
    play(g, "p1:A♥ K♥ Q♥ J♥ J♦ p1:A♦ K♦ Q♦ 3♥ 4♣")  # 8 honours, mukan 0: success in なかよし村, skunk open
    assert g.deal == 1 and g.side_honours == [8, 0]
    play(g, "p1:10♥ 4♠ 7♥ 4♥ Q♣")  # 4♠ trumps: the mukan side takes Q♣
    if nakayoshi:
        assert [tuple(x) for x in last(g, "deal_over")["lines"]] == [("kankei", 1, "success")]
        assert g.deal == 2
    else:
        assert g.deal == 1 and g.trick_no == 4  # 8 is not enough in the standard game


def test_nakayoshi_skunk_made_with_nine() -> None:
    g = goninkan(SWEEP_DEAL, round_number=10, options=NAKAYOSHI)
    act(g, "lead_choice", "いく")
    play(g, "p1:A♥ K♥ Q♥ J♥ J♦ p1:A♦ K♦ Q♦ 3♥ 4♣")
    assert g.deal == 1
    play(g, "p1:A♣ K♣ J♠ J♣ 3♣")  # J♠ trumps: 12 with the mukan side at 0
    assert sorted(tuple(x) for x in last(g, "deal_over")["lines"]) == [
        ("kankei", 1, "success"),
        ("kankei", 1, "スコンク"),
    ]


# ---------------------------------------------------------------- seat swap
def test_adjacent_kankei_swap_seats_permanently() -> None:
    g = goninkan(DEAL1, round_number=1)  # ♣: the joker with player 1, A♣ with player 2 (adjacent)
    assert g.kankei == (1, 2)
    # player 2, on the right of the pair, swaps with his right-hand neighbour, player 3
    assert g.person_at == [0, 1, 3, 2, 4] and g.seat_of == [0, 1, 3, 2, 4]
    assert g.events.of_kind("seat_swap")[-1]["player"] == 2
    assert g.orders[1] == [1, 3, 2, 4, 0]  # play now goes 1 → 3 → 2 → 4 → 0
    act(g, "lead_choice", "いく", player=1)
    play(g, "p1:3♥ p3:4♥ p2:A♥ p4:K♥ p0:Q♥")
    assert g.current_player == 2  # A♥ won; the seating stays swapped


def test_six_players_skip_the_dealer_for_adjacency() -> None:
    # dealer 2 sits out; the joker (player 1) and A♦ (player 3) are adjacent in the active ring 0 1 3 4 5
    hands = [DEAL1[0], DEAL1[1], "", DEAL1[3], DEAL1[4], DEAL1[2]]
    g = goninkan(hands, round_number=2, dealer=2, options=GoninkanOptions(num_players=6))
    assert g.kankei == (1, 3)
    assert g.person_at == [0, 1, 2, 4, 3, 5]  # player 3 swapped with player 4; the dealer did not move
    assert g.active_players() == [4, 3, 5, 0, 1]
    assert g.current_player == 3  # the first 関係 player in play order after the dealer, after the swap


def test_six_players_the_dealer_scores_with_kankei() -> None:
    hands = [*DEAL1, ""]
    g = goninkan(hands, round_number=2, dealer=5, options=GoninkanOptions(num_players=6))
    assert not g.is_active(5) and g.active_players() == [0, 1, 2, 3, 4]
    act(g, "lead_choice", "いく", player=1)
    play(g, "3♥ A♥ 4♥ K♥ Q♥ A♣ 3♣ K♣ Q♣ J♣ A♠ 2♠ K♠ Q♠ 3♠")  # the reverse skunk of test_deal1_reverse_skunk
    assert points(g) == [11.0, -11.0, 11.0, -11.0, 11.0, -11.0]
