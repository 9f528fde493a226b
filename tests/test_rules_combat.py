"""Combat, rules 11.0-11.9 (with 9.1, 8.5, 12.6): odds, who may attack, losses, retreat, push
and advance, on small hand-made boards.  The die is fixed by giving the position dice whose next
rolls are known."""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cheren.engine.actions import (
    Action,
    AddAir,
    Advance,
    Attack,
    Commit,
    EndPhase,
    NoAdvance,
    Push,
    RemoveStep,
    Resolve,
    Retreat,
    StayAndLose,
    Uncommit,
    action_from_json,
)
from cheren.engine.dice import Dice
from cheren.engine.game import Game, IllegalAction
from cheren.engine.position import Status, Supply
from cheren.engine.rules.combat import combat_state
from cheren.engine.rules.combat_odds import compute_odds, rounded_ratio
from cheren.engine.rules.stacking import overstacked
from cheren.scenario import Phase, Scenario, Side
from tests.boards import H, allied, board, game, italian, position
from tests.scenario_factory import DEFAULT_UNIT_TYPES, counter, town

CLEAR = ["........", "........", "........", "........", "........"]
ROUGH = ["........", "........", "...r....", "........", "........"]

UNIT_TYPES: list[dict[str, Any]] = [
    *DEFAULT_UNIT_TYPES,
    {"key": "field_gun", "name": "Field artillery", "symbol": "artillery", "may_enter_mountain": True,
     "support": True, "may_exploit": False, "motorized": False, "artillery": True},
    {"key": "motorized_infantry", "name": "Motorized infantry", "symbol": "motorized_infantry",
     "may_enter_mountain": False, "support": False, "may_exploit": True, "motorized": True},
    {"key": "cavalry", "name": "Cavalry", "symbol": "cavalry", "may_enter_mountain": True, "support": False,
     "may_exploit": True, "motorized": False},
    {"key": "air", "name": "Air support", "symbol": "air", "may_enter_mountain": False, "support": True,
     "may_exploit": False, "motorized": False, "air": True},
    {"key": "naval", "name": "Naval garrison", "symbol": "naval", "may_enter_mountain": True, "support": False,
     "may_exploit": False, "motorized": False},
]


def make(tmp_path: Path, counters: list[dict[str, Any]], terrain: list[str] | None = None, **options: Any) -> Scenario:
    return board(tmp_path, terrain or CLEAR, counters, unit_types=UNIT_TYPES, **options)


def air() -> dict[str, Any]:
    return counter("air", "allied", letter="A", turn=3, faces=((1, 0),), type="air", size="none", stack=0)


def brigade(id: str = "ind") -> list[dict[str, Any]]:
    return [
        counter(id, "allied", letter="A", faces=((8, 5), (6, 5)), size="brigade", stack=2, replacement=f"{id}_r"),
        counter(f"{id}_r", "allied", faces=((4, 5), (2, 5)), size="brigade", stack=2, is_replacement=True),
    ]


def two_step(id: str, sp: int = 2, mp: int = 4, side: str = "italian", **extra: Any) -> dict[str, Any]:
    return counter(id, side, letter="Z" if side == "italian" else "A", faces=((sp, mp), (max(sp // 2, 1), mp)),
                   **extra)


def dice_for(*rolls: int) -> Dice:
    """Dice whose next rolls are ``rolls``."""
    for seed in range(1, 200_000):
        d = Dice(seed)
        if all(d.roll() == r for r in rolls):
            return Dice(seed)
    raise AssertionError(f"no seed rolls {rolls}")


def combat_game(s: Scenario, placements: Mapping[str, str | tuple[str, int]], *rolls: int, **kwargs: Any) -> Game:
    kwargs.setdefault("phase", Phase.COMBAT)
    g = game(s, placements, **kwargs)
    if rolls:
        g.position.dice = dice_for(*rolls)
    return g


def refusal_rules(g: Game, action: Action) -> tuple[str, ...]:
    verdict = g.check(action)
    assert verdict.refusal is not None, f"{action} should be refused"
    return verdict.refusal.rules


def kinds(g: Game) -> list[str]:
    return [a.kind for a in g.legal_actions()]


def steps_lost(g: Game, uid: str) -> int:
    return g.position.units[uid].steps_lost if g.position.units[uid].status is Status.MAP else -1


# -- 11.0-11.5: the odds -----------------------------------------------------------------------------
def test_11_0_seventeen_against_five_is_3_to_1(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("a", sp=8), allied("b", sp=9), italian("i", sp=5)])
    g = combat_game(s, {"a": "0303", "b": "0304", "i": "0403"})
    odds = compute_odds(g.position, ["a", "b"], H("0403"))
    assert (odds.attack_sp, odds.defence_sp, odds.raw, odds.column_name) == (17, 5, "3-1", "3-1")
    assert odds.explain() == "17 vs 5 = 3.4 -> 3-1"


def test_11_0_odds_below_one_to_one_round_in_the_defenders_favour() -> None:
    assert rounded_ratio(5, 8) == (1, 2)
    assert rounded_ratio(5, 10) == (1, 2)
    assert rounded_ratio(5, 11) == (1, 3)
    assert rounded_ratio(8, 8) == (1, 1)
    assert rounded_ratio(7, 8) == (1, 2)


def test_11_1_a_terrain_shift_turns_5_to_1_into_3_to_1(tmp_path: Path) -> None:
    terrain = ["........", "........", "...r....", "........", "........"]
    s = make(tmp_path, [allied("a", sp=25), italian("i", sp=5)], terrain)
    g = combat_game(s, {"a": "0303", "i": "0403"})
    odds = compute_odds(g.position, ["a"], H("0403"))
    assert odds.raw == "5-1" and odds.column_name == "3-1"
    assert [(x.columns, x.rule) for x in odds.shifts] == [(-1, "11.1")]
    assert "rough terrain in 0403: 1 column left (11.1)" in odds.explain()


def test_11_1_a_mixed_hex_gives_its_best_shift(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("a", sp=25), italian("i", sp=5)], extra_terrain={"0403": ["rough", "mountain"]})
    g = combat_game(s, {"a": "0303", "i": "0403"})
    assert compute_odds(g.position, ["a"], H("0403")).net_shift == -2


def test_11_1_the_river_shifts_only_when_every_attacker_crosses_it(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("a", sp=10), allied("b", sp=10), italian("i", sp=5)], rivers=[["0303/0403"]])
    g = combat_game(s, {"a": "0303", "b": "0304", "i": "0403"})
    both = compute_odds(g.position, ["a", "b"], H("0403"))
    alone = compute_odds(g.position, ["a"], H("0403"))
    assert both.net_shift == 0
    assert [(x.columns, x.rule) for x in alone.shifts] == [(-1, "11.1")] and "river" in alone.explain()


def test_11_1_a_river_shift_adds_to_the_terrain_shift(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("a", sp=30), italian("i", sp=1)], ROUGH, rivers=[["0303/0403"]])
    g = combat_game(s, {"a": "0303", "i": "0403"})
    odds = compute_odds(g.position, ["a"], H("0403"))
    assert [x.rule for x in odds.shifts] == ["11.1", "11.1"] and odds.column_name == "7-1"


def test_11_4_support_5_against_3_turns_2_to_1_into_3_to_1(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("inf", sp=5), allied("guns", sp=5, type="field_gun"),
                        italian("i", sp=2), italian("it_guns", sp=3, type="field_gun")])
    g = combat_game(s, {"inf": "0303", "guns": "0304", "i": "0403", "it_guns": "0403"})
    odds = compute_odds(g.position, ["inf", "guns"], H("0403"))
    assert (odds.raw, odds.attack_support, odds.defence_support) == ("2-1", 5, 3)
    assert odds.column_name == "3-1"
    assert "the Allies win the support comparison 5 vs 3: 1 column right (11.4)" in odds.explain()


def test_11_4_a_support_tie_gives_no_shift_and_the_defender_can_win_it(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("inf", sp=6), allied("guns", sp=3, type="field_gun"),
                        italian("i", sp=2), italian("it_guns", sp=3, type="field_gun")])
    g = combat_game(s, {"inf": "0303", "guns": "0304", "i": "0403", "it_guns": "0403"})
    assert compute_odds(g.position, ["inf", "guns"], H("0403")).shifts == ()
    lost = compute_odds(g.position, ["inf"], H("0403"))
    assert [(x.columns, x.rule) for x in lost.shifts] == [(-1, "11.4")]


def test_11_4_the_air_unit_counts_in_the_support_comparison(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("inf", sp=4), air(), italian("i", sp=2)])
    g = combat_game(s, {"inf": "0303", "i": "0403"}, turn=3)
    odds = compute_odds(g.position, ["inf"], H("0403"), "air")
    assert (odds.attack_sp, odds.attack_support, odds.defence_support) == (5, 1, 0)
    assert odds.raw == "2-1" and odds.column_name == "3-1"


def test_11_5_4_to_1_is_played_on_3_to_1(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("a", sp=8), italian("i", sp=2)])
    g = combat_game(s, {"a": "0303", "i": "0403"})
    odds = compute_odds(g.position, ["a"], H("0403"))
    assert (odds.raw, odds.column_name) == ("4-1", "3-1")
    assert "played on 3-1" in odds.explain()


def test_11_5_below_1_to_3_and_above_13_to_1_clamp(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("a", sp=1), allied("big", sp=30), italian("i", sp=5), italian("j", sp=1)])
    g = combat_game(s, {"a": "0303", "i": "0403", "big": "0602", "j": "0502"})
    low = compute_odds(g.position, ["a"], H("0403"))
    assert (low.raw, low.column_name) == ("1-5", "1-3")
    high = compute_odds(g.position, ["big"], H("0502"))
    assert (high.raw, high.column_name) == ("30-1", "13-1")


def test_11_5_shifts_move_from_the_raw_column_then_clamp(tmp_path: Path) -> None:
    # 30-1 in rough terrain: the raw column is 13-1, one shift left gives 10-1.
    terrain = ["........", "....r...", "........", "........", "........"]
    s = make(tmp_path, [allied("big", sp=30), allied("guns", sp=1, type="field_gun"), italian("j", sp=1),
                        allied("a", sp=1), italian("i", sp=5)], terrain)
    g = combat_game(s, {"big": "0602", "guns": "0601", "j": "0502", "a": "0303", "i": "0403"})
    assert compute_odds(g.position, ["big"], H("0502")).column_name == "10-1"
    # 31 vs 1 with the support shift too: 13-1, one left, one right: 13-1 (no shift past the end first).
    assert compute_odds(g.position, ["big", "guns"], H("0502")).column_name == "13-1"
    # 1 vs 5 is below 1-3: it starts on 1-3, so one shift right gives 1-2.
    odds = compute_odds(g.position, ["a"], H("0403"), extra_shifts=[])
    assert odds.column_name == "1-3"
    from cheren.engine.rules.combat_odds import Shift

    shifted = compute_odds(g.position, ["a"], H("0403"), extra_shifts=[Shift(1, "test", "a test shift")])
    assert shifted.column_name == "1-2"
    far = compute_odds(g.position, ["a"], H("0403"), extra_shifts=[Shift(-3, "test", "a test shift")])
    assert far.column_name == "1-3" and any("held at 1-3" in n for n in far.notes)


# -- 11.0-11.3, 9.1, 12.6: who may attack ------------------------------------------------------------
def test_11_0_attacks_only_in_the_combat_phase_by_the_phasing_side(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("a"), italian("i")])
    g = combat_game(s, {"a": "0303", "i": "0403"}, phase=Phase.MOVEMENT)
    assert refusal_rules(g, Commit("a", H("0403"))) == ("11.0",)
    g = combat_game(s, {"a": "0303", "i": "0403"}, side=Side.ITALIAN)
    assert refusal_rules(g, Commit("a", H("0403"))) == ("11.0",)
    assert Commit("i", H("0303")) in g.legal_actions()


def test_11_0_only_adjacent_units_attack_and_only_enemy_hexes(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("a"), allied("far"), italian("i")])
    g = combat_game(s, {"a": "0303", "far": "0103", "i": "0403"})
    assert refusal_rules(g, Commit("far", H("0403"))) == ("11.0",)
    assert refusal_rules(g, Commit("a", H("0402"))) == ("11.0",)
    assert kinds(g) == ["commit", "end_phase"]


def test_11_0_a_stack_may_split_and_attackers_may_come_from_several_hexes(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("a", sp=6), allied("b", sp=6), allied("c", sp=6), italian("i"), italian("j")])
    # a and b share 0303, which touches both 0403 and 0402; c attacks 0403 from 0304.
    g = combat_game(s, {"a": "0303", "b": "0303", "c": "0304", "i": "0403", "j": "0402"}, 1, 1)
    g.apply(Commit("a", H("0403")))
    g.apply(Commit("c", H("0403")))
    g.apply(Commit("b", H("0402")))
    assert {h.label: a.units for h, a in combat_state(g).assemblies.items()} == {"0403": ["a", "c"], "0402": ["b"]}
    assert refusal_rules(g, Commit("a", H("0402"))) == ("11.0",)  # already committed elsewhere
    odds = compute_odds(g.position, ["a", "c"], H("0403"))
    assert odds.attack_sp == 12


def test_11_0_each_unit_attacks_once_per_combat_phase(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("a", sp=2), italian("i", sp=6), italian("j", sp=6)])
    g = combat_game(s, {"a": "0303", "i": "0403", "j": "0402"}, 3)  # 1-3, die 3: 1/0
    g.apply(Attack(H("0403"), ("a",)))
    assert g.pending is None and g.position.units["a"].status is Status.MAP
    why = g.check(Commit("a", H("0402"))).refusal
    assert why is not None and why.rules == ("11.0",) and "already attacked" in why.reason
    assert kinds(g) == ["end_phase"]


def test_11_0_combat_is_optional_but_an_assembled_attack_must_be_resolved_or_withdrawn(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("a"), italian("i")])
    g = combat_game(s, {"a": "0303", "i": "0403"})
    assert g.check(EndPhase()).ok
    g.apply(Commit("a", H("0403")))
    assert refusal_rules(g, EndPhase()) == ("11.0",)
    assert EndPhase() not in g.legal_actions()
    assert refusal_rules(g, Uncommit("a", H("0402"))) == ("11.0",)
    g.apply(Uncommit("a", H("0403")))
    assert g.check(EndPhase()).ok and combat_state(g).assemblies == {}


def test_11_0_only_units_showing_6_mp_attack_mountain_hexes(tmp_path: Path) -> None:
    terrain = ["........", "........", "...M....", "........", "........"]
    s = make(tmp_path, [allied("foot", mp=5), allied("alpini", mp=6, type="mountain_infantry"),
                        allied("horse", mp=8, type="cavalry"), italian("i")], terrain)
    g = combat_game(s, {"foot": "0303", "alpini": "0304", "horse": "0503", "i": "0403"})
    assert refusal_rules(g, Commit("foot", H("0403"))) == ("11.0",)
    assert refusal_rules(g, Commit("horse", H("0403"))) == ("11.0",)
    assert g.check(Commit("alpini", H("0403"))).ok
    assert [a for a in g.legal_actions() if isinstance(a, Commit)] == [Commit("alpini", H("0403"))]


def test_9_1_tanks_and_motorized_units_never_attack_mountain_hexes(tmp_path: Path) -> None:
    terrain = ["........", "........", "...M....", "........", "........"]
    s = make(tmp_path, [allied("tank", mp=6, type="tank"), allied("mot", mp=6, type="motorized_infantry"),
                        allied("inf", mp=6), italian("i")], terrain)
    g = combat_game(s, {"tank": "0303", "mot": "0304", "inf": "0503", "i": "0403"})
    assert refusal_rules(g, Commit("tank", H("0403"))) == ("9.1",)
    assert refusal_rules(g, Commit("mot", H("0403"))) == ("9.1",)
    assert refusal_rules(g, Attack(H("0403"), ("inf", "tank"))) == ("9.1",)


def test_11_2_artillery_attacks_only_beside_a_non_artillery_unit(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("guns", type="field_gun"), allied("inf"), italian("i")])
    g = combat_game(s, {"guns": "0303", "inf": "0504", "i": "0403"}, 1)
    g.apply(Commit("guns", H("0403")))  # committing alone is fine; resolving is not
    assert refusal_rules(g, Resolve(H("0403"))) == ("11.2",)
    assert Resolve(H("0403")) not in g.legal_actions()
    g.apply(Uncommit("guns", H("0403")))
    assert refusal_rules(g, Attack(H("0403"), ("guns",))) == ("11.2",)
    g.apply(Commit("guns", H("0403")))
    g.apply(Commit("inf", H("0403")))  # the partner attacks from another hex
    assert g.check(Resolve(H("0403"))).ok


def test_11_2_artillery_joins_a_mountain_attack_with_a_mountain_eligible_unit(tmp_path: Path) -> None:
    terrain = ["........", "........", "...M....", "........", "........"]
    s = make(tmp_path, [allied("guns", mp=4, type="field_gun"), allied("alpini", mp=6, type="mountain_infantry"),
                        italian("i")], terrain)
    g = combat_game(s, {"guns": "0303", "alpini": "0304", "i": "0403"})
    g.apply(Commit("guns", H("0403")))  # artillery is judged with the whole attack (4 MP is fine)
    assert refusal_rules(g, Resolve(H("0403"))) == ("11.2",)
    g.apply(Commit("alpini", H("0403")))
    assert g.check(Resolve(H("0403"))).ok


def test_12_6_units_with_a_no_supply_marker_never_attack(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("a"), allied("b"), italian("i")])
    g = combat_game(s, {"a": "0303", "b": "0304", "i": "0403"}, supply={"a": Supply.NO, "b": Supply.LOW})
    assert refusal_rules(g, Commit("a", H("0403"))) == ("12.6",)
    assert g.check(Commit("b", H("0403"))).ok  # a Low supply marker does not stop an attack


def test_11_3_the_air_unit_adds_one_sp_to_one_attack_per_combat_phase(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("a", sp=4), allied("b", sp=4), air(), italian("i", sp=2), italian("j", sp=2)])
    places = {"a": "0303", "b": "0401", "i": "0403", "j": "0402"}
    early = combat_game(s, places, turn=2)
    early.position.units["air"].status = Status.OFF_MAP
    early.apply(Commit("a", H("0403")))
    assert refusal_rules(early, AddAir(H("0403"))) == ("11.3",)  # it arrives on turn 3

    g = combat_game(s, places, 1, 1, turn=3)
    g.position.units["air"].status = Status.OFF_MAP
    assert refusal_rules(g, AddAir(H("0403"))) == ("11.3",)  # never by itself
    assert refusal_rules(g, Commit("air", H("0403"))) == ("11.3",)
    g.apply(Commit("a", H("0403")))
    g.apply(Commit("b", H("0402")))
    assert AddAir(H("0403")) in g.legal_actions() and AddAir(H("0402")) in g.legal_actions()
    g.apply(AddAir(H("0403")))
    assert refusal_rules(g, AddAir(H("0402"))) == ("11.3",)  # already laid on 0403
    events = g.apply(Resolve(H("0403")))
    assert any("5 vs 2" in e for e in events)
    assert refusal_rules(g, AddAir(H("0402"))) == ("11.3",)  # used this phase
    assert g.position.units["air"].status is Status.OFF_MAP  # kept off map, never on a hex


def test_11_3_the_air_unit_never_takes_losses_and_is_not_the_partner_artillery_needs(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("a", sp=1), allied("guns", sp=1, type="field_gun"), air(), italian("i", sp=9)])
    g = combat_game(s, {"a": "0303", "guns": "0304", "i": "0403"}, 1, turn=3)
    g.position.units["air"].status = Status.OFF_MAP
    assert refusal_rules(g, Attack(H("0403"), ("guns",), air=True)) == ("11.2", "11.3")
    g.apply(Attack(H("0403"), ("a", "guns"), air=True))  # 3 vs 9: 1-3, die 1: 2/0
    assert g.position.units["air"].status is Status.OFF_MAP
    assert g.position.units["a"].status is Status.ELIMINATED  # first step: a (11.6), then a again
    assert g.position.units["guns"].status is Status.MAP


def test_legal_actions_stay_small_with_many_units(tmp_path: Path) -> None:
    counters = [allied(f"a{i}") for i in range(10)] + [italian(f"i{i}") for i in range(6)]
    s = make(tmp_path, counters)
    places = {f"a{i}": ["0303", "0304"][i % 2] for i in range(10)} | {f"i{i}": "0403" for i in range(6)}
    g = combat_game(s, places)
    commits = [a for a in g.legal_actions() if isinstance(a, Commit)]
    assert len(commits) == 10
    for i in range(10):
        g.apply(Commit(f"a{i}", H("0403")))
    assert len(g.legal_actions()) == 1 + 10  # resolve, and withdraw each unit


# -- 11.5, 11.6: losses ------------------------------------------------------------------------------
def test_11_5_the_defender_applies_its_result_first_then_the_attacker(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("a", sp=6), two_step("i", sp=3)])
    g = combat_game(s, {"a": "0303", "i": "0403"}, 4)  # 2-1, die 4: 1/1r
    events = g.apply(Attack(H("0403"), ("a",)))
    assert g.pending is not None and g.pending.kind == "combat_retreat" and g.pending.side is Side.ITALIAN
    assert steps_lost(g, "a") == 0  # the attacker's step comes after the defender's
    options = g.legal_actions()
    events += g.apply(next(a for a in options if isinstance(a, Retreat)))
    text = "\n".join(events)
    assert text.index("I loses") < text.index("retreat from 0403") < text.index("A loses")


def test_11_6_the_owner_chooses_which_unit_loses_each_step(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("a", sp=30), two_step("i"), two_step("j")])
    g = combat_game(s, {"a": "0303", "i": "0403", "j": "0403"}, 6)  # 7-1, die 6: 0/3r
    g.apply(Attack(H("0403"), ("a",)))
    assert g.pending is not None and g.pending.kind == "combat_retreat"
    g.apply(StayAndLose())
    assert set(g.legal_actions()) == {RemoveStep("i"), RemoveStep("j")}
    g.apply(RemoveStep("j"))
    g.apply(RemoveStep("j"))  # j is gone: i takes the third step at once
    assert g.position.units["j"].status is Status.ELIMINATED
    # the stay step: only i is left, so it is taken automatically and the stack is gone
    assert g.position.units["i"].status is Status.ELIMINATED
    assert g.pending is not None and g.pending.kind == "combat_advance"


def test_11_6_brigade_steps_8_5_flipped_then_the_4_5_replacement_then_gone(tmp_path: Path) -> None:
    s = make(tmp_path, [*brigade(), italian("i", sp=9)])
    g = combat_game(s, {"ind": "0303", "i": "0403"}, 1)  # 8 vs 9: 1-2, die 1: 2/0
    assert g.position.step("ind") == s.units["ind"].ladder[0] and g.position.strength("ind") == 8
    g.apply(Attack(H("0403"), ("ind",)))
    step = g.position.step("ind")
    assert (step.counter, step.face, step.sp) == ("ind_r", 0, 4)  # the white-dot 4-5 counter
    g2 = combat_game(s, {"ind": ("0303", 2), "i": "0403"}, 1)  # 4 vs 9: 1-3, die 1: 2/0
    g2.apply(Attack(H("0403"), ("ind",)))
    assert g2.position.units["ind"].status is Status.ELIMINATED
    ladder = [(x.counter, x.face, x.sp) for x in s.units["ind"].ladder]
    assert ladder == [("ind", 0, 8), ("ind", 1, 6), ("ind_r", 0, 4), ("ind_r", 1, 2)]


def test_11_6_artillery_loses_steps_only_when_retreating_or_alone(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("a", sp=30), two_step("inf"), two_step("inf2"), two_step("guns", type="field_gun")])
    places: dict[str, str | tuple[str, int]] = {"a": "0303", "inf": "0403", "inf2": "0403", "guns": "0403"}
    # 30 vs 6 = 5-1, the Italians win the support comparison 2 vs 0: 3-1; die 6: 0/2r
    stays = combat_game(s, places, 6)
    stays.apply(Attack(H("0403"), ("a",)))
    stays.apply(StayAndLose())
    assert set(stays.legal_actions()) == {RemoveStep("inf"), RemoveStep("inf2")}
    retreats = combat_game(s, places, 6)
    retreats.apply(Attack(H("0403"), ("a",)))
    retreats.apply(next(a for a in retreats.legal_actions() if isinstance(a, Retreat)))
    assert set(retreats.legal_actions()) == {RemoveStep("inf"), RemoveStep("inf2"), RemoveStep("guns")}
    # alone, the guns take the step
    alone = combat_game(s, {"a": "0303", "guns": "0403"}, 2)  # 30 vs 2 -> 13-1, support: 10-1, die 2: 0/1r
    events = alone.apply(Attack(H("0403"), ("a",)))
    events += alone.apply(StayAndLose())
    assert alone.position.units["guns"].status is Status.ELIMINATED and any("Guns loses" in e for e in events)


def test_11_6_attacking_artillery_loses_a_step_only_when_no_other_unit_can(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("inf", sp=1, mp=4), allied("guns", sp=1, type="field_gun"), italian("i", sp=9)])
    s_inf = s.units["inf"]
    assert s_inf.steps == 2
    g = combat_game(s, {"inf": ("0303", 1), "guns": "0304", "i": "0403"}, 1)  # 1 vs 9... 1-3, die 1: 2/0
    events = g.apply(Attack(H("0403"), ("inf", "guns")))
    assert g.position.units["inf"].status is Status.ELIMINATED
    assert g.position.units["guns"].steps_lost == 1
    assert any("Guns loses a step" in e for e in events)


# -- 11.7: retreat ----------------------------------------------------------------------------------
def test_11_7_the_defender_retreats_first_to_hexes_outside_enemy_zoc(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("a", sp=30), two_step("i")])
    g = combat_game(s, {"a": "0303", "i": "0403"}, 1)  # 13-1, die 1: 0/1r
    g.apply(Attack(H("0403"), ("a",)))
    retreats = {a.to.label for a in g.legal_actions() if isinstance(a, Retreat)}
    assert retreats == {"0503", "0504", "0404"}  # 0402 and 0304 lie in the attacker's ZoC
    assert StayAndLose() in g.legal_actions()


# Three allied stacks two hexes away whose ZoCs together cover every neighbour of 0403, and an
# attacker in 0303 (see tests/test_rules_retreat.py).
COVER = {"c1": "0302", "c2": "0603", "c3": "0305", "x": "0303"}


def test_11_7_soft_zoc_is_the_second_choice(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("c1"), allied("c2"), allied("c3"), allied("x", sp=30), two_step("i")])
    g = combat_game(s, COVER | {"i": "0403"}, 1)
    g.apply(Attack(H("0403"), ("x",)))
    retreats = {a.to.label for a in g.legal_actions() if isinstance(a, Retreat)}
    assert retreats == {"0503", "0504", "0402", "0404", "0304"}


def test_11_7_a_hard_zoc_only_where_a_friend_stands(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("c1", stack=3), allied("c2", stack=3), allied("c3", stack=3),
                        allied("x", sp=30, stack=3), two_step("i"), italian("friend")])
    g = combat_game(s, COVER | {"i": "0403", "friend": "0404"}, 1)
    g.apply(Attack(H("0403"), ("x",)))
    assert [a for a in g.legal_actions() if isinstance(a, Retreat)] == [Retreat(("i",), H("0404"))]


def test_11_7_a_stack_that_cannot_retreat_loses_a_step_instead(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("c1", stack=3), allied("c2", stack=3), allied("c3", stack=3),
                        allied("x", sp=30, stack=3), counter("i", "italian", letter="Z", faces=((4, 4), (3, 4), ))])
    g = combat_game(s, COVER | {"i": "0403"}, 1)  # 7-1, die 1: 1/1r
    events = g.apply(Attack(H("0403"), ("x",)))
    assert any("one choice: stay and lose a step" in e for e in events)
    assert g.position.units["i"].status is Status.ELIMINATED  # 1 step for the result, 1 for staying


def test_11_7_stay_and_lose_is_one_extra_step_for_the_stack(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("a", sp=12), two_step("i"), two_step("j")])
    g = combat_game(s, {"a": "0303", "i": "0403", "j": "0403"}, 2)  # 3-1, die 2: 1/0r
    g.apply(Attack(H("0403"), ("a",)))
    g.apply(StayAndLose())
    assert g.pending is not None and g.pending.kind == "combat_loss" and g.pending.count == 1
    g.apply(RemoveStep("i"))
    assert (steps_lost(g, "i"), steps_lost(g, "j")) == (1, 0)
    assert g.position.units["i"].hex == H("0403") and g.position.units["a"].steps_lost == 1


def _crowded_retreat_game(tmp_path: Path) -> Game:
    """0504 holds an Italian stack of 5 (limit 6); a 0/1r on 0403 sends a stack of 2 there."""
    s = make(tmp_path, [allied("a", sp=30), allied("b"), two_step("i", stack=2), italian("f1", stack=3),
                        italian("f2", stack=2)])
    return combat_game(s, {"a": "0303", "b": "0405", "i": "0403", "f1": "0504", "f2": "0504"}, 1)


def test_11_7_over_stacking_after_a_retreat_is_removed_at_once(tmp_path: Path) -> None:
    g = _crowded_retreat_game(tmp_path)
    g.apply(Attack(H("0403"), ("a",)))  # 13-1, die 1: 0/1r
    g.apply(Retreat(("i",), H("0504")))
    d = g.pending
    assert d is not None and d.rules == ("3.1",) and d.side is Side.ITALIAN  # before anything else happens
    while g.pending is not None and g.pending.rules == ("3.1",):
        g.apply(RemoveStep("i"))
    assert overstacked(g.position) == [] and g.position.units["i"].status is Status.ELIMINATED
    assert g.pending is not None and g.pending.kind == "combat_advance"


def test_the_log_records_each_step_loss_as_data_with_the_rule_that_took_it(tmp_path: Path) -> None:
    g = _crowded_retreat_game(tmp_path)
    g.apply(Attack(H("0403"), ("a",)))  # 13-1, die 1: 0/1r
    assert g.log[-1].losses == []  # the defender chooses to retreat or stay before losing
    g.apply(Retreat(("i",), H("0504")))
    assert [(x.unit, x.side, x.steps, x.rules) for x in g.log[-1].losses] == [("i", Side.ITALIAN, 1, ("11.5",))]
    g.apply(RemoveStep("i"))  # now over the limit in 0504
    assert [(x.unit, x.steps, x.rules) for x in g.log[-1].losses] == [("i", 1, ("3.1",))]
    g.undo()
    assert len(g.log) == 2 and len(g.log[-1].losses) == 1


def test_11_7_units_that_retreated_into_a_hex_defend_there_when_it_is_attacked(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("a", sp=30), allied("b", sp=12), allied("c"), two_step("i", sp=2),
                        italian("j", sp=2)])
    g = combat_game(s, {"a": "0303", "b": "0603", "c": "0405", "i": "0403", "j": "0504"}, 1, 1)
    g.apply(Attack(H("0403"), ("a",)))  # 13-1, die 1: 0/1r
    g.apply(Retreat(("i",), H("0504")))
    assert g.pending is not None and g.pending.kind == "combat_advance"
    g.apply(NoAdvance())
    odds = compute_odds(g.position, ["b"], H("0504"))
    assert set(odds.defenders) == {"i", "j"} and odds.defence_sp == 3
    events = g.apply(Attack(H("0504"), ("b",)))
    assert "B attack 0504: 12 vs 3 = 4 -> 4-1 (played on 3-1, 11.5)" in events


def test_11_7_the_defender_retreats_even_if_the_attacker_is_eliminated(tmp_path: Path) -> None:
    s = make(tmp_path, [counter("a", "allied", letter="A", faces=((6, 4),)), two_step("i", sp=3)])
    g = combat_game(s, {"a": "0303", "i": "0403"}, 4)  # 2-1, die 4: 1/1r
    g.apply(Attack(H("0403"), ("a",)))
    g.apply(next(a for a in g.legal_actions() if isinstance(a, Retreat)))
    assert g.position.units["a"].status is Status.ELIMINATED
    assert g.position.units["i"].hex != H("0403")


def test_8_5_the_massaua_garrison_never_retreats_it_loses_a_step(tmp_path: Path) -> None:
    marina = counter("marina", "italian", letter="Z", faces=((2, 0), (1, 0)), type="naval", immobile=True)
    s = make(tmp_path, [allied("a", sp=12), marina])
    g = combat_game(s, {"a": "0303", "marina": "0403"}, 2)  # 3-1 (12 vs 2 = 6-1 -> 5-1), die 2: 1/1r
    events = g.apply(Attack(H("0403"), ("a",)))
    assert any("one choice: stay and lose a step" in e for e in events)
    assert g.position.units["marina"].status is Status.ELIMINATED


# -- 11.8: push ------------------------------------------------------------------------------------
def _push_board(tmp_path: Path) -> tuple[Scenario, dict[str, str | tuple[str, int]]]:
    s = make(tmp_path, [allied("a", sp=12), allied("b", sp=12), two_step("i", sp=2), two_step("j", sp=2)])
    return s, {"a": "0303", "b": "0304", "i": "0403", "j": "0403"}


def test_11_8_push_after_a_5_or_6_when_the_defender_stays(tmp_path: Path) -> None:
    s, places = _push_board(tmp_path)
    g = combat_game(s, places, 5)  # 24 vs 4 = 6-1 -> 5-1, die 5: 0/2r
    g.apply(Attack(H("0403"), ("a", "b")))
    g.apply(StayAndLose())
    g.apply(RemoveStep("i"))
    g.apply(RemoveStep("j"))
    g.apply(RemoveStep("i"))  # the stay step: i is gone, j has one step left
    assert g.pending is not None and g.pending.kind == "combat_push" and g.pending.side is Side.ALLIED
    assert set(g.legal_actions()) == {Push(True), Push(False)}
    g.apply(Push(True))
    assert set(g.legal_actions()) == {RemoveStep("a"), RemoveStep("b")}  # the attacker pays a step
    g.apply(RemoveStep("a"))
    d = g.pending
    assert d is not None and d.kind == "combat_retreat" and "11.8" in d.rules  # a new retreat result
    g.apply(next(a for a in g.legal_actions() if isinstance(a, Retreat)))
    assert g.position.units["j"].hex != H("0403")
    assert g.pending is not None and g.pending.kind == "combat_advance"


def test_11_8_the_attacker_may_push_again_while_the_defender_keeps_staying(tmp_path: Path) -> None:
    s, places = _push_board(tmp_path)
    g = combat_game(s, places, 6)  # 5-1, die 6: 0/2r
    g.apply(Attack(H("0403"), ("a", "b")))
    g.apply(StayAndLose())
    g.apply(RemoveStep("i"))
    g.apply(RemoveStep("j"))  # i and j flipped; the stay step next
    g.apply(RemoveStep("i"))  # i eliminated
    g.apply(Push(True))
    g.apply(RemoveStep("a"))
    g.apply(StayAndLose())  # j loses its last step (taken automatically): the hex is vacated
    assert g.position.units["j"].status is Status.ELIMINATED
    assert g.pending is not None and g.pending.kind == "combat_advance"


def test_11_8_no_push_on_a_die_below_5_or_when_the_defender_retreats(tmp_path: Path) -> None:
    s, places = _push_board(tmp_path)
    g = combat_game(s, places, 3)  # 5-1, die 3: 0/1r
    g.apply(Attack(H("0403"), ("a", "b")))
    g.apply(StayAndLose())
    g.apply(RemoveStep("i"))
    g.apply(RemoveStep("i"))
    assert g.pending is None and refusal_rules(g, Push(True)) == ("11.8",)
    g = combat_game(s, places, 5)
    g.apply(Attack(H("0403"), ("a", "b")))
    g.apply(next(a for a in g.legal_actions() if isinstance(a, Retreat)))
    g.apply(RemoveStep("i"))
    g.apply(RemoveStep("j"))
    assert g.pending is not None and g.pending.kind == "combat_advance"


def test_11_8_a_push_is_allowed_when_the_defender_could_not_retreat(tmp_path: Path) -> None:
    marina = counter("marina", "italian", letter="Z", faces=((2, 0), (1, 0)), type="naval", immobile=True)
    s = make(tmp_path, [allied("a", sp=12), allied("b", sp=12), marina, two_step("j", sp=2, stack=1)])
    g = combat_game(s, {"a": "0303", "b": "0304", "marina": "0403", "j": "0403"}, 5)  # 24 vs 4: 5-1, die 5: 0/2r
    g.apply(Attack(H("0403"), ("a", "b")))  # StayAndLose is the only answer: taken automatically
    assert set(g.legal_actions()) == {RemoveStep("marina"), RemoveStep("j")}
    g.apply(RemoveStep("j"))
    g.apply(RemoveStep("j"))  # then the stay step falls on the Marina, the only unit left
    assert g.position.units["marina"].steps_lost == 1
    assert g.pending is not None and g.pending.kind == "combat_push"


# -- 11.9: advance after combat ---------------------------------------------------------------------
def test_11_9_advance_is_optional_and_only_into_a_vacated_hex(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("a", sp=30), italian("i", sp=2), italian("j", sp=9)])
    g = combat_game(s, {"a": "0303", "i": "0403", "j": "0402"}, 6)  # 13-1, die 6: 0/4r: i eliminated
    g.apply(Attack(H("0403"), ("a",)))
    assert set(g.legal_actions()) == {Advance("a"), NoAdvance()}
    g.apply(NoAdvance())
    assert g.position.units["a"].hex == H("0303") and g.pending is None
    assert refusal_rules(g, Advance("a")) == ("11.9",)


def test_11_9_no_advance_when_the_defender_holds(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("a", sp=2), two_step("i", sp=6)])
    g = combat_game(s, {"a": "0303", "i": "0403"}, 6)  # 1-3, die 6: 1/0r
    g.apply(Attack(H("0403"), ("a",)))
    g.apply(StayAndLose())  # i loses a step and holds
    g.apply(Push(False))  # (a 6 allows a push)
    assert g.position.units["i"].hex == H("0403") and g.position.units["a"].steps_lost == 1
    assert g.pending is None and not any(isinstance(x, Advance) for x in g.legal_actions())


def test_11_9_units_that_lost_steps_advance_first_and_artillery_never(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("a", sp=4), allied("b", sp=4), allied("guns", sp=4, type="field_gun"),
                        two_step("i", sp=2)])
    g = combat_game(s, {"a": "0303", "b": "0304", "guns": "0402", "i": "0403"}, 1)  # 12 vs 2: 5-1, die 1: 1/0r
    g.apply(Attack(H("0403"), ("a", "b", "guns")))
    g.apply(next(a for a in g.legal_actions() if isinstance(a, Retreat)))
    assert set(g.legal_actions()) == {RemoveStep("a"), RemoveStep("b")}  # not the guns (11.6)
    g.apply(RemoveStep("b"))
    assert set(g.legal_actions()) == {Advance("b"), NoAdvance()}  # b lost a step: it goes first
    assert refusal_rules(g, Advance("a")) == ("11.9",)
    g.apply(Advance("b"))
    assert set(g.legal_actions()) == {Advance("a"), NoAdvance()}  # never the guns
    g.apply(Advance("a"))
    assert g.pending is None
    assert {g.position.units[u].hex for u in ("a", "b")} == {H("0403")}
    assert g.position.units["guns"].hex == H("0402")


def test_11_9_advancing_ignores_enemy_zoc(tmp_path: Path) -> None:
    # 0403 lies in the hard ZoC of the stack in 0503; the advance costs nothing and may end there.
    s = make(tmp_path, [allied("a", sp=30), italian("i", sp=1), italian("h1", stack=3)])
    g = combat_game(s, {"a": "0303", "i": "0403", "h1": "0503"}, 6)
    g.apply(Attack(H("0403"), ("a",)))
    g.apply(Advance("a"))
    assert g.position.units["a"].hex == H("0403")


def test_2_1_advancing_into_a_town_takes_control_of_it(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("a", sp=30), italian("i", sp=1)])  # Zulu is the town in 0801
    g = combat_game(s, {"a": "0701", "i": "0801"}, 6)
    g.apply(Attack(H("0801"), ("a",)))
    assert "Zulu" not in g.position.allied_control
    events = g.apply(Advance("a"))
    assert "Zulu" in g.position.allied_control and any("take control of it" in e for e in events)


def test_8_5_the_massaua_garrison_never_advances(tmp_path: Path) -> None:
    marina = counter("marina", "italian", letter="Z", faces=((2, 0), (1, 0)), type="naval", immobile=True)
    s = make(tmp_path, [italian("i", sp=20), marina, counter("a", "allied", letter="A", faces=((1, 4),))])
    g = combat_game(s, {"i": "0303", "marina": "0304", "a": "0403"}, 6, side=Side.ITALIAN)  # 22-1: 13-1, 0/4r
    g.apply(Attack(H("0403"), ("i", "marina")))
    assert set(g.legal_actions()) == {Advance("i"), NoAdvance()}


def test_9_1_tanks_never_advance_into_a_mountain_hex(tmp_path: Path) -> None:
    terrain = ["........", "........", "...M....", "........", "........"]
    s = make(tmp_path, [allied("alp", sp=30, mp=6, type="mountain_infantry"), italian("i", sp=1)], terrain)
    g = combat_game(s, {"alp": "0303", "i": "0403"}, 6)
    g.apply(Attack(H("0403"), ("alp",)))
    assert Advance("alp") in g.legal_actions()


# -- 5.1: chits played on an attack --------------------------------------------------------------------
REGIA = {"key": "regia", "name": "Regia Aeronautica", "side": "italian", "count": 1, "one_time": True,
         "windows": [{"phase": "combat", "player": "phasing"}], "effect": "support_points", "params": {"sp": 1},
         "text": "One support point in one combat.", "provenance": "reconstructed: test"}


def test_5_1_combat_chits_shift_the_odds_of_the_attack_they_are_played_on(tmp_path: Path) -> None:
    from cheren.engine.actions import PlayChit
    from tests.scenario_factory import DEFAULT_CHITS

    s = make(tmp_path, [allied("a", sp=8), italian("i", sp=4), italian("j", sp=4)], chits=[*DEFAULT_CHITS, REGIA])
    g = combat_game(s, {"a": "0303", "i": "0403", "j": "0304"}, 1)
    g.position.chits.hands[Side.ALLIED] = ["air_strike.1", "barrage.1"]
    g.position.chits.cup = ["infiltrate.1", "infiltrate.2"]
    g.apply(Commit("a", H("0403")))
    assert PlayChit("air_strike.1", "", "0403") in g.legal_actions()
    g.apply(PlayChit("air_strike.1", "", "0403"))
    g.apply(PlayChit("barrage.1", "", "0403"))
    events = g.apply(Resolve(H("0403")))
    # 8 vs 4 = 2-1; Air strike one column right; Barrage wins the (0 vs 0) support comparison: 5-1
    assert any("Air strike chit: 1 column right (5.1)" in e and "-> 5-1" in e for e in events), events

    italians = combat_game(s, {"a": "0303", "i": "0403"}, 1, side=Side.ITALIAN)
    italians.position.chits.hands[Side.ITALIAN] = ["regia.1"]
    italians.position.chits.cup = ["roadblock.1"]
    italians.apply(Commit("i", H("0303")))
    italians.apply(PlayChit("regia.1", "", "0303"))
    events = italians.apply(Resolve(H("0303")))
    # 4 vs 8 = 1-2; the Regia Aeronautica point wins the support comparison 1 vs 0, strength unchanged
    assert any("4 vs 8" in e and "the Italians win the support comparison 1 vs 0" in e for e in events), events


# -- the gate: refusals, history, JSON ----------------------------------------------------------------
def test_answers_without_a_pending_combat_are_refused_with_their_rule(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("a"), italian("i")])
    g = combat_game(s, {"a": "0303", "i": "0403"})
    assert refusal_rules(g, StayAndLose()) == ("11.7",)
    assert refusal_rules(g, Push(True)) == ("11.8",)
    assert refusal_rules(g, Advance("a")) == ("11.9",)
    assert refusal_rules(g, NoAdvance()) == ("11.9",)
    assert refusal_rules(g, Resolve(H("0403"))) == ("11.0",)
    with pytest.raises(IllegalAction):
        g.apply(Resolve(H("0403")))


def test_combat_actions_round_trip_through_json() -> None:
    actions: list[Action] = [Commit("a", H("0403")), Uncommit("a", H("0403")), AddAir(H("0403")),
                             Resolve(H("0403")), Attack(H("0403"), ("a", "b"), True), StayAndLose(), Push(False),
                             Advance("a"), NoAdvance()]
    for a in actions:
        assert action_from_json(a.to_json()) == a


def test_the_one_shot_attack_equals_the_staged_declaration(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("a", sp=8), allied("b", sp=9), italian("i", sp=5)])
    places: dict[str, str | tuple[str, int]] = {"a": "0303", "b": "0304", "i": "0403"}
    one = combat_game(s, places, 4)
    one.apply(Attack(H("0403"), ("a", "b")))
    staged = combat_game(s, places, 4)
    for action in (Commit("a", H("0403")), Commit("b", H("0403")), Resolve(H("0403"))):
        staged.apply(action)
    assert one.position.units == staged.position.units and one.pending == staged.pending


def test_a_combat_undoes_and_replays_exactly(tmp_path: Path) -> None:
    s, places = _push_board(tmp_path)
    g = combat_game(s, places, 5)
    start = g.position.copy()
    for action in (Attack(H("0403"), ("a", "b")), StayAndLose(), RemoveStep("i"), RemoveStep("j"),
                   RemoveStep("i"), Push(True), RemoveStep("b")):
        g.apply(action)
    again = Game.replay(s, 1, g.actions(), position=g.start)
    assert again.position.units == g.position.units and again.pending == g.pending
    while g.can_undo():
        g.undo()
    assert g.position.units == start.units and combat_state(g).attacked == set()


# -- random play through the gate includes combat ----------------------------------------------------
@pytest.fixture(scope="module")
def melee(tmp_path_factory: pytest.TempPathFactory) -> Scenario:
    counters = [allied(f"a{i}", sp=3 + i, stack=1 + i % 2, mp=6 if i % 2 else 5) for i in range(5)]
    counters += [*brigade(), allied("guns", sp=3, type="field_gun"), allied("tank", sp=2, mp=8, type="tank"), air()]
    counters += [two_step(f"i{i}", sp=2 + i % 3, stack=1 + i % 2) for i in range(6)]
    counters += [italian("it_guns", sp=2, type="field_gun"),
                 counter("marina", "italian", letter="Z", faces=((2, 0), (1, 0)), type="naval", immobile=True)]
    towns = [town("Alpha", "0101", vp=15, letter="A"), town("Zulu", "0805", vp=15, letter="Z")]
    terrain = ["..r.h...", ".hM.r..h", "..r..M..", "h...r...", "..M..h.."]
    return board(tmp_path_factory.mktemp("melee"), terrain, counters, towns=towns, unit_types=UNIT_TYPES,
                 air_support_from_turn=1, rivers=[["0303/0403", "0304/0403"]])


def melee_game(s: Scenario, seed: int) -> Game:
    allied_hexes = ["0302", "0303", "0304", "0202", "0203"]
    places: dict[str, str | tuple[str, int]] = {f"a{i}": allied_hexes[i] for i in range(5)}
    places |= {"ind": "0303", "guns": "0304", "tank": "0302"}
    italian_hexes = ["0403", "0402", "0404", "0502", "0503", "0504"]
    places |= {f"i{i}": italian_hexes[i] for i in range(6)} | {"it_guns": "0403", "marina": "0504"}
    p = position(s, places, phase=Phase.COMBAT, seed=seed)
    p.units["air"].status = Status.OFF_MAP
    return Game(s, seed, p)


def total_steps(g: Game) -> int:
    return sum(g.position.steps_left(u) for u, unit in g.position.units.items() if unit.status is not Status.ELIMINATED)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(min_value=0, max_value=100_000))
def test_random_play_with_combat_keeps_invariants_and_replays(melee: Scenario, seed: int) -> None:
    g = melee_game(melee, seed)
    rng = random.Random(seed)
    for _ in range(150):
        if g.over:
            break
        actions = g.legal_actions()
        assert actions, "someone must always be able to act"
        weights = [1 if isinstance(a, EndPhase) else 6 if isinstance(a, Resolve) else 3 for a in actions]
        action = rng.choices(actions, weights)[0]
        before = total_steps(g)
        phase = g.phase
        assert g.check(action).ok
        g.apply(action)
        assert total_steps(g) <= before
        if g.phase is not phase and g.phase is not Phase.REINFORCEMENT:
            assert overstacked(g.position) == []
        for u in g.position.units.values():
            assert (u.hex is not None) == (u.status is Status.MAP)
        for h, units in g.position.stacks().items():
            assert len({g.position.units[u].side for u in units}) == 1, f"both sides in {h.label}"
    assert g.log, "nothing happened"
    again = Game.replay(melee, seed, g.actions(), position=g.start)
    assert again.position.units == g.position.units and again.position.dice == g.position.dice
    assert (again.moment, again.pending) == (g.moment, g.pending)


def test_random_play_does_resolve_combats(melee: Scenario) -> None:
    resolved = 0
    for seed in range(5):
        g = melee_game(melee, seed)
        rng = random.Random(seed)
        while g.phase is Phase.COMBAT and not g.over:
            actions = g.legal_actions()
            weights = [1 if isinstance(a, EndPhase) else 6 if isinstance(a, Resolve) else 3 for a in actions]
            events = g.apply(rng.choices(actions, weights)[0])
            resolved += sum("on the" in e and "column" in e for e in events)
    assert resolved >= 5


def test_5_1_the_defender_may_play_ambush_before_the_die_is_rolled(tmp_path: Path) -> None:
    from cheren.engine.actions import PassChit, PlayChit
    from tests.scenario_factory import DEFAULT_CHITS

    s = make(tmp_path, [allied("a", sp=8), italian("i", sp=4)], chits=list(DEFAULT_CHITS))
    for answer in ("ambush", "pass"):
        g = combat_game(s, {"a": "0303", "i": "0403"}, 1)
        g.position.chits.hands[Side.ITALIAN] = ["ambush.1"]
        g.position.chits.cup = ["infiltrate.1"]
        g.apply(Commit("a", H("0403")))
        assert g.check(PlayChit("ambush.1", "", "0403")).refusal is not None  # not the defender's turn yet
        g.apply(Resolve(H("0403")))
        d = g.pending
        assert d is not None and d.kind == "chit_window" and d.side is Side.ITALIAN and d.hex == H("0403")
        assert not any("die " in e for e in g.log[-1].events)  # nothing rolled yet
        events = g.apply(PlayChit("ambush.1", "", "0403") if answer == "ambush" else PassChit())
        rolled = [e for e in events if "attack 0403" in e]
        assert rolled, events
        if answer == "ambush":  # 8 vs 4 = 2-1, Ambush one column left: 1-1
            assert "-> 1-1" in rolled[0] and "Ambush" in rolled[0], rolled
        else:
            assert "2-1" in rolled[0] and "Ambush" not in rolled[0], rolled
