"""The scenario compiled for the engine: per-hex lookups, hexside sets and unit step ladders.

The models in :mod:`cheren.scenario.models` mirror the files; this module turns them into the
shapes the rules ask questions of, once, at load time.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from pathlib import Path

from cheren.hexes import Hex, Hexside, grid, parse_hexside, parse_label
from cheren.scenario.checks import map_rows
from cheren.scenario.models import (
    Arrival,
    Chit,
    ChitChart,
    CombatResult,
    CombatTable,
    Counter,
    CounterSheet,
    GarrisonArea,
    MapData,
    MapEdge,
    NativeVillage,
    ScenarioFile,
    Side,
    SupplySource,
    TerrainKey,
    TerrainType,
    Town,
    UnitType,
    parse_ratio,
)


@dataclass(frozen=True, slots=True)
class HexInfo:
    """Everything printed in one hex.  Mixed hexes combine their terrains per rule:
    movement pays the costliest (9.0), stacking takes the least favourable (3.1), combat the
    best shift for the defender (11.1)."""

    hex: Hex
    terrains: tuple[TerrainType, ...]
    town: Town | None
    village: NativeVillage | None
    area: str | None

    @property
    def label(self) -> str:
        return self.hex.label

    @property
    def playable(self) -> bool:
        return all(t.playable for t in self.terrains)

    @property
    def move_cost(self) -> float | None:
        costs = [t.move_cost for t in self.terrains]
        if any(c is None for c in costs):
            return None
        return max(c for c in costs if c is not None)

    @property
    def stack_limit(self) -> int:
        return min(t.stack_limit for t in self.terrains)

    @property
    def column_shift(self) -> int:
        return max(t.column_shift for t in self.terrains)

    @property
    def mountain(self) -> bool:
        return any(t.mountain for t in self.terrains)

    @property
    def hill(self) -> bool:
        return any(t.hill for t in self.terrains)

    @property
    def terrain_names(self) -> str:
        return " + ".join(t.name for t in self.terrains)


@dataclass(frozen=True, slots=True)
class Step:
    """One rung of a unit's step ladder: which counter and face show, and its values."""

    counter: str
    face: int
    sp: int
    mp: int


@dataclass(frozen=True)
class UnitDef:
    """A unit as the rules see it: a counter plus, for an Indian brigade, its replacement
    counter, as one ladder of steps (11.6): 8-5 -> flipped -> 4-5 -> flipped -> gone."""

    counter: Counter
    type: UnitType
    ladder: tuple[Step, ...]

    # The facts below are read on every rule check; each is worked out once and kept in the
    # instance (a frozen dataclass still has a __dict__, and fields alone decide equality).

    @cached_property
    def id(self) -> str:
        return self.counter.id

    @cached_property
    def name(self) -> str:
        return self.counter.name

    @cached_property
    def side(self) -> Side:
        return self.counter.side

    @cached_property
    def steps(self) -> int:
        return len(self.ladder)

    @cached_property
    def stack(self) -> int:
        return self.counter.stack

    @cached_property
    def arrival(self) -> Arrival | None:
        return self.counter.arrival

    @cached_property
    def is_native(self) -> bool:
        return self.counter.native is not None

    @cached_property
    def garrison(self) -> str | None:
        """The garrison area this unit belongs to (6.0), native or not."""
        if self.counter.native is not None:
            return self.counter.native.garrison
        return self.counter.garrison


@dataclass(frozen=True)
class OddsColumn:
    name: str
    ratio: Fraction
    results: tuple[CombatResult, ...]


class Scenario:
    """A loaded, validated scenario.  Build one with :func:`cheren.scenario.load_scenario`."""

    def __init__(
        self,
        directory: Path,
        info: ScenarioFile,
        terrain_key: TerrainKey,
        map_data: MapData,
        counter_sheet: CounterSheet,
        crt: CombatTable,
        chit_chart: ChitChart,
        digest: str = "",
    ) -> None:
        self.directory = directory
        self.digest = digest  # fingerprint of the files as loaded (saves record it)
        self.info = info
        self.terrain_key = terrain_key
        self.map = map_data
        self.counter_sheet = counter_sheet
        self.crt = crt
        self.chit_chart = chit_chart

        self.variants: frozenset[str] = frozenset(info.variants)  # optional rules on (cheren.scenario.variants)
        self.columns = map_data.columns
        self.rows = map_data.rows
        self.terrain_types: dict[str, TerrainType] = {t.key: t for t in terrain_key.terrain}
        by_char = {t.char: t for t in terrain_key.terrain}
        self.towns: dict[str, Town] = {t.name: t for t in map_data.towns}
        self.towns_by_hex: dict[Hex, Town] = {parse_label(t.hex): t for t in map_data.towns}
        self.towns_by_letter: dict[str, Town] = {t.letter: t for t in map_data.towns if t.letter}
        self.villages: dict[str, NativeVillage] = {v.name: v for v in map_data.native_villages}
        villages_by_hex = {parse_label(v.hex): v for v in map_data.native_villages}
        self.garrison_areas: dict[str, GarrisonArea] = {a.key: a for a in map_data.garrison_areas}
        area_by_char = {a.char: a.key for a in map_data.garrison_areas}

        terrain_rows = map_rows(map_data.terrain)
        area_rows = map_rows(map_data.areas)
        self.hexes: dict[Hex, HexInfo] = {}
        for h in grid(self.columns, self.rows):
            primary = by_char[terrain_rows[h.row][h.col]].key
            keys = dict.fromkeys([primary, *map_data.extra_terrain.get(h.label, [])])
            terrains = tuple(self.terrain_types[k] for k in keys)
            self.hexes[h] = HexInfo(
                hex=h,
                terrains=terrains,
                town=self.towns_by_hex.get(h),
                village=villages_by_hex.get(h),
                area=area_by_char.get(area_rows[h.row][h.col]),
            )
        self.playable: frozenset[Hex] = frozenset(h for h, info in self.hexes.items() if info.playable)
        self.mountains: frozenset[Hex] = frozenset(h for h in self.playable if self.hexes[h].mountain)
        # Playable neighbours of every playable hex: the rules ask for them constantly.
        self.adjacent: dict[Hex, tuple[Hex, ...]] = {
            h: tuple(n for n in h.neighbours() if n in self.playable) for h in self.playable
        }

        self.road_sides: frozenset[Hexside] = _route_sides(map_data.roads)
        self.track_sides: frozenset[Hexside] = _route_sides(map_data.tracks)
        self.river_sides: frozenset[Hexside] = frozenset(
            parse_hexside(s) for r in map_data.rivers for s in r.hexsides
        )
        self.allied_edges: tuple[MapEdge, ...] = tuple(map_data.allied_edges)
        self.supply_sources: tuple[SupplySource, ...] = tuple(map_data.supply_sources)

        self.unit_types: dict[str, UnitType] = {t.key: t for t in counter_sheet.unit_types}
        self.counters: dict[str, Counter] = {c.id: c for c in counter_sheet.counters}
        self.units: dict[str, UnitDef] = {}
        for c in counter_sheet.counters:
            if c.is_replacement:
                continue
            ladder = [Step(c.id, i, f.sp, f.mp) for i, f in enumerate(c.faces)]
            if c.replacement is not None:
                rep = self.counters[c.replacement]
                ladder += [Step(rep.id, i, f.sp, f.mp) for i, f in enumerate(rep.faces)]
            self.units[c.id] = UnitDef(c, self.unit_types[c.type], tuple(ladder))

        self.odds_columns: tuple[OddsColumn, ...] = tuple(
            OddsColumn(name, Fraction(*parse_ratio(name)), tuple(cells)) for name, cells in crt.columns.items()
        )
        self.chits: dict[str, Chit] = {c.key: c for c in chit_chart.chits}

    def with_variants(self, names: Iterable[str]) -> Scenario:
        """The same scenario with exactly these optional rules on (cheren.scenario.variants)."""
        from cheren.scenario.variants import check_variants

        chosen = check_variants(names)
        if chosen == self.variants:
            return self
        other = copy.copy(self)
        other.variants = chosen
        return other

    # -- questions the rules ask -------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.info.name

    def hex_info(self, h: Hex) -> HexInfo:
        return self.hexes[h]

    def on_map(self, h: Hex) -> bool:
        return h in self.playable

    def area_hexes(self, key: str) -> frozenset[Hex]:
        return self._areas.get(key, frozenset())

    @cached_property
    def stack_limits(self) -> dict[Hex, int]:
        """Every hex's stacking limit (3.0, 3.1), read once: the rules and bots ask constantly."""
        return {h: info.stack_limit for h, info in self.hexes.items()}

    @cached_property
    def _areas(self) -> dict[str, frozenset[Hex]]:
        # 6.0 asks for a garrison's area at the end of every phase: grouped once
        areas: dict[str, set[Hex]] = {}
        for h, info in self.hexes.items():
            if info.area is not None:
                areas.setdefault(info.area, set()).add(h)
        return {area: frozenset(hexes) for area, hexes in areas.items()}

    def town_hex(self, name: str) -> Hex:
        return parse_label(self.towns[name].hex)

    def letter_hex(self, letter: str) -> Hex:
        return parse_label(self.towns_by_letter[letter].hex)

    def village_hex(self, name: str) -> Hex:
        return parse_label(self.villages[name].hex)

    def edge_live(self, edge: MapEdge, turn: int) -> bool:
        return edge.first_turn <= turn <= edge.last_turn

    @cached_property
    def total_vp(self) -> int:
        return sum(t.vp for t in self.map.towns)

    def victory_level(self, allied_vp: int) -> str:
        for band in self.info.victory:
            low = band.min_vp if band.min_vp is not None else 0
            if allied_vp >= low and (band.max_vp is None or allied_vp <= band.max_vp):
                return band.level
        raise ValueError(f"no victory band covers {allied_vp} VP")

    def is_replacement_turn(self, turn: int) -> bool:
        return self.info.turns[turn - 1].replacement


def _route_sides(routes: list) -> frozenset[Hexside]:  # type: ignore[type-arg]
    sides: set[Hexside] = set()
    for route in routes:
        hexes = [parse_label(label) for label in route.hexes]
        for a, b in itertools.pairwise(hexes):
            sides.add(Hexside.between(a, b))
    return frozenset(sides)
