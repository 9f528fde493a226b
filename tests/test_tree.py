"""The variation tree (issue 19): branch, switch, promote, delete, compare, same and new luck,
and the saves that keep the whole tree."""

from __future__ import annotations

from pathlib import Path

import pytest

from cheren import load_scenario
from cheren.engine.actions import Attack, EndPhase
from cheren.engine.game import Game
from cheren.files import load_position
from cheren.hexes import Hex
from cheren.study.game_saves import dumps_game, load_game, load_study, save_game
from cheren.study.variations import Study, TreeError

SCENARIO = load_scenario()
GORGE = Hex.from_label("2106")
ATTACK = Attack(GORGE, ("ind_11", "skinners_horse", "fa_144"), True)


def assault() -> Game:
    return Game.from_position(load_position("cheren-first-assault", SCENARIO))


def roll_of(game: Game) -> str:
    return next(e for entry in game.log for e in entry.events if e.startswith("die "))


def finish(game: Game) -> None:
    while game.pending is not None:
        game.apply(game.legal_actions()[0])


def test_same_luck_replays_the_same_die_and_new_luck_draws_afresh() -> None:
    study = Study(assault())
    study.branch("same", luck="same")
    study.game.apply(ATTACK)
    finish(study.game)
    study.switch("main")
    study.game.apply(ATTACK)
    finish(study.game)
    assert roll_of(study.game_of("same")) == roll_of(study.game_of("main"))
    rolls = set()
    for i in range(6):
        study.switch("main")
        study.branch(f"new {i}", at=0, luck="new")
        study.game.apply(ATTACK)
        finish(study.game)
        rolls.add(roll_of(study.game))
    assert len(rolls) > 1  # fresh dice: not always the same die


def test_branch_at_an_earlier_entry_switch_and_each_line_replays_exactly() -> None:
    study = Study(assault())
    study.game.apply(ATTACK)
    finish(study.game)
    study.game.apply(EndPhase())
    main_actions = study.game.actions()
    study.branch("wait", at=0)
    assert study.game.actions() == [] and study.game.phase.value == "combat"
    study.game.apply(EndPhase())
    assert study.history("wait")[0] == [EndPhase()]
    assert study.switch("main").actions() == main_actions
    for name in study.lines:
        rebuilt = study.build(name)
        assert rebuilt.actions() == study.game_of(name).actions()
        assert rebuilt.position.units == study.game_of(name).position.units


def test_promote_makes_a_line_the_main_line_and_keeps_every_history() -> None:
    study = Study(assault())
    study.game.apply(ATTACK)
    finish(study.game)
    study.branch("a", luck="new")
    study.game.apply(EndPhase())
    study.switch("main")
    study.branch("b", at=0)
    study.game.apply(EndPhase())
    before = {n: study.history(n) for n in study.lines}
    study.promote("a")
    assert study.main == "a" and "main" not in study.lines  # nothing but the main line is called main
    assert study.lines["former main"].parent == "a"
    before["former main"] = before.pop("main")
    assert {n: study.history(n) for n in study.lines} == before
    with pytest.raises(TreeError, match="main line cannot be deleted"):
        study.delete("a")


def test_delete_removes_a_line_and_its_branches() -> None:
    study = Study(assault())
    study.branch("x")
    study.game.apply(EndPhase())
    study.branch("y")
    study.delete("x")
    assert set(study.lines) == {"main"} and study.current == "main"
    with pytest.raises(TreeError, match="no line named 'x'"):
        study.switch("x")


def test_compare_two_lines() -> None:
    study = Study(assault())
    study.branch("attack")
    study.game.apply(ATTACK)
    finish(study.game)
    study.switch("main")
    study.game.apply(EndPhase())
    c = study.compare("attack", "main")
    assert c.parted_at == 0
    assert c.vp == (study.game_of("attack").position.allied_vp(), study.game_of("main").position.allied_vp())
    lost = sum(x for pair in c.steps_lost.values() for x in pair)
    assert lost == sum(x.steps for e in study.game_of("attack").log for x in e.losses) + sum(
        x.steps for e in study.game_of("main").log for x in e.losses)
    assert "attack" in c.explain() and c.overlay().kind == "line-diff"
    if study.game_of("attack").position.units_at(GORGE) != study.game_of("main").position.units_at(GORGE):
        assert GORGE in c.differ


def test_a_save_keeps_the_whole_tree_and_old_saves_still_load(tmp_path: Path) -> None:
    study = Study(assault())
    study.game.apply(ATTACK)
    finish(study.game)
    study.branch("new", at=0, luck="new")
    study.game.apply(ATTACK)
    finish(study.game)
    save_game(study, tmp_path / "tree.json")
    back = load_study(tmp_path / "tree.json", SCENARIO)
    assert load_game(tmp_path / "tree.json", SCENARIO).actions() == study.game.actions()
    assert set(back.lines) == {"main", "new"} and back.current == "new"
    for name in back.lines:
        assert back.game_of(name).actions() == study.game_of(name).actions()
        assert back.game_of(name).position.units == study.game_of(name).position.units
    # a version-1 save (one line, no tree) loads as a study with its main line
    old = assault()
    old.apply(EndPhase())
    text = dumps_game(old).replace('"version": 2', '"version": 1')
    (tmp_path / "old.json").write_text(text, encoding="utf-8")
    one = load_study(tmp_path / "old.json", SCENARIO)
    assert list(one.lines) == ["main"] and one.game.actions() == old.actions()


# -- through the app's board, as the Lines panel drives it ---------------------------------------
def test_the_board_branches_switches_promotes_deletes_and_compares() -> None:
    from cheren.app import App

    app = App(assault())
    c = app.board
    assert c.lines.branch("attack", luck="new").ok
    assert c.study.current == "attack" and "fresh dice" in c.feedback.text
    c.game.apply(ATTACK)
    finish(c.game)
    assert c.lines.switch("main").ok and c.game.actions() == []
    assert c.play.undo().kind == "refused"  # nothing played on main yet
    assert c.lines.switch("attack").ok
    for _ in range(len(c.game.log)):
        c.play.undo()
    assert c.play.undo().kind == "refused" and "This line starts here" in c.feedback.text
    c.play.redo()
    assert c.lines.compare("attack", "main").kind == "info"
    assert "line-diff" in c.overlays.on and any(o.kind == "line-diff" for o in c.overlays.drawn())
    assert "attack" in app.lines.tree.value and "new luck" in app.lines.tree.value
    assert "Allied VP" in app.lines.comparison.value
    assert c.lines.promote("attack").ok and c.study.main == "attack"
    assert c.lines.delete("former main").ok and set(c.study.lines) == {"attack"}
    assert c.lines.switch("nowhere").kind == "refused"


def test_the_board_saves_and_loads_the_tree(tmp_path: Path) -> None:
    from cheren.app import App

    app = App(assault())
    c = app.board
    c.lines.branch("wait")
    c.game.apply(EndPhase())
    assert c.lines.save(tmp_path / "t.json").ok and "its 2 lines" in c.feedback.text
    other = App(assault()).board
    assert other.lines.load(tmp_path / "t.json").ok
    assert set(other.study.lines) == {"main", "wait"} and other.study.current == "wait"
    assert other.game.actions() == [EndPhase()]
