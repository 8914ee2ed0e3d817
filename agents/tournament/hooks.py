"""Per-game hooks: who partners whom, finishing places, and which metrics a game's event log yields.

Everything else in the tournament is generic over env ids, player counts and policies. A game that needs
more than the defaults adds one :class:`GameHooks` entry to :data:`GAME_HOOKS`, keyed by its game name
(``verish_ne_verish``, the part of the env id before ``-v``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from agents.tournament.metrics import BLUFFING, CLIMBING, TRICK_TAKING, Event, MetricFamily

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
    """Partner groups the options object declares itself (a ``partner_groups`` attribute or method)."""
    groups = getattr(options, "partner_groups", None)
    if callable(groups):
        groups = groups()
    return [tuple(g) for g in groups] if groups else None


def no_places(events: Sequence[Event], returns: Sequence[float], options: Any) -> list[float] | None:
    """Rank by returns (the default)."""
    return None


@dataclass(frozen=True)
class GameHooks:
    """The game-specific parts of a tournament (defaults suit any individual game)."""

    partners: PartnerHook = declared_partners
    places: PlacesHook = no_places
    metrics: MetricFamily | None = None


def exit_order_places(events: Sequence[Event], returns: Sequence[float], options: Any) -> list[float] | None:
    """Places in the order of going out, from a single game's ``game_over`` event (public ``order``); seats
    the order does not list (a game that ends at the first player out) share the places left.

    A match of several games (or a truncated one, which has no ``game_over``) is ranked by returns."""
    overs = [e for e in events if e["kind"] == "game_over"]
    if len(overs) != 1 or "order" not in overs[0]["public"]:
        return None
    order = list(overs[0]["public"]["order"])
    n = len(returns)
    shared = (len(order) + 1 + n) / 2  # the mean of places len(order)+1 .. n
    places = [shared] * n
    for place, seat in enumerate(order, start=1):
        places[seat] = float(place)
    return places


def alternating_teams(options: Any, num_players: int) -> PartnerGroups | None:
    """Zheng Shang You's team games: partners sit opposite (4) or alternate (6): seats 0, 2, … vs 1, 3, ….

    Team play is read from the options (``partner_groups`` if declared, else a truthy ``teams`` /
    ``team_game`` / ``team_mode`` option)."""
    declared = declared_partners(options, num_players)
    if declared is not None:
        return declared
    if any(getattr(options, name, False) for name in ("teams", "team_game", "team_mode")):
        return [tuple(range(0, num_players, 2)), tuple(range(1, num_players, 2))]
    return None


GAME_HOOKS: dict[str, GameHooks] = {
    "verish_ne_verish": GameHooks(places=exit_order_places, metrics=BLUFFING),
    "yukushi": GameHooks(places=exit_order_places, metrics=BLUFFING),
    "kyuuri": GameHooks(metrics=TRICK_TAKING),
    "goninkan": GameHooks(metrics=TRICK_TAKING),
    "yoninkan": GameHooks(metrics=TRICK_TAKING),
    "zheng_shang_you": GameHooks(partners=alternating_teams, metrics=CLIMBING),
}
"""Game name → hooks. Games not listed get the defaults (no partners, places by returns, no metrics)."""


def game_name(env_id: str) -> str:
    """``cardenvs/verish_ne_verish-v0`` → ``verish_ne_verish``."""
    return env_id.split("/")[-1].rsplit("-v", 1)[0]


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
