"""Drive the play page in a real browser (Playwright on the system Chromium): a person clicking legal moves.

Used by the browser tests and to refresh the pictures of the docs:

    python -m cardenvs.experiments.play.browser --screenshots docs/images

Playwright's own browser download is not needed: it drives ``/usr/bin/chromium`` (Debian's ``chromium``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

import cardenvs
from cardenvs.experiments.play.__main__ import free_socket
from cardenvs.experiments.play.server import TableServer
from cardenvs.experiments.play.session import PlaySession, ReplaySession, TableSettings
from cardenvs.registry import game_name

CHROMIUM = "/usr/bin/chromium"
TIMEOUT_MS = 20_000


@contextlib.contextmanager
def running(server: TableServer) -> Iterator[str]:
    """Serve ``server`` on a free port in a thread; yields its URL (with the table's token)."""
    import uvicorn

    sock = free_socket(0)
    app_server = uvicorn.Server(uvicorn.Config(server.app(), log_level="warning"))
    thread = threading.Thread(target=app_server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        while not app_server.started:
            thread.join(0.02)
        yield server.url(sock.getsockname()[1])
    finally:
        app_server.should_exit = True
        thread.join(10)
        sock.close()


def state(page: Any) -> dict[str, Any]:
    """The last message the page rendered."""
    # One JSON string crosses to Python much faster than Playwright's object-by-object copy of a big message.
    message: dict[str, Any] = json.loads(page.evaluate("JSON.stringify(window.__state)"))
    return message


def click_card(page: Any, i: int) -> None:
    """Click card ``i`` of the hand near its left edge (the part the next card does not cover), at any zoom."""
    box = page.locator(f'#table .card[data-i="{i}"]').bounding_box()
    # a real mouse click at that point, without Playwright's waits for the element to be stable
    page.mouse.click(box["x"] + min(6, box["width"] * 0.1), box["y"] + box["height"] * 0.45)


def click_move(page: Any, message: dict[str, Any], index: int) -> None:
    """Make move ``index`` of ``message`` (the page's current one) as a person does: select its cards, press its
    button."""
    move = message["moves"][index]
    free = list(range(len(message["hand"])))
    for card in move["cards"]:
        i = next(i for i in free if message["hand"][i] == card)
        free.remove(i)
        click_card(page, i)
    version = message["version"]
    page.click(f'#moves button.move[data-index="{index}"]', force=True)
    page.wait_for_function(f"window.__state.version !== {version}", timeout=TIMEOUT_MS)


def wait_for_person(page: Any) -> dict[str, Any]:
    """Wait until it is the person's move or the game is over (the bots play through the page meanwhile)."""
    page.wait_for_function("window.__state && (window.__state.over || !window.__state.waiting)", timeout=TIMEOUT_MS)
    return state(page)


def play_to_end(page: Any, url: str, rng: np.random.Generator, screenshot: Path | None = None) -> dict[str, Any]:
    """Open the table and play the person's seat with uniformly random legal moves until the game ends; the
    table is photographed at the person's third decision (with the chosen cards selected)."""
    page.goto(url)
    decisions = 0
    while True:
        message = wait_for_person(page)
        if message["over"]:
            return message
        index = int(rng.integers(len(message["moves"])))
        decisions += 1
        if screenshot is not None and decisions == 3:
            _select_then_photograph(page, message, index, screenshot)
        click_move(page, message, index)


def _select_then_photograph(page: Any, message: dict[str, Any], index: int, path: Path) -> None:
    free = list(range(len(message["hand"])))
    chosen = []
    for card in message["moves"][index]["cards"]:
        i = next(i for i in free if message["hand"][i] == card)
        free.remove(i)
        chosen.append(i)
    for i in chosen:
        click_card(page, i)
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=True)
    for i in chosen:  # unselect: click_move selects them again
        click_card(page, i)


CONTRAST_JS = """() => {
  // WCAG 2 contrast of every visible text of the page (outside the SVG) on its first opaque background.
  const lum = (rgb) => {
    const c = rgb.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  };
  const parse = (text) => (text.match(/[\\d.]+/g) || []).map(Number);
  const background = (el) => {
    for (; el; el = el.parentElement) {
      const c = parse(getComputedStyle(el).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0.5)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const failures = [];
  for (const el of document.querySelectorAll("body *")) {
    if (el.closest("svg") || el.tagName === "SCRIPT" || el.tagName === "STYLE") continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    const box = el.getBoundingClientRect();
    if (!own || !box.width || !box.height || getComputedStyle(el).visibility === "hidden") continue;
    const [a, b] = [lum(parse(getComputedStyle(el).color).slice(0, 3)), lum(background(el))];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const style = getComputedStyle(el);
    const large = parseFloat(style.fontSize) >= 24 || (parseFloat(style.fontSize) >= 18.66 && style.fontWeight >= 700);
    const text = el.textContent.trim().slice(0, 30);
    if (ratio < (large ? 3 : 4.5)) failures.push(el.tagName + " '" + text + "' " + ratio.toFixed(2));
  }
  return failures;
}"""


def contrast_failures(page: Any) -> list[str]:
    """The page's texts (outside the table picture) below WCAG AA contrast: 4.5:1, or 3:1 for large text."""
    failures: list[str] = page.evaluate(CONTRAST_JS)
    return failures


def marked_cards(page: Any) -> list[bool]:
    """Which cards of the hand the drawing marks playable."""
    marks: list[str] = page.eval_on_selector_all("#table .card", "cards => cards.map((c) => c.dataset.playable)")
    return [m == "1" for m in marks]


def overlapping_boxes(page: Any) -> list[tuple[str, str]]:
    """Pairs of seat boxes drawn over each other."""
    boxes: list[dict[str, Any]] = page.eval_on_selector_all(
        "#table g.seat",
        "seats => seats.map((g) => { const r = g.querySelector('rect').getBoundingClientRect(); "
        "return {name: g.dataset.player, x: r.x, y: r.y, w: r.width, h: r.height}; })",
    )

    def apart(a: dict[str, Any], b: dict[str, Any]) -> bool:
        side_by_side = a["x"] + a["w"] <= b["x"] or b["x"] + b["w"] <= a["x"]
        return side_by_side or a["y"] + a["h"] <= b["y"] or b["y"] + b["h"] <= a["y"]

    return [(a["name"], b["name"]) for i, a in enumerate(boxes) for b in boxes[i + 1 :] if not apart(a, b)]


def step_through_replay(page: Any, url: str) -> list[int]:
    """Open a replay page and walk it: next, the keyboard, the slider, another seat, the end; returns the steps
    the page showed."""
    page.goto(url)
    page.wait_for_function("window.__state && window.__state.mode === 'replay'", timeout=TIMEOUT_MS)
    seen = [state(page)["step"]]

    def wait_step(step: int) -> None:
        page.wait_for_function(f"window.__state.step === {step}", timeout=TIMEOUT_MS)
        seen.append(state(page)["step"])

    page.click("#next")
    wait_step(1)
    page.keyboard.press("ArrowRight")
    wait_step(2)
    page.keyboard.press("ArrowLeft")
    wait_step(1)
    page.select_option("#seat", "1")
    page.wait_for_function("window.__state.seat === 1", timeout=TIMEOUT_MS)
    last = state(page)["steps"] - 1
    page.keyboard.press("End")
    wait_step(last)
    page.fill("#slider", str(last // 2))
    page.dispatch_event("#slider", "input")
    wait_step(last // 2)
    return seen


def launch(playwright: Any) -> Any:
    """The system Chromium, headless."""
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])


def photograph_all(out: Path, seed: int = 0) -> list[Path]:
    """Play every registered game through the page against random opponents, photographing each table, then
    the last one's replay, then a table at a phone's width."""
    from playwright.sync_api import sync_playwright

    paths = []
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1280, "height": 700})
        for env_id in cardenvs.ENV_IDS:
            session = PlaySession(TableSettings(env_id, seed=seed))
            path = out / f"play-{game_name(env_id)}.png"
            with running(TableServer(session, pace_ms=0)) as url:
                play_to_end(page, url, np.random.default_rng(seed), screenshot=path)
            paths.append(path)
        with running(replay_server(session)) as url:  # the last game, as a replay with every hand shown
            step_through_replay(page, url)
            page.select_option("#seat", "all")
            page.wait_for_function("window.__state.seat === null", timeout=TIMEOUT_MS)
            paths.append(out / "replay.png")
            page.screenshot(path=str(paths[-1]), full_page=True)
        phone = browser.new_page(viewport={"width": 390, "height": 844})
        paths.append(out / "play-phone.png")
        with running(TableServer(PlaySession(TableSettings("goninkan-v1", seed=seed)), pace_ms=0)) as url:
            play_to_end(phone, url, np.random.default_rng(seed), screenshot=paths[-1])
        browser.close()
    return paths


def replay_server(session: PlaySession) -> TableServer:
    """A server showing the game ``session`` has played, as a replay."""
    return TableServer(None, ReplaySession(session.replay_record()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--screenshots", default="docs/images", help="folder for play-<game>.png")
    args = parser.parse_args(argv)
    for path in photograph_all(Path(args.screenshots)):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
