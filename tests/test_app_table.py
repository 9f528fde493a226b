"""The table fixes of issue 31 (item 4), each as an app test: the bot kept on reload, ..."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cheren.app.app import App
from cheren.engine.game import Game
from cheren.hexes import Hex
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
