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

from cardenvs.core.errors import ActionTypeError
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
    """Ask ``policy`` for an action: ``act(observation, view)`` if it wants the view, else ``act(observation)``;
    what it returns must be an action id (see :func:`checked_action`)."""
    if wants_public_view(policy):
        if view is None:
            raise ValueError(f"{policy!r} wants the public view, but none was given")
        return checked_action(policy.act(observation, view), policy)
    return checked_action(policy.act(observation), policy)


def integer_action(action: Any) -> int | None:
    """``action`` as an ``int`` if it is an integer action id (an ``int``, a NumPy integer, or a one-element
    NumPy integer array), else ``None``. A ``bool`` is not an action id, nor is a float even if whole."""
    if type(action) is int:
        return action
    if isinstance(action, np.integer):
        return int(action)
    if isinstance(action, np.ndarray) and action.size == 1 and np.issubdtype(action.dtype, np.integer):
        return int(action.reshape(()))
    return None


def checked_action(action: Any, policy: Any) -> int:
    """The action id a policy returned, or :class:`~cardenvs.core.errors.ActionTypeError` naming the policy:
    a float or a bool is refused, never rounded or read as 0/1."""
    value = integer_action(action)
    if value is None:
        name = getattr(policy, "name", "") or type(policy).__name__
        raise ActionTypeError(
            f"the policy {name!r} returned {action!r} of type {type(action).__name__}: an action is an integer id "
            "(int or NumPy integer; a float or bool is refused, not rounded)"
        )
    return value
