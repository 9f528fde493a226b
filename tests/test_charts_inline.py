"""The analysis charts show as pictures in a notebook (issue 30): executed as nbconvert and
JupyterLab do, a chart cell's output is a PNG, never the text ``<Figure size ... with 1 Axes>``
(the charts never import pyplot, so IPython's inline backend would not draw them by itself)."""

from __future__ import annotations

import nbformat
from nbclient import NotebookClient

CELLS = [
    """from cheren.files import load_position
from cheren.study.analysis.evaluate import compare, evaluate
from cheren.engine.actions import EndPhase
position = load_position("agordat")
ev = evaluate(position, 2, allied="random", italian="random", seed=1)""",
    """from cheren.study.analysis.charts import vp_histogram
vp_histogram(ev)""",
    """from cheren.study.analysis.charts import vp_over_turns
display(vp_over_turns(ev))""",
]


def test_charts_are_pictures_when_a_notebook_is_executed() -> None:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])  # type: ignore[no-untyped-call]
    NotebookClient(nb, timeout=300, kernel_name="python3").execute()
    for cell in nb.cells[1:]:
        kinds = [set(o.get("data", {})) for o in cell.outputs]
        assert any("image/png" in k for k in kinds), cell.outputs
        text = "".join(o.get("data", {}).get("text/plain", "") for o in cell.outputs)
        assert "Figure size" not in text or any("image/png" in k for k in kinds)
