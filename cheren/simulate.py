"""Play many games bot against bot, in parallel, reproducibly.

Each game gets its own seed drawn from the run's seed, so a run is reproducible whatever the
executor and however many workers; the API takes any :class:`concurrent.futures.Executor`, so a
Dask cluster (:mod:`cheren.cluster`) can run large sweeps.  Games go to the executor in batches.
Results keep what an analyst needs (VP, victory level, steps lost, control turn by turn) and, on
request, the action log that replays the game.
"""

from __future__ import annotations

import csv
import io
import json
import random
import statistics
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from cheren.actions import action_from_json
from cheren.bots import make_bot
from cheren.game import Game
from cheren.progress import Progress, game_progress, plain_progress
from cheren.scenario import Scenario, Side, load_scenario
from cheren.state import Position, Status, chit_key
from cheren.views import SideSeat

_SCENARIOS: dict[str, Scenario] = {}


def _scenario(directory: str | None) -> Scenario:
    key = directory or ""
    if key not in _SCENARIOS:
        _SCENARIOS[key] = load_scenario(directory)
    return _SCENARIOS[key]


@dataclass
class GameResult:
    index: int
    seed: int
    allied_bot: str
    italian_bot: str
    allied_vp: int
    level: str
    winner: str  # "allied", "italian" or "draw"
    allied_steps_lost: int
    italian_steps_lost: int
    actions: int
    control: list[list[str]] = field(default_factory=list)  # allied-held towns after each game turn
    log: list[dict[str, Any]] | None = None
    # steps lost by cause ("stacking" 3.1, "attrition" 12.6, "combat" 8.1/11.x, "other"), per side
    losses: dict[str, dict[str, int]] = field(default_factory=dict)
    first_turn: int = 1  # the turn play started in (``control`` holds one entry per turn from it)


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


def game_seeds(seed: int, games: int) -> list[int]:
    rng = random.Random(seed)
    return [rng.getrandbits(31) for _ in range(games)]


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
) -> GameResult:
    """One whole game; the same arguments always give the same result.

    ``start`` (a position code, :mod:`cheren.positions`) plays out that position instead of the
    set-up, with fresh dice from ``seed``; ``viewer`` (a side) first re-deals the chits that side
    cannot see (:func:`redeal_hidden`); ``plan`` (actions as JSON) is applied through the gate
    before the bots take over."""
    s = _scenario(scenario_dir)
    if start is None:
        game = Game(s, seed=seed)
    else:
        from cheren.positions import parse_position_code

        position = parse_position_code(start, s)
        if viewer is not None:
            redeal_hidden(position, Side(viewer), random.Random(seed))
        game = Game.from_position(position, s, seed=seed)
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
    )


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


Task = tuple[int, int, str, str, str | None, bool, str | None, list[dict[str, Any]] | None, str | None]


def _play(args: Task) -> GameResult:
    return play_game(*args)


def _play_batch(batch: list[Task]) -> list[GameResult]:
    return [play_game(*args) for args in batch]


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
) -> list[GameResult]:
    """Play ``games`` games and return their results in game order.

    With no executor, ``jobs`` > 1 runs a process pool of that size and 1 plays in this process.
    ``batch`` games go to the executor as one task (default: :func:`batch_size`).  ``progress``
    is called with (games done, games) as they finish; True shows a bar (:mod:`cheren.progress`:
    a widget in a notebook).  ``start``, ``plan`` and ``viewer`` play out a position (see
    :func:`play_game`); ``on_result`` sees each game as it finishes."""
    if progress is True:
        with game_progress(games) as bar:
            return simulate(games, seed, allied, italian, executor=executor, jobs=jobs, scenario_dir=scenario_dir,
                            keep_log=keep_log, progress=bar, batch=batch, start=start, plan=plan, viewer=viewer,
                            on_result=on_result)
    report = progress if callable(progress) else None
    seeds = game_seeds(seed, games)
    tasks: list[Task] = [
        (i, sd, allied, italian, scenario_dir, keep_log, start, plan, viewer) for i, sd in enumerate(seeds)
    ]
    results: list[GameResult] = []
    if executor is None and jobs <= 1:
        for t in tasks:
            results.append(_play(t))
            if on_result:
                on_result(results[-1])
            if report:
                report(len(results), games)
        return results
    own = executor is None
    pool = executor if executor is not None else ProcessPoolExecutor(max_workers=jobs)
    size = batch if batch is not None else batch_size(games, jobs if own else None)
    try:
        futures = [pool.submit(_play_batch, tasks[i : i + size]) for i in range(0, len(tasks), size)]
        for future in as_completed(futures):
            done = future.result()
            results.extend(done)
            if on_result is not None:
                for r in done:
                    on_result(r)
            if report:
                report(len(results), games)
    finally:
        if own:
            pool.shutdown()
    return sorted(results, key=lambda r: r.index)


def replay_result(result: GameResult, scenario: Scenario) -> Game:
    """Replay a game from its logged actions (needs ``keep_log``)."""
    if result.log is None:
        raise ValueError("this result was played without keep_log; no actions to replay")
    return Game.replay(scenario, result.seed, [action_from_json(a) for a in result.log])


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


def write_results(results: list[GameResult], path: str | Path) -> None:
    target = Path(path)
    if target.suffix.lower() == ".csv":
        buf = io.StringIO()
        fields = [k for k in asdict(results[0]) if k not in ("control", "log", "losses")] if results else []
        writer = csv.DictWriter(buf, fieldnames=[*fields, "control_by_turn", "losses"])
        writer.writeheader()
        for r in results:
            row = {k: v for k, v in asdict(r).items() if k in fields}
            row["control_by_turn"] = json.dumps(r.control)
            row["losses"] = json.dumps(r.losses)
            writer.writerow(row)
        target.write_text(buf.getvalue(), encoding="utf-8")
    else:
        target.write_text(json.dumps([asdict(r) for r in results], indent=1) + "\n", encoding="utf-8")


def read_results(path: str | Path) -> list[GameResult]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return [GameResult(**row) for row in data]


stderr_progress = plain_progress  # the name this module gave it before cheren.progress
