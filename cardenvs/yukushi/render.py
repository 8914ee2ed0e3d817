"""Readable, omniscient text picture of a Yukushi table (``render_mode="ansi"``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardenvs.core.bluffing_render import EventText, describe_bluffing_event, footer_lines, table_lines
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
    return "\n".join(lines + footer_lines(game, describe_event))


_OWN_TEXT: dict[str, EventText] = {
    "game_over": lambda _who, pub, _call: f"game over: {agent_name(pub['winner'])} wins",
    "deal": lambda _who, pub, _call: f"deal from {agent_name(pub['leader'])}, who leads",
}


def describe_event(event: dict[str, Any]) -> str:
    """One event in words."""
    return describe_bluffing_event(event, "ゆくし", _OWN_TEXT)
