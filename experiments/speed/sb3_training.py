"""Training throughput: our tuned MaskablePPO setup beside the PettingZoo SB3 tutorial's setup, interleaved (SB3
only; :mod:`.fast_training` measures the JAX trainer).

    python -m cardenvs.experiments.speed.sb3_training --game verish_ne_verish-v0 --steps 30000 --reps 2

The baseline reproduces the setup of PettingZoo's "SB3: Action Masked PPO" tutorial (written anew here, see
:class:`TutorialStyleEnv`): the AEC env (with PettingZoo's wrappers) seen as one gymnasium env in which the
same network plays every seat, masks through sb3-contrib's ``ActionMasker``, a single env and MaskablePPO with
its defaults (n_steps 2048, batch 64, 10 epochs, torch's default threads). The tuned setup is
``experiments.train`` (a :class:`~cardenvs.wrappers.SeatEnv` per env, the game's config for opponents) with
the throughput settings given here. Both count PPO timesteps (decisions trained on) per second of ``learn``.
Runs alternate so that both see the same load on a shared machine; the table gives the median of each.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from typing import Any

import gymnasium
import numpy as np

from cardenvs.registry import make


class TutorialStyleEnv(gymnasium.Env[np.ndarray, np.int64]):
    """The tutorial's single-agent view of an AEC env, kept to its behaviour, bugs included.

    Every seat is played by the learner in turn. ``step`` returns the observation of the *next* agent to act
    and the reward, termination and truncation of the agent that *just moved*. When a move ends the game, only
    the mover's reward is returned and the episode is over: the other seats' terminal rewards (the loser's
    −1 when the winner goes out) never reach the learner, and with more than two players each transition's
    next observation belongs to a different seat than its own."""

    def __init__(self, aec: Any):
        self.aec = aec
        first = aec.possible_agents[0]
        self.observation_space = aec.observation_space(first)["observation"]
        self.action_space = aec.action_space(first)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        self.aec.reset(seed=seed)
        return self.aec.observe(self.aec.agent_selection)["observation"], {}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        mover = self.aec.agent_selection
        self.aec.step(int(action))
        following = self.aec.agent_selection
        return (
            self.aec.observe(following)["observation"],
            float(self.aec._cumulative_rewards[mover]),
            bool(self.aec.terminations[mover]),
            bool(self.aec.truncations[mover]),
            dict(self.aec.infos[mover]),
        )

    def action_mask(self) -> np.ndarray:
        return np.asarray(self.aec.observe(self.aec.agent_selection)["action_mask"], dtype=bool)


def _tutorial_mask(env: Any) -> np.ndarray:
    """``ActionMasker``'s mask function: the wrapped tutorial env's mask."""
    mask: np.ndarray = env.unwrapped.action_mask()
    return mask


def tutorial_run(game: str, options: dict[str, Any], steps: int, seed: int, threads: int) -> float:
    """Steps/s of the tutorial's setup: one env, MaskablePPO defaults, torch's default thread count."""
    import torch
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from sb3_contrib.common.wrappers import ActionMasker

    env = ActionMasker(TutorialStyleEnv(make(game, **options)), _tutorial_mask)
    torch.set_num_threads(threads)  # the tuned runs set their own; give the baseline torch's default back
    model = MaskablePPO(MaskableActorCriticPolicy, env, seed=seed, verbose=0, device="cpu")
    start = time.perf_counter()
    model.learn(steps)
    return model.num_timesteps / (time.perf_counter() - start)


def tuned_run(game: str, steps: int, seed: int, settings: dict[str, Any]) -> float:
    """Steps/s of ``experiments.train`` with the game's config and ``settings`` (PPO only: no warm start,
    snapshots or logs)."""
    from cardenvs.experiments.train import TrainArgs, load_config, train

    base = TrainArgs(**{**load_config(game), "game": game})
    with tempfile.TemporaryDirectory() as out:
        args = replace(
            base,
            total_steps=steps,
            seed=seed,
            out=out,
            progress=False,
            tensorboard=False,
            snapshot_every=0,
            checkpoint_every=0,
            imitate="",
            **settings,
        )
        start = time.perf_counter()
        train(args)
        return args.total_steps / (time.perf_counter() - start)


def _runs(values: list[float]) -> str:
    return ", ".join(f"{x:.0f}" for x in values)


def main(argv: list[str] | None = None) -> str:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="verish_ne_verish-v0")
    p.add_argument("--steps", type=int, default=30_000, help="PPO timesteps per run")
    p.add_argument("--reps", type=int, default=2, help="runs of each setup, alternating")
    p.add_argument("--n-envs", type=int, default=8)
    p.add_argument("--n-steps", type=int, default=256)
    p.add_argument("--batch-size", type=int, default=512)
    p.add_argument("--n-epochs", type=int, default=4)
    p.add_argument("--torch-threads", type=int, default=1)
    p.add_argument("--tutorial-threads", type=int, help="torch threads of the baseline (default: torch's default)")
    ns = p.parse_args(argv)
    import torch

    from cardenvs.experiments.train import load_config

    default_threads = ns.tutorial_threads or torch.get_num_threads()
    options = load_config(ns.game).get("options", {})
    settings = {k: getattr(ns, k) for k in ("n_envs", "n_steps", "batch_size", "n_epochs", "torch_threads")}
    tutorial: list[float] = []
    tuned: list[float] = []
    tuned_random: list[float] = []
    for rep in range(ns.reps):
        tutorial.append(tutorial_run(ns.game, options, ns.steps, rep, default_threads))
        tuned.append(tuned_run(ns.game, ns.steps, rep, settings))
        tuned_random.append(tuned_run(ns.game, ns.steps, rep, {**settings, "opponents": {"random": 1.0}}))
        print(
            f"rep {rep}: tutorial {tutorial[-1]:.0f}, tuned {tuned[-1]:.0f}, {tuned_random[-1]:.0f} steps/s", flush=True
        )
    a = statistics.median(tutorial)
    b, c = statistics.median(tuned), statistics.median(tuned_random)
    text = "\n".join(
        [
            f"`{ns.game}` {options}, {ns.steps} timesteps per run, {ns.reps} runs each, interleaved; tuned: {settings}",
            "",
            "| setup | steps/s (median) | runs | vs tutorial |",
            "|---|---|---|---|",
            f"| PettingZoo SB3 tutorial style (1 env, MaskablePPO defaults, {default_threads} torch threads) | {a:.0f} "
            f"| {_runs(tutorial)} | 1× |",
            f"| experiments.train, the config's opponents | {b:.0f} | {_runs(tuned)} | {b / a:.2f}× |",
            f"| experiments.train, random opponents | {c:.0f} | {_runs(tuned_random)} | {c / a:.2f}× |",
        ]
    )
    print(text)
    return text


if __name__ == "__main__":
    main()
    sys.exit(0)
