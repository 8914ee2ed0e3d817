"""How much search adds: the ISMCTS agent against its own rollout policy, in a short duplicate tournament.

Produced: the table of what search adds; reported in docs/search.md, section "What search adds: against its own rollout
policy".

    python -m cardenvs.experiments.research.search_eval --game kyuuri-v0 --rollout kyuuri/rule \\
        --simulations 16 --games 16
    # the root prior defaults to the rollout policy (--prior none: plain UCB1)

One searcher sits among copies of the rollout policy (``--lineup search,bot,bot,…``, rotated through every seat of
each deal), so the margin is the searcher's mean score per seat minus the bots' on the same deals, with a
bootstrap interval over deals. Prints one Markdown row of ``docs/search.md``. The seconds per decision are the
games' wall time shared out over the searcher's decisions (the bots' own time is small beside it).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from cardenvs.agents.tournament import Tournament
from cardenvs.experiments.tournament import parse_option


def evaluate(
    game: str,
    rollout: str,
    simulations: int,
    games: int,
    out: Path,
    seed: int = 0,
    prior: str = "none",
    options: dict[str, Any] | None = None,
) -> str:
    spec = f"search:?simulations={simulations}&rollout={rollout}&prior={prior}"
    options = options or {}
    probe = Tournament(game, [f"search={spec}", f"bot={rollout}"], games=1, seed=seed, options=options)
    lineup = ["search"] + ["bot"] * (len(probe.slots) - 1)  # slots: seats, or sides in a team game
    tournament = Tournament(
        game, [f"search={spec}", f"bot={rollout}"], games=games, lineups=[lineup], seed=seed, options=options
    )
    result = tournament.run(out / "tournament.sqlite", progress=False)
    records = result.records
    margin = result.stats.difference("search", "bot")
    seconds = sum(r.seconds for r in result.records)
    searcher_decisions = sum(r.decisions for r in result.records) / probe.num_players
    shown = "".join(f" {key}={value}" for key, value in options.items())
    return (
        f"| {game}{shown} | {probe.num_players} | `{rollout}` | `{prior}` | {simulations} | {len(records)} "
        f"({len({r.deal for r in records})} deals) | **{margin.text()}** "
        f"| {seconds / len(records):.1f} | {seconds / searcher_decisions:.2f} |"
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", required=True)
    p.add_argument("--rollout", required=True, help="a registered policy: the rollouts and the opponents")
    p.add_argument("--prior", help="a registered policy for the root prior, or none (default: the rollout policy)")
    p.add_argument("--simulations", type=int, default=16)
    p.add_argument("--games", type=int, default=16)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--option", action="append", default=[], type=parse_option, help="game option key=value")
    p.add_argument("--out", type=Path, help="default runs/search/<game>-<rollout>-<simulations>")
    ns = p.parse_args(argv)
    prior = ns.prior or (ns.rollout if ns.rollout != "random" else "none")
    name = f"{ns.game}-{ns.rollout}-{prior}-{ns.simulations}{''.join(f'-{k}={v}' for k, v in ns.option)}"
    name = name.replace("/", "_")
    out = ns.out or Path("runs", "search", name)
    out.mkdir(parents=True, exist_ok=True)
    print(evaluate(ns.game, ns.rollout, ns.simulations, ns.games, out, ns.seed, prior, dict(ns.option)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
