"""Whole games as versioned JSON: the seed, the starting position and the action log.

Loading replays the log through the legality gate, so a save made mid-phase, even in the middle
of a decision, comes back exactly, and a tampered log is refused with the action at fault."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cheren.actions import action_from_json
from cheren.game import Game, IllegalAction
from cheren.saves import SaveError, loads, parse_json_object, position_to_dict, read_save, write_atomically
from cheren.scenario.compiled import Scenario

FORMAT = "cheren-game"
VERSION = 1
# A loaded game can undo this many of its last actions; the rest of a long log is replayed
# without undo history, so loading stays flat in memory however long the log.
UNDO_AFTER_LOAD = 500


def game_to_dict(game: Game) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "seed": game.seed,
        "start": position_to_dict(game.start),
        "actions": [a.to_json() for a in game.actions()],
        "final": position_to_dict(game.position),
    }


def dumps_game(game: Game) -> str:
    return json.dumps(game_to_dict(game), indent=1, ensure_ascii=False) + "\n"


def save_game(game: Game, path: str | Path) -> None:
    write_atomically(path, dumps_game(game))


def load_game(path: str | Path, scenario: Scenario) -> Game:
    return loads_game(read_save(path), scenario, source=str(path))


def loads_game(text: str, scenario: Scenario, source: str = "<game>") -> Game:
    raw = parse_json_object(text, source)
    if raw.get("format") != FORMAT:
        raise SaveError(f"{source}: format: not a cheren game file")
    if raw.get("version") != VERSION:
        raise SaveError(
            f"{source}: version: this cheren reads game files of version {VERSION}, "
            f"the file is version {raw.get('version')!r}"
        )
    for key in ("seed", "start", "actions", "final"):
        if key not in raw:
            raise SaveError(f"{source}: {key}: required field is missing")
    seed = raw["seed"]
    if type(seed) is not int or not 0 <= seed < 2**63:
        raise SaveError(f"{source}: seed: must be a whole number from 0 to 2^63 - 1")
    start = loads(json.dumps(raw["start"]), scenario, source=f"{source}: start")
    if not isinstance(raw["actions"], list):
        raise SaveError(f"{source}: actions: must be a list")
    game = Game(scenario, seed, start)
    actions = raw["actions"]
    first_kept = len(actions) - UNDO_AFTER_LOAD
    for i, data in enumerate(actions):
        try:
            action = action_from_json(data)
            game.apply(action, history=i >= first_kept)
        except IllegalAction as exc:
            raise SaveError(f"{source}: actions[{i}]: {exc}") from exc
        except (ValueError, TypeError, KeyError) as exc:
            raise SaveError(f"{source}: actions[{i}]: {str(exc)[:300]}") from None
    if position_to_dict(game.position) != raw["final"]:
        raise SaveError(
            f"{source}: final: replaying the actions does not give the saved position "
            "(the file was edited, or made with different rules)"
        )
    return game
