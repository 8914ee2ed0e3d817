"""Positions through the env: round trips over every id and option set that has a notation (Hypothesis), the
reset-option protocol and its errors."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cardenvs
from cardenvs.core.capped_deal import deal_capped
from cardenvs.core.errors import InvalidOptionError
from cardenvs.core.position import PositionError
from cardenvs.testing.position_fuzz import check_malformed_positions
from cardenvs.testing.positions import check_positions_at_every_decision, position_round_trip_property
from tests.conftest import case_id, registry_cases
from tests.playthroughs import GONINKAN_TRICK9, KYUURI_TRICK, VERISH_PILE, YONINKAN_SHOW, ZSY_TWO_OUT

DOCS = Path(__file__).resolve().parent.parent / "docs"
CASES = [c for c in registry_cases() if cardenvs.definition(c[0]).read_position is not None]


@pytest.mark.parametrize(("env_id", "options"), CASES, ids=[case_id(c) for c in CASES])
def test_positions_round_trip(env_id: str, options: dict[str, Any]) -> None:
    many_sets = env_id in ("goninkan-v1", "yoninkan-v1")  # 23 option sets between them: 2 examples each
    position_round_trip_property(env_id, options, examples=2 if many_sets else 4)


def test_reset_options_must_be_a_dict_and_a_position_text() -> None:
    env = cardenvs.make("verish_ne_verish-v0")
    with pytest.raises(InvalidOptionError, match="position"):
        env.reset(seed=0, options=["position"])  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="must be text"):
        env.reset(seed=0, options={"position": 3})


def test_a_position_of_other_options_or_another_game_is_refused() -> None:
    env = cardenvs.make("verish_ne_verish-v0", num_players=3)
    env.reset(seed=0)
    text = env.unwrapped.position()
    other = cardenvs.make("verish_ne_verish-v0", num_players=4)
    with pytest.raises(PositionError, match="num_players"):
        other.reset(seed=0, options={"position": text})
    with pytest.raises(PositionError, match="is of"):
        other.reset(seed=0, options={"position": text.replace("verish_ne_verish", "yukushi", 1)})


def test_misspelt_lines_are_not_ignored() -> None:
    env = cardenvs.make("verish_ne_verish-v0", num_players=3)
    env.reset(seed=0)
    text = env.unwrapped.position() + "dealr: 1\n"
    with pytest.raises(PositionError, match=r"unknown position line.*dealr"):
        env.reset(seed=0, options={"position": text})


@pytest.mark.parametrize("page", ["verish_ne_verish", "kyuuri", "yukushi", "zheng_shang_you", "goninkan"])
def test_the_position_examples_of_the_docs_run(page: str) -> None:
    text = (DOCS / "games" / f"{page}.md").read_text()
    section = text.split("## Positions", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.DOTALL)
    assert blocks, f"docs/games/{page}.md has no position example"
    for block in blocks:
        exec(compile(block, f"docs/games/{page}.md", "exec"), {})


def _start(env_id: str, position: str, **options: Any) -> Any:
    env = cardenvs.make(env_id, **options)
    env.reset(seed=0, options={"position": position})
    return env


def test_a_seat_view_and_a_seed_make_one_sampled_world() -> None:
    first, again = _start("verish_ne_verish-v0", VERISH_PILE, num_players=4), cardenvs.make("verish_ne_verish-v0")
    again.reset(seed=0, options={"position": VERISH_PILE})
    assert first.unwrapped.position() == again.unwrapped.position()  # the same seed deals the same '?' cards
    other = cardenvs.make("verish_ne_verish-v0")
    other.reset(seed=1, options={"position": VERISH_PILE})
    assert other.unwrapped.position() != first.unwrapped.position()
    assert other.unwrapped.position(seat=3) == first.unwrapped.position(seat=3)  # seat 3 cannot tell them apart
    assert first.agent_selection == "player_3"
    assert "hand 3: 2 2 4 6 8 8 10 J Q K A A" in first.unwrapped.position()


VERISH = ("verish_ne_verish-v0", VERISH_PILE, {"num_players": 4})
KYUURI = ("kyuuri-v0", KYUURI_TRICK, {"num_players": 4})
ZSY = ("zheng_shang_you-v0", ZSY_TWO_OUT, {"num_players": 5})
GONINKAN = ("goninkan-v1", GONINKAN_TRICK9, {})
YONINKAN = ("yoninkan-v1", YONINKAN_SHOW, {})
IMPOSSIBLE = [
    (VERISH, ("hand 3: 2 2 4 6 8 8 10 J Q K A A", "hand 3: 2 2 2 2 6 8 8 10 J Q K A"), "four of a kind"),
    (VERISH, ("hand 3: 2 2 4 6 8 8 10 J Q K A A", "hand 3: 2 2 4 6 8 8 10 J Q K A A K"), "unknown card"),
    (VERISH, ("turn: 3", "turn: 2"), "made the latest play"),
    (VERISH, ("phase: play", "phase: lead"), "pile is not empty"),
    (VERISH, ("turn: 3", "turn: 4"), r"0\.\.3"),
    (VERISH, ("set aside: ?", "set aside: ? ?"), "exactly one card is set aside"),
    (VERISH, ("pile: claim 7;", "pile: claim 1;"), "not a rank"),
    (KYUURI, ("turn: 0", "turn: 1"), "player 0's turn"),
    (KYUURI, ("dealer: 0", "dealer: 0\npenalties: 0 0 0 99"), r"penalties.*each in 0\.\."),
    (
        KYUURI,
        ("played 2: 8 9 9 Q\nplayed 3: 5 6 J K\nstock: ?", "played 2: 8 9 Q\nplayed 3: 5 6 J K\nstock: ? ?"),
        "played 3",
    ),
    (KYUURI, ("trick: leader 2; 2: 9; 3: J", "trick: leader 2; 3: J; 2: 9"), "follow the leader"),
    (KYUURI, ("hand 0: 5 7 Q A", "hand 0: Q Q Q Q"), "more than 4 cards of rank"),
    (KYUURI, ("hand 0: 5 7 Q A\nhand 1: ? ? ? ?", "hand 0: 5 7 Q A ?\nhand 1: ? ? ?"), "in the game holds 4"),
    (ZSY, ("hand 3: 3♣ 5♦", "hand 3: 9♣ 5♦"), "appear twice"),
    (ZSY, ("turn: 3", "turn: 2"), "made the play on top"),
    (ZSY, ("out: 0 4", "out: 0"), "no cards but is not out"),
    (ZSY, ("top: 2: set of 2×9: 9♣ 9♥", "top: 1: set of 2×7: 7♠ 7♦"), "the trick's latest play"),
    (ZSY, ("hand 0: -", "hand 0: ?"), "unknown card"),
    (GONINKAN, ("hand 3: 5♦ BJ", "hand 3: 5♦ BJ A♠"), "appear twice"),
    (GONINKAN, ("turn: 3", "turn: 4"), "player 3 plays next"),
    (GONINKAN, ("honours: 3 4 0 2 4", "honours: 3 4 0 2 5"), "hold 13 honours, not 14"),
    (GONINKAN, ("hand 2: ?", "hand 2: K♣"), "void in ♣ but holds K♣"),
    (GONINKAN, ("kankei: 3 4", "kankei: 0 1"), "contradict the teams"),
    (GONINKAN, ("phase: play", "phase: lead choice"), "lead choice comes before the first lead"),
    (GONINKAN, ("tricks: 8", "tricks: 7"), "after 7 trick"),
    (GONINKAN, ("trick: leader 1; 1: J♣; 2: 10♥", "trick: leader 2; 2: 10♥; 1: J♣"), "follow the leader"),
    (GONINKAN, ("trump: ♠", "trump: ♥"), "deal 1's trump follows the round"),
    (YONINKAN, ("teams: public", "teams: hidden"), "only Yoninkan's deal 1 hides"),
    (YONINKAN, ("turn: 0", "turn: 1"), "player 0 decides"),
    (YONINKAN, ("key holders: 1 0", "key holders: 1 2"), "関係 players who held"),
    # malformed text: a PositionError naming the line and what it may hold (ValueError, IndexError before)
    (VERISH, ("pile: claim 7; 0: 7 7", "pile: claim 7; 0: 7 1"), r"line 'pile: .*unknown rank '1'; valid ranks"),
    (VERISH, ("pile: claim 7; 0: 7 7", "pile: claim 7; ²: 7 7"), r"line 'pile: .*with a seat 0\.\.3"),
    (KYUURI, ("leader 2", "leader 13"), r"line 'trick: leader 13.*with seats 0\.\.3"),
    (ZSY, ("turn: 3", "turn: 3\nknown 3: 1: 1♠"), r"line 'known 3: 1: 1♠': expected cards .*unknown rank '1'"),
    (GONINKAN, ("honours: 3 4 0 2 4", "honours: 3 4 0 2 1e30"), r"line 'honours: .*whole numbers, each in 0\.\."),
]


@pytest.mark.parametrize(("case", "change", "problem"), IMPOSSIBLE, ids=[f"{c[0][0]}-{c[2]}" for c in IMPOSSIBLE])
def test_impossible_positions_name_the_problem(
    case: tuple[str, str, dict[str, Any]], change: tuple[str, str], problem: str
) -> None:
    env_id, position, options = case
    assert change[0] in position
    with pytest.raises(PositionError, match=problem):
        _start(env_id, position.replace(*change), **options)


def test_a_mid_round_zsy_position_starts_with_the_seat_to_beat_the_top() -> None:
    env = _start("zheng_shang_you-v0", ZSY_TWO_OUT, num_players=5)
    game = env.unwrapped.game
    assert env.agent_selection == "player_3" and game.top is not None and game.top_seat == 2
    assert game.out == [True, False, False, False, True] and game.finish_order == [0, 4]


def test_a_goninkan_trick_9_view_deals_its_unknown_cards_as_the_voids_allow() -> None:
    for seed in range(4):
        env = cardenvs.make("goninkan-v1")
        env.reset(seed=seed, options={"position": GONINKAN_TRICK9})
        game = env.unwrapped.game
        assert game.cards_text(game.hands[2])[-1] == "♥"  # player 2 has shown voids in ♣ ♦ ♠
        assert env.agent_selection == "player_3" and game.legal_actions() == [game.A_JOKER]  # 踊り番
        assert env.unwrapped.position(seat=3) == _start("goninkan-v1", GONINKAN_TRICK9).unwrapped.position(seat=3)


VERISH_QUADS = """
dealer: 2
phase: quads
turn: 0
quads: 0; from 6; starter 0
hand 0: 6 6 7 8 A A A A
hand 1: ? ? ? ? ? ? ? ? ? ? ? ? ?
hand 2: ? ? ? ? ? ? ? ? ? ? ? ? ? ?
set aside: ?
"""
VERISH_QUADS_OPTIONS = {"num_players": 3, "deck_size": 36, "quad_discard_optional": True}


def test_a_verish_position_after_the_top_rank_quad_is_discarded_round_trips() -> None:
    """Discarding the quad of aces leaves no rank to discard: the position writes 'from -' (it raised IndexError)."""
    env = _start("verish_ne_verish-v0", VERISH_QUADS, **VERISH_QUADS_OPTIONS)
    env.step(env.unwrapped.action_table.names.index("discard_quad(A)"))
    assert env.agent_selection == "player_0" and env.unwrapped.game.legal_actions() == [env.unwrapped.game.KEEP]
    text = env.unwrapped.position()
    assert "quads: 0; from -; starter 0" in text
    again = _start("verish_ne_verish-v0", text, **VERISH_QUADS_OPTIONS)
    assert again.unwrapped.position() == text
    assert (again.observe("player_0")["observation"] == env.observe("player_0")["observation"]).all()
    assert again.unwrapped.game.legal_actions() == [again.unwrapped.game.KEEP]


def _finish(env_id: str, seed: int = 0) -> Any:
    env = cardenvs.make(env_id)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return env


@pytest.mark.parametrize("env_id", cardenvs.ENV_IDS)
def test_a_finished_game_writes_turn_dash_and_reading_it_says_the_game_is_over(env_id: str) -> None:
    """Goninkan and Yoninkan wrote 'turn: -1', which their reader refused as out of range."""
    text = _finish(env_id).unwrapped.position()
    assert "turn: -\n" in text
    with pytest.raises(PositionError, match=r"game is over \('turn: -'\)"):
        cardenvs.make(env_id).reset(seed=0, options={"position": text})


def test_rewards_paid_but_not_collected_are_part_of_the_position() -> None:
    """A Zheng Shang You match pays the deal's points at its end; seats collect them through last() when they next
    act. A position written in between keeps them (a round trip lost them)."""
    options = {"num_players": 4, "reward_mode": "match_points", "target_points": 4}
    env = cardenvs.make("zheng_shang_you-v0", **options)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    due = dict.fromkeys(env.possible_agents, 0.0)
    while not any(due.values()):
        observation, _, _, _, _ = env.last()
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        due = dict(env.unwrapped._cumulative_rewards)
    text = env.unwrapped.position()
    assert "rewards due: " in text and sum(due.values()) == 3  # 2 for the first out, 1 for the second
    for seat in [None, *range(4)]:
        again = _start("zheng_shang_you-v0", env.unwrapped.position(seat=seat), **options)
        assert again.unwrapped._cumulative_rewards == due
        assert again.last()[1] == env.last()[1]
    with pytest.raises(PositionError, match=r"rewards due.*4 finite numbers"):
        _start("zheng_shang_you-v0", text.replace("rewards due: ", "rewards due: nan "), **options)


STRIDE = {"verish_ne_verish": 3, "yukushi": 40, "kyuuri": 4, "zheng_shang_you": 7, "goninkan": 2, "yoninkan": 1}
"""Every k-th decision of a case's game is read back (and every one where a reward is due): about 50 a case. The
kit's function checks every decision by default (``every=1``); the whole of one game of every case costs minutes."""


@pytest.mark.parametrize(("env_id", "options"), CASES, ids=[case_id(c) for c in CASES])
def test_positions_read_back_at_the_decisions_of_a_game(env_id: str, options: dict[str, Any]) -> None:
    game = env_id.split("/")[-1].rsplit("-", 1)[0]
    assert check_positions_at_every_decision(env_id, options, games=2, every=STRIDE[game]) > 0


FUZZED = [[c for c in CASES if c[0] == env_id][k] for env_id in cardenvs.ENV_IDS for k in (0, -1)]
"""Cases of the fuzz test: the first and the last option set of each id."""


@pytest.mark.parametrize(("env_id", "options"), FUZZED, ids=[case_id(c) for c in FUZZED])
def test_malformed_positions_load_or_raise_position_error(env_id: str, options: dict[str, Any]) -> None:
    """400 mutations (character edits, values swapped between lines, odd tokens, lines dropped or doubled) of
    positions of a seeded game: each loads and plays on, or raises PositionError (it raised ValueError for
    'unknown rank', IndexError for 'trick: leader 13', OverflowError, …)."""
    stats = check_malformed_positions(env_id, options, mutations=400, seed=0)
    assert stats["refused"] > 100 and stats["loaded"] > 0, stats


VERISH_LONG_HIDDEN_HAND = """
dealer: 1
phase: play
turn: 1
hand 0: ? ? ? ?
hand 1: ? ?
hand 2: 6 Q
hand 3: 4 7 8 ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ? ?
pile: claim 2; 0: ?
known 2: 3: 4 7 8
known public: 3: 7 8
set aside: ?
discarded: 5 10 J K
"""


def test_a_long_hidden_hand_is_dealt_without_four_of_a_kind() -> None:
    """Seat 2's view late in a game (seed 1, step 55): a uniform deal of the 23 '?' of player 3 nearly always
    makes four of a kind, which this game discards at once, so 200 rejected deals failed to read it."""
    for seed in range(5):
        env = cardenvs.make("verish_ne_verish-v0", num_players=4)
        env.reset(seed=seed, options={"position": VERISH_LONG_HIDDEN_HAND})
        hands = env.unwrapped.game.table.hands
        assert hands.max() <= 3 and hands[3].sum() == 26


def test_a_capped_deal_is_uniform_over_the_deals_that_respect_the_caps() -> None:
    """Four 7s, four 8s and two 9s, 7 dealt to a hand that holds at most three of a rank and 3 elsewhere: a third
    of the uniform deals break the cap. Of the 80 ways (distinct cards) that respect it, 32 give the hand 7 7 7 8 8
    8 9, and 24 each 7 7 7 8 8 9 9 and 7 7 8 8 8 9 9."""
    tokens = np.array([0, 0, 0, 0, 1, 1, 1, 1, 2, 2])
    known = [np.zeros(3, dtype=np.int64), np.zeros(3, dtype=np.int64)]
    rng = np.random.default_rng(0)
    draws = 4000
    seen = {(3, 3, 1): 0, (3, 2, 2): 0, (2, 3, 2): 0}
    for _ in range(draws):
        hand, rest = deal_capped(tokens, [7, 3], known, [3, None], rng)
        seen[tuple(hand.tolist())] += 1  # a deal breaking the cap has no key
        assert rest.sum() == 3
    assert abs(seen[(3, 3, 1)] / draws - 32 / 80) < 0.031  # 4 standard errors
    assert abs(seen[(3, 2, 2)] / draws - 24 / 80) < 0.029
