"""Engine benchmarks: medians, each with a ratio to a simple baseline timed in the same process.

    .venv/bin/python benchmarks/bench_engine.py            # full run, prints a Markdown table
    .venv/bin/python benchmarks/bench_engine.py --quick    # a few repeats (CI runs this)
    .venv/bin/python benchmarks/bench_engine.py --cpu      # processor time instead of the wall clock
    CHEREN_PURE_PYTHON=1 .venv/bin/python benchmarks/bench_engine.py   # the pure-Python engine, not the compiled one

``--cpu`` times every measurement, baselines included, in this process's processor seconds: on a
machine shared with other busy processes the wall clock of a long measurement (a whole game)
grows with the load while a short one (a baseline) often runs between two interruptions, which
inflates every ratio; processor time does not.  On an idle machine the two agree.

The baseline for movement is networkx's Dijkstra over the same movement graph (no ZoC, no
paths): the work any reach computation has to do, done by a well-known library.  Whole games
are given as a ratio to one such reach too, so figures from machines of different speed, or
from a busy machine, can be compared.

The random game is timed twice, the same game both times (the same ``rng.choices`` call over the
same weights: 3 for an action, 1 for ending the phase).  The first row reads the actions from
``Game.legal_view()``, which makes only the action taken (python-chess lists a board's legal
moves so) and tells where the EndPhase is; the second, as up to session 33, has every action
made, listed and weighed by its type, about a fifth of its time in that loop and in random.choices's
running sum of some 300 weights a step.  Every action goes through the gate in both.
``--quick`` times the first once, after one untimed game: up to session 33 that one timing was the
process's first game, which also made the tables of a second copy of the scenario (the rows above
used another) and, as often as not, paid a collection of the whole heap (together some 50 ms of a
105 ms game); a full run's median of nine leaves them out.  All rows now use the one scenario.

The last row plays heuristic games from a turn-2 position in two worker processes (the
play-outs a position analysis runs) and gives games per second per core; ``--playouts N`` sets
how many (200 in a full run, 0 to skip).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import resource
import statistics
import time
from bisect import bisect_right
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import overload

import networkx as nx

import cheren
from cheren import load_scenario
from cheren.engine.actions import EndPhase, Move, PassChit
from cheren.engine.dice import Dice
from cheren.engine.game import Game
from cheren.engine.position import Position
from cheren.engine.rules import zoc
from cheren.engine.rules.movement import move_graph, reachable
from cheren.engine.rules.supply import check_side
from cheren.hexes import Hex
from cheren.players.bots import make_bot
from cheren.players.views import SideSeat
from cheren.scenario import Phase, Scenario, Side
from cheren.study.game_saves import dumps_game, loads_game

CLOCK = time.perf_counter  # --cpu: time.process_time


def median_seconds(fn: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = CLOCK()
        fn()
        times.append(CLOCK() - t0)
    return statistics.median(times)


def fmt(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


SCENARIO = load_scenario()


def random_game(seed: int) -> Game:
    """A random game: each step one of the legal actions, weighted 3 against 1 for ending the
    phase, through the gate.  The actions are read from :meth:`Game.legal_view` (made only as
    read: python-chess's lazy legal moves) and their weights from where the EndPhase is; the
    choice is the very one :func:`random_game_listed` makes (the same ``rng.choices`` call over
    the same weights), so the same seed plays the same game."""
    g = Game(SCENARIO, seed=seed)
    rng = random.Random(seed)
    while not g.over:
        actions = g.legal_view()
        g.apply(rng.choices(actions, cum_weights=_CumulativeWeights(len(actions), actions.indexes(EndPhase)))[0])
    return g


def random_game_listed(seed: int) -> Game:
    """:func:`random_game` as sessions up to 33 timed it: every legal action made and listed,
    each weighed by its type (about a fifth of the game's time was this loop and random.choices's
    running sum of some 300 weights a step, not the engine)."""
    g = Game(SCENARIO, seed=seed)
    rng = random.Random(seed)
    while not g.over:
        actions = g.legal_actions()
        g.apply(rng.choices(actions, [1 if isinstance(a, EndPhase) else 3 for a in actions])[0])
    return g


class _CumulativeWeights(Sequence[int]):
    """``list(accumulate(w))`` of the weights 1 for an EndPhase, 3 for any other action, item by
    item as ``random.choices``' bisection reads them (a dozen a step), from where the EndPhases are."""

    def __init__(self, n: int, ends: list[int]) -> None:
        self.n, self.ends = n, ends
        self.first = ends[0] if ends else n  # before it every weight is 3

    def __len__(self) -> int:
        return self.n

    @overload
    def __getitem__(self, i: int) -> int: ...
    @overload
    def __getitem__(self, i: slice) -> list[int]: ...
    def __getitem__(self, i: int | slice) -> int | list[int]:
        if isinstance(i, int) and 0 <= i < self.first:
            return 3 * i + 3
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self.n))]
        if i < 0:
            i += self.n
        return 3 * (i + 1) - 2 * bisect_right(self.ends, i)


def turn_two_position() -> Position:
    """The position at the start of turn 2 of a seeded heuristic game."""
    game = Game(SCENARIO, seed=1)
    bots = {side: make_bot("heuristic", 10 + i) for i, side in enumerate(Side)}
    seats = {side: SideSeat(game, side) for side in Side}
    while game.turn < 2:
        side = game.acting
        game.apply(bots[side].choose(seats[side]).action)
    return game.position.copy()


def play_out(start: Position, seed: int) -> int:
    """One heuristic game from ``start`` to the end, with its own dice and bots; its VP."""
    position = start.copy()
    position.dice = Dice(seed)
    game = Game(SCENARIO, seed=seed, position=position)
    bots = {Side.ALLIED: make_bot("heuristic", seed * 2 + 1), Side.ITALIAN: make_bot("heuristic", seed * 2 + 2)}
    seats = {side: SideSeat(game, side) for side in Side}
    while not game.over:
        side = game.acting
        game.apply(bots[side].choose(seats[side]).action)
    return game.position.allied_vp()


def _play_outs(args: tuple[Position, list[int]]) -> list[int]:
    start, seeds = args
    return [play_out(start, seed) for seed in seeds]


def play_outs_per_core_second(games: int, jobs: int = 2) -> tuple[float, float]:
    """(games per second per core, wall seconds) for ``games`` play-outs from turn 2 in ``jobs``
    worker processes (one batch of seeds per worker, so start-up is paid once per worker)."""
    start = turn_two_position()
    seeds = list(range(1, games + 1))
    batches = [seeds[i::jobs] for i in range(jobs)]
    t0, c0 = time.perf_counter(), _children_cpu()
    with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("fork")) as pool:
        results = [vp for batch in pool.map(_play_outs, [(start, b) for b in batches]) for vp in batch]
    wall, cpu = time.perf_counter() - t0, _children_cpu() - c0
    assert len(results) == games
    if CLOCK is time.process_time:  # the workers' own processor seconds (counted once they are reaped)
        return games / cpu, cpu
    return games / wall / jobs, wall


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def combat_what_if_rows(s: Scenario, repeats: int) -> list[tuple[str, float, str]]:
    """Combat (11.0-11.8): one exact what-if on a typical attack (three brigades, a field
    regiment and the air unit against the Agordat stack in rough terrain) against the odds
    computation alone, which every what-if starts with."""
    from cheren.engine.combat_whatif import proposed, what_if
    from cheren.engine.position import Status
    from cheren.engine.rules.combat_eligibility import air_unit
    from cheren.engine.rules.combat_odds import compute_odds

    p = Game(s, seed=1).position.copy()
    p.set_turn(3, Side.ALLIED, Phase.COMBAT)
    target = s.town_hex("Agordat")
    free = [h for h in s.adjacent[target] if not p.units_at(h) and not s.hexes[h].mountain]
    attackers = ["ind_5", "ind_11", "ind_10", "fa_28"]
    for i, uid in enumerate(attackers):
        p.place(uid, free[i % len(free)])
    air = air_unit(p, Side.ALLIED)
    assert air is not None
    p.units[air].status = Status.OFF_MAP
    attack = proposed(target, attackers, air=True)
    w = what_if(p, attack)
    base = median_seconds(lambda: compute_odds(p, attackers, target, air), repeats)
    t = median_seconds(lambda: what_if(p, attack), repeats)
    name = f"combat what-if: {w.odds.attack_sp} vs {w.odds.defence_sp} on Agordat, {w.column} (exact distribution)"
    return [(name, t, f"{t / base:.1f} x the odds alone ({fmt(base)})")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="few repeats, for CI")
    parser.add_argument("--playouts", type=int, default=None, help="play-outs to time (default 200, quick 4)")
    parser.add_argument("--cpu", action="store_true", help="time in processor seconds (a shared, busy machine)")
    args = parser.parse_args()
    global CLOCK
    if args.cpu:
        CLOCK = time.process_time
    playouts = args.playouts if args.playouts is not None else (4 if args.quick else 200)
    repeats = 5 if args.quick else 51
    game_repeats = 1 if args.quick else 9

    s = SCENARIO  # the random games' own: its tables are made once, by the first row that needs them
    game = Game(s, seed=1)
    game.apply(EndPhase())  # into the allied Movement phase of turn 1
    while game.pending is not None:  # the Italians may hold a Roadblock: let the window go by
        game.apply(PassChit())
    assert game.phase is Phase.MOVEMENT and any(isinstance(a, Move) for a in game.legal_actions())
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
    # .reach: every hex's cost and path made, as networkx's answer has every hex's length
    t = median_seconds(lambda: reachable(position, unit).reach, repeats)
    rows.append((f"`reachable()` for {s.units[unit].name} (8 MP) on the full map", t,
                 f"{t / base_one:.2f} x networkx Dijkstra ({fmt(base_one)})"))
    def cold_legal_actions() -> object:
        game.clear_caches()  # measure the work, not the caches
        zoc._MAPS.clear()
        return game.legal_actions()

    t = median_seconds(cold_legal_actions, repeats)
    rows.append((f"`legal_actions()` for the allied turn-1 Movement phase ({len(movers)} units), caches cold", t,
                 f"{t / base_phase:.2f} x networkx Dijkstra per unit ({fmt(base_phase)})"))
    t = median_seconds(game.legal_actions, repeats)
    rows.append(("the same again, unchanged position (the reach cache answers)", t,
                 f"{t / base_phase:.2f} x networkx Dijkstra per unit"))
    # Supply (12.0-12.3): the Italian side's whole check (one ZoC map, one road/track search from
    # the sources, a <=3-hex search per unit) against plain networkx BFS over the same hexes: one
    # multi-source search along road/track hexsides plus a cutoff-3 BFS from every unit.
    supply_units = [u for u, st in position.units.items() if st.side is Side.ITALIAN and st.on_map]
    hex_graph = nx.Graph([(h, n) for h, ns in s.adjacent.items() for n in ns])
    route_graph = nx.Graph([tuple(side) for side in s.road_sides | s.track_sides])
    sources = [h for src in s.supply_sources if src.side is Side.ITALIAN
               for h in map(Hex.from_label, src.hexes) if h in route_graph]

    def baseline_supply() -> object:
        network = nx.multi_source_dijkstra_path_length(route_graph, sources)
        lines = [nx.single_source_shortest_path_length(hex_graph, position.units[u].hex, cutoff=3)
                 for u in supply_units]
        return network, lines

    base_supply = median_seconds(baseline_supply, repeats)
    t = median_seconds(lambda: check_side(position, Side.ITALIAN), repeats)
    rows.append((f"supply check of the whole Italian side, turn 1 ({len(supply_units)} units, 12.0-12.3)", t,
                 f"{t / base_supply:.2f} x networkx BFS network + per unit ({fmt(base_supply)})"))
    rows += combat_what_if_rows(s, repeats)
    if args.quick:
        random_game(3)  # untimed: the one game --quick times is then not the process's first (nine give a median)
    full = median_seconds(lambda: random_game(3), game_repeats)
    rows.append(("a full random-vs-random game through the gate (the actions read from `legal_view()`)", full,
                 f"{full / base_one:.0f} x one networkx reach"))
    listed = median_seconds(lambda: random_game_listed(3), game_repeats)
    rows.append(("the same game, every action listed (`legal_actions()`) and weighed by type (to session 33)",
                 listed, f"{listed / base_one:.0f} x one networkx reach"))
    from cheren.players.simulate import play_game

    heuristic = median_seconds(lambda: play_game(0, 3, "heuristic", "heuristic"), game_repeats)
    rows.append(("a full heuristic-vs-heuristic game (the bots choose every action)", heuristic,
                 f"{heuristic / base_one:.0f} x one networkx reach ({heuristic / full:.1f} x a random game)"))
    # the look-ahead bot (issue 22: at most 10 x a heuristic game at its default budget), on both
    # sides in turn against the heuristic bot, over the same seeds as heuristic games
    # games differ in length from seed to seed, so the full run times six of them (both sides thrice)
    seeds = (3,) if args.quick else (3, 4, 5, 6, 7, 8)
    heuristic_games = median_seconds(lambda: [play_game(0, sd, "heuristic", "heuristic") for sd in seeds], 1)
    lookahead_games = median_seconds(
        lambda: [play_game(0, sd, *(("lookahead", "heuristic") if sd % 2 else ("heuristic", "lookahead")))
                 for sd in seeds], 1)
    games_label = f"{len(seeds)} look-ahead game{'s' if len(seeds) > 1 else ''}"
    rows.append((f"{games_label} (default budget; the other side heuristic)", lookahead_games,
                 f"{lookahead_games / heuristic_games:.1f} x the same seeds heuristic-vs-heuristic"))
    played = random_game(3)
    text = dumps_game(played)
    t = median_seconds(lambda: dumps_game(played), repeats)
    rows.append((f"save a finished game ({len(played.log)} actions)", t, f"{t / base_one:.1f} x one networkx reach"))
    t = median_seconds(lambda: loads_game(text, s), game_repeats)
    rows.append(("load it again (replays every action through the gate)", t, f"{t / full:.2f} x the game itself"))
    from cheren.engine.opening import initial_position
    from cheren.files import load_position
    from cheren.study.analysis.report import analyse

    opening = initial_position(s, seed=1941)
    t = median_seconds(lambda: analyse(opening), repeats)
    rows.append(("position report on the opening (attacks, threat map, supply cuts, supply)", t,
                 f"{t / base_one:.0f} x one networkx reach"))
    agordat = load_position("agordat", s)
    t = median_seconds(lambda: analyse(agordat), game_repeats)
    rows.append(("position report on Agordat, turn 2 (the library position)", t,
                 f"{t / heuristic:.2f} x a heuristic game"))
    if playouts:
        rate, wall = play_outs_per_core_second(playouts)
        spent = "processor seconds of the workers" if args.cpu else "wall seconds"
        rows.append((f"{playouts} heuristic play-outs from a turn-2 position, 2 worker processes ({spent})", wall,
                     f"{rate:.2f} games per second per core"))

    clock = "processor time" if args.cpu else "wall clock"
    how = "quick" if args.quick else f"median of {repeats}"
    print(f"engine: {cheren.build_kind()}")  # compiled or pure Python (CHEREN_PURE_PYTHON=1 for the latter)
    print(f"| measurement ({how}, {clock}) | median | ratio to baseline |")
    print("|---|---|---|")
    for name, seconds, ratio in rows:
        print(f"| {name} | {fmt(seconds)} | {ratio} |")


if __name__ == "__main__":
    main()
