"""Readable, omniscient text picture of a Yukushi table (``render_mode="ansi"``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardenvs.core.bluffing_render import describe_bluffing_event, table_lines
from cardenvs.core.engine import TERMINAL
from cardenvs.core.seating import agent_name

if TYPE_CHECKING:
    from cardenvs.yukushi.rules import YukushiGame


def render(game: YukushiGame) -> str:
    """Hands (all shown), the pile with its claim, the open window, flushed cards and the latest event."""
    o = game.options
    lines = [
        f"Yukushi (ゆくし) — game {min(game.games_played + 1, o.n_games)}/{o.n_games}, {game.num_players} players, "
        f"challenge model {o.challenge_model}, first leader {agent_name(game.leader)} (omniscient view)",
        *table_lines(game),
    ]
    if game.window is not None:
        w = game.window
        asked = ", ".join(agent_name(s) for s in w.queue) or "-"
        lines.append(f"Window on {agent_name(w.owner)}'s play: still to ask {asked}; calls so far {w.challengers}")
    lines.append(f"Flushed unseen: {game.flushed_total} cards   Passes: {game.passes}")
    if game.events.events:
        lines.append("Last event: " + describe_event(game.events.events[-1]))
    if game.current_player == TERMINAL:
        lines.append(f"Match points: {[round(x, 3) for x in game.match_points.tolist()]}")
    return "\n".join(lines)


def describe_event(event: dict[str, Any]) -> str:
    """One event in words."""
    shared = describe_bluffing_event(event, "ゆくし")
    if shared is not None:
        return shared
    pub = event["public"]
    if event["kind"] == "game_over":
        return f"game over: {agent_name(pub['winner'])} wins"
    if event["kind"] == "deal":
        return f"deal from {agent_name(pub['leader'])}, who leads"
    return f"{event['kind']} {pub}"
