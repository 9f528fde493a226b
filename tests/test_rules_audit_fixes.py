"""Regression tests for discrepancies a rules audit found (8.1, 8.4, 11.6, 5.1, 13.0, 3.0)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cheren.engine.actions import Move, PlayChit
from cheren.engine.game import Game
from cheren.engine.position import Status
from cheren.scenario import Phase, ScenarioError, Side
from tests.boards import H, allied, board, game, italian, position
from tests.scenario_factory import counter, mini_scenario
from tests.test_rules_combat import UNIT_TYPES, two_step

CLEAR = ["........"] * 5


def make(tmp_path: Path, counters: list[dict[str, Any]], terrain: list[str] | None = None, **kw: Any) -> Any:
    kw.setdefault("unit_types", UNIT_TYPES)
    return board(tmp_path, terrain or CLEAR, counters, **kw)


def answer_all(g: Game) -> None:
    while g.pending is not None:
        g.apply(g.legal_actions()[0])


def test_8_1_a_failed_arrival_is_not_fought_again_in_the_same_phase(tmp_path: Path) -> None:
    # K7-F8-style units arrive at Alpha, held by two Italian units that cannot retreat.
    arr = {"letter": "A", "turn": 7, "alternative": {"letter": "Z", "turn": 8}}
    s = make(tmp_path, [counter("ff1", "allied", faces=((3, 6), (2, 6)), arrival=arr),
                        counter("ff2", "allied", faces=((2, 6), (1, 6)), arrival=arr),
                        two_step("it", sp=4), two_step("it2", sp=4), allied("b1"), allied("b2")])
    g = game(s, {"it": "0101", "it2": "0101", "b1": "0201", "b2": "0102"}, turn=7, phase=Phase.REINFORCEMENT)
    answer_all(g)
    events = [e for entry in g.log for e in entry.events] + g._opening_events
    assert sum("each side loses a step" in e for e in events) == 1, events
    assert g.phase is Phase.REINFORCEMENT and g.pending is None


def test_8_1_no_control_marker_when_no_reinforcement_survives(tmp_path: Path) -> None:
    s = make(tmp_path, [counter("reinf", "allied", letter="A", turn=2, faces=((2, 4),)), two_step("it", sp=2),
                        allied("x")])
    g = game(s, {"it": "0101", "x": "0505"}, turn=2, phase=Phase.REINFORCEMENT)
    answer_all(g)
    assert g.position.units["reinf"].status is Status.ELIMINATED
    assert g.position.controller("Alpha") is Side.ITALIAN


def test_8_1_arriving_artillery_loses_the_step_only_if_nothing_else_can(tmp_path: Path) -> None:
    s = make(tmp_path, [counter("inf", "allied", letter="A", turn=2, faces=((4, 5), (2, 5))),
                        counter("gun", "allied", letter="A", turn=2, faces=((3, 4), (2, 4)), type="field_gun"),
                        two_step("it", sp=2)])
    g = game(s, {"it": "0101"}, turn=2, phase=Phase.REINFORCEMENT)
    # the allied loss is forced onto the infantry (the gun is spared, 11.6), so the first
    # decision left is the Italians' own loss
    assert g.position.units["inf"].steps_lost == 1 and g.position.units["gun"].steps_lost == 0


def test_5_1_a_roadblock_stop_cites_the_chit_not_zoc(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("a", mp=4), italian("i")], terrain=["......", "~~~~~~", "......"],
             roads=[["0101", "0201", "0301", "0401", "0501"]])
    p = position(s, {"a": "0101", "i": "0603"})
    p.chits.hands[Side.ITALIAN] = ["roadblock.1"]
    p.chits.cup.remove("roadblock.1")
    g = Game(s, seed=5, position=p)
    g.apply(PlayChit("roadblock.1", "", "0201"))
    refusal = g.check(Move("a", (H("0201"), H("0301")))).refusal
    assert refusal is not None and "5.1" in refusal.rules and "Roadblock" in refusal.reason
    assert "4.0" not in refusal.rules


def test_13_0_moving_an_enemy_unit_in_exploitation_cites_13_0(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("a"), italian("i")])
    g = game(s, {"a": "0101", "i": "0505"}, phase=Phase.EXPLOITATION)
    refusal = g.check(Move("i", (H("0504"),))).refusal
    assert refusal is not None and refusal.rules == ("13.0",)


def test_3_0_a_replacement_counter_must_stack_like_its_brigade(tmp_path: Path) -> None:
    counters = [counter("ind_5", "allied", letter="A", faces=((8, 5), (6, 5)), size="brigade", stack=2,
                        replacement="ind_5_repl"),
                counter("ind_5_repl", "allied", faces=((4, 5), (2, 5)), size="brigade", stack=1,
                        is_replacement=True),
                italian("it_1")]
    with pytest.raises(ScenarioError, match=r"ind_5\).replacement.*stacking value 1 differs"):
        mini_scenario(tmp_path, counters=counters,
                      towns=[{"name": "Alpha", "hex": "0101", "vp": 15, "letter": "A"},
                             {"name": "Zulu", "hex": "0401", "vp": 15, "letter": "Z"}])
