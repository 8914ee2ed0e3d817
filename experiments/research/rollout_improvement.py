"""One step of policy iteration on a rule bot: roll out every legal move, learn the advantages, play the best.

Produced: the zoo's ``goninkan/improved``, ``yoninkan/improved``, ``zheng_shang_you/improved``, (``fit --features
context``) ``zheng_shang_you/improved_context`` and (``--features control``) ``zheng_shang_you/improved_control``
agents (``agents/zoo/<game>/<name>.npz``); reported in docs/training.md, section "Beyond PPO: one step of policy
iteration on the bot (Goninkan)". The last two are in its sections "Zheng Shang You: the move's situation spelled
out" and "Zheng Shang You: the hand's controls, and a second step that reads them".

Approximate policy iteration with rollouts (Lagoudakis & Parr 2003; Bertsekas' rollout algorithm). Goninkan's bot
is hard to pass with PPO (docs/training.md); this improves on the bot directly:

1. ``collect`` lets the base bot play every seat. At each decision with two or more legal actions, every legal
   action is tried on a clone of the true state and the episode is played out by the bot at every seat; the seat's
   return after each action minus its return after the bot's own action is that action's *advantage in this
   world*. The clones share the world's future chance (a clone takes the generator's state) and the bots restart
   from one seed for every action, so an action that changes nothing has advantage exactly 0.
2. ``fit`` (:mod:`experiments.research.advantage_fit`) fits a small network on features of the situation and of each
   card play (:mod:`agents.learned.goninkan_advantage`) to those advantages; the agent plays the bot's move unless the
   network rates another play more than a margin above it. The regression averages over the hidden worlds that look
   alike, so it estimates the advantage given what the player sees, not a value that peeks at hidden cards.

The motivation is the policy improvement theorem: against the bot, playing the action of the largest true
advantage everywhere is at least as good as the bot. The fit only estimates that advantage, from features that
can make different situations look alike, so the margin keeps the bot's move where the estimated gain is small;
whether the result beats the bot is measured in tournaments.

    python -m cardenvs.experiments.research.rollout_improvement collect --game goninkan-v1 --rounds 150 --seed 1 \\
        --out runs/api/g
    python -m cardenvs.experiments.research.rollout_improvement fit runs/api/g
    python -m cardenvs.experiments.training_results --game goninkan-v1 --checkpoint runs/api/g/final.npz --games 4800

Each ``collect`` writes one shard, ``rollouts_seed<seed>.npz`` (pickle-free, :mod:`experiments.research.rollout_data`);
``fit`` reads every shard of the folder, holds out the first ones, and writes ``final.npz`` (``ckpt:`` and ``zoo:``
specs play it), ``improve.json`` (the held-out gains) and ``args.json``. Zheng Shang You's plays take several
sub-step actions, so its rollouts are of whole moves, with a sample of a lead's many plays
(:mod:`experiments.research.move_rollouts`, shards ``moves_seed<seed>.npz``), and its network reads the observation
with each move's features (:mod:`agents.learned.zsy_advantage`):

    python -m cardenvs.experiments.research.rollout_improvement collect --game zheng_shang_you-v0 \
        --option num_players=4 --option episode=deal --rounds 250 --seed 0 --out runs/zsy
    python -m cardenvs.experiments.research.rollout_improvement fit runs/zsy --hidden 128,128 --epochs 1 \
        --learning-rate 3e-4
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

import cardenvs
from cardenvs.agents.base import PlanningPolicy, Policy, PolicyContext
from cardenvs.agents.specs import make_policy
from cardenvs.core.engine import RulesEngine
from cardenvs.experiments.research.advantage_fit import FEATURE_SETS, MARGIN_RULES, FitSettings, improve
from cardenvs.experiments.research.move_rollouts import GAMES as MOVE_GAMES
from cardenvs.experiments.research.move_rollouts import SHARD_PREFIX, MoveRollouts, collect_moves
from cardenvs.experiments.research.playout import play_out, seated
from cardenvs.experiments.research.rollout_data import Rollouts
from cardenvs.experiments.tournament import parse_option
from cardenvs.registry import game_name


def advantages_at(
    table: RulesEngine[Any], base: int, bots: Sequence[Policy], seed: int, plan: Sequence[int] = ()
) -> np.ndarray:
    """For the player to move in ``table`` (left as it is): each legal action's return to the end of the episode,
    the bots playing on, minus the return after ``base``; NaN for illegal actions. Before each action's playout the
    bots restart from ``seed`` (the same draws whichever action was taken) and the mover's bot holds ``plan``, the
    rest of the move its own bot had planned (the second card of a show)."""
    seat, mask = table.current_player, table.legal_mask()
    returns = np.full(len(mask), np.nan, dtype=np.float32)
    for action in np.flatnonzero(mask):
        for offset, bot in enumerate(bots):
            bot.reset(seed + offset)
        mover = bots[seat]
        if isinstance(mover, PlanningPolicy):
            mover.plan = list(plan)
        world = table.clone()
        world.apply(int(action))
        paid = world.take_rewards()
        returns[action] = play_out(world, bots)[seat] + (0.0 if paid is None else paid[seat])
    return returns - returns[base]


def collect(game: str, options: dict[str, Any], base: str, rounds: int, seed: int, opponents: str = "") -> Rollouts:
    """``rounds`` episodes of ``base`` at every seat, each decision with two or more legal actions evaluated; with
    ``opponents``, the mover plays on as ``base`` in the rollouts and every other seat as ``opponents``."""
    env = cardenvs.make(game, **options)
    env.reset(seed=seed)
    context = PolicyContext.from_env(env)
    seats = env.unwrapped.game.num_players
    players = [make_policy(base, context, seed + seat) for seat in range(seats)]
    rollers = [make_policy(base, context, seed + 100 + seat) for seat in range(seats)]
    others = [make_policy(opponents, context, seed + 200 + seat) for seat in range(seats)] if opponents else rollers
    observations, masks, base_actions, advantages = [], [], [], []
    rng = np.random.default_rng(seed)
    for _ in range(rounds):
        deal = int(rng.integers(2**31))
        env.reset(seed=deal)
        table = env.unwrapped.game
        table.take_rewards()
        for bot in players:
            bot.reset(int(rng.integers(2**31)))
        while not table.is_terminal:
            seat, mask = table.current_player, table.legal_mask()
            observation = table.observation(seat)
            mover = players[seat]
            action = mover.act({"observation": observation, "action_mask": mask})
            if np.count_nonzero(mask) > 1:
                plan = mover.plan if isinstance(mover, PlanningPolicy) else []
                observations.append(observation.astype(np.float16))
                masks.append(mask.astype(bool))
                base_actions.append(action)
                bots = seated(rollers, others, seat)
                advantages.append(advantages_at(table, action, bots, deal + len(base_actions), plan))
            table.apply(action)
            table.take_rewards()
    return Rollouts(
        np.asarray(observations),
        np.asarray(masks),
        np.asarray(base_actions, dtype=np.int64),
        np.asarray(advantages),
        rounds,
        game,
        options,
        _recorded_base(game, base),
        opponents,
    )


def _recorded_base(game: str, base: str) -> str:
    """``base`` as shards record it: empty for the game's rule bot."""
    return "" if base == f"{game_name(game)}/rule" else base


def _collect_job(job: tuple[str, dict[str, Any], str, int, int, str]) -> Rollouts | MoveRollouts:
    game, options, base, rounds, seed, opponents = job
    if game_name(game) in MOVE_GAMES:
        return collect_moves(game, options, rounds, seed, base=_recorded_base(game, base), opponents=opponents)
    return collect(*job)


def collect_in_parallel(
    game: str, options: dict[str, Any], base: str, rounds: int, seed: int, workers: int, opponents: str = ""
) -> Rollouts | MoveRollouts:
    """:func:`collect` split over ``workers`` processes, each with its share of the rounds and its own seed."""
    seeds = [int(s.generate_state(1)[0]) for s in np.random.SeedSequence(seed).spawn(workers)]
    shares = [rounds // workers + (i < rounds % workers) for i in range(workers)]
    jobs = [(game, options, base, share, s, opponents) for share, s in zip(shares, seeds, strict=True)]
    if workers == 1:
        return _collect_job(jobs[0])
    with ProcessPoolExecutor(workers) as pool:
        parts = list(pool.map(_collect_job, jobs))
    if all(isinstance(part, MoveRollouts) for part in parts):
        return MoveRollouts.concatenate(parts)  # type: ignore[arg-type]
    return Rollouts.concatenate(parts)  # type: ignore[arg-type]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m cardenvs.experiments.research.rollout_improvement",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True)
    gather = commands.add_parser("collect", help="roll out every legal action of the base bot's decisions")
    gather.add_argument("--game", required=True, help="an env id, e.g. goninkan-v1")
    gather.add_argument("--option", action="append", default=[], type=parse_option, help="game option key=value")
    gather.add_argument("--base", default=None, help="the base policy (default: GAME/rule)")
    gather.add_argument(
        "--opponents", default="", help="what the other seats play in the rollouts (default: the base policy)"
    )
    gather.add_argument("--rounds", type=int, required=True, help="episodes to play")
    gather.add_argument("--seed", type=int, default=0, help="also names the shard: rollouts_seedN.npz")
    gather.add_argument("--workers", type=int, default=1)
    gather.add_argument("--out", type=Path, required=True, help="the folder of shards")
    fit = commands.add_parser("fit", help="fit the move-advantage network on a folder of shards")
    fit.add_argument("folder", type=Path, help="a folder of shards from collect")
    defaults = FitSettings()
    for name, value in vars(defaults).items():
        choices = {"margin_rule": sorted(MARGIN_RULES), "features": list(FEATURE_SETS)}.get(name)
        fit.add_argument("--" + name.replace("_", "-"), type=type(value), default=value, choices=choices)
    return parser


def main(argv: list[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    if args.command == "fit":
        settings = FitSettings(**{name: getattr(args, name) for name in vars(FitSettings())})
        print(json.dumps(improve(args.folder, settings), indent=1))
        return
    if args.rounds < 1 or args.workers < 1:
        raise SystemExit(f"error: --rounds and --workers must be at least 1, got {args.rounds} and {args.workers}")
    base = args.base or f"{game_name(args.game)}/rule"
    args.out.mkdir(parents=True, exist_ok=True)
    clock = time.perf_counter()
    data = collect_in_parallel(args.game, dict(args.option), base, args.rounds, args.seed, args.workers, args.opponents)
    prefix = SHARD_PREFIX if isinstance(data, MoveRollouts) else "rollouts_seed"
    path = data.save(args.out / f"{prefix}{args.seed}.npz")
    seconds = round(time.perf_counter() - clock, 1)
    summary = {
        "base": base,
        "opponents": args.opponents or base,
        "rounds": data.rounds,
        "rows": len(data),
        "seconds": seconds,
    }
    print(json.dumps(summary), "->", path)


if __name__ == "__main__":
    main()
