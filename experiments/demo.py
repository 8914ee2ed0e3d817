"""The main job: a seeded, rendered Verish' ne verish' game, then a batch of games with a summary table.

python -m experiments.demo [--games 300] [--players 4] [--seed 0]
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass

import numpy as np

import cardenvs
from agents import make_policy
from agents.play import play_episode
from cardenvs.core.render import event_text
from cardenvs.verish_ne_verish.render import WORDS

GAME = "verish_ne_verish-v0"


@dataclass
class DemoArgs:
    games: int = 300
    players: int = 4
    seed: int = 0


def show_one_game(args: DemoArgs) -> None:
    env = cardenvs.make(GAME, num_players=args.players, render_mode="ansi")
    policies = [make_policy("verish_ne_verish/rule", env, seed=args.seed)] + [
        make_policy("random", env, seed=args.seed + i) for i in range(1, args.players)
    ]
    print(f"== One game of {GAME}: player_0 is the rule-based bot, the others play at random ==\n")
    env.reset(seed=args.seed)
    print(env.render(), "\n")
    seen = len(env.unwrapped.events)

    def narrate(agent: str, action: int) -> None:
        nonlocal seen
        events = env.unwrapped.events.events
        for event in events[seen:]:
            if event["kind"] != "deal":
                print("  " + event_text(event, WORDS))
        seen = len(events)

    result = play_episode(env, policies, args.seed, on_decision=narrate)
    print("\n" + (env.render() or ""))
    print(f"\n{result.decisions} decisions; returns {[round(r, 3) for r in result.returns]}\n")


def batch(args: DemoArgs) -> None:
    env = cardenvs.make(GAME, num_players=args.players)
    names = ["verish_ne_verish/rule"] + ["random"] * (args.players - 1)
    bot_returns, random_returns, bot_losses = [], [], 0
    for g in range(args.games):
        shift = g % args.players  # rotate the bot through every seat
        seats = names[-shift:] + names[:-shift] if shift else names
        policies = [make_policy(n, env, seed=args.seed + g * 10 + i) for i, n in enumerate(seats)]
        result = play_episode(env, policies, seed=args.seed + g)
        bot_seat = seats.index("verish_ne_verish/rule")
        bot_returns.append(result.returns[bot_seat])
        bot_losses += result.returns[bot_seat] < 0
        random_returns.extend(r for i, r in enumerate(result.returns) if i != bot_seat)
    print(f"== {args.games} games, {args.players} players, the bot rotated through every seat ==\n")
    print(f"{'policy':24s} {'seats played':>12s} {'mean return':>12s} {'95% CI':>18s} {'loss rate':>10s}")
    for name, values, losses in (
        ("verish_ne_verish/rule", bot_returns, bot_losses),
        ("random", random_returns, sum(r < 0 for r in random_returns)),
    ):
        arr = np.asarray(values)
        half = 1.96 * arr.std(ddof=1) / math.sqrt(len(arr))
        ci = f"[{arr.mean() - half:+.3f}, {arr.mean() + half:+.3f}]"
        print(f"{name:24s} {len(arr):12d} {arr.mean():+12.3f} {ci:>18s} {losses / len(arr):10.1%}")
    print(f"\nA random seat loses 1/{args.players} = {1 / args.players:.1%} of games by chance.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=DemoArgs.games)
    parser.add_argument("--players", type=int, default=DemoArgs.players)
    parser.add_argument("--seed", type=int, default=DemoArgs.seed)
    args = DemoArgs(**vars(parser.parse_args()))
    show_one_game(args)
    batch(args)


if __name__ == "__main__":
    main()
