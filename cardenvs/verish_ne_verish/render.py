"""Readable, omniscient text picture of a Verish' ne verish' table (``render_mode="ansi"``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardenvs.core.bluffing_render import describe_bluffing_event, table_lines
from cardenvs.core.engine import TERMINAL
from cardenvs.core.seating import agent_name

if TYPE_CHECKING:
    from cardenvs.verish_ne_verish.rules import VerishGame


def render(game: VerishGame) -> str:
    """Hands (all shown), the pile with its claim, discards and the latest event."""
    lines = [
        f"Verish' ne verish' — game {min(game.games_played + 1, game.options.n_games)}/{game.options.n_games}, "
        f"{game.deck.size} cards, dealer {agent_name(game.dealer)} (omniscient view)",
        *table_lines(game),
    ]
    discarded = " ".join(game.rank_labels[k] for k in range(game.num_ranks) if game.discarded[k])
    lines.append(f"Discarded quads: {discarded or '-'}   Set aside: {game._ranks_text(game.aside)}")
    if game.events.events:
        lines.append("Last event: " + describe_event(game.events.events[-1]))
    if game.current_player == TERMINAL:
        lines.append(f"Match points: {[round(x, 3) for x in game.match_points.tolist()]}")
    return "\n".join(lines)


def describe_event(event: dict[str, Any]) -> str:
    """One event in words."""
    shared = describe_bluffing_event(event, "ネ・ベリシ")
    if shared is not None:
        return shared
    who = agent_name(event["player"]) if event["player"] is not None else ""
    pub = event["public"]
    kind = event["kind"]
    if kind == "discard_quad":
        return f"{who} discarded four {pub['rank']}"
    if kind == "game_over":
        return f"game over: {agent_name(pub['loser'])} loses"
    if kind == "deal":
        return f"deal by {agent_name(pub['dealer'])}"
    return f"{kind} {who} {pub}"
