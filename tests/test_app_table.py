"""The table fixes of issue 31 (item 4), each as an app test: the bot kept on reload, names
only in the messages and the log, ..."""

from __future__ import annotations

import html
import json
import random
import re
from pathlib import Path

import pytest

from cheren.app import panels
from cheren.app.app import App
from cheren.app.board import Board
from cheren.engine.game import Game
from cheren.engine.position import chit_instances
from cheren.engine.rules.chits import PassChit
from cheren.hexes import Hex
from cheren.players.bots import make_bot
from cheren.players.views import SideSeat
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
