"""``yukushi/honest``, ``yukushi/bluffer`` and ``yukushi/counter`` (:class:`agents.bots.yukushi.YukushiBot`) as array
programs.

The Python bot settles a whole play at its first sub-step (the true cards, maybe one junk card of a rank it holds
fewest of, sorted) and keeps the rest as a plan; this one keeps nothing and reads the rest off the play under
construction (``building_rank``, ``building_cards``, and with ``allow_count_mismatch`` the declared
``building_count``, which says whether a junk card belongs to the play). At the first sub-step it draws what the
Python bot draws (the rank to lead, whether to pad or dump, the junk rank) and plays the first card of that plan,
so the first decision has the Python bot's distribution. One choice must be made later: with public counts, once
the true cards are picked and no junk card came first, the junk card that sorts above the claimed rank is added
with the chance the Python bot gave it, given that none sorted below (``pad`` × above / (1 − ``pad`` × below), the
junk ranks counted on both sides); the plays made have the Python bot's distribution either way.
"""

from __future__ import annotations

from collections.abc import Callable

import jax
import jax.numpy as jnp
import numpy as np

from cardenvs.agents.base import PolicyContext
from cardenvs.agents.bots.yukushi import DECLARE, DECLARE_COUNT, STYLES, TURN, WINDOW, Style
from cardenvs.agents.fast_bots.claims import call_table, latest_claim, lookup
from cardenvs.agents.fast_bots.common import Features, fewest_held, first_true, take, uniform_choice


class YukushiFast:
    """A Yukushi player of one :data:`agents.bots.yukushi.STYLES` style."""

    def __init__(self, context: PolicyContext, style: Style = "counter"):
        self.view = Features(context)
        self.name = f"yukushi/{style}"
        self.params = STYLES[style]
        options = context.options
        self.num_players = context.num_players
        self.max_play = int(options.max_play)
        self.counts_declared = bool(options.allow_count_mismatch)
        self.always_call_last = bool(options.counts_public and not options.play_to_ranking)
        a = context.actions
        self.challenge, self.decline, self.pass_ = a["challenge"].offset, a["decline"].offset, a["pass"].offset
        self.done, self.declare, self.pick, self.count = (
            a["done"].offset,
            a["declare"].offset,
            a["pick"].offset,
            a["count"].offset,
        )
        claim_slice = context.layout["claim_rank"]
        ranks = claim_slice.stop - claim_slice.start
        self.calls = call_table([_calls(self.params.call_threshold, lead) for lead in (0, ranks)])

    def act(self, obs: jax.Array, mask: jax.Array, key: jax.Array) -> jax.Array:
        view, p = self.view, self.params
        lead_key, junk_key, above_key, draw_key = jax.random.split(key, 4)
        phase = view.index(obs, "phase")
        hand = view.ints(obs, "hand")
        ranks = jnp.arange(hand.shape[1])[None, :]
        chance = jax.random.uniform(draw_key, (obs.shape[0],))

        claim = latest_claim(view, obs, self.num_players, declared=self.counts_declared)
        call = lookup(self.calls, claim, (view.scalar(obs, "pile_plays") == 1).astype(jnp.int32))
        if self.always_call_last:
            call |= take(view.ints(obs, "hand_sizes"), claim.owner) == 0

        lead_rank = uniform_choice(lead_key, hand == hand.max(axis=1, keepdims=True))
        building = view(obs, "building_rank")
        target = jnp.where(building.any(axis=1), jnp.argmax(building, axis=1), claim.rank).astype(jnp.int32)
        target = jnp.where(phase == DECLARE, lead_rank, target)
        held = take(hand, target)
        true_cards = jnp.minimum(held, self.max_play)
        junk = fewest_held(hand, avoid=target)
        junk_rank = uniform_choice(junk_key, junk)
        pads = (true_cards < self.max_play) & (hand.sum(axis=1) > held) & (chance < p.pad)
        dumps = chance < p.dump
        planned = jnp.where(held > 0, true_cards + pads, dumps.astype(jnp.int32))  # cards in the play (0: pass)
        picked = view.ints(obs, "building_cards")
        declared = view.index(obs, "building_count") + 1 if self.counts_declared else planned
        # The first card of the plan: the junk card if it sorts first (or is all there is), else the claimed rank.
        junk_first = (declared > true_cards) & ((junk_rank < target) | (held == 0))
        first_pick = self.pick + jnp.where(junk_first, junk_rank, target)

        picked_total = picked.sum(axis=1)
        picked_true = take(picked, target)
        junk_picked = picked_total > picked_true
        above = junk & (ranks > target[:, None])
        if self.counts_declared:
            junk_last = (declared > true_cards) & ~junk_picked & (picked_true >= true_cards)
            plan_done = picked_total >= declared
        else:
            junk_count, junk_below = junk.sum(axis=1), (junk & (ranks < target[:, None])).sum(axis=1)
            later = p.pad * above.sum(axis=1) / jnp.maximum(junk_count - p.pad * junk_below, 1e-9)
            junk_last = (true_cards < self.max_play) & ~junk_picked & (picked_true >= true_cards) & (chance < later)
            plan_done = (picked_true >= true_cards) & ~junk_last
        finish = jnp.where(mask[:, self.done], self.done, first_true(mask))
        next_pick = jnp.select(
            [picked_total == 0, junk_last & above.any(axis=1), picked_true < true_cards],
            [first_pick, self.pick + uniform_choice(above_key, above), self.pick + target],
            finish,
        )
        picking = jnp.where(plan_done & (picked_total > 0), finish, next_pick)

        follow = first_pick if not self.counts_declared else self.count + planned - 1
        follow = jnp.where(planned == 0, self.pass_, follow)
        turn = jnp.where(mask[:, self.challenge] & call, self.challenge, follow)
        return jnp.select(
            [phase == WINDOW, phase == TURN, phase == DECLARE, phase == DECLARE_COUNT],
            [
                jnp.where(call, self.challenge, self.decline),
                turn,
                self.declare + lead_rank,
                self.count + planned - 1,
            ],
            picking,
        ).astype(jnp.int32)


def _calls(threshold: float, lead_ranks: int) -> Callable[[np.ndarray], np.ndarray]:
    """The Python bot's call on a chance: a lead (``lead_ranks`` > 0) is judged as the best of that many ranks."""

    def decide(chance: np.ndarray) -> np.ndarray:
        if lead_ranks:
            chance = np.where(chance > 0.0, 1.0 - (1.0 - chance) ** lead_ranks, chance)
        return 1.0 - chance > threshold

    return decide
