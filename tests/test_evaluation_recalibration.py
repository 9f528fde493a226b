"""The learned evaluation's per-turn correction (issue 34, session 35): fitted by log loss on
games the model never saw, kept in the model file as data, applied to every evaluation, and
said in the caption."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from cheren.cli.main import main
from cheren.files import load_position
from cheren.scenario import load_scenario
from cheren.study.evaluation import EvaluationModel, EvaluationUnavailable, load_model
from cheren.study.evaluation.recalibration import LEAST, Recalibration, fit

pytest.importorskip("lightgbm")

WINNERS = [None if i == 3 else ("italian" if i < 3 else "allied") for i in range(7)]


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def test_fit_finds_the_slope_and_intercept_outcomes_follow() -> None:
    # a model too sure at turn 1 (the truth is half as steep) and leaning Allied at turn 2
    rng = random.Random(5)
    truth = {1: (0.5, 0.0), 2: (1.0, -0.4)}
    p, won, turns = [], [], []
    for turn, (a, b) in truth.items():
        for _ in range(20000):
            z = rng.gauss(0.0, 1.5)
            p.append(_sigmoid(z))
            won.append(rng.random() < _sigmoid(a * z + b))
            turns.append(turn)
    fitted = fit(p, won, turns, games=40)
    for turn, (a, b) in truth.items():
        got_a, got_b = fitted.by_turn[turn]
        assert got_a == pytest.approx(a, abs=0.05) and got_b == pytest.approx(b, abs=0.05)
    assert fitted.games == 40


def test_a_turn_with_too_few_positions_keeps_the_model_as_it_is() -> None:
    fitted = fit([0.3] * (LEAST - 1) + [0.6] * LEAST, [True] * (2 * LEAST - 1), [4] * (LEAST - 1) + [5] * LEAST)
    assert 4 not in fitted.by_turn and 5 in fitted.by_turn
    assert fitted.allied(0.3, 4) == 0.3
    # all won at turn 5: pushed up, and finite (the ridge)
    assert 0.6 < fitted.allied(0.6, 5) < 1.0


def test_the_levels_follow_the_corrected_chance_and_keep_each_sides_shape() -> None:
    fix = Recalibration({2: (1.0, -0.5)})
    probs = [0.1, 0.1, 0.1, 0.1, 0.2, 0.1, 0.3]  # Allied 0.6
    out = fix.levels(probs, WINNERS, 2)
    q = fix.allied(0.6, 2)
    assert q == pytest.approx(_sigmoid(math.log(0.6 / 0.4) - 0.5))
    assert sum(out) == pytest.approx(1.0)
    assert sum(out[4:]) == pytest.approx(q)
    assert out[4] / out[6] == pytest.approx(0.2 / 0.3) and out[0] / out[3] == pytest.approx(1.0)
    assert fix.levels(probs, WINNERS, 3) == probs  # no correction for turn 3


def test_recalibration_round_trips_as_data() -> None:
    fix = Recalibration({1: (0.31, -0.42), 2: (1.07, -0.24)}, 300, [35101])
    again = Recalibration.from_json(json.loads(json.dumps(fix.to_json())))
    assert again == fix


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """A model trained on four random-bot games, its games, and twenty other games of the same bot."""
    folder = tmp_path_factory.mktemp("recalibration")
    model, own, other = folder / "model.json", folder / "own.json", folder / "other.json"
    assert main(["train-eval", "--games", "4", "--bot", "random", "--seed", "7", "--out", str(model),
                 "--games-out", str(own), "--quiet"]) == 0
    assert main(["simulate", "--games", "20", "--seed", "8", "--allied", "random", "--italian", "random", "--logs",
                 "--quiet", "--out", str(other)]) == 0
    return model, own, other


def test_train_eval_recalibrate_writes_a_corrected_model(games: tuple[Path, Path, Path], tmp_path: Path) -> None:
    model, _, other = games
    out = tmp_path / "fixed.json"
    assert main(["train-eval", "--recalibrate", str(model), "--from", str(other), "--out", str(out), "--quiet"]) == 0
    s = load_scenario()
    before, after = load_model(model, s), load_model(out, s)
    assert after.recalibration is not None and after.recalibration.by_turn
    assert after.recalibration.games == 20 and after.recalibration.seeds == [8]
    assert "corrected turn by turn on 20 further games" in after.caption()
    assert after.provenance == before.provenance  # the same trees, the same games
    # a correction of no turn (too few positions everywhere) is not claimed
    idle = EvaluationModel(after.booster, after.provenance, after.levels, after.winners, "idle", Recalibration({}, 1))
    assert idle.caption() == after.provenance.caption()
    position = load_position("kassala", s)
    p, q = before.chances(position), after.chances(position)
    assert q.allied == pytest.approx(after.recalibration.allied(p.allied, position.turn))
    assert sum(q.levels.values()) == pytest.approx(1.0)


def test_recalibrating_on_the_models_own_games_is_refused(games: tuple[Path, Path, Path], tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    model, own, _ = games
    assert main(["train-eval", "--recalibrate", str(model), "--from", str(own), "--out",
                 str(tmp_path / "x.json")]) == 2
    err = capsys.readouterr().err
    assert "was trained on these games (seed 7)" in err and "Traceback" not in err
    assert not (tmp_path / "x.json").exists()
    assert main(["train-eval", "--recalibrate", str(model), "--out", str(tmp_path / "x.json")]) == 2
    assert "needs --from" in capsys.readouterr().err


@pytest.mark.parametrize("damage", [{"by_turn": {"2": ["a", 1]}}, {"by_turn": {"2": [float("nan"), 0]}},
                                    "not a mapping", {"games": -1, "by_turn": {}}])
def test_a_damaged_recalibration_is_one_line_naming_the_file(games: tuple[Path, Path, Path], tmp_path: Path,
                                                             damage: object) -> None:
    model, _, _ = games
    data = json.loads(model.read_text(encoding="utf-8"))
    data["recalibration"] = damage
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(EvaluationUnavailable) as caught:
        load_model(bad, load_scenario())
    message = str(caught.value)
    assert str(bad) in message and "damaged" in message and "\n" not in message


def test_a_version_1_model_file_still_loads(games: tuple[Path, Path, Path], tmp_path: Path) -> None:
    model, _, _ = games
    data = json.loads(model.read_text(encoding="utf-8"))
    data["version"] = 1
    old = tmp_path / "old.json"
    old.write_text(json.dumps(data), encoding="utf-8")
    loaded = load_model(old, load_scenario())
    assert loaded.recalibration is None
