"""The analysis charts in JupyterLab (issue 30): a chart cell shows a picture, not the text
``<Figure size 640x230 with 1 Axes>``.  The notebook is analyse_a_position.ipynb's two chart
cells on a short evaluation (two random games), written next to the served notebooks."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import nbformat
from playwright.sync_api import expect

from tests.browser.conftest import TIMEOUT_MS, TOKEN
from tests.browser.test_app_browser import RUN_ALL

expect.set_options(timeout=TIMEOUT_MS)
CELLS = [
    """from cheren.files import load_position
from cheren.study.analysis.evaluate import evaluate
ev = evaluate(load_position("agordat"), 2, allied="random", italian="random", seed=1)
print(ev.games, "play-outs")""",
    """from cheren.study.analysis.charts import vp_histogram, vp_over_turns
display(vp_histogram(ev))
vp_over_turns(ev)""",
]


def test_jupyterlab_shows_the_charts_as_pictures(page: Any, lab_url: str, served: Path) -> None:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])  # type: ignore[no-untyped-call]
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nbformat.write(nb, served / "notebooks" / "charts.ipynb")  # type: ignore[no-untyped-call]
    page.goto(f"{lab_url}/lab/workspaces/t-{uuid.uuid4().hex[:8]}/tree/charts.ipynb?reset&token={TOKEN}")
    page.wait_for_function("() => window.jupyterapp?.shell.currentWidget?.sessionContext", timeout=60_000)
    page.evaluate(RUN_ALL)
    images = page.locator(".jp-OutputArea-output img")
    expect(images).to_have_count(2, timeout=120_000)
    for i in range(2):
        assert page.evaluate("(i) => document.querySelectorAll('.jp-OutputArea-output img')[i].naturalWidth",
                             i) > 200
    expect(page.locator(".jp-OutputArea-output", has_text="Figure size")).to_have_count(0)
    expect(page.locator(".jp-OutputArea-output", has_text="Chart size")).to_have_count(0)
