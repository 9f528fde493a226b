"""Chits (5.0, 5.1): the draw, the cup, the hands, the windows, the effects, hidden hands."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from cheren.engine.actions import EndPhase, Move, PassChit, PlayChit
from cheren.engine.game import Game
from cheren.engine.position import Position, Supply, chit_instances
from cheren.engine.rules.movement import reachable
from cheren.players.views import chit_view, full_view, player_view
from cheren.scenario import Phase, Scenario, Side
from cheren.study.game_saves import dumps_game, loads_game
from tests.boards import H, allied, board, italian, position

CLEAR = ["........", "........", "........", "........", "........"]


def chit(key: str, side: str, phase: str, player: str, effect: str, count: int = 1, **extra: Any) -> dict[str, Any]:
    return {"key": key, "name": key.replace("_", " ").title(), "side": side, "count": count,
            "windows": [{"phase": phase, "player": player}], "effect": effect, "text": f"{key} effect", **extra}


CHITS = [
    chit("infiltrate", "allied", "movement", "phasing", "infiltrate", count=2, low_supply_target=False),
    chit("forced_march", "allied", "movement", "phasing", "forced_march", params={"mp": 2}),
    chit("engineers", "allied", "movement", "phasing", "engineers"),
    chit("exploit_allied", "allied", "exploitation", "phasing", "exploit"),
    chit("air_strike", "allied", "combat", "phasing", "column_shift", one_time=True, params={"columns": 1}),
    chit("roadblock", "italian", "movement", "non_phasing", "roadblock", count=2),
    chit("demolition", "italian", "movement", "non_phasing", "demolition", one_time=True),
    chit("reserves", "italian", "reaction", "non_phasing", "reaction_limit", params={"limit": 5}),
]


def chit_board(tmp_path: Path, terrain: list[str] | None = None, **options: Any) -> Scenario:
    counters = options.pop("counters", [allied("a"), allied("b"), italian("i")])
    return board(tmp_path, terrain or CLEAR, counters, chits=CHITS, hand_size=0, **options)


def with_hands(p: Position, allied_hand: list[str], italian_hand: list[str], cup: list[str]) -> Position:
    """Set the hands and the cup; every other chit is out of play, so the chits still add up."""
    p.chits.hands[Side.ALLIED] = list(allied_hand)
    p.chits.hands[Side.ITALIAN] = list(italian_hand)
    p.chits.cup = list(cup)
    placed = {*allied_hand, *italian_hand, *cup}
    p.chits.removed = [c for c in chit_instances(p.scenario) if c not in placed]
    return p


def chit_game(s: Scenario, placements: dict[str, str], hands: tuple[list[str], list[str], list[str]],
              **kwargs: Any) -> Game:
    p = with_hands(position(s, placements, **kwargs), *hands)
    return Game(s, 1, p)


# -- the mechanism --------------------------------------------------------------------------------
def test_5_1_after_playing_the_owner_draws_and_keeps_an_own_chit(tmp_path: Path) -> None:
    s = chit_board(tmp_path)
    g = chit_game(s, {"a": "0101", "i": "0805"}, (["infiltrate.1"], [], ["engineers.1"]))
    g.apply(PlayChit("infiltrate.1", unit="a"))
    c = g.position.chits
    assert c.hands[Side.ALLIED] == ["engineers.1"] and c.played == ["infiltrate.1"] and c.cup == []


def test_5_1_drawing_an_enemy_chit_removes_it_unseen_without_a_redraw(tmp_path: Path) -> None:
    s = chit_board(tmp_path)
    g = chit_game(s, {"a": "0101", "i": "0805"}, (["infiltrate.1"], [], ["roadblock.1", "roadblock.2"]))
    g.position.dice = type(g.position.dice)(0)
    g.apply(PlayChit("infiltrate.1", unit="a"))
    c = g.position.chits
    assert c.hands[Side.ALLIED] == []
    drawn = c.removed[-1]
    assert drawn.startswith("roadblock") and len(c.cup) == 1 and c.seen[Side.ALLIED] == [drawn]
    assert drawn in chit_view(g.position, Side.ALLIED).removed_known  # the drawer looked at it
    assert drawn not in chit_view(g.position, Side.ITALIAN).removed_known  # the owner does not learn which
    assert chit_view(g.position, Side.ITALIAN).removed_unknown_count == 1


def test_5_1_at_the_end_of_the_phase_played_chits_return_one_time_chits_leave(tmp_path: Path) -> None:
    s = chit_board(tmp_path)
    g = chit_game(s, {"a": "0101", "i": "0805"}, (["infiltrate.1"], [], []))
    g.apply(PlayChit("infiltrate.1", unit="a"))
    g.apply(EndPhase())
    assert g.position.chits.cup == ["infiltrate.1"] and g.position.chits.played == []
    g2 = chit_game(s, {"a": "0303", "i": "0403"}, (["air_strike.1"], [], []), phase=Phase.COMBAT)
    g2.flow.extra["combat"] = {"attacks": {"0403": {}}}
    g2.apply(PlayChit("air_strike.1", target="0403"))
    assert g2.position.chits.played == ["air_strike.1"]
    g2.apply(EndPhase())
    assert "air_strike.1" in g2.position.chits.removed and "air_strike.1" not in g2.position.chits.cup
    assert "air_strike.1" in chit_view(g2.position, Side.ITALIAN).removed_known  # played face up: public


def test_5_1_only_one_chit_of_a_kind_per_phase(tmp_path: Path) -> None:
    s = chit_board(tmp_path)
    g = chit_game(s, {"a": "0101", "b": "0103", "i": "0805"}, (["infiltrate.1", "infiltrate.2"], [], []))
    g.apply(PlayChit("infiltrate.1", unit="a"))
    refusal = g.check(PlayChit("infiltrate.2", unit="b")).refusal
    assert refusal is not None and refusal.rules == ("5.1",) and "one of a kind" in refusal.reason
    assert all(not (isinstance(a, PlayChit) and a.chit == "infiltrate.2") for a in g.legal_actions())
    g.apply(EndPhase())  # a new phase: (if it were a movement phase) another could be played


def test_5_1_a_chit_is_played_only_in_its_window(tmp_path: Path) -> None:
    s = chit_board(tmp_path)
    g = chit_game(s, {"a": "0101", "i": "0805"}, (["infiltrate.1"], [], []), phase=Phase.COMBAT)
    refusal = g.check(PlayChit("infiltrate.1", unit="a")).refusal
    assert refusal is not None and refusal.rules == ("5.1",) and "Movement (own turn)" in refusal.reason


def test_5_1_only_the_owner_plays_from_the_hand(tmp_path: Path) -> None:
    s = chit_board(tmp_path)
    g = chit_game(s, {"a": "0101", "i": "0805"}, ([], ["roadblock.1"], []), side=Side.ITALIAN)
    refusal = g.check(PlayChit("infiltrate.1", unit="i")).refusal
    assert refusal is not None and "not in a player's hand" in refusal.reason


def test_12_5_low_supply_units_are_not_the_object_of_some_chits(tmp_path: Path) -> None:
    s = chit_board(tmp_path)
    g = chit_game(s, {"a": "0101", "i": "0805"}, (["infiltrate.1", "forced_march.1"], [], []),
                  supply={"a": Supply.LOW})
    refusal = g.check(PlayChit("infiltrate.1", unit="a")).refusal
    assert refusal is not None and "12.5" in refusal.rules and "Low/No supply" in refusal.reason
    assert g.check(PlayChit("forced_march.1", unit="a")).ok  # Forced march allows it in this data


# -- effects --------------------------------------------------------------------------------------
def test_infiltrate_ignores_zoc_cost_and_hard_zoc_stop(tmp_path: Path) -> None:
    s = chit_board(tmp_path, ["......", "MMM.MM", "MMMMMM"],
                   counters=[allied("a", mp=6), italian("i", stack=3)])
    g = chit_game(s, {"a": "0101", "i": "0402"}, (["infiltrate.1"], [], []))
    assert H("0501") not in reachable(g.position, "a")  # stopped by the hard ZoC in 0401
    g.apply(PlayChit("infiltrate.1", unit="a"))
    g.apply(Move("a", (H("0201"), H("0301"), H("0401"), H("0501"), H("0601"))))
    assert g.position.units["a"].hex == H("0601")


def test_forced_march_adds_movement_points(tmp_path: Path) -> None:
    s = chit_board(tmp_path, counters=[allied("a", mp=2), italian("i")])
    g = chit_game(s, {"a": "0101", "i": "0805"}, (["forced_march.1"], [], []))
    assert g.check(Move("a", (H("0201"), H("0301"), H("0401")))).refusal is not None
    g.apply(PlayChit("forced_march.1", unit="a"))
    assert g.check(Move("a", (H("0201"), H("0301"), H("0401")))).ok


def test_engineers_cross_rivers_without_the_river_cost(tmp_path: Path) -> None:
    s = chit_board(tmp_path, rivers=[["0101/0201", "0102/0201"]])
    g = chit_game(s, {"a": "0101", "i": "0805"}, (["engineers.1"], [], []))
    assert reachable(g.position, "a").reach[H("0201")].cost == 3
    g.apply(PlayChit("engineers.1", unit="a"))
    g.apply(Move("a", (H("0201"),)))
    assert "for 1 MP" in g.log[-1].events[0]


ROAD = ["0101", "0201", "0301", "0401", "0501", "0601", "0701", "0801"]


def test_roadblock_window_opens_for_the_italians_in_the_allied_movement_phase(tmp_path: Path) -> None:
    s = chit_board(tmp_path, ["........", "hhhhhhhh", "........", "........", "........"], roads=[ROAD])
    p = with_hands(position(s, {"a": "0101", "i": "0805"}, phase=Phase.REINFORCEMENT), [], ["roadblock.1"], [])
    g = Game(s, 1, p)
    g.apply(EndPhase())
    d = g.pending
    assert d is not None and d.kind == "chit_window" and d.side is Side.ITALIAN
    assert PassChit() in g.legal_actions()
    g.apply(PlayChit("roadblock.1", target="0401"))
    assert g.pending is None and g.acting is Side.ALLIED
    reach = reachable(g.position, "a", g.move_options("a"))
    assert reach.reach[H("0401")].stops  # allied units entering the roadblock hex stop
    assert reach.reach[H("0401")].cost == Fraction(1) + 1  # 0201, 0301 by road; 0401 pays clear terrain
    assert H("0501") not in reach


def test_roadblock_window_can_be_passed(tmp_path: Path) -> None:
    s = chit_board(tmp_path, roads=[ROAD])
    p = with_hands(position(s, {"a": "0101", "i": "0805"}, phase=Phase.REINFORCEMENT), [], ["roadblock.1"], [])
    g = Game(s, 1, p)
    g.apply(EndPhase())
    g.apply(PassChit())
    assert g.pending is None and g.phase is Phase.MOVEMENT
    assert g.position.chits.hands[Side.ITALIAN] == ["roadblock.1"]


def test_demolition_makes_a_road_crossing_pay_the_river_for_the_rest_of_the_turn(tmp_path: Path) -> None:
    s = chit_board(tmp_path, roads=[ROAD], rivers=[["0301/0401", "0302/0401"]])
    p = with_hands(position(s, {"a": "0101", "i": "0805"}, phase=Phase.REINFORCEMENT), [], ["demolition.1"], [])
    g = Game(s, 1, p)
    g.apply(EndPhase())
    assert reachable(g.position, "a").reach[H("0401")].cost == Fraction(3, 2)
    g.apply(PlayChit("demolition.1", target="0301/0401"))
    assert reachable(g.position, "a", g.move_options("a")).reach[H("0401")].cost == Fraction(7, 2)
    while g.turn == 1:
        g.apply(PassChit() if g.pending is not None else EndPhase())
    assert not g.flow.turn_extra.get("blown_bridges")  # the bridge counts as down for this turn only


def test_exploit_lets_any_unit_move_in_exploitation(tmp_path: Path) -> None:
    s = chit_board(tmp_path)
    g = chit_game(s, {"a": "0101", "i": "0805"}, (["exploit_allied.1"], [], []), phase=Phase.EXPLOITATION)
    refusal = g.check(Move("a", (H("0201"),))).refusal
    assert refusal is not None and refusal.rules == ("13.0",)
    g.apply(PlayChit("exploit_allied.1", unit="a"))
    assert g.check(Move("a", (H("0201"),))).ok


def test_reserves_raise_the_reaction_limit(tmp_path: Path) -> None:
    s = chit_board(tmp_path, counters=[allied("a"), *(italian(f"i{n}", stack=2) for n in range(3))])
    g = chit_game(s, {"a": "0101", "i0": "0805", "i1": "0705", "i2": "0605"}, ([], ["reserves.1"], []),
                  phase=Phase.REACTION)
    g.apply(Move("i0", (H("0804"),)))
    assert g.check(Move("i1", (H("0704"),))).refusal is not None  # 2 + 2 > 3
    g.apply(PlayChit("reserves.1"))
    g.apply(Move("i1", (H("0704"),)))
    assert g.check(Move("i2", (H("0604"),))).refusal is not None  # 2 + 2 + 2 > 5


# -- hidden information ---------------------------------------------------------------------------
def test_5_0_a_sides_view_never_contains_the_other_sides_hidden_chits(tmp_path: Path) -> None:
    s = chit_board(tmp_path)
    p = with_hands(position(s, {"a": "0101", "i": "0805"}), ["infiltrate.1", "engineers.1"],
                   ["roadblock.1", "reserves.1"], ["roadblock.2", "forced_march.1"])
    allied_view = json.dumps(player_view(p, Side.ALLIED))
    italian_view = json.dumps(player_view(p, Side.ITALIAN))
    for hidden in ("roadblock.1", "reserves.1", "roadblock.2", "forced_march.1"):
        assert hidden not in allied_view
    for hidden in ("infiltrate.1", "engineers.1", "roadblock.2", "forced_march.1"):
        assert hidden not in italian_view
    assert "infiltrate.1" in allied_view and "reserves.1" in italian_view
    assert player_view(p, Side.ALLIED)["chits"]["enemy_hand_count"] == 2
    full = json.dumps(full_view(p))
    assert all(c in full for c in ("roadblock.1", "infiltrate.1", "forced_march.1"))


def test_chit_plays_replay_and_save(tmp_path: Path) -> None:
    s = chit_board(tmp_path)
    g = chit_game(s, {"a": "0101", "i": "0805"}, (["infiltrate.1"], [], ["roadblock.1", "engineers.1"]))
    g.apply(PlayChit("infiltrate.1", unit="a"))
    g.apply(Move("a", (H("0201"),)))
    g.apply(EndPhase())
    again = loads_game(dumps_game(g), s)
    assert again.position.chits == g.position.chits


@pytest.mark.parametrize("side", list(Side))
def test_legal_chit_plays_are_accepted(tmp_path: Path, side: Side) -> None:
    s = chit_board(tmp_path, roads=[ROAD])
    p = with_hands(position(s, {"a": "0101", "i": "0805"}, phase=Phase.REINFORCEMENT),
                   ["infiltrate.1", "forced_march.1"], ["roadblock.1"], [])
    g = Game(s, 1, p)
    g.apply(EndPhase())
    if side is Side.ALLIED:
        g.apply(PassChit())
    assert g.acting is side
    plays = [a for a in g.legal_actions() if isinstance(a, PlayChit)]
    assert plays
    for play in plays:
        assert g.check(play).ok


def test_supply_convoy_is_offered_before_the_check_and_keeps_a_stack_supplied(tmp_path: Path) -> None:
    chits = [*CHITS, chit("supply_convoy", "allied", "supply", "phasing", "supply_convoy")]
    s = board(tmp_path, CLEAR, [allied("a"), allied("b"), italian("i")], chits=chits, hand_size=0)
    p = with_hands(position(s, {"a": "0301", "b": "0303", "i": "0805"}, phase=Phase.COMBAT),
                   ["supply_convoy.1"], [], [])
    g = Game(s, 1, p)  # no allied supply source on this board: both units are out of supply
    g.apply(EndPhase())
    d = g.pending
    assert d is not None and d.kind == "chit_window" and d.side is Side.ALLIED and "12.0" in d.rules
    assert g.position.units["a"].supply is None  # the check has not run yet
    g.apply(PlayChit("supply_convoy.1", target="0301"))
    assert g.position.units["a"].supply is None  # kept in supply by the convoy
    assert g.position.units["b"].supply is Supply.LOW
