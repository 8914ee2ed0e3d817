"""The conformance kit over every registered id and every option set it declares."""

from __future__ import annotations

from typing import Any

import pytest

import cardenvs
from cardenvs.testing import check_decision_structure, check_public_view, checks
from tests.conftest import case_id, registry_cases

CASES = registry_cases()
IDS = [case_id(c) for c in CASES]
GAMES = 6
PLAY_OUTS = 16
"""Legal moves played out sub-step by sub-step per decision (the mask itself is checked in full at every one):
16 rather than the kit's 40 keeps the 8-seat Yukushi cases, thousands of decisions a game, under a minute each."""
MASK_DECISIONS = 5000
LEAK_DECISIONS = 3000
"""Decision budgets: no new game starts once they are spent (after two games at least), so the long games (Yukushi
plays 2,000–4,000 decisions a game) cost about what the short ones do; ``run_kit`` keeps its full game counts."""


@pytest.mark.parametrize(("env_id", "options"), CASES, ids=IDS)
def test_pettingzoo_api_and_seed_test(env_id: str, options: dict[str, Any]) -> None:
    checks.check_pettingzoo_api(env_id, options, num_cycles=200)


@pytest.mark.parametrize(("env_id", "options"), CASES, ids=IDS)
def test_masks_are_exact(env_id: str, options: dict[str, Any]) -> None:
    assert checks.check_masks(env_id, options, games=GAMES, max_moves=PLAY_OUTS, max_decisions=MASK_DECISIONS) > 0


@pytest.mark.parametrize(("env_id", "options"), CASES, ids=IDS)
def test_no_hidden_information_leaks(env_id: str, options: dict[str, Any]) -> None:
    stats = checks.check_hidden_information(env_id, options, games=GAMES // 2, max_decisions=LEAK_DECISIONS)
    assert stats["redeals"] > 0
    assert stats["redeals_changed_state"] > 0, "the re-deals never changed the hidden state: the test had no power"


@pytest.mark.parametrize("env_id", cardenvs.ENV_IDS)
def test_final_observations_keep_the_secrets(env_id: str) -> None:
    """The re-deal test once each game has ended, on the default options (random games of some option sets all
    reach the step cap, so the cases above cannot all assert it ran)."""
    stats = checks.check_hidden_information(env_id, {}, games=GAMES // 2)
    assert stats["terminal_redeals"] > 0, "no game ended: the final observations were never checked"


@pytest.mark.parametrize(("env_id", "options"), CASES, ids=IDS)
def test_who_acts_and_how_often_does_not_depend_on_hidden_cards(env_id: str, options: dict[str, Any]) -> None:
    assert check_decision_structure(env_id, options, games=1) > 0


@pytest.mark.parametrize(("env_id", "options"), CASES, ids=IDS)
def test_public_view_shows_nothing_hidden(env_id: str, options: dict[str, Any]) -> None:
    stats = check_public_view(env_id, options, games=1)
    assert stats["views"] > 0 and stats["move_pairs"] > 0
    assert stats["hidden_parts"] > 0, "nothing in the log was hidden from the observers: the re-deal had no power"


@pytest.mark.parametrize(("env_id", "options"), CASES, ids=IDS)
def test_cards_are_conserved_and_episodes_end(env_id: str, options: dict[str, Any]) -> None:
    checks.check_card_conservation(env_id, options, games=GAMES)
    assert checks.check_episode_bounds(env_id, options, games=GAMES * 2) <= 0.25


@pytest.mark.parametrize(("env_id", "options"), CASES, ids=IDS)
def test_determinism_seeds_copies_and_render(env_id: str, options: dict[str, Any]) -> None:
    checks.check_determinism(env_id, options, seed=3)
    checks.check_distinct_deals(env_id, options)
    checks.check_copy_and_pickle(env_id, options, seed=5)
    checks.check_render(env_id, options)
