"""The table fixes of issue 31 (item 4), each as an app test: the bot kept on reload, names
only in the messages and the log, ..."""

from __future__ import annotations

import html
import json
import random
import re
from dataclasses import replace
from pathlib import Path

import pytest

from cheren.app import panels
from cheren.app.app import App
from cheren.app.board import Board
from cheren.app.map import PIXEL_RATIO, READABLE, READABLE_TEXT, READABLE_ZOOM
from cheren.engine.actions import PassChit
from cheren.engine.game import Game
from cheren.engine.position import chit_instances
from cheren.hexes import Hex
from cheren.players.bots import make_bot
from cheren.players.views import SideSeat
from cheren.render.canvas import Recorder, fit_view, paint_scene
from cheren.render.primitives import Group, Item, Text
from cheren.scenario import Scenario, Side, load_scenario
from cheren.study.game_saves import dumps_game, loads_opponent

H = Hex.from_label


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return load_scenario()


# -- the bot opponent is kept on reload ------------------------------------------------------------
def test_a_reload_takes_up_the_bot_opponent_again(scenario: Scenario, tmp_path: Path) -> None:
    auto = tmp_path / "auto.json"
    first = App(Game(scenario, seed=1941), autosave=auto, save_path=tmp_path / "g.json")
    first.game_panel.mode.value = ("heuristic", Side.ITALIAN)
    first.board.play.end_phase()
    assert json.loads(auto.read_text())["opponent"] == {"bot": "heuristic", "side": "italian"}
    again = App(Game(scenario, seed=5), autosave=auto, save_path=tmp_path / "g.json")
    o = again.board.opponent
    assert (o.name, o.side) == ("heuristic", Side.ITALIAN) and o.bot is not None
    assert again.game_panel.mode.value == ("heuristic", Side.ITALIAN)
    assert "against the bot (Italian bot)" in again.board.status()["mode"]
    again.game_panel.mode.value = "hot-seat"
    again.board.play.end_phase()
    assert "opponent" not in json.loads(auto.read_text())
    third = App(Game(scenario, seed=5), autosave=auto, save_path=tmp_path / "g.json")
    assert third.board.opponent.bot is None and third.game_panel.mode.value == "hot-seat"


def test_a_reload_takes_up_a_study_as_a_study_with_its_position(scenario: Scenario, tmp_path: Path) -> None:
    """A position opened for study and reloaded: no curtain, analysis seating, the position's
    question and answer key beside the map again; played hot-seat, it comes back hidden."""
    auto = tmp_path / "auto.json"
    first = App(Game(scenario, seed=1941), autosave=auto, save_path=tmp_path / "g.json")
    first.position_view.library.options = [("Agordat", "agordat")]
    first.position_view.library.value = "agordat"
    assert first.position_view.open_library().ok
    first.board.play.end_phase()
    assert json.loads(auto.read_text())["study"] == {"seating": "analysis", "position": "agordat"}
    again = App(Game(scenario, seed=5), autosave=auto, save_path=tmp_path / "g.json")
    b = again.board
    assert len(b.game.log) == 1 and b.hidden.seating == "analysis" and b.hidden.curtain is None
    assert again.game_panel.mode.value == "analysis"
    assert b.positions.record is not None and b.positions.record.name == "agordat"
    assert again.answer_key is not None and again.position_view.panel.layout.display == "flex"
    assert "Took up the game where it was" in b.feedback.text
    # the same start, played hot-seat: the hands stay hidden after the reload
    b.hidden.set_seating("hot-seat")
    b.play.end_phase()
    third = App(Game(scenario, seed=5), autosave=auto, save_path=tmp_path / "g.json")
    assert third.board.hidden.seating == "hot-seat" and third.board.hidden.shown_side is None
    # a game that does not start from the named position does not take its question
    data = json.loads(auto.read_text())
    auto.write_text(json.dumps({**data, "study": {"seating": "analysis", "position": "kassala"}}))
    fourth = App(Game(scenario, seed=5), autosave=auto, save_path=tmp_path / "g.json")
    assert fourth.board.positions.record is None and fourth.board.hidden.seating == "analysis"


def test_a_study_stepped_back_along_its_moves_is_autosaved_whole(scenario: Scenario, tmp_path: Path) -> None:
    """Stepped back to the start of a line, then reloaded: the autosave was refused ("replaying
    the actions does not give the saved position") and the whole study was put aside."""
    auto = tmp_path / "auto.json"
    first = App(Game(scenario, seed=1941), autosave=auto, save_path=tmp_path / "g.json")
    b = first.board
    b.positions.open("agordat")
    b.combat.click(H("1708"))
    b.play.click_hex(H("1608"))
    b.combat.resolve_attack()
    b.decisions.answer(0)
    length = b.moves.length
    assert length >= 2
    b.moves.goto(0)
    again = App(Game(scenario, seed=5), autosave=auto, save_path=tmp_path / "g.json")
    assert "Took up the game where it was" in again.board.feedback.text
    assert again.board.moves.length == length and not list(tmp_path.glob("*unreadable*"))


def test_a_save_made_before_the_opponent_field_loads_hot_seat_and_a_bad_one_says_why(
    scenario: Scenario, tmp_path: Path
) -> None:
    old = json.loads(dumps_game(Game(scenario, seed=1941)))
    assert "opponent" not in old and loads_opponent(json.dumps(old)) is None
    auto = tmp_path / "auto.json"
    auto.write_text(json.dumps({**old, "opponent": {"bot": "heuristic", "side": "swiss"}}))
    app = App(Game(scenario, seed=5), autosave=auto, save_path=tmp_path / "g.json")
    assert app.board.opponent.bot is None and len(app.board.game.log) == 0  # the game itself is kept
    auto.write_text(json.dumps({**old, "opponent": {"bot": "grandmaster", "side": "allied"}}))
    app = App(Game(scenario, seed=5), autosave=auto, save_path=tmp_path / "g.json")
    assert app.board.opponent.bot is None and "grandmaster" in app.board.feedback.text


def test_save_and_load_keep_the_bot_opponent(scenario: Scenario, tmp_path: Path) -> None:
    app = App(Game(scenario, seed=1941), save_path=tmp_path / "a.json")
    app.game_panel.mode.value = ("random", Side.ALLIED)
    app.game_panel.save()
    app.game_panel.mode.value = "hot-seat"
    app.game_panel.ask_load(tmp_path / "a.json")
    app.game_panel.confirm_load(True)
    assert (app.board.opponent.name, app.board.opponent.side) == ("random", Side.ALLIED)
    assert app.game_panel.mode.value == ("random", Side.ALLIED)



def test_save_and_load_keep_a_study_as_a_study_with_its_position(scenario: Scenario, tmp_path: Path) -> None:
    """Save and Load, not only the autosave: a position opened for study comes back without a
    curtain and with its question beside the map; a hot-seat game comes back with the hands hidden."""
    app = App(Game(scenario, seed=1941), save_path=tmp_path / "study.json")
    b = app.board
    assert b.positions.open("agordat").ok
    b.play.end_phase()
    assert app.game_panel.save().ok
    assert json.loads((tmp_path / "study.json").read_text())["study"] == {"seating": "analysis", "position": "agordat"}
    other = App(Game(scenario, seed=5), save_path=tmp_path / "other.json")
    other.board.hidden.set_seating("hot-seat")
    other.game_panel.ask_load(tmp_path / "study.json")
    assert other.game_panel.confirm_load(True).ok
    ob = other.board
    assert ob.hidden.seating == "analysis" and ob.hidden.curtain is None
    assert ob.positions.record is not None and ob.positions.record.name == "agordat"
    assert other.game_panel.mode.value == "analysis" and len(ob.game.log) == len(b.game.log)
    # played hot-seat and saved: loaded by someone studying, the hands are hidden again
    ob.hidden.set_seating("hot-seat")
    other.game_panel.path.value = str(tmp_path / "hot.json")
    assert other.game_panel.save().ok
    app.game_panel.ask_load(tmp_path / "hot.json")
    app.game_panel.confirm_load(True)
    assert b.hidden.seating == "hot-seat" and b.hidden.shown_side is None

# -- names only: no internal id in any message or log line -------------------------------------------
def _id_pattern(s: Scenario) -> re.Pattern[str]:
    """Unit ids and chit instances (``ind_10``, ``col_bn_sabderat``, ``roadblock.1``) as words."""
    ids = sorted({*s.units, *chit_instances(s)}, key=len, reverse=True)
    return re.compile(r"(?<![\w.])(" + "|".join(re.escape(i) for i in ids) + r")(?![\w])")


def _text(markup: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", markup))


def _bot_game(s: Scenario, seed: int, kind: str) -> list[tuple[str, str]]:
    """A whole bot game played through the app's board (a bot on each side), with a wrong click
    now and then; every message a player would read, as (where, text)."""
    b = Board(Game(s, seed=seed), bot=make_bot(kind, seed + 1), bot_side=Side.ITALIAN)
    allied = make_bot(kind, seed)
    rng = random.Random(seed)
    read: list[tuple[str, str]] = []
    b.subscribe(lambda what: read.append(("message", b.feedback.text)))
    hexes = sorted(s.playable)
    while not b.game.over:
        g = b.game
        read.append(("hint", b.play.phase_hint()))
        read.append(("status", str(b.status()["text"])))
        if g.pending is not None:
            read.append(("decision", g.pending.prompt))
            read += [("answer", label) for label, _ in b.decisions.options()]
        for name, plays in b.decisions.playable_chits().items():
            read += [("chit", f"{name}: {label}") for label, _ in plays]
        mine = [u for u, unit in g.position.units.items() if unit.side is Side.ALLIED and unit.hex is not None]
        if g.pending is None and mine and rng.random() < 0.2:  # a click the rules may refuse, with its reason
            b.play.select(rng.choice(mine))
            b.click_hex(rng.choice(hexes))
            b.escape()
        b.decisions.apply(allied.choose(SideSeat(g, Side.ALLIED)).action)
        read += [("bot", f"{m.text}: {m.reason}") for m in b.opponent.moves]
    read += [("log", line) for line in b.log_lines(last=10**6)]
    read += [("chits", _text(panels.chits_html(b))), ("key", _text(panels.key_html(b)))]
    return read


def test_no_internal_id_in_any_message_or_log_line_over_20_bot_games(scenario: Scenario) -> None:
    """Twenty games, ten of heuristic bots and ten of random ones (whose odd answers reach every
    decision): counters and chits are named by their names, never by ids like ind_10."""
    pattern = _id_pattern(scenario)
    leaks: dict[str, tuple[str, str]] = {}
    lines = 0
    for seed in range(20):
        for where, text in _bot_game(scenario, seed, "heuristic" if seed % 2 else "random"):
            lines += 1
            for m in pattern.finditer(text):
                leaks.setdefault(m.group(1), (where, text))
    assert lines > 20_000
    assert not leaks, leaks


# -- the selection follows its unit on Undo and Redo ----------------------------------------------------
def test_undo_moves_the_selection_back_with_its_unit_and_redo_forward(scenario: Scenario) -> None:
    app = App(Game(scenario, seed=1941))
    b = app.board
    b.play.end_phase()
    if b.game.pending is not None:
        b.decisions.apply(PassChit())
    b.play.select("tank_sqn")
    b.click_hex(H("0911"))
    assert b.stack_hex == H("0911") and b.selected == "tank_sqn"
    b.play.undo()
    assert b.position.units["tank_sqn"].hex == H("0208")
    assert (b.selected, b.stack_hex) == ("tank_sqn", H("0208"))  # the ring is on the counter, not its old hex
    assert 'data-hex="0208"' in panels.selection_html(b) and "Tank" in panels.selection_html(b)
    assert any(u.id == "tank_sqn" for u in b.play.stack())
    b.play.redo()
    assert b.stack_hex == H("0911")
    b.play.select(None)
    b.stack_hex = H("0911")  # looking at the stack the move made
    b.play.undo()
    assert b.stack_hex is None  # nothing is there any more


# -- readable labels: the map opens zoomed on the action, the minimap finds the rest ----------------
def _fonts(calls: list[tuple[str, tuple[object, ...]]]) -> list[float]:
    """The font sizes a recorded paint set, in canvas units before the view's zoom."""
    return [float(str(args[1]).split("px")[0].split()[-1]) for name, args in calls
            if name == "set" and args[0] == "font"]


def _texts(items: list[Item], cls: str) -> list[Item]:
    out: list[Item] = []
    for it in items:
        if isinstance(it, Group):
            out += _texts(list(it.items), cls)
        elif isinstance(it, Text) and cls in it.cls.split():
            out.append(it)
    return out


def test_town_names_and_counter_values_are_readable_even_at_the_whole_map_zoom(scenario: Scenario) -> None:
    """On a 1x screen the canvas shows PIXEL_RATIO of its pixels per page pixel: at the whole-map
    zoom town names and counter values were about 5 page pixels; now never under READABLE."""
    app = App(Game(scenario, seed=1941))
    scene = app.board.scene()
    whole = fit_view(scene.width, scene.height, app.map.canvas.width, app.map.canvas.height)
    for cls in READABLE_TEXT:
        texts = _texts([it for items in scene.layers.values() for it in items], cls)
        only = replace(scene, layers={"labels": texts})
        assert len(texts) > 10, cls
        shown = Recorder()
        paint_scene(shown, only, ["labels"], whole, min_text=app.map.canvas.min_text)
        assert min(_fonts(shown.calls)) * whole.zoom / PIXEL_RATIO >= READABLE - 0.01, cls
        plain = Recorder()
        paint_scene(plain, only, ["labels"], whole)
        assert min(_fonts(plain.calls)) * whole.zoom / PIXEL_RATIO < 6.5, cls  # what it was


def test_the_map_opens_on_the_action_at_a_readable_zoom_and_the_minimap_moves_it(scenario: Scenario) -> None:
    app = App(Game(scenario, seed=1941))
    canvas = app.map.canvas
    assert canvas.view.zoom == READABLE_ZOOM * PIXEL_RATIO
    kassala = canvas.view.to_screen(*app.board.scene().layout.to_pixel(H("0208")))
    assert 0 <= kassala[0] <= canvas.width and 0 <= kassala[1] <= canvas.height  # the Allied stack in view
    mini = app.minimap
    assert mini is not None and mini._frame is not None
    before = mini._frame
    target = app.board.scene().layout.to_pixel(H("1710"))  # near Agordat, off the first view
    mini._click(*mini.view.to_screen(*target))
    x, y = canvas.view.to_screen(*target)
    assert abs(x - canvas.width / 2) < 5 and abs(y - canvas.height / 2) < 5
    assert mini._frame[0] > before[0] + 20  # the frame followed the view east


# -- chit targets are clicked on the map ------------------------------------------------------------
def test_a_chit_played_on_ones_own_initiative_marks_its_targets_and_a_click_plays_it(scenario: Scenario) -> None:
    """Infiltrate aims at a unit: Play marks the hexes of the units it may go on (there was no
    mark, and a drop-down of targets); a click on the company's hex plays it on the company."""
    from cheren.study.lessons import ExerciseRun, load_lesson

    run = ExerciseRun(load_lesson("chits", scenario), "infiltrate", scenario)
    b = Board(run.game)
    assert "Infiltrate" in b.decisions.playable_chits() and not b.decisions.chit_targets()
    b.decisions.arm("Infiltrate")
    assert b.decisions.chit_targets() == {H("0208"): "I"}  # Sudan EAC 1 in Kassala
    assert any(o.kind == "chit-targets" and H("0208") in o.hexes for o in b.overlays.drawn())
    refused = b.click_hex(H("0509"))
    assert refused.kind == "refused" and "not a target of Infiltrate" in refused.text
    b.click_hex(H("0208"))
    played = [e.action for e in b.game.log if e.action.kind == "play_chit"]
    assert [getattr(a, "unit", None) for a in played] == ["sudan_eac_1"] and b.decisions.armed is None
    b.play.select("sudan_eac_1")
    b.click_hex(H("0508"))
    assert b.position.units["sudan_eac_1"].hex == H("0508")  # through the hard ZoC


def test_a_chit_window_target_is_played_by_a_click_on_the_map(scenario: Scenario) -> None:
    b = Board(Game(scenario, seed=1941))
    b.play.end_phase()  # the Italian Roadblock/Demolition window at the start of the Allied movement
    b.hidden.reveal()
    assert b.decisions.chit_targets().get(H("0108")) == "R"
    b.click_hex(H("0108"))
    last = b.game.log[-1].action
    assert last.kind == "play_chit" and getattr(last, "target", None) == "0108"
    assert any("Roadblock" in e for e in b.game.log[-1].events)


# -- the air box says why it is off; the overlay legend says what the marks mean ------------------------
def test_the_air_box_says_in_words_why_it_is_off(scenario: Scenario) -> None:
    from cheren.engine.opening import initial_position

    position = initial_position(scenario, seed=1941)
    position.place("ind_5", "0308")
    position.set_turn(1, "allied", "combat")
    app = App(Game(scenario, seed=1941, position=position))
    app.board.combat.set_defender(H("0408"))
    note = app.combat_view.air_note.value
    assert app.combat_view.air.disabled and "No air support now" in note and "turn 3" in note
    assert 'data-rule="11.3"' in note


def test_the_supply_legend_says_the_x_marks_a_hex_a_line_cannot_pass_and_keeps_one_swatch_style(
    scenario: Scenario,
) -> None:
    from cheren.study.lessons import ExerciseRun, load_lesson

    run = ExerciseRun(load_lesson("supply", scenario), "arressa-example", scenario)  # the Commando is cut off
    b = Board(run.game)
    b.play.select("comm_51")
    drawn = {o.kind: o for o in b.overlays.drawn()}
    assert drawn["supply-line"].title == "Comm 51 ME: out of supply (12.0)"
    assert set(drawn["supply-line"].hexes) == {H("2512")}  # the unit, not the blocked hexes
    blocked = drawn["supply-blocked"]
    assert blocked.title is not None and "cannot pass" in blocked.title and set(blocked.hexes.values()) == {"x"}
    key = panels.key_html(b)
    assert "x: a hex its supply line cannot pass (12.1)" in key
    b.play.select("ind_10")  # in supply: a line on the map, the same swatch in the legend
    key_in = panels.key_html(b)
    style = re.compile(r'<div class="key-row"[^>]*><span class="(swatch[^"]*)"')
    assert set(style.findall(key)) == set(style.findall(key_in)) == {"swatch"}


# -- the hexes a refusal names are marked on the map ---------------------------------------------------
def test_the_hexes_that_decided_a_refusal_are_marked_on_the_map(scenario: Scenario) -> None:
    from cheren.study.lessons import ExerciseRun, load_lesson

    run = ExerciseRun(load_lesson("chits", scenario), "roadblock-stops", scenario)
    b = Board(run.game)
    b.play.select("tank_sqn")
    fb = b.click_hex(H("2205"))  # Cheren, behind the Roadblock in the gorge
    assert fb.kind == "refused" and "2106" in fb.text and "5.1" in fb.rules
    marked = [dict(i.data).get("hex") for i in b.scene().layers["ui"] if i.cls == "refused"]
    assert marked == ["2205", "2106"]  # the hex tried and the hex that decided it
    b.escape()
    assert not [i for i in b.scene().layers["ui"] if i.cls == "refused"]  # gone with the message
