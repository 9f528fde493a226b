"""Movement (9.0, 9.1) and zones of control (4.0) on small hand-made maps."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cheren.engine.actions import EndPhase, Move
from cheren.engine.game import IllegalAction
from cheren.engine.position import Supply
from cheren.engine.rules.move_reasons import explain_move
from cheren.engine.rules.movement import move_graph, reachable
from cheren.engine.rules.zoc import Zoc, projects_zoc, zoc_hexes, zoc_map
from cheren.scenario import Side
from tests.boards import H, allied, board, game, italian, position
from tests.scenario_factory import mini_scenario, town

CLEAR = ["........", "........", "........", "........", "........"]


def cost(p: object, uid: str, label: str) -> Fraction:
    reach = reachable(p, uid)  # type: ignore[arg-type]
    return reach.reach[H(label)].cost


def test_9_0_pay_the_costliest_terrain_in_a_mixed_hex(tmp_path: Path) -> None:
    # 0201 is rough with some clear (like Cheru, 9.0): entering it costs rough's 2 MP.
    s = board(tmp_path, [".r..", "....", "...."], [allied("a")], extra_terrain={"0201": ["clear"]})
    p = position(s, {"a": "0101"})
    assert cost(p, "a", "0201") == 2
    assert s.hexes[H("0201")].stack_limit == 5  # 3.1: the least favourable of rough (5) and clear (6)
    assert s.hexes[H("0201")].column_shift == 1  # 11.1: the best shift for the defender


def test_9_0_river_hexside_adds_its_cost(tmp_path: Path) -> None:
    # the river runs along both hexsides of 0201 that face 0101 and 0102
    s = board(tmp_path, CLEAR, [allied("a")], rivers=[["0101/0201", "0102/0201"]])
    p = position(s, {"a": "0101"})
    assert cost(p, "a", "0201") == 3  # clear 1 + river 2
    assert cost(p, "a", "0102") == 1


def test_9_0_road_cost_only_and_no_river_cost_along_a_road(tmp_path: Path) -> None:
    s = board(
        tmp_path, [".hhh", "....", "...."], [allied("a")],
        roads=[["0101", "0201", "0301", "0401"]], rivers=[["0201/0301"]],
    )
    p = position(s, {"a": "0101"})
    assert cost(p, "a", "0201") == Fraction(1, 2)
    assert cost(p, "a", "0301") == 1  # the river between 0201 and 0301 is not paid on the road
    assert cost(p, "a", "0401") == Fraction(3, 2)


def test_9_0_leaving_the_road_pays_terrain(tmp_path: Path) -> None:
    # 0202 is hills next to the road hex 0201 but not on the road.
    s = board(tmp_path, ["....", ".h..", "...."], [allied("a")], roads=[["0101", "0201", "0301"]])
    p = position(s, {"a": "0201"})
    assert cost(p, "a", "0202") == 3


def test_9_0_tracks_give_no_movement_benefit(tmp_path: Path) -> None:
    s = board(tmp_path, [".hh.", "....", "...."], [allied("a")], tracks=[["0101", "0201", "0301"]])
    p = position(s, {"a": "0101"})
    assert cost(p, "a", "0201") == 3


def test_9_0_track_onto_road_pays_road_cost(tmp_path: Path) -> None:
    # A track 0101-0201 meets a road 0201-0301; entering 0201 from the track pays the road cost.
    s = board(tmp_path, [".hh.", "....", "...."], [allied("a")],
              tracks=[["0101", "0201"]], roads=[["0201", "0301"]])
    p = position(s, {"a": "0101"})
    assert cost(p, "a", "0201") == Fraction(1, 2)


def test_9_0_a_unit_may_not_enter_a_hex_it_cannot_pay_for(tmp_path: Path) -> None:
    s = board(tmp_path, [".M..", "....", "...."], [allied("a", mp=3)])
    g = game(s, {"a": "0101"})
    assert H("0201") not in reachable(g.position, "a")
    verdict = g.check(Move("a", (H("0201"),)))
    assert not verdict.ok and verdict.refusal is not None
    assert "9.0" in verdict.refusal.rules
    assert "4 MP" in verdict.refusal.reason


def test_9_1_tanks_and_motorized_never_enter_mountains(tmp_path: Path) -> None:
    s = board(tmp_path, [".M..", "....", "...."],
              [allied("tank", sp=2, mp=8, type="tank", size="squadron")])
    g = game(s, {"tank": "0101"})
    verdict = g.check(Move("tank", (H("0201"),)))
    assert verdict.refusal is not None and verdict.refusal.rules == ("9.1",)
    assert "mountain" in explain_move(g.position, "tank", H("0201"))


def test_9_0_never_enter_an_enemy_hex(tmp_path: Path) -> None:
    s = board(tmp_path, CLEAR, [allied("a"), italian("i")])
    g = game(s, {"a": "0101", "i": "0301"})
    assert H("0301") not in reachable(g.position, "a")
    refusal = g.check(Move("a", (H("0201"), H("0301")))).refusal
    assert refusal is not None and "enemy" in refusal.reason


def test_4_0_entering_enemy_zoc_costs_one_more_once(tmp_path: Path) -> None:
    # Two soft Italian units both reach 0302: still only +1.
    s = board(tmp_path, CLEAR, [allied("a", mp=6), italian("i1"), italian("i2")])
    p = position(s, {"a": "0102", "i1": "0402", "i2": "0403"})
    zoc = zoc_map(p, Side.ITALIAN)
    assert zoc[H("0302")] is Zoc.SOFT
    assert cost(p, "a", "0202") == 1
    assert cost(p, "a", "0302") == 3  # 1 + 1 (0202) ... +1 ZoC once
    assert cost(p, "a", "0302") - cost(p, "a", "0202") == 2


def test_4_0_zoc_costs_one_extra_even_on_a_road(tmp_path: Path) -> None:
    s = board(tmp_path, CLEAR, [allied("a"), italian("i")], roads=[["0101", "0201", "0301"]])
    p = position(s, {"a": "0101", "i": "0401"})
    assert cost(p, "a", "0301") == Fraction(1, 2) + Fraction(1, 2) + 1


@pytest.mark.parametrize(("stack", "zoc_kind"), [(1, Zoc.SOFT), (3, Zoc.HARD)])
def test_4_0_hard_zoc_stops_movement_soft_does_not(tmp_path: Path, stack: int, zoc_kind: Zoc) -> None:
    # A corridor along row 01 between mountains; the Italian stack in 0402 covers only 0401 of it.
    s = board(tmp_path, ["......", "MMM.MM", "MMMMMM"],
              [allied("tank", sp=2, mp=8, type="tank", size="squadron"), italian("i", stack=stack)])
    p = position(s, {"tank": "0101", "i": "0402"})
    assert zoc_map(p, Side.ITALIAN)[H("0401")] is zoc_kind
    reach = reachable(p, "tank")
    assert reach.reach[H("0401")].cost == 4  # 3 clear hexes + 1 for entering the ZoC
    if zoc_kind is Zoc.SOFT:
        assert not reach.reach[H("0401")].stops
        assert reach.reach[H("0601")].cost == 6
        assert H("0401") in reach.reach[H("0601")].path
    else:
        assert reach.reach[H("0401")].stops
        assert H("0501") not in reach and H("0601") not in reach
        assert "hard enemy ZoC" in explain_move(p, "tank", H("0501"))


def test_4_0_a_unit_may_leave_a_hard_zoc_it_starts_in(tmp_path: Path) -> None:
    s = board(tmp_path, CLEAR, [allied("a"), italian("big", stack=3)])
    p = position(s, {"a": "0302", "big": "0402"})
    assert H("0102") in reachable(p, "a")


def test_4_0_two_soft_stacks_do_not_make_a_hard_zoc(tmp_path: Path) -> None:
    s = board(tmp_path, CLEAR, [allied("a"), italian("i1", stack=2), italian("i2", stack=2)])
    p = position(s, {"a": "0101", "i1": "0402", "i2": "0404"})
    assert zoc_map(p, Side.ITALIAN)[H("0403")] is Zoc.SOFT


def test_4_0_no_supply_units_do_not_count_for_hardness(tmp_path: Path) -> None:
    s = board(tmp_path, CLEAR, [allied("a"), italian("i1", stack=2), italian("i2", stack=1)])
    p = position(s, {"a": "0101", "i1": "0402", "i2": "0402"})
    assert zoc_map(p, Side.ITALIAN)[H("0403")] is Zoc.HARD
    p.set_supply("i2", Supply.NO)
    assert zoc_map(p, Side.ITALIAN)[H("0403")] is Zoc.SOFT
    p.set_supply("i1", Supply.NO)
    assert H("0403") not in zoc_map(p, Side.ITALIAN)
    assert not projects_zoc(p, "i1") and projects_zoc(p, "a")  # what the threat map asks of one unit


def test_4_0_no_zoc_into_or_out_of_mountains(tmp_path: Path) -> None:
    s = board(tmp_path, ["....", ".M..", "....", "...M"], [allied("a"), italian("in_mtn"), italian("by_mtn")])
    p = position(s, {"a": "0101", "in_mtn": "0202", "by_mtn": "0303"})
    zoc = zoc_map(p, Side.ITALIAN)
    assert all(n not in zoc or n in H("0303").neighbours() for n in H("0202").neighbours())
    assert H("0404") not in zoc  # 0404 is a mountain next to by_mtn: no ZoC into it
    assert H("0403") in zoc
    # the hexes a ZoC covers from a hex, as the threat map asks them of a hex an enemy unit may enter
    assert zoc_hexes(s, H("0202")) == ()
    assert set(zoc_hexes(s, H("0303"))) == set(H("0303").neighbours()) - {H("0202"), H("0404")}
    assert projects_zoc(p, "in_mtn")  # it has a ZoC; the mountain keeps it from covering any hex


def test_4_0_the_air_unit_has_no_zoc(tmp_path: Path) -> None:
    air_type = {"key": "air", "name": "Air support", "symbol": "air", "may_enter_mountain": False,
                "support": True, "may_exploit": False, "motorized": False, "air": True}
    from tests.scenario_factory import DEFAULT_UNIT_TYPES, counter

    s = board(tmp_path, CLEAR, [counter("air", "allied", letter="A", faces=((1, 0),), type="air", size="none",
                                        stack=0), italian("i")],
              unit_types=[*DEFAULT_UNIT_TYPES, air_type])
    p = position(s, {"air": "0202", "i": "0505"})
    assert zoc_map(p, Side.ALLIED) == {}
    assert not projects_zoc(p, "air") and projects_zoc(p, "i")


def test_9_0_a_unit_moves_once_per_phase(tmp_path: Path) -> None:
    s = board(tmp_path, CLEAR, [allied("a")])
    g = game(s, {"a": "0101"})
    g.apply(Move("a", (H("0201"),)))
    refusal = g.check(Move("a", (H("0301"),))).refusal
    assert refusal is not None and "already moved" in refusal.reason
    with pytest.raises(IllegalAction):
        g.apply(Move("a", (H("0301"),)))
    assert g.position.units["a"].hex == H("0201")


def test_9_0_moving_along_a_longer_legal_path(tmp_path: Path) -> None:
    s = board(tmp_path, CLEAR, [allied("a", mp=4)])
    g = game(s, {"a": "0101"})
    detour = (H("0102"), H("0202"), H("0201"))
    assert g.check(Move("a", detour)).ok
    g.apply(Move("a", detour))
    assert g.position.units["a"].hex == H("0201")
    assert "for 3 MP" in g.log[-1].events[0]


def test_9_0_a_path_must_go_hex_by_hex(tmp_path: Path) -> None:
    s = board(tmp_path, CLEAR, [allied("a")])
    g = game(s, {"a": "0101"})
    refusal = g.check(Move("a", (H("0301"),))).refusal
    assert refusal is not None and "jumps" in refusal.reason


def test_9_0_only_the_phasing_side_moves_in_the_movement_phase(tmp_path: Path) -> None:
    s = board(tmp_path, CLEAR, [allied("a"), italian("i")])
    g = game(s, {"a": "0101", "i": "0505"})
    refusal = g.check(Move("i", (H("0504"),))).refusal
    assert refusal is not None and refusal.rules == ("9.0",)


def test_6_0_garrison_units_do_not_move_until_released(tmp_path: Path) -> None:
    s = board(tmp_path, CLEAR, [allied("a"), italian("g", garrison="wolkait")],
              areas=["........", "........", "........", "....WWWW", "....WWWW"],
              garrison_areas=[{"key": "wolkait", "name": "Wolkait", "char": "W"}])
    g = game(s, {"a": "0101", "g": "0605"}, side=Side.ITALIAN)
    refusal = g.check(Move("g", (H("0604"),))).refusal
    assert refusal is not None and refusal.rules == ("6.0",)
    g.position.released.add("wolkait")
    assert g.check(Move("g", (H("0604"),))).ok


def test_8_5_the_massaua_naval_garrison_never_moves(tmp_path: Path) -> None:
    s = board(tmp_path, CLEAR, [allied("a"), italian("marina", immobile=True)])
    g = game(s, {"a": "0101", "marina": "0505"}, side=Side.ITALIAN)
    refusal = g.check(Move("marina", (H("0504"),))).refusal
    assert refusal is not None and refusal.rules == ("8.5",)


def test_12_6_no_supply_tanks_and_motorized_do_not_move(tmp_path: Path) -> None:
    s = board(tmp_path, CLEAR, [allied("tank", sp=2, mp=8, type="tank", size="squadron"), allied("inf")])
    g = game(s, {"tank": "0101", "inf": "0103"}, supply={"tank": Supply.NO, "inf": Supply.NO})
    refusal = g.check(Move("tank", (H("0201"),))).refusal
    assert refusal is not None and refusal.rules == ("12.6",)
    assert g.check(Move("inf", (H("0203"),))).ok  # infantry with No supply still moves


def test_legal_actions_are_exactly_the_accepted_moves(tmp_path: Path) -> None:
    s = board(tmp_path, ["..h.", ".M..", "...."], [allied("a", mp=5), allied("t", type="tank", size="squadron"),
                                                  italian("i")])
    g = game(s, {"a": "0101", "t": "0103", "i": "0403"})
    actions = g.legal_actions()
    assert EndPhase() in actions
    for action in actions:
        assert g.check(action).ok, action
    moves = {(a.unit, a.to) for a in actions if isinstance(a, Move)}
    assert ("t", H("0202")) not in moves  # mountain
    assert ("a", H("0202")) in moves
    assert ("i", H("0402")) not in moves  # not the phasing side


@settings(max_examples=40, deadline=None)
@given(
    rows=st.lists(st.text(alphabet=".rhM", min_size=6, max_size=6), min_size=5, max_size=5),
    mp=st.integers(min_value=1, max_value=9),
)
def test_reach_matches_networkx_dijkstra_without_zoc(tmp_path_factory: pytest.TempPathFactory,
                                                     rows: list[str], mp: int) -> None:
    """Cross-check: without enemies, reach equals a plain shortest-path search on the same costs."""
    rows = ["." + r[1:] if i == 0 else r for i, r in enumerate(rows)]
    path = tmp_path_factory.mktemp("nx")
    s = mini_scenario(path, terrain=rows, counters=[allied("a", mp=mp)],
                      towns=[town("Alpha", "0101", vp=15, letter="A"), town("Bravo", "0601", vp=15, letter="B")])
    p = position(s, {"a": "0101"})
    graph = move_graph(s)
    g = nx.DiGraph()
    for h, edges in graph.edges.items():
        for e in edges:
            if e.ticks >= 0:
                g.add_edge(h, e.to, weight=e.ticks)
    lengths = nx.single_source_dijkstra_path_length(g, H("0101"), cutoff=mp * graph.scale)
    expected = {h: Fraction(t, graph.scale) for h, t in lengths.items() if h != H("0101")}
    got = {h: r.cost for h, r in reachable(p, "a").reach.items()}
    assert got == expected
