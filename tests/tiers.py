"""The quick test tier: everything not marked ``slow``; ``python3 run.py test --quick`` runs it (``-m "not slow"``).

Besides the tests that carry ``@pytest.mark.slow`` themselves, ``tests/conftest.py`` marks as slow, at collection:

- every test in the files and folders of ``SLOW_PATHS`` (training, JAX compiling, browsers, Ray, clean installs,
  solvers and exploitability), listed from ``pytest --durations`` timings;
- the conformance kit's cases beyond each id's first declared option set, so the quick tier keeps every test of
  the kit once per registered id (a new id or kit test joins it with no edit here).

Every test file is classified: it lies under ``SLOW_PATHS`` or is one of ``QUICK_FILES``. A new file is in neither
until it is timed (``pytest --durations=30 FILE``) and listed; meanwhile it stays out of the quick tier and
``tests/test_tiers.py`` fails, naming it.

Measured 2026-11-27 at load 7-16 on 2 cores, so counted in CPU seconds (what an idle core spends as wall seconds),
``user+sys`` of one ``pytest -m "not slow"`` process: 321 s for 1,384 tests, of which the browser table
(``play/test_table_ux.py``, 90 s with Chromium) then went to the slow tier; after that, 234 s for 1,365 tests (14 s of
it starting and collecting). On 2 idle cores with the suite's ``-n 2`` that is about 2 minutes of tests (half the
tests' seconds, plus each worker's start), with mypy's 28 (cold cache) and ruff's 1 before them: about 2.6 minutes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import cardenvs

TESTS = Path(__file__).resolve().parent

SLOW_PATHS = frozenset(
    {
        "training",
        "fast",
        "fast_bots",
        "openspiel",
        "exploitability",
        "yardstick",
        "play/test_browser.py",
        "play/test_table_ux.py",
        "tournament/test_backends.py",
        "test_experiments.py",
        "interop/test_pettingzoo_conventions.py",
        "test_install.py",
        "test_old_versions.py",
        "test_notebooks.py",
    }
)
"""Files and folders (relative to tests/) whose every test is slow."""

QUICK_FILES = frozenset(
    {
        "test_benchmark.py",
        "test_cards.py",
        "test_checkpoint_safety.py",
        "test_clones.py",
        "test_conformance.py",
        "test_docs.py",
        "test_errors.py",
        "test_explicit_deals.py",
        "test_golden.py",
        "test_import_cycles.py",
        "test_kit_catches_bugs.py",
        "test_observation_cache.py",
        "test_openspiel.py",
        "test_order.py",
        "test_packaging.py",
        "test_playthroughs.py",
        "test_policy_actions.py",
        "test_policy_docs.py",
        "test_policy_moves.py",
        "test_gauntlet_v2.py",
        "adding_a_game/test_adding_a_game.py",
        "goninkan/test_phases.py",
        "test_positions.py",
        "test_redeal.py",
        "test_registry.py",
        "test_tiers.py",
        "test_vector.py",
        "test_views.py",
        "test_zoo.py",
        "goninkan/test_bots.py",
        "goninkan/test_clone.py",
        "goninkan/test_encoding.py",
        "goninkan/test_from_deal.py",
        "goninkan/test_goninkan_rules.py",
        "goninkan/test_goninkan_scenarios.py",
        "goninkan/test_information.py",
        "goninkan/test_scoring.py",
        "goninkan/test_yoninkan.py",
        "goninkan/test_yoninkan_improved.py",
        "interop/test_checkers.py",
        "interop/test_docs_interop.py",
        "interop/test_textarena.py",
        "kyuuri/test_bot.py",
        "kyuuri/test_docs.py",
        "kyuuri/test_env.py",
        "kyuuri/test_observation.py",
        "kyuuri/test_play.py",
        "kyuuri/test_scoring.py",
        "llm/test_llm_everywhere.py",
        "llm/test_llm_player.py",
        "llm/test_llm_tournament.py",
        "llm/test_tiny_model.py",
        "play/test_bots.py",
        "play/test_command.py",
        "play/test_dataset.py",
        "play/test_hidden.py",
        "play/test_hints.py",
        "play/test_hostile.py",
        "play/test_humans.py",
        "play/test_replays.py",
        "play/test_server.py",
        "play/test_svg.py",
        "play/test_tui.py",
        "search/test_ismcts.py",
        "text/test_text_seat.py",
        "tournament/test_boundaries_and_strata.py",
        "tournament/test_cli_errors.py",
        "tournament/test_coverage.py",
        "tournament/test_blas_threads.py",
        "tournament/test_faults.py",
        "tournament/test_fingerprints.py",
        "tournament/test_metrics.py",
        "tournament/test_noisy_bot.py",
        "tournament/test_ratings.py",
        "tournament/test_report_cli.py",
        "tournament/test_report_statistics.py",
        "tournament/test_schedule.py",
        "tournament/test_specs.py",
        "tournament/test_stats.py",
        "tournament/test_storage.py",
        "tournament/test_verdicts_and_sequences.py",
        "verish_ne_verish/test_rules.py",
        "wrappers/test_rllib_env.py",
        "wrappers/test_seat_env.py",
        "yukushi/test_bots.py",
        "yukushi/test_env.py",
        "yukushi/test_rules.py",
        "yukushi/test_windows.py",
        "yukushi/test_worked_example.py",
        "zheng_shang_you/test_bots.py",
        "zheng_shang_you/test_combos.py",
        "zheng_shang_you/test_docs.py",
        "zheng_shang_you/test_match.py",
        "zheng_shang_you/test_moves.py",
        "zheng_shang_you/test_resample.py",
        "zheng_shang_you/test_rules.py",
        "zheng_shang_you/test_wild_twos.py",
    }
)
"""Files (relative to tests/) whose tests are quick, each timed; a file in neither list is left out of the quick tier
and fails ``tests/test_tiers.py`` until it is listed in one."""

CONFORMANCE = "test_conformance.py"


def in_slow_path(relative: Path) -> bool:
    """Whether a test file (relative to tests/) is one of, or lies under one of, ``SLOW_PATHS``."""
    return any(part.as_posix() in SLOW_PATHS for part in (relative, *relative.parents))


def beyond_the_smoke(item: pytest.Item) -> bool:
    """A conformance case with options other than its id's first declared set (the smoke keeps that one)."""
    params = getattr(item, "callspec", None)
    if params is None or "options" not in params.params:
        return False
    env_id, options = params.params["env_id"], params.params["options"]
    return bool(options != dict(cardenvs.definition(env_id).variants[0]))


def collectable_files() -> list[Path]:
    """Every file under tests/ that pytest collects by its name (``test_*.py``, ``*_test.py``), relative to tests/."""
    found = {*TESTS.rglob("test_*.py"), *TESTS.rglob("*_test.py")}
    return sorted(path.relative_to(TESTS) for path in found)


def unclassified(files: list[Path]) -> list[str]:
    """The files that are neither under ``SLOW_PATHS`` nor in ``QUICK_FILES``."""
    return [path.as_posix() for path in files if not in_slow_path(path) and path.as_posix() not in QUICK_FILES]


def is_slow(item: pytest.Item) -> bool:
    """Whether the collected test stays out of the quick tier (an unclassified file's tests do too)."""
    relative = item.path.relative_to(TESTS)
    if in_slow_path(relative) or relative.as_posix() not in QUICK_FILES:
        return True
    return relative.as_posix() == CONFORMANCE and beyond_the_smoke(item)


def mark_slow_tests(items: list[pytest.Item]) -> None:
    """Add the ``slow`` marker to every collected test the quick tier leaves out."""
    for item in items:
        if item.path.is_relative_to(TESTS) and is_slow(item):
            item.add_marker(pytest.mark.slow)
