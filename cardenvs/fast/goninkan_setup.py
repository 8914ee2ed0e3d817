"""What the round, Yoninkan and observation helpers of the JAX Goninkan read of the game they serve: the fields
of :class:`~cardenvs.fast.goninkan.KankeiFast` fixed at construction, named here so that the helpers need not
import the class that imports them."""

from __future__ import annotations

from typing import Protocol

import jax

from cardenvs.core.layout import ObservationLayout
from cardenvs.fast.goninkan_rules import Tables, Targets
from cardenvs.goninkan.options import KankeiOptions
from cardenvs.goninkan.ruleset import Ruleset


class KankeiSetup(Protocol):
    """A JAX Goninkan or Yoninkan at its options (:class:`~cardenvs.fast.goninkan.KankeiFast`)."""

    options: KankeiOptions
    rules: Ruleset
    t: Tables
    num_players: int
    rounds: int
    layout: ObservationLayout
    players: jax.Array
    """(n,) the seats."""
    cards: jax.Array
    """(cards,) the card ids."""

    def active(self, dealer: jax.Array) -> jax.Array: ...

    def targets_of(self, deal: jax.Array) -> Targets: ...
