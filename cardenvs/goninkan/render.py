"""Readable, omniscient text picture of a Goninkan / Yoninkan table (``render_mode="ansi"``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardenvs.core.cards import SUIT_TEXT
from cardenvs.core.engine import TERMINAL
from cardenvs.core.render import Words, last_event_line
from cardenvs.core.seating import agent_name

if TYPE_CHECKING:
    from cardenvs.goninkan.game import KankeiGame


def render(game: KankeiGame[Any]) -> str:
    """Seats in play order with hands (all shown), teams, the trick in progress, honours and scores."""
    trump = SUIT_TEXT[game.trump] if game.trump >= 0 else "-"
    title = "Goninkan" if game.rules.is_goninkan else "Yoninkan"
    lines = [
        f"{title} — round {game.round_number}/{game.options.n_rounds}, deal {game.deal}, trick "
        f"{min(game.trick_no, 10)}, trump {trump} (deal-1 trump {SUIT_TEXT[game.deal1_trump]}), "
        f"dealer {agent_name(game.dealer)} (omniscient view)"
    ]
    for seat, p in enumerate(game.person_at):
        role = "関係" if game.is_kankei[p] else ("sits out" if not game.is_active(p) else "無関係")
        marker = "  ← to act" if p == game.current_player else ""
        lines.append(
            f"  seat {seat} {agent_name(p):9s} {role:8s} honours {game.honours[p]:2d} "
            f"[{len(game.hands[p]):2d}] {game.cards_text(game.hands[p])}{marker}"
        )
    trick = game.trick
    if len(trick):
        played = ", ".join(
            f"{agent_name(p)} {game.cards.text[c]}" for p, c in zip(trick.seats, trick.cards, strict=True)
        )
        lines.append(f"Trick (follow {SUIT_TEXT[trick.led_suit]}): {played}")
    k, m = game.side_honours
    decls = ", ".join(f"{agent_name(d.player)} {d.kind.text}" for d in game.declarations) or "-"
    lines.append(f"Honours 関係 {k} / 無関係 {m}   declarations: {decls}")
    lines.append(f"Round points {[round(x, 3) for x in game.round_points.tolist()]}")
    lines += last_event_line(game.events.events, WORDS)
    if game.current_player == TERMINAL:
        lines.append(f"Episode points {[round(x, 3) for x in game.match_points.tolist()]}")
    return "\n".join(lines)


def _play(who: str, pub: dict[str, Any]) -> str:
    named = f" naming {pub['suit']}" if "suit" in pub else ""
    return f"{who} played {pub['card']}{named}"


def _deal_over(who: str, pub: dict[str, Any]) -> str:
    result = "success" if pub["success"] else "failure"
    return f"deal {pub['deal']} over: {result}; lines {pub['lines']}"


def _declare(who: str, pub: dict[str, Any]) -> str:
    return f"{who} {'declared ' + pub['kind'] if pub['declared'] else 'did not declare'}"


def _names(seats: list[int]) -> str:
    return ", ".join(agent_name(s) for s in seats) or "nobody"


def _kankei(who: str, pub: dict[str, Any]) -> str:
    partner = f"; partner {agent_name(pub['partner'])}" if "partner" in pub else ""
    return f"関係 called by {_names(pub['callers'])}{' (nijukan)' if pub.get('nijukan') else ''}{partner}"


WORDS: dict[str, Words] = {
    "deal": lambda who, pub: (
        f"round {pub['round']}, deal {pub['deal']} by {agent_name(pub['dealer'])}, trump {pub['trump'] or 'not yet'}"
    ),
    "kankei": _kankei,
    "seat_swap": lambda who, pub: f"{who} swaps seats with {agent_name(pub['with'])}",
    "lead_choice": lambda who, pub: f"{who} chose {pub['choice']}: {agent_name(pub['leader'])} leads",
    "show": lambda who, pub: f"{who} shows cards to {agent_name(pub['to'])}",
    "trump": lambda who, pub: f"{who} names trump {pub.get('suit', '')}".strip(),
    "round_over": lambda who, pub: f"round {pub['round']} over: points {pub['points']}",
    "game_over": lambda who, pub: f"game over: rewards {pub['rewards']}, winners {_names(pub['winners'])}",
    "play": _play,
    "trick": lambda who, pub: f"trick {pub['trick']} to {agent_name(pub['winner'])} ({pub['honours']} honours)",
    "deal_over": _deal_over,
    "declare": _declare,
    "sweep": _declare,
}
"""Sentences for this game's events (:func:`cardenvs.core.render.event_text`)."""
