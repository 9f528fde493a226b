"""The learned evaluation's commands: ``train-eval`` (play the games, sample their positions,
fit the model), ``calibrate-eval`` (the model against play-outs) and ``review`` (a saved game,
decision by decision).  See docs/evaluation.md."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from contextlib import nullcontext
from typing import Any

from cheren.cli.checks import UsageError, check_bots, check_dask_address, check_games, check_jobs, check_seed

STRONGEST = "planner"
SHIPPED_HINT = "cheren/study/evaluation/model.json"


def add_parsers(sub: Any) -> None:
    tr = sub.add_parser("train-eval", help="train the learned evaluation on self-play (positions and how their "
                        "games ended)")
    tr.add_argument("--games", type=int, default=2000, help="games to play (default 2000)")
    tr.add_argument("--seed", type=int, default=0, help="the games' seed: same seed, same games and model")
    tr.add_argument("--bot", default=STRONGEST, help=f"the bot that plays both sides (default {STRONGEST}, the "
                    "strongest; planner:2 weighs 2 plans a Movement phase: faster, weaker)")
    tr.add_argument("--jobs", type=int, default=1, help="worker processes (default 1; with --dask local, its workers)")
    tr.add_argument("--dask", metavar="ADDRESS", help="play the games on the Dask cluster at ADDRESS "
                    "(tcp://host:8786), or on a new local one: --dask local")
    tr.add_argument("--from", dest="sources", action="append", metavar="FILE",
                    help="train on the games of this results file (cheren simulate --logs --out FILE, one bot on "
                         "both sides) instead of playing new ones; repeatable")
    tr.add_argument("--games-out", metavar="FILE", help="also keep the games played in this results file")
    tr.add_argument("--leave-one-out", metavar="CALIBRATION", help="then, for each library position measured in "
                    "this calibrate-eval --out whose play-outs are among the --from games, train a model without "
                    "them and print its P(Allied win) there beside the play-outs' (the honest measure of a model "
                    "trained on play-outs of the positions it is measured on; a position without play-outs among "
                    "the games is measured by the model trained on all, held out there)")
    tr.add_argument("--leave-one-out-chart", metavar="PNG", help="with --leave-one-out: draw both models' "
                    "P(Allied win) against the play-outs' share here")
    tr.add_argument("--less-regularised", action="store_true", help="bigger trees, smaller leaves and no L2 "
                    "penalty (31 leaves, 20 positions a leaf at least; the learning rate is the same): "
                    "the shipped model's settings, for many games")
    tr.add_argument("--recalibrate", metavar="MODEL", help="do not train: write MODEL to --out with its P(Allied "
                    "win) corrected turn by turn, fitted on how the --from games (which MODEL was not trained on) "
                    "ended")
    tr.add_argument("--out", required=True, help=f"write the model here (the one cheren ships: {SHIPPED_HINT})")
    tr.add_argument("--force", action="store_true", help="replace --out and --games-out if they exist")
    tr.add_argument("--scenario", default=None, help="scenario directory (default: the bundled one)")
    tr.add_argument("--quiet", action="store_true", help="no progress bar")
    tr.set_defaults(func=cmd_train_eval)


def cmd_train_eval(args: argparse.Namespace) -> int:
    from cheren.files.outputs import check_output, write_output
    from cheren.players.cluster import dask_executor
    from cheren.players.results_file import Run, read_run, write_results
    from cheren.players.simulate import GameResult, SimulationInterrupted
    from cheren.scenario import load_scenario
    from cheren.study.evaluation.model import INSTALL_HINT, SET_UP
    from cheren.study.evaluation.training import model_file, play_games, positions_of, train

    try:
        import lightgbm  # noqa: F401
    except ImportError:
        raise UsageError(INSTALL_HINT) from None
    check_jobs(args.jobs)
    check_seed(args.seed)
    scenario = load_scenario(args.scenario)
    check_output(args.out, force=args.force)
    if args.leave_one_out_chart:
        if not args.leave_one_out:
            raise UsageError("--leave-one-out-chart needs --leave-one-out CALIBRATION")
        check_output(args.leave_one_out_chart, force=args.force)
    if args.leave_one_out:
        _reuse_playouts(args.leave_one_out, None, [], "--leave-one-out")  # a bad file: said now, not after training
    if args.games_out:
        check_output(args.games_out, force=args.force)
    base = _base_model(args, scenario) if args.recalibrate else None
    results: list[GameResult] = []
    starts: list[str | None] = []  # the position each game was played on from (None: the set-up)
    if args.sources:
        bots: set[str] = set()
        seeds: list[int] = []
        for path in args.sources:
            games, run = read_run(path)
            if run.allied != run.italian:
                raise UsageError(f"--from {path}: its games are {run.allied} against {run.italian}; the evaluation "
                                 "learns from one bot against itself")
            if run.scenario != scenario.digest:
                raise UsageError(f"--from {path}: its games were played on other scenario data (changed since); "
                                 "play them again")
            if not run.keep_log or any(g.log is None for g in games):
                raise UsageError(f"--from {path}: its games have no actions to replay (cheren simulate --logs)")
            if run.variants:
                raise UsageError(f"--from {path}: its games were played with optional rules "
                                 f"({', '.join(run.variants)}); the evaluation learns the standard game")
            if base is not None and (run.seed in base.provenance.seeds or run.allied != base.provenance.bot):
                raise UsageError(f"--from {path}: " + (f"{args.recalibrate} was trained on these games (seed "
                                 f"{run.seed}); recalibrate on games it never saw" if run.allied ==
                                 base.provenance.bot else f"games of {run.allied}, but {args.recalibrate} "
                                 f"learned from {base.provenance.bot}"))
            bots.add(run.allied)
            seeds.append(run.seed)
            offset = len(results)
            results += [_renumber(g, offset + i) for i, g in enumerate(games)]
            starts += [run.position] * len(games)
        if len(bots) > 1:
            raise UsageError(f"--from: the files are of different bots ({', '.join(sorted(bots))}); train on one")
        bot = bots.pop()
    else:
        check_games(args.games, least=2)
        check_bots(args.bot)
        bot, seeds = args.bot, [args.seed]
        dask = check_dask_address(args.dask) if args.dask is not None else None
        with dask_executor(dask, args.jobs) if dask is not None else nullcontext(None) as executor:
            try:
                results = play_games(args.games, args.seed, bot, executor=executor, jobs=args.jobs,
                                     progress=not args.quiet, scenario_dir=args.scenario)
            except SimulationInterrupted:  # nothing kept: `cheren simulate --logs` keeps games, then --from
                raise KeyboardInterrupt from None
        if args.games_out:
            write_results(results, args.games_out, Run(args.games, args.seed, bot, bot, True,
                                                       scenario=scenario.digest))
        starts = [None] * len(results)
    data = positions_of(results, scenario, jobs=args.jobs, scenario_dir=args.scenario, progress=not args.quiet,
                        starts=starts)
    if base is not None:
        return _write_recalibrated(args, base, data, scenario, seeds)
    trained = train(data, scenario, seed=seeds[0] % (2**31), less_regularised=args.less_regularised)
    names = start_names(starts, scenario)
    write_output(args.out, model_file(trained, scenario, results, bot, seeds, len(data.rows), dict(Counter(names))))
    v = trained.validation
    print(f"wrote {args.out}: {len(results)} games of {bot} against itself, {len(data.rows)} positions; "
          f"held out {v['held_out_games']:.0f} games ({v['held_out_positions']:.0f} positions): "
          f"log loss {v.get('log_loss', float('nan')):.3f}, P(Allied win) against the outcome: "
          f"Brier {v.get('allied_win_brier', float('nan')):.3f}, mean absolute error "
          f"{v.get('allied_win_mae', float('nan')):.3f}", file=sys.stderr)
    if args.leave_one_out:
        _leave_one_out(args.leave_one_out, args.out, data, {g: s or SET_UP for g, s in enumerate(starts)}, scenario,
                       seeds[0] % (2**31), args.leave_one_out_chart, args.less_regularised)
    return 0


def _base_model(args: argparse.Namespace, scenario: Any) -> Any:
    """The model ``--recalibrate`` corrects; it needs games to fit on (``--from``) and trains nothing."""
    from cheren.study.evaluation.model import EvaluationUnavailable, load_model

    if not args.sources:
        raise UsageError("--recalibrate MODEL needs --from FILE: games of MODEL's bot that it was not trained on")
    if args.leave_one_out or args.less_regularised or args.games_out:
        raise UsageError("--recalibrate trains nothing: --leave-one-out, --less-regularised and --games-out do not "
                         "go with it")
    try:
        return load_model(args.recalibrate, scenario)
    except EvaluationUnavailable as exc:
        raise UsageError(f"--recalibrate {exc}") from None


def _write_recalibrated(args: argparse.Namespace, base: Any, data: Any, scenario: Any, seeds: list[int]) -> int:
    from cheren.files.outputs import write_output
    from cheren.study.evaluation.model import model_json
    from cheren.study.evaluation.training import recalibrate

    try:
        fix = recalibrate(base, data, seeds)
    except ValueError as exc:  # no positions: the --from files hold no games
        raise UsageError(f"--recalibrate {args.recalibrate}: {exc} (the --from files hold no games)") from None
    write_output(args.out, model_json(base.booster, base.provenance, scenario, fix))
    from cheren.study.evaluation.recalibration import LEAST

    games = f"{fix.games:,} game{'' if fix.games == 1 else 's'}"
    turns = ", ".join(f"turn {t}: {a:.2f} x logit {b:+.2f}" for t, (a, b) in sorted(fix.by_turn.items()))
    how = (f"the correction (slope x the logit of P, plus intercept) by turn: {turns}" if turns else
           f"no turn had the {LEAST} positions a correction needs, so nothing is corrected")
    print(f"wrote {args.out}: {args.recalibrate}'s trees, fitted on {len(data.rows):,} positions of {games} it was "
          f"not trained on; {how}", file=sys.stderr)
    return 0


def _leave_one_out(path: str, model_path: str, data: Any, starts: dict[int, str], scenario: Any, seed: int,
                   chart: str | None, less_regularised: bool = False) -> None:
    from cheren.files import library_names, load_position
    from cheren.study.evaluation.calibration import leave_one_out, left_out_table
    from cheren.study.evaluation.model import load_model

    library = set(library_names(scenario))
    # a library position by its name; any other (a random one) by the code the calibration kept
    measured = [(p, load_position(p.label if p.label in library else p.code, scenario))
                for p in _reuse_playouts(path, None, [], "--leave-one-out").points if p.label in library or p.code]
    model = load_model(model_path, scenario)
    rows = leave_one_out(data, starts, measured, scenario, model, seed=seed, less_regularised=less_regularised)
    if not rows:
        raise UsageError(f"--leave-one-out {path}: no library position (nor a position with its code) measured in it")
    print(f"Each position against its play-outs ({path}), by the model trained on all the games and by "
          "one trained without the games played on from that position:\n")
    print(left_out_table(rows))
    if chart:
        from cheren.files.outputs import write_output
        from cheren.study.analysis.charts import to_png
        from cheren.study.evaluation.charts import left_out_chart

        write_output(chart, to_png(left_out_chart(rows, model.provenance.bot)))


def start_names(starts: list[str | None], scenario: Any) -> list[str]:
    """Where each game began: the set-up, a library position's name, or another position."""
    from cheren.files import library_names, load_position, position_code
    from cheren.study.evaluation.model import OTHER_POSITIONS, SET_UP

    codes = {position_code(load_position(name, scenario)): name for name in library_names(scenario)}
    return [SET_UP if s is None else codes.get(s, OTHER_POSITIONS) for s in starts]


def _renumber(game: Any, index: int) -> Any:
    from dataclasses import replace

    return replace(game, index=index)


def add_review_parsers(sub: Any) -> None:
    rv = sub.add_parser("review", help="review a saved game: each decision's change in the Allied win chance, "
                        "the ones that gave away 10 points or more marked with a better choice")
    rv.add_argument("save", help="a game saved by the app or by cheren (JSON)")
    rv.add_argument("--out", help="write the report (Markdown) here (default: SAVE's name + -review.md, in the "
                    "current folder)")
    rv.add_argument("--chart", help="write the chart (PNG) here (default: the report's name with .png)")
    rv.add_argument("--bot", default="tactician", help="the bot that plays the look-aheads and is asked for a "
                    "better choice at each mark (default tactician: fast)")
    rv.add_argument("--model", help="an evaluation model file (default: the one cheren ships)")
    rv.add_argument("--force", action="store_true", help="replace --out and --chart if they exist")
    rv.add_argument("--scenario", default=None, help="scenario directory (default: the bundled one)")
    rv.set_defaults(func=cmd_review)

    ca = sub.add_parser("calibrate-eval", help="measure the learned evaluation against play-outs of positions, or "
                        "against the outcomes of games, it was not trained on")
    ca.add_argument("--model", help="an evaluation model file (default: the one cheren ships)")
    ca.add_argument("--library", action="store_true", help="play out every library position")
    ca.add_argument("--position", dest="names", action="append", metavar="NAME",
                    help="play out this library position (repeatable; the seeds are those of --library, so the "
                         "numbers are the same as in a whole-library run)")
    ca.add_argument("--random", type=int, default=0, help="play out this many mid-game positions of games on "
                    "seeds drawn from --seed")
    ca.add_argument("--playouts", type=int, default=200, help="play-outs per position (default 200)")
    ca.add_argument("--games", dest="game_files", action="append", metavar="FILE",
                    help="a results file of games the model never saw (cheren simulate --logs, the model's bot on "
                         "both sides): the model on their positions against how they ended; repeatable")
    ca.add_argument("--playouts-from", action="append", metavar="FILE", help="take the play-outs from this earlier "
                    "--out (the same positions, bot and seed), or from the results of cheren simulate --position "
                    "(the position's play-outs on the seed calibrate-eval gives it, kept with their actions so they "
                    "can also train): measure a model without playing them again; repeatable")
    ca.add_argument("--seed", type=int, default=34900, help="seed of the play-outs and of the mid-game positions "
                    "(default 34900; keep it apart from the training seeds)")
    ca.add_argument("--bot", help="the bot of the play-outs (default: the one that made the model's data)")
    ca.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ca.add_argument("--out", help="write the measurements here (JSON)")
    ca.add_argument("--chart", help="write the play-outs' reliability chart here (PNG)")
    ca.add_argument("--games-chart", help="write the games' reliability chart here (PNG)")
    ca.add_argument("--record", action="store_true", help="add this measurement (of the positions the model was not "
                    "trained on) to the --model file, so that its captions, in the app too, say how far off it was")
    ca.add_argument("--force", action="store_true", help="replace the files written if they exist")
    ca.add_argument("--quiet", action="store_true", help="no progress bar")
    ca.set_defaults(func=cmd_calibrate)


def _model(path: str | None, scenario: Any) -> Any:
    from cheren.study.evaluation.model import EvaluationUnavailable, load_model

    try:
        model = load_model(path, scenario)
    except EvaluationUnavailable as exc:
        raise UsageError(str(exc)) from None
    warning = model.mismatch(scenario)
    if warning:
        print(f"warning: {warning}", file=sys.stderr)
    return model


def cmd_review(args: argparse.Namespace) -> int:
    from pathlib import Path

    from cheren.files.outputs import check_output, write_output
    from cheren.scenario import load_scenario
    from cheren.study.evaluation.charts import review_chart
    from cheren.study.evaluation.review import review
    from cheren.study.game_saves import load_game

    check_bots(args.bot)
    scenario = load_scenario(args.scenario)
    model = _model(args.model, scenario)
    out = args.out or f"{Path(args.save).stem}-review.md"
    chart = args.chart or str(Path(out).with_suffix(".png"))
    check_output(out, force=args.force)
    check_output(chart, force=args.force)
    game = load_game(args.save, scenario)
    rv = review(game, model=model, bot=args.bot)
    from cheren.study.analysis.charts import to_png

    write_output(chart, to_png(review_chart(rv, f"Review of {Path(args.save).name}")))
    rel = Path(chart).name if Path(chart).parent.resolve() == Path(out).parent.resolve() else str(Path(chart).resolve())
    write_output(out, rv.report(Path(args.save).name, rel))
    print(f"wrote {out} and {chart}: {len(rv.decisions)} actions, {len(rv.marks)} marked", file=sys.stderr)
    for d in rv.marks:
        print(f"  {d.number}. turn {d.turn} {d.phase}, {d.side.adjective}: {d.text}: P(Allied win) "
              f"{d.judged_before:.0%} -> {d.judged:.0%}{' ' + d.judged_text if d.judged_text else ''}; "
              f"better: {d.better_text}, {d.better_by} ({(d.better_after or 0):.0%})")
    return 0


def cmd_calibrate(args: argparse.Namespace) -> int:
    import json

    from cheren.engine.wording import counted
    from cheren.files import library_names, load_position
    from cheren.files.outputs import check_output, write_output
    from cheren.players.progress_bar import game_progress
    from cheren.players.results_file import read_run
    from cheren.scenario import load_scenario
    from cheren.study.analysis.charts import to_png
    from cheren.study.evaluation.calibration import (
        calibrate,
        corrected_on,
        learnt,
        mid_game_positions,
        not_held_out,
        reliability,
    )
    from cheren.study.evaluation.charts import reliability_bins_chart, reliability_chart

    check_seed(args.seed)
    check_jobs(args.jobs)
    check_games(args.playouts)
    if not (args.library or args.names or args.random or args.game_files):
        raise UsageError("nothing to measure: give --library, --position NAME, --random N or --games FILE")
    if args.record and not args.model:
        raise UsageError("--record writes into the model file: name it with --model (the one cheren ships: "
                         f"{SHIPPED_HINT})")
    if args.record and not (args.library or args.names or args.random):
        raise UsageError("--record keeps a measurement against play-outs: give --library, --position NAME or "
                         "--random N")
    scenario = load_scenario(None)
    model = _model(args.model, scenario)
    bot = args.bot or model.provenance.bot
    check_bots(bot)
    for path in (args.out, args.chart, args.games_chart):
        if path:
            check_output(path, force=args.force)
    recorded = _recordable(args, model, bot) if args.record else ""
    report: dict[str, Any] = {"model": model.caption()}
    if args.game_files:
        games = []
        for path in args.game_files:
            found, run = read_run(path)
            if run.scenario != scenario.digest:
                raise UsageError(f"--games {path}: its games were played on other scenario data (changed since)")
            if run.seed in model.provenance.seeds:
                raise UsageError(f"--games {path}: the model was trained on this run's games (seed {run.seed})")
            games += found
        rel = reliability(model, scenario, games, jobs=args.jobs)
        print(f"On {rel.games} games the model never saw ({rel.bot} on both sides, {rel.positions} positions):\n")
        print(rel.table() + "\n")
        report["games"] = rel.to_json()
        if args.games_chart:
            write_output(args.games_chart, to_png(reliability_bins_chart(rel)))
    library = library_names(scenario)
    unknown = [name for name in args.names or () if name not in library]
    if unknown:
        raise UsageError(f"--position {unknown[0]}: not a library position; the library has: {', '.join(library)}")
    # a library position's play-outs are on seed + its place in the library, whichever are measured
    chosen = library if args.library else [name for name in library if name in (args.names or ())]
    positions = [(name, load_position(name, scenario)) for name in chosen]
    offsets = [library.index(name) for name in chosen]
    if args.random:
        positions += mid_game_positions(scenario, args.random, args.seed, bot)
        offsets += [len(library) + j for j in range(args.random)]
    if args.record:  # which positions the model learnt from, found once: it decides what is held out
        learnt_from = learnt(model.provenance, [label for label, _ in positions],
                             [args.seed + offset for offset in offsets], corrected_on(model))
        _check_unrecorded(model, positions, [args.seed + offset for offset in offsets], learnt_from)
    if positions:
        if args.playouts_from:
            cal = _playouts_from(args.playouts_from, model, positions, offsets, args.seed, scenario)
        else:
            from cheren.players.simulate import SimulationInterrupted

            with game_progress(len(positions), "positions") if not args.quiet else nullcontext(None) as bar:
                try:
                    cal = calibrate(model, positions, args.playouts, bot=bot, seed=args.seed, jobs=args.jobs,
                                    progress=bar, offsets=offsets)
                except SimulationInterrupted:
                    raise KeyboardInterrupt from None
        print(cal.table())
        print("\nBy what the model said:\n\n" + cal.bands_table())
        seeds = [cal.seed + offset for offset in offsets]  # what cheren simulate --position needs to play them again
        where = (f"seed {seeds[0]}" if len(seeds) == 1
                 else f"seeds {min(seeds)}-{max(seeds)}: {cal.seed} + each one's place")
        print(f"\n{counted(len(cal.points), 'position')}, {counted(cal.playouts, 'play-out')} each by {cal.bot} "
              f"on both sides ({where})")
        named, unnamed = not_held_out(model.provenance, [p.label for p in cal.points], seeds, corrected_on(model))
        if named or unnamed:  # positions whose games the model learnt from: its error there is not a held-out one
            sources = named + ([f"{unnamed} of the random positions (by their play-outs' seeds)"] if unnamed else [])
            print(f"not held out at {len(named) + unnamed} of them: the model was trained (or its correction fitted) "
                  f"on games played on from {', '.join(sources)} (train-eval --leave-one-out measures it without "
                  "them)")
        report["playouts"] = cal.to_json()
        if args.chart:
            write_output(args.chart, to_png(reliability_chart(cal)))
    if args.out:  # before the record, so that the measurement is kept whatever becomes of the model file
        write_output(args.out, json.dumps(report, indent=1) + "\n")
    if args.record:
        model = _record(args.model, recorded, cal, seeds, learnt_from, scenario)
    print(f"model: {model.caption()}")
    return 0


def _recordable(args: argparse.Namespace, model: Any, bot: str) -> str:
    """Refuse, before anything is played, a --record that could not be written or would measure
    something else than the model's claim; the model file's text as it is now."""
    import os
    from pathlib import Path

    from cheren.files.outputs import OutputError, check_output

    if bot != model.provenance.bot:
        raise UsageError(f"--record: the model predicts how {model.provenance.bot} plays on; measure it against "
                         f"that bot's play-outs, not {bot}'s")
    real = os.path.realpath(args.model)
    for option, path in (("--out", args.out), ("--chart", args.chart), ("--games-chart", args.games_chart)):
        if path and os.path.realpath(path) == real:
            raise UsageError(f"{option} {path}: is the model file --record writes into; give another file")
    try:
        check_output(args.model, force=True)
    except OutputError as exc:
        raise UsageError(f"--record: {exc}") from None
    return Path(args.model).read_text(encoding="utf-8")


def _check_unrecorded(model: Any, positions: list[Any], seeds: list[int], mask: list[bool]) -> None:
    """Refuse, before anything is played, a record of nothing held out (``mask``: the positions the
    model learnt from), or of a position a record of the model already holds (by its code; by its
    play-outs' seed in a record without codes)."""
    from cheren.files import position_code

    if all(mask):
        raise UsageError(f"--record: nothing to record; {model.source} was trained (or its correction fitted) on "
                         "games played on from every position measured")
    for (label, position), seed, was in zip(positions, seeds, mask, strict=True):
        if was:
            continue
        code = position_code(position)
        for record in model.provenance.measured:
            if code in record.codes or (not record.codes and seed in record.seeds):
                raise UsageError(f"--record: {model.source} already records {label}; a position is counted once")


def _record(path: str, text: str, cal: Any, seeds: list[int], mask: list[bool], scenario: Any) -> Any:
    """Add the measurement of the held-out positions (``mask``: those the model learnt from) to the
    model file ``path``, whose text was ``text`` before the play-outs; the model as read again from it."""
    from cheren.engine.wording import counted
    from cheren.study.evaluation.measured import measured
    from cheren.study.evaluation.model import EvaluationUnavailable, add_measurement, load_model

    kept = [(p, seed) for p, seed, was in zip(cal.points, seeds, mask, strict=True) if not was]
    record = measured([p for p, _ in kept], [seed for _, seed in kept], cal.playouts, cal.bot)
    try:
        add_measurement(path, record, text)
        again = load_model(path, scenario)
    except (ValueError, OSError, EvaluationUnavailable) as exc:
        raise UsageError(f"--record: nothing recorded: {exc}") from None
    left = (f" ({len(cal.points) - len(kept)} left out: the model learnt from their play-outs)"
            if len(kept) < len(cal.points) else "")
    print(f"recorded in {path}{left}: {counted(record.positions, 'position')}, mean absolute error "
          f"{record.mae:.3f}", file=sys.stderr)
    return again


def _playouts_from(paths: list[str], model: Any, positions: list[Any], offsets: list[int], seed: int,
                   scenario: Any) -> Any:
    """The play-outs of each position from ``paths``: earlier ``--out`` files (by label) or results
    files of ``cheren simulate --position`` (by the position's code, on the seed this command gives
    that position: ``seed`` plus its offset), with this model's chances."""
    from cheren.files import position_code
    from cheren.players.results_file import ResultsError, read_run
    from cheren.study.evaluation.calibration import Calibration, Point

    by_label: dict[str, tuple[int, int]] = {}
    by_code: dict[str, tuple[str, int, int, int]] = {}  # code: file, seed, Allied wins, games
    bots: set[str] = set()
    counts: set[int] = set()
    seeds: set[int] = set()
    for path in paths:
        if _is_calibration(path):
            cal = _reuse_playouts(path, None, [])
            by_label.update({p.label: (p.wins, p.games) for p in cal.points})
            bots.add(cal.bot)
            counts.add(cal.playouts)
            seeds.add(cal.seed)
            continue
        try:
            played, run = read_run(path)
        except ResultsError as exc:
            raise UsageError(f"--playouts-from {path}: neither the --out of cheren calibrate-eval nor a results file "
                             f"of cheren simulate --position ({exc})") from None
        if run.position is None or run.allied != run.italian or run.partial or run.scenario != scenario.digest:
            raise UsageError(f"--playouts-from {path}: not a whole run of one bot against itself played on from a "
                             "position (cheren simulate --position) with this scenario's data")
        bots.add(run.allied)
        counts.add(run.games)
        by_code[run.position] = (path, run.seed, sum(1 for g in played if g.winner == "allied"), len(played))
    if len(bots) > 1 or len(counts) > 1:
        raise UsageError("--playouts-from: the files' play-outs are of different bots or counts "
                         f"({', '.join(sorted(bots))}; {', '.join(map(str, sorted(counts)))} a position)")
    if seeds - {seed}:
        raise UsageError(f"--playouts-from: play-outs on seed {min(seeds - {seed})}, not --seed {seed}")
    points = []
    for (label, position), offset in zip(positions, offsets, strict=True):
        found = by_code.get(position_code(position))
        if found is not None:
            path, run_seed, wins, games = found
            if run_seed != seed + offset:
                raise UsageError(f"--playouts-from {path}: the play-outs of {label} are on seed {run_seed}; "
                                 f"calibrate-eval gives it seed {seed + offset} (--seed plus its place)")
        elif label in by_label:
            wins, games = by_label[label]
        else:
            raise UsageError(f"--playouts-from: no play-outs of {label}")
        points.append(Point(label, model.chances(position).allied, wins, games, position_code(position)))
    return Calibration(points, bots.pop(), counts.pop(), seed)


def _is_calibration(path: str) -> bool:
    """An earlier ``calibrate-eval --out`` (rather than a results file of games)."""
    import json
    from pathlib import Path

    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and "playouts" in data


def _reuse_playouts(path: str, model: Any, positions: list[Any], option: str = "--playouts-from") -> Any:
    """The play-outs of an earlier ``calibrate-eval --out``, with this model's chances."""
    import json
    from pathlib import Path

    from cheren.files import position_code
    from cheren.study.evaluation.calibration import Calibration, Point

    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))["playouts"]
        done = {str(p["label"]): (int(p["wins"]), int(p["games"])) for p in data["points"]}
        codes = {str(p["label"]): str(p.get("code", "")) for p in data["points"]}
        bot, playouts, seed = str(data["bot"]), int(data["playouts"]), int(data["seed"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"{option} {path}: not the --out of cheren calibrate-eval with play-outs "
                         f"({type(exc).__name__})") from None
    if model is None:  # the play-outs alone (the model's chances left at 0)
        return Calibration([Point(label, 0.0, *counts, codes[label]) for label, counts in done.items()], bot,
                           playouts, seed)
    missing = [label for label, _ in positions if label not in done]
    if missing:
        raise UsageError(f"--playouts-from {path}: no play-outs of {', '.join(missing[:3])}")
    points = [Point(label, model.chances(p).allied, *done[label], position_code(p)) for label, p in positions]
    return Calibration(points, bot, playouts, seed)
