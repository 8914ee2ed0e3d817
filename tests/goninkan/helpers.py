"""Helpers for Goninkan / Yoninkan scenario tests: build explicit deals and play cards by their text."""

from __future__ import annotations

from typing import Any

import numpy as np

from cardenvs.core.cards import SUIT_TEXT, parse_card
from cardenvs.goninkan.game import KankeiGame
from cardenvs.goninkan.options import GoninkanOptions, YoninkanOptions


def goninkan(hands: list[str], **kwargs: Any) -> KankeiGame[GoninkanOptions]:
    """A Goninkan game from explicit hands; options go in ``options=GoninkanOptions(...)``."""
    options = kwargs.pop("options", GoninkanOptions())
    return KankeiGame.from_deal(options, hands, **kwargs)


def yoninkan(hands: list[str], **kwargs: Any) -> KankeiGame[YoninkanOptions]:
    options = kwargs.pop("options", YoninkanOptions())
    return KankeiGame.from_deal(options, hands, **kwargs)


def card(game: KankeiGame[Any], text: str) -> int:
    """Deck index of a card written as text."""
    return game.cards.index(parse_card(text))


def act(game: KankeiGame[Any], block: str, label: str = "", player: int | None = None) -> None:
    """Take the action ``block(label)`` (e.g. ``act(g, "lead_choice", "いく")``), checking who acts."""
    if player is not None:
        assert game.current_player == player, f"expected player {player} to act, got {game.current_player}"
    b = game.actions[block]
    index = b.labels.index(label) if label else 0
    game.apply(b[index])


def play(game: KankeiGame[Any], script: str) -> None:
    """Play cards in turn: ``"p1:A♥ K♥ Q♥"`` (an optional ``pN:`` checks who plays). The joker is ``BJ``
    (following) or ``BJ>♥`` (leading it, naming ♥); ``*スコンク`` before a card declares in Yoninkan's trick 1
    (``*none`` declines explicitly)."""
    for token in script.split():
        if ":" in token:
            who, token = token.split(":")
            assert game.current_player == int(who[1:]), (
                f"expected {who} to play {token}, but player {game.current_player} is to act"
            )
        if token.startswith("*"):
            act(game, "declare", token[1:])
            continue
        if token.startswith("BJ>"):
            game.apply(game.actions["lead_joker"][SUIT_TEXT.index(token[3:])])
        elif token == "BJ":
            game.apply(game.actions["joker"][0])
        else:
            game.apply(game.actions["play"][card(game, token)])


def show(game: KankeiGame[Any], cards: str) -> None:
    """The partner shows two cards (deals 2 and 3)."""
    for c in sorted(card(game, t) for t in cards.split()):
        game.apply(game.actions["show"][c])


def trump(game: KankeiGame[Any], suit: str) -> None:
    game.apply(game.actions["trump"][SUIT_TEXT.index(suit)])


def points(game: KankeiGame[Any]) -> list[float]:
    return [float(x) for x in game.round_points]


def legal_cards_text(game: KankeiGame[Any]) -> set[str]:
    """Names of the legal play actions of the player to act."""
    mask = game.legal_mask()
    return {game.actions.name(int(a)) for a in np.flatnonzero(mask)}


def joker_plays(game: KankeiGame[Any], legal: np.ndarray) -> np.ndarray:
    """Which of the ``legal`` action ids play the joker (led with a named suit, or followed)."""
    return (legal >= game.A_LEAD_JOKER) & (legal <= game.A_JOKER)


def hold_back_joker(game: KankeiGame[Any], legal: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``legal`` without the joker plays nine times in ten when another card may be played, so that random games
    often keep the joker (and the cards it decides) to trick 10."""
    jokers = joker_plays(game, legal)
    if jokers.any() and not jokers.all() and rng.random() < 0.9:
        return legal[~jokers]
    return legal
