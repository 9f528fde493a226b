"""Reading a scenario directory: safe YAML, pydantic validation, cross-file checks, compile."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from cheren.scenario.checks import cross_check
from cheren.scenario.compiled import Scenario
from cheren.scenario.errors import Problem, ScenarioError
from cheren.scenario.models import ChitChart, CombatTable, CounterSheet, MapData, ScenarioFile, TerrainKey
from cheren.scenario.resources import scenario_dir

M = TypeVar("M", bound=BaseModel)

SCENARIO_FILE = "scenario.yaml"
BUNDLED = scenario_dir()  # the repository's scenarios/, or the installed data files (cheren.scenario.resources)

FILE_MODELS: dict[str, type[BaseModel]] = {
    "terrain": TerrainKey,
    "map": MapData,
    "counters": CounterSheet,
    "crt": CombatTable,
    "chits": ChitChart,
}


def bundled_scenario_dir() -> Path:
    """The directory of the bundled Road to CHEREN reconstruction."""
    return BUNDLED


def read_yaml(path: Path, problems: list[Problem]) -> dict[str, Any] | None:
    """A data file read safely (:mod:`cheren.scenario.safe_yaml`: regular files only, bounded size,
    nesting and aliases, no duplicate keys), or None with the problem noted."""
    from cheren.scenario.safe_yaml import YamlInputError, load_file

    name = path.name
    try:
        data = load_file(path, name, bundled=path.parent == BUNDLED)
    except YamlInputError as exc:
        problems.append(Problem(name, None, str(exc).removeprefix(f"{name}: ")))
        return None
    if not isinstance(data, dict):
        problems.append(Problem(name, None, f"the file must hold a mapping of fields, not {type(data).__name__}"))
        return None
    return data


def inside(root: Path, filename: str) -> Path | None:
    """``root / filename`` when the name stays inside the scenario folder (no absolute path, no
    '..', no link leading out), else None: a scenario never reads files elsewhere."""
    if not filename or Path(filename).is_absolute() or ".." in Path(filename).parts or "\x00" in filename:
        return None
    target = (root / filename).resolve()
    try:
        target.relative_to(root.resolve())
    except ValueError:
        return None
    return target


def validate_model(model: type[M], data: dict[str, Any], file: str, problems: list[Problem]) -> M | None:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        seen: set[tuple[str, str]] = set()
        for err in exc.errors():
            if not _branch_matches(err["loc"], data):
                continue
            problem = Problem(file, _die_rows(_field_path(err["loc"], data), model), _message(err))
            if (problem.field or "", problem.message) not in seen:
                seen.add((problem.field or "", problem.message))
                problems.append(problem)
        return None


def _die_rows(path: str, model: type[BaseModel]) -> str:
    """CRT cells are listed for die rolls 1..6; name them so, not by a 0-based index."""
    if model.__name__ != "CombatTable":
        return path
    return re.sub(
        r"^(columns\.[0-9]+-[0-9]+)\[(\d)\]", lambda m: f"{m.group(1)} (die roll {int(m.group(2)) + 1})", path
    )


def _is_type_tag(part: Any, node: Any) -> bool:
    """pydantic names the branch of a union in ``loc`` ('Provenance', 'dict[str,Provenance]');
    such tags are not fields anyone wrote."""
    return isinstance(part, str) and not (isinstance(node, dict) and part in node) and (
        part[:1].isupper() or "[" in part
    )


def _branch_matches(loc: tuple[Any, ...], data: Any) -> bool:
    """Of a union's per-branch errors keep the branch that fits the value's shape: a mapping
    was meant for the ``dict[...]`` branch, anything else for the other one."""
    node = data
    for part in loc:
        if _is_type_tag(part, node):
            return isinstance(node, dict) == str(part).startswith("dict[")
        if isinstance(part, int):
            node = node[part] if isinstance(node, list) and 0 <= part < len(node) else None
        else:
            node = node.get(part) if isinstance(node, dict) else None
    return True


def _message(err: Any) -> str:
    msg = str(err["msg"])
    # pydantic prefixes messages raised in validators; the prefix says nothing to a data editor
    for prefix in ("Value error, ", "Assertion failed, "):
        if msg.startswith(prefix):
            msg = msg[len(prefix) :]
    if err["type"] == "extra_forbidden":
        msg = "unknown field (check the spelling; see `cheren schema`)"
    if err["type"] == "missing":
        msg = "required field is missing"
    return msg


def _field_path(loc: tuple[Any, ...], data: Any) -> str:
    """('counters', 3, 'arrival') -> "counters[3] (ind_5).arrival", naming list items by id."""
    out = ""
    node = data
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
            node = node[part] if isinstance(node, list) and 0 <= part < len(node) else None
            if isinstance(node, dict):
                ident = node.get("id") or node.get("key") or node.get("name") or node.get("unit")
                if isinstance(ident, str):
                    out += f" ({ident})"
        else:
            if _is_type_tag(part, node):
                continue
            out += ("." if out else "") + str(part)
            node = node.get(part) if isinstance(node, dict) else None
    return out or "(top level)"


def load_scenario(directory: str | Path | None = None) -> Scenario:
    """Load, validate and compile a scenario directory (the bundled one by default).

    Raises :class:`ScenarioError` listing every problem found, each naming its file and field.
    """
    root = Path(directory) if directory is not None else BUNDLED
    problems: list[Problem] = []
    if not root.is_dir():
        raise ScenarioError([Problem(str(root), None, "scenario directory not found")])
    top = read_yaml(root / SCENARIO_FILE, problems)
    if top is None:
        raise ScenarioError(problems)
    scenario_file = validate_model(ScenarioFile, top, SCENARIO_FILE, problems)
    if scenario_file is None:
        raise ScenarioError(problems)

    parts: dict[str, BaseModel] = {}
    for role, model in FILE_MODELS.items():
        filename = scenario_file.files.get(role)  # type: ignore[call-overload]
        if filename is None:
            problems.append(Problem(SCENARIO_FILE, f"files.{role}", f"no file given for the {role} data"))
            continue
        if inside(root, filename) is None:
            problems.append(Problem(SCENARIO_FILE, f"files.{role}",
                                    "must name a file inside the scenario folder (no absolute path, no '..')"))
            continue
        if (root / filename).exists() and not (root / filename).is_file():
            problems.append(Problem(filename, None, "not a regular file (a folder, device or pipe); refused"))
            continue
        if not (root / filename).is_file():
            missing = f"the {role} file {filename!r} does not exist in {root}"
            problems.append(Problem(SCENARIO_FILE, f"files.{role}", missing))
            continue
        data = read_yaml(root / filename, problems)
        if data is None:
            continue
        parsed = validate_model(model, data, filename, problems)
        if parsed is not None:
            parts[role] = parsed
    if problems:
        raise ScenarioError(problems)

    terrain = parts["terrain"]
    map_data = parts["map"]
    counters = parts["counters"]
    crt = parts["crt"]
    chits = parts["chits"]
    assert isinstance(terrain, TerrainKey) and isinstance(map_data, MapData)
    assert isinstance(counters, CounterSheet) and isinstance(crt, CombatTable)
    assert isinstance(chits, ChitChart)
    names = {role: scenario_file.files[role] for role in FILE_MODELS}  # type: ignore[index]
    cross_check(scenario_file, terrain, map_data, counters, crt, chits, names, problems)
    if problems:
        raise ScenarioError(problems)
    return Scenario(root, scenario_file, terrain, map_data, counters, crt, chits, digest=_digest(root, names))


def _digest(root: Path, names: dict[str, str]) -> str:
    """A fingerprint of the files as read now, so a save is never applied to other data."""
    h = hashlib.sha256()
    for name in [SCENARIO_FILE, *names.values()]:
        h.update(name.encode())
        h.update((root / name).read_bytes())
    return h.hexdigest()[:16]

