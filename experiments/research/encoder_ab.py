"""Interleaved A/B of an observation encoder in one process: a game's AEC loop over the same seeded games with its
encoder as registered (A) and with another encoder swapped in (B), beside PettingZoo's leduc raw env seeded once, in
decisions per second of thread CPU time (the machine is shared, so wall time would measure the neighbours); and, with
``--base``, each encoder's µs per observation of the player to act over the same games.

Produced: the observation-encoder measurements; reported in docs/benchmarks.md, section "Round 4: observations kept
between events (issue 22 item 2)".

    python -m cardenvs.experiments.research.encoder_ab [--rounds 5] [--games 3] [--only yukushi-v0] \\
        [--base cardenvs_base]

B, where a game's encoding module has an ``encode_uncached`` (an encoder that keeps observations between steps
and its from-scratch twin, as tried in round 4 of docs/benchmarks.md), is that twin.
``--base NAME`` adds the games of an older checkout in the same process: a copy of its ``cardenvs`` folder renamed
``NAME`` (every ``cardenvs.`` import in it rewritten), on ``PYTHONPATH``.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import statistics
import time
from functools import partial
from typing import Any

import numpy as np

import cardenvs
from cardenvs.testing.rollout import random_legal_action

GAMES: dict[str, tuple[dict[str, Any], str]] = {
    "verish_ne_verish-v0": ({"num_players": 6}, "cardenvs.verish_ne_verish.encoding"),
    "yukushi-v0": ({"num_players": 8}, "cardenvs.yukushi.encoding"),
}
"""Env id → (benchmark options, the module whose ``encode_uncached`` is B)."""


def _leduc_rate(env: Any, rng: np.random.Generator, seconds: float) -> float:
    """PettingZoo leduc raw (seeded once, then plain resets), decisions per second of thread CPU time."""
    made = 0
    start = time.thread_time()
    while time.thread_time() - start < seconds:
        env.reset()
        made += _play(env, rng)
    return made / (time.thread_time() - start)


def _play(env: Any, rng: np.random.Generator) -> int:
    """One game of random legal play from the env's reset state; returns its decisions."""
    made = 0
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(random_legal_action(obs["action_mask"], rng))
        made += 1
    return made


def _games_rate(env: Any, seeds: range) -> float:
    """The same seeded games for A and B (a game's length and mix of decisions vary a lot between deals)."""
    made = 0
    start = time.thread_time()
    for seed in seeds:
        env.reset(seed=seed)
        made += _play(env, np.random.default_rng(seed))
    return made / (time.thread_time() - start)


def _encoder_costs(env_id: str, options: dict[str, Any], base: str, games: int) -> dict[str, float]:
    """µs of thread CPU time per observation of the player to act, the way the AEC loop asks for it (once per
    decision), by the kept encoder (A), the from-scratch one (B) and the older checkout's (base), over the same
    seeded games played in lockstep by this checkout's env and the older one's."""
    module = importlib.import_module(GAMES[env_id][1])
    new = cardenvs.make_raw(env_id, **options)
    old = importlib.import_module(f"{base}.registry").make_raw(env_id, **options)
    spent = {"A": 0, "B": 0, "base": 0}
    made = 0
    for seed in range(games):
        new.reset(seed=seed)
        old.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _agent in new.agent_iter():
            _, _, terminated, truncated, _ = new.last(observe=False)  # observing here would fill the cache
            game: Any = new.game
            action = None if terminated or truncated else random_legal_action(game.legal_mask(), rng)
            if action is not None:
                old_game: Any = old.game
                me = game.current_player
                encoders = [("A", game.observation), ("base", old_game.observation)]
                if hasattr(module, "encode_uncached"):
                    encoders.insert(1, ("B", partial(module.encode_uncached, game, out=None)))
                turn = made % len(encoders)  # the first call after a step runs slower: each encoder takes it in turn
                for name, encode in encoders[turn:] + encoders[:turn]:
                    start = time.thread_time_ns()
                    encode(me)
                    spent[name] += time.thread_time_ns() - start
                made += 1
            new.step(action)
            old.step(action)
    return {name: ns / made / 1000 if ns else float("nan") for name, ns in spent.items()}


def _set_observer(engine_type: Any, observer: Any) -> None:
    if observer is not None:
        engine_type.observer = observer


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=0.4, help="leduc's time per round")
    parser.add_argument("--games", type=int, default=3, help="seeded games of each env per round, for A and B")
    parser.add_argument("--only", nargs="*", default=list(GAMES))
    parser.add_argument(
        "--base", default="", help="a package holding an older checkout's cardenvs under another name, run as 'base'"
    )
    args = parser.parse_args(argv)
    leduc = importlib.import_module("pettingzoo.classic.leduc_holdem_v4").raw_env()
    leduc.reset(seed=0)
    leduc_rng = np.random.default_rng(0)
    rates: dict[str, list[float]] = {"leduc": []}
    for _ in range(args.rounds):
        rates["leduc"].append(_leduc_rate(leduc, leduc_rng, args.seconds))
    for env_id in args.only:
        options, module = GAMES[env_id]
        env = cardenvs.make_raw(env_id, **options)
        env.reset(seed=0)
        engine_type: Any = type(env.game)
        observer = engine_type.observer
        uncached = getattr(importlib.import_module(module), "encode_uncached", None)
        variants = {"A": (env, observer)}
        if uncached is not None:  # (a checkout from before the cache has no B)
            variants["B"] = (env, dataclasses.replace(observer, encode=uncached))
        if args.base:
            base_env = importlib.import_module(f"{args.base}.registry").make_raw(env_id, **options)
            variants["base"] = (base_env, None)
        for played, encoder in variants.values():
            _set_observer(engine_type, encoder)
            _games_rate(played, range(args.games))  # warm-up
        for round_ in range(args.rounds):
            seeds = range(round_ * args.games, (round_ + 1) * args.games)
            # the order turns round by round: the first pass over new seeds runs measurably slower
            names = list(variants)
            for name in names[round_ % len(names) :] + names[: round_ % len(names)]:
                played, encoder = variants[name]
                _set_observer(engine_type, encoder)
                rates.setdefault(f"{env_id} {name}", []).append(_games_rate(played, seeds))
            rates["leduc"].append(_leduc_rate(leduc, leduc_rng, args.seconds))
        engine_type.observer = observer
    if args.base:
        print("| game | µs per observation: A (kept) | B (from scratch) | base |")
        print("|---|---|---|---|")
        for env_id in args.only:
            costs = _encoder_costs(env_id, GAMES[env_id][0], args.base, args.games)
            print(f"| {env_id} | {costs['A']:.1f} | {costs['B']:.1f} | {costs['base']:.1f} |")
    base = statistics.median(rates["leduc"])
    print(f"| loop | decisions/s (median of {args.rounds}) | × leduc |")
    print("|---|---|---|")
    for name, values in rates.items():
        median = statistics.median(values)
        print(f"| {name} | {median:,.0f} | {median / base:.2f}× |")


if __name__ == "__main__":
    main()
