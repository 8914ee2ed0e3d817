"""The conformance checks. Each raises :class:`ConformanceError` with a precise message on failure.

Every check takes an env id (namespace optional) and the env's options, so researchers can run them on
any registered game, their own included.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import pickle
import subprocess
import sys
import warnings
from collections.abc import Mapping
from typing import Any

import numpy as np
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils import OrderEnforcingWrapper

from cardenvs.core.engine import RulesEngine
from cardenvs.testing.errors import fail as _fail
from cardenvs.testing.rollout import EnvSpec, build_env, decisions, random_legal_action, trace_digest
from cardenvs.testing.turns import observer_view

WARNING_ALLOWLIST: tuple[str, ...] = (
    # api_test expects plain arrays from envs that are not PettingZoo's own; ours are the standard
    # {"observation", "action_mask"} dicts that PettingZoo classic uses.
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
    # Agents that have finished see an all-zero mask: they have no legal action, by design.
    "Action mask numpy array is all zeros (no legal actions).",
)
"""The only warnings the API and seed tests tolerate (matched as message prefixes)."""


def unexpected_warnings(caught: list[warnings.WarningMessage]) -> list[str]:
    """Messages of caught warnings that are not on :data:`WARNING_ALLOWLIST`."""
    messages = {str(w.message) for w in caught}
    return sorted(m for m in messages if not any(m.startswith(allowed) for allowed in WARNING_ALLOWLIST))


def check_pettingzoo_api(env_id: EnvSpec, options: Mapping[str, Any], num_cycles: int = 300) -> None:
    """PettingZoo's ``api_test`` and ``seed_test``; any warning outside the allowlist fails."""
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("always")
        api_test(OrderEnforcingWrapper(build_env(env_id, options)), num_cycles=num_cycles)
        seed_test(lambda: OrderEnforcingWrapper(build_env(env_id, options)), num_cycles=num_cycles)
    bad = unexpected_warnings(caught)
    _fail(not bad, f"{env_id} {dict(options)}: warnings outside the allowlist: {bad}")


MIN_GAMES = 2
"""Games a check plays whatever its decision budget."""


def _budget_spent(game_index: int, decisions_done: int, max_decisions: int | None) -> bool:
    """Whether a check with ``max_decisions`` starts no further game (after at least :data:`MIN_GAMES`): a budget
    in decisions keeps the checks of long games (thousands of decisions each) as costly as those of short ones."""
    return max_decisions is not None and game_index >= MIN_GAMES and decisions_done >= max_decisions


def check_masks(
    env_id: EnvSpec,
    options: Mapping[str, Any],
    games: int,
    seed: int = 0,
    max_moves: int = 40,
    max_decisions: int | None = None,
) -> int:
    """At every decision: the mask equals the first actions of the engine's own ``legal_moves()``, every
    masked-out action has a reason, and sampled moves can be played out sub-step by sub-step through masks.
    ``max_decisions``: start no new game once this many decisions are checked. Returns the number checked."""
    checked = 0
    for g in range(games):
        if _budget_spent(g, checked, max_decisions):
            break
        rng = np.random.default_rng(seed * 7919 + g)
        for d in decisions(env_id, options, seed + g):
            game = d.env.game
            assert game is not None
            mask = d.observation["action_mask"]
            legal = set(np.flatnonzero(mask).tolist())
            where = f"{env_id} {dict(options)} seed {seed + g} step {d.step}"
            _fail(len(legal) > 0, f"{where}: empty mask for the player to act")
            moves = game.legal_moves()
            firsts = {game.move_actions(m)[0] for m in moves}
            _fail(
                firsts == legal,
                f"{where}: mask {sorted(legal)} differs from the first actions of legal_moves() {sorted(firsts)}",
            )
            for a in range(game.num_actions):
                reason = game.illegal_reason(a)
                _fail(
                    (reason is None) == (a in legal),
                    f"{where}: illegal_reason({a}) = {reason!r} disagrees with the mask",
                )
            for i in rng.choice(len(moves), size=min(max_moves, len(moves)), replace=False):
                _play_out(game, moves[int(i)], where)
            checked += 1
    return checked


def _play_out(game: RulesEngine[Any], move: Any, where: str) -> None:
    clone = game.clone()
    ids = clone.move_actions(move)
    for k, a in enumerate(ids):
        _fail(bool(clone.legal_mask()[a]), f"{where}: action {a} of move {move} ({ids}) is masked at sub-step {k}")
        clone.apply(a)
        if k < len(ids) - 1:
            _fail(clone.move_in_progress(), f"{where}: move {move} ended after {k + 1} of its actions {ids}")
    _fail(not clone.move_in_progress(), f"{where}: move {move} is still in progress after its actions {ids}")


def check_hidden_information(
    env_id: EnvSpec,
    options: Mapping[str, Any],
    games: int,
    seed: int = 0,
    every: int = 3,
    counterfactuals: int = 12,
    max_decisions: int | None = None,
) -> dict[str, int]:
    """The leak test, two ways, for every player as observer:

    * **re-deal**: every card the observer cannot see is re-dealt among the hidden places; the observer's
      observation (and mask, if it is to act) must not change;
    * **hidden choices**: moves of another player that make the same public events must leave the
      observer's observation and mask identical.

    The re-deal is also made once each game has ended: final observations keep the same secrets.
    ``max_decisions``: start no new game once this many decisions are played. Returns counts, so callers can
    assert the checks had power (re-deals that changed the state)."""
    stats = {"redeals": 0, "redeals_changed_state": 0, "choice_pairs": 0, "terminal_redeals": 0}
    played = 0
    for g in range(games):
        if _budget_spent(g, played, max_decisions):
            break
        rng = np.random.default_rng(seed * 104729 + g)
        env = None
        for d in decisions(env_id, options, seed + g):
            env = d.env
            played += 1
            if d.step % every:
                continue
            game = d.env.game
            assert game is not None
            where = f"{env_id} {dict(options)} seed {seed + g} step {d.step}"
            for observer in range(game.num_players):
                _check_redeal(game, observer, rng, where, stats)
            if not game.move_in_progress():
                _check_hidden_choices(game, rng, counterfactuals, where, stats)
        final = None if env is None else env.game
        if final is not None and final.is_terminal:  # the final observations keep the same secrets
            for observer in range(final.num_players):
                _check_redeal(final, observer, rng, f"{env_id} {dict(options)} seed {seed + g} after the end", stats)
                stats["terminal_redeals"] += 1
    return stats


def _check_redeal(
    game: RulesEngine[Any], observer: int, rng: np.random.Generator, where: str, stats: dict[str, int]
) -> None:
    before = game.observation(observer)
    other = game.resample_hidden(observer, rng)
    stats["redeals"] += 1
    if json.dumps(other.privileged_state(), sort_keys=True) != json.dumps(game.privileged_state(), sort_keys=True):
        stats["redeals_changed_state"] += 1
    after = other.observation(observer)
    diff = np.flatnonzero(before != after)
    _fail(
        not len(diff),
        f"{where}: player {observer}'s observation changed when hidden cards were re-dealt at "
        f"{_features_at(game, diff)}",
    )
    if game.current_player == observer:
        _fail(np.array_equal(game.legal_mask(), other.legal_mask()), f"{where}: mask changed under a re-deal")
    _fail(sorted(game.card_multiset()) == sorted(other.card_multiset()), f"{where}: a re-deal changed the cards")


def _check_hidden_choices(
    game: RulesEngine[Any], rng: np.random.Generator, limit: int, where: str, stats: dict[str, int]
) -> None:
    """Moves of the player to act that make the same events, as one observer sees them (public parts plus
    that observer's private parts: a card handed over face down is seen by its receiver), must leave that
    observer's observation and mask identical."""
    actor = game.current_player
    moves = game.legal_moves()
    outcomes: list[tuple[RulesEngine[Any], list[Any]]] = []
    for i in rng.choice(len(moves), size=min(limit, len(moves)), replace=False):
        clone = game.clone()
        start = len(clone.events)
        for a in clone.move_actions(moves[int(i)]):
            clone.apply(a)
        outcomes.append((clone, clone.events.events[start:]))
    for observer in range(game.num_players):
        if observer == actor:
            continue
        by_view: dict[str, list[RulesEngine[Any]]] = {}
        for clone, events in outcomes:
            by_view.setdefault(observer_view(events, observer), []).append(clone)
        for clones in by_view.values():
            first = clones[0]
            for other in clones[1:]:
                stats["choice_pairs"] += 1
                diff = np.flatnonzero(first.observation(observer) != other.observation(observer))
                _fail(
                    not len(diff),
                    f"{where}: player {actor}'s hidden choice leaks into player {observer}'s "
                    f"observation at {_features_at(game, diff)}",
                )
                if first.current_player == observer and other.current_player == observer:
                    _fail(
                        np.array_equal(first.legal_mask(), other.legal_mask()),
                        f"{where}: player {actor}'s hidden choice changes player {observer}'s mask",
                    )


def _features_at(game: RulesEngine[Any], indices: np.ndarray) -> str:
    names = [f.name for f in game.layout.features.values() if any(f.offset <= i < f.offset + f.size for i in indices)]
    return f"indices {indices[:8].tolist()} (features {names})"


def check_card_conservation(env_id: EnvSpec, options: Mapping[str, Any], games: int, seed: int = 0) -> None:
    """The multiset of cards in play never changes during an episode."""
    for g in range(games):
        reference: list[int] | None = None
        for d in decisions(env_id, options, seed + g):
            assert d.env.game is not None
            cards = sorted(d.env.game.card_multiset())
            if reference is None:
                reference = cards
            _fail(cards == reference, f"{env_id} {dict(options)} seed {seed + g} step {d.step}: cards not conserved")


def check_episode_bounds(env_id: EnvSpec, options: Mapping[str, Any], games: int, seed: int = 0) -> float:
    """Every episode ends (by the rules or at the step cap); returns the share truncated by the cap."""
    truncated = 0
    for g in range(games):
        env = build_env(env_id, options)
        env.reset(seed=seed + g)
        rng = np.random.default_rng(seed + g)
        limit = env.max_steps + env.num_agents + 1
        for n, agent in enumerate(env.agent_iter()):
            _fail(n <= limit, f"{env_id} {dict(options)} seed {seed + g}: episode ran past max_steps={env.max_steps}")
            obs, _, term, trunc, _ = env.last()
            truncated += int(trunc and agent == env.possible_agents[0])
            env.step(None if term or trunc else random_legal_action(obs["action_mask"], rng))
    return truncated / games


def check_determinism(env_id: EnvSpec, options: Mapping[str, Any], seed: int = 0) -> None:
    """The same seed gives the same episode in this process, again, and in a fresh interpreter
    (``env_id`` must then be a registered id or a ``"module:NAME"`` path)."""
    if not isinstance(env_id, str):
        raise TypeError("check_determinism needs an env id or a 'module:NAME' path to run in another process")
    here = trace_digest(env_id, options, seed)
    _fail(here == trace_digest(env_id, options, seed), f"{env_id}: two runs with seed {seed} differ in one process")
    code = (
        "import json,sys; from cardenvs.testing.rollout import trace_digest; "
        "print(trace_digest(sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3])))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, env_id, json.dumps(dict(options)), str(seed)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    _fail(out == here, f"{env_id} {dict(options)}: seed {seed} gives a different episode in another process")


def check_distinct_deals(env_id: EnvSpec, options: Mapping[str, Any], seeds: int = 8) -> None:
    """Different seeds give different deals."""
    states = set()
    for s in range(seeds):
        env = build_env(env_id, options)
        env.reset(seed=s)
        states.add(json.dumps(env.privileged_state(), sort_keys=True))
    _fail(len(states) == seeds, f"{env_id} {dict(options)}: only {len(states)} distinct deals from {seeds} seeds")


def check_copy_and_pickle(env_id: EnvSpec, options: Mapping[str, Any], seed: int = 0) -> None:
    """An env deep-copied or pickled mid-game continues exactly like the original."""
    env = build_env(env_id, options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(int(rng.integers(5, 40))):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        env.step(random_legal_action(obs["action_mask"], rng))
    twins = [env, copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    for _ in range(5000):
        if not env.agents:
            break
        lasts = [t.last() for t in twins]
        obs0 = lasts[0][0]
        for k, (obs, reward, term, trunc, _) in enumerate(lasts[1:], 1):
            _fail(
                np.array_equal(obs["observation"], obs0["observation"])
                and reward == lasts[0][1]
                and term == lasts[0][2]
                and trunc == lasts[0][3],
                f"{env_id}: the {'deep copy' if k == 1 else 'unpickled env'} diverged from the original",
            )
        action = None if lasts[0][2] or lasts[0][3] else random_legal_action(obs0["action_mask"], rng)
        for t in twins:
            t.step(action)


def check_render(env_id: EnvSpec, options: Mapping[str, Any], seed: int = 0) -> None:
    """``render_mode="ansi"`` returns readable text at the start and at the end of a game."""
    env = build_env(env_id, {**options, "render_mode": "ansi"})
    env.reset(seed=seed)
    _fail(isinstance(env.render(), str) and len(env.render() or "") > 0, f"{env_id}: render() returned no text")
    rng = np.random.default_rng(seed)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else random_legal_action(obs["action_mask"], rng))
    _fail(isinstance(env.render(), str), f"{env_id}: render() after the game returned no text")
