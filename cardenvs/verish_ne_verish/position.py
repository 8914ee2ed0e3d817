"""Positions of Verish' ne verish' (the notation is on ``docs/games/verish_ne_verish.md``).

Besides the claim table's lines (:mod:`cardenvs.core.claim_position`): ``game`` (1-based game of the match),
``dealer``, ``points`` (match points per seat), ``phase`` (``quads``, ``lead``, ``play`` or ``over``),
``turn``, ``set aside``, ``discarded`` (ranks whose quads were put away), ``out`` (seats in the order they went
out) and, in the quads phase, ``quads: 1 2; from K; starter 3`` (the seats still to decide, the lowest rank the
one deciding may still discard, ``-`` once the top rank's quad is gone, and who starts the round once quads are
settled).
"""

from __future__ import annotations

import numpy as np

from cardenvs.core.bluffing import ClaimTable
from cardenvs.core.bluffing_game import rank_totals
from cardenvs.core.claim_position import (
    UnknownPlaces,
    build_table,
    cards_text,
    known_total,
    match_lines,
    new_game,
    read_cards,
    read_table,
    write_table,
)
from cardenvs.core.engine import TERMINAL
from cardenvs.core.position import (
    EMPTY,
    Lines,
    PositionError,
    PositionFields,
    UnluckyDeal,
    deal_unknown,
    is_number,
    seats_text,
)
from cardenvs.verish_ne_verish.rules import MAX_PLAY, VerishGame, VerishOptions

PHASES = ("quads", "lead", "play", "over")


def phase_of(game: VerishGame) -> str:
    if game.current_player == TERMINAL:
        return "over"
    if game.quad_queue:
        return "quads"
    return "lead" if game.leading else "play"


def write_position(game: VerishGame, seat: int | None) -> Lines:
    """The position's lines as ``seat`` knows them (``None``: the whole state)."""
    phase = phase_of(game)
    lines: Lines = [
        *match_lines(game),
        ("dealer", str(game.dealer)),
        ("phase", phase),
        ("turn", str(game.current_player) if phase != "over" else EMPTY),
    ]
    if phase == "quads":
        # after discarding the top rank's quad, no rank is left to discard: only keep_quads remains
        quad_from = game.rank_labels[game.quad_min] if game.quad_min < game.num_ranks else EMPTY
        lines.append(("quads", f"{seats_text(game.quad_queue)}; from {quad_from}; starter {game.next_starter}"))
    lines.extend(write_table(game, seat))
    aside = cards_text(game, game.aside) if seat is None else "?"
    lines.append(("set aside", aside))
    lines.append(("discarded", " ".join(game.rank_labels[k] for k in np.flatnonzero(game.discarded)) or EMPTY))
    lines.append(("out", seats_text(game.exit_order)))
    return lines


def read_position(options: VerishOptions, fields: PositionFields, rng: np.random.Generator) -> VerishGame:
    """The game the lines describe, its ``?`` cards dealt from ``rng``; raises :class:`PositionError` if no game
    could reach it."""
    return deal_unknown(lambda: _read(options, fields, rng))


def _read(options: VerishOptions, fields: PositionFields, rng: np.random.Generator) -> VerishGame:
    game = new_game(VerishGame, options, fields, rng)
    n = game.num_players
    game.dealer = fields.integer("dealer", 0, n - 1)
    phase = fields.choice("phase", PHASES)
    if phase == "over":
        raise PositionError("the position's game is over (phase: over): there is no decision to start from")
    game.current_player = fields.integer("turn", 0, n - 1)
    game.leading = phase == "lead"
    game.quad_queue, game.quad_min, game.next_starter = [], 0, -1
    if phase == "quads":
        _read_quads(game, fields)
    elif "quads" in fields:
        raise fields.error("quads", f"a quads line belongs to the quads phase, not to phase {phase!r}")
    game.table = ClaimTable(n, game.num_ranks, rank_totals(game.deck), MAX_PLAY)
    unknown = UnknownPlaces()
    table_text = read_table(game, fields, unknown)
    aside = unknown.add(read_cards(game, fields, "set aside", fields.take("set aside")))
    if aside.size != 1:
        raise fields.error("set aside", "exactly one card is set aside ('?' when unknown)")
    discarded = fields.take("discarded", EMPTY)
    game.discarded = np.zeros(game.num_ranks, dtype=bool)
    for label in [] if discarded == EMPTY else discarded.split():
        if label not in game.rank_labels:
            raise fields.error("discarded", f"{label!r} is not a rank of the deck ({' '.join(game.rank_labels)})")
        game.discarded[game.rank_labels.index(label)] = True
    game.exit_order = fields.seats("out", n)
    game.out = [s in game.exit_order for s in range(n)]
    if not options.quad_discard_optional:  # quads go at once: no hand holds four of a kind
        for hand in table_text.hands:
            hand.cap = 3
    unknown.fill(game, known_total(table_text, aside) + 4 * game.discarded, rng)
    game.aside = aside.counts
    build_table(game, table_text, rng)
    game.table.removed_public[:] = 4 * game.discarded
    _check(game, phase, [h.dealt > 0 for h in table_text.hands])
    return game


def _read_quads(game: VerishGame, fields: PositionFields) -> None:
    parts = [p.strip() for p in fields.take("quads").split(";")]
    if len(parts) != 3 or not parts[1].startswith("from ") or not parts[2].startswith("starter "):
        raise fields.error("quads", "expected 'SEATS; from RANK; starter SEAT'")
    n = game.num_players
    queue = parts[0].split()
    if not queue or not all(is_number(s) and int(s) < n for s in queue):
        raise fields.error("quads", f"the seats still to decide are seats 0..{n - 1}, at least one")
    game.quad_queue = [int(s) for s in queue]
    rank = parts[1].removeprefix("from ").strip()
    if rank != EMPTY and rank not in game.rank_labels:
        ranks = " ".join(game.rank_labels)
        raise fields.error("quads", f"{rank!r} is neither a rank of the deck ({ranks}) nor '-' (none left)")
    game.quad_min = game.num_ranks if rank == EMPTY else game.rank_labels.index(rank)
    starter = parts[2].removeprefix("starter ").strip()
    if not is_number(starter) or int(starter) >= n:
        raise fields.error("quads", f"the starter is a seat 0..{n - 1}")
    game.next_starter = int(starter)
    if game.quad_queue[0] != game.current_player:
        raise fields.error("quads", f"the first seat to decide must be the player to act ({game.current_player})")


def _check(game: VerishGame, phase: str, dealt: list[bool]) -> None:
    """Reject a position that no game reaches (each message names the contradiction)."""
    t, n, seat = game.table, game.num_players, game.current_player
    sizes = t.hand_sizes
    on_pile = {p.seat for p in t.plays}
    for s in range(n):
        if game.out[s] and sizes[s]:
            raise PositionError(f"player {s} is out but holds {sizes[s]} card(s)")
        if not game.out[s] and sizes[s] == 0 and s not in on_pile and phase != "quads":
            raise PositionError(f"player {s} has no cards and no play on the pile, so it would be out")
    # The engine asks the last holder about its quads after a pick-up even when the others are all out.
    if n - len(game.exit_order) < (1 if phase == "quads" else 2):
        raise PositionError("fewer than two players are still in: the game would be over")
    if game.out[seat]:
        raise PositionError(f"player {seat} is out and cannot be the one to act")
    if phase == "play" and not t.plays:
        raise PositionError("phase 'play' follows a claim, but the pile is empty (use phase 'lead')")
    if phase == "lead" and t.plays:
        raise PositionError("phase 'lead' starts a new pile, but the pile is not empty (use phase 'play')")
    if phase != "quads" and sizes[seat] == 0:
        raise PositionError(f"player {seat} is to play but has no cards")
    if phase == "play" and t.plays[-1].seat == seat:
        raise PositionError(f"player {seat} made the latest play and cannot follow it")
    if t.building_rank >= 0 and phase != "lead":
        raise PositionError("only the round's first player declares a rank (phase 'lead')")
    if any(not 1 <= p.count <= MAX_PLAY or p.declared_count != p.count for p in t.plays):
        raise PositionError(f"each play on the pile holds 1..{MAX_PLAY} cards and says as many as it holds")
    if t.building_closed or t.building_declared_count >= 0:
        raise PositionError("Verish' ne verish' plays have no 'count' or 'done' part")
    if t.building_count and phase == "lead" and t.building_rank < 0:
        raise PositionError("the round's first player declares a rank before picking cards")
    if not game.options.quad_discard_optional:
        if phase == "quads":
            raise PositionError("phase 'quads' needs quad_discard_optional=True (else quads go at once)")
        for s in range(n):
            if (t.hands[s] == 4).any():
                error = UnluckyDeal if dealt[s] else PositionError
                raise error(f"player {s} holds four of a kind, which is discarded at once in this game")
