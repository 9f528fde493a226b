"""Issue 34's done-when, tried as a new user would, in `cheren app` (notebooks/app.ipynb in Voila):
open a position from its file with the toolbar's Open (turn 8 of a default-planner game, the Allied
army far east of Aicota, French BM 3 alone in Kassala: tests/test_evaluation_review.py measures
it), play it against the tactician bot (it plays the Italians) with the evaluation bar beside the
map, make the blunder by clicks (French BM 3 marched out of Kassala to 0511, Italian units in
reach), end the phases until the bot has played its turn (it walks into Kassala), then review the
line: the move is marked, the better move (French BM 3 kept in Kassala) is drawn in green on the
map, and its evaluation is given.  With ``CHEREN_SHOTS=1`` each step leaves a screenshot in
``tests/browser/artifacts/``."""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from cheren import load_scenario
from cheren.app.board import Board
from cheren.engine.game import Game
from cheren.files.position_saves import read_position_save
from cheren.hexes import Hex
from cheren.render.geometry import hex_polygon
from tests.browser.conftest import ARTIFACTS, TIMEOUT_MS
from tests.browser.test_app_landing_browser import open_app
from tests.browser.test_positions_browser import APP_CANVAS, FIT, Canvas

pytest.importorskip("lightgbm")
expect.set_options(timeout=TIMEOUT_MS)
H = Hex.from_label
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "kassala_left_open_turn8.json"
PIXEL = """([sel, x, y]) => { const d = document.querySelector(sel).getContext('2d')
  .getImageData(Math.round(x), Math.round(y), 1, 1).data; return [d[0], d[1], d[2]]; }"""
GREEN = (0x2E, 0x8B, 0x3A)  # cheren.app.map_scene.SUGGESTION: the review's better choice


def shot(page: Any, name: str) -> None:
    if os.environ.get("CHEREN_SHOTS") == "1":
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"review-blunder-{name}.png"))


def play_on_to_turn_9(page: Any) -> None:
    """End the Allied phases (no chit played where the Allies are asked) while the bot plays its
    side, until the Allied turn 9 begins."""
    bar = page.locator(".cheren-bar").first
    deadline = time.monotonic() + 6 * TIMEOUT_MS / 1000
    while bar.get_attribute("data-turn") != "9":
        assert time.monotonic() < deadline, page.locator(".cheren-status").first.inner_text()
        reveal = page.locator(".cheren-reveal:visible")
        if reveal.count():
            with contextlib.suppress(PlaywrightTimeout):
                reveal.first.click(timeout=2_000)
            continue
        before = page.locator(".cheren-log-panel").first.inner_text()
        passing = page.locator(".cheren-answer-pass_chit:visible")
        if passing.count():
            target = passing.first
        elif page.locator(".cheren-decision-option:visible").count():
            target = page.locator(".cheren-decision-option:visible").first
        else:
            target = page.locator("button.cheren-end-phase").first
        with contextlib.suppress(PlaywrightTimeout):
            target.click(timeout=2_000)
            page.wait_for_function("b => document.querySelector('.cheren-log-panel').innerText !== b",
                                   arg=before, timeout=TIMEOUT_MS)


def test_voila_a_blunder_against_the_bot_is_marked_in_the_review_with_the_better_move(
    page: Any, voila_url: str, request: pytest.FixtureRequest
) -> None:
    s = load_scenario()
    record = read_position_save(FIXTURE, s)
    open_app(page, voila_url)
    page.locator("button.cheren-open-position").first.click()
    page.locator(".cheren-open-path input").first.fill(str(FIXTURE))
    page.locator("button.cheren-open-path-go").first.click()
    feedback = page.locator(".cheren-feedback").first
    expect(feedback).to_contain_text("Opened")
    # against the bot: it plays the Italians, and answers the chit window the position opens on
    page.locator(".cheren-mode select").first.select_option(label="Against the tactician bot: it plays Italian")
    bar = page.locator(".cheren-bar").first
    expect(bar).to_have_attribute("data-pending", "0")
    expect(bar).to_have_attribute("data-phase", "movement")
    expect(bar).to_have_attribute("data-turn", "8")
    reveal = page.locator(".cheren-reveal:visible")
    if reveal.count():
        reveal.first.click()
    # the evaluation bar beside the map
    evaluation = page.locator(".cheren-eval-bar").first
    assert 0.0 <= float(evaluation.get_attribute("data-allied") or -1) <= 1.0
    m = Canvas(page, APP_CANVAS, Board(Game.from_position(record)).scene(), fit=FIT)
    shot(page, "1-opened")

    # the blunder, by clicks: French BM 3 out of Kassala, east to 0511
    m.click(H("0208"))
    expect(page.locator(".cheren-selected").first).to_have_attribute("data-unit", "ff_bm3")
    m.click(H("0511"))
    expect(feedback).to_contain_text("0208 -> 0511")
    shot(page, "2-blunder")
    play_on_to_turn_9(page)
    expect(page.locator(".cheren-log-panel").first).to_contain_text("-> 0208")  # the bot walked into Kassala
    shot(page, "3-the-bots-turn")

    # the review: the move is marked, with the better move and its evaluation
    page.locator("button.cheren-review-run").first.click()
    mark = page.locator(".cheren-review-mark").first
    expect(mark).to_contain_text("move French BM 3 to 0511", timeout=60_000)
    expect(mark).to_contain_text("Kassala left open and taken")
    expect(mark).to_contain_text("Better (not making it)")
    expect(page.locator(".cheren-review-better").first).to_have_text("end the phase with French BM 3 kept in Kassala")
    expect(mark).to_contain_text("% (green on the map)")
    # the board stands just before the marked move, the better move in green on Kassala
    expect(bar).to_have_attribute("data-turn", "8")
    expect(bar).to_have_attribute("data-phase", "movement")
    corners = hex_polygon(m.scene.layout, H("0208"), 0.9)
    edge = ((corners[0][0] + corners[1][0]) / 2, (corners[0][1] + corners[1][1]) / 2)
    x, y = m.view.to_screen(*edge)
    page.wait_for_function(
        "([sel, x, y, want]) => { const d = document.querySelector(sel).getContext('2d')"
        ".getImageData(Math.round(x), Math.round(y), 1, 1).data;"
        " return Math.abs(d[0] - want[0]) + Math.abs(d[1] - want[1]) + Math.abs(d[2] - want[2]) < 30; }",
        arg=[APP_CANVAS, x, y, list(GREEN)], timeout=TIMEOUT_MS)
    shot(page, "4-review-mark")
    page.locator(".cheren-review-panel").first.scroll_into_view_if_needed()
    shot(page, "5-review-panel")
    assert not request.node.page_errors, request.node.page_errors
