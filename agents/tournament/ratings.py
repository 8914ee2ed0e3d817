"""OpenSkill ratings of tournament entrants, with their uncertainty.

The model is **Thurstone–Mosteller with full pairing** (``openskill.models.ThurstoneMostellerFull``), not
openskill's default Plackett–Luce. Card games end in ties all the time (Verish' ne verish' has one loser and
``n-1`` equal winners), and Plackett–Luce, a model of orderings, has no tie event: with equal priors it can
rate a player *tied for first* below the player who came third (``ranks [1, 1, 3, 4, 5]``, openskill.py issue
#155). Thurstone–Mosteller compares every pair of teams with Gaussian performances and a draw margin, so a
``k``-way tie is ``k(k-1)/2`` draws: tied entrants get identical updates, never less than a worse-ranked one.
``tests/tournament/test_ratings.py`` checks exactly this.

Each game is one rating event. An entrant occupying several seats of a game (a side of partners, or copies in
a lineup with fewer entrants than seats) is one team whose result is its mean return; teams are ranked by
result, equal results tie. Games are rated in (deal, seating) order, so ratings do not depend on which worker
finished first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardenvs.agents.tournament.worker import GameRecord

Z95 = 1.959964


@dataclass(frozen=True)
class Rating:
    """An OpenSkill rating: mean ``mu``, uncertainty ``sigma``, and the conservative ``ordinal`` = mu − 3σ."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def low(self) -> float:
        """Lower end of the 95% interval mu ± 1.96σ."""
        return self.mu - Z95 * self.sigma

    @property
    def high(self) -> float:
        return self.mu + Z95 * self.sigma


def rating_model() -> Any:
    """The OpenSkill model used for tournaments (see the module docstring for why this one)."""
    try:
        from openskill.models import ThurstoneMostellerFull
    except ImportError as error:
        raise RuntimeError("ratings need openskill: pip install -e '.[tournament]'") from error
    return ThurstoneMostellerFull()


def competition_ranks(results: Sequence[float]) -> list[int]:
    """Rank 1 for the best result; equal results share a rank (``[5, 9, 5, 1]`` → ``[2, 1, 2, 4]``)."""
    return [1 + sum(other > mine for other in results) for mine in results]


def rate_games(records: Sequence[GameRecord], entrants: Sequence[str], model: Any = None) -> dict[str, Rating]:
    """Ratings of every entrant after rating the games in order (entrants that never played keep the prior)."""
    model = model if model is not None else rating_model()
    current = {label: model.rating(name=label) for label in entrants}
    for record in records:
        totals: dict[str, list[float]] = {}
        for label, result in zip(record.seats, record.returns, strict=True):
            totals.setdefault(label, []).append(result)
        if len(totals) < 2:
            continue
        labels = list(totals)
        results = [sum(totals[label]) / len(totals[label]) for label in labels]
        teams = model.rate([[current[label]] for label in labels], ranks=competition_ranks(results))
        for label, team in zip(labels, teams, strict=True):
            current[label] = team[0]
    return {label: Rating(float(r.mu), float(r.sigma)) for label, r in current.items()}
