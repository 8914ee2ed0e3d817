"""Duplicate deals: which policies sit where, for every game of a tournament.

A tournament is a sequence of **deals**. Deal ``d`` has one env seed (so the same cards, and the same chance
events as long as play agrees) and is played several times, once per **seating**: the deal's *lineup* (which
entrants take part) is arranged around the table in a seeded random base order, and the seatings rotate that
order through every *slot*, so every entrant plays every hand of the deal. Luck of the deal then cancels
within each deal instead of only on average.

A *slot* is one seat, or, in a game with fixed partnerships, one side (all its seats are played by the same
entrant, and the sides swap places from seating to seating).

Schemes (``k`` = number of slots):

* ``permutations``: every distinct arrangement of the lineup (``k!`` seatings per deal). Every entrant sits in
  every slot, and after and before every other entrant, equally often within each deal. Up to 6 slots.
* ``rotations``: the ``k`` cyclic rotations of the base order. Every entrant sits in every slot once per deal,
  but the neighbours stay the same within the deal and change only from deal to deal with the base order.
* ``single``: one seating per deal, no duplication: the baseline that duplicate deals improve on.
* ``auto`` (default): ``permutations`` up to 4 slots (at most 24 seatings per deal), ``rotations`` beyond.

Why neighbours matter: in Verish' ne verish' only the next player may challenge a play, so *who sits before whom*
moves results as much as the cards do. Rotations keep that order fixed within a deal, so its effect does not
cancel there; the intervals (which resample whole deals) are then honest but wide. Permutations cancel it too
(measured in ``docs/tournaments.md``).

Lineups: with as many entrants as slots, all of them play every deal. With more entrants, deal ``d`` takes the
``d``-th subset of ``k`` entrants in a seeded order of all subsets (so every subset plays equally often). With
fewer, entrants fill the slots round-robin (``A B A B`` for two entrants and four seats). Explicit lineups can
replace this (e.g. one bot against three copies of ``random``). Seatings that repeat within a deal (a lineup
with copies of one entrant) are played once.

A tournament plays whole **lineup cycles** (:meth:`Schedule.cycle_length` deals: every listed subset, every
explicit lineup, every round-robin filling once), so each entrant meets the design's mix of lineups in full, and
the statistics treat a cycle as one independent unit.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

Scheme = Literal["auto", "permutations", "rotations", "single"]
SCHEMES: tuple[Scheme, ...] = ("auto", "permutations", "rotations", "single")
MAX_PERMUTATION_SLOTS = 6
AUTO_PERMUTATION_SLOTS = 4
MAX_LISTED_SUBSETS = 50_000


@dataclass(frozen=True, order=True)
class Job:
    """One game to play: deal, seating within the deal, the deal's env seed and the entrant index per seat."""

    deal: int
    seating: int
    seed: int
    seats: tuple[int, ...]


def deal_seed(tournament_seed: int, deal: int) -> int:
    """The env seed of a deal: a 32-bit hash of (tournament seed, deal), independent of everything else."""
    return int(np.random.SeedSequence([tournament_seed, deal]).generate_state(1, np.uint32)[0])


class Schedule:
    """The seatings of every deal, for a number of entrants on a table of slots.

    Args:
        num_entrants: policies in the tournament.
        slots: the seats of each slot, e.g. ``[(0,), (1,), (2,), (3,)]`` or ``[(0, 2), (1, 3)]`` for two sides.
        scheme: see the module docstring; ``auto`` is resolved here (``self.scheme`` is the scheme used).
        seed: the tournament seed (deal seeds, base orders and the subset order derive from it).
        lineups: explicit entrant indices per slot, used in turn by deal ``d % len(lineups)``.
    """

    def __init__(
        self,
        num_entrants: int,
        slots: Sequence[tuple[int, ...]],
        scheme: Scheme = "auto",
        seed: int = 0,
        lineups: Sequence[Sequence[int]] | None = None,
    ):
        if scheme not in SCHEMES:
            raise ValueError(f"unknown seating scheme {scheme!r}; choose one of {', '.join(SCHEMES)}")
        k = len(slots)
        if scheme == "auto":
            scheme = "permutations" if k <= AUTO_PERMUTATION_SLOTS else "rotations"
        if scheme == "permutations" and k > MAX_PERMUTATION_SLOTS:
            raise ValueError(f"'permutations' plays {k}! seatings per deal; use 'rotations' for {k} slots")
        if num_entrants < 1:
            raise ValueError("a tournament needs at least one entrant")
        for lineup in lineups or ():
            if len(lineup) != k or not all(0 <= e < num_entrants for e in lineup):
                raise ValueError(f"a lineup names one of the {num_entrants} entrants for each of {k} slots: {lineup}")
        self.num_entrants = num_entrants
        self.slots = [tuple(s) for s in slots]
        self.num_seats = sum(len(s) for s in self.slots)
        self.scheme: Scheme = scheme
        self.seed = seed
        self.lineups = [tuple(x) for x in lineups] if lineups else None
        self._subsets = self._listed_subsets()

    def _listed_subsets(self) -> list[tuple[int, ...]] | None:
        k, p = len(self.slots), self.num_entrants
        if self.lineups is not None or p <= k or math.comb(p, k) > MAX_LISTED_SUBSETS:
            return None
        subsets = list(itertools.combinations(range(p), k))
        order = np.random.default_rng([self.seed, 0x5EED]).permutation(len(subsets))
        return [subsets[i] for i in order]

    def lineup(self, deal: int) -> tuple[int, ...]:
        """Entrants taking part in ``deal`` (one per slot, not yet arranged)."""
        k, p = len(self.slots), self.num_entrants
        if self.lineups is not None:
            return self.lineups[deal % len(self.lineups)]
        if p <= k:
            return tuple((deal + i) % p for i in range(k))
        if self._subsets is not None:
            return self._subsets[deal % len(self._subsets)]
        chosen = np.random.default_rng([self.seed, deal, 2]).choice(p, size=k, replace=False)
        return tuple(sorted(int(e) for e in chosen))

    def arrangements(self, deal: int) -> list[tuple[int, ...]]:
        """Entrant per slot for each seating of ``deal``, in seating order, without repeats."""
        lineup = self.lineup(deal)
        base = tuple(int(lineup[i]) for i in np.random.default_rng([self.seed, deal, 1]).permutation(len(lineup)))
        if self.scheme == "single":
            candidates: list[tuple[int, ...]] = [base]
        elif self.scheme == "rotations":
            candidates = [base[i:] + base[:i] for i in range(len(base))]
        else:
            candidates = sorted(set(itertools.permutations(base)))
        return list(dict.fromkeys(candidates))

    def deal_jobs(self, deal: int) -> list[Job]:
        """Every game of one deal."""
        seed = deal_seed(self.seed, deal)
        jobs = []
        for seating, arrangement in enumerate(self.arrangements(deal)):
            seats = [0] * self.num_seats
            for slot, entrant in zip(self.slots, arrangement, strict=True):
                for seat in slot:
                    seats[seat] = entrant
            jobs.append(Job(deal, seating, seed, tuple(seats)))
        return jobs

    def cycle_length(self) -> int:
        """Deals after which the lineups repeat: the design's independent unit (1 where every deal draws or holds
        the same lineup). Statistics resample whole cycles, so the mix of lineups stays the design's."""
        if self.lineups is not None:
            return len(self.lineups)
        if self._subsets is not None:
            return len(self._subsets)
        k, p = len(self.slots), self.num_entrants
        if p >= k:
            return 1  # all entrants every deal, or a fresh random subset per deal
        multisets = [sorted(self.lineup(d)) for d in range(p)]
        return next(n for n in range(1, p + 1) if all(multisets[d] == multisets[d % n] for d in range(p)))

    def jobs(self, num_games: int) -> list[Job]:
        """Whole lineup cycles of deals, in order, until at least ``num_games`` games are scheduled."""
        jobs: list[Job] = []
        deal = 0
        cycle = self.cycle_length()
        while len(jobs) < num_games or deal % cycle:
            jobs.extend(self.deal_jobs(deal))
            deal += 1
        return jobs
