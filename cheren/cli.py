"""The ``cheren`` command: validate scenario data, export its JSON Schema, render a map."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from cheren.positions.model import PositionFileModel
from cheren.scenario import ScenarioError, Side, load_scenario
from cheren.scenario.loader import FILE_MODELS, SCENARIO_FILE
from cheren.scenario.models import ScenarioFile
from cheren.scenario.setup_checks import setup_problems


def _cmd_validate(args: argparse.Namespace) -> int:
    try:
        s = load_scenario(args.directory)
    except ScenarioError as exc:
        print(exc, file=sys.stderr)
        return 1
    per_side = {side: sum(1 for u in s.units.values() if u.side is side) for side in Side}
    print(
        f"OK {s.directory}: {s.name}\n"
        f"  map {s.columns} x {s.rows} hexes ({len(s.playable)} playable), {len(s.towns)} towns worth "
        f"{s.total_vp} VP, {len(s.villages)} native villages, {len(s.garrison_areas)} garrison areas\n"
        f"  {len(s.road_sides)} road and {len(s.track_sides)} track hexsides, "
        f"{len(s.river_sides)} river hexsides\n"
        f"  units: {per_side[Side.ALLIED]} allied, {per_side[Side.ITALIAN]} Italian "
        f"({len(s.counters)} counters)\n"
        f"  CRT columns: {' '.join(c.name for c in s.odds_columns)}\n"
        f"  chits: {sum(c.count for c in s.chits.values())} in {len(s.chits)} kinds"
    )
    for problem in setup_problems(s):
        print(f"warning: {problem}")
    return 0


def _cmd_schema(args: argparse.Namespace) -> int:
    schemas = {SCENARIO_FILE: ScenarioFile.model_json_schema()}
    for role, model in FILE_MODELS.items():
        schemas[f"{role} file"] = model.model_json_schema()
    schemas["position file"] = PositionFileModel.model_json_schema()
    if args.file:
        key = SCENARIO_FILE if args.file == "scenario" else f"{args.file} file"
        schemas = {key: schemas[key]}
    text = json.dumps(schemas, indent=2) + "\n"
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def _cmd_render(args: argparse.Namespace) -> int:
    from cheren.positions import PositionError, load_position
    from cheren.render.svg import render_svg
    from cheren.saves import SaveError
    from cheren.setup import initial_position

    try:
        s = load_scenario(args.scenario)
    except ScenarioError as exc:
        print(exc, file=sys.stderr)
        return 1
    if args.position:
        try:
            position = load_position(args.position, s)
        except (PositionError, SaveError) as exc:
            print(exc, file=sys.stderr)
            return 1
    else:
        position = initial_position(s, seed=args.seed)
    Path(args.out).write_text(render_svg(s, position), encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


def _cmd_positions(args: argparse.Namespace) -> int:
    from cheren.positions import PositionError, library, open_position, position_code
    from cheren.sequence import PHASE_TITLES

    try:
        s = load_scenario(args.scenario)
        if args.name:
            record = open_position(args.name, s)
        else:
            records = library(s)
    except (ScenarioError, PositionError) as exc:
        print(exc, file=sys.stderr)
        return 1
    if args.name:
        p = record.position
        if args.code:
            print(position_code(p))
            return 0
        print(f"{record.title}\n{record.date:%d %B %Y}: turn {p.turn}, {p.side.adjective} {PHASE_TITLES[p.phase]}")
        print(f"allied VP now: {p.allied_vp()} ({s.victory_level(p.allied_vp())} if the game ended here)")
        print(f"code: {position_code(p)}")
        if record.narrative:
            print()
            print(record.narrative.rstrip())
        return 0
    if not records:
        print(f"no positions in {s.directory / 'positions'}")
        return 0
    width = max(len(r.name) for r in records)
    print(f"{'name':<{width}}  date         turn  {'starts in':<36}  title")
    for r in records:
        p = r.position
        moment = f"{p.side.adjective} {PHASE_TITLES[p.phase]}"
        print(f"{r.name:<{width}}  {r.date:%d %b %Y}  {p.turn:>4}  {moment:<36}  {r.title}")
    return 0


def _cmd_simulate(args: argparse.Namespace) -> int:
    from contextlib import nullcontext

    from cheren.bots import BOTS
    from cheren.cluster import ClusterError, dask_executor
    from cheren.simulate import simulate, summary, write_results

    for name in (args.allied, args.italian):
        if name not in BOTS:
            print(f"unknown bot {name!r}; known: {', '.join(sorted(BOTS))}", file=sys.stderr)
            return 2
    try:
        with dask_executor(args.dask, args.jobs) if args.dask else nullcontext(None) as executor:
            results = simulate(
                args.games,
                args.seed,
                args.allied,
                args.italian,
                executor=executor,
                jobs=args.jobs,
                scenario_dir=args.scenario,
                keep_log=args.logs,
                progress=not args.quiet,
                batch=args.batch,
            )
    except ClusterError as exc:
        print(f"cheren simulate: {exc}", file=sys.stderr)
        return 2
    if args.out:
        write_results(results, args.out)
        print(f"wrote {len(results)} games to {args.out}")
    print(summary(results))
    return 0


def _cmd_analyse(args: argparse.Namespace) -> int:
    from cheren.analysis.evaluate import evaluate
    from cheren.analysis.html import report_page
    from cheren.analysis.report import analyse
    from cheren.bots import BOTS
    from cheren.positions import PositionError, open_position
    from cheren.saves import write_atomically

    for name in (args.allied, args.italian):
        if name not in BOTS:
            print(f"unknown bot {name!r}; known: {', '.join(sorted(BOTS))}", file=sys.stderr)
            return 2
    if args.games < 0 or args.jobs < 1:
        print("--games must be 0 or more and --jobs 1 or more", file=sys.stderr)
        return 2
    try:
        s = load_scenario(args.scenario)
        record = open_position(args.position, s)
    except (ScenarioError, PositionError) as exc:
        print(exc, file=sys.stderr)
        return 1
    report = analyse(record.position)
    print(report.explain())
    evaluation = None
    if args.games:
        evaluation = evaluate(
            record.position, args.games, allied=args.allied, italian=args.italian, seed=args.seed, jobs=args.jobs,
            label=record.title, progress=not args.quiet,
        )
        print()
        print(evaluation.explain())
    try:
        if args.out:
            data = {"position": record.name, "title": record.title, "date": record.date.isoformat(),
                    **(evaluation.to_json() if evaluation is not None else {"games": 0}),
                    "report": report.to_json()}
            write_atomically(args.out, json.dumps(data, indent=1) + "\n")
            print(f"wrote {args.out}")
        if args.report:
            write_atomically(args.report, report_page(f"{record.title} ({record.date:%d %B %Y})", report, evaluation))
            print(f"wrote {args.report}")
    except OSError as exc:
        print(f"cannot write the output: {exc}", file=sys.stderr)
        return 1
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cheren", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    v = sub.add_parser("validate", help="check a scenario directory and summarise it")
    v.add_argument("directory", nargs="?", default=None, help="scenario directory (default: the bundled one)")
    v.set_defaults(func=_cmd_validate)

    sc = sub.add_parser("schema", help="print the JSON Schema of the scenario files")
    sc.add_argument("--file", choices=["scenario", *FILE_MODELS, "position"], help="only this file's schema")
    sc.add_argument("--out", help="write to this file instead of standard output")
    sc.set_defaults(func=_cmd_schema)

    r = sub.add_parser("render", help="draw a position as SVG (the opening setup by default)")
    r.add_argument("--scenario", default=None, help="scenario directory (default: the bundled one)")
    r.add_argument(
        "--position",
        help="the position to draw: a library name (see `cheren positions`), a position file or save, or a code",
    )
    r.add_argument("--seed", type=int, default=0, help="dice seed for the opening setup's chit draw")
    r.add_argument("--out", required=True, help="the SVG file to write")
    r.set_defaults(func=_cmd_render)

    pos = sub.add_parser("positions", help="list the library of historical positions, or show one")
    pos.add_argument("name", nargs="?", help="a library name, position file or code to show")
    pos.add_argument("--code", action="store_true", help="print only the position's one-line code")
    pos.add_argument("--scenario", default=None, help="scenario directory (default: the bundled one)")
    pos.set_defaults(func=_cmd_positions)

    an = sub.add_parser("analyse", help="analyse a position: attacks, threats, supply, and play-outs")
    an.add_argument("position", help="a library name (see `cheren positions`), a position file or save, or a code")
    an.add_argument("--games", type=int, default=0, help="play the position out this many times (default 0)")
    an.add_argument("--allied", default="heuristic", help="bot for the Allies in the play-outs")
    an.add_argument("--italian", default="heuristic", help="bot for the Italians in the play-outs")
    an.add_argument("--seed", type=int, default=0, help="the play-outs' seed: same seed, same play-outs")
    an.add_argument("--jobs", type=int, default=1, help="worker processes for the play-outs (default 1)")
    an.add_argument("--out", help="write the report and the play-outs' statistics here as JSON")
    an.add_argument("--report", help="write one self-contained HTML page (map, report, charts) here")
    an.add_argument("--scenario", default=None, help="scenario directory (default: the bundled one)")
    an.add_argument("--quiet", action="store_true", help="no progress bar")
    an.set_defaults(func=_cmd_analyse)

    sim = sub.add_parser("simulate", help="play many bot-against-bot games and summarise them")
    sim.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    sim.add_argument("--seed", type=int, default=0, help="the run's seed: same seed, same games")
    sim.add_argument("--allied", default="random", help="bot for the Allies")
    sim.add_argument("--italian", default="random", help="bot for the Italians")
    sim.add_argument("--jobs", type=int, default=1, help="worker processes (default 1; with --dask local, its workers)")
    sim.add_argument("--dask", metavar="ADDRESS",
                     help="run on the Dask cluster whose scheduler is at ADDRESS (tcp://host:8786), or on a new "
                          "local one: --dask local (needs pip install 'cheren[cluster]')")
    sim.add_argument("--batch", type=int, default=None, help="games per task sent to the workers (default: about "
                     "eight tasks per worker)")
    sim.add_argument("--out", help="write per-game results here (.json or .csv)")
    sim.add_argument("--logs", action="store_true", help="keep each game's action log in the JSON (for replay)")
    sim.add_argument("--scenario", default=None, help="scenario directory (default: the bundled one)")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.set_defaults(func=_cmd_simulate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except BrokenPipeError:
        # the reader went away (`cheren positions | head`): not an error worth a traceback
        sys.stderr.close()
        return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
