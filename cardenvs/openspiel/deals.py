"""Every deal of a small variant with its probability: the explicit chance node of ``cardenvs.openspiel``.

A deal shuffles the deck and splits it into parts of fixed sizes (each seat's hand, then the cards nobody sees),
so the chance of one split of the rank counts is multivariate hypergeometric. Suits never matter in these games,
so a deal is a split of rank counts. Deals that end the game before any decision are left out and the others
scaled up, as the env deals again after one (``CardGameEnv.reset``). Only games without chance after the deal
qualify (one game, one deal): algorithms that enumerate chance outcomes need every chance event at a node.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from cardenvs.core.aec import CardGameEnv
from cardenvs.core.cards import NUM_RANKS, RANK_TEXT
from cardenvs.core.engine import RulesEngine
from cardenvs.core.errors import InvalidOptionError
from cardenvs.core.manifest import load
from cardenvs.games import definitions

MAX_DEALS = 50_000
"""Most deals an explicit chance node lists (a larger variant is refused: sample it instead)."""


@dataclass(frozen=True)
class Deal:
    """One outcome of the chance node: who deals (or leads), the ranks of each part, and the chance of it."""

    seat: int
    parts: tuple[tuple[int, ...], ...]
    """Rank counts (2 … A) of each seat's hand, then of the undealt cards."""
    probability: float

    def hand_text(self, part: int) -> str:
        """The ranks of one part as the engines' ``from_deal`` reads them (``"K K A"``)."""
        return " ".join(RANK_TEXT[r] for r in range(NUM_RANKS) for _ in range(self.parts[part][r]))

    def name(self) -> str:
        hands = " | ".join(self.hand_text(p) or "-" for p in range(len(self.parts)))
        return f"deal seat {self.seat}: {hands}"


@dataclass(frozen=True)
class DealRules:
    """How a game deals: the deck's copies per rank, the part sizes for each first seat, and the engine a deal
    starts."""

    copies: tuple[int, ...]
    """Cards of each rank (2 … A) in the deck."""
    sizes: Callable[[int], Sequence[int]]
    """``sizes(seat)``: how many cards each hand gets, then the undealt cards, when ``seat`` deals (or leads)."""
    start: Callable[[Deal], RulesEngine[Any]]
    seats: Sequence[int]
    """The seats that may deal (or lead), each as likely."""


def splits(copies: Sequence[int], sizes: Sequence[int]) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every way to split rank counts ``copies`` into parts of ``sizes`` (each part's rank counts)."""
    ranks = [r for r, c in enumerate(copies) if c]
    parts = [[0] * len(copies) for _ in sizes]

    def place(index: int, room: list[int]) -> Iterator[tuple[tuple[int, ...], ...]]:
        if index == len(ranks):
            if not any(room):
                yield tuple(tuple(p) for p in parts)
            return
        rank = ranks[index]
        for counts in _compositions(copies[rank], room):
            for p, k in enumerate(counts):
                parts[p][rank] = k
            yield from place(index + 1, [r - k for r, k in zip(room, counts, strict=True)])
        for p in range(len(parts)):
            parts[p][rank] = 0

    yield from place(0, list(sizes))


def _compositions(total: int, room: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every way to put ``total`` cards into parts with ``room`` free places."""
    if len(room) == 1:
        if total <= room[0]:
            yield (total,)
        return
    for k in range(min(total, room[0]) + 1):
        for rest in _compositions(total - k, room[1:]):
            yield (k, *rest)


def split_probability(copies: Sequence[int], parts: Sequence[Sequence[int]]) -> float:
    """The chance that a shuffled deck of ``copies`` (cards per rank) falls into exactly these rank counts per
    part: the orderings that do, over all orderings."""
    favourable = math.prod(math.factorial(sum(p)) for p in parts) * math.prod(math.factorial(c) for c in copies)
    orderings = math.factorial(sum(copies)) * math.prod(math.factorial(k) for p in parts for k in p)
    return favourable / orderings


def enumerate_deals(rules: DealRules) -> list[tuple[Deal, RulesEngine[Any]]]:
    """Every deal that leaves a decision to take, with its engine and its chance (summing to 1)."""
    deals: list[tuple[Deal, RulesEngine[Any]]] = []
    for seat in rules.seats:
        for parts in splits(rules.copies, rules.sizes(seat)):
            deal = Deal(seat, parts, split_probability(rules.copies, parts) / len(rules.seats))
            engine = rules.start(deal)
            if not engine.is_terminal:
                deals.append((deal, engine))
            if len(deals) > MAX_DEALS:
                raise InvalidOptionError(
                    f"more than {MAX_DEALS} deals: too many for an explicit chance node (use a smaller deck or "
                    "fewer cards, or the sampled deal)"
                )
    total = sum(d.probability for d, _ in deals)
    return [(Deal(d.seat, d.parts, d.probability / total), engine) for d, engine in deals]


def round_robin(first: int, cards: int, num_players: int) -> list[int]:
    """Cards each seat gets when ``cards`` are dealt one at a time from ``first`` round the table."""
    return [len(range((seat - first) % num_players, cards, num_players)) for seat in range(num_players)]


def deal_rules(env: CardGameEnv) -> DealRules:
    """How ``env``'s game deals at its options; refuses games without an explicit deal, or with chance after it."""
    reference = env.definition.openspiel.explicit_deal
    if not reference:
        with_one = ", ".join(d.env_id for d in definitions() if d.openspiel.explicit_deal)
        raise InvalidOptionError(f"{env.definition.env_id} has no explicit deal; those that do: {with_one}")
    maker: Callable[[Any], DealRules] = load(reference)
    return maker(env.options)


def _fixed_seats(seat: int | None, num_players: int) -> Sequence[int]:
    return range(num_players) if seat is None else (seat,)


def _one_game(env_id: str, n_games: int) -> None:
    if n_games != 1:
        raise InvalidOptionError(
            f"{env_id}: an explicit deal needs one game (n_games=1, got {n_games}): later deals are chance "
            "inside a decision"
        )


def verish_deal(options: Any) -> DealRules:
    """How Verish' ne verish' deals (one game): the set-aside card is the undealt part."""
    from cardenvs.verish_ne_verish.rules import VerishGame

    _one_game("verish_ne_verish-v0", options.n_games)
    deck = options.deck
    n = options.num_players
    copies = _copies(deck.rank_counts())

    def sizes(dealer: int) -> list[int]:
        return [*round_robin((dealer + 1) % n, deck.size - 1, n), 1]

    def start(deal: Deal) -> RulesEngine[Any]:
        hands = [deal.hand_text(s) for s in range(n)]
        return VerishGame.from_deal(options, hands, set_aside=deal.hand_text(n), dealer=deal.seat)

    return DealRules(copies, sizes, start, _fixed_seats(options.dealer, n))


def yukushi_deal(options: Any) -> DealRules:
    """How Yukushi deals (one game): the whole deck, round the table."""
    from cardenvs.yukushi.rules import YukushiGame

    _one_game("yukushi-v0", options.n_games)
    deck = options.deck
    n = options.num_players
    copies = _copies(deck.rank_counts())

    def sizes(leader: int) -> list[int]:
        first = leader if options.deal_from == "leader" else (leader - 1) % n
        return [*round_robin(first, deck.size, n), 0]

    def start(deal: Deal) -> RulesEngine[Any]:
        return YukushiGame.from_deal(options, [deal.hand_text(s) for s in range(n)], leader=deal.seat)

    return DealRules(copies, sizes, start, _fixed_seats(options.leader, n))


def kyuuri_deal(options: Any) -> DealRules:
    """How Kyuuri deals (one deal): a hand each, the rest of the deck unseen."""
    from cardenvs.kyuuri.rules import KyuuriGame

    if options.deals_cap != 1:
        raise InvalidOptionError(
            "kyuuri-v0: an explicit deal needs a single deal (episode='deal'): later deals are chance inside a decision"
        )
    n = options.num_players
    copies = tuple(int(c) for c in options.rank_copies)

    def sizes(dealer: int) -> list[int]:
        return [*([options.hand_size] * n), sum(copies) - options.hand_size * n]

    def start(deal: Deal) -> RulesEngine[Any]:
        return KyuuriGame.from_deal(options, [deal.hand_text(s) for s in range(n)], dealer=deal.seat)

    return DealRules(copies, sizes, start, _fixed_seats(options.dealer, n))


def _copies(counts: dict[int, int]) -> tuple[int, ...]:
    return tuple(counts.get(r, 0) for r in range(NUM_RANKS))


__all__ = [
    "MAX_DEALS",
    "Deal",
    "DealRules",
    "deal_rules",
    "enumerate_deals",
    "kyuuri_deal",
    "split_probability",
    "verish_deal",
    "yukushi_deal",
]
