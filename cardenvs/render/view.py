"""A seat's view of a game: everything a person at that seat may see, as JSON-serialisable data.

:func:`seat_view` is what the play page, the terminal table and the SVG drawing are built from. With a seat it
holds that seat's hand, the public table (:mod:`cardenvs.render.tables`), the public history in words plus the
seat's own private parts, and (on the seat's turn) its legal moves as a person makes them: the cards to select
and what to declare. With ``seat=None`` it is the omniscient view (every hand, every private part) for replays
and ``render_mode="svg"``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from cardenvs.core.engine import TERMINAL, RulesEngine
from cardenvs.core.events import Event
from cardenvs.core.render import Words, event_text
from cardenvs.core.seating import agent_name
from cardenvs.games import definition_of
from cardenvs.render.tables import Table

CARD_BLOCKS = ("pick", "play", "give", "show")
"""Action blocks whose label is a card of the mover's hand: the person selects these cards."""
VERBS = {"pick": "play"}
"""The button of a move made of card blocks alone."""
JOKER_BLOCKS = ("joker", "lead_joker")
"""Action blocks that play the joker (Goninkan, Yoninkan): the person selects the joker card ``BJ``."""
MECHANICS = ("done",)
"""Action blocks that only close a composite move: never shown to a person."""
SPECTATOR = -1
"""The seat of someone watching a game: no hand, public information only."""


def _private_text(part: Mapping[str, Any]) -> str:
    return ", ".join(f"{key} {value}" for key, value in part.items())


def history(events: Sequence[Event], seat: int | None, words: Mapping[str, Words]) -> list[str]:
    """The log in words as ``seat`` saw it: public parts, then that seat's private parts (all of them and the
    secrets when ``seat`` is ``None``)."""
    lines = []
    for event in events:
        text = event_text(event, words)
        if seat is None:
            for p, part in sorted(event["private"].items(), key=lambda kv: int(kv[0])):
                text += f" [{agent_name(int(p))}: {_private_text(part)}]"
            if event["secret"]:
                text += f" [secret: {_private_text(event['secret'])}]"
        else:
            mine = event["private"].get(seat) or event["private"].get(str(seat))
            if mine:
                text += f" [you: {_private_text(mine)}]"
        lines.append(text)
    return lines


def _label(names: Sequence[str]) -> tuple[list[str], str]:
    """Split a move's action names into the cards it takes from the hand and the words for the rest."""
    cards, words = [], []
    for name in names:
        block, _, rest = name.partition("(")
        label = rest[:-1] if rest else ""
        if block in CARD_BLOCKS:
            cards.append(label)
        elif block in JOKER_BLOCKS:
            cards.append("BJ")
            words.append(f"lead, naming {label}" if label else "play")
        elif block not in MECHANICS:
            words.append(f"{block.replace('_', ' ')} {label}".strip())
    return cards, " ".join(words)


def person_moves(game: RulesEngine[Any], hand: Sequence[str]) -> list[dict[str, Any]]:
    """The legal moves of the player to act as a person makes them: ``cards`` to select (a sub-multiset of
    ``hand``; empty for a move made with a button alone) and the ``label`` of the button."""
    held = Counter(hand)
    moves = []
    for move in game.legal_moves():
        names = [game.describe_action(a) for a in game.move_actions(move)]
        cards, words = _label(names)
        if Counter(cards) - held:  # a card not in the hand text (e.g. a joker named by its role): a button
            words, cards = " ".join(n.replace("_", " ") for n in names), []
        verb = next((VERBS.get(b, b) for b in (n.split("(")[0] for n in names) if b in CARD_BLOCKS), "play")
        moves.append({"cards": cards, "label": words or verb})
    return moves


def seat_view(
    game: RulesEngine[Any], seat: int | None, labels: Sequence[str] | None = None, moves: bool = True
) -> dict[str, Any]:
    """What a person at ``seat`` sees (``None``: everything; :data:`SPECTATOR`: what is public). ``labels`` names
    who plays each seat; ``moves`` adds the seat's legal moves when it is to act."""
    manifest = definition_of(game)
    state = game.privileged_state()
    table: Table = manifest.part("table")(state, seat)
    n = game.num_players
    to_act = game.current_player
    hand = state["hands"][seat].split() if seat is not None and seat != SPECTATOR else []
    players = [
        {
            "name": agent_name(p),
            "label": labels[p] if labels else "",
            "status": table.status[p],
            "hand": state["hands"][p].split() if seat is None or p == seat else [],
            "to_act": p == to_act,
            "you": p == seat,
        }
        for p in range(n)
    ]
    view: dict[str, Any] = {
        "game": manifest.name,
        "seat": seat,
        "players": players,
        "hand": hand,
        "middle": [list(m) for m in table.middle],
        "face_down": table.face_down,
        "lines": table.lines,
        "scores": [round(float(s), 3) for s in table.scores],
        "score_name": table.score_name,
        "to_act": agent_name(to_act) if to_act != TERMINAL else None,
        "over": to_act == TERMINAL,
        "history": history(game.events.events, seat, manifest.part("words")),
        "moves": [],
    }
    if moves and seat is not None and to_act == seat and not game.move_in_progress():
        view["moves"] = person_moves(game, hand)
    return view
