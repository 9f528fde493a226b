"""Hostile and careless input (issue 14): every file, save and command is refused with a clear
message, bounded in time and memory, reading nothing outside where it was pointed, and losing
nothing already done."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cheren import load_scenario
from cheren.cli.main import main
from cheren.engine.game import Game
from cheren.engine.opening import initial_position
from cheren.files.position_saves import SaveError, dumps, loads, read_position_save
from cheren.scenario import ScenarioError
from cheren.scenario.loader import bundled_scenario_dir
from cheren.study.game_saves import dumps_game, loads_game, save_game

SCENARIO = load_scenario()
BUNDLED = bundled_scenario_dir()


def scenario_copy(tmp_path: Path) -> Path:
    target = tmp_path / "scenario"
    shutil.copytree(BUNDLED, target, ignore=shutil.ignore_patterns("positions"))
    return target


def refused(directory: Path) -> str:
    with pytest.raises(ScenarioError) as info:
        load_scenario(directory)
    return str(info.value)


# -- scenario files ---------------------------------------------------------------------------------
def test_deeply_nested_yaml_is_refused_not_a_recursion_error(tmp_path: Path) -> None:
    d = scenario_copy(tmp_path)
    (d / "crt.yaml").write_text("columns: " + "[" * 500 + "]" * 500 + "\n", encoding="utf-8")
    assert "crt.yaml: not valid YAML at line 1" in refused(d) and "nested more than 50 levels" in refused(d)


def test_only_regular_files_of_bounded_size_are_read(tmp_path: Path) -> None:
    d = scenario_copy(tmp_path)
    (d / "map.yaml").unlink()
    (d / "map.yaml").symlink_to("/dev/zero")
    assert "files.map: must name a file inside the scenario folder" in refused(d)  # not read at all
    (d / "map.yaml").unlink()
    os.mkfifo(d / "map.yaml")
    t0 = time.monotonic()
    assert "map.yaml: not a regular file" in refused(d)
    assert time.monotonic() - t0 < 5  # refused, not read forever
    (d / "map.yaml").unlink()
    (d / "map.yaml").write_text("#" * 3_000_000, encoding="utf-8")
    assert "larger than the 2,000,000-byte limit" in refused(d)


def test_scenario_files_stay_inside_the_scenario_folder(tmp_path: Path) -> None:
    secret = tmp_path / "secret.yaml"
    secret.write_text("password: SECRET-VALUE\n", encoding="utf-8")
    d = scenario_copy(tmp_path)
    text = (d / "scenario.yaml").read_text(encoding="utf-8")
    for bad in ("../secret.yaml", str(secret)):
        (d / "scenario.yaml").write_text(text.replace("map: map.yaml", f"map: {json.dumps(bad)}"), encoding="utf-8")
        message = refused(d)
        assert "files.map: must name a file inside the scenario folder" in message
        assert "SECRET" not in message
    link = d / "map.yaml"
    link.unlink()
    link.symlink_to(secret)  # a link leading out of the folder is refused too
    (d / "scenario.yaml").write_text(text, encoding="utf-8")
    message = refused(d)
    assert "inside the scenario folder" in message and "SECRET" not in message


def test_alias_bombs_and_huge_quoted_values_are_bounded(tmp_path: Path) -> None:
    d = scenario_copy(tmp_path)
    big = "x" * 1_000_000
    bomb = f"a: &big {big}\nitems: [" + ", ".join(["*big"] * 800) + "]\n"
    (d / "chits.yaml").write_text(bomb, encoding="utf-8")
    message = refused(d)
    assert "more than 100 aliases" in message and len(message) < 2_000
    (d / "chits.yaml").write_text(f"hand_size: {big}\nchits: []\n", encoding="utf-8")
    message = refused(d)
    assert len(message) < 4_000


def test_duplicate_yaml_keys_are_refused(tmp_path: Path) -> None:
    d = scenario_copy(tmp_path)
    text = (d / "chits.yaml").read_text(encoding="utf-8")
    (d / "chits.yaml").write_text(text.replace("hand_size: 4", "hand_size: 4\nhand_size: 9"), encoding="utf-8")
    assert "the key hand_size appears twice in one mapping" in refused(d)


def test_bundled_data_read_fast_is_what_the_bounded_loader_reads(tmp_path: Path) -> None:
    # the bundled files go through libyaml (the app's start waits for them, issue 29): the same
    # values, and a duplicate key still refused with the bounded loader's message
    from cheren.scenario.safe_yaml import load_file, parse

    for path in sorted(BUNDLED.glob("*.yaml")):
        assert load_file(path, path.name, bundled=True) == parse(path.read_text(encoding="utf-8"), path.name)
    twice = tmp_path / "chits.yaml"
    twice.write_text("hand_size: 4\nhand_size: 9\n", encoding="utf-8")
    with pytest.raises(ValueError, match="the key hand_size appears twice in one mapping"):
        load_file(twice, "chits.yaml", bundled=True)


def test_scenario_data_that_validates_must_play(tmp_path: Path) -> None:
    d = scenario_copy(tmp_path)
    terrain = (d / "terrain.yaml").read_text(encoding="utf-8")
    (d / "terrain.yaml").write_text(terrain.replace("move_cost: 1\n", "move_cost: .inf\n", 1), encoding="utf-8")
    assert "terrain.yaml: terrain[0] (clear).move_cost" in refused(d)
    (d / "terrain.yaml").write_text(terrain.replace("move_cost: 1\n", "move_cost: 0\n", 1), encoding="utf-8")
    assert "greater than 0" in refused(d)
    (d / "terrain.yaml").write_text(terrain, encoding="utf-8")
    chits = (d / "chits.yaml").read_text(encoding="utf-8")
    (d / "chits.yaml").write_text(chits.replace("params: {columns: 1}", "params: {columns: lots}", 1), encoding="utf-8")
    assert "params.columns: must be a whole number from 1 to 3, not 'lots'" in refused(d)
    (d / "chits.yaml").write_text(chits.replace("params: {mp: 2}", "params: {speed: 2}", 1), encoding="utf-8")
    assert "params.speed: the forced_march effect takes no such parameter (it takes: mp)" in refused(d)


# -- saves ---------------------------------------------------------------------------------------------
def game_text() -> str:
    g = Game(SCENARIO, seed=4)
    for _ in range(12):
        g.apply(g.legal_actions()[-1])
    return dumps_game(g)


def bad_save(change: Any) -> str:
    data = json.loads(game_text())
    change(data)
    with pytest.raises(SaveError) as info:
        loads_game(json.dumps(data), SCENARIO, source="g.json")
    return str(info.value)


def test_a_save_nested_100000_deep_is_refused() -> None:
    with pytest.raises(SaveError, match="nested too deeply"):
        loads_game("[" * 100_000, SCENARIO, source="deep.json")


def test_game_save_actions_of_the_wrong_shape_name_their_index() -> None:
    assert "g.json: actions[3]: an action is a JSON object, not str" in bad_save(
        lambda d: d["actions"].__setitem__(3, "move")
    )
    assert "g.json: actions[0]: " in bad_save(
        lambda d: d["actions"].__setitem__(0, {"kind": "move", "unit": "ind_5", "path": []})
    )
    assert "actions[1]: action move: path: expected a list" in bad_save(
        lambda d: d["actions"].__setitem__(1, {"kind": "move", "unit": "ind_5", "path": "0101"})
    )
    assert "actions[2]: " in bad_save(lambda d: d["actions"].__setitem__(2, {"kind": "end_phase", "x": 1}))
    assert "g.json: actions[4]: " in bad_save(lambda d: d["actions"].insert(4, {"kind": "replace", "unit": "ind_5"}))
    text = game_text().replace('"seed": 4', '"seed": ' + "9" * 5000)
    with pytest.raises(SaveError, match="not a readable save"):
        loads_game(text, SCENARIO, source="huge.json")
    assert "seed: must be a whole number" in bad_save(lambda d: d.__setitem__("seed", True))


def position_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(dumps(initial_position(SCENARIO, seed=3)))
    return data


def bad_position(change: Any) -> str:
    data = position_data()
    change(data)
    with pytest.raises(SaveError) as info:
        loads(json.dumps(data), SCENARIO, source="p.json")
    return str(info.value)


def test_a_position_save_of_an_impossible_state_is_refused() -> None:
    def swap_side(d: dict[str, Any]) -> None:
        d["units"]["ind_10"]["side"] = "italian"

    assert "units.ind_10 [hex 0208]: 10 Ind fights for the Allied side (2.3)" in bad_position(swap_side)

    def both_sides(d: dict[str, Any]) -> None:
        d["units"]["col_2"]["hex"] = "0208"

    assert "0208 holds units of both sides" in bad_position(both_sides)

    def marker_off_map(d: dict[str, Any]) -> None:
        d["units"]["ind_5"]["supply"] = "low"

    assert "5 Ind is not on the map but carries a supply marker (12.4)" in bad_position(marker_off_map)
    assert "dice.state: String should match pattern" in bad_position(
        lambda d: d["dice"].__setitem__("state", "0x" + "f" * 17)
    )
    assert "units.ind_10.steps_lost: Input should be a valid integer" in bad_position(
        lambda d: d["units"]["ind_10"].__setitem__("steps_lost", True)
    )
    assert "turn: Input should be a valid integer" in bad_position(lambda d: d.__setitem__("turn", "7"))


def test_a_save_must_be_a_regular_file(tmp_path: Path) -> None:
    link = tmp_path / "zero.json"
    link.symlink_to("/dev/zero")
    with pytest.raises(SaveError, match="not a regular file"):
        read_position_save(link, SCENARIO)


def test_every_position_of_real_play_saves_and_loads() -> None:
    from cheren.players.bots import make_bot
    from cheren.players.views import SideSeat
    from cheren.scenario import Side

    for seed in (1, 2):
        g = Game(SCENARIO, seed=seed)
        bots = {side: make_bot("random", seed) for side in Side}
        while not g.over and len(g.log) < 700:
            side = g.acting
            g.apply(bots[side].choose(SideSeat(g, side)).action)
            if len(g.log) % 37 == 0:
                assert loads(dumps(g.position), SCENARIO).units == g.position.units


# -- the fuzz test over files --------------------------------------------------------------------------
SCENARIO_FILES = sorted(p.name for p in BUNDLED.glob("*.yaml"))


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    file=st.sampled_from(SCENARIO_FILES),
    at=st.integers(0, 10**6),
    cut=st.integers(0, 40),
    insert=st.sampled_from(["", "[", "{", ":", "- ", "&a ", "*a", "\n  x: 1\n", "\t", "'", "\x00", "9" * 50]),
)
def test_fuzz_scenario_files_give_only_scenario_errors(
    tmp_path: Path, file: str, at: int, cut: int, insert: str
) -> None:
    d = tmp_path / f"fuzz-{file}-{at}-{cut}-{len(insert)}"
    if not d.exists():
        shutil.copytree(BUNDLED, d, ignore=shutil.ignore_patterns("positions"))
    text = (BUNDLED / file).read_text(encoding="utf-8")
    i = at % (len(text) + 1)
    (d / file).write_text(text[:i] + insert + text[i + cut :], encoding="utf-8")
    with contextlib.suppress(ScenarioError):
        load_scenario(d)


SAVE = game_text()


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    at=st.integers(0, 10**6),
    cut=st.integers(0, 30),
    insert=st.sampled_from(["", "[", "]", "{", "}", ",", '"', "0", "-1", "true", "null", "1e999", '"x"']),
)
def test_fuzz_game_saves_give_only_save_errors(at: int, cut: int, insert: str) -> None:
    i = at % (len(SAVE) + 1)
    with contextlib.suppress(SaveError):
        loads_game(SAVE[:i] + insert + SAVE[i + cut :], SCENARIO, source="fuzz.json")


# -- the command line ----------------------------------------------------------------------------------
def test_every_subcommand_fails_with_one_line_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = [
        (["validate", str(tmp_path / "nowhere")], 1, "scenario directory not found"),
        (
            ["render", "--position", str(tmp_path / "missing.json"), "--out", str(tmp_path / "x.svg")],
            1,
            "missing.json: file not found",
        ),
        (["render", "--out", str(tmp_path / "no" / "such" / "x.svg")], 1, "does not exist"),
        (["simulate", "--games", "0"], 2, "--games must be from 1 to 100,000"),
        (["simulate", "--games", "-3"], 2, "--games must be from 1 to 100,000"),
        (["simulate", "--games", "2", "--jobs", "100000"], 2, "--jobs must be from 1 to"),
        (["simulate", "--games", "2", "--jobs", "0"], 2, "--jobs must be from 1 to"),
        (["analyse", "agordat", "--jobs", "0"], 2, "--jobs must be from 1 to"),
        (["positions", "nowhere"], 1, "not a library position"),
        (["simulate", "--games", "1", "--resume", str(tmp_path / "none.json")], 1, "file not found"),
    ]
    for argv, status, text in cases:
        assert main(argv) == status, argv
        err = capsys.readouterr().err
        assert text in err and "Traceback" not in err, (argv, err)


def test_outputs_are_checked_first_atomic_and_never_overwritten_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.json"
    out.write_text("precious", encoding="utf-8")
    t0 = time.monotonic()
    assert main(["simulate", "--games", "50", "--out", str(out), "--quiet"]) == 1
    assert time.monotonic() - t0 < 5 and out.read_text() == "precious"  # refused before playing
    assert "exists; add --force to replace it" in capsys.readouterr().err
    os.chmod(out, 0o640)
    real = tmp_path / "real.json"
    out.rename(real)
    out.symlink_to(real)
    assert main(["simulate", "--games", "1", "--out", str(out), "--quiet", "--force"]) == 0
    assert out.is_symlink() and json.loads(real.read_text())["run"]["games"] == 1
    assert oct(real.stat().st_mode & 0o777) == "0o640"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    capsys.readouterr()
    assert main(["simulate", "--games", "1", "--out", "-", "--quiet"]) == 0
    printed = capsys.readouterr().out
    assert json.loads(printed)["run"]["games"] == 1


def test_results_csv_cells_are_neutralised_against_formulas(tmp_path: Path) -> None:
    from cheren.players.simulate import GameResult, results_csv

    row = GameResult(0, 1, "=cmd|'/c calc'!A1", "+1", 3, "-2", "@x", 0, 0, 1)
    text = results_csv([row])
    assert "'=cmd" in text and ",'+1," in text and "'-2" in text and "'@x" in text


def crash_on_seed(seed: int) -> Any:
    """A bot that makes its worker process die in the game with this seed."""
    from cheren.players.bots.random_bot import RandomBot

    class Crash(RandomBot):
        def choose(self, seat: Any) -> Any:
            if getattr(seat.game, "seed", None) == seed:
                os._exit(13)
            return super().choose(seat)

    return Crash


def test_a_crashed_worker_costs_one_game_reported_as_failed() -> None:
    from cheren.players.bots import BOTS
    from cheren.players.simulate import FailedGame, game_seeds, simulate

    seeds = game_seeds(9, 6)
    BOTS["crash-test"] = crash_on_seed(seeds[2])
    try:
        failed: list[FailedGame] = []
        results = simulate(6, 9, "crash-test", "random", jobs=2, failed=failed)
    finally:
        del BOTS["crash-test"]
    assert [f.index for f in failed] == [2] and "died" in failed[0].error
    assert [r.index for r in results] == [0, 1, 3, 4, 5]


def test_ctrl_c_keeps_the_finished_games_and_resume_finishes_the_run(tmp_path: Path) -> None:
    from tests.hostile.runs import interrupt

    out = tmp_path / "sweep.json"
    argv = ["simulate", "--games", "12", "--jobs", "2", "--seed", "3", "--out", str(out)]
    status, err = interrupt(argv, tmp_path, signal.SIGTERM)  # once the first game is done
    assert status == 130, err
    data = json.loads(out.read_text())
    done = len(data["games"])
    assert data["run"]["partial"] is True and 1 <= done < 12, err
    leftover = subprocess.run(["pgrep", "-f", "cheren.cli.main simulate --games 12 --jobs 2 --seed 3"],
                              capture_output=True, text=True)
    assert not leftover.stdout.strip(), "no worker outlives the run"
    # resume: only the missing games are played, into the same file
    assert main(["simulate", "--resume", str(out), "--jobs", "2", "--quiet"]) == 0
    data = json.loads(out.read_text())
    assert data["run"]["partial"] is False and [g["index"] for g in data["games"]] == list(range(12))
    from cheren.players.simulate import simulate

    assert [g["allied_vp"] for g in data["games"]][:5] == [r.allied_vp for r in simulate(5, 3)]


def test_loading_a_long_save_keeps_the_last_undo_steps_and_no_more(tmp_path: Path) -> None:
    from cheren.engine.actions import Commit, Uncommit
    from cheren.files import load_position
    from cheren.hexes import Hex
    from cheren.study.game_saves import UNDO_AFTER_LOAD, load_game

    g = Game.from_position(load_position("cheren-first-assault", SCENARIO))
    for _ in range(UNDO_AFTER_LOAD):
        g.apply(Commit("ind_11", Hex.from_label("2106")))
        g.apply(Uncommit("ind_11", Hex.from_label("2106")))
    save_game(g, tmp_path / "long.json")
    back = load_game(tmp_path / "long.json", SCENARIO)
    assert len(back.log) == 2 * UNDO_AFTER_LOAD
    for _ in range(UNDO_AFTER_LOAD):
        back.undo()
    assert not back.can_undo() and len(back.log) == UNDO_AFTER_LOAD
