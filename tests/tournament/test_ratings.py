"""OpenSkill ratings: the model handles multi-way ties correctly; entrants in several seats are one team."""

from __future__ import annotations

import itertools

import pytest

from cardenvs.agents.tournament.ratings import competition_ranks, rate_games, rating_model
from cardenvs.agents.tournament.worker import GameRecord

TIED_RANKINGS = [
    [1, 1, 3, 4, 5],  # two tied for first: Plackett-Luce rates them below the third (openskill.py #155)
    [1, 1, 1, 4],  # Verish' ne verish': three winners, one loser
    [1, 2, 2, 2],
    [1, 1, 3, 3],
    [1, 2, 2, 4, 5, 5, 7],
]


def new_ratings(ranks: list[int], mus: list[float] | None = None) -> list[float]:
    model = rating_model()
    mus = mus or [25.0] * len(ranks)
    teams = [[model.rating(mu=mu)] for mu in mus]
    return [team[0].mu for team in model.rate(teams, ranks=ranks)]


@pytest.mark.parametrize("ranks", TIED_RANKINGS, ids=str)
def test_multi_way_ties_from_equal_priors(ranks: list[int]) -> None:
    mu = new_ratings(ranks)
    for i, j in itertools.combinations(range(len(ranks)), 2):
        if ranks[i] == ranks[j]:
            assert mu[i] == pytest.approx(mu[j], abs=1e-9), "tied players must get identical updates"
        elif ranks[i] < ranks[j]:
            assert mu[i] > mu[j], "a better place must never end with a lower rating"
    assert sum(mu) == pytest.approx(25.0 * len(ranks), abs=1e-6), "equal priors: the update is zero-sum"


def test_a_tie_does_not_depend_on_the_order_players_are_listed() -> None:
    ranks, mus = [2, 1, 2, 2, 5], [20.0, 27.0, 25.0, 31.0, 22.0]
    reference = new_ratings(ranks, mus)
    for order in itertools.permutations(range(5)):
        shuffled = new_ratings([ranks[i] for i in order], [mus[i] for i in order])
        assert [shuffled[order.index(i)] for i in range(5)] == pytest.approx(reference, abs=1e-9)


def test_a_draw_between_equals_changes_nothing_and_a_draw_pulls_unequals_together() -> None:
    assert new_ratings([1, 1, 1, 1]) == pytest.approx([25.0] * 4)
    strong, weak = new_ratings([1, 1], [30.0, 20.0])
    assert strong < 30.0 and weak > 20.0


def test_competition_ranks() -> None:
    assert competition_ranks([5, 9, 5, 1]) == [2, 1, 2, 4]
    assert competition_ranks([-1.0, 1 / 3, 1 / 3, 1 / 3]) == [4, 1, 1, 1]


def game(seats: list[str], returns: list[float], deal: int = 0) -> GameRecord:
    return GameRecord(deal, 0, 0, seats, returns, [0.0] * len(seats), False, 1, [{} for _ in seats])


def test_rate_games_treats_an_entrant_in_several_seats_as_one_team() -> None:
    ratings = rate_games([game(["A", "B", "A", "B"], [1.0, -1.0, 1.0, -1.0])], ["A", "B", "C"])
    one_on_one = rate_games([game(["A", "B"], [1.0, -1.0])], ["A", "B", "C"])
    assert ratings["A"].mu > 25 > ratings["B"].mu
    assert ratings["A"] == one_on_one["A"]  # two seats of A beat two of B: one win of team A over team B
    assert ratings["C"].mu == 25.0  # never played: the prior


def test_games_with_one_entrant_are_not_rated() -> None:
    ratings = rate_games([game(["A", "A", "A"], [1.0, 0.0, -1.0])], ["A"])
    assert ratings["A"].mu == 25.0
