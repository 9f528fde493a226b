"""Loading a study save of many variation lines, nested or side by side: time and peak memory
(issue 28: under 5 s and 500 MB for 10,000 lines), with the way it was loaded before as the
baseline, run in the same process on fewer lines (replaying every line from the start of the
game costs the depth of the tree for each line: quadratic).

Every line adds one or two legal actions: in the Combat phase of the first-assault position the
Allies commit a unit to the attack on the gorge and withdraw it again (11.0), as in
``bench_long_save.py``.  *Nested*: each line branches from the one before, at its end, so the
last line is 10,000 lines deep.  *Side by side*: every line branches from the main line, at
points spread along it.

Run: ``python benchmarks/bench_study_save.py [--lines N] [--baseline-lines M] [--repeat R]``."""

from __future__ import annotations

import argparse
import gc
import statistics
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from cheren import load_scenario
from cheren.engine.actions import Action, Commit, Uncommit
from cheren.engine.game import Game
from cheren.files import load_position
from cheren.hexes import Hex
from cheren.study.game_saves import dumps_game, loads_study
from cheren.study.variations import Line, Study

SCENARIO = load_scenario()
GORGE = Hex.from_label("2106")


def step(i: int) -> Action:
    return Commit("ind_11", GORGE) if i % 2 == 0 else Uncommit("ind_11", GORGE)


def assault() -> Game:
    return Game.from_position(load_position("cheren-first-assault", SCENARIO))


def nested(lines: int) -> Study:
    """Line k branches from line k-1 at its end and adds one action."""
    study = Study(assault())
    study.game.apply(step(0))
    study.sync()
    for k in range(1, lines):
        study.lines[f"n{k}"] = Line(f"n{k}", study.current if k > 1 else "main", k, "same", [step(k)])
        study.current = f"n{k}"
    return _with_current_game(study)


def side_by_side(lines: int, main_length: int = 200) -> Study:
    """Every line branches from the main line (of ``main_length`` actions) and adds two."""
    study = Study(assault())
    for i in range(main_length):
        study.game.apply(step(i), history=False)
    study.sync()
    for k in range(1, lines):
        at = (k * 7) % (main_length + 1)
        study.lines[f"s{k}"] = Line(f"s{k}", "main", at, "new" if k % 3 == 0 else "same",
                                    [step(at), step(at + 1)], {at: k} if k % 3 == 0 else {})
    return _with_current_game(study)


def _with_current_game(study: Study) -> Study:
    study._games = {study.current: study.build(study.current)}
    return study


def old_load(study: Study) -> None:
    """The baseline: every line replayed from the start of the game (as loading did before)."""
    for name in study.lines:
        study.build(name)


def timed(fn: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def peak_mb(fn: Callable[[], Any]) -> float:
    gc.collect()
    tracemalloc.start()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 2**20


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--baseline-lines", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"| study save | lines | size | load: median of {args.repeat} | peak memory |")
    print("|---|---|---|---|---|")
    for kind, make in (("nested", nested), ("side by side", side_by_side)):
        for n in (args.baseline_lines, args.lines):
            study = make(n)
            text = dumps_game(study)
            back = loads_study(text, SCENARIO)
            assert back.game.actions() == study.game.actions() and len(back.lines) == n
            seconds = timed(lambda: loads_study(text, SCENARIO), args.repeat)  # noqa: B023
            memory = peak_mb(lambda: loads_study(text, SCENARIO))  # noqa: B023
            print(f"| {kind} | {n:,} | {len(text) / 2**20:.1f} MB | {seconds:.2f} s | {memory:.0f} MB |")
            if n == args.baseline_lines:
                before = timed(lambda: old_load(study), 1)  # noqa: B023
                print(f"| {kind}, replaying each line from the start (before) | {n:,} | | {before:.2f} s "
                      f"({before / seconds:.0f} x the load above) | |")


if __name__ == "__main__":
    main()
