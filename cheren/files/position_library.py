"""The library of positions and the one way to open a position, whatever form it comes in."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from cheren.engine.position import Position
from cheren.files.position_code import PREFIX, parse_position_code
from cheren.files.position_files import SUFFIX, PositionError, PositionRecord, read_position_file
from cheren.scenario.compiled import Scenario
from cheren.scenario.errors import Problem

FOLDER = "positions"


def library_dir(scenario: Scenario) -> Path:
    return Path(scenario.directory) / FOLDER


def library(scenario: Scenario | None = None) -> list[PositionRecord]:
    """Every position of the scenario's library, in the order of the campaign (turn, then
    date, then name)."""
    s = _scenario(scenario)
    folder = library_dir(s)
    records = [read_position_file(f, s) for f in sorted(folder.glob(f"*{SUFFIX}"))] if folder.is_dir() else []
    return sorted(records, key=lambda r: (r.position.turn, r.date, r.name))


def library_names(scenario: Scenario | None = None) -> list[str]:
    s = _scenario(scenario)
    folder = library_dir(s)
    return sorted(f.stem for f in folder.glob(f"*{SUFFIX}")) if folder.is_dir() else []


def open_position(ref: str | Path, scenario: Scenario | None = None) -> PositionRecord:
    """A library name, a position file (``.yaml``), a position save (``.json``) or a position
    code, opened with what is known about it (title, date, narrative for files)."""
    s = _scenario(scenario)
    text = str(ref).strip()
    if not text:
        raise PositionError([Problem("position", None, "empty: give a library name, a position file or a code")])
    if isinstance(ref, str) and text.startswith(PREFIX) and "/" not in text and not text.endswith((".yaml", ".json")):
        position = parse_position_code(text, s)
        return PositionRecord(
            name="code", title="a position from its code", date=_date_of(s, position.turn), position=position
        )
    if isinstance(ref, str) and text in library_names(s):
        return read_position_file(library_dir(s) / f"{text}{SUFFIX}", s)
    path = Path(ref)
    if path.suffix == ".json":
        from cheren.files.position_saves import read_position_save

        position = read_position_save(path, s)
        return PositionRecord(name=path.stem, title=path.name, date=_date_of(s, position.turn), position=position)
    if path.suffix in (".yaml", ".yml") or path.exists():
        return read_position_file(path, s)
    names = library_names(s)
    known = f"; the library has: {', '.join(names)}" if names else ""
    raise PositionError([Problem(str(ref), None, f"not a library position, a position file or a position code{known}")])


def load_position(ref: str | Path, scenario: Scenario | None = None) -> Position:
    """The position named by ``ref``: a library name (``cheren positions`` lists them), a
    position file, a position save or a position code."""
    return open_position(ref, scenario).position


def _date_of(s: Scenario, turn: int) -> dt.date:
    """The first day of the week a turn stands for (scenario.yaml's turn track)."""
    week = next((t.week_of for t in s.info.turns if t.turn == turn), "")
    try:
        return dt.date.fromisoformat(week)
    except ValueError:
        return dt.date(1941, 1, 19) + dt.timedelta(weeks=turn - 1)


def _scenario(scenario: Scenario | None) -> Scenario:
    if scenario is not None:
        return scenario
    from cheren.scenario import load_scenario

    return load_scenario()
