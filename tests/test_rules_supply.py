"""Supply (12.0-12.3, 11.3), markers and attrition (12.4-12.6), town control (12.7) and the
victory count (14.0), on small hand-made maps and on the bundled one."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from cheren import load_scenario
from cheren.engine.actions import EndPhase
from cheren.engine.game import Game
from cheren.engine.position import Position, Status, Supply
from cheren.engine.rules.supply import (
    can_draw_supply,
    check_side,
    line_limit,
    supplied_at,
    supply_context,
    unit_supply,
)
from cheren.engine.rules.supply_hexes import supplied_hexes
from cheren.engine.rules.supply_phase import marker_after, town_control_changes
from cheren.engine.rules.victory import victory_summary
from cheren.engine.rules.zoc import zoc_map
from cheren.hexes import Hex
from cheren.render.svg import position_svg
from cheren.scenario import Phase, Scenario, Side
from cheren.study.analysis.supply_report import side_supply_report, unit_supply_report
from cheren.study.overlays import supply_line_overlay, supply_overlay
from tests.boards import H, allied, board, game, italian, position
from tests.scenario_factory import DEFAULT_UNIT_TYPES, counter, town

TOWNS = [town("Alpha", "0101", vp=15, letter="A"), town("Zulu", "0701", vp=15, letter="Z")]
WEST_EDGE = {"name": "West edge", "hexes": ["0102"]}


def depot(*labels: str, side: str = "italian") -> list[dict[str, Any]]:
    return [{"name": "Depot", "side": side, "hexes": list(labels)}]


def labels(hexes: tuple[Hex, ...]) -> list[str]:
    return [h.label for h in hexes]


def end_phases(g: Game, n: int) -> None:
    for _ in range(n):
        assert g.pending is None, g.pending
        g.apply(EndPhase())


def events(g: Game) -> list[str]:
    return [e for entry in g.log for e in entry.events]


# -- 12.1: the Arressa example ----------------------------------------------------------------
#   row 1: mountains (the Italian 3-6 stands in 0401)
#   row 2: the track 0102 (the red edge) ... 0602 (Arressa, rough)
#   row 3: 0603 hills, 0703 mountain;  row 4: clear, an Italian battalion in 0504
ARRESSA_TERRAIN = ["MMMMMMM", ".....r.", ".....hM", "......."]


def arressa(tmp_path: Path) -> Scenario:
    counters = [
        allied("ind_8_5", sp=8, mp=5, stack=2, size="brigade"),
        allied("comm_3_6", sp=3, mp=6, type="mountain_infantry"),
        allied("friend"),
        italian("alpini_3_6", sp=3, mp=6, type="mountain_infantry"),
        italian("col"),
    ]
    return board(
        tmp_path, ARRESSA_TERRAIN, counters,
        towns=[*TOWNS, town("Arressa", "0602", vp=1)],
        tracks=[["0102", "0202", "0302", "0402", "0502", "0602"]],
        allied_edges=[WEST_EDGE],
    )


def arressa_position(s: Scenario, alpini: str = "0401") -> Position:
    p = position(s, {"ind_8_5": "0602", "comm_3_6": "0704", "friend": "0603", "alpini_3_6": alpini, "col": "0504"})
    p.set_control("Arressa", Side.ALLIED)
    return p


def test_12_1_arressa_example_the_8_5_is_supplied_along_the_track(tmp_path: Path) -> None:
    p = arressa_position(arressa(tmp_path))
    # 4.0: the Italian 3-6 in the mountains has no ZoC, so the track is open
    assert not any(h in zoc_map(p, Side.ITALIAN) for h in (H("0302"), H("0402"), H("0502")))
    trace = unit_supply(p, "ind_8_5")
    assert trace.supplied and trace.rule == "12.0"
    assert trace.line == () and trace.reaches == "track"
    assert labels(trace.route) == ["0602", "0502", "0402", "0302", "0202", "0102"]
    assert trace.source == "West edge"


def test_12_1_arressa_example_the_3_6_is_out_of_supply(tmp_path: Path) -> None:
    p = arressa_position(arressa(tmp_path))
    trace = unit_supply(p, "comm_3_6")
    assert not trace.supplied
    # its only way to the track runs through 0603: hills, in the Italian battalion's ZoC
    # (entered only because a friendly unit is there): a one-hex line, and it needs two
    via = next(c for c in trace.candidates if c.path == (H("0603"), H("0602")))
    assert [b.rule for b in via.blocks] == ["12.0"]
    assert "may be only 1" in str(via.blocks[0])
    text = trace.explain()
    assert "cannot draw Allied supply" in text and "0603" in text and "(12.0)" in text
    # every candidate route carries at least one reason with its rule
    assert trace.candidates and all(c.blocks for c in trace.candidates)
    assert all(b.rule in ("12.0", "12.1") for c in trace.candidates for b in c.blocks)


def test_12_1_arressa_example_a_line_into_hill_and_enemy_zoc_is_one_hex(tmp_path: Path) -> None:
    p = arressa_position(arressa(tmp_path))
    # the friendly unit in 0603 traces one clear hex to the track in Arressa: limit 3
    friend = unit_supply(p, "friend")
    assert friend.supplied and friend.line == (H("0602"),) and friend.limit == 3
    assert line_limit(hill=True, zoc=True) == 1
    assert line_limit(hill=True, zoc=False) == line_limit(hill=False, zoc=True) == 2
    assert line_limit(hill=False, zoc=False) == 3


def test_12_1_a_mountain_unit_stepping_down_cuts_the_track(tmp_path: Path) -> None:
    # Designer's notes (15.0): the 3-6 steps down from the mountains next to the track
    p = arressa_position(arressa(tmp_path), alpini="0303")
    trace = unit_supply(p, "ind_8_5")
    assert not trace.supplied
    own = next(c for c in trace.candidates if c.path == ())
    assert own.target == H("0602")
    assert any("track from 0602" in b.reason and "enemy ZoC" in b.reason and b.rule == "12.1" for b in own.blocks)


# -- 12.0: the length of the line ----------------------------------------------------------------
def corridor(tmp_path: Path, row2: str = ".......", enemy: bool = False, source: str = "0102") -> Scenario:
    """A corridor of row 2 between mountains; with ``enemy``, 0203 is open ground beside it."""
    row3 = "M.MMMMM" if enemy else "MMMMMMM"
    counters = [italian("u"), italian("friend"), allied("enemy")]
    return board(tmp_path, ["MMMMMMM", row2, row3], counters, towns=TOWNS, supply_sources=depot(source))


def test_12_0_a_supply_line_is_at_most_three_hexes(tmp_path: Path) -> None:
    s = corridor(tmp_path)
    p = position(s, {"u": "0402"}, side=Side.ITALIAN)
    trace = unit_supply(p, "u")
    assert trace.supplied and labels(trace.line) == ["0302", "0202", "0102"]
    assert trace.reaches == "source" and trace.limit == 3
    assert "limit 3 hexes" in trace.explain() and "neither hills nor an enemy ZoC" in trace.explain()
    p = position(s, {"u": "0502"}, side=Side.ITALIAN)
    trace = unit_supply(p, "u")
    assert not trace.supplied and trace.candidates == ()
    assert "within 3 hexes" in trace.explain()


def test_12_0_a_hill_hex_shortens_the_line_to_two(tmp_path: Path) -> None:
    s = corridor(tmp_path, row2=".h.....")
    ok = unit_supply(position(s, {"u": "0302"}, side=Side.ITALIAN), "u")
    assert ok.supplied and ok.limit == 2 and "hill hex (0202)" in ok.limit_why
    far = unit_supply(position(s, {"u": "0402"}, side=Side.ITALIAN), "u")
    assert not far.supplied
    assert any(b.rule == "12.0" and "may be only 2" in b.reason for c in far.candidates for b in c.blocks)


def test_12_0_an_enemy_zoc_shortens_the_line_to_two(tmp_path: Path) -> None:
    s = corridor(tmp_path, enemy=True)
    ok = unit_supply(position(s, {"u": "0302", "friend": "0202", "enemy": "0203"}, side=Side.ITALIAN), "u")
    assert ok.supplied and ok.limit == 2 and "enemy ZoC (0202, held by a friendly unit)" in ok.limit_why
    far = unit_supply(position(s, {"u": "0402", "friend": "0202", "enemy": "0203"}, side=Side.ITALIAN), "u")
    assert not far.supplied


def test_12_0_a_line_entering_hill_and_enemy_zoc_is_one_hex_long(tmp_path: Path) -> None:
    s = corridor(tmp_path, row2=".h.....", enemy=True, source="0202")
    placements = {"friend": "0202", "enemy": "0203"}
    ok = unit_supply(position(s, {"u": "0302", **placements}, side=Side.ITALIAN), "u")
    assert ok.supplied and ok.line == (H("0202"),) and ok.limit == 1
    assert ok.limit_why == "it enters a hill hex (0202) and an enemy ZoC (0202, held by a friendly unit) (12.0)"
    far = unit_supply(position(s, {"u": "0402", **placements}, side=Side.ITALIAN), "u")
    assert not far.supplied
    assert any("may be only 1" in b.reason for c in far.candidates for b in c.blocks)


def test_12_0_hill_and_zoc_anywhere_on_the_line_make_it_one_hex(tmp_path: Path) -> None:
    # the hill is 0302, the enemy ZoC (held by a friendly unit) is 0202: different hexes
    s = corridor(tmp_path, row2="..h....", enemy=True)
    placements = {"friend": "0202", "enemy": "0203"}
    far = unit_supply(position(s, {"u": "0402", **placements}, side=Side.ITALIAN), "u")
    assert not far.supplied
    assert any("may be only 1" in b.reason for c in far.candidates for b in c.blocks)
    on_hill = unit_supply(position(s, {"u": "0302", **placements}, side=Side.ITALIAN), "u")
    assert on_hill.supplied and on_hill.limit == 2  # its own hill hex is not part of the line


def test_12_0_the_line_never_enters_a_mountain_but_the_unit_may_stand_in_one(tmp_path: Path) -> None:
    s = corridor(tmp_path)
    up = unit_supply(position(s, {"u": "0201"}, side=Side.ITALIAN), "u")  # 0201 is a mountain hex
    assert up.supplied and up.line == (H("0102"),)
    s2 = corridor(tmp_path / "m", row2="..M....")
    cut = unit_supply(position(s2, {"u": "0402"}, side=Side.ITALIAN), "u")
    assert not cut.supplied
    assert any(b.rule == "12.0" and "mountain" in b.reason for c in cut.candidates for b in c.blocks)


def road_board(tmp_path: Path, *, track: bool = False, **options: Any) -> Scenario:
    counters = options.pop("counters", None) or [italian("u"), allied("enemy")] + [italian(f"f{i}") for i in range(4)]
    route = [["0101", "0201", "0301", "0401", "0501", "0601", "0701", "0801"]]
    options["tracks" if track else "roads"] = route
    options.setdefault("towns", [town("Alpha", "0103", vp=15, letter="A"), town("Zulu", "0803", vp=15, letter="Z")])
    options.setdefault("supply_sources", depot("0101"))
    return board(tmp_path, ["........"] * 4, counters, **options)


@pytest.mark.parametrize("track", [False, True])
def test_12_0_a_road_or_track_leading_to_a_source_carries_supply(tmp_path: Path, track: bool) -> None:
    s = road_board(tmp_path, track=track)
    on = unit_supply(position(s, {"u": "0801"}, side=Side.ITALIAN), "u")
    assert on.supplied and on.line == () and on.reaches == ("track" if track else "road")
    assert on.route[0] == H("0801") and on.route[-1] == H("0101")
    off = unit_supply(position(s, {"u": "0804"}, side=Side.ITALIAN), "u")
    assert off.supplied and len(off.line) == 3 and off.reached is not None and off.reached.row == 0
    assert "reaches the" in off.explain() and "which leads to the source Depot" in off.explain()


# -- 12.1: what blocks the line and the road ------------------------------------------------------
def test_12_1_enemy_zoc_cuts_the_road_unless_a_friendly_unit_is_there(tmp_path: Path) -> None:
    s = road_board(tmp_path)
    p = position(s, {"u": "0801", "enemy": "0402"}, side=Side.ITALIAN)
    cut = [h for h in s.playable if h.row == 0 and h in zoc_map(p, Side.ALLIED)]
    assert cut, "the enemy's ZoC reaches the road"
    trace = unit_supply(p, "u")
    assert not trace.supplied
    cut_text = f"the road from 0801 to Depot is cut at {cut[0].label} (enemy ZoC, no friendly unit)"
    assert any(b.reason == cut_text and b.rule == "12.1" for c in trace.candidates for b in c.blocks)
    for i, h in enumerate(sorted(cut)):
        p.place(f"f{i}", h)
    trace = unit_supply(p, "u")
    assert trace.supplied and trace.line == ()


def test_12_1_enemy_units_block_the_line_and_the_road(tmp_path: Path) -> None:
    s = road_board(tmp_path)
    p = position(s, {"u": "0801", "enemy": "0401"}, side=Side.ITALIAN)
    cut = [h for h in s.playable if h in zoc_map(p, Side.ALLIED) and h != H("0401")]
    for i, h in enumerate(sorted(x for x in cut if x.row == 0)):
        p.place(f"f{i}", h)  # friendly units in the ZoC do not open the enemy's own hex
    trace = unit_supply(p, "u")
    assert not trace.supplied
    reasons = [b.reason for c in trace.candidates for b in c.blocks if b.rule == "12.1"]
    assert "the road from 0801 to Depot is cut at 0401 (enemy units)" in reasons


def test_12_1_enemy_controlled_towns_block_but_native_villages_do_not(tmp_path: Path) -> None:
    towns = [town("Alpha", "0103", vp=15, letter="A"), town("Zulu", "0803", vp=15, letter="Z"),
             town("Mid", "0401", vp=1)]
    s = road_board(tmp_path, towns=towns)
    p = position(s, {"u": "0801"}, side=Side.ITALIAN)
    assert unit_supply(p, "u").supplied  # Mid is Italian: no obstacle to Italian supply
    p.set_control("Mid", Side.ALLIED)
    trace = unit_supply(p, "u")
    assert not trace.supplied
    reasons = [b.reason for c in trace.candidates for b in c.blocks]
    assert "the road from 0801 to Depot is cut at 0401 (Mid, an Allied-controlled town)" in reasons
    s2 = road_board(tmp_path / "v", native_villages=[{"name": "Kraal", "hex": "0401"}])
    assert unit_supply(position(s2, {"u": "0801"}, side=Side.ITALIAN), "u").supplied


def test_12_1_a_friendly_unit_in_enemy_zoc_still_counts_as_zoc_for_the_length(tmp_path: Path) -> None:
    s = corridor(tmp_path, enemy=True)
    trace = unit_supply(position(s, {"u": "0402", "friend": "0202", "enemy": "0203"}, side=Side.ITALIAN), "u")
    assert not trace.supplied  # three hexes, one of them the friendly-held ZoC hex 0202: limit 2
    assert any("may be only 2" in b.reason for c in trace.candidates for b in c.blocks)


def test_12_1_mountains_bind_the_line_not_the_road(tmp_path: Path) -> None:
    s = board(tmp_path, ["..M.....", "........", "........"], [italian("u"), allied("a")], towns=TOWNS,
              roads=[["0101", "0201", "0301", "0401", "0501", "0601"]], supply_sources=depot("0101"))
    trace = unit_supply(position(s, {"u": "0601"}, side=Side.ITALIAN), "u")
    assert trace.supplied and H("0301") in trace.route  # the road crosses the mountain hex 0301


# -- 12.2: the red map edges -------------------------------------------------------------------
def test_12_2_allied_units_on_a_red_edge_are_in_supply(tmp_path: Path) -> None:
    s = board(tmp_path, ["........"] * 3, [allied("a"), italian("i"), italian("j")], towns=TOWNS,
              allied_edges=[{"name": "West edge", "hexes": ["0102"]}])
    p = position(s, {"a": "0102", "i": "0202", "j": "0103"})
    trace = unit_supply(p, "a")
    assert trace.supplied and trace.rule == "12.2" and trace.reaches == "edge"
    assert "red map edge 'West edge'" in trace.explain()
    # the edge supplies allied units only (and Italy has no source on this map)
    p = position(s, {"a": "0801", "i": "0102"})
    assert not unit_supply(p, "i").supplied


def test_12_2_the_af_abed_edge_supplies_only_on_turns_5_to_12(tmp_path: Path) -> None:
    edge = {"name": "North edge", "hexes": ["0801"], "first_turn": 5, "last_turn": 12}
    s = board(tmp_path, ["........"] * 3, [allied("a"), italian("i")], towns=TOWNS, allied_edges=[edge])
    for turn, supplied in ((1, False), (4, False), (5, True), (12, True)):
        p = position(s, {"a": "0801", "i": "0103"}, turn=turn)
        assert unit_supply(p, "a").supplied is supplied, turn
    # the bundled data: Af Abed's edge has turns 5-12
    bundled = load_scenario()
    af_abed = next(e for e in bundled.allied_edges if "Af Abed" in e.name)
    assert (af_abed.first_turn, af_abed.last_turn) == (5, 12)
    p = Position.empty(bundled)
    p.place("ind_5", af_abed.hexes[0])
    for turn, supplied in ((4, False), (5, True), (12, True)):
        p.set_turn(turn)
        assert unit_supply(p, "ind_5").supplied is supplied, turn


def test_12_2_a_road_to_a_live_red_edge_carries_allied_supply(tmp_path: Path) -> None:
    edge = {"name": "West edge", "hexes": ["0101"], "first_turn": 3, "last_turn": 12}
    s = road_board(tmp_path, counters=[allied("a"), italian("i")], supply_sources=[], allied_edges=[edge])
    assert not unit_supply(position(s, {"a": "0801", "i": "0804"}, turn=2), "a").supplied
    trace = unit_supply(position(s, {"a": "0801", "i": "0804"}, turn=3), "a")
    assert trace.supplied and trace.reaches == "road" and trace.source == "West edge"


# -- 12.3 and 11.3 ----------------------------------------------------------------------------------
def test_12_3_a_native_unit_is_in_supply_in_its_own_village(tmp_path: Path) -> None:
    native = counter("nat", "italian", faces=((1, 5),), colour="black",
                     native={"garrison": None, "village": "Kraal", "defected": {"sp": 1, "mp": 5}})
    s = board(tmp_path, ["........"] * 3, [native, italian("i"), allied("a")], towns=TOWNS,
              native_villages=[{"name": "Kraal", "hex": "0402"}, {"name": "Other", "hex": "0602"}])
    p = position(s, {"nat": "0402", "i": "0602", "a": "0101"}, side=Side.ITALIAN)
    trace = unit_supply(p, "nat")
    assert trace.supplied and trace.rule == "12.3" and "own village" in trace.explain()
    assert not unit_supply(p, "i").supplied  # another unit in a village: nothing special
    p.place("nat", "0602")
    p.place("i", "0402")
    assert not unit_supply(p, "nat").supplied  # not its own village
    p.place("nat", "0402")
    p.place("i", "0801")
    p.set_defected("nat")  # 12.3: Italian or allied
    trace = unit_supply(p, "nat")
    assert trace.supplied and trace.side is Side.ALLIED and trace.rule == "12.3"


def test_11_3_the_air_unit_is_always_in_supply(tmp_path: Path) -> None:
    air_type = {"key": "air", "name": "Air support", "symbol": "air", "may_enter_mountain": True,
                "support": True, "may_exploit": False, "motorized": False, "air": True}
    air = counter("air", "allied", letter="A", faces=((1, 0),), type="air", size="none", stack=0)
    s = board(tmp_path, ["........"] * 3, [air, allied("a"), italian("i")], towns=TOWNS,
              unit_types=[*DEFAULT_UNIT_TYPES, air_type])
    p = position(s, {"a": "0101", "i": "0801"})
    p.units["air"].status = Status.OFF_MAP
    trace = unit_supply(p, "air")
    assert trace.supplied and trace.rule == "11.3" and trace.origin is None
    assert trace.explain() == "Air (off the map) is the air support unit: always in supply (11.3)"
    assert supply_line_overlay(p, "air").hexes == {}
    # however it got a marker, the Supply check takes it away
    g = Game(s, 1, position(s, {"a": "0101", "i": "0801"}, phase=Phase.COMBAT))
    g.position.units["air"].status = Status.OFF_MAP
    g.position.set_supply("air", Supply.LOW)
    g.apply(EndPhase())
    assert g.position.units["air"].supply is None


# -- 1.4: the Italian sources are data ------------------------------------------------------------------
def test_1_4_supply_sources_come_from_the_scenario_data() -> None:
    s = load_scenario()
    p = Position.empty(s)
    italian_sources = set(supply_context(p, Side.ITALIAN).sources.values())
    assert italian_sources == {src.name for src in s.supply_sources if src.side is Side.ITALIAN}
    assert set(supply_context(p, Side.ALLIED).sources.values()) == {"Kassala west edge"}
    p.set_turn(5)
    assert set(supply_context(p, Side.ALLIED).sources.values()) == {e.name for e in s.allied_edges}
    p.place("bl_asmara", "2710")
    trace = unit_supply(p, "bl_asmara")
    assert trace.supplied and trace.reaches == "source" and trace.source == "Asmara"


# -- 12.4-12.6: markers and attrition ---------------------------------------------------------------
def test_12_4_markers_low_then_no_and_removed_when_supplied() -> None:
    assert marker_after(None, supplied=False) is Supply.LOW
    assert marker_after(Supply.LOW, supplied=False) is Supply.NO
    assert marker_after(Supply.NO, supplied=False) is Supply.NO
    assert marker_after(Supply.LOW, supplied=True) is None
    assert marker_after(Supply.NO, supplied=True) is None


def attrition_board(tmp_path: Path) -> Scenario:
    counters = [allied("a"), allied("b"), italian("i")]
    return board(tmp_path, ["........"] * 4, counters, towns=TOWNS, allied_edges=[{"name": "W", "hexes": ["0102"]}])


def test_12_6_low_then_no_supply_then_attrition_over_two_turns(tmp_path: Path) -> None:
    s = attrition_board(tmp_path)
    g = game(s, {"a": "0804", "b": "0102", "i": "0401"}, phase=Phase.COMBAT, supply={"b": Supply.LOW})
    g.apply(EndPhase())  # into the allied Supply check: the hook runs
    assert g.phase is Phase.SUPPLY
    p = g.position
    assert p.units["a"].supply is Supply.LOW and p.units["a"].steps_lost == 0
    assert p.units["b"].supply is None  # supplied on the red edge: its marker goes (12.4)
    assert p.units["i"].supply is None  # only the phasing side is checked
    end_phases(g, 12)  # exploitation, the Italian turn, then on to the allied Supply check of turn 2
    assert (g.turn, g.phasing, g.phase) == (2, Side.ALLIED, Phase.SUPPLY)
    p = g.position
    assert p.units["a"].supply is Supply.NO and p.units["a"].steps_lost == 1
    assert p.units["i"].supply is Supply.LOW  # the Italian check of turn 1 found no Italian source
    end_phases(g, 12)
    assert g.position.units["a"].status is Status.ELIMINATED
    text = "\n".join(events(g))
    assert "Low supply marker (12.4)" in text and "flips to No supply (12.4)" in text
    assert "attrition" in text and "(12.6" in text and "marker is removed (12.4)" in text
    # undo takes the whole check back with the EndPhase that started it
    g.undo()
    assert g.position.units["a"].on_map


def test_12_4_only_the_phasing_side_is_checked(tmp_path: Path) -> None:
    s = attrition_board(tmp_path)
    g = game(s, {"a": "0804", "b": "0102", "i": "0401"}, side=Side.ITALIAN, phase=Phase.COMBAT)
    g.apply(EndPhase())
    assert g.position.units["i"].supply is Supply.LOW
    assert g.position.units["a"].supply is None


# -- 12.7: town control ----------------------------------------------------------------------------------
def town_board(tmp_path: Path, edge_from: int = 1) -> Scenario:
    towns = [town("Alpha", "0103", vp=15, letter="A"), town("Zulu", "0803", vp=15, letter="Z"),
             town("Mid", "0501", vp=2)]
    edge = {"name": "West edge", "hexes": ["0101"], "first_turn": edge_from, "last_turn": 12}
    return road_board(tmp_path, counters=[allied("a"), italian("i")], towns=towns, supply_sources=depot("0801"),
                      allied_edges=[edge])


def test_12_7_an_empty_italian_town_cut_off_from_italian_supply_becomes_allied(tmp_path: Path) -> None:
    s = town_board(tmp_path)
    # the Italian road from the depot 0801 is cut by the allied ZoC next to 0701
    p = position(s, {"a": "0702", "i": "0104"})
    changes = {c.town: c for c in town_control_changes(p)}
    mid = changes["Mid"]
    assert (mid.before, mid.after) == (Side.ITALIAN, Side.ALLIED)
    assert not mid.italian.supplied and mid.allied.supplied
    assert mid.describe() == (
        "Mid (0501, 2 VP) is empty, cannot draw Italian supply but can draw Allied supply: "
        "it becomes Allied-controlled (12.7)"
    )


def test_12_7_occupied_towns_and_towns_both_sides_supply_keep_their_control(tmp_path: Path) -> None:
    s = town_board(tmp_path)
    def changed(p: Position) -> set[str]:
        return {c.town for c in town_control_changes(p)}

    assert "Mid" not in changed(position(s, {"a": "0702", "i": "0501"}))  # occupied (and cut off)
    assert "Mid" not in changed(position(s, {"a": "0501", "i": "0104"}))  # occupied by the Allies
    assert changed(position(s, {"a": "0104", "i": "0804"})) == set()  # both sides can draw supply


def test_12_7_an_empty_allied_town_that_only_italian_supply_reaches_turns_italian(tmp_path: Path) -> None:
    s = town_board(tmp_path, edge_from=5)  # no allied source before turn 5
    p = position(s, {"a": "0104", "i": "0804"}, turn=2)
    p.set_control("Mid", Side.ALLIED)
    changes = town_control_changes(p)
    assert [(c.town, c.after) for c in changes] == [("Mid", Side.ITALIAN)]
    p.set_turn(5)
    assert "Mid" not in {c.town for c in town_control_changes(p)}  # the Allies can draw supply there now too


def test_12_7_control_is_checked_before_units(tmp_path: Path) -> None:
    s = town_board(tmp_path)
    # the allied unit's road to the edge runs through Mid, Italian-controlled: blocked (12.1)
    p = position(s, {"a": "0801", "i": "0104"}, phase=Phase.COMBAT, supply={"a": Supply.LOW})
    assert not unit_supply(p, "a").supplied
    g = Game(s, 1, p)
    g.apply(EndPhase())
    assert g.phase is Phase.SUPPLY
    # Mid can draw allied supply and no Italian supply (the allied unit's ZoC cuts the depot road)
    assert g.position.controller("Mid") is Side.ALLIED
    assert g.position.units["a"].supply is None  # Mid became allied first, so the road is open
    evs = g.log[-1].events
    first_control = next(i for i, e in enumerate(evs) if "(12.7)" in e)
    first_unit = next(i for i, e in enumerate(evs) if "(12.4)" in e)
    assert first_control < first_unit


# -- reports and overlays ----------------------------------------------------------------------------------
def test_12_0_supplied_hexes_agree_with_tracing_every_hex(tmp_path: Path) -> None:
    cases: list[Position] = [arressa_position(arressa(tmp_path)), arressa_position(arressa(tmp_path / "b"), "0303")]
    bundled = load_scenario()
    g = Game(bundled, seed=5)
    rng = random.Random(5)
    while g.turn < 4 and not g.over:
        actions = g.legal_actions()
        g.apply(rng.choices(actions, [1 if isinstance(a, EndPhase) else 3 for a in actions])[0])
        if g.phase is Phase.SUPPLY and g.log[-1].action == EndPhase():
            cases.append(g.position.copy())
    assert len(cases) > 4
    for p in cases:
        for side in Side:
            ctx = supply_context(p, side)
            hexes = supplied_hexes(p, side, context=ctx)
            for h in sorted(p.scenario.playable):
                if h in ctx.enemy_hexes:
                    continue
                trace = can_draw_supply(p, side, h, context=ctx, explain=False)
                assert trace.supplied == (h in hexes) == supplied_at(ctx, h), (side, h.label)
                if trace.supplied:
                    assert len(trace.line) == hexes[h], (side, h.label)


def test_12_0_side_report_names_sources_network_and_units() -> None:
    s = load_scenario()
    g = Game(s, seed=1)
    report = side_supply_report(g.position, Side.ITALIAN)
    assert report.sources[s.town_hex("Asmara")] == "Asmara"
    assert report.network[s.town_hex("Cheren")] == "Asmara"  # the road spine leads to Asmara
    assert set(report.units) == {u for u, st in g.position.units.items() if st.side is Side.ITALIAN and st.on_map}
    assert all(t.supplied for t in report.units.values())
    assert set(report.network) <= set(report.supplied)
    text = report.explain()
    assert "Italian supply on turn 1" in text and "Asmara" in text and "road/track network" in text
    allied = side_supply_report(g.position, Side.ALLIED)
    assert set(allied.sources.values()) == {"Kassala west edge"}


def test_12_0_unit_report_says_what_the_next_check_would_do(tmp_path: Path) -> None:
    p = arressa_position(arressa(tmp_path))
    assert "Low supply marker (12.4)" in unit_supply_report(p, "comm_3_6")
    p.set_supply("comm_3_6", Supply.LOW)
    assert "No supply and cost it a step" in unit_supply_report(p, "comm_3_6")
    p.set_supply("ind_8_5", Supply.NO)
    assert "would be removed (12.4)" in unit_supply_report(p, "ind_8_5")


def test_12_0_supply_overlays(tmp_path: Path) -> None:
    p = arressa_position(arressa(tmp_path))
    overlay = supply_overlay(p, Side.ALLIED)
    assert set(overlay.hexes) == set(supplied_hexes(p, Side.ALLIED))
    assert overlay.hexes[H("0102")] == "E" and overlay.hexes[H("0402")] == "R"
    line = supply_line_overlay(p, "friend")
    assert tuple(line.paths[0]) == (H("0603"), H("0602"))
    assert tuple(line.paths[1])[-1] == H("0102") and line.hexes[H("0602")] == "1"
    blocked = supply_line_overlay(p, "comm_3_6")
    assert "no supply line" in (blocked.title or "") and blocked.paths
    assert "<svg" in position_svg(p, [overlay, line, blocked])


def test_12_0_a_whole_side_is_checked_at_once(tmp_path: Path) -> None:
    p = arressa_position(arressa(tmp_path))
    traces = check_side(p, Side.ALLIED)
    assert {u: t.supplied for u, t in traces.items()} == {"ind_8_5": True, "comm_3_6": False, "friend": True}


# -- 14.0: victory ------------------------------------------------------------------------------------------
BANDS = [
    (17, "Italian major victory"), (18, "Italian fair victory"),
    (19, "Italian fair victory"), (20, "Italian minor victory"),
    (21, "Draw"), (22, "Allied minor victory"),
    (23, "Allied minor victory"), (24, "Allied fair victory"),
    (25, "Allied fair victory"), (26, "Allied major victory"),
]


@pytest.mark.parametrize(("vp", "level"), BANDS)
def test_14_0_victory_band_edges(vp: int, level: str) -> None:
    assert load_scenario().victory_level(vp) == level


def victory_board(tmp_path: Path) -> Scenario:
    towns = [town("Big", "0101", vp=17, letter="A")]
    towns += [town(f"T{i}", f"{i + 2:02d}03", vp=1) for i in range(6)]
    towns += [town(f"U{i}", f"{i + 2:02d}05", vp=1, letter="Z" if i == 5 else None) for i in range(6)]
    return board(tmp_path, ["........"] * 6, [allied("a", mp=3), italian("i")], towns=towns)


def test_14_0_victory_summary_at_every_band_edge(tmp_path: Path) -> None:
    s = victory_board(tmp_path)
    p = position(s, {"a": "0102", "i": "0806"})
    p.set_control("Big", Side.ALLIED)
    small = [f"T{i}" for i in range(6)] + [f"U{i}" for i in range(6)]
    for vp, level in BANDS:
        for name in small:
            p.set_control(name, Side.ITALIAN)
        for name in small[: vp - 17]:
            p.set_control(name, Side.ALLIED)
        summary = victory_summary(p, reach=False)
        assert (summary.allied_vp, summary.level) == (vp, level)
    summary = victory_summary(p, reach=False)  # 26 VP
    assert summary.next_level is None and summary.previous_level == (1, "Allied fair victory")


def test_14_0_victory_summary_lists_italian_towns_by_vp_and_who_could_enter(tmp_path: Path) -> None:
    s = victory_board(tmp_path)
    p = position(s, {"a": "0203", "i": "0503"})
    summary = victory_summary(p)
    assert summary.allied_vp == 0 and summary.level == "Italian major victory"
    vps = [t.vp for t in summary.italian_towns]
    assert vps == sorted(vps, reverse=True) and summary.italian_towns[0].name == "Big"
    by_name = {t.name: t for t in summary.italian_towns}
    assert by_name["T1"].enterable_by == ("A",)  # next door to the allied unit
    assert by_name["T3"].occupant is Side.ITALIAN and by_name["T3"].enterable_by == ()
    assert summary.next_level == (18, "Italian fair victory")
    text = summary.explain()
    assert "T1 (0303, 1 VP) - allied units could enter it this turn: A" in text
    assert "held by Italian units" in text and "(14.0)" in text
