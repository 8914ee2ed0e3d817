"""The Verish' ne verish' yardstick styles do what their names promise, at every decision of seeded games."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pytest

import cardenvs
from cardenvs.agents.base import Policy, PolicyContext
from cardenvs.agents.bots.bluffing import claim_truth_probability
from cardenvs.agents.play import play_episode
from cardenvs.agents.yardstick import verish_ne_verish as styles

Check = Callable[[PolicyContext, Mapping[str, np.ndarray], int], None]


class Watched(Policy):
    """Plays ``inner`` and checks each of its decisions."""

    def __init__(self, inner: Policy, check: Check):
        super().__init__(inner.context)
        self.inner, self.check, self.decisions = inner, check, 0

    def reset(self, seed: int | None = None) -> None:
        self.inner.reset(seed)

    def act(self, observation: Mapping[str, np.ndarray]) -> int:
        action = self.inner.act(observation)
        self.check(self.context, observation, action)
        self.decisions += 1
        return action


def view(context: PolicyContext, observation: Mapping[str, np.ndarray]) -> Callable[[str], np.ndarray]:
    return lambda name: observation["observation"][context.layout[name]]


def picked_rank(context: PolicyContext, action: int) -> int | None:
    pick = context.actions["pick"]
    return action - pick.offset if pick.offset <= action < pick.offset + pick.size else None


def challenge_id(context: PolicyContext) -> int:
    return context.actions["challenge"].offset


def may_challenge(context: PolicyContext, observation: Mapping[str, np.ndarray]) -> bool:
    return bool(observation["action_mask"][challenge_id(context)])


def claimed(context: PolicyContext, observation: Mapping[str, np.ndarray]) -> int | None:
    claim = view(context, observation)("claim_rank")
    return int(np.argmax(claim)) if claim.any() else None


def always(context: PolicyContext, observation: Mapping[str, np.ndarray], action: int) -> None:
    if may_challenge(context, observation):
        assert action == challenge_id(context)


def never(context: PolicyContext, observation: Mapping[str, np.ndarray], action: int) -> None:
    assert action != challenge_id(context)


def never_lie(context: PolicyContext, observation: Mapping[str, np.ndarray], action: int) -> None:
    rank, claim = picked_rank(context, action), claimed(context, observation)
    if rank is not None and claim is not None:
        assert rank == claim, f"placed a {rank} on a claim of {claim}"


def truthful(context: PolicyContext, observation: Mapping[str, np.ndarray], action: int) -> None:
    if not may_challenge(context, observation):
        return
    read = view(context, observation)
    sizes = read("hand_sizes")
    owner = int(np.argmax(read("last_play_by")))
    must = claim_truth_probability(read) == 0.0 or (sizes[owner] == 0 and np.count_nonzero(sizes) == 1)
    assert (action == challenge_id(context)) == must
    claim = claimed(context, observation)
    if not must and claim is not None and read("hand")[claim] > 0:
        assert picked_rank(context, action) == claim, "held the claimed rank but lied"


STYLES: dict[str, tuple[type[Policy], Check]] = {
    "always_challenge": (styles.AlwaysChallenge, always),
    "never_challenge": (styles.NeverChallenge, never),
    "never_lie": (styles.NeverLie, never_lie),
    "truthful": (styles.Truthful, truthful),
}


@pytest.mark.parametrize("name", sorted(STYLES))
@pytest.mark.parametrize("players", [2, 4])
def test_each_style_keeps_its_promise_at_every_decision(name: str, players: int) -> None:
    env = cardenvs.make("verish_ne_verish-v0", num_players=players)
    context = PolicyContext.from_env(env)
    style, check = STYLES[name]
    seats: list[Any] = [Watched(style(context, seed=i), check) for i in range(players)]
    for seed in range(12):
        play_episode(env, seats, seed=seed)
    assert sum(seat.decisions for seat in seats) > 100


def situation(pile: str, hand: str = "7 7 7 4 6 8 8 10 J Q K A") -> dict[str, np.ndarray]:
    """Seat 3's observation, following ``pile`` (seat 2 played last), holding ``hand``."""
    position = f"""
dealer: 3
phase: play
turn: 3
hand 0: {unknown(12)}
hand 1: {unknown(12)}
hand 2: {unknown(15 - pile.count("?"))}
hand 3: {hand}
pile: {pile}
set aside: ?
"""
    env = cardenvs.make("verish_ne_verish-v0", num_players=4)
    env.reset(seed=1, options={"position": position})
    return env.unwrapped.observe("player_3")


def unknown(cards: int) -> str:
    return " ".join("?" * cards)


@pytest.mark.parametrize(
    ("pile", "impossible"),
    [("claim 7; 0: ?; 1: ?; 2: ?", False), ("claim 7; 0: ?; 1: ?; 2: ? ?", True)],
)
def test_the_truthful_style_challenges_exactly_the_impossible_claim(pile: str, impossible: bool) -> None:
    env = cardenvs.make("verish_ne_verish-v0", num_players=4)
    context = PolicyContext.from_env(env)
    observation = situation(pile)
    assert (claim_truth_probability(view(context, observation)) == 0.0) == impossible
    action = styles.Truthful(context, seed=0).act(observation)
    assert (action == challenge_id(context)) == impossible
    if not impossible:
        assert picked_rank(context, action) == 5, "holding three 7s it follows truthfully"
