"""Positions of Kyuuri (the notation is on ``docs/games/kyuuri.md``; common lines in :mod:`cardenvs.core.position`).

Lines: ``deal`` (1-based deal of the episode), ``dealer``, ``penalties`` (per seat), ``places`` (per seat, the
place of an eliminated player, 0 while in), ``cucumbers`` (seats reincarnated, ``-`` for none), ``paid``
(rewards paid so far, per seat), ``tricks`` (tricks finished this deal), ``trick`` (the trick in progress as
``SEAT: RANK`` parts after ``leader SEAT``), ``turn``, ``hand N`` (ranks, ``?`` unknown, ``-`` for an eliminated
player), ``played N`` (ranks seat N played this deal, the current trick included) and ``stock`` (the cards
nobody was dealt).
"""

from __future__ import annotations

import numpy as np

from cardenvs.core.cards import NUM_RANKS, RANK_TEXT, rank_counts, ranks_text
from cardenvs.core.errors import InvalidOptionError
from cardenvs.core.position import (
    EMPTY,
    UNKNOWN,
    Lines,
    PositionError,
    PositionFields,
    format_number,
    is_number,
    seats_text,
)
from cardenvs.core.seating import next_seat
from cardenvs.core.tricks import Trick, winning_position
from cardenvs.kyuuri.options import KyuuriOptions
from cardenvs.kyuuri.rules import COPIES, NOTHING_TO_BEAT, KyuuriGame


def _cards(counts: np.ndarray, unknown: int = 0) -> str:
    return " ".join(filter(None, [ranks_text(counts), " ".join([UNKNOWN] * unknown)])) or EMPTY


def write_position(game: KyuuriGame, seat: int | None) -> Lines:
    """The position's lines as ``seat`` knows them (``None``: the whole state)."""
    n, trick = game.num_players, game.trick
    cards_in_trick = [f"{s}: {RANK_TEXT[c]}" for s, c in zip(trick.seats, trick.cards, strict=True)]
    lines: Lines = [
        ("deal", str(game.deals_played + 1)),
        ("dealer", str(game.dealer)),
        ("penalties", " ".join(str(int(p)) for p in game.penalties_array)),
        ("places", " ".join(str(p) for p in game.places)),
        ("cucumbers", seats_text(s for s in range(n) if game.cucumbers_array[s])),
        ("paid", " ".join(format_number(r) for r in game.returns)),
        ("tricks", str(game.tricks_played)),
        (
            "trick",
            "; ".join([f"leader {trick.leader}", *cards_in_trick]),
        ),
        ("turn", str(game.current_player) if game.current_player >= 0 else EMPTY),
    ]
    for s in range(n):
        hand = game.hands[s]
        shown = seat is None or s == seat or not game.alive[s]
        lines.append((f"hand {s}", _cards(hand) if shown else _cards(hand * 0, int(hand.sum()))))
    lines.extend((f"played {s}", _cards(game.played.by_seat[s])) for s in range(n))
    lines.append(("stock", _cards(game.stock) if seat is None else _cards(game.stock * 0, int(game.stock.sum()))))
    return lines


def _read_cards(fields: PositionFields, key: str) -> tuple[np.ndarray, int]:
    text = fields.take(key)
    if text == EMPTY:
        return np.zeros(NUM_RANKS, dtype=np.int8), 0
    tokens = text.split()
    try:
        counts = rank_counts(" ".join(t for t in tokens if t != UNKNOWN)).astype(np.int8)
    except (InvalidOptionError, ValueError, KeyError) as error:
        raise fields.error(key, f"not ranks 2..A or '?': {error}") from None
    return counts, tokens.count(UNKNOWN)


def read_position(options: KyuuriOptions, fields: PositionFields, rng: np.random.Generator) -> KyuuriGame:
    """The game the lines describe, its ``?`` cards dealt from ``rng``; raises :class:`PositionError` if no game
    could reach it."""
    game = KyuuriGame.__new__(KyuuriGame)
    game._setup(options, rng)
    n = game.num_players
    game.deals_played = fields.integer("deal", 1, options.deals_cap, 1) - 1
    game.dealer = fields.integer("dealer", 0, n - 1)
    game.penalties_array[:] = fields.whole_numbers("penalties", n, 0, options.penalty_bound)
    places = fields.whole_numbers("places", n, 0, n)  # 0: still in
    game.places = places
    for s in range(n):
        game.eliminated_array[s] = places[s] > 0
        game.alive[s] = places[s] == 0
    for s in fields.seats("cucumbers", n):
        game.cucumbers_array[s] = True
    game.returns[:] = fields.numbers("paid", n, [0.0] * n)
    game.tricks_played = fields.integer("tricks", 0, game.hand_size - 1, 0)
    game.in_play = sum(game.alive)
    if game.in_play < 2:
        raise PositionError("at least two players must still be in the game")
    _read_trick(game, fields)
    unknown: list[tuple[np.ndarray, int]] = []
    for s in range(n):
        game.hands[s], hidden = _read_cards(fields, f"hand {s}")
        unknown.append((game.hands[s], hidden))
        game.played.by_seat[s] = _read_cards(fields, f"played {s}")[0]
    stock, hidden = _read_cards(fields, "stock")
    game.stock[:] = stock
    unknown.append((game.stock, hidden))
    _deal_unknown(game, unknown, rng)
    game.held = [sum(1 << r for r in range(NUM_RANKS) if h[r]) for h in game.hands]
    game.unseen_base[:] = COPIES - game.played.all_played()
    _check(game, fields)
    return game


def _read_trick(game: KyuuriGame, fields: PositionFields) -> None:
    n = game.num_players
    head, *parts = [p.strip() for p in fields.take("trick").split(";")]
    leader = head.removeprefix("leader ").strip()
    if not head.startswith("leader ") or not is_number(leader) or int(leader) >= n:
        raise fields.error("trick", f"expected 'leader SEAT; SEAT: RANK; …' with seats 0..{n - 1}")
    game.trick = Trick(leader=int(head.removeprefix("leader ")))
    for part in parts:
        who, _, rank = (x.strip() for x in part.partition(":"))
        if not is_number(who) or int(who) >= n or rank not in RANK_TEXT:
            raise fields.error("trick", f"each card is 'SEAT: RANK' with a seat 0..{n - 1}, got {part!r}")
        game.trick.add(int(who), RANK_TEXT.index(rank))
    game.trick_winner, game.to_beat = -1, NOTHING_TO_BEAT
    for i in range(len(game.trick)):
        cards = game.trick.cards[: i + 1]
        best = winning_position(cards, ties_to_last=True)
        game.trick_winner = game.trick.seats[best]
        game.to_beat = cards[i] if game.options.swedish_gurka else cards[best]
    game.current_player = fields.integer("turn", 0, n - 1)


def _deal_unknown(game: KyuuriGame, places: list[tuple[np.ndarray, int]], rng: np.random.Generator) -> None:
    known = game.hands.sum(axis=0) + game.stock + game.played.all_played()
    missing = COPIES - known
    if (missing < 0).any():
        extra = ", ".join(RANK_TEXT[r] for r in np.flatnonzero(missing < 0))
        raise PositionError(f"the position holds more than {COPIES} cards of rank(s) {extra}")
    wanted = sum(k for _, k in places)
    if int(missing.sum()) != wanted:
        raise PositionError(
            f"the position writes {wanted} unknown card(s) '?' but {int(missing.sum())} card(s) are missing from it"
            f" ({ranks_text(missing) or 'none'}): every one of the 52 cards lies somewhere"
        )
    tokens = np.sort(np.repeat(np.arange(NUM_RANKS), missing))
    rng.shuffle(tokens)
    start = 0
    for counts, k in places:
        counts += np.bincount(tokens[start : start + k], minlength=NUM_RANKS).astype(counts.dtype)
        start += k


def _check(game: KyuuriGame, fields: PositionFields) -> None:
    """Reject a position that no game reaches (each message names the contradiction)."""
    n, trick = game.num_players, game.trick
    alive_from_leader = game._alive_from(trick.leader) if game.alive[trick.leader] else []
    if not alive_from_leader:
        raise fields.error("trick", f"the leader {trick.leader} is not in the game")
    if trick.seats != alive_from_leader[: len(trick)] or len(trick) >= game.in_play:
        raise fields.error("trick", f"the players in the game follow the leader in turn: {alive_from_leader}")
    turn = alive_from_leader[len(trick)]
    if game.current_player != turn:
        raise fields.error("turn", f"after this trick it is player {turn}'s turn")
    for s in range(n):
        in_trick = s in trick.seats
        if not game.alive[s]:
            if game.hands[s].any() or game.played.by_seat[s].any():
                raise PositionError(f"player {s} is eliminated but holds or played cards this deal")
            continue
        if int(game.played.by_seat[s].sum()) != game.tricks_played + in_trick:
            raise PositionError(
                f"player {s} played {int(game.played.by_seat[s].sum())} card(s) this deal, but after "
                f"{game.tricks_played} trick(s){' and this one' if in_trick else ''} it has played "
                f"{game.tricks_played + in_trick}"
            )
        if int(game.hands[s].sum()) != game.hand_size - game.tricks_played - in_trick:
            raise PositionError(
                f"player {s} holds {int(game.hands[s].sum())} card(s); a player in the game holds "
                f"{game.hand_size - game.tricks_played - in_trick} at this point of the deal"
            )
        for r in trick.cards[trick.seats.index(s) : trick.seats.index(s) + 1] if in_trick else []:
            if not game.played.by_seat[s, r]:
                raise PositionError(f"player {s}'s card {RANK_TEXT[r]} in the trick is missing from its played line")
        if game.options.is_over_limit(int(game.penalties_array[s])) and game.options.eliminates:
            raise PositionError(f"player {s} is still in the game but over the limit of {game.options.threshold}")
    if next_seat(game.dealer, game.alive) != trick.leader and game.tricks_played == 0:
        raise fields.error("trick", "the first trick of a deal is led by the dealer's left-hand player")
