"""Credit assignment of SeatEnv on scripted games, and on every registered game against PettingZoo's own loop."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest

import cardenvs
from cardenvs.core.errors import InvalidOptionError
from cardenvs.experiments.speed.sb3_training import TutorialStyleEnv
from cardenvs.registry import make_raw
from cardenvs.wrappers import FixedOpponents, OpponentPool, RandomOpponent, SeatEnv
from tests.wrappers.scripted import Script, scripted_env


class Counting(RandomOpponent):
    """A random opponent that counts its decisions."""

    def __init__(self, seed: int | None = None):
        super().__init__(seed)
        self.calls = 0

    def act(self, observation: Mapping[str, np.ndarray]) -> int:
        self.calls += 1
        return super().act(observation)


def play(env: SeatEnv, seed: int = 0) -> tuple[list[float], list[bool], list[bool]]:
    """One episode with the learner always playing action 0: its rewards, terminations and truncations."""
    env.reset(seed=seed)
    rewards, terms, truncs = [], [], []
    while True:
        assert env.action_masks().any()
        _, r, term, trunc, _ = env.step(0)
        rewards.append(float(r))
        terms.append(term)
        truncs.append(trunc)
        if term or trunc:
            assert not env.action_masks().any()
            return rewards, terms, truncs


def test_the_loser_gets_its_terminal_reward_when_another_seat_ends_the_game() -> None:
    script = Script(deciders=(0, 1, 2), final=(-1.0, 0.5, 0.5))  # seat 2 ends the game; seat 0 loses
    env = SeatEnv(scripted_env([script]), seat=0)
    assert play(env) == ([-1.0], [True], [False])


def test_the_tutorial_style_wrapper_never_passes_the_loser_its_reward() -> None:
    """The difference with the PettingZoo SB3 tutorial's wrapper, on the same game."""
    script = Script(deciders=(0, 1, 2), final=(-1.0, 0.5, 0.5))
    tutorial = TutorialStyleEnv(scripted_env([script]))
    tutorial.reset(seed=0)
    returned = []
    done = False
    while not done:
        _, r, term, trunc, _ = tutorial.step(0)
        returned.append(r)
        done = term or trunc
    assert returned == [0.0, 0.0, 0.5]  # only the last mover's reward: seat 0's −1 is lost
    assert sum(returned) != 0.0  # zero-sum game, yet the learner's experience is not


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_every_seat_of_a_four_player_game_gets_its_own_reward(seat: int) -> None:
    script = Script(deciders=(0, 1, 2, 3, 0, 1, 2, 3, 0, 1), final=(0.25, -1.0, 0.5, 0.25))
    env = SeatEnv(scripted_env([script], num_players=4), seat=seat)
    rewards, terms, _ = play(env)
    assert len(rewards) == script.deciders.count(seat)
    assert rewards[:-1] == [0.0] * (len(rewards) - 1) and rewards[-1] == script.final[seat]
    assert terms[-1] and not any(terms[:-1])


def test_random_seats_are_all_used_and_credited() -> None:
    script = Script(deciders=(0, 1, 2, 3) * 3, final=(1.0, 2.0, 3.0, -6.0))
    env = SeatEnv(scripted_env([script], num_players=4))
    seen = {}
    for episode in range(40):
        rewards, _, _ = play(env, seed=episode)
        seen[env.seat] = sum(rewards)
    assert seen == {0: 1.0, 1: 2.0, 2: 3.0, 3: -6.0}


def test_sub_steps_of_composite_moves_are_learner_steps_and_opponent_sub_steps_are_played_through() -> None:
    script = Script(deciders=(1, 0, 0, 0, 2, 2, 2, 1, 0, 0, 2), final=(-1.0, 1.5, -0.5))
    counting = {1: Counting(1), 2: Counting(2)}
    env = SeatEnv(scripted_env([script]), FixedOpponents({s: (lambda seed, s=s: counting[s]) for s in (1, 2)}), seat=0)
    rewards, terms, _ = play(env)
    assert rewards == [0.0, 0.0, 0.0, 0.0, -1.0]  # five learner decisions, paid when seat 2 ends the game
    assert terms == [False, False, False, False, True]
    assert (counting[1].calls, counting[2].calls) == (2, 4)


def test_rewards_paid_mid_episode_are_summed_until_the_learners_next_decision() -> None:
    # a "match": after decision 2 (seat 2's move) a game is scored, seat 0 gets −1 then +3 at the end
    script = Script(deciders=(0, 1, 2, 1, 0, 2), final=(3.0, -1.0, -2.0), paid_after={2: (-1.0, 0.0, 1.0)})
    env = SeatEnv(scripted_env([script]), seat=0)
    assert play(env)[0] == [-1.0, 3.0]


def test_a_deal_that_ends_before_the_learner_acts_is_dealt_again() -> None:
    quick = Script(deciders=(1, 2), final=(-1.0, 0.0, 1.0))  # seat 0 never decides
    normal = Script(deciders=(1, 0, 2), final=(1.0, -0.5, -0.5))
    env = SeatEnv(scripted_env([quick, quick, normal]), seat=0)
    assert play(env) == ([1.0], [True], [False])
    assert env.redeals == 2


def test_truncation_at_the_step_cap_is_reported_as_truncation() -> None:
    script = Script(deciders=(0, 1, 2) * 10, final=(1.0, -0.5, -0.5))
    env = SeatEnv(scripted_env([script], max_steps=7), seat=0)
    rewards, terms, truncs = play(env)
    assert rewards == [0.0, 0.0, 0.0] and not any(terms) and truncs[-1]


def test_reward_scale_and_bad_seats() -> None:
    script = Script(deciders=(0, 1, 2), final=(-10.0, 5.0, 5.0))
    assert play(SeatEnv(scripted_env([script]), seat=0, reward_scale=0.1))[0] == [-1.0]
    with pytest.raises(InvalidOptionError, match="seat must be None"):
        SeatEnv(scripted_env([script]), seat=3)


def test_opponent_pool_mixes_snapshots_with_fixed_entries() -> None:
    pool = OpponentPool({"a": (RandomOpponent, 1.0), "b": (RandomOpponent, 3.0)}, snapshot_share=0.5, recent=2)
    rng = np.random.default_rng(0)
    counts: dict[str, int] = {}
    for _ in range(2000):
        pool.sample([1], rng)
        counts[pool.last_names[1]] = counts.get(pool.last_names[1], 0) + 1
    assert set(counts) == {"a", "b"} and 0.2 < counts["a"] / 2000 < 0.3
    for name in ("s1", "s2", "s3"):
        pool.add_snapshot(name, RandomOpponent)
    counts = {}
    for _ in range(4000):
        pool.sample([1, 2], rng)
        for seat in (1, 2):
            counts[pool.last_names[seat]] = counts.get(pool.last_names[seat], 0) + 1
    assert "s1" not in counts  # only the two newest snapshots play
    assert 0.45 < (counts["s2"] + counts["s3"]) / 8000 < 0.55
    with pytest.raises(ValueError, match="snapshot_share"):
        OpponentPool(snapshot_share=1.5)


class Recorder:
    """Records the seed and actions a raw env is driven with, to replay them through PettingZoo's own loop."""

    def __init__(self, env: Any):
        self.seeds: list[int | None] = []
        self.actions: list[list[int]] = []
        self.movers: list[str] = []
        reset, step = env.reset, env.step

        def recording_reset(seed: int | None = None, options: Any = None) -> None:
            self.seeds.append(seed)
            self.actions.append([])
            reset(seed=seed)

        def recording_step(action: Any) -> None:
            self.actions[-1].append(int(action))
            self.movers.append(env.agent_selection)
            step(action)

        env.reset, env.step = recording_reset, recording_step


@pytest.mark.parametrize("env_id", cardenvs.ENV_IDS)
def test_returns_match_pettingzoos_agent_iter_on_every_game(env_id: str) -> None:
    """The learner's return equals what ``agent_iter``/``last()`` pays its agent over the same game."""
    options = {"episode": "deal"} if "zheng_shang_you" in env_id else {}
    raw = make_raw(env_id, **options)
    recorder = Recorder(raw)
    env = SeatEnv(raw, normalize=False)
    rng = np.random.default_rng(0)
    nonzero_on_other_moves = 0
    for episode in range(6):
        env.reset(seed=episode)
        total, done = 0.0, False
        while not done:
            legal = np.flatnonzero(env.action_masks())
            _, r, term, trunc, _ = env.step(int(rng.choice(legal)))
            total += float(r)
            done = term or trunc
        seed, actions = recorder.seeds[-1], recorder.actions[-1]
        last_mover = recorder.movers[-1]
        reference = cardenvs.make(env_id, **options)
        reference.reset(seed=seed)
        paid, moves = 0.0, iter(actions)
        for agent in reference.agent_iter():
            _, reward, term, trunc, _ = reference.last()
            if agent == env.agent:
                paid += reward
            reference.step(None if term or trunc else next(moves))
        assert next(moves, None) is None
        assert total == pytest.approx(paid)
        nonzero_on_other_moves += int(last_mover != env.agent and total != 0.0)
    assert nonzero_on_other_moves >= 1  # some games ended on another seat's move and still paid the learner


def test_importing_cardenvs_and_the_wrappers_does_not_import_torch() -> None:
    code = "import sys, cardenvs, cardenvs.wrappers; print('torch' in sys.modules, 'stable_baselines3' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]
