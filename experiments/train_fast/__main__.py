"""Masked PPO on the JAX fast path, against a population (``docs/training.md``, "Training on the fast path").

    python -m cardenvs.experiments.train_fast --game verish_ne_verish-v0    # experiments/train_fast/configs/<game>.toml
    python -m cardenvs.experiments.train_fast --game kyuuri-v0 --total-steps 200000 --seed 1 --out runs/k1
    python -m cardenvs.experiments.train_fast --out runs/k1 --resume --total-steps 400000

A run writes ``args.json``, ``checkpoints/step_N.npz`` (the actor: ``ckpt:PATH`` plays it in the Python envs,
without JAX) with ``step_N.train.npz`` beside it (what ``--resume`` continues from), ``final.npz`` and
TensorBoard logs under ``tb/``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from cardenvs.experiments.train import parse_value
from cardenvs.experiments.train_fast.config import FastTrainArgs, check_args, default_config, load_toml, make_args


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m cardenvs.experiments.train_fast",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--game", help="env id with a fast path (default: the config's, else verish_ne_verish-v0)")
    p.add_argument("--total-steps", type=int, help="learner decisions to train on, in total")
    p.add_argument("--out", help="run folder (default runs/train_fast/<game>/seed<seed>)")
    p.add_argument("--config", help="TOML config (default experiments/train_fast/configs/<game>.toml)")
    p.add_argument("--seed", type=int)
    p.add_argument("--resume", action="store_true", help="continue from the run folder's newest checkpoint")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="any setting (TOML value)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a game option (TOML value)")
    return p


def args_from(ns: argparse.Namespace) -> FastTrainArgs:
    """Defaults < the config (``--config``; the game's; when resuming, the run's ``args.json``) < flags."""
    values: dict[str, Any] = {}
    flags = {"game": ns.game, "total_steps": ns.total_steps, "out": ns.out, "seed": ns.seed}
    flags = {name: value for name, value in flags.items() if value is not None}
    if ns.config:
        values.update(load_toml(Path(ns.config)))
    elif ns.resume:
        saved = make_args({**flags, "game": ns.game or FastTrainArgs.game}).run_dir() / "args.json"
        if not saved.exists():
            raise ValueError(f"--resume: {saved} does not exist (name the run folder with --out)")
        values.update(json.loads(saved.read_text()))
    else:
        values.update(default_config(ns.game or FastTrainArgs.game))
    values.update(flags)
    for item in ns.set:
        key, value = _split(item)
        values[key] = parse_value(value)
    if ns.option:
        values["options"] = {**values.get("options", {}), **{k: parse_value(v) for k, v in map(_split, ns.option)}}
    values["resume"] = ns.resume
    return make_args(values)


def _split(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise ValueError(f"expected KEY=VALUE, got {text!r}")
    return key, value


def main(argv: list[str] | None = None) -> int:
    ns = build_parser().parse_args(argv)
    try:  # a refused setting is one line on the terminal, not a traceback
        args = args_from(ns)
        from cardenvs.experiments.train_fast.trainer import train

        check_args(args)  # the cheap checks before the line below; building the game and the population checks the rest
        print(f"training {args.game} {args.options} for {args.total_steps} steps into {args.run_dir()}")
        train(args)
    except (ValueError, FileNotFoundError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
