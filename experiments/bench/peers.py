"""Peer toolkits (installed by the ``bench`` extra) and the peer each cardenvs game is measured against.

Every peer plays random legal moves and builds, at every decision, what a learner would need: PettingZoo's
observation dict (with its mask), RLCard's encoded state with its legal actions, OpenSpiel's observation (or
information-state) tensor with its legal-action mask. A peer's steps are whole moves.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import numpy as np

from cardenvs.experiments.bench.loops import Count, Loop, aec_loop, play_for

LEDUC_RAW = "pettingzoo leduc_holdem_v4 raw_env"
LEDUC_WRAPPED = "pettingzoo leduc_holdem_v4 env()"
HANABI = "pettingzoo hanabi_v5 raw_env"
DOU_DIZHU = "rlcard doudizhu env.step loop"

TARGETS: dict[str, tuple[str, float]] = {
    "verish_ne_verish": (LEDUC_RAW, 2.0),
    "yukushi": (LEDUC_RAW, 2.0),
    "kyuuri": (LEDUC_RAW, 2.0),
    "goninkan": (HANABI, 2.0),
    "yoninkan": (HANABI, 2.0),
    "zheng_shang_you": (DOU_DIZHU, 3.0),
}
"""Game name → (reference peer, ratio it must reach). A new game needs one line here; a game without one is
still measured and compared with leduc's raw env, with no target."""
DEFAULT_PEER = LEDUC_RAW


def _pettingzoo_classic(module: str, raw: bool) -> Loop:
    mod = importlib.import_module(f"pettingzoo.classic.{module}")
    return aec_loop(mod.raw_env if raw else mod.env)


def _rlcard_loop(game: str) -> Loop:
    """RLCard's manual loop: ``env.step`` returns the next state with its encoded observation and legal actions."""
    import rlcard

    def run(seconds: float, seed: int) -> Count:
        env = rlcard.make(game, config={"seed": seed})
        rng = np.random.default_rng(seed)

        def play_game() -> tuple[int, int]:
            steps = 0
            state, _ = env.reset()
            while not env.is_over():
                legal = list(state["legal_actions"])
                state, _ = env.step(legal[rng.integers(len(legal))])
                steps += 1
            return steps, steps

        return play_for(seconds, play_game)

    return run


def _open_spiel_loop(game: str) -> Loop:
    """OpenSpiel (C++) with the acting player's observation tensor (or information-state tensor, for games that
    have no observation tensor) and legal-action mask built at every decision; chance moves are not counted."""
    import pyspiel

    loaded = pyspiel.load_game(game)
    use_info_state = not loaded.get_type().provides_observation_tensor

    def run(seconds: float, seed: int) -> Count:
        rng = np.random.default_rng(seed)

        def play_game() -> tuple[int, int]:
            steps = 0
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
            return steps, steps

        return play_for(seconds, play_game)

    return run


PEERS: dict[str, Callable[[], Loop]] = {
    LEDUC_RAW: lambda: _pettingzoo_classic("leduc_holdem_v4", raw=True),
    LEDUC_WRAPPED: lambda: _pettingzoo_classic("leduc_holdem_v4", raw=False),
    HANABI: lambda: _pettingzoo_classic("hanabi_v5", raw=True),
    DOU_DIZHU: lambda: _rlcard_loop("doudizhu"),
    "open_spiel hearts + info-state tensor": lambda: _open_spiel_loop("hearts"),
    "open_spiel dou_dizhu + observation tensor": lambda: _open_spiel_loop("dou_dizhu"),
}
"""Peer name → loop factory; a factory raises ``ImportError`` when its toolkit is not installed."""


def available_peers(wanted: list[str] | None, say: Callable[[str], Any] = print) -> dict[str, Loop]:
    """The peers (names containing one of ``wanted``; all if ``None``) whose toolkit imports and plays a game."""
    peers: dict[str, Loop] = {}
    for name, factory in PEERS.items():
        if wanted is not None and not any(w in name for w in wanted):
            continue
        try:
            loop = factory()
            loop(0.0, 0)  # one game now, so that a broken peer is reported before the timed runs
        except ImportError as error:
            say(f"peer {name!r} skipped: {error} (install the bench extra: pip install -e '.[bench]')")
            continue
        peers[name] = loop
    return peers
