"""The structured, JSON-serialisable event log every engine keeps.

An event is a plain dict::

    {"kind": "play", "player": 2, "public": {...}, "private": {2: {...}}, "secret": {...}}

``public`` is seen by everybody, ``private[seat]`` only by that seat, and ``secret`` by nobody at the
table (ground truth kept for replays, tournament metrics and debugging, e.g. whether a claim was true).
"""

from __future__ import annotations

import json
from typing import Any

Event = dict[str, Any]


class EventLog:
    """An append-only list of events with views per observer.

    Logged events are never changed, so :meth:`fork` (what engines' ``clone`` uses) shares the list with the
    copy until either side logs again: a clone costs nothing however long the game has run. Code that edits
    ``events`` in place must not do it on a forked log."""

    __slots__ = ("_shared", "events")

    def __init__(self) -> None:
        self.events: list[Event] = []
        self._shared = False

    def fork(self) -> EventLog:
        """A log with the same events that grows apart from this one (copy-on-write)."""
        twin = EventLog.__new__(EventLog)
        twin.events = self.events
        twin._shared = self._shared = True
        return twin

    def clear(self) -> None:
        """Forget every event (a fresh list: a fork sharing the old one keeps it)."""
        self.events, self._shared = [], False

    def add(
        self,
        kind: str,
        player: int | None = None,
        public: dict[str, Any] | None = None,
        private: dict[int, dict[str, Any]] | None = None,
        secret: dict[str, Any] | None = None,
    ) -> None:
        """Append one event; omitted parts are stored as empty."""
        if self._shared:  # the list is shared with a fork: this log takes its own copy before growing
            self.events = list(self.events)
            self._shared = False
        self.events.append(
            {"kind": kind, "player": player, "public": public or {}, "private": private or {}, "secret": secret or {}}
        )

    def __len__(self) -> int:
        return len(self.events)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.events)

    def of_kind(self, kind: str) -> list[Event]:
        """All events of one kind, in order."""
        return [e for e in self.events if e["kind"] == kind]

    def visible_to(self, seat: int) -> list[Event]:
        """The log as ``seat`` saw it: public parts plus that seat's private parts, no secrets."""
        return [seen_by(e, seat) for e in self.events]

    def to_json(self) -> str:
        """The whole log (all parts) as JSON text."""
        return json.dumps(self.events, default=jsonable)


def seen_by(event: Event, seat: int) -> Event:
    """One event as ``seat`` saw it: kind, player, the public part and that seat's private part (flattened)."""
    return {"kind": event["kind"], "player": event["player"], **event["public"], **event["private"].get(seat, {})}


def jsonable(value: Any) -> Any:
    """``json.dumps`` default for event values: NumPy arrays and scalars become lists and numbers."""
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"event value {value!r} is not JSON-serialisable")
