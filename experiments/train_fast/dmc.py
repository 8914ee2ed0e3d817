"""Deep Monte-Carlo (DouZero's learner, on the game's action ids) as one jitted program per iteration.

A network scores every action id of an observation with the return its player can expect after playing it. The
learner plays the best legal one, or with probability ``epsilon`` a uniformly random legal one (its snapshots
in the population play the same way). A decision's target is its seat's return from that decision to the end
of its game (the rewards of that seat from the decision's step on, undiscounted: no bootstrapping), and the loss is
the squared error of the chosen action's value, over minibatches as PPO's (Adam, gradients clipped to
``max_grad_norm``, ``n_epochs`` passes).

A deal lasts longer than a short rollout, so a rollout's decisions are carried to the next iteration and trained on
there, with targets read over both rollouts: every decision whose game ends within the following rollout is
trained on, once; those whose game runs on past it (a deal longer than ``rollout_steps``) are left out, and so
are the last rollout's decisions when a run stops (or resumes: the carried decisions are not in the checkpoint).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp

from cardenvs.experiments.train_fast.checkpoint import Resumable
from cardenvs.experiments.train_fast.networks import ActionValues, Mlp, epsilon_greedy
from cardenvs.experiments.train_fast.rollout import Table, Turn
from cardenvs.experiments.train_fast.updates import fit, with_learning_rate


class DmcState(NamedTuple):
    """Everything an iteration reads and writes (a pytree of arrays); the fields of PPO's state and the carry."""

    model: ActionValues
    opt_state: Any
    snapshots: Mlp
    """The ring of past action-value networks, a leading axis of ``snapshot_recent`` on every array."""
    games: Any
    seats: jax.Array
    key: jax.Array
    carried: Turn
    """The previous rollout, whose decisions this iteration trains on."""


def monte_carlo_targets(turns: Turn) -> tuple[jax.Array, jax.Array]:
    """Per step ``(T, B)``: the mover's return from that step to the end of its game, and whether that game ended
    within ``turns`` (where not, the return so far is no target)."""
    shape = turns.rewards.shape[1:]

    def back(carry: tuple[jax.Array, jax.Array], t: Turn) -> tuple[tuple[jax.Array, jax.Array], Any]:
        earned, ended = carry
        earned = t.rewards + jnp.where(t.done[:, None], 0.0, earned)  # a finished game's later steps are a new deal's
        ended = ended | t.done
        target = jnp.take_along_axis(earned, t.player[:, None].astype(jnp.int32), axis=1)[:, 0]
        return (earned, ended), (target, ended)

    start = (jnp.zeros(shape, jnp.float32), jnp.zeros(shape[:1], bool))
    _, (targets, known) = jax.lax.scan(back, start, turns, reverse=True)
    return targets, known


class Dmc(Table):
    """Deep Monte-Carlo's iteration over the fixed parts of a run (:class:`~.rollout.Table`)."""

    def choose(self, model: ActionValues) -> Any:
        def act(obs: jax.Array, mask: jax.Array, key: jax.Array) -> tuple[jax.Array, None]:
            return epsilon_greedy(key, model(obs), mask, self.args.epsilon), None

        return act

    def start(self, run: Resumable) -> DmcState:
        """The first state of a run (fresh deals, nothing carried) from its networks, optimizer state, snapshot
        ring and key."""
        model = run.model
        if not isinstance(model, ActionValues):
            raise ValueError(f"Deep Monte-Carlo trains action values, not {type(model).__name__}")
        games_key, key = jax.random.split(run.key)
        games, seats = self.init_games(games_key)
        shapes = jax.eval_shape(lambda: self.play(games, seats, run.snapshots, key, self.choose(model))[1][0])
        nothing = jax.tree.map(lambda s: jnp.zeros(s.shape, s.dtype), shapes)
        return DmcState(model, run.opt_state, run.snapshots, games, seats, key, nothing)

    def rollout(self, state: DmcState) -> tuple[DmcState, Turn]:
        (games, seats, key), (turns, _) = self.play(
            state.games, state.seats, state.snapshots, state.key, self.choose(state.model)
        )
        return state._replace(games=games, seats=seats, key=key), turns

    def loss(self, model: ActionValues, batch: dict[str, jax.Array]) -> tuple[jax.Array, dict[str, jax.Array]]:
        """The squared error of the chosen actions' values against their targets, over the rows trained on."""
        w = batch["weight"]
        n = jnp.maximum(w.sum(), 1.0)
        chosen = jnp.take_along_axis(model(batch["obs"]), batch["action"][:, None], axis=1)[:, 0]
        loss = (w * (chosen - batch["target"]) ** 2).sum() / n
        return loss, {"loss": loss, "value": (w * chosen).sum() / n, "target": (w * batch["target"]).sum() / n}

    def iteration(self, state: DmcState, rate: jax.Array) -> tuple[DmcState, dict[str, jax.Array]]:
        """One rollout, and the update on the one before it (targets read through both); the log's statistics."""
        state = state._replace(opt_state=with_learning_rate(state.opt_state, rate))
        state, fresh = self.rollout(state)
        both = jax.tree.map(lambda old, new: jnp.concatenate([old, new]), state.carried, fresh)
        targets, known = monte_carlo_targets(both)
        earlier = slice(0, self.args.rollout_steps)
        trained = state.carried.learner & known[earlier]
        rows = {
            "obs": state.carried.obs,
            "action": state.carried.action,
            "target": targets[earlier],
            "weight": trained.astype(jnp.float32),
        }
        key, epochs = jax.random.split(state.key)
        names = ("loss", "value", "target")
        model, opt_state, stats = fit(self.loss, state.model, state.opt_state, rows, epochs, self.args, names)
        state = state._replace(model=model, opt_state=opt_state, key=key, carried=fresh)
        stats["learner_decisions"] = fresh.learner.sum()
        stats["trained_on"] = trained.sum()
        stats.update(self.scores(fresh.learner_reward, fresh.done))
        return state, stats
