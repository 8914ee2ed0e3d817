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
from typing import Any, TypeVar

import numpy as np

from cardenvs.core.bluffing import ClaimTable, Play
from cardenvs.core.bluffing_game import BluffingGame
from cardenvs.core.capped_deal import deal_capped
from cardenvs.core.errors import InvalidOptionError
from cardenvs.core.position import EMPTY, UNKNOWN, Lines, PositionError, PositionFields, format_number, is_number


@dataclass
class Cards:
    """Cards read from a position: the known ones as rank counts, and how many were written ``?``."""

    counts: np.ndarray
    unknown: int = 0
    dealt: int = 0
    """How many of the cards were dealt to ``?`` places (a contradiction there may be the deal's luck)."""
    open_size: bool = False
    """Written ``?*``: an unknown number of unknown cards (where counts are hidden), at least ``low``, at most
    ``high``."""
    low: int = 0
    high: int = 52
    cap: int | None = None
    """At most this many cards of a rank once the ``?`` cards are dealt (``None``: any number)."""

    @property
    def size(self) -> int:
        return int(self.counts.sum()) + self.unknown


@dataclass
class UnknownPlaces:
    """The places written with ``?`` cards, filled in order from the missing cards of the deck."""

    places: list[Cards] = field(default_factory=list)

    def add(self, cards: Cards, low: int = 0, high: int = 52) -> Cards:
        if cards.unknown or cards.open_size:
            cards.low, cards.high = low, high
            self.places.append(cards)
        return cards

    def _open_sizes(self, spare: int, rng: np.random.Generator) -> None:
        """Share ``spare`` cards among the ``?*`` places (each its ``low`` first, then one at a time at random)."""
        open_places = [p for p in self.places if p.open_size]
        spare -= sum(p.low for p in open_places)
        for p in open_places:
            p.unknown += p.low
        while spare > 0:
            room = [p for p in open_places if p.unknown < p.high - int(p.counts.sum())]
            if not room:
                break
            room[int(rng.integers(len(room)))].unknown += 1
            spare -= 1
        if spare:
            raise PositionError("the '?*' places cannot hold the cards missing from the position")

    def fill(self, game: BluffingGame[Any], known_total: np.ndarray, rng: np.random.Generator) -> None:
        """Deal the cards that no line names to the ``?`` places (sorted, then shuffled by ``rng``)."""
        totals = game.table.rank_totals - known_total
        labels = game.rank_labels
        if (totals < 0).any():
            extra = ", ".join(f"{labels[k]} {int(-totals[k])} time(s) too many" for k in np.flatnonzero(totals < 0))
            raise PositionError(f"the position holds more cards than the {game.deck.name} deck: {extra}")
        wanted = sum(p.unknown for p in self.places)
        if any(p.open_size for p in self.places) and int(totals.sum()) >= wanted:
            self._open_sizes(int(totals.sum()) - wanted, rng)
            wanted = int(totals.sum())
        if int(totals.sum()) != wanted:
            raise PositionError(
                f"the position writes {wanted} unknown card(s) '?' but {int(totals.sum())} card(s) of the "
                f"{game.deck.name} deck are missing from it ({game._ranks_text(totals) or 'none'}): "
                "every card must lie somewhere"
            )
        places = self.places
        tokens = np.repeat(np.arange(len(totals)), totals)
        sizes, caps = [p.unknown for p in places], [p.cap for p in places]
        dealt = deal_capped(tokens, sizes, [p.counts for p in places], caps, rng)
        for place, counts in zip(places, dealt, strict=True):
            place.counts += counts.astype(place.counts.dtype)
            place.dealt, place.unknown = place.unknown, 0


OPEN_SIZE = "?*"
"""Some unknown cards, how many unknown too (where counts are hidden)."""


def cards_text(game: BluffingGame[Any], counts: np.ndarray, unknown: int = 0, open_size: bool = False) -> str:
    hidden = OPEN_SIZE if open_size else " ".join([UNKNOWN] * unknown)
    text = " ".join(filter(None, [game._ranks_text(counts), hidden]))
    return text or EMPTY


def read_cards(game: BluffingGame[Any], fields: PositionFields, key: str, text: str) -> Cards:
    if text == EMPTY:
        return Cards(np.zeros(game.num_ranks, dtype=np.int16))
    tokens = text.split()
    try:
        counts = game._counts_from_text(" ".join(t for t in tokens if t not in (UNKNOWN, OPEN_SIZE)))
    except InvalidOptionError as error:
        raise fields.error(key, str(error)) from None
    if OPEN_SIZE in tokens and (tokens.count(OPEN_SIZE) > 1 or UNKNOWN in tokens):
        raise fields.error(key, f"'{OPEN_SIZE}' stands alone for all of a place's unknown cards")
    return Cards(counts, tokens.count(UNKNOWN), open_size=OPEN_SIZE in tokens)


def _rank(game: BluffingGame[Any], fields: PositionFields, key: str, text: str) -> int:
    if text not in game.rank_labels:
        raise fields.error(key, f"{text!r} is not a rank of the deck ({' '.join(game.rank_labels)})")
    return game.rank_labels.index(text)


GameT = TypeVar("GameT", bound=BluffingGame[Any])


def match_lines(game: BluffingGame[Any]) -> Lines:
    """``game`` (1-based game of the match) and ``points`` (match points per seat)."""
    n_games: int = game.options.n_games
    return [
        ("game", str(min(game.games_played + 1, n_games))),
        ("points", " ".join(format_number(p) for p in game.match_points)),
    ]


def new_game(cls: type[GameT], options: Any, fields: PositionFields, rng: np.random.Generator) -> GameT:
    """A bare engine of ``cls`` with the match lines read (the caller reads the rest)."""
    game = cls.__new__(cls)
    game._setup(options, rng)  # type: ignore[attr-defined]
    game.games_played = fields.integer("game", 1, options.n_games, 1) - 1
    game.match_points[:] = fields.numbers("points", game.num_players, [0.0] * game.num_players)
    return game


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
            hidden = t.hand_sizes[s] - int(known.sum())
            lines.append((f"hand {s}", cards_text(game, known, hidden, open_size=not count_public)))
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
    mine = seat is None or seat == game.current_player
    if t.building_count and (mine or not t.hidden_count):
        parts.append("cards " + (cards_text(game, t.building) if mine else " ".join([UNKNOWN] * t.building_count)))
    elif t.building_count:  # another's hidden-count play: only its steps are public, not picks against dones
        parts.append(f"steps {t.building_count + t.building_closed}")
    if t.building_declared_count >= 0:
        parts.append(f"count {t.building_declared_count}")
    if t.building_closed and (mine or not t.hidden_count):
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
    building_steps: int = 0
    """Picks and dones of another's hidden-count play, split at random on reading."""
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
            cards_part, saying, says = what.partition(" says ")
            if not colon or not is_number(who.strip()) or not 0 <= int(who) < n:
                raise fields.error("pile", f"each play is 'SEAT: CARDS' with a seat 0..{n - 1}, got {part!r}")
            if saying and not is_number(says.strip()):
                raise fields.error("pile", f"a play's count is 'says N' with a whole number N, got {part!r}")
            declared = int(says) if saying else None
            cards = read_cards(game, fields, "pile", cards_part.strip())
            plays.append((int(who), unknown.add(cards, 1, game.table.max_play), declared))
    text = TableText(hands, claim_rank, plays)
    building = fields.take("building", EMPTY)
    for part in [] if building == EMPTY else [p.strip() for p in building.split(";")]:
        label, _, value = part.partition(" ")
        if label == "declared":
            text.building_rank = _rank(game, fields, "building", value.strip())
        elif label == "cards":
            text.building = read_cards(game, fields, "building", value.strip())
        elif label in ("count", "done", "steps") and is_number(value.strip()):
            attribute = {"count": "building_declared_count", "done": "building_closed", "steps": "building_steps"}
            setattr(text, attribute[label], int(value))
        else:
            raise fields.error("building", f"unknown part {part!r} (declared RANK; cards CARDS; count N; done N)")
    public = _read_known(game, fields, "known public", [Cards(np.zeros(game.num_ranks, dtype=np.int16))] * n)
    text.known[n] = public
    for row in range(n):
        text.known[row] = _read_known(game, fields, f"known {row}", public)
    return text


def known_total(text: TableText, *others: Cards) -> np.ndarray:
    """Rank counts of the cards the lines name (before ``?`` is dealt): hands, plays and ``others``."""
    places = [*text.hands, *(cards for _, cards, _ in text.plays), *others]
    return np.asarray(np.sum([c.counts for c in places], axis=0, dtype=np.int16))


def _read_known(game: BluffingGame[Any], fields: PositionFields, key: str, default: list[Cards]) -> list[Cards]:
    """A ``known`` line: per seat, the cards known held (seats left out: as in ``default``)."""
    n = game.num_players
    per_seat = list(default)
    value = fields.take(key, EMPTY)
    for part in [] if value == EMPTY else [p.strip() for p in value.split(";")]:
        who, _, what = part.partition(":")
        if not is_number(who.strip()) or not 0 <= int(who) < n:
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
        if not 1 <= count <= t.max_play:
            raise PositionError(f"player {seat}'s play on the pile holds {count} cards; a play holds 1..{t.max_play}")
        t.plays.append(Play(seat, cards.counts, count, text.claim_rank, count if declared is None else declared))
        t.pile_by_seat[seat] += cards.counts
        t.pile_count_by_seat[seat] += count
        t.pile_size += count
    t.building_rank = text.building_rank
    t.building_declared_count = text.building_declared_count
    t.building_closed = text.building_closed
    builder = game.current_player
    if text.building_steps:  # another's hidden-count play: at least one pick, the rest dones
        picks = 1 + int(rng.integers(min(text.building_steps, int(t.hands[builder].sum()))))
        text.building = Cards(np.zeros(game.num_ranks, dtype=np.int16), picks)
        t.building_closed = text.building_steps - picks
    if text.building is not None and text.building.size:
        if builder < 0:
            raise PositionError("the position has a play under construction but nobody to act")
        if text.building.unknown:  # another player's picks: drawn from that player's (dealt) hand
            rest = t.hands[builder] - text.building.counts
            pool = np.repeat(np.arange(game.num_ranks), np.maximum(rest, 0))
            if text.building.unknown > len(pool):
                raise PositionError(
                    f"the play under construction holds {text.building.size} card(s) but player {builder} holds "
                    f"{int(t.hands[builder].sum())}"
                )
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
