"""The opening position (rule 5.0), hand-built positions, and saving/loading positions as JSON."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cheren.engine.opening import initial_position
from cheren.engine.position import Position, Status, Supply
from cheren.files.position_saves import SaveError, dumps, loads, read_position_save, save_position
from cheren.hexes import Hex, parse_label
from cheren.scenario import Phase, Scenario, Side, load_scenario
from tests.scenario_factory import CRT, DEFAULT_CHITS, Files, counter, mini_scenario, town, write_scenario

# -- the mini scenario -----------------------------------------------------------------------
#   col:  01 02 03 04 05
#   row 1  .  .  .  .  .      Alpha 0101 (A), Kassala 0501 (K)
#   row 2  .  h  M  .  .      garrison area "keren" = 0402, 0502; native village Adi 0402
#   row 3  .  .  r  .  ~      native village Ela 0203
#   row 4  C  .  .  .  ~      Bravo 0104 (B)
MINI_OPTIONS: dict[str, Any] = {
    "towns": [
        town("Alpha", "0101", vp=12, letter="A"),
        town("Bravo", "0104", vp=14, letter="B", kind="city"),
        town("Kassala", "0501", vp=2, letter="K"),
    ],
    "areas": [".....", "...kk", ".....", ".aa.."],
    "garrison_areas": [
        {"key": "keren", "name": "Keren garrison", "char": "k"},
        {"key": "asmara", "name": "Asmara garrison", "char": "a"},
    ],
    "native_villages": [{"name": "Adi", "hex": "0402"}, {"name": "Ela", "hex": "0203"}],
    "counters": [
        counter("ind_5", "allied", letter="A", faces=((8, 5), (6, 5)), size="brigade", replacement="ind_5_rep"),
        counter("ind_5_rep", "allied", faces=((4, 5), (2, 5)), size="brigade", is_replacement=True),
        counter("ind_10", "allied", letter="K", turn=3, faces=((8, 5), (6, 5)), size="brigade"),
        counter("it_1", "italian", letter="B", faces=((2, 4),)),
        counter("it_gar", "italian", letter="B", faces=((3, 3),), garrison="keren"),
        counter("it_late", "italian", letter="B", turn=5, faces=((3, 4), (1, 4))),
        counter(
            "nat_1",
            "italian",
            faces=((2, 3),),
            native={"garrison": "keren", "village": "Adi", "defected": {"sp": 1, "mp": 4}},
        ),
        counter("nat_2", "italian", faces=((1, 3),), native={"village": "Ela", "defected": {"sp": 1, "mp": 3}}),
    ],
    "allied_control_at_start": ["Kassala"],
}
# What rule 5.0 should make of it, worked out by hand.
MINI_SETUP_HEXES = {"ind_5": "0101", "it_1": "0104", "it_gar": "0104", "nat_1": "0402", "nat_2": "0203"}
MINI_POOL = {"ind_10", "it_late"}
# Every chit instance of the factory's chart, by side.
CHITS_BY_SIDE = {
    side: sorted(f"{c['key']}.{n}" for c in DEFAULT_CHITS if c["side"] == side.value for n in range(1, c["count"] + 1))
    for side in Side
}


@pytest.fixture(scope="module")
def mini(tmp_path_factory: pytest.TempPathFactory) -> Scenario:
    return mini_scenario(tmp_path_factory.mktemp("mini"), **MINI_OPTIONS)


@pytest.fixture(scope="module")
def bundled() -> Scenario:
    return load_scenario()


@pytest.fixture(params=["mini", "bundled"])
def scenario(request: pytest.FixtureRequest) -> Scenario:
    result = request.getfixturevalue(request.param)
    assert isinstance(result, Scenario)
    return result


def setup_hex_by_letter(s: Scenario) -> dict[str, Hex]:
    """Town hexes by setup letter, read from the map data (not from the compiled lookups)."""
    return {t.letter: parse_label(t.hex) for t in s.map.towns if t.letter}


def village_hexes(s: Scenario) -> dict[str, Hex]:
    return {v.name: parse_label(v.hex) for v in s.map.native_villages}


# == rule 5.0 on any scenario ==================================================================
def test_5_0_units_with_a_setup_letter_start_at_their_town(scenario: Scenario) -> None:
    pos = initial_position(scenario)
    letters = setup_hex_by_letter(scenario)
    starters = [c for c in scenario.counter_sheet.counters if c.arrival is not None and c.arrival.turn is None]
    assert starters
    for c in starters:
        assert c.arrival is not None
        unit = pos.units[c.id]
        assert unit.status is Status.MAP, c.id
        assert unit.hex == letters[c.arrival.letter], c.id
        assert unit.side is c.side


def test_5_0_reinforcements_start_in_the_pool(scenario: Scenario) -> None:
    pos = initial_position(scenario)
    arriving = [c for c in scenario.counter_sheet.counters if c.arrival is not None and c.arrival.turn is not None]
    assert arriving
    for c in arriving:
        assert pos.units[c.id].status is Status.POOL, c.id
        assert pos.units[c.id].hex is None


def test_5_0_native_units_start_at_their_village_on_the_italian_side(scenario: Scenario) -> None:
    pos = initial_position(scenario)
    villages = village_hexes(scenario)
    natives = [c for c in scenario.counter_sheet.counters if c.native is not None]
    assert natives
    for c in natives:
        assert c.native is not None
        unit = pos.units[c.id]
        assert unit.status is Status.MAP
        assert unit.hex == villages[c.native.village], c.id
        assert unit.side is Side.ITALIAN
        assert not unit.defected


def test_5_0_brigade_replacement_counters_are_not_units(scenario: Scenario) -> None:
    pos = initial_position(scenario)
    replacements = {c.id for c in scenario.counter_sheet.counters if c.is_replacement}
    others = {c.id for c in scenario.counter_sheet.counters if not c.is_replacement}
    assert replacements.isdisjoint(pos.units)
    assert set(pos.units) == others
    # each replacement counter extends its brigade's step ladder instead (11.6)
    for c in scenario.counter_sheet.counters:
        if c.replacement is not None:
            ladder = [step.counter for step in scenario.units[c.id].ladder]
            assert ladder == [c.id] * len(c.faces) + [c.replacement] * len(scenario.counters[c.replacement].faces)


def test_5_0_kassala_starts_under_allied_control(scenario: Scenario) -> None:
    pos = initial_position(scenario)
    assert pos.allied_control == {"Kassala"}
    assert pos.controller("Kassala") is Side.ALLIED
    assert all(pos.controller(name) is Side.ITALIAN for name in scenario.towns if name != "Kassala")


def test_5_0_units_start_at_full_strength_without_markers(scenario: Scenario) -> None:
    pos = initial_position(scenario)
    for unit in pos.units.values():
        assert (unit.steps_lost, unit.supply, unit.defected) == (0, None, False), unit.id
    assert (pos.turn, pos.released) == (1, set())


def test_5_0_each_side_draws_four_chits_of_its_own(scenario: Scenario) -> None:
    for seed in range(5):
        pos = initial_position(scenario, seed=seed)
        for side in Side:
            hand = pos.chits.hands[side]
            assert len(hand) == 4
            assert len(set(hand)) == 4
            assert all(scenario.chits[i.rsplit(".", 1)[0]].side is side for i in hand), hand


def test_5_0_undrawn_chits_go_to_the_cup_and_none_are_lost(scenario: Scenario) -> None:
    every = sorted(f"{c.key}.{n}" for c in scenario.chit_chart.chits for n in range(1, c.count + 1))
    for seed in range(5):
        pos = initial_position(scenario, seed=seed)
        held = [*pos.chits.hands[Side.ALLIED], *pos.chits.hands[Side.ITALIAN], *pos.chits.cup]
        assert sorted(held) == every
        assert pos.chits.played == [] and pos.chits.removed == []


def test_5_0_same_seed_same_hands(scenario: Scenario) -> None:
    a, b = initial_position(scenario, seed=1941), initial_position(scenario, seed=1941)
    assert a.chits == b.chits
    assert a.dice == b.dice
    assert dumps(a) == dumps(b)


def test_5_0_different_seeds_give_different_hands(scenario: Scenario) -> None:
    hands = {
        tuple(tuple(sorted(initial_position(scenario, seed=seed).chits.hands[side])) for side in Side)
        for seed in range(10)
    }
    assert len(hands) > 1


# == rule 5.0 on the mini scenario, worked out by hand =========================================
def test_5_0_mini_setup_by_hand(mini: Scenario) -> None:
    pos = initial_position(mini, seed=3)
    on_map = {uid: u.hex.label for uid, u in pos.units.items() if u.status is Status.MAP and u.hex}
    assert on_map == MINI_SETUP_HEXES
    assert {uid for uid, u in pos.units.items() if u.status is Status.POOL} == MINI_POOL
    assert pos.allied_control == {"Kassala"}
    assert pos.allied_vp() == 2


def test_5_0_mini_chits_hands_from_own_side_only(mini: Scenario) -> None:
    for seed in range(20):
        pos = initial_position(mini, seed=seed)
        for side in Side:
            assert set(pos.chits.hands[side]) <= set(CHITS_BY_SIDE[side])
        cup = set(pos.chits.cup)
        # six chits a side in the chart, four drawn: two of each side left in the cup
        assert len(cup & set(CHITS_BY_SIDE[Side.ALLIED])) == 2
        assert len(cup & set(CHITS_BY_SIDE[Side.ITALIAN])) == 2


def test_5_0_mini_every_chit_can_be_drawn(mini: Scenario) -> None:
    drawn = {chit for seed in range(60) for side in Side for chit in initial_position(mini, seed).chits.hands[side]}
    assert drawn == set(CHITS_BY_SIDE[Side.ALLIED]) | set(CHITS_BY_SIDE[Side.ITALIAN])


# == hand-built positions ======================================================================
def test_empty_position_has_every_unit_in_the_pool(mini: Scenario) -> None:
    pos = Position.empty(mini, seed=9)
    assert set(pos.units) == set(MINI_SETUP_HEXES) | MINI_POOL
    assert all(u.status is Status.POOL and u.hex is None for u in pos.units.values())
    assert pos.allied_control == set()
    assert pos.stacks() == {}
    assert pos.dice.seed == 9


def test_place_puts_a_unit_on_a_hex(mini: Scenario) -> None:
    pos = Position.empty(mini)
    pos.place("ind_5", "0303", steps_lost=1, supply=Supply.LOW)
    pos.place("it_1", Hex.from_label("0303"))
    unit = pos.units["ind_5"]
    assert (unit.status, unit.hex, unit.steps_lost, unit.supply) == (
        Status.MAP,
        Hex.from_label("0303"),
        1,
        Supply.LOW,
    )
    assert sorted(pos.units_at(Hex.from_label("0303"))) == ["ind_5", "it_1"]
    assert pos.stacks() == {Hex.from_label("0303"): ["ind_5", "it_1"]}


@pytest.mark.parametrize("where", ["0504", "0909", "0601"])
def test_place_refuses_a_hex_off_the_map(mini: Scenario, where: str) -> None:
    pos = Position.empty(mini)
    with pytest.raises(ValueError, match=f"ind_5 on {where}: not a playable hex"):
        pos.place("ind_5", where)
    assert pos.units["ind_5"].status is Status.POOL


def test_place_refuses_a_hex_with_no_label(mini: Scenario) -> None:
    pos = Position.empty(mini)
    with pytest.raises(ValueError, match="not a playable hex"):
        pos.place("ind_5", Hex(-3, 0))


@pytest.mark.parametrize(("unit", "steps_lost"), [("ind_5", 4), ("ind_5", -1), ("it_1", 1), ("nat_1", 1)])
def test_place_refuses_a_step_the_unit_does_not_have(mini: Scenario, unit: str, steps_lost: int) -> None:
    pos = Position.empty(mini)
    with pytest.raises(ValueError, match="steps_lost must be"):
        pos.place(unit, "0303", steps_lost=steps_lost)
    assert pos.units[unit].status is Status.POOL


def test_editing_an_unknown_unit_names_it(mini: Scenario) -> None:
    pos = Position.empty(mini)
    edits: list[Callable[[], object]] = [
        lambda: pos.place("ghost", "0303"),
        lambda: pos.set_supply("ghost", Supply.NO),
        lambda: pos.set_defected("ghost"),
        lambda: pos.remove("ghost"),
    ]
    for edit in edits:
        with pytest.raises(KeyError, match="ghost"):
            edit()


def test_11_6_brigade_steps_run_through_its_replacement_counter(mini: Scenario) -> None:
    pos = Position.empty(mini)
    assert mini.units["ind_5"].steps == 4
    shown = []
    for lost in range(4):
        pos.place("ind_5", "0303", steps_lost=lost)
        step = pos.step("ind_5")
        shown.append((step.counter, step.face, pos.strength("ind_5"), pos.movement("ind_5"), pos.steps_left("ind_5")))
    assert shown == [
        ("ind_5", 0, 8, 5, 4),
        ("ind_5", 1, 6, 5, 3),
        ("ind_5_rep", 0, 4, 5, 2),
        ("ind_5_rep", 1, 2, 5, 1),
    ]


def test_set_supply_markers(mini: Scenario) -> None:
    pos = Position.empty(mini)
    pos.place("it_1", "0303")
    seen: list[Supply | None] = []
    for marker in ("low", Supply.NO, None):
        pos.set_supply("it_1", marker)
        seen.append(pos.units["it_1"].supply)
    assert seen == [Supply.LOW, Supply.NO, None]
    with pytest.raises(ValueError):
        pos.set_supply("it_1", "none at all")
    assert pos.units["it_1"].supply is None


def test_set_control_and_victory_points(mini: Scenario) -> None:
    pos = Position.empty(mini)
    pos.set_control("Alpha", Side.ALLIED)
    pos.set_control("Bravo", "allied")
    assert pos.allied_vp() == 12 + 14
    assert pos.controller("Bravo") is Side.ALLIED
    pos.set_control("Bravo", "italian")
    assert pos.allied_control == {"Alpha"}
    assert pos.allied_vp() == 12
    with pytest.raises(ValueError, match="'Atlantis'"):
        pos.set_control("Atlantis", Side.ALLIED)


def test_set_turn(mini: Scenario) -> None:
    pos = Position.empty(mini)
    pos.set_turn(7, "italian", "combat")
    assert (pos.turn, pos.side, pos.phase) == (7, Side.ITALIAN, Phase.COMBAT)
    pos.set_turn(12)
    assert (pos.turn, pos.side, pos.phase) == (12, Side.ITALIAN, Phase.COMBAT)
    for bad in (0, 13):
        with pytest.raises(ValueError, match=f"turn {bad} is outside 1..12"):
            pos.set_turn(bad)
    assert pos.turn == 12


def test_6_0_defected_native_turns_allied_and_shows_its_back(mini: Scenario) -> None:
    pos = Position.empty(mini)
    pos.place("nat_1", "0402")
    assert (pos.units["nat_1"].side, pos.strength("nat_1"), pos.movement("nat_1")) == (Side.ITALIAN, 2, 3)
    pos.set_defected("nat_1")
    assert pos.units["nat_1"].defected
    assert (pos.units["nat_1"].side, pos.strength("nat_1"), pos.movement("nat_1")) == (Side.ALLIED, 1, 4)
    pos.set_defected("nat_1", False)
    assert (pos.units["nat_1"].side, pos.strength("nat_1")) == (Side.ITALIAN, 2)


def test_6_0_only_native_units_defect(mini: Scenario) -> None:
    pos = Position.empty(mini)
    with pytest.raises(ValueError, match="it_1 is not a native unit"):
        pos.set_defected("it_1")
    assert pos.units["it_1"].side is Side.ITALIAN and not pos.units["it_1"].defected


def test_remove_takes_a_unit_off_the_map(mini: Scenario) -> None:
    pos = Position.empty(mini)
    pos.place("it_1", "0303")
    pos.remove("it_1", Status.ELIMINATED)
    assert (pos.units["it_1"].status, pos.units["it_1"].hex) == (Status.ELIMINATED, None)
    with pytest.raises(ValueError, match="place"):
        pos.remove("it_1", Status.MAP)


# == saves ======================================================================================
def edited(s: Scenario) -> Position:
    """A position with something in every part of the save."""
    pos = initial_position(s, seed=5)
    pos.place("ind_5", "0303", steps_lost=2, supply=Supply.LOW)
    pos.set_supply("it_1", "no")
    pos.set_defected("nat_1")
    pos.released.add("keren")
    pos.remove("it_gar", Status.ELIMINATED)
    pos.remove("ind_10", Status.POOL)  # (only the air unit waits off the map, 11.3)
    pos.set_control("Alpha", Side.ALLIED)
    pos.set_turn(4, Side.ITALIAN, Phase.COMBAT)
    pos.chits.played.append(pos.chits.hands[Side.ALLIED].pop(0))
    pos.chits.removed.append(pos.chits.hands[Side.ITALIAN].pop())
    pos.postponed.add("ind_10")
    pos.delayed.add("it_late")
    for _ in range(3):
        pos.dice.roll()
    return pos


def save_dict(pos: Position) -> dict[str, Any]:
    data = json.loads(dumps(pos))
    assert isinstance(data, dict)
    return data


def load_error(pos: Position, change: Callable[[dict[str, Any]], object], tmp_path: Path) -> str:
    data = save_dict(pos)
    change(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    with pytest.raises(SaveError) as exc:
        read_position_save(path, pos.scenario)
    message = str(exc.value)
    assert str(path) in message
    return message


def test_save_load_save_is_byte_identical(mini: Scenario, tmp_path: Path) -> None:
    pos = edited(mini)
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    save_position(pos, first)
    save_position(read_position_save(first, mini), second)
    assert first.read_bytes() == second.read_bytes()


def test_loaded_position_equals_the_saved_one(mini: Scenario, tmp_path: Path) -> None:
    pos = edited(mini)
    save_position(pos, tmp_path / "p.json")
    back = read_position_save(tmp_path / "p.json", mini)
    assert back is not pos
    for f in dataclasses.fields(Position):
        assert getattr(back, f.name) == getattr(pos, f.name), f.name
    # spot checks, so that a save that dropped everything would not pass by comparing defaults
    assert back.units["ind_5"].hex == Hex.from_label("0303")
    assert back.units["ind_5"].supply is Supply.LOW and back.units["ind_5"].steps_lost == 2
    assert back.units["nat_1"].defected and back.units["nat_1"].side is Side.ALLIED
    assert back.units["it_gar"].status is Status.ELIMINATED
    assert back.released == {"keren"}
    assert back.allied_control == {"Alpha", "Kassala"}
    assert (back.turn, back.side, back.phase) == (4, Side.ITALIAN, Phase.COMBAT)
    assert len(back.chits.played) == 1 and len(back.chits.removed) == 1


def test_loaded_dice_continue_identically(mini: Scenario) -> None:
    pos = edited(mini)
    back = loads(dumps(pos), mini)
    assert [back.dice.roll() for _ in range(20)] == [pos.dice.roll() for _ in range(20)]


def test_save_does_not_depend_on_the_order_of_edits(mini: Scenario) -> None:
    a, b = Position.empty(mini), Position.empty(mini)
    for town_name in ("Alpha", "Bravo", "Kassala"):
        a.set_control(town_name, Side.ALLIED)
    for town_name in ("Kassala", "Bravo", "Alpha"):
        b.set_control(town_name, Side.ALLIED)
    a.released.update(["keren", "asmara"])
    b.released.update(["asmara", "keren"])
    a.place("it_1", "0303")
    b.place("it_1", "0303")
    assert dumps(a) == dumps(b)
    data = save_dict(a)
    assert data["allied_control"] == ["Alpha", "Bravo", "Kassala"]
    assert data["garrisons_released"] == ["asmara", "keren"]


def test_copy_is_equal_and_independent(mini: Scenario) -> None:
    pos = edited(mini)
    before = dumps(pos)
    twin = pos.copy()
    assert dumps(twin) == before
    twin.place("it_1", "0202")
    twin.set_control("Bravo", Side.ALLIED)
    twin.chits.cup.clear()
    twin.released.clear()
    twin.dice.roll()
    assert dumps(pos) == before


def test_truncated_save_names_file_and_line(mini: Scenario, tmp_path: Path) -> None:
    text = dumps(edited(mini))
    lines = text.splitlines(keepends=True)
    # cut after the first line that ends a top-level member (`  "turn": 4,`): the JSON then
    # stops where the next member should start, on the following line
    keep = next(i for i, line in enumerate(lines) if line.startswith('  "turn"')) + 1
    path = tmp_path / "truncated.json"
    path.write_text("".join(lines[:keep]), encoding="utf-8")
    with pytest.raises(SaveError) as exc:
        read_position_save(path, mini)
    message = str(exc.value)
    assert str(path) in message
    assert f"line {keep + 1}" in message
    assert "not valid JSON" in message


def test_wrong_version_is_refused_naming_the_version(mini: Scenario, tmp_path: Path) -> None:
    message = load_error(edited(mini), lambda d: d.update(version=99), tmp_path)
    assert "version" in message and "99" in message


def test_wrong_format_is_refused(mini: Scenario, tmp_path: Path) -> None:
    message = load_error(edited(mini), lambda d: d.update(format="chess-pgn"), tmp_path)
    assert "format" in message and "'chess-pgn'" in message


def test_save_that_is_not_an_object_is_refused(mini: Scenario) -> None:
    with pytest.raises(SaveError, match=r"my\.json: a save holds a JSON object"):
        loads("[1, 2]", mini, source="my.json")


def test_unknown_unit_id_is_named(mini: Scenario, tmp_path: Path) -> None:
    def ghost(d: dict[str, Any]) -> None:
        d["units"]["ghost"] = {"status": "pool", "side": "allied"}

    message = load_error(edited(mini), ghost, tmp_path)
    assert "units.ghost" in message


def test_missing_unit_is_named(mini: Scenario, tmp_path: Path) -> None:
    message = load_error(edited(mini), lambda d: d["units"].pop("it_late"), tmp_path)
    assert "units" in message and "it_late" in message


def test_steps_lost_too_large(mini: Scenario, tmp_path: Path) -> None:
    def too_many(d: dict[str, Any]) -> None:
        d["units"]["it_1"]["steps_lost"] = 1  # it_1 has a single step

    message = load_error(edited(mini), too_many, tmp_path)
    assert "units.it_1.steps_lost" in message


def test_unit_on_an_unplayable_hex(mini: Scenario, tmp_path: Path) -> None:
    def at_sea(d: dict[str, Any]) -> None:
        d["units"]["ind_5"]["hex"] = "0504"

    message = load_error(edited(mini), at_sea, tmp_path)
    assert "units.ind_5.hex" in message and "0504" in message


def test_unit_on_a_hex_label_that_does_not_exist(mini: Scenario) -> None:
    data = save_dict(edited(mini))
    data["units"]["ind_5"]["hex"] = "0000"
    with pytest.raises(SaveError, match=r"s\.json: units\.ind_5\.hex: hex label '0000'"):
        loads(json.dumps(data), mini, source="s.json")


def test_defected_non_native_is_refused(mini: Scenario, tmp_path: Path) -> None:
    def defect(d: dict[str, Any]) -> None:
        d["units"]["it_1"]["defected"] = True

    message = load_error(edited(mini), defect, tmp_path)
    assert "units.it_1.defected" in message


def test_control_of_an_unknown_town(mini: Scenario, tmp_path: Path) -> None:
    message = load_error(edited(mini), lambda d: d["allied_control"].append("Atlantis"), tmp_path)
    assert "allied_control[" in message and "'Atlantis'" in message


def test_chit_in_two_places_is_refused(mini: Scenario, tmp_path: Path) -> None:
    def duplicate(d: dict[str, Any]) -> None:
        d["chits"]["cup"].append(d["chits"]["hands"]["allied"][0])

    message = load_error(edited(mini), duplicate, tmp_path)
    assert "chits.cup" in message and "two places" in message


def test_unknown_chit_is_refused(mini: Scenario, tmp_path: Path) -> None:
    message = load_error(edited(mini), lambda d: d["chits"]["played"].append("teleport.1"), tmp_path)
    assert "chits.played" in message and "'teleport.1'" in message


def test_schema_error_names_the_field(mini: Scenario, tmp_path: Path) -> None:
    message = load_error(edited(mini), lambda d: d.update(turn=13), tmp_path)
    assert "turn" in message


def test_scenario_data_change_is_refused(tmp_path: Path) -> None:
    original = mini_scenario(tmp_path / "a", **MINI_OPTIONS)

    def new_cell(files: Files) -> None:
        files[CRT]["columns"]["1-1"][0] = "2/0"

    changed = mini_scenario(tmp_path / "b", mutate=new_cell, **MINI_OPTIONS)
    assert changed.name == original.name
    text = dumps(edited(original))
    loads(text, load_scenario(tmp_path / "a"))  # the same data still loads
    with pytest.raises(SaveError, match=r"scenario\.digest") as exc:
        loads(text, changed, source="game.json")
    assert "game.json" in str(exc.value) and "changed" in str(exc.value)


def test_save_for_another_scenario_is_refused(mini: Scenario, tmp_path: Path) -> None:
    other = mini_scenario(tmp_path / "other", name="Another", **MINI_OPTIONS)
    with pytest.raises(SaveError, match=r"scenario\.name"):
        loads(dumps(edited(mini)), other)


def test_failed_load_leaves_the_old_position_untouched(mini: Scenario, tmp_path: Path) -> None:
    pos = edited(mini)
    before = dumps(pos)
    data = save_dict(pos)
    # a save that is fine until its very last check (the chits), after the units were read
    data["units"]["ind_5"]["hex"] = "0101"
    data["turn"] = 9
    data["chits"]["removed"].append(data["chits"]["cup"][0])
    with pytest.raises(SaveError):
        loads(json.dumps(data), mini)
    assert dumps(pos) == before
    # and a successful load gives a new, independent position
    back = loads(before, mini)
    back.place("ind_5", "0101")
    back.set_turn(9)
    assert dumps(pos) == before


def test_failed_save_keeps_the_old_file(mini: Scenario, tmp_path: Path) -> None:
    pos = edited(mini)
    path = tmp_path / "game.json"
    save_position(pos, path)
    old = path.read_bytes()
    broken = pos.copy()
    broken.units["it_1"].hex = Hex(-3, 0)  # cannot be written: it has no label
    with pytest.raises(ValueError):
        save_position(broken, path)
    assert path.read_bytes() == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


def test_bundled_scenario_setup_round_trips(bundled: Scenario, tmp_path: Path) -> None:
    pos = initial_position(bundled, seed=1)
    save_position(pos, tmp_path / "a.json")
    save_position(read_position_save(tmp_path / "a.json", bundled), tmp_path / "b.json")
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()


def test_write_scenario_writes_into_separate_directories(tmp_path: Path) -> None:
    a = write_scenario(tmp_path / "a")
    b = write_scenario(tmp_path / "b", name="B")
    assert a != b and (a / "scenario.yaml").exists() and (b / "scenario.yaml").exists()


def test_saves_refuse_chits_that_do_not_add_up(mini: Scenario) -> None:
    from cheren.files.position_saves import position_to_dict

    data = position_to_dict(Position.empty(mini))
    lost = data["chits"]["cup"].pop()
    with pytest.raises(SaveError, match=f"chits: chits missing .*{lost}"):
        loads(json.dumps(data), mini)
    data["chits"]["cup"].append(lost)
    data["chits"]["cup"].append(lost.rsplit(".", 1)[0] + ".99")
    with pytest.raises(SaveError, match="chits: chits that the scenario does not have"):
        loads(json.dumps(data), mini)


def test_the_save_fingerprint_is_the_data_as_loaded_not_as_on_disk_now(tmp_path: Path) -> None:
    from tests.scenario_factory import mini_scenario

    s = mini_scenario(tmp_path / "sc")
    text = dumps(Position.empty(s))
    (tmp_path / "sc" / "crt.yaml").write_text(
        (tmp_path / "sc" / "crt.yaml").read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8"
    )
    assert loads(text, s).units == Position.empty(s).units  # s still holds the data the save was made with
    edited = mini_scenario(tmp_path / "sc2")
    (tmp_path / "sc2" / "crt.yaml").write_text(
        (tmp_path / "sc2" / "crt.yaml").read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8"
    )
    from cheren.scenario import load_scenario

    with pytest.raises(SaveError, match="scenario data changed"):
        loads(dumps(Position.empty(edited)), load_scenario(tmp_path / "sc2"))
