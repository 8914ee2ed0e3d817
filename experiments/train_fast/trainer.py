"""The run: build the program of a config (PPO's or Deep Monte-Carlo's), iterate it, snapshot, log and checkpoint
between iterations."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from cardenvs.agents.base import PolicyContext
from cardenvs.agents.learned.weights import context_layout_hash
from cardenvs.experiments.train_fast.checkpoint import STATE_SUFFIX, Resumable, latest_state, load_state, save_state
from cardenvs.experiments.train_fast.config import FastTrainArgs, check_args
from cardenvs.experiments.train_fast.dmc import Dmc
from cardenvs.experiments.train_fast.networks import (
    ActionValues,
    ActorCritic,
    epsilon_greedy,
    init_action_values,
    init_actor_critic,
    sample,
    stack,
    to_actor_weights,
)
from cardenvs.experiments.train_fast.population import BotFactory, build_blocks
from cardenvs.experiments.train_fast.ppo import Program
from cardenvs.experiments.train_fast.rollout import compile_iteration
from cardenvs.experiments.train_fast.updates import optimizer
from cardenvs.experiments.train_fast.warm_start import starting_weights, warm_started
from cardenvs.registry import definition, make_raw
from cardenvs.wrappers import observation_scale


@dataclass(frozen=True)
class RunResult:
    """Where the run ended and how fast it went."""

    final: Path
    """The last actor (``final.npz``), for ``ckpt:``."""
    steps: int
    """Learner decisions in total (a resumed run's included)."""
    steps_now: int
    seconds: float
    """Wall time of the iterations after the first (compiling) call."""
    compile_seconds: float

    @property
    def steps_per_second(self) -> float:
        return self.steps_now / max(self.seconds, 1e-9)


@dataclass(frozen=True)
class Setup:
    """A checked config made concrete: the program, its game context and a fresh start."""

    program: Program | Dmc
    context: PolicyContext
    meta: dict[str, Any]
    fresh: Resumable


def setup(args: FastTrainArgs, bots: Mapping[str, BotFactory] | None = None) -> Setup:
    """Check ``args`` and build what a run needs (``ValueError`` for any refused setting)."""
    check_args(args)
    env_id = definition(args.game).env_id
    env = definition(env_id).part("fast")(**args.options)
    context = PolicyContext.from_env(make_raw(env_id, **args.options))
    scale = observation_scale(context.layout)
    dmc = args.algorithm == "dmc"
    pick = partial(epsilon_greedy, epsilon=args.epsilon) if dmc else sample
    blocks = build_blocks(
        args.population, args.num_games, context, args.options, args.snapshot_recent, scale, bots, pick
    )
    program = (Dmc if dmc else Program)(env, blocks, args, scale, context.num_players)
    key, init_key = jax.random.split(jax.random.PRNGKey(args.seed))
    sizes = (context.layout.size, context.actions.size, args.net_arch, args.activation)
    model: ActorCritic | ActionValues
    if dmc:
        model = init_action_values(init_key, *sizes)
    else:
        model = init_actor_critic(init_key, *sizes)
        if args.init_from:  # check_args refuses it with dmc
            weights = starting_weights(args.init_from, context, scale)
            model = warm_started(model, weights, args.net_arch, args.activation)
    snapshots = stack([model.played] * args.snapshot_recent)
    fresh = Resumable(model, optimizer(args).init(model), snapshots, key, 0, 0)
    meta = {"env_id": env_id, "options": args.options, "layout_hash": context_layout_hash(context)}
    if dmc:  # its outputs are action values: ckpt-greedy: plays their argmax (docs/training.md)
        meta["algorithm"] = "dmc"
    return Setup(program, context, {**meta, "trainer": "experiments.train_fast"}, fresh)


def train(
    args: FastTrainArgs,
    compiler_options: dict[str, Any] | None = None,
    bots: Mapping[str, BotFactory] | None = None,
) -> RunResult:
    """Train (or resume, with ``args.resume``) as ``args`` say; ``compiler_options`` go to XLA (tests compile
    quickly), ``bots`` replaces ``agents.fast_bots.FAST_BOTS`` (tests)."""
    built = setup(args, bots)
    out = args.run_dir()
    run = built.fresh
    if args.resume:
        path = latest_state(out)
        if path is None:
            raise ValueError(f"--resume: no checkpoint in {out / 'checkpoints'} to continue from")
        run = load_state(path, built.fresh)
        run = run._replace(key=jax.random.fold_in(run.key, run.steps))  # fresh deals, not those of the start
    (out / "checkpoints").mkdir(parents=True, exist_ok=True)
    (out / "args.json").write_text(json.dumps(asdict(args), indent=2) + "\n")
    program = built.program
    state = program.start(run)
    start = time.perf_counter()
    iterate = compile_iteration(program.iteration, state, args, compiler_options)
    compile_seconds = time.perf_counter() - start
    log = Log(out, args) if args.tensorboard or args.progress else None
    steps, taken, started, timed_from = run.steps, run.snapshots_taken, run.steps, None
    next_checkpoint = _next(steps, args.checkpoint_every)
    clock = time.perf_counter()

    def save(stem: str) -> Path:
        actor = to_actor_weights(state.model.played, program.obs_scale, {**built.meta, "steps": steps})
        saved = actor.save(out / "checkpoints" / f"{stem}.npz")
        save_state(out / "checkpoints" / f"{stem}{STATE_SUFFIX}", Resumable(*_resumable(state), steps, taken))
        return saved

    deadline = time.perf_counter() + 60 * args.max_minutes if args.max_minutes else float("inf")
    while steps < args.total_steps and time.perf_counter() < deadline:
        rate = _learning_rate(args, steps)
        state, stats = iterate(state, jnp.asarray(rate, jnp.float32))
        stats = jax.device_get(stats)
        if timed_from is None:  # the first call's time is mostly XLA's warm-up: time the others
            timed_from, clock = steps + int(stats["learner_decisions"]), time.perf_counter()
        steps += int(stats["learner_decisions"])
        if steps >= (taken + 1) * args.snapshot_every:
            slot = taken % args.snapshot_recent
            ring = jax.tree.map(lambda ring, new, at=slot: ring.at[at].set(new), state.snapshots, state.model.played)
            state, taken = state._replace(snapshots=ring), taken + 1
        if log is not None:
            log.write(steps, rate, stats)
        if steps >= next_checkpoint:
            save(f"step_{steps}")
            next_checkpoint = _next(steps, args.checkpoint_every)
    seconds = time.perf_counter() - clock
    save(f"step_{steps}")
    final = to_actor_weights(state.model.played, program.obs_scale, {**built.meta, "steps": steps})
    final_path = final.save(out / "final.npz")
    if log is not None:
        log.close()
    timed = steps - (timed_from if timed_from is not None else steps)
    result = RunResult(final_path, steps, timed, seconds, compile_seconds)
    if args.progress:
        print(
            f"{steps - started} steps ({result.steps_per_second:,.0f} steps/s after the first iteration; "
            f"compiled in {compile_seconds:.0f} s); final checkpoint {final_path}"
        )
    return result


def _resumable(state: Any) -> tuple[Any, Any, Any, jax.Array]:
    return state.model, state.opt_state, state.snapshots, state.key


def _learning_rate(args: FastTrainArgs, steps: int) -> float:
    if args.lr_final is None:
        return args.learning_rate
    done = min(1.0, steps / args.total_steps)
    return args.learning_rate + (args.lr_final - args.learning_rate) * done


def _next(steps: int, every: int) -> int:
    return (steps // every + 1) * every if every > 0 else 2**62


class Log:
    """TensorBoard scalars (``<run>/tb``) and a progress line every 10 seconds."""

    def __init__(self, out: Path, args: FastTrainArgs):
        self.args, self.writer, self.printed, self.last_steps = args, None, time.perf_counter(), 0
        if args.tensorboard:
            from tensorboardX import SummaryWriter

            self.writer = SummaryWriter(str(out / "tb"))

    def write(self, steps: int, rate: float, stats: Mapping[str, Any]) -> None:
        scores = {}
        for name in stats:
            if name.startswith("return_vs/"):
                opponent = name.removeprefix("return_vs/")
                episodes = float(stats[f"episodes_vs/{opponent}"])
                if episodes:
                    scores[opponent] = float(stats[name]) / episodes
        if self.writer is not None:
            for name, value in stats.items():
                if not name.startswith(("return_vs/", "episodes_vs/")):
                    self.writer.add_scalar(f"train/{name}", float(np.asarray(value)), steps)
            for opponent, score in scores.items():
                self.writer.add_scalar(f"score_vs/{opponent}", score, steps)
            self.writer.add_scalar("train/learning_rate", rate, steps)
        now = time.perf_counter()
        if self.args.progress and now - self.printed >= 10:
            speed = (steps - self.last_steps) / (now - self.printed)
            vs = ", ".join(f"{name} {score:+.3f}" for name, score in scores.items())
            shown = "entropy" if "entropy" in stats else "loss"
            line = f"{steps:,} steps, {speed:,.0f}/s, {shown} {float(stats[shown]):.3f}"
            print(line + (f"; vs {vs}" if vs else ""), flush=True)
            self.printed, self.last_steps = now, steps

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
