"""The challenge window under models A, B and C, and the tie rule between simultaneous callers."""

from __future__ import annotations

import numpy as np
import pytest

from cardenvs.core.challenge import ChallengeWindow, clockwise_after, nearest_clockwise
from tests.yukushi.helpers import act, all_pass, build, game, kinds, window


def test_tie_goes_to_the_caller_nearest_clockwise_from_the_owner() -> None:
    assert nearest_clockwise(2, [0, 1, 3], 4) == 3
    assert nearest_clockwise(2, [0, 1], 4) == 0
    assert clockwise_after(1, [0, 1, 2, 3], 4) == [2, 3, 0, 1]
    g = game(leader=0)
    build(g, "2", declare="2")  # player 0 owns the latest play; player 1 is to act
    assert window(g, callers=(2, 3)) == [2, 3]  # 2 and 3 call at the same moment, unseen by each other
    mark = len(g.events)
    act(g, "pass")  # player 1's action, void
    assert kinds(g, mark) == [("window", None), ("challenge", 2)]
    assert g.events.of_kind("window")[-1]["public"] == {
        "model": "A",
        "eligible": [1, 2, 3],
        "decided": [1, 2, 3],
        "challengers": [2, 3],
    }


def test_the_turn_player_beats_later_callers_when_nearer() -> None:
    g = game(leader=0)
    build(g, "2", declare="2")
    window(g, callers=(3,))
    act(g, "challenge")  # player 1 calls with its turn action: nearer to player 0 than player 3
    assert g.events.of_kind("challenge")[-1]["player"] == 1
    assert g.events.of_kind("window")[-1]["public"]["challengers"] == [1, 3]


def test_tie_wraps_round_the_table() -> None:
    g = game(leader=2)
    build(g, "2", declare="2")  # owner 2, player 3 to act; asked: 0, 1 (clockwise from 3, skipping the turn)
    assert window(g, callers=(0, 1)) == [0, 1]
    act(g, "challenge")  # player 3 also calls and is nearest: 3, then 0, then 1
    assert g.events.of_kind("challenge")[-1]["player"] == 3


def test_model_a_choices_stay_hidden_until_the_window_closes() -> None:
    called, declined = game(leader=0), game(leader=0)
    for g, callers in ((called, (2,)), (declined, ())):
        build(g, "2", declare="2")
        act(g, "challenge" if callers else "decline")  # player 2, asked first
    assert called.window is not None and called.window.challengers == [2]
    for observer in range(4):
        assert np.array_equal(called.observation(observer), declined.observation(observer))
    assert np.array_equal(called.legal_mask(), declined.legal_mask())
    assert len(called.events) == len(declined.events)


def test_a_player_who_passed_may_still_call() -> None:
    g = game(leader=0)
    build(g, "2", declare="2")
    window(g)
    act(g, "pass")  # player 1 passes
    assert window(g, callers=(1,)) == [1, 3]  # player 2's window: 1 and 3 asked, the turn player 2 last
    act(g, "pass")  # player 2's action, void: player 1 called
    assert g.events.of_kind("challenge")[-1]["player"] == 1


def test_last_window_before_the_flush_and_the_option_to_skip_it() -> None:
    g = game(leader=0)
    build(g, "2", declare="2")
    all_pass(g)
    assert g.window is not None and g.window.flush_point and g.current_player == 1
    assert window(g, callers=(3,)) == [1, 2, 3]
    assert g.events.of_kind("challenge")[-1]["player"] == 3 and not g.events.of_kind("flush")
    g = game(leader=0, window_before_flush=False)
    build(g, "2", declare="2")
    all_pass(g)
    assert g.events.of_kind("flush") and g.current_player == 0 and g.leading


def test_model_b_polls_in_order_and_the_first_call_wins() -> None:
    g = game(leader=0, challenge_model="B")
    build(g, "2", declare="2")
    assert g.current_player == 1 and g.window is not None and g.window.queue == [1, 2, 3]
    act(g, "decline")  # player 1 declines: public in model B
    obs = g.observation(2)
    declined = g.layout.view(obs, "window_declined")
    assert declined.tolist() == [0, 0, 0, 1]  # relative seat 3 of player 2 is player 1
    mark = len(g.events)
    act(g, "challenge")  # player 2 calls: player 3 is never asked
    assert kinds(g, mark) == [("window", None), ("challenge", 2)]
    assert g.events.of_kind("window")[-1]["public"]["decided"] == [1, 2]


def test_model_b_turn_action_has_no_call() -> None:
    g = game(leader=0, challenge_model="B")
    build(g, "2", declare="2")
    window(g)
    assert g.current_player == 1 and g.window is None
    assert not g.legal_mask()[g.actions["challenge"].offset] and g.legal_mask()[g.actions["pass"].offset]
    assert "asked in the window" in (g.illegal_reason(g.actions["challenge"].offset) or "")


def test_model_c_only_the_turn_player_may_call_and_no_window_at_the_flush() -> None:
    g = game(leader=0, challenge_model="C")
    build(g, "2", declare="2")
    assert g.current_player == 1 and g.window is not None and g.window.queue == []
    assert g.legal_mask()[g.actions["challenge"].offset]
    for _ in range(3):
        act(g, "pass")
    assert g.events.of_kind("flush") and g.current_player == 0 and g.leading
    build(g, "3", declare="3")
    act(g, "challenge")
    assert g.events.of_kind("window")[-1]["public"]["eligible"] == [1]


@pytest.mark.parametrize(("model", "decisions"), [("A", 3), ("B", 4), ("C", 1)])
def test_decisions_per_turn(model: str, decisions: int) -> None:
    """Cost of one follow turn with four players and no call: A asks N−2 others plus the turn player, B polls
    all N−1 and then the turn player acts, C asks only the turn player."""
    g = game(leader=0, challenge_model=model)
    build(g, "2", declare="2")
    count = 0
    while not g.events.of_kind("pass"):
        act(g, "pass" if g.current_player == 1 and g.phase() != 2 else "decline")
        count += 1
    assert count == decisions


def test_window_helpers() -> None:
    w = ChallengeWindow.open("A", 0, 0, [True, True, False, True])
    assert w is not None and w.eligible == [1, 3] and w.queue == [1, 3] and w.flush_point
    assert ChallengeWindow.open("C", 0, 0, [True] * 3) is None
    assert ChallengeWindow.open("A", 0, 0, [True] * 3, at_flush=False) is None
    with pytest.raises(ValueError, match="at least one caller"):
        nearest_clockwise(0, [], 3)
