"""Progress of long runs (batches of games), shown the ecosystem's way: a tqdm bar with rate and
time left on a terminal, the same bar as an ipywidgets widget in a notebook (``tqdm.auto``
picks), and plain lines of text where tqdm is not installed or the output is no terminal."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

Progress = Callable[[int, int], None]  # (done, total)


def plain_progress(done: int, total: int) -> None:
    """A progress line on standard error, for when tqdm is not installed."""
    width = 30
    filled = width * done // total
    end = "\n" if done == total else ""
    if sys.stderr.isatty():
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games{end}")
    elif done == total or done % max(1, total // 10) == 0:
        sys.stderr.write(f"{done}/{total} games\n")
    sys.stderr.flush()


@contextmanager
def game_progress(total: int, description: str = "games") -> Iterator[Progress]:
    """A progress callback for ``total`` games, closed at the end of the ``with`` block.

    In Jupyter the bar is an ipywidgets progress bar; on a terminal it is tqdm's text bar on
    standard error (games per second, time left)."""
    try:
        from tqdm.auto import tqdm
    except ImportError:  # the extras that bring tqdm (ui, cluster, dev) are not installed
        yield plain_progress
        return
    bar = tqdm(total=total, desc=description, unit="game", file=sys.stderr, dynamic_ncols=True)

    def update(done: int, _total: int) -> None:
        bar.update(done - bar.n)

    try:
        yield update
    finally:
        bar.close()
