"""Checks that need several scenario files together.  Each appends :class:`Problem`s that name
the file, the field and, for map data, the hex label; nothing here raises."""

from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Sequence

from cheren.hexes import Hex, Hexside, parse_hexside, parse_label
from cheren.scenario.errors import Problem
from cheren.scenario.models import (
    ChitChart,
    CombatTable,
    CounterSheet,
    MapData,
    MapEdge,
    ScenarioFile,
    Side,
    SupplySource,
    TerrainKey,
)


def map_rows(text: str) -> list[str]:
    """Rows of a character grid: blank lines and trailing spaces are ignored."""
    return [line.rstrip() for line in text.splitlines() if line.strip()]


def cross_check(
    scenario: ScenarioFile,
    terrain: TerrainKey,
    map_data: MapData,
    counters: CounterSheet,
    crt: CombatTable,
    chits: ChitChart,
    files: dict[str, str],
    problems: list[Problem],
) -> None:
    playable = _check_grid(terrain, map_data, files["map"], problems)
    _check_places(map_data, playable, files["map"], problems)
    _check_routes(map_data, files["map"], problems)
    _check_rivers(map_data, files["map"], problems)
    _check_counters(map_data, counters, files["counters"], problems)
    _check_scenario(scenario, map_data, problems)


def _in_map(h: Hex, m: MapData) -> bool:
    return 0 <= h.col < m.columns and 0 <= h.row < m.rows


def _hex(label: str, m: MapData, file: str, field: str, problems: list[Problem]) -> Hex | None:
    try:
        h = parse_label(label)
    except ValueError as exc:
        problems.append(Problem(file, field, str(exc), hex=label))
        return None
    if not _in_map(h, m):
        problems.append(
            Problem(file, field, f"hex is off the map ({m.columns} columns x {m.rows} rows)", hex=label)
        )
        return None
    return h


def _check_grid(terrain: TerrainKey, m: MapData, file: str, problems: list[Problem]) -> set[Hex]:
    """Terrain and area rows: shape and characters.  Returns the playable hexes."""
    by_char = {t.char: t for t in terrain.terrain}
    keys = {t.key for t in terrain.terrain}
    playable: set[Hex] = set()
    for field, text, allowed in (
        ("terrain", m.terrain, set(by_char)),
        ("areas", m.areas, {a.char for a in m.garrison_areas} | {"."}),
    ):
        rows = map_rows(text)
        if len(rows) != m.rows:
            problems.append(Problem(file, field, f"has {len(rows)} rows; the map has rows: {m.rows}"))
        for row, line in enumerate(rows[: m.rows]):
            if len(line) != m.columns:
                first_bad = Hex.from_offset(min(len(line), m.columns - 1), row).label
                problems.append(
                    Problem(
                        file,
                        field,
                        f"row {row + 1:02d} has {len(line)} characters; the map has columns: {m.columns}",
                        hex=first_bad,
                    )
                )
            for col, char in enumerate(line[: m.columns]):
                h = Hex.from_offset(col, row)
                if char not in allowed:
                    what = "terrain character" if field == "terrain" else "garrison area character"
                    problems.append(
                        Problem(
                            file,
                            field,
                            f"unknown {what} {char!r} (known: {' '.join(sorted(allowed))})",
                            hex=h.label,
                        )
                    )
                elif field == "terrain" and by_char[char].playable:
                    playable.add(h)
    for label, extra in m.extra_terrain.items():
        if _hex(label, m, file, f"extra_terrain.{label}", problems) is None:
            continue
        for key in extra:
            if key not in keys:
                problems.append(
                    Problem(file, f"extra_terrain.{label}", f"unknown terrain {key!r}", hex=label)
                )
    return playable


def _check_places(m: MapData, playable: set[Hex], file: str, problems: list[Problem]) -> None:
    for i, town in enumerate(m.towns):
        h = _hex(town.hex, m, file, f"towns[{i}] ({town.name}).hex", problems)
        if h is not None and h not in playable:
            problems.append(
                Problem(file, f"towns[{i}] ({town.name}).hex", "the town is on an unplayable hex", hex=town.hex)
            )
    for i, village in enumerate(m.native_villages):
        h = _hex(village.hex, m, file, f"native_villages[{i}] ({village.name}).hex", problems)
        if h is not None and h not in playable:
            problems.append(
                Problem(file, f"native_villages[{i}] ({village.name}).hex", "unplayable hex", hex=village.hex)
            )
    groups: list[tuple[str, Sequence[MapEdge | SupplySource]]] = [
        ("allied_edges", m.allied_edges),
        ("supply_sources", m.supply_sources),
    ]
    for group, entries in groups:
        for i, entry in enumerate(entries):
            for label in entry.hexes:
                field = f"{group}[{i}] ({entry.name}).hexes"
                h = _hex(label, m, file, field, problems)
                if h is None:
                    continue
                if h not in playable:
                    problems.append(Problem(file, field, "unplayable hex", hex=label))
                on_border = h.col in (0, m.columns - 1) or h.row in (0, m.rows - 1)
                if group == "allied_edges" and not on_border:
                    problems.append(
                        Problem(file, field, "a red map edge hex must lie on the map border (12.2)", hex=label)
                    )


def _check_routes(m: MapData, file: str, problems: list[Problem]) -> None:
    for group, routes in (("roads", m.roads), ("tracks", m.tracks)):
        for i, route in enumerate(routes):
            field = f"{group}[{i}] ({route.name}).hexes"
            previous: Hex | None = None
            for label in route.hexes:
                h = _hex(label, m, file, field, problems)
                if h is None:
                    previous = None
                    continue
                if previous is not None and not previous.is_adjacent(h):
                    problems.append(
                        Problem(
                            file,
                            field,
                            f"jumps from {previous.label} to {label}, which are not adjacent",
                            hex=label,
                        )
                    )
                previous = h


def _check_rivers(m: MapData, file: str, problems: list[Problem]) -> None:
    for i, river in enumerate(m.rivers):
        field = f"rivers[{i}] ({river.name}).hexsides"
        previous: Hexside | None = None
        for text in river.hexsides:
            try:
                side = parse_hexside(text)
            except ValueError as exc:
                problems.append(Problem(file, field, str(exc), hex=text))
                previous = None
                continue
            if not (_in_map(side.a, m) or _in_map(side.b, m)):
                problems.append(Problem(file, field, "hexside is off the map", hex=text))
            if previous is not None and not previous.touches(side):
                problems.append(
                    Problem(
                        file,
                        field,
                        f"jumps from hexside {previous.label} to {side.label}: consecutive hexsides "
                        "of a river must meet at a corner (start a new river for a branch)",
                        hex=text,
                    )
                )
            previous = side


def _check_counters(m: MapData, sheet: CounterSheet, file: str, problems: list[Problem]) -> None:
    types = {t.key: t for t in sheet.unit_types}
    letters = {t.letter for t in m.towns if t.letter}
    villages = {v.name for v in m.native_villages}
    areas = {a.key for a in m.garrison_areas}
    by_id = {c.id: c for c in sheet.counters}
    replaced_by: Tally[str] = Tally()
    for i, c in enumerate(sheet.counters):
        here = f"counters[{i}] ({c.id})"
        if c.type not in types:
            problems.append(Problem(file, f"{here}.type", f"unknown unit type {c.type!r}"))
        arrival = c.arrival
        field = f"{here}.arrival"
        while arrival is not None:
            if arrival.letter not in letters:
                problems.append(
                    Problem(
                        file,
                        f"{field}.letter",
                        f"setup letter {arrival.letter!r} has no town (town letters: {' '.join(sorted(letters))})",
                    )
                )
            arrival = arrival.alternative
            field += ".alternative"
        if c.is_replacement or c.native is not None:
            if c.arrival is not None:
                problems.append(
                    Problem(file, f"{here}.arrival", "replacement and native counters take no setup letter (5.0)")
                )
        elif c.arrival is None:
            problems.append(Problem(file, f"{here}.arrival", "needs a setup letter or an arrival turn (5.0)"))
        if c.native is not None:
            if c.side is not Side.ITALIAN:
                problems.append(
                    Problem(file, f"{here}.side", "native units start on their Italian side (5.0); the back is allied")
                )
            if c.native.village not in villages:
                problems.append(
                    Problem(file, f"{here}.native.village", f"no native village named {c.native.village!r}")
                )
            if c.native.garrison is not None and c.native.garrison not in areas:
                problems.append(
                    Problem(file, f"{here}.native.garrison", f"no garrison area {c.native.garrison!r}")
                )
            if len(c.faces) != 1:
                problems.append(
                    Problem(file, f"{here}.faces", "a native unit has one step; its back is the defected side (11.6)")
                )
        if c.garrison is not None and c.garrison not in areas:
            problems.append(Problem(file, f"{here}.garrison", f"no garrison area {c.garrison!r}"))
        if c.replacement is not None:
            target = by_id.get(c.replacement)
            if target is None or not target.is_replacement:
                problems.append(
                    Problem(
                        file,
                        f"{here}.replacement",
                        f"{c.replacement!r} is not a replacement counter (is_replacement: true)",
                    )
                )
            elif target.side != c.side:
                problems.append(Problem(file, f"{here}.replacement", "replacement counter is on the other side"))
            elif target.stack != c.stack:
                problems.append(
                    Problem(
                        file,
                        f"{here}.replacement",
                        f"the replacement counter's stacking value {target.stack} differs from the brigade's "
                        f"{c.stack}; the engine treats brigade and replacement as one unit (3.0, 11.6)",
                    )
                )
            replaced_by[c.replacement] += 1
        if c.immobile and c.side is not Side.ITALIAN:
            problems.append(Problem(file, f"{here}.immobile", "only the Massaua naval garrison is immobile (8.5)"))
    for i, c in enumerate(sheet.counters):
        if c.is_replacement and replaced_by[c.id] != 1:
            problems.append(
                Problem(
                    file,
                    f"counters[{i}] ({c.id})",
                    f"a replacement counter must belong to exactly one brigade (used by {replaced_by[c.id]})",
                )
            )


def _check_scenario(s: ScenarioFile, m: MapData, problems: list[Problem]) -> None:
    names = {t.name for t in m.towns}
    for i, name in enumerate(s.allied_control_at_start):
        if name not in names:
            problems.append(Problem("scenario.yaml", f"allied_control_at_start[{i}]", f"no town named {name!r}"))
    total = sum(t.vp for t in m.towns)
    top = s.victory[-1]
    if top.min_vp is not None and total < top.min_vp:
        problems.append(
            Problem(
                "scenario.yaml",
                "victory",
                f"the towns hold {total} VP in all, so no side can reach the {top.min_vp} VP of "
                f"'{top.level}' (14.0); check the town VPs in the map file",
            )
        )
