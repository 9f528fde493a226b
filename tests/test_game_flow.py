"""The sequence of play (7.0), stacking (3.1), reaction (10.0), exploitation (13.0),
reinforcement and replacement (8.0-8.5), garrisons (6.0), and history (undo, redo, replay)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cheren.engine.actions import ChooseArrival, EndPhase, Move, Place, RemoveStep, Replace, Retreat
from cheren.engine.game import Game, IllegalAction
from cheren.engine.position import Status, Supply
from cheren.scenario import Phase, Side
from cheren.scenario.sequence import PLAYER_TURN, Moment, all_moments, next_moment
from tests.boards import H, allied, board, game, italian, position
from tests.scenario_factory import DEFAULT_UNIT_TYPES, counter, town

CLEAR = ["........", "........", "........", "........", "........"]


def end_phases(g: Game, n: int) -> None:
    for _ in range(n):
        assert g.pending is None, g.pending
        g.apply(EndPhase())


# -- 7.0 ----------------------------------------------------------------------------------------
def test_7_0_sequence_is_two_player_turns_of_six_phases_for_twelve_turns() -> None:
    moments = all_moments()
    assert len(moments) == 12 * 2 * 6
    assert moments[0] == Moment(1, Side.ALLIED, Phase.REINFORCEMENT)
    assert [m.phase for m in moments[:6]] == list(PLAYER_TURN)
    assert moments[6] == Moment(1, Side.ITALIAN, Phase.REINFORCEMENT)
    assert moments[12] == Moment(2, Side.ALLIED, Phase.REINFORCEMENT)
    assert next_moment(Moment(12, Side.ITALIAN, Phase.EXPLOITATION)) is None


def test_7_0_the_opponent_plays_the_enemy_reaction_phase() -> None:
    assert Moment(3, Side.ALLIED, Phase.REACTION).acting is Side.ITALIAN
    assert Moment(3, Side.ITALIAN, Phase.REACTION).acting is Side.ALLIED
    assert Moment(3, Side.ITALIAN, Phase.COMBAT).acting is Side.ITALIAN


def test_7_0_ending_a_phase_is_an_action_and_advances(tmp_path: Path) -> None:
    s = board(tmp_path, CLEAR, [allied("a"), italian("i")])
    g = game(s, {"a": "0101", "i": "0505"}, phase=Phase.REINFORCEMENT)
    assert (g.turn, g.phasing, g.phase, g.acting) == (1, Side.ALLIED, Phase.REINFORCEMENT, Side.ALLIED)
    end_phases(g, 2)
    assert g.phase is Phase.REACTION and g.acting is Side.ITALIAN
    end_phases(g, 4)
    assert (g.turn, g.phasing, g.phase) == (1, Side.ITALIAN, Phase.REINFORCEMENT)
    end_phases(g, 6)
    assert (g.turn, g.phasing, g.phase) == (2, Side.ALLIED, Phase.REINFORCEMENT)


def test_14_0_the_game_ends_after_turn_12_with_the_victory_level(tmp_path: Path) -> None:
    s = board(tmp_path, CLEAR, [allied("a"), italian("i")])
    g = game(s, {"a": "0101", "i": "0505"}, turn=12, side=Side.ITALIAN, phase=Phase.EXPLOITATION)
    g.position.set_control("Alpha", Side.ALLIED)
    g.apply(EndPhase())
    assert g.over
    assert g.legal_actions() == []
    assert "15 allied VP" in g.status() and "Italian major victory" in g.status()
    refusal = g.check(EndPhase()).refusal
    assert refusal is not None and refusal.rules == ("14.0",)


# -- the gate -------------------------------------------------------------------------------------
def test_a_refused_action_changes_nothing(tmp_path: Path) -> None:
    s = board(tmp_path, CLEAR, [allied("a"), italian("i")])
    g = game(s, {"a": "0101", "i": "0505"})
    before = g.position.copy()
    with pytest.raises(IllegalAction) as err:
        g.apply(Move("a", (H("0201"), H("0301"), H("0401"), H("0501"), H("0601"))))
    assert "9.0" in err.value.refusal.rules
    assert g.position.units == before.units and g.log == []


def test_a_failing_action_is_rolled_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    s = board(tmp_path, CLEAR, [allied("a"), italian("i")])
    g = game(s, {"a": "0101", "i": "0505"})
    before = g.position.copy()

    def boom(self: Game) -> None:
        raise RuntimeError("simulated failure halfway")

    monkeypatch.setattr(Game, "_run_queue", boom)
    with pytest.raises(RuntimeError):
        g.apply(Move("a", (H("0201"),)))
    assert g.position.units == before.units
    assert g.log == [] and not g.flow.moved


# -- 3.1 ------------------------------------------------------------------------------------------
def test_3_1_overstacked_owner_removes_steps_until_legal(tmp_path: Path) -> None:
    # Mountain stacking limit 3; four stack-1 allied units end the movement phase there.
    s = board(tmp_path, [".M..", "....", "...."], [allied(f"a{i}") for i in range(4)] + [italian("i")])
    g = game(s, {"a0": "0201", "a1": "0201", "a2": "0201", "a3": "0201", "i": "0403"})
    g.apply(EndPhase())
    d = g.pending
    assert d is not None and d.rules == ("3.1",) and d.side is Side.ALLIED
    assert g.phase is Phase.MOVEMENT  # the phase does not end until stacking is legal
    assert g.check(EndPhase()).refusal is not None
    assert set(g.legal_actions()) == {RemoveStep(f"a{i}") for i in range(4)}
    g.apply(RemoveStep("a0"))  # 2-step unit: flipped, still there
    assert g.pending is not None
    g.apply(RemoveStep("a0"))  # eliminated
    assert g.position.units["a0"].status is Status.ELIMINATED
    assert g.pending is None and g.phase is Phase.REACTION


def test_3_1_stacking_is_not_checked_in_the_reinforcement_phase(tmp_path: Path) -> None:
    s = board(tmp_path, [".M..", "....", "...."], [allied(f"a{i}") for i in range(4)] + [italian("i")])
    g = game(s, {f"a{i}": "0201" for i in range(4)} | {"i": "0403"}, phase=Phase.REINFORCEMENT)
    g.apply(EndPhase())
    assert g.pending is None and g.phase is Phase.MOVEMENT


# -- 10.0 -----------------------------------------------------------------------------------------
def test_10_0_reaction_limit_counts_stacking_value(tmp_path: Path) -> None:
    s = board(tmp_path, CLEAR, [allied("a"), italian("i1", stack=2), italian("i2", stack=1), italian("i3")])
    g = game(s, {"a": "0101", "i1": "0705", "i2": "0805", "i3": "0804"}, phase=Phase.REACTION)
    assert g.acting is Side.ITALIAN
    g.apply(Move("i1", (H("0704"),)))
    g.apply(Move("i2", (H("0705"),)))
    refusal = g.check(Move("i3", (H("0803"),))).refusal
    assert refusal is not None and refusal.rules == ("10.0",) and "total stacking value of 3" in refusal.reason


def test_10_0_units_adjacent_to_the_enemy_or_low_on_supply_do_not_react(tmp_path: Path) -> None:
    s = board(tmp_path, CLEAR, [allied("a"), italian("near"), italian("low")])
    g = game(s, {"a": "0303", "near": "0403", "low": "0805"}, phase=Phase.REACTION, supply={"low": Supply.LOW})
    refusal = g.check(Move("near", (H("0503"),))).refusal
    assert refusal is not None and refusal.rules == ("10.0",) and "adjacent" in refusal.reason
    refusal = g.check(Move("low", (H("0804"),))).refusal
    assert refusal is not None and "12.5" in refusal.rules
    assert all(not isinstance(a, Move) for a in g.legal_actions())


def test_10_0_the_phasing_side_does_not_move_in_reaction(tmp_path: Path) -> None:
    s = board(tmp_path, CLEAR, [allied("a"), italian("i")])
    g = game(s, {"a": "0101", "i": "0805"}, phase=Phase.REACTION)
    refusal = g.check(Move("a", (H("0201"),))).refusal
    assert refusal is not None and refusal.rules == ("10.0",)


# -- 13.0 -----------------------------------------------------------------------------------------
def test_13_0_only_exploiting_types_move_in_exploitation(tmp_path: Path) -> None:
    s = board(tmp_path, CLEAR, [allied("inf"), allied("tank", sp=2, mp=8, type="tank", size="squadron"),
                                allied("lowtank", sp=2, mp=8, type="tank", size="squadron"), italian("i")])
    g = game(s, {"inf": "0101", "tank": "0103", "lowtank": "0105", "i": "0805"}, phase=Phase.EXPLOITATION,
             supply={"lowtank": Supply.LOW})
    refusal = g.check(Move("inf", (H("0201"),))).refusal
    assert refusal is not None and refusal.rules == ("13.0",)
    assert g.check(Move("tank", (H("0203"),))).ok
    refusal = g.check(Move("lowtank", (H("0205"),))).refusal
    assert refusal is not None and "12.5" in refusal.rules


# -- 8.0 to 8.5 -----------------------------------------------------------------------------------
def reinforcement_board(tmp_path: Path, extra: list[dict[str, object]] | None = None) -> object:
    towns = [town("Alpha", "0101", vp=10, letter="A"), town("Kilo", "0303", vp=10, letter="K"),
             town("Zulu", "0801", vp=10, letter="Z")]
    counters = [
        allied("a"),
        counter("late", "allied", letter="K", turn=2, faces=((4, 4), (2, 4))),
        italian("i"),
        *(extra or []),
    ]
    return board(tmp_path, CLEAR, counters, towns=towns)


def test_8_0_reinforcements_arrive_at_their_letter_town_with_a_control_marker(tmp_path: Path) -> None:
    s = reinforcement_board(tmp_path)
    g = game(s, {"a": "0101", "i": "0805"}, turn=2, phase=Phase.REINFORCEMENT)  # type: ignore[arg-type]
    unit = g.position.units["late"]
    assert unit.status is Status.MAP and unit.hex == H("0303")
    assert g.position.controller("Kilo") is Side.ALLIED


def test_8_0_not_before_their_turn(tmp_path: Path) -> None:
    s = reinforcement_board(tmp_path)
    g = game(s, {"a": "0101", "i": "0805"}, turn=1, phase=Phase.REINFORCEMENT)  # type: ignore[arg-type]
    assert g.position.units["late"].status is Status.POOL


def test_8_1_italian_held_arrival_town_costs_both_sides_a_step_and_the_italians_retreat(tmp_path: Path) -> None:
    s = reinforcement_board(tmp_path, [italian("j", sp=4, mp=4)])
    g = game(s, {"a": "0101", "i": "0303", "j": "0303"}, turn=2, phase=Phase.REINFORCEMENT)  # type: ignore[arg-type]
    # allied side: only 'late' arrives, so its loss is forced; the Italians choose between i and j
    d = g.pending
    assert d is not None and d.side is Side.ITALIAN and d.rules == ("8.1",)
    assert g.position.units["late"].steps_lost == 1
    g.apply(RemoveStep("i"))  # i is one-step: eliminated
    d = g.pending
    assert d is not None and d.kind == "retreat" and d.side is Side.ITALIAN
    retreat = next(a for a in g.legal_actions() if isinstance(a, Retreat))
    g.apply(retreat)
    assert g.position.units["j"].hex == retreat.to
    assert g.position.units["late"].hex == H("0303")
    assert g.position.controller("Kilo") is Side.ALLIED


def test_8_1_italians_who_cannot_retreat_keep_the_town(tmp_path: Path) -> None:
    # Kilo is ringed by allied units: no retreat, so the Italians take the extra loss (11.7)
    ring = {f"r{i}": h.label for i, h in enumerate(H("0303").neighbours())}
    s = reinforcement_board(tmp_path, [allied(f"r{i}") for i in range(6)] + [italian("j", sp=4, mp=4)])
    placements = {"a": "0101", "i": "0805", "j": "0303"} | ring
    g = game(s, placements, turn=2, phase=Phase.REINFORCEMENT)  # type: ignore[arg-type]
    assert g.pending is None
    assert g.position.units["j"].status is Status.ELIMINATED  # 1 step for 8.1, 1 for no retreat
    assert g.position.units["late"].hex == H("0303")


def test_8_2_allied_held_italian_arrival_town_sends_reinforcements_to_tigre(tmp_path: Path) -> None:
    towns = [town("Alpha", "0101", vp=10, letter="A"), town("Zulu", "0801", vp=10, letter="Z"),
             town("Adua", "0705", vp=5, letter="D"), town("Axum", "0805", vp=5, letter="X")]
    s = board(tmp_path, CLEAR, [allied("a"), italian("i"), counter("late", "italian", letter="Z", turn=2,
                                                                    faces=((2, 4),))],
              towns=towns, areas=["........", "........", "........", "......TT", "......TT"],
              garrison_areas=[{"key": "tigre", "name": "Tigre", "char": "T"}])
    g = game(s, {"a": "0801", "i": "0505"}, turn=2, side=Side.ITALIAN, phase=Phase.REINFORCEMENT)
    d = g.pending
    assert d is not None and d.rules == ("8.2",)
    assert set(d.choices) == {H("0705"), H("0805")}
    g.apply(Place("late", H("0805")))
    assert g.position.units["late"].hex == H("0805")


def test_8_3_replacement_on_turns_3_6_9_12_only(tmp_path: Path) -> None:
    s = board(tmp_path, CLEAR, [allied("a"), allied("b"), italian("i")])
    g = game(s, {"a": ("0101", 1), "b": "0103", "i": "0805"}, turn=3, phase=Phase.REINFORCEMENT)
    assert Replace("a") in g.legal_actions() and Replace("b") not in g.legal_actions()
    g.apply(Replace("a"))
    assert g.position.units["a"].steps_lost == 0
    refusal = g.check(Replace("a")).refusal
    assert refusal is not None and refusal.rules == ("8.3",)
    g2 = game(s, {"a": ("0101", 1), "i": "0805"}, turn=4, phase=Phase.REINFORCEMENT)
    refusal = g2.check(Replace("a")).refusal
    assert refusal is not None and "not a replacement turn" in refusal.reason


def test_8_3_no_replacement_for_a_unit_with_a_supply_marker(tmp_path: Path) -> None:
    s = board(tmp_path, CLEAR, [allied("a"), italian("i")])
    g = game(s, {"a": ("0101", 1), "i": "0805"}, turn=6, phase=Phase.REINFORCEMENT, supply={"a": Supply.LOW})
    refusal = g.check(Replace("a")).refusal
    assert refusal is not None and "Low/No supply" in refusal.reason


def k7f8_board(tmp_path: Path) -> object:
    towns = [town("Alpha", "0101", vp=10, letter="A"), town("Kassala", "0103", vp=10, letter="K"),
             town("Af Abed", "0501", vp=5, letter="F"), town("Zulu", "0805", vp=5, letter="Z")]
    ff = {"letter": "K", "turn": 7, "alternative": {"letter": "F", "turn": 8}}
    counters = [allied("a"), italian("i"),
                counter("ff1", "allied", faces=((3, 6),), arrival=ff),
                counter("ff2", "allied", faces=((2, 6),), arrival=ff)]
    return board(tmp_path, CLEAR, counters, towns=towns)


def test_8_4_taking_kassala_on_turn_7(tmp_path: Path) -> None:
    s = k7f8_board(tmp_path)
    g = game(s, {"a": "0101", "i": "0805"}, turn=7, phase=Phase.REINFORCEMENT)  # type: ignore[arg-type]
    d = g.pending
    assert d is not None and d.rules == ("8.4",) and d.code == "K7-F8"
    g.apply(ChooseArrival("K7-F8", postpone=False))
    assert g.position.units["ff1"].hex == H("0103") and g.position.units["ff2"].hex == H("0103")


def test_8_4_postponed_units_arrive_at_af_abed_on_turn_8(tmp_path: Path) -> None:
    s = k7f8_board(tmp_path)
    g = game(s, {"a": "0101", "i": "0805"}, turn=7, phase=Phase.REINFORCEMENT)  # type: ignore[arg-type]
    g.apply(ChooseArrival("K7-F8", postpone=True))
    assert g.position.units["ff1"].status is Status.POOL
    end_phases(g, 12)
    assert g.turn == 8
    assert g.position.units["ff1"].hex == H("0501") and g.position.units["ff2"].hex == H("0501")


def test_11_3_the_air_unit_arrives_off_map(tmp_path: Path) -> None:
    air_type = {"key": "air", "name": "Air support", "symbol": "air", "may_enter_mountain": False,
                "support": True, "may_exploit": False, "motorized": False, "air": True}
    s = board(tmp_path, CLEAR, [allied("a"), italian("i"),
                                counter("air", "allied", letter="A", turn=3, faces=((1, 0),), type="air",
                                        size="none", stack=0)],
              unit_types=[*DEFAULT_UNIT_TYPES, air_type])
    g = game(s, {"a": "0101", "i": "0805"}, turn=3, phase=Phase.REINFORCEMENT)
    assert g.position.units["air"].status is Status.OFF_MAP


# -- 6.0 ------------------------------------------------------------------------------------------
def garrison_board(tmp_path: Path) -> object:
    natives = [counter(f"n{i}", "italian", faces=((1, 5),), colour="black",
                       native={"garrison": "wolkait", "village": f"V{i}", "defected": {"sp": 1, "mp": 5}})
               for i in range(4)]
    return board(tmp_path, CLEAR, [allied("a", mp=8), italian("i"), *natives],
                 areas=["........", "........", "....WWWW", "....WWWW", "....WWWW"],
                 garrison_areas=[{"key": "wolkait", "name": "Wolkait", "char": "W"}],
                 native_villages=[{"name": f"V{i}", "hex": h} for i, h in enumerate(["0704", "0804", "0805", "0705"])])


def test_6_0_release_when_allied_unit_ends_phase_in_area(tmp_path: Path) -> None:
    s = garrison_board(tmp_path)
    placements = {"a": "0101", "i": "0102"} | {f"n{i}": h for i, h in enumerate(["0704", "0804", "0805", "0705"])}
    g = game(s, placements, seed=3)  # type: ignore[arg-type]
    into_area = next(a for a in g.legal_actions() if isinstance(a, Move) and a.to == H("0503"))
    g.apply(into_area)
    assert "wolkait" not in g.position.released  # released only at the end of the phase
    g.apply(EndPhase())
    assert "wolkait" in g.position.released
    rolls = [e for e in g.log[-1].events if "rolls" in e]
    assert len(rolls) == 4
    for i, event in enumerate(rolls):
        roll = int(event.split("rolls ")[1].split(":")[0])
        assert g.position.units[f"n{i}"].defected == (roll >= 4)
        assert g.position.units[f"n{i}"].side is (Side.ALLIED if roll >= 4 else Side.ITALIAN)


def test_6_0_release_when_next_to_a_garrison_unit(tmp_path: Path) -> None:
    s = garrison_board(tmp_path)
    placements = {"a": "0603", "i": "0102"} | {f"n{i}": h for i, h in enumerate(["0704", "0804", "0805", "0705"])}
    g = game(s, placements)  # type: ignore[arg-type]
    assert H("0704") in H("0603").neighbours()
    g.apply(EndPhase())
    assert "wolkait" in g.position.released


def test_6_0_a_defector_stacked_with_italians_is_placed_one_hex_away(tmp_path: Path) -> None:
    s = garrison_board(tmp_path)
    placements = {"a": "0603", "i": "0704"} | {f"n{i}": h for i, h in enumerate(["0704", "0804", "0805", "0705"])}
    for seed in range(40):
        g = game(s, placements, seed=seed)  # type: ignore[arg-type]
        g.apply(EndPhase())
        if g.position.units["n0"].defected:
            break
    else:
        pytest.fail("no seed made n0 defect")
    d = g.pending
    if d is not None and d.rules == ("6.0",):
        assert d.side is Side.ITALIAN
        assert all(not any(g.position.units[u].side is Side.ITALIAN for u in g.position.units_at(h))
                   for h in d.choices)
        g.apply(Place("n0", d.choices[0]))
    assert g.position.units["n0"].hex != H("0704")
    assert g.position.units["n0"].hex in H("0704").neighbours()


# -- history ------------------------------------------------------------------------------------
def test_undo_redo_and_replay(tmp_path: Path) -> None:
    s = board(tmp_path, CLEAR, [allied("a"), allied("b"), italian("i")])
    g = game(s, {"a": "0101", "b": "0103", "i": "0805"})
    g.apply(Move("a", (H("0201"),)))
    g.apply(Move("b", (H("0203"),)))
    g.apply(EndPhase())
    after = g.position.copy()
    assert g.undo() == EndPhase()
    assert g.phase is Phase.MOVEMENT
    g.undo()
    assert g.position.units["b"].hex == H("0103")
    g.redo()
    g.redo()
    assert g.position.units == after.units and g.moment.phase is Phase.REACTION
    replayed = Game.replay(s, 1, g.actions(), position=g.start)
    assert replayed.position.units == g.position.units
    assert str(g.log[0]).startswith("   1. [turn 1, Allied Movement] Allied: move a to 0201")


def test_a_new_action_after_undo_starts_a_new_line_with_nothing_to_redo(tmp_path: Path) -> None:
    s = board(tmp_path, CLEAR, [allied("a"), allied("b"), italian("i")])
    g = game(s, {"a": "0101", "b": "0103", "i": "0805"})
    g.apply(Move("a", (H("0201"),)))
    g.apply(Move("b", (H("0203"),)))
    g.undo()
    g.undo()
    assert g.can_redo()
    g.apply(Move("b", (H("0202"),)))  # another line of play
    assert not g.can_redo()
    with pytest.raises(IndexError, match="nothing to redo"):
        g.redo()
    assert g.actions() == [Move("b", (H("0202"),))]
    assert g.position.units["a"].hex == H("0101")  # the abandoned line's move stays undone
    # redo still replays what undo took back, in order, until a new action is applied
    g.undo()
    assert g.redo() == Move("b", (H("0202"),)) and not g.can_redo()


def test_8_2_an_allied_controlled_empty_italian_arrival_town_loses_its_marker(tmp_path: Path) -> None:
    s = board(tmp_path, CLEAR, [allied("a"), italian("i"), counter("late", "italian", letter="Z", turn=2,
                                                                    faces=((2, 4),))])
    p = position(s, {"a": "0101", "i": "0505"}, turn=2, side=Side.ITALIAN, phase=Phase.REINFORCEMENT)
    p.set_control("Zulu", Side.ALLIED)
    g = Game(s, 1, p)
    assert g.position.units["late"].hex == H("0801")
    assert g.position.controller("Zulu") is Side.ITALIAN


def test_6_0_non_garrison_italian_units_move_through_garrison_areas(tmp_path: Path) -> None:
    s = board(tmp_path, CLEAR, [allied("a"), italian("i", mp=6),
                                counter("eritrea", "italian", faces=((2, 5),), colour="black",
                                        native={"garrison": None, "village": "V", "defected": {"sp": 2, "mp": 5}})],
              areas=["........", "........", "....WWWW", "....WWWW", "....WWWW"],
              garrison_areas=[{"key": "wolkait", "name": "Wolkait", "char": "W"}],
              native_villages=[{"name": "V", "hex": "0201"}])
    g = game(s, {"a": "0101", "i": "0403", "eritrea": "0201"}, side=Side.ITALIAN)
    through = next(a for a in g.legal_actions() if isinstance(a, Move) and a.unit == "i" and a.to == H("0805"))
    assert g.check(through).ok
    # 6.0: the Eritrea native unit is no garrison unit; it moves like any Italian unit
    assert g.check(Move("eritrea", (H("0202"),))).ok


def test_single_choice_decisions_are_taken_automatically(tmp_path: Path) -> None:
    s = reinforcement_board(tmp_path)
    g = game(s, {"a": "0101", "i": "0303"}, turn=2, phase=Phase.REINFORCEMENT)  # type: ignore[arg-type]
    # one arriving allied unit and one Italian occupant: both losses are forced, so nobody is asked
    assert g.position.units["late"].steps_lost == 1
    assert g.position.units["i"].status is Status.ELIMINATED
    assert g.pending is None


def test_2_1_passing_through_a_town_takes_control(tmp_path: Path) -> None:
    towns = [town("Alpha", "0101", vp=10, letter="A"), town("Mid", "0301", vp=10),
             town("Zulu", "0805", vp=10, letter="Z")]
    s = board(tmp_path, CLEAR, [allied("a"), italian("i")], towns=towns)
    g = game(s, {"a": "0101", "i": "0805"})
    assert g.position.controller("Mid") is Side.ITALIAN
    g.apply(Move("a", (H("0201"), H("0301"), H("0401"))))  # through Mid without stopping
    assert g.position.controller("Mid") is Side.ALLIED
    assert any("take control of it" in e and "(2.1)" in e for e in g.log[-1].events)
