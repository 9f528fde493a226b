"""Notebook-app benchmark: the Python side of redrawing the map on the ipycanvas back-end, with
the SVG render of the same scene, timed in the same process, as the baseline.

    .venv/bin/python benchmarks/bench_ui.py            # full run, prints a Markdown table
    .venv/bin/python benchmarks/bench_ui.py --quick    # a few repeats

"Full redraw" is what a newly connected browser gets (and what every pan or zoom sends): build
the scene of the position with its overlays, turn all four canvas groups into batched canvas
commands and serialise them into the one message ipycanvas sends.  Without a kernel the
widget's comm drops the message, so the time is everything but the socket.  The time the
browser then takes to paint is measured by the browser tests (tests/browser) and printed there.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from cheren import load_scenario
from cheren.app.board import Board
from cheren.engine.game import Game
from cheren.render.scene import build_scene
from cheren.render.svg import scene_to_svg


def median_seconds(fn: Callable[[], object], repeats: int, setup: Callable[[], object] | None = None) -> float:
    times = []
    for _ in range(repeats):
        if setup is not None:
            setup()
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def fmt(seconds: float) -> str:
    return f"{seconds * 1e3:.1f} ms" if seconds >= 1e-3 else f"{seconds * 1e6:.0f} µs"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="few repeats")
    args = parser.parse_args()
    repeats = 5 if args.quick else 31

    from ipycanvas.canvas import _CANVAS_MANAGER

    from cheren.render.canvas import SceneCanvas

    sent: list[int] = []
    send = _CANVAS_MANAGER._send_custom

    def counting(command: Any, buffers: Any = ()) -> None:  # what goes down the wire, in bytes
        from ipycanvas.utils import commands_to_buffer

        metadata, buffer = commands_to_buffer(command)
        sent.append(len(buffer) + sum(memoryview(b).nbytes for b in buffers) + len(str(metadata)))
        send(command, list(buffers))

    _CANVAS_MANAGER._send_custom = counting

    scenario = load_scenario()
    game = Game(scenario, seed=1941)
    c = Board(game)
    c.play.end_phase()
    while game.pending is not None:
        c.decisions.answer(len(c.decisions.options()) - 1)
    c.click_hex(scenario.town_hex("Kassala"))  # a unit selected: its reach and supply line shown
    for key in ("zoc-italian", "control"):
        c.overlays.set(key)
    overlays = c.overlays.drawn()
    canvas = SceneCanvas(1000, 660)
    canvas.seen = True  # as once a browser has connected: before that a canvas sends nothing

    def svg() -> object:
        return scene_to_svg(build_scene(scenario, game.position, overlays, legend=False))

    def full_redraw() -> object:
        scene = build_scene(scenario, game.position, overlays, legend=False)
        return canvas.show(scene, force=True)

    built = build_scene(scenario, game.position, overlays, legend=False)

    def paint_only() -> object:
        return canvas.show(built, force=True)

    uid = c.selected

    def deselect() -> object:
        c.play.select(None)
        return canvas.show(c.scene())

    def select_unit() -> object:
        c.play.select(uid)
        return canvas.show(c.scene())

    def hover() -> object:
        moves = sorted(c.play.legal_moves(uid or ""))
        c.set_hover(moves[len(sent) % len(moves)] if moves else None)
        return canvas.show(c.scene())

    full_redraw()
    calls = canvas.stats.calls
    sent.clear()
    full_redraw()
    size = sum(sent)
    rows = []
    t_svg = median_seconds(svg, repeats)
    t_full = median_seconds(full_redraw, repeats)
    rows.append(("SVG render of the same scene (build + serialise)", t_svg, "1.00"))
    rows.append(("canvas full redraw (build + batch + serialise the message)", t_full, f"{t_full / t_svg:.2f}"))
    t_paint = median_seconds(paint_only, repeats)
    rows.append(("canvas full redraw of a built scene (batch + serialise)", t_paint, f"{t_paint / t_svg:.2f}"))
    t_select = median_seconds(select_unit, repeats, setup=deselect)
    rows.append(("select a unit: reach + supply line (overlays and ui redrawn)", t_select, f"{t_select / t_svg:.2f}"))
    t_hover = median_seconds(hover, repeats)
    rows.append(("hover a reachable hex: the path (ui layer only)", t_hover, f"{t_hover / t_svg:.2f}"))
    # the same click while the position is played out in the background (cheren.app.playouts):
    # the games run in worker processes at a lower priority, the kernel only waits for them
    c.playouts.start(100_000, "random")
    time.sleep(2.0)  # the workers started and playing
    t_busy = median_seconds(select_unit, repeats, setup=deselect)
    done = c.playouts.done
    c.playouts.stop()
    c.playouts.wait(60)
    rows.append((f"select a unit while play-outs run ({done} games done meanwhile)", t_busy,
                 f"{t_busy / t_svg:.2f} ({t_busy / t_select:.2f} x the idle select)"))

    # what `cheren app`'s kept kernel does before its page comes (cheren.app.launch): read the
    # bundled scenario and build the whole app (its first paint waits for the browser)
    from cheren.app import App
    from cheren.scenario.loader import load_scenario as read_scenario

    t_read = median_seconds(read_scenario, max(3, repeats // 3))
    rows.append(("read, check and compile the bundled scenario", t_read, f"{t_read / t_svg:.2f}"))
    t_app = median_seconds(App, max(3, repeats // 3))
    rows.append(("build the app, `App()` (a new game; nothing painted before a browser)", t_app,
                 f"{t_app / t_svg:.2f}"))

    on_map = sum(1 for u in game.position.units.values() if u.on_map)
    print(
        f"bundled map, {len(scenario.hexes)} hexes, {on_map} units on the map, {len(overlays)} overlays; "
        f"median of {repeats} runs"
    )
    print(f"full redraw: {calls} canvas calls in one message of {size / 1024:.0f} KiB\n")
    print("| what | median | ratio to SVG |")
    print("|---|---|---|")
    for name, t, ratio in rows:
        print(f"| {name} | {fmt(t)} | {ratio} |")


if __name__ == "__main__":
    main()
