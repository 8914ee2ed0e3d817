"""The scoring table line by line (spec §8, §10), on the pure settlement functions.

Each expected value is read off the spec's table, not from the code: (side, points) lines, where each
member of ``side`` gets +points and each opponent -points."""

from __future__ import annotations

import pytest

from cardenvs.goninkan.options import DECLARED_BONUS_DEFAULTS
from cardenvs.goninkan.scoring import (
    Declaration,
    Kind,
    ScoreTable,
    is_decided,
    reverse_skunk_established,
    settle,
    skunk_established,
)

GONINKAN = ScoreTable()
NAKAYOSHI = ScoreTable(targets=(8, 8, 9), skunk_need=(9, 8, 9))
YONINKAN = ScoreTable(declared=dict(DECLARED_BONUS_DEFAULTS))


def lines(table: ScoreTable, deal: int, k: int, m: int, decls: tuple[Declaration, ...] = ()) -> list[tuple[str, int]]:
    assert is_decided(table, deal, k, m, decls), f"deal {deal} K={k} M={m} is not decided"
    return sorted((line.side, line.points) for line in settle(table, deal, k, m, decls).lines)


def net(table: ScoreTable, deal: int, k: int, m: int, decls: tuple[Declaration, ...] = ()) -> int:
    """Points of each kankei player (the mukan players get the opposite)."""
    return sum(p if side == "kankei" else -p for side, p in lines(table, deal, k, m, decls))


@pytest.mark.parametrize("deal", [1, 2, 3])
def test_targets_and_fail_counts(deal: int) -> None:
    assert GONINKAN.target(deal) == (9, 8, 9)[deal - 1]
    assert GONINKAN.fail_need(deal) == (8, 9, 8)[deal - 1]


def test_success_pays_one_point() -> None:
    assert lines(GONINKAN, 1, 9, 3) == [("kankei", 1)]
    assert lines(GONINKAN, 2, 8, 1) == [("kankei", 1)]


def test_failure_pays_one_point_to_mukan() -> None:
    assert lines(GONINKAN, 1, 2, 8) == [("mukan", 1)]
    assert lines(GONINKAN, 2, 3, 9) == [("mukan", 1)]
    assert lines(GONINKAN, 3, 1, 8) == [("mukan", 1)]


def test_deal3_success_bonus() -> None:
    assert lines(GONINKAN, 3, 9, 2) == [("kankei", 1), ("kankei", 1)]
    assert settle(GONINKAN, 3, 9, 2, ()).success


def test_skunk_adds_a_point_in_every_deal() -> None:
    assert lines(GONINKAN, 1, 9, 0) == [("kankei", 1), ("kankei", 1)]
    assert lines(GONINKAN, 2, 8, 0) == [("kankei", 1), ("kankei", 1)]
    assert net(GONINKAN, 3, 10, 0) == 3  # success + deal-3 bonus + skunk


def test_reverse_skunk_in_deal1_pays_ten_plus_the_failure_point() -> None:
    assert lines(GONINKAN, 1, 0, 8) == [("mukan", 1), ("mukan", 10)]
    without = ScoreTable(rev_skunk_d1_with_failure_point=False)
    assert lines(without, 1, 0, 8) == [("mukan", 10)]


@pytest.mark.parametrize(("deal", "m"), [(2, 9), (3, 8)])
def test_reverse_skunk_in_deals_2_and_3_cancels_and_pays_three(deal: int, m: int) -> None:
    outcome = settle(GONINKAN, deal, 0, m, ())
    assert outcome.cancels_round and not outcome.success
    assert [(line.side, line.points) for line in outcome.lines] == [("mukan", 3)]  # no failure point


def test_juroku_success_pays_eight_plus_the_success_point_and_no_skunk() -> None:
    d = (Declaration(Kind.JUROKU, 1, at_trick1=False),)
    assert lines(GONINKAN, 2, 16, 0, d) == [("kankei", 1), ("kankei", 8)]
    assert lines(GONINKAN, 3, 16, 0, d) == [("kankei", 1), ("kankei", 1), ("kankei", 8)]
    no_d3 = ScoreTable(juroku_keeps_deal3_bonus=False)
    assert lines(no_d3, 3, 16, 0, d) == [("kankei", 1), ("kankei", 8)]


def test_juroku_failure_is_a_failed_deal_plus_sixteen() -> None:
    d = (Declaration(Kind.JUROKU, 1, at_trick1=False),)
    assert not is_decided(GONINKAN, 2, 12, 0, d)  # still sweeping
    outcome = settle(GONINKAN, 2, 12, 1, d)
    assert not outcome.success
    assert sorted((x.side, x.points) for x in outcome.lines) == [("mukan", 1), ("mukan", 16)]


def test_reverse_juroku_success_cancels_and_pays_sixteen() -> None:
    d = (Declaration(Kind.REV_JUROKU, 0, at_trick1=False),)
    assert not is_decided(GONINKAN, 2, 0, 12, d)
    outcome = settle(GONINKAN, 2, 0, 16, d)
    assert outcome.cancels_round
    assert [(x.side, x.points) for x in outcome.lines] == [("mukan", 16)]


def test_reverse_juroku_failure_pays_kankei_32_and_the_failure_point_separately() -> None:
    d = (Declaration(Kind.REV_JUROKU, 0, at_trick1=False),)
    outcome = settle(GONINKAN, 3, 1, 12, d)
    assert not outcome.cancels_round
    assert sorted((x.side, x.points) for x in outcome.lines) == [("kankei", 32), ("mukan", 1)]


def test_early_end_needs_result_and_bonus_status() -> None:
    assert not is_decided(GONINKAN, 1, 8, 0, ())  # neither side there yet
    assert is_decided(GONINKAN, 1, 9, 0, ())  # skunk decided at once
    assert not is_decided(GONINKAN, 1, 0, 7, ())
    assert is_decided(GONINKAN, 1, 0, 8, ())


def test_nakayoshi_thresholds() -> None:
    # deal 1 succeeds with 8 ...
    assert lines(NAKAYOSHI, 1, 8, 2) == [("kankei", 1)]
    # ... but with the mukan side at 0 the skunk is open until 9 (or an honour for the mukan side)
    assert not is_decided(NAKAYOSHI, 1, 8, 0, ())
    assert lines(NAKAYOSHI, 1, 9, 0) == [("kankei", 1), ("kankei", 1)]
    assert lines(NAKAYOSHI, 1, 8, 1) == [("kankei", 1)]
    # the mukan side now needs 9, and so does a reverse skunk
    assert not is_decided(NAKAYOSHI, 1, 0, 8, ())
    assert lines(NAKAYOSHI, 1, 0, 9) == [("mukan", 1), ("mukan", 10)]
    assert lines(NAKAYOSHI, 1, 1, 9) == [("mukan", 1)]
    # deals 2 and 3 are unchanged
    assert NAKAYOSHI.target(2) == 8 and NAKAYOSHI.target(3) == 9


def test_established_predicates() -> None:
    assert skunk_established(GONINKAN, 2, 8, 0) and not skunk_established(GONINKAN, 2, 8, 1)
    assert reverse_skunk_established(GONINKAN, 2, 0, 9) and not reverse_skunk_established(GONINKAN, 2, 0, 8)


# ---------------------------------------------------------------- Yoninkan's trick-1 declarations (doubled)
def test_declared_skunk() -> None:
    d = (Declaration(Kind.SKUNK, 1, at_trick1=True),)
    assert lines(YONINKAN, 1, 9, 0, d) == [("kankei", 1), ("kankei", 2)]  # replaces the +1 skunk
    assert not is_decided(YONINKAN, 1, 4, 0, d)
    # failed as soon as the mukan side takes an honour; the normal result is scored separately
    assert lines(YONINKAN, 1, 9, 1, d) == [("kankei", 1), ("mukan", 4)]


def test_declared_juroku() -> None:
    d = (Declaration(Kind.JUROKU, 1, at_trick1=True),)
    assert lines(YONINKAN, 2, 16, 0, d) == [("kankei", 1), ("kankei", 16)]
    assert sorted((x.side, x.points) for x in settle(YONINKAN, 2, 0, 1, d).lines) == [("mukan", 1), ("mukan", 32)]


def test_declared_reverse_skunk_deal1_and_later() -> None:
    d = (Declaration(Kind.REV_SKUNK, 0, at_trick1=True),)
    assert lines(YONINKAN, 1, 0, 8, d) == [("mukan", 1), ("mukan", 20)]
    assert lines(YONINKAN, 1, 2, 8, d) == [("kankei", 40), ("mukan", 1)]
    later = settle(YONINKAN, 2, 0, 9, d)
    assert later.cancels_round and [(x.side, x.points) for x in later.lines] == [("mukan", 6)]
    assert lines(YONINKAN, 3, 1, 8, d) == [("kankei", 12), ("mukan", 1)]


def test_declared_reverse_juroku() -> None:
    d = (Declaration(Kind.REV_JUROKU, 0, at_trick1=True),)
    success = settle(YONINKAN, 2, 0, 16, d)
    assert success.cancels_round and [(x.side, x.points) for x in success.lines] == [("mukan", 32)]
    # failure: the kankei side gets 64; the deal goes on to its normal result
    assert not is_decided(YONINKAN, 2, 1, 3, d)
    assert lines(YONINKAN, 2, 8, 3, d) == [("kankei", 1), ("kankei", 64)]


def test_both_sides_declare() -> None:
    d = (Declaration(Kind.SKUNK, 1, True), Declaration(Kind.REV_SKUNK, 0, True))
    # both fail once each side has an honour
    assert lines(YONINKAN, 1, 9, 2, d) == [("kankei", 1), ("kankei", 40), ("mukan", 4)]
