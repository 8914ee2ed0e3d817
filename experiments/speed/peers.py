"""Peer toolkits (installed by the ``bench`` extra) and the peer each cardenvs game is measured against.

Every peer plays random legal moves and builds, at every decision, what a learner would need: PettingZoo's
observation dict (with its mask), RLCard's encoded state with its legal actions, OpenSpiel's observation (or
information-state) tensor written into a reused buffer with its legal actions. A peer's steps are whole moves.

The PettingZoo and RLCard peers run in both seedings of :mod:`.loops`; the seeded-once loop (how training runs) is
every target's reference. OpenSpiel draws chance outcomes from the loop's generator, so it has no seeding to vary.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from cardenvs.experiments.speed.loops import SEEDINGS, Count, Loop, Seeding, aec_loop, play_for

ONCE: Seeding = "seeded once"
LEDUC_RAW = f"pettingzoo leduc_holdem_v4 raw_env, {ONCE}"
LEDUC_WRAPPED = f"pettingzoo leduc_holdem_v4 env(), {ONCE}"

TARGETS: dict[str, tuple[str, float]] = {
    "verish_ne_verish": (LEDUC_RAW, 2.0),
    "yukushi": (LEDUC_RAW, 2.0),
    "kyuuri": (LEDUC_RAW, 2.0),
    "goninkan": (LEDUC_RAW, 2.0),
    "yoninkan": (LEDUC_RAW, 2.0),
    "zheng_shang_you": (LEDUC_RAW, 2.0),
}
"""Game name → (reference peer, decisions/s ratio it must reach): every game 2× PettingZoo's leduc raw env seeded
once (issue 22 item 2; hanabi and RLCard's Dou Dizhu, once the references of Goninkan and Zheng Shang You, are
slower peers). A new game needs one line here; a game without one is still measured and compared with leduc's raw
env, with no target."""
DEFAULT_PEER = LEDUC_RAW


def _pettingzoo_classic(module: str, raw: bool, seeding: Seeding) -> Loop:
    mod = importlib.import_module(f"pettingzoo.classic.{module}")
    return aec_loop(mod.raw_env if raw else mod.env, seeding)


def _rlcard_loop(game: str, seeding: Seeding) -> Loop:
    """RLCard's manual loop: ``env.step`` returns the next state with its encoded observation and legal actions.
    Seeded once through the config; seeded every reset by ``env.seed`` before each ``reset``."""
    import rlcard

    def run(seconds: float, seed: int) -> Count:
        env = rlcard.make(game, config={"seed": seed})
        rng = np.random.default_rng(seed)

        def play_game() -> tuple[int, int]:
            steps = 0
            if seeding == "seeded every reset":
                env.seed(int(rng.integers(2**31)))
            state, _ = env.reset()
            while not env.is_over():
                legal = list(state["legal_actions"])
                state, _ = env.step(legal[rng.integers(len(legal))])
                steps += 1
            return steps, steps

        return play_for(seconds, play_game)

    return run


def _open_spiel_loop(game: str, buffer: bool) -> Loop:
    """OpenSpiel (C++), chance moves drawn by the loop and not counted. With ``buffer`` (how its users write fast
    loops) the acting player's observation is written into one reused array (``make_observation(…).set_from``; the
    information state for games without an observation) and the legal actions come as a list; without it, the
    list-returning ``observation_tensor`` and ``legal_actions_mask`` converted to arrays at every decision."""
    import pyspiel
    from open_spiel.python.observation import make_observation

    loaded = pyspiel.load_game(game)
    use_info_state = not loaded.get_type().provides_observation_tensor
    observer = make_observation(loaded, pyspiel.IIGObservationType(perfect_recall=True) if use_info_state else None)

    def observe_and_choose(state: Any, player: int, rng: np.random.Generator) -> int:
        if buffer:
            observer.set_from(state, player)  # fills observer.tensor in place
            legal = state.legal_actions(player)
            return int(legal[rng.integers(len(legal))])
        np.asarray(state.information_state_tensor(player) if use_info_state else state.observation_tensor(player))
        mask = np.flatnonzero(np.asarray(state.legal_actions_mask(player)))
        return int(mask[rng.integers(len(mask))])

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
                state.apply_action(observe_and_choose(state, state.current_player(), rng))
                steps += 1
            return steps, steps

        return play_for(seconds, play_game)

    return run


def _peers() -> dict[str, Callable[[], Loop]]:
    peers: dict[str, Callable[[], Loop]] = {}
    for seeding in SEEDINGS:
        peers[f"pettingzoo leduc_holdem_v4 raw_env, {seeding}"] = partial(
            _pettingzoo_classic, "leduc_holdem_v4", True, seeding
        )
        peers[f"pettingzoo leduc_holdem_v4 env(), {seeding}"] = partial(
            _pettingzoo_classic, "leduc_holdem_v4", False, seeding
        )
        peers[f"pettingzoo hanabi_v5 raw_env, {seeding}"] = partial(_pettingzoo_classic, "hanabi_v5", True, seeding)
        peers[f"rlcard doudizhu env.step loop, {seeding}"] = partial(_rlcard_loop, "doudizhu", seeding)
    for game, tensor in (
        ("hearts", "info-state"),
        ("dou_dizhu", "observation"),
        ("bridge(use_double_dummy_result=false)", "observation"),
    ):
        peers[f"open_spiel {game}, {tensor} into a reused buffer"] = partial(_open_spiel_loop, game, True)
    for game, tensor in (("hearts", "info-state"), ("dou_dizhu", "observation")):
        peers[f"open_spiel {game}, list-returning {tensor} tensor (extra)"] = partial(_open_spiel_loop, game, False)
    return peers


PEERS = _peers()
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
