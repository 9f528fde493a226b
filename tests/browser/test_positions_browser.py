"""Historical positions in a real browser: the historical-positions notebook in Voila draws the
Agordat position on the app's map (its counters painted where the scene puts them), and the
position editor below it places a counter picked from a pool with two clicks."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect

from cheren import load_scenario
from cheren.app.board import Board
from cheren.app.editor import EditorController
from cheren.engine.game import Game
from cheren.files import load_position
from cheren.hexes import Hex
from cheren.render.canvas import TABLE, View, fit_view
from cheren.render.primitives import Group, Rect
from cheren.render.scene import Scene
from tests.browser.conftest import TIMEOUT_MS

H = Hex.from_label
expect.set_options(timeout=TIMEOUT_MS)
APP_CANVAS = ".cheren-app:not(.cheren-editor) canvas.cheren-map"
EDITOR_CANVAS = ".cheren-editor canvas.cheren-map"
SAMPLES = """([sel, x0, y0, size, n]) => { const c = document.querySelector(sel); const g = c.getContext('2d');
  const out = []; for (let i = 1; i < n; i++) for (let j = 1; j < n; j++) {
    const d = g.getImageData(Math.round(x0 + size * i / n), Math.round(y0 + size * j / n), 1, 1).data;
    out.push([d[0], d[1], d[2]]); } return out; }"""
PAINTED = """([sel, rgb]) => { const c = document.querySelector(sel); if (!c || !c.width) return false;
  const d = c.getContext('2d').getImageData(2, 2, 1, 1).data;
  return Math.abs(d[0] - rgb[0]) < 3 && Math.abs(d[1] - rgb[1]) < 3 && Math.abs(d[2] - rgb[2]) < 3; }"""
SIZE = """(sel) => { const c = document.querySelector(sel); const r = c.getBoundingClientRect();
  return [r.width / c.width, c.width, c.height]; }"""


def rgb(colour: str) -> tuple[int, int, int]:
    return (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))


class Canvas:
    def __init__(self, page: Any, selector: str, scene: Scene, fit: str | None = None) -> None:
        """``fit``: the Whole map button to press first (the play app opens zoomed on the action)."""
        self.page, self.sel, self.scene = page, selector, scene
        if fit is not None:
            page.wait_for_selector(selector, timeout=60_000)
            page.locator(fit).first.click()
        page.wait_for_function(PAINTED, arg=[selector, list(rgb(TABLE))], timeout=60_000)
        self.css, width, height = page.evaluate(SIZE, selector)
        self.view: View = fit_view(scene.width, scene.height, width, height)

    def at(self, h: Hex) -> tuple[float, float]:
        return self.view.to_screen(*self.scene.layout.to_pixel(h))

    def counter_share(self, uid: str) -> float:
        """The share of the top counter's square, sampled on a grid, painted in its body colour."""
        group = next(
            i for i in self.scene.layers["counters"] if isinstance(i, Group) and dict(i.data).get("unit") == uid
        )
        body = next(i for i in group.items if isinstance(i, Rect) and i.cls == "body")
        assert body.style.fill is not None
        x0, y0 = self.view.to_screen(body.x, body.y)
        size = body.width * self.view.zoom
        samples = self.page.evaluate(SAMPLES, [self.sel, x0, y0, size, 8])
        want = rgb(body.style.fill)
        near = [s for s in samples if all(abs(a - b) <= 6 for a, b in zip(s, want, strict=True))]
        return len(near) / len(samples)

    def click(self, h: Hex) -> None:
        x, y = self.at(h)
        self.page.locator(self.sel).click(position={"x": x * self.css, "y": y * self.css})


def test_voila_opens_a_library_position_and_an_edit_by_clicks_places_a_counter(
    page: Any, voila_url: str, request: pytest.FixtureRequest
) -> None:
    s = load_scenario()
    page.goto(f"{voila_url}/voila/render/historical_positions.ipynb")
    page.wait_for_selector(APP_CANVAS, timeout=90_000)
    expect(page.locator(".cheren-status").first).to_contain_text("Turn 2/12")
    app = Canvas(page, APP_CANVAS, Board(Game.from_position(load_position("agordat", s))).scene(),
                 fit=".cheren-app:not(.cheren-editor) button.cheren-fit")
    # 29 Ind alone at Aicota (allied red), Col 41 alone in the hills west of Agordat (Italian green)
    for uid in ("ind_29", "col_41"):
        assert app.counter_share(uid) > 0.3, uid

    editor = EditorController(scenario=s)
    editor.load("agordat")
    edit = Canvas(page, EDITOR_CANVAS, editor.scene())
    page.locator(".cheren-pool-italian select").select_option(label="Alpini Uork Amba · arrives turn 4")
    expect(page.locator(".cheren-edit-unit")).to_contain_text("Alpini Uork Amba")
    edit.click(H("1805"))
    feedback = page.locator(".cheren-editor .cheren-feedback")
    expect(feedback).to_contain_text("Alpini Uork Amba placed in 1805")
    expect(page.locator(".cheren-edit-check")).to_contain_text("before its arrival on turn 4")
    editor.place("alpini_uork_amba", "1805")
    expect(page.locator(".cheren-pool-italian select")).not_to_contain_text("Alpini Uork Amba")
    after = Canvas(page, EDITOR_CANVAS, editor.scene())
    deadline = time.monotonic() + TIMEOUT_MS / 1000  # the canvas repaints after the widget message
    while after.counter_share("alpini_uork_amba") <= 0.3:
        assert time.monotonic() < deadline, "the placed counter never appeared on the editor's map"
        time.sleep(0.1)
    assert not request.node.page_errors, request.node.page_errors
