"""Malformed positions: every mutation of a valid position either loads or raises ``PositionError``.

:func:`check_malformed_positions` writes positions (the full one and a seat's view) at decisions of a seeded random
game, mutates them (character edits, values swapped between lines, odd tokens, lines dropped or doubled, tokens
shuffled) with a fixed seed, and starts an env from each. A mutation must either give a game that can be played on
(its position is written again, every seat observed, its legal moves listed) or raise
:class:`~cardenvs.core.position.PositionError`; any other exception (``ValueError``, ``IndexError``, …) fails.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from cardenvs.core.aec import CardGameEnv
from cardenvs.core.position import PositionError
from cardenvs.testing.errors import ConformanceError
from cardenvs.testing.rollout import EnvSpec, build_env, decisions

CHARACTERS = "0123456789-?;:*, \n\tAKQJT♠♥♦♣²٣é"
"""Characters a character edit inserts or writes over (digits that ``int()`` refuses or reads included)."""
TOKENS: tuple[str, ...] = ("-1", "99", "1000000000000000000000", "?", "?*", "-", "0", "1", "13", "A", "2", "BJ", "RJ")
TOKENS += ("10♠", "leader", "claim", "says", ";", ":", "x", "nan", "inf", "1e9", "3_0", "²")
"""Tokens a token edit writes over a value's token."""

Mutation = Callable[[list[str], random.Random], list[str]]


def _edit_character(lines: list[str], r: random.Random) -> list[str]:
    text = "\n".join(lines)
    i, c = r.randrange(len(text) + 1), r.choice(CHARACTERS)
    edit = r.randrange(3)  # 0 delete, 1 insert, 2 replace
    return (text[:i] + (c if edit else "") + text[i + (edit != 1) :]).split("\n")


def _split(line: str) -> tuple[str, str]:
    key, _, value = line.partition(":")
    return key, value


def _swap_values(lines: list[str], r: random.Random) -> list[str]:
    i, j = r.randrange(len(lines)), r.randrange(len(lines))
    (ki, vi), (kj, vj) = _split(lines[i]), _split(lines[j])
    lines[i], lines[j] = f"{ki}:{vj}", f"{kj}:{vi}"
    return lines


def _edit_token(lines: list[str], r: random.Random) -> list[str]:
    i = r.randrange(len(lines))
    key, value = _split(lines[i])
    tokens = value.split()
    if tokens:
        tokens[r.randrange(len(tokens))] = r.choice([*TOKENS, r.choice(tokens)])
    lines[i] = f"{key}: {' '.join(tokens)}"
    return lines


def _drop_or_double_line(lines: list[str], r: random.Random) -> list[str]:
    i = r.randrange(len(lines))
    return lines[:i] + lines[i + 1 :] if r.random() < 0.5 else [*lines[: i + 1], lines[i], *lines[i + 1 :]]


def _shuffle_tokens(lines: list[str], r: random.Random) -> list[str]:
    i = r.randrange(len(lines))
    key, value = _split(lines[i])
    tokens = value.split()
    r.shuffle(tokens)
    lines[i] = f"{key}: {' '.join(tokens)}"
    return lines


MUTATIONS: tuple[Mutation, ...] = (_edit_character, _swap_values, _edit_token, _drop_or_double_line, _shuffle_tokens)


def mutate(text: str, r: random.Random) -> str:
    """``text`` after one to three random mutations."""
    lines = text.rstrip("\n").split("\n")
    for _ in range(1 + r.randrange(3)):
        if not lines:
            break
        lines = r.choice(MUTATIONS)(lines, r)
    return "\n".join(lines) + "\n"


def _sample_positions(env_id: EnvSpec, options: Mapping[str, Any], seed: int, wanted: int) -> list[str]:
    """Full positions and seat views at decisions spread over seeded games."""
    texts: list[str] = []
    game = 0
    while len(texts) < wanted and game < 4:
        for d in decisions(env_id, options, seed + game):
            if d.step % 11 == 0:
                texts += [d.env.position(), d.env.position(seat=d.step // 11 % len(d.env.possible_agents))]
            if len(texts) >= wanted:
                break
        game += 1
    return texts


def _play_on(env: CardGameEnv) -> None:
    """What a user does next with a loaded position: none of it may fail."""
    env.position()
    for agent in env.possible_agents:
        env.observe(agent)
    env.legal_moves()


def check_malformed_positions(
    env_id: EnvSpec, options: Mapping[str, Any], mutations: int = 400, seed: int = 0
) -> dict[str, int]:
    """``mutations`` mutated positions of ``env_id`` each load (and play on) or raise ``PositionError``; returns
    how many ``loaded`` and how many were ``refused`` (so a test can assert the fuzzing had power)."""
    r = random.Random(seed)
    texts = _sample_positions(env_id, options, seed, 16)
    env = build_env(env_id, options)
    stats = {"loaded": 0, "refused": 0}
    for k in range(mutations):
        text = mutate(texts[k % len(texts)], r)
        try:
            env.reset(seed=k, options={"position": text})
        except PositionError as error:
            if not str(error):
                raise ConformanceError(f"{env_id}: an empty PositionError for:\n{text}") from error
            stats["refused"] += 1
            continue
        except Exception as error:
            raise ConformanceError(f"{env_id} {dict(options)}: reading raises {error!r} for:\n{text}") from error
        try:
            _play_on(env)
        except Exception as error:
            raise ConformanceError(
                f"{env_id} {dict(options)}: a loaded position fails with {error!r}:\n{text}"
            ) from error
        stats["loaded"] += 1
    return stats
