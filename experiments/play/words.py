"""Words a player understands: the games' proper names, move buttons in plain English, and a glossary of the
games' own terms (kept as the rules write them, explained on hover and in the page's legend)."""

from __future__ import annotations

import ast
import re
from typing import Any

TITLES = {
    "verish_ne_verish": "Verish' ne verish'",
    "yukushi": "Yukushi",
    "kyuuri": "Kyuuri",
    "zheng_shang_you": "Zheng Shang You",
    "goninkan": "Goninkan (五人関係)",
    "yoninkan": "Yoninkan (四人関係)",
}
"""Registry name → the game's proper name."""

GLOSSARY = {
    "関係": "kankei: the partners' side (the holders of the joker and the trump Ace)",
    "無関係": "mukankei: the side against the kankei partners",
    "いく": "iku, 'I go': the kankei player leads the first trick",
    "こい": "koi, 'come': the kankei partner leads the first trick",
    "スコンク": "skunk: the kankei side reaches its target while the others have no honour",
    "逆スコンク": "reverse skunk: the mukankei side reaches its target while the kankei side has no honour",
    "じゅうろく": "juuroku, 'sixteen': a side promises to take all 16 honours",
    "逆じゅうろく": "reverse juuroku: the mukankei side promises to take all 16 honours",
    "2重関": "nijukan: one player holds both the joker and the trump Ace",
    "踊り番": "odoriban: trick 9, when a joker still held must be played",
}
"""Game term → what it means (longest terms are matched first)."""

_TERMS = sorted(GLOSSARY, key=len, reverse=True)

MOVE_WORDS = (
    (r"^declare none$", "play, declaring nothing"),
    (r"^declare (\S*[^\x00-\x7f]\S*)$", r"declare \1"),
    (r"^declare A$", "claim Aces"),
    (r"^declare K$", "claim Kings"),
    (r"^declare Q$", "claim Queens"),
    (r"^declare J$", "claim Jacks"),
    (r"^declare (\S+)$", r"claim \1s"),
    (r"^shape single$", "play a single"),
    (r"^shape set(\d+)$", r"play a set of \1"),
    (r"^shape seq(\d+)$", r"play a sequence of \1"),
    (r"^shape setseq(\d+)x(\d+)$", r"play a set sequence: \2 ranks in a row, \1 cards of each"),
    (r"^shape (\S+)$", r"play as \1"),
    (r"^lead choice (\S+)$", r"say \1"),
    (r"^count (\d+)$", r"say it is \1 card(s)"),
    (r"^trump (\S+)$", r"name \1 trumps"),
    (r"^sweep declare$", "declare the sweep"),
    (r"^sweep stop$", "stop (no sweep)"),
    (r"^discard quad (\S+)$", r"discard the four \1s"),
    (r"^keep quads$", "keep the fours of a kind"),
    (r"^take better-placed giver$", "take the better-placed giver's card"),
    (r"^take worse-placed giver$", "take the worse-placed giver's card"),
    (r"^pass$", "pass"),
    (r"^give$", "put this card on the table"),
    (r"^play$", "play"),
    (r"^challenge$", "challenge the claim"),
    (r"^decline$", "believe it (no challenge)"),
)
"""Engine words of a move button → plain English (first match wins)."""


SIDE_NAMES = {"kankei": "関係", "mukan": "無関係"}
LOG_WORDS = (
    (
        r"nijukan_exchange\s+\{'holder': (\d+), 'partner': (\d+)\}",
        r"2重関 exchange: player_\1 and partner player_\2 swap cards",
    ),
    (r"\bset_sequence\b", "set sequence"),
    (r"\(give_highest\)", "(giving one of their highest cards)"),
    (r"\(give_back\)", "(giving a card back)"),
    (r"\btake_(highest|back)\b", r"taking \1"),
)
"""Engine words in log lines → plain English (the games' own sentences stay as they are)."""


def _points_lines(match: re.Match[str]) -> str:
    """``lines [['kankei', 1, 'success']]`` → ``points: 関係 +1 (success)``."""
    try:
        entries = ast.literal_eval(match.group(1))  # a literal only: never code
        parts = [f"{SIDE_NAMES.get(side, side)} +{points:g} ({why})" for side, points, why in entries]
    except (ValueError, SyntaxError, TypeError):
        return match.group(0)
    return "points: " + ", ".join(parts)


def log_line(line: str) -> str:
    """A log line in plain English."""
    line = re.sub(r"lines (\[\[.*?\]\])", _points_lines, line)
    for pattern, words in LOG_WORDS:
        line = re.sub(pattern, words, line)
    return line


def title(game_name: str) -> str:
    return TITLES.get(game_name, game_name.replace("_", " ").capitalize())


def move_label(label: str) -> str:
    """A move's button in plain English (the engine's words when no rule matches)."""
    parts = []
    for piece in re.split(r" (?=declare |shape |top |lead, |count |play$)", label):
        for pattern, words in MOVE_WORDS:
            if re.match(pattern, piece):
                piece = re.sub(pattern, words, piece)
                break
        parts.append(piece.replace("top ", "top card "))
    return ", ".join(parts)


def terms_in(texts: list[str]) -> dict[str, str]:
    """The glossary entries of the game terms that appear in ``texts``."""
    joined = "\n".join(texts)
    found: dict[str, str] = {}
    for term in _TERMS:
        if term in joined:
            found[term] = GLOSSARY[term]
    return dict(sorted(found.items()))


def plain_view(view: dict[str, Any]) -> None:
    """Put the proper name, plain move labels and the glossary of the terms shown into ``view`` (in place)."""
    view["title"] = title(view["game"])
    view["history"] = [log_line(line) for line in view["history"]]
    for move in view["moves"]:
        move["label"] = move_label(move["label"])
    shown = [m["label"] for m in view["moves"]] + view["history"] + view["lines"]
    shown += [p["status"] + " " + p.get("team", "") for p in view["players"]]
    view["glossary"] = terms_in(shown)
