"""The seed's worked example (典型的なプレイ, steps 1–44) replayed step by step under the default window model A.

In model A every eligible player other than the turn player is asked first (their answers hidden), then the turn
player plays, passes or calls. Step numbers in the comments are the seed's.
"""

from __future__ import annotations

from cardenvs.core.engine import TERMINAL
from tests.yukushi.helpers import EXAMPLE_HANDS, act, build, game, hand, kinds, window

A, B, C = 0, 1, 2


def pass_round(g, owner: int) -> None:  # type: ignore[no-untyped-def]
    """Both others pass on ``owner``'s play (each asked in the window first) and nobody calls at the flush point."""
    for turn in ((owner + 1) % 3, (owner + 2) % 3):
        assert window(g) == [3 - owner - turn] and g.current_player == turn
        act(g, "pass")
    assert g.current_player != owner or g.window is None
    assert window(g) == [s for s in ((owner + 1) % 3, (owner + 2) % 3)]  # the last window before the flush


def flushed(g, start: int, owner: int, size: int) -> None:  # type: ignore[no-untyped-def]
    flush = [e for e in g.events.events[start:] if e["kind"] == "flush"]
    assert len(flush) == 1 and flush[0]["player"] == owner and flush[0]["public"] == {"pile_size": size}
    assert g.table.pile_size == 0 and g.leading and g.current_player == owner


def lead_unanswered(g, cards: str, claim: str) -> None:  # type: ignore[no-untyped-def]
    """A leads ``cards`` claiming ``claim``; B and C pass and nobody calls: the pile is flushed, A leads again."""
    build(g, cards, declare=claim)
    mark = len(g.events)
    pass_round(g, A)
    flushed(g, mark, A, len(cards.split()))


def test_the_seeds_worked_example_step_by_step() -> None:
    g = game(EXAMPLE_HANDS, leader=A)
    assert g.table.hand_sizes == [23, 15, 14] and g.current_player == A and g.leading
    # 1–4: "2 が 4 枚" (really 7 7 8 8); B and C hold no 2 and pass; the pile is flushed unseen; A leads again.
    lead_unanswered(g, "7 7 8 8", "2")
    assert g.events.of_kind("flush")[-1]["private"] == {A: {"cards": "7 7 8 8"}}  # only A knows what went
    # 5–8: the same again (9 9 J J); B hesitates but passes.
    lead_unanswered(g, "9 9 J J", "2")
    # 9–12: "2 が 4 枚" a third time, B calls ゆくし: four 2s indeed; B takes the 4 cards, A leads again.
    build(g, "2 2 2 2", declare="2")
    assert window(g) == [C] and g.current_player == B
    act(g, "challenge")
    challenge = g.events.of_kind("challenge")[-1]
    assert challenge["player"] == B
    assert challenge["public"] == {"owner": A, "revealed": ["2"] * 4, "lie": False, "taker": B, "pile_size": 4}
    assert g.table.hand_sizes == [11, 19, 14] and g.current_player == A and g.leading
    # 13–15: "3 が 1 枚", B calls again: a 3; B takes it and A leads.
    build(g, "3", declare="3")
    window(g)
    act(g, "challenge")
    assert g.events.of_kind("challenge")[-1]["public"]["lie"] is False
    assert "3" in hand(g, B).split() and g.table.hand_sizes == [10, 20, 14] and g.current_player == A
    # 16–22: A 3, B plays the 3 it took from A, C passes, A 3, B and C pass: flushed; A leads.
    build(g, "3", declare="3")
    assert window(g) == [C]
    build(g, "3")  # 17: B
    assert g.owner == B and window(g) == [A] and g.current_player == C
    act(g, "pass")  # 18: C
    assert window(g) == [C] and g.current_player == A
    build(g, "3")  # 19: A
    mark = len(g.events)
    pass_round(g, A)  # 20–22
    flushed(g, mark, A, 3)
    assert g.table.hand_sizes == [8, 19, 14]
    # 23–26: "3 が 2 枚" (3 and 4); B winces and passes, C passes: flushed.
    lead_unanswered(g, "3 4", "3")
    # 27–30: "3 が 1 枚" (really a 10); B passes; C calls: a lie, A takes its card back and C leads.
    build(g, "10", declare="3")
    assert window(g) == [C] and g.current_player == B
    act(g, "pass")  # 28
    assert window(g) == [B] and g.current_player == C  # B, who passed, may still call: it declines
    mark = len(g.events)
    act(g, "challenge")  # 29
    assert kinds(g, mark) == [("window", None), ("challenge", C)]
    assert g.events.of_kind("window")[-1]["public"]["challengers"] == [C]
    assert g.events.of_kind("challenge")[-1]["public"] == {
        "owner": A,
        "revealed": ["10"],
        "lie": True,
        "taker": A,
        "pile_size": 1,
    }
    assert hand(g, A) == "10 Q Q Q Q K" and g.current_player == C and g.leading
    # 31–34: C "5 が 1 枚"; A "5 が 1 枚" (a K); C, holding the four 5s, calls before B acts.
    build(g, "5", declare="5")
    assert window(g) == [B] and g.current_player == A
    build(g, "K")  # 32
    assert g.current_player == C and window(g, callers=(C,)) == [C]  # 33: C's call is hidden ...
    assert g.current_player == B  # ... so B still chooses its action, which the call voids
    mark = len(g.events)
    act(g, "pass")
    assert kinds(g, mark) == [("window", None), ("challenge", C)]  # no pass is logged: B's action was void
    assert g.events.of_kind("challenge")[-1]["public"]["revealed"] == ["K"]
    assert hand(g, A) == "5 10 Q Q Q Q K" and g.table.hand_sizes == [7, 19, 13]  # 34: A took 2 cards
    assert g.current_player == C and g.leading
    # 35–39: C 6, A 6 (a 10), B and C pass: flushed; A leads.
    build(g, "6", declare="6")
    window(g)
    build(g, "10")
    mark = len(g.events)
    pass_round(g, A)
    flushed(g, mark, A, 2)
    assert g.events.of_kind("flush")[-1]["private"] == {A: {"cards": "10"}, C: {"cards": "6"}}
    # 40–41: A 6 (a K) ... (the seed elides these steps) flushed; A dumps its 5 the same way.
    lead_unanswered(g, "K", "6")
    lead_unanswered(g, "5", "7")
    assert hand(g, A) == "Q Q Q Q"
    # 42–44: "Q を 4 枚", A's last cards; B calls at once; four Qs: B takes them and A is out (the winner).
    build(g, "Q Q Q Q", declare="Q")
    assert g.table.hand_sizes[A] == 0 and not g.out[A]  # not out until the play is safe
    assert window(g) == [C] and g.current_player == B
    mark = len(g.events)
    act(g, "challenge")
    assert kinds(g, mark) == [("window", None), ("challenge", B), ("out", A), ("game_over", None)]
    assert g.events.of_kind("game_over")[0]["public"]["winner"] == A
    assert g.table.hand_sizes == [0, 23, 12] and g.current_player == TERMINAL
    assert g.take_rewards().tolist() == [1.0, -0.5, -0.5]  # type: ignore[union-attr]
    assert sorted(g.card_multiset()) == [r for r in range(13) for _ in range(4)]  # flushed cards included
    assert sum(e["public"]["pile_size"] for e in g.events.of_kind("flush")) == 17


def test_after_the_example_b_leads_when_playing_to_a_ranking() -> None:
    """Step 44, "次はBがカードを出す番である": with play_to_ranking the game goes on and B, the next player in
    the game clockwise from A, leads (spec A8)."""
    hands = ["Q Q Q Q", "2 2 2 2 3 3 3 3 4 4 4 4 5 5 5 5 6 6 6 6 7 7 7 7", *[""]]
    hands[2] = "8 8 8 8 9 9 9 9 10 10 10 10 J J J J K K K K A A A A"
    g = game(hands, leader=A, play_to_ranking=True)
    build(g, "Q Q Q Q", declare="Q")
    window(g)
    act(g, "challenge")  # B
    assert g.out == [True, False, False] and g.exit_order == [A]
    assert g.current_player == B and g.leading and g.turn == B
