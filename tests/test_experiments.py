"""The runnable recipes run (on tiny budgets: these are smoke tests, not timings)."""

from __future__ import annotations

import ast
import importlib.util
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import cardenvs
from cardenvs.experiments import speed


def test_benchmark_runs_every_registered_game_beside_the_peer_and_writes_its_section(tmp_path: Path) -> None:
    page = tmp_path / "benchmarks.md"
    page.write_text("# Benchmarks\n\n<!-- bench:start -->\nold\n<!-- bench:end -->\n\nafter\n")
    tiny = ["--seconds", "0.01", "--reps", "1", "--batch", "2", "--peers", "leduc_holdem_v4 raw"]
    text = speed.main([*tiny, "--tournament-games", "4", "--tournament-reps", "1", "--write", str(page)])
    for env_id in cardenvs.ENV_IDS:  # a newly registered game is measured without touching the benchmark
        assert f"`{env_id}`" in text
    assert "| workers | games/s (wall) |" in text
    assert "steps/s, seeded every reset" in text and "| game | `clone()`/s | `resample_hidden()`/s |" in text
    if importlib.util.find_spec("rlcard"):  # the bench extra (PettingZoo's leduc needs RLCard)
        assert "| pettingzoo leduc_holdem_v4 raw_env, seeded once |" in text and "| reference peer |" in text
        assert "| ratio, decisions/s |" in text  # the measure of the targets (issue 22 item 2)
    written = page.read_text()
    assert written.startswith("# Benchmarks") and written.endswith("after\n") and "\nold\n" not in written
    assert text in written


def test_the_seeded_once_loop_seeds_only_its_first_reset_and_the_other_every_reset() -> None:
    from cardenvs.experiments.speed.loops import aec_loop

    for seeding, expect_all_seeded in (("seeded once", False), ("seeded every reset", True)):
        seeds: list[int | None] = []

        def make_env() -> object:
            env = cardenvs.make_raw("kyuuri-v0", num_players=2, episode="deal")  # short games: several fit
            reset = env.reset

            def recording_reset(seed: int | None = None, options: dict | None = None) -> None:
                seeds.append(seed)  # noqa: B023 (each env is made and used inside its iteration)
                reset(seed=seed, options=options)

            env.reset = recording_reset  # type: ignore[method-assign]
            return env

        count = aec_loop(make_env, seeding)(0.2, 0)  # type: ignore[arg-type]
        assert count.games == len(seeds) >= 2 and seeds[0] is not None
        assert all(s is not None for s in seeds[1:]) == expect_all_seeded
        assert any(s is not None for s in seeds[1:]) == expect_all_seeded


def test_clone_and_resample_rates_are_calls_on_mid_game_states() -> None:
    from cardenvs.experiments.speed.loops import mid_game_states, search_loop

    states = mid_game_states("kyuuri-v0", {}, 4, seed=1)
    assert len(states) == 4 and not any(s.is_terminal for s in states)
    count = search_loop("kyuuri-v0", {}, "resample_hidden")(0.01, 0)
    assert count.steps >= 8 and count.steps % 8 == 0


def test_moves_are_counted_once_however_many_sub_steps_make_them() -> None:
    from cardenvs.experiments.speed.loops import decisions_per_move

    assert decisions_per_move("kyuuri-v0", {}) == 1.0  # one card a decision
    # a Verish claim is a declared rank then each card, so a move takes more than one decision
    assert 1.5 < decisions_per_move("verish_ne_verish-v0", {}) < 4.0


def test_demo_trains_and_reports(tmp_path: Path) -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "cardenvs.experiments.demo",
            "--steps",
            "1024",
            "--games",
            "12",
            "--duel-games",
            "12",
            "--workers",
            "1",
            "--out",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "One game of verish_ne_verish-v0" in out and "Tournament: 12 duplicate-deal games" in out
    for label in ("random", "rule", "trained", "zoo"):  # the zoo's Verish agent plays 4 players, the demo's count
        assert any(line.startswith(label + " ") for line in out.splitlines()), out
    assert (tmp_path / "train" / "final.zip").exists()
    assert (tmp_path / "tournament" / "tournament-report.md").exists()
    assert "Head to head: 12 duplicate-deal games of the zoo agent against the rule bot" in out
    assert any(line.startswith("zoo − rule, mean score per seat: ") for line in out.splitlines()), out
    assert (tmp_path / "head_to_head" / "tournament.sqlite").exists()


RESEARCH = Path(__file__).resolve().parents[1] / "experiments" / "research"
PRODUCED = re.compile(r'Produced: .+?; reported in (docs/[\w/]+\.md), section "([^"]+)"\.')


def research_recipes() -> list[Path]:
    """The research modules run as commands (a package's docstring sits in its ``__init__``)."""
    return sorted(
        path.parent / "__init__.py" if path.name == "__main__.py" else path
        for path in RESEARCH.rglob("*.py")
        if 'if __name__ == "__main__"' in path.read_text() or path.name == "__main__.py"
    )


@pytest.mark.parametrize("recipe", research_recipes(), ids=lambda path: path.relative_to(RESEARCH).as_posix())
def test_each_research_recipe_names_its_artefact_and_the_doc_section_that_reports_it(recipe: Path) -> None:
    docstring = ast.get_docstring(ast.parse(recipe.read_text())) or ""
    found = PRODUCED.search(" ".join(docstring.split()))  # the line may wrap
    assert found, f"{recipe}: no 'Produced: …; reported in docs/….md, section \"…\".' line"
    page, section = found[1], found[2]
    headings = {
        line.lstrip("#").strip()
        for line in (RESEARCH.parents[1] / page).read_text().splitlines()
        if line.startswith("#")
    }
    assert section in headings, f"{recipe}: {page} has no section {section!r}"


def test_research_names_each_of_its_modules_as_a_recipe_or_a_part_of_one() -> None:
    assert research_recipes(), f"no research recipes under {RESEARCH}"
    recipes = {path.parent.name if path.name == "__init__.py" else path.stem for path in research_recipes()}
    modules = {path.stem for path in RESEARCH.glob("*.py") if path.name != "__init__.py"}
    modules |= {path.name for path in RESEARCH.iterdir() if (path / "__init__.py").exists()}
    parts = set(re.findall(r"``(\w+)``", ast.get_docstring(ast.parse((RESEARCH / "__init__.py").read_text())) or ""))
    assert modules - recipes <= parts, (
        f"research modules neither a recipe nor a named part: {modules - recipes - parts}"
    )


def test_the_demo_keeps_an_earlier_tables_database_aside_and_starts_afresh(tmp_path: Path) -> None:
    """Re-running the demo after an upgrade (other zoo agent, other code) must not stop on the stored table."""
    from cardenvs.agents.tournament import Tournament
    from cardenvs.agents.zoo import zoo_cards
    from cardenvs.experiments import demo

    args = demo.DemoArgs(games=6, workers=1, out=str(tmp_path))
    db = tmp_path / "tournament" / "tournament.sqlite"
    Tournament(demo.GAME, ["random", "other=random"], games=6, options={"num_players": 4}, seed=0).run(db, workers=1)
    checkpoint = zoo_cards()["verish_ne_verish/truthful_ppo"].weights
    report = demo.run_tournament(args, checkpoint)
    kept = tmp_path / "tournament" / "tournament-previous.sqlite"
    counts = []
    for path in (db, kept):
        with sqlite3.connect(path) as connection:
            counts.append(connection.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    assert counts[0] > 0 and counts[1] > 0 and "zoo" in report.read_text() and "other" not in report.read_text()
