"""The main job: one narrated Verish' ne verish' game, a short self-play training run, a tournament of the
trained agent against random play, the rule-based bot and the zoo's trained agent, with its report, and the zoo agent
against the rule bot head to head.

    python -m cardenvs.experiments.demo [--steps 150000] [--games 600] [--players 4] [--duel-games 600] [--workers 2]
        [--seed 0]

Outputs go under ``--out`` (default ``runs/demo``): the training run (checkpoints, TensorBoard logs) and the
tournament (SQLite database, Markdown and HTML report with plots). The training budget is a demonstration, a
couple of minutes on two cores; ``docs/training.md`` has the budgets behind the published results, and the zoo
agent (``zoo:verish_ne_verish/ppo_tuned``, shipped with the package, see ``docs/zoo.md``) shows what a longer
recipe reaches. It sits in the tournament when it was trained for the demo's player count.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, fields
from pathlib import Path

import cardenvs
from cardenvs.agents import make_policy
from cardenvs.agents.play import play_episode
from cardenvs.agents.tournament import Tournament, TournamentResult, write_report
from cardenvs.agents.tournament.storage import SettingsMismatchError
from cardenvs.agents.zoo import fitting_zoo_names
from cardenvs.core.render import event_text
from cardenvs.experiments.train import TrainArgs, train
from cardenvs.verish_ne_verish.render import WORDS

GAME = "verish_ne_verish-v0"
RULE_BOT = "verish_ne_verish/rule"


@dataclass
class DemoArgs:
    steps: int = 150_000
    """Training budget in learner decisions."""
    games: int = 600
    """Tournament games (whole duplicate deals)."""
    players: int = 4
    duel_games: int = 600
    """Games of the zoo agent against the rule bot alone, after the table (0: none)."""
    workers: int = 2
    seed: int = 0
    out: str = "runs/demo"


def show_one_game(args: DemoArgs) -> None:
    env = cardenvs.make(GAME, num_players=args.players, render_mode="ansi")
    policies = [make_policy(RULE_BOT, env, seed=args.seed)] + [
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


def train_agent(args: DemoArgs) -> Path:
    print(f"== Training MaskablePPO by self-play for {args.steps:,} decisions ==\n", flush=True)
    return train(
        TrainArgs(
            game=GAME,
            options={"num_players": args.players},
            total_steps=args.steps,
            seed=args.seed,
            opponents={RULE_BOT: 2.0, "random": 1.0},
            snapshot_every=max(args.steps // 4, 1),
            checkpoint_every=args.steps,
            out=str(Path(args.out, "train")),
        )
    )


def run_tournament(args: DemoArgs, checkpoint: Path) -> Path:
    options = {"num_players": args.players}
    zoo = [f"zoo={name}" for name in fitting_zoo_names(GAME, options)[:1]]
    names = " vs ".join(["trained", "random", "rule bot", *(["zoo agent"] if zoo else [])])
    print(f"\n== Tournament: {args.games} duplicate-deal games of {names} ==\n", flush=True)
    tournament = Tournament(
        GAME,
        ["random", f"rule={RULE_BOT}", f"trained=ckpt-greedy:{checkpoint}", *zoo],
        games=args.games,
        options=options,
        seed=args.seed,
    )
    result = run_afresh(tournament, Path(args.out, "tournament", "tournament.sqlite"), args.workers)
    print(f"\n{'policy':10s} {'mean score [95% CI]':>28s} {'win rate [95% CI]':>26s} {'OpenSkill μ ± σ':>16s}")
    for label, s in result.stats.entrant_stats.items():
        rating = result.ratings[label]
        print(f"{label:10s} {s.score.text(3):>28s} {s.win_rate.text(3):>26s} {rating.mu:9.2f} ± {rating.sigma:.2f}")
    return write_report(result.stats, result.ratings, tournament.settings(), result.db_path)


def run_afresh(tournament: Tournament, db: Path, workers: int) -> TournamentResult:
    """Play ``tournament`` into ``db``; an earlier demo's table there (other entrants or code) is kept aside."""
    try:
        result = tournament.run(db, workers=workers, progress=True)
    except SettingsMismatchError:
        kept = db.with_name("tournament-previous.sqlite")
        db.replace(kept)
        print(f"{db} held an earlier demo's tournament with other settings; it is kept as {kept}", flush=True)
        result = tournament.run(db, workers=workers, progress=True)
    for notice in result.notices:  # e.g. the agent was retrained: its games go beside the old ones
        print(notice)
    return result


def zoo_against_rule(args: DemoArgs) -> None:
    """The zoo agent and the rule bot alone at the table, two seats each: at the four-entrant table the loser is
    nearly always random play or the short run, so both score close to the most a seat can and their difference
    hides there."""
    zoo = fitting_zoo_names(GAME, {"num_players": args.players})[:1]
    if not zoo or args.duel_games < 1:
        return
    print(f"\n== Head to head: {args.duel_games} duplicate-deal games of the zoo agent against the rule bot ==\n")
    tournament = Tournament(
        GAME, [f"zoo={zoo[0]}", f"rule={RULE_BOT}"], games=args.duel_games, options={"num_players": args.players},
        seed=args.seed,
    )  # fmt: skip
    result = run_afresh(tournament, Path(args.out, "head_to_head", "tournament.sqlite"), args.workers)
    print(f"\nzoo − rule, mean score per seat: {result.stats.difference('zoo', 'rule').text(3)}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for f in fields(DemoArgs):
        parser.add_argument("--" + f.name.replace("_", "-"), type=type(f.default), default=f.default)
    args = DemoArgs(**vars(parser.parse_args(argv)))
    show_one_game(args)
    checkpoint = train_agent(args)
    report = run_tournament(args, checkpoint)
    zoo_against_rule(args)
    print(f"\nReport: {report} (HTML beside it)")


if __name__ == "__main__":
    main()
