"""Readable, omniscient text picture of a Zheng Shang You table (``render_mode="ansi"``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardenvs.core.engine import TERMINAL
from cardenvs.core.render import COMMON_WORDS, Words, last_event_line, seat_line
from cardenvs.core.seating import agent_name
from cardenvs.zheng_shang_you.combos import shape_label
from cardenvs.zheng_shang_you.exchange import STAGES
from cardenvs.zheng_shang_you.ranks import PICK_TEXT, VALUE_TEXT, bits_list, text

if TYPE_CHECKING:
    from cardenvs.zheng_shang_you.rules import ZsyRules


def render(game: ZsyRules) -> str:
    """Hands (all shown), the combination to beat, the exchange table, scores and the latest event."""
    opts = game.options
    mode = {"individual": "individual", "partners": "2 v 2", "san_jia_xi": "San Jia Xi 3 v 3"}[opts.team_mode]
    lines = [
        f"Zheng Shang You — {mode}, deal {game.deals_played + (game.current_player != TERMINAL)}, "
        f"dealer {agent_name(game.dealer)}, target {opts.target} (omniscient view)"
    ]
    for s in range(game.num_players):
        if game.out[s]:
            status = f"out ({game.finish_order.index(s) + 1}.)"
        else:
            status = f"[{game.hands[s].bit_count():2d}] {text(bits_list(game.hands[s]))}"
        team = f" team {game.units[s]}" if opts.team_mode != "individual" else ""
        lines.append(seat_line(s, status, s == game.current_player, team))
    if game.top is not None:
        lines.append(f"To beat: {game.top.describe()} by {agent_name(game.top_seat)}; passes {game.passes}")
    elif game.exchange is None and game.current_player != TERMINAL:
        lines.append("To beat: nothing (a lead)")
    state = game.exchange
    if state is not None:
        cards = ", ".join(
            f"{agent_name(g)}: {PICK_TEXT[c] if c >= 0 else '-'}"
            for g, c in zip(state.givers, state.table, strict=True)
        )
        hidden = not state.revealed and any(c >= 0 for c in state.table)
        lines.append(f"Exchange at {STAGES[state.stage]}: table {cards}{' (face down)' if hidden else ''}")
    b = game.builder
    if b is not None and b.started:
        shape = "-" if b.shape is None else shape_label(b.shape)
        top = VALUE_TEXT[b.top] if b.top >= 0 else "-"
        lines.append(f"Building: {shape}, top {top}, cards {text(b.picks) or '-'}")
    lines.append(f"Totals: {game.totals}")
    lines += last_event_line(game.events.events, WORDS)
    return "\n".join(lines)


def _play(who: str, pub: dict[str, Any]) -> str:
    return f"{who} {'leads' if pub['lead'] else 'plays'} {pub['kind']} {' '.join(pub['cards'])} (top {pub['top']})"


def _deal(who: str, pub: dict[str, Any]) -> str:
    shown = f", shown card {pub['shown_card']}" if "shown_card" in pub else ""
    return f"deal {pub['deal'] + 1} by {agent_name(pub['dealer'])}{shown}"


def _exchange_table(who: str, pub: dict[str, Any]) -> str:
    return f"exchange cards turned up: {' '.join(pub['cards'])}" if "cards" in pub else "exchange cards lie face down"


WORDS: dict[str, Words] = {
    **COMMON_WORDS,
    "play": _play,
    "pass": lambda who, pub: f"{who} passes",
    "trick": lambda who, pub: f"trick to {agent_name(pub['winner'])}; {agent_name(pub['next_leader'])} leads",
    "deal": _deal,
    "deal_over": lambda who, pub: f"deal over: order {[agent_name(s) for s in pub['order']]}, totals {pub['totals']}",
    "game_over": lambda who, pub: f"game over: totals {pub['totals']}, rewards {[round(r, 3) for r in pub['rewards']]}",
    "give": lambda who, pub: f"{who} puts a card on the table ({pub['stage']})",
    "exchange_table": _exchange_table,
    "take": lambda who, pub: f"{who} takes {pub.get('card', 'a card')} from {agent_name(pub['from'])}",
}
"""Sentences for this game's events (:func:`cardenvs.core.render.event_text`)."""
