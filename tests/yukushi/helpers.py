"""Building Yukushi games from explicit deals and driving them move by move."""

from __future__ import annotations

from typing import Any

from cardenvs.yukushi.options import YukushiOptions
from cardenvs.yukushi.rules import YukushiGame

# The seed's worked example (典型的なプレイ), players A, B, C = 0, 1, 2; A holds the initiative. The plays need
# A to start with at least 23 cards (see docs/games/yukushi.md, "Readings"): B and C hold no 2, C all four 5s.
EXAMPLE_HANDS = [
    "2 2 2 2 3 3 3 3 4 7 7 8 8 9 9 10 J J Q Q Q Q K",
    "4 4 6 6 7 8 9 10 10 J K K A A A",
    "4 5 5 5 5 6 6 7 8 9 10 J K A",
]
# Thirteen cards each for four players; player 3 holds the four aces.
FOUR_HANDS = [
    "2 2 3 4 5 6 7 8 9 10 J Q K",
    "2 3 3 4 5 6 7 8 9 10 J Q K",
    "2 3 4 4 5 6 7 8 9 10 J Q K",
    "A A A A 5 6 7 8 9 10 J Q K",
]


def game(hands: list[str] | None = None, leader: int | None = None, **options: Any) -> YukushiGame:
    hands = hands if hands is not None else FOUR_HANDS
    return YukushiGame.from_deal(YukushiOptions(num_players=len(hands), **options), hands, leader=leader)


def act(g: YukushiGame, block: str, label: str = "") -> None:
    """Apply the action of ``block`` for ``label`` (a rank or a count), or the single action of a one-id block."""
    b = g.actions[block]
    if not label:
        g.apply(b.offset)
    else:
        g.apply(b.offset + b.labels.index(label))


def build(g: YukushiGame, cards: str, declare: str | None = None, count: int | None = None) -> None:
    """The current player's play: ``declare`` (lead), ``count`` (allow_count_mismatch), then ``cards``."""
    player = g.current_player
    if declare is not None:
        act(g, "declare", declare)
    if count is not None:
        act(g, "count", str(count))
    for rank in cards.split():
        act(g, "pick", rank)
    while g.current_player == player and g.move_in_progress():  # hidden counts: done fills every step left
        act(g, "done")


def window(g: YukushiGame, callers: tuple[int, ...] = ()) -> list[int]:
    """Answer every question of the open window (``callers`` call ゆくし, the others decline); returns who
    was asked, in order. Stops at the turn player's own decision."""
    asked = []
    while g.window is not None and g.window.queue:
        seat = g.current_player
        asked.append(seat)
        act(g, "challenge" if seat in callers else "decline")
    return asked


def all_pass(g: YukushiGame) -> None:
    """Every other player passes in turn on the latest play (nobody calls in the windows before the turns)."""
    for _ in range(g.num_players - 1):
        window(g)
        act(g, "pass")


def hand(g: YukushiGame, seat: int) -> str:
    return g._ranks_text(g.table.hands[seat])


def kinds(g: YukushiGame, start: int) -> list[tuple[str, int | None]]:
    """Kinds and players of the events logged since index ``start``."""
    return [(e["kind"], e["player"]) for e in g.events.events[start:]]
