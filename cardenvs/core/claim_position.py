"""The position lines of a claim table (hands, pile, play under construction, certain knowledge), which the
bluffing games (Verish' ne verish', Yukushi) share; see :mod:`cardenvs.core.position` for the notation.

Lines (ranks as in the game's deck, ``?`` an unknown card, ``-`` nothing):

* ``hand 0: 6 6 K ?`` one per seat, the whole hand (cards being picked for a play still count as held);
* ``pile: claim K; 0: K K; 1: ? ? says 3`` the claimed rank, then each face-down play in order as
  ``seat: cards``, with ``says N`` where the count declared differs from the cards placed;
* ``building: declared K; cards K 9; count 2; done 1`` the play under construction (parts left out are unset);
* ``known 0: 1: K K; 2: Q`` cards player 0 knows for certain that seats 1 and 2 hold; ``known public:`` what
  every player knows (revealed cards picked up). A missing ``known`` row means the public one; a player's
  knowledge of its own hand is its hand, never written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cardenvs.core.bluffing import ClaimTable, Play
from cardenvs.core.bluffing_game import BluffingGame
from cardenvs.core.errors import InvalidOptionError
from cardenvs.core.position import EMPTY, UNKNOWN, Lines, PositionError, PositionFields


@dataclass
class Cards:
    """Cards read from a position: the known ones as rank counts, and how many were written ``?``."""

    counts: np.ndarray
    unknown: int = 0
    dealt: int = 0
    """How many of the cards were dealt to ``?`` places (a contradiction there may be the deal's luck)."""

    @property
    def size(self) -> int:
        return int(self.counts.sum()) + self.unknown


@dataclass
class UnknownPlaces:
    """The places written with ``?`` cards, filled in order from the missing cards of the deck."""

    places: list[Cards] = field(default_factory=list)

    def add(self, cards: Cards) -> Cards:
        if cards.unknown:
            self.places.append(cards)
        return cards

    def fill(self, game: BluffingGame[Any], known_total: np.ndarray, rng: np.random.Generator) -> None:
        """Deal the cards that no line names to the ``?`` places (sorted, then shuffled by ``rng``)."""
        totals = game.table.rank_totals - known_total
        labels = game.rank_labels
        if (totals < 0).any():
            extra = ", ".join(f"{labels[k]} {int(-totals[k])} time(s) too many" for k in np.flatnonzero(totals < 0))
            raise PositionError(f"the position holds more cards than the {game.deck.name} deck: {extra}")
        wanted = sum(p.unknown for p in self.places)
        if int(totals.sum()) != wanted:
            raise PositionError(
                f"the position writes {wanted} unknown card(s) '?' but {int(totals.sum())} card(s) of the "
                f"{game.deck.name} deck are missing from it ({game._ranks_text(totals) or 'none'}): "
                "every card must lie somewhere"
            )
        tokens = np.sort(np.repeat(np.arange(len(totals)), totals))
        rng.shuffle(tokens)
        start = 0
        for place in self.places:
            place.counts += np.bincount(tokens[start : start + place.unknown], minlength=len(totals)).astype(
                place.counts.dtype
            )
            start += place.unknown
            place.dealt, place.unknown = place.unknown, 0


def cards_text(game: BluffingGame[Any], counts: np.ndarray, unknown: int = 0) -> str:
    text = " ".join(filter(None, [game._ranks_text(counts), " ".join([UNKNOWN] * unknown)]))
    return text or EMPTY


def read_cards(game: BluffingGame[Any], fields: PositionFields, key: str, text: str) -> Cards:
    if text == EMPTY:
        return Cards(np.zeros(game.num_ranks, dtype=np.int16))
    tokens = text.split()
    try:
        counts = game._counts_from_text(" ".join(t for t in tokens if t != UNKNOWN))
    except InvalidOptionError as error:
        raise fields.error(key, str(error)) from None
    return Cards(counts, tokens.count(UNKNOWN))


def _rank(game: BluffingGame[Any], fields: PositionFields, key: str, text: str) -> int:
    if text not in game.rank_labels:
        raise fields.error(key, f"{text!r} is not a rank of the deck ({' '.join(game.rank_labels)})")
    return game.rank_labels.index(text)


# ---------------------------------------------------------------------------------------------------- writing
def write_table(game: BluffingGame[Any], seat: int | None, count_public: bool = True) -> Lines:
    """The table's lines as ``seat`` knows them (``None``: everything)."""
    t, n = game.table, game.num_players
    lines: Lines = []
    for s in range(n):
        if seat is None or s == seat:
            lines.append((f"hand {s}", cards_text(game, t.hands[s])))
        else:
            known = t.known_held[seat, s]
            lines.append((f"hand {s}", cards_text(game, known, t.hand_sizes[s] - int(known.sum()))))
    lines.append(("pile", _pile_text(game, seat, count_public)))
    lines.append(("building", _building_text(game, seat)))
    for row in range(n):
        if row != seat and seat is not None:
            continue
        per_seat = [
            f"{s}: {cards_text(game, t.known_held[row, s])}"
            for s in range(n)
            if s != row and (t.known_held[row, s] != t.known_held[n, s]).any()
        ]
        if per_seat:
            lines.append((f"known {row}", "; ".join(per_seat)))
    public = [f"{s}: {cards_text(game, t.known_held[n, s])}" for s in range(n) if t.known_held[n, s].any()]
    lines.append(("known public", "; ".join(public) or EMPTY))
    return lines


def _pile_text(game: BluffingGame[Any], seat: int | None, count_public: bool) -> str:
    t = game.table
    if not t.plays:
        return EMPTY
    parts = [f"claim {game.rank_labels[t.claim_rank]}"]
    for play in t.plays:
        if seat is None or play.seat == seat:
            cards = cards_text(game, play.cards)
        else:
            cards = " ".join([UNKNOWN] * play.count) if count_public else f"{UNKNOWN}*"
        says = f" says {play.declared_count}" if play.declared_count != play.count or not count_public else ""
        parts.append(f"{play.seat}: {cards}{says}")
    return "; ".join(parts)


def _building_text(game: BluffingGame[Any], seat: int | None) -> str:
    t = game.table
    parts = []
    if t.building_rank >= 0:
        parts.append(f"declared {game.rank_labels[t.building_rank]}")
    if t.building_count:
        mine = seat is None or seat == game.current_player
        parts.append("cards " + (cards_text(game, t.building) if mine else " ".join([UNKNOWN] * t.building_count)))
    if t.building_declared_count >= 0:
        parts.append(f"count {t.building_declared_count}")
    if t.building_closed:
        parts.append(f"done {t.building_closed}")
    return "; ".join(parts) or EMPTY


# ---------------------------------------------------------------------------------------------------- reading
@dataclass
class TableText:
    """What the table's lines say, before the ``?`` cards are dealt."""

    hands: list[Cards]
    claim_rank: int
    plays: list[tuple[int, Cards, int | None]]
    """(seat, cards, declared count or None for "as many as placed")."""
    building_rank: int = -1
    building: Cards | None = None
    building_declared_count: int = -1
    building_closed: int = 0
    known: dict[int, list[Cards]] = field(default_factory=dict)


def read_table(game: BluffingGame[Any], fields: PositionFields, unknown: UnknownPlaces) -> TableText:
    """Read the table's lines; their ``?`` places join ``unknown`` (hands first, then the pile's plays)."""
    n = game.num_players
    hands = [unknown.add(read_cards(game, fields, f"hand {s}", fields.take(f"hand {s}"))) for s in range(n)]
    claim_rank, plays = -1, []
    pile = fields.take("pile", EMPTY)
    if pile != EMPTY:
        head, *rest = [p.strip() for p in pile.split(";")]
        if not head.startswith("claim ") or not rest:
            raise fields.error("pile", "expected 'claim RANK; SEAT: CARDS; …' (or '-' for no pile)")
        claim_rank = _rank(game, fields, "pile", head.removeprefix("claim ").strip())
        for part in rest:
            who, colon, what = part.partition(":")
            cards_part, _, says = what.partition(" says ")
            if not colon or not who.strip().isdigit() or not 0 <= int(who) < n:
                raise fields.error("pile", f"each play is 'SEAT: CARDS' with a seat 0..{n - 1}, got {part!r}")
            declared = int(says) if says.strip().isdigit() else None
            plays.append((int(who), unknown.add(read_cards(game, fields, "pile", cards_part.strip())), declared))
    text = TableText(hands, claim_rank, plays)
    building = fields.take("building", EMPTY)
    for part in [] if building == EMPTY else [p.strip() for p in building.split(";")]:
        label, _, value = part.partition(" ")
        if label == "declared":
            text.building_rank = _rank(game, fields, "building", value.strip())
        elif label == "cards":
            text.building = read_cards(game, fields, "building", value.strip())
        elif label in ("count", "done") and value.strip().isdigit():
            setattr(text, "building_declared_count" if label == "count" else "building_closed", int(value))
        else:
            raise fields.error("building", f"unknown part {part!r} (declared RANK; cards CARDS; count N; done N)")
    public = _read_known(game, fields, "known public", [Cards(np.zeros(game.num_ranks, dtype=np.int16))] * n)
    text.known[n] = public
    for row in range(n):
        text.known[row] = _read_known(game, fields, f"known {row}", public)
    return text


def _read_known(game: BluffingGame[Any], fields: PositionFields, key: str, default: list[Cards]) -> list[Cards]:
    """A ``known`` line: per seat, the cards known held (seats left out: as in ``default``)."""
    n = game.num_players
    per_seat = list(default)
    value = fields.take(key, EMPTY)
    for part in [] if value == EMPTY else [p.strip() for p in value.split(";")]:
        who, _, what = part.partition(":")
        if not who.strip().isdigit() or not 0 <= int(who) < n:
            raise fields.error(key, f"each part is 'SEAT: CARDS' with a seat 0..{n - 1}, got {part!r}")
        per_seat[int(who)] = read_cards(game, fields, key, what.strip())
        if per_seat[int(who)].unknown:
            raise fields.error(key, "known cards cannot be unknown ('?')")
    return per_seat


def build_table(game: BluffingGame[Any], text: TableText, rng: np.random.Generator) -> ClaimTable:
    """Set ``game.table`` from the read lines (after the ``?`` cards are dealt) and check it can arise."""
    t, n = game.table, game.num_players
    for s, hand in enumerate(text.hands):
        t.set_hand(s, hand.counts)
    t.claim_rank = text.claim_rank
    for seat, cards, declared in text.plays:
        count = int(cards.counts.sum())
        t.plays.append(Play(seat, cards.counts, count, text.claim_rank, count if declared is None else declared))
        t.pile_by_seat[seat] += cards.counts
        t.pile_count_by_seat[seat] += count
        t.pile_size += count
    t.building_rank = text.building_rank
    t.building_declared_count = text.building_declared_count
    t.building_closed = text.building_closed
    builder = game.current_player
    if text.building is not None and text.building.size:
        if builder < 0:
            raise PositionError("the position has a play under construction but nobody to act")
        if text.building.unknown:  # another player's picks: drawn from that player's (dealt) hand
            rest = t.hands[builder] - text.building.counts
            pool = np.repeat(np.arange(game.num_ranks), rest)
            drawn: Any = rng.choice(pool, size=text.building.unknown, replace=False) if len(pool) else []
            text.building.counts += np.bincount(np.asarray(drawn, dtype=np.int64), minlength=game.num_ranks).astype(
                np.int16
            )
        t.building[:] = text.building.counts
        t.building_count = int(t.building.sum())
        t.building_min = int(np.flatnonzero(t.building).max())
        if (t.building > t.hands[builder]).any():
            raise PositionError(f"the play under construction holds cards that player {builder} does not hold")
    for row in range(n + 1):
        for s in range(n):
            t.known_held[row, s] = text.known[row][s].counts if s != row else 0
    if (t.known_held > t.hands[np.newaxis]).any():
        raise PositionError("a 'known' line says a player holds cards that its hand does not")
    for s, hand in enumerate(text.hands):
        if hand.unknown:
            raise PositionError(f"hand {s} still has unknown cards")  # fill() runs first
    return t
