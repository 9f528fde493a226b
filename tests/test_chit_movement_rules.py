"""Each chit's effect on movement (5.1), played through the gate: the move it changes and the rule
the gate cites.  A stop or a refusal that a chit decides cites 5.1 and names the chit; one that
a hard enemy ZoC decides cites 4.0; one that the movement points decide cites 9.0 (issue 31:
a Roadblock stop with no enemy near was reported as a hard ZoC, 4.0)."""

from __future__ import annotations

from pathlib import Path

from cheren.engine.actions import EndPhase, Move, PlayChit
from cheren.engine.game import Game
from cheren.engine.rules.move_reasons import explain_move
from cheren.engine.rules.movement import reachable
from cheren.scenario import Phase
from tests.boards import H, allied, italian, position
from tests.test_rules_chits import ROAD, chit_board, chit_game, with_hands


def path(*labels: str) -> tuple:  # type: ignore[type-arg]
    return tuple(H(x) for x in labels)


def refusal_rules(g: Game, move: Move) -> tuple[tuple[str, ...], str]:
    refusal = g.check(move).refusal
    assert refusal is not None, f"{move} should be refused"
    return refusal.rules, refusal.reason


def test_5_1_a_roadblock_stop_cites_the_roadblock_not_a_zoc(tmp_path: Path) -> None:
    s = chit_board(tmp_path, ["........", "hhhhhhhh", "........", "........", "........"], roads=[ROAD])
    p = with_hands(position(s, {"a": "0101", "i": "0805"}, phase=Phase.REINFORCEMENT), [], ["roadblock.1"], [])
    g = Game(s, 1, p)
    g.apply(EndPhase())
    g.apply(PlayChit("roadblock.1", target="0401"))
    rules, reason = refusal_rules(g, Move("a", path("0201", "0301", "0401", "0501")))
    assert rules == ("5.1",) and "Roadblock" in reason and "ZoC" not in reason
    g.apply(Move("a", path("0201", "0301", "0401")))
    event = g.log[-1].events[0]
    assert event.endswith("stops at the Roadblock in 0401 (5.1)") and "4.0" not in event


def test_5_1_a_roadblock_without_road_movement_decides_a_refusal_and_cites_it(tmp_path: Path) -> None:
    s = chit_board(tmp_path, roads=[ROAD], counters=[allied("a", mp=2), italian("i")])
    p = with_hands(position(s, {"a": "0101", "i": "0805"}, phase=Phase.REINFORCEMENT), [], ["roadblock.1"], [])
    g = Game(s, 1, p)
    g.apply(EndPhase())
    assert H("0401") in reachable(g.position, "a").reach  # by road: 1.5 MP
    g.apply(PlayChit("roadblock.1", target="0301"))
    rules, reason = refusal_rules(g, Move("a", path("0201", "0301", "0401")))
    assert "5.1" in rules and "4.0" not in rules and "Roadblock in 0301" in reason


def test_5_1_a_blown_bridge_decides_a_refusal_and_cites_demolition(tmp_path: Path) -> None:
    s = chit_board(tmp_path, roads=[ROAD], rivers=[["0301/0401", "0302/0401"]],
                   counters=[allied("a", mp=2), italian("i")])
    p = with_hands(position(s, {"a": "0101", "i": "0805"}, phase=Phase.REINFORCEMENT), [], ["demolition.1"], [])
    g = Game(s, 1, p)
    g.apply(EndPhase())
    g.apply(PlayChit("demolition.1", target="0301/0401"))
    rules, reason = refusal_rules(g, Move("a", path("0201", "0301", "0401")))
    assert "5.1" in rules and "Demolition" in reason


def test_5_1_forced_march_the_extra_points_are_cited_and_beyond_them_the_points_decide(tmp_path: Path) -> None:
    s = chit_board(tmp_path, counters=[allied("a", mp=2), italian("i")])
    g = chit_game(s, {"a": "0101", "i": "0805"}, (["forced_march.1"], [], []))
    rules, _ = refusal_rules(g, Move("a", path("0201", "0301", "0401")))
    assert rules == ("9.0",)  # no chit played yet: the movement points decide
    g.apply(PlayChit("forced_march.1", unit="a"))
    said = explain_move(g.position, "a", H("0401"), g.move_options("a"))
    assert "Forced march gives it 2 more MP (5.1)" in said
    rules, _ = refusal_rules(g, Move("a", path("0201", "0301", "0401", "0501", "0601")))
    assert rules == ("9.0",)
    g.apply(Move("a", path("0201", "0301", "0401")))


def test_5_1_infiltrate_no_zoc_stop_is_reported_and_the_chit_is_cited(tmp_path: Path) -> None:
    s = chit_board(tmp_path, ["......", "MMM.MM", "MMMMMM"], counters=[allied("a", mp=6), italian("i", stack=3)])
    g = chit_game(s, {"a": "0101", "i": "0402"}, (["infiltrate.1"], [], []))
    rules, reason = refusal_rules(g, Move("a", path("0201", "0301", "0401", "0501")))
    assert rules == ("4.0",) and "hard enemy ZoC" in reason  # before the chit, the ZoC stops it
    g.apply(PlayChit("infiltrate.1", unit="a"))
    assert "Infiltrate lets it ignore enemy ZoC (5.1)" in explain_move(g.position, "a", H("0501"), g.move_options("a"))
    g.apply(Move("a", path("0201", "0301", "0401", "0501")))
    assert "stops" not in g.log[-1].events[0]


def test_5_1_engineers_cross_a_river_and_the_chit_is_cited(tmp_path: Path) -> None:
    s = chit_board(tmp_path, rivers=[["0101/0201", "0102/0201"]], counters=[allied("a", mp=2), italian("i")])
    g = chit_game(s, {"a": "0101", "i": "0805"}, (["engineers.1"], [], []))
    rules, _ = refusal_rules(g, Move("a", path("0201")))
    assert rules == ("9.0",)  # clear 1 + river 2: more than its 2 MP
    g.apply(PlayChit("engineers.1", unit="a"))
    assert "Engineers" in explain_move(g.position, "a", H("0201"), g.move_options("a"))
    g.apply(Move("a", path("0201")))


def test_5_1_engineers_pass_a_roadblock_without_stopping(tmp_path: Path) -> None:
    s = chit_board(tmp_path, ["........", "hhhhhhhh", "........", "........", "........"], roads=[ROAD])
    p = with_hands(position(s, {"a": "0101", "i": "0805"}, phase=Phase.REINFORCEMENT), ["engineers.1"],
                   ["roadblock.1"], [])
    g = Game(s, 1, p)
    g.apply(EndPhase())
    g.apply(PlayChit("roadblock.1", target="0301"))
    g.apply(PlayChit("engineers.1", unit="a"))
    g.apply(Move("a", path("0201", "0301", "0401")))
    assert "stops" not in g.log[-1].events[0]


def test_13_0_exploit_without_the_chit_cites_13_0_and_with_it_the_unit_moves(tmp_path: Path) -> None:
    s = chit_board(tmp_path)
    g = chit_game(s, {"a": "0101", "i": "0805"}, (["exploit_allied.1"], [], []), phase=Phase.EXPLOITATION)
    rules, _ = refusal_rules(g, Move("a", path("0201")))
    assert rules == ("13.0",)
    g.apply(PlayChit("exploit_allied.1", unit="a"))
    g.apply(Move("a", path("0201")))
    assert g.position.units["a"].hex == H("0201")
