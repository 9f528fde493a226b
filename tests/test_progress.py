"""Batch runs show their progress: tqdm's bar on a terminal, an ipywidgets bar in a notebook."""

from __future__ import annotations

from typing import Any

import pytest

from cheren.players import progress_bar
from cheren.players.simulate import simulate


def test_simulate_shows_a_tqdm_bar_with_the_rate(capsys: pytest.CaptureFixture[str]) -> None:
    results = simulate(2, seed=4, progress=True)
    err = capsys.readouterr().err
    assert len(results) == 2
    assert "2/2" in err and "game/s" in err  # tqdm's count and rate


def test_in_a_notebook_the_bar_is_an_ipywidgets_progress_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    import ipywidgets
    import tqdm.auto
    import tqdm.notebook

    bars: list[Any] = []

    def notebook_bar(*args: Any, **kwargs: Any) -> Any:
        kwargs.pop("file", None)
        kwargs.pop("dynamic_ncols", None)
        bars.append(tqdm.notebook.tqdm(*args, **kwargs))
        return bars[-1]

    monkeypatch.setattr(tqdm.auto, "tqdm", notebook_bar)  # what tqdm.auto picks inside Jupyter
    with progress_bar.game_progress(3) as update:
        update(2, 3)
    (bar,) = bars
    gauges = [w for w in bar.container.children if isinstance(w, ipywidgets.FloatProgress | ipywidgets.IntProgress)]
    assert len(gauges) == 1 and (gauges[0].value, gauges[0].max) == (2, 3)


def test_without_tqdm_progress_falls_back_to_plain_lines(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "tqdm.auto", None)  # as if tqdm were not installed
    with progress_bar.game_progress(2) as update:
        update(1, 2)
        update(2, 2)
    assert "2/2 games" in capsys.readouterr().err
