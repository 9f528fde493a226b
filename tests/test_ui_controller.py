"""The notebook app without a browser: everything a click or a button does goes through the
controller (tier 3 of the test plan), and the canvas back-end is checked against a recorder.

Selecting shows the reach with its costs; clicking a reachable hex moves along the shown path;
an illegal click is refused with the rule and changes nothing; attacks line up with a what-if
and resolve through the gate; phases end, undo and redo; overlays switch on and off; saves load.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from cheren import load_scenario
from cheren.app import panels
from cheren.app.board import Board
from cheren.app.map_overlays import OVERLAYS
from cheren.app.opponent import pass_bot
from cheren.engine.actions import Move, RemoveStep
from cheren.engine.game import Game
from cheren.engine.rules.movement import reachable
from cheren.hexes import Hex
from cheren.render.canvas import GROUPS, Recorder, View, fit_view, paint_items, paint_scene
from cheren.render.primitives import Polygon
from cheren.render.scene import Scene, build_scene
from cheren.scenario import Phase, Scenario, Side

H = Hex.from_label
HORSE = "skinners_horse"  # a motorized battalion, 8 MP, at Kassala (0208) at setup


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return load_scenario()


def phase(c: Board) -> Phase:
    return c.game.phase


def answer_pending(c: Board) -> None:
    """Let every pending decision go by (a chit window: play no chit), else take the first answer."""
    while c.game.pending is not None:
        options = c.decisions.options()
        passing = [i for i, (_, a) in enumerate(options) if a.kind == "pass_chit"]
        c.decisions.answer(passing[0] if passing else 0)


def to_phase(c: Board, phase: Phase, side: Side = Side.ALLIED) -> None:
    answer_pending(c)
    while (c.game.phase, c.game.phasing) != (phase, side):
        assert c.play.end_phase().ok, c.feedback
        answer_pending(c)


@pytest.fixture
def moving(scenario: Scenario) -> Board:
    c = Board(Game(scenario, seed=1941))
    to_phase(c, Phase.MOVEMENT)
    return c


# -- selecting and moving ----------------------------------------------------------------------
def test_selecting_a_unit_shows_its_reach_with_costs(moving: Board) -> None:
    c = moving
    fb = c.play.select(HORSE)
    assert fb.kind == "info" and "MP" in fb.text and "in reach" in fb.text
    reach = next(o for o in c.overlays.drawn() if o.kind == "reach")
    expected = reachable(c.position, HORSE)
    assert set(reach.hexes) == set(c.play.legal_moves(HORSE)) == set(expected.reach)
    some = sorted(expected.reach)[0]
    cost = expected.reach[some].cost
    label = reach.hexes[some]
    assert label is not None and label.rstrip("!") == (
        str(cost.numerator) if cost.denominator == 1 else f"{float(cost):g}"
    )
    scene = c.scene()
    assert len(scene.find("overlay", "overlays")) == len(reach.hexes)
    ring = scene.find("selection", "ui")
    assert ring and ring[0].data == (("hex", "0208"),)
    # the side panel lists the stack with values and markers
    stack = c.play.stack()
    assert any(u.id == HORSE and u.selected and (u.sp, u.mp) == (3, 8) for u in stack)
    assert "Skinner" in panels.selection_html(c) and 'data-hex="0208"' in panels.selection_html(c)


def test_clicking_a_stack_selects_a_unit_that_can_move(moving: Board) -> None:
    fb = moving.click_hex(H("0208"))
    assert fb.kind == "info"
    assert moving.selected is not None and moving.stack_hex == H("0208")
    assert moving.play.legal_moves(moving.selected)


def test_clicking_a_reachable_hex_moves_along_the_shown_path(moving: Board) -> None:
    c = moving
    c.play.select(HORSE)
    moves = c.play.legal_moves(HORSE)
    target = max(moves, key=lambda h: len(moves[h].path))
    c.set_hover(target)
    path = [item for item in c.scene().find("path", "ui")]
    assert path, "hovering a reachable hex shows the path"
    fb = c.click_hex(target)
    assert fb.kind == "ok", fb
    assert c.position.units[HORSE].hex == target
    last = c.game.log[-1].action
    assert isinstance(last, Move) and last.path == moves[target].path
    assert c.last_move[-1] == target and "moves 0208 ->" in fb.text
    assert c.scene().find("last-move", "ui")
    # once moved, the unit has no reach left this phase (9.0)
    assert not c.play.legal_moves(HORSE)
    assert c.play.select(HORSE).rules == ("9.0",)


def test_the_whole_stack_can_move_together(moving: Board) -> None:
    c = moving
    c.move_stack = True
    c.play.select("ind_5")
    target = H("0308")
    assert target in c.play.legal_moves("ind_5")
    fb = c.click_hex(target)
    assert fb.ok and len(fb.events) > 1
    movers = list(c.position.units_at(target))
    assert "ind_5" in movers and len(movers) > 1
    assert all(isinstance(e.action, Move) for e in c.game.log[-len(movers) :])


def test_an_illegal_click_is_refused_with_the_rule_and_changes_nothing(moving: Board, scenario: Scenario) -> None:
    c = moving
    c.play.select(HORSE)
    before = c.position.copy().units
    mountain = sorted(scenario.mountains)[0]
    fb = c.click_hex(mountain)
    assert fb.kind == "refused"
    assert "9.1" in fb.rules and "mountain" in fb.text
    far = H("3207")  # Massaua, far out of reach
    fb = c.play.move_to(far)
    assert fb.kind == "refused" and fb.rules and "9.0" in fb.rules
    assert c.position.units == before
    assert "cheren-rule" in panels.feedback_html(fb)


def test_units_cannot_move_outside_the_movement_phases(scenario: Scenario) -> None:
    c = Board(Game(scenario, seed=1941))
    assert c.game.phase is Phase.REINFORCEMENT
    fb = c.play.select(HORSE)
    assert "cannot move now" in fb.text and fb.rules == ("7.0",)
    assert all(o.kind != "reach" for o in c.overlays.drawn())
    fb = c.play.move_to(H("0308"))
    assert fb.kind == "refused" and "7.0" in fb.rules


def test_click_map_turns_pixels_into_hexes(moving: Board) -> None:
    c = moving
    scene = c.scene()
    x, y = scene.layout.to_pixel(H("0208"))
    c.click_map(x, y)
    assert c.stack_hex == H("0208")
    assert c.click_map(-500, -500).text == "Off the map."


# -- the phase stepper -------------------------------------------------------------------------
def test_end_phase_undo_and_redo(scenario: Scenario) -> None:
    c = Board(Game(scenario, seed=1941))
    status = c.status()
    assert (status["turn"], status["phase"], status["phasing"]) == (1, "Reinforcement & replacement", "Allied")
    fb = c.play.end_phase()
    assert fb.ok and c.game.phase is Phase.MOVEMENT
    assert "Movement" in panels.status_html(c)
    version = c.version
    fb = c.play.undo()
    assert fb.ok and "end the phase" in fb.text
    assert phase(c) is Phase.REINFORCEMENT and c.version > version
    assert c.play.redo().ok and phase(c) is Phase.MOVEMENT
    assert c.play.redo().kind == "refused"
    assert any("end the phase" in line for line in c.log_lines())


def test_pending_decisions_list_their_legal_answers(scenario: Scenario) -> None:
    c = Board(Game(scenario, seed=1941))
    c.play.end_phase()  # the Italian player may play a chit before the allied Movement phase (5.1)
    assert c.game.pending is not None and c.game.pending.kind == "chit_window"
    options = c.decisions.options()
    assert options and all(isinstance(label, str) for label, _ in options)
    assert [a for _, a in options] == c.game.legal_actions()
    refused = c.play.end_phase()
    assert refused.kind == "refused" and refused.rules == c.game.pending.rules
    assert "must first decide" in c.click_hex(H("0208")).text
    assert c.decisions.answer(len(options) - 1).ok


def test_an_answer_the_rules_refuse_is_explained(moving: Board) -> None:
    assert moving.game.pending is None
    fb = moving.decisions.apply(RemoveStep(HORSE))  # no decision asks for a step now
    assert fb.kind == "refused" and fb.rules == ("7.0",)
    assert "no decision is pending that remove a step from" in fb.text


# -- overlays ----------------------------------------------------------------------------------
def test_overlays_switch_on_and_off(moving: Board) -> None:
    c = moving
    c.play.select(HORSE)
    kinds = {
        "zoc-allied": {"zoc-hard", "zoc-soft"},
        "control": {"control-allied", "control-italian"},
        "garrisons": {f"garrison-{k}" for k in c.scenario.garrison_areas},
        "markers": {"supply-low", "supply-no"},
        "edges": {"edge"},
    }
    for key, expected in kinds.items():
        assert c.overlays.set(key, True).ok
        assert expected <= {o.kind for o in c.overlays.drawn()}, key
        assert c.overlays.set(key, False).ok
        assert not expected & {o.kind for o in c.overlays.drawn()}
    assert c.overlays.set("reach", False).ok
    assert all(o.kind != "reach" for o in c.overlays.drawn())
    assert not c.scene().find("overlay", "overlays")
    assert c.overlays.set("nonsense").kind == "refused"


def test_supply_overlays_light_up_with_the_supply_module(moving: Board) -> None:
    c = moving
    assert c.overlays.set("supply-allied").ok
    supply = next(o for o in c.overlays.drawn() if o.kind == "supply-allied")
    assert H("0208") in supply.hexes  # Kassala, next to the red west edge (12.2)
    c.play.select(HORSE)
    line = next(o for o in c.overlays.drawn() if o.kind == "supply-line")
    assert "in supply" in (line.title or "")


def test_the_af_abed_edge_is_greyed_before_turn_5(moving: Board) -> None:
    moving.overlays.set("edges")
    edge = next(o for o in moving.overlays.drawn() if o.kind == "edge")
    assert "not live" in (edge.title or "") and "12.2" in (edge.title or "")


# -- attacks -----------------------------------------------------------------------------------
def test_an_attack_shows_its_what_if_and_resolves_through_the_gate(moving: Board) -> None:
    c = moving
    c.play.select("ind_5")
    assert c.click_hex(H("0308")).ok  # next to the Sabderat colonial battalion in 0408
    to_phase(c, Phase.COMBAT)
    assert c.click_hex(H("0308")).kind == "info"  # selects the stack
    fb = c.click_hex(H("0408"))  # the defender: the selected stack joins
    assert c.combat.draft.defender == H("0408") and c.combat.draft.attackers == ["ind_5"]
    assert "8 vs 2" in fb.text and "11.1" in fb.text
    w = c.combat.whatif()
    odds = getattr(w, "odds", w)
    assert odds.column_name == "2-1" and any(s.rule == "11.1" for s in odds.shifts)
    html = panels.odds_html(w)
    assert "2-1" in html and "rough" in html
    distribution = getattr(w, "distribution", None)
    if distribution is not None:
        assert sum(distribution.values()) == Fraction(1)
        assert "%" in html and "<svg" in html
    assert c.scene().find("defender", "ui") and c.scene().find("attacker", "ui")
    # a unit that is not next to the defender is refused with its rule
    refused = c.combat.toggle_attacker(HORSE)
    assert refused.kind == "refused" and "11.0" in refused.rules
    n = len(c.game.log)
    fb = c.combat.resolve_attack()
    assert fb.ok and c.combat.draft.defender is None
    assert len(c.game.log) == n + 1
    if not fb.text.startswith("die "):  # a chit window for the defender comes first
        assert c.game.pending is not None and "decide first" in fb.text
        passing = [i for i, (_, a) in enumerate(c.decisions.options()) if a.kind == "pass_chit"]
        fb = c.decisions.answer(passing[0] if passing else 0)
    assert fb.text.startswith("die ") and "2-1 column" in fb.text
    # whatever the die said, the choices the rules hand out are pending decisions with buttons
    while c.game.pending is not None:
        assert c.decisions.options()
        c.decisions.answer(0)
    assert c.combat.toggle_attacker("ind_5").kind == "refused"  # no defender picked any more


# -- saves and the bot -------------------------------------------------------------------------
def test_save_and_load(moving: Board, tmp_path: Path) -> None:
    c = moving
    c.play.select(HORSE)
    target = sorted(c.play.legal_moves(HORSE))[0]
    c.click_hex(target)
    path = tmp_path / "game.json"
    assert c.lines.save(path).ok and path.exists()
    c.play.undo()
    assert c.position.units[HORSE].hex == H("0208")
    fb = c.lines.load(path)
    assert fb.ok, fb
    assert c.position.units[HORSE].hex == target and c.selected is None
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert c.lines.load(bad).kind == "refused"
    assert c.position.units[HORSE].hex == target


def test_against_a_bot_the_bot_plays_its_side(scenario: Scenario) -> None:
    c = Board(Game(scenario, seed=1941), bot=pass_bot, bot_side=Side.ITALIAN)
    assert "bot" in c.status()["mode"]
    c.play.end_phase()  # the Italian chit window comes up: the bot answers it at once
    assert c.game.acting is Side.ALLIED and c.game.phase is Phase.MOVEMENT
    while c.game.turn == 1:  # the bot plays the whole Italian player turn in one go
        assert c.play.end_phase().ok, c.feedback
        answer_pending(c)
        assert c.game.acting is Side.ALLIED
    assert any(e.side is Side.ITALIAN for e in c.game.log)
    assert c.play.undo().ok
    assert c.game.acting is Side.ALLIED
    assert c.opponent.set(None, None).text == "Mode: hot-seat."


def test_hot_seat_shows_the_acting_side_its_own_chits_only(scenario: Scenario) -> None:
    c = Board(Game(scenario, seed=1941), chits=lambda game, side: [f"{side.value} secret"])
    html = panels.chits_html(c)
    assert "allied secret" in html and "italian secret" not in html
    assert set(c.hidden.chit_counts()) == {Side.ALLIED, Side.ITALIAN}


# -- the canvas back-end -----------------------------------------------------------------------
def test_the_canvas_backend_batches_the_terrain(scenario: Scenario) -> None:
    scene = build_scene(scenario, None, legend=False)
    rec = Recorder()
    calls = paint_scene(rec, scene, ("terrain",))
    names = rec.names()
    styles = scene.polygons_by_style("terrain", cls="hex")
    fills = [args for name, args in rec.calls if name == "fill_polygons"]
    assert len(styles) <= len(fills) < len(styles) + 60  # one batch per terrain (+ patches)
    assert sum(len(a[0]) for a in fills[: len(styles)]) == len(scenario.hexes)
    assert names.count("fill_polygon") + names.count("fill_polygons") < 200
    assert calls < len(list(scene.items("terrain")))  # far fewer calls than items
    # each attribute is sent only when it changes
    sets = [args for name, args in rec.calls if name == "set"]
    assert all(a != b for a, b in itertools.pairwise(sets) if a[0] == b[0])


def test_every_primitive_has_a_canvas_call(scenario: Scenario) -> None:
    c = Board(Game(scenario, seed=1941))
    for key in OVERLAYS:
        c.overlays.set(key, True)
    scene = c.scene()
    rec = Recorder()
    paint_items(rec, [i for layer in scene.layers.values() for i in layer])
    names = set(rec.names())
    assert {"fill_text", "stroke_text", "fill_polygons", "stroke_line_segments", "fill_rects"} <= names


def painted(m: Any) -> tuple[str, ...]:
    groups: tuple[str, ...] = m.canvas.stats.groups
    return groups


def test_the_map_sends_nothing_before_a_browser_is_there_and_everything_when_one_comes(moving: Board) -> None:
    # a kernel kept ready for its page (cheren app, issue 29) builds the map before any browser:
    # draw commands then would reach nobody, and the first browser gets a whole repaint anyway
    from cheren.app.map import MapWidget

    m = MapWidget(moving, 1000, 660)
    assert set(m.canvas.stats.groups) == set(GROUPS) and m.canvas.stats.calls == 0
    moving.play.select(HORSE)
    assert set(painted(m)) == {"overlays", "ui"} and m.canvas.stats.calls == 0
    m.canvas._client_ready()  # what ipycanvas calls when a browser has the canvas
    assert set(painted(m)) == set(GROUPS) and m.canvas.stats.calls > 500
    moving.set_hover(sorted(moving.play.legal_moves(HORSE))[0])
    assert painted(m) == ("ui",) and m.canvas.stats.calls > 0


def _sent_to_browser(m: Any, monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, list[bytes]]]:
    """The messages the canvases send a browser (their draw commands and arrays; one sender for
    every canvas)."""
    sent: list[tuple[Any, list[bytes]]] = []
    manager = m.canvas.widget._canvas_manager
    monkeypatch.setattr(manager, "send", lambda content, buffers=None: sent.append(
        (content, [bytes(memoryview(b)) for b in buffers or []])))
    return sent


def test_a_map_painted_ahead_reaches_a_browser_as_the_same_paint(moving: Board,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # a kept kernel (cheren app) prepares the first paint while its page loads: the browser that
    # then comes gets exactly what a paint made at that moment would send, in one message
    from cheren.app.map import MapWidget

    fresh, ahead = MapWidget(moving, 1000, 660), MapWidget(moving, 1000, 660)
    sent = _sent_to_browser(ahead, monkeypatch)
    ahead.canvas.prepare()
    assert sent == []  # nothing before a browser is there
    fresh.canvas._client_ready()
    ahead.canvas._client_ready()
    assert len(sent) == 2
    (_, fresh_paint), (_, ahead_paint) = sent
    assert ahead_paint[1:] == fresh_paint[1:]  # the arrays drawn
    assert len(ahead_paint[0]) == len(fresh_paint[0])  # the commands (the canvases' ids differ)
    assert ahead.canvas.stats.calls == fresh.canvas.stats.calls > 500
    # the next change is painted as before, on the canvas the prepared paint left current
    moving.play.select(HORSE)
    assert painted(ahead) == painted(fresh) == ("overlays", "ui") and len(sent) == 4
    assert sent[3][1][1:] == sent[2][1][1:] and len(sent[3][1][0]) == len(sent[2][1][0])


def test_a_map_painted_ahead_is_painted_afresh_when_the_scene_changed(moving: Board,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from cheren.app.map import MapWidget

    m = MapWidget(moving, 1000, 660)
    sent = _sent_to_browser(m, monkeypatch)
    m.canvas.prepare()
    moving.play.select(HORSE)  # the page's moment changed the game (an autosave taken up)
    m.canvas._client_ready()
    assert len(sent) == 1 and set(painted(m)) == set(GROUPS)
    reference = MapWidget(moving, 1000, 660)
    reference.canvas._client_ready()
    assert len(sent) == 2 and sent[0][1][1:] == sent[1][1][1:]  # the selection shown, not the scene prepared


def test_the_map_widget_repaints_only_what_changed(moving: Board) -> None:
    from cheren.app.map import PIXEL_RATIO, MapWidget

    c = moving
    m = MapWidget(c, 1000, 660)
    assert set(m.canvas.stats.groups) == set(GROUPS)
    m.refresh()
    assert painted(m) == ()  # idempotent: the same scene sends nothing
    c.play.select(HORSE)
    assert set(painted(m)) == {"overlays", "ui"}
    c.set_hover(sorted(c.play.legal_moves(HORSE))[0])
    assert painted(m) == ("ui",)
    # a click on the canvas goes through the view transform to the controller
    scene = m.canvas.scene
    assert isinstance(scene, Scene)
    view = fit_view(scene.width, scene.height, 1000 * PIXEL_RATIO, 660 * PIXEL_RATIO)  # a 2x canvas
    assert m.canvas.view == view
    target = sorted(c.play.legal_moves(HORSE))[-1]
    x, y = view.to_screen(*scene.layout.to_pixel(target))
    m._move(x, y)
    m._down(x, y + 197)  # the browser scrolled the canvas into view between move and press
    m._up(x, y + 197)
    assert c.position.units[HORSE].hex == target
    assert set(m.canvas.stats.groups) >= {"counters", "overlays", "ui"}
    # zooming and panning repaint everything under the new view
    m.zoom(2.0)
    assert m.canvas.view.zoom == pytest.approx(view.zoom * 2) and set(m.canvas.stats.groups) == set(GROUPS)
    before = m.canvas.view
    m._move(100, 100)
    m._down(100, 100)
    m._move(160, 130)
    m._up(160, 130)
    assert m.canvas.view == before.panned(60, 30)
    assert c.position.units[HORSE].hex == target  # a drag is not a click
    m.fit()
    assert m.canvas.view == view


def test_the_app_builds_and_drives_the_controller(scenario: Scenario) -> None:
    from cheren.app import App

    app = App(Game(scenario, seed=1941))
    c = app.board
    assert "Reinforcement" in app.status.value and "Turn <b>1</b>" in app.status.value
    app.end_button.click()
    assert c.game.phase is Phase.MOVEMENT
    assert c.game.pending is not None and c.game.pending.kind == "chit_window"  # the Italians' Roadblock window
    assert app.play_view.decision_panel.layout.display == "flex"
    labels = [getattr(b, "description", "") for b in app.play_view.decision_buttons.children]
    assert "play no chit" in labels
    answer_pending(c)
    app.click_hex("0208")
    assert 'data-hex="0208"' in app.play_view.selection.value and app.play_view.units.children
    app.overlay_boxes["zoc-italian"].value = True
    assert "zoc-italian" in c.overlays.on
    app.undo_button.click()
    assert "Undid" in app.feedback.value
    assert View(1.0).to_map(*View(1.0).to_screen(3.0, 4.0)) == (3.0, 4.0)


def test_hex_fills_carry_their_terrain_colour(scenario: Scenario) -> None:
    """What the browser tests check in pixels: the hex fill of a map hex is its terrain colour."""
    scene = build_scene(scenario, None, legend=False)
    h = H("1005")
    fill = next(
        i for i in scene.items("terrain") if isinstance(i, Polygon) and i.cls == "hex" and ("hex", "1005") in i.data
    )
    assert fill.style.fill == scenario.hexes[h].terrains[0].colour


def test_3_1_ending_a_phase_over_the_stacking_limit_warns_once_first() -> None:
    from cheren.engine.actions import PassChit
    from cheren.scenario import Phase

    game = Game(load_scenario(), seed=1941)
    c = Board(game)
    c.play.end_phase()  # Reinforcement -> Movement: no warning there (3.1 is not checked then)
    while game.pending is not None:
        game.apply(PassChit())
        c.changed()
    assert game.phase is Phase.MOVEMENT
    warned = c.play.end_phase()  # all the Allied units are still stacked in Kassala
    assert warned.kind == "info" and "3.1" in warned.rules and "0208" in warned.text
    assert game.phase is Phase.MOVEMENT  # nothing happened yet
    went = c.play.end_phase()
    assert went.ok and game.pending is not None and "3.1" in game.pending.rules


def test_the_acting_side_sees_its_chits_by_name_with_effect_and_moment(scenario: Scenario) -> None:
    c = Board(Game(scenario, seed=1941))
    html = panels.chits_html(c)
    hand = c.position.chits.hands[Side.ALLIED]
    assert len(hand) == 4
    for instance in hand:
        chit = scenario.chits[instance.rsplit(".", 1)[0]]
        assert panels.esc(chit.name) in html and panels.esc(chit.text) in html
        assert instance not in html  # never the internal chit id
    assert "Play it: in your" in html
    assert "Italian</b>: 4 in hand" in html
