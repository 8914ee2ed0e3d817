"""The scoring table of Goninkan and Yoninkan as pure functions of a deal's honour counts (spec §8, §10).

``K`` and ``M`` are the honours (A K Q J, 16 in all) taken so far by the 関係 (kankei) and 無関係 (mukan)
sides. Deal ``d`` (1, 2, 3) has a target ``T`` for the kankei side; the mukan side defeats it with
``F = 17 - T`` honours. Every line is paid per player and mirrored: each member of the side gets
``+points`` and each member of the other side ``-points``.

A deal is over once everything it pays is decided: the result (``K >= T`` or ``M >= F``), the skunk
status (``K >= S`` with ``M = 0``, or ``M >= 1``), the reverse-skunk status, and every live
declaration. That is the spec's early termination (A4): play stops at the trick that decides it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Literal

HONOURS = 16
"""A, K, Q, J of each suit."""

Side = Literal["kankei", "mukan"]


class Kind(IntEnum):
    """A declaration: the first two are the kankei side's, the last two the mukan side's."""

    SKUNK = 0
    JUROKU = 1
    REV_SKUNK = 2
    REV_JUROKU = 3

    @property
    def side(self) -> Side:
        return "kankei" if self < Kind.REV_SKUNK else "mukan"

    @property
    def text(self) -> str:
        return KIND_TEXT[self]


KIND_TEXT = ("スコンク", "じゅうろく", "逆スコンク", "逆じゅうろく")


@dataclass(frozen=True, slots=True)
class Declaration:
    """A live declaration: by whom, and whether it was made in trick 1 (Yoninkan, doubled stakes) or after a
    skunk / reverse skunk was established (じゅうろく / 逆じゅうろく, deals 2 and 3)."""

    kind: Kind
    player: int
    at_trick1: bool


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a deal's score: each player of ``side`` gets ``+points``, each opponent ``-points``."""

    side: Side
    points: int
    label: str


@dataclass(frozen=True, slots=True)
class DealOutcome:
    """How a deal ended: whether the kankei side succeeded (the round goes on), the lines paid, and whether
    the points of this round's earlier deals are cancelled (a reverse skunk or 逆じゅうろく in deal 2 or 3)."""

    success: bool
    lines: tuple[Line, ...]
    cancels_round: bool


@dataclass(frozen=True)
class ScoreTable:
    """Targets and bonuses. The defaults are Goninkan's (spec §8)."""

    targets: tuple[int, int, int] = (9, 8, 9)
    skunk_need: tuple[int, int, int] = (9, 8, 9)
    """Honours the kankei side needs, with the mukan side at 0, for a skunk (なかよし村: 9 in deal 1)."""
    rev_skunk_d1_bonus: int = 10
    rev_skunk_d1_with_failure_point: bool = True
    rev_skunk_later_bonus: int = 3
    juroku: tuple[int, int] = (8, 16)
    """じゅうろく declared after a skunk: (success bonus, points to the mukan side on failure)."""
    rev_juroku: tuple[int, int] = (16, 32)
    """逆じゅうろく declared after a reverse skunk: (success bonus, points to the kankei side on failure)."""
    declared: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Yoninkan trick-1 declarations, keyed like ``YoninkanOptions.declared_bonus_table``."""
    juroku_keeps_deal3_bonus: bool = True

    def target(self, deal: int) -> int:
        return self.targets[deal - 1]

    def fail_need(self, deal: int) -> int:
        """Honours the mukan side needs to defeat the kankei side."""
        return HONOURS + 1 - self.targets[deal - 1]

    def skunk(self, deal: int) -> int:
        return self.skunk_need[deal - 1]

    def stakes(self, declaration: Declaration, deal: int) -> tuple[int, int]:
        """(success bonus, failure points to the opponents) of a declaration."""
        kind = declaration.kind
        if not declaration.at_trick1:
            return self.juroku if kind == Kind.JUROKU else self.rev_juroku
        key = ("skunk", "juroku", "rev_skunk_deal1" if deal == 1 else "rev_skunk", "rev_juroku")[kind]
        return self.declared[key]


def skunk_established(table: ScoreTable, deal: int, kankei: int, mukan: int) -> bool:
    """The kankei side reached the skunk count with the mukan side at 0."""
    return kankei >= table.skunk(deal) and mukan == 0


def reverse_skunk_established(table: ScoreTable, deal: int, kankei: int, mukan: int) -> bool:
    """The mukan side reached its count with the kankei side at 0."""
    return mukan >= table.fail_need(deal) and kankei == 0


def declaration_decided(table: ScoreTable, deal: int, d: Declaration, kankei: int, mukan: int) -> bool:
    """Whether a declaration has succeeded or failed yet."""
    if d.kind == Kind.JUROKU:
        return kankei == HONOURS or mukan > 0
    if d.kind == Kind.REV_JUROKU:
        return mukan == HONOURS or kankei > 0
    if d.kind == Kind.SKUNK:
        return kankei >= table.skunk(deal) or mukan > 0
    return mukan >= table.fail_need(deal) or kankei > 0


def declaration_succeeded(table: ScoreTable, deal: int, d: Declaration, kankei: int, mukan: int) -> bool:
    if d.kind == Kind.JUROKU:
        return kankei == HONOURS
    if d.kind == Kind.REV_JUROKU:
        return mukan == HONOURS
    if d.kind == Kind.SKUNK:
        return skunk_established(table, deal, kankei, mukan)
    return reverse_skunk_established(table, deal, kankei, mukan)


def is_decided(table: ScoreTable, deal: int, kankei: int, mukan: int, declarations: Sequence[Declaration]) -> bool:
    """Whether everything the deal pays is decided (so play may stop)."""
    juroku_failed = any(d.kind == Kind.JUROKU and mukan > 0 for d in declarations)
    result = juroku_failed or kankei >= table.target(deal) or mukan >= table.fail_need(deal)
    skunk_status = kankei >= table.skunk(deal) or mukan > 0
    reverse_status = mukan >= table.fail_need(deal) or kankei > 0
    return (
        result
        and skunk_status
        and reverse_status
        and all(declaration_decided(table, deal, d, kankei, mukan) for d in declarations)
    )


def settle(table: ScoreTable, deal: int, kankei: int, mukan: int, declarations: Sequence[Declaration]) -> DealOutcome:
    """The lines a decided deal pays (spec §8 and Yoninkan's declarations, §10)."""
    k_decls = [d for d in declarations if d.kind.side == "kankei"]
    m_decls = [d for d in declarations if d.kind.side == "mukan"]
    juroku_failed = any(d.kind == Kind.JUROKU and mukan > 0 for d in k_decls)
    juroku_won = any(d.kind == Kind.JUROKU and kankei == HONOURS for d in k_decls)
    success = kankei >= table.target(deal) and not juroku_failed
    result_point = True
    cancels = False
    bonuses: list[Line] = []

    for d in k_decls:
        bonus, penalty = table.stakes(d, deal)
        word = ("declared " if d.at_trick1 else "") + d.kind.text
        if declaration_succeeded(table, deal, d, kankei, mukan):
            bonuses.append(Line("kankei", bonus, word))
        else:
            bonuses.append(Line("mukan", penalty, word + " failed"))
    if not k_decls and success and skunk_established(table, deal, kankei, mukan):
        bonuses.append(Line("kankei", 1, "スコンク"))

    reverse = reverse_skunk_established(table, deal, kankei, mukan)
    for d in m_decls:
        bonus, penalty = table.stakes(d, deal)
        word = ("declared " if d.at_trick1 else "") + d.kind.text
        if not declaration_succeeded(table, deal, d, kankei, mukan):
            bonuses.append(Line("kankei", penalty, word + " failed"))
        elif d.kind == Kind.REV_SKUNK and deal == 1:
            bonuses.append(Line("mukan", bonus, word))
            result_point = result_point and table.rev_skunk_d1_with_failure_point
        else:  # 逆じゅうろく, or a reverse skunk in deal 2/3: earlier deals void, no result point
            bonuses.append(Line("mukan", bonus, word))
            cancels = deal > 1
            result_point = False
    if not m_decls and reverse:
        if deal == 1:
            bonuses.append(Line("mukan", table.rev_skunk_d1_bonus, "逆スコンク"))
            result_point = table.rev_skunk_d1_with_failure_point
        else:
            bonuses.append(Line("mukan", table.rev_skunk_later_bonus, "逆スコンク"))
            cancels = True
            result_point = False

    lines: list[Line] = []
    if result_point:
        lines.append(Line("kankei", 1, "success") if success else Line("mukan", 1, "failure"))
        if success and deal == 3 and (table.juroku_keeps_deal3_bonus or not juroku_won):
            lines.append(Line("kankei", 1, "deal-3 bonus"))
    return DealOutcome(success, tuple(lines + bonuses), cancels)
