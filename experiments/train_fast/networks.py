"""The learner's networks (Equinox modules) and their exchange with the pickle-free :class:`ActorWeights`.

An :class:`Mlp` keeps each layer's weight as ``(out, in)``, the layout of ``ActorWeights``, so the exported
actor computes the same numbers in NumPy. Layers are initialised as SB3 does (orthogonal, gain √2 in the hidden
layers, 0.01 at the policy head, 1 at the value head)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

from cardenvs.agents.learned.weights import ActorWeights

MASKED = -1e9
"""The logit of an illegal action (finite, so that gradients and entropies stay finite)."""


class Mlp(eqx.Module):
    """Linear layers with an activation between them; called on a batch of rows ``(B, in) → (B, out)``."""

    weights: tuple[jax.Array, ...]
    biases: tuple[jax.Array, ...]
    activation: str = eqx.field(static=True)

    def __call__(self, x: jax.Array) -> jax.Array:
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            x = x @ w.T + b
            if i < last:
                x = jnp.tanh(x) if self.activation == "tanh" else jax.nn.relu(x)
        return x


def init_mlp(key: jax.Array, sizes: Sequence[int], activation: str, out_gain: float) -> Mlp:
    """An MLP of layer ``sizes`` (input first), orthogonally initialised with zero biases."""
    keys = jax.random.split(key, len(sizes) - 1)
    weights, biases = [], []
    for i, (k, n_in, n_out) in enumerate(zip(keys, sizes[:-1], sizes[1:], strict=True)):
        gain = out_gain if i == len(sizes) - 2 else float(np.sqrt(2.0))
        weights.append(jax.nn.initializers.orthogonal(gain)(k, (n_out, n_in), jnp.float32))
        biases.append(jnp.zeros(n_out, jnp.float32))
    return Mlp(tuple(weights), tuple(biases), activation)


class ActorCritic(eqx.Module):
    """Separate actor and critic MLPs (SB3's ``MlpPolicy`` with a list ``net_arch``)."""

    actor: Mlp
    critic: Mlp

    def __call__(self, x: jax.Array) -> tuple[jax.Array, jax.Array]:
        """Logits ``(B, A)`` and values ``(B,)`` of scaled observations ``(B, D)``."""
        return self.actor(x), self.critic(x)[:, 0]

    @property
    def played(self) -> Mlp:
        """The network that plays (snapshots, checkpoints): the actor."""
        return self.actor


class ActionValues(eqx.Module):
    """Deep Monte-Carlo's network: one value per action id, the return expected after playing it."""

    q: Mlp

    def __call__(self, x: jax.Array) -> jax.Array:
        """Action values ``(B, A)`` of scaled observations ``(B, D)``."""
        return self.q(x)

    @property
    def played(self) -> Mlp:
        """The network that plays (snapshots, checkpoints): the action values, played by their argmax."""
        return self.q


def init_actor_critic(key: jax.Array, inputs: int, actions: int, hidden: Sequence[int], activation: str) -> ActorCritic:
    actor_key, critic_key = jax.random.split(key)
    return ActorCritic(
        init_mlp(actor_key, [inputs, *hidden, actions], activation, 0.01),
        init_mlp(critic_key, [inputs, *hidden, 1], activation, 1.0),
    )


def init_action_values(
    key: jax.Array, inputs: int, actions: int, hidden: Sequence[int], activation: str
) -> ActionValues:
    return ActionValues(init_mlp(key, [inputs, *hidden, actions], activation, 0.01))


def masked_logits(logits: jax.Array, mask: jax.Array) -> jax.Array:
    return jnp.where(mask, logits, MASKED)


def sample(key: jax.Array, logits: jax.Array, mask: jax.Array) -> jax.Array:
    """One action per row from the masked softmax."""
    return jax.random.categorical(key, masked_logits(logits, mask)).astype(jnp.int32)


def greedy(logits: jax.Array, mask: jax.Array) -> jax.Array:
    """The best legal action per row (the lowest id among equals, as NumPy's argmax)."""
    return jnp.argmax(masked_logits(logits, mask), axis=-1).astype(jnp.int32)


def epsilon_greedy(key: jax.Array, values: jax.Array, mask: jax.Array, epsilon: float) -> jax.Array:
    """Per row, with probability ``epsilon`` a uniformly random legal action, else the best legal one."""
    explore, pick = jax.random.split(key)
    at_random = sample(pick, jnp.zeros(values.shape), mask)
    return jnp.where(jax.random.uniform(explore, mask.shape[:1]) < epsilon, at_random, greedy(values, mask))


def to_actor_weights(actor: Mlp, obs_scale: np.ndarray, meta: Mapping[str, Any]) -> ActorWeights:
    """The actor as the ``.npz``-ready weights that ``ckpt:`` plays without JAX."""
    pairs = zip(actor.weights, actor.biases, strict=True)
    layers = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in pairs]
    return ActorWeights(tuple(layers[:-1]), layers[-1], actor.activation, np.asarray(obs_scale, np.float32), meta)


def from_actor_weights(weights: ActorWeights) -> Mlp:
    """An exported actor (a zoo agent, a snapshot) as an :class:`Mlp` of the same numbers."""
    layers = [*weights.hidden, weights.action]
    return Mlp(
        tuple(jnp.asarray(w, jnp.float32) for w, _ in layers),
        tuple(jnp.asarray(b, jnp.float32) for _, b in layers),
        weights.activation,
    )


def stack(mlps: Sequence[Mlp]) -> Mlp:
    """Several MLPs of one shape as one with a leading axis on every array (a ring of snapshots)."""
    return jax.tree.map(lambda *leaves: jnp.stack(leaves), *mlps)


def forward_flops(sizes: Sequence[int]) -> int:
    """Multiply-adds ×2 of one row through layers of ``sizes`` (input first)."""
    return sum(2 * a * b for a, b in pairwise(sizes))
