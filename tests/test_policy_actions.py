"""A policy's action must be an integer id: a float or a bool is refused with an error naming the policy, never
rounded by ``int()`` and played (NumPy integers are action ids like ``int``)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cardenvs
from cardenvs.agents.base import Policy, PolicyContext
from cardenvs.agents.play import PolicyFault, play_episode
from cardenvs.agents.specs import make_policy
from cardenvs.core.errors import ActionTypeError
from cardenvs.core.views import checked_action
from tests.user_policies import MISBEHAVING, write_policy

GAME = "verish_ne_verish-v0"


class Returns(Policy):
    """Plays the first legal action, converted by ``kind``."""

    def __init__(self, context: PolicyContext, kind: Any):
        super().__init__(context)
        self.kind, self.name = kind, f"returns-{getattr(kind, '__name__', kind)}"

    def act(self, observation: Mapping[str, np.ndarray]) -> int:
        legal = int(np.flatnonzero(observation["action_mask"])[0])
        return self.kind(legal)  # type: ignore[no-any-return]


@pytest.mark.parametrize("kind", [float, np.float32, lambda a: a + 0.9, lambda a: True, np.bool_, str])
def test_play_episode_refuses_a_non_integer_action_naming_the_policy(kind: Any) -> None:
    env = cardenvs.make(GAME, num_players=3)
    context = PolicyContext.from_env(env)
    policy = Returns(context, kind)
    with pytest.raises(PolicyFault, match=rf"'{policy.name}' at seat 0 failed \(illegal\).*of type") as caught:
        play_episode(env, [policy, make_policy("random", env), make_policy("random", env)], seed=1)
    assert caught.value.kind == "illegal" and isinstance(caught.value.__cause__, ActionTypeError)


@pytest.mark.parametrize("kind", [int, np.int64, np.uint8, lambda a: np.array([a])])
def test_integer_actions_of_any_integer_type_play(kind: Any) -> None:
    env = cardenvs.make(GAME, num_players=3)
    context = PolicyContext.from_env(env)
    played = play_episode(env, [Returns(context, kind)] * 3, seed=1)
    as_int = play_episode(env, [Returns(context, int)] * 3, seed=1)
    assert played.decisions > 0  # the first legal move each time: the game runs to the step cap, as with ints
    assert (played.decisions, played.returns, played.events) == (as_int.decisions, as_int.returns, as_int.events)


def test_a_file_policy_returning_legal_plus_point_nine_is_refused(tmp_path: Path) -> None:
    env = cardenvs.make(GAME, num_players=3)
    path = write_policy(tmp_path, MISBEHAVING, "bad.py")
    floater = make_policy(f"{path}:floater", env)
    with pytest.raises(PolicyFault, match=r"'floater' at seat 1 .*returned \d+\.9 of type float"):
        play_episode(env, [make_policy("random", env), floater, make_policy("random", env)], seed=3)
    with pytest.raises(ActionTypeError, match="'yes' returned True of type bool"):
        make_policy(f"{path}:yes", env).act(env.observe(env.agent_selection))


def test_checked_action_keeps_integer_ids() -> None:
    policy = Returns(PolicyContext.from_env(cardenvs.make(GAME)), int)
    assert [checked_action(a, policy) for a in (3, np.int8(3), np.array([3]))] == [3, 3, 3]
    with pytest.raises(ActionTypeError, match=r"'returns-int' returned 3\.0 of type float"):
        checked_action(3.0, policy)
