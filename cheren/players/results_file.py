"""The results of a run of games, and the file that keeps them so an interrupted run can be
finished (``--resume``).

A results file written for a run holds the run's record (the command, its parameters and the
scenario's digest), the games finished and the games that failed, and a digest of all of it.
Reading it for ``--resume`` checks every field (pydantic), the digest (an edited file is
refused: its games would mix with games of another run), and each game against the run: its
number, its seed (drawn from the run's seed), its bots and its rules.  Files are JSON (or CSV
for a spreadsheet, which cannot be resumed).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import random
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, ValidationError

from cheren.files.position_saves import SaveError

RESULTS_FORMAT = "cheren-results"
VERSION = 2  # 2 adds the digest and the command's parameters (cheren 28)
MAX_RUN_GAMES = 100_000  # as the command line allows (cheren.cli.checks.MAX_GAMES)
Command = Literal["simulate", "analyse", "compare-variants"]


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
    variants: list[str] = field(default_factory=list)  # the optional rules on (cheren.scenario.variants)


@dataclass
class FailedGame:
    """A game that could not be played to its end (its worker crashed, or the game raised)."""

    index: int
    seed: int
    error: str
    variants: list[str] = field(default_factory=list)  # the optional rules asked for (compare-variants)


def game_seeds(seed: int, games: int) -> list[int]:
    """The seed of each game of a run: drawn from the run's seed, so a run is reproducible."""
    rng = random.Random(seed)
    return [rng.getrandbits(31) for _ in range(games)]


@dataclass
class Run:
    """What a results file says about its run, so ``--resume`` can finish it."""

    games: int
    seed: int
    allied: str
    italian: str
    keep_log: bool = False
    partial: bool = False
    failed: list[FailedGame] = field(default_factory=list)
    variants: list[str] = field(default_factory=list)
    command: Command = "simulate"
    position: str | None = None  # analyse: the code of the position played out
    rule_sets: list[str] | None = None  # compare-variants: the rule sets compared, in order
    scenario: str = ""  # the digest of the scenario data the games were played with

    def parameters(self) -> dict[str, Any]:
        """What makes two runs the same run (not how far each got)."""
        return {k: v for k, v in asdict(self).items() if k not in ("partial", "failed")}



class ResultsError(SaveError):
    """A results file that cannot be used; the message names the file and the field."""


# -- writing ----------------------------------------------------------------------------------------
def digest(data: dict[str, Any]) -> str:
    """The digest of a results file's content (everything but the digest itself)."""
    body = {k: v for k, v in data.items() if k != "digest"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def results_json(results: list[GameResult], run: Run | None = None) -> str:
    if run is None:
        return json.dumps([asdict(r) for r in results], indent=1) + "\n"
    data: dict[str, Any] = {
        "format": RESULTS_FORMAT,
        "version": VERSION,
        "run": {k: v for k, v in asdict(run).items() if k != "failed"},
        "failed": [asdict(f) for f in run.failed],
        "games": [asdict(r) for r in results],
    }
    data["digest"] = digest(data)
    return json.dumps(data, indent=1) + "\n"


def _cell(value: Any) -> Any:
    """A CSV cell a spreadsheet will not run as a formula (=, +, -, @ lead a formula)."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def results_csv(results: list[GameResult]) -> str:
    buf = io.StringIO()
    fields = [k for k in asdict(results[0]) if k not in ("control", "log", "losses")] if results else []
    writer = csv.DictWriter(buf, fieldnames=[*fields, "control_by_turn", "losses"])
    writer.writeheader()
    for r in results:
        row = {k: _cell(v) for k, v in asdict(r).items() if k in fields}
        row["control_by_turn"] = _cell(json.dumps(r.control))
        row["losses"] = _cell(json.dumps(r.losses))
        writer.writerow(row)
    return buf.getvalue()


def write_results(results: list[GameResult], path: str | Path, run: Run | None = None) -> None:
    """Write results as JSON (with the run's record and digest when given) or CSV, atomically;
    ``-`` is standard output (JSON)."""
    from cheren.files.outputs import write_output

    csv_file = str(path) != "-" and Path(path).suffix.lower() == ".csv"
    write_output(path, results_csv(results) if csv_file else results_json(results, run))


# -- reading ----------------------------------------------------------------------------------------
class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


Count = StrictInt  # a whole number, never a bool or a text of digits
Name = Field(max_length=200)


class _Game(_Strict):
    index: Count = Field(ge=0, lt=MAX_RUN_GAMES)
    seed: Count = Field(ge=0, lt=2**31)
    allied_bot: StrictStr = Name
    italian_bot: StrictStr = Name
    allied_vp: Count = Field(ge=0, le=1000)
    level: StrictStr = Name
    winner: Literal["allied", "italian", "draw"]
    allied_steps_lost: Count = Field(ge=-1000, le=1000)
    italian_steps_lost: Count = Field(ge=-1000, le=1000)
    actions: Count = Field(ge=0)
    control: list[list[StrictStr]] = Field(default_factory=list, max_length=20)
    log: list[dict[str, Any]] | None = None
    losses: dict[StrictStr, dict[StrictStr, Count]] = Field(default_factory=dict, max_length=2)
    first_turn: Count = Field(1, ge=1, le=12)
    variants: list[StrictStr] = Field(default_factory=list, max_length=20)


class _Failed(_Strict):
    index: Count = Field(ge=0, lt=MAX_RUN_GAMES)
    seed: Count = Field(ge=0, lt=2**31)
    error: StrictStr = Field(max_length=2000)
    variants: list[StrictStr] = Field(default_factory=list, max_length=20)


class _Run(_Strict):
    games: Count = Field(ge=1, le=MAX_RUN_GAMES)
    seed: Count = Field(ge=0, le=2**63 - 1)
    allied: StrictStr = Name
    italian: StrictStr = Name
    keep_log: StrictBool = False
    partial: StrictBool = False
    variants: list[StrictStr] = Field(default_factory=list, max_length=20)
    command: Command = "simulate"
    position: StrictStr | None = Field(None, max_length=4096)
    rule_sets: list[StrictStr] | None = Field(None, max_length=20)
    scenario: StrictStr = Field("", max_length=200)


class _File(_Strict):
    format: Literal["cheren-results"]
    version: Literal[2]
    run: _Run
    failed: list[_Failed] = Field(max_length=MAX_RUN_GAMES)
    games: list[_Game] = Field(max_length=4 * MAX_RUN_GAMES)  # compare-variants: up to 4 rule sets
    digest: StrictStr


def read_results(path: str | Path) -> list[GameResult]:
    """The games of a results file (a plain list, or a run's file), every field checked."""
    text = _read(path)
    data = _parse(text, path)
    rows = data.get("games") if isinstance(data, dict) else data
    if isinstance(data, dict) and data.get("format") != RESULTS_FORMAT:
        raise ResultsError(f"{path}: not a cheren results file")
    if not isinstance(rows, list):
        raise ResultsError(f"{path}: games: must be a list")
    try:
        return [GameResult(**_Game.model_validate(row).model_dump()) for row in rows]
    except ValidationError as exc:
        raise ResultsError(f"{path}: games{_where(exc)}") from None


def read_run(path: str | Path) -> tuple[list[GameResult], Run]:
    """The games and the run of a results file, for ``--resume``: every field, the digest and
    each game checked against the run; anything else is a ResultsError saying why."""
    text = _read(path)
    data = _parse(text, path)
    if not isinstance(data, dict) or data.get("format") != RESULTS_FORMAT:
        raise ResultsError(f"{path}: not a cheren results file of a run (CSV results and plain lists of games "
                           "cannot be resumed)")
    if data.get("version") != VERSION:
        raise ResultsError(f"{path}: written by an older cheren (version {str(data.get('version'))[:10]}, "
                           f"without a digest); it cannot be resumed: run it again")
    try:
        model = _File.model_validate(data)
    except ValidationError as exc:
        raise ResultsError(f"{path}: {_where(exc).lstrip('.')}") from None
    if model.digest != digest(data):
        raise ResultsError(f"{path}: its digest does not match its content: the file was edited or damaged "
                           "since cheren wrote it; its games cannot be trusted to belong to one run (run it again)")
    r = model.run
    run = Run(r.games, r.seed, r.allied, r.italian, r.keep_log, r.partial,
              [FailedGame(**f.model_dump()) for f in model.failed], list(r.variants), r.command, r.position,
              None if r.rule_sets is None else list(r.rule_sets), r.scenario)
    games = [GameResult(**g.model_dump()) for g in model.games]
    _check_against_run(games, run, str(path))
    return games, run


def _check_against_run(games: list[GameResult], run: Run, source: str) -> None:
    """Each game (and each failure) is one of the run's: its number, its seed drawn from the
    run's seed, the run's bots, once only (once per rule set for compare-variants)."""
    seeds = game_seeds(run.seed, run.games)
    seen: set[tuple[int, tuple[str, ...]]] = set()

    def fail(where: str, message: str) -> ResultsError:
        return ResultsError(f"{source}: {where}: {message}; the file does not belong to this run")

    for i, g in enumerate(games):
        where = f"games[{i}]"
        if not g.index < run.games:
            raise fail(f"{where}.index", f"game {g.index} of a run of {run.games} games")
        if g.seed != seeds[g.index]:
            raise fail(f"{where}.seed", f"game {g.index} of this run has seed {seeds[g.index]}, not {g.seed}")
        if (g.allied_bot, g.italian_bot) != (run.allied, run.italian):
            raise fail(where, f"played by {g.allied_bot} and {g.italian_bot}, not {run.allied} and {run.italian}")
        if run.rule_sets is None and sorted(g.variants) != sorted(run.variants):
            raise fail(f"{where}.variants", f"{g.variants}, not the run's {run.variants}")
        key = (g.index, tuple(sorted(g.variants)))
        if key in seen:
            raise fail(f"{where}.index", f"game {g.index} is listed twice")
        seen.add(key)
    for i, f in enumerate(run.failed):
        if not f.index < run.games or f.seed != seeds[f.index]:
            raise fail(f"failed[{i}]", f"game {f.index} with seed {f.seed} is not a game of this run")


def _read(path: str | Path) -> str:
    from cheren.files.position_saves import read_save

    return read_save(path)


def _parse(text: str, path: str | Path) -> Any:
    try:
        return json.loads(text)
    except RecursionError:
        raise ResultsError(f"{path}: nested too deeply to be a results file") from None
    except ValueError:
        raise ResultsError(f"{path}: not a JSON results file (CSV results cannot be resumed)") from None


def _where(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err["loc"])
    message = "unknown field" if err["type"] == "extra_forbidden" else str(err["msg"])
    more = f" (and {exc.error_count() - 1} more problems)" if exc.error_count() > 1 else ""
    return f"{where}: {message}{more}"
