"""Positions: the library of historical positions, position files, the one-line code, and the
checker that refuses positions the rules could never reach."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cheren.cli.main import main
from cheren.engine.actions import EndPhase
from cheren.engine.game import Game
from cheren.engine.opening import initial_position
from cheren.engine.position import Status, Supply
from cheren.files import (
    PositionError,
    canonical,
    dump_position_file,
    library,
    library_dir,
    load_position,
    open_position,
    parse_position_code,
    parse_position_text,
    position_code,
    position_problems,
    read_position_file,
)
from cheren.files.position_review import review
from cheren.files.position_saves import save_position
from cheren.players.bots import make_bot
from cheren.players.views import SideSeat
from cheren.render.svg import position_svg
from cheren.scenario import Phase, Scenario, Side, load_scenario
from cheren.scenario.sequence import LAST_TURN

SCENARIO = load_scenario()
RECORDS = library(SCENARIO)
NAMES = [r.name for r in RECORDS]


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return SCENARIO


def test_the_library_has_ten_or_more_dated_positions_across_the_campaign() -> None:
    assert len(RECORDS) >= 10
    turns = {r.position.turn for r in RECORDS}
    # the withdrawal, Agordat, the Cheren battles, the fall of Cheren, Asmara and Massaua
    assert {1, 2, 3, 4, 9, 10, 11, 12} <= turns
    assert [r.date for r in RECORDS] == sorted(r.date for r in RECORDS)
    for r in RECORDS:
        week = next(t.week_of for t in SCENARIO.info.turns if t.turn == r.position.turn)
        assert 0 <= (r.date - __import__("datetime").date.fromisoformat(week)).days < 7, r.name


@pytest.mark.parametrize("name", NAMES)
def test_library_position_is_legal_and_passes_the_checker(name: str) -> None:
    """Every position passes `cheren positions check`: no error, and every warning of the checker
    (what the next supply check would change, 12.7 and 12.4) is explained in its narrative."""
    record = next(r for r in RECORDS if r.name == name)
    assert [p for p in position_problems(record.position) if p.severity == "error"] == []
    assert [str(x) for x in review(record) if x.blocking] == []
    assert record.narrative.strip() and record.sources
    placed = [uid for uid, u in record.position.units.items() if u.status is Status.MAP]
    assert set(record.provenance) == set(placed), "every placement carries its provenance"
    assert all(p.source.value in ("historical", "reconstructed", "rules") for p in record.provenance.values())
    assert any(p.source.value == "historical" for p in record.provenance.values())


@pytest.mark.parametrize("name", NAMES)
def test_library_file_round_trips_through_position_and_code_byte_for_byte(name: str) -> None:
    path = library_dir(SCENARIO) / f"{name}.yaml"
    text = path.read_text(encoding="utf-8")
    record = read_position_file(path, SCENARIO)
    code = position_code(record.position)
    again = parse_position_code(code, SCENARIO)
    assert again == record.position
    assert position_code(again) == code
    record.position = again
    assert dump_position_file(record) == text


@pytest.mark.parametrize("name", NAMES)
def test_library_position_renders_and_starts_a_game_at_its_phase(name: str) -> None:
    record = next(r for r in RECORDS if r.name == name)
    root = ET.fromstring(position_svg(record.position))
    drawn = {el.get("data-unit") for el in root.iter() if el.get("data-unit")}
    assert drawn == {uid for uid, u in record.position.units.items() if u.on_map}
    game = Game.from_position(load_position(name, SCENARIO))
    assert (game.turn, game.phasing, game.phase) == (record.position.turn, record.position.side, record.position.phase)
    assert game.legal_actions(), "play can start from the position"


@pytest.mark.parametrize("name", NAMES)
def test_two_bots_play_each_library_position_to_the_end_through_the_gate(name: str) -> None:
    game = Game.from_position(load_position(name, SCENARIO))
    bots = {side: make_bot("random", seed=7) for side in Side}
    for _ in range(5000):
        if game.over:
            break
        side = game.acting
        game.apply(bots[side].choose(SideSeat(game, side)).action)
    assert game.over and game.turn == LAST_TURN


def test_the_heuristic_bots_play_agordat_to_the_end() -> None:
    game = Game.from_position(load_position("agordat", SCENARIO))
    bots = {side: make_bot("heuristic", seed=1) for side in Side}
    while not game.over:
        side = game.acting
        game.apply(bots[side].choose(SideSeat(game, side)).action)
    assert "game over after turn 12" in game.status()


def test_8_4_the_build_up_position_opens_with_the_french_arrival_choice() -> None:
    game = Game.from_position(load_position("build-up", SCENARIO))
    assert game.pending is not None and game.pending.kind == "arrival"
    assert "8.4" in game.pending.rules


def test_load_position_takes_a_name_a_file_a_save_and_a_code(tmp_path: Path) -> None:
    by_name = load_position("agordat", SCENARIO)
    by_file = load_position(library_dir(SCENARIO) / "agordat.yaml", SCENARIO)
    by_code = load_position(position_code(by_name), SCENARIO)
    save_position(by_name, tmp_path / "agordat.json")
    by_save = load_position(tmp_path / "agordat.json", SCENARIO)
    assert by_name == by_file == by_code == by_save == canonical(by_name)
    assert by_name.units["ind_5"].hex is not None and by_name.units["ind_5"].hex.label == "1608"
    assert by_name.units["col_bn_om_ager"].supply is Supply.LOW
    assert by_name.allied_vp() == 6


def test_from_position_keeps_the_positions_dice_unless_given_a_seed() -> None:
    a = Game.from_position(load_position("cheru", SCENARIO))
    b = Game.from_position(load_position("cheru", SCENARIO))
    c = Game.from_position(load_position("cheru", SCENARIO), seed=99)
    assert a.position.dice == b.position.dice
    assert c.position.dice != a.position.dice


def test_a_hand_written_file_by_printed_names_with_drawn_chits(tmp_path: Path) -> None:
    text = """
name: my-test
title: A small test
date: 1941-02-10
turn: 4
side: allied
phase: movement
seed: 5
units:
  - {unit: Col 5, hex: "2205", provenance: "reconstructed: a test"}
  - {unit: 11 Ind, hex: "2005", steps: 2, supply: low, provenance: "reconstructed: a test"}
eliminated: [M11/39]
allied_control: [Kassala, Agordat]
garrisons_released: [Wolkait]
"""
    # everything else due before turn 4 must be placed, eliminated or delayed: list it
    due_by_now = [
        SCENARIO.units[u].name
        for u in SCENARIO.units
        if u not in ("col_5", "ind_11", "m11_39", "air_support")
        and (SCENARIO.units[u].arrival is None or (SCENARIO.units[u].arrival.turn or 0) < 4 or u == "comm_51")  # type: ignore[union-attr]
    ]
    text += "to_arrive: []\n" + "eliminated_extra: []\n"
    with pytest.raises(PositionError, match="eliminated_extra: unknown field"):
        parse_position_text(text, SCENARIO, "my-test.yaml")
    text = text.replace("eliminated_extra: []\n", "").replace(
        "eliminated: [M11/39]", "eliminated:\n" + "".join(f'  - "{n}"\n' for n in ["M11/39", *due_by_now])
    )
    record = parse_position_text(text, SCENARIO, "my-test.yaml")
    p = record.position
    assert p.units["ind_11"].steps_lost == 2 and p.units["ind_11"].supply is Supply.LOW
    assert p.released == {"wolkait"} and p.controller("Agordat") is Side.ALLIED
    assert p.units["air_support"].status is Status.OFF_MAP  # arrived on turn 3, kept off the map (11.3)
    assert p.units["alpini_uork_amba"].status is Status.POOL  # the Italians' turn 4 arrival comes after this phase
    assert sum(len(h) for h in p.chits.hands.values()) == 8  # drawn from the seed (5.0)
    assert p.dice.seed == 5
    again = parse_position_text(text, SCENARIO, "my-test.yaml").position
    other = parse_position_text(text.replace("seed: 5", "seed: 6"), SCENARIO, "my-test.yaml").position
    assert again.chits == p.chits and other.chits.hands != p.chits.hands  # the seed decides the draw


def test_editing_a_file_and_writing_it_back_is_canonical(tmp_path: Path) -> None:
    record = open_position("asmara", SCENARIO)
    record.position.place("ind_29", "1411")
    path = tmp_path / "mine.yaml"
    path.write_text(dump_position_file(record), encoding="utf-8")
    back = read_position_file(path, SCENARIO)
    assert back.position == record.position
    assert dump_position_file(back) == path.read_text(encoding="utf-8")


def test_chits_given_by_name_and_dice_state_survive_the_round_trip() -> None:
    game = Game.from_position(load_position("kassala", SCENARIO))
    for _ in range(40):
        actions = game.legal_actions()
        game.apply(next((a for a in actions if isinstance(a, EndPhase)), actions[0]))
    record = open_position("kassala", SCENARIO)
    record.position = game.position.copy()
    text = dump_position_file(record)
    back = parse_position_text(text, SCENARIO, "k.yaml")
    assert any(u.status is Status.ELIMINATED for u in game.position.units.values())
    assert back.position == canonical(game.position)
    assert parse_position_code(position_code(game.position), SCENARIO) == canonical(game.position)


# -- refused files: every one names the file, the field and (where there is one) the hex ----
BASE = (library_dir(SCENARIO) / "cheren-first-assault.yaml").read_text(encoding="utf-8")


def refused(text: str) -> str:
    with pytest.raises(PositionError) as info:
        parse_position_text(text, SCENARIO, "bad.yaml")
    return str(info.value)


def _unit_block(name: str) -> str:
    start = BASE.index(f"  - unit: {name}\n")
    end = BASE.index("  - unit:", start + 5)
    return BASE[start:end]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda t: t.replace("turn: 3", "turn: [3"), "bad.yaml: not valid YAML at line"),
        (lambda t: "- just\n- a list\n", "a position file holds a mapping of fields, not list"),
        (lambda t: t.replace("title:", "titel:"), "bad.yaml: titel: unknown field"),
        (lambda t: t.replace("turn: 3\n", ""), "bad.yaml: turn: required field is missing"),
        (lambda t: t.replace("turn: 3", "turn: 13"), "bad.yaml: turn: Input should be less than or equal to 12"),
        (
            lambda t: t.replace("date: 1941-02-03", "date: 1941-02-30"),
            "bad.yaml: not valid YAML: a value cannot be read: day is out of range for month",
        ),
        (lambda t: t.replace('hex: "2005"', "hex: 2005", 1), "write the hex label in quotes"),
        (
            lambda t: t.replace('hex: "2005"', 'hex: "9999"', 1),
            "bad.yaml: units[2] (11 Ind).hex [hex 9999]: 9999 is not a playable",
        ),
        (
            lambda t: t.replace('- unit: "11 Ind"', '- unit: "11 Indd"'),
            "bad.yaml: units[2] (11 Indd).unit: no unit named '11 Indd'; did you mean '11 Ind' or '10 Ind' or '9 Ind'?",
        ),
        (
            lambda t: t.replace("- unit: Skinner's Horse", '- unit: "11 Ind"'),
            "bad.yaml: units[5] (11 Ind): 11 Ind is already given at units[2] (11 Ind)",
        ),
        (lambda t: t.replace("    steps: 3\n", "    steps: 5\n", 1), "11 Ind has 4 steps, not 5 (11.6)"),
        (
            lambda t: t.replace("    supply: low\n", "").replace(
                'hex: "2005"\n    steps: 3\n', 'hex: "2005"\n    steps: 3\n    supply: medium\n', 1
            ),
            "bad.yaml: units[2] (11 Ind).supply: String should match pattern '^(low|no)$'",
        ),
        (
            lambda t: t.replace('  - unit: Tank\n    hex: "1906"', '  - unit: Tank\n    hex: "2006"'),
            "bad.yaml: units[10] (Tank) [hex 2006]: Tank (Tanks) is in 2006, a mountain hex it may never enter (9.1)",
        ),
        (
            lambda t: t.replace('  - unit: "144 Fd RA"\n    hex: "2005"', '  - unit: "144 Fd RA"\n    hex: "2106"'),
            "[hex 2106]: 2106 holds units of both sides; units never share a hex with the enemy (9.0)",
        ),
        (
            lambda t: (
                t.replace('  - unit: Col 41\n    hex: "2106"', '  - unit: Col 41\n    hex: "2205"')
                .replace('  - unit: Col bn (Tole)\n    hex: "1713"', '  - unit: Col bn (Tole)\n    hex: "2205"')
                .replace('  - unit: Col 12\n    hex: "1612"', '  - unit: Col 12\n    hex: "2205"')
            ),
            "bad.yaml: units [hex 2205]: the Italian stack in 2205 has stacking value 8; "
            "the limit there is 6 (Hills) (3.1)",
        ),
        (
            lambda t: t.replace("  - unit: Col bn (Tole)\n", "  - unit: RAF/SAAF\n"),
            "RAF/SAAF is kept off the map between combats; it cannot stand in 1713 (11.3)",
        ),
        (
            lambda t: t.replace("  - Agordat\n", "  - Agordatt\n"),
            "bad.yaml: allied_control[0]: no town named 'Agordatt'; did you mean 'Agordat'?",
        ),
        (
            lambda t: t.replace('  - unit: "11 Ind"\n', '  - unit: "11 Ind"\n    defected: true\n', 1),
            "bad.yaml: units[2] (11 Ind).defected [hex 2005]: only native units defect; 11 Ind is not one (6.0)",
        ),
        (
            lambda t: t + "chits:\n  allied: [Infiltrate, Teleport]\n",
            "bad.yaml: chits.allied[1]: no chit named 'Teleport'",
        ),
        (
            lambda t: t + "chits:\n  italian: [Roadblock, Roadblock, Roadblock]\n",
            "chits.italian[2]: there are only 2 Roadblock chit(s)",
        ),
        (lambda t: t + "chits:\n  allied: [Roadblock]\n", "chits.allied[0]: Roadblock is not a Allied chit (5.0)"),
        (
            lambda t: t.replace(_unit_block('"9 Ind"'), ""),
            "9 Ind arrives on turn 2; by this point it is on the map, eliminated or delayed (8.1, 8.2) (8.0)",
        ),
        (
            lambda t: t.replace("turn: 3\n", "turn: 3\nturn: 4\n"),
            "bad.yaml: not valid YAML at line 7, column 1: the key turn appears twice in one mapping",
        ),
        (
            lambda t: t.replace('  - unit: Marina\n    hex: "3207"', '  - unit: Marina\n    hex: "3107"'),
            "Marina never moves; it stands in 3207 (8.5)",
        ),
        (
            lambda t: t.replace(
                '  - unit: Wolkait (Humera)\n    hex: "0419"', '  - unit: Wolkait (Humera)\n    hex: "0418"'
            ),
            "Wolkait (Humera) belongs to the unreleased Wolkait garrison and cannot have left its area "
            "(it is in 0418) (6.0)",
        ),
        (lambda t: "a: &x [1]\n" + "".join(f"b{i}: *x\n" for i in range(150)), "more than 100 aliases"),
        (lambda t: "a: " + "[" * 80 + "]" * 80 + "\n", "nested more than 50 levels deep"),
    ],
    ids=lambda v: None if callable(v) else v[:40],
)
def test_a_bad_position_file_is_refused_with_a_precise_message(change: object, expected: str) -> None:
    text = change(BASE)  # type: ignore[operator]
    assert expected in refused(text)


def test_a_position_file_that_is_not_a_regular_file_or_too_big_is_refused(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    with pytest.raises(PositionError, match="not a regular file"):
        read_position_file(fifo, SCENARIO)
    big = tmp_path / "big.yaml"
    big.write_text("#" * 3_000_000, encoding="utf-8")
    with pytest.raises(PositionError, match="larger than the 2,000,000-byte limit"):
        read_position_file(big, SCENARIO)
    link = tmp_path / "zero.yaml"
    link.symlink_to("/dev/zero")
    with pytest.raises(PositionError, match="not a regular file"):
        read_position_file(link, SCENARIO)


# -- the code ----------------------------------------------------------------------------------
def test_the_opening_code_is_one_url_safe_line_and_exact() -> None:
    position = initial_position(SCENARIO, seed=1941)
    code = position_code(position)
    assert set(code) <= set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-.")
    assert len(code) < 500
    assert parse_position_code(code, SCENARIO) == canonical(position)
    assert position_code(parse_position_code(code, SCENARIO)) == code


@pytest.mark.parametrize(
    ("mangle", "expected"),
    [
        (lambda c: "X" + c[1:], "position code: character 1: expected a position code starting with 'C1'"),
        (lambda c: c[:2] + "zzz" + c[5:], "the code was made with other scenario data"),
        (
            lambda c: c.replace("-1ar-", "-1qr-"),
            "character 8: expected the phasing side: 'a' (Allied) or 'i' (Italian)",
        ),
        (lambda c: c.replace("-1ar-", "-14ar-"), "character 7: expected a turn from 1 to 12"),
        (lambda c: c.replace("000208", "000x08", 1), "character 13: expected a hex label (4 digits), found '0x0800'"),
        (lambda c: c.replace("000208", "009999", 1), "character 13: expected a playable hex; 9999 is not one"),
        (
            lambda c: c.replace("0002080", "0002080" + "0002080", 1),
            "character 18: expected a counter number (2 characters): 10 Ind is listed twice",
        ),
        (lambda c: c[: c.rindex("-", 0, c.rindex("-"))], "expected 11 sections separated by '-'"),
        (
            lambda c: c.replace("0002080", "000208Z", 1),
            "character 17: expected the unit's state character (0 to 23), found 'Z",
        ),
        (lambda c: c.replace("0002080", "0014110", 1), "[hex 1411]: 1411 holds units of both sides"),
        (
            lambda c: "-".join([*c.split("-")[:8], ".", *c.split("-")[9:]]),
            "expected after '.', the reinforcements still to arrive with steps lost",
        ),
        (
            lambda c: "-".join([*c.split("-")[:8], ".001", *c.split("-")[9:]]),
            "expected an Allied reinforcement still to arrive (8.1); 10 Ind is not one",
        ),
    ],
)
def test_a_bad_code_is_refused_with_the_offset_and_what_was_expected(mangle: object, expected: str) -> None:
    code = position_code(initial_position(SCENARIO, seed=1941))  # the set-up: 10 Ind first, at Kassala
    with pytest.raises(PositionError) as info:
        parse_position_code(mangle(code), SCENARIO)  # type: ignore[operator]
    assert expected in str(info.value)


# -- the command line ------------------------------------------------------------------------
def test_cheren_positions_lists_the_library(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["positions"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:4] == ["name", "date", "turn", "starts"]
    listed = [line.split()[0] for line in out[1:]]
    assert listed == NAMES and len(listed) >= 10
    assert any("28 Jan 1941" in line and "Agordat" in line for line in out)


def test_cheren_positions_shows_one_with_its_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["positions", "agordat"]) == 0
    out = capsys.readouterr().out
    assert "28 January 1941: turn 2, Allied Combat" in out and "Battle of Agordat" in out
    assert "The question (Allied to decide)" in out and "What happened next:" in out
    assert "The historical plan:" in out and "attack: target 1708, attackers 5 Ind, 11 Ind, Matilda" in out
    assert main(["positions", "agordat", "--code"]) == 0
    code = capsys.readouterr().out.strip()
    assert load_position(code, SCENARIO) == load_position("agordat", SCENARIO)
    assert main(["positions", "nowhere"]) == 1
    assert (
        "not a library position, a position file or a position code; the library has: abandon-cheren, acqua-col"
        in capsys.readouterr().err
    )


@pytest.mark.parametrize("name", NAMES)
def test_every_library_position_renders_from_the_command_line(name: str, tmp_path: Path) -> None:
    out = tmp_path / f"{name}.svg"
    assert main(["render", "--position", name, "--out", str(out)]) == 0
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    drawn = {el.get("data-unit") for el in root.iter() if el.get("data-unit")}
    assert drawn == {uid for uid, u in load_position(name, SCENARIO).units.items() if u.on_map}


def test_render_takes_a_code_and_refuses_a_bad_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = position_code(load_position("massaua", SCENARIO))
    assert main(["render", "--position", code, "--out", str(tmp_path / "m.svg")]) == 0
    assert main(["render", "--position", code[:-8] + "!!", "--out", str(tmp_path / "x.svg")]) == 1
    assert "position code: character" in capsys.readouterr().err
    assert not (tmp_path / "x.svg").exists()


def test_editor_warnings_name_the_rule_and_the_hex() -> None:
    position = load_position("agordat", SCENARIO)
    position.set_control("Biscia", Side.ITALIAN)
    problems = position_problems(position, next_check=True)
    found = [(p.severity, p.rule, p.hex.label if p.hex else None) for p in problems]
    assert found[0] == ("warning", "2.1", "1308")
    assert "Biscia (1308) holds Allied units but is under Italian control" in str(problems[0])
    assert ("warning", "12.6", "0418") in found  # the Om Ager battalion: Low now, No and a lost step next check
    # an Italian Biscia cuts the road behind the 4th Division: its units would be marked Low (12.1, 12.4)
    assert ("warning", "12.4", "1608") in found and ("warning", "12.4", "1709") in found
    position.set_control("Biscia", Side.ALLIED)
    assert [(p.rule, p.unit) for p in position_problems(position, next_check=True)] == [("12.6", "col_bn_om_ager")]
    position.set_control("Biscia", Side.ALLIED)
    position.set_turn(3, Side.ALLIED, Phase.REINFORCEMENT)  # the Italian supply check has just run
    position.set_supply("col_bn_om_ager", None)
    problems = position_problems(position)
    assert [(p.rule, p.unit) for p in problems] == [("12.4", "col_bn_om_ager")]
    assert "Col bn (Om Ager) cannot draw supply, yet the check just made left it without a Low marker" in str(
        problems[0]
    )
