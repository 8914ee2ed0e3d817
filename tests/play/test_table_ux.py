"""The table as a person meets it, in Chromium: at 1024 px and at a phone's width every game is played to the
end with the marked cards checked against the legal ones and a refused card's reason read at each decision;
seat boxes never overlap (2 to 8 seats), texts are readable (WCAG contrast), the all-hands replay is drawn as
cards, the end screen gives the result, and a person who is out can skip to the end."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cardenvs
from cardenvs.experiments.play.browser import (
    CHROMIUM,
    TIMEOUT_MS,
    click_card,
    click_move,
    contrast_failures,
    launch,
    marked_cards,
    overlapping_boxes,
    replay_server,
    running,
    state,
    wait_for_person,
)
from cardenvs.experiments.play.server import TableServer
from cardenvs.experiments.play.session import PlaySession, TableSettings

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason=f"no Chromium at {CHROMIUM} (apt-get install chromium)"
)
WIDTHS = {"desktop": 1024, "phone": 390}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = launch(p)
        yield browser
        browser.close()


@pytest.fixture(params=sorted(WIDTHS))
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    page = browser.new_page(viewport={"width": WIDTHS[request.param], "height": 800})
    yield page
    page.close()


def _fits(page: Any) -> None:
    """Nothing runs past the window's width, and no seat box covers another."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert overlapping_boxes(page) == []


@pytest.mark.parametrize("env_id", cardenvs.ENV_IDS)
def test_every_game_marks_the_legal_cards_and_says_why_others_are_refused(page: Any, env_id: str) -> None:
    session = PlaySession(TableSettings(env_id, seed=8))
    rng = np.random.default_rng(3)
    reasons = 0
    with running(TableServer(session, pace_ms=0)) as url:
        page.goto(url)
        message = wait_for_person(page)
        _fits(page)
        assert contrast_failures(page) == []
        while not message["over"]:
            legal = {card for move in message["moves"] for card in move["cards"]}
            assert marked_cards(page) == [card in legal for card in message["hand"]]
            unplayable = [i for i, card in enumerate(message["hand"]) if card not in legal]
            if unplayable and message["moves"]:
                i = unplayable[0]
                click_card(page, i)
                assert page.inner_text("#why") == f"{message['hand'][i]}: {message['why'][i]}"
                click_card(page, i)
                reasons += 1
            most = max((len(move["cards"]) for move in message["moves"]), default=0)
            if not unplayable and 0 < most < len(message["hand"]):  # too many cards at once: the rule is said
                for i in range(most + 1):
                    click_card(page, i)
                assert page.inner_text("#why") == message["rule"] != ""
                for i in range(most + 1):
                    click_card(page, i)
                reasons += 1
            click_move(page, message, int(rng.integers(len(message["moves"]))))
            message = wait_for_person(page)
        assert page.inner_text("#verdict").startswith(message["outcome"]["verdict"])
        assert contrast_failures(page) == []
        _fits(page)
    assert reasons > 0


@pytest.mark.parametrize(("env_id", "players"), [("yukushi-v0", 2), ("goninkan-v1", 5), ("yukushi-v0", 8)])
def test_seat_boxes_do_not_overlap_and_long_labels_are_cut_with_their_full_text_on_hover(
    page: Any, env_id: str, players: int
) -> None:
    long_label = "zoo:goninkan/improved-and-then-some"
    session = PlaySession(TableSettings(env_id, {"num_players": players}, seed=1))
    session.labels[1] = long_label
    with running(TableServer(session, pace_ms=0)) as url:
        page.goto(url)
        wait_for_person(page)
        _fits(page)
        name = page.locator("#table g.seat[data-player='player_1'] text").first
        assert name.locator("title").text_content().endswith(long_label)
        assert name.text_content().endswith("…")


def test_the_all_hands_replay_draws_every_hand_as_cards(browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1024, "height": 800})
    session = PlaySession(TableSettings("goninkan-v1", seed=3))
    with running(replay_server(session)) as url:
        page.goto(url)
        page.wait_for_function("window.__state && window.__state.mode === 'replay'", timeout=TIMEOUT_MS)
        hands = [card for player in state(page)["players"] for card in player["hand"]]
        drawn = page.eval_on_selector_all("#table g.mini text", "texts => texts.map((t) => t.textContent)")
        assert sorted(drawn) == sorted(hands) and len(hands) == 50
        _fits(page)
    page.close()


def test_a_person_who_is_out_skips_to_the_end(browser: Any) -> None:
    """Kyuuri, seed 5: the person is eliminated after 14 moves of random play; then the bots would play on."""
    page = browser.new_page(viewport={"width": 1024, "height": 800})
    session = PlaySession(TableSettings("kyuuri-v0", {"num_players": 4}, seed=5))
    rng = np.random.default_rng(0)
    while not (session.send()["out"] or session.over):
        message = session.send()
        if message["waiting"]:
            session.advance(message["version"])
        else:
            session.play(message["version"], int(rng.integers(len(message["moves"]))))
    assert not session.over
    with running(TableServer(session, pace_ms=2_000)) as url:
        page.goto(url)
        page.wait_for_function("window.__state && window.__state.out", timeout=TIMEOUT_MS)
        assert page.locator("#pace-ms").is_visible()
        page.click("#skip")
        page.wait_for_function("window.__state.over", timeout=TIMEOUT_MS)
        assert page.locator("#rematch").is_visible()
    page.close()


def test_two_people_play_one_table_from_two_browsers_that_never_see_each_others_hand(browser: Any) -> None:
    """Two browser contexts (two people), each opened with its own link, and a watcher's; the bots play the
    other seats. Each page only ever holds its own seat's cards."""
    session = PlaySession(TableSettings("kyuuri-v0", {"num_players": 4}, humans=2, seed=2))
    server = TableServer(session, pace_ms=0)
    contexts = [browser.new_context(viewport={"width": 1024, "height": 800}) for _ in range(3)]
    rng = np.random.default_rng(4)
    moves = [0, 0]
    with running(server) as url:
        links = dict(server.invites(int(url.split(":")[2].split("/")[0])))
        pages = [context.new_page() for context in contexts]
        for page, who in zip(pages, ("player_0", "player_1", "spectator"), strict=True):
            page.goto(links[who])
            page.wait_for_function("window.__state !== undefined && window.__state !== null", timeout=TIMEOUT_MS)
        while True:
            for _ in range(400):  # the pages let the bots play on to the next person or the end
                if session.over or not session.bot_to_act():
                    break
                pages[0].wait_for_timeout(50)
            if session.over:
                break
            mover = session.game.current_player
            page = pages[mover]
            page.wait_for_function("window.__state.moves.length > 0", timeout=TIMEOUT_MS)
            message = state(page)
            hands = [h.split() for h in session.game.privileged_state()["hands"]]
            assert message["hand"] == hands[mover]
            for seat, watcher in enumerate(pages):  # pages[2] is the watcher's: no hand at all
                seen = state(watcher)
                assert all(p["hand"] == [] for i, p in enumerate(seen["players"]) if i != seat or seat == 2)
            click_move(page, message, int(rng.integers(len(message["moves"]))))
            moves[mover] += 1
        pages[0].wait_for_function("window.__state.over", timeout=TIMEOUT_MS)
        assert state(pages[2])["hand"] == [] and state(pages[2])["seat"] == -1
    for context in contexts:
        context.close()
    assert moves[0] > 2 and moves[1] > 2
