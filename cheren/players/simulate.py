"""Play many games bot against bot, in parallel, reproducibly.

Each game gets its own seed drawn from the run's seed, so a run is reproducible whatever the
executor and however many workers; the API takes any :class:`concurrent.futures.Executor`, so a
Dask cluster (:mod:`cheren.players.cluster`) can run large sweeps.  Games go to the executor in batches.
Results keep what an analyst needs (VP, victory level, steps lost, control turn by turn) and, on
request, the action log that replays the game.
"""

from __future__ import annotations

import random
import statistics
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from cheren.engine.actions import action_from_json
from cheren.engine.game import Game
from cheren.engine.position import Position, Status, chit_key
from cheren.players.bots import make_bot
from cheren.players.progress_bar import Progress, game_progress, plain_progress
from cheren.players.results_file import (
    RESULTS_FORMAT,
    FailedGame,
    GameResult,
    Run,
    game_seeds,
    read_results,
    read_run,
    results_csv,
    results_json,
    write_results,
)
from cheren.players.views import SideSeat
from cheren.scenario import Scenario, Side, load_scenario
from cheren.scenario.variants import check_variants

_SCENARIOS: dict[str, Scenario] = {}


def _scenario(directory: str | None) -> Scenario:
    key = directory or ""
    if key not in _SCENARIOS:
        _SCENARIOS[key] = load_scenario(directory)
    return _SCENARIOS[key]


def loss_cause(first_rule: str) -> str:
    if first_rule == "3.1":
        return "stacking"
    if first_rule == "12.6":
        return "attrition"
    if first_rule.startswith("11.") or first_rule in ("8.1", "8.5"):
        return "combat"
    return "other"


def step_losses(game: Game) -> dict[str, dict[str, int]]:
    """Steps each side lost in ``game``, by cause (the first rule each loss cites)."""
    out: dict[str, Counter[str]] = {side.value: Counter() for side in Side}
    for entry in game.log:
        for loss in entry.losses:
            out[loss.side.value][loss_cause(loss.rules[0] if loss.rules else "")] += loss.steps
    return {side: dict(sorted(causes.items())) for side, causes in out.items()}


def steps_remaining(game: Game, side: Side) -> int:
    p = game.position
    return sum(
        p.steps_left(uid)
        for uid, unit in p.units.items()
        if p.scenario.units[uid].side is side and unit.status is not Status.ELIMINATED
    )


def play_game(
    index: int,
    seed: int,
    allied: str,
    italian: str,
    scenario_dir: str | None = None,
    keep_log: bool = False,
    start: str | None = None,
    plan: list[dict[str, Any]] | None = None,
    viewer: str | None = None,
    variants: tuple[str, ...] = (),
) -> GameResult:
    """One whole game; the same arguments always give the same result.

    ``start`` (a position code, :mod:`cheren.files`) plays out that position instead of the
    set-up, with fresh dice from ``seed``; ``viewer`` (a side) first re-deals the chits that side
    cannot see (:func:`redeal_hidden`); ``plan`` (actions as JSON) is applied through the gate
    before the bots take over."""
    s = _scenario(scenario_dir)
    if variants:  # optional rules (cheren.scenario.variants) on top of the scenario's own
        s = s.with_variants(set(s.variants) | set(variants))
    game = starting_game(s, seed, start, viewer, undo=False)  # played through once: nothing is undone
    bots = {Side.ALLIED: make_bot(allied, seed * 2 + 1), Side.ITALIAN: make_bot(italian, seed * 2 + 2)}
    seats = {side: SideSeat(game, side) for side in Side}
    planner = game.moment.acting
    for data in plan or ():
        action = action_from_json(data)
        # the plan is the side to move's: the other side's decisions on the way (a chit window
        # opening the phase, a retreat after an attack) are its bot's
        while game.pending is not None and game.acting is not planner and not game.check(action).ok:
            other = game.acting
            game.apply(bots[other].choose(seats[other]).action)
        game.apply(action)
    start_steps = {side: steps_remaining(game, side) for side in Side}
    control: list[list[str]] = []
    first_turn = turn = game.turn
    while not game.over:
        side = game.acting
        choice = bots[side].choose(seats[side])
        game.apply(choice.action)
        if game.turn != turn:
            control.append(sorted(game.position.allied_control))
            turn = game.turn
    control.append(sorted(game.position.allied_control))
    vp = game.position.allied_vp()
    band = next(b for b in s.info.victory if (b.min_vp or 0) <= vp and (b.max_vp is None or vp <= b.max_vp))
    return GameResult(
        index=index,
        seed=seed,
        allied_bot=allied,
        italian_bot=italian,
        allied_vp=vp,
        level=band.level,
        winner=band.winner.value if band.winner is not None else "draw",
        allied_steps_lost=start_steps[Side.ALLIED] - steps_remaining(game, Side.ALLIED),
        italian_steps_lost=start_steps[Side.ITALIAN] - steps_remaining(game, Side.ITALIAN),
        actions=len(game.log),
        control=control,
        log=[a.to_json() for a in game.actions()] if keep_log else None,
        losses=step_losses(game),
        first_turn=first_turn,
        variants=sorted(s.variants),
    )


def starting_game(scenario: Scenario, seed: int, start: str | None = None, viewer: str | None = None, *,
                  to_move: bool = False, undo: bool = True) -> Game:
    """The game a play begins with: the set-up, or the position of the code ``start`` with the
    chits ``viewer`` cannot see dealt again from ``seed`` (:func:`redeal_hidden`; ``to_move``:
    the viewer is the side to move, as :func:`start_viewer` says); the same arguments always give
    the same game, so a logged game replays from it (``undo`` as in :class:`Game`)."""
    if start is None:
        return Game(scenario, seed=seed, undo=undo)
    from cheren.files import parse_position_code

    position = parse_position_code(start, scenario)
    if to_move:
        viewer = position.side.value
    if viewer is not None:
        redeal_hidden(position, Side(viewer), random.Random(seed))
    return Game.from_position(position, seed=seed, undo=undo)


def start_viewer(start: str, scenario: Scenario) -> str:
    """Whose hidden chits a run from the position ``start`` deals again: the side to move's, as
    :func:`cheren.study.analysis.evaluate.evaluate` and ``cheren simulate --position`` do."""
    from cheren.files import parse_position_code

    return parse_position_code(start, scenario).side.value


def redeal_hidden(position: Position, viewer: Side, rng: random.Random) -> None:
    """Deal again what ``viewer`` cannot see (5.0, 5.1): the enemy's hand is refilled, chit for
    chit, from the enemy's chits among that hand and the cup; the rest go back to the cup.  A
    play-out then does not know what the side to move could not know."""
    c = position.chits
    enemy = viewer.enemy
    s = position.scenario
    unseen = [*c.hands[enemy], *c.cup]
    own = sorted(x for x in unseen if s.chits[chit_key(x)].side is enemy)
    rng.shuffle(own)
    hand = own[: len(c.hands[enemy])]
    c.hands[enemy] = hand
    c.cup = sorted(x for x in unseen if x not in hand)


Task = tuple[
    int, int, str, str, str | None, bool, str | None, list[dict[str, Any]] | None, str | None, tuple[str, ...]
]


class SimulationInterrupted(Exception):
    """Ctrl-C or SIGTERM during a run: the games finished so far (in game order) and the failures."""

    def __init__(self, results: list[GameResult], failed: list[FailedGame]) -> None:
        super().__init__(f"interrupted after {len(results)} games")
        self.results = results
        self.failed = failed


def _play(args: Task) -> GameResult | FailedGame:
    try:
        return play_game(*args)
    except Exception as exc:  # one game's failure must not cost the others (reported as failed)
        return FailedGame(args[0], args[1], f"{type(exc).__name__}: {str(exc)[:300]}", list(args[9]))


def _play_batch(batch: list[Task]) -> list[GameResult | FailedGame]:
    global _FROZEN
    out = [_play(args) for args in batch]
    if _WORKER and not _FROZEN:
        # What the first games made that lives on (the scenario, its tables, the modules) is set
        # aside from the collector, which then walks only what later games make (see _tune_gc).
        import gc

        gc.collect()
        gc.freeze()
        _FROZEN = True
    return out


_WORKER = False  # this process is a pool's worker (set by its initializer)
_FROZEN = False


def _tune_gc() -> None:
    """A worker plays game after game: most objects a game makes die young (the play-outs'
    positions, moves and scores), and the collector's default thresholds walked them far more
    often than they pay.  Collecting the youngest generation every 20,000 allocations instead of
    700 changes no game (a collection frees only what nothing reaches) and took a planner mirror
    game about a tenth less processor time (with the freeze above; coordinator's measurement,
    session 31).  Only in pool workers: a user's own process keeps its settings."""
    import gc

    global _WORKER
    _WORKER = True
    gc.set_threshold(20000, 50, 50)


def batch_size(games: int, workers: int | None) -> int:
    """Games per task: about eight tasks per worker (or a hundred tasks when the executor's size
    is unknown), so a scheduler handles few tasks and the workers still share the load evenly."""
    tasks = 8 * workers if workers else 100
    return max(1, -(-games // tasks))


def simulate(
    games: int,
    seed: int,
    allied: str = "random",
    italian: str = "random",
    *,
    executor: Executor | None = None,
    jobs: int = 1,
    scenario_dir: str | None = None,
    keep_log: bool = False,
    progress: Progress | bool | None = None,
    batch: int | None = None,
    start: str | None = None,
    plan: list[dict[str, Any]] | None = None,
    viewer: str | None = None,
    on_result: Callable[[GameResult], None] | None = None,
    only: Iterable[int] | None = None,
    failed: list[FailedGame] | None = None,
    variants: Iterable[str] = (),
) -> list[GameResult]:
    """Play ``games`` games and return their results in game order.

    With no executor, ``jobs`` > 1 runs a process pool of that size and 1 plays in this process.
    ``batch`` games go to the executor as one task (default: :func:`batch_size`).  ``progress``
    is called with (games done, games) as they finish; True shows a bar (:mod:`cheren.players.progress_bar`:
    a widget in a notebook).  ``start``, ``plan`` and ``viewer`` play out a position (see
    :func:`play_game`); ``on_result`` sees each game as it finishes.  ``only`` plays just those
    game numbers of the run (the others' seeds are drawn all the same: ``--resume``).

    A game that fails (its worker crashed, or the game raised) goes into ``failed`` when it is
    given, else raises :class:`SimulationError`.  Ctrl-C stops the run at once: pending games are
    cancelled, the workers stopped, and :class:`SimulationInterrupted` carries what finished."""
    if progress is True:
        with game_progress(games) as bar:
            return simulate(games, seed, allied, italian, executor=executor, jobs=jobs, scenario_dir=scenario_dir,
                            keep_log=keep_log, progress=bar, batch=batch, start=start, plan=plan, viewer=viewer,
                            on_result=on_result, only=only, failed=failed, variants=variants)
    report = progress if callable(progress) else None
    seeds = game_seeds(seed, games)
    wanted = set(range(games)) if only is None else {i for i in only if 0 <= i < games}
    chosen = tuple(sorted(check_variants(variants)))
    tasks: list[Task] = [
        (i, sd, allied, italian, scenario_dir, keep_log, start, plan, viewer, chosen) for i, sd in enumerate(seeds)
        if i in wanted
    ]
    results: list[GameResult] = []
    failures: list[FailedGame] = []

    def take(outcome: GameResult | FailedGame) -> None:
        if isinstance(outcome, FailedGame):
            failures.append(outcome)
        else:
            results.append(outcome)
            if on_result:
                on_result(outcome)
        if report:
            report(len(results) + len(failures), len(tasks))

    try:
        if executor is None and jobs <= 1:
            for t in tasks:
                take(_play(t))
        else:
            _run_pool(tasks, executor, jobs, batch, take)
    except KeyboardInterrupt:
        raise SimulationInterrupted(sorted(results, key=lambda r: r.index),
                                    sorted(failures, key=lambda f: f.index)) from None
    if failures:
        if failed is None:
            raise SimulationError(failures)
        failed.extend(sorted(failures, key=lambda f: f.index))
    return sorted(results, key=lambda r: r.index)


class SimulationError(RuntimeError):
    def __init__(self, failures: list[FailedGame]) -> None:
        self.failures = failures
        first = failures[0]
        super().__init__(f"{len(failures)} game(s) failed; game {first.index} (seed {first.seed}): {first.error}")


def _run_pool(
    tasks: list[Task],
    executor: Executor | None,
    jobs: int,
    batch: int | None,
    take: Callable[[GameResult | FailedGame], None],
) -> None:
    """Run the tasks on ``executor`` (or a process pool of ``jobs``).  A worker that dies breaks
    a process pool and every task it still held: those games are played again, halving the
    suspects in fresh pools until the game that kills its worker is alone, so only that game is
    lost (reported as failed)."""
    own = executor is None
    size = batch if batch is not None else batch_size(len(tasks), jobs if own else None)
    broken = _run_batches([tasks[i : i + size] for i in range(0, len(tasks), size)], executor, jobs, take)
    suspects = [broken] if broken else []
    while suspects:
        group = suspects.pop()
        again = _run_batches([[t] for t in group], None, jobs, take)
        if len(again) == 1:
            take(FailedGame(again[0][0], again[0][1], "the worker process running this game died", list(again[0][9])))
        elif again:
            half = len(again) // 2
            suspects += [again[:half], again[half:]]


def _run_batches(
    batches: list[list[Task]], executor: Executor | None, jobs: int, take: Callable[[GameResult | FailedGame], None]
) -> list[Task]:
    """Run the batches; the tasks of batches whose worker died, to be played again."""
    own = executor is None
    pool = executor if executor is not None else ProcessPoolExecutor(max_workers=jobs, initializer=_quiet_worker)
    broken: list[Task] = []
    futures = {pool.submit(_play_batch, b): b for b in batches}
    try:
        for future in as_completed(futures):
            try:
                done = future.result()
            except BrokenProcessPool:
                broken += futures[future]
                continue
            for outcome in done:
                take(outcome)
    except BaseException:
        for f in futures:
            f.cancel()
        if own:
            _stop(pool)
        raise
    if own:
        pool.shutdown()
    return sorted(broken)


def _quiet_worker() -> None:
    """Workers leave Ctrl-C to the parent (a terminal sends it to the whole group), end at once
    on SIGTERM, whatever handler they inherited, and end when their parent is gone."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    die_with_parent()
    _tune_gc()


def die_with_parent(poll: float = 0.5) -> None:
    """End this worker process soon after its parent ends, however the parent ended (a SIGKILL
    runs no clean-up: without this its workers would play on as orphans).  A daemon thread
    watches the parent's process id: an orphan is adopted by another process, so the id changes."""
    import os
    import threading
    import time

    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(poll)
            if os.getppid() != parent:
                os._exit(1)  # nothing to save: the parent that would take the results is gone

    threading.Thread(target=watch, name="cheren-parent-watch", daemon=True).start()


def worker_pool(jobs: int, *, background: bool = False) -> ProcessPoolExecutor:
    """A pool of ``jobs`` worker processes for :func:`simulate` to run on, started afresh (a
    forkserver, not a fork of a process that may hold threads, such as a notebook's kernel);
    its workers leave Ctrl-C to the parent.  ``background``: the workers yield the processor to
    everything else (what a user is clicking on comes first).  End it with :func:`stop_pool`."""
    import multiprocessing

    return ProcessPoolExecutor(max_workers=jobs, initializer=_background_worker if background else _quiet_worker,
                               mp_context=multiprocessing.get_context("forkserver"))


def _background_worker() -> None:
    import os

    _quiet_worker()
    os.nice(15)


def stop_pool(pool: Executor) -> None:
    """Stop a process pool now: cancel what has not started and end the workers (no orphans)."""
    _stop(pool)


def _stop(pool: Executor) -> None:
    """Stop a process pool now: cancel what has not started and end the workers (no orphans)."""
    running = getattr(pool, "_processes", None) or {}  # None once the pool has been shut down
    processes = list(running.values()) if isinstance(pool, ProcessPoolExecutor) else []
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in processes:
        if proc.is_alive():
            proc.terminate()
    for proc in processes:
        proc.join(timeout=1)
        if proc.is_alive():
            proc.kill()
            proc.join(timeout=1)
    # let the pool's own thread see its workers gone and close its pipes now: left running, it
    # races the interpreter's exit and prints a traceback there ("Exception ignored in threading")
    manager = getattr(pool, "_executor_manager_thread", None)
    if manager is not None:
        manager.join(timeout=5)


def replay_result(result: GameResult, scenario: Scenario, start: str | None = None) -> Game:
    """Replay a game from its logged actions (needs ``keep_log``); ``start``: the code of the
    position its run played out (:attr:`Run.position`), the side to move's hidden chits dealt
    again as the run dealt them."""
    if result.log is None:
        raise ValueError("this result was played without keep_log; no actions to replay")
    if start is None:
        return Game.replay(scenario, result.seed, [action_from_json(a) for a in result.log])
    game = starting_game(scenario, result.seed, start, to_move=True)
    for data in result.log:
        game.apply(action_from_json(data))
    return game


def summary(results: Iterable[GameResult]) -> str:
    rows = list(results)
    if not rows:
        return "no games"
    n = len(rows)
    levels = Counter(r.level for r in rows)
    winners = Counter(r.winner for r in rows)

    def mean(xs: list[int]) -> float:
        return sum(xs) / n

    vps = [r.allied_vp for r in rows]
    lines = [
        f"{n} games, {rows[0].allied_bot} (Allies) vs {rows[0].italian_bot} (Italians)",
        f"allied VP: mean {mean(vps):.1f}, median {statistics.median(vps):g}, min {min(vps)}, max {max(vps)}",
        f"steps lost: allied {mean([r.allied_steps_lost for r in rows]):.1f}, "
        f"italian {mean([r.italian_steps_lost for r in rows]):.1f} per game",
        f"winners: allied {winners['allied']}, italian {winners['italian']}, draw {winners['draw']}",
        *_loss_lines(rows),
        "",
        "| victory level | games | share |",
        "|---|---|---|",
    ]
    # Levels in the order of the victory scale (14.0), which is the order of their VP.
    lowest = {level: min(r.allied_vp for r in rows if r.level == level) for level in levels}
    for level, count in sorted(levels.items(), key=lambda kv: lowest[kv[0]]):
        lines.append(f"| {level} | {count} | {count / n:.0%} |")
    return "\n".join(lines)


def _loss_lines(rows: list[GameResult]) -> list[str]:
    if not any(r.losses for r in rows):
        return []
    lines = []
    for side in Side:
        total: Counter[str] = Counter()
        for r in rows:
            total.update(r.losses.get(side.value, {}))
        parts = ", ".join(f"{cause} {total[cause] / len(rows):.1f}" for cause in sorted(total))
        lines.append(f"{side.adjective.lower()} steps lost per game by cause (before replacements): {parts or 'none'}")
    return lines


stderr_progress = plain_progress  # the name this module gave it before cheren.players.progress_bar
# results and their files live in cheren.players.results_file; these names stay importable from here
__all__ = [
    "RESULTS_FORMAT", "FailedGame", "GameResult", "Run", "SimulationError", "SimulationInterrupted", "game_seeds",
    "play_game", "read_results", "read_run", "redeal_hidden", "replay_result", "results_csv", "results_json",
    "simulate", "start_viewer", "starting_game", "summary", "write_results",
]
