"""Variance reduction, measured: duplicate deals against independent deals, and the luck control variate.

For each game and player count, two entrants (the game's rule bot against its second style, or against
``random``) play a tournament of about ``games`` games twice: with duplicate seatings (the default scheme) and
with one seating per deal (``single``: independent deals). Both are analysed plainly and with the luck control
variate of :mod:`agents.tournament.luck` (the rule bot as baseline). The interval widths at equal games say what
each design and each estimator buys; they are averaged over ``replications`` tournament seeds.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardenvs.agents.registry import policy_names
from cardenvs.agents.tournament.luck import baseline_values, luck_adjusted, seat_means
from cardenvs.agents.tournament.runner import Tournament
from cardenvs.agents.tournament.stats import analyse
from cardenvs.agents.tournament.worker import GamePlayer, GameRecord
from cardenvs.registry import game_name


@dataclass(frozen=True)
class Case:
    env_id: str
    num_players: int

    def entrants(self) -> tuple[str, str]:
        """The rule bot and its nearest rival: a second bot style if the game has one, else ``random``."""
        bots = [name for name in policy_names(self.env_id) if name.startswith(game_name(self.env_id) + "/")]
        return bots[0], bots[1] if len(bots) > 1 else "random"


CASES = (
    Case("verish_ne_verish-v0", 3),
    Case("verish_ne_verish-v0", 4),
    Case("yukushi-v0", 4),
    Case("kyuuri-v0", 3),
    Case("kyuuri-v0", 4),
    Case("zheng_shang_you-v0", 4),
    Case("goninkan-v1", 5),
    Case("yoninkan-v1", 4),
)


def _play(tournament: Tournament) -> list[GameRecord]:
    player = GamePlayer(tournament.setup())
    return [player.play(job) for job in tournament.jobs()]


def measure(case: Case, games: int, replications: int, mean_deals: int) -> dict[str, Any]:
    """Mean interval widths (difference of the two entrants, and the bot's score) per design and estimator."""
    bot, rival = case.entrants()
    options = {"num_players": case.num_players}
    means = seat_means(case.env_id, options, bot, mean_deals)
    widths: dict[str, list[float]] = {}
    values: dict[str, list[float]] = {}
    for rep in range(replications):
        for scheme in ("auto", "single"):
            t = Tournament(case.env_id, [f"bot={bot}", f"rival={rival}"], games, options, scheme=scheme, seed=rep)
            records = _play(t)
            luck = baseline_values(case.env_id, options, bot, (r.seed for r in records))
            for estimator, chosen in (("plain", records), ("control variate", luck_adjusted(records, luck, means))):
                stats = analyse(chosen, ["bot", "rival"], cycle_length=t.schedule.cycle_length())
                for statistic, e in (
                    ("difference", stats.difference("bot", "rival")),
                    ("bot score", stats.entrant_stats["bot"].score),
                ):
                    key = f"{'duplicate' if scheme == 'auto' else 'independent'}|{estimator}|{statistic}"
                    widths.setdefault(key, []).append(e.width)
                    values.setdefault(key, []).append(e.value)
    return {
        "env_id": case.env_id,
        "num_players": case.num_players,
        "entrants": [bot, rival],
        "games": games,
        "replications": replications,
        "baseline_mean_deals": mean_deals,
        "widths": {k: float(np.mean(v)) for k, v in widths.items()},
        "values": {k: float(np.mean(v)) for k, v in values.items()},
    }


def markdown(results: Iterable[dict[str, Any]]) -> str:
    """Widths side by side and the two gains (width ratios at equal games; above 1 is a gain)."""
    lines = [
        "| game | players | pair | statistic | independent | duplicate | duplicate + CV | duplicate gain | CV gain "
        "(duplicate) | CV gain (independent) |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        w = r["widths"]
        for statistic in ("difference", "bot score"):
            ind, dup = w[f"independent|plain|{statistic}"], w[f"duplicate|plain|{statistic}"]
            dup_cv, ind_cv = w[f"duplicate|control variate|{statistic}"], w[f"independent|control variate|{statistic}"]
            lines.append(
                f"| {r['env_id']} | {r['num_players']} | {r['entrants'][0]} vs {r['entrants'][1]} | {statistic} | "
                f"{ind:.3f} | {dup:.3f} | {dup_cv:.3f} | {ind / dup:.2f}× | {dup / dup_cv:.2f}× | {ind / ind_cv:.2f}× |"
            )
    return "\n".join(lines) + "\n"
