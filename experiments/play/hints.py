"""Which cards of the person's hand may be played now, and why the others may not, in plain words.

The server works this out from the seat's legal moves and sends it with the seat's view (``playable``,
``why``, ``rule``); the page and the terminal only show it. Everything here reads the person's own hand and
what is public, so a re-deal of the hidden cards changes none of it (``tests/play/test_hidden.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from cardenvs.core.engine import RulesEngine
from cardenvs.experiments.play.words import move_label
from cardenvs.render.view import CARD_BLOCKS, JOKER_BLOCKS

SUITS = "♣♦♥♠"
SUITED_HANDS = ("goninkan", "yoninkan")
"""Trick-taking games whose hands are shown by suit, then rank."""
PLAIN = (
    ("the player's", "your"),
    ("the player holds", "you hold"),
    ("the player does not", "you do not"),
    ("the player must", "you must"),
    ("a follower must", "you must"),
    ("their lowest", "your lowest"),
    ("is not in the hand", "is not in your hand"),
    ("single: ", "single "),
    (" from here", ""),
)


def sorted_hand(game_name: str, hand: list[str]) -> list[str]:
    """``hand`` by suit then rank in the suited trick-taking games (the engine lists it by rank alone)."""
    if game_name not in SUITED_HANDS:
        return hand
    order = {card: i for i, card in enumerate(hand)}
    return sorted(hand, key=lambda c: (SUITS.index(c[-1]) if c[-1:] in SUITS else len(SUITS), order[c]))


def playable_cards(hand: Sequence[str], moves: Sequence[dict[str, Any]]) -> list[bool]:
    """For each card of ``hand``: does some legal move use a card of that face?"""
    used = {card for move in moves for card in move["cards"]}
    return [card in used for card in hand]


def _plain(reason: str) -> str:
    for engine_words, person_words in PLAIN:
        reason = reason.replace(engine_words, person_words)
    return reason


def _card_action(game: RulesEngine[Any], block: str, card: str) -> int | None:
    """The action of ``block`` that takes ``card`` (the joker's own blocks for ``BJ``), if there is one."""
    names = {f"{block}({card})"} | (set(JOKER_BLOCKS) if card == "BJ" else set())
    for action in range(game.actions.size):
        name = game.describe_action(action)
        if name in names or name.split("(")[0] in names:
            return action
    return None


def card_reason(game: RulesEngine[Any], card: str) -> str:
    """Why ``card`` of the hand cannot be played now: the engine's reason at the sub-step where cards are chosen
    (after the first steps of a legal move with cards, such as a declaration or a shape), in the person's words."""
    for move in game.legal_moves():
        steps = game.move_actions(move)
        blocks = [game.describe_action(a).split("(")[0] for a in steps]
        first = next((i for i, b in enumerate(blocks) if b in CARD_BLOCKS), None)
        if first is None:
            continue
        action = _card_action(game, blocks[first], card)
        if action is None:
            break
        probe = game.clone()
        for step in steps[:first]:
            probe.apply(step)
        reason = probe.illegal_reason(action)
        if reason:
            return _plain(reason)
        break
    return f"{card} cannot be played now"


def table_rule(game_name: str, state: dict[str, Any], moves: Sequence[dict[str, Any]]) -> str:
    """What a play must do at this moment of the game, for a selection that no move takes as it is."""
    if game_name == "zheng_shang_you":
        top = state.get("top")
        if top:
            shape, _, cards = top["combo"].rpartition(": ")
            return f"you must beat {cards} ({shape}) with a higher combination of the same shape, or pass"
        return "a lead must be a single, a set of equal ranks or a sequence"
    if game_name in ("kyuuri", "goninkan", "yoninkan"):
        return "play one card at a time"
    sizes = sorted({len(move["cards"]) for move in moves if move["cards"]})
    if game_name in ("verish_ne_verish", "yukushi") and sizes:
        return f"a play is {sizes[0]} to {sizes[-1]} cards" if len(sizes) > 1 else f"a play is {sizes[0]} card(s)"
    return "these cards cannot be played together now"


def hand_hints(game: RulesEngine[Any], game_name: str, hand: list[str], moves: list[dict[str, Any]]) -> dict[str, Any]:
    """``playable`` (per card of ``hand``), ``why`` (per card: why not, or ``""``) and ``rule`` (what a play must
    do), for the seat to act; empty when it has no move or no move takes cards."""
    if not moves:
        return {"playable": [], "why": [], "rule": ""}
    if not any(move["cards"] for move in moves):
        choices = " or ".join(dict.fromkeys(move_label(move["label"]) for move in moves))
        rule = f"no card can be played now: {choices}"
        return {"playable": [False] * len(hand), "why": [rule] * len(hand), "rule": rule}
    playable = playable_cards(hand, moves)
    reasons: dict[str, str] = {}
    for card, ok in zip(hand, playable, strict=True):
        if not ok and card not in reasons:
            reasons[card] = card_reason(game, card)
    why = ["" if ok else reasons[card] for card, ok in zip(hand, playable, strict=True)]
    return {"playable": playable, "why": why, "rule": table_rule(game_name, game.privileged_state(), moves)}


def refusal(hand: Sequence[str], chosen: Sequence[str], hints: dict[str, Any], moves: Sequence[dict[str, Any]]) -> str:
    """Why no move takes exactly the cards ``chosen`` (a sub-multiset of ``hand``), in plain words; ``""`` if one
    does. The terminal uses it; the page does the same from the message's ``why`` and ``rule``."""
    wanted = Counter(chosen)
    if not wanted:
        return ""
    if Counter(hand) & wanted != wanted:
        missing = next(card for card in wanted if wanted[card] > Counter(hand)[card])
        return f"you hold no {missing}"
    if any(Counter(move["cards"]) == wanted for move in moves):
        return ""
    for card in chosen:
        index = list(hand).index(card)
        if hints["why"] and hints["why"][index]:
            return f"{card}: {hints['why'][index]}"
    if any(not wanted - Counter(move["cards"]) for move in moves):
        return "these cards are part of a legal play: select more"
    return hints["rule"] or "no legal move uses exactly these cards"
