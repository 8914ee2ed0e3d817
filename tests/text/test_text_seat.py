"""The text seat: the prompt leaks nothing (the kit's re-deal check), lists exact moves, and replies parse."""

from __future__ import annotations

import numpy as np
import pytest

import cardenvs
from cardenvs.core.events import seen_by
from cardenvs.testing.text_seat import check_text_seat
from cardenvs.text import parse_reply, seat_prompt

IDS = [i.split("/")[1] for i in cardenvs.ENV_IDS]


@pytest.mark.parametrize("game", IDS)
def test_prompt_unchanged_when_hidden_cards_are_redealt(game: str) -> None:
    stats = check_text_seat(f"cardenvs/{game}", {}, games=2, seed=3)
    assert stats["prompts"] >= 10 and stats["moves"] >= stats["prompts"]


def _prompt_after(game: str, steps: int, seed: int = 1):  # type: ignore[no-untyped-def]
    env = cardenvs.make(game)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    raw = env.unwrapped
    for _ in range(steps):
        env.step(int(rng.choice(np.flatnonzero(raw.game.legal_mask()))))
    while raw.game.move_in_progress():
        env.step(int(np.flatnonzero(raw.game.legal_mask())[0]))
    seat = raw.game.current_player
    return raw.game, seat_prompt(raw.definition.env_id, raw.game, seat, [seen_by(e, seat) for e in raw.events.events])


@pytest.mark.parametrize("game", IDS)
def test_every_listed_move_is_a_complete_legal_move(game: str) -> None:
    world, prompt = _prompt_after(game, 9)
    expected = {tuple(world.move_actions(m)) for m in world.legal_moves()}
    assert {m.actions for m in prompt.moves} <= expected
    assert len(prompt.moves) >= 1 and "Your legal moves" in prompt.situation
    for number, move in enumerate(prompt.moves[: prompt.listed], start=1):
        assert f"\n{number}. {move.label}" in prompt.situation


def test_the_rules_summary_and_the_hand_are_in_the_prompt() -> None:
    world, prompt = _prompt_after("kyuuri-v0", 4)
    seat = world.current_player
    assert "Kyuuri" in prompt.rules and "number of one listed move" in prompt.rules
    hand_line = next(line for line in prompt.situation.splitlines() if line.startswith(f"hand {seat}:"))
    assert "?" not in hand_line
    assert all(
        set(line.split(":")[1].split()) == {"?"}
        for line in prompt.situation.splitlines()
        if line.startswith("hand ") and not line.startswith(f"hand {seat}:") and line.split(":")[1].strip()
    )


def _claim_prompt():  # type: ignore[no-untyped-def]
    """A Yukushi prompt at a play of cards: a few numbered moves and hundreds written out step by step."""
    prompt = _prompt_after("yukushi-v0", 36, seed=2)[1]
    assert 2 <= prompt.listed < len(prompt.moves)
    return prompt


def test_replies_are_read_by_number_or_written_out_with_prose_and_odd_case() -> None:
    prompt = _claim_prompt()
    moves, listed = prompt.moves, prompt.listed
    last = moves[-1]
    assert parse_reply("2", moves, listed).move == moves[1]
    assert parse_reply("I'll go with move 1.", moves, listed).move == moves[0]
    shouted = "Sure! My move:  " + last.label.upper().replace(" ", "   ") + " -- good luck"
    assert parse_reply(shouted, moves, listed).move == last
    assert parse_reply(f"{listed + 5}", moves, listed).status == "illegal"
    assert parse_reply("pick(Z) done", moves, listed).status == "illegal"
    assert parse_reply("I am not sure what to do here", moves, listed).status == "unparseable"
    assert parse_reply("either 1 or 2", moves, listed).status == "unparseable"
    other = next(m for m in moves if len(m.label) == len(last.label) and m != last)
    assert parse_reply(f"{last.label} looks good, but I play {other.label}.", moves, listed).move == other


def test_a_move_written_out_is_not_read_as_the_tail_of_a_longer_one() -> None:
    prompt = _claim_prompt()
    two_card = next(m for m in prompt.moves if len(m.steps) >= 3 and m.steps[-3] != m.steps[-2])
    steps = list(two_card.steps)
    steps[-3], steps[-2] = steps[-2], steps[-3]
    swapped = " ".join(steps)
    parsed = parse_reply(swapped, prompt.moves, prompt.listed)
    assert parsed.move is None or parsed.move.label == swapped
