"""The study board (issue 30) without a browser: opening a position for study (analysis mode,
no curtain, both hands), the hot-seat curtain only when a hand is to hide, the position picker
(library, code, file) and the position panel."""

from __future__ import annotations

from pathlib import Path

import pytest

from cheren import load_scenario
from cheren.app import panels
from cheren.app.board import Board
from cheren.app.position_view import library_detail_html, record_html
from cheren.engine.game import Game
from cheren.engine.position import chit_key
from cheren.files import open_position, position_code
from cheren.hexes import Hex
from cheren.scenario import Scenario, Side


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return load_scenario()


def hand_names(board: Board, side: Side) -> list[str]:
    s = board.scenario
    return [s.chits[chit_key(c)].name for c in board.position.chits.hands[side]]


def test_a_position_opened_for_study_has_no_curtain_and_shows_both_hands(scenario: Scenario) -> None:
    b = Board(Game(scenario, seed=1))
    fb = b.positions.open("kassala")  # it opens on the Italian chit window
    assert fb.ok and "Opened Kassala" in fb.text and "Analysis" in fb.text
    assert b.hidden.seating == "analysis" and b.hidden.curtain is None
    assert b.game.acting is Side.ITALIAN and b.game.pending is not None  # the Italian chit window
    html = panels.chits_html(b)
    for side in Side:
        for name in hand_names(b, side):
            assert panels.esc(name) in html, (side, name)
    # any side may act: the Italian passes its window, the Allies move on, no curtain comes up
    from cheren.engine.actions import PassChit

    assert b.decisions.apply(PassChit()).ok
    assert b.game.acting.value == "allied" and b.hidden.curtain is None
    assert b.status()["mode"] == "analysis (both sides)"


def test_hiding_the_hands_in_analysis_shows_only_the_side_to_act(scenario: Scenario) -> None:
    b = Board(Game(scenario, seed=1))
    b.positions.open("kassala")  # the Italian side to act (its chit window)
    b.hidden.set_hide_hands(True)
    html = panels.chits_html(b)
    italian, allied = hand_names(b, Side.ITALIAN), hand_names(b, Side.ALLIED)
    assert all(panels.esc(n) in html for n in italian)
    assert not any(f"<b>{panels.esc(n)}</b>" in html for n in allied if n not in italian)
    assert b.hidden.curtain is None


def test_played_hot_seat_a_position_on_the_italian_chit_window_opens_behind_the_curtain(scenario: Scenario) -> None:
    b = Board(Game(scenario, seed=1))
    b.positions.open("kassala", seating="hot-seat")
    assert b.hidden.curtain is Side.ITALIAN  # the Allied player sits down first; the window is Italian
    html = panels.chits_html(b)
    assert not any(f"<b>{panels.esc(n)}</b>" in html for n in hand_names(b, Side.ITALIAN))
    b.hidden.reveal()
    assert b.hidden.curtain is None and panels.esc(hand_names(b, Side.ITALIAN)[0]) in panels.chits_html(b)


def _curtains_until_the_italian_turn(b: Board) -> list[Side | None]:
    """Play on as a hot-seat pair would (first answers, End phase) and note the curtain each time
    the Italian side comes to act, until the Italian player turn."""
    seen = []
    for _ in range(80):
        if b.game.phasing is Side.ITALIAN:
            seen.append(b.hidden.curtain)  # the Italian player sits down for its own turn
            break
        if b.game.acting is Side.ITALIAN:
            seen.append(b.hidden.curtain)
            b.hidden.reveal()
        elif b.hidden.curtain is not None:
            b.hidden.reveal()
        if b.game.pending is not None:
            b.decisions.answer(0)
        else:
            b.play.end_phase()
    return seen


def test_the_curtain_comes_up_only_when_the_side_to_act_has_a_hand_to_hide(scenario: Scenario) -> None:
    from cheren.engine.opening import initial_position

    with_hand = Board(Game(scenario, seed=3))
    assert Side.ITALIAN in _curtains_until_the_italian_turn(with_hand)  # its chit windows: a curtain
    p = initial_position(scenario, seed=3)
    p.chits.hands[Side.ITALIAN].clear()
    empty = Board(Game(scenario, seed=3, position=p))
    assert empty.hidden.seating == "hot-seat"
    seen = _curtains_until_the_italian_turn(empty)
    assert seen and set(seen) == {None}  # nothing to hide: no curtain, not even for its own turn


def test_the_picker_opens_a_code_and_refuses_nonsense_changing_nothing(scenario: Scenario) -> None:
    b = Board(Game(scenario, seed=1))
    code = position_code(open_position("cheren-first-assault", scenario).position)
    assert b.positions.open(code).ok
    assert b.positions.record is not None and b.positions.record.name == "code"
    before = (b.game, b.positions.record)
    fb = b.positions.open("C1-not-a-code")
    assert fb.kind == "refused" and "Could not open" in fb.text
    assert (b.game, b.positions.record) == before
    assert b.positions.open("").kind == "refused"


def test_the_picker_opens_a_file_and_an_uploaded_one(scenario: Scenario, tmp_path: Path) -> None:
    from cheren.files.position_saves import dumps

    record = open_position("agordat", scenario)
    source = record.path
    assert source is not None
    b = Board(Game(scenario, seed=1))
    assert b.positions.open(str(source)).ok and b.positions.record is not None
    assert b.positions.open_upload("agordat.yaml", source.read_bytes()).ok
    assert b.positions.record.title == record.title
    assert b.positions.open_upload("mine.json", dumps(record.position).encode()).ok
    assert b.positions.open_upload("bad.yaml", b"units: [").kind == "refused"
    assert b.positions.open_upload("bin.yaml", b"\xff\xfe\x00").kind == "refused"


def test_the_position_panel_shows_question_narrative_sources_and_folds_the_answer(scenario: Scenario) -> None:
    record = open_position("agordat", scenario)
    assert record.question is not None and record.happened_next and record.plan is not None
    html = record_html(record)
    assert record.title in html and "28 January 1941" in html and "Turn 2" in html
    assert record.sources and all(panels.esc(s) in html for s in record.sources)
    assert "cheren-narrative" in html
    assert "The question" in html and f"Allied to decide: {panels.esc(record.question.text.strip())[:40]}" in html
    # the answers are folded away, to read after one's own study
    assert "<details" in html and "What happened next (the answer" in html
    first = record.happened_next[0]
    assert f"{first.date:%d %b %Y}" in html
    assert "The historical plan (the answer" in html and f"{len(record.plan.steps)} actions" in html
    assert panels.esc(record.question.text.strip())[:40] in library_detail_html(record)


def test_a_new_game_or_a_load_forgets_the_position_opened(scenario: Scenario, tmp_path: Path) -> None:
    """A load of a game not opened from a library position drops the question of the one on the
    board (a save of a study brings its own back: test_app_table)."""
    b = Board(Game(scenario, seed=1))
    b.lines.save(tmp_path / "g.json")
    b.positions.open("agordat")
    assert b.positions.record is not None
    assert b.lines.load(tmp_path / "g.json").ok and b.positions.record is None


# -- the move list: stepping, branching from an earlier move, compare, delete, promote ------------
def _kassala_with_three_actions(scenario: Scenario) -> Board:
    """Kassala opened for study; the Italian passes its window, the Allies end two phases."""
    from cheren.engine.actions import PassChit

    b = Board(Game(scenario, seed=1))
    b.positions.open("kassala")
    assert b.decisions.apply(PassChit()).ok
    for _ in range(2):
        while b.game.pending is not None:
            b.decisions.answer(0)
        b.play.end_phase()
        if b.feedback.kind == "info" and "3.1" in b.feedback.rules:
            b.play.end_phase()  # the stacking warning is said once
    assert b.moves.length >= 3
    return b


def test_the_move_list_steps_back_and_on_and_keeps_the_line(scenario: Scenario) -> None:
    b = _kassala_with_three_actions(scenario)
    length, end_status = b.moves.length, b.game.status()
    entries = b.moves.entries()
    assert [e.n for e in entries] == list(range(1, length + 1)) and not any(e.ahead for e in entries)
    assert entries[0].who == "Italian" and "T1 Allied Movement" in entries[0].when and entries[0].text
    fb = b.moves.goto(1)
    assert fb.ok and b.moves.ply == 1 and b.moves.length == length  # the rest of the line stays
    assert all(e.ahead for e in b.moves.entries()[1:]) and b.moves.entries()[2].who  # still named
    assert b.moves.step(-1).ok and b.moves.ply == 0
    assert b.moves.step(-1).text == "Already at the start of the line."
    b.moves.goto(length)
    assert b.game.status() == end_status and b.moves.ply == length
    assert b.moves.goto(length + 1).kind == "refused"


def test_another_answer_at_an_earlier_move_says_the_new_line_and_its_roll(scenario: Scenario) -> None:
    """Agordat: the attack on the town, the Italian plays no chit (the die is rolled); back at the
    attack, Ambush instead: the message names the new line as well as the roll it brought."""
    from cheren.engine.actions import PassChit, PlayChit

    b = Board(Game(scenario, seed=1))
    b.positions.open("agordat")
    b.combat.click(Hex.from_label("1708"))
    for h in ("1608", "1709"):
        b.play.click_hex(Hex.from_label(h))
    b.combat.resolve_attack()
    assert b.decisions.answer(PassChit()).text.startswith("die ")
    b.moves.goto(1)
    ambush = next(a for _, a in b.decisions.options() if isinstance(a, PlayChit))
    fb = b.decisions.answer(ambush)
    assert fb.ok and fb.text.startswith("new line 'line 1' from main after 1 actions; die "), fb.text
    assert b.study.lines["line 1"].parent == "main" and b.moves.ply == 2
    # main was left standing at move 1: Compare takes it whole, with the die its answer rolled
    c = b.study.compare("line 1", "main")
    assert c.parted_at == 1 and len(c.dice[0]) == 1 and len(c.dice[1]) == 1 and c.dice[0] != c.dice[1]


def test_acting_at_an_earlier_move_starts_a_new_line_and_the_same_action_steps_on(scenario: Scenario) -> None:
    b = _kassala_with_three_actions(scenario)
    main = b.study.history("main")[0]
    b.moves.goto(1)
    if b.play.end_phase().kind == "info":  # Kassala's stacks are over the limit: said once (3.1)
        b.play.end_phase()
    assert b.feedback.ok  # the line's own next action: it steps on, no new line
    assert set(b.study.lines) == {"main"} and b.moves.ply == 2
    b.moves.goto(1)
    mover = next(uid for uid in b.position.units if b.play.legal_moves(uid))
    b.play.select(mover)
    fb = b.play.move_to(sorted(b.play.legal_moves(mover))[0])
    assert fb.ok and "new line 'line 1' from main after 1 actions" in fb.text
    assert b.study.current == "line 1" and b.study.lines["line 1"].at == 1
    assert b.study.history("main")[0] == main  # the main line is whole
    entries = b.moves.entries()
    assert len(entries) == 2 and entries[0].branches == ("main",)  # main parts after move 1


def test_a_branch_from_a_move_before_the_line_began_hangs_from_the_line_it_came_from(scenario: Scenario) -> None:
    b = _kassala_with_three_actions(scenario)
    b.moves.goto(2)
    assert b.lines.branch("two").ok and b.study.lines["two"].parent == "main"
    b.moves.goto(1)  # before "two" began: those actions are main's
    assert b.lines.branch("one", at=b.moves.ply).ok
    assert b.study.lines["one"].parent == "main" and b.study.lines["one"].at == 1


def test_compare_lists_the_dice_each_line_rolled_since_they_parted(scenario: Scenario) -> None:
    from cheren.engine.opening import initial_position

    p = initial_position(scenario, seed=1941)
    p.place("ind_5", "0308")
    p.set_turn(1, "allied", "combat")
    p.chits.hands[Side.ITALIAN].clear()
    b = Board(Game(scenario, seed=1941, position=p))
    b.hidden.set_seating("analysis")
    assert b.lines.branch("attack", luck="new").ok
    b.click_hex(Hex.from_label("0308"))
    b.click_hex(Hex.from_label("0408"))
    assert b.combat.resolve_attack().ok
    fb = b.lines.compare("attack", "main")
    c = b.lines.comparison
    assert fb.ok and c is not None and len(c.dice[0]) == 1 and c.dice[1] == ()
    die = c.dice[0][0].split()[1]
    assert "dice rolled since they parted" in c.explain() and f"| {die} (" in c.explain()


def test_delete_asks_first_and_promote_renames_the_old_main_line(scenario: Scenario) -> None:
    pytest.importorskip("ipywidgets")
    from cheren.app import App

    app = App(position="agordat")
    b = app.board
    b.lines.branch("wait")
    b.play.end_phase()
    panel = app.lines
    panel.ask_delete("wait")
    assert panel.confirm.layout.display == "flex" and "Delete the line <b>wait</b>" in panel.confirm_text.value
    panel.confirm_delete(False)
    assert "wait" in b.study.lines
    assert b.lines.promote("wait").ok and "'former main'" in b.feedback.text
    assert b.study.main == "wait" and "main" not in b.study.lines
    assert "main line" in panel.tree.value
    panel.ask_delete("former main")
    panel.confirm_delete(True)
    assert set(b.study.lines) == {"wait"}


def test_the_move_list_widget_answers_clicks_and_keys(scenario: Scenario) -> None:
    pytest.importorskip("anywidget")
    from cheren.app.move_list import MoveList

    b = _kassala_with_three_actions(scenario)
    ml = MoveList(b)
    ml.refresh()
    assert ml.widget.current == ml.widget.length == b.moves.length
    assert ml.widget.entries[0]["n"] == 1 and ml.widget.entries[0]["who"] == "Italian"
    ml._message(ml.widget, {"goto": 1}, [])
    ml.refresh()
    assert ml.widget.current == 1 and ml.widget.entries[1]["ahead"]
    ml._message(ml.widget, {"step": 1}, [])
    assert b.moves.ply == 2
    b.lines.branch("x", at=1)
    ml._message(ml.widget, {"line": "main"}, [])
    assert b.study.current == "main"


def test_keys_on_the_map_step_through_the_line(scenario: Scenario) -> None:
    b = _kassala_with_three_actions(scenario)
    n = b.moves.ply
    b.key("ArrowLeft")
    assert b.moves.ply == n - 1
    b.key("Home")
    assert b.moves.ply == 0
    b.key("End")
    assert b.moves.ply == n
    b.play.select(next(iter(b.position.units)))
    b.key("Escape")
    assert b.selected is None and b.key("x") is None


def test_the_hide_the_hands_box_shows_in_analysis_only(scenario: Scenario) -> None:
    pytest.importorskip("ipywidgets")
    from cheren.app import App

    app = App(position="kassala")  # the Italian side to act
    box = app.play_view.hide_hands
    allied = hand_names(app.board, Side.ALLIED)
    assert box.layout.display == "flex" and panels.esc(allied[0]) in app.play_view.chits.value
    box.value = True
    assert app.board.hidden.hide_hands and f"<b>{panels.esc(allied[0])}</b>" not in app.play_view.chits.value
    assert App(Game(scenario, seed=1)).play_view.hide_hands.layout.display == "none"  # hot-seat play


# -- play-outs in the background -------------------------------------------------------------------
def test_play_outs_run_in_the_background_and_stop_keeps_the_finished_games(scenario: Scenario) -> None:
    import time

    b = Board(Game(scenario, seed=1))
    b.positions.open("kassala")
    seen: list[int] = []
    b.playouts.watch(lambda: seen.append(b.playouts.done))
    assert b.playouts.start(200, "random").ok and b.playouts.running
    assert b.playouts.start(5).kind == "refused"  # one run at a time
    deadline = time.monotonic() + 120
    while b.playouts.done < 2:
        assert time.monotonic() < deadline and b.playouts.running, b.playouts.error
        time.sleep(0.05)
    # the board is the user's meanwhile: a click, a move, through the gate as ever
    from cheren.engine.actions import PassChit

    assert b.decisions.apply(PassChit()).ok
    mover = next(uid for uid in sorted(b.position.units) if b.play.legal_moves(uid))
    assert b.play.select(mover).ok and b.play.move_to(sorted(b.play.legal_moves(mover))[0]).ok
    assert b.playouts.running
    fb = b.playouts.stop()
    kept = b.playouts.done
    assert fb.text == f"Stopped: {kept} of 200 play-outs finished and kept." and kept >= 2
    b.playouts.wait(30)
    assert b.playouts.state == "stopped" and b.playouts.done == kept < 200  # nothing came in after Stop
    assert len(b.playouts.evaluation.vps) == kept  # type: ignore[union-attr]
    assert seen[-1] == kept and b.playouts.stop().text == "No play-out is running."
    assert b.playouts.start(0).kind == "refused"


def test_the_gauge_says_games_done_the_running_estimate_and_the_bots() -> None:
    from cheren.app.analysis_panel import gauge_html
    from cheren.study.analysis.evaluate import evaluate

    assert "0 of 5 play-outs" in gauge_html(None, 5, "idle")
    ev = evaluate(open_position("agordat").position, 2, allied="random", italian="random", seed=3)
    running = gauge_html(ev, 10, "running", 4.0)
    assert "2 of 10 play-outs so far in 4 s" in running and "width:20.0%" in running
    assert "Allied win" in running and "95% intervals" in running and "the random bot on both sides" in running
    assert "Stopped: 2 of 10 play-outs finished and kept" in gauge_html(ev, 10, "stopped")
    # the results bar names its parts: a bare "100%" beside the progress bar read as the run's progress
    from cheren.app.analysis_panel import shares_html

    bar = shares_html(ev)
    assert any(f">{name} " in bar for name in ("Allied win", "draw", "Italian win")), bar


def test_the_editor_opens_on_the_apps_own_map_and_play_from_here_brings_the_position_back() -> None:
    pytest.importorskip("ipywidgets")
    from cheren.app import App

    app = App(position="agordat")
    widgets_before = app.map.widget

    def on_map() -> object:
        return app.map.controller

    editor = app.edit()
    assert on_map() is editor.controller and editor.map is app.map  # one map widget
    assert app.body.children[1] is editor.side_panel and app.end_button.layout.display == "none"
    editor.controller.pick("alpini_uork_amba")
    assert editor.controller.click_hex(Hex.from_label("1805")).kind != "refused"
    assert app.board.position.units["alpini_uork_amba"].hex is None  # the board is not touched yet
    editor._play()
    assert on_map() is app.board and app.map.widget is widgets_before and app.editor is None
    assert app.board.position.units["alpini_uork_amba"].hex == Hex.from_label("1805")
    assert app.board.hidden.seating == "analysis" and "Agordat" in app.position_view.text.value
    app.edit()
    app.stop_editing()  # back, unchanged
    assert on_map() is app.board and app.body.children[1] is app.side


def test_the_overlays_that_may_show_together_have_colours_apart() -> None:
    """Issue 30: two overlays shared nearly the same lavender (the bot's moves and where two lines
    differ; the supply cuts are purple too)."""
    from cheren.app.map_overlays import BOT_MOVES
    from cheren.study.variations import LINE_DIFF

    def rgb(c: str) -> tuple[int, int, int]:
        return int(c[1:3], 16), int(c[3:5], 16), int(c[5:7], 16)

    from cheren.engine.threats import threats
    from cheren.study.overlays import threat_overlays

    p = open_position("agordat").position
    shown = {o.kind: o.colour for o in threat_overlays(threats(p, p.side))}
    colours = {"bot moves": BOT_MOVES, "line difference": LINE_DIFF, "supply cut": shown["supply-cut"],
               "threat": shown["threat"]}
    for a, ca in colours.items():
        for b, cb in colours.items():
            if a < b:
                distance = sum((x - y) ** 2 for x, y in zip(rgb(ca), rgb(cb), strict=True)) ** 0.5
                assert distance > 100, (a, b, distance)
