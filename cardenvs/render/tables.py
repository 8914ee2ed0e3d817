"""What every player may see of each game's table, read from the engine's full state.

Each game has one function ``(state, seat) → Table`` where ``state`` is ``privileged_state()``, named by its
definition's ``table`` (a game outside this package may keep its reader in its own package). A function may
read only what the rules make public (plus ``seat``'s own hand); the play server's re-deal test
(``tests/play/test_hidden.py``) re-deals every card ``seat`` cannot see and checks that nothing here changes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cardenvs.core.seating import agent_name


@dataclass
class Table:
    """The public picture of one table: a status line per player, the middle of the table, the scores."""

    status: list[str]
    """One short line per player (cards held, tricks or honours, out)."""
    middle: list[tuple[str, str]] = field(default_factory=list)
    """Cards face up in the middle, as ``(player name or "", card text)``."""
    face_down: int = 0
    """Cards face down in the middle (a bluffing pile)."""
    lines: list[str] = field(default_factory=list)
    """Sentences about the middle (the claim, the trick to beat, the trump)."""
    scores: list[float] = field(default_factory=list)
    score_name: str = "score"


TableReader = Callable[[dict[str, Any], int | None], Table]


def _count(text: str) -> int:
    return len(text.split())


def _places(order: list[int], n: int) -> list[int]:
    place = [0] * n
    for i, p in enumerate(order):
        place[p] = i + 1
    return place


def bluffing_table(state: dict[str, Any], seat: int | None) -> Table:
    """Verish' ne verish' and Yukushi: hand sizes, the pile (counts as claimed, one's own cards face up)."""
    hands, out = state["hands"], state["out"]
    place = _places(state["exit_order"], len(hands))
    status = [f"out, place {place[p]}" if out[p] else f"{_count(h)} cards" for p, h in enumerate(hands)]
    pile = state["pile"]
    counts = [int(e["declared_count"]) if "declared_count" in e else _count(e["cards"]) for e in pile]
    lines = []
    if pile:
        claim = state.get("claim")
        lines.append(f"Pile: {sum(counts)} card(s) claimed as {claim}")
        plays = [
            f"{agent_name(e['player'])} {c}" + (f" ({e['cards']})" if e["player"] == seat else "")
            for e, c in zip(pile, counts, strict=True)
        ]
        lines.append("Last plays: " + ", ".join(plays[-3:]))
    else:
        lines.append("Pile: empty")
    if "set_aside" in state:
        discarded = " ".join(state.get("discarded", [])) or "-"
        lines.append(f"Discarded quads: {discarded}")
    return Table(status, face_down=sum(counts), lines=lines, scores=list(state["match_points"]), score_name="match")


def kyuuri_table(state: dict[str, Any], seat: int | None) -> Table:
    """Kyuuri: hand sizes, cards played so far, the trick in progress, penalty points."""
    hands = state["hands"]
    status = []
    for p, h in enumerate(hands):
        flags = " cucumber" if state["cucumbers"][p] else ""
        if state["eliminated"][p]:
            status.append(f"eliminated, penalty {state['penalties'][p]}{flags}")
        else:
            status.append(f"{_count(h)} cards, played {state['played'][p] or '-'}{flags}")
    trick = state["trick"]
    middle = [(agent_name(s), c) for s, c in zip(trick["seats"], trick["cards"], strict=True)]
    lines = [
        f"Deal {state['deals_played'] + 1}, trick {state['tricks_played'] + 1}, dealer {agent_name(state['dealer'])}"
    ]
    return Table(status, middle=middle, lines=lines, scores=list(state["penalties"]), score_name="penalty")


def zheng_shang_you_table(state: dict[str, Any], seat: int | None) -> Table:
    """Zheng Shang You: hand sizes, places, the combination to beat, running totals."""
    hands = state["hands"]
    place = _places(state["finish_order"], len(hands))
    status = [f"out, place {place[p]}" if place[p] else f"{_count(h)} cards" for p, h in enumerate(hands)]
    top = state["top"]
    middle: list[tuple[str, str]] = []
    if top:
        shape, _, cards = top["combo"].rpartition(": ")
        middle = [(agent_name(top["seat"]) if i == 0 else "", c) for i, c in enumerate(cards.split())]
        lines = [f"To beat: {shape} by {agent_name(top['seat'])} ({state['passes']} pass(es) since)"]
    else:
        lines = ["To beat: nothing (a lead)"]
    if state.get("exchange"):
        lines.append("Card exchange in progress")
    lines.append(f"Deal {state['deals_played'] + 1}, dealer {agent_name(state['dealer'])}")
    return Table(status, middle=middle, lines=lines, scores=list(state["totals"]), score_name="total")


def kankei_table(state: dict[str, Any], seat: int | None) -> Table:
    """Goninkan and Yoninkan: hand sizes, honours won, the trick in progress, trump, declarations, points."""
    hands = state["hands"]
    status = [f"{_count(h)} cards, honours {state['honours'][p]}" for p, h in enumerate(hands)]
    middle = [(agent_name(p), c) for p, c in state["trick"]]  # the trick lists players, not seats
    lines = [
        f"Round {state['round']}, deal {state['deal']}, trick {state['trick_number']}, "
        f"dealer {agent_name(state['dealer'])}, trump {state['trump'] or '-'}"
    ]
    declared = ", ".join(f"{agent_name(p)} {kind}" for p, kind, _ in state["declarations"])
    if declared:
        lines.append(f"Declarations: {declared}")
    return Table(status, middle=middle, lines=lines, scores=list(state["match_points"]), score_name="match")
