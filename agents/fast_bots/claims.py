"""Whether to call the latest claim, as the bluffing bots decide it, from a table made by the Python bots' own
counting.

:func:`agents.bots.bluffing.claim_truth_probability` reduces a claim to four small integers (copies the claimant can
hold, the population of unplaced cards, the claimant's cards before the play, the copies needed), and the bots
compare a float64 function of the chance with a threshold. Here that comparison is made once per combination in
NumPy with :func:`agents.bots.bluffing.prob_at_least` itself, and the array program looks the answer up: the same
decision to the last bit (float32 in JAX would move some near the threshold), and no big integers in JAX.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from cardenvs.agents.bots.bluffing import prob_at_least
from cardenvs.agents.fast_bots.common import Features, take

MAX_COPIES = 4
"""Copies of a rank in the decks of both games (the ``possible`` axis of the tables)."""
MAX_CARDS = 52
"""Cards in the largest deck (the population and draws axes)."""


@cache
def truth_chances() -> np.ndarray:
    """``p[possible, population, draws, needed]``: the claim's chance of being true, as the Python bots compute it
    (draws already capped at the population; ``needed`` 0 to :data:`MAX_COPIES`, larger needs are impossible)."""
    size = MAX_CARDS + 1
    p = np.zeros((MAX_COPIES + 1, size, size, MAX_COPIES + 1))
    for possible in range(MAX_COPIES + 1):
        for population in range(max(possible, 1), size):  # never fewer cards than copies the claimant can hold
            for draws in range(population + 1):
                for needed in range(MAX_COPIES + 1):
                    p[possible, population, draws, needed] = prob_at_least(possible, population, draws, needed)
    return p


class Claim(NamedTuple):
    """The latest claim as the tables index it (int32[B] each)."""

    possible: jax.Array
    population: jax.Array
    draws: jax.Array
    needed: jax.Array
    owner: jax.Array
    """The claimant's relative seat."""
    rank: jax.Array
    """The claimed rank."""


def latest_claim(view: Features, obs: jax.Array, num_players: int, declared: bool = False) -> Claim:
    """The latest claim of each observation, as :func:`agents.bots.bluffing.claim_truth_probability` reads it
    (``declared``: the copies needed are the declared count, not the cards placed)."""
    rank = view.index(obs, "claim_rank")
    count = view.scalar(obs, "last_play_count")
    owner = view.index(obs, "last_play_by")
    needed = view.scalar(obs, "declared_count") if declared else count
    sizes = view.ints(obs, "hand_sizes")
    unseen = view.ints(obs, "unseen")
    known = view.ints(obs, "known_held").reshape(obs.shape[0], num_players - 1, -1)
    seats = jnp.arange(1, num_players)[None, :]
    known_of_rank = jnp.take_along_axis(known, rank[:, None, None], axis=2)[:, :, 0]
    others_known = jnp.sum(jnp.where(seats != owner[:, None], known_of_rank, 0), axis=1)
    # The owner's row as Python indexes it: row owner - 1, the last row for the observer itself.
    owner_row = jnp.take_along_axis(known, ((owner - 1) % (num_players - 1))[:, None, None], axis=1)[:, 0]
    population = unseen.sum(axis=1) - known.sum(axis=(1, 2)) + owner_row.sum(axis=1)
    population = jnp.maximum(population, 1)
    draws = jnp.minimum(take(sizes, owner) + count, population)
    return Claim(take(unseen, rank) - others_known, population, draws, needed, owner, rank)


def lookup(table: jax.Array, claim: Claim, variant: jax.Array | int = 0) -> jax.Array:
    """``table[variant, possible, population, draws, needed]``, with the impossible claims (more needed than
    possible) at ``needed`` = :data:`MAX_COPIES` + 1, where the tables keep their answer for a chance of 0."""
    impossible = claim.needed > claim.possible
    top = MAX_CARDS
    needed = jnp.where(impossible, MAX_COPIES + 1, jnp.clip(claim.needed, 0, MAX_COPIES))
    return table[
        variant,
        jnp.clip(claim.possible, 0, MAX_COPIES),
        jnp.clip(claim.population, 0, top),
        jnp.clip(claim.draws, 0, top),
        needed,
    ]


def call_table(decisions: list[Callable[[np.ndarray], np.ndarray]]) -> jax.Array:
    """Stack of boolean tables, one per ``decisions[v](chance) -> call?`` (a NumPy function of the float64
    chance table), with an extra ``needed`` slot for the impossible claims (chance 0)."""
    chances = truth_chances()
    impossible = np.zeros((*chances.shape[:3], 1))
    with_impossible = np.concatenate([chances, impossible], axis=3)
    return jnp.asarray(np.stack([decide(with_impossible) for decide in decisions]))
