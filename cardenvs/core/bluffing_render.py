"""Text pictures shared by the bluffing games' ``render_mode="ansi"`` (omniscient: all hands shown)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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


def describe_bluffing_event(event: dict[str, Any], call: str) -> str | None:
    """The moves common to the bluffing games in words (``call``: the game's challenge word), else ``None``."""
    who = agent_name(event["player"]) if event["player"] is not None else ""
    pub = event["public"]
    kind = event["kind"]
    if kind == "play":
        count = pub.get("count", pub.get("declared_count"))
        return f"{who} placed {count} card(s) claiming {pub['claim']}"
    if kind == "challenge":
        verdict = "a lie" if pub["lie"] else "true"
        taken = f"{pub['pile_size']} cards" if "pile_size" in pub else "the pile"
        return (
            f"{who} said {call} to {agent_name(pub['owner'])}: {' '.join(pub['revealed'])} — {verdict}; "
            f"{agent_name(pub['taker'])} takes {taken}"
        )
    if kind == "out":
        return f"{who} is out (place {pub['place']})"
    if kind == "pass":
        return f"{who} passed"
    if kind == "flush":
        return f"the pile of {who} was flushed unseen"
    if kind == "window":
        callers = ", ".join(agent_name(s) for s in pub["challengers"]) or "nobody"
        return f"challenge window closed: {callers} called {call}"
    return None
