"""Terminal play (``python -m cardenvs.experiments.play --tui``): the same table and views as the page, in 80 columns.

On your turn you type the numbers of the cards you select (nothing for a move without cards), then the
letter of a move that uses exactly those cards; the cards you may play are marked ``*``, and a selection no
move takes is answered with the rule it breaks. Each bot move is printed as it is made. ``q`` quits; after a
game, ``r`` deals a rematch.
"""

from __future__ import annotations

import string
import sys
import textwrap
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from cardenvs.experiments.play.hints import refusal
from cardenvs.experiments.play.session import PlaySession

WIDTH = 80
HISTORY_LINES = 6


def _wrap(text: str, indent: str = "") -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=indent + "  ") or [indent]


def view_text(view: dict[str, Any]) -> str:
    """A message of the table as text, no line longer than 80 columns."""
    lines = [
        "=" * WIDTH,
        view["title"].ljust(WIDTH - 10) + ("game over" if view["over"] else ""),
    ]
    for i, p in enumerate(view["players"]):
        marker = ">" if p["to_act"] else " "
        score = f"{view['score_name']} {view['scores'][i]:g}" if i < len(view["scores"]) else ""
        team = f" ({p['team']})" if p.get("team") else ""
        lines += _wrap(f"{marker} {p['name']} {p['label']}{team}: {p['status']}; {score}")
    lines.append("-" * WIDTH)
    if view["middle"]:
        lines += _wrap("Table: " + "  ".join(f"{who} {card}".strip() for who, card in view["middle"]))
    for line in view["lines"]:
        lines += _wrap(line)
    lines.append("-" * WIDTH)
    for line in view["history"][-HISTORY_LINES:]:
        lines += _wrap(line, "  ")
    for term, meaning in view.get("glossary", {}).items():
        lines += _wrap(f"{term}: {meaning}", "  ")
    if view["hand"]:
        marks = view.get("playable") if any(view.get("playable") or []) else None
        lines.append("Your hand:" + ("  (* = you may play it now)" if marks else ""))
        cards = [f"{i + 1}:{card}{'*' if marks and marks[i] else ''}" for i, card in enumerate(view["hand"])]
        lines += _wrap("  ".join(cards), "  ")
    return "\n".join(lines)


def _choose(view: dict[str, Any], ask: Callable[[str], str], say: Callable[[str], None]) -> int | None:
    """Ask for cards, then for a move using exactly them; ``None`` when the person quits."""
    moves = view["moves"]
    needs_cards = any(m["cards"] for m in moves)
    while True:
        chosen: list[str] = []
        if needs_cards:
            answer = ask("Select cards (numbers; Enter for none; q quits) > ").strip()
            if answer == "q":
                return None
            try:
                picks = sorted({int(x) for x in answer.replace(",", " ").split()})
            except ValueError:
                say("type card numbers such as 1 4 5")
                continue
            if any(not 1 <= i <= len(view["hand"]) for i in picks):
                say(f"card numbers are 1..{len(view['hand'])}")
                continue
            chosen = [view["hand"][i - 1] for i in picks]
        if chosen:
            options = [i for i, m in enumerate(moves) if Counter(m["cards"]) == Counter(chosen)]
        else:
            options = [i for i, m in enumerate(moves) if not m["cards"]]
        if not options:
            for line in _wrap(refusal(view["hand"], chosen, view, moves) or "select the cards of a move first"):
                say(line)
            continue
        letters = (string.ascii_lowercase + string.ascii_uppercase)[: len(options)]
        for letter, i in zip(letters, options, strict=False):
            say(f"  {letter}) {moves[i]['label']} {' '.join(moves[i]['cards'])}".rstrip())
        answer = ask("Move (letter; Enter to choose cards again) > ").strip()
        if answer == "q":
            return None
        if answer and answer in letters:
            return options[letters.index(answer)]


def run_tui(
    session: PlaySession,
    pace: float = 0.6,
    ask: Callable[[str], str] = input,
    say: Callable[[str], None] = print,
) -> int:
    """Play in the terminal until the person quits; each bot move is printed as it is made."""
    seen = 0  # history lines printed so far
    while True:
        message = session.send()
        if message["waiting"]:
            seen = min(seen, len(message["history"]))
            session.advance(message["version"])
            fresh = session.send()["history"]
            for line in fresh[seen:]:
                for text in _wrap(line, "  "):
                    say(text)
            seen = len(fresh)
            time.sleep(pace)
            continue
        seen = len(message["history"])
        say(view_text(message))
        if message["notice"]:
            say(message["notice"])
        if message["over"]:
            result = message["outcome"]
            place = "" if result["verdict"] == "Drawn" else f", place {result['place']} of {result['of']}"
            for line in result["last_deal"]:
                for text in _wrap(line):
                    say(text)
            say(f"Game over. {result['verdict']}{place}. Returns: {message['returns']}")
            answer = ask("r for a rematch, anything else quits > ").strip()
            if answer != "r":
                return 0
            session.rematch(message["version"])
            seen = 0
            continue
        index = _choose(message, ask, say)
        if index is None:
            return 0
        session.play(message["version"], index)


if __name__ == "__main__":
    sys.exit("run: python -m cardenvs.experiments.play --tui")
