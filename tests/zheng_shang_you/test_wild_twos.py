"""2s in sequences and set sequences (spec §4.3, §4.4, A5), from explicit deals, through the engine.

A 2 may stand for any rank 3…A in a set sequence, but no rank group may consist of 2s alone (a joker among them
makes it legal); plain sequences never hold a 2. The 2 is a natural rank of a set sequence only with
``set_sequence_top="2"`` (K-A-2); a plain sequence never reaches past the ace. Each scenario lists exactly the
(set) sequences the player may lead or follow with, and checks both ``legal_moves()`` and every play reachable
through the sub-step masks (shape, top, picks), so a combination wrongly offered or wrongly refused fails.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cardenvs.zheng_shang_you.game import ZsyGame
from tests.zheng_shang_you.driver import combos_now, described, new_game, play

RUNS = ("sequence", "set_sequence")
Plays = set[tuple[str, str, str]]
"""(kind, top rank, cards) of each play."""


def run_plays(game: ZsyGame) -> Plays:
    """The (set) sequences among ``legal_moves()``, as (kind, top, cards)."""
    return {play for play in described(combos_now(game)) if play[0] in RUNS}


def mask_plays(game: ZsyGame) -> Plays:
    """Every (set) sequence reachable through the masks from the current decision (on a lead, from the sequence
    and set-sequence shapes); fails where an offered action leads to no complete play."""
    seat = game.current_player
    plays: Plays = set()

    def walk(node: ZsyGame) -> int:
        """Complete plays below ``node``, each recorded in ``plays`` if it is a run."""
        completed = 0
        for action in np.flatnonzero(node.legal_mask()).tolist():
            name = node.describe_action(action)
            other_shape = name.startswith("shape(") and not name.startswith(("shape(seq", "shape(setseq"))
            if name == "pass" or other_shape:
                continue
            child = node.clone()
            child.apply(action)
            if child.move_in_progress():
                below = walk(child)
                assert below, f"{name} after {node.describe_legal()} leads to no complete play"
                completed += below
                continue
            event = next(e for e in reversed(child.events.events) if e["kind"] == "play")
            assert event["player"] == seat
            if event["public"]["kind"] in RUNS:
                plays.add((event["public"]["kind"], event["public"]["top"], " ".join(event["public"]["cards"])))
            completed += 1
        return completed

    walk(game)
    return plays


OTHERS = ["9♣", "9♦", "9♥"]
"""The other seats' hands (never asked: the scenarios look at seat 0's first decision)."""

LEADS: list[tuple[str, dict[str, Any], Plays]] = [
    # a pair of 2s cannot stand in for the missing 3s (or 6s): 2 2 4 4 5 5 is no set sequence
    ("2♣ 2♦ 4♣ 4♦ 5♣ 5♦", {}, set()),
    # ... nor for the missing 6s beside 4 4 5 5; a 2 beside the 6, or beside one 4 or 5 as well, is fine
    (
        "2♣ 2♦ 4♣ 4♦ 5♣ 5♦ 6♣",
        {},
        {
            ("set_sequence", "6", "4♣ 4♦ 5♣ 5♦ 6♣ 2♣"),
            ("set_sequence", "6", "4♣ 4♦ 5♣ 5♦ 6♣ 2♦"),
            ("set_sequence", "6", "4♣ 5♣ 5♦ 6♣ 2♣ 2♦"),
            ("set_sequence", "6", "4♦ 5♣ 5♦ 6♣ 2♣ 2♦"),
            ("set_sequence", "6", "4♣ 4♦ 5♣ 6♣ 2♣ 2♦"),
            ("set_sequence", "6", "4♣ 4♦ 5♦ 6♣ 2♣ 2♦"),
        }
        | {("sequence", "6", f"{four} {five} 6♣") for four in ("4♣", "4♦") for five in ("5♣", "5♦")},
    ),
    # one 2 beside a natural in each of two groups is fine
    (
        "2♣ 2♦ 3♣ 4♣ 4♦ 5♣",
        {},
        {("set_sequence", "5", "3♣ 4♣ 4♦ 5♣ 2♣ 2♦"), ("sequence", "5", "3♣ 4♣ 5♣"), ("sequence", "5", "3♣ 4♦ 5♣")},
    ),
    # a 2 with a joker may make a whole group: 3-4-5 and 4-5-6
    (
        "2♣ BJ 4♣ 4♦ 5♣ 5♦",
        {},
        {("set_sequence", "5", "4♣ 4♦ 5♣ 5♦ 2♣ BJ"), ("set_sequence", "6", "4♣ 4♦ 5♣ 5♦ 2♣ BJ")}
        | {("sequence", top, f"{four} {five} BJ") for top in "56" for four in ("4♣", "4♦") for five in ("5♣", "5♦")},
    ),
    # no 2 in a plain sequence, wild or natural: 4 5 2 and 4 5 6 2 are not sequences, 4 5 BJ is
    (
        "4♣ 5♦ 2♠ BJ",
        {},
        {("sequence", "5", "4♣ 5♦ BJ"), ("sequence", "6", "4♣ 5♦ BJ")},
    ),
    # K-A-2 runs: not by default (the 2s cannot be a group of their own either) ...
    ("K♣ K♦ A♣ A♦ 2♣ 2♦", {}, set()),
    # ... but with set_sequence_top="2" the 2s are natural at the top of K-A-2
    ("K♣ K♦ A♣ A♦ 2♣ 2♦", {"set_sequence_top": "2"}, {("set_sequence", "2", "K♣ K♦ A♣ A♦ 2♣ 2♦")}),
    # a 2 and a joker: Q-K-A with a group of Qs made of them, and K-A-2 only through the 2
    (
        "K♣ K♦ A♣ A♦ 2♣ BJ",
        {},
        {("set_sequence", "A", "K♣ K♦ A♣ A♦ 2♣ BJ")}
        | {("sequence", "A", f"{k} {a} BJ") for k in ("K♣", "K♦") for a in ("A♣", "A♦")},
    ),
    (
        "K♣ K♦ A♣ A♦ 2♣ BJ",
        {"set_sequence_top": "2"},
        {("set_sequence", "A", "K♣ K♦ A♣ A♦ 2♣ BJ"), ("set_sequence", "2", "K♣ K♦ A♣ A♦ 2♣ BJ")}
        | {("sequence", "A", f"{k} {a} BJ") for k in ("K♣", "K♦") for a in ("A♣", "A♦")},
    ),
    # a plain sequence stops at the ace even with set_sequence_top="2": Q K A only, never K A 2
    ("Q♣ K♦ A♥ 2♠", {"set_sequence_top": "2"}, {("sequence", "A", "Q♣ K♦ A♥")}),
]


@pytest.mark.parametrize(("hand", "options", "expected"), LEADS, ids=[f"{h}{o}" for h, o, _ in LEADS])
def test_leads_offer_exactly_the_legal_runs(hand: str, options: dict[str, Any], expected: Plays) -> None:
    game = new_game([hand, *OTHERS], dealer=0, episode="deal", **options)
    assert run_plays(game) == expected
    assert mask_plays(game) == expected


def test_a_follow_cannot_beat_a_run_with_a_group_of_2s() -> None:
    """33 44 55 on the table: 2 2 5 5 6 6 cannot answer with 4-5-6 (its 4s would be 2s alone), 2 4 5 5 6 6 can."""
    for hand, expected in [
        ("2♣ 2♦ 5♣ 5♦ 6♣ 6♦", set()),
        ("2♣ 4♥ 5♣ 5♦ 6♣ 6♦", {("set_sequence", "6", "4♥ 5♣ 5♦ 6♣ 6♦ 2♣")}),
    ]:
        game = new_game(["3♠ 3♥ 4♠ 4♣ 5♠ 5♥ 9♣", hand, "8♣", "8♦"], dealer=0, episode="deal")
        play(game, "3♥ 3♠ 4♣ 4♠ 5♥ 5♠")
        assert game.current_player == 1
        assert run_plays(game) == expected
        assert mask_plays(game) == expected
