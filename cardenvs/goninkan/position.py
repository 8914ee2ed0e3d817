"""Positions of Goninkan and Yoninkan (the notation is on ``docs/games/goninkan.md``; common lines in
:mod:`cardenvs.core.position`).

Players are people (``hand N`` is player N's hand wherever he sits). Lines: ``round``, ``deal`` (1–3 of the
round), ``dealer``, ``seats`` (the player on each physical seat), ``trump``, ``kankei`` (the 関係 team; ``?`` while a
seat cannot know it), ``teams`` (``public`` or ``hidden``), ``double announced`` (Yoninkan), ``key holders`` (deals
2 and 3: who held the joker and the key trump card in deal 1), ``phase``, ``turn``, ``tricks`` (finished this
deal), ``trick`` (``leader P; P: CARD; …``, a led joker followed by the suit it names), ``honours`` (per player),
``declarations`` (``P KIND trick 1|sweep; …`` in the order made), ``sweeps offered``, ``round points``, ``match
points``, ``hand N``, ``played N`` (this deal), ``voids`` (``P: SUITS; …``), ``known N`` (``P: CARDS; …`` the cards
player N knows others hold), ``show pick`` and ``declaration choice`` (a move half made, seen by its maker only)
and ``slots`` (the face-down slots of a blind 二重関 exchange; drawn from the seed when left out).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardenvs.core.cards import SPADES, SUIT_TEXT, parse_cards
from cardenvs.core.position import (
    EMPTY,
    UNKNOWN,
    Lines,
    PositionError,
    PositionFields,
    UnluckyDeal,
    deal_unknown,
    is_number,
    seats_text,
)
from cardenvs.core.position import format_number as num
from cardenvs.core.redeal import constrained_deal
from cardenvs.core.tricks import Trick
from cardenvs.goninkan import knowledge
from cardenvs.goninkan.calls import draw_swap_slots
from cardenvs.goninkan.game import KankeiGame
from cardenvs.goninkan.options import KankeiOptions
from cardenvs.goninkan.play import declare
from cardenvs.goninkan.position_checks import check_position
from cardenvs.goninkan.ruleset import TRICKS
from cardenvs.goninkan.scoring import Kind
from cardenvs.goninkan.table import (
    ACE,
    BLIND_SWAP,
    PHASES,
    SHOW,
    SWEEP,
)
from cardenvs.goninkan.tricks import trick_winner

KIND_NAMES = {kind: kind.name.lower() for kind in Kind}
SIDES = ("kankei", "mukan")


def _names(game: KankeiGame[Any], cards: list[int], unknown: int = 0) -> str:
    return " ".join([game.cards_text(sorted(cards)), *[UNKNOWN] * unknown]).strip() or EMPTY


def _suit(suit: int) -> str:
    return SUIT_TEXT[suit] if suit >= 0 else EMPTY


def write_position(game: KankeiGame[Any], seat: int | None) -> Lines:
    """The position's lines as ``seat`` knows them (``None``: the whole state)."""
    n, trick = game.num_players, game.trick
    mine = seat is None or seat == game.current_player
    team_known = seat is None or game.team_public or not game.rules.hidden_teams
    parts = [f"{p}: {game.cards.text[c]}" for p, c in zip(trick.seats, trick.cards, strict=True)]
    if len(trick) and trick.cards[0] == game.joker:
        parts[0] += f" {SUIT_TEXT[trick.led_suit]}"
    lines: Lines = [
        ("round", str(game.round_number)),
        ("deal", str(game.deal)),
        ("dealer", str(game.dealer)),
        ("seats", seats_text(game.person_at)),
        ("trump", _suit(game.trump)),
        ("kankei", seats_text(game.kankei) if team_known else UNKNOWN),
        ("teams", "public" if game.team_public else "hidden"),
    ]
    if game.double_announced:
        lines.append(("double announced", "yes"))
    if game.deal > 1:
        lines.append(("key holders", seats_text(dict.fromkeys(game.deal1_holders))))
    lines += [
        ("phase", PHASES[game.phase].replace("_", " ")),
        ("turn", str(game.current_player) if game.current_player >= 0 else EMPTY),
        ("tricks", str(game.trick_no - 1)),
        ("trick", "; ".join([f"leader {trick.leader if trick.leader >= 0 else EMPTY}", *parts])),
        ("honours", " ".join(str(int(h)) for h in game.honours)),
        ("declarations", "; ".join(_declaration_text(p, kind, game) for p, kind in game.declared_by) or EMPTY),
        ("sweeps offered", " ".join(s for s, o in zip(SIDES, game.sweep_offered, strict=True) if o) or EMPTY),
        ("round points", " ".join(num(x) for x in game.round_points)),
        ("match points", " ".join(num(x) for x in game.match_points)),
    ]
    for p in range(n):
        held = game.hands[p]
        if seat is None or p == seat:
            lines.append((f"hand {p}", _names(game, held)))
        else:
            known = [c for c in held if game.known[seat, c] == p]
            lines.append((f"hand {p}", _names(game, known, len(held) - len(known))))
    lines += [(f"played {p}", _names(game, np.flatnonzero(game.played.by_seat[p]).tolist())) for p in range(n)]
    voids = [f"{p}: {''.join(SUIT_TEXT[s] for s in range(4) if v >> s & 1)}" for p, v in enumerate(game.voids) if v]
    lines.append(("voids", "; ".join(voids) or EMPTY))
    for observer in range(n) if seat is None else [seat]:
        row = game.known[observer]
        others = [p for p in range(n) if p != observer and (row == p).any()]
        holdings = [f"{p}: {_names(game, np.flatnonzero(row == p).tolist())}" for p in others]
        if holdings:  # (what he knows of his own hand needs no line)
            lines.append((f"known {observer}", "; ".join(holdings)))
    if mine and game.pending_show >= 0:
        lines.append(("show pick", game.cards.text[game.pending_show]))
    if mine and game.decl_choice is not None:
        choice = "none" if game.decl_choice < 0 else KIND_NAMES[Kind(game.decl_choice)]
        lines.append(("declaration choice", choice))
    if seat is None and game.swap_slots[1]:
        keys, cards = game.swap_slots
        lines.append(("slots", f"keys {game.cards_text(keys)}; cards {game.cards_text(cards)}"))
    return lines


def _declaration_text(player: int, kind: Kind, game: KankeiGame[Any]) -> str:
    made = next((d for d in reversed(game.declarations) if d.player == player and d.kind == kind), None)
    at_trick1 = made.at_trick1 if made is not None else True  # only a trick-1 declaration is ever replaced
    return f"{player} {KIND_NAMES[kind]} {'trick 1' if at_trick1 else 'sweep'}"


def read_position(options: KankeiOptions, fields: PositionFields, rng: np.random.Generator) -> KankeiGame[Any]:
    """The game the lines describe, its ``?`` cards dealt from ``rng``; raises :class:`PositionError` if no game
    could reach it."""
    return deal_unknown(lambda: _read(options, fields, rng))


def _card_list(game: KankeiGame[Any], text: str) -> tuple[list[int], int]:
    """Card indices and the number of ``?`` of a list of cards; raises ``ValueError`` for anything else."""
    if text == EMPTY:
        return [], 0
    tokens = text.split()
    try:
        return [game.cards.index(c) for c in parse_cards(" ".join(t for t in tokens if t != UNKNOWN))], tokens.count(
            UNKNOWN
        )
    except (ValueError, KeyError) as error:
        raise ValueError(f"not cards of the {game.cards.deck.name} deck (e.g. A♠ 10h BJ) or '?': {error}") from None


def _cards(
    game: KankeiGame[Any], fields: PositionFields, key: str, default: str | None = None
) -> tuple[list[int], int]:
    try:
        return _card_list(game, fields.take(key, default))
    except ValueError as error:
        raise fields.error(key, str(error)) from None


def _read(options: KankeiOptions, fields: PositionFields, rng: np.random.Generator) -> KankeiGame[Any]:
    game = KankeiGame.__new__(KankeiGame)
    game._setup(options, rng)
    n = game.num_players
    game.round_number = fields.integer("round", 1, options.n_rounds, 1)
    game.rounds_played = game.round_number - 1 if options.episode == "match" else 0
    game.dealer = fields.integer("dealer", 0, n - 1)
    seats = fields.seats("seats", n, seats_text(range(n)))
    if sorted(seats) != list(range(n)):
        raise fields.error("seats", f"the players on seats 0..{n - 1}, each once")
    game.person_at, game.seat_of = seats, [seats.index(p) for p in range(n)]
    game._refresh_orders()
    game._new_round_state()
    game.deal = fields.integer("deal", 1, 3, 1)
    game.match_points[:] = fields.numbers("match points", n, [0] * n)
    hands = [_cards(game, fields, f"hand {p}") for p in range(n)]
    played = [_cards(game, fields, f"played {p}", EMPTY)[0] for p in range(n)]
    game.reset_deal([list(h) for h, _ in hands], _read_trump(game, fields))
    game.round_points[:] = fields.numbers("round points", n, [0] * n)
    _read_teams(game, fields)
    phase = fields.choice("phase", [p.replace("_", " ") for p in PHASES if p != "declare"])
    game.phase = PHASES.index(phase.replace(" ", "_"))
    game.current_player = fields.integer("turn", 0, n - 1)
    game.trick_no = fields.integer("tricks", 0, TRICKS - 1, 0) + 1
    _read_trick(game, fields)
    for p in range(n):
        for c in played[p]:
            game.played.record(p, c)
            game.who_played[c] = p
        game.played_late[p] = game.is_active(p) and (
            game.trick_no > 9 or (game.trick_no == 9 and p in game.trick.seats)
        )
    for p, c in zip(game.trick.seats, game.trick.cards, strict=True):
        game.in_trick.record(p, c)
        if c not in played[p]:
            raise PositionError(f"player {p}'s card {game.cards.text[c]} in the trick is missing from 'played {p}'")
    _read_voids(game, fields)
    _read_known(game, fields)
    game.honours[:] = fields.whole_numbers("honours", n, 0, sum(game.cards.honour))
    _read_declarations(game, fields)
    offered = fields.take("sweeps offered", EMPTY).split()
    if not set(offered) <= {*SIDES, EMPTY}:
        raise fields.error("sweeps offered", "expected kankei, mukan or '-'")
    game.sweep_offered = [side in offered for side in SIDES]
    dealt = _place_cards(game, hands, played, rng)
    _read_pending(game, fields)
    _settle_teams(game, fields, dealt)
    check_position(game)
    game.events.clear()
    return game


def _read_trump(game: KankeiGame[Any], fields: PositionFields) -> int:
    text = fields.take("trump", _suit(game.deal1_trump))
    trump = -1 if text == EMPTY else SUIT_TEXT.index(text) if text in SUIT_TEXT else -2
    if trump == -2 or (game.deal == 1 and trump != game.deal1_trump):
        expected = SUIT_TEXT[game.deal1_trump] if game.deal == 1 else "a suit ♣♦♥♠, or '-' before it is chosen"
        raise fields.error("trump", f"expected {expected} (deal 1's trump follows the round)")
    return trump


def _read_teams(game: KankeiGame[Any], fields: PositionFields) -> None:
    n = game.num_players
    game.team_public = fields.choice("teams", ["public", "hidden"]) == "public"
    if not game.team_public and (not game.rules.hidden_teams or game.deal > 1):
        raise fields.error("teams", "only Yoninkan's deal 1 hides the teams")
    game.double_announced = (
        fields.choice("double announced", ["yes", "no"]) == "yes" if "double announced" in fields else False
    )
    text = fields.take("kankei")
    if text != UNKNOWN:
        game._set_team(fields.seats("kankei", n))
    elif game.team_public:
        raise fields.error("kankei", "the team is public: name its players")
    if game.deal > 1:
        holders = fields.seats("key holders", n, EMPTY)
        if len(holders) not in (1, 2) or not set(holders) <= set(game.kankei):
            raise fields.error("key holders", "deals 2 and 3 name the 関係 players who held the joker and the key card")
        game.deal1_holders = (holders[0], holders[-1])
        game.chooser = game.deal1_holders[0] if game.deal == 2 else game.deal1_holders[1]


def _read_trick(game: KankeiGame[Any], fields: PositionFields) -> None:
    n = game.num_players
    head, *parts = [p.strip() for p in fields.take("trick", f"leader {EMPTY}").split(";")]
    leader = head.removeprefix("leader ").strip()
    if not head.startswith("leader ") or not (leader == EMPTY or (is_number(leader) and int(leader) < n)):
        raise fields.error("trick", "expected 'leader SEAT; PLAYER: CARD; …' (leader '-' before a trick begins)")
    trick = game.trick = Trick(-1 if leader == EMPTY else int(leader))
    for part in parts:
        who, _, text = (x.strip() for x in part.partition(":"))
        tokens = text.split()
        named = tokens[1:] if tokens[:1] == [game.cards.text[game.joker]] and not len(trick) else []
        try:
            card = game.cards.index(parse_cards(tokens[0])[0]) if len(tokens) == 1 + len(named) else -1
        except (ValueError, KeyError):
            card = -1
        if not is_number(who) or int(who) >= n or card < 0 or (named and named[0] not in SUIT_TEXT):
            raise fields.error("trick", f"each card is 'PLAYER: CARD' (a led joker: 'PLAYER: BJ SUIT'), got {part!r}")
        if not len(trick):
            trick.led_suit = SUIT_TEXT.index(named[0]) if named else game.cards.suit[card]
            if card == game.joker and not named:
                raise fields.error("trick", "a led joker names the suit to follow: 'PLAYER: BJ ♠'")
        trick.add(int(who), card)
    if len(trick):
        number = game.trick_no - 1 if game.phase == SWEEP else game.trick_no
        game.trick_leading = trick_winner(game.rules, trick, number, game.trump)


def _read_voids(game: KankeiGame[Any], fields: PositionFields) -> None:
    text = fields.take("voids", EMPTY)
    for part in [] if text == EMPTY else text.split(";"):
        who, _, suits = (x.strip() for x in part.partition(":"))
        if not is_number(who) or int(who) >= game.num_players or not suits or set(suits) - set(SUIT_TEXT):
            raise fields.error("voids", f"expected 'PLAYER: SUITS; …' with suits of ♣♦♥♠, got {part!r}")
        for suit in suits:
            game.voids[int(who)] |= 1 << SUIT_TEXT.index(suit)
            game.void_mat[int(who), SUIT_TEXT.index(suit)] = 1


def _read_known(game: KankeiGame[Any], fields: PositionFields) -> None:
    n = game.num_players
    for observer in range(n):
        key = f"known {observer}"
        if key not in fields:
            continue
        for part in fields.take(key).split(";"):
            who, _, cards = (x.strip() for x in part.partition(":"))
            if not is_number(who) or int(who) >= n or int(who) == observer:
                raise fields.error(key, f"expected 'PLAYER: CARDS; …' naming other players, got {part!r}")
            try:
                held, unknown = _card_list(game, cards)
            except ValueError as error:
                raise fields.error(key, str(error)) from None
            for card in held if not unknown else []:
                game.known[observer, card] = int(who)


def _read_declarations(game: KankeiGame[Any], fields: PositionFields) -> None:
    text = fields.take("declarations", EMPTY)
    names = {name: kind for kind, name in KIND_NAMES.items()}
    for part in [] if text == EMPTY else text.split(";"):
        tokens = part.split()
        if (
            len(tokens) < 3
            or not is_number(tokens[0])
            or tokens[1] not in names
            or " ".join(tokens[2:])
            not in (
                "trick 1",
                "sweep",
            )
        ):
            raise fields.error(
                "declarations", f"expected 'PLAYER KIND trick 1|sweep' with a kind of {', '.join(names)}"
            )
        declare(game, int(tokens[0]), names[tokens[1]], at_trick1=tokens[2] == "trick")


def _place_cards(game: KankeiGame[Any], hands: list[tuple[list[int], int]], played: list[list[int]], rng: Any) -> bool:
    """Deal the ``?`` cards among the hands that have them, as the public record allows; whether any were."""
    named = [c for cards, _ in hands for c in cards] + [c for cards in played for c in cards]
    if len(set(named)) != len(named):
        twice = sorted({c for c in named if named.count(c) > 1})
        raise PositionError(f"card(s) {game.cards_text(twice)} appear twice in the position")
    missing = sorted(set(range(game.deck_size)) - set(named))
    places = [p for p, (_, k) in enumerate(hands) for _ in range(k)]
    if len(places) != len(missing):
        raise PositionError(
            f"the position writes {len(places)} unknown card(s) '?' but {len(missing)} card(s) are missing from it "
            f"({game.cards_text(missing) or 'none'}): every card of the deck lies in a hand or was played this deal"
        )
    if not missing:
        return False
    holders = sorted(set(places))
    bit = {p: 1 << i for i, p in enumerate(holders)}
    keys = game.key_cards() if game.deal == 1 and game.team_public and game.phase != BLIND_SWAP else ()
    team = sum(bit.get(p, 0) for p in game.kankei)
    allowed = [
        sum(bit[p] for p in holders if knowledge.may_hold(game, p, c)) & (team if c in keys else -1) for c in missing
    ]
    try:
        dealt = constrained_deal(missing, allowed, [places.count(p) for p in holders], rng)
    except ValueError:
        raise PositionError("no deal of the '?' cards agrees with the voids and the teams") from None
    for p, cards in zip(holders, dealt, strict=True):
        game.hands[p] = sorted(game.hands[p] + cards)
    for p, hand in enumerate(game.hands):
        game.hand_vec[p] = 0
        game.hand_vec[p, hand] = 1
        game.hand_sizes[p] = len(hand)
    return True


def _read_pending(game: KankeiGame[Any], fields: PositionFields) -> None:
    """The half-made move of the player to act, and the face-down slots of a blind 二重関 exchange."""
    if "show pick" in fields:
        if game.phase != SHOW:
            raise fields.error("show pick", "only in the show phase")
        card = _cards(game, fields, "show pick")[0]
        if len(card) != 1 or card[0] not in game.hands[game.current_player]:
            raise fields.error("show pick", f"one card of player {game.current_player}'s hand")
        game.pending_show = card[0]
    if "declaration choice" in fields:
        choice = fields.choice("declaration choice", ["none", *KIND_NAMES.values()])
        game.decl_choice = -1 if choice == "none" else next(k for k, v in KIND_NAMES.items() if v == choice)
    if game.phase == BLIND_SWAP and "slots" in fields:
        keys, _, cards = fields.take("slots").removeprefix("keys").partition("; cards")
        try:
            game.swap_slots = (_card_list(game, keys.strip())[0], _card_list(game, cards.strip())[0])
        except ValueError as error:
            raise fields.error("slots", str(error)) from None


def _settle_teams(game: KankeiGame[Any], fields: PositionFields, dealt: bool) -> None:
    """Deal 1: the key holders, the team they make (Yoninkan's hidden one), a pending 二重関 exchange."""
    if game.deal > 1:
        return
    joker, key = game.key_cards()
    j, k = (game.who_played[c] if game.who_played[c] >= 0 else game.holder(c) for c in (joker, key))
    unlucky = UnluckyDeal if dealt else PositionError
    if game.phase == BLIND_SWAP:
        partner = game.next_active(game.next_active(j))
        if j != k or set(game.kankei) != {j, partner}:
            raise PositionError("a blind 二重関 exchange waits while one 関係 player holds both key cards")
        game.nijukan_pending = j
        slots_given = game.swap_slots[1]
        if sorted(game.swap_slots[0]) != sorted((joker, key)) or sorted(slots_given) != game.hands[partner]:
            if "slots" in fields:
                raise fields.error("slots", "the two key cards, then the partner's cards")
            draw_swap_slots(game)
        return
    game.deal1_holders = (j, k)
    if game.rules.hidden_teams and not game.team_public:
        team = sorted(knowledge.team_for(game, j, k))
        if game.kankei and list(game.kankei) != team:
            raise unlucky(f"the key cards make the team {team}, not {list(game.kankei)}")
        game._set_team(team)
    if not knowledge._check_pair(game, j, k):
        raise unlucky(f"the key cards' holders ({j}, {k}) contradict the teams, the declarations or the honours")
    if game.rules.spade_ace_leads:
        game.forced_lead = game.cards.find(ACE, SPADES)
