"""Throughput of every cardenvs game beside peer toolkits, measured in the same run.

    python -m experiments.bench [--seconds 2] [--reps 5] [--only verish] [--write docs/benchmarks.md]

Each target plays random legal moves in the standard AEC loop — ``env.last()`` (which builds the
observation and the action mask), a uniform draw from the mask, ``env.step`` — for ``--seconds`` per
repetition; repetitions of all targets are interleaved so that drifting machine load hits them alike, and the
median is reported. A *step* is one ``env.step`` call (the final ``None`` steps of finished agents included,
as every AEC loop must make them); a *game* is one completed episode. Ratios are cardenvs ÷ peer in this run.
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import platform
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import cardenvs

Loop = Callable[[float, int], tuple[int, int, float]]
"""Runs for about the given seconds with the given seed; returns (steps, games, elapsed seconds)."""


def aec_loop(make_env: Callable[[], Any]) -> Loop:
    """A timed random-legal-play loop over any PettingZoo AEC env with ``action_mask`` observations."""

    def run(seconds: float, seed: int) -> tuple[int, int, float]:
        env = make_env()
        rng = np.random.default_rng(seed)
        steps = games = 0
        start = time.perf_counter()
        while True:
            env.reset(seed=int(rng.integers(2**31)))
            for _agent in env.agent_iter():
                obs, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    action = None
                else:
                    legal = np.flatnonzero(obs["action_mask"])
                    action = int(legal[rng.integers(len(legal))])
                env.step(action)
                steps += 1
            games += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                return steps, games, elapsed

    return run


def _pettingzoo_classic(module: str, raw: bool) -> Loop:
    def make() -> Any:
        mod = importlib.import_module(f"pettingzoo.classic.{module}")
        return mod.raw_env() if raw else mod.env()

    return aec_loop(make)


def _rlcard_loop(game: str) -> Loop:
    """RLCard's manual loop: ``env.step`` returns the next state with its encoded observation and legal actions."""
    import rlcard

    def run(seconds: float, seed: int) -> tuple[int, int, float]:
        env = rlcard.make(game, config={"seed": seed})
        rng = np.random.default_rng(seed)
        steps = games = 0
        start = time.perf_counter()
        while True:
            state, _ = env.reset()
            while not env.is_over():
                legal = list(state["legal_actions"])
                state, _ = env.step(legal[rng.integers(len(legal))])
                steps += 1
            games += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                return steps, games, elapsed

    return run


def _open_spiel_loop(game: str) -> Loop:
    """OpenSpiel (C++) with the acting player's observation tensor (or information-state tensor, for games that
    have no observation tensor) and legal-action mask built at every decision; chance moves are not counted."""
    import pyspiel

    loaded = pyspiel.load_game(game)
    use_info_state = not loaded.get_type().provides_observation_tensor

    def run(seconds: float, seed: int) -> tuple[int, int, float]:
        rng = np.random.default_rng(seed)
        steps = games = 0
        start = time.perf_counter()
        while True:
            state = loaded.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = [o for o, _ in state.chance_outcomes()]
                    state.apply_action(outcomes[rng.integers(len(outcomes))])
                    continue
                player = state.current_player()
                np.asarray(
                    state.information_state_tensor(player) if use_info_state else state.observation_tensor(player)
                )
                legal = np.flatnonzero(np.asarray(state.legal_actions_mask(player)))
                state.apply_action(int(legal[rng.integers(len(legal))]))
                steps += 1
            games += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                return steps, games, elapsed

    return run


LEDUC_RAW = "pettingzoo leduc_holdem_v4 raw_env"
HANABI = "pettingzoo hanabi_v5 raw_env"
DOU_DIZHU = "rlcard doudizhu env.step loop"
PEERS: dict[str, Callable[[], Loop]] = {
    LEDUC_RAW: lambda: _pettingzoo_classic("leduc_holdem_v4", raw=True),
    "pettingzoo leduc_holdem_v4 env": lambda: _pettingzoo_classic("leduc_holdem_v4", raw=False),
    HANABI: lambda: _pettingzoo_classic("hanabi_v5", raw=True),
    DOU_DIZHU: lambda: _rlcard_loop("doudizhu"),
    "open_spiel hearts + info-state tensor": lambda: _open_spiel_loop("hearts"),
    "open_spiel dou_dizhu + observation tensor": lambda: _open_spiel_loop("dou_dizhu"),
}
"""Peer toolkits (installed by the ``bench`` extra); a peer that fails to import is reported as missing."""

TARGETS: dict[str, tuple[str, float]] = {
    "verish_ne_verish": (LEDUC_RAW, 2.0),
    "yukushi": (LEDUC_RAW, 2.0),
    "kyuuri": (LEDUC_RAW, 2.0),
    "goninkan": (HANABI, 2.0),
    "yoninkan": (HANABI, 2.0),
    "zheng_shang_you": (DOU_DIZHU, 3.0),
}
"""Each game's reference peer and the steps/s ratio it must reach."""


def cardenvs_targets(only: list[str] | None) -> dict[str, tuple[str, Loop]]:
    """Label → (game name, loop) for the raw env of every registered game at its benchmark options."""
    targets: dict[str, tuple[str, Loop]] = {}
    for env_id in cardenvs.ENV_IDS:
        if only and not any(o in env_id for o in only):
            continue
        definition = cardenvs.definition(env_id)
        options = dict(definition.benchmark_options)
        label = env_id + (" " + " ".join(f"{k}={v}" for k, v in options.items()) if options else "")
        loop = aec_loop(lambda env_id=env_id, options=options: cardenvs.make_raw(env_id, **options))
        targets[label] = (definition.name, loop)
    return targets


@dataclass
class Measurement:
    """Per-repetition rates of one target."""

    steps_per_s: list[float] = field(default_factory=list)
    games_per_s: list[float] = field(default_factory=list)

    @property
    def steps(self) -> float:
        return statistics.median(self.steps_per_s)

    @property
    def games(self) -> float:
        return statistics.median(self.games_per_s)


def measure(targets: dict[str, Loop], seconds: float, reps: int) -> dict[str, Measurement]:
    """Interleaved repetitions of every target; returns the rates of each."""
    results = {name: Measurement() for name in targets}
    for rep in range(reps):
        for name, loop in targets.items():
            steps, games, elapsed = loop(seconds, rep)
            results[name].steps_per_s.append(steps / elapsed)
            results[name].games_per_s.append(games / elapsed)
    return results


def table(ours: dict[str, tuple[str, Measurement]], peers: dict[str, Measurement]) -> str:
    """Markdown: every target's rates, then each game against its reference peer and target ratio."""
    rows = ["| target | steps/s | games/s |", "|---|---|---|"]
    rows += [f"| `{label}` | {m.steps:,.0f} | {m.games:,.1f} |" for label, (_, m) in ours.items()]
    rows += [f"| {name} (peer) | {m.steps:,.0f} | {m.games:,.1f} |" for name, m in peers.items()]
    rows += ["", "| game | reference peer | ratio (steps/s) | target | met |", "|---|---|---|---|---|"]
    for label, (game, m) in ours.items():
        peer, target = TARGETS.get(game, (LEDUC_RAW, 0.0))
        if peer in peers:
            ratio = m.steps / peers[peer].steps
            rows.append(f"| `{label}` | {peer} | {ratio:.2f}× | {target:g}× | {'yes' if ratio >= target else 'no'} |")
    return "\n".join(rows)


def machine() -> str:
    cpu = platform.processor() or "cpu"
    return f"{platform.machine()}, {cpu}, Python {platform.python_version()}, {platform.system()}"


def main(argv: list[str] | None = None) -> str:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per target and repetition")
    parser.add_argument("--reps", type=int, default=5, help="interleaved repetitions (the median is reported)")
    parser.add_argument("--only", nargs="*", help="substrings of the cardenvs ids to measure (default: all)")
    parser.add_argument("--peers", nargs="*", help="substrings of the peer names to measure (default: all)")
    parser.add_argument("--write", type=Path, help="write the table (with machine and date) into this Markdown file")
    args = parser.parse_args(argv)

    peers: dict[str, Loop] = {}
    for name, factory in PEERS.items():
        if args.peers is not None and not any(p in name for p in args.peers):
            continue
        try:
            peers[name] = factory()
            peers[name](0.0, 0)  # import and one game, so that a missing peer is reported now
        except ImportError as error:
            print(f"peer {name!r} unavailable ({error}); install the bench extra")
    ours = cardenvs_targets(args.only)
    results = measure({**{k: loop for k, (_, loop) in ours.items()}, **peers}, args.seconds, args.reps)
    text = table({k: (game, results[k]) for k, (game, _) in ours.items()}, {k: results[k] for k in peers})
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    header = f"Measured {stamp} on {machine()}; {args.reps} interleaved repetitions of {args.seconds:g} s, median."
    print(header + "\n\n" + text)
    if args.write:
        write_section(args.write, f"{header}\n\n{text}\n")
    return text


START, END = "<!-- bench:start -->", "<!-- bench:end -->"


def write_section(path: Path, body: str) -> None:
    """Replace the text between the bench markers of ``path`` (appending the markers if absent)."""
    text = path.read_text() if path.exists() else ""
    if START in text and END in text:
        before, _, rest = text.partition(START)
        _, _, after = rest.partition(END)
    else:
        before, after = text + ("\n" if text else ""), "\n"
    path.write_text(f"{before}{START}\n{body}{END}{after}")


if __name__ == "__main__":
    main()
