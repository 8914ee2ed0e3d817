"""The env steps every learner of the fast path shares: a ``lax.scan`` over steps of every game of the batch, the
learner acting where it holds the seat to move and the population's entry elsewhere, finished games re-dealt.

What the learner does at its turns (sample a policy, ε-greedy on action values) is the learner's ``choose``;
everything else about a step (who moves, the opponents' moves, rewards, fresh deals and seats) is here, once."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from cardenvs.experiments.train_fast.config import FastTrainArgs
from cardenvs.experiments.train_fast.networks import Mlp
from cardenvs.experiments.train_fast.population import Block, all_seats_learner, opponent_actions
from cardenvs.fast.batched import redeal_finished


class Turn(NamedTuple):
    """What a rollout keeps of every env step, ``(T, B, …)``, whoever moved."""

    obs: jax.Array
    """Scaled observations of the player to act."""
    mask: jax.Array
    action: jax.Array
    player: jax.Array
    learner: jax.Array
    """Whether the learner made this decision."""
    rewards: jax.Array
    """``(T, B, n)``: every seat's reward from this step (scaled by ``reward_scale``)."""
    done: jax.Array
    learner_reward: jax.Array
    """The learner seat's reward from this step (outside ``self`` games: the score against the population)."""


Choose = Callable[[jax.Array, jax.Array, jax.Array], tuple[jax.Array, Any]]
"""The learner's move in every game: ``(scaled observations, masks, key) → (actions, what else to keep)``; the
actions count only where the learner is to move."""


@dataclass(frozen=True)
class Table:
    """The fixed parts of a run that a learner's jitted iteration closes over: the game, the population's blocks,
    the settings, the learner's observation scale and the player count."""

    env: Any
    blocks: list[Block]
    args: FastTrainArgs
    obs_scale: np.ndarray
    num_players: int

    def init_games(self, key: jax.Array) -> tuple[Any, jax.Array]:
        """A fresh deal in every game, and the learner's seat in each."""
        deal, seat = jax.random.split(key)
        games = jax.vmap(self.env.init)(jax.random.split(deal, self.args.num_games))
        return games, jax.random.randint(seat, (self.args.num_games,), 0, self.num_players)

    def play(
        self, games: Any, seats: jax.Array, snapshots: Mlp, key: jax.Array, choose: Choose
    ) -> tuple[tuple[Any, jax.Array, jax.Array], tuple[Turn, Any]]:
        """``rollout_steps`` steps of every game from ``games``: the games, seats and key after them, and each
        step's :class:`Turn` with what ``choose`` kept, stacked over steps."""
        args, env, scale = self.args, self.env, jnp.asarray(self.obs_scale)
        every_seat = jnp.asarray(all_seats_learner(self.blocks, args.num_games))
        pool = max(1, args.num_games // 16)

        def step(carry: tuple[Any, jax.Array, jax.Array], _: None) -> tuple[tuple[Any, jax.Array, jax.Array], Any]:
            games, seats, key = carry
            key, act_key, opp_key, deal_key, seat_key = jax.random.split(key, 5)
            raw, mask, player = games.observation, games.legal_action_mask, games.current_player
            obs = raw * scale
            mine, kept = choose(obs, mask, act_key)
            learner = every_seat | (player == seats)
            opponents = opponent_actions(self.blocks, snapshots, raw, mask, opp_key)
            action = jnp.where(learner, mine, opponents)
            after = jax.vmap(env.step)(games, action)
            done = after.terminated | after.truncated
            rewards = after.rewards.astype(jnp.float32) * args.reward_scale
            learner_reward = jnp.take_along_axis(rewards, seats[:, None], axis=1)[:, 0]
            games = redeal_finished(env, after, deal_key, pool)
            seats = jnp.where(done, jax.random.randint(seat_key, seats.shape, 0, self.num_players), seats)
            turn = Turn(obs, mask, action, player, learner, rewards, done, learner_reward)
            return (games, seats, key), (turn, kept)

        carry, stacked = jax.lax.scan(step, (games, seats, key), None, args.rollout_steps)
        return carry, stacked

    def scores(self, learner_reward: jax.Array, done: jax.Array) -> dict[str, jax.Array]:
        """The learner's summed reward and the finished games, per population entry (``self`` aside)."""
        stats = {}
        for block in self.blocks:
            if block.act is None:
                continue
            part = slice(block.start, block.start + block.size)
            stats[f"return_vs/{block.name}"] = learner_reward[:, part].sum()
            stats[f"episodes_vs/{block.name}"] = done[:, part].sum()
        return stats


def compile_iteration(iteration: Callable[..., Any], state: Any, args: FastTrainArgs, options: Any) -> Any:
    """``iteration(state, rate)`` compiled once for ``state``'s shapes (``options``: XLA's compiler options). The
    state is not donated: a fresh deal may hold one buffer in two fields (Kyuuri's does), which donation refuses."""
    rate = jnp.asarray(args.learning_rate, jnp.float32)
    return jax.jit(iteration).lower(state, rate).compile(options)
