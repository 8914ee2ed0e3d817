"""Readable, omniscient text picture of a Verish' ne verish' table (``render_mode="ansi"``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardenvs.core.engine import TERMINAL
from cardenvs.core.render import COMMON_WORDS, Words, last_event_line, seat_line
from cardenvs.core.seating import agent_name

if TYPE_CHECKING:
    from cardenvs.verish_ne_verish.rules import VerishGame


def render(game: VerishGame) -> str:
    """Hands (all shown), the pile with its claim, discards and the latest event."""
    t = game.table
    lines = [
        f"Verish' ne verish' — game {min(game.games_played + 1, game.options.n_games)}/{game.options.n_games}, "
        f"{game.deck.size} cards, dealer {agent_name(game.dealer)} (omniscient view)"
    ]
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
    discarded = " ".join(game.rank_labels[k] for k in range(game.num_ranks) if game.discarded[k])
    lines.append(f"Discarded quads: {discarded or '-'}   Set aside: {game._ranks_text(game.aside)}")
    lines += last_event_line(game.events.events, WORDS)
    if game.current_player == TERMINAL:
        lines.append(f"Match points: {[round(x, 3) for x in game.match_points.tolist()]}")
    return "\n".join(lines)


def _challenge(who: str, pub: dict[str, Any]) -> str:
    verdict = "a lie" if pub["lie"] else "true"
    return (
        f"{who} said ネ・ベリシ to {agent_name(pub['owner'])}: {' '.join(pub['revealed'])} — {verdict}; "
        f"{agent_name(pub['taker'])} takes {pub['pile_size']} cards"
    )


WORDS: dict[str, Words] = {
    **COMMON_WORDS,
    "play": lambda who, pub: f"{who} placed {pub['count']} card(s) claiming {pub['claim']}",
    "challenge": _challenge,
    "discard_quad": lambda who, pub: f"{who} discarded four {pub['rank']}",
    "game_over": lambda who, pub: f"game over: {agent_name(pub['loser'])} loses",
    "deal": lambda who, pub: f"deal by {agent_name(pub['dealer'])}",
}
"""Sentences for this game's events (:func:`cardenvs.core.render.event_text`)."""
