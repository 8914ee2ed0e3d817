"""Trained checkpoints as policies: a MaskablePPO actor exported to NumPy and played without torch.

Training (``experiments/train.py``) saves every checkpoint twice: the SB3 ``.zip`` (to resume training) and a
``.npz`` beside it with the actor's weights and the observation scale. :class:`MlpPolicy` runs that actor
in NumPy (a few small matrix products per decision), so tournaments and replays load a checkpoint in
milliseconds and import neither torch nor SB3; a ``.zip`` without its ``.npz`` is converted on load (that
path needs torch).

Specs: ``ckpt:PATH`` samples from the masked action distribution, ``ckpt-greedy:PATH`` plays its argmax.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from agents.base import Policy, PolicyContext
from cardenvs.core.layout import ObservationLayout
from cardenvs.wrappers.seat_env import observation_scale

ACTIVATIONS = ("tanh", "relu")


@dataclass(frozen=True)
class ActorWeights:
    """The actor of a MaskablePPO MLP policy: hidden layers, the action layer and the observation scale."""

    hidden: tuple[tuple[np.ndarray, np.ndarray], ...]
    """``(W, b)`` per hidden layer, ``W`` of shape (out, in)."""
    action: tuple[np.ndarray, np.ndarray]
    activation: str
    obs_scale: np.ndarray
    meta: Mapping[str, Any]
    """``env_id``, ``options``, training step count and the like."""

    def logits(self, observation: np.ndarray) -> np.ndarray:
        """Action logits for one scaled-or-raw observation vector (scaled here)."""
        x = observation.astype(np.float32, copy=False) * self.obs_scale
        for w, b in self.hidden:
            x = w @ x + b
            x = np.tanh(x) if self.activation == "tanh" else np.maximum(x, 0.0)
        w, b = self.action
        out: np.ndarray = w @ x + b
        return out

    def save(self, path: str | Path) -> Path:
        """Write the weights as ``.npz`` (no pickle)."""
        arrays: dict[str, np.ndarray] = {
            "obs_scale": self.obs_scale,
            "action_w": self.action[0],
            "action_b": self.action[1],
        }
        for i, (w, b) in enumerate(self.hidden):
            arrays[f"hidden{i}_w"], arrays[f"hidden{i}_b"] = w, b
        header = {"activation": self.activation, "layers": len(self.hidden), "meta": dict(self.meta)}
        arrays["header"] = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)
        path = Path(path)
        np.savez(path, allow_pickle=False, **arrays)
        return path

    @classmethod
    def load(cls, path: str | Path) -> ActorWeights:
        with np.load(path, allow_pickle=False) as data:
            header = json.loads(bytes(data["header"]).decode())
            hidden = tuple((data[f"hidden{i}_w"], data[f"hidden{i}_b"]) for i in range(header["layers"]))
            return cls(
                hidden, (data["action_w"], data["action_b"]), header["activation"], data["obs_scale"], header["meta"]
            )

    @classmethod
    def from_model(cls, model: Any, obs_scale: np.ndarray, meta: Mapping[str, Any] | None = None) -> ActorWeights:
        """Copy the actor out of an SB3 (Maskable)PPO model with an MLP policy (needs torch, which it has)."""
        policy = model.policy
        if not getattr(policy, "share_features_extractor", True):
            raise ValueError("only policies with a shared flatten features extractor can be exported")
        activation = type(policy.activation_fn()).__name__.lower()
        if activation not in ACTIVATIONS:
            raise ValueError(f"activation {activation!r} cannot be exported; use one of {ACTIVATIONS}")
        hidden = []
        for module in policy.mlp_extractor.policy_net:
            if hasattr(module, "weight"):
                hidden.append((_numpy(module.weight), _numpy(module.bias)))
        action = (_numpy(policy.action_net.weight), _numpy(policy.action_net.bias))
        return cls(tuple(hidden), action, activation, np.asarray(obs_scale, dtype=np.float32), dict(meta or {}))


def _numpy(tensor: Any) -> np.ndarray:
    out: np.ndarray = tensor.detach().cpu().numpy().astype(np.float32)
    return out


class MlpPolicy(Policy):
    """Plays an exported actor: samples its masked softmax, or its argmax with ``greedy=True``."""

    def __init__(self, context: PolicyContext, weights: ActorWeights, seed: int | None = None, greedy: bool = False):
        super().__init__(context, seed)
        size = weights.hidden[0][0].shape[1] if weights.hidden else weights.action[0].shape[1]
        if size != context.layout.size or weights.action[0].shape[0] != context.actions.size:
            raise ValueError(
                f"checkpoint expects observations of size {size} and {weights.action[0].shape[0]} actions, but "
                f"{context.env_id} with these options has {context.layout.size} and {context.actions.size} "
                f"(trained on {weights.meta.get('env_id')} {weights.meta.get('options')})"
            )
        self.weights = weights
        self.greedy = greedy
        self.name = "ckpt-greedy" if greedy else "ckpt"

    def act(self, observation: Mapping[str, np.ndarray]) -> int:
        mask = observation["action_mask"].astype(bool)
        if not mask.any():
            raise ValueError("no legal action in this observation: the agent is not the one to act")
        logits = np.where(mask, self.weights.logits(observation["observation"]), -np.inf)
        if self.greedy:
            return int(np.argmax(logits))
        p = np.exp(logits - logits.max())
        p /= p.sum()
        return int(self.rng.choice(len(p), p=p))


def load_weights(path: str | Path, layout: ObservationLayout | None = None) -> ActorWeights:
    """The actor of a checkpoint: its ``.npz``, or the ``.npz`` beside a ``.zip``, or the ``.zip`` converted
    (assuming it was trained on :class:`~cardenvs.wrappers.SeatEnv`'s scaled observations of ``layout``)."""
    path = checkpoint_file(path)
    if path.suffix == ".npz":
        return ActorWeights.load(path)
    from sb3_contrib import MaskablePPO  # heavy; only for a checkpoint that has no .npz

    model = MaskablePPO.load(path, device="cpu")
    if layout is None:
        raise ValueError(f"{path} has no .npz beside it; converting it needs the game's observation layout")
    return ActorWeights.from_model(model, observation_scale(layout), {"from": str(path)})


def checkpoint_file(path: str | Path) -> Path:
    """The file a checkpoint plays from: its ``.npz`` (given, or beside a ``.zip``), else the ``.zip``."""
    path = Path(path)
    npz = path if path.suffix == ".npz" else path.with_suffix(".npz")
    if npz.exists():
        return npz
    if path.suffix == ".zip" and path.exists():
        return path
    raise FileNotFoundError(f"no checkpoint at {path} (expected an .npz, or a .zip from experiments.train)")


def checkpoint_policy(path: str, context: PolicyContext, seed: int | None = None, greedy: bool = False) -> Policy:
    """The policy of a checkpoint (``.npz`` or ``.zip``) for the game of ``context``."""
    return MlpPolicy(context, load_weights(path, context.layout), seed, greedy=greedy)
