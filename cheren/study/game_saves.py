"""Whole games as versioned JSON: the seed, the starting position and the action log.

Loading replays the log through the legality gate, so a save made mid-phase, even in the middle
of a decision, comes back exactly, and a tampered log is refused with the action at fault."""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cheren.engine.actions import action_from_json
from cheren.engine.game import Game, IllegalAction
from cheren.files.position_files import PositionRecord
from cheren.files.position_library import _date_of, open_position
from cheren.files.position_problems import canonical
from cheren.files.position_saves import (
    SaveError,
    loads,
    parse_json_object,
    position_to_dict,
    read_save,
    write_atomically,
)
from cheren.scenario.compiled import Scenario
from cheren.scenario.models import Side
from cheren.study.game_file import TreeFile, read_game_file
from cheren.study.variations import Line, Study, TreeError

FORMAT = "cheren-game"
VERSION = 2  # 2 adds the variation tree (cheren.study.variations); version-1 saves load as one line
# A loaded game can undo this many of its last actions; the rest of a long log is replayed
# without undo history, so loading stays flat in memory however long the log.
UNDO_AFTER_LOAD = 500


def game_to_dict(game: Game | Study, opponent: tuple[str, Side] | None = None,
                 seat: tuple[str, str | None] | None = None) -> dict[str, Any]:
    """A game, or a study with all its lines (version 2): the seed, the start, the current
    line's actions and final position, and for a study every line of the tree.  ``opponent``:
    the bot that plays one side (its name in :data:`cheren.players.bots.BOTS` and its side),
    kept as ``"opponent": {"bot": ..., "side": ...}``; a save without one is hot-seat, and a
    reader that does not know the field ignores it.  ``seat``: the seating ("analysis" or
    "hot-seat") and the library position opened, kept as ``"study": {"seating": ..., "position": ...}``."""
    study = game if isinstance(game, Study) else None
    current = study.game if study is not None else game
    assert isinstance(current, Game)
    if study is not None and len(current.log) < study.length():
        current = study.build(study.current)  # stepped back along its moves: the line is kept whole
    out: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "seed": current.seed,
        "start": position_to_dict(current.start),
        "actions": [a.to_json() for a in current.actions()],
        "final": position_to_dict(current.position),
    }
    if current.scenario.variants:  # only then: saves of the standard rules stay as they were
        out["variants"] = sorted(current.scenario.variants)
    if study is not None:
        out["tree"] = study.to_json()
    if opponent is not None:
        out["opponent"] = {"bot": opponent[0], "side": opponent[1].value}
    if seat is not None:
        out["study"] = {"seating": seat[0], "position": seat[1]}
    return out


def dumps_game(game: Game | Study, opponent: tuple[str, Side] | None = None,
               seat: tuple[str, str | None] | None = None) -> str:
    return json.dumps(game_to_dict(game, opponent, seat), indent=1, ensure_ascii=False) + "\n"


def save_game(game: Game | Study, path: str | Path, opponent: tuple[str, Side] | None = None,
              seat: tuple[str, str | None] | None = None) -> None:
    write_atomically(path, dumps_game(game, opponent, seat))


def read_opponent(path: str | Path) -> tuple[str, Side] | None:
    """The bot a save says plays one side, or None (hot-seat, or a save made before the field)."""
    return loads_opponent(read_save(path), source=str(path))


def loads_opponent(text: str, source: str = "<game>") -> tuple[str, Side] | None:
    raw = parse_json_object(text, source).get("opponent")
    if raw is None:
        return None
    sides = {side.value: side for side in Side}
    if not isinstance(raw, dict) or not isinstance(raw.get("bot"), str) or raw.get("side") not in sides:
        raise SaveError(f"{source}: opponent: must be {{\"bot\": NAME, \"side\": \"allied\" or \"italian\"}}")
    return raw["bot"][:60], sides[raw["side"]]


def read_study(path: str | Path) -> tuple[str, str | None] | None:
    """The seating a save was made in and the library position it was opened from, or None (a
    save made before the field, or by a cheren that does not write it)."""
    raw = parse_json_object(read_save(path), str(path)).get("study")
    if raw is None:
        return None
    seatings = ("analysis", "hot-seat")
    name = raw.get("position") if isinstance(raw, dict) else None
    if not isinstance(raw, dict) or raw.get("seating") not in seatings or not (name is None or isinstance(name, str)):
        raise SaveError(f'{path}: study: must be {{"seating": "analysis" or "hot-seat", "position": NAME or null}}')
    return str(raw["seating"]), name[:60] if name is not None else None


def load_game(path: str | Path, scenario: Scenario) -> Game:
    """The game of a save (for a study, its current line)."""
    return loads_game(read_save(path), scenario, source=str(path))


@dataclass
class Autosave:
    """What the app finds in its autosave: the study to take up, or what is wrong with the file
    (said to the player) and whether the app may go on autosaving to that name."""

    study: Study | None
    problem: str | None = None
    keep_saving: bool = True


def take_up_autosave(path: str | Path, scenario: Scenario) -> Autosave:
    """The game autosaved in ``path``.  A file that cannot be taken up, for whatever reason, is
    moved aside (never deleted) and the app starts a new game: the message names the file, the
    reason and where it is kept.  If it cannot even be moved, it stays and autosave is off."""
    p = Path(path)
    if not p.exists() and not p.is_symlink():
        return Autosave(None)
    try:
        return Autosave(load_study(p, scenario))
    except SaveError as exc:
        reason = str(exc).removeprefix(f"{p}: ")
    except Exception as exc:  # a fault of cheren's own must not keep the app from opening either
        reason = f"{type(exc).__name__}: {str(exc)[:300]} (a fault in cheren: please report it with the file)"
    try:
        aside = _aside(p)
        p.rename(aside)
    except OSError as exc:
        return Autosave(None, f"The autosaved game {p.name} could not be read ({reason}), nor moved aside "
                              f"({exc.strerror or exc}): it stays as it is, this new game is not autosaved.", False)
    return Autosave(None, f"The autosaved game {p.name} could not be read ({reason}); it is kept as {aside.name} "
                          "and a new game starts.")


def _aside(path: Path) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for n in range(1, 1000):
        name = path.with_name(f"{path.stem}.unreadable-{stamp}{'' if n == 1 else f'-{n}'}{path.suffix}")
        if not name.exists() and not name.is_symlink():
            return name
    raise OSError(f"too many unreadable copies of {path.name} beside it")


def open_position_or_game(ref: str | Path, scenario: Scenario) -> PositionRecord:
    """What the editor opens: anything :func:`cheren.files.open_position` opens (a library name,
    a position file or save, a code) and a game save or autosave, whose current line's position
    it takes."""
    text = str(ref).strip()
    path = Path(text)
    if text and path.suffix == ".json" and path.exists():
        raw_text = read_save(path)
        raw = parse_json_object(raw_text, str(path))
        if raw.get("format") == FORMAT:
            game = loads_game(raw_text, scenario, source=str(path))
            name = re.sub(r"[^a-z0-9-]+", "-", path.stem.lower()).strip("-") or "game"
            return PositionRecord(name=name, title=f"{path.name}: {game.status()}",
                                  date=_date_of(scenario, game.turn), position=canonical(game.position))
    return open_position(ref, scenario)


def load_study(path: str | Path, scenario: Scenario) -> Study:
    """The whole tree of a save; a save without one (version 1) is a study of one line."""
    return loads_study(read_save(path), scenario, source=str(path))


def loads_game(text: str, scenario: Scenario, source: str = "<game>") -> Game:
    return loads_study(text, scenario, source).game


def loads_study(text: str, scenario: Scenario, source: str = "<game>") -> Study:
    raw = parse_json_object(text, source)
    if raw.get("format") != FORMAT:
        raise SaveError(f"{source}: format: not a cheren game file")
    version = raw.get("version")
    if version not in (1, VERSION):
        raise SaveError(
            f"{source}: version: this cheren reads game files of versions 1 to {VERSION}, "
            f"the file is version {str(version)[:20]!r}"
        )
    data = read_game_file(raw, source)
    from cheren.scenario.variants import VariantError

    try:
        scenario = scenario.with_variants(data.variants)
    except VariantError as exc:
        raise SaveError(f"{source}: {exc}") from None
    start = loads(json.dumps(data.start), scenario, source=f"{source}: start")
    if version == 1 or data.tree is None:
        game = Game(scenario, data.seed, start)
        _replay(game, data.actions, f"{source}: actions")
        study = Study(game)
    else:
        study = _study(scenario, data.seed, start, data.tree, f"{source}: tree")
    if position_to_dict(study.game.position) != data.final:
        raise SaveError(
            f"{source}: final: replaying the actions does not give the saved position "
            "(the file was edited, or made with different rules)"
        )
    return study


def _replay(game: Game, actions: Any, where: str, first: int = 0) -> None:
    first_kept = len(actions) - UNDO_AFTER_LOAD
    for i, data in enumerate(actions):
        try:
            game.apply(action_from_json(data), history=i >= first_kept)
        except IllegalAction as exc:
            raise SaveError(f"{where}[{i}]: {exc}") from exc
        except (ValueError, TypeError, KeyError) as exc:
            raise SaveError(f"{where}[{i}]: {str(exc)[:300]}") from None


def _study(scenario: Scenario, seed: int, start: Any, tree: TreeFile, where: str) -> Study:
    """A study from the ``tree`` of a version-2 save (its fields and shape already checked,
    :func:`cheren.study.game_file.check_tree`): every line replayed through the gate."""
    lines: list[Line] = []
    for k, data in enumerate(tree.lines):
        try:
            actions = [action_from_json(a) for a in data.actions]
        except (ValueError, TypeError, KeyError) as exc:
            raise SaveError(f"{where}.lines[{k}].actions: {str(exc)[:300]}") from None
        reseeds = {int(i): s for i, s in data.reseeds.items()}
        lines.append(Line(data.name, data.parent, data.at, data.luck, actions, reseeds))
    try:
        return Study.from_lines(scenario, seed, start, lines, tree.current)
    except (TreeError, IllegalAction) as exc:
        raise SaveError(f"{where}: {str(exc)[:400]}") from None
