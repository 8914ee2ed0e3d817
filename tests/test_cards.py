"""Cards, decks and card text."""

from __future__ import annotations

from collections import Counter

import pytest

from cardenvs.core.cards import (
    BLACK_JOKER,
    DECKS,
    GONINKAN_50,
    RED_JOKER,
    SHORT_36,
    STANDARD_52,
    YONINKAN_40,
    ZHENG_SHANG_YOU_54,
    card_text,
    cards_text,
    make_card,
    parse_card,
    parse_cards,
    rank_index,
)


def test_every_card_round_trips_through_text() -> None:
    for card in range(54):
        assert parse_card(card_text(card)) == card
    assert card_text(make_card(rank_index("10"), 3)) == "10♠"
    assert cards_text([BLACK_JOKER, RED_JOKER]) == "BJ RJ"


def test_ascii_suits_and_t_for_ten() -> None:
    assert parse_cards("Ts 10♠ qd Ah") == [parse_card("10♠"), parse_card("10♠"), parse_card("Q♦"), parse_card("A♥")]


@pytest.mark.parametrize("bad", ["", "X♠", "10", "10x", "11♠", "♠"])
def test_bad_card_text_is_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        parse_card(bad)


def test_deck_compositions() -> None:
    assert STANDARD_52.size == 52 and SHORT_36.size == 36 and ZHENG_SHANG_YOU_54.size == 54
    assert SHORT_36.ranks() == tuple(range(rank_index("6"), 13))
    # Goninkan: 52 − 2♣ 2♦ 2♥ + joker = 50, and 2♠ stays.
    assert GONINKAN_50.size == 50 and parse_card("2♠") in GONINKAN_50.cards
    assert not {parse_card(t) for t in ("2♣", "2♦", "2♥")} & set(GONINKAN_50.cards)
    assert BLACK_JOKER in GONINKAN_50.cards and RED_JOKER not in GONINKAN_50.cards
    # Yoninkan: without 2s, 3s, 4s and 5♠, plus the joker = 40.
    assert (
        YONINKAN_40.size == 40 and parse_card("5♠") not in YONINKAN_40.cards and parse_card("5♥") in YONINKAN_40.cards
    )
    assert Counter(YONINKAN_40.rank_counts().values()) == Counter({4: 9, 3: 1})
    assert len(set(ZHENG_SHANG_YOU_54.cards)) == 54 and len(DECKS) == 5
