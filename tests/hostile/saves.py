"""Positions reached in play, and study saves edited or too big."""


from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cheren.engine.actions import Commit, Uncommit
from cheren.engine.game import Game
from cheren.files import load_position
from cheren.hexes import Hex
from cheren.scenario import Side
from tests.hostile.core import (
    KEPT,
    REFUSED,
    SCENARIO,
    Case,
    later,
)


def reload_outcome(p: Any) -> str:
    import datetime as dt

    from cheren.files import PositionRecord, dump_position_file, parse_position_code, parse_position_text, position_code
    from cheren.files.position_saves import SaveError, dumps, loads

    try:
        same = dumps(loads(dumps(p), SCENARIO)) == dumps(p)
        code = position_code(p)
        same = same and position_code(parse_position_code(code, SCENARIO)) == code
        text = dump_position_file(PositionRecord("reached", "reached", dt.date(1941, 2, 1), p))
        same = same and position_code(parse_position_text(text, SCENARIO).position) == code
    except SaveError:
        return "refused"
    return KEPT if same else "lost"


def position_cases(tmp: Path, size: int) -> list[Case]:
    """Every position of ``size`` whole games (random bots, and heuristic bots for one in four),
    saved and loaded as a save, a position file and a code."""
    from cheren.players.bots import make_bot
    from cheren.players.views import SideSeat

    def game(seed: int) -> str:
        kind = "heuristic" if seed % 4 == 3 else "random"
        g = Game(SCENARIO, seed=seed)
        bots = {side: make_bot(kind, seed) for side in Side}
        outcomes: Counter[str] = Counter()
        while True:
            outcomes[reload_outcome(g.position)] += 1
            if g.over:
                break
            g.apply(bots[g.acting].choose(SideSeat(g, g.acting)).action)
        return json.dumps(dict(outcomes))  # many positions per case: counted by tools/reliability.py

    return [Case(f"game {seed}", later(3600, game, seed)) for seed in range(size)]


# -- study saves ----------------------------------------------------------------------------------------
GORGE = Hex.from_label("2106")


def assault() -> Game:
    return Game.from_position(load_position("cheren-first-assault", SCENARIO))


def study_text() -> str:
    from cheren.study.game_saves import dumps_game
    from cheren.study.variations import Study

    study = Study(assault())
    study.game.apply(Commit("ind_11", GORGE))
    study.branch("b", at=0, luck="new")
    study.game.apply(Commit("ind_11", GORGE))
    study.game.apply(Uncommit("ind_11", GORGE))
    return dumps_game(study)


def study_refusal(text: str) -> str:
    from cheren.files.position_saves import SaveError
    from cheren.study.game_saves import loads_study

    try:
        loads_study(text, SCENARIO, source="s.json")
    except SaveError:
        return REFUSED
    return KEPT  # a harmless edit (a space, a digit of a line's dice that the check does not reach)


STUDY_EDITS: list[tuple[str, Callable[[dict[str, Any]], None]]] = [
    ("current is a list", lambda d: d["tree"].__setitem__("current", ["b"])),
    ("current names no line", lambda d: d["tree"].__setitem__("current", "nope")),
    ("no lines", lambda d: d["tree"].__setitem__("lines", [])),
    ("lines is text", lambda d: d["tree"].__setitem__("lines", "x")),
    ("a negative branch point", lambda d: d["tree"]["lines"][1].__setitem__("at", -1)),
    ("a branch point past the parent", lambda d: d["tree"]["lines"][1].__setitem__("at", 99)),
    ("a branch point that is true", lambda d: d["tree"]["lines"][1].__setitem__("at", True)),
    ("a parent not listed", lambda d: d["tree"]["lines"][1].__setitem__("parent", "zz")),
    ("two lines of one name", lambda d: d["tree"]["lines"][1].__setitem__("name", "main")),
    ("a name of 61 characters", lambda d: d["tree"]["lines"][1].__setitem__("name", "x" * 61)),
    ("luck 'lucky'", lambda d: d["tree"]["lines"][1].__setitem__("luck", "lucky")),
    ("a reseed at a word", lambda d: d["tree"]["lines"][1].__setitem__("reseeds", {"x": 1})),
    ("a negative reseed", lambda d: d["tree"]["lines"][1].__setitem__("reseeds", {"0": -1})),
    ("a reseed past the line", lambda d: d["tree"]["lines"][1].__setitem__("reseeds", {"7": 1})),
    ("actions an object", lambda d: d["tree"]["lines"][1].__setitem__("actions", {})),
    ("an unknown field", lambda d: d["tree"]["lines"][1].__setitem__("colour", 1)),
    ("the main line with a parent", lambda d: d["tree"]["lines"][0].__setitem__("parent", "b")),
    ("an action with an extra field", lambda d: d["tree"]["lines"][1]["actions"].append({"kind": "end_phase", "x": 1})),
    ("an action the gate refuses", lambda d: d["tree"]["lines"][1]["actions"].insert(0, {"kind": "uncommit",
                                                                                          "unit": "ind_11",
                                                                                          "hex": "2106"})),
    ("tree a list", lambda d: d.__setitem__("tree", [])),
    ("final a number", lambda d: d.__setitem__("final", 3)),
    ("variants text", lambda d: d.__setitem__("variants", "x")),
    ("start null", lambda d: d.__setitem__("start", None)),
    ("seed a float", lambda d: d.__setitem__("seed", 1.5)),
    ("a line nested in itself", lambda d: d["tree"]["lines"][1].__setitem__("parent", "b")),
]


def study_cases(tmp: Path, size: int) -> list[Case]:
    base = study_text()
    cases = []
    for label, edit in STUDY_EDITS:
        def edited(edit: Callable[[dict[str, Any]], None] = edit) -> str:
            data = json.loads(base)
            edit(data)
            return study_refusal(json.dumps(data))

        cases.append(Case(label, later(20, edited)))
    rng = random.Random(28)
    inserts = ["", "[", "]", "{", "}", ",", '"', "0", "-1", "true", "null", "1e999", '"x"', "9" * 40]
    for i in range(size):
        at, cut, insert = rng.randrange(len(base) + 1), rng.randrange(0, 30), rng.choice(inserts)
        text = base[:at] + insert + base[at + cut:]
        cases.append(Case(f"random edit {i}", later(20, study_refusal, text)))
    return cases


def study_limit_cases(tmp: Path, size: int) -> list[Case]:
    from cheren.study import game_file

    base = json.loads(study_text())
    line = base["tree"]["lines"][1]

    def too_many_lines() -> str:
        data = json.loads(json.dumps(base))
        data["tree"]["lines"] += [dict(line, name=f"c{i}") for i in range(game_file.MAX_LINES)]
        return study_refusal(json.dumps(data))

    def too_deep() -> str:
        data = json.loads(json.dumps(base))
        lines = [data["tree"]["lines"][0]]
        for i in range(game_file.MAX_DEPTH + 1):
            lines.append({"name": f"n{i}", "parent": lines[-1]["name"], "at": 0, "actions": []})
        data["tree"]["lines"] = lines
        return study_refusal(json.dumps(data))

    def too_many_actions() -> str:
        data = json.loads(json.dumps(base))
        action = data["tree"]["lines"][1]["actions"][0]
        data["tree"]["lines"][1]["actions"] = [action] * (game_file.MAX_ACTIONS + 1)
        return study_refusal(json.dumps(data))

    def nested_json() -> str:
        return study_refusal("[" * 100_000)

    return [Case(f"more than {game_file.MAX_LINES:,} lines", later(30, too_many_lines)),
            Case(f"lines nested more than {game_file.MAX_DEPTH:,} deep", later(30, too_deep)),
            Case(f"more than {game_file.MAX_ACTIONS:,} actions", later(30, too_many_actions)),
            Case("JSON nested 100,000 deep", later(30, nested_json))]


