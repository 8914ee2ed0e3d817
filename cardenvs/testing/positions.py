"""The position round trip: writing a state and starting from it gives the same game.

:func:`check_position_round_trip` plays a seeded random game some steps, writes its position, starts a second
env there (with another seed) and asserts the same position text, observations, masks, then the same rewards,
observations, masks and rewards due (``last()``) as both play the same random actions to the end (the second
env's generator is copied into the first, so later deals of a match agree too). Each seat's view
(``position(seat=i)``) must start a game in which that seat observes exactly what it observed, and write the same
view back. :func:`position_round_trip_property` drives it with Hypothesis over seeds and depths.
:func:`check_positions_at_every_decision` reads the position and every seat's view back at every decision of a game.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

import numpy as np

from cardenvs.core.aec import CardGameEnv
from cardenvs.testing.checks import _budget_spent
from cardenvs.testing.errors import ConformanceError
from cardenvs.testing.rollout import EnvSpec, build_env, decisions, random_legal_action


def supports_positions(env: CardGameEnv) -> bool:
    return env.definition.write_position is not None and env.definition.read_position is not None


def _play(env: CardGameEnv, rng: np.random.Generator, steps: int) -> None:
    """Up to ``steps`` random legal actions (fewer if the game ends)."""
    for _ in range(steps):
        game = env.game
        if game is None or game.is_terminal or not env.agents or env.truncations[env.agent_selection]:
            return
        env.step(random_legal_action(game.legal_mask(), rng))


def _same_views(a: CardGameEnv, b: CardGameEnv, where: str, seats: range | list[int]) -> None:
    for seat in seats:
        agent = a.possible_agents[seat]
        oa, ob = a.observe(agent), b.observe(agent)
        for key in ("observation", "action_mask"):
            differs = np.flatnonzero(oa[key] != ob[key])
            if len(differs):
                raise ConformanceError(f"{where}: {agent}'s {key} differs at indices {differs[:10].tolist()}")


def check_position_round_trip(
    env_id: EnvSpec, options: Mapping[str, Any], seed: int, steps: int, future: int = 400
) -> bool:
    """One round trip after ``steps`` random actions of game ``seed`` (see the module docstring). Returns
    ``False`` if the game ended before there was a position to write."""
    env = build_env(env_id, options)
    env.reset(seed=seed)
    _play(env, np.random.default_rng(seed + 17), steps)
    if env.game is None or env.game.is_terminal or not env.agents:
        return False
    where = f"{env.definition.env_id} {dict(options)} seed {seed} after {steps} steps"
    text = env.position()
    copy_env = build_env(env_id, options)
    copy_env.reset(seed=seed + 1, options={"position": text})
    if copy_env.position() != text:
        again = copy_env.position()
        raise ConformanceError(f"{where}: the position read back writes differently:\n{text}\n---\n{again}")
    players = range(len(env.possible_agents))
    _same_views(env, copy_env, where + " (position read back)", players)
    for seat in players:
        view = env.position(seat=seat)
        sampled = build_env(env_id, options)
        sampled.reset(seed=seed + 2 + seat, options={"position": view})
        _same_views(env, sampled, f"{where} (seat {seat}'s view read back)", [seat])
        if sampled.position(seat=seat) != view:
            raise ConformanceError(f"{where}: seat {seat}'s view read back writes differently:\n{view}")
    assert env.game is not None and copy_env.game is not None
    env.game.rng = copy.deepcopy(copy_env.game.rng)  # later deals of a match come from it
    rng = np.random.default_rng(seed + 23)
    for step in range(future):
        if not env.agents:
            break
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            action = None
        else:
            action = random_legal_action(env.game.legal_mask(), rng)
        env.step(action)
        copy_env.step(action)
        if env.rewards != copy_env.rewards or env.agents != copy_env.agents:
            raise ConformanceError(f"{where}: {step} steps after the position, rewards or agents differ")
        if _pending_rewards(env) != _pending_rewards(copy_env):
            raise ConformanceError(f"{where}: {step} steps after the position, the rewards due (last()) differ")
        if env.agents and copy_env.agent_selection != env.agent_selection:
            raise ConformanceError(f"{where}: {step} steps after the position, another agent is to act")
        if env.agents:
            _same_views(env, copy_env, f"{where}, {step} steps after the position", players)
    return True


def check_positions(env_id: EnvSpec, options: Mapping[str, Any], games: int, seed: int = 0) -> int:
    """Round trips at a few depths of ``games`` seeded games (none for a game without a notation); returns how
    many positions were checked."""
    env = build_env(env_id, options)
    if not supports_positions(env):
        return 0
    checked = 0
    for k in range(games):
        for steps in (0, 7 + 13 * k, 60 + 40 * k):
            checked += check_position_round_trip(env_id, options, seed + k, steps, future=150)
    return checked


def position_round_trip_property(env_id: EnvSpec, options: Mapping[str, Any], examples: int = 8) -> None:
    """:func:`check_position_round_trip` over ``examples`` Hypothesis-drawn seeds and depths (needs the
    ``hypothesis`` package, a test dependency)."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    @settings(max_examples=examples, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(seed=st.integers(0, 2**20), steps=st.integers(0, 300))
    def round_trip(seed: int, steps: int) -> None:
        check_position_round_trip(env_id, options, seed, steps, future=150)

    round_trip()


def _pending_rewards(env: CardGameEnv) -> list[float]:
    """What each agent's ``last()`` would report now: rewards paid but not yet collected."""
    return [env._cumulative_rewards.get(a, 0.0) for a in env.possible_agents]


def _read_back(reader: CardGameEnv, text: str, seed: int, where: str) -> CardGameEnv:
    try:
        reader.reset(seed=seed, options={"position": text})
    except Exception as error:
        raise ConformanceError(f"{where}: reading it back raises {error!r}:\n{text}") from error
    return reader


def check_positions_at_decision(env: CardGameEnv, reader: CardGameEnv, where: str) -> None:
    """The position of ``env`` now, and each seat's view, read back through ``reader.reset`` (``reader``: an env
    of the same id and options, reused): the full position gives every seat the same observation and mask, the
    same agent to act, the same privileged state and the same rewards due (``last()``); ``position(seat=i)`` gives
    seat ``i`` the same observation, mask and reward due."""
    players = range(len(env.possible_agents))
    try:
        text = env.position()
    except Exception as error:
        raise ConformanceError(f"{where}: position() raises {error!r}") from error
    _read_back(reader, text, 1, f"{where}, the full position")
    _same_views(env, reader, f"{where} (position read back)", players)
    if reader.privileged_state() != env.privileged_state():
        raise ConformanceError(f"{where}: the position read back has another privileged state:\n{text}")
    if _pending_rewards(reader) != _pending_rewards(env):
        due, got = _pending_rewards(env), _pending_rewards(reader)
        raise ConformanceError(f"{where}: rewards due {due} read back as {got}:\n{text}")
    if reader.agent_selection != env.agent_selection:
        raise ConformanceError(f"{where}: {reader.agent_selection} acts in the position read back:\n{text}")
    for seat in players:
        try:
            view = env.position(seat=seat)
        except Exception as error:
            raise ConformanceError(f"{where}: position(seat={seat}) raises {error!r}") from error
        _read_back(reader, view, 2 + seat, f"{where}, seat {seat}'s view")
        _same_views(env, reader, f"{where} (seat {seat}'s view read back)", [seat])
        agent = env.possible_agents[seat]
        if reader._cumulative_rewards[agent] != env._cumulative_rewards[agent]:
            raise ConformanceError(f"{where}: seat {seat}'s reward due is lost in its view:\n{view}")


def check_positions_at_every_decision(
    env_id: EnvSpec,
    options: Mapping[str, Any],
    games: int,
    seed: int = 0,
    every: int = 1,
    max_decisions: int | None = None,
) -> int:
    """:func:`check_positions_at_decision` at every ``every``-th decision of ``games`` seeded random games
    (``every=1``: all of them) and at every decision where a reward is due (paid, not yet collected);
    ``max_decisions``: start no new game once this many are checked (after two games at least). Returns how many
    decisions were checked (0 for a game without a notation)."""
    reader = build_env(env_id, options)
    if not supports_positions(reader):
        return 0
    checked = 0
    for g in range(games):
        if _budget_spent(g, checked, max_decisions):
            break
        for d in decisions(env_id, options, seed + g):
            if d.step % every == 0 or any(_pending_rewards(d.env)):
                where = f"{env_id} {dict(options)} seed {seed + g} step {d.step}"
                check_positions_at_decision(d.env, reader, where)
                checked += 1
    return checked
