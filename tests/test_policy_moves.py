"""A policy's complete legal moves (:mod:`cardenvs.agents.moves`), rebuilt from its observation alone, are the
moves the env's action masks allow, and a file policy written against that API plays whole tournaments."""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cardenvs
from cardenvs.agents import PolicyContext
from cardenvs.agents.moves import MovePolicy, WorldMoves, legal_moves, move_actions, move_features
from cardenvs.agents.play import play_episode
from cardenvs.agents.search import InformationSets
from cardenvs.agents.tournament import Tournament
from cardenvs.zheng_shang_you.actions import Give, Pass, Take
from cardenvs.zheng_shang_you.combos import Combo
from cardenvs.zheng_shang_you.game import ZsyGame

DOCS = Path(__file__).resolve().parent.parent / "docs"
VARIANTS = [
    {"num_players": 4, "target_points": 3},
    {"num_players": 5, "target_points": 3, "joker_keeps_suitedness": False},
    {"num_players": 6, "team_mode": "san_jia_xi", "target_points": 6, "set_sequence_top": "2"},
    {"num_players": 4, "team_mode": "partners", "target_points": 7, "return_face_up": False},
]
"""Short matches (so deals 2+ and their exchange come up), across the player counts and rule variants."""


def decisions(options: dict[str, Any], seed: int) -> Iterator[tuple[ZsyGame, dict[str, np.ndarray], PolicyContext]]:
    """Every decision of one randomly played match: the engine, the deciding seat's observation, the context."""
    env = cardenvs.make("zheng_shang_you-v0", **options)
    env.reset(seed=seed)
    context, rng = PolicyContext.from_env(env), np.random.default_rng(seed)
    for _agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        yield env.unwrapped.game, observation, context
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


def mask_paths(game: ZsyGame, seat: int) -> set[tuple[int, ...]]:
    """Every action-id sequence that the masks let ``seat`` take from here to the end of its move."""
    found: set[tuple[int, ...]] = set()
    for action in np.flatnonzero(game.legal_mask()):
        child = game.clone()
        child.apply(int(action))
        if child.move_in_progress() and child.current_player == seat:
            found |= {(int(action), *rest) for rest in mask_paths(child, seat)}
        else:
            found.add((int(action),))
    return found


def as_paths(moves: list[Hashable], observation: dict[str, np.ndarray], context: PolicyContext) -> set[tuple[int, ...]]:
    return {tuple(move_actions(m, observation, context)) for m in moves}


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: f"{o['num_players']}p-{o.get('team_mode', 'solo')}")
def test_the_moves_read_off_an_observation_are_the_engines_complete_legal_moves(options: dict[str, Any]) -> None:
    kinds: set[type] = set()
    mid_move = 0
    for seed in range(5):
        for game, observation, context in decisions(options, seed):
            moves = legal_moves(observation, context)
            truth = game.legal_moves()
            assert len(set(moves)) == len(moves) and set(moves) == set(truth), (game.describe_legal(), moves)
            assert [move_actions(m, observation, context) for m in truth] == [game.move_actions(m) for m in truth]
            assert move_features(moves, context).shape == (len(moves), game.legal_move_features()[1].shape[1])
            kinds |= {type(m) for m in moves}
            mid_move += game.move_in_progress()
    assert kinds == {Pass, Combo, Give, Take} and mid_move > 100  # leads, follows, sub-steps and the exchange


def test_the_moves_are_exactly_the_paths_the_action_masks_allow() -> None:
    walked = 0
    for options in VARIANTS[:2]:
        for game, observation, context in decisions(options, seed=7):
            moves = legal_moves(observation, context)
            if len(moves) > 40 and walked % 5:  # walk every large lead menu now and then: it costs a clone a step
                continue
            assert as_paths(moves, observation, context) == mask_paths(game, game.current_player)
            walked += 1
    assert walked > 200


def test_bad_requests_get_clear_errors() -> None:
    env = cardenvs.make("zheng_shang_you-v0")
    env.reset(seed=1)
    context = PolicyContext.from_env(env)
    seat = env.agent_selection
    waiting = next(a for a in env.agents if a != seat)
    with pytest.raises(ValueError, match="not the seat's turn"):
        legal_moves(env.observe(waiting), context)
    observation = env.observe(seat)
    first = legal_moves(observation, context)[0]
    env.step(move_actions(first, observation, context)[0])
    if env.agent_selection == seat:  # the play is being built: another play does not continue it
        other = next(m for m in legal_moves(observation, context) if m != first and m.shape != first.shape)
        with pytest.raises(ValueError, match="does not continue"):
            move_actions(other, env.observe(seat), context)
    kyuuri = cardenvs.make("kyuuri-v0")
    kyuuri.reset(seed=0)
    with pytest.raises(ValueError, match="games with them: zheng_shang_you"):  # a MovePolicy plays it (below)
        legal_moves(kyuuri.observe(kyuuri.agent_selection), PolicyContext.from_env(kyuuri))


def test_a_move_policy_must_choose_one_of_its_moves() -> None:
    class OutOfRange(MovePolicy):
        def choose(self, observation: Any, moves: list[Hashable], features: np.ndarray) -> int:
            return len(moves)

    env = cardenvs.make("zheng_shang_you-v0")
    env.reset(seed=0)
    with pytest.raises(IndexError, match="chose move"):
        OutOfRange(PolicyContext.from_env(env)).act(env.observe(env.agent_selection))


def test_the_documented_file_policy_plays_whole_tournaments_without_an_illegal_move(tmp_path: Path) -> None:
    page = (DOCS / "benchmark.md").read_text()
    source = re.search(r"```python\n(# shedder\.py\n.*?)```", page, flags=re.DOTALL)
    assert source is not None, "docs/benchmark.md lost its worked example"
    imports = set(re.findall(r"^(?:from|import) (\S+)", source.group(1), flags=re.MULTILINE))
    assert imports <= {"numpy", "cardenvs.agents.moves", "cardenvs.zheng_shang_you.features"}
    assert len(source.group(1).splitlines()) <= 22
    (tmp_path / "shedder.py").write_text(source.group(1))
    for options in ({"episode": "deal"}, {"num_players": 5, "target_points": 3}):
        entrants = [f"{tmp_path / 'shedder.py'}:Shedder", "zheng_shang_you/rule"]
        tournament = Tournament("zheng_shang_you-v0", entrants, games=2, options=options)
        result = tournament.run(tmp_path / f"t{options.get('num_players', 4)}.sqlite", workers=1, move_timeout=None)
        assert result.played_now == len(result.records) >= 2  # an illegal move would have stopped the tournament


OTHER_GAMES = [e for e in cardenvs.ENV_IDS if "zheng_shang_you" not in e]


class AnyMove(MovePolicy):
    """Plays a uniformly random complete move."""

    def choose(self, observation: Any, moves: list[Hashable], features: np.ndarray) -> int:
        assert features.shape == (len(moves), 0)
        return int(self.rng.integers(len(moves)))


@pytest.mark.parametrize("env_id", OTHER_GAMES)
def test_other_games_moves_read_off_a_sampled_world_are_the_true_ones(env_id: str) -> None:
    env = cardenvs.make(env_id)
    tables, rng, steps, longest = InformationSets(env), np.random.default_rng(5), 0, 0
    for seed in range(12):  # until a move of several sub-steps came up (Goninkan's show: deals 2 and 3 only)
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            game = env.unwrapped.game
            reader = WorldMoves(tables.sample(rng))
            moves = reader.moves(observation)
            assert set(moves) == set(game.legal_moves())
            actions = [reader.actions(m, observation) for m in moves]
            assert actions == [game.move_actions(m) for m in moves]
            longest = max(longest, *map(len, actions))
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
        if steps > 20 and (longest > 1 or "kyuuri" in env_id):  # Kyuuri's moves are single cards
            break
    assert steps > 20 and (longest > 1 or "kyuuri" in env_id), longest


@pytest.mark.parametrize("env_id", OTHER_GAMES)
def test_a_move_policy_plays_every_game_through_its_sub_steps(env_id: str) -> None:
    env = cardenvs.make(env_id)
    context = PolicyContext.from_env(env)
    seats = [AnyMove(context) for _ in env.possible_agents]
    for seed in range(2):
        result = play_episode(env, seats, seed=seed)  # an illegal sub-step would raise PolicyFault
        assert result.decisions > 0 and not result.truncated
    assert play_episode(env, seats, seed=1).events == result.events  # the sampled worlds are drawn reproducibly
    alone = AnyMove(context)
    env.reset(seed=0)
    with pytest.raises(RuntimeError, match="InformationSets"):
        alone.act(env.observe(env.agent_selection))
