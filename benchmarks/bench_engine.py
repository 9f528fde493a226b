"""Engine benchmarks: medians, each with a ratio to a simple baseline timed in the same process.

    .venv/bin/python benchmarks/bench_engine.py            # full run, prints a Markdown table
    .venv/bin/python benchmarks/bench_engine.py --quick    # a few repeats (CI runs this)

The baseline for movement is networkx's Dijkstra over the same movement graph (no ZoC, no
paths): the work any reach computation has to do, done by a well-known library.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import networkx as nx

from cheren import load_scenario
from cheren.actions import EndPhase
from cheren.game import Game
from cheren.game_saves import dumps_game, loads_game
from cheren.rules.movement import move_graph, reachable
from cheren.scenario import Phase


def median_seconds(fn: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def fmt(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def random_game(seed: int) -> Game:
    s = load_scenario()
    g = Game(s, seed=seed)
    rng = random.Random(seed)
    while not g.over:
        actions = g.legal_actions()
        g.apply(rng.choices(actions, [1 if isinstance(a, EndPhase) else 3 for a in actions])[0])
    return g


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="few repeats, for CI")
    args = parser.parse_args()
    repeats = 5 if args.quick else 51
    game_repeats = 1 if args.quick else 5

    s = load_scenario()
    game = Game(s, seed=1)
    game.apply(EndPhase())  # into the allied Movement phase of turn 1
    assert game.phase is Phase.MOVEMENT
    position = game.position
    unit = "skinners_horse"  # a motorized battalion, 8 MP, at Kassala
    graph = move_graph(s)
    nxg = nx.DiGraph()
    for h, edges in graph.edges.items():
        for e in edges:
            if e.ticks >= 0:
                nxg.add_edge(h, e.to, weight=e.ticks)
    start = position.units[unit].hex
    budget = position.movement(unit) * graph.scale
    movers = [u for u, st in position.units.items() if st.side is position.side and st.on_map]

    def baseline_one() -> object:
        return nx.single_source_dijkstra_path_length(nxg, start, cutoff=budget)

    def baseline_phase() -> object:
        return [
            nx.single_source_dijkstra_path_length(
                nxg, position.units[u].hex, cutoff=position.movement(u) * graph.scale
            )
            for u in movers
        ]

    rows: list[tuple[str, float, str]] = []
    base_one = median_seconds(baseline_one, repeats)
    base_phase = median_seconds(baseline_phase, repeats)
    t = median_seconds(lambda: reachable(position, unit), repeats)
    rows.append((f"`reachable()` for {s.units[unit].name} (8 MP) on the full map", t,
                 f"{t / base_one:.2f} x networkx Dijkstra ({fmt(base_one)})"))
    t = median_seconds(game.legal_actions, repeats)
    rows.append((f"`legal_actions()` for the allied turn-1 Movement phase ({len(movers)} units)", t,
                 f"{t / base_phase:.2f} x networkx Dijkstra per unit ({fmt(base_phase)})"))
    full = median_seconds(lambda: random_game(3), game_repeats)
    rows.append(("a full random-vs-random game through the gate (no combat yet)", full,
                 f"{full / base_one:.0f} x one networkx reach"))
    played = random_game(3)
    text = dumps_game(played)
    t = median_seconds(lambda: dumps_game(played), repeats)
    rows.append((f"save a finished game ({len(played.log)} actions)", t, f"{t / base_one:.1f} x one networkx reach"))
    t = median_seconds(lambda: loads_game(text, s), game_repeats)
    rows.append(("load it again (replays every action through the gate)", t, f"{t / full:.2f} x the game itself"))

    print(f"| measurement ({'quick' if args.quick else f'median of {repeats}'}) | median | ratio to baseline |")
    print("|---|---|---|")
    for name, seconds, ratio in rows:
        print(f"| {name} | {fmt(seconds)} | {ratio} |")


if __name__ == "__main__":
    main()
