"""One SVG picture of a table, drawn from a :func:`~cardenvs.render.view.seat_view` (cards drawn here: no images).

The person's seat sits at the bottom with its hand face up; the others sit round the table with their status;
the middle holds the cards face up (a trick, the combination to beat) or face down (a bluffing pile). Each card
of the person's hand is a ``<g class="card" data-i=…>`` so the play page can make it clickable.
"""

from __future__ import annotations

import math
from html import escape
from typing import Any

WIDTH, HEIGHT = 960, 620
CARD_W, CARD_H = 60, 88
SMALL_W, SMALL_H = 44, 64
RED = "#c0392b"
INK = "#1d1d1d"
FELT = "#1f6b45"


def _colour(card: str) -> str:
    return RED if card[-1:] in "♥♦" or card == "RJ" else INK


def card_svg(card: str, x: float, y: float, w: float = CARD_W, h: float = CARD_H, attrs: str = "") -> str:
    """One card face: its rank in the corner, its suit under it, a large symbol in the middle."""
    suit = card[-1] if card[-1:] in "♣♦♥♠" else ""
    rank = card[: -len(suit)] if suit else card
    colour = _colour(card)
    size = h / 88
    middle = suit or rank
    big = 34 * size if suit else (26 if len(rank) < 3 else 20) * size
    return (
        f'<g {attrs}><g transform="translate({x:.1f},{y:.1f})">'
        f'<rect width="{w}" height="{h}" rx="{6 * size:.1f}" fill="#fffdf7" stroke="#333" stroke-width="1"/>'
        f'<text x="{5 * size:.1f}" y="{17 * size:.1f}" font-size="{15 * size:.1f}" font-weight="bold" '
        f'fill="{colour}">{escape(rank)}</text>'
        + (
            f'<text x="{5 * size:.1f}" y="{32 * size:.1f}" font-size="{13 * size:.1f}" fill="{colour}">{suit}</text>'
            if suit
            else ""
        )
        + f'<text x="{w / 2:.1f}" y="{h / 2 + big / 3:.1f}" font-size="{big:.1f}" text-anchor="middle" '
        f'fill="{colour}">{escape(middle)}</text></g></g>'
    )


def back_svg(x: float, y: float, w: float = SMALL_W, h: float = SMALL_H) -> str:
    """The back of a card."""
    return (
        f'<g transform="translate({x:.1f},{y:.1f})"><rect width="{w}" height="{h}" rx="5" fill="#7a2230" '
        f'stroke="#f3e9d2" stroke-width="2"/><rect x="5" y="5" width="{w - 10}" height="{h - 10}" rx="3" '
        f'fill="none" stroke="#f3e9d2" stroke-width="1" stroke-dasharray="3 2"/></g>'
    )


def _text(
    x: float, y: float, text: str, size: int = 14, weight: str = "normal", fill: str = INK, anchor: str = "start"
) -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" font-weight="{weight}" fill="{fill}" '
        f'text-anchor="{anchor}">{escape(text)}</text>'
    )


def _wrap(tokens: list[str], per_line: int) -> list[str]:
    return [" ".join(tokens[i : i + per_line]) for i in range(0, len(tokens), per_line)] or ["-"]


def _box_width(n: int) -> int:
    return 210 if n <= 5 else 160


def _seat_positions(n: int, bottom: int) -> list[tuple[float, float]]:
    """Box centres: ``bottom`` at the bottom middle, the others on an arc over the top, in play order (up to five
    players a half circle; more reach down the sides, in narrower boxes)."""
    positions: list[tuple[float, float]] = [(0.0, 0.0)] * n
    others = [(bottom + k) % n for k in range(1, n)]
    spread = 0.0 if n <= 5 else 0.4  # radians below the horizontal on each side
    centre_y, radius_y = (170, 110) if n <= 5 else (250, 190)
    for k, seat in enumerate(others):
        angle = math.pi + spread - (math.pi + 2 * spread) * (k + 1) / n  # from the left over the top to the right
        positions[seat] = (
            WIDTH / 2 + math.cos(angle) * (WIDTH / 2 - 20 - _box_width(n) / 2),
            centre_y - math.sin(angle) * radius_y,
        )
    positions[bottom] = (WIDTH / 2, HEIGHT - 190)
    return positions


def _player_box(player: dict[str, Any], cx: float, cy: float, score: str, omniscient: bool, w: int) -> list[str]:
    lines = _wrap(player["hand"], 9 if w > 200 else 6) if omniscient else []
    h = 58 + 16 * len(lines)
    x, y = cx - w / 2, cy - 29
    border = "#f1c40f" if player["to_act"] else "#d8d2bf"
    out = [
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{w}" height="{h}" rx="8" fill="#f7f3e8" stroke="{border}" '
        f'stroke-width="{4 if player["to_act"] else 1.5}"/>',
        _text(
            x + 8, y + 18, f"{'▶ ' if player['to_act'] else ''}{player['name']}  {player['label']}".strip(), 14, "bold"
        ),
        _text(x + 8, y + 36, player["status"], 12),
        _text(x + 8, y + 52, score, 12, fill="#555"),
    ]
    for i, line in enumerate(lines):
        out.append(_text(x + 8, y + 68 + 16 * i, line, 12, fill="#333"))
    return out


def _middle(view: dict[str, Any]) -> list[str]:
    out = []
    cx, top = WIDTH / 2, 215
    cards = view["middle"]
    if cards:
        step = min(SMALL_W + 30, 560 / max(len(cards), 1))
        x0 = cx - (step * (len(cards) - 1) + SMALL_W) / 2
        for i, (who, card) in enumerate(cards):
            out.append(card_svg(card, x0 + i * step, top, SMALL_W, SMALL_H))
            if who:
                out.append(
                    _text(x0 + i * step + SMALL_W / 2, top + SMALL_H + 14, who, 11, fill="#eee", anchor="middle")
                )
    elif view["face_down"]:
        shown = min(view["face_down"], 12)
        x0 = cx - (shown * 6 + SMALL_W) / 2
        out += [back_svg(x0 + i * 6, top - i % 2) for i in range(shown)]
        out.append(_text(cx, top + SMALL_H + 16, f"{view['face_down']} face down", 12, fill="#eee", anchor="middle"))
    for i, line in enumerate(view["lines"][:4]):  # four lines fit above the person's box
        out.append(_text(cx, top + SMALL_H + 36 + 16 * i, line, 13, fill="#fff", anchor="middle"))
    return out


def _hand(hand: list[str], y: float) -> list[str]:
    if not hand:
        return []
    step = min(CARD_W + 6, (WIDTH - 40 - CARD_W) / max(len(hand) - 1, 1))
    x0 = WIDTH / 2 - (step * (len(hand) - 1) + CARD_W) / 2
    return [
        card_svg(card, x0 + i * step, y, attrs=f'class="card" data-i="{i}" data-card="{escape(card)}"')
        for i, card in enumerate(hand)
    ]


def table_svg(view: dict[str, Any]) -> str:
    """The table of ``view`` as a standalone SVG document (a string)."""
    players = view["players"]
    seat = view["seat"]
    omniscient = seat is None
    positions = _seat_positions(len(players), seat if seat is not None else 0)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" '
        'font-family="DejaVu Sans, Arial, sans-serif">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" rx="18" fill="{FELT}"/>',
        _text(16, 24, view["game"].replace("_", " ").title(), 16, "bold", "#fff"),
    ]
    if view.get("over"):
        parts.append(_text(WIDTH - 16, 24, "game over", 16, "bold", "#f1c40f", "end"))
    scores = view["scores"]
    for p, player in enumerate(players):
        score = f"{view['score_name']} {scores[p]:g}" if p < len(scores) else ""
        parts += _player_box(player, *positions[p], score, omniscient, _box_width(len(players)))
    parts += _middle(view)
    parts += _hand(view["hand"], HEIGHT - CARD_H - 30)
    parts.append("</svg>")
    return "".join(parts)
