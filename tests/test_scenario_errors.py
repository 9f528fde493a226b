"""Bad scenario data is refused with problems that name the file, the field and (map data) the hex.

Each test builds the small factory scenario with one thing wrong and checks both the structured
``ScenarioError.problems`` and the text a data editor reads.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cheren.scenario import Problem, ScenarioError, Side, load_scenario
from tests.scenario_factory import (
    CHITS,
    COUNTERS,
    CRT,
    MAP,
    SCENARIO,
    Files,
    counter,
    default_counters,
    dump_yaml,
    mini_scenario,
    town,
    write_scenario,
)

GOOD_TERRAIN = [".....", ".hM..", "..r.~", "C...~"]


def all_problems(directory: Path, **options: Any) -> tuple[str, list[Problem]]:
    with pytest.raises(ScenarioError) as exc:
        mini_scenario(directory, **options)
    return str(exc.value), exc.value.problems


def one_problem(directory: Path, **options: Any) -> tuple[str, Problem]:
    """The scenario must fail with exactly this one problem, shown in the error's text."""
    text, problems = all_problems(directory, **options)
    assert len(problems) == 1, text
    problem = problems[0]
    assert str(problem) in text
    return text, problem


def two_counters(first: dict[str, Any]) -> list[dict[str, Any]]:
    return [first, counter("it_1", "italian", letter="B")]


# -- the factory itself ------------------------------------------------------------------------
def test_factory_default_scenario_loads(tmp_path: Path) -> None:
    s = mini_scenario(tmp_path)
    assert (s.columns, s.rows) == (5, 4)
    assert len(s.playable) == 5 * 4 - 2  # two sea hexes
    assert set(s.towns) == {"Alpha", "Bravo"}
    assert set(s.units) == {"ind_5", "it_1"}
    assert [c.name for c in s.odds_columns] == [
        "1-3",
        "1-2",
        "1-1",
        "2-1",
        "3-1",
        "5-1",
        "7-1",
        "10-1",
        "13-1",
    ]
    assert len(s.info.turns) == 12


def test_factory_builds_a_hand_made_map(tmp_path: Path) -> None:
    s = mini_scenario(
        tmp_path,
        terrain=["....", ".hM.", "...."],
        towns=[town("Alpha", "0101", vp=30, letter="A")],
        counters=[counter("a", "allied", letter="A"), counter("b", "italian", letter="A")],
        roads=[["0101", "0201", "0301"]],
        rivers=[["0202/0203", "0202/0103"]],
    )
    from cheren.hexes import Hex, Hexside

    h = Hex.from_label
    assert (s.columns, s.rows) == (4, 3)
    assert s.hex_info(h("0202")).hill and s.hex_info(h("0302")).mountain
    assert s.road_sides == {Hexside.between(h("0101"), h("0201")), Hexside.between(h("0201"), h("0301"))}
    assert s.river_sides == {Hexside.between(h("0202"), h("0203")), Hexside.between(h("0202"), h("0103"))}


def test_factory_example_with_plain_dicts(tmp_path: Path) -> None:
    # default counters follow the towns' setup letters
    s = mini_scenario(
        tmp_path,
        terrain=["....", ".hM.", "...."],
        towns=[{"name": "Alpha", "hex": "0101", "vp": 30, "letter": "A"}],
        roads=[["0101", "0201"]],
        areas=None,
    )
    assert s.towns["Alpha"].vp == 30
    assert {u.arrival.letter for u in s.units.values() if u.arrival} == {"A"}
    assert {u.side for u in s.units.values()} == {Side.ALLIED, Side.ITALIAN}


def test_factory_mutate_can_replace_a_file_wholesale(tmp_path: Path) -> None:
    def replace(files: Files) -> Files:
        return {**files, CRT: "columns: {}\n"}

    path = write_scenario(tmp_path, mutate=replace)
    assert (path / CRT).read_text() == "columns: {}\n"


# -- map.yaml ----------------------------------------------------------------------------------
def test_unknown_terrain_character_names_the_hex(tmp_path: Path) -> None:
    # 'X' at column index 2, row index 1: hex 0302
    text, p = one_problem(tmp_path, terrain=[".....", ".hX..", "..r.~", "C...~"])
    assert (p.file, p.field, p.hex) == (MAP, "terrain", "0302")
    assert "'X'" in p.message
    assert "map.yaml: terrain [hex 0302]" in text


def test_terrain_row_too_short(tmp_path: Path) -> None:
    text, p = one_problem(tmp_path, terrain=[".....", ".hM.", "..r.~", "C...~"], columns=5)
    assert (p.file, p.field, p.hex) == (MAP, "terrain", "0502")  # the first hex the row lacks
    assert "row 02 has 4 characters" in p.message
    assert "columns: 5" in p.message
    assert "map.yaml: terrain [hex 0502]" in text


def test_too_few_terrain_rows(tmp_path: Path) -> None:
    towns = [town("Alpha", "0101", vp=15, letter="A"), town("Bravo", "0103", vp=15, letter="B")]
    _, p = one_problem(tmp_path, terrain=GOOD_TERRAIN[:3], rows=4, areas=["....."] * 4, towns=towns)
    assert (p.file, p.field) == (MAP, "terrain")
    assert "has 3 rows" in p.message and "rows: 4" in p.message


def test_unknown_garrison_area_character_names_the_hex(tmp_path: Path) -> None:
    _, p = one_problem(tmp_path, areas=[".....", ".....", "..q..", "....."])
    assert (p.file, p.field, p.hex) == (MAP, "areas", "0303")
    assert "'q'" in p.message


def test_road_jumping_between_non_adjacent_hexes(tmp_path: Path) -> None:
    text, p = one_problem(tmp_path, roads=[{"name": "Via Uno", "hexes": ["0101", "0201", "0401"]}])
    assert (p.file, p.field, p.hex) == (MAP, "roads[0] (Via Uno).hexes", "0401")
    assert "0201" in p.message and "not adjacent" in p.message
    assert "map.yaml: roads[0] (Via Uno).hexes [hex 0401]" in text


def test_track_with_a_bad_hex_label(tmp_path: Path) -> None:
    _, p = one_problem(tmp_path, tracks=[["0012", "0101"]])
    assert (p.file, p.field, p.hex) == (MAP, "tracks[0] (Track 1).hexes", "0012")
    assert "count from 01" in p.message


def test_river_whose_consecutive_hexsides_do_not_meet(tmp_path: Path) -> None:
    text, p = one_problem(tmp_path, rivers=[{"name": "Gash", "hexsides": ["0101/0102", "0301/0302"]}])
    assert (p.file, p.field, p.hex) == (MAP, "rivers[0] (Gash).hexsides", "0301/0302")
    assert "0101/0102" in p.message and "corner" in p.message
    assert "map.yaml: rivers[0] (Gash).hexsides" in text


def test_hexside_between_non_adjacent_hexes(tmp_path: Path) -> None:
    _, p = one_problem(tmp_path, rivers=[{"name": "Barka", "hexsides": ["0101/0303"]}])
    assert (p.file, p.field, p.hex) == (MAP, "rivers[0] (Barka).hexsides", "0101/0303")
    assert "not adjacent" in p.message


def test_town_off_the_map_names_the_hex(tmp_path: Path) -> None:
    _, p = one_problem(tmp_path, towns=[town("Alpha", "0909", vp=30, letter="A"), town("Bravo", "0104", letter="B")])
    assert (p.file, p.field, p.hex) == (MAP, "towns[0] (Alpha).hex", "0909")
    assert "off the map" in p.message


def test_town_on_a_sea_hex(tmp_path: Path) -> None:
    _, p = one_problem(tmp_path, towns=[town("Alpha", "0504", vp=30, letter="A"), town("Bravo", "0104", letter="B")])
    assert (p.file, p.field, p.hex) == (MAP, "towns[0] (Alpha).hex", "0504")
    assert "unplayable" in p.message


def test_red_map_edge_hex_not_on_the_border(tmp_path: Path) -> None:
    text, p = one_problem(tmp_path, allied_edges=[{"name": "West", "hexes": ["0101", "0302"]}])
    assert (p.file, p.field, p.hex) == (MAP, "allied_edges[0] (West).hexes", "0302")
    assert "border" in p.message and "12.2" in p.message
    assert "[hex 0302]" in text


def test_red_map_edge_hexes_on_every_border_are_accepted(tmp_path: Path) -> None:
    border = ["0101", "0301", "0501", "0102", "0502", "0104", "0304"]
    s = mini_scenario(tmp_path, allied_edges=[{"name": "Rim", "hexes": border, "first_turn": 2}])
    (edge,) = s.allied_edges
    assert edge.hexes == border
    assert not s.edge_live(edge, 1) and s.edge_live(edge, 2) and s.edge_live(edge, 12)


def test_duplicate_setup_letter(tmp_path: Path) -> None:
    _, p = one_problem(
        tmp_path, towns=[town("Alpha", "0101", vp=15, letter="A"), town("Bravo", "0104", vp=15, letter="A")]
    )
    assert (p.file, p.field) == (MAP, "towns")
    assert "setup letter 'A'" in p.message and "more than once" in p.message


# -- counters.yaml -----------------------------------------------------------------------------
def test_setup_letter_with_no_town(tmp_path: Path) -> None:
    text, p = one_problem(tmp_path, counters=two_counters(counter("ind_5", "allied", letter="Z")))
    assert (p.file, p.field, p.hex) == (COUNTERS, "counters[0] (ind_5).arrival.letter", None)
    assert "'Z'" in p.message
    assert "counters.yaml: counters[0] (ind_5).arrival.letter" in text


def test_alternative_arrival_letter_with_no_town(tmp_path: Path) -> None:
    arrival = {"letter": "A", "turn": 2, "alternative": {"letter": "Q", "turn": 4}}
    text, p = one_problem(tmp_path, counters=two_counters(counter("ind_5", "allied", arrival=arrival)))
    assert (p.file, p.field) == (COUNTERS, "counters[0] (ind_5).arrival.alternative.letter")
    assert "'Q'" in p.message
    assert "counters.yaml: counters[0] (ind_5).arrival.alternative.letter" in text


@pytest.mark.parametrize(("turn", "bound"), [(13, "less than or equal to 12"), (0, "greater than or equal to 1")])
def test_arrival_turn_outside_the_game(tmp_path: Path, turn: int, bound: str) -> None:
    text, p = one_problem(tmp_path, counters=two_counters(counter("ind_5", "allied", letter="A", turn=turn)))
    assert (p.file, p.field) == (COUNTERS, "counters[0] (ind_5).arrival.turn")
    assert bound in p.message
    assert "counters.yaml: counters[0] (ind_5).arrival.turn" in text


def test_unknown_key_in_a_counter_is_a_typo(tmp_path: Path) -> None:
    text, p = one_problem(tmp_path, counters=two_counters(counter("ind_5", "allied", letter="A", stak=2)))
    assert (p.file, p.field) == (COUNTERS, "counters[0] (ind_5).stak")
    assert "unknown field" in p.message
    assert "counters.yaml: counters[0] (ind_5).stak" in text


def test_duplicate_counter_id(tmp_path: Path) -> None:
    _, p = one_problem(tmp_path, counters=[counter("dup", "allied", letter="A"), counter("dup", "italian", letter="B")])
    assert (p.file, p.field) == (COUNTERS, "counters")
    assert "'dup'" in p.message and "more than once" in p.message


def test_native_village_that_does_not_exist(tmp_path: Path) -> None:
    native = counter("nat_1", "italian", native={"village": "Nowhere", "defected": {"sp": 1, "mp": 3}})
    _, p = one_problem(
        tmp_path,
        native_villages=[{"name": "Adi", "hex": "0402"}],
        counters=[*two_counters(counter("ind_5", "allied", letter="A")), native],
    )
    assert (p.file, p.field) == (COUNTERS, "counters[2] (nat_1).native.village")
    assert "'Nowhere'" in p.message


def test_replacement_link_to_a_non_replacement_counter(tmp_path: Path) -> None:
    _, p = one_problem(
        tmp_path,
        counters=[
            counter("ind_5", "allied", letter="A", replacement="ind_9"),
            counter("ind_9", "allied", letter="A"),
            counter("it_1", "italian", letter="B"),
        ],
    )
    assert (p.file, p.field) == (COUNTERS, "counters[0] (ind_5).replacement")
    assert "'ind_9'" in p.message and "is_replacement" in p.message


def test_unknown_unit_type(tmp_path: Path) -> None:
    _, p = one_problem(tmp_path, counters=two_counters(counter("ind_5", "allied", letter="A", type="zeppelin")))
    assert (p.file, p.field) == (COUNTERS, "counters[0] (ind_5).type")
    assert "'zeppelin'" in p.message


# -- crt.yaml ----------------------------------------------------------------------------------
def test_crt_column_missing_a_die_row(tmp_path: Path) -> None:
    def drop_row(files: Files) -> None:
        files[CRT]["columns"]["2-1"].pop()

    text, p = one_problem(tmp_path, mutate=drop_row)
    assert (p.file, p.field) == (CRT, "columns")
    assert "2-1" in p.message and "5 results" in p.message
    assert "crt.yaml: columns" in text


def test_crt_cell_that_is_not_a_result(tmp_path: Path) -> None:
    def bad_cell(files: Files) -> None:
        files[CRT]["columns"]["1-1"][2] = "x/1"

    text, p = one_problem(tmp_path, mutate=bad_cell)
    assert p.file == CRT
    assert p.field == "columns.1-1 (die roll 3)"
    assert "'x/1'" in p.message
    assert "crt.yaml: columns.1-1" in text


def test_crt_columns_out_of_order(tmp_path: Path) -> None:
    def swap(files: Files) -> None:
        cols = files[CRT]["columns"]
        order = ["1-3", "1-2", "2-1", "1-1", "3-1", "5-1", "7-1", "10-1", "13-1"]
        files[CRT]["columns"] = {name: cols[name] for name in order}

    _, p = one_problem(tmp_path, mutate=swap)
    assert (p.file, p.field) == (CRT, "columns")
    assert "lowest odds to the highest" in p.message


def test_crt_columns_not_ending_at_13_1(tmp_path: Path) -> None:
    def drop_last(files: Files) -> None:
        del files[CRT]["columns"]["13-1"]

    _, p = one_problem(tmp_path, mutate=drop_last)
    assert (p.file, p.field) == (CRT, "columns")
    assert "13-1" in p.message and "10-1" in p.message and "11.5" in p.message


def test_crt_column_that_is_not_a_ratio(tmp_path: Path) -> None:
    def rename(files: Files) -> None:
        files[CRT]["columns"] = {("3-2" if k == "2-1" else k): v for k, v in files[CRT]["columns"].items()}

    _, p = one_problem(tmp_path, mutate=rename)
    assert (p.file, p.field) == (CRT, "columns")
    assert "'3-2'" in p.message


# -- chits.yaml --------------------------------------------------------------------------------
def test_unknown_chit_effect(tmp_path: Path) -> None:
    def teleport(files: Files) -> None:
        files[CHITS]["chits"][1]["effect"] = "teleport"

    text, p = one_problem(tmp_path, mutate=teleport)
    assert (p.file, p.field) == (CHITS, "chits[1] (barrage).effect")
    assert "'teleport'" in p.message
    assert "chits.yaml: chits[1] (barrage).effect" in text


# -- scenario.yaml -----------------------------------------------------------------------------
def test_town_vps_that_cannot_reach_the_top_victory_band(tmp_path: Path) -> None:
    towns = [town("Alpha", "0101", vp=10, letter="A"), town("Bravo", "0104", vp=10, letter="B")]
    text, p = one_problem(tmp_path, towns=towns)
    assert (p.file, p.field) == (SCENARIO, "victory")
    assert "20 VP" in p.message and "26 VP" in p.message and "14.0" in p.message
    assert "scenario.yaml: victory" in text


def test_victory_bands_with_a_gap(tmp_path: Path) -> None:
    def gap(files: Files) -> None:
        del files[SCENARIO]["victory"][3]  # the Draw at 21 VP

    _, p = one_problem(tmp_path, mutate=gap)
    assert (p.file, p.field) == (SCENARIO, "victory")
    assert "Italian minor victory" in p.message and "Allied minor victory" in p.message
    assert "20 then 22" in p.message


def test_victory_bands_overlapping(tmp_path: Path) -> None:
    def overlap(files: Files) -> None:
        files[SCENARIO]["victory"][1]["min_vp"] = 17

    _, p = one_problem(tmp_path, mutate=overlap)
    assert (p.file, p.field) == (SCENARIO, "victory")
    assert "gap or overlap" in p.message


def test_control_of_a_town_that_does_not_exist(tmp_path: Path) -> None:
    _, p = one_problem(tmp_path, allied_control_at_start=["Atlantis"])
    assert (p.file, p.field) == (SCENARIO, "allied_control_at_start[0]")
    assert "'Atlantis'" in p.message


def test_missing_file_named_in_scenario_yaml(tmp_path: Path) -> None:
    def rename(files: Files) -> None:
        files[SCENARIO]["files"]["map"] = "map_v2.yaml"

    text, p = one_problem(tmp_path, mutate=rename)
    assert (p.file, p.field) == (SCENARIO, "files.map")
    assert "'map_v2.yaml' does not exist" in p.message
    assert "scenario.yaml: files.map" in text


def test_native_counter_must_start_italian(tmp_path: Path) -> None:
    native = counter("n1", "allied", faces=((1, 5),), colour="black",
                     native={"garrison": None, "village": "V", "defected": {"sp": 1, "mp": 5}})
    _, p = one_problem(tmp_path, counters=[*default_counters(), native], native_villages=[{"name": "V", "hex": "0202"}])
    assert (p.file, p.field) == (COUNTERS, "counters[2] (n1).side")
    assert "5.0" in p.message


def test_scenario_yaml_without_a_file_role(tmp_path: Path) -> None:
    def drop(files: Files) -> None:
        del files[SCENARIO]["files"]["chits"]

    _, p = one_problem(tmp_path, mutate=drop)
    assert (p.file, p.field) == (SCENARIO, "files.chits")


def test_missing_scenario_directory(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="scenario directory not found"):
        load_scenario(tmp_path / "nowhere")


# -- YAML --------------------------------------------------------------------------------------
def test_invalid_yaml_names_the_line(tmp_path: Path) -> None:
    bad_line = 0

    def corrupt(files: Files) -> None:
        nonlocal bad_line
        lines = dump_yaml(files[MAP]).splitlines()
        index = next(i for i, line in enumerate(lines) if line.startswith("rows:"))
        lines[index] = "rows: 4: 5"
        bad_line = index + 1
        files[MAP] = "\n".join(lines) + "\n"

    text, p = one_problem(tmp_path, mutate=corrupt)
    assert bad_line > 1
    assert p.file == MAP
    assert f"line {bad_line}," in p.message
    assert "not valid YAML" in text


def test_yaml_that_is_not_a_mapping(tmp_path: Path) -> None:
    def as_list(files: Files) -> Files:
        return {**files, COUNTERS: "- one\n- two\n"}

    _, p = one_problem(tmp_path, mutate=as_list)
    assert p.file == COUNTERS
    assert "mapping" in p.message and "list" in p.message


# -- several problems at once ------------------------------------------------------------------
def test_cross_file_problems_are_reported_together(tmp_path: Path) -> None:
    text, problems = all_problems(
        tmp_path,
        terrain=[".....", ".hX..", "..r.~", "C...~"],
        roads=[["0101", "0301"]],
        counters=two_counters(counter("ind_5", "allied", letter="Z")),
    )
    where = {(p.file, p.field, p.hex) for p in problems}
    assert where == {
        (MAP, "terrain", "0302"),
        (MAP, "roads[0] (Road 1).hexes", "0301"),
        (COUNTERS, "counters[0] (ind_5).arrival.letter", None),
    }
    assert text.startswith("scenario has 3 problems:")
    for p in problems:
        assert str(p) in text


def test_problems_in_different_files_are_reported_together(tmp_path: Path) -> None:
    def three(files: Files) -> None:
        files[CRT]["columns"]["1-1"][2] = "x/1"
        files[CHITS]["chits"][1]["effect"] = "teleport"
        files[COUNTERS]["counters"][0]["stak"] = 1

    text, problems = all_problems(tmp_path, mutate=three)
    assert {p.file for p in problems} == {CRT, CHITS, COUNTERS}
    assert len(problems) == 3
    assert "scenario has 3 problems" in text
