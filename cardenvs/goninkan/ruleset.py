"""What distinguishes Goninkan from Yoninkan, as data the engine reads (so the engine has no game branches
beyond these flags), plus the card tables of each deck in its own index order."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from cardenvs.core.cards import (
    BLACK_JOKER,
    CLUBS,
    DIAMONDS,
    GONINKAN_50,
    HEARTS,
    SPADES,
    YONINKAN_40,
    Deck,
    card_text,
    rank_index,
    rank_of,
    suit_of,
)
from cardenvs.goninkan.options import GoninkanOptions, KankeiOptions, YoninkanOptions
from cardenvs.goninkan.scoring import ScoreTable

DEAL1_TRUMP_CYCLE = (CLUBS, DIAMONDS, HEARTS)
LAST_ROUND_TRUMP = SPADES
TRICKS = 10
HONOUR_RANK = rank_index("J")
JOKER_FORCED_TRICK = 9
"""Goninkan's 踊り番: a joker still held must be played in trick 9."""


@dataclass(frozen=True)
class CardTable:
    """A deck in index order: plain cards ``0..D-2`` (ascending card id), the joker last (``D-1``)."""

    deck: Deck
    ids: tuple[int, ...]
    suit: tuple[int, ...]
    """Suit of each index (-1 for the joker)."""
    rank: tuple[int, ...]
    """Canonical rank index (0 = ``2`` … 12 = ``A``; -1 for the joker)."""
    honour: tuple[bool, ...]
    text: tuple[str, ...]

    @property
    def size(self) -> int:
        return len(self.ids)

    @property
    def joker(self) -> int:
        return len(self.ids) - 1

    def index(self, card_id: int) -> int:
        return self.ids.index(card_id)

    def find(self, rank: int, suit: int) -> int:
        """Index of the plain card of canonical ``rank`` and ``suit``."""
        return self.ids.index(rank * 4 + suit)


@cache
def card_table(deck: Deck) -> CardTable:
    plain = sorted(c for c in deck.cards if c != BLACK_JOKER)
    ids = (*plain, BLACK_JOKER)
    suits = (*(suit_of(c) for c in plain), -1)
    ranks = (*(rank_of(c) for c in plain), -1)
    honours = tuple(r >= HONOUR_RANK for r in ranks)
    return CardTable(deck, ids, suits, ranks, honours, tuple(card_text(c) for c in ids))


@dataclass(frozen=True)
class Ruleset:
    """The rules of one game and option set, resolved."""

    name: str
    num_players: int
    cards: CardTable
    key_rank: int
    """Canonical rank of the trump card that forms 関係 with the joker in deal 1."""
    scores: ScoreTable
    joker_banned_first_and_last: bool
    """Goninkan: never in tricks 1 and 10, forced in trick 9."""
    joker_lowest_in_last_trick: bool
    """Yoninkan: lowest card in trick 10 (wins only if led and unanswered)."""
    joker_lead_weak_every_trick: bool
    hidden_teams: bool
    """Yoninkan: deal 1's teams are hidden."""
    trick1_declarations: bool
    """Yoninkan: declarations in trick 1, mandatory with the joker."""
    redeal_on_double: bool = False
    """Yoninkan with ``yoninkan_double="redeal"``: a deal in which one hand holds both key cards is dealt again."""
    max_declarations_per_side: int = 1
    """Declarations each side may make in a deal."""
    declarations_in_deal1: bool = False
    """Yoninkan: the じゅうろく-type declarations are open in deal 1 too (the スコンク-type ones always are)."""
    double_holding: str = "teams"
    """What one hand holding both key cards makes: Goninkan's ``"nijukan"`` (an exchange with the partner two seats
    on), or Yoninkan's ``yoninkan_double`` (``"redeal"``, ``"one_vs_three"``, ``"opposite_partner"``)."""
    nijukan_exchange: str = "random"
    """Goninkan: how the 二重関 exchange is made (``"random"`` or ``"chooser_picks_blind"``)."""
    kankei_lead_decider: str = "elder"
    """Goninkan: who says いく or こい in deal 1."""
    spade_ace_leads: bool = False
    """Yoninkan ``yoninkan_first_lead="spade_ace"``: the ♠A's holder leads it to trick 1 of deal 1."""

    @property
    def is_goninkan(self) -> bool:
        return self.name == "goninkan"


def ruleset(options: KankeiOptions) -> Ruleset:
    """Resolve options into rules."""
    if isinstance(options, GoninkanOptions):
        targets = (8, 8, 9) if options.nakayoshi else (9, 8, 9)
        return Ruleset(
            name="goninkan",
            num_players=options.num_players,
            cards=card_table(GONINKAN_50),
            key_rank=rank_index("A"),
            scores=ScoreTable(
                targets=targets,
                skunk_need=(9, 8, 9),
                rev_skunk_d1_with_failure_point=options.rev_skunk_d1_includes_failure_point,
                juroku_keeps_deal3_bonus=options.juroku_keeps_deal3_bonus,
            ),
            joker_banned_first_and_last=True,
            joker_lowest_in_last_trick=False,
            joker_lead_weak_every_trick=False,
            hidden_teams=False,
            trick1_declarations=False,
            double_holding="nijukan",
            nijukan_exchange=options.nijukan_exchange,
            kankei_lead_decider=options.kankei_lead_decider,
        )
    assert isinstance(options, YoninkanOptions)
    return Ruleset(
        name="yoninkan",
        num_players=4,
        cards=card_table(YONINKAN_40),
        key_rank=rank_index(options.yoninkan_partner_rank),
        scores=ScoreTable(
            targets=options.deal_targets,
            skunk_need=options.deal_targets,
            declared=options.declared_bonuses(),
            rev_skunk_d1_with_failure_point=options.rev_skunk_d1_includes_failure_point,
            juroku_keeps_deal3_bonus=options.juroku_keeps_deal3_bonus,
        ),
        joker_banned_first_and_last=False,
        joker_lowest_in_last_trick=True,
        joker_lead_weak_every_trick=options.yoninkan_joker_lead_weak_all_tricks,
        hidden_teams=True,
        trick1_declarations=True,
        redeal_on_double=options.yoninkan_double == "redeal",
        max_declarations_per_side=options.max_declarations_per_side,
        declarations_in_deal1=options.declarations_in_deal1,
        double_holding=options.yoninkan_double,
        spade_ace_leads=options.yoninkan_first_lead == "spade_ace",
    )
