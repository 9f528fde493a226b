"""Historical positions in a real browser: the historical-positions notebook in Voila draws the
Agordat position on the app's map (its counters painted where the scene puts them), shows its answer
key and plays its historical plan, and the position editor, opened on the same map (Edit
position ✎), places a counter picked from a pool with two clicks."""

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
EDITOR_CANVAS = APP_CANVAS  # one map widget: the editor draws on the app's
FIT = "button.cheren-fit:visible"  # Whole map: the app's, or the editor's on the same map
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

    def _position(self, h: Hex) -> dict[str, float]:
        # the page's scale is read now, not when the map was first seen: under load a panel beside the
        # map may still be filling and change the map's width on the page (a click one hex off)
        self.css = self.page.evaluate(SIZE, self.sel)[0]
        x, y = self.at(h)
        return {"x": x * self.css, "y": y * self.css}

    def click(self, h: Hex) -> None:
        self.page.locator(self.sel).click(position=self._position(h))

    def aim(self, h: Hex) -> None:
        """Rest the pointer on ``h`` until the hover line names it: the kernel maps that point to
        that hex (its view and the page's scale both settled)."""
        hover = self.page.locator(".cheren-app:not(.cheren-editor) .cheren-hover")
        deadline = time.monotonic() + TIMEOUT_MS / 1000
        nudge = 0.0
        while True:
            pos = self._position(h)
            self.page.locator(self.sel).hover(position={"x": pos["x"] + nudge, "y": pos["y"]})
            try:
                expect(hover).to_contain_text(f"{h.label}:", timeout=2_000)
                return
            except AssertionError:
                if time.monotonic() > deadline:
                    raise
                nudge = 1.0 - nudge  # a new pointer position, so the map is asked again


def test_voila_opens_a_library_position_and_an_edit_by_clicks_places_a_counter(
    page: Any, voila_url: str, request: pytest.FixtureRequest
) -> None:
    s = load_scenario()
    page.goto(f"{voila_url}/voila/render/historical_positions.ipynb", timeout=90_000)
    page.wait_for_selector(APP_CANVAS, timeout=90_000)
    expect(page.locator(".cheren-status").first).to_contain_text("Turn 2/12")
    app = Canvas(page, APP_CANVAS, Board(Game.from_position(load_position("agordat", s))).scene(),
                 fit=".cheren-app:not(.cheren-editor) button.cheren-fit")
    # 29 Ind on the Aicota road (allied red), Col 41 on the Cheren road behind Agordat (Italian green)
    for uid in ("ind_29", "col_41"):
        assert app.counter_share(uid) > 0.3, uid

    page.locator("button.cheren-edit-position").click()
    expect(page.locator(".cheren-edit-unit")).to_be_visible()
    editor = EditorController(scenario=s)
    editor.load("agordat")
    edit = Canvas(page, EDITOR_CANVAS, editor.scene())
    page.locator(".cheren-pool-italian select").select_option(label="Alpini Uork Amba · arrives turn 4")
    expect(page.locator(".cheren-edit-unit")).to_contain_text("Alpini Uork Amba")
    edit.click(H("1805"))
    feedback = page.locator(".cheren-feedback")
    expect(feedback).to_contain_text("Alpini Uork Amba placed in 1805")
    expect(page.locator(".cheren-edit-check")).to_contain_text("before its arrival on turn 4")
    editor.place("alpini_uork_amba", "1805")
    expect(page.locator(".cheren-pool-italian select")).not_to_contain_text("Alpini Uork Amba")
    after = Canvas(page, EDITOR_CANVAS, editor.scene())
    deadline = time.monotonic() + TIMEOUT_MS / 1000  # the canvas repaints after the widget message
    while after.counter_share("alpini_uork_amba") <= 0.3:
        assert time.monotonic() < deadline, "the placed counter never appeared on the editor's map"
        time.sleep(0.1)
    # Play from here: the edited position back on the board, for study, on the same map
    page.locator(".cheren-edit-play").click()
    expect(page.locator(".cheren-position-panel")).to_contain_text("Agordat")
    expect(page.locator("button.cheren-end-phase")).to_be_visible()
    deadline = time.monotonic() + TIMEOUT_MS / 1000  # the board's map repaints after the message
    while after.counter_share("alpini_uork_amba") <= 0.3:
        assert time.monotonic() < deadline, "the placed counter is not on the board's map"
        time.sleep(0.1)
    assert not request.node.page_errors, request.node.page_errors


def test_voila_shows_the_answer_key_and_plays_the_historical_plan(page: Any, voila_url: str,
                                                                   request: pytest.FixtureRequest) -> None:
    page.goto(f"{voila_url}/voila/render/historical_positions.ipynb", timeout=90_000)
    page.wait_for_selector(APP_CANVAS, timeout=90_000)
    # the answer key beside the game: its question, then the historical plan played on the map
    answer = page.locator(".cheren-app:not(.cheren-editor) .cheren-answer-key").first
    expect(answer).to_contain_text("The question (Allied to decide)")
    page.locator(".cheren-app:not(.cheren-editor) .cheren-answer-play").first.click()
    expect(page.locator(".cheren-app:not(.cheren-editor) .cheren-feedback").first).to_contain_text(
        "The historical plan, played as the line"
    )
    assert not request.node.page_errors, request.node.page_errors


RING = """([sel, x, y, r, rgb]) => { const g = document.querySelector(sel).getContext('2d'); let hit = 0;
  for (let k = 0; k < 24; k++) { const a = 2 * Math.PI * k / 24;
    const d = g.getImageData(Math.round(x + r * Math.cos(a)), Math.round(y + r * Math.sin(a)), 1, 1).data;
    if (Math.abs(d[0] - rgb[0]) < 30 && Math.abs(d[1] - rgb[1]) < 30 && Math.abs(d[2] - rgb[2]) < 40) hit++; }
  return hit; }"""


def test_voila_the_editor_picks_any_counter_of_a_stack_and_its_outline_follows(page: Any, voila_url: str) -> None:
    """Issue 30, item 6: a second click on a stack picks the next counter; the stack's counters are
    buttons; the outline goes where the counter is put; Open empties the code box and names a
    new file."""
    from cheren.app.map_scene import SELECT

    s = load_scenario()
    page.goto(f"{voila_url}/voila/render/historical_positions.ipynb", timeout=90_000)
    page.wait_for_selector(APP_CANVAS, timeout=90_000)
    page.locator("button.cheren-edit-position").click()
    expect(page.locator(".cheren-edit-unit")).to_be_visible()
    editor = EditorController(scenario=s)
    editor.load("agordat")
    edit = Canvas(page, EDITOR_CANVAS, editor.scene(), fit=FIT)  # the map opens zoomed on the action
    stack = editor.stack(H("1411"))
    panel = page.locator(".cheren-edit-unit")
    edit.click(H("1411"))
    expect(panel).to_contain_text(s.units[stack[0]].name)
    edit.click(H("1411"))
    expect(panel.locator(".info .name")).to_have_text(s.units[stack[1]].name)
    buttons = page.locator(".cheren-edit-stack-pick")
    expect(buttons).to_have_count(len(stack))
    buttons.nth(2).click()
    expect(panel.locator(".info .name")).to_have_text(s.units[stack[2]].name)

    def ring(h: Hex) -> int:
        x, y = edit.at(h)
        radius = 0.9 * edit.scene.layout.size * edit.view.zoom
        hits: int = page.evaluate(RING, [EDITOR_CANVAS, x, y, radius, list(rgb(SELECT))])
        return hits

    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while ring(H("1411")) < 6:
        assert time.monotonic() < deadline, "the picked stack was never outlined"
        time.sleep(0.1)
    edit.click(H("1410"))
    expect(page.locator(".cheren-feedback")).to_contain_text("placed in 1410")
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while not (ring(H("1410")) >= 6 and ring(H("1411")) < 6):  # a neighbour's outline crosses the ring twice
        assert time.monotonic() < deadline, (ring(H("1410")), ring(H("1411")))
        time.sleep(0.1)

    page.locator(".cheren-edit-code-button").click()
    code = page.locator(".cheren-edit-code textarea")
    expect(code).not_to_have_value("")
    page.locator(".cheren-edit-out input[placeholder='library name, file or code']").fill("cheru")
    page.locator(".cheren-edit-open").click()
    expect(page.locator(".cheren-feedback")).to_contain_text("Opened Cheru")
    expect(code).to_have_value("")
    expect(page.locator(".cheren-edit-out input").first).to_have_value("my-cheru.yaml")


def _click_times(page: Any, sel: str, scene: Scene, hexes: list[Hex]) -> list[float]:
    """Click each hex on the map and wait for the side panel to name it: the seconds each took."""
    canvas = Canvas(page, sel, scene, fit=FIT)  # the map opens zoomed on the action
    out = []
    for h in hexes:
        canvas.aim(h)
        t0 = time.monotonic()
        canvas.click(h)
        page.wait_for_selector(f".cheren-selected[data-hex='{h.label}']", timeout=TIMEOUT_MS)
        out.append(time.monotonic() - t0)
    return out


def test_the_positions_notebook_has_one_map_and_answers_clicks_in_lab_and_voila(
    page: Any, lab_url: str, voila_url: str
) -> None:
    """Issue 30, item 7: one shared map widget (the gallery is text, the editor opens on the app's
    map), so JupyterLab answers a click on it as Voila does; both are timed for the report."""
    import statistics
    import uuid

    from cheren.scenario import Side
    from tests.browser.conftest import TIMINGS, TOKEN
    from tests.browser.test_app_browser import RUN_ALL

    s = load_scenario()
    board = Board(Game.from_position(load_position("agordat", s)))
    # Allied stacks: in Agordat's Allied Combat phase a click on one selects it (a click on an
    # Italian hex would line up an attack on it instead)
    allied = sorted({u.hex for u in board.position.units.values() if u.hex is not None and u.side is Side.ALLIED})
    medians = {}
    page.goto(f"{lab_url}/lab/workspaces/t-{uuid.uuid4().hex[:8]}/tree/historical_positions.ipynb?reset&token={TOKEN}")
    page.wait_for_function("() => window.jupyterapp?.shell.currentWidget?.sessionContext", timeout=60_000)
    page.evaluate(RUN_ALL)
    page.wait_for_selector(APP_CANVAS, timeout=180_000)
    page.locator(APP_CANVAS).first.scroll_into_view_if_needed()
    assert page.locator("canvas.cheren-map").count() == 1  # the one map of the notebook
    medians["JupyterLab"] = statistics.median(_click_times(page, APP_CANVAS, board.scene(), allied[:6]))
    page.goto(f"{voila_url}/voila/render/historical_positions.ipynb", timeout=90_000)
    page.wait_for_selector(APP_CANVAS, timeout=90_000)
    assert page.locator("canvas.cheren-map").count() == 1
    medians["Voila"] = statistics.median(_click_times(page, APP_CANVAS, board.scene(), allied[:6]))
    TIMINGS.append("positions notebook, a click on the map answered: " + ", ".join(
        f"{k} {v * 1000:.0f} ms" for k, v in medians.items()) + " (medians of 6 clicks)")
