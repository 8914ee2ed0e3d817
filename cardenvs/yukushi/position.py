"""Positions of Yukushi (the notation is on ``docs/games/yukushi.md``).

Besides the claim table's lines (:mod:`cardenvs.core.claim_position`): ``game`` (1-based game of the match),
``leader`` (who led the game's first run and is dealt to first), ``points``, ``turn`` (whose turn it is to lead,
play or pass), ``to act`` (who decides now: the turn player or one asked in a window), ``owner`` (whose play is
on top, ``-`` for none), ``passes``, ``declared`` (counts declared on the pile), ``leading`` (``yes`` when the
turn player starts a run), ``window`` (``-``, or the open challenge window as ``queue SEATS; decided SEATS;
calls SEATS``), ``flushed N`` (cards seat N put into flushed piles) and ``out`` (seats in the order they went
out). Where counts are hidden (``allow_count_mismatch``) a seat's view writes ``?*`` for cards whose number it
does not know either, and ``steps N`` for another's play under construction.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from cardenvs.core import claim_position as claims
from cardenvs.core import position as pos
from cardenvs.core.bluffing import ClaimTable
from cardenvs.core.bluffing_game import rank_totals
from cardenvs.core.challenge import ChallengeWindow
from cardenvs.core.engine import TERMINAL
from cardenvs.core.position import EMPTY, Lines, PositionError, PositionFields, is_number
from cardenvs.yukushi.options import YukushiOptions
from cardenvs.yukushi.rules import YukushiGame

YES_NO = ("yes", "no")


def write_position(game: YukushiGame, seat: int | None) -> Lines:
    """The position's lines as ``seat`` knows them (``None``: the whole state)."""
    n, t, public = game.num_players, game.table, game.counts_public
    over = game.current_player == TERMINAL
    lines: Lines = [
        *claims.match_lines(game),
        ("leader", str(game.leader)),
        ("turn", EMPTY if over else str(game.turn)),
        ("to act", EMPTY if over else str(game.current_player)),
        ("owner", str(game.owner) if game.owner >= 0 else EMPTY),
        ("passes", str(game.passes)),
        ("declared", str(game.pile_declared)),
        ("leading", "yes" if game.leading else "no"),
        ("window", _window_text(game, seat)),
    ]
    lines.extend(claims.write_table(game, seat, public))
    for s in range(n):
        flushed = t.removed_own[s]
        if seat is None or s == seat:
            lines.append((f"flushed {s}", claims.cards_text(game, flushed)))
        else:
            lines.append((f"flushed {s}", claims.cards_text(game, flushed * 0, int(flushed.sum()), not public)))
    lines.append(("out", pos.seats_text(game.exit_order)))
    return lines


def _window_text(game: YukushiGame, seat: int | None) -> str:
    w = game.window
    if w is None:
        return EMPTY
    # a model-A window's calls are secret until it closes: a seat knows only its own
    calls = w.challengers if seat is None or w.model != "A" else [s for s in w.challengers if s == seat]
    return f"queue {pos.seats_text(w.queue)}; decided {pos.seats_text(w.decided)}; calls {pos.seats_text(calls)}"


def read_position(options: YukushiOptions, fields: PositionFields, rng: np.random.Generator) -> YukushiGame:
    """The game the lines describe, its ``?`` cards dealt from ``rng``; raises :class:`PositionError` if no game
    could reach it."""
    read: Callable[[], YukushiGame] = lambda: _read(options, fields, rng)  # noqa: E731
    return pos.deal_unknown(read)


def _read(options: YukushiOptions, fields: PositionFields, rng: np.random.Generator) -> YukushiGame:
    game = claims.new_game(YukushiGame, options, fields, rng)
    n = game.num_players
    game.leader = fields.integer("leader", 0, n - 1)
    game.turn = fields.integer("turn", 0, n - 1)
    game.current_player = fields.integer("to act", 0, n - 1)
    owner = fields.take("owner", EMPTY)
    game.owner = -1 if owner == EMPTY else fields.integer("owner", 0, n - 1)
    game.passes = fields.integer("passes", 0, n, 0)
    game.pile_declared = fields.integer("declared", 0, 52 * options.max_play, 0)
    game.leading = fields.choice("leading", YES_NO) == "yes"
    game.exit_order = fields.seats("out", n)
    game.out = [s in game.exit_order for s in range(n)]
    game.table = ClaimTable(n, game.num_ranks, rank_totals(game.deck), options.max_play, not options.counts_public)
    unknown = claims.UnknownPlaces()
    table_text = claims.read_table(game, fields, unknown)
    flushed = [
        unknown.add(claims.read_cards(game, fields, f"flushed {s}", fields.take(f"flushed {s}", EMPTY)))
        for s in range(n)
    ]
    unknown.fill(game, claims.known_total(table_text, *flushed), rng)
    claims.build_table(game, table_text, rng)
    for s in range(n):
        game.table.removed_own[s] = flushed[s].counts
    game.flushed_counts = [int(c.counts.sum()) for c in flushed]
    game.flushed_total = sum(game.flushed_counts)
    game.window = _read_window(game, fields)
    _check(game, [h.dealt > 0 or h.open_size for h in table_text.hands])
    return game


def _read_window(game: YukushiGame, fields: PositionFields) -> ChallengeWindow | None:
    text = fields.take("window", EMPTY)
    if text == EMPTY:
        return None
    parts = [p.strip() for p in text.split(";")]
    labels = ("queue", "decided", "calls")
    if len(parts) != 3 or any(not p.startswith(label) for p, label in zip(parts, labels, strict=True)):
        raise fields.error("window", "expected 'queue SEATS; decided SEATS; calls SEATS' ('-' for none)")
    seats = []
    for part, label in zip(parts, labels, strict=True):
        value = part.removeprefix(label).strip()
        if value != EMPTY and not all(is_number(s) and int(s) < game.num_players for s in value.split()):
            raise fields.error("window", f"{label} lists seats 0..{game.num_players - 1} or '-'")
        seats.append([] if value == EMPTY else [int(s) for s in value.split()])
    if game.owner < 0:
        raise fields.error("window", "a challenge window opens on the latest play: the position has no owner")
    window = ChallengeWindow.open(
        game.options.challenge_model,
        game.owner,
        game.turn,
        [not o for o in game.out],
        at_flush=game.options.window_before_flush,
    )
    if window is None:
        raise fields.error("window", "no window opens at this point (nobody may call)")
    window.queue, window.decided, window.challengers = seats
    expected = [s for s in window.eligible if s not in window.decided]
    if window.model == "A" and not window.flush_point:
        expected = [s for s in expected if s != game.turn]
    if window.queue != expected[: len(window.queue)]:
        raise fields.error("window", f"the window asks the eligible players {window.eligible} in turn")
    if not set(window.challengers) <= set(window.decided):
        raise fields.error("window", "only players who decided can have called")
    return window


def _check(game: YukushiGame, dealt: list[bool]) -> None:
    """Reject a position that no game reaches (each message names the contradiction)."""
    t, n = game.table, game.num_players
    on_pile = {p.seat for p in t.plays}
    for s in range(n):
        if game.out[s] and t.hand_sizes[s]:
            raise PositionError(f"player {s} is out but holds {t.hand_sizes[s]} card(s)")
        if not game.out[s] and t.hand_sizes[s] == 0 and s not in on_pile:
            error = pos.UnluckyDeal if dealt[s] else PositionError
            raise error(f"player {s} has no cards and no play on the pile, so it would be out")
    if game.out[game.turn] or game.out[game.current_player]:
        raise PositionError("a player who is out can neither have the turn nor act")
    if game.leading != (not t.plays):
        raise PositionError("'leading: yes' goes with an empty pile, 'leading: no' with a pile")
    if t.plays and t.plays[-1].seat != game.owner:
        raise PositionError(f"the owner is the latest play's player ({t.plays[-1].seat})")
    if game.pile_declared != sum(p.declared_count for p in t.plays):
        raise PositionError("'declared' is the sum of the counts the pile's plays declared")
    window = game.window
    asking = window.asking if window is not None else -1
    if game.current_player != (asking if asking >= 0 else game.turn):
        raise PositionError(f"the player to act is {asking if asking >= 0 else game.turn}, not {game.current_player}")
    if game.options.play_to_ranking:
        if n - len(game.exit_order) < 2:
            raise PositionError("fewer than two players are still in: the game would be over")
    elif game.exit_order:
        raise PositionError("the game ends when the first player goes out")
