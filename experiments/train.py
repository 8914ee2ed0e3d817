"""Self-play training of one MaskablePPO agent on a cardenvs game.

    python -m cardenvs.experiments.train --game kyuuri-v0                   # reads experiments/configs/kyuuri.toml
    python -m cardenvs.experiments.train --game kyuuri-v0 --total-steps 50000 --seed 1 --out runs/train/k1
    python -m cardenvs.experiments.train --resume runs/train/k1/final.zip --total-steps 100000 --trust-checkpoint

The learner sits at a random seat of a :class:`~cardenvs.wrappers.SeatEnv` each episode. The other seats are
drawn every deal from an opponent pool: the fixed entries of the config (``random``, the game's rule bots, with
weights) and, with probability ``snapshot_share``, one of the ``snapshot_recent`` newest frozen copies of the
learner (one is added every ``snapshot_every`` steps; they play in NumPy, see ``agents/learned/weights.py``).
With ``imitate``, the network first copies a rule bot (:mod:`experiments.imitation`) and PPO starts from there;
with ``init_from``, PPO fine-tunes a pickle-free actor (a zoo agent or an ``.npz``; :mod:`experiments.fine_tune`).

Outputs go to ``--out`` (default ``runs/train/<game>/seed<seed>``): ``args.json``, ``checkpoints/step_N.zip``
(+ ``.npz``), ``snapshots/step_N.npz``, ``final.zip`` / ``final.npz`` and TensorBoard logs under ``tb/``. A
checkpoint plays in tournaments as ``ckpt:<run>/final.zip`` (sampling) or ``ckpt-greedy:…`` (argmax).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import tomllib
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from cardenvs.agents.base import PolicyContext
from cardenvs.agents.learned.weights import ActorWeights, UntrustedCheckpointError, require_trust
from cardenvs.experiments.train_args import TrainArgs, check_args
from cardenvs.experiments.train_envs import EnvFactory, FromSpec, PoolSeatEnv, Snapshot, make_env
from cardenvs.registry import game_name
from cardenvs.wrappers import observation_scale

__all__ = [
    "EnvFactory",
    "FromSpec",
    "LinearDecay",
    "PoolSeatEnv",
    "Snapshot",
    "TrainArgs",
    "check_args",
    "make_env",
    "train",
]

CONFIGS = Path(__file__).parent / "configs"
NOT_RESUMED = ("out", "init_from")
"""Saved settings a resumed run does not take: its old folder (it may have moved) and the actor it started from
(the checkpoint holds the weights now)."""


# ---------------------------------------------------------------------- the recipe
def prepare(args: TrainArgs, trust: bool | None = None) -> tuple[TrainArgs, ActorWeights | None]:
    """``args`` checked as a run checks them (every refusal raises here, before anything is built), with the
    network of ``init_from``'s actor, and that actor (``None`` without ``init_from``)."""
    if args.resume:  # resuming unpickles the SB3 ``.zip``, which only a trusted file may be
        require_trust(args.resume, trust)  # before anything opens the archive
    check_args(args)
    if not args.init_from:
        return args, None
    from cardenvs.experiments.fine_tune import initial_actor  # its shape comes from the file

    return initial_actor(args, trust)


def train(args: TrainArgs, trust_checkpoint: bool | None = None) -> Path:
    """Train (or resume) as ``args`` say; returns the final checkpoint (``final.zip``, ``final.npz`` beside it).

    Resuming reads an SB3 ``.zip``, which can run code: it needs ``trust_checkpoint`` (``None``: the
    ``CARDENVS_TRUST_CHECKPOINTS`` environment variable; see :mod:`agents.learned.weights`)."""
    return run_prepared(*prepare(args, trust_checkpoint))


def run_prepared(args: TrainArgs, initial: ActorWeights | None) -> Path:
    """The run of :func:`train` on what :func:`prepare` returned (checked ``args``, ``init_from``'s actor)."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    torch.set_num_threads(args.torch_threads)
    out = args.run_dir()
    (out / "checkpoints").mkdir(parents=True, exist_ok=True)
    (out / "snapshots").mkdir(exist_ok=True)
    (out / "args.json").write_text(json.dumps(asdict(args), indent=2) + "\n")

    fns = [EnvFactory(args, i) for i in range(args.n_envs)]
    venv = VecMonitor(SubprocVecEnv(fns) if args.vec_env == "subproc" else DummyVecEnv(fns))  # type: ignore[arg-type]
    venv.seed(args.seed)
    probe = make_env(args, -1)
    context = PolicyContext.from_env(probe.env)
    scale = observation_scale(probe.env.layout)
    meta = {"env_id": context.env_id, "options": args.options}
    tb = str(out / "tb") if args.tensorboard else None

    hyper: dict[str, Any] = {
        "n_steps": args.n_steps,
        "batch_size": args.batch_size,
        "n_epochs": args.n_epochs,
        "learning_rate": learning_rate_schedule(args),
        "gamma": args.gamma,
        "gae_lambda": args.gae_lambda,
        "ent_coef": args.ent_coef,
        "clip_range": args.clip_range,
    }
    if args.resume:  # the weights (and optimizer state) of the checkpoint, the hyperparameters of ``args``
        model = MaskablePPO.load(args.resume, env=venv, device="cpu", tensorboard_log=tb, **hyper)
        venv.seed(args.seed + model.num_timesteps)  # fresh deals, not those the run started with
        for path in sorted((out / "snapshots").glob("step_*.npz"), key=_step_of)[-args.snapshot_recent :]:
            venv.env_method("add_snapshot", path.stem, Snapshot(ActorWeights.load(path), context))
    else:
        activation = torch.nn.Tanh if args.activation == "tanh" else torch.nn.ReLU
        model = MaskablePPO(
            "MlpPolicy",
            venv,
            **hyper,
            policy_kwargs={"net_arch": list(args.net_arch), "activation_fn": activation},
            tensorboard_log=tb,
            seed=args.seed,
            device="cpu",
            verbose=0,
        )

    def save(stem: Path) -> Path:
        model.save(stem.with_suffix(".zip"))
        ActorWeights.from_model(model, scale, {**meta, "steps": model.num_timesteps}).save(stem.with_suffix(".npz"))
        return stem.with_suffix(".zip")

    if args.imitate and not args.resume:
        from cardenvs.experiments.imitation import warm_start

        warm_start(model, args, out, scale, meta)
        save(out / "checkpoints" / "step_0")  # the imitation alone, before any PPO update
    if initial is not None:
        from cardenvs.experiments.fine_tune import start_from

        start_from(model, initial, args, out, scale, meta)
        save(out / "checkpoints" / "step_0")  # the starting actor with its fitted critic, before any PPO update

    class Periodic(BaseCallback):
        """Snapshots into the pool and checkpoints to disk, on their own schedules."""

        def __init__(self) -> None:
            super().__init__()
            self.next_snapshot = _next(model.num_timesteps, args.snapshot_every)
            self.next_checkpoint = _next(model.num_timesteps, args.checkpoint_every)

        def _on_step(self) -> bool:
            steps = self.model.num_timesteps
            if args.snapshot_every and steps >= self.next_snapshot:
                self.next_snapshot += args.snapshot_every
                weights = ActorWeights.from_model(self.model, scale, {**meta, "steps": steps})
                weights.save(out / "snapshots" / f"step_{steps}.npz")
                venv.env_method("add_snapshot", f"step_{steps}", Snapshot(weights, context))
            if args.checkpoint_every and steps >= self.next_checkpoint:
                self.next_checkpoint += args.checkpoint_every
                save(out / "checkpoints" / f"step_{steps}")
            return True

    remaining = max(0, args.total_steps - model.num_timesteps)
    start, started = time.perf_counter(), model.num_timesteps
    model.learn(
        remaining,
        callback=Periodic(),
        progress_bar=args.progress,
        reset_num_timesteps=not args.resume,
        tb_log_name="ppo",
    )
    seconds = time.perf_counter() - start
    final = save(out / "final")
    venv.close()
    done = model.num_timesteps - started
    print(f"{done} steps in {seconds:.0f} s ({done / max(seconds, 1e-9):.0f} steps/s); final checkpoint {final}")
    return final


@dataclass(frozen=True)
class LinearDecay:
    """Learning rate falling linearly from ``start`` to ``end`` over the steps from ``begin`` to ``total``.

    SB3 calls it with its ``progress_remaining`` (1 → 0 over the whole run, ``num_timesteps / total`` done), so a
    resumed phase decays over its own steps only."""

    start: float
    end: float
    begin: int
    total: int

    def __call__(self, progress_remaining: float) -> float:
        done = (1.0 - progress_remaining) * self.total
        fraction = min(1.0, max(0.0, (done - self.begin) / max(self.total - self.begin, 1)))
        return self.start + (self.end - self.start) * fraction


def learning_rate_schedule(args: TrainArgs) -> float | LinearDecay:
    """The constant learning rate, or a :class:`LinearDecay` over this run (or resumed phase) if ``lr_final``."""
    if args.lr_final is None:
        return args.learning_rate
    begin = _steps_of_checkpoint(args.resume) if args.resume else 0
    return LinearDecay(args.learning_rate, args.lr_final, begin, args.total_steps)


def _steps_of_checkpoint(path: str) -> int:
    from stable_baselines3.common.save_util import load_from_zip_file

    data, _, _ = load_from_zip_file(path, device="cpu", load_data=True)
    return int(data["num_timesteps"]) if data else 0


def _next(steps: int, every: int) -> int:
    return (steps // every + 1) * every if every else sys.maxsize


def _step_of(path: Path) -> int:
    return int(path.stem.split("_")[-1])


# ---------------------------------------------------------------------- command line
def load_config(game: str) -> dict[str, Any]:
    """The config file of a game (``experiments/configs/<game>.toml``), or ``{}`` if it has none."""
    path = CONFIGS / f"{game_name(game)}.toml"
    return tomllib.loads(path.read_text()) if path.exists() else {}


def config_file(given: str) -> Path:
    """``--config``: a TOML file, or the name of a shipped one (``verish_ne_verish_truthful_ppo`` reads
    ``experiments/configs/verish_ne_verish_truthful_ppo.toml`` of the installed package)."""
    path, shipped = Path(given), CONFIGS / f"{given}.toml"
    if path.is_file():
        return path
    if path.name == given and shipped.is_file():
        return shipped
    names = sorted(p.stem for p in CONFIGS.glob("*.toml"))
    raise SystemExit(f"error: --config {given}: no such file, nor a shipped config; shipped: {names}")


def parse_value(text: str) -> Any:
    """A command-line value read as TOML when it parses (``3``, ``true``, ``[64, 64]``), else as text."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def build_parser() -> argparse.ArgumentParser:
    """The command line: every :class:`TrainArgs` field as a flag, plus ``--trust-checkpoint`` (never saved)."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument(
        "--trust-checkpoint",
        action="store_true",
        help="allow --resume to unpickle its SB3 .zip (which can run code): only for files you trust",
    )
    p.add_argument("--config", help="TOML file, or a shipped config's name (default: the game's, experiments/configs)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override any field (TOML value)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="game option (TOML value)")
    p.add_argument(
        "--opponent", action="append", default=[], metavar="SPEC=WEIGHT", help="replace the pool's entries (any spec)"
    )
    for f in fields(TrainArgs):
        if f.name in ("options", "opponents", "net_arch"):
            continue
        flag = "--" + f.name.replace("_", "-")
        if f.type in ("bool",):
            p.add_argument(flag, action=argparse.BooleanOptionalAction, default=None)
        else:
            p.add_argument(flag, default=None, type=parse_value)
    return p


def build_args(argv: list[str] | None = None) -> TrainArgs:
    """Defaults < the game's config file (``--config``; when resuming, the run's ``args.json``) < ``--field value``
    flags < ``--set key=value``."""
    return args_from(build_parser().parse_args(argv))


def args_from(ns: argparse.Namespace) -> TrainArgs:
    """The :class:`TrainArgs` of a parsed command line (see :func:`build_args`)."""
    values: dict[str, Any] = {}
    saved = TrainArgs(resume=ns.resume).run_dir() / "args.json" if ns.resume else None
    if ns.config:
        values.update(tomllib.loads(config_file(ns.config).read_text()))
    elif saved is not None and saved.exists():  # a resumed run keeps its own settings, but for NOT_RESUMED
        values.update({k: v for k, v in json.loads(saved.read_text()).items() if k not in NOT_RESUMED})
    else:
        values.update(load_config(ns.game or TrainArgs.game))
    values.update({k: v for k, v in vars(ns).items() if v is not None and k in {f.name for f in fields(TrainArgs)}})
    for item in ns.set:
        key, _, value = item.partition("=")
        values[key] = parse_value(value)
    if ns.option:
        values["options"] = {**values.get("options", {}), **{k: parse_value(v) for k, _, v in map(_split, ns.option)}}
    if ns.opponent:
        values["opponents"] = {k: float(v) for k, _, v in map(_split_weight, ns.opponent)}
    unknown = set(values) - {f.name for f in fields(TrainArgs)}
    if unknown:
        raise SystemExit(f"unknown training settings {sorted(unknown)}; valid: {[f.name for f in fields(TrainArgs)]}")
    return TrainArgs(**values)


def _split(text: str) -> tuple[str, str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise SystemExit(f"expected KEY=VALUE, got {text!r}")
    return key, sep, value


def _split_weight(text: str) -> tuple[str, str, str]:
    """``SPEC=WEIGHT``, split at the last ``=`` (a spec may have ``?p=0.3`` parameters)."""
    spec, sep, weight = text.rpartition("=")
    try:
        float(weight)
    except ValueError:
        sep = ""
    if not sep or not spec:
        raise SystemExit(f"an opponent is written SPEC=WEIGHT (e.g. random=1 or mine.py:Bot?p=0.3=2), got {text!r}")
    return spec, sep, weight


def main(argv: list[str] | None = None) -> int:
    ns = build_parser().parse_args(argv)
    args = args_from(ns)
    try:  # a refused setting is one line on the terminal, not a traceback
        args, initial = prepare(args, ns.trust_checkpoint or None)
    except (ValueError, FileNotFoundError, UntrustedCheckpointError) as error:
        raise SystemExit(f"error: {error}") from error
    print(f"training {args.game} {args.options} for {args.total_steps} steps into {args.run_dir()}")
    run_prepared(args, initial)
    return 0


if __name__ == "__main__":
    sys.exit(main())
