"""A seat's public event view: the episode's event log as a person at that seat has seen it.

Policies that model their opponents may ask for it (``wants_public_view = True``): every decision then comes
with the view, ``act(observation, view)``. The view holds, in order, every event of the episode (the deal
included) restricted to its public part and the seat's own private part (its hand at the deal, the cards it
played, a card handed to it face down); secret parts (the truth of a claim, cards flushed unseen) and other
seats' private parts never appear. The conformance kit checks that re-dealing every card the seat cannot see
leaves the view unchanged (:func:`cardenvs.testing.public_view.check_public_view`).

Events are plain JSON data (lists, dicts, numbers, strings), copied once when they are first read, so a
policy may keep or change them without touching the game's log.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, overload

import numpy as np

from cardenvs.core.events import Event, EventLog, jsonable, seen_by


class PublicView(Sequence[Event]):
    """The events ``seat`` has seen so far in the episode of ``log`` (a live, read-only sequence)."""

    __slots__ = ("_log", "_seen", "seat")

    def __init__(self, log: EventLog, seat: int):
        self._log = log
        self.seat = seat
        self._seen: list[Event] = []

    def _sync(self) -> list[Event]:
        events = self._log.events
        for event in events[len(self._seen) :]:
            self._seen.append(json.loads(json.dumps(seen_by(event, self.seat), default=jsonable)))
        return self._seen

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Event]: ...

    def __getitem__(self, index: int | slice) -> Event | Sequence[Event]:
        return self._sync()[index]

    def __len__(self) -> int:
        return len(self._sync())

    def to_list(self) -> list[Event]:
        """A copy of the events seen so far."""
        return list(self._sync())


def wants_public_view(policy: Any) -> bool:
    """Whether ``policy`` declared ``wants_public_view = True``."""
    return getattr(policy, "wants_public_view", False) is True


def policy_action(policy: Any, observation: Mapping[str, np.ndarray], view: PublicView | None) -> int:
    """Ask ``policy`` for an action: ``act(observation, view)`` if it wants the view, else ``act(observation)``."""
    if wants_public_view(policy):
        if view is None:
            raise ValueError(f"{policy!r} wants the public view, but none was given")
        return int(policy.act(observation, view))
    return int(policy.act(observation))
