"""Per-game hooks: who partners whom, finishing places, and which metrics a game's event log yields.

Everything else in the tournament is generic over env ids, player counts and policies. A game that needs
more than the defaults adds one :class:`GameHooks` entry to :data:`GAME_HOOKS`, keyed by its game name
(``verish_ne_verish``, the part of the env id before ``-v``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cardenvs.agents.tournament.metrics import BLUFFING, CLIMBING, LAST_TRICK, TRICK_TAKING, Event, MetricFamily
from cardenvs.registry import game_name

PartnerGroups = list[tuple[int, ...]]
PartnerHook = Callable[[Any, int], "PartnerGroups | None"]
"""``partners(options, num_players)``: groups of seats that play as one side for the whole episode, or
``None`` when every player plays for themself (or sides are dealt by the cards, as in Goninkan)."""
PlacesHook = Callable[[Sequence[Event], Sequence[float], Any], "list[float] | None"]
"""``places(events, returns, options)``: finishing place per seat (1 = best), or ``None`` to rank by returns."""


def places_by_returns(returns: Sequence[float]) -> list[float]:
    """Place per seat by return, best first; tied seats share the mean of the places they span."""
    return [1.0 + sum(r > mine for r in returns) + (sum(r == mine for r in returns) - 1) / 2 for mine in returns]


def declared_partners(options: Any, num_players: int) -> PartnerGroups | None:
    """Partner groups the game's options declare: a ``partner_groups`` attribute (or method) listing the groups,
    or a ``teams`` attribute giving each seat's side (Zheng Shang You: ``(0, 1, 0, 1)`` for 2 v 2). ``None`` when
    every seat is its own side."""
    groups = getattr(options, "partner_groups", None)
    if callable(groups):
        groups = groups()
    if groups:
        return [tuple(g) for g in groups]
    sides = getattr(options, "teams", None)
    if isinstance(sides, (list, tuple)) and len(sides) == num_players and len(set(sides)) < num_players:
        return [tuple(s for s in range(num_players) if sides[s] == side) for side in dict.fromkeys(sides)]
    return None


def reported_places(events: Sequence[Event], returns: Sequence[float], options: Any) -> list[float] | None:
    """Places from a single game's ``game_over`` event: its public ``places`` (ties share the mean place), or
    its ``order`` of going out (seats it does not list, as in a game that ends at the first player out, share
    the places left). ``None`` (rank by returns) for a match of several games, or a truncated one."""
    overs = [e for e in events if e["kind"] == "game_over"]
    if len(overs) != 1:
        return None
    public = overs[0]["public"]
    n = len(returns)
    if "places" in public:
        return places_by_returns([-float(p) for p in public["places"]])
    if "order" in public:
        order = list(public["order"])
        places = [(len(order) + 1 + n) / 2] * n  # the mean of places len(order)+1 .. n
        for place, seat in enumerate(order, start=1):
            places[seat] = float(place)
        return places
    return None


@dataclass(frozen=True)
class GameHooks:
    """The game-specific parts of a tournament (defaults suit any individual game)."""

    partners: PartnerHook = declared_partners
    places: PlacesHook = reported_places
    metrics: MetricFamily | None = None


GAME_HOOKS: dict[str, GameHooks] = {
    "verish_ne_verish": GameHooks(metrics=BLUFFING),
    "yukushi": GameHooks(metrics=BLUFFING),
    "kyuuri": GameHooks(metrics=LAST_TRICK),
    "goninkan": GameHooks(metrics=TRICK_TAKING),
    "yoninkan": GameHooks(metrics=TRICK_TAKING),
    "zheng_shang_you": GameHooks(metrics=CLIMBING),
}
"""Game name → hooks. Games not listed get the defaults (partners the options declare, places the log reports
or else by returns, no metrics)."""


def hooks_for(env_id: str) -> GameHooks:
    """The hooks of a game (defaults for games without an entry)."""
    return GAME_HOOKS.get(game_name(env_id), GameHooks())


def validate_partner_groups(groups: PartnerGroups, num_players: int) -> None:
    """Partner groups must split the seats ``0..n-1`` into disjoint, equally sized sides."""
    seats = sorted(s for g in groups for s in g)
    if seats != list(range(num_players)):
        raise ValueError(f"partner groups {groups} must cover seats 0..{num_players - 1} exactly once")
    if len({len(g) for g in groups}) != 1:
        raise ValueError(f"partner groups {groups} must have equal sizes, so that sides can swap seats")
