"""Who plays with whom (as soon as it is public) and how a finished game went for the person."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from cardenvs.core.engine import RulesEngine

OUT_WORDS = ("out", "eliminated")
"""A player's status line starting with one of these: that player has no move left in this deal or game."""


TEAM_PLAY = ("partners", "san_jia_xi")
"""Zheng Shang You's team modes: the players of alternate seats (partners opposite, with four) play together."""


def teams(game: RulesEngine[Any], seat: int | None) -> list[str]:
    """Each player's side in words (``""`` while unknown to ``seat``): the kankei games' 関係 and 無関係 once the
    team is public (always in an omniscient view), Zheng Shang You's teams by seat; the person's partners named."""
    if getattr(getattr(game, "options", None), "team_mode", None) in TEAM_PLAY:
        return _named(game.num_players, {p for p in range(game.num_players) if p % 2 == 0}, seat, ("team A", "team B"))
    kankei = getattr(game, "kankei", None)
    rules = getattr(game, "rules", None)
    if kankei is None or rules is None:
        return [""] * game.num_players
    public = seat is None or getattr(game, "team_public", False) or not getattr(rules, "hidden_teams", False)
    if not public:
        return [""] * game.num_players
    team = {int(p) for p in kankei}
    if not team:
        return [""] * game.num_players
    return _named(game.num_players, team, seat, ("関係", "無関係"))


def _named(n: int, team: set[int], seat: int | None, sides: tuple[str, str]) -> list[str]:
    """``sides[0]`` for the players in ``team``, ``sides[1]`` for the others; ``seat``'s partners named."""
    words = []
    for p in range(n):
        side = sides[0] if p in team else sides[1]
        partner = seat is not None and seat >= 0 and p != seat and (p in team) == (seat in team)
        words.append(f"{side}, your partner" if partner else side)
    return words


def outcome(
    returns: Sequence[float], seat: int, scores: Sequence[float], score_name: str, history: Sequence[str] = ()
) -> dict[str, Any]:
    """The person's result: won, lost or drawn, the place (1 = best return; ties share), the points, and the
    log's lines on the last deal scored, if the game has deals."""
    mine = returns[seat]
    place = 1 + sum(r > mine for r in returns)
    if all(r == mine for r in returns):
        verdict = "Drawn"
    elif place == 1:
        verdict = "You won"
    else:
        verdict = "You lost"
    return {
        "verdict": verdict,
        "place": place,
        "of": len(returns),
        "return": mine,
        "points": scores[seat] if seat < len(scores) else None,
        "score_name": score_name,
        "last_deal": last_deal(history),
    }


def last_deal(history: Sequence[str]) -> list[str]:
    """The log's lines on the last deal scored, and on its round if the game has rounds."""
    scored = [i for i, line in enumerate(history) if re.match(r"(deal|round)( \d+)? over", line)]
    deals = [i for i in scored if history[i].startswith("deal")]
    return [history[i] for i in scored if i >= (deals[-1] if deals else scored[-1] if scored else 0)]


def is_out(status: str) -> bool:
    return status.startswith(OUT_WORDS)
