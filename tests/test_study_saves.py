"""Study saves bounded and linear (issue 28): every field checked before anything is replayed,
limits on size and depth with clear messages, loading without recursion, and each shared action
replayed once, whatever the shape of the tree."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cheren import load_scenario
from cheren.engine.actions import Attack, Commit, EndPhase, Uncommit
from cheren.engine.game import Game
from cheren.files import load_position
from cheren.files.position_saves import SaveError, position_to_dict
from cheren.hexes import Hex
from cheren.study import game_file
from cheren.study.game_saves import dumps_game, loads_study
from cheren.study.variations import Line, Study

SCENARIO = load_scenario()
GORGE = Hex.from_label("2106")
START = load_position("cheren-first-assault", SCENARIO)


def assault() -> Game:
    return Game.from_position(START)


def toggle(game: Game) -> None:
    """One legal action that can be played again and again: commit 11 Ind to the gorge attack,
    or withdraw it."""
    committed = game.check(Uncommit("ind_11", GORGE)).ok
    game.apply(Uncommit("ind_11", GORGE) if committed else Commit("ind_11", GORGE))


def play(game: Game, rng: random.Random, n: int) -> None:
    for _ in range(n):
        if game.over:
            return
        options = game.legal_actions()
        if rng.random() < 0.7 or not options:
            toggle(game) if game.check(Commit("ind_11", GORGE)).ok or game.check(
                Uncommit("ind_11", GORGE)).ok else game.apply(rng.choice(options))
        else:
            game.apply(rng.choice(options))


def same_game(a: Game, b: Game) -> None:
    assert a.actions() == b.actions()
    assert position_to_dict(a.position) == position_to_dict(b.position)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6), steps=st.integers(1, 14))
def test_any_tree_saves_and_loads_to_the_same_lines(seed: int, steps: int) -> None:
    rng = random.Random(seed)
    study = Study(assault())
    play(study.game, rng, rng.randrange(0, 6))
    for _ in range(steps):
        op = rng.random()
        names = list(study.lines)
        if op < 0.45:
            at = rng.randrange(0, len(study.game.log) + 1)
            if at >= study.lines[study.current].at:
                study.branch(at=at, luck=rng.choice(["same", "new"]))
        elif op < 0.65:
            study.switch(rng.choice(names))
        elif op < 0.75 and len(names) > 1:
            study.promote(rng.choice(names))
        elif op < 0.8 and len(names) > 1:
            victim = rng.choice(names)
            if study.lines[victim].parent is not None:
                study.delete(victim)
        play(study.game, rng, rng.randrange(0, 5))
    back = loads_study(dumps_game(study), SCENARIO)
    assert back.current == study.current and list(back.lines) == list(study.lines)
    same_game(back.game, study.game)
    assert not back.game.can_redo()
    for name in study.lines:
        same_game(back.game_of(name), study.build(name))


def nested_study(lines: int) -> Study:
    study = Study(assault())
    toggle(study.game)
    study.sync()
    for k in range(1, lines):
        parent = study.current
        study.lines[f"n{k}"] = Line(f"n{k}", parent, k, "same",
                                    [Uncommit("ind_11", GORGE) if k % 2 else Commit("ind_11", GORGE)])
        study.current = f"n{k}"
    study._games = {study.current: study.build(study.current)}
    return study


def test_lines_nested_thousands_deep_load_without_recursion() -> None:
    study = nested_study(1_500)  # 1,100 nested lines raised RecursionError
    back = loads_study(dumps_game(study), SCENARIO)
    assert len(back.lines) == 1_500 and len(back.game.log) == 1_500
    assert back.history("n1499")[0] == study.game.actions()
    assert len(back.descendants("main")) == 1_499
    for _ in range(500):  # the last 500 actions of the current line can be undone, no more
        back.game.undo()
    assert not back.game.can_undo()


def tree_data(**change: Any) -> dict[str, Any]:
    study = Study(assault())
    toggle(study.game)
    study.branch("b", at=0, luck="new")
    toggle(study.game)
    toggle(study.game)
    data: dict[str, Any] = json.loads(dumps_game(study))
    return data


def refused(data: dict[str, Any]) -> str:
    with pytest.raises(SaveError) as info:
        loads_study(json.dumps(data), SCENARIO, source="t.json")
    return str(info.value)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d["tree"].__setitem__("current", ["b"]), "t.json: tree.current: Input should be a valid string"),
        (lambda d: d["tree"].__setitem__("current", "nope"), "t.json: tree.current: must name one of the lines"),
        (lambda d: d["tree"].__setitem__("lines", []), "tree.lines: List should have at least 1 item"),
        (lambda d: d["tree"].__setitem__("lines", "x"), "tree.lines: Input should be a valid list"),
        (lambda d: d["tree"]["lines"][1].__setitem__("at", -1), "tree.lines[1].at: Input should be greater than"),
        (lambda d: d["tree"]["lines"][1].__setitem__("at", 99), "tree.lines[1].at: 'main' has 1 actions"),
        (lambda d: d["tree"]["lines"][1].__setitem__("at", True), "tree.lines[1].at: Input should be a valid integer"),
        (lambda d: d["tree"]["lines"][1].__setitem__("parent", "zz"), "tree.lines[1].parent: 'zz' is not a line"),
        (lambda d: d["tree"]["lines"][1].__setitem__("name", "main"), "tree.lines[1].name: 'main' names two lines"),
        (lambda d: d["tree"]["lines"][1].__setitem__("name", "x" * 61), "tree.lines[1].name: String should have at"),
        (lambda d: d["tree"]["lines"][1].__setitem__("luck", "lucky"), "tree.lines[1].luck: Input should be 'same'"),
        (lambda d: d["tree"]["lines"][1].__setitem__("reseeds", {"x": 1}), "keys are action numbers"),
        (lambda d: d["tree"]["lines"][1].__setitem__("reseeds", {"0": -1}), "must be a whole number from 0"),
        (lambda d: d["tree"]["lines"][1].__setitem__("reseeds", {"7": 1}), "action 7 is not one of the line's"),
        (lambda d: d["tree"]["lines"][1].__setitem__("actions", {}), "tree.lines[1].actions: Input should be a valid"),
        (lambda d: d["tree"]["lines"][1].__setitem__("colour", 1), "tree.lines[1].colour: unknown field"),
        (lambda d: d["tree"]["lines"][0].__setitem__("parent", "b"), "the first line is the main line"),
        (lambda d: d["tree"]["lines"][1]["actions"].append({"kind": "end_phase", "x": 1}), "tree.lines[1].actions"),
        (lambda d: d["tree"]["lines"][1]["actions"].insert(0, EndPhase().to_json()),
         "tree: line 'b', action 2 (commit ind_11"),
        (lambda d: d.__setitem__("tree", []), "t.json: tree: Input should be a valid dictionary"),
        (lambda d: d.__setitem__("final", 3), "t.json: final: Input should be a valid dictionary"),
        (lambda d: d.__setitem__("variants", "x"), "t.json: variants: Input should be a valid list"),
        (lambda d: d.__setitem__("start", None), "t.json: start: Input should be a valid dictionary"),
    ],
)
def test_every_field_of_a_study_save_is_checked(edit: Any, message: str) -> None:
    data = tree_data()
    edit(data)
    text = refused(data)
    assert message in text and "Traceback" not in text, text


def test_size_and_depth_limits_are_refused_with_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(game_file, "MAX_DEPTH", 30)
    data = json.loads(dumps_game(nested_study(40)))
    assert "lines branch one from another more than 30 deep; refused" in refused(data)
    monkeypatch.setattr(game_file, "MAX_ACTIONS", 20)
    assert "the lines hold more than 20 actions together; refused" in refused(data)
    data = tree_data()
    data["tree"]["lines"] += [dict(data["tree"]["lines"][1], name=f"c{i}") for i in range(game_file.MAX_LINES)]
    assert "tree.lines: List should have at most 20000 items" in refused(data)


def test_an_attack_in_a_branch_rolls_as_it_did() -> None:
    study = Study(assault())
    study.branch("fight", luck="new")
    study.game.apply(Attack(GORGE, ("ind_11", "skinners_horse", "fa_144"), True))
    while study.game.pending is not None:
        study.game.apply(study.game.legal_actions()[0])
    study.switch("main")
    back = loads_study(dumps_game(study), SCENARIO)
    same_game(back.game_of("fight"), study.game_of("fight"))
