"""The position editor, driven through its controller as the widgets drive it."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from cheren.app.editor import EditorController
from cheren.engine.position import Status, Supply
from cheren.files import load_position, open_position, parse_position_code, read_position_file
from cheren.hexes import Hex
from cheren.scenario import Phase, Side, load_scenario

SCENARIO = load_scenario()


def editor(name: str = "agordat") -> EditorController:
    return EditorController(open_position(name, SCENARIO))


def test_building_a_position_by_clicks_saves_a_file_that_loads_back_equal(tmp_path: Path) -> None:
    ed = editor()
    assert ed.pick("col_bn_om_ager").ok
    assert ed.click_hex(Hex.from_label("0512")).kind == "refused"  # Tessenei is held by the Allies
    assert "0512 holds units of both sides" in ed.feedback.text and "9.0" in ed.feedback.rules
    assert ed.click_hex(Hex.from_label("0518")).ok
    ed.pick(None)
    ed.click_hex(Hex.from_label("1607"))  # picks the top counter of the stack there
    assert ed.picked is not None and ed.position.units[ed.picked].hex == Hex.from_label("1607")
    assert ed.set_steps("ind_11", 3).ok
    assert ed.set_supply("col_bn_om_ager", None).ok
    assert ed.set_control("Barentu", Side.ALLIED).kind == "info"  # Italians in Barentu: a warning, not an error
    assert "2.1" in ed.feedback.rules
    assert ed.set_control("Barentu", Side.ITALIAN).ok
    assert ed.set_released("Tigre").kind != "refused"
    assert ed.set_moment(2, Side.ALLIED, Phase.COMBAT).ok
    ed.set_info(name="my-agordat", title="Agordat, my way", date=dt.date(1941, 1, 28), narrative="A test.")
    path = tmp_path / "my-agordat.yaml"
    assert ed.save(path).ok
    back = read_position_file(path, SCENARIO)
    assert back.position == ed.position
    assert back.title == "Agordat, my way" and back.date == dt.date(1941, 1, 28)
    assert back.provenance["col_bn_om_ager"].note == "placed in the position editor"
    assert back.provenance["ind_11"].source.value == "historical"  # not moved: kept from the library file
    code = ed.code()
    assert code is not None and parse_position_code(code, SCENARIO) == back.position


def test_problems_are_shown_as_they_arise_with_the_rule_and_the_hex() -> None:
    ed = editor()
    fb = ed.place("tank_sqn", "1805")  # a mountain hex
    assert fb.kind == "refused" and "9.1" in fb.rules and "Tank (Tanks) is in 1805" in fb.text
    marked = {dict(item.data)["hex"]: item.cls for item in ed.scene().layers["ui"] if item.cls.startswith("problem")}
    assert marked == {"1805": "problem-error"}
    assert not ed.legal
    assert ed.save("/tmp/never-written.yaml").kind == "refused"
    assert ed.code() is None and "cannot make a code" in ed.feedback.text
    assert ed.play() is None
    assert ed.undo().ok and ed.legal
    assert ed.position.units["tank_sqn"].hex == Hex.from_label("1607")


def test_over_stacking_and_the_air_unit_are_refused_with_their_rules() -> None:
    ed = editor("cheren-first-assault")
    for uid in ("col_bn_tole", "col_8", "col_12"):
        ed.place(uid, "2205")
    assert "3.1" in ed.feedback.rules and "stacking value 8" in ed.feedback.text
    for _ in range(3):
        ed.undo()
    assert ed.legal
    fb = ed.place("air_support", "2005")
    assert fb.kind == "refused" and "11.3" in fb.rules


def test_a_refused_edit_changes_nothing() -> None:
    ed = editor()
    before = ed.position.copy()
    assert ed.set_steps("ind_11", 9).kind == "refused"
    assert ed.place("ind_11", "9999").kind == "refused"
    assert ed.set_released("Atlantis").kind == "refused"
    assert ed.position == before and ed.version == 0


def test_the_pools_list_what_is_off_the_map_and_eliminating_moves_a_counter_there() -> None:
    ed = editor("barentu")
    italian = {e.name: e.note for e in ed.pool(Side.ITALIAN)}
    assert italian["M11/39"] == "eliminated" and italian["Alpini Uork Amba"] == "arrives turn 4"
    assert ed.remove("col_12", eliminated=True).kind != "refused"
    assert ed.position.units["col_12"].status is Status.ELIMINATED
    assert any(e.id == "col_12" for e in ed.pool(Side.ITALIAN))


def test_play_from_here_starts_a_game_at_the_edited_phase() -> None:
    ed = editor("dologorodoc")
    ed.set_supply("ind_9", Supply.LOW)
    game = ed.play()
    assert game is not None
    assert (game.turn, game.phasing, game.phase) == (9, Side.ALLIED, Phase.COMBAT)
    assert game.position.units["ind_9"].supply is Supply.LOW


def test_load_takes_a_code_and_a_bad_code_is_refused() -> None:
    ed = EditorController(scenario=SCENARIO)
    from cheren.files import position_code

    code = position_code(load_position("massaua", SCENARIO))
    assert ed.load(code).ok and ed.position == load_position("massaua", SCENARIO)
    assert ed.load(code[:-3] + "---").kind == "refused"
    assert ed.position == load_position("massaua", SCENARIO)


def test_any_counter_of_a_stack_can_be_picked_and_the_outline_follows_the_pick() -> None:
    ed = editor()
    h = Hex.from_label("1411")
    stack = ed.stack(h)
    assert len(stack) >= 3
    picked = []
    for _ in stack:  # each click on the stack picks the next counter down
        ed.click_hex(h)
        picked.append(ed.picked)
    assert picked == stack and ed.stack_hex == h
    ed.click_hex(h)
    assert ed.picked is None and ed.stack_hex is None  # past the bottom: none picked, no outline
    assert ed.pick(stack[1]).ok and ed.stack_hex == h  # any counter, from the panel's buttons

    def outlined() -> list[str]:
        return [dict(i.data)["hex"] for i in ed.scene().find("selection", "ui")]

    assert outlined() == ["1411"]
    ed.click_hex(Hex.from_label("1410"))  # put it next door: the outline goes with it
    assert ed.position.units[stack[1]].hex == Hex.from_label("1410") and outlined() == ["1410"]
    ed.remove(stack[1])  # back to its pool: nothing on the map is picked
    assert ed.picked is None and outlined() == []
    ed.pick("alpini_uork_amba")  # from a pool: no outline until it is placed
    assert outlined() == []
    assert ed.key("Escape") is not None and ed.picked is None


def test_open_clears_the_code_and_names_a_new_file() -> None:
    pytest.importorskip("ipywidgets")
    from cheren.app.editor_app import EditorApp

    app = EditorApp("agordat", save_path="my-agordat.yaml")
    app._show_code()
    assert app.code.value
    app.open_ref.value = "cheru"
    app._open()
    assert app.controller.record.name == "cheru" and app.code.value == "" and app.path.value == "my-cheru.yaml"
    app.open_ref.value = "nowhere"
    app._open()  # refused: nothing changes
    assert app.controller.record.name == "cheru" and app.path.value == "my-cheru.yaml"
    assert "nowhere" in app.open_ref.value
