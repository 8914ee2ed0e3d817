"""Action ids of Goninkan and Yoninkan (a stable contract: see the docs page's action tables) and the moves.

With a deck of ``D`` cards (50 or 40; index order: plain cards by ascending card id, the joker last)::

    play(card)        D-1  play a plain card to the trick
    lead_joker(suit)  4    lead the joker, naming the suit to follow
    joker             1    play the joker to a trick someone else led
    lead_choice       2    (Goninkan) deal 1: いく (I lead) / こい (my partner leads)
    show(card)        D    deals 2/3: the partner picks the two cards to show, lower index first
    trump(suit)       4    deals 2/3: the chooser names the trump suit
    sweep             2    after a skunk / reverse skunk in deal 2/3: declare (じゅうろく or 逆じゅうろく) / stop
    blind_swap        20   (Goninkan, nijukan_exchange="chooser_picks_blind") key slot × card slot
    declare(kind)     5    (Yoninkan, trick 1, before the card) none / スコンク / じゅうろく / 逆スコンク / 逆じゅうろく

Composite moves: the show (two picks, ascending) and, in Yoninkan's trick 1, a declaration then a card.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from cardenvs.core.cards import SUIT_TEXT
from cardenvs.core.layout import ActionTable
from cardenvs.goninkan.scoring import KIND_TEXT

KEY_SLOTS = 2
CARD_SLOTS = 10
NO_DECLARATION = -1


@dataclass(frozen=True, slots=True)
class Play:
    """Play card index ``card``; ``suit`` is the suit named when leading the joker (else -1); ``declaration``
    (Yoninkan trick 1) is the declaration made with it: a :class:`~cardenvs.goninkan.scoring.Kind` value,
    ``NO_DECLARATION``, or ``None`` where no declaration step is offered."""

    card: int
    suit: int = -1
    declaration: int | None = None


@dataclass(frozen=True, slots=True)
class LeadChoice:
    """いく (``lead=True``: I lead) or こい (my partner leads)."""

    lead: bool


@dataclass(frozen=True, slots=True)
class Show:
    """The two card indices shown to the trump chooser, ascending."""

    low: int
    high: int


@dataclass(frozen=True, slots=True)
class ChooseTrump:
    suit: int


@dataclass(frozen=True, slots=True)
class Sweep:
    """Declare じゅうろく / 逆じゅうろく (``declare=True``) or stop."""

    declare: bool


@dataclass(frozen=True, slots=True)
class BlindSwap:
    """The opponent between the 二重関 partners takes face-down key slot ``key`` and card slot ``card``."""

    key: int
    card: int


KankeiMove = Play | LeadChoice | Show | ChooseTrump | Sweep | BlindSwap


@cache
def action_table(card_labels: tuple[str, ...], goninkan: bool) -> ActionTable:
    """The action table for a deck labelled ``card_labels`` (joker last)."""
    blocks: list[tuple[str, list[str] | tuple[str, ...], str]] = [
        ("play", card_labels[:-1], "play this card to the trick"),
        ("lead_joker", SUIT_TEXT, "lead the joker, naming the suit the others must follow"),
        ("joker", [""], "play the joker to a trick led by someone else"),
        ("show", card_labels, "deals 2/3, the chooser's partner: show this card (two picks, lower index first)"),
        ("trump", SUIT_TEXT, "deals 2/3: the chooser names the trump suit"),
        (
            "sweep",
            ["declare", "stop"],
            "after a skunk (reverse skunk) in deal 2/3: declare じゅうろく (逆じゅうろく) or stop",
        ),
    ]
    if goninkan:
        blocks.insert(3, ("lead_choice", ["いく", "こい"], "deal 1: いく = I lead trick 1, こい = my partner leads it"))
        labels = [f"key{k}·card{c}" for k in range(KEY_SLOTS) for c in range(CARD_SLOTS)]
        blocks.append(
            ("blind_swap", labels, "二重関 with a blind exchange: take this face-down key slot and card slot")
        )
    else:
        blocks.append(("declare", ["none", *KIND_TEXT], "trick 1, before the card: declare (mandatory with the joker)"))
    return ActionTable(blocks)
