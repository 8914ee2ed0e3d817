"""TextArena plays every id through its own API: textarena.make, reset, get_observation, step, close."""

from __future__ import annotations

import random
import re

import pytest

import cardenvs

ta = pytest.importorskip("textarena")  # the optional textarena extra (run.py installs it)


def _player(observation: str, rng: random.Random) -> str:
    """A TextArena agent that sheds cards: a random listed move that is no challenge (random challenges make
    bluffing games long), else the example move the prompt writes out."""
    moves = observation.rsplit("Your legal moves", 1)[-1]
    numbers = re.findall(r"^(\d+)\. (?!challenge)", moves, re.MULTILINE)
    if numbers:
        return f"[{rng.choice(numbers)}]"
    example = re.search(r"for example: (.+)$", moves, re.MULTILINE)
    assert example is not None, moves
    return example.group(1)


@pytest.mark.parametrize("env_id", cardenvs.ENV_IDS)
def test_a_full_game_of_every_id_through_textarena(env_id: str) -> None:
    import cardenvs.agents.textarena as cta

    name = cta.textarena_id(env_id)
    assert name in cta.TEXTARENA_IDS and name in ta.envs.registration.ENV_REGISTRY
    env = ta.make(name)
    seats = len(cardenvs.make(env_id).unwrapped.possible_agents)
    env.reset(num_players=seats, seed=7)
    rng, done, turns = random.Random(7), False, 0
    while not done:
        player, observation = env.get_observation()
        assert f"You are player {player}." in observation
        done, _ = env.step(_player(observation, rng))
        turns += 1
        assert turns < 5000
    rewards, info = env.close()
    assert sorted(rewards) == list(range(seats))
    assert abs(sum(rewards.values())) < 1e-9 and max(rewards.values()) > 0 > min(rewards.values())  # by place
    assert not any(info[p]["invalid_move"] for p in range(seats))


def test_a_move_that_is_not_legal_is_explained_once_then_loses_the_game() -> None:
    import cardenvs.agents.textarena  # noqa: F401

    env = ta.make("cardenvs-kyuuri-v0")
    env.reset(num_players=4, seed=1)
    player, _ = env.get_observation()
    done, _ = env.step("I fold")
    assert not done
    again, observation = env.get_observation()
    assert again == player and "That is not a legal move" in observation
    done, _ = env.step("[99]")
    rewards, info = env.close()
    assert done and rewards[player] == -1.0 and info[player]["invalid_move"]
    assert all(rewards[p] == 0.0 for p in rewards if p != player)


def test_a_wrong_player_count_is_refused_naming_the_count() -> None:
    import cardenvs.agents.textarena  # noqa: F401

    env = ta.make("cardenvs-kyuuri-v0")
    with pytest.raises(ValueError, match="seats 4 players, not 3"):
        env.reset(num_players=3)
