"""Text pictures shared by the bluffing games' ``render_mode="ansi"`` (omniscient: all hands shown)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardenvs.core.engine import TERMINAL
from cardenvs.core.render import COMMON_WORDS, Words, last_event_line, seat_line
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
        lines.append(seat_line(s, status, s == game.current_player))
    if t.plays:
        plays = ", ".join(f"{agent_name(p.seat)}: {game._ranks_text(p.cards)}" for p in t.plays)
        lines.append(f"Pile: {t.pile_size} cards claimed as {game.rank_labels[t.claim_rank]!r} — {plays}")
    else:
        lines.append("Pile: empty")
    if t.building_count or t.building_rank >= 0:
        rank = game.rank_labels[t.building_rank] if t.building_rank >= 0 else "-"
        lines.append(f"Building: declare {rank}, cards {game._ranks_text(t.building) or '-'}")
    return lines


def footer_lines(game: BluffingGame[Any], words: dict[str, Words]) -> list[str]:
    """The latest event in words and, once the match is over, the match points."""
    lines = last_event_line(game.events.events, words)
    if game.current_player == TERMINAL:
        lines.append(f"Match points: {[round(x, 3) for x in game.match_points.tolist()]}")
    return lines


def bluffing_words(call: str) -> dict[str, Words]:
    """Sentences for the moves the bluffing games share; ``call`` is the game's challenge word."""

    def challenge(who: str, pub: dict[str, Any]) -> str:
        verdict = "a lie" if pub["lie"] else "true"
        taken = f"{pub['pile_size']} cards" if "pile_size" in pub else "the pile"
        return (
            f"{who} said {call} to {agent_name(pub['owner'])}: {' '.join(pub['revealed'])} — {verdict}; "
            f"{agent_name(pub['taker'])} takes {taken}"
        )

    def window(who: str, pub: dict[str, Any]) -> str:
        callers = ", ".join(agent_name(s) for s in pub["challengers"]) or "nobody"
        return f"challenge window closed: {callers} called {call}"

    return {
        **COMMON_WORDS,
        "play": lambda who, pub: (
            f"{who} placed {pub.get('count', pub.get('declared_count'))} card(s) claiming " + pub["claim"]
        ),
        "challenge": challenge,
        "pass": lambda who, pub: f"{who} passed",
        "flush": lambda who, pub: f"the pile of {who} was flushed unseen",
        "window": window,
    }
