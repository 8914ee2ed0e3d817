"""The public history a seat has seen since its last move, one readable line per event."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardenvs.core.events import Event


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} {_value(v)}" for k, v in value.items()) + "}"
    return str(value)


def event_line(event: Event, seat: int) -> str:
    """``player 2 play: claim K, lead yes, count 2`` (``you`` for the seat itself); ``event`` is as the seat saw
    it (:func:`cardenvs.core.events.seen_by`: kind, player, the public part and the seat's own private part)."""
    player = event.get("player")
    who = "" if player is None else ("you " if player == seat else f"player {player} ")
    details = ", ".join(f"{k.replace('_', ' ')} {_value(v)}" for k, v in event.items() if k not in ("kind", "player"))
    return f"{who}{event['kind']}" + (f": {details}" if details else "")


def since_last_move(events: Sequence[Event], seat: int) -> list[str]:
    """The lines of the events after the seat's last own event (all of them before its first move)."""
    last = max((i for i, e in enumerate(events) if e.get("player") == seat), default=-1)
    return [event_line(e, seat) for e in events[last + 1 :]]
