"""Exploring tactics in a real browser (issue 19): branch a new line and switch back by clicks in
the Lines panel, and switch on the threat overlay, whose red tint is painted where the scene puts it."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from cheren.app.board import Board
from cheren.engine.game import Game
from tests.browser.conftest import TIMEOUT_MS
from tests.browser.test_app_browser import CANVAS, Map, pass_decisions, rgb, scenario, wait_painted

expect.set_options(timeout=TIMEOUT_MS)


def test_voila_branches_a_line_switches_back_and_shows_the_threats(
    page: Any, voila_url: str, request: pytest.FixtureRequest
) -> None:
    page.goto(f"{voila_url}/voila/render/play.ipynb")
    wait_painted(page)
    lines = page.locator(".cheren-lines")
    expect(lines).to_contain_text("main: 0 actions")

    # a new line with fresh dice, by clicks
    page.locator(".cheren-line-name input").fill("probe")
    page.locator(".cheren-luck button", has_text="new luck").click()
    page.locator(".cheren-branch").click()
    expect(page.locator(".cheren-line[data-line='probe']")).to_have_attribute("data-current", "1")
    expect(lines).to_contain_text("from main after 0, new luck")
    page.locator(".cheren-end-phase").click()
    pass_decisions(page, until="movement")
    expect(page.locator(".cheren-line[data-line='probe']")).not_to_contain_text("probe: 0 actions")

    # back to the main line: the game is where main left it
    page.locator(".cheren-line-select select").select_option("main")
    page.locator(".cheren-switch").click()
    expect(page.locator(".cheren-line[data-line='main']")).to_have_attribute("data-current", "1")
    expect(page.locator(".cheren-bar")).to_have_attribute("data-phase", "reinforcement")

    # the threat overlay: the enemy's best odds against each stack, tinted red on the map
    c = Board(Game(scenario(), seed=1941))
    c.overlays.set("threats", True)
    threat = next(o for o in c.overlays.drawn() if o.kind == "threat")
    assert threat.hexes, "the opening has an Allied stack the Italians can reach"
    h = sorted(threat.hexes)[0]
    m = Map(page, c.scene())
    before = m.pixel(h, 0.6, 0.0)
    page.locator(".cheren-overlay-threats input").check()
    red = rgb("#d0201a")
    page.wait_for_function(
        "([sel, x, y, base]) => { const d = document.querySelector(sel).getContext('2d')"
        ".getImageData(Math.round(x), Math.round(y), 1, 1).data;"
        " return Math.abs(d[0] - base[0]) + Math.abs(d[1] - base[1]) + Math.abs(d[2] - base[2]) > 12; }",
        arg=[CANVAS, *m.at(h, 0.6, 0.0), before],
        timeout=TIMEOUT_MS,
    )
    after = m.pixel(h, 0.6, 0.0)
    assert after[0] - after[1] > before[0] - before[1], (before, after, red)  # redder than it was
    assert not request.node.page_errors, request.node.page_errors
