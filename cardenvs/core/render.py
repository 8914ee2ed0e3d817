"""Pieces every game's text rendering shares: the seat line, the latest-event footer and event sentences.

A game describes its events with a table ``kind → words(who, public)``; :func:`event_text` looks the kind up
and falls back to a plain dump for kinds the table does not name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from cardenvs.core.events import Event
from cardenvs.core.seating import agent_name

Words = Callable[[str, dict[str, Any]], str]
"""``(name of the acting player or "", public part of the event) → sentence``."""

COMMON_WORDS: dict[str, Words] = {
    "out": lambda who, pub: f"{who} is out (place {pub['place']})",
}
"""Sentences several games share; a game's own table extends (and may override) these."""


def event_text(event: Event, words: Mapping[str, Words]) -> str:
    """One event in words (public parts only)."""
    who = agent_name(event["player"]) if event["player"] is not None else ""
    say = words.get(event["kind"])
    return say(who, event["public"]) if say is not None else f"{event['kind']} {who} {event['public']}".strip()


def seat_line(seat: int, status: str, to_act: bool, label: str = "") -> str:
    """``  player_2 <label> <status>  ← to act`` for the table picture."""
    return f"  {agent_name(seat):9s}{label} {status}{'  ← to act' if to_act else ''}"


def last_event_line(events: list[Event], words: Mapping[str, Words]) -> list[str]:
    """The footer line naming the latest event (none before the first)."""
    return ["Last event: " + event_text(events[-1], words)] if events else []
