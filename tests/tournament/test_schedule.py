"""Duplicate-deal seatings: balance per deal, lineups, sides, determinism."""

from __future__ import annotations

from collections import Counter

import pytest

from cardenvs.agents.tournament.schedule import Schedule, deal_seed

FOUR_SEATS = [(0,), (1,), (2,), (3,)]


def seat_counts(schedule: Schedule, deal: int) -> Counter[tuple[int, int]]:
    """(entrant, seat) → games in ``deal``."""
    return Counter((entrant, seat) for job in schedule.deal_jobs(deal) for seat, entrant in enumerate(job.seats))


def test_rotations_put_every_entrant_in_every_seat_once_per_deal() -> None:
    schedule = Schedule(4, FOUR_SEATS, "rotations", seed=3)
    for deal in range(6):
        jobs = schedule.deal_jobs(deal)
        assert len(jobs) == 4
        assert [j.seating for j in jobs] == [0, 1, 2, 3]
        assert {j.seed for j in jobs} == {deal_seed(3, deal)}  # one deal: the same cards in every seating
        assert seat_counts(schedule, deal) == Counter({(e, s): 1 for e in range(4) for s in range(4)})


def test_rotations_vary_the_neighbours_from_deal_to_deal() -> None:
    schedule = Schedule(4, FOUR_SEATS, "rotations", seed=0)

    def follower_of_entrant_0(seats: tuple[int, ...]) -> int:
        return seats[(seats.index(0) + 1) % 4]

    followers = {follower_of_entrant_0(schedule.deal_jobs(deal)[0].seats) for deal in range(30)}
    assert followers == {1, 2, 3}  # rotations keep the order within a deal; the base order changes across deals


def test_permutations_play_every_arrangement() -> None:
    schedule = Schedule(3, [(0,), (1,), (2,)], "permutations", seed=1)
    seatings = [j.seats for j in schedule.deal_jobs(0)]
    assert len(seatings) == 6 and len(set(seatings)) == 6
    assert seat_counts(schedule, 0) == Counter({(e, s): 2 for e in range(3) for s in range(3)})


def test_single_scheme_has_one_seating_per_deal() -> None:
    schedule = Schedule(4, FOUR_SEATS, "single", seed=0)
    assert [len(schedule.deal_jobs(d)) for d in range(5)] == [1] * 5
    assert len({schedule.deal_jobs(d)[0].seats for d in range(20)}) > 1  # seats are still drawn at random


def test_more_entrants_than_seats_cycle_through_every_subset() -> None:
    schedule = Schedule(5, FOUR_SEATS, "rotations", seed=2)
    lineups = [frozenset(schedule.lineup(d)) for d in range(10)]
    assert len(set(lineups[:5])) == 5  # the 5 subsets of 4 out of 5, each once …
    assert lineups[5:] == lineups[:5]  # … then again in the same order
    for deal in range(5):
        assert all(n == 1 for n in seat_counts(schedule, deal).values())


def test_fewer_entrants_than_seats_share_the_seats_evenly() -> None:
    schedule = Schedule(2, FOUR_SEATS, "rotations", seed=0)
    for deal in range(8):
        counts = seat_counts(schedule, deal)
        seatings = len(schedule.deal_jobs(deal))
        assert seatings in (2, 4)  # A B A B has two distinct rotations, A A B B four
        assert counts == Counter({(e, s): seatings // 2 for e in range(2) for s in range(4)})


def test_sides_of_a_team_game_are_seated_together_and_swap() -> None:
    schedule = Schedule(2, [(0, 2), (1, 3)], "rotations", seed=0)
    jobs = schedule.deal_jobs(0)
    assert len(jobs) == 2
    for job in jobs:
        assert job.seats[0] == job.seats[2] and job.seats[1] == job.seats[3] and job.seats[0] != job.seats[1]
    assert {j.seats[0] for j in jobs} == {0, 1}  # each entrant plays each side of the deal


def test_explicit_lineup_rotates_one_bot_through_every_seat() -> None:
    schedule = Schedule(2, FOUR_SEATS, "rotations", seed=0, lineups=[[0, 1, 1, 1]])
    for deal in range(3):
        jobs = schedule.deal_jobs(deal)
        assert len(jobs) == 4
        assert sorted(j.seats.index(0) for j in jobs) == [0, 1, 2, 3]
        assert all(j.seats.count(0) == 1 for j in jobs)


def test_jobs_are_whole_deals_and_deterministic() -> None:
    a = Schedule(3, [(0,), (1,), (2,)], "rotations", seed=7).jobs(10)
    b = Schedule(3, [(0,), (1,), (2,)], "rotations", seed=7).jobs(10)
    c = Schedule(3, [(0,), (1,), (2,)], "rotations", seed=8).jobs(10)
    assert len(a) == 12 and a == b
    assert [j.seed for j in a] != [j.seed for j in c]
    assert len({j.seed for j in a}) == 4


def test_tournaments_play_whole_lineup_cycles() -> None:
    """Two entrants at three seats alternate lineups (A B A), (B A B): a cycle of 2 deals; five entrants at three
    seats go through all 10 subsets; explicit lineups cycle through the list."""
    rotating = Schedule(2, [(0,), (1,), (2,)], "rotations", seed=1)
    assert rotating.cycle_length() == 2
    assert len({j.deal for j in rotating.jobs(4)}) == 2  # 4 games ask for 2 deals of 3: one whole cycle
    assert len({j.deal for j in rotating.jobs(7)}) == 4  # 3 deals would break the cycle: 4
    assert Schedule(5, [(0,), (1,), (2,)], "rotations", seed=1).cycle_length() == 10
    assert Schedule(3, [(0,), (1,), (2,)], "rotations").cycle_length() == 1
    assert Schedule(2, [(0,), (1,), (2,)], lineups=[(0, 1, 1), (1, 0, 0), (0, 0, 1)]).cycle_length() == 3
    assert Schedule(2, [(0, 2), (1, 3)]).cycle_length() == 1  # two sides, two entrants: every deal the same


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="permutations"):
        Schedule(7, [(s,) for s in range(7)], "permutations")
    with pytest.raises(ValueError, match="lineup"):
        Schedule(2, FOUR_SEATS, lineups=[[0, 1, 2, 0]])
    with pytest.raises(ValueError, match="scheme"):
        Schedule(2, FOUR_SEATS, "swiss")  # type: ignore[arg-type]


def test_auto_balances_neighbours_on_small_tables_and_rotates_on_large_ones() -> None:
    assert Schedule(4, FOUR_SEATS).scheme == "permutations"
    assert len(Schedule(4, FOUR_SEATS).deal_jobs(0)) == 24
    assert Schedule(2, [(0, 2), (1, 3)]).scheme == "permutations"
    assert Schedule(5, [(s,) for s in range(5)]).scheme == "rotations"


def test_permutations_balance_who_plays_before_whom() -> None:
    schedule = Schedule(4, FOUR_SEATS, "permutations", seed=0)
    before = Counter((job.seats[seat], job.seats[(seat + 1) % 4]) for job in schedule.deal_jobs(0) for seat in range(4))
    assert before == Counter({(a, b): 8 for a in range(4) for b in range(4) if a != b})
