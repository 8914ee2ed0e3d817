"""Convert a trusted SB3 ``.zip`` checkpoint into the pickle-free NumPy ``.npz`` that every policy loader reads.

    python -m cardenvs.experiments.convert_checkpoint runs/train/k1/final.zip --trust        # writes …/k1/final.npz
    python -m cardenvs.experiments.convert_checkpoint mine.zip --trust --game kyuuri-v0 --option num_players=3
    python -m cardenvs.experiments.convert_checkpoint runs/rllib/kyuuri/seed0/final --trust  # final/<module>.npz

Loading an SB3 ``.zip`` unpickles Python objects, so a crafted file can run any code: convert only files whose
origin you trust (``--trust`` says you do). The game and its options come from the run's ``args.json`` (the run
folder of ``experiments.train``) unless ``--game`` / ``--option`` give them; they fix the observation scale the
actor was trained with. ``experiments.train`` already writes the ``.npz`` beside each ``.zip``; this command is for
a ``.zip`` that lost it or came from elsewhere. An RLlib checkpoint folder (``experiments.train_rllib``'s, or any
PPO one with RLlib's default MLP) gets one ``<module>.npz`` per module; its modules are pickles too.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from cardenvs.agents.learned.weights import ActorWeights, require_trust
from cardenvs.experiments.train import TrainArgs, parse_value
from cardenvs.registry import make_raw
from cardenvs.wrappers import observation_scale


def game_of(checkpoint: Path, game: str | None, options: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The env id and options to convert for: ``game`` if given, else those of the checkpoint's run."""
    if game is not None:
        return game, options
    saved = TrainArgs(resume=str(checkpoint)).run_dir() / "args.json"
    if not saved.exists():
        raise SystemExit(f"{checkpoint} is not in a training run folder (no {saved}); name its game with --game")
    args = json.loads(saved.read_text())
    return args["game"], {**args.get("options", {}), **options}


def convert(checkpoint: Path, out: Path, game: str, options: dict[str, Any], trust: bool) -> Path:
    """Write the actor of ``checkpoint`` to ``out``; refuses unless ``trust``."""
    require_trust(checkpoint, trust)
    from sb3_contrib import MaskablePPO  # torch: only here, for a file the user trusts

    env = make_raw(game, **options)
    model = MaskablePPO.load(checkpoint, device="cpu")
    meta = {"env_id": env.definition.env_id, "options": options, "steps": model.num_timesteps, "from": str(checkpoint)}
    weights = ActorWeights.from_model(model, observation_scale(env.layout), meta)
    if weights.action[0].shape[0] != env.action_table.size:
        raise SystemExit(
            f"{checkpoint} has {weights.action[0].shape[0]} actions, {game} {options} has {env.action_table.size}"
        )
    return weights.save(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("checkpoint", type=Path, help="an SB3 .zip of experiments.train, or an RLlib checkpoint folder")
    p.add_argument("--trust", action="store_true", help="you trust the file's origin (loading it can run code)")
    p.add_argument("--game", help="env id (default: from the run's args.json)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="game option (TOML value)")
    p.add_argument("--out", type=Path, help="the .npz to write (default: beside the .zip)")
    ns = p.parse_args(argv)
    is_rllib = ns.checkpoint.is_dir()
    if not is_rllib and (not ns.checkpoint.is_file() or ns.checkpoint.suffix != ".zip"):
        raise SystemExit(f"no SB3 .zip checkpoint or RLlib checkpoint folder at {ns.checkpoint}")
    options = {key: parse_value(value) for key, _, value in (o.partition("=") for o in ns.option)}
    game, options = game_of(ns.checkpoint, ns.game, options)
    if is_rllib:
        from cardenvs.experiments.train_rllib import convert_checkpoint

        try:
            for path in convert_checkpoint(ns.checkpoint, game, options, ns.trust):
                print(f"wrote {path} ({game} {options}); it loads without pickle as ckpt:{path}")
        except ValueError as error:
            raise SystemExit(f"error: {error}") from error
        return 0
    try:
        written = convert(ns.checkpoint, ns.out or ns.checkpoint.with_suffix(".npz"), game, options, ns.trust)
    except ValueError as error:
        raise SystemExit(f"error: {error}") from error
    print(f"wrote {written} ({game} {options}); it loads without pickle as ckpt:{written}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
