"""The conformance kit fails on each class of bug it claims to catch (each mutant breaks one rule)."""

from __future__ import annotations

import pytest

from cardenvs.testing import (
    ConformanceError,
    check_card_conservation,
    check_decision_structure,
    check_determinism,
    check_hidden_information,
    check_malformed_positions,
    check_masks,
    check_positions_at_every_decision,
    check_public_view,
)
from tests import mutants

OPTIONS = {"num_players": 3}


def test_redeal_catches_a_leaked_hidden_card() -> None:
    with pytest.raises(ConformanceError, match=r"re-dealt.*features \['discarded'\]"):
        check_hidden_information(mutants.LEAKS_SET_ASIDE, OPTIONS, games=2)


def test_redeal_of_the_final_observations_catches_a_card_shown_at_the_end() -> None:
    with pytest.raises(ConformanceError, match=r"after the end: player \d's observation changed.*discarded"):
        check_hidden_information(mutants.LEAKS_SET_ASIDE_AT_THE_END, OPTIONS, games=2)


def test_decision_structure_check_catches_a_play_that_commits_when_nothing_higher_is_held() -> None:
    with pytest.raises(ConformanceError, match="the number of decisions depends on hidden cards"):
        check_decision_structure(mutants.COMMITS_WHEN_NOTHING_HIGHER, OPTIONS, games=6)


def test_decision_structure_check_catches_turns_that_name_the_yoninkan_partner() -> None:
    with pytest.raises(ConformanceError, match="depends on hidden cards"):
        check_decision_structure(mutants.ASKS_ONLY_PLAYERS_WITH_A_DECLARATION, {}, games=20, every=1)


def test_hidden_choice_check_catches_a_leak_that_a_redeal_cannot_see() -> None:
    with pytest.raises(ConformanceError, match="hidden choice leaks"):
        check_hidden_information(mutants.LEAKS_LAST_PLAY, OPTIONS, games=2)


def test_public_view_check_catches_hidden_cards_in_a_public_event_part() -> None:
    check_hidden_information(mutants.ANNOUNCES_PLAYED_CARDS, OPTIONS, games=1)  # the observation is not to blame
    with pytest.raises(ConformanceError, match=r"show it different events.*\"cards\""):
        check_public_view(mutants.ANNOUNCES_PLAYED_CARDS, OPTIONS, games=2)


def test_mask_check_catches_a_masked_illegal_action() -> None:
    with pytest.raises(ConformanceError, match="differs from the first actions of legal_moves"):
        check_masks(mutants.CHALLENGE_ON_LEAD, OPTIONS, games=1)


def test_conservation_check_catches_a_lost_card() -> None:
    with pytest.raises(ConformanceError, match="cards not conserved"):
        check_card_conservation(mutants.LOSES_A_CARD, OPTIONS, games=3)


def test_determinism_check_catches_global_randomness() -> None:
    with pytest.raises(ConformanceError, match="differ"):
        check_determinism("tests.mutants:GLOBAL_RANDOMNESS", OPTIONS)


def test_position_check_catches_a_full_position_that_loses_two_hands() -> None:
    with pytest.raises(ConformanceError, match=r"position read back.*player_0's observation differs"):
        check_positions_at_every_decision("tests.mutants:HIDES_TWO_HANDS", OPTIONS, games=1)


def test_malformed_position_check_catches_a_reader_that_raises_value_error() -> None:
    with pytest.raises(ConformanceError, match="ValueError"):
        check_malformed_positions("tests.mutants:READS_THE_DEALER_WITH_INT", OPTIONS)


def test_the_real_game_passes_the_same_checks() -> None:
    check_hidden_information("verish_ne_verish-v0", OPTIONS, games=2)
    check_decision_structure("verish_ne_verish-v0", OPTIONS, games=2)
    check_decision_structure("yoninkan-v1", {}, games=20, every=1)
    check_public_view("verish_ne_verish-v0", OPTIONS, games=2)
    check_masks("verish_ne_verish-v0", OPTIONS, games=1)
    check_card_conservation("verish_ne_verish-v0", OPTIONS, games=3)
    check_determinism("verish_ne_verish-v0", OPTIONS)
    check_positions_at_every_decision("verish_ne_verish-v0", OPTIONS, games=1)
    check_malformed_positions("verish_ne_verish-v0", OPTIONS)


def test_a_decision_budget_stops_new_games_after_two() -> None:
    two_games = check_masks("verish_ne_verish-v0", OPTIONS, games=2, max_moves=1)
    assert check_masks("verish_ne_verish-v0", OPTIONS, games=5, max_moves=1, max_decisions=1) == two_games
    assert check_masks("verish_ne_verish-v0", OPTIONS, games=3, max_moves=1, max_decisions=10**6) > two_games
    leaks = check_hidden_information("verish_ne_verish-v0", OPTIONS, games=5, max_decisions=1)
    assert leaks["terminal_redeals"] == 2 * OPTIONS["num_players"]
