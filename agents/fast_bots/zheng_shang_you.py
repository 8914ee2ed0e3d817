"""``zheng_shang_you/rule`` (:class:`agents.bots.zheng_shang_you.ZsyRuleBot`) as an array program: no random numbers,
so it is the Python bot to the action.

The Python bot settles a whole play at its first sub-step and keeps the rest as a plan; this bot keeps nothing and
settles the play again at every sub-step from the same observation features (the cards being built stay in the
hand, the table and the hand sizes do not change while a play is built), then gives the play's next action: its
shape on a lead, its top rank for a (set) sequence, then its lowest card not yet picked.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from cardenvs.agents.base import PolicyContext
from cardenvs.agents.bots.zheng_shang_you import FOLLOW, GIVE_BACK, GIVE_HIGHEST, LEAD, PICK, TAKE_BACK, TAKE_HIGHEST
from cardenvs.agents.bots.zheng_shang_you import ZsyRuleBot as _PythonBot
from cardenvs.agents.fast_bots.common import Features
from cardenvs.agents.fast_bots.zsy_plays import Play, lead_play, set_play, set_sequence_play, single_play
from cardenvs.agents.fast_bots.zsy_sequences import first_sequences
from cardenvs.fast.zheng_shang_you_masks import SHAPES, VALUE
from cardenvs.zheng_shang_you.actions import ids
from cardenvs.zheng_shang_you.combos import SEQUENCE
from cardenvs.zheng_shang_you.ranks import BJ, NUM_CARDS, TWO

Array = jax.Array
INT = jnp.int32
A = ids()
SUIT = np.where(np.arange(NUM_CARDS) < BJ, np.arange(NUM_CARDS) % 4, -1)


class ZsyRuleFast:
    """The weakest beating play, 2s and jokers saved for the end, the longest plain play on a lead (see
    :class:`agents.bots.zheng_shang_you.ZsyRuleBot`)."""

    name = "zheng_shang_you/rule"

    def __init__(self, context: PolicyContext):
        self.view = Features(context)
        rules = context.options.combo_rules
        self.joker_keeps_suitedness = rules.joker_keeps_suitedness
        self.set_sequence_top = rules.set_sequence_top

    def act(self, obs: jax.Array, mask: jax.Array, key: jax.Array) -> jax.Array:
        del key  # the bot draws nothing
        v = self.view
        return jax.vmap(self._one)(
            v(obs, "hand") > 0,
            v.index(obs, "phase"),
            v(obs, "top_shape").any(1),
            v.index(obs, "top_shape"),
            v.index(obs, "top_rank"),
            v(obs, "top_flags") > 0,
            v(obs, "top_by"),
            v.ints(obs, "hand_sizes"),
            v(obs, "teammates") > 0,
            v(obs, "build_cards") > 0,
            v(obs, "table_cards") > 0,
            mask,
        )

    def _one(
        self,
        hand: Array,
        phase: Array,
        following: Array,
        top_shape: Array,
        top_rank: Array,
        top_flags: Array,
        top_by: Array,
        sizes: Array,
        mates: Array,
        picked: Array,
        table: Array,
        mask: Array,
    ) -> Array:
        """One decision: the observation's groups of one row."""
        follow = self._follow(hand, top_shape, top_rank, top_flags[0], top_flags[1])
        play = jax.tree.map(lambda f, lead: jnp.where(following, f, lead), follow, lead_play(hand))
        kind = jnp.asarray(SHAPES)[play.shape, 0]
        next_card = A.PICK + jnp.argmax(play.cards & ~picked)
        step = jnp.where(kind >= SEQUENCE, A.TOP + play.top, next_card)
        plays = self._plays(follow, hand, top_by, sizes, mates)
        action = jnp.select(
            [
                phase == LEAD,
                phase == FOLLOW,
                phase == PICK,
                (phase == GIVE_HIGHEST) | (phase == GIVE_BACK),
                (phase == TAKE_HIGHEST) | (phase == TAKE_BACK),
            ],
            [
                A.SHAPE + play.shape,
                jnp.where(plays, step, A.PASS),
                next_card,
                A.GIVE + _gift(hand, mask[A.GIVE : A.GIVE + NUM_CARDS]),
                A.TAKE + _take(table),
            ],
            A.TOP + play.top,  # declaring the top rank
        ).astype(INT)
        # the lowest legal id where the mask refused the play, as the Python bot does with no plan (not seen in tests)
        return jnp.where(mask[action], action, jnp.argmax(mask)).astype(INT)

    def _follow(self, hand: Array, shape: Array, rank: Array, wild: Array, suited: Array) -> Play:
        """The least beating play of the table's shape (or none)."""
        kind, group, length = (jnp.asarray(SHAPES)[shape, i] for i in range(3))
        sequence = first_sequences(hand, length, (rank, wild, suited), self.joker_keeps_suitedness)
        options = [
            single_play(hand, rank),
            set_play(hand, shape, group, rank, wild),
            Play(sequence.found, shape, sequence.top, sequence.cards, sequence.wild),
            set_sequence_play(hand, shape, group, length, rank, wild, self.set_sequence_top),
        ]
        return jax.tree.map(lambda *parts: jnp.select([kind == k for k in range(4)], parts), *options)

    @staticmethod
    def _plays(follow: Play, hand: Array, top_by: Array, sizes: Array, mates: Array) -> Array:
        """Whether to play ``follow`` rather than pass: always to go out; never over a partner; with 2s, jokers or
        wilds only near the end (its own or a rival's)."""
        size = follow.cards.sum()
        going_out = size == hand.sum()
        by = jnp.argmax(top_by)
        partner_on_top = top_by.any() & (by != 0) & mates[by]
        high = (follow.cards & (jnp.asarray(VALUE) >= TWO)).any()
        near = _PythonBot.endgame_cards
        rival_near = ((sizes[1:] > 0) & (sizes[1:] <= near) & ~mates[1:]).any()
        endgame = (hand.sum() - size <= near) | rival_near
        spends = (follow.wild | high) & ~endgame
        return follow.found & (going_out | (~partner_on_top & ~spends))


def _gift(hand: Array, allowed: Array) -> Array:
    """The lowest card allowed; on a tie, of the suit the hand holds fewest of (a joker first)."""
    value = jnp.asarray(VALUE)
    low = jnp.min(jnp.where(allowed, value, 99))
    suits = jnp.asarray(SUIT)
    per_suit = ((suits[:, None] == jnp.arange(4)[None, :]) & hand[:, None]).sum(0)
    held_of_suit = jnp.where(suits >= 0, per_suit[jnp.maximum(suits, 0)], 0)
    candidates = allowed & (value == low)
    return jnp.argmin(jnp.where(candidates, held_of_suit, 99)).astype(INT)


def _take(table: Array) -> Array:
    """The stronger of the two cards on the table if both are seen (the better-placed giver's on a tie), else the
    better-placed giver's."""
    rows = table.reshape(2, NUM_CARDS)
    values = jnp.asarray(VALUE)[jnp.argmax(rows, axis=1)]
    return jnp.where(rows.any(1).all() & (values[1] > values[0]), 1, 0).astype(INT)
