"""The `cheren` command: validate, schema, render."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cheren.cli.main import main
from cheren.engine.opening import initial_position
from cheren.files.position_saves import save_position
from cheren.scenario import load_scenario


def test_validate_bundled_scenario_passes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("OK ")
    assert "The Road to CHEREN" in out


def test_validate_reports_problems_and_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "scenario.yaml"
    bad.write_text("format_version: 1\nname: [unclosed\n", encoding="utf-8")
    assert main(["validate", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "scenario.yaml" in err and "not valid YAML" in err


def test_schema_lists_every_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0
    schemas = json.loads(capsys.readouterr().out)
    assert set(schemas) == {
        "scenario.yaml", "terrain file", "map file", "counters file", "crt file", "chits file", "position file",
        "lesson file",
    }
    assert "towns" in schemas["map file"]["properties"]


def test_render_opening_setup(tmp_path: Path) -> None:
    out = tmp_path / "map.svg"
    assert main(["render", "--out", str(out)]) == 0
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    assert root.tag.endswith("svg")
    scenario = load_scenario()
    position = initial_position(scenario)
    on_map = {u.id for u in position.units.values() if u.on_map}
    drawn = {el.get("data-unit") for el in root.iter() if el.get("data-unit")}
    assert drawn == on_map


def test_render_saved_position(tmp_path: Path) -> None:
    scenario = load_scenario()
    position = initial_position(scenario)
    moved = next(u for u in position.units.values() if u.on_map and not scenario.units[u.id].is_native)
    target = next(h for h in sorted(scenario.playable) if not position.units_at(h))
    position.place(moved.id, target)
    save = tmp_path / "pos.json"
    save_position(position, save)
    out = tmp_path / "map.svg"
    assert main(["render", "--position", str(save), "--out", str(out)]) == 0
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    groups = [el for el in root.iter() if el.get("data-unit") == moved.id]
    assert len(groups) == 1


def test_render_refuses_a_corrupt_save(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "broken.json"
    save.write_text('{"format": "cheren-position", "version": 1, ', encoding="utf-8")
    assert main(["render", "--position", str(save), "--out", str(tmp_path / "x.svg")]) == 1
    assert "broken.json" in capsys.readouterr().err
    assert not (tmp_path / "x.svg").exists()


def test_the_schema_command_offers_every_scenario_file_and_cheren_app_starts_without_the_models() -> None:
    """`cheren schema --file` names the file roles without loading the file models (the launcher
    starts its server first, cheren.cli.main): the names are the loader's."""
    import subprocess
    import sys

    from cheren.cli.main import FILE_ROLES
    from cheren.scenario.loader import FILE_MODELS

    assert tuple(FILE_MODELS) == FILE_ROLES
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, cheren.cli.main, cheren.app.launch; cheren.app.launch.lessons_env(None); "
         "print(sorted(m for m in sys.modules if m.startswith(('cheren.scenario.', 'cheren.engine', 'pydantic'))))"],
        capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "['cheren.scenario.resources']", loaded
