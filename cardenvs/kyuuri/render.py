"""Readable, omniscient text picture of a Kyuuri table (``render_mode="ansi"``)."""

from __future__ import annotations

from typing import Any

from cardenvs.core.cards import ranks_text
from cardenvs.core.engine import TERMINAL
from cardenvs.core.render import Words, last_event_line, seat_line
from cardenvs.core.seating import agent_name
from cardenvs.kyuuri.rules import KyuuriGame


def render(game: KyuuriGame) -> str:
    """Scores and hands of every player (all shown), the trick in progress, the stock and the latest event."""
    deal = game.deals_played + (game.current_player != TERMINAL)
    trick = min(game.tricks_played + 1, game.hand_size)
    lines = [
        f"Kyuuri — deal {deal}, trick {trick}/{game.hand_size}, dealer {agent_name(game.dealer)} (omniscient view)"
    ]
    for s in range(game.num_players):
        score = f"penalty {int(game.penalties_array[s]):3d}{' 🥒' if game.cucumbers_array[s] else '  '}"
        if not game.alive[s]:
            status = f"out (place {game.places[s]})"
        else:
            played = ranks_text(game.played.by_seat[s]) or "-"
            status = f"hand [{int(game.hands[s].sum())}] {ranks_text(game.hands[s]) or '-':22s} played {played}"
        lines.append(seat_line(s, f"{score} {status}", s == game.current_player))
    if game.trick.cards and game.current_player != TERMINAL:
        cards = ", ".join(f"{agent_name(s)} {c}" for s, c in zip(game.trick.seats, game._trick_text(), strict=True))
        lines.append(f"Trick: {cards} — {agent_name(game.trick_winner)} is winning")
    lines.append(f"Stock (never revealed): {ranks_text(game.stock) or '-'}")
    lines += last_event_line(game.events.events, WORDS)
    return "\n".join(lines)


def _trick(who: str, pub: dict[str, Any]) -> str:
    cards = ", ".join(f"{agent_name(s)} {c}" for s, c in zip(pub["seats"], pub["cards"], strict=True))
    return f"trick {pub['trick'] + 1}: {cards} — taken by {agent_name(pub['winner'])}"


def _deal_over(who: str, pub: dict[str, Any]) -> str:
    losers = ", ".join(agent_name(s) for s in pub["losers"])
    bonus = "".join(f"; {agent_name(s)} recovers {p}" for s, p in pub["bonus"])
    return f"deal {pub['deal'] + 1} over: {losers} took the last trick with {pub['card']} (+{pub['points']}){bonus}"


def _game_over(who: str, pub: dict[str, Any]) -> str:
    winners = ", ".join(agent_name(s) for s in pub["winners"]) or "nobody"
    return f"game over ({pub['reason']}): {winners} win(s); places {pub['places']}"


WORDS: dict[str, Words] = {
    "play": lambda who, pub: f"{who} plays {pub['card']}",
    "trick": _trick,
    "deal_over": _deal_over,
    "reincarnate": lambda who, pub: (
        f"{who} went over the limit and gets a cucumber (penalty reset to {pub['penalty']})"
    ),
    "out": lambda who, pub: f"{who} is out with {pub['penalty']} points (place {pub['place']})",
    "game_over": _game_over,
    "deal": lambda who, pub: f"deal {pub['deal'] + 1} by {agent_name(pub['dealer'])}",
}
"""Sentences for this game's events (:func:`cardenvs.core.render.event_text`)."""
