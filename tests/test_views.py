"""Public event views reach the policies that ask for them: in play_episode, the tournament worker and SeatEnv."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

import cardenvs
from cardenvs.agents import PolicyContext, make_policy
from cardenvs.agents.play import play_episode
from cardenvs.agents.tournament import Tournament
from cardenvs.core.views import PublicView
from cardenvs.wrappers import FixedOpponents, SeatEnv
from tests.user_policies import WATCHER, write_policy

GAME = "verish_ne_verish-v0"


class Recorder:
    """Wants the view; keeps every view it was shown (copied) and plays the first legal action."""

    wants_public_view = True

    def __init__(self) -> None:
        self.shown: list[list[dict[str, Any]]] = []

    def act(self, observation: Mapping[str, np.ndarray], view: PublicView) -> int:
        self.shown.append(view.to_list())
        return int(np.flatnonzero(observation["action_mask"])[0])


def test_play_episode_passes_each_seat_its_own_view() -> None:
    env = cardenvs.make(GAME, num_players=3)
    recorder = Recorder()
    policies = [make_policy("random", env, seed=1), recorder, make_policy("random", env, seed=2)]
    play_episode(env, policies, seed=4)
    assert recorder.shown and all(len(a) <= len(b) for a, b in zip(recorder.shown, recorder.shown[1:], strict=False))
    deal = recorder.shown[0][0]
    assert deal["kind"] == "deal" and "hand" in deal and "set_aside" not in deal
    assert recorder.shown[-1] == env.unwrapped.events.visible_to(1)[: len(recorder.shown[-1])]
    plays = [e for e in recorder.shown[-1] if e["kind"] == "play"]
    assert all(("cards" in e) == (e["player"] == 1) for e in plays)  # only its own face-down cards
    assert all("truthful" not in e for e in plays)  # secrets never


def test_seat_env_opponents_get_their_view() -> None:
    recorder = Recorder()
    env = SeatEnv(cardenvs.make(GAME, raw=True, num_players=2), FixedOpponents(lambda seed: recorder), seat=0)
    env.reset(seed=0)
    for _ in range(200):
        _, _, terminated, truncated, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
        if terminated or truncated:
            break
    assert recorder.shown and recorder.shown[0][0]["kind"] == "deal"


def test_a_policy_file_that_wants_the_view_plays_a_tournament(tmp_path: Path) -> None:
    path = write_policy(tmp_path, WATCHER, name="watcher.py")
    tournament = Tournament(GAME, [f"w={path}:Watcher", "random"], games=2, options={"num_players": 2})
    assert tournament.run(tmp_path / "t.sqlite", move_timeout=None).played_now == 2  # in this process: SHOWN is here
    context = PolicyContext.from_env(cardenvs.make(GAME, num_players=2))
    module = sys.modules[type(make_policy(f"{path}:Watcher", context).inner).__module__]  # type: ignore[attr-defined]
    assert module.SHOWN and all(kind == "deal" for _, kind in module.SHOWN)
