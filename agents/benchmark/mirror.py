"""Reusing a stored A-against-B tournament as B against A.

A gauntlet tournament of two entrants on duplicate deals plays every seating of each deal. Where the schedule
gives the B-against-A tournament exactly the same games (the same deal seeds with the same policy in every seat,
only the labels swapped), its results are the A-against-B records with the roles swapped; policy seeds are
common (they depend on the deal and the seat only), so the games themselves are identical too. This holds with
2 or 4 seats (every arrangement of A B A B is played in each deal) but not, for example, with Goninkan's five
seats (rotations of a seeded base order whose A/B mix alternates from deal to deal): :func:`swapped_seatings`
checks it game by game, and where it fails the pairing is played both ways. (A policy is built with a seed that
depends on its entrant index too, but every game resets it with the common seed of its deal and seat; one that
ignored ``reset(seed)`` and drew from its construction seed would be the exception.)
"""

from __future__ import annotations

import dataclasses

from cardenvs.agents.benchmark.scoring import OPPONENT, POLICY
from cardenvs.agents.tournament.runner import Tournament, TournamentResult

SWAP = {POLICY: OPPONENT, OPPONENT: POLICY}


def _games(tournament: Tournament, swap: bool) -> dict[tuple[int, int, tuple[str, ...]], int]:
    """(deal, deal seed, label per seat) → seating index of every game, labels swapped if ``swap``."""
    games = {}
    for job in tournament.jobs():
        labels = tuple(tournament.entrants[e].label for e in job.seats)
        games[(job.deal, job.seed, tuple(SWAP[x] for x in labels) if swap else labels)] = job.seating
    return games


def swapped_seatings(stored: Tournament, wanted: Tournament) -> dict[tuple[int, int], int] | None:
    """``(deal, seating)`` of each game of ``stored`` → the seating of the same game in ``wanted`` (whose entrants
    are ``stored``'s with the roles swapped), or ``None`` unless the two play exactly the same games."""
    same_setup = (stored.env_id, stored.resolved_options, stored.seed, stored.games, stored.scheme) == (
        wanted.env_id,
        wanted.resolved_options,
        wanted.seed,
        wanted.games,
        wanted.scheme,
    )
    swapped_specs = [e.spec for e in stored.entrants] == [e.spec for e in reversed(wanted.entrants)]
    if not (same_setup and swapped_specs and stored.policy_seeds == wanted.policy_seeds == "common"):
        return None
    mine, theirs = _games(stored, swap=True), _games(wanted, swap=False)
    if mine.keys() != theirs.keys():
        return None
    return {(deal, seating): theirs[(deal, seed, labels)] for (deal, seed, labels), seating in mine.items()}


def swapped_result(
    stored: TournamentResult, wanted: Tournament, seatings: dict[tuple[int, int], int]
) -> TournamentResult:
    """``stored``'s games as the result of ``wanted``: every record's labels swapped, seatings renumbered."""
    policy, opponent = (e.spec for e in wanted.entrants)
    records = [
        dataclasses.replace(r, seating=seatings[(r.deal, r.seating)], seats=[SWAP[label] for label in r.seats])
        for r in stored.records
    ]
    return TournamentResult(
        wanted,
        stored.db_path,
        records,
        *wanted.analyse(records),
        stored.played_now,
        stored.seconds,
        [*stored.notices, f"against {opponent}: the stored games of {opponent} against {policy}, roles swapped"],
    )
