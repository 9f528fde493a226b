"""Build small, complete, valid scenario directories from Python, for rule and loader tests.

``write_scenario(directory, ...)`` writes the six files of a scenario (scenario.yaml, terrain.yaml,
map.yaml, counters.yaml, crt.yaml, chits.yaml) and returns the directory;
``mini_scenario(directory, ...)`` also loads it.  Every argument has a sensible default, so a test
names only what it cares about:

    write_scenario(tmp_path, terrain=["....", ".hM.", "...."],
                   towns=[town("Alpha", "0101", vp=30, letter="A")],
                   roads=[["0101", "0201"]])

Records given without a ``provenance`` get a neutral one.  To inject bad data, pass ``mutate``: it
receives the dict ``{file name: content}`` just before writing and may change it in place or
return a replacement.  A content that is a ``str`` is written verbatim (for invalid YAML); a
content of ``None`` leaves the file out (for a missing file).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from cheren.scenario import Scenario, load_scenario

Record = dict[str, Any]
Files = dict[str, Any]
Mutator = Callable[[Files], Files | None]

PROVENANCE = "reconstructed: test scenario"

SCENARIO = "scenario.yaml"
TERRAIN = "terrain.yaml"
MAP = "map.yaml"
COUNTERS = "counters.yaml"
CRT = "crt.yaml"
CHITS = "chits.yaml"
FILE_NAMES: dict[str, str] = {
    "terrain": TERRAIN,
    "map": MAP,
    "counters": COUNTERS,
    "crt": CRT,
    "chits": CHITS,
}

# 5 columns x 4 rows.  Column 5 is sea in rows 3 and 4 (unplayable).
DEFAULT_TERRAIN: tuple[str, ...] = (
    ".....",
    ".hM..",
    "..r.~",
    "C...~",
)

# The victory scale of rule 14.0 (Allied VP), as in the bundled scenario.yaml.
VICTORY_14_0: tuple[Record, ...] = (
    {"max_vp": 17, "level": "Italian major victory", "winner": "italian"},
    {"min_vp": 18, "max_vp": 19, "level": "Italian fair victory", "winner": "italian"},
    {"min_vp": 20, "max_vp": 20, "level": "Italian minor victory", "winner": "italian"},
    {"min_vp": 21, "max_vp": 21, "level": "Draw"},
    {"min_vp": 22, "max_vp": 23, "level": "Allied minor victory", "winner": "allied"},
    {"min_vp": 24, "max_vp": 25, "level": "Allied fair victory", "winner": "allied"},
    {"min_vp": 26, "level": "Allied major victory", "winner": "allied"},
)

# The nine columns of rule 11.5 (no 4-1), results for die rolls 1..6.
DEFAULT_CRT: dict[str, list[str]] = {
    "1-3": ["2/0", "2/0", "1/0", "1/0", "1/0", "1/0r"],
    "1-2": ["2/0", "1/0", "1/0", "1/0", "1/0r", "1/1r"],
    "1-1": ["1/0", "1/0", "1/0", "1/0r", "1/1r", "1/1r"],
    "2-1": ["1/0", "1/0", "1/0r", "1/1r", "1/1r", "0/1r"],
    "3-1": ["1/0", "1/0r", "1/1r", "1/1r", "0/1r", "0/2r"],
    "5-1": ["1/0r", "1/1r", "0/1r", "0/1r", "0/2r", "0/2r"],
    "7-1": ["1/1r", "0/1r", "0/1r", "0/2r", "0/2r", "0/3r"],
    "10-1": ["0/1r", "0/1r", "0/2r", "0/2r", "0/3r", "0/3r"],
    "13-1": ["0/1r", "0/2r", "0/2r", "0/3r", "0/3r", "0/4r"],
}

DEFAULT_TERRAIN_KEY: tuple[Record, ...] = (
    {
        "key": "clear",
        "char": ".",
        "name": "Clear",
        "move_cost": 1,
        "stack_limit": 6,
        "column_shift": 0,
        "colour": "#efe4bd",
    },
    {
        "key": "rough",
        "char": "r",
        "name": "Rough",
        "move_cost": 2,
        "stack_limit": 5,
        "column_shift": 1,
        "colour": "#d8bf86",
    },
    {
        "key": "hills",
        "char": "h",
        "name": "Hills",
        "move_cost": 3,
        "stack_limit": 4,
        "column_shift": 1,
        "hill": True,
        "colour": "#b9975a",
    },
    {
        "key": "mountain",
        "char": "M",
        "name": "Mountain",
        "move_cost": 4,
        "stack_limit": 3,
        "column_shift": 2,
        "mountain": True,
        "colour": "#8c6b45",
    },
    {
        "key": "city",
        "char": "C",
        "name": "City",
        "move_cost": 1,
        "stack_limit": 8,
        "column_shift": 1,
        "colour": "#c8bfb2",
    },
    {
        "key": "sea",
        "char": "~",
        "name": "Sea",
        "move_cost": None,
        "stack_limit": 0,
        "column_shift": 0,
        "playable": False,
        "colour": "#a9cbe3",
    },
)

DEFAULT_UNIT_TYPES: tuple[Record, ...] = (
    {
        "key": "infantry",
        "name": "Infantry",
        "symbol": "infantry",
        "may_enter_mountain": True,
        "support": False,
        "may_exploit": False,
        "motorized": False,
    },
    {
        "key": "mountain_infantry",
        "name": "Mountain infantry",
        "symbol": "mountain",
        "may_enter_mountain": True,
        "support": False,
        "may_exploit": False,
        "motorized": False,
    },
    {
        "key": "artillery",
        "name": "Artillery",
        "symbol": "artillery",
        "may_enter_mountain": False,
        "support": True,
        "may_exploit": False,
        "motorized": False,
        "artillery": True,
    },
    {
        "key": "tank",
        "name": "Tank",
        "symbol": "tank",
        "may_enter_mountain": False,
        "support": True,
        "may_exploit": True,
        "motorized": True,
    },
)

# Six chits a side (more than a hand of four, so the cup is never empty after setup).
DEFAULT_CHITS: tuple[Record, ...] = (
    {
        "key": "infiltrate",
        "name": "Infiltrate",
        "side": "allied",
        "count": 3,
        "windows": [{"phase": "movement", "player": "phasing"}],
        "effect": "infiltrate",
        "text": "One allied unit ignores ZoC for this phase.",
    },
    {
        "key": "barrage",
        "name": "Barrage",
        "side": "allied",
        "count": 2,
        "windows": [{"phase": "combat", "player": "phasing"}],
        "effect": "win_support",
        "text": "The allies win the support comparison.",
    },
    {
        "key": "air_strike",
        "name": "Air strike",
        "side": "allied",
        "count": 1,
        "one_time": True,
        "windows": [{"phase": "combat", "player": "phasing"}],
        "effect": "column_shift",
        "params": {"columns": 1},
        "text": "One column to the right.",
    },
    {
        "key": "roadblock",
        "name": "Roadblock",
        "side": "italian",
        "count": 3,
        "windows": [{"phase": "movement", "player": "non_phasing"}],
        "effect": "roadblock",
        "text": "A road hex gives no road movement.",
    },
    {
        "key": "ambush",
        "name": "Ambush",
        "side": "italian",
        "count": 2,
        "windows": [{"phase": "combat", "player": "non_phasing"}],
        "effect": "column_shift",
        "params": {"columns": 1},
        "text": "One column to the left.",
    },
    {
        "key": "reserves",
        "name": "Reserves",
        "side": "italian",
        "count": 1,
        "windows": [{"phase": "reaction", "player": "non_phasing"}],
        "effect": "reaction_limit",
        "params": {"limit": 5},
        "text": "Reaction may move 5 instead of 3.",
    },
)


def town(name: str, hex: str, *, vp: int = 0, letter: str | None = None, **extra: Any) -> Record:
    """A town record for ``towns=``."""
    record: Record = {"name": name, "hex": hex, "vp": vp, **extra}
    if letter is not None:
        record["letter"] = letter
    return record


def counter(
    id: str,
    side: str,
    *,
    letter: str | None = None,
    turn: int | None = None,
    faces: Sequence[tuple[int, int]] = ((4, 4),),
    type: str = "infantry",
    size: str = "battalion",
    **extra: Any,
) -> Record:
    """A counter record for ``counters=``.  ``letter``/``turn`` make its arrival; faces are (sp, mp)."""
    record: Record = {
        "id": id,
        "name": id.replace("_", " ").title(),
        "side": side,
        "type": type,
        "size": size,
        "faces": [{"sp": sp, "mp": mp} for sp, mp in faces],
        "colour": "red" if side == "allied" else "green",
    }
    if letter is not None:
        arrival: Record = {"letter": letter}
        if turn is not None:
            arrival["turn"] = turn
        record["arrival"] = arrival
    record.update(extra)
    return record


def default_towns() -> list[Record]:
    # 30 VP in all, so the top band of rule 14.0 (26 VP) is reachable.
    return [
        town("Alpha", "0101", vp=15, letter="A"),
        town("Bravo", "0104", vp=15, letter="B", kind="city"),
    ]


def default_counters(letters: Sequence[str] = ("A", "B")) -> list[Record]:
    """One counter a side: the allied one at the first setup letter, the Italian at the second."""
    allied = letters[0] if letters else "A"
    italian = letters[1] if len(letters) > 1 else allied
    return [
        counter("ind_5", "allied", letter=allied, faces=((8, 5), (6, 5)), size="brigade"),
        counter("it_1", "italian", letter=italian, faces=((2, 4),)),
    ]


def _sourced(record: Mapping[str, Any]) -> Record:
    out = copy.deepcopy(dict(record))
    out.setdefault("provenance", PROVENANCE)
    return out


def _route(index: int, kind: str, spec: Sequence[str] | Mapping[str, Any], key: str) -> Record:
    if isinstance(spec, Mapping):
        return _sourced(spec)
    return _sourced({"name": f"{kind} {index + 1}", key: list(spec)})


def _block(rows: Sequence[str]) -> str:
    return "".join(f"{row}\n" for row in rows)


def scenario_files(
    *,
    name: str = "Mini",
    terrain: Sequence[str] = DEFAULT_TERRAIN,
    columns: int | None = None,
    rows: int | None = None,
    areas: Sequence[str] | None = None,
    garrison_areas: Sequence[Mapping[str, Any]] = (),
    extra_terrain: Mapping[str, Sequence[str]] | None = None,
    towns: Sequence[Mapping[str, Any]] | None = None,
    native_villages: Sequence[Mapping[str, Any]] = (),
    roads: Sequence[Sequence[str] | Mapping[str, Any]] = (),
    tracks: Sequence[Sequence[str] | Mapping[str, Any]] = (),
    rivers: Sequence[Sequence[str] | Mapping[str, Any]] = (),
    allied_edges: Sequence[Mapping[str, Any]] = (),
    supply_sources: Sequence[Mapping[str, Any]] = (),
    counters: Sequence[Mapping[str, Any]] | None = None,
    unit_types: Sequence[Mapping[str, Any]] = DEFAULT_UNIT_TYPES,
    terrain_key: Sequence[Mapping[str, Any]] = DEFAULT_TERRAIN_KEY,
    crt: Mapping[str, Sequence[str]] | None = None,
    chits: Sequence[Mapping[str, Any]] = DEFAULT_CHITS,
    hand_size: int = 4,
    victory: Sequence[Mapping[str, Any]] = VICTORY_14_0,
    allied_control_at_start: Sequence[str] = (),
    replacement_turns: Sequence[int] = (3, 6, 9, 12),
    air_support_from_turn: int = 3,
) -> Files:
    """The contents of every file, as plain data keyed by file name (nothing written)."""
    n_rows = rows if rows is not None else len(terrain)
    n_cols = columns if columns is not None else max((len(r) for r in terrain), default=0)
    area_rows = list(areas) if areas is not None else ["." * n_cols] * n_rows
    town_list = [_sourced(t) for t in (towns if towns is not None else default_towns())]
    if counters is None:
        counters = default_counters([t["letter"] for t in town_list if t.get("letter")])
    return {
        SCENARIO: {
            "format_version": 1,
            "name": name,
            "description": "A tiny hand-made scenario for tests.",
            "provenance": PROVENANCE,
            "files": dict(FILE_NAMES),
            "allied_control_at_start": list(allied_control_at_start),
            "air_support_from_turn": air_support_from_turn,
            "turns": [
                {"turn": t, "week_of": f"1941-W{t:02d}", "replacement": t in replacement_turns} for t in range(1, 13)
            ],
            "victory": [dict(band) for band in victory],
        },
        TERRAIN: {
            "terrain": [_sourced(t) for t in terrain_key],
            "river": {"move_cost": 2, "column_shift": 1, "provenance": PROVENANCE},
            "road": {"move_cost": 0.5, "provenance": PROVENANCE},
            "track": {"move_cost": None, "provenance": PROVENANCE},
        },
        MAP: {
            "columns": n_cols,
            "rows": n_rows,
            "terrain": _block(terrain),
            "extra_terrain": {k: list(v) for k, v in (extra_terrain or {}).items()},
            "areas": _block(area_rows),
            "garrison_areas": [_sourced(a) for a in garrison_areas],
            "towns": town_list,
            "native_villages": [_sourced(v) for v in native_villages],
            "roads": [_route(i, "Road", r, "hexes") for i, r in enumerate(roads)],
            "tracks": [_route(i, "Track", r, "hexes") for i, r in enumerate(tracks)],
            "rivers": [_route(i, "River", r, "hexsides") for i, r in enumerate(rivers)],
            "allied_edges": [_sourced(e) for e in allied_edges],
            "supply_sources": [_sourced(s) for s in supply_sources],
            "provenance": PROVENANCE,
        },
        COUNTERS: {
            "unit_types": [_sourced(t) for t in unit_types],
            "counters": [_sourced(c) for c in counters],
        },
        CRT: {
            "provenance": PROVENANCE,
            "columns": {k: list(v) for k, v in (crt if crt is not None else DEFAULT_CRT).items()},
        },
        CHITS: {
            "hand_size": hand_size,
            "chits": [_sourced(c) for c in chits],
        },
    }


class _Dumper(yaml.SafeDumper):
    """Multi-line strings (map rows) as literal blocks, so files read like the bundled ones."""


def _str_representer(dumper: yaml.SafeDumper, data: str) -> yaml.ScalarNode:
    style = "|" if "\n" in data else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


_Dumper.add_representer(str, _str_representer)


def dump_yaml(data: Any) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=200)


def write_files(directory: Path, files: Mapping[str, Any]) -> Path:
    """Write ``{file name: content}``: data as YAML, a ``str`` verbatim, ``None`` not at all."""
    directory.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        if content is None:
            continue
        text = content if isinstance(content, str) else dump_yaml(content)
        (directory / name).write_text(text, encoding="utf-8")
    return directory


def write_scenario(directory: Path, *, mutate: Mutator | None = None, **options: Any) -> Path:
    """Write a complete scenario into ``directory`` (created if needed) and return it.

    ``options`` are the keyword arguments of :func:`scenario_files`; ``mutate`` may edit the file
    contents (keyed by file name) before they are written.
    """
    files = scenario_files(**options)
    if mutate is not None:
        replaced = mutate(files)
        if replaced is not None:
            files = replaced
    return write_files(directory, files)


def mini_scenario(directory: Path, *, mutate: Mutator | None = None, **options: Any) -> Scenario:
    """Write a scenario with :func:`write_scenario` and load it."""
    return load_scenario(write_scenario(directory, mutate=mutate, **options))
