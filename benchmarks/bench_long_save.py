"""Loading a save of 10^5 actions: time and peak memory, against replaying the same actions in
the same process (issue 14).

A legal game of 10^5 actions: in the Combat phase of the first-assault position the Allies commit
a unit to the attack on the gorge and withdraw it again, 50,000 times (both are actions the log
keeps, 11.0), then the game goes on.  Run: ``python benchmarks/bench_long_save.py [--actions N]``."""

from __future__ import annotations

import argparse
import gc
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from cheren import load_scenario
from cheren.engine.actions import Commit, Uncommit
from cheren.engine.game import Game
from cheren.files import load_position
from cheren.hexes import Hex
from cheren.study.game_saves import dumps_game, loads_game


def long_game(actions: int) -> Game:
    s = load_scenario()
    game = Game.from_position(load_position("cheren-first-assault", s))
    gorge = Hex.from_label("2106")
    for _ in range(actions // 2):
        game.apply(Commit("ind_11", gorge), history=False)
        game.apply(Uncommit("ind_11", gorge), history=False)
    return game


def measure(fn: Callable[[], Any]) -> tuple[float, int]:
    """(seconds, peak bytes allocated while it ran)."""
    gc.collect()
    tracemalloc.start()
    t0 = time.perf_counter()
    fn()
    seconds = time.perf_counter() - t0
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return seconds, peak


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--actions", type=int, default=100_000)
    args = parser.parse_args()
    game = long_game(args.actions)
    text = dumps_game(game)
    s, start, log = game.scenario, game.start, game.actions()
    load_t, load_peak = measure(lambda: loads_game(text, s))
    replay_t, replay_peak = measure(lambda: Game.replay(s, game.seed, log, start))
    flat_t, flat_peak = measure(lambda: Game.replay(s, game.seed, log, start, undo_steps=500))
    mb = 1024 * 1024
    print(f"| a save of {len(log):,} actions ({len(text) / mb:.1f} MB) | time | peak memory |")
    print("|---|---|---|")
    print(f"| load it (`load_game`: parse, replay through the gate, last 500 undoable) | {load_t:.2f} s | "
          f"{load_peak / mb:.0f} MB |")
    print(f"| replay the same actions keeping every undo step (`Game.replay`) | {replay_t:.2f} s | "
          f"{replay_peak / mb:.0f} MB |")
    print(f"| replay them keeping the last 500 undo steps | {flat_t:.2f} s | {flat_peak / mb:.0f} MB |")
    print(f"| ratio: load / replay with every undo step | {load_t / replay_t:.2f} x | "
          f"{load_peak / replay_peak:.2f} x |")


if __name__ == "__main__":
    main()
