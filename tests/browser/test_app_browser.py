"""The notebook app in a real browser: it opens in Voila and in JupyterLab, the map paints the
terrain colours where the scene puts them, a click on a unit paints its reach, a click on a
reachable hex moves it (and the page shows the new hex, read back from Python), an attack shows
its what-if, and the canvas repaints after a page reload.

The expected pixels are computed here from the same scene the app draws (terrain colours from
the scenario, the fit-to-view transform of :mod:`cheren.render.canvas`)."""

from __future__ import annotations

import contextlib
import os
import time
import uuid
from functools import cache
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from cheren import load_scenario
from cheren.app.board import Board
from cheren.engine.game import Game
from cheren.hexes import Hex
from cheren.render.canvas import TABLE, View, fit_view
from cheren.render.scene import Scene
from cheren.scenario import Scenario
from tests.browser.conftest import ARTIFACTS, TIMEOUT_MS, TIMINGS, TOKEN

H = Hex.from_label
expect.set_options(timeout=TIMEOUT_MS)
CANVAS = "canvas.cheren-map"
PIXEL = """([sel, x, y]) => { const c = document.querySelector(sel); if (!c) return null;
  const d = c.getContext('2d').getImageData(Math.round(x), Math.round(y), 1, 1).data;
  return [d[0], d[1], d[2], d[3]]; }"""
PAINTED = """([sel, rgb]) => { const c = document.querySelector(sel); if (!c || !c.width) return false;
  const d = c.getContext('2d').getImageData(2, 2, 1, 1).data;
  return Math.abs(d[0] - rgb[0]) < 3 && Math.abs(d[1] - rgb[1]) < 3 && Math.abs(d[2] - rgb[2]) < 3; }"""
SCALE = """(sel) => { const c = document.querySelector(sel); const r = c.getBoundingClientRect();
  return [r.width / c.width, r.height / c.height, c.width, c.height]; }"""


def rgb(colour: str) -> tuple[int, int, int]:
    return (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))


def close(got: Any, want: tuple[int, ...], tol: int = 3) -> bool:
    return got is not None and all(abs(int(g) - int(w)) <= tol for g, w in zip(got, want, strict=False))


@cache
def scenario() -> Scenario:
    return load_scenario()


RUN_ALL = """async () => {
    const app = window.jupyterapp, nb = app.shell.currentWidget;
    await nb.context.ready; await nb.sessionContext.ready;
    const t0 = Date.now();
    while (nb.sessionContext.session?.kernel?.status !== 'idle') {
        if (Date.now() - t0 > 60000) throw new Error('kernel never idle');
        await new Promise(r => setTimeout(r, 100));
    }
    await app.commands.execute('notebook:run-all-cells');
}"""


class Map:
    """Where things are on the canvas: scene pixels through the app's fit-to-view transform."""

    def __init__(self, page: Any, scene: Scene) -> None:
        sx, _sy, width, height = page.evaluate(SCALE, CANVAS)
        self.page, self.scene, self.css = page, scene, sx
        self.view: View = fit_view(scene.width, scene.height, width, height)

    def at(self, h: Hex, dx: float = 0.0, dy: float = 0.0) -> tuple[float, float]:
        """Canvas pixel of a point ``(dx, dy)`` hex sizes away from the centre of ``h``."""
        x, y = self.scene.layout.to_pixel(h)
        s = self.scene.layout.size
        return self.view.to_screen(x + dx * s, y + dy * s)

    def pixel(self, h: Hex, dx: float = 0.0, dy: float = 0.0) -> list[int]:
        x, y = self.at(h, dx, dy)
        got: list[int] = self.page.evaluate(PIXEL, [CANVAS, x, y])
        return got

    def click(self, h: Hex) -> None:
        x, y = self.at(h)
        self.page.locator(CANVAS).click(position={"x": x * self.css, "y": y * self.css})


def plain_hexes(s: Scenario, scene: Scene) -> list[Hex]:
    """Hexes whose middle shows nothing but their fill: no town, village, route, river, area,
    edge, source or unit in them or next to them (labels spill over), one per terrain."""
    busy: set[Hex] = set(s.towns_by_hex) | {H(v.hex) for v in s.villages.values()}
    for side in (*s.road_sides, *s.track_sides, *s.river_sides):
        busy |= {side.a, side.b}
    for key in s.garrison_areas:
        busy |= s.area_hexes(key)
    for edge in s.allied_edges:
        busy |= {H(label) for label in edge.hexes}
    for src in s.supply_sources:
        busy |= {H(label) for label in src.hexes}
    game = Game(s, seed=1941)
    busy |= {u.hex for u in game.position.units.values() if u.hex is not None}
    near = set(busy) | {n for h in busy for n in h.neighbours()}
    chosen: dict[str, Hex] = {}
    for h in sorted(s.hexes):
        info = s.hexes[h]
        if h in near or len(info.terrains) > 1:
            continue
        if all(n in s.hexes for n in h.neighbours()):
            chosen.setdefault(info.terrains[0].key, h)
    return list(chosen.values())


def wait_painted(page: Any) -> None:
    """The map painted at the whole-map view (the app opens zoomed on the action: Whole map first)."""
    page.wait_for_selector(CANVAS, timeout=60_000)  # the kernel starts and runs the notebook first
    page.locator("button.cheren-fit").first.click()
    page.wait_for_function(PAINTED, arg=[CANVAS, list(rgb(TABLE))], timeout=TIMEOUT_MS)


def check_terrain(page: Any) -> Map:
    s = scenario()
    m = Map(page, Board(Game(s, seed=1941)).scene())
    hexes = plain_hexes(s, m.scene)
    assert len(hexes) >= 3, hexes
    for h in hexes:
        want = rgb(s.hexes[h].terrains[0].colour)
        got = m.pixel(h, 0.0, 0.15)
        assert close(got, (*want, 255)), (h.label, s.hexes[h].terrains[0].key, got, want)
    assert close(page.evaluate(PIXEL, [CANVAS, 2, 2]), (*rgb(TABLE), 255))
    return m


def pass_decisions(page: Any, *, until: str, log: str = "") -> None:
    """Answer every pending decision with its 'no' answer (play no chit), until the status bar
    says the phase is ``until`` and nothing is pending (the bar carries both as data), and the
    log shows ``log``.  Other decisions (a retreat) take their first answer."""
    deadline = time.monotonic() + 2 * TIMEOUT_MS / 1000
    while time.monotonic() < deadline:
        reveal = page.locator(".cheren-reveal:visible")
        if reveal.count():  # hot-seat: the next player is at the screen
            # the curtain may be going away already: look again rather than wait on it
            with contextlib.suppress(PlaywrightTimeout):
                reveal.first.click(timeout=2_000)
            continue
        decision = page.locator(".cheren-decision")
        if decision.is_visible():
            prompt = page.locator(".cheren-decision").inner_text()
            passing = page.locator(".cheren-answer-pass_chit:visible")
            if "chit" in prompt:
                if not passing.count():
                    time.sleep(0.1)  # the panel is still being redrawn: never click a chit by mistake
                    continue
                target = passing.first
            else:
                target = page.locator(".cheren-decision-option:visible").first
            before = page.locator(".cheren-log-panel").inner_text()
            try:  # the panel may be between two states: look again rather than wait on it
                target.click(timeout=2_000)
            except PlaywrightTimeout:
                continue
            # the hot-seat curtain may have hidden the button as it was clicked: look again then
            with contextlib.suppress(PlaywrightTimeout):
                page.wait_for_function(
                    "b => document.querySelector('.cheren-log-panel').innerText !== b", arg=before, timeout=5_000
                )
            continue
        bar = page.locator(".cheren-bar")
        settled = bar.get_attribute("data-phase") == until and bar.get_attribute("data-pending") == "0"
        if settled and page.locator(".cheren-reveal:visible").count():
            continue  # the hot-seat curtain is (still) up: the loop's next turn lifts it
        if settled and log in page.locator(".cheren-log-panel").inner_text():
            return
        time.sleep(0.1)
    raise AssertionError(f"never reached {until!r}: {page.locator('.cheren-status').inner_text()}")


def test_voila_paints_the_map_and_plays_a_move(page: Any, voila_url: str, request: pytest.FixtureRequest) -> None:
    t0 = time.monotonic()
    page.goto(f"{voila_url}/voila/render/play.ipynb")
    wait_painted(page)
    TIMINGS.append(f"Voila: the map painted {time.monotonic() - t0:.1f} s after the page was asked for")
    m = check_terrain(page)
    expect(page.locator(".cheren-status")).to_contain_text("Turn 1/12")

    # End phase: into the allied Movement phase (a chit window may come first)
    page.locator(".cheren-end-phase").click()
    pass_decisions(page, until="movement")

    # the same game in this process: which unit a click on Kassala selects, and where it can go
    c = Board(Game(scenario(), seed=1941))
    c.play.end_phase()
    while c.game.pending is not None:
        options = c.decisions.options()
        c.decisions.answer(next((i for i, (_, a) in enumerate(options) if a.kind == "pass_chit"), 0))
    kassala = H("0208")
    c.click_hex(kassala)
    uid = c.selected
    assert uid is not None
    moves = c.play.legal_moves(uid)
    plain = set(plain_hexes(scenario(), m.scene))
    occupied = {u.hex for u in c.position.units.values()}
    candidates = sorted((h for h in moves if h not in occupied), key=lambda h: (h not in plain, -h.distance(kassala)))
    target, other = candidates[0], candidates[1]

    # click the unit: time from the press to the reach overlay painted over the target hex
    before = m.pixel(target, 0.6, 0.0)
    other_before = m.pixel(other, 0.6, 0.0)
    page.evaluate(
        """([sel, x, y, base]) => {
        const c = document.querySelector(sel);
        window.__pressAt = null; window.__reachAt = null;
        c.addEventListener('mousedown', () => { window.__pressAt = performance.now(); }, {capture: true, once: true});
        const poll = () => {
          const d = c.getContext('2d').getImageData(Math.round(x), Math.round(y), 1, 1).data;
          const diff = Math.abs(d[0] - base[0]) + Math.abs(d[1] - base[1]) + Math.abs(d[2] - base[2]);
          if (window.__pressAt !== null && diff > 12) {
            window.__reachAt = performance.now(); return; }
          requestAnimationFrame(poll);
        };
        requestAnimationFrame(poll);
    }""",
        [CANVAS, *m.at(target, 0.6, 0.0), before],
    )
    m.click(kassala)
    page.wait_for_function("() => window.__reachAt !== null", timeout=TIMEOUT_MS)
    ms = page.evaluate("() => window.__reachAt - window.__pressAt")
    TIMINGS.append(f"Voila: a click on a unit ({uid}) until its reach is painted: {ms:.0f} ms")
    # the side panel follows (its own widget message, after the canvas's)
    page.wait_for_selector(f".cheren-selected[data-unit='{uid}'][data-hex='0208']", timeout=TIMEOUT_MS)
    # the reach overlay is the scene's: #2b6cc4 at 30 % over what was there
    reach = rgb("#2b6cc4")
    want = tuple(round(0.7 * b + 0.3 * o) for b, o in zip(before[:3], reach, strict=True))
    assert close(m.pixel(target, 0.6, 0.0)[:3], want, tol=4), (m.pixel(target, 0.6, 0.0), want)

    # click the reachable hex: the unit moves there, and Python says so in the page
    m.click(target)
    page.wait_for_selector(f".cheren-selected[data-hex='{target.label}']", timeout=TIMEOUT_MS)
    expect(page.locator(".cheren-selected")).to_have_attribute("data-unit", uid)
    expect(page.locator(".cheren-feedback")).to_contain_text(f"0208 -> {target.label}")
    expect(page.locator(".cheren-log-panel")).to_contain_text(f"0208 -> {target.label}")
    # the reach is gone from the other hexes (the unit has moved this phase)
    page.wait_for_function(
        "([sel, x, y, base]) => { const d = document.querySelector(sel).getContext('2d')"
        ".getImageData(Math.round(x), Math.round(y), 1, 1).data;"
        " return Math.abs(d[0] - base[0]) + Math.abs(d[1] - base[1]) + Math.abs(d[2] - base[2]) < 8; }",
        arg=[CANVAS, *m.at(other, 0.6, 0.0), other_before],
        timeout=TIMEOUT_MS,
    )
    # a click on a hex the unit cannot reach is no move: it explains itself with the rule and deselects
    m.click(H("1505"))
    page.wait_for_selector(".cheren-feedback .cheren-msg.refused .cheren-rule", timeout=TIMEOUT_MS)
    expect(page.locator(".cheren-selected")).to_have_attribute("data-unit", "")
    assert not request.node.page_errors, request.node.page_errors


def test_voila_shows_the_what_if_of_an_attack(page: Any, voila_url: str, request: pytest.FixtureRequest) -> None:
    page.goto(f"{voila_url}/voila/render/whatif.ipynb")
    wait_painted(page)
    pass_decisions(page, until="combat")
    s = scenario()
    from cheren.engine.opening import initial_position

    position = initial_position(s, seed=1941)
    position.place("ind_5", "0308")
    position.set_turn(1, "allied", "combat")
    c = Board(Game(s, seed=1941, position=position))
    m = Map(page, c.scene())
    m.click(H("0308"))
    page.wait_for_selector(".cheren-selected[data-hex='0308']")
    m.click(H("0408"))
    panel = page.locator(".cheren-whatif")
    page.wait_for_selector(".cheren-whatif svg.cheren-chart", timeout=TIMEOUT_MS)
    text = panel.inner_text()
    if os.environ.get("CHEREN_SHOTS") == "1":
        page.screenshot(path=str(ARTIFACTS / "whatif-panel-ok.png"))
    assert "8 attack vs 2" in text and "2-1" in text and "11.1" in text, text
    assert "%" in text
    page.locator(".cheren-resolve").click()
    page.wait_for_function(
        "() => document.querySelector('.cheren-log-panel').innerText.includes('attack 0408')", timeout=TIMEOUT_MS
    )
    pass_decisions(page, until="combat", log="die ")  # a chit window may come before the die
    expect(page.locator(".cheren-log-panel")).to_contain_text("on the 2-1 column")
    assert not request.node.page_errors, request.node.page_errors


def test_jupyterlab_runs_the_notebook_and_repaints_after_a_reload(page: Any, lab_url: str) -> None:
    url = f"{lab_url}/lab/workspaces/t-{uuid.uuid4().hex[:8]}/tree/play.ipynb?reset&token={TOKEN}"
    page.goto(url)
    page.wait_for_function("() => window.jupyterapp?.shell.currentWidget?.sessionContext", timeout=60_000)
    page.evaluate(RUN_ALL)
    wait_painted(page)
    check_terrain(page)
    # save, reload: the kernel keeps the widgets, the page builds new views, the map repaints
    page.evaluate("async () => { await window.jupyterapp.commands.execute('docmanager:save'); }")
    page.reload()
    wait_painted(page)
    check_terrain(page)
    expect(page.locator(".cheren-status").first).to_contain_text("THE ROAD TO CHEREN")
