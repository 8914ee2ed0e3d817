"""Decisions per second of a JAX game whose every decision an array-program bot (:mod:`agents.fast_bots`) makes,
beside the same game with uniformly random legal decisions, on one CPU core (or a GPU).

    python -m cardenvs.experiments.speed.fast_bots --game verish_ne_verish-v0 --bots verish_ne_verish/rule

Each run is one jitted program per ``--steps`` decisions: the bot's choice for every game of the batch, the step
and fresh deals for the games that ended, as :mod:`experiments.speed.jax_batches` runs random play (``random`` here
is the ``random`` array bot, a uniform draw from the mask). Bots are timed interleaved, ``--reps`` times each, and
the median decisions per CPU second is reported.
"""

from __future__ import annotations

import argparse
import statistics
from typing import Any

from cardenvs.experiments.speed.jax_batches import GAMES, configure, time_jax
from cardenvs.registry import definition


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=sorted(GAMES), default="verish_ne_verish-v0")
    parser.add_argument("--bots", nargs="+", default=["verish_ne_verish/rule"], help="array bots besides random")
    parser.add_argument("--players", type=int, help="players (default: the game's benchmark count)")
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--steps", type=int, default=64, help="decisions per jitted call")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--device", choices=("cpu", "gpu"), default="cpu")
    parser.add_argument("--core", type=int, default=0, help="the CPU core to pin to")
    return parser.parse_args(argv)


def bot_runner(game: str, players: int, bot_name: str, batch: int, steps: int) -> list[Any]:
    """``[play, state, key]``: ``play`` makes ``steps`` decisions of the bot in every game of the batch."""
    import jax

    from cardenvs.agents.fast_bots import FAST_BOTS
    from cardenvs.fast.batched import redeal_finished

    env = definition(game).part("fast")(num_players=players)
    bot = FAST_BOTS[bot_name](game, {"num_players": players})
    pool = max(1, batch // 16)
    step = jax.vmap(env.step)

    def decide(carry: Any, _: Any) -> Any:
        state, key = carry
        key, choose, deal = jax.random.split(key, 3)
        actions = bot.act(state.observation, state.legal_action_mask, choose)
        live = ~(state.terminated | state.truncated)
        return (redeal_finished(env, step(state, actions), deal, pool), key), live.sum()

    @jax.jit
    def play(state: Any, key: Any) -> Any:
        (state, key), decided = jax.lax.scan(decide, (state, key), None, length=steps)
        return state, key, decided.sum()

    start = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), batch))
    return [play, start, jax.random.PRNGKey(1)]


def main(argv: list[str] | None = None) -> dict[str, float]:
    args = parse(argv)
    configure(args)
    players = args.players or GAMES[args.game][1]
    names = ["random", *args.bots]
    runners = {name: bot_runner(args.game, players, name, args.batch, args.steps) for name in names}
    for runner in runners.values():  # compile and warm up outside the timing
        time_jax(runner, 0.0)
    runs: dict[str, list[float]] = {name: [] for name in names}
    for _ in range(args.reps):
        for name, runner in runners.items():
            run = time_jax(runner, args.seconds)
            runs[name].append(run["decisions"] / run["cpu_seconds"])
    medians = {name: statistics.median(values) for name, values in runs.items()}
    print(f"{args.game}, {players} players, batch {args.batch}: decisions per CPU second (median of {args.reps})")
    for name, value in medians.items():
        print(f"  {name:28s} {value:12,.0f}  ({value / medians['random']:.2f} × random)")
    return medians


if __name__ == "__main__":
    main()
