"""A control variate for the luck of the deal (in the spirit of AIVAT, Burch et al., AAAI 2018).

Each game's score is corrected by how good its seat's cards were: ``score − β (V(deal, seat) − μ(seat))``, where
``V(deal, seat)`` is what a **baseline policy** scores from that seat when it plays every seat of the same deal
(the same env seed) and ``μ(seat)`` is the baseline's mean from that seat over **other, independent deals**.
``β`` is fitted on the other half of the deals. The correction's expectation is ``E[β] (E[V] − E[μ]) = 0``
whatever the baseline, so the corrected mean is unbiased by construction; it is narrower when the baseline's
result on a deal predicts the entrants' (a strong hand for the bot is a strong hand for everyone). Only the
returns are corrected: use the mean scores and paired differences of the adjusted records, not their win rates.
With duplicate deals every entrant already meets each deal from each seat,
so most of this luck cancels there too; ``docs/statistics.md`` has the measured gains of both, per game.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from cardenvs.agents.tournament.schedule import Job, deal_seed
from cardenvs.agents.tournament.specs import Entrant
from cardenvs.agents.tournament.worker import GamePlayer, GameRecord, GameSetup

MEAN_STREAM = 0x1C4
"""Mixed into the tournament seed for the deals that estimate ``μ``, so they are independent of the played ones."""


def baseline_values(
    env_id: str, options: dict[str, Any], baseline: str, seeds: Iterable[int]
) -> dict[int, list[float]]:
    """Env seed → the baseline's return per seat when it plays every seat of that deal."""
    player = GamePlayer(GameSetup(env_id, dict(options), (Entrant("baseline", baseline),)))
    seats = (0,) * player.num_players
    return {seed: player.play(Job(0, 0, seed, seats)).returns for seed in dict.fromkeys(seeds)}


def seat_means(env_id: str, options: dict[str, Any], baseline: str, deals: int, seed: int = 0) -> list[float]:
    """The baseline's mean return per seat over ``deals`` deals drawn independently of any tournament's."""
    seeds = [deal_seed(seed ^ (MEAN_STREAM << 32), d) for d in range(deals)]
    values = baseline_values(env_id, options, baseline, seeds)
    return [float(x) for x in np.mean(list(values.values()), axis=0)]


def luck_adjusted(
    records: Sequence[GameRecord], values: dict[int, list[float]], means: Sequence[float]
) -> list[GameRecord]:
    """Copies of ``records`` with each seat's return corrected by its deal's luck: ``r − β (V − μ)``.

    ``β`` (how much of the baseline's luck carries over to these players, in [0, 1]) is fitted by least squares
    on the *other* half of the deals (even deals for odd ones and back), so it is independent of the deal it
    corrects and the correction keeps expectation 0 (cross-fitting)."""
    folds = [[r for r in records if r.deal % 2 == parity] for parity in (0, 1)]
    slopes = [_slope(fold, values, means) for fold in folds]
    adjusted = []
    for record in records:
        beta = slopes[1 - record.deal % 2]
        luck = values[record.seed]
        returns = [r - beta * (v - m) for r, v, m in zip(record.returns, luck, means, strict=True)]
        adjusted.append(dataclasses.replace(record, returns=returns))
    return adjusted


def _slope(records: Sequence[GameRecord], values: dict[int, list[float]], means: Sequence[float]) -> float:
    """Least-squares slope of the returns on the baseline's luck, clipped to [0, 1] (0 without data)."""
    returns = np.array([x for r in records for x in r.returns], dtype=float)
    luck = np.array([v - m for r in records for v, m in zip(values[r.seed], means, strict=True)], dtype=float)
    if len(luck) < 2 or not np.any(luck - luck.mean()):
        return 0.0
    centred = luck - luck.mean()
    return float(np.clip(centred @ (returns - returns.mean()) / (centred @ centred), 0.0, 1.0))
