"""The deal of Goninkan and Yoninkan (spec §4): ten cards to each active player, from the generator or from the
scripted deals of an explicit game, dealt again while Yoninkan's ``redeal`` option refuses a deal-1 hand that holds
both key cards."""

from __future__ import annotations

from typing import Any

from cardenvs.core.cards import SUIT_TEXT
from cardenvs.core.errors import InvalidOptionError
from cardenvs.goninkan.table import HAND_SIZE, KankeiTable


class Dealing:
    """Deals the hands of a deal and logs them; the game then hands the table to the next phase."""

    def deal(self, table: KankeiTable[Any], trump: int) -> None:
        """Deal this deal's hands (``trump`` is deal 1's suit, ``-1`` before deals 2 and 3 choose one)."""
        scripted = bool(table._scripted_deals)
        hands = self._hands(table)
        while table.deal == 1 and self._must_redeal(table, hands):
            if scripted:
                raise InvalidOptionError(
                    "this deal gives one player both key cards, which yoninkan_double='redeal' deals again"
                )
            hands = self._hands(table)
        table.reset_deal(hands, trump)
        table.events.add(
            "deal",
            public={
                "round": table.round_number,
                "deal": table.deal,
                "dealer": table.dealer,
                "trump": SUIT_TEXT[trump] if trump >= 0 else None,
            },
            private={p: {"hand": table.cards_text(table.hands[p])} for p in range(table.num_players) if table.hands[p]},
        )

    @staticmethod
    def _hands(table: KankeiTable[Any]) -> list[list[int]]:
        if table._scripted_deals:
            scripted = table._scripted_deals.pop(0)
            sizes = [len(h) for h in scripted]
            if sizes != [HAND_SIZE if table.is_active(p) else 0 for p in range(table.num_players)]:
                raise InvalidOptionError(
                    f"each player must be dealt {HAND_SIZE} cards (none to a dealer who sits out, here player "
                    f"{table.dealer} with 6 players); got hand sizes {sizes}"
                )
            return scripted
        hands: list[list[int]] = [[] for _ in range(table.num_players)]
        order = table.rng.permutation(table.deck_size)
        for i, p in enumerate(table.active_players()):
            hands[p] = sorted(int(c) for c in order[i * HAND_SIZE : (i + 1) * HAND_SIZE])
        return hands

    @staticmethod
    def _must_redeal(table: KankeiTable[Any], hands: list[list[int]]) -> bool:
        if not table.rules.redeal_on_double:
            return False
        joker, key = table.key_cards()
        return any(joker in h and key in h for h in hands)
