"""The commands that play many games: ``simulate``, ``analyse`` (its play-outs) and
``compare-variants``.  All three keep what they finished when stopped and finish it later.

Ctrl-C (or SIGTERM) stops a run at once; the games finished so far go to a results file (see
:mod:`cheren.players.results_file`): the run's ``--out`` for ``simulate``, else the file given to
``--resume``, else a new ``cheren-<command>-resume.json`` in the current folder.  The command
prints how to finish the run: the same command with ``--resume FILE``, which checks the file
(its digest, its parameters against the command line's) and plays only the missing games.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING

from cheren.cli.checks import (
    UsageError,
    budgeted,
    check_bots,
    check_dask_address,
    check_games,
    check_jobs,
    check_range,
    check_seed,
    check_variants,
)

if TYPE_CHECKING:
    from cheren.players.results_file import FailedGame, GameResult, Run

#: Defaults of the parameters a resumed run takes from its file when the command line leaves them.
DEFAULTS = {
    "simulate": {"games": 100, "seed": 0, "allied": "random", "italian": "random"},
    "analyse": {"games": 0, "seed": 0, "allied": "planner", "italian": "planner"},  # STRONGEST in main
    "compare-variants": {"games": 200, "seed": 0, "allied": "heuristic", "italian": "heuristic"},
}


# -- resume files ---------------------------------------------------------------------------------
def resume_run(args: argparse.Namespace, mine: Run) -> tuple[list[GameResult], Run]:
    """The games and run of ``--resume FILE``, checked against this command line: the same
    command and scenario data, and every parameter the command line gives the same as the file's
    (those it leaves at their defaults are taken from the file).  Returns the file's games and
    the run to finish."""
    from cheren.players.results_file import read_run

    path = args.resume
    games, theirs = read_run(path)
    if theirs.command != mine.command:
        raise UsageError(f"--resume {path}: a run of `cheren {theirs.command}`, not of `cheren {mine.command}`")
    if theirs.scenario != mine.scenario:
        raise UsageError(f"--resume {path}: the scenario data changed since the run started (digest "
                         f"{theirs.scenario or 'unknown'}, now {mine.scenario}); its games would not mix with new ones")
    defaults = DEFAULTS[mine.command]
    for name, value in mine.parameters().items():
        given = getattr(theirs, name)
        if given == value or name in ("scenario", "command"):
            continue
        if name in defaults and value == defaults[name]:
            continue  # not given on the command line: the file's
        if name in ("variants", "rule_sets", "keep_log", "position") and not value:
            continue
        if name == "position":
            raise UsageError(f"--resume {path}: the file's play-outs are of another position")
        raise UsageError(f"--resume {path}: the file's run has {name} {given!r}, not {value!r}")
    return games, theirs


def keep_file(command: str, wanted: str | None) -> str:
    """Where an interrupted run keeps its games: ``wanted``, or a new file in the current folder
    (or, if that folder cannot be written, in the temporary folder)."""
    from cheren.files.outputs import OutputError

    if wanted is not None:
        return wanted
    for folder in (Path.cwd(), Path(tempfile.gettempdir())):
        if not os.access(folder, os.W_OK | os.X_OK):
            continue
        for n in range(1, 1000):
            name = folder / (f"cheren-{command}-resume.json" if n == 1 else f"cheren-{command}-resume-{n}.json")
            if not name.exists() and not name.is_symlink():
                return str(name)
    raise OutputError("no folder to keep the finished games in (the current folder and the temporary folder "
                      "are not writable)")


def keep(results: list[GameResult], run: Run, path: str, argv_hint: str) -> None:
    """Write an interrupted run's games and say how to finish it (the file gives the rest of the
    command line: bots, seed, number of games)."""
    from cheren.players.results_file import write_results

    write_results(results, path, run)
    print(f"cheren {run.command}: interrupted; {len(results)} finished games kept in {path}: finish the run with "
          f"`cheren {run.command} {argv_hint}--resume {path}`", file=sys.stderr)


def todo(run: Run, done: list[GameResult], failed: list[FailedGame]) -> list[int]:
    return sorted(set(range(run.games)) - {r.index for r in done} - {f.index for f in failed})


def _scenario_digest(directory: str | None) -> str:
    from cheren.scenario import load_scenario

    return load_scenario(directory).digest


# -- simulate -------------------------------------------------------------------------------------
def cmd_simulate(args: argparse.Namespace) -> int:
    from cheren.files.outputs import STDOUT, check_output
    from cheren.players.cluster import dask_executor
    from cheren.players.results_file import Run, write_results
    from cheren.players.simulate import SimulationInterrupted, simulate, summary

    budgeted(args)
    check_bots(args.allied, args.italian)
    check_games(args.games)
    check_seed(args.seed)
    check_jobs(args.jobs)
    variants = check_variants(args.variant)
    if args.batch is not None:
        check_range("--batch", args.batch, 1, args.games)
    if args.dask is not None:
        args.dask = check_dask_address(args.dask)
    start = _start_code(args.position, args.scenario) if args.position else None
    run = Run(args.games, args.seed, args.allied, args.italian, args.logs, variants=variants,
              scenario=_scenario_digest(args.scenario), position=start)
    done: list[GameResult] = []
    if args.resume:
        done, run = resume_run(args, run)
    viewer = None
    if run.position is not None:
        from cheren.players.simulate import start_viewer
        from cheren.scenario import load_scenario

        viewer = start_viewer(run.position, load_scenario(args.scenario))
    out = args.out or args.resume
    if out:
        check_output(out, force=args.force or (out == args.resume))
    failed: list[FailedGame] = []
    interrupted = False
    with dask_executor(args.dask, args.jobs) if args.dask is not None else nullcontext(None) as executor:
        try:
            results = simulate(
                run.games, run.seed, run.allied, run.italian, executor=executor, jobs=args.jobs,
                scenario_dir=args.scenario, keep_log=run.keep_log, progress=not args.quiet, batch=args.batch,
                only=todo(run, done, run.failed), failed=failed, variants=run.variants, start=run.position,
                viewer=viewer,
            )
        except SimulationInterrupted as stop:
            results, failed, interrupted = stop.results, stop.failed, True
    results = sorted([*done, *results], key=lambda r: r.index)
    run.failed = sorted([*run.failed, *failed], key=lambda f: f.index)
    run.partial = interrupted or len(results) + len(run.failed) < run.games
    if interrupted and not out:
        out = keep_file("simulate", None)
    if out:
        write_results(results, out, run)
        if out != STDOUT:
            hint = f" (partial: finish it with `cheren simulate --resume {out}`)" if run.partial else ""
            print(f"wrote {len(results)} games to {out}{hint}", file=sys.stderr)
    head = []
    if run.partial:
        head.append(f"PARTIAL: {len(results)} of {run.games} games finished (interrupted)")
    for f in run.failed:
        head.append(f"failed: game {f.index} (seed {f.seed}): {f.error}")
    text = summary(results)
    print("\n".join([*head, text]), file=sys.stdout if out != STDOUT else sys.stderr)
    if interrupted:
        return 130
    return 3 if run.failed else 0


def _start_code(ref: str, scenario_dir: str | None) -> str:
    """The code of the position ``--position`` names (a bad name or file: a clear message)."""
    from cheren.files import open_position, position_code
    from cheren.scenario import load_scenario

    return position_code(open_position(ref, load_scenario(scenario_dir)).position)


# -- analyse --------------------------------------------------------------------------------------
def cmd_analyse(args: argparse.Namespace) -> int:
    from cheren.files import open_position, position_code
    from cheren.files.outputs import check_output, write_output
    from cheren.players.cluster import dask_executor
    from cheren.players.results_file import Run, write_results
    from cheren.players.simulate import SimulationInterrupted
    from cheren.render.report_html import report_page
    from cheren.scenario import load_scenario
    from cheren.study.analysis.evaluate import evaluate
    from cheren.study.analysis.report import analyse

    if args.bot:
        args.allied = args.italian = args.bot
    budgeted(args)
    check_bots(args.allied, args.italian)
    check_games(args.games, least=0)
    check_seed(args.seed)
    check_jobs(args.jobs)
    if args.dask is not None:
        args.dask = check_dask_address(args.dask)
    for path in (args.out, args.report):
        if path:
            check_output(path, force=args.force)
    s = load_scenario(args.scenario)
    record = open_position(args.position, s)
    run = Run(max(args.games, 1), args.seed, args.allied, args.italian, command="analyse",
              position=position_code(record.position), scenario=s.digest)
    done: list[GameResult] = []
    if args.resume:
        run.games = args.games  # 0: take the file's
        done, run = resume_run(args, run)
        check_output(args.resume, force=True)
    report = analyse(record.position)
    print(report.explain())
    evaluation = None
    if args.games or args.resume:
        failed: list[FailedGame] = []
        try:
            with dask_executor(args.dask, args.jobs) if args.dask is not None else nullcontext(None) as executor:
                evaluation = evaluate(
                    record.position, run.games, allied=run.allied, italian=run.italian, seed=run.seed,
                    jobs=args.jobs, executor=executor, label=record.title, progress=not args.quiet,
                    only=todo(run, done, run.failed), failed=failed,
                )
        except SimulationInterrupted as stop:
            run.partial, run.failed = True, sorted([*run.failed, *stop.failed], key=lambda f: f.index)
            finished = sorted([*done, *stop.results], key=lambda r: r.index)
            keep(finished, run, keep_file("analyse", args.resume), f"{args.position} ")
            return 130
        evaluation.results = sorted([*done, *evaluation.results], key=lambda r: r.index)
        run.failed = sorted([*run.failed, *failed], key=lambda f: f.index)
        run.partial = len(evaluation.results) + len(run.failed) < run.games
        if args.resume:
            write_results(evaluation.results, args.resume, run)
        print()
        for f in run.failed:
            print(f"failed: play-out {f.index} (seed {f.seed}): {f.error}")
        print(evaluation.explain())
    if args.out:
        data = {"position": record.name, "title": record.title, "date": record.date.isoformat(),
                **(evaluation.to_json() if evaluation is not None else {"games": 0}),
                "report": report.to_json()}
        write_output(args.out, json.dumps(data, indent=1) + "\n")
        print(f"wrote {args.out}")
    if args.report:
        write_output(args.report, report_page(f"{record.title} ({record.date:%d %B %Y})", report, evaluation))
        print(f"wrote {args.report}")
    return 3 if run.failed else 0


# -- compare-variants -----------------------------------------------------------------------------
def cmd_compare_variants(args: argparse.Namespace) -> int:
    from cheren.files.outputs import STDOUT, check_output, write_output
    from cheren.players.results_file import Run, write_results
    from cheren.players.simulate import SimulationInterrupted
    from cheren.study.analysis.variants_compare import STANDARD, compare_variants, report_markdown, write_chart

    check_bots(args.allied, args.italian)
    check_games(args.games)
    check_seed(args.seed)
    check_jobs(args.jobs)
    names = check_variants(args.variant)
    for target in (args.out, args.chart):
        if target:
            check_output(target, force=args.force)
    from cheren.scenario.variants import VARIANTS

    chosen = names or list(VARIANTS)
    run = Run(args.games, args.seed, args.allied, args.italian, command="compare-variants",
              rule_sets=[STANDARD, *chosen] if names else None, scenario=_scenario_digest(args.scenario))
    done: list[GameResult] = []
    if args.resume:
        done, run = resume_run(args, run)
        check_output(args.resume, force=True)
    run.rule_sets = run.rule_sets or [STANDARD, *chosen]
    failed = list(run.failed)
    try:
        comparison = compare_variants(run.rule_sets[1:], games=run.games, seed=run.seed, allied=run.allied,
                                      italian=run.italian, jobs=args.jobs, progress=not args.quiet,
                                      scenario_dir=args.scenario, done=done, failed=failed)
    except SimulationInterrupted as stop:
        run.partial, run.failed = True, [*failed, *stop.failed]
        keep(stop.results, run, keep_file("compare-variants", args.resume), "")
        return 130
    run.failed = failed
    games = [r for rs in comparison.sets for r in rs.results]
    run.partial = len(games) + len(failed) < run.games * len(comparison.sets)
    if args.resume:
        write_results(games, args.resume, run)
    text = report_markdown(comparison, chart=args.chart)
    if args.chart:
        write_chart(comparison, args.chart)
    for f in run.failed:
        print(f"failed: game {f.index} (seed {f.seed}, {', '.join(f.variants) or STANDARD}): {f.error}",
              file=sys.stderr)
    if args.out:
        write_output(args.out, text)
        if args.out != STDOUT:
            print(f"wrote {args.out}", file=sys.stderr)
    else:
        print(text)
    return 3 if run.failed else 0
