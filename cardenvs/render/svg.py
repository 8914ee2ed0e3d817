"""One SVG picture of a table, drawn from a :func:`~cardenvs.render.view.seat_view` (cards drawn here: no images).

The person's seat sits at the bottom with its hand face up; the others sit round the table with their status;
the middle holds the cards face up (a trick, the combination to beat) or face down (a bluffing pile). Each card
of the person's hand is a ``<g class="card" data-i=…>`` so the play page can make it clickable.
"""

from __future__ import annotations

import unicodedata
from html import escape
from typing import Any

WIDTH = 960
CARD_W, CARD_H = 60, 88
SMALL_W, SMALL_H = 44, 64
MINI_W, MINI_H, MINI_GAP = 30, 22, 3
SIDE_W, BOTTOM_W = 170, 300
ROW_CARDS = 20
"""The most cards in one row of the person's hand; a longer hand wraps onto more rows."""
MARK = "#2ecc71"
TEAM = "#7b2d12"
FONTS = "DejaVu Sans, Noto Sans CJK JP, Arial, sans-serif"
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


def _text_width(text: str, size: float) -> float:
    """About how wide ``text`` is drawn (wide East Asian characters take a full em, others about 0.62)."""
    return sum(size if unicodedata.east_asian_width(c) in "WF" else 0.62 * size for c in text)


def _fitted(
    x: float, y: float, text: str, width: float, size: int = 14, weight: str = "normal", fill: str = INK
) -> str:
    """``text`` cut with an ellipsis to ``width``; the whole text is its tooltip (``<title>``)."""
    shown = text
    while shown and _text_width(shown + "…", size) > width:
        shown = shown[:-1]
    if shown != text:
        shown = shown.rstrip() + "…"
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" font-weight="{weight}" fill="{fill}">'
        f"<title>{escape(text)}</title>{escape(shown)}</text>"
    )


def mini_card_svg(card: str, x: float, y: float) -> str:
    """A small card face with its whole name (rank and suit) as one text, for the all-hands view."""
    return (
        f'<g class="mini"><rect x="{x:.1f}" y="{y:.1f}" width="{MINI_W}" height="{MINI_H}" rx="3" fill="#fffdf7" '
        f'stroke="#444" stroke-width="0.8"/>'
        f'<text x="{x + MINI_W / 2:.1f}" y="{y + MINI_H / 2 + 4:.1f}" font-size="11" font-weight="bold" '
        f'text-anchor="middle" fill="{_colour(card)}">{escape(card)}</text></g>'
    )


def _mini_rows(hand: list[str], w: float) -> list[list[str]]:
    per_row = max(1, int((w - 16 + MINI_GAP) // (MINI_W + MINI_GAP)))
    return [hand[i : i + per_row] for i in range(0, len(hand), per_row)]


def _box_height(player: dict[str, Any], w: float, omniscient: bool) -> float:
    rows = len(_mini_rows(player["hand"], w)) if omniscient else 0
    return 62 + (15 if player.get("team") else 0) + rows * (MINI_H + 4)


def _player_box(player: dict[str, Any], x: float, y: float, w: float, score: str, omniscient: bool) -> list[str]:
    h = _box_height(player, w, omniscient)
    border = "#f1c40f" if player["to_act"] else "#d8d2bf"
    name = f"{'▶ ' if player['to_act'] else ''}{player['name']}  {player['label']}".strip()
    team = player.get("team", "")
    out = [
        f'<g class="seat" data-player="{escape(player["name"])}">'
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="8" fill="#f7f3e8" stroke="{border}" '
        f'stroke-width="{4 if player["to_act"] else 1.5}"/>',
        _fitted(x + 8, y + 18, name, w - 16, 14, "bold"),
        _fitted(x + 8, y + 36, player["status"], w - 16, 12),
        _fitted(x + 8, y + 53, score, w - 16, 12, fill="#44403a"),
    ]
    if team:
        out.append(_fitted(x + 8, y + 68, team, w - 16, 12, "bold", TEAM))
    top = y + 62 + (15 if team else 0)
    for r, row in enumerate(_mini_rows(player["hand"], w) if omniscient else []):
        out += [mini_card_svg(c, x + 8 + i * (MINI_W + MINI_GAP), top + r * (MINI_H + 4)) for i, c in enumerate(row)]
    out.append("</g>")
    return out


def _layout(n: int, bottom: int) -> tuple[list[int], list[int], list[int]]:
    """The other seats in play order after ``bottom``: up the left side, along the top, down the right side
    (up to four others all along the top)."""
    others = [(bottom + k) % n for k in range(1, n)]
    if len(others) <= 4:
        return [], others, []
    return others[:1], others[1:-1], others[-1:]


def _middle(view: dict[str, Any], top: float, left: float, right: float) -> tuple[list[str], float]:
    """The middle of the table between ``left`` and ``right``; returns its drawing and its bottom."""
    out = []
    cx = (left + right) / 2
    cards = view["middle"]
    y = top
    if cards:
        step = min(SMALL_W + 30, (right - left - SMALL_W) / max(len(cards) - 1, 1))
        x0 = cx - (step * (len(cards) - 1) + SMALL_W) / 2
        for i, (who, card) in enumerate(cards):
            out.append(card_svg(card, x0 + i * step, top, SMALL_W, SMALL_H))
            if who:
                out.append(
                    _text(x0 + i * step + SMALL_W / 2, top + SMALL_H + 14, who, 11, fill="#fff", anchor="middle")
                )
        y = top + SMALL_H + 20
    elif view["face_down"]:
        shown = min(view["face_down"], 12)
        x0 = cx - (shown * 6 + SMALL_W) / 2
        out += [back_svg(x0 + i * 6, top - i % 2) for i in range(shown)]
        out.append(_text(cx, top + SMALL_H + 16, f"{view['face_down']} face down", 12, fill="#fff", anchor="middle"))
        y = top + SMALL_H + 20
    for line in view["lines"][:4]:
        y += 17
        out.append(_text(cx, y, line, 13, fill="#fff", anchor="middle"))
    return out, y + 8


def _hand(hand: list[str], y: float, playable: list[bool]) -> tuple[list[str], float]:
    """The person's hand in rows of at most :data:`ROW_CARDS` cards; playable cards get a green bar, the others
    are dimmed (when the message says which are playable). Returns the drawing and its bottom."""
    if not hand:
        return [], y
    rows = -(-len(hand) // ROW_CARDS)
    per_row = -(-len(hand) // rows)
    out = []
    for r in range(rows):
        row = list(enumerate(hand))[r * per_row : (r + 1) * per_row]
        step = min(CARD_W + 6, (WIDTH - 40 - CARD_W) / max(len(row) - 1, 1))
        x0 = WIDTH / 2 - (step * (len(row) - 1) + CARD_W) / 2
        top = y + r * (CARD_H + 22)
        for k, (i, card) in enumerate(row):
            x = x0 + k * step
            attrs = f'class="card" data-i="{i}" data-card="{escape(card)}"'
            if playable:
                attrs += f' data-playable="{int(playable[i])}"' + ("" if playable[i] else ' opacity="0.45"')
            out.append(card_svg(card, x, top, attrs=attrs))
            if playable and playable[i]:
                out.append(
                    f'<rect x="{x + 4:.1f}" y="{top + CARD_H + 4:.1f}" width="{min(step, CARD_W) - 8:.1f}" '
                    f'height="5" rx="2" fill="{MARK}"/>'
                )
    return out, y + rows * (CARD_H + 22)


def table_svg(view: dict[str, Any]) -> str:
    """The table of ``view`` as a standalone SVG document (a string); its height grows with what it shows."""
    players = view["players"]
    seat = view["seat"]
    omniscient = seat is None
    n = len(players)
    scores = view["scores"]

    def score(p: int) -> str:
        return f"{view['score_name']} {scores[p]:g}" if p < len(scores) else ""

    me = seat if seat is not None and seat >= 0 else 0  # at the bottom: the person (anyone, for a watcher)
    left, top_row, right = _layout(n, me)
    parts: list[str] = []
    top_w = min(220.0, (WIDTH - 20) / max(len(top_row), 1) - 10)
    top_h = max((_box_height(players[p], top_w, omniscient) for p in top_row), default=0)
    for k, p in enumerate(top_row):
        x = WIDTH / 2 + (k - len(top_row) / 2) * (top_w + 10) + 5
        parts += _player_box(players[p], x, 40, top_w, score(p), omniscient)
    side_y = 40 + top_h + 14
    bottoms = [side_y]
    for p, x in [(p, 10.0) for p in left] + [(p, WIDTH - 10.0 - SIDE_W) for p in right]:
        parts += _player_box(players[p], x, side_y, SIDE_W, score(p), omniscient)
        bottoms.append(side_y + _box_height(players[p], SIDE_W, omniscient))
    inner = (20 + SIDE_W, WIDTH - 20 - SIDE_W) if left or right else (20.0, WIDTH - 20.0)
    middle, middle_bottom = _middle(view, side_y + 6, *inner)
    parts += middle
    box_y = max(middle_bottom, *bottoms) + 10
    parts += _player_box(players[me], WIDTH / 2 - BOTTOM_W / 2, box_y, BOTTOM_W, score(me), omniscient)
    hand, bottom = _hand(
        view["hand"], box_y + _box_height(players[me], BOTTOM_W, omniscient) + 24, view.get("playable") or []
    )
    parts += hand
    height = max(bottom + 12, 420)
    head = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height:.0f}" width="{WIDTH}" '
        f'height="{height:.0f}" font-family="{FONTS}">',
        f'<rect width="{WIDTH}" height="{height:.0f}" rx="18" fill="{FELT}"/>',
        _text(16, 26, view.get("title") or view["game"].replace("_", " ").title(), 16, "bold", "#fff"),
    ]
    if view.get("over"):
        head.append(_text(WIDTH - 16, 26, "game over", 16, "bold", "#f1c40f", "end"))
    return "".join(head + parts + ["</svg>"])
