"""The ``cheren`` command: validate scenario data, export its JSON Schema, render a map."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from collections.abc import Sequence
from typing import Any

from cheren.cli import evaluation, runs
from cheren.cli.checks import (
    Parser,
    UsageError,
    check_port,
    check_seed,
)

# The modules each command needs are loaded when it runs: `cheren app` starts its server before
# the engine and the file models would have loaded (about 0.2 s).
STRONGEST = "planner"  # cheren.players.bots.STRONGEST, named here so --help does not load the bots (a test ties them)
FILE_ROLES = ("terrain", "map", "counters", "crt", "chits")  # cheren.scenario.loader.FILE_MODELS (a test ties them)


def _cmd_validate(args: argparse.Namespace) -> int:
    from cheren.scenario import Side, load_scenario
    from cheren.scenario.setup_checks import setup_problems

    s = load_scenario(args.directory)
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
    from cheren.files.outputs import check_output, write_output
    from cheren.files.position_model import PositionFileModel
    from cheren.scenario.loader import FILE_MODELS, SCENARIO_FILE
    from cheren.scenario.models import ScenarioFile

    schemas = {SCENARIO_FILE: ScenarioFile.model_json_schema()}
    for role, model in FILE_MODELS.items():
        schemas[f"{role} file"] = model.model_json_schema()
    schemas["position file"] = PositionFileModel.model_json_schema()
    from cheren.study.lessons.model import LessonFileModel

    schemas["lesson file"] = LessonFileModel.model_json_schema(by_alias=True)
    if args.file:
        key = SCENARIO_FILE if args.file == "scenario" else f"{args.file} file"
        schemas = {key: schemas[key]}
    check_output(args.out or "-", force=args.force)
    write_output(args.out or "-", json.dumps(schemas, indent=2) + "\n")
    return 0


def _cmd_render(args: argparse.Namespace) -> int:
    from cheren.engine.opening import initial_position
    from cheren.files import load_position
    from cheren.files.outputs import STDOUT, check_output, write_output
    from cheren.render.svg import render_svg
    from cheren.scenario import load_scenario

    check_seed(args.seed)
    check_output(args.out, force=args.force)
    s = load_scenario(args.scenario)
    position = load_position(args.position, s) if args.position is not None else initial_position(s, seed=args.seed)
    write_output(args.out, render_svg(s, position))
    if args.out != STDOUT:
        print(f"wrote {args.out}")
    return 0


def _cmd_positions(args: argparse.Namespace) -> int:
    from cheren.files import library, open_position, position_code
    from cheren.scenario import load_scenario
    from cheren.scenario.sequence import PHASE_TITLES

    s = load_scenario(args.scenario)
    if args.name and args.name[0] == "check":
        return _check_positions(s, args.name[1:])
    if len(args.name) > 1:
        shown = ", ".join(args.name)
        raise UsageError(f"show one position at a time (got {shown}); `cheren positions check` takes several")
    args.name = args.name[0] if args.name else None
    if args.name:
        record = open_position(args.name, s)
    else:
        records = library(s)
    if args.name is not None:
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
        _print_answer_key(record)
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


def _print_answer_key(record: Any) -> None:
    """The question, what happened next, the historical plan and the sources of a position."""
    if record.question is not None:
        print(f"\nThe question ({record.question.side.adjective} to decide):\n{record.question.text.rstrip()}")
    if record.happened_next:
        print("\nWhat happened next:")
        for event in record.happened_next:
            print(f"  {event.date.day} {event.date:%B %Y}: {' '.join(event.text.split())}")
    if record.plan is not None:
        print(f"\nThe historical plan:\n{record.plan.summary.rstrip()}")
        for i, step in enumerate(record.plan.steps, 1):
            fields = ", ".join(
                f"{k} {', '.join(v) if isinstance(v, list) else v}"
                for k, v in step.model_dump(exclude_none=True).items()
                if k != "kind"
            )
            print(f"  {i}. {step.kind.replace('_', ' ')}" + (f": {fields}" if fields else ""))
    if record.sources:
        print("\nSources:")
        for source in record.sources:
            print(f"  - {source}")


def _check_positions(s: Any, names: Sequence[str]) -> int:
    """`cheren positions check [NAME ...]`: the review of the library (or of the positions
    named), what it finds, one line each; exit 1 on an error or a warning no narrative explains."""
    from cheren.files import library, open_position
    from cheren.files.position_review import review, review_library

    if names:
        items = [x for name in names for x in review(open_position(name, s))]
        checked = list(names)
    else:
        records = library(s)
        items = review_library(records)
        checked = [r.name for r in records]
    blocking = [x for x in items if x.blocking]
    for x in items:
        mark = "error" if x.severity == "error" else ("note" if x.explained else "warning")
        print(f"{mark}: {x}")
    print(
        f"checked {len(checked)} position(s): {len(blocking)} problem(s) to fix, "
        f"{len(items) - len(blocking)} warning(s) the narratives explain"
    )
    return 1 if blocking else 0


def _cmd_variants(args: argparse.Namespace) -> int:
    from cheren.scenario.variants import VARIANTS

    if args.name:
        v = VARIANTS.get(args.name)
        if v is None:
            raise UsageError(f"unknown variant {args.name!r}; known: {', '.join(VARIANTS)}")
        print(f"{v.name}: {v.title}\n  changes rules {', '.join(v.rules)}; from {v.source}\n\n{v.text}")
        return 0
    print("Optional rules (switch on with Game(..., variants=[...]), scenario.yaml's variants: or --variant):")
    for v in VARIANTS.values():
        print(f"  {v.name:16s} {v.summary} (rules {', '.join(v.rules)})")
    return 0


def _cmd_launch(args: argparse.Namespace) -> int:
    from cheren.app.launch import LaunchError, launch

    check_port(args.port)
    if args.dir is not None and os.path.exists(args.dir) and not os.path.isdir(args.dir):
        raise UsageError(f"--dir {args.dir}: is a file; give a folder (it is made if it does not exist)")
    try:
        return launch(args.command, args.dir, args.port, not args.no_browser, args.lessons)
    except LaunchError as exc:
        raise UsageError(str(exc)) from None


def _cmd_lessons(args: argparse.Namespace) -> int:
    from cheren.cli.lessons import run_lessons

    return run_lessons(args.what, scenario_dir=args.scenario, progress=args.progress, folders=args.lessons)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="cheren", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    v = sub.add_parser("validate", help="check a scenario directory and summarise it")
    v.add_argument("directory", nargs="?", default=None, help="scenario directory (default: the bundled one)")
    v.set_defaults(func=_cmd_validate)

    sc = sub.add_parser("schema", help="print the JSON Schema of the scenario files")
    sc.add_argument("--file", choices=["scenario", *FILE_ROLES, "position", "lesson"], help="only this file's schema")
    sc.add_argument("--out", help="write to this file instead of standard output")
    sc.add_argument("--force", action="store_true", help="replace --out if it exists")
    sc.set_defaults(func=_cmd_schema)

    r = sub.add_parser("render", help="draw a position as SVG (the opening setup by default)")
    r.add_argument("--scenario", default=None, help="scenario directory (default: the bundled one)")
    r.add_argument(
        "--position",
        help="the position to draw: a library name (see `cheren positions`), a position file or save, or a code",
    )
    r.add_argument("--seed", type=int, default=0, help="dice seed for the opening setup's chit draw")
    r.add_argument("--out", required=True, help="the SVG file to write (- for standard output)")
    r.add_argument("--force", action="store_true", help="replace --out if it exists")
    r.set_defaults(func=_cmd_render)

    pos = sub.add_parser(
        "positions",
        help="list the library of historical positions, show one, or check them (`cheren positions check`)",
    )
    pos.add_argument(
        "name",
        nargs="*",
        help="a library name, position file or code to show; or `check` and, optionally, the positions to check "
        "(the rules between phases, 12.7 and 12.4, the sources and the answer keys)",
    )
    pos.add_argument("--code", action="store_true", help="print only the position's one-line code")
    pos.add_argument("--scenario", default=None, help="scenario directory (default: the bundled one)")
    pos.set_defaults(func=_cmd_positions)

    for name, text, port in (
        ("app", "open the app in the browser (Voila on the app notebook): the map, the game, autosaved", 8866),
        ("lab", "open JupyterLab on the notebooks (the app, the course, analysis)", 8888),
    ):
        la = sub.add_parser(name, help=text)
        la.add_argument("--dir", default=None, help="the folder to serve (default: the clone's notebooks, or, "
                        "installed, ./cheren-notebooks, filled with the bundled notebooks)")
        la.add_argument("--port", type=int, default=port, help=f"the port (default {port})")
        la.add_argument("--no-browser", action="store_true", help="do not open a browser")
        la.add_argument("--lessons", action="append", metavar="DIR",
                        help="a folder of a teacher's lesson files (*.yaml): the course lists them after the "
                        "bundled lessons and runs them in the same lesson view (repeatable)")
        la.set_defaults(func=_cmd_launch)

    le = sub.add_parser(
        "lessons",
        help="the course: list the lessons, show one, or check them all",
        description="cheren lessons: list the course; cheren lessons NAME: one lesson's exercises; "
        "cheren lessons check [NAME|FILE ...]: prove every solution passes and every listed wrong answer fails.",
    )
    le.add_argument("what", nargs="*", help="nothing (the list), a lesson name or file, or: check [NAME|FILE ...]")
    le.add_argument("--progress", default=None, help="the progress file to show stars from (default: the learner's)")
    le.add_argument("--scenario", default=None, help="scenario directory (default: the bundled one)")
    le.add_argument("--lessons", action="append", metavar="DIR",
                    help="a folder of a teacher's lesson files, listed and checked with the course (repeatable)")
    le.set_defaults(func=_cmd_lessons)

    an = sub.add_parser("analyse", help="analyse a position: attacks, threats, supply, and play-outs")
    an.add_argument("position", help="a library name (see `cheren positions`), a position file or save, or a code")
    an.add_argument("--games", type=int, default=0, help="play the position out this many times (default 0)")
    an.add_argument("--allied", default=STRONGEST, help=f"bot for the Allies in the play-outs (default {STRONGEST}, "
                    "the strongest; docs/bots.md)")
    an.add_argument("--italian", default=STRONGEST, help=f"bot for the Italians in the play-outs (default {STRONGEST})")
    an.add_argument("--bot", default=None, help="the bot for both sides in the play-outs (planner, planner2, "
                    "lookahead, tactician, heuristic, random)")
    an.add_argument("--budget", type=int, default=None, help="plans the lookahead, planner or planner2 bot "
                    "weighs per Movement phase")
    an.add_argument("--seed", type=int, default=0, help="the play-outs' seed: same seed, same play-outs")
    an.add_argument("--jobs", type=int, default=1, help="worker processes for the play-outs (default 1; with "
                    "--dask local, its workers)")
    an.add_argument("--dask", metavar="ADDRESS", help="play the play-outs on the Dask cluster whose scheduler is at "
                    "ADDRESS, or on a new local one: --dask local (needs pip install 'cheren[cluster]')")
    an.add_argument("--out", help="write the report and the play-outs' statistics here as JSON")
    an.add_argument("--report", help="write one self-contained HTML page (map, report, charts) here")
    an.add_argument("--force", action="store_true", help="replace --out and --report if they exist")
    an.add_argument("--resume", metavar="FILE", help="finish the play-outs an interrupted analysis kept in FILE "
                    "(Ctrl-C writes one and names it); the play-outs already there are kept")
    an.add_argument("--scenario", default=None, help="scenario directory (default: the bundled one)")
    an.add_argument("--quiet", action="store_true", help="no progress bar")
    an.set_defaults(func=runs.cmd_analyse)

    sim = sub.add_parser("simulate", help="play many bot-against-bot games and summarise them")
    sim.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    sim.add_argument("--seed", type=int, default=0, help="the run's seed: same seed, same games")
    sim.add_argument("--allied", default="random",
                     help="bot for the Allies: random (the default), heuristic, tactician, lookahead[:N] or "
                          "planner[:N] (the strongest); planner2[:N], the planner with its supply mends")
    sim.add_argument("--italian", default="random",
                     help="bot for the Italians: random (the default), heuristic, tactician, lookahead[:N] or "
                          "planner[:N] (the strongest); planner2[:N], the planner with its supply mends")
    sim.add_argument("--jobs", type=int, default=1, help="worker processes (default 1; with --dask local, its workers)")
    sim.add_argument("--dask", metavar="ADDRESS",
                     help="run on the Dask cluster whose scheduler is at ADDRESS (tcp://host:8786), or on a new "
                          "local one: --dask local (needs pip install 'cheren[cluster]')")
    sim.add_argument("--batch", type=int, default=None, help="games per task sent to the workers (default: about "
                     "eight tasks per worker)")
    sim.add_argument("--out", help="write per-game results here (.json or .csv; - for JSON on standard output)")
    sim.add_argument("--force", action="store_true", help="replace --out if it exists")
    sim.add_argument("--resume", metavar="FILE", help="finish the partial run in this JSON results file (an "
                     "interrupted sweep writes one); the games already there are kept")
    sim.add_argument("--logs", action="store_true", help="keep each game's action log in the JSON (for replay)")
    sim.add_argument("--scenario", default=None, help="scenario directory (default: the bundled one)")
    sim.add_argument("--position", metavar="NAME", help="play the games on from this position instead of the set-up: "
                     "a library name (see `cheren positions`), a position file or save, or a code; each game deals "
                     "the chits the side to move cannot see again from its seed")
    sim.add_argument("--budget", type=int, default=None,
                     help="plans the lookahead, planner or planner2 bot weighs per Movement phase (defaults 8 "
                          "and 6; fewer: faster, weaker)")
    sim.add_argument("--variant", action="append", metavar="NAME",
                     help="switch an optional rule on (repeatable; `cheren variants` lists them)")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.set_defaults(func=runs.cmd_simulate)

    va = sub.add_parser("variants", help="list the optional rules (variants), or show one")
    va.add_argument("name", nargs="?", help="a variant to show in full")
    va.set_defaults(func=_cmd_variants)

    cv = sub.add_parser("compare-variants",
                        help="play each optional rule against the standard rules on the same seeds and compare")
    cv.add_argument("--variant", action="append", metavar="NAME", help="a variant to compare (default: all)")
    cv.add_argument("--games", type=int, default=200, help="games per rule set (default 200)")
    cv.add_argument("--seed", type=int, default=0, help="the run's seed: every rule set plays the same seeds")
    cv.add_argument("--allied", default="heuristic", help="bot for the Allies (default heuristic)")
    cv.add_argument("--italian", default="heuristic", help="bot for the Italians (default heuristic)")
    cv.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    cv.add_argument("--out", help="write the report (Markdown) here instead of standard output")
    cv.add_argument("--chart", help="write the chart (PNG) here (needs the analysis extra: matplotlib)")
    cv.add_argument("--force", action="store_true", help="replace --out and --chart if they exist")
    cv.add_argument("--resume", metavar="FILE", help="finish the games an interrupted comparison kept in FILE "
                    "(Ctrl-C writes one and names it); the games already there are kept")
    cv.add_argument("--scenario", default=None, help="scenario directory (default: the bundled one)")
    cv.add_argument("--quiet", action="store_true", help="no progress bar")
    cv.set_defaults(func=runs.cmd_compare_variants)
    evaluation.add_parsers(sub)
    evaluation.add_review_parsers(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand.  Every failure a user can cause (bad data, a bad save or position, a
    file that cannot be read or written, a bad option) ends in one clear message on standard
    error and a non-zero exit status, never a traceback."""
    args = build_parser().parse_args(argv)
    name = f"cheren {args.command}"
    previous = _terminate_as_interrupt()
    try:
        return int(args.func(args))
    except UsageError as exc:
        print(f"{name}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{name}: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        from cheren.files.position_saves import SaveError
        from cheren.players.cluster import ClusterError
        from cheren.scenario import ScenarioError
        from cheren.study.lessons.files import LessonError

        if isinstance(exc, (ScenarioError, SaveError, LessonError)):
            print(exc, file=sys.stderr)
            return 1
        if isinstance(exc, (OSError, ClusterError)):
            if isinstance(exc, BrokenPipeError):  # the reader went away (`cheren positions | head`)
                return 0
            print(f"{name}: {_os_message(exc)}", file=sys.stderr)
            return 1
        raise
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _os_message(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror and exc.filename:
        return f"{exc.filename}: {exc.strerror}"
    return str(exc)


def _terminate_as_interrupt() -> Any:
    """SIGTERM stops a command as Ctrl-C does (a sweep then keeps what it finished)."""
    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    try:
        return signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread (an embedding program): leave signals alone
        return None


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
