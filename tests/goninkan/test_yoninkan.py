"""Yoninkan from explicit deals: the 40 cards, hidden partners, trick-1 declarations with doubled stakes,
its joker rules, and the options of the spec's ambiguity table."""

from __future__ import annotations

import numpy as np
import pytest

from cardenvs.core.cards import YONINKAN_40, parse_cards
from cardenvs.core.errors import InvalidOptionError
from cardenvs.core.tricks import Trick
from cardenvs.goninkan.knowledge import KANKEI, MUKAN, UNKNOWN, team_view
from cardenvs.goninkan.options import YoninkanOptions
from cardenvs.goninkan.ruleset import ruleset
from cardenvs.goninkan.scoring import Kind
from cardenvs.goninkan.table import DECLARE
from cardenvs.goninkan.tricks import trick_winner
from tests.goninkan.helpers import act, legal_cards_text, play, points, yoninkan

# Round 1 (♣): the joker with player 1 and A♣ with player 3 make the hidden 関係 pair. Player 1 holds the
# red aces and A♠, player 2 the kings, player 3 the queens, player 0 the jacks: leading an ace, player 1
# takes four honours a trick.
DEAL = [
    "J♥ J♦ J♠ J♣ Q♣ K♣ 10♦ 10♥ 9♠ 10♠",
    "BJ A♥ A♦ A♠ 5♣ 6♣ 5♦ 5♥ 6♠ 7♠",
    "K♥ K♦ K♠ 7♣ 8♣ 6♦ 7♦ 6♥ 7♥ 8♠",
    "A♣ Q♥ Q♦ Q♠ 9♣ 10♣ 8♦ 9♦ 8♥ 9♥",
]
# The same with A♣ and 5♣ exchanged: player 1 holds both key cards.
DOUBLE = [DEAL[0], DEAL[1].replace("5♣", "A♣"), DEAL[2], DEAL[3].replace("A♣", "5♣")]


def test_deck_has_forty_cards() -> None:
    cards = set(YONINKAN_40.cards)
    assert len(cards) == 40
    assert not set(parse_cards("2♣ 3♦ 4♥ 4♠ 5♠")) & cards and set(parse_cards("5♣ 5♦ 5♥ 6♠ BJ")) <= cards


def test_teams_are_hidden_from_a_player_without_a_key_card() -> None:
    g = yoninkan(DEAL)
    assert g.kankei == (1, 3) and not g.team_public and not g.events.of_kind("kankei")
    assert team_view(g, 0).tolist() == [MUKAN, UNKNOWN, UNKNOWN, UNKNOWN]  # player 0 only knows his own side
    assert team_view(g, 1).tolist() == [UNKNOWN, KANKEI, UNKNOWN, UNKNOWN]
    # exchange A♣ with a club of player 2: now 1 and 2 are the pair, and player 0 sees exactly the same
    other = [DEAL[0], DEAL[1], DEAL[2].replace("7♣", "A♣"), DEAL[3].replace("A♣", "7♣")]
    h = yoninkan(other)
    assert h.kankei == (1, 2)
    assert np.array_equal(g.observation(0), h.observation(0))


def test_resampling_for_a_non_key_player_redeals_the_partnership() -> None:
    g = yoninkan(DEAL)
    act(g, "declare", "none", player=1)
    play(g, "5♥")
    before = g.observation(0)
    teams = set()
    rng = np.random.default_rng(0)
    for _ in range(40):
        r = g.resample_hidden(0, rng)
        assert np.array_equal(r.observation(0), before)
        joker_holder, key_holder = (r.holder(c) for c in r.key_cards())
        assert set(r.kankei) == {joker_holder, key_holder} and 0 not in r.kankei
        assert r.side_honours == [0, 0]
        teams.add(r.kankei)
    assert len(teams) == 3  # every pair of the other three players remains possible


def test_declared_skunk_pays_double() -> None:
    g = yoninkan(DEAL)
    assert g.decision_type() == DECLARE and g.current_player == 1  # the dealer's right leads
    assert legal_cards_text(g) == {"declare(none)", "declare(スコンク)", "declare(じゅうろく)"}
    play(g, "p1:*スコンク A♥ *none K♥ *none Q♥ *none J♥")
    declared = g.events.of_kind("declare")[-1]
    assert declared["player"] == 1 and declared["public"]["kind"] == "スコンク"
    assert team_view(g, 0)[1] == KANKEI  # declaring revealed player 1's side
    play(g, "p1:A♦ K♦ Q♦ J♦ p1:A♠ K♠ Q♠ J♠")  # 12 honours, the others none
    over = g.events.of_kind("deal_over")[-1]["public"]
    assert sorted(tuple(x) for x in over["lines"]) == [("kankei", 1, "success"), ("kankei", 2, "declared スコンク")]
    assert over["kankei"] == [1, 3]  # teams are revealed at the end of deal 1
    assert points(g) == [-3.0, 3.0, -3.0, 3.0]


def test_failed_reverse_skunk_declaration_pays_kankei_forty() -> None:
    g = yoninkan(DEAL)
    play(g, "p1:*none A♥ *逆スコンク K♥")
    # player 0 now knows player 2 is on his side, hence the other two are the pair
    assert team_view(g, 0).tolist() == [MUKAN, KANKEI, MUKAN, KANKEI]
    assert team_view(g, 3).tolist() == [UNKNOWN, UNKNOWN, MUKAN, KANKEI]
    play(g, "*none Q♥ *none J♥ p1:A♦ K♦ Q♦ J♦ p1:A♠ K♠ Q♠ J♠")
    lines = sorted(tuple(x) for x in g.events.of_kind("deal_over")[-1]["public"]["lines"])
    assert lines == [("kankei", 1, "success"), ("kankei", 1, "スコンク"), ("kankei", 40, "declared 逆スコンク failed")]
    assert points(g) == [-42.0, 42.0, -42.0, 42.0]


def test_partner_may_upgrade_skunk_to_juroku() -> None:
    g = yoninkan(DEAL)
    play(g, "p1:*スコンク A♥ *none K♥")
    assert legal_cards_text(g) == {"declare(none)", "declare(じゅうろく)"}  # one live declaration per side
    play(g, "p3:*じゅうろく Q♥")
    assert [(d.kind, d.player) for d in g.declarations] == [(Kind.JUROKU, 3)]
    assert g.events.of_kind("declare")[-1]["public"]["upgrade"] is True


def test_two_declarations_per_side_option() -> None:
    g = yoninkan(DEAL, options=YoninkanOptions(max_declarations_per_side=2))
    play(g, "p1:*スコンク A♥ *none K♥")
    assert legal_cards_text(g) == {"declare(none)", "declare(スコンク)", "declare(じゅうろく)"}
    play(g, "p3:*スコンク Q♥")
    assert [d.kind for d in g.declarations] == [Kind.SKUNK, Kind.SKUNK]


def test_joker_in_trick_one_needs_a_declaration() -> None:
    g = yoninkan(DEAL)
    act(g, "declare", "none")
    assert not any("joker" in name for name in legal_cards_text(g))
    g = yoninkan(DEAL)
    act(g, "declare", "じゅうろく")
    assert {f"lead_joker({s})" for s in "♣♦♥♠"} <= legal_cards_text(g)
    play(g, "BJ>♦")
    assert legal_cards_text(g) == {"declare(none)", "declare(逆スコンク)", "declare(逆じゅうろく)"}
    play(g, "*none K♦")


def test_no_juroku_declarations_in_deal1_option() -> None:
    g = yoninkan(DEAL, options=YoninkanOptions(declarations_in_deal1=False))
    assert legal_cards_text(g) == {"declare(none)", "declare(スコンク)"}


def _yoninkan_winner(trick_no: int, cards: str, named: str | None = None, weak: bool = False) -> int:
    rules = ruleset(YoninkanOptions(yoninkan_joker_lead_weak_all_tricks=weak))
    t = Trick(0)
    ids = [rules.cards.index(c) for c in parse_cards(cards)]
    for position, c in enumerate(ids):
        t.add(position, c)
    t.led_suit = "♣♦♥♠".index(named) if named else rules.cards.suit[ids[0]]
    return trick_winner(rules, t, trick_no, trump=0)


def test_joker_is_the_lowest_card_in_the_last_trick() -> None:
    assert _yoninkan_winner(5, "5♥ BJ A♥ A♣") == 1  # highest in tricks 1–9
    assert _yoninkan_winner(10, "5♥ BJ 6♦ 7♠") == 0  # lowest in trick 10
    assert _yoninkan_winner(10, "BJ 5♦ 6♠ 7♦", named="♥") == 0  # led, nobody follows ♥ or trumps: it wins
    assert _yoninkan_winner(10, "BJ 5♦ 6♥ 7♦", named="♥") == 2
    assert _yoninkan_winner(10, "BJ 5♦ 6♠ 5♣", named="♥") == 3
    assert _yoninkan_winner(4, "BJ 5♦ 6♥ 7♦", named="♥") == 0
    assert _yoninkan_winner(4, "BJ 5♦ 6♥ 7♦", named="♥", weak=True) == 2  # A17 option: weak in every trick


def test_joker_may_be_kept_to_the_last_trick() -> None:
    g = yoninkan(DEAL, options=YoninkanOptions(play_all_tricks=True))
    while g.trick_no < 10:
        plays = [a for a in g.legal_actions() if a in g.actions["play"] or a == g.actions["declare"][0]]
        g.apply(plays[0])
    assert g.joker in g.hands[1]  # no forced play in trick 9
    while g.current_player != 1:
        g.apply(g.legal_actions()[0])
    assert g.legal_actions() in ([g.actions["joker"][0]], list(g.actions["lead_joker"][s] for s in range(4)))


def test_double_key_holder_options() -> None:
    with pytest.raises(InvalidOptionError, match="redeal"):
        yoninkan(DOUBLE)
    solo = yoninkan(DOUBLE, options=YoninkanOptions(yoninkan_double="one_vs_three"))
    assert solo.kankei == (1,) and not solo.team_public
    play(solo, "p1:*none A♥ *none K♥ *none Q♥ *none J♥ p1:A♦ K♦ Q♦ J♦ p1:A♠ K♠ Q♠ J♠")
    assert points(solo) == [-2.0, 2.0, -2.0, -2.0]  # one against three: success + skunk
    assert solo.deal == 2 and solo.current_player == 1  # no partner to show cards: he names trump at once
    pair = yoninkan(DOUBLE, options=YoninkanOptions(yoninkan_double="opposite_partner"))
    assert pair.kankei == (1, 3) and pair.team_public
    assert pair.events.of_kind("kankei")[-1]["public"] == {"callers": [1], "double": True, "partner": 3}


def test_partner_rank_and_spade_ace_lead_options() -> None:
    g = yoninkan(DEAL, options=YoninkanOptions(yoninkan_partner_rank="J"))
    assert g.kankei == (0, 1)  # J♣ (player 0) and the joker
    g = yoninkan(DEAL, dealer=2, options=YoninkanOptions(yoninkan_first_lead="spade_ace"))
    assert g.current_player == 1  # the ♠A holder, not the dealer's right-hand player 3
    act(g, "declare", "none")
    assert legal_cards_text(g) == {"play(A♠)"}


def test_yoninkan_options_are_validated() -> None:
    with pytest.raises(InvalidOptionError, match="4-player"):
        YoninkanOptions(num_players=5)
    with pytest.raises(InvalidOptionError, match="valid keys"):
        YoninkanOptions(declared_bonus_table={"skunks": (1, 2)})
    with pytest.raises(InvalidOptionError, match="max_declarations_per_side"):
        YoninkanOptions(max_declarations_per_side=3)
    custom = YoninkanOptions(declared_bonus_table={"skunk": [3, 6]})
    assert ruleset(custom).scores.declared["skunk"] == (3, 6)


@pytest.mark.parametrize("partner", [3, 2])
def test_after_a_trick1_juroku_every_seat_is_asked_so_the_turns_do_not_name_the_partner(partner: int) -> None:
    """Player 1 (joker) declares じゅうろく in trick 1. Whether his partner is player 3 or player 2, the three others
    are asked the same declaration decision, in the same order; the partner's only choice is declare(none) (he
    knew his side already), the others may declare for the mukan side."""
    deal = DEAL if partner == 3 else [DEAL[0], DEAL[1], DEAL[2].replace("7♣", "A♣"), DEAL[3].replace("A♣", "7♣")]
    g = yoninkan(deal)
    assert g.kankei == (1, partner)
    play(g, "p1:*じゅうろく A♥")
    mukan_options = {"declare(none)", "declare(逆スコンク)", "declare(逆じゅうろく)"}
    for seat, card in ((2, "K♥"), (3, "Q♥"), (0, "J♥")):
        assert g.current_player == seat and g.decision_type() == DECLARE, f"player {seat} is not asked"
        assert legal_cards_text(g) == ({"declare(none)"} if seat == partner else mukan_options)
        play(g, f"*none {card}")
    assert g.trick_no == 2


def test_once_both_sides_are_spent_nobody_is_asked() -> None:
    g = yoninkan(DEAL)
    play(g, "p1:*じゅうろく A♥ p2:*逆じゅうろく K♥")
    assert g.decision_type() != DECLARE and "declare(none)" not in legal_cards_text(g)
