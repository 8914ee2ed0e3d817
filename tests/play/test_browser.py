"""A person at the web table, in Chromium: every registered game played to the end by clicking legal moves
(cards, then the move's button) against random opponents, then a replay walked step by step.

CI installs Debian's ``chromium`` (``.ci/run``); where it is missing these tests are skipped and say so."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cardenvs
from cardenvs.experiments.play.browser import CHROMIUM, launch, play_to_end, replay_server, running, step_through_replay
from cardenvs.experiments.play.server import TableServer
from cardenvs.experiments.play.session import PlaySession, TableSettings

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason=f"no Chromium at {CHROMIUM} (apt-get install chromium)"
)


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = launch(p)
        yield browser.new_page(viewport={"width": 1400, "height": 660})
        browser.close()


@pytest.mark.parametrize("env_id", cardenvs.ENV_IDS)
def test_a_person_plays_every_game_to_the_end(page: Any, env_id: str, tmp_path: Path) -> None:
    session = PlaySession(TableSettings(env_id, seed=5))
    shot = tmp_path / "table.png"
    with running(TableServer(session, pace_ms=0)) as url:
        final = play_to_end(page, url, np.random.default_rng(0), screenshot=shot)
        assert final["over"] and session.over and final["returns"] == [round(r, 3) for r in session.returns]
        assert page.locator("#outcome").is_visible()
        page.click("#rematch")
        page.wait_for_function("window.__state && !window.__state.over", timeout=20_000)
        assert not session.over
    assert shot.stat().st_size > 10_000


def test_a_replay_is_walked_step_by_step(page: Any) -> None:
    session = PlaySession(TableSettings("kyuuri-v0", {"num_players": 3}, seed=2))
    with running(TableServer(session, pace_ms=0)) as url:
        play_to_end(page, url, np.random.default_rng(1))
    record = session.replay_record()
    with running(replay_server(session)) as url:
        seen = step_through_replay(page, url)
        svg = page.inner_html("#table")
    last = seen[4]
    assert seen[:4] == [0, 1, 2, 1] and last > 2 and seen[5] == last // 2
    assert len(record["actions"]) > 0 and "<svg" in svg


def test_the_page_needs_the_token_once_then_links_without_it_work(page: Any) -> None:
    """Without the token the page shows why nothing comes; opened once with it (the printed address), links
    without it, such as a tournament report's, open the table."""
    session = PlaySession(TableSettings("kyuuri-v0", {"num_players": 3}, seed=2))
    context = page.context.browser.new_context()
    fresh = context.new_page()
    try:
        with running(replay_server(session)) as url:
            bare = url.split("?")[0]
            fresh.goto(bare)
            fresh.wait_for_function("document.getElementById('error').textContent !== ''", timeout=20_000)
            assert "no table token" in fresh.inner_text("#error")
            fresh.goto(url)
            fresh.wait_for_function("window.__state && window.__state.mode === 'replay'", timeout=20_000)
            fresh.goto(bare)
            fresh.wait_for_function("window.__state && window.__state.mode === 'replay'", timeout=20_000)
            assert fresh.inner_text("#error") == ""
    finally:
        context.close()
