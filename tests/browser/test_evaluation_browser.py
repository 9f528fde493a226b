"""The evaluation bar in a real browser (issue 34): beside the map in Voila, it moves after an
action (an attack rolled and its decisions answered), and the line's curve under the log grows."""

from __future__ import annotations

from typing import Any

import pytest

from cheren.engine.opening import initial_position
from tests.browser.conftest import TIMEOUT_MS
from tests.browser.test_app_browser import H, Map, pass_decisions, scenario, wait_painted

pytest.importorskip("lightgbm")
BAR = ".cheren-eval-bar"
CURVE = "svg.cheren-eval-curve"


def test_the_bar_moves_after_an_action(page: Any, voila_url: str, request: pytest.FixtureRequest) -> None:
    from cheren.app.board import Board
    from cheren.engine.game import Game

    page.goto(f"{voila_url}/voila/render/whatif.ipynb")
    wait_painted(page)
    pass_decisions(page, until="combat")
    page.wait_for_selector(BAR, timeout=TIMEOUT_MS)
    before = page.locator(BAR).get_attribute("data-allied")
    points = int(page.locator(CURVE).get_attribute("data-points") or 0)
    assert before is not None and 0.0 <= float(before) <= 1.0
    # the bar stands beside the map, as tall as it
    box, canvas = page.locator(BAR).bounding_box(), page.locator("canvas.cheren-map").first.bounding_box()
    assert box["x"] >= canvas["x"] + canvas["width"] - 2 and box["height"] > 100, (box, canvas)
    s = scenario()
    position = initial_position(s, seed=1941)
    position.place("ind_5", "0308")
    position.set_turn(1, "allied", "combat")
    m = Map(page, Board(Game(s, seed=1941, position=position)).scene())
    m.click(H("0308"))
    page.wait_for_selector(".cheren-selected[data-hex='0308']")
    m.click(H("0408"))
    page.wait_for_selector(".cheren-whatif svg.cheren-chart", timeout=TIMEOUT_MS)
    page.locator(".cheren-resolve").click()
    pass_decisions(page, until="combat", log="advances")
    page.wait_for_function(
        "([sel, v]) => { const b = document.querySelector(sel); return b && b.dataset.allied !== v; }",
        arg=[BAR, before], timeout=TIMEOUT_MS)
    after = page.locator(BAR).get_attribute("data-allied")
    assert after is not None and after != before
    assert int(page.locator(CURVE).get_attribute("data-points") or 0) > points
    # under the curve one sentence says whose play it predicts and how far off it was; the whole
    # provenance opens on a click
    panel = page.locator(".cheren-evaluation-panel")
    assert "learned from" in panel.inner_text() and "off by" in panel.inner_text()
    assert "where it said" in panel.inner_text() and ", as here, off by" in panel.inner_text()  # the bar's band
    folded = panel.locator("details.cheren-eval-provenance")
    assert not folded.locator("i").is_visible()
    folded.locator("summary").click()
    provenance = folded.locator("i")
    provenance.wait_for(state="visible", timeout=TIMEOUT_MS)
    assert "positions of" in provenance.inner_text()
    assert not request.node.page_errors, request.node.page_errors
