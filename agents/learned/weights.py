"""The NumPy weights runtime: a MaskablePPO actor exported to NumPy, read back safely and played without torch.

Training (``experiments/train.py``) saves every checkpoint twice: the SB3 ``.zip`` (to resume training) and a
``.npz`` beside it with the actor's weights and the observation scale. :class:`MlpPolicy` runs that actor
in NumPy (a few small matrix products per decision), so tournaments and replays load a checkpoint in
milliseconds and import neither torch nor SB3.

Only the ``.npz`` is read by default: it holds plain arrays and a JSON header (``allow_pickle=False``), and
:meth:`ActorWeights.load` checks both before anything plays. An SB3 ``.zip`` is different: loading it unpickles
Python objects (its ``data`` entry, with cloudpickle), and a crafted file runs whatever code it likes. So a
``.zip`` without its ``.npz`` is loaded only when the user trusts it (``trust=True``, the ``--trust-checkpoint``
flag of the commands, or ``CARDENVS_TRUST_CHECKPOINTS=1``); ``python -m cardenvs.experiments.convert_checkpoint RUN.zip
--trust`` converts it once into the ``.npz`` that every later load reads.

Which player plays a loaded network (this module's :class:`MlpPolicy`, or a game's move-scoring player) is
:mod:`agents.learned.players`'s call; ``ckpt:PATH`` samples from the masked action distribution, ``ckpt-greedy:PATH``
plays its argmax.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from cardenvs.agents.base import Policy, PolicyContext
from cardenvs.agents.learned.npz_reader import MAX_NPZ_BYTES, NpzReadError, read_npz
from cardenvs.core.layout import ObservationLayout, layout_hash
from cardenvs.wrappers.seat_env import observation_scale

ACTIVATIONS = ("tanh", "relu")
TRUST_VARIABLE = "CARDENVS_TRUST_CHECKPOINTS"
"""Environment variable that, set to ``1``, trusts SB3 ``.zip`` checkpoints (worker processes inherit it)."""
TRUST_HINT = (
    f"pass --trust-checkpoint (trust=True in Python, or {TRUST_VARIABLE}=1) only if you trust where the file came "
    "from, or convert it once with `python -m cardenvs.experiments.convert_checkpoint PATH.zip --trust`"
)


class UntrustedCheckpointError(ValueError):
    """A checkpoint format that can run code (an SB3 ``.zip``) was about to be read without the user's trust."""


class CheckpointFormatError(ValueError):
    """An ``.npz`` checkpoint whose header or arrays are not those of an exported actor."""


def trusted_by_environment() -> bool:
    """Whether ``CARDENVS_TRUST_CHECKPOINTS=1`` is set (what ``--trust-checkpoint`` sets for worker processes)."""
    return os.environ.get(TRUST_VARIABLE, "") == "1"


def require_trust(path: str | Path, trust: bool | None) -> None:
    """Raise :class:`UntrustedCheckpointError` unless ``trust`` (or, if ``None``, the environment) allows
    unpickling the SB3 ``.zip`` at ``path``."""
    if trust or (trust is None and trusted_by_environment()):
        return
    raise UntrustedCheckpointError(
        f"{path} is an SB3 .zip: loading it unpickles Python objects, which can run arbitrary code, so it is not "
        f"read by default; {TRUST_HINT}"
    )


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

    def played_bytes(self) -> bytes:
        """The bytes that decide its outputs: the activation and every array (each with its dtype and shape)."""
        arrays = [a for layer in (*self.hidden, self.action) for a in layer] + [self.obs_scale]
        return self.activation.encode() + b"".join(
            a.dtype.str.encode() + str(a.shape).encode() + a.tobytes() for a in arrays
        )

    def logits(self, observation: np.ndarray) -> np.ndarray:
        """Action logits for one scaled-or-raw observation vector (scaled here)."""
        x = observation.astype(np.float32, copy=False) * self.obs_scale
        for w, b in self.hidden:
            x = w @ x + b
            x = np.tanh(x) if self.activation == "tanh" else np.maximum(x, 0.0)
        w, b = self.action
        out: np.ndarray = w @ x + b
        return out

    def outputs(self, rows: np.ndarray) -> np.ndarray:
        """The network's outputs for each row of raw inputs (scaled here), one row of outputs per input row."""
        x = rows.astype(np.float32, copy=False) * self.obs_scale
        for w, b in self.hidden:
            x = x @ w.T + b
            x = np.tanh(x) if self.activation == "tanh" else np.maximum(x, 0.0)
        w, b = self.action
        out: np.ndarray = x @ w.T + b
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
    def load(cls, path: str | Path, max_bytes: int = MAX_NPZ_BYTES) -> ActorWeights:
        """Read an ``.npz`` written by :meth:`save` (no pickle, at most ``max_bytes`` decompressed), checking its
        header, shapes and values."""
        try:
            arrays = read_npz(path, max_bytes)
        except NpzReadError as error:  # object arrays (pickle), size bombs and broken zips alike
            raise CheckpointFormatError(f"{path} is not a NumPy .npz of plain arrays: {error}") from error
        return _validated(path, arrays)

    @classmethod
    def from_model(cls, model: Any, obs_scale: np.ndarray, meta: Mapping[str, Any] | None = None) -> ActorWeights:
        """Copy the actor out of an SB3 (Maskable)PPO model with an MLP policy (needs torch, which it has)."""
        policy = model.policy
        if not getattr(policy, "share_features_extractor", True):
            raise ValueError("only policies with a shared flatten features extractor can be exported")
        activation = type(policy.activation_fn()).__name__.lower()  # checked with the rest by __post_init__
        *hidden, action = [(_numpy(module.weight), _numpy(module.bias)) for module in actor_layers(policy)]
        return cls(tuple(hidden), action, activation, np.asarray(obs_scale, dtype=np.float32), dict(meta or {}))

    @classmethod
    def from_torch(
        cls, module: Any, activation: str, obs_scale: np.ndarray, meta: Mapping[str, Any] | None = None
    ) -> ActorWeights:
        """Copy a torch ``Sequential`` of linear layers and activations (the last layer the output)."""
        *hidden, output = [(_numpy(m.weight), _numpy(m.bias)) for m in module if hasattr(m, "weight")]
        return cls(tuple(hidden), output, activation, np.asarray(obs_scale, dtype=np.float32), dict(meta or {}))


def actor_layers(policy: Any) -> list[Any]:
    """The linear layers of an SB3 MLP policy's actor, in order: its hidden layers, then the action head."""
    return [*(module for module in policy.mlp_extractor.policy_net if hasattr(module, "weight")), policy.action_net]


def _validated(path: str | Path, arrays: Mapping[str, np.ndarray]) -> ActorWeights:
    """The actor in ``arrays`` (an ``.npz``'s contents), or a :class:`CheckpointFormatError` naming what is wrong."""

    def fail(problem: str) -> CheckpointFormatError:
        return CheckpointFormatError(f"{path} is not a valid actor checkpoint: {problem}")

    if "header" not in arrays or arrays["header"].dtype != np.uint8 or arrays["header"].ndim != 1:
        raise fail("it has no 'header' array of JSON bytes (uint8, one dimension)")
    try:
        header = json.loads(arrays["header"].tobytes().decode())
    except (ValueError, UnicodeDecodeError) as error:
        raise fail(f"its header is not UTF-8 JSON ({error})") from error
    if not isinstance(header, dict):
        raise fail(f"its header is {type(header).__name__}, expected a JSON object")
    activation, layers, meta = header.get("activation"), header.get("layers"), header.get("meta", {})
    if activation not in ACTIVATIONS:
        raise fail(f"activation {activation!r} is not one of {ACTIVATIONS}")
    if not isinstance(layers, int) or isinstance(layers, bool) or not 0 <= layers <= 64:
        raise fail(f"'layers' must be a whole number from 0 to 64, got {layers!r}")
    if not isinstance(meta, dict):
        raise fail(f"'meta' must be a JSON object, got {type(meta).__name__}")
    names = ["obs_scale", *(f"hidden{i}_{part}" for i in range(layers) for part in "wb"), "action_w", "action_b"]
    missing = [name for name in names if name not in arrays]
    if missing:
        raise fail(f"arrays {missing} are missing (it has {sorted(arrays)})")
    played: dict[str, np.ndarray] = {}  # what plays: float32, checked after the cast (1e300 is inf there)
    for name in names:
        array = arrays[name]
        if array.dtype.kind != "f":
            raise fail(f"{name} has dtype {array.dtype}, expected floating point")
        with np.errstate(over="ignore"):
            played[name] = array.astype(np.float32)
        if not np.isfinite(played[name]).all():
            raise fail(f"{name} holds NaN or infinite values as float32 (the network plays in float32)")
    scale = played["obs_scale"]
    if scale.ndim != 1:
        raise fail(f"obs_scale has shape {scale.shape}, expected one dimension")
    width = scale.shape[0]
    layers_wb = [(f"hidden{i}", played[f"hidden{i}_w"], played[f"hidden{i}_b"]) for i in range(layers)]
    for name, w, b in [*layers_wb, ("action", played["action_w"], played["action_b"])]:
        if w.ndim != 2 or w.shape[1] != width or b.shape != (w.shape[0],):
            raise fail(
                f"{name} has weights {w.shape} and bias {b.shape}, expected (n, {width}) and (n,) to "
                "follow the layer before"
            )
        width = w.shape[0]
    hidden = tuple((w, b) for _, w, b in layers_wb)
    return ActorWeights(hidden, (played["action_w"], played["action_b"]), activation, scale, meta)


def _numpy(tensor: Any) -> np.ndarray:
    out: np.ndarray = tensor.detach().cpu().numpy().astype(np.float32)
    return out


def context_layout_hash(context: PolicyContext) -> str:
    """:func:`~cardenvs.core.layout.layout_hash` of a policy context's game: what a network's ``meta["layout_hash"]``
    must equal to read this game's observations."""
    return layout_hash(context.layout, context.actions)


def check_fits(weights: ActorWeights, context: PolicyContext) -> None:
    """Raise a ``ValueError`` naming both sizes unless ``weights`` read ``context``'s observation and score its
    actions."""
    size = weights.hidden[0][0].shape[1] if weights.hidden else weights.action[0].shape[1]
    if size != context.layout.size or weights.action[0].shape[0] != context.actions.size:
        raise ValueError(
            f"checkpoint expects observations of size {size} and {weights.action[0].shape[0]} actions, but "
            f"{context.env_id} with these options has {context.layout.size} and {context.actions.size} "
            f"(trained on {weights.meta.get('env_id')} {weights.meta.get('options')})"
        )
    written = weights.meta.get("layout_hash")
    here = context_layout_hash(context)
    if written is not None and written != here:
        raise ValueError(
            f"checkpoint was trained on {weights.meta.get('env_id')} {weights.meta.get('options')} with observation "
            f"layout {written}, but {context.env_id} with these options has layout {here}: the same sizes, "
            "different features (a checkpoint written before a layout change, or for another game)"
        )


class MlpPolicy(Policy):
    """Plays an exported actor: samples its masked softmax, or its argmax with ``greedy=True``."""

    def __init__(self, context: PolicyContext, weights: ActorWeights, seed: int | None = None, greedy: bool = False):
        super().__init__(context, seed)
        check_fits(weights, context)
        self.weights = weights
        self.greedy = greedy
        self.name = "ckpt-greedy" if greedy else "ckpt"

    def act(self, observation: Mapping[str, np.ndarray]) -> int:
        mask = observation["action_mask"].astype(bool)
        if not mask.any():
            raise ValueError("no legal action in this observation: the agent is not the one to act")
        with np.errstate(over="ignore", invalid="ignore"):
            scores = self.weights.logits(observation["observation"])
        if not np.isfinite(scores[mask]).all():
            raise ValueError(
                f"{self.name}: the checkpoint's network gives NaN or infinite scores to legal actions on this "
                "observation (its weights overflow float32); it cannot play"
            )
        logits = np.where(mask, scores, -np.inf)
        if self.greedy:
            return int(np.argmax(logits))
        p = np.exp(logits - logits.max())
        p /= p.sum()
        return int(self.rng.choice(len(p), p=p))


def load_weights(path: str | Path, layout: ObservationLayout | None = None, trust: bool | None = None) -> ActorWeights:
    """The actor of a checkpoint: its ``.npz``, or the ``.npz`` beside a ``.zip``; or, only if ``trust`` (``None``:
    :func:`trusted_by_environment`), the ``.zip`` itself converted (assuming it was trained on
    :class:`~cardenvs.wrappers.SeatEnv`'s scaled observations of ``layout``)."""
    if not str(path).strip():
        raise ValueError(
            "the checkpoint path is empty; write ckpt:PATH with PATH an .npz or .zip from cardenvs.experiments.train"
        )
    path = checkpoint_file(path)
    if path.suffix == ".npz":
        return ActorWeights.load(path)
    require_trust(path, trust)  # before anything reads the archive
    if layout is None:
        raise ValueError(f"{path} has no .npz beside it; converting it needs the game's observation layout")
    from sb3_contrib import MaskablePPO  # heavy; only for a trusted checkpoint that has no .npz

    model = MaskablePPO.load(path, device="cpu")
    return ActorWeights.from_model(model, observation_scale(layout), {"from": str(path)})


def checkpoint_file(path: str | Path) -> Path:
    """The file a checkpoint plays from: its ``.npz`` (given, or beside a ``.zip``), else the ``.zip``."""
    path = Path(path)
    npz = path if path.suffix == ".npz" else path.with_suffix(".npz")
    if npz.exists():
        return npz
    if path.suffix == ".zip" and path.exists():
        return path
    raise FileNotFoundError(f"no checkpoint at {path} (expected an .npz, or a .zip from cardenvs.experiments.train)")
