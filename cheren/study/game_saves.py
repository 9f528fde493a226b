"""Whole games as versioned JSON: the seed, the starting position and the action log.

Loading replays the log through the legality gate, so a save made mid-phase, even in the middle
of a decision, comes back exactly, and a tampered log is refused with the action at fault."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cheren.engine.actions import action_from_json
from cheren.engine.game import Game, IllegalAction
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
from cheren.study.variations import Line, Study, TreeError

FORMAT = "cheren-game"
VERSION = 2  # 2 adds the variation tree (cheren.study.variations); version-1 saves load as one line
# A loaded game can undo this many of its last actions; the rest of a long log is replayed
# without undo history, so loading stays flat in memory however long the log.
UNDO_AFTER_LOAD = 500


def game_to_dict(game: Game | Study, opponent: tuple[str, Side] | None = None) -> dict[str, Any]:
    """A game, or a study with all its lines (version 2): the seed, the start, the current
    line's actions and final position, and for a study every line of the tree.  ``opponent``:
    the bot that plays one side (its name in :data:`cheren.players.bots.BOTS` and its side),
    kept as ``"opponent": {"bot": ..., "side": ...}``; a save without one is hot-seat, and a
    reader that does not know the field ignores it."""
    study = game if isinstance(game, Study) else None
    current = study.game if study is not None else game
    assert isinstance(current, Game)
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
    return out


def dumps_game(game: Game | Study, opponent: tuple[str, Side] | None = None) -> str:
    return json.dumps(game_to_dict(game, opponent), indent=1, ensure_ascii=False) + "\n"


def save_game(game: Game | Study, path: str | Path, opponent: tuple[str, Side] | None = None) -> None:
    write_atomically(path, dumps_game(game, opponent))


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


def load_game(path: str | Path, scenario: Scenario) -> Game:
    """The game of a save (for a study, its current line)."""
    return loads_game(read_save(path), scenario, source=str(path))


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
    for key in ("seed", "start", "actions", "final"):
        if key not in raw:
            raise SaveError(f"{source}: {key}: required field is missing")
    seed = raw["seed"]
    if type(seed) is not int or not 0 <= seed < 2**63:
        raise SaveError(f"{source}: seed: must be a whole number from 0 to 2^63 - 1")
    variants = raw.get("variants", [])
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        raise SaveError(f"{source}: variants: must be a list of variant names")
    from cheren.scenario.variants import VariantError

    try:
        scenario = scenario.with_variants(variants)
    except VariantError as exc:
        raise SaveError(f"{source}: {exc}") from None
    start = loads(json.dumps(raw["start"]), scenario, source=f"{source}: start")
    if not isinstance(raw["actions"], list):
        raise SaveError(f"{source}: actions: must be a list")
    tree = raw.get("tree")
    if version == 1 or tree is None:
        game = Game(scenario, seed, start)
        _replay(game, raw["actions"], f"{source}: actions")
        study = Study(game)
    else:
        study = _study(scenario, seed, start, tree, f"{source}: tree")
    if position_to_dict(study.game.position) != raw["final"]:
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


def _study(scenario: Scenario, seed: int, start: Any, tree: Any, where: str) -> Study:
    """A study from the ``tree`` of a version-2 save: every line checked and replayed."""
    if not isinstance(tree, dict) or not isinstance(tree.get("lines"), list) or not tree["lines"]:
        raise SaveError(f"{where}: must hold a non-empty list of lines")
    lines: list[Line] = []
    names: set[str] = set()
    for k, data in enumerate(tree["lines"]):
        at = f"{where}.lines[{k}]"
        if not isinstance(data, dict):
            raise SaveError(f"{at}: a line is a JSON object")
        name, parent, branch, luck = data.get("name"), data.get("parent"), data.get("at"), data.get("luck", "same")
        if not isinstance(name, str) or not name or len(name) > 60 or name in names:
            raise SaveError(f"{at}.name: a line needs a name of its own (1 to 60 characters)")
        if parent is not None and parent not in names:
            raise SaveError(f"{at}.parent: {str(parent)[:60]!r} is not a line listed before it")
        if (parent is None) != (not lines) or type(branch) is not int or branch < 0 or luck not in ("same", "new"):
            raise SaveError(f"{at}: the first line is the main line (no parent, at 0); every other branches "
                            "from an earlier one at a whole number of actions, with luck 'same' or 'new'")
        reseeds = data.get("reseeds", {})
        if not isinstance(reseeds, dict):
            raise SaveError(f"{at}.reseeds: must be an object")
        try:
            seeds = {int(i): s for i, s in reseeds.items() if type(s) is int and 0 <= s < 2**63}
        except ValueError:
            raise SaveError(f"{at}.reseeds: keys are action numbers") from None
        if len(seeds) != len(reseeds):
            raise SaveError(f"{at}.reseeds: seeds are whole numbers from 0 to 2^63 - 1")
        if not isinstance(data.get("actions"), list):
            raise SaveError(f"{at}.actions: must be a list")
        try:
            actions = [action_from_json(a) for a in data["actions"]]
        except ValueError as exc:
            raise SaveError(f"{at}.actions: {str(exc)[:300]}") from None
        lines.append(Line(name, parent, branch, luck, actions, seeds))
        names.add(name)
    current = tree.get("current")
    if current not in names:
        raise SaveError(f"{where}.current: must name one of the lines")
    try:
        return Study.from_lines(scenario, seed, start, lines, current)
    except (TreeError, IllegalAction) as exc:
        raise SaveError(f"{where}: {str(exc)[:400]}") from None
