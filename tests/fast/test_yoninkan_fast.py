"""The JAX Yoninkan against the reference engine (``yoninkan-v1``), in lockstep as ``test_goninkan_fast.py`` plays
Goninkan: the same deals (a deal 1 that gives one player both key cards is mended on the JAX side, and the reference
is dealt the mended deal), the same actions, the same players to act, masks, every seat's observation (the hidden
teams as each seat can infer them) and rewards, decision for decision."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cardenvs.core.errors import InvalidOptionError
from cardenvs.goninkan.table import DECLARE

jax = pytest.importorskip("jax")
from cardenvs.fast.yoninkan import YoninkanFast  # noqa: E402  (needs JAX, skipped above without it)
from tests.fast.test_goninkan_fast import play_lockstep  # noqa: E402
from tests.goninkan.helpers import hold_back_joker, joker_plays  # noqa: E402

CASES: list[dict[str, Any]] = [
    {"episode": "match", "n_rounds": 2},  # the default rules, two rounds: the dealer passes on
    {  # every other reading at once
        "yoninkan_partner_rank": "K",
        "yoninkan_first_lead": "spade_ace",
        "yoninkan_double": "one_vs_three",
        "max_declarations_per_side": 2,
        "declarations_in_deal1": False,
        "yoninkan_joker_lead_weak_all_tricks": True,
        "targets": (8, 8, 9),
        "declared_bonus_table": {"skunk": (3, 6)},
        "rev_skunk_d1_includes_failure_point": False,
        "juroku_keeps_deal3_bonus": False,
    },
    {"yoninkan_double": "opposite_partner", "play_all_tricks": True, "round_number": 10, "max_steps": 125},
]


@pytest.mark.parametrize("options", CASES, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_same_trajectories_as_the_reference_engine(options: dict[str, Any]) -> None:
    counts = {"declarations": 0, "joker in trick 10": 0}
    rng = np.random.default_rng(len(options))

    def choose(game: Any) -> int:
        """Uniform among the legal actions, except that a declaration is made a fifth of the times one is offered
        and the joker is mostly kept back, so that it often falls in trick 10, where it is the lowest card."""
        legal = np.flatnonzero(game.legal_mask())
        if game.decision_type() == DECLARE and len(legal) > 1:
            counts["declarations"] += 1
            if rng.random() < 4 / 5:
                return int(legal[0])  # declare(none)
        if game.trick_no == 10 and joker_plays(game, legal).any():
            counts["joker in trick 10"] += 1
        return int(rng.choice(hold_back_joker(game, legal, rng)))

    seen, _ = play_lockstep(YoninkanFast(**options), num_games=16, seed=len(options), choose_action=choose)
    assert seen["decisions"] > 16 * 30
    assert seen["deal 3"] and seen["sweep"], f"the rigged deals should reach deal 3 and a じゅうろく offer: {seen}"
    assert counts["declarations"], "some trick-1 turn should offer a declaration"
    if options.get("play_all_tricks"):
        assert counts["joker in trick 10"] >= 8, counts


def test_bad_options_are_refused() -> None:
    with pytest.raises(InvalidOptionError, match="num_players"):
        YoninkanFast(num_players=5)
