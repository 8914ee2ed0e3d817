"""Checkpoints cannot run code: a crafted SB3 ``.zip`` whose pickled ``data`` entry would create a marker file is
refused by every entry point unless the user trusts it, and ``.npz`` checkpoints are checked before they play."""

from __future__ import annotations

import base64
import json
import os
import pickle
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cardenvs.agents.base import PolicyContext
from cardenvs.agents.learned.weights import (
    TRUST_VARIABLE,
    ActorWeights,
    CheckpointFormatError,
    UntrustedCheckpointError,
    load_weights,
)
from cardenvs.agents.specs import make_policy
from cardenvs.registry import make_raw

ROOT = Path(__file__).resolve().parent.parent
GAME = "verish_ne_verish-v0"


class _CreatesMarker:
    """Unpickling this opens ``marker`` for writing, which creates the file: the stand-in for arbitrary code."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        return open, (str(self.marker), "w")


def crafted_zip(folder: Path) -> tuple[Path, Path]:
    """An SB3-shaped ``.zip`` (``data`` as SB3 writes it: JSON whose ``:serialized:`` values are base64 pickles)
    whose unpickling creates ``folder/marker``; returns (zip, marker)."""
    marker = folder / "marker"
    payload = base64.b64encode(pickle.dumps(_CreatesMarker(marker))).decode()
    data = {"policy_class": {":type:": "<class 'type'>", ":serialized:": payload}}
    evil = folder / "evil.zip"
    with zipfile.ZipFile(evil, "w") as archive:
        archive.writestr("data", json.dumps(data))
        archive.writestr("_stable_baselines3_version", "2.9.2")
    return evil, marker


@pytest.fixture
def evil(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    monkeypatch.delenv(TRUST_VARIABLE, raising=False)
    return crafted_zip(tmp_path)


def untrusting_environment() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != TRUST_VARIABLE}


def test_the_tournament_command_refuses_an_untrusted_zip(evil: tuple[Path, Path], tmp_path: Path) -> None:
    path, marker = evil
    command = [sys.executable, "-m", "cardenvs.experiments.tournament", "--game", GAME, "--players", "3"]
    command += ["--policies", f"e=ckpt:{path}", "random", "--games", "3", "--out", str(tmp_path / "t"), "--no-report"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=untrusting_environment())
    assert done.returncode != 0
    assert not marker.exists(), "the crafted checkpoint ran code"
    assert "--trust-checkpoint" in done.stderr and "can run arbitrary code" in done.stderr


def test_make_policy_refuses_an_untrusted_zip(evil: tuple[Path, Path]) -> None:
    path, marker = evil
    for spec in (f"ckpt:{path}", f"ckpt-greedy:{path}"):
        with pytest.raises(UntrustedCheckpointError, match="--trust-checkpoint"):
            make_policy(spec, make_raw(GAME, num_players=3))
    assert not marker.exists()


def test_resuming_training_refuses_an_untrusted_zip(evil: tuple[Path, Path]) -> None:
    from cardenvs.experiments.train import TrainArgs, main, train

    path, marker = evil
    with pytest.raises(SystemExit, match="--trust-checkpoint"):
        main(["--resume", str(path), "--total-steps", "10", "--no-progress", "--no-tensorboard"])
    with pytest.raises(UntrustedCheckpointError, match="can run arbitrary code"):
        train(TrainArgs(resume=str(path), out=str(path.parent / "run")))
    assert not marker.exists()


def test_converting_needs_trust(evil: tuple[Path, Path]) -> None:
    from cardenvs.experiments.convert_checkpoint import main

    path, marker = evil
    with pytest.raises(SystemExit, match="--trust"):
        main([str(path), "--game", GAME])
    assert not marker.exists() and not path.with_suffix(".npz").exists()


def test_trust_is_what_lets_the_zip_be_unpickled(evil: tuple[Path, Path]) -> None:
    """The crafted file is live: trusted, SB3 unpickles it and the marker appears (so the refusals above are what
    keeps it from running)."""
    path, marker = evil
    layout = PolicyContext.from_env(make_raw(GAME, num_players=3)).layout
    with pytest.raises(Exception):  # noqa: B017 - the archive holds no model; only the unpickling matters here
        load_weights(path, layout, trust=True)
    assert marker.exists()


def test_a_pickle_disguised_as_npz_is_refused(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    disguised = tmp_path / "evil.npz"
    disguised.write_bytes(pickle.dumps(_CreatesMarker(marker)))
    with pytest.raises(CheckpointFormatError, match=r"not a NumPy \.npz of plain arrays"):
        make_policy(f"ckpt:{disguised}", make_raw(GAME, num_players=3))
    assert not marker.exists()


# ---------------------------------------------------------------------- the .npz reader's checks
def actor(inputs: int = 6, hidden: int = 4, actions: int = 3) -> ActorWeights:
    rng = np.random.default_rng(0)
    layer = (rng.normal(size=(hidden, inputs)).astype(np.float32), np.zeros(hidden, np.float32))
    head = (rng.normal(size=(actions, hidden)).astype(np.float32), np.zeros(actions, np.float32))
    return ActorWeights((layer,), head, "tanh", np.ones(inputs, np.float32), {"env_id": "x"})


def rewrite(path: Path, **changes: Any) -> Path:
    """``path``'s arrays with ``changes`` (an array, a header dict, or ``None`` to drop one), saved again."""
    with np.load(path, allow_pickle=False) as data:
        arrays = {name: data[name] for name in data.files}
    for name, value in changes.items():
        if value is None:
            del arrays[name]
        elif isinstance(value, dict):
            arrays[name] = np.frombuffer(json.dumps(value).encode(), dtype=np.uint8)
        else:
            arrays[name] = value
    out = path.with_name("changed.npz")
    np.savez(out, **arrays)
    return out


def test_a_saved_actor_loads_back_equal(tmp_path: Path) -> None:
    original = actor()
    loaded = ActorWeights.load(original.save(tmp_path / "a.npz"))
    assert loaded.activation == "tanh" and loaded.meta == {"env_id": "x"}
    np.testing.assert_array_equal(loaded.hidden[0][0], original.hidden[0][0])
    x = np.arange(6, dtype=np.float32)
    np.testing.assert_array_equal(loaded.logits(x), original.logits(x))


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"header": {"activation": "sigmoid", "layers": 1, "meta": {}}}, r"activation 'sigmoid' is not one of"),
        ({"header": {"activation": "tanh", "layers": "1", "meta": {}}}, "'layers' must be a whole number"),
        ({"header": {"activation": "tanh", "layers": 2, "meta": {}}}, r"arrays \['hidden1_w', 'hidden1_b'\] are"),
        ({"header": {"activation": "tanh", "layers": 1, "meta": []}}, "'meta' must be a JSON object"),
        ({"header": None}, "no 'header' array"),
        ({"action_w": np.full((3, 4), np.nan, np.float32)}, "action_w holds NaN or infinite values"),
        ({"hidden0_b": np.array([np.inf, 0, 0, 0], np.float32)}, "hidden0_b holds NaN or infinite"),
        ({"action_w": np.ones((3, 5), np.float32)}, r"action has weights \(3, 5\) and bias \(3,\), expected \(n, 4\)"),
        ({"obs_scale": np.ones(7, np.float32)}, r"hidden0 has weights \(4, 6\).*expected \(n, 7\)"),
        ({"hidden0_b": np.zeros(5, np.float32)}, r"hidden0 has weights \(4, 6\) and bias \(5,\)"),
        ({"action_b": np.zeros(3, np.int64)}, "action_b has dtype int64, expected floating point"),
    ],
)
def test_a_malformed_npz_is_refused_with_the_reason(tmp_path: Path, changes: dict[str, Any], message: str) -> None:
    bad = rewrite(actor().save(tmp_path / "a.npz"), **changes)
    with pytest.raises(CheckpointFormatError, match=message):
        ActorWeights.load(bad)


def test_an_object_array_is_refused_without_unpickling(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    path = actor().save(tmp_path / "a.npz")
    with np.load(path) as data:
        arrays: dict[str, Any] = {name: data[name] for name in data.files}
    arrays["obs_scale"] = np.array([_CreatesMarker(marker)], dtype=object)
    np.savez(tmp_path / "b.npz", allow_pickle=True, **arrays)
    with pytest.raises(CheckpointFormatError, match=r"not a NumPy \.npz of plain arrays"):
        ActorWeights.load(tmp_path / "b.npz")
    assert not marker.exists()


# ---------------------------------------------------------------------- hostile archives (issue 33, item 8)
def npy_bytes(header: dict[str, Any], data: bytes) -> bytes:
    """An ``.npy`` member: ``header`` (descr, fortran_order, shape) as NumPy writes it, then ``data``."""
    import io

    stream = io.BytesIO()
    np.lib.format.write_array_header_1_0(stream, header)
    return stream.getvalue() + data


def test_float64_weights_that_overflow_float32_are_refused(tmp_path: Path) -> None:
    """1e300 is finite in float64 and infinite in the float32 the network plays in: refused at load, not at the
    first move with 'Probabilities contain NaN'."""
    bad = rewrite(actor().save(tmp_path / "a.npz"), action_w=np.full((3, 4), 1e300))
    with pytest.raises(CheckpointFormatError, match="action_w holds NaN or infinite values as float32"):
        ActorWeights.load(bad)


def test_weights_that_overflow_on_an_observation_stop_the_move_with_the_reason(tmp_path: Path) -> None:
    env = make_raw(GAME, num_players=3)
    env.reset(seed=0)
    context = PolicyContext.from_env(env)
    big = np.full((4, context.layout.size), 1e30, np.float32)
    weights = ActorWeights(
        ((big, np.zeros(4, np.float32)),),
        (np.full((context.actions.size, 4), 1e30, np.float32), np.zeros(context.actions.size, np.float32)),
        "relu",
        np.ones(context.layout.size, np.float32),
        {},
    )
    policy = make_policy(f"ckpt:{weights.save(tmp_path / 'big.npz')}", env)
    observation = env.observe(env.agent_selection)
    observation["observation"] = np.ones_like(observation["observation"])
    with pytest.raises(ValueError, match="NaN or infinite scores to legal actions"):
        policy.act(observation)


def test_a_decompression_bomb_is_refused_before_it_is_inflated(tmp_path: Path) -> None:
    """300 MiB of zeros deflate to well under 1 MiB; the declared sizes exceed the limit, so nothing is inflated."""
    bomb = tmp_path / "bomb.npz"
    size = 300 * 2**20
    with (
        zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive,
        archive.open("action_w.npy", "w", force_zip64=True) as member,
    ):
        member.write(npy_bytes({"descr": "<f4", "fortran_order": False, "shape": (size // 4,)}, b""))
        chunk = bytes(2**20)
        for _ in range(size // len(chunk)):
            member.write(chunk)
    assert bomb.stat().st_size < 2**20
    with pytest.raises(CheckpointFormatError, match=r"decompress to 300\.0 MiB, more than the limit of 256\.0 MiB"):
        ActorWeights.load(bomb)


def test_a_member_that_inflates_past_its_declared_size_is_refused(tmp_path: Path) -> None:
    """The zip's directory says the member holds 6 floats while its compressed data inflates to 1 MiB more: only
    the declared bytes are read, and the zip's checksum, which covers all the data, refuses them."""
    path = actor().save(tmp_path / "a.npz")
    header = npy_bytes({"descr": "<f4", "fortran_order": False, "shape": (6,)}, b"")
    crafted = tmp_path / "lying.npz"
    with np.load(path) as data, zipfile.ZipFile(crafted, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in data.files:
            if name != "obs_scale":
                archive.writestr(f"{name}.npy", npy_bytes(_header_of(data[name]), data[name].tobytes()))
        archive.writestr("obs_scale.npy", header + np.ones(6 + 2**18, np.float32).tobytes())
    raw = bytearray(crafted.read_bytes())
    entry = _central_entry(raw, b"obs_scale.npy")
    raw[entry + 24 : entry + 28] = (len(header) + 24).to_bytes(4, "little")  # the directory's uncompressed size
    crafted.write_bytes(bytes(raw))
    with pytest.raises(CheckpointFormatError, match="Bad CRC-32"):
        ActorWeights.load(crafted)


def _header_of(array: np.ndarray) -> dict[str, Any]:
    return {"descr": np.lib.format.dtype_to_descr(array.dtype), "fortran_order": False, "shape": array.shape}


def _central_entry(raw: bytearray, name: bytes) -> int:
    """Where the zip's central directory entry of member ``name`` starts."""
    at = raw.find(b"PK\x01\x02")
    while raw[at + 46 : at + 46 + int.from_bytes(raw[at + 28 : at + 30], "little")] != name:
        at = raw.find(b"PK\x01\x02", at + 4)
    return at


def test_a_fake_array_shape_is_refused_without_allocating_it(tmp_path: Path) -> None:
    fake = tmp_path / "fake.npz"
    with zipfile.ZipFile(fake, "w") as archive:
        archive.writestr(
            "action_w.npy", npy_bytes({"descr": "<f4", "fortran_order": False, "shape": (2**40,)}, bytes(16))
        )
    with pytest.raises(CheckpointFormatError, match=r"declares shape \(1099511627776,\) of float32"):
        ActorWeights.load(fake)


def test_a_truncated_file_gets_the_loaders_error(tmp_path: Path) -> None:
    path = actor().save(tmp_path / "a.npz")
    cut = tmp_path / "cut.npz"
    cut.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    with pytest.raises(CheckpointFormatError, match=r"not a NumPy \.npz of plain arrays: it is not a readable zip"):
        ActorWeights.load(cut)
    with pytest.raises(CheckpointFormatError):
        make_policy(f"ckpt:{cut}", make_raw(GAME, num_players=3))


def test_a_checkpoint_written_for_another_layout_of_the_same_size_is_refused(tmp_path: Path) -> None:
    from dataclasses import replace

    from cardenvs.agents.learned.weights import MlpPolicy, context_layout_hash
    from cardenvs.agents.zoo import ZOO_ROOT

    env = make_raw("kyuuri-v0", num_players=4)
    context = PolicyContext.from_env(env)
    weights = load_weights(ZOO_ROOT / "kyuuri" / "ppo.npz")
    MlpPolicy(context, replace(weights, meta={**weights.meta, "layout_hash": context_layout_hash(context)}))
    stale = replace(weights, meta={**weights.meta, "layout_hash": "0123456789abcdef"})
    with pytest.raises(ValueError, match="layout 0123456789abcdef"):
        MlpPolicy(context, stale)
