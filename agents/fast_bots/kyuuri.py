"""``kyuuri/rule`` and ``kyuuri/thrifty`` (:class:`agents.bots.kyuuri.KyuuriRuleBot`) as array programs: one decision
per move and no random numbers, so they are the Python bots to the action."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from cardenvs.agents.base import PolicyContext
from cardenvs.agents.bots.kyuuri import Style
from cardenvs.agents.fast_bots.common import Features, first_true, take


class KyuuriRuleFast:
    """Keeps one copy of its lowest rank for the last trick; otherwise plays the highest legal card (``shed``) or
    the lowest (``thrifty``)."""

    def __init__(self, context: PolicyContext, style: Style = "shed"):
        if style not in ("shed", "thrifty"):
            raise ValueError(f"style must be 'shed' or 'thrifty', got {style!r}")
        self.view = Features(context)
        self.style = style
        self.name = "kyuuri/rule" if style == "shed" else "kyuuri/thrifty"

    def act(self, obs: jax.Array, mask: jax.Array, key: jax.Array) -> jax.Array:
        hand = self.view.ints(obs, "hand")
        lowest = first_true(hand > 0)
        ranks = jnp.arange(mask.shape[1])[None, :]
        kept = (ranks == lowest[:, None]) & (take(hand, lowest) <= 1)[:, None]
        spare = mask & ~kept
        highest = mask.shape[1] - 1 - first_true(spare[:, ::-1])
        chosen = highest if self.style == "shed" else first_true(spare)
        return jnp.where(spare.any(axis=1), chosen, lowest).astype(jnp.int32)
