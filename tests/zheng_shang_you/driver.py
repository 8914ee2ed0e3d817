"""Helpers to drive a Zheng Shang You engine from explicit deals, by card text."""

from __future__ import annotations

from typing import Any

from cardenvs.zheng_shang_you.actions import Give, Pass, Take
from cardenvs.zheng_shang_you.combos import KIND_NAMES, Combo
from cardenvs.zheng_shang_you.game import ZsyGame
from cardenvs.zheng_shang_you.options import ZsyOptions
from cardenvs.zheng_shang_you.ranks import VALUE_TEXT, parse, text


def new_game(hands: list[str], dealer: int | None = None, **kwargs: Any) -> ZsyGame:
    """A game from explicit hands; keyword arguments go to ``from_deal`` if it takes them, else to the options."""
    deal_keys = {"prev_order", "totals", "shown_card"}
    deal = {k: v for k, v in kwargs.items() if k in deal_keys}
    options = ZsyOptions(num_players=len(hands), **{k: v for k, v in kwargs.items() if k not in deal_keys})
    return ZsyGame.from_deal(options, hands, dealer=dealer, **deal)


def apply_all(game: ZsyGame, actions: list[int]) -> None:
    """Apply actions one by one, checking each is in the mask first."""
    for a in actions:
        assert game.legal_mask()[a], f"{game.describe_action(a)} is masked out; legal: {game.describe_legal()}"
        game.apply(a)


def combos_now(game: ZsyGame) -> list[Combo]:
    """The complete plays legal for the player to act."""
    return [m for m in game.legal_moves() if isinstance(m, Combo)]


def described(combos: list[Combo]) -> set[tuple[str, str, str]]:
    """(kind, top rank, cards) of each combination, for readable equality checks."""
    return {(KIND_NAMES[c.kind], VALUE_TEXT[c.top], text(c.cards)) for c in combos}


def play(game: ZsyGame, cards: str, top: str | None = None, kind: str | None = None) -> Combo:
    """Play the legal combination made of ``cards`` (and with this top rank / kind, if several are)."""
    wanted = tuple(parse(cards))
    found = [
        c
        for c in combos_now(game)
        if c.cards == wanted
        and (top is None or VALUE_TEXT[c.top] == top)
        and (kind is None or KIND_NAMES[c.kind] == kind)
    ]
    assert len(found) == 1, f"{len(found)} legal plays match {cards!r} (top {top}, kind {kind}): {found}"
    apply_all(game, game.move_actions(found[0]))
    return found[0]


def pass_turn(game: ZsyGame) -> None:
    apply_all(game, game.move_actions(Pass()))


def give(game: ZsyGame, card: str) -> None:
    apply_all(game, game.move_actions(Give(parse(card)[0])))


def take(game: ZsyGame, slot: int) -> None:
    apply_all(game, game.move_actions(Take(slot)))


def hand_text(game: ZsyGame, seat: int) -> str:
    from cardenvs.zheng_shang_you.ranks import bits_list

    return text(bits_list(game.hands[seat]))


def events_of(game: ZsyGame, kind: str) -> list[dict[str, Any]]:
    return game.events.of_kind(kind)
