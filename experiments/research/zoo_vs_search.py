"""Each game's first zoo agent against the search agent that rolls out and takes its prior from the best rule bot.

Produced: the search rows of the zoo's yardstick figures (issue 34, item 4); reported in docs/zoo.md, section
"Against search and a local best response".

    python -m cardenvs.experiments.research.zoo_vs_search --game kyuuri-v0 --games 40 --workers 2
    python -m cardenvs.experiments.research.zoo_vs_search --game kyuuri-v0 --report   # the games stored so far

One searcher (``search:?simulations=200&rollout=BOT&prior=BOT``) sits among copies of the zoo agent that
``fitting_zoo_names`` gives first (the one the demo and ``experiments.play`` seat), rotated through every seat of
each deal (``--lineup search,zoo,zoo,…`` with the ``rotations`` scheme). The margin is the agent's mean score per
seat minus the searcher's on the same deals, with a 95% percentile-bootstrap interval over deals. Searched games
are slow, so a run may be stopped at any time (``timeout …``): ``--report`` then counts only the deals whose every
seating was played.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from cardenvs.agents.tournament import Tournament
from cardenvs.agents.tournament.storage import TournamentStore
from cardenvs.agents.zoo import fitting_zoo_names

BEST_BOT: dict[str, tuple[str, dict[str, Any]]] = {
    "verish_ne_verish-v0": ("verish_ne_verish/rule", {}),
    "yukushi-v0": ("yukushi/counter", {}),
    "kyuuri-v0": ("kyuuri/thrifty", {"episode": "game"}),
    "zheng_shang_you-v0": ("zheng_shang_you/rule", {"episode": "deal"}),
    "goninkan-v1": ("goninkan/rule", {}),
    "yoninkan-v1": ("yoninkan/rule", {}),
}
"""Game → its best rule bot (training results, "Best rule bot") and the options its zoo agent plays: Kyuuri's
whole game (the zoo agents cannot read a one-deal episode), Zheng Shang You's one deal (its agent's training)."""


def match(game: str, simulations: int = 200, games: int = 4, seed: int = 0, agent: str | None = None) -> Tournament:
    """The tournament of ``agent`` (default: the game's first zoo agent) and the searcher (``games`` rounded up to
    whole deals)."""
    if game not in BEST_BOT:
        raise ValueError(f"unknown game {game!r}: choose one of {', '.join(BEST_BOT)}")
    bot, options = BEST_BOT[game]
    zoo = agent or fitting_zoo_names(game, options)[0]
    search = f"search:?simulations={simulations}&rollout={bot}&prior={bot}"
    policies = [f"zoo={zoo}", f"search={search}"]
    seats = len(Tournament(game, policies, games=1, options=options).slots)
    lineup = ["search"] + ["zoo"] * (seats - 1)
    return Tournament(game, policies, games, options, "rotations", seed, [lineup], interval="bootstrap", resamples=2000)


def report(tournament: Tournament, db: Path) -> str:
    """One Markdown row from the deals of ``db`` whose every seating was played."""
    with TournamentStore(db) as store:
        records = store.records()
    per_deal: dict[int, int] = {}
    for record in records:
        per_deal[record.deal] = per_deal.get(record.deal, 0) + 1
    seatings = len(tournament.schedule.deal_jobs(0))
    whole = [r for r in records if per_deal[r.deal] == seatings]
    if not whole:
        return f"| {tournament.env_id} | no whole deal yet ({len(records)} games) |"
    stats, _ = tournament.analyse(whole)
    margin = stats.difference("zoo", "search")
    seconds = sum(r.seconds for r in whole) / len(whole)
    zoo, search = (e.spec for e in tournament.entrants)
    return (
        f"| {tournament.env_id} | `{zoo}` | `{search}` | **{margin.text()}** | {len(whole)} ({len(whole) // seatings}) "
        f"| {seconds:.0f} |"
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", required=True, choices=sorted(BEST_BOT))
    p.add_argument("--games", type=int, default=40, help="games at least (whole deals)")
    p.add_argument("--simulations", type=int, default=200)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--report", action="store_true", help="only report the whole deals stored so far")
    p.add_argument("--agent", help="another agent's spec, e.g. ckpt:runs/x/final.npz (default: the first zoo agent)")
    p.add_argument("--out", type=Path, help="default runs/zoo_vs_search/<game>-<simulations>")
    ns = p.parse_args(argv)
    tournament = match(ns.game, ns.simulations, ns.games, ns.seed, ns.agent)
    db = (ns.out or Path("runs", "zoo_vs_search", f"{ns.game}-{ns.simulations}")) / "tournament.sqlite"
    db.parent.mkdir(parents=True, exist_ok=True)
    if not ns.report:
        tournament.run(db, workers=ns.workers, chunk_size=1, move_timeout=120.0)
    print(report(tournament, db))
    return 0


if __name__ == "__main__":
    sys.exit(main())
