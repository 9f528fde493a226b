"""The course in a real browser: a lesson notebook in Voila, an exercise solved by clicks on the
map (select the Tank, click where it goes), Check says so, and the progress file records it."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from cheren.app.board import Board
from cheren.app.map import PIXEL_RATIO
from cheren.hexes import Hex
from cheren.render.canvas import focus_view
from cheren.study.lessons import ExerciseRun, load_lesson
from tests.browser.conftest import TIMEOUT_MS
from tests.browser.test_positions_browser import SIZE, Canvas

H = Hex.from_label
expect.set_options(timeout=TIMEOUT_MS)
CANVAS = ".cheren-lesson canvas.cheren-map"
PAINTED = """(sel) => { const c = document.querySelector(sel); if (!c || !c.width) return false;
  return c.getContext('2d').getImageData(c.width / 2, c.height / 2, 1, 1).data[3] > 0; }"""


def lesson_canvas(page: Any, run: ExerciseRun) -> Canvas:
    """The lesson map, seen as the lesson app shows it: focused on the exercise's hexes."""
    scene = Board(run.game).scene()
    page.wait_for_function(PAINTED, arg=CANVAS, timeout=60_000)
    canvas = Canvas.__new__(Canvas)
    canvas.page, canvas.sel, canvas.scene = page, CANVAS, scene
    canvas.css, width, height = page.evaluate(SIZE, CANVAS)
    points = [scene.layout.to_pixel(h) for h in run.focus_hexes()]
    canvas.view = focus_view(points, scene.width, scene.height, width, height, max_zoom=2.0 * PIXEL_RATIO)
    return canvas


def test_voila_a_learner_solves_an_exercise_by_clicks_and_check_says_solved(
    page: Any, voila_url: str, served: Path
) -> None:
    page.goto(f"{voila_url}/voila/render/learn/01_map_and_terrain.ipynb")
    page.wait_for_selector(CANVAS, timeout=90_000)
    expect(page.locator(".cheren-goal").first).to_contain_text("Drive the Tank from Kassala")
    run = ExerciseRun(load_lesson("map-and-terrain"), "drive-by-road")
    canvas = lesson_canvas(page, run)

    page.locator(".cheren-check button, button.cheren-check").first.click()
    expect(page.locator(".cheren-verdict").first).to_contain_text("Nothing done yet")

    canvas.click(H("0208"))  # the Tank, alone in Kassala
    expect(page.locator(".cheren-stack").first).to_contain_text("Tank")
    canvas.click(H("0911"))  # Aicota, by road
    expect(page.locator(".cheren-feedback").first).to_contain_text("Tank moves 0208 -> 0911")

    page.locator("button.cheren-check").first.click()
    verdict = page.locator(".cheren-verdict [data-passed='1']").first
    expect(verdict).to_contain_text("Solved")
    expect(verdict).to_contain_text("★★★")
    expect(page.locator(".cheren-exercise-pick select").first).to_contain_text("By road to Aicota ★★★")

    progress = served / "progress.json"
    deadline = time.monotonic() + 10
    while not progress.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    saved = json.loads(progress.read_text())
    assert saved["exercises"]["map-and-terrain/drive-by-road"]["stars"] == 3


def test_voila_a_refused_move_shows_its_rule_with_the_summary(page: Any, voila_url: str) -> None:
    page.goto(f"{voila_url}/voila/render/learn/01_map_and_terrain.ipynb")
    page.wait_for_selector(CANVAS, timeout=90_000)
    # the third exercise, whatever stars an earlier test left on its label (the progress file is shared)
    page.locator(".cheren-exercise-pick select").first.select_option(index=2)
    expect(page.locator(".cheren-goal").first).to_contain_text("mountain hex 1808")
    run = ExerciseRun(load_lesson("map-and-terrain"), "tanks-and-mountains")
    canvas = lesson_canvas(page, run)
    canvas.click(H("1708"))
    canvas.click(H("1808"))
    expect(page.locator(".cheren-feedback .refused").first).to_contain_text("1808 is a mountain hex")
    badge = page.locator(".cheren-feedback .refused .cheren-rule[data-rule='9.1']").first
    expect(badge).to_be_visible()
    assert "closed to tanks" in (badge.get_attribute("title") or "")
    expect(page.locator(".cheren-rules-cited").first).to_contain_text("9.1 Mountains")
    page.locator("button.cheren-check").first.click()
    expect(page.locator(".cheren-verdict [data-passed='1']").first).to_contain_text("Solved")
    expect(page.locator(".cheren-feedback .refused").first).to_contain_text("1808")  # solving keeps the map as it is
