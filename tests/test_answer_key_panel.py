"""The answer-key panel beside a library position's game: the question and what happened next in
words, the historical plan played on the board as a line of its own, the comparison with the
analysis's best alternative filled in from the play-outs."""

from __future__ import annotations

import re

from cheren.app.answer_key_panel import HISTORICAL_LINE, AnswerKeyPanel, answer_key_html
from cheren.app.board import Board
from cheren.engine.game import Game
from cheren.engine.position import Status
from cheren.files import open_position
from cheren.scenario import load_scenario

SCENARIO = load_scenario()


def test_the_panel_reads_the_question_what_happened_and_the_plan() -> None:
    record = open_position("agordat-barentu", SCENARIO)
    html = answer_key_html(record)
    assert "The question (Italian to decide)" in html and "Hold Agordat with what is left" in html
    assert "The historical plan:" in html and "What happened next:" in html and "01 February 1941" in html


def test_play_the_historical_plan_as_a_line_of_its_own() -> None:
    record = open_position("agordat", SCENARIO)
    board = Board(Game.from_position(record.position.copy()))
    panel = AnswerKeyPanel(record, board, games=2)
    fb = panel.play_plan()
    assert fb.ok and "attack 1708 with 5 Ind, 11 Ind, Matilda" in fb.text
    assert board.study.current == HISTORICAL_LINE and set(board.study.lines) == {"main", HISTORICAL_LINE}
    assert [e.action.kind for e in board.game.log if e.side.value == "allied"][:1] == ["attack"]
    assert "die" in fb.text  # the attack was rolled with the position's own dice
    again = panel.play_plan()  # playing it again replaces the line, from the position
    assert again.ok and list(board.study.lines).count(HISTORICAL_LINE) == 1
    board.lines.switch("main")
    assert board.game.log == []


def test_compare_fills_in_the_play_out_numbers_and_what_they_mean() -> None:
    record = open_position("build-up", SCENARIO)
    panel = AnswerKeyPanel(record, games=2)
    key = panel.compare()
    assert key is not None and key.comparison is not None
    html = panel.output.value
    assert "<table" in html and "the historical plan" in html and "the analysis" in html
    assert "played out 2 times" in html and "heuristic" in html


def test_compare_counts_the_games_as_they_finish_before_the_table_comes() -> None:
    record = open_position("build-up", SCENARIO)
    panel = AnswerKeyPanel(record, games=2)
    shown: list[str] = []
    panel.output.observe(lambda change: shown.append(change["new"]), "value")
    panel.compare()
    counts = [m.group(1) for text in shown if (m := re.search(r"(\d+) of 4 games played", text))]
    assert counts == ["1", "2", "3", "4"]  # both plans' games, counted as they finish
    assert "<table" in shown[-1]  # then the numbers themselves


def test_compare_in_the_background_fills_in_when_done() -> None:
    record = open_position("agordat", SCENARIO)
    panel = AnswerKeyPanel(record, games=1)
    assert panel.compare(background=True) is None
    assert "Playing each plan out 1 times" in panel.output.value
    assert panel.thread is not None
    panel.thread.join(timeout=300)
    assert panel.key is not None and "<table" in panel.output.value
    assert record.position.units["col_2"].status is Status.MAP  # the record itself is never played on


def test_the_app_opened_on_a_library_position_shows_its_answer_key_and_the_keren_key() -> None:
    from cheren.app import App

    app = App(position="agordat")
    assert app.answer_key is not None and app.board.game.phase.value == "combat"
    assert "The question (Allied to decide)" in app.answer_key.text.value
    shown = [c for c in app.body.children[1].children if c.layout.display != "none"]
    # right after the position's own panel (its story and sources), near the top
    classes = [c._dom_classes for c in shown]
    at = next(i for i, c in enumerate(classes) if "cheren-answer-panel" in c)
    assert at <= 3 and any("cheren-position-panel" in c for c in classes[:at])
    assert app.answer_key.play_plan().ok and app.board.study.current == HISTORICAL_LINE
    assert app.board.overlays.set("keren-key").ok
    drawn = [o for o in app.board.overlays.drawn() if o.kind == "keren-key"]
    assert any("Sanchil" in (o.title or "") for o in drawn) and any(o.paths for o in drawn)
    assert "keren-key" in app.overlay_boxes
    plain = App()  # a game without a library position has no answer key panel
    assert plain.answer_key is None
    assert all("cheren-answer-panel" not in c._dom_classes for c in plain.body.children[1].children
               if c.layout.display != "none")
