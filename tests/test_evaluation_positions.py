"""Training and measuring the learned evaluation on games played on from library positions
(issue 34): `cheren simulate --position`, `cheren train-eval --from` on such games (replayed
from the position their run names, not from the set-up) and `cheren calibrate-eval --position`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cheren.cli.main import main
from cheren.files import library_names, load_position, position_code
from cheren.players.results_file import read_run
from cheren.players.simulate import replay_result
from cheren.scenario import load_scenario
from cheren.study.analysis.evaluate import evaluate
from cheren.study.evaluation import feature_names, features
from cheren.study.evaluation.training import positions_of

pytest.importorskip("lightgbm")


@pytest.fixture(scope="module")
def played_on(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three random-bot games played on from the library's last position (turn 12, Massaua)."""
    path = tmp_path_factory.mktemp("positions") / "massaua.json"
    assert main(["simulate", "--position", "massaua", "--games", "3", "--seed", "5", "--allied", "random",
                 "--italian", "random", "--logs", "--out", str(path), "--quiet"]) == 0
    return path


def test_simulate_plays_on_from_a_library_position(played_on: Path) -> None:
    s = load_scenario()
    games, run = read_run(played_on)
    start = load_position("massaua", s)
    assert run.position == position_code(start)
    assert all(g.first_turn == 12 for g in games)
    for g in games:  # each game replays from the position its run names, to the same end
        game = replay_result(g, s, run.position)
        assert game.over and game.position.allied_vp() == g.allied_vp
        assert len(game.log) == len(g.log or [])


def test_a_stopped_position_run_resumes_from_its_files_position(
        played_on: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cheren.players import simulate
    from tests.test_hostile_runs import StopAfter

    out = tmp_path / "run.json"
    monkeypatch.setattr(simulate, "game_progress", StopAfter(1))
    assert main(["simulate", "--position", "massaua", "--games", "3", "--seed", "5", "--allied", "random",
                 "--italian", "random", "--logs", "--out", str(out)]) == 130
    assert read_run(out)[1].partial
    monkeypatch.setattr(simulate, "game_progress", StopAfter(99))
    # --resume without --position: the file says which position its games are played on from
    assert main(["simulate", "--resume", str(out), "--quiet"]) == 0
    assert read_run(out)[0] == read_run(played_on)[0]
    assert main(["simulate", "--position", "asmara", "--resume", str(out), "--quiet"]) == 2


def test_train_eval_learns_from_games_played_on_from_a_position(played_on: Path, tmp_path: Path) -> None:
    s = load_scenario()
    setup = tmp_path / "setup.json"
    assert main(["simulate", "--games", "3", "--seed", "8", "--allied", "random", "--italian", "random", "--logs",
                 "--out", str(setup), "--quiet"]) == 0
    model = tmp_path / "model.json"
    assert main(["train-eval", "--from", str(setup), "--from", str(played_on), "--out", str(model), "--quiet"]) == 0
    data = json.loads(model.read_text())
    assert data["games"] == 6 and data["starts"] == {"set-up": 3, "massaua": 3}
    # the position games were sampled from Massaua on turn 12, not replayed from the set-up
    games, run = read_run(played_on)
    sampled = positions_of(games, s, starts=[run.position] * len(games))
    turn = list(feature_names(s)).index("turn")
    assert sampled.rows[0] == features(load_position("massaua", s))
    assert all(row[turn] == 12 for row in sampled.rows)
    from cheren.study.evaluation import load_model

    caption = load_model(model, s).provenance.caption()
    assert "3 from the set-up, 3 played on from 1 library position)" in caption


def test_calibrate_eval_measures_chosen_library_positions_on_the_librarys_seeds(
        played_on: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    s = load_scenario()
    model = tmp_path / "model.json"
    assert main(["train-eval", "--from", str(played_on), "--out", str(model), "--quiet"]) == 0
    out = tmp_path / "cal.json"
    assert main(["calibrate-eval", "--model", str(model), "--position", "massaua", "--playouts", "4", "--bot",
                 "random", "--seed", "300", "--out", str(out), "--quiet"]) == 0
    (point,) = json.loads(out.read_text())["playouts"]["points"]
    # the play-outs a whole-library run would play for it: seed + its place in the library
    ev = evaluate(load_position("massaua", s), 4, allied="random", italian="random",
                  seed=300 + library_names(s).index("massaua"))
    assert point["label"] == "massaua" and point["games"] == 4
    assert point["code"] == position_code(load_position("massaua", s))  # kept: a random position has no name
    assert point["wins"] == sum(1 for r in ev.results if r.winner == "allied")
    capsys.readouterr()
    assert main(["calibrate-eval", "--model", str(model), "--position", "nowhere", "--quiet"]) == 2
    assert "not a library position" in capsys.readouterr().err
    # the same play-outs played by `cheren simulate --position` (kept with their actions, to train on too)
    # measure the model as well: counted from the results file, matched by the position's code and seed
    kept = tmp_path / "kept.json"
    assert main(["simulate", "--position", "massaua", "--games", "4", "--seed",
                 str(300 + library_names(s).index("massaua")), "--allied", "random", "--italian", "random",
                 "--logs", "--out", str(kept), "--quiet"]) == 0
    again = tmp_path / "again.json"
    assert main(["calibrate-eval", "--model", str(model), "--position", "massaua", "--seed", "300",
                 "--playouts-from", str(kept), "--out", str(again), "--quiet"]) == 0
    assert json.loads(again.read_text())["playouts"]["points"] == [point]
    capsys.readouterr()
    assert main(["calibrate-eval", "--model", str(model), "--position", "massaua", "--seed", "301",
                 "--playouts-from", str(kept), "--quiet"]) == 2
    assert "calibrate-eval gives it seed 317" in capsys.readouterr().err


def test_leave_one_out_measures_each_position_by_a_model_that_never_saw_its_play_outs(
        played_on: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    s = load_scenario()
    setup = tmp_path / "setup.json"
    assert main(["simulate", "--games", "3", "--seed", "8", "--allied", "random", "--italian", "random", "--logs",
                 "--out", str(setup), "--quiet"]) == 0
    cal = tmp_path / "cal.json"  # as calibrate-eval --out writes it
    cal.write_text(json.dumps({"playouts": {"bot": "random", "playouts": 4, "seed": 1, "mae": 0.0, "points": [
        {"label": "massaua", "model": 0.5, "wins": 3, "games": 4},
        {"label": "asmara", "model": 0.5, "wins": 1, "games": 4}]}}))
    capsys.readouterr()
    chart = tmp_path / "left-out.png"
    assert main(["train-eval", "--from", str(setup), "--from", str(played_on), "--out", str(tmp_path / "m.json"),
                 "--leave-one-out", str(cal), "--leave-one-out-chart", str(chart), "--quiet"]) == 0
    assert chart.read_bytes()[:4] == b"\x89PNG"
    printed = capsys.readouterr().out
    assert "| massaua | 3/4 = 0.75" in printed and "(held out)" in printed
    # no games were played on from Asmara: the model trained on all is held out there, one figure twice
    (asmara,) = [line.split(" | ") for line in printed.splitlines() if line.startswith("| asmara |")]
    assert asmara[2] == asmara[4]
    from cheren.study.evaluation import load_model
    from cheren.study.evaluation.calibration import Point, leave_one_out

    games = [*read_run(setup)[0], *read_run(played_on)[0]]
    games = [g.__class__(**{**g.__dict__, "index": i}) for i, g in enumerate(games)]
    code = read_run(played_on)[1].position
    data = positions_of(games, s, starts=[None] * 3 + [code] * 3)
    names = dict(enumerate(["set-up"] * 3 + ["massaua"] * 3))
    (row,) = leave_one_out(data, names, [(Point("massaua", 0.5, 3, 4), load_position("massaua", s))], s,
                           load_model(tmp_path / "m.json", s))
    assert row.trained_without == 3 and row.games == 4 and row.share == 0.75
    assert main(["train-eval", "--from", str(setup), "--out", str(tmp_path / "m2.json"), "--leave-one-out",
                 str(setup), "--quiet"]) == 2
    assert "--leave-one-out" in capsys.readouterr().err


def test_leave_one_out_finds_the_play_outs_of_a_position_with_no_name_by_its_code(
        played_on: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A random mid-game position of calibrate-eval has no library name: its play-outs, trained on,
    are found by the code its calibration keeps, and its held-out model is trained without them."""
    from cheren.engine.actions import action_from_json
    from cheren.players.simulate import starting_game
    from cheren.study.evaluation import load_model
    from cheren.study.evaluation.calibration import Point, leave_one_out

    s = load_scenario()
    games, run = read_run(played_on)
    game = starting_game(s, games[0].seed, run.position, to_move=True)
    for logged in (games[0].log or [])[:3]:  # Massaua's position three actions on: no library name finds it
        game.apply(action_from_json(logged))
    code = position_code(game.position)
    assert code not in {position_code(load_position(name, s)) for name in library_names(s)}
    mid, setup = tmp_path / "mid.json", tmp_path / "setup.json"
    assert main(["simulate", "--position", code, "--games", "3", "--seed", "7", "--allied", "random", "--italian",
                 "random", "--logs", "--out", str(mid), "--quiet"]) == 0
    assert main(["simulate", "--games", "3", "--seed", "8", "--allied", "random", "--italian", "random", "--logs",
                 "--out", str(setup), "--quiet"]) == 0
    cal = tmp_path / "cal.json"
    cal.write_text(json.dumps({"playouts": {"bot": "random", "playouts": 4, "seed": 1, "mae": 0.0, "points": [
        {"label": "game 1 (seed 7), turn 12", "model": 0.5, "wins": 1, "games": 4, "code": code}]}}))
    capsys.readouterr()
    assert main(["train-eval", "--from", str(setup), "--from", str(mid), "--out", str(tmp_path / "m.json"),
                 "--leave-one-out", str(cal), "--quiet"]) == 0
    assert "| game 1 (seed 7), turn 12 | 1/4 = 0.25" in capsys.readouterr().out
    pooled = [*read_run(setup)[0], *read_run(mid)[0]]
    pooled = [g.__class__(**{**g.__dict__, "index": i}) for i, g in enumerate(pooled)]
    data = positions_of(pooled, s, starts=[None] * 3 + [code] * 3)
    starts = dict(enumerate(["set-up"] * 3 + [code] * 3))
    (row,) = leave_one_out(data, starts, [(Point("game 1 (seed 7), turn 12", 0.5, 1, 4, code),
                                           load_position(code, s))], s, load_model(tmp_path / "m.json", s))
    assert row.trained_without == 3 and row.share == 0.25


def test_the_leave_one_out_chart_names_every_position_where_it_can_be_read() -> None:
    """The positions the Allies nearly always lose crowd one corner of the chart; each name must
    still be readable: no two names overprint, and none runs off the picture."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.text import Annotation, Text

    from cheren.study.evaluation.calibration import LeftOut
    from cheren.study.evaluation.charts import left_out_chart

    crowd = [LeftOut(name, wins, 200, 0.05 + i / 200, 0.06 + i / 100, 900)
             for i, (name, wins) in enumerate([("build-up", 2), ("cub-cub", 2), ("briggs-force", 3),
                                               ("cheren-falls", 4), ("dologorodoc-counter", 7),
                                               ("dologorodoc", 11), ("abandon-cheren", 26), ("engiahat", 29)])]
    rows = [*crowd, LeftOut("massaua", 200, 200, 0.99, 0.97, 900), LeftOut("asmara", 181, 200, 0.84, 0.30, 900)]
    fig = left_out_chart(rows, "planner")
    renderer = FigureCanvasAgg(fig).get_renderer()  # type: ignore[no-untyped-call]
    notes = [t for t in fig.axes[0].texts if isinstance(t, Annotation)]
    assert sorted(n.get_text() for n in notes) == sorted(r.label for r in rows)
    boxes = []
    for note in notes:
        note.update_positions(renderer)
        boxes.append(Text.get_window_extent(note, renderer))
    picture = fig.bbox
    for i, box in enumerate(boxes):
        assert picture.x0 <= box.x0 and box.x1 <= picture.x1 and picture.y0 <= box.y0 and box.y1 <= picture.y1, \
            notes[i].get_text()
        for j in range(i):
            assert not box.overlaps(boxes[j]), (notes[i].get_text(), notes[j].get_text())


def test_the_calibration_charts_keep_their_legend_off_the_positions() -> None:
    """A position the model underrates sits at the upper left, where the legend used to be (a
    report set's chart had its words across such a point): the legend goes under the axes, inside
    the picture."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from cheren.study.evaluation.calibration import Bin, Calibration, LeftOut, Point, Reliability
    from cheren.study.evaluation.charts import left_out_chart, reliability_bins_chart, reliability_chart

    underrated = Calibration([Point("game 157, turn 5", 0.05, 195, 200), Point("game 1, turn 2", 0.5, 100, 200)],
                             "planner", 200, 34900)
    bins = Reliability([Bin(0.0, 0.1, 50, 20, 0.05, 45), Bin(0.4, 0.5, 50, 20, 0.45, 25)], 40, 100, "planner")
    left_out = [LeftOut("asmara", 190, 200, 0.1, 0.3, 900), LeftOut("agordat", 100, 200, 0.95, 0.5, 900)]
    for fig in (reliability_chart(underrated), reliability_bins_chart(bins), left_out_chart(left_out, "planner")):
        canvas = FigureCanvasAgg(fig)
        canvas.draw()  # type: ignore[no-untyped-call]  # the axis name and the legend are placed when drawn
        renderer = canvas.get_renderer()  # type: ignore[no-untyped-call]
        ax = fig.axes[0]
        legend = ax.get_legend()
        assert legend is not None
        box, axes, picture = legend.get_window_extent(renderer), ax.get_window_extent(renderer), fig.bbox
        assert box.y1 <= axes.y0, "the legend is inside the axes, over the points"
        assert not box.overlaps(ax.xaxis.label.get_window_extent(renderer)), "the legend covers the axis's name"
        assert picture.x0 <= box.x0 and box.x1 <= picture.x1 and picture.y0 <= box.y0, "the legend is cut off"
