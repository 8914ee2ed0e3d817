"""Text pictures shared by the bluffing games' ``render_mode="ansi"`` (omniscient: all hands shown)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cardenvs.core.engine import TERMINAL
from cardenvs.core.seating import agent_name

if TYPE_CHECKING:
    from cardenvs.core.bluffing_game import BluffingGame


def table_lines(game: BluffingGame[Any]) -> list[str]:
    """One line per player (hand or finishing place, the player to act marked), then the pile and any play
    under construction."""
    t = game.table
    lines = []
    for s in range(game.num_players):
        if game.out[s]:
            status = f"out ({game.exit_order.index(s) + 1}.)"
        else:
            status = f"[{t.hand_sizes[s]:2d}] {game._ranks_text(t.hands[s])}"
        marker = "  ← to act" if s == game.current_player else ""
        lines.append(f"  {agent_name(s):9s} {status}{marker}")
    if t.plays:
        plays = ", ".join(f"{agent_name(p.seat)}: {game._ranks_text(p.cards)}" for p in t.plays)
        lines.append(f"Pile: {t.pile_size} cards claimed as {game.rank_labels[t.claim_rank]!r} — {plays}")
    else:
        lines.append("Pile: empty")
    if t.building_count or t.building_rank >= 0:
        rank = game.rank_labels[t.building_rank] if t.building_rank >= 0 else "-"
        lines.append(f"Building: declare {rank}, cards {game._ranks_text(t.building) or '-'}")
    return lines


def footer_lines(game: BluffingGame[Any], describe: Callable[[dict[str, Any]], str]) -> list[str]:
    """The latest event in words and, once the match is over, the match points."""
    lines = []
    if game.events.events:
        lines.append("Last event: " + describe(game.events.events[-1]))
    if game.current_player == TERMINAL:
        lines.append(f"Match points: {[round(x, 3) for x in game.match_points.tolist()]}")
    return lines


def _challenge_text(who: str, pub: dict[str, Any], call: str) -> str:
    verdict = "a lie" if pub["lie"] else "true"
    taken = f"{pub['pile_size']} cards" if "pile_size" in pub else "the pile"
    return (
        f"{who} said {call} to {agent_name(pub['owner'])}: {' '.join(pub['revealed'])} — {verdict}; "
        f"{agent_name(pub['taker'])} takes {taken}"
    )


_EVENT_TEXT: dict[str, Callable[[str, dict[str, Any], str], str]] = {
    "play": lambda who, pub, _: (
        f"{who} placed {pub.get('count', pub.get('declared_count'))} card(s) claiming " + pub["claim"]
    ),
    "challenge": _challenge_text,
    "out": lambda who, pub, _: f"{who} is out (place {pub['place']})",
    "pass": lambda who, _pub, _call: f"{who} passed",
    "flush": lambda who, _pub, _call: f"the pile of {who} was flushed unseen",
    "window": lambda _who, pub, call: (
        "challenge window closed: "
        + (", ".join(agent_name(s) for s in pub["challengers"]) or "nobody")
        + f" called {call}"
    ),
}


EventText = Callable[[str, dict[str, Any], str], str]
"""``(who, public part, call word) -> text`` for one kind of event."""


def describe_bluffing_event(event: dict[str, Any], call: str, own: dict[str, EventText] | None = None) -> str:
    """One event in words: the game's ``own`` kinds, else the moves common to the bluffing games (``call``: the
    game's challenge word), else the raw public part."""
    kind, pub = event["kind"], event["public"]
    who = agent_name(event["player"]) if event["player"] is not None else ""
    text = (own or {}).get(kind) or _EVENT_TEXT.get(kind)
    return text(who, pub, call) if text is not None else f"{kind} {who} {pub}"
