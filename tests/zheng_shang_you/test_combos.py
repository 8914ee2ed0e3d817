"""Combinations and their order (spec §4), from explicit cards, plus property tests of the order relation."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardenvs.zheng_shang_you.combos import (
    SEQUENCE,
    SET,
    SET_SEQUENCE,
    SINGLE,
    Combo,
    ComboRules,
    interpretations,
    lead_shapes,
)
from cardenvs.zheng_shang_you.movegen import combos_of_shape
from cardenvs.zheng_shang_you.ranks import ACE, TWO, VALUE_TEXT, parse, to_bits

DEFAULT = ComboRules()


def read(cards: str, rules: ComboRules = DEFAULT) -> set[tuple[str, int, int, str, bool, bool]]:
    """(kind, group, length, top rank, wild, suited) of every meaning of the cards."""
    kinds = ("single", "set", "sequence", "set_sequence")
    return {
        (kinds[c.kind], c.group, c.length, VALUE_TEXT[c.top], c.wild, c.suited)
        for c in interpretations(parse(cards), rules)
    }


def only(cards: str, rules: ComboRules = DEFAULT) -> Combo:
    found = interpretations(parse(cards), rules)
    assert len(found) == 1, found
    return found[0]


def seq(cards: str, top: str, rules: ComboRules = DEFAULT) -> Combo:
    found = [c for c in interpretations(parse(cards), rules) if c.kind == SEQUENCE and VALUE_TEXT[c.top] == top]
    assert len(found) == 1, found
    return found[0]


# ---------------------------------------------------------------------- singles and sets
def test_singles_rank_3_low_then_a_2_bj_rj() -> None:
    order = ["3♣", "10♦", "K♠", "A♥", "2♣", "BJ", "RJ"]
    singles = [only(c) for c in order]
    for weaker, stronger in itertools.pairwise(singles):
        assert stronger.beats(weaker) and not weaker.beats(stronger)
    assert not only("7♠").beats(only("7♥")) and not only("7♥").beats(only("7♠"))  # suits never matter


@pytest.mark.parametrize(
    ("cards", "meaning"),
    [
        ("8♣ 8♥", ("set", 2, 1, "8", False, False)),
        ("7♣ 7♦ 2♠", ("set", 3, 1, "7", True, False)),  # the seed's example: three 7s with a wild 2
        ("2♣ 2♦", ("set", 2, 1, "2", False, False)),  # a pure pair of 2s: a 2 only stands in for lower ranks
        ("2♥ BJ", ("set", 2, 1, "2", True, False)),  # A9: always the highest reading, a wild pair of 2s
        ("BJ RJ", ("set", 2, 1, "BJ", True, False)),  # the red joker stands in for the black one
        ("9♠ 2♣ 2♦ 2♥ 2♠ BJ RJ", ("set", 7, 1, "9", True, False)),
    ],
)
def test_sets_and_their_reading(cards: str, meaning: tuple[object, ...]) -> None:
    assert read(cards) == {meaning}


@pytest.mark.parametrize("cards", ["7♣ 9♣", "K♠ A♠", "3♣ 4♣", "BJ 2♠ 2♥ A♣ A♦ K♣"])
def test_not_a_set(cards: str) -> None:
    assert not any(c.kind == SET for c in interpretations(parse(cards)))


def test_wilds_stand_in_for_lower_ranks_only() -> None:
    assert read("3♣ 2♣") == {("set", 2, 1, "3", True, False)}  # a 2 stands in for any rank 3…A
    assert read("2♣ RJ") == {("set", 2, 1, "2", True, False)}  # a joker for a 2; a 2 never for a joker
    assert read("BJ RJ") == {("set", 2, 1, "BJ", True, False)}  # never a pair of red jokers
    assert read("K♣ A♦") == set()  # an ace is never wild


def test_set_order_rank_then_pure_over_wild() -> None:
    pure7, wild7, wild8, pure8 = only("7♣ 7♦"), only("7♥ 2♠"), only("8♣ BJ"), only("8♦ 8♥")
    assert pure7.beats(wild7) and not wild7.beats(pure7)
    assert wild8.beats(pure7) and pure8.beats(wild8) and not wild8.beats(pure8)
    assert not only("7♠ 2♣").beats(wild7) and not wild7.beats(only("7♠ 2♣"))  # equal: no beat
    assert not only("8♣ 8♦ 8♥").beats(pure7)  # a different size never compares


# ---------------------------------------------------------------------- sequences
def test_sequences_within_3_to_ace_without_2s_or_wrap() -> None:
    assert read("Q♣ K♦ A♥") == {("sequence", 1, 3, "A", False, False)}
    assert not any(c.kind == SEQUENCE for c in interpretations(parse("K♣ A♦ 2♥")))
    assert not any(c.kind == SEQUENCE for c in interpretations(parse("A♣ 2♦ 3♥")))
    assert not any(c.kind == SEQUENCE for c in interpretations(parse("3♣ 4♦")))  # three ranks at least


def test_a_joker_in_a_sequence_declares_its_rank() -> None:
    # 7♠ 8♠ BJ is 6-7-8 or 7-8-9: two different plays
    assert read("7♠ 8♠ BJ") == {("sequence", 1, 3, "8", True, True), ("sequence", 1, 3, "9", True, True)}
    # at the edge of the ranks only one reading is left
    assert read("K♥ A♥ RJ") == {("sequence", 1, 3, "A", True, True)}
    assert read("3♦ BJ RJ") == {("sequence", 1, 3, "5", True, True), ("set", 3, 1, "3", True, False)}
    assert {c[3] for c in read("6♣ BJ RJ") if c[0] == "sequence"} == {"6", "7", "8"}


def test_sequence_order_suited_first_then_top_then_natural() -> None:
    suited_low = only("3♠ 4♠ 5♠")
    mixed_high = only("Q♣ K♦ A♥")
    assert suited_low.beats(mixed_high) and not mixed_high.beats(suited_low)
    assert only("8♣ 9♦ 10♥").beats(only("5♣ 6♦ 7♥"))
    natural, jokered = only("6♣ 7♦ 8♥"), only("6♦ BJ 8♠")
    assert natural.top == jokered.top == 5
    assert natural.beats(jokered) and not jokered.beats(natural)  # the seed: a joker makes it weaker
    assert not only("6♠ 7♠ 8♠").beats(only("6♥ 7♥ 8♥"))  # equal suited: no beat
    assert not only("3♠ 4♠ 5♠ 6♠").beats(suited_low)  # a different length never compares


def test_suitedness_with_jokers_is_an_option() -> None:
    assert seq("5♠ 7♠ BJ", "7").suited
    assert not seq("5♠ 7♠ BJ", "7", ComboRules(joker_keeps_suitedness=False)).suited
    assert not seq("5♠ 7♥ BJ", "7").suited


# ---------------------------------------------------------------------- sequences of sets
def test_set_sequences_equal_groups_with_wilds() -> None:
    assert read("3♣ 3♦ 4♣ 4♦ 5♣ 5♦") == {("set_sequence", 2, 3, "5", False, False)}
    assert read("3♣ 3♦ 4♣ 5♣ 5♦ 2♠") == {("set_sequence", 2, 3, "5", True, False)}
    # a rank made of 2s alone is not allowed; with a joker among them it is
    assert not any(c.kind == SET_SEQUENCE for c in interpretations(parse("3♣ 3♦ 5♣ 5♦ 2♠ 2♥")))
    assert read("3♣ 3♦ 5♣ 5♦ 2♠ BJ") == {("set_sequence", 2, 3, "5", True, False)}
    assert read("3♣ 3♦ 5♣ 5♦ BJ RJ") >= {("set_sequence", 2, 3, "5", True, False)}
    assert not any(c.kind == SET_SEQUENCE for c in interpretations(parse("3♣ 3♦ 3♥ 4♣ 4♦ 5♣")))  # unequal


def test_set_sequence_joker_rank_may_extend_the_run() -> None:
    tops = {c.top for c in interpretations(parse("5♣ 5♦ 6♣ 6♦ BJ RJ")) if c.kind == SET_SEQUENCE}
    assert {VALUE_TEXT[t] for t in tops} == {"6", "7"}  # 4-5-6 or 5-6-7 with the jokers as a pair


def test_set_sequence_order() -> None:
    low = only("3♣ 3♦ 4♣ 4♦ 5♣ 5♦")
    high_wild = only("4♥ 4♠ 5♥ 2♠ 6♣ 6♦")
    same_top_pure = only("4♣ 4♦ 5♠ 5♦ 6♥ 6♠")
    assert high_wild.beats(low)
    assert same_top_pure.beats(high_wild) and not high_wild.beats(same_top_pure)
    assert not only("3♣ 3♦ 3♥ 4♣ 4♦ 4♥ 5♣ 5♦ 5♥").beats(low)  # group sizes differ


def test_set_sequences_through_the_2_are_an_option() -> None:
    assert not any(c.kind == SET_SEQUENCE for c in interpretations(parse("K♣ K♦ A♣ A♦ 2♣ 2♦")))
    through_two = ComboRules(set_sequence_top=TWO)
    assert read("K♣ K♦ A♣ A♦ 2♣ 2♦", through_two) >= {("set_sequence", 2, 3, "2", False, False)}
    assert read("K♣ K♦ A♣ A♦ 2♣ BJ", through_two) >= {("set_sequence", 2, 3, "2", True, False)}


# ---------------------------------------------------------------------- the order relation, as properties
def oracle_beats(a: Combo, b: Combo) -> bool:
    """The spec's order read directly (§4): same kind and shape; then by kind."""
    if (a.kind, a.group, a.length) != (b.kind, b.group, b.length):
        return False
    if a.kind == SINGLE:
        return a.top > b.top
    if a.kind == SEQUENCE and a.suited != b.suited:
        return a.suited
    return a.top > b.top or (a.top == b.top and not a.wild and b.wild)


HANDS = st.lists(st.integers(0, 53), min_size=6, max_size=14, unique=True)
SHAPES = st.sampled_from(lead_shapes())


def combos_from(hand: list[int], shape: tuple[int, int, int], rules: ComboRules) -> list[Combo]:
    return list(combos_of_shape(to_bits(hand), shape, None, rules))


@settings(max_examples=300, deadline=None)
@given(data=st.data(), hand=HANDS, shape=SHAPES, keeps=st.booleans())
def test_order_is_a_strict_order_within_a_shape(data: st.DataObject, hand: list[int], shape, keeps: bool) -> None:  # type: ignore[no-untyped-def]
    rules = ComboRules(joker_keeps_suitedness=keeps)
    combos = combos_from(hand, shape, rules) + combos_from(data.draw(HANDS), shape, rules)
    if not combos:
        return
    pick = st.sampled_from(combos)
    a, b, c = data.draw(pick), data.draw(pick), data.draw(pick)
    assert not a.beats(a)  # irreflexive
    assert a.beats(b) == oracle_beats(a, b)
    assert not (a.beats(b) and b.beats(a))  # asymmetric
    if a.beats(b) and b.beats(c):
        assert a.beats(c)  # transitive


@settings(max_examples=300, deadline=None)
@given(data=st.data(), hand=HANDS)
def test_different_shapes_never_compare(data: st.DataObject, hand: list[int]) -> None:
    shapes = data.draw(st.lists(SHAPES, min_size=2, max_size=2, unique=True))
    first, second = (combos_from(hand, s, DEFAULT) for s in shapes)
    if first and second:
        a, b = data.draw(st.sampled_from(first)), data.draw(st.sampled_from(second))
        assert not a.beats(b) and not b.beats(a)


@settings(max_examples=200, deadline=None)
@given(hand=HANDS)
def test_every_generated_combination_is_a_reading_of_its_cards(hand: list[int]) -> None:
    for combo in combos_of_shape(to_bits(hand), (SET, 2, 1), None, DEFAULT):
        assert combo in interpretations(combo.cards)
    for shape in lead_shapes():
        for combo in combos_of_shape(to_bits(hand), shape, None, DEFAULT):
            assert combo in interpretations(combo.cards), combo.describe()
            assert combo.top <= (ACE if combo.kind in (SEQUENCE, SET_SEQUENCE) else 14)
