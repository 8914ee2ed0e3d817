"""Positions of Zheng Shang You (the notation is on ``docs/games/zheng_shang_you.md``).

Lines: ``deal`` (1-based deal of the match), ``dealer``, ``totals`` (match points per scoring unit),
``previous`` (the previous deal's finishing order, 1st first; ``-`` before the first), ``exchange`` (``-``, or
``stage STAGE; table CARD CARD; revealed yes|no`` with ``-`` for an empty slot), ``turn``, ``top`` (``-``, or
``SEAT: DESCRIPTION`` of the combination to beat, as the engine describes it), ``trick`` (the plays of the trick
so far, ``SEAT: CARDS; …``), ``passed`` (seats that passed since the latest play), ``building`` (the sub-steps
the player to act has taken, by action name, ``|``-separated), ``out`` (seats out this deal, in order), ``hand N``,
``played N`` (cards seat N played this deal; public, so a seat's view names them, but a
sketch may write ``?``), ``known N`` (``SEAT: CARDS; …`` the cards player N knows others
hold: the exchange, the shown card) and ``set aside`` (cards out of the deal, for small test deals).
"""

from __future__ import annotations

import numpy as np

from cardenvs.core import position as pos
from cardenvs.core.errors import IllegalActionError
from cardenvs.core.position import EMPTY, UNKNOWN, Lines, PositionError, PositionFields, is_number
from cardenvs.zheng_shang_you import exchange as ex
from cardenvs.zheng_shang_you.combos import Combo
from cardenvs.zheng_shang_you.game import ZsyGame
from cardenvs.zheng_shang_you.movegen import legal_combos
from cardenvs.zheng_shang_you.options import ZsyOptions
from cardenvs.zheng_shang_you.ranks import NUM_CARDS, PICK_TEXT, bits_list, parse, text, to_bits
from cardenvs.zheng_shang_you.tables import RelativeCardTable


def _cards(cards: list[int], unknown: int = 0) -> str:
    return " ".join(filter(None, [text(cards), " ".join([UNKNOWN] * unknown)])) or EMPTY


def write_position(game: ZsyGame, seat: int | None) -> Lines:
    """The position's lines as ``seat`` knows them (``None``: the whole state)."""
    n, state = game.num_players, game.exchange
    mine = seat is None or seat == game.current_player
    lines: Lines = [
        ("deal", str(game.deals_played + 1)),
        ("dealer", str(game.dealer)),
        ("totals", " ".join(str(t) for t in game.totals)),
        ("previous", pos.seats_text(game.prev_order or [])),
        ("exchange", EMPTY if state is None else _exchange_text(state, seat)),
        ("turn", str(game.current_player) if game.current_player >= 0 else EMPTY),
        ("top", EMPTY if game.top is None else f"{game.top_seat}: {game.top.describe()}"),
        ("trick", "; ".join(f"{s}: {text(c.cards)}" for s, c in game.trick) or EMPTY),
        ("passed", pos.seats_text(s for s in range(n) if game.passed[s])),
        ("building", " | ".join(game.actions.name(a) for a in game._taken) if mine and game._taken else EMPTY),
        ("out", pos.seats_text(game.finish_order)),
    ]
    for s in range(n):
        held = bits_list(game.hands[s])
        if seat is None or s == seat:
            lines.append((f"hand {s}", _cards(held)))
        else:
            known = [c for c in held if game.known.of(seat, s)[c]]
            lines.append((f"hand {s}", _cards(known, len(held) - len(known))))
    lines.extend((f"played {s}", _cards(np.flatnonzero(game.played.of(s, s)).tolist())) for s in range(n))
    for observer in range(n) if seat is None else [seat]:
        parts = [
            f"{s}: {_cards(np.flatnonzero(game.known.of(observer, s)).tolist())}" for s in range(n) if s != observer
        ]
        if any(game.known.of(observer, s).any() for s in range(n) if s != observer):
            lines.append((f"known {observer}", "; ".join(p for p in parts if not p.endswith(EMPTY))))
    lines.append(("set aside", _cards(bits_list(game._set_aside))))
    return lines


def _exchange_text(state: ex.ExchangeState, seat: int | None) -> str:
    table = []
    for slot, card in enumerate(state.table):
        seen = seat is None or state.revealed or state.givers[slot] == seat
        table.append(EMPTY if card < 0 else PICK_TEXT[card] if seen else UNKNOWN)
    return f"stage {ex.STAGES[state.stage]}; table {' '.join(table)}; revealed {'yes' if state.revealed else 'no'}"


def read_position(options: ZsyOptions, fields: PositionFields, rng: np.random.Generator) -> ZsyGame:
    """The game the lines describe, its ``?`` cards dealt from ``rng``; raises :class:`PositionError` if no game
    could reach it."""
    return pos.deal_unknown(lambda: _read(options, fields, rng))


def _parse_cards(fields: PositionFields, key: str, default: str | None = None) -> tuple[list[int], int]:
    value = fields.take(key, default)
    if value == EMPTY:
        return [], 0
    tokens = value.split()
    named = " ".join(t for t in tokens if t != UNKNOWN)
    return _cards_in(fields, key, named, "cards (e.g. 3♣ 10h BJ RJ) or '?'"), tokens.count(UNKNOWN)


def _cards_in(fields: PositionFields, key: str, cards: str, what: str = "cards (e.g. 3♣ 10h BJ RJ)") -> list[int]:
    """The cards of ``cards`` (text from line ``key``), or an error naming the line and ``what`` it may hold."""
    try:
        return parse(cards)
    except (ValueError, KeyError) as error:
        raise fields.error(key, f"expected {what}: {error}") from None


def _read(options: ZsyOptions, fields: PositionFields, rng: np.random.Generator) -> ZsyGame:
    game = ZsyGame.__new__(ZsyGame)
    game._setup(options, rng)
    n = game.num_players
    game.deals_played = fields.integer("deal", 1, 10**6, 1) - 1
    game.dealer = fields.integer("dealer", 0, n - 1)
    game.totals = fields.whole_numbers("totals", options.num_units, -(10**6), 10**6)
    previous = fields.seats("previous", n)
    if previous and sorted(previous) != list(range(n)):
        raise fields.error("previous", "the previous finishing order lists every seat once")
    game.prev_order = previous or None
    hands: list[list[int]] = []
    unknown: list[int] = []
    for s in range(n):
        cards, k = _parse_cards(fields, f"hand {s}")
        hands.append(cards)
        unknown.append(k)
    played_text = [_parse_cards(fields, f"played {s}", EMPTY) for s in range(n)]
    played = [cards for cards, _ in played_text]
    played_unknown = [k for _, k in played_text]  # a sketch may leave played cards to the seed (they are public)
    aside = _parse_cards(fields, "set aside", EMPTY)[0]
    state, table_unknown = _read_exchange(fields, game)
    table_cards = [c for c in (state.table if state else []) if c >= 0]
    named = [c for group in (*hands, *played, aside, table_cards) for c in group]
    if len(set(named)) != len(named):
        twice = sorted({c for c in named if named.count(c) > 1})
        raise PositionError(f"card(s) {text(twice)} appear twice in the position")
    missing = sorted(set(range(NUM_CARDS)) - set(named))
    wanted = sum(unknown) + sum(played_unknown) + len(table_unknown)
    if len(missing) != wanted:
        raise PositionError(
            f"the position writes {wanted} unknown card(s) '?' but {len(missing)} "
            f"card(s) are missing from it ({text(missing) or 'none'}); cards out of the deal go on 'set aside'"
        )
    shuffled = [missing[i] for i in rng.permutation(len(missing))]
    for s in range(n):
        hands[s] += shuffled[: unknown[s] + (s in table_unknown)]
        shuffled = shuffled[unknown[s] + (s in table_unknown) :]
        played[s] += shuffled[: played_unknown[s]]
        shuffled = shuffled[played_unknown[s] :]
    if state is not None:
        for giver, slot in table_unknown.items():  # a face-down card its giver chose from the dealt hand
            holding = to_bits(hands[giver])
            choices = ex.highest_cards(holding) if state.stage == ex.GIVE_HIGHEST else bits_list(holding)
            state.table[slot] = choices[int(rng.integers(len(choices)))]
            hands[giver].remove(state.table[slot])
    game._set_aside = to_bits(aside)
    _start(game, fields, hands, played, state, any(unknown))
    return game


def _read_exchange(fields: PositionFields, game: ZsyGame) -> tuple[ex.ExchangeState | None, dict[int, int]]:
    value = fields.take("exchange", EMPTY)
    if value == EMPTY:
        return None, {}
    parts = [p.strip() for p in value.split(";")]
    if len(parts) != 3 or not parts[0].startswith("stage ") or not parts[1].startswith("table "):
        raise fields.error("exchange", "expected 'stage STAGE; table CARD CARD; revealed yes|no'")
    stage = parts[0].removeprefix("stage ")
    if stage not in ex.STAGES:
        raise fields.error("exchange", f"the stage is one of {', '.join(ex.STAGES)}")
    if game.prev_order is None or not game.options.exchange or game.options.episode == "deal":
        raise fields.error("exchange", "an exchange needs a previous deal ('previous') and the exchange option")
    state = ex.ExchangeState(list(game.prev_order), ex.STAGES.index(stage))
    state.revealed = parts[2] == "revealed yes"
    slots = parts[1].removeprefix("table ").split()
    if len(slots) != 2:
        raise fields.error("exchange", "the table has two slots (a card, '?' or '-')")
    unknown: dict[int, int] = {}
    for slot, token in enumerate(slots):
        if token == UNKNOWN:
            unknown[state.givers[slot]] = slot
        elif token != EMPTY:
            state.table[slot] = _cards_in(fields, "exchange", token)[0]
    return state, unknown


def _placed_by(state: ex.ExchangeState | None, seat: int) -> set[int]:
    """The card ``seat`` put on the exchange table: others who knew it held the card still think so (the card it
    gives back lies face down until both are placed)."""
    if state is None:
        return set()
    return {card for card, giver in zip(state.table, state.givers, strict=True) if giver == seat and card >= 0}


def _start(
    game: ZsyGame,
    fields: PositionFields,
    hands: list[list[int]],
    played: list[list[int]],
    state: ex.ExchangeState | None,
    dealt: bool,
) -> None:
    n = game.num_players
    previous, game.prev_order = game.prev_order, None  # no exchange starts: the position says where it stands
    game._start_deal([to_bits(h) for h in hands], None)  # sets every per-deal member; corrected below
    game.prev_order = previous
    game._refresh_match_rows()
    game.events.clear()
    for s in range(n):
        game.played.set_for_all(s, played[s], 1.0)
    game.known = RelativeCardTable(n)
    for observer in range(n):
        for part in [p.strip() for p in fields.take(f"known {observer}", "").split(";") if p.strip()]:
            who, _, cards = part.partition(":")
            if not is_number(who.strip()) or int(who) >= n:
                raise fields.error(f"known {observer}", f"each part is 'SEAT: CARDS' with a seat 0..{n - 1}")
            known = _cards_in(fields, f"known {observer}", cards.strip())
            if not set(known) <= set(hands[int(who)]) | _placed_by(state, int(who)):
                error = pos.UnluckyDeal if dealt else PositionError
                raise error(f"player {observer} knows player {who} holds {text(known)}, which its hand does not")
            game.known.set_for(observer, int(who), known, 1.0)
    game.finish_order = fields.seats("out", n)
    for place, s in enumerate(game.finish_order):
        game.out[s] = True
        game.places[s] = (place + 1) / n
    _read_trick(game, fields)
    game.exchange = state
    game.current_player = fields.integer("turn", 0, n - 1)
    _check(game, dealt)
    if state is None:
        game._start_turn(game.current_player)
        _replay_building(game, fields)
    else:
        game.builder, game._taken = None, []
        if fields.take("building", EMPTY) != EMPTY:
            raise fields.error("building", "exchange decisions are single steps: nothing is under construction")


def _read_trick(game: ZsyGame, fields: PositionFields) -> None:
    n = game.num_players
    for part in [p.strip() for p in fields.take("trick", EMPTY).split(";") if p.strip() not in ("", EMPTY)]:
        who, _, cards = part.partition(":")
        if not is_number(who.strip()) or int(who) >= n:
            raise fields.error("trick", f"each play is 'SEAT: CARDS' with a seat 0..{n - 1}")
        game.trick.append((int(who), _combo(game, fields, "trick", _cards_in(fields, "trick", cards.strip()))))
    top = fields.take("top", EMPTY)
    if top != EMPTY:
        who, _, description = top.partition(":")
        if not is_number(who.strip()) or int(who) >= n:
            raise fields.error("top", f"expected 'SEAT: DESCRIPTION' with a seat 0..{n - 1}")
        top_cards = _cards_in(fields, "top", description.rpartition(":")[2].strip())
        game.top, game.top_seat = _combo(game, fields, "top", top_cards, description.strip()), int(who)
        latest = game.trick[-1] if game.trick else None
        if latest is None or latest[0] != game.top_seat or set(latest[1].cards) != set(top_cards):
            raise fields.error("top", "the combination to beat is the trick's latest play")
        game.trick[-1] = (game.top_seat, game.top)
    elif game.trick:
        raise fields.error("trick", "a trick in progress has a combination to beat ('top')")
    for s in fields.seats("passed", n):
        game.passed[s] = 1.0
    game.passes = int(game.passed.sum())


def _combo(game: ZsyGame, fields: PositionFields, key: str, cards: list[int], description: str = "") -> Combo:
    found = [c for c in legal_combos(to_bits(cards), None, game.rules) if sorted(c.cards) == sorted(cards)]
    if description:
        kind = description.rpartition(":")[0].strip()  # the cards may be written in any order
        found = [c for c in found if c.describe().rpartition(":")[0] == kind]
    if not found:
        raise fields.error(key, f"{text(cards)} is not a combination{' described so' if description else ''}")
    return found[0]


def _replay_building(game: ZsyGame, fields: PositionFields) -> None:
    value = fields.take("building", EMPTY)
    if value == EMPTY:
        return
    ids = {game.actions.name(a): a for a in range(game.actions.size)}
    for name in [p.strip() for p in value.split("|")]:
        if name not in ids:
            raise fields.error("building", f"{name!r} is not an action name")
        try:
            game.apply(ids[name])
        except IllegalActionError as error:
            raise fields.error("building", str(error)) from None
        if game.current_player != int(fields.values["turn"]):
            raise fields.error("building", "the sub-steps complete a move: a position holds a move in progress only")


def _check(game: ZsyGame, dealt: bool) -> None:
    """Reject a position that no game reaches (each message names the contradiction)."""
    n, seat = game.num_players, game.current_player
    for s in range(n):
        if game.out[s] and game.hands[s]:
            raise PositionError(f"player {s} is out but holds cards")
        if not game.out[s] and not game.hands[s] and game.exchange is None:
            raise (pos.UnluckyDeal if dealt else PositionError)(f"player {s} has no cards but is not out")
    if n - len(game.finish_order) < 2:
        raise PositionError("fewer than two players are still in: the deal would be over")
    if game.exchange is None and game.out[seat]:
        raise PositionError(f"player {seat} is out and cannot be the one to act")
    if game.top is not None and seat == game.top_seat:
        raise PositionError(f"player {seat} made the play on top: the others pass or beat it first")
    for s, combo in game.trick:
        if not set(combo.cards) <= set(np.flatnonzero(game.played.of(s, s)).tolist()):
            raise PositionError(f"player {s}'s play in the trick is missing from its 'played' line")
    state = game.exchange
    if state is not None:
        if game.finish_order or game.trick or any(game.played.of(s, s).any() for s in range(n)):
            raise PositionError("the exchange comes before anybody plays")
        slot = state.next_slot()
        if state.giving and slot == ex.EMPTY:
            raise PositionError("both cards of a giving stage are down: the next stage has begun")
        decider = state.givers[slot] if state.giving else state.takers[0]
        if seat != decider:
            raise PositionError(f"in stage {ex.STAGES[state.stage]} player {decider} decides, not {seat}")
