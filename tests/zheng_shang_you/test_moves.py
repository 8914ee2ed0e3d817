"""The move generator and the sub-step masks against the rules read literally, card subset by card subset.

Three independent readings must agree on random hands (biased towards wild cards) and random combinations
to beat: :func:`interpretations` over every subset of the hand (brute force), the direct generator
:func:`legal_combos`, and a walk through every path the sub-step masks of :class:`MoveBuilder` offer. The
walk also proves the masks exact: every offered choice leads to at least one complete legal play.
"""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from cardenvs.zheng_shang_you.build_state import summarize
from cardenvs.zheng_shang_you.builder import MoveBuilder
from cardenvs.zheng_shang_you.combos import Combo, ComboRules, interpretations
from cardenvs.zheng_shang_you.movegen import legal_combos
from cardenvs.zheng_shang_you.ranks import ACE, TWO, iter_bits, parse, text, to_bits

WILDS = [48, 49, 50, 51, 52, 53]
RULES = st.builds(ComboRules, st.booleans(), st.sampled_from([ACE, TWO]))


@st.composite
def hands(draw: st.DrawFn, max_size: int = 10) -> list[int]:
    """Hands of up to ``max_size`` cards, often with several wilds and runs of pairs."""
    cards = set(draw(st.lists(st.integers(0, 51), min_size=2, max_size=max_size - 3, unique=True)))
    cards |= set(draw(st.lists(st.sampled_from(WILDS), max_size=3, unique=True)))
    if draw(st.booleans()):
        v = draw(st.integers(0, 9))
        cards |= {4 * v, 4 * v + 1, 4 * v + 4, 4 * v + 6, 4 * v + 8}
    return sorted(cards)[:max_size]


def brute_force(cards: list[int], top: Combo | None, rules: ComboRules) -> set[Combo]:
    found = set()
    for size in range(1, len(cards) + 1):
        for subset in itertools.combinations(cards, size):
            found |= {c for c in interpretations(subset, rules) if top is None or c.beats(top)}
    return found


def walk(builder: MoveBuilder) -> set[Combo]:
    """Every complete play reachable through the masks; fails on a choice that leads nowhere."""
    if builder.shape is None:
        options = builder.legal_shapes()
        assert options, "a lead must have a shape"
        found: set[Combo] = set()
        for i in options:
            child = builder.copy()
            child.choose_shape(i)
            found |= walk(child)
        return found
    if builder.needs_top:
        tops = builder.legal_tops()
        assert tops or not builder.started, "an offered shape has no top rank"
        found = set()
        for h in tops:
            child = builder.copy()
            child.declare_top(h)
            found |= walk(child)
        return found
    picks = builder.legal_picks()
    assert picks or not builder.started, f"dead end after {text(builder.picks)}"
    found = set()
    for p in iter_bits(picks):
        child = builder.copy()
        done = child.pick(p)
        found |= {done} if done is not None else walk(child)
    return found


def check(cards: list[int], top: Combo | None, rules: ComboRules, everything: set[Combo]) -> None:
    expected = everything if top is None else {c for c in everything if c.beats(top)}
    generated = legal_combos(to_bits(cards), top, rules)
    assert len(generated) == len(set(generated)), "the generator repeats a play"
    assert set(generated) == expected, sorted(c.describe() for c in set(generated) ^ expected)[:5]
    walked = walk(MoveBuilder(summarize(to_bits(cards)), top, rules))
    assert walked == expected, sorted(c.describe() for c in walked ^ expected)[:5]


@settings(max_examples=120, deadline=None)
@given(data=st.data(), cards=hands(), rules=RULES)
def test_generator_and_masks_match_the_rules(data: st.DataObject, cards: list[int], rules: ComboRules) -> None:
    everything = brute_force(cards, None, rules)
    check(cards, None, rules, everything)
    others = data.draw(hands(8))
    tops = sorted(brute_force(others, None, rules), key=lambda c: (c.shape, c.top, c.cards))
    for top in data.draw(st.lists(st.sampled_from(tops), max_size=4)) if tops else []:
        check(cards, top, rules, everything)


def test_follow_with_wilds_offers_exactly_the_beating_sets() -> None:
    rules = ComboRules()
    pure_sevens = interpretations(parse("7♣ 7♠"))[0]
    cards = parse("7♦ 8♣ 2♠ BJ")
    generated = {text(c.cards) for c in legal_combos(to_bits(cards), pure_sevens, rules)}
    # 7♦ 2♠ is a wild pair of 7s: it does not beat a pure pair; 2♠ BJ is a wild pair of 2s
    assert generated == {"8♣ 2♠", "8♣ BJ", "2♠ BJ"}
    first_picks = MoveBuilder(summarize(to_bits(cards)), pure_sevens, rules).legal_picks()
    assert text(iter_bits(first_picks)) == "8♣ 2♠"
    wild_sevens = interpretations(parse("7♥ 2♥"))[0]
    generated = {text(c.cards) for c in legal_combos(to_bits([*cards, *parse("7♠")]), wild_sevens, rules)}
    assert "7♦ 7♠" in generated and "7♦ 2♠" not in generated  # pure beats wild at the same rank only


@settings(max_examples=10, deadline=None)
@given(cards=hands(max_size=13), rules=RULES)
def test_full_size_hands_on_a_lead(cards: list[int], rules: ComboRules) -> None:
    check(cards, None, rules, brute_force(cards, None, rules))


def test_every_legal_move_has_a_feature_row() -> None:
    from cardenvs.zheng_shang_you.actions import Pass
    from cardenvs.zheng_shang_you.features import move_layout
    from tests.zheng_shang_you.driver import new_game, play

    game = new_game(["7♠ 8♠ BJ 3♣", "7♥ 8♥ 9♥ 2♣ J♣", "3♦", "4♦"], dealer=0, episode="deal")
    play(game, "7♠ 8♠ BJ", top="9")
    moves, rows = game.legal_move_features()
    layout = move_layout()
    assert rows.shape == (len(moves), layout.size) and moves[0] == Pass()
    sequence = rows[1]
    assert layout.view(sequence, "kind").tolist() == [0, 0, 0, 1, 0, 0, 0]
    assert layout.view(sequence, "cards").nonzero()[0].tolist() == parse("7♥ 8♥ 9♥")
    assert layout.view(sequence, "top_rank")[6] == 1 and layout.view(sequence, "flags").tolist() == [0, 1]
