"""Readable, omniscient text picture of a Verish' ne verish' table (``render_mode="ansi"``)."""

from __future__ import annotations

from cardenvs.core.bluffing_render import bluffing_words, footer_lines, table_lines
from cardenvs.core.render import Words
from cardenvs.core.seating import agent_name
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
    return "\n".join(lines + footer_lines(game, WORDS))


WORDS: dict[str, Words] = {
    **bluffing_words("ネ・ベリシ"),
    "discard_quad": lambda who, pub: f"{who} discarded four {pub['rank']}",
    "game_over": lambda who, pub: f"game over: {agent_name(pub['loser'])} loses",
    "deal": lambda who, pub: f"deal by {agent_name(pub['dealer'])}",
}
"""Sentences for this game's events (:func:`cardenvs.core.render.event_text`)."""
