"""Game-specific metrics read from the event log (``env.unwrapped.events.events``).

Each metric family turns one game's log into **counters per seat** (sums such as plays, bluffs, challenges);
the tournament adds them up per policy and reports **ratios of sums** (bluff rate = bluffs / plays), each with
a bootstrap interval. Counters are plain floats so any game can add its own. The log conventions they rely on
are those of ``HELPERS.md``: ``play`` (secret ``truthful``), ``challenge`` (public ``owner``, ``lie``,
``taker``, ``pile_size``), ``pass``, ``flush``, ``window`` (public ``eligible``, ``challengers``), ``trick``
(public ``seats``, ``cards``, ``winner``), ``out`` (public ``place``), ``deal``, ``game_over``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

Event = dict[str, Any]
Counters = list[dict[str, float]]
"""One dict of counters per seat."""


@dataclass(frozen=True)
class Ratio:
    """A reported metric: the sum of one counter over the sum of another, per policy."""

    name: str
    numerator: str
    denominator: str
    description: str


@dataclass(frozen=True)
class MetricFamily:
    """How to count a game's events per seat, and which ratios of the counts to report."""

    count: Callable[[Sequence[Event], int], Counters]
    ratios: tuple[Ratio, ...]


def _zeros(names: Sequence[str], n: int) -> Counters:
    return [dict.fromkeys(names, 0.0) for _ in range(n)]


# ---------------------------------------------------------------------------------------------- bluffing
BLUFF_COUNTERS = (
    "plays",
    "bluffs",
    "bluffs_caught",
    "bluffs_uncaught",
    "challenge_chances",
    "challenges",
    "correct_challenges",
    "lies_faced",
    "cards_picked_up",
)


def bluffing_counters(events: Sequence[Event], n: int) -> Counters:
    """Counters of the claim-and-challenge games (Verish' ne verish', Yukushi).

    A *challenge chance* is a moment at which the seat could have challenged the latest play. Where the log
    has ``window`` events (Yukushi's challenge windows), each window is one chance for every seat that
    ``decided`` in it (or, if the event does not say, every ``eligible`` seat), and the seats in
    ``challengers`` called. Otherwise the chance is the turn after a play: the seat either challenged (a
    ``challenge`` event) or declined by playing on or passing. A lie *faced* is a chance at which the latest
    play was a lie, so recall = lies challenged / lies faced."""
    c = _zeros(BLUFF_COUNTERS, n)
    windowed = any(e["kind"] == "window" for e in events)
    latest_truthful: bool | None = None  # None: the pile is empty
    for e in events:
        kind, player, public = e["kind"], e["player"], e["public"]
        if kind == "play":
            if latest_truthful is not None and not windowed:
                _chance(c[player], lie=not latest_truthful, called=False)
            latest_truthful = bool(e["secret"].get("truthful", True))
            c[player]["plays"] += 1
            c[player]["bluffs"] += not latest_truthful
        elif kind == "pass":
            if latest_truthful is not None and not windowed:
                _chance(c[player], lie=not latest_truthful, called=False)
        elif kind == "window":
            if latest_truthful is None:
                continue
            callers = set(public.get("challengers", ()))
            for seat in public.get("decided", public.get("eligible", ())):
                _chance(c[seat], lie=not latest_truthful, called=seat in callers)
        elif kind == "challenge":
            lie = bool(public["lie"])
            if not windowed:
                _chance(c[player], lie=lie, called=True)
            c[public["owner"]]["bluffs_caught"] += lie
            c[public["taker"]]["cards_picked_up"] += _pile_size(e)
            latest_truthful = None
        elif kind in ("flush", "deal", "game_over"):
            latest_truthful = None
    for seat in c:
        seat["bluffs_uncaught"] = seat["bluffs"] - seat["bluffs_caught"]
    return c


def _pile_size(challenge: Event) -> int:
    """Cards the taker picked up: public, or (where a game hides pile sizes) in the taker's private part."""
    size = challenge["public"].get("pile_size")
    if size is None:
        taker = challenge["public"]["taker"]
        private = challenge["private"].get(taker) or challenge["private"].get(str(taker)) or {}
        size = private.get("pile_size", 0)
    return int(size)


def _chance(seat: dict[str, float], *, lie: bool, called: bool) -> None:
    seat["challenge_chances"] += 1
    seat["lies_faced"] += lie
    if called:
        seat["challenges"] += 1
        seat["correct_challenges"] += lie


BLUFFING = MetricFamily(
    bluffing_counters,
    (
        Ratio("bluff_rate", "bluffs", "plays", "share of plays that were lies"),
        Ratio("bluff_success", "bluffs_uncaught", "bluffs", "share of lies that were never caught by a challenge"),
        Ratio("challenge_rate", "challenges", "challenge_chances", "share of challenge chances taken"),
        Ratio("challenge_precision", "correct_challenges", "challenges", "share of challenges that caught a lie"),
        Ratio("challenge_recall", "correct_challenges", "lies_faced", "share of lies faced that were challenged"),
        Ratio("cards_picked_up", "cards_picked_up", "games", "cards taken into hand from piles, per game"),
    ),
)


# ---------------------------------------------------------------------------------------------- trick-taking
TRICK_COUNTERS = ("tricks_won", "honours_taken", "kankei_deals", "kankei_successes")
TRICKS_WON = Ratio("tricks_won", "tricks_won", "games", "tricks won per game")
HONOUR_RANKS = frozenset({"A", "K", "Q", "J"})


def is_honour(card_text: str) -> bool:
    """A, K, Q or J of any suit (card text such as ``Q♠``; jokers are not honours)."""
    return card_text[:-1] in HONOUR_RANKS


def trick_counters(events: Sequence[Event], n: int) -> Counters:
    """Tricks won and honours (A K Q J) in them, per seat; and, where a ``deal_over`` event names the 関係
    (kankei) side (public ``kankei``: seats, ``success``: bool), the deals played and won as kankei."""
    c = _zeros(TRICK_COUNTERS, n)
    for e in events:
        kind, public = e["kind"], e["public"]
        if kind == "trick":
            winner = public["winner"]
            c[winner]["tricks_won"] += 1
            c[winner]["honours_taken"] += sum(is_honour(card) for card in public.get("cards", ()))
        elif kind == "deal_over" and "kankei" in public:
            for seat in public["kankei"]:
                c[seat]["kankei_deals"] += 1
                c[seat]["kankei_successes"] += bool(public.get("success"))
    return c


TRICK_TAKING = MetricFamily(
    trick_counters,
    (
        TRICKS_WON,
        Ratio("honours_taken", "honours_taken", "games", "honours (A K Q J) in tricks won, per game"),
        Ratio("kankei_success", "kankei_successes", "kankei_deals", "share of deals played as 関係 that succeeded"),
    ),
)


LAST_TRICK_COUNTERS = ("tricks_won", "deals_played", "last_tricks_lost", "penalty_points")


def last_trick_counters(events: Sequence[Event], n: int) -> Counters:
    """Kyuuri's "last trick loses": tricks won, deals played (``deal`` public ``players``), deals lost by taking
    the last trick and the penalty points that cost (``deal_over`` public ``losers``, ``points``)."""
    c = _zeros(LAST_TRICK_COUNTERS, n)
    for e in events:
        kind, public = e["kind"], e["public"]
        if kind == "trick":
            c[public["winner"]]["tricks_won"] += 1
        elif kind == "deal":
            for seat in public.get("players", range(n)):
                c[seat]["deals_played"] += 1
        elif kind == "deal_over":
            for seat in public.get("losers", ()):
                c[seat]["last_tricks_lost"] += 1
                c[seat]["penalty_points"] += public.get("points", 0)
    return c


LAST_TRICK = MetricFamily(
    last_trick_counters,
    (
        TRICKS_WON,
        Ratio("last_trick_rate", "last_tricks_lost", "deals_played", "share of deals lost by taking the last trick"),
        Ratio("penalty_per_deal", "penalty_points", "deals_played", "penalty points taken per deal played"),
        Ratio("deals_survived", "deals_played", "games", "deals played per game (before elimination or the end)"),
    ),
)


# ---------------------------------------------------------------------------------------------- climbing
CLIMB_COUNTERS = ("plays", "passes", "turns", "deal_places", "deals_placed")


def climbing_counters(events: Sequence[Event], n: int) -> Counters:
    """Plays, passes and finishing places per deal (from ``out`` events; the one seat still holding cards
    when the others are out takes the last place). A deal closes at the next ``deal`` event or the log's end."""
    c = _zeros(CLIMB_COUNTERS, n)
    places: dict[int, int] = {}

    def close_deal() -> None:
        if len(places) >= n - 1:
            for seat in range(n):
                c[seat]["deal_places"] += places.get(seat, n)
                c[seat]["deals_placed"] += 1
        places.clear()

    for e in events:
        kind, player = e["kind"], e["player"]
        if kind == "deal":
            close_deal()
        elif kind == "play":
            c[player]["plays"] += 1
        elif kind == "pass":
            c[player]["passes"] += 1
        elif kind == "out":
            places[player] = int(e["public"]["place"])
    close_deal()
    for seat in c:
        seat["turns"] = seat["plays"] + seat["passes"]
    return c


CLIMBING = MetricFamily(
    climbing_counters,
    (
        Ratio("mean_deal_place", "deal_places", "deals_placed", "mean finishing place in a deal (1 = first out)"),
        Ratio("pass_rate", "passes", "turns", "share of turns passed"),
        Ratio("passes", "passes", "games", "passes per game"),
    ),
)
