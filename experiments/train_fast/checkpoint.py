"""What a run writes: the actor as the pickle-free ``.npz`` that ``ckpt:`` plays, and beside it the training state
(networks, optimizer, snapshot ring, random key, step count) that ``--resume`` continues from, also plain arrays.

    <run>/checkpoints/step_N.npz        the actor (ActorWeights: meta with env_id, options, layout_hash, steps)
    <run>/checkpoints/step_N.train.npz  the training state
    <run>/final.npz                     the last actor
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from cardenvs.experiments.train_fast.networks import ActionValues, ActorCritic, Mlp

STATE_SUFFIX = ".train.npz"
_STEP = re.compile(r"step_(\d+)\.train\.npz$")


class Resumable(NamedTuple):
    """The part of a run that a checkpoint keeps (the games in flight are dealt afresh on resume)."""

    model: ActorCritic | ActionValues
    opt_state: Any
    snapshots: Mlp
    key: jax.Array
    steps: int
    snapshots_taken: int


def save_state(path: Path, run: Resumable) -> Path:
    """Write ``run`` as plain arrays (``leaf_i``) and a JSON header (no pickle)."""
    leaves = jax.tree.leaves((run.model, run.opt_state, run.snapshots, run.key))
    arrays = {f"leaf_{i}": np.asarray(leaf) for i, leaf in enumerate(leaves)}
    header = {"steps": run.steps, "snapshots_taken": run.snapshots_taken, "leaves": len(leaves)}
    arrays["header"] = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)
    np.savez(path, allow_pickle=False, **arrays)
    return path


def load_state(path: Path, template: Resumable) -> Resumable:
    """Read what :func:`save_state` wrote into the shapes of ``template`` (a fresh run of the same settings);
    ``ValueError`` names the first difference."""
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
        header = json.loads(arrays["header"].tobytes().decode())
        steps, taken = int(header["steps"]), int(header["snapshots_taken"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ValueError(f"{path} is not a training state written by experiments.train_fast: {error}") from error
    parts = (template.model, template.opt_state, template.snapshots, template.key)
    leaves, treedef = jax.tree.flatten(parts)
    if header.get("leaves") != len(leaves):
        raise ValueError(f"{path} holds {header.get('leaves')} arrays, this run's settings make {len(leaves)}")
    loaded = []
    for i, leaf in enumerate(leaves):
        array = arrays.get(f"leaf_{i}")
        if array is None or array.shape != np.shape(leaf) or array.dtype != np.asarray(leaf).dtype:
            found = None if array is None else (array.shape, array.dtype)
            raise ValueError(
                f"{path}: array {i} is {found}, this run's settings make {(np.shape(leaf), np.asarray(leaf).dtype)} "
                "(another network, game or option set?)"
            )
        loaded.append(jnp.asarray(array))
    model, opt_state, snapshots, key = jax.tree.unflatten(treedef, loaded)
    return Resumable(model, opt_state, snapshots, key, steps, taken)


def latest_state(run_dir: Path) -> Path | None:
    """The training state of the newest checkpoint in ``run_dir``, or ``None``."""
    paths = (run_dir / "checkpoints").glob(f"step_*{STATE_SUFFIX}")
    found = [(int(m.group(1)), p) for p in paths if (m := _STEP.search(p.name))]
    return max(found)[1] if found else None
