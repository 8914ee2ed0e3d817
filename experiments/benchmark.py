"""Benchmark a strategy: a policy against a game's gauntlet, or the leaderboards of the shipped bots.

    python -m cardenvs.experiments.benchmark --game verish_ne_verish-v0 --policy "mybluff.py:PBluffer?p=0.3"
    python -m cardenvs.experiments.benchmark --game verish_ne_verish-v0 --policy mybluff.py:PBluffer --add-to b.json
    python -m cardenvs.experiments.benchmark --leaderboard [--game yukushi-v0 …] [--games 300] [--boards DIR]
    python -m cardenvs.experiments.benchmark --suite gauntlet-v1 …   # the first version of the gauntlet

The first prints the policy's score card (score, margin over each opponent and overall with 95% intervals, the
game's metrics, rank on the shipped leaderboard) and writes it as JSON (``--json``, default beside the games under
``runs/benchmark/``). ``--add-to`` adds the policy's row to a local copy of a leaderboard (created from the
shipped one if missing) and writes its Markdown beside it. ``--leaderboard`` regenerates
``agents/benchmark/leaderboards/<game>.json`` and ``.md`` (``--boards``: another folder) from every shipped bot
and zoo agent (``--games`` lowers the budget; the page then says so). ``--suite`` picks the gauntlet version
(default ``gauntlet-v2``; ``gauntlet-v1``'s boards are ``<game>-gauntlet-v1.json``). ``--move-timeout`` limits
each move (default 10 s): a policy that fails a game (raises, plays an illegal action, runs out of time) stops the
benchmark with ``error: …`` naming the game (exit status 1; bad input such as an unknown spec or a damaged
database: 2). Policy specs: see ``agents/specs.py`` (registered names,
``path/to/file.py:Name?key=value``, ``package.module:Name``, ``ckpt:PATH``, ``zoo:NAME``).
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path
from typing import Any

from cardenvs.agents.benchmark import DEFAULT_OUT, SUITE, SUITES, evaluate, gauntlet, leaderboard, shipped_policies
from cardenvs.agents.benchmark.suites import OPPONENTS_V1, slug
from cardenvs.agents.tournament.runner import DEFAULT_MOVE_TIMEOUT
from cardenvs.experiments.tournament import move_timeout, run_command
from cardenvs.registry import definition, game_name


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", action="append", help="env id (repeatable with --leaderboard; default there: all)")
    p.add_argument("--policy", help="the policy spec to benchmark")
    p.add_argument("--leaderboard", action="store_true", help="regenerate the leaderboards of the shipped bots")
    p.add_argument("--suite", choices=SUITES, default=SUITE, help=f"gauntlet version (default {SUITE})")
    p.add_argument("--games", type=int, help="games per opponent (default: the suite's)")
    p.add_argument("--workers", type=int, default=2, help="processes playing the games")
    p.add_argument("--out", default=str(DEFAULT_OUT), help="where the games are stored")
    p.add_argument("--json", help="write the score card's JSON here")
    p.add_argument("--boards", help="with --leaderboard: write the boards here (default: the shipped ones)")
    p.add_argument("--add-to", help="add the policy to this leaderboard JSON (a local copy)")
    p.add_argument("--name", help="the policy's name on the leaderboard (default: the spec)")
    p.add_argument(
        "--move-timeout",
        type=move_timeout,
        default=DEFAULT_MOVE_TIMEOUT,
        metavar="SECONDS",
        help="time limit of a policy per move; over it the game fails as a 'timeout' fault (0: no limit)",
    )
    p.add_argument("--progress", action="store_true")
    return p


def benchmark_policy(ns: argparse.Namespace) -> int:
    if not ns.game or len(ns.game) != 1:
        raise SystemExit("--policy needs exactly one --game")
    env_id = definition(ns.game[0]).env_id
    board = Path(ns.add_to) if ns.add_to else None
    shipped = leaderboard.default_path(env_id, ns.suite)
    if board is not None and not board.exists() and leaderboard.load(shipped).get("suite") == ns.suite:
        board.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shipped, board)
    if ns.policy.startswith("llm:"):
        print(_llm_cost(env_id, ns.suite, ns.policy, ns.games), flush=True)
    card = evaluate(ns.policy, env_id, suite=ns.suite, games=ns.games, workers=ns.workers, out_dir=ns.out,
                    leaderboard_path=board, progress=ns.progress, move_timeout=ns.move_timeout or None)  # fmt: skip
    for notice in card.notices:
        print(notice)
    print(card.markdown())
    path = Path(ns.json) if ns.json else Path(ns.out, game_name(env_id), card.suite, slug(ns.policy), "card.json")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(card.json_text())
    print(f"score card JSON: {path}")
    if board is not None:
        row = leaderboard.row_of(card, ns.name or ns.policy, shipped=False)
        json_path, markdown = leaderboard.save(leaderboard.with_row(leaderboard.load(board), card, row), board)
        print(f"added to {json_path} ({markdown})")
    return 0


def _llm_cost(env_id: str, version: str, policy: str, games: int | None) -> str:
    """The expected cost of a language model's gauntlet: the seats it holds in every game to be played."""
    from cardenvs.agents.llm.estimate import estimate_cost

    suite = gauntlet(env_id, version)
    tournaments = [suite.tournament(policy, opponent, games) for opponent in suite.opponents]
    jobs = [job for t in tournaments for job in t.jobs()]
    seat_games = sum(job.seats.count(0) for job in jobs)  # entrant 0 is the policy
    return estimate_cost(env_id, dict(suite.options), seat_games).text() + f" ({len(jobs)} games)"


def regenerate(ns: argparse.Namespace) -> int:
    """Every shipped bot of each game through its gauntlet, into agents/benchmark/leaderboards/."""
    games = [definition(g).env_id for g in ns.game] if ns.game else [definition(g).env_id for g in _suite_ids()]
    for env_id in games:
        suite = gauntlet(env_id, ns.suite)
        note = "" if ns.games in (None, suite.games) else (
            f"Generated at a reduced budget: {ns.games} games per opponent (the suite's is {suite.games}); "
            "the intervals are wider than a full run's."
        )  # fmt: skip
        board: dict[str, Any] = {"rows": []}
        for spec in shipped_policies(env_id):
            card = evaluate(spec, env_id, suite=ns.suite, games=ns.games, workers=ns.workers, out_dir=ns.out,
                            progress=ns.progress, move_timeout=ns.move_timeout or None)  # fmt: skip
            board = leaderboard.with_row(board, card, leaderboard.row_of(card, spec, shipped=True), note)
            print(f"{env_id} {spec}: margin {card.overall.margin.text()} ({card.seconds:.0f} s)", flush=True)
        json_path, markdown = leaderboard.save(board, leaderboard.default_path(env_id, ns.suite, ns.boards))
        print(f"wrote {json_path} and {markdown}")
    return 0


def _suite_ids() -> list[str]:
    import cardenvs

    return [env_id for env_id in cardenvs.ENV_IDS if game_name(env_id) in OPPONENTS_V1]


def main(argv: list[str] | None = None) -> int:
    ns = build_parser().parse_args(argv)
    if ns.leaderboard == bool(ns.policy):
        raise SystemExit("give either --policy SPEC (with --game) or --leaderboard")
    return regenerate(ns) if ns.leaderboard else benchmark_policy(ns)


if __name__ == "__main__":
    sys.exit(run_command(main))
