"""``verish_ne_verish/rule`` (:class:`agents.bots.verish_ne_verish.VerishRuleBot`) as an array program.

The Python bot settles a whole play when it starts it and keeps the rest as a plan; this one keeps nothing and
reads the rest of the plan off the play under construction (``building_rank``, ``building_cards``; the hand
still holds the picked cards): a lead or a true follow picks the claimed rank up to ``min(held, 3)`` copies, and
a play that already holds another rank is a one-card bluff, finished with ``done``. Its random choices (which of
the ranks held most to lead, which of the ranks held fewest to bluff with) are made at the first sub-step, as
the Python bot makes them, so every decision after that is the Python bot's to the action.
"""

from __future__ import annotations

from collections.abc import Callable

import jax
import jax.numpy as jnp
import numpy as np

from cardenvs.agents.base import PolicyContext
from cardenvs.agents.bots.verish_ne_verish import MAX_PLAY
from cardenvs.agents.fast_bots.claims import call_table, latest_claim, lookup
from cardenvs.agents.fast_bots.common import Features, fewest_held, first_true, take, uniform_choice

QUADS, DECLARE, CHALLENGE_OR_PICK, PICKING = range(4)


class VerishRuleFast:
    """Truthful when possible, bluffs when forced, challenges impossible or unlikely claims (the Python bot's
    thresholds)."""

    name = "verish_ne_verish/rule"

    def __init__(self, context: PolicyContext, challenge_threshold: float = 0.6, forced_bluff_threshold: float = 0.4):
        self.view = Features(context)
        self.num_players = context.num_players
        a = context.actions
        self.challenge, self.done = a["challenge"].offset, a["done"].offset
        self.declare, self.pick = a["declare"].offset, a["pick"].offset
        self.discard, self.keep = a["discard_quad"], a["keep_quads"].offset
        # The Python bot's threshold for (holding none of the claimed rank, the claimant has no cards left).
        thresholds = [
            challenge_threshold,
            forced_bluff_threshold,
            min(challenge_threshold, 0.5),
            min(forced_bluff_threshold, 0.5),
        ]
        self.calls = call_table([_calls_above(t) for t in thresholds])

    def act(self, obs: jax.Array, mask: jax.Array, key: jax.Array) -> jax.Array:
        view = self.view
        lead_key, bluff_key = jax.random.split(key)
        phase = view.index(obs, "phase")
        hand = view.ints(obs, "hand")

        quads = mask[:, self.discard.offset : self.discard.offset + self.discard.size]
        shed_quads = jnp.where(quads.any(axis=1), self.discard.offset + first_true(quads), self.keep)

        lead = self.declare + uniform_choice(lead_key, hand == hand.max(axis=1, keepdims=True))

        claim = latest_claim(view, obs, self.num_players)
        held_claimed = take(hand, claim.rank)
        owner_out = take(view.ints(obs, "hand_sizes"), claim.owner) == 0
        variant = (held_claimed == 0).astype(jnp.int32) + 2 * owner_out.astype(jnp.int32)
        bluff = uniform_choice(bluff_key, fewest_held(hand))
        first_card = jnp.where(held_claimed > 0, claim.rank, bluff)
        follow = jnp.where(lookup(self.calls, claim, variant), self.challenge, self.pick + first_card)

        building = view(obs, "building_rank")
        target = jnp.where(building.any(axis=1), jnp.argmax(building, axis=1), claim.rank).astype(jnp.int32)
        picked = view.ints(obs, "building_cards")
        picked_target = take(picked, target)
        truthful = picked.sum(axis=1) == picked_target
        more = truthful & (picked_target < jnp.minimum(take(hand, target), MAX_PLAY))
        picking = jnp.where(more, self.pick + target, self.done)

        return jnp.select(
            [phase == QUADS, phase == DECLARE, phase == CHALLENGE_OR_PICK], [shed_quads, lead, follow], picking
        ).astype(jnp.int32)


def _calls_above(threshold: float) -> Callable[[np.ndarray], np.ndarray]:
    def decide(chance: np.ndarray) -> np.ndarray:
        return (chance == 0.0) | (1.0 - chance > threshold)

    return decide
