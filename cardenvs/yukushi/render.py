"""Readable, omniscient text picture of a Yukushi table (``render_mode="ansi"``)."""

from __future__ import annotations

from cardenvs.core.bluffing_render import bluffing_words, footer_lines, table_lines
from cardenvs.core.render import Words
from cardenvs.core.seating import agent_name
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
    return "\n".join(lines + footer_lines(game, WORDS))


WORDS: dict[str, Words] = {
    **bluffing_words("ゆくし"),
    "game_over": lambda who, pub: f"game over: {agent_name(pub['winner'])} wins",
    "deal": lambda who, pub: f"deal from {agent_name(pub['leader'])}, who leads",
}
"""Sentences for this game's events (:func:`cardenvs.core.render.event_text`)."""
