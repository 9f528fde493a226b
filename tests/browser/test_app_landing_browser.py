"""The app a newcomer meets, in a real browser: the landing page (notebooks/app.ipynb in Voila)
with the map above the fold, the game taken up again after a reload, Load listing the saves and
asking first, and the layout at two screen sizes (the toolbar labels whole, the map filling its
box)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from cheren.app.hidden_info import SEATINGS
from tests.browser.conftest import TIMEOUT_MS

expect.set_options(timeout=TIMEOUT_MS)
CANVAS = ".cheren-app canvas.cheren-map"
PAINTED = """(sel) => { const c = document.querySelector(sel); if (!c || !c.width) return false;
  return c.getContext('2d').getImageData(c.width / 2, c.height / 2, 1, 1).data[3] > 0; }"""
CLIPPED = """() => [...document.querySelectorAll('.cheren-app button')].filter(b => b.offsetParent !== null)
  .filter(b => b.scrollWidth > b.clientWidth + 1).map(b => b.textContent)"""
BOXES = """(sel) => { const c = document.querySelector(sel); const box = c.closest('.cheren-map-box');
  const r = c.getBoundingClientRect(), b = box.getBoundingClientRect();
  return {canvas: [r.left, r.top, r.width, r.height], box: [b.left, b.top, b.width, b.height],
          pixels: [c.width, c.height], dpr: window.devicePixelRatio}; }"""


def open_app(page: Any, voila_url: str) -> None:
    page.goto(f"{voila_url}/voila/render/app.ipynb", timeout=90_000)  # Voila runs the notebook before the load
    page.wait_for_selector(".cheren-app .cheren-bar", timeout=90_000)
    page.wait_for_selector(CANVAS, state="attached", timeout=60_000)
    reveal = page.locator(".cheren-reveal:visible")
    if reveal.count():  # a game taken up again stays behind the hot-seat curtain until asked
        reveal.first.click()
    page.wait_for_selector(CANVAS, timeout=60_000)
    page.wait_for_function(PAINTED, arg=CANVAS, timeout=60_000)


def test_voila_the_game_is_taken_up_again_after_a_reload(page: Any, voila_url: str) -> None:
    open_app(page, voila_url)
    # a new game, hot-seat, whatever an earlier test left (a study comes back as a study, no curtain)
    page.locator(".cheren-mode select").first.select_option(label=SEATINGS["hot-seat"])
    page.locator("button.cheren-new-game").first.click()
    expect(page.locator(".cheren-bar").first).to_have_attribute("data-phase", "reinforcement")
    bar = page.locator(".cheren-bar").first
    page.locator(".cheren-end-phase").first.click()
    expect(bar).to_have_attribute("data-phase", "movement")
    page.reload()
    page.wait_for_selector(".cheren-app .cheren-bar", timeout=90_000)
    expect(page.locator(".cheren-bar").first).to_have_attribute("data-phase", "movement")
    expect(page.locator(".cheren-reveal").first).to_be_visible()  # the hands stay hidden after a reload
    expect(page.locator(".cheren-feedback").first).to_contain_text("Took up the game where it was")
    page.locator(".cheren-reveal").first.click()
    page.wait_for_selector(CANVAS, timeout=60_000)


def test_voila_load_lists_the_saves_and_asks_before_replacing(page: Any, voila_url: str) -> None:
    open_app(page, voila_url)
    page.locator(".cheren-save-path input").first.fill("before.json")
    page.locator("button.cheren-save").first.click()
    expect(page.locator(".cheren-feedback").first).to_contain_text("Saved the game")
    expect(page.locator(".cheren-save-list select").first).to_contain_text("before.json")
    page.locator(".cheren-save-list select").first.select_option(label="before.json")
    page.locator("button.cheren-load").first.click()
    confirm = page.locator(".cheren-load-confirm").first
    expect(confirm).to_contain_text("Replace the game on the map")
    page.locator("button.cheren-load-no").first.click()
    expect(page.locator(".cheren-feedback").first).to_contain_text("Kept the game on the map")
    page.locator("button.cheren-load").first.click()
    page.locator("button.cheren-load-yes").first.click()
    expect(page.locator(".cheren-feedback").first).to_contain_text("Loaded")


@pytest.mark.parametrize("width, height, dpr", [(1100, 800, 1), (1440, 900, 2)])
def test_voila_layout_toolbar_whole_and_map_fills_its_box(
    browser: Any, voila_url: str, width: int, height: int, dpr: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=dpr)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.route("**/*", lambda r: r.continue_() if r.request.url.startswith("http://127.0.0.1") else r.abort())
    try:
        open_app(page, voila_url)
        page.wait_for_timeout(500)
        page.screenshot(path=f"/tmp/cheren-app-{width}x{height}@{dpr}.png")
        assert page.evaluate(CLIPPED) == []
        boxes = page.evaluate(BOXES, CANVAS)
        cw, bw = boxes["canvas"][2], boxes["box"][2]
        assert cw >= 0.95 * bw, boxes  # the map fills the width of its box
        assert boxes["canvas"][1] < height * 0.6, boxes  # the map starts above the fold
        assert boxes["pixels"][0] >= cw * dpr * 0.95, boxes  # sharp: a canvas pixel per screen pixel
        page.screenshot(path=f"/tmp/cheren-app-{width}x{height}@{dpr}.png")
    finally:
        context.close()
