"""Defects found by play (issue 13), each pinned by the rule that decides it: re-entering the
start hex in a hard ZoC or on a Roadblock (4.0, 5.1, 9.0), a defector placed in an empty town
(6.0 with 2.1), a push the attacker cannot pay (11.8 with 11.5), and eliminated units keeping a
supply marker (12.4)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from cheren.engine.actions import Attack, EndPhase, Move, NoAdvance, Place, Push, StayAndLose
from cheren.engine.game import Game
from cheren.engine.position import Status, Supply
from cheren.hexes import Hex
from cheren.scenario import Phase, Side
from tests.boards import H, allied, board, game, italian, position
from tests.scenario_factory import counter, town
from tests.test_rules_combat import CLEAR, brigade, combat_game, make, two_step


def _loop(start: Hex, blocker: Hex) -> tuple[Hex, Hex]:
    """Two neighbours of ``start`` that are not next to ``blocker``: out and back in, then on."""
    free = sorted(n for n in start.neighbours() if n != blocker and not n.is_adjacent(blocker))
    return free[0], free[1]


def test_4_0_re_entering_the_start_hex_in_a_hard_zoc_is_entering_it(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("tank", mp=8), counter("it", "italian", letter="Z", faces=((6, 4),), stack=3)])
    start, blocker = H("0303"), H("0403")
    out, on = _loop(start, blocker)
    g = game(s, {"tank": start.label, "it": blocker.label})
    verdict = g.check(Move("tank", (out, start, on)))
    assert not verdict.ok and verdict.refusal is not None
    assert verdict.refusal.rules == ("4.0",) and f"must stop in {start.label}" in verdict.refusal.reason
    # the reach agrees: nothing beyond the start is offered through it
    assert all(start not in r.path for r in g.reach("tank").reach.values())
    assert g.check(Move("tank", (out,))).ok  # leaving a hard ZoC is allowed (4.0)


def test_5_1_a_path_through_a_roadblock_stops_there_even_on_the_start_hex(tmp_path: Path) -> None:
    # A Roadblock goes on an empty road hex (5.1), so in play a unit never starts on one; the
    # path walker must still stop a unit that comes back into one, as it does in a hard ZoC.
    from cheren.engine.rules.movement import MoveOptions
    from cheren.engine.rules.moves import walk_cost

    s = make(tmp_path, [allied("a", mp=8), italian("i")], terrain=["......", "......", "......"],
             roads=[["0101", "0201", "0301", "0401", "0501"]])
    p = position(s, {"a": "0201", "i": "0603"})
    blocked = MoveOptions(stop_at=frozenset({H("0201")}))
    _, refusal = walk_cost(p, "a", (H("0202"), H("0201"), H("0301")), blocked)
    assert refusal is not None and refusal.rules == ("5.1",) and "must stop in 0201" in refusal.reason
    assert walk_cost(p, "a", (H("0301"),), blocked)[1] is None  # leaving it is allowed


def test_6_0_a_defector_placed_in_an_empty_italian_town_takes_control_of_it(tmp_path: Path) -> None:
    native = counter("n0", "italian", faces=((1, 5),), colour="black",
                     native={"garrison": "wolkait", "village": "V0", "defected": {"sp": 1, "mp": 5}})
    home = H("0704")
    beta = sorted(n for n in home.neighbours() if n.label[2:] in ("03", "04"))[0]
    s = board(tmp_path, CLEAR, [allied("a", mp=8), italian("i"), native],
              towns=[town("Alpha", "0101", vp=15, letter="A"), town("Zulu", "0801", vp=14, letter="Z"),
                     town("Beta", beta.label, vp=1)],
              areas=["........", "........", "....WWWW", "....WWWW", "....WWWW"],
              garrison_areas=[{"key": "wolkait", "name": "Wolkait", "char": "W"}],
              native_villages=[{"name": "V0", "hex": home.label}])
    for seed in range(60):
        g = game(s, {"a": "0603", "i": home.label, "n0": home.label}, seed=seed)
        g.apply(EndPhase())
        if g.position.units["n0"].defected:
            break
    else:
        pytest.fail("no seed made the native defect")
    if g.pending is not None and g.pending.rules == ("6.0",):
        assert beta in g.pending.choices
        g.apply(Place("n0", beta))
    assert g.position.units["n0"].hex == beta
    assert g.position.controller("Beta") is Side.ALLIED
    assert any("take control of it" in e for entry in g.log for e in entry.events)


def test_11_8_an_attacker_its_result_eliminates_cannot_push(tmp_path: Path) -> None:
    s = make(tmp_path, [counter("a", "allied", letter="A", faces=((2, 4),)), two_step("i", sp=6)])
    g = combat_game(s, {"a": "0303", "i": "0403"}, 6)  # 1-3, die 6: 1/0r; the attacker has one step
    g.apply(Attack(H("0403"), ("a",)))
    g.apply(StayAndLose())  # the defender stays: a push would be open on the 6 ...
    assert g.pending is None  # ... but there is no step to pay it with: no push is asked
    assert g.position.units["a"].status is Status.ELIMINATED
    assert Push(True) not in g.legal_actions()


def test_11_8_a_push_costs_a_step_beyond_the_table_loss(tmp_path: Path) -> None:
    s = make(tmp_path, [*brigade("ind"), two_step("i", sp=16, stack=1)])
    g = combat_game(s, {"ind": "0303", "i": "0403"}, 5)  # 8 vs 16: 1-2, die 5: 1/0r; four steps
    g.apply(Attack(H("0403"), ("ind",)))
    g.apply(StayAndLose())
    assert g.pending is not None and g.pending.kind == "combat_push"
    g.apply(Push(True))
    while g.pending is not None:  # the defender stays again and is gone; no advance
        g.apply(next((a for a in g.legal_actions() if isinstance(a, (StayAndLose, NoAdvance))), g.legal_actions()[0]))
    assert g.position.units["i"].status is Status.ELIMINATED
    assert g.position.units["ind"].steps_lost == 2  # one for the push, one from the table (11.5)


def test_12_4_an_eliminated_unit_keeps_no_supply_marker(tmp_path: Path) -> None:
    s = make(tmp_path, [counter("a", "allied", letter="A", faces=((2, 4),)), two_step("i", sp=6)])
    g = combat_game(s, {"a": "0303", "i": "0403"}, 6, supply={"a": Supply.LOW})
    g.apply(Attack(H("0403"), ("a",)))
    g.apply(StayAndLose())
    unit = g.position.units["a"]
    assert unit.status is Status.ELIMINATED and unit.supply is None
    assert g.phase is Phase.COMBAT


# -- readings the interpretation list states (issue 13, part 4) -------------------------------------
def test_10_0_a_reacting_unit_pays_for_enemy_zoc_and_stops_in_a_hard_one(tmp_path: Path) -> None:
    s = board(tmp_path, CLEAR, [counter("a", "allied", letter="A", faces=((6, 4),), stack=3), italian("r", mp=4)])
    g = game(s, {"a": "0303", "r": "0601"}, phase=Phase.REACTION)
    reach = g.reach("r")
    hard = [h for h in H("0303").neighbours() if h in reach.reach]
    assert hard and all(reach.reach[h].stops for h in hard)  # 4.0 holds in reaction too
    for h in hard:
        assert not any(h in r.path[:-1] for r in reach.reach.values())
    into = min(hard, key=lambda h: reach.reach[h].cost)
    assert reach.reach[into].cost == into.distance(H("0601")) + 1  # one MP more for the ZoC


def test_8_3_a_brigade_on_its_replacement_counter_steps_back_onto_its_own(tmp_path: Path) -> None:
    from cheren.engine.actions import Replace

    s = make(tmp_path, [*brigade("ind"), italian("i")])
    g = game(s, {"ind": ("0101", 2), "i": "0805"}, turn=3, phase=Phase.REINFORCEMENT)
    assert g.position.step("ind").sp == 4  # the 4-5 replacement counter (11.6)
    g.apply(Replace("ind"))
    assert g.position.units["ind"].steps_lost == 1 and g.position.step("ind").sp == 6  # its own counter, flipped


def test_8_1_artillery_arriving_alone_takes_the_step_itself(tmp_path: Path) -> None:
    towns = [town("Alpha", "0101", vp=10, letter="A"), town("Kilo", "0303", vp=10, letter="K"),
             town("Zulu", "0801", vp=10, letter="Z")]
    gun = counter("gun", "allied", letter="K", turn=2, faces=((4, 4), (2, 4)), type="field_gun")
    s = make(tmp_path, [allied("a"), gun, italian("i"), italian("j", sp=2)], towns=towns)
    g = game(s, {"a": "0101", "i": "0805", "j": "0303"}, turn=2, phase=Phase.REINFORCEMENT)
    while g.pending is not None:
        g.apply(g.legal_actions()[0])
    assert g.position.units["gun"].steps_lost == 1  # no other arriving unit could take it (8.1, 11.6)
    assert g.position.units["gun"].hex == H("0303")


def test_13_0_a_unit_that_moved_in_movement_may_move_again_in_exploitation(tmp_path: Path) -> None:
    edge = {"name": "West", "hexes": ["0101", "0102", "0103"], "first_turn": 1, "last_turn": 12}
    s = make(tmp_path, [allied("mot", mp=8, type="motorized_infantry"), italian("i")], allied_edges=[edge])
    g = game(s, {"mot": "0102", "i": "0805"})
    g.apply(Move("mot", (H("0101"),)))  # stays next to the red edge: in supply (12.2)
    while g.phase is not Phase.EXPLOITATION:
        actions = g.legal_actions()
        g.apply(next((a for a in actions if isinstance(a, EndPhase)), actions[0]))
    assert g.check(Move("mot", (H("0201"),))).ok


# -- readings reconsidered (issue 13, part 5) ---------------------------------------------------------
def test_9_0_a_unit_may_step_into_a_town_and_back(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("a", mp=4), italian("i")])  # Zulu (0801) is an empty Italian town
    g = game(s, {"a": "0701", "i": "0505"})
    assert g.position.controller("Zulu") is Side.ITALIAN
    g.apply(Move("a", (H("0801"), H("0701"))))
    assert g.position.units["a"].hex == H("0701")
    assert g.position.controller("Zulu") is Side.ALLIED  # passing through takes a town (2.1)
    refusal = g.check(Move("a", (H("0601"),))).refusal
    assert refusal is not None and refusal.rules == ("9.0",)  # it has moved this phase


def test_8_2_a_delayed_italian_reinforcement_goes_to_a_free_tigre_town(tmp_path: Path) -> None:
    towns = [town("Alpha", "0101", vp=10, letter="A"), town("Zulu", "0801", vp=10, letter="Z"),
             town("Adua", "0705", vp=6, letter="D")]
    s = board(tmp_path, CLEAR, [allied("a"), italian("i"), counter("late", "italian", letter="Z", turn=2,
                                                                    faces=((2, 4),))],
              towns=towns, areas=["........", "........", "........", "......TT", "......TT"],
              garrison_areas=[{"key": "tigre", "name": "Tigre", "char": "T"}])
    p = position(s, {"a": "0303", "i": "0505"}, turn=3, side=Side.ITALIAN, phase=Phase.REINFORCEMENT)
    p.delayed.add("late")  # turn 2: Zulu and every Tigre town were held, so it was delayed (8.2)
    g = Game(s, seed=1, position=p)
    assert g.position.units["late"].hex == H("0705")  # the free Tigre town, not Zulu
    assert "late" not in g.position.delayed


def test_9_0_from_track_onto_road_across_a_river_pays_the_road_cost_only(tmp_path: Path) -> None:
    # 9.0: following a track onto a road pays the road cost only, and moving along a road pays
    # no river; the other way, entering a track hex, pays the terrain and the river.
    s = board(tmp_path, [".hh.", "....", "...."], [allied("a"), allied("b")],
              tracks=[["0101", "0201"]], roads=[["0201", "0301"]], rivers=[["0101/0201"]])
    p = position(s, {"a": "0101", "b": "0201"})
    from cheren.engine.rules.movement import MoveOptions, reachable
    from cheren.engine.rules.moves import walk_cost

    assert reachable(p, "a").reach[H("0201")].cost == Fraction(1, 2)
    assert walk_cost(p, "b", (H("0101"),), MoveOptions()) == (3, None)  # clear 1, plus the river 2


def test_8_1_italians_who_cannot_retreat_are_fought_again_next_turn(tmp_path: Path) -> None:
    from tests.test_game_flow import reinforcement_board

    ring = {f"r{i}": h.label for i, h in enumerate(H("0303").neighbours())}
    s = reinforcement_board(tmp_path, [allied(f"r{i}") for i in range(6)]
                            + [counter(u, "italian", letter="Z", faces=((4, 4), (3, 4))) for u in ("j", "k")])
    placements = {"a": "0101", "i": "0805", "j": "0303", "k": "0303"} | ring
    g = game(s, placements, turn=2, phase=Phase.REINFORCEMENT)  # type: ignore[arg-type]

    def exchanges() -> int:
        events = [e for entry in g.log for e in entry.events] + g._opening_events
        return sum("each side loses a step and the Italians retreat (8.1)" in e for e in events)

    while g.pending is not None:
        g.apply(g.legal_actions()[0])
    italian_steps = sum(g.position.steps_left(u) for u in ("j", "k") if g.position.units[u].on_map)
    assert italian_steps == 2  # one step for 8.1, one for the retreat it could not make (11.7)
    assert "late" in g.position.delayed and g.position.units["late"].status is Status.POOL
    assert exchanges() == 1
    while (g.turn, g.phasing, g.phase) != (3, Side.ALLIED, Phase.MOVEMENT):
        actions = g.legal_actions()
        g.apply(actions[0] if g.pending is not None else next(a for a in actions if isinstance(a, EndPhase)))
    assert exchanges() == 2  # tried again at the next allied Reinforcement phase
    # the second exchange finishes both sides: the Italians could not retreat again (11.7), and
    # the reinforcement, which lost a step each time, has none left to arrive with
    assert not any(g.position.units[u].on_map for u in ("j", "k"))
    late = g.position.units["late"]
    assert late.status is Status.ELIMINATED
    assert g.position.controller("Kilo") is Side.ITALIAN
