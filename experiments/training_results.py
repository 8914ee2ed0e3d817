"""The results row of a trained agent: duplicate-deal tournaments against random play and every rule bot.

    python -m cardenvs.experiments.training_results --game kyuuri-v0 --games 1200
    python -m cardenvs.experiments.training_results --game kyuuri-v0 --checkpoint runs/train/kyuuri/seed0/final.zip
    python -m cardenvs.experiments.training_results --game kyuuri-v0 --games 4800 --opponent kyuuri/thrifty
    python -m cardenvs.experiments.training_results --game goninkan-v1 --games 4800 --workers 2

For each opponent, a two-entrant tournament (``agents.tournament``; the agent and the opponent fill the seats
alternately, every seating of each deal played) with the game options of the run's config. The agent plays
greedily (``ckpt-greedy:``) unless ``--sampling``. Prints one Markdown row per opponent with the agent's and the
opponent's mean scores per seat and their difference, each with its 95% bootstrap interval over deals (the
difference's resamples the same deals for both, so it is the measure of "better than": in zero-sum games the
agent's score alone says the same), the agent's win rate, and writes full reports under ``runs/eval/<game>/``
(or ``--out``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from cardenvs.agents.registry import policy_names
from cardenvs.agents.tournament import Tournament, write_report
from cardenvs.experiments.train import TrainArgs, load_config
from cardenvs.registry import game_name


def evaluate(
    game: str, checkpoint: str, opponent: str, games: int, options: dict[str, Any], out: Path, workers: int = 1
) -> str:
    """One opponent's row: ``| opponent | agent score | opponent score | agent − opponent | agent win rate |
    games |`` (each with its interval)."""
    tournament = Tournament(game, [f"agent={checkpoint}", f"opponent={opponent}"], games=games, options=options)
    result = tournament.run(out / "tournament.sqlite", workers=workers)  # a retrained checkpoint goes to code-…/
    write_report(result.stats, result.ratings, tournament.settings(), result.db_path)
    agent, other = result.stats.entrant_stats["agent"], result.stats.entrant_stats["opponent"]
    margin = result.stats.difference("agent", "opponent")
    return (
        f"| `{opponent}` | {agent.score.text(3)} | {other.score.text(3)} | {margin.text(3)} | "
        f"{agent.win_rate.text(3)} | {len(result.records)} |"
    )


def select_opponents(game: str, wanted: list[str] | None = None) -> list[str]:
    """``random`` and the game's rule bots, or those of them in ``wanted``; an unknown name is refused."""
    prefix = game_name(game) + "/"
    opponents = [name for name in policy_names(game) if name == "random" or name.startswith(prefix)]
    unknown = sorted(set(wanted or ()) - set(opponents))
    if unknown:
        raise SystemExit(f"unknown opponents {unknown}; valid: {opponents}")
    return [name for name in opponents if not wanted or name in wanted]


def main(argv: list[str] | None = None) -> str:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", required=True)
    p.add_argument("--checkpoint", help="default: the final checkpoint of the config's seed-0 run")
    p.add_argument("--games", type=int, default=1200)
    p.add_argument("--sampling", action="store_true", help="sample the policy instead of playing its argmax")
    p.add_argument("--opponent", action="append", help="only these opponents (default: random and every rule bot)")
    p.add_argument("--out", help="reports folder (default runs/eval/<game>)")
    p.add_argument("--workers", type=int, default=1, help="processes playing the games (0: every core)")
    ns = p.parse_args(argv)
    args = TrainArgs(**{**load_config(ns.game), "game": ns.game})
    checkpoint = ns.checkpoint or str(args.run_dir() / "final.zip")
    spec = f"{'ckpt' if ns.sampling else 'ckpt-greedy'}:{checkpoint}"
    opponents = select_opponents(ns.game, ns.opponent)
    lines = [
        f"{ns.game} {args.options}, {spec}",
        "",
        "| opponent | agent mean score | opponent mean score | agent − opponent | agent win rate | games |",
        "|---|---|---|---|---|---|",
    ]
    folder = Path(ns.out or Path("runs", "eval", args.game_name))
    for opponent in opponents:
        out = folder / (opponent.replace("/", "_") + ("-sampling" if ns.sampling else ""))
        lines.append(evaluate(ns.game, spec, opponent, ns.games, args.options, out, ns.workers))
        print(lines[-1], flush=True)
    text = "\n".join(lines)
    print(text)
    return text


if __name__ == "__main__":
    main()
    sys.exit(0)
