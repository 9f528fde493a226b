"""Pydantic models of the scenario files: what an owner of the game edits.

Each model mirrors one file in ``scenarios/<name>/``.  The models check each value on its own;
checks that need several files together (a setup letter must name a town, a road must join
adjacent hexes) live in :mod:`cheren.scenario.checks`.  Values that the rules do not force carry
a :class:`Provenance` so the UI can say where a number came from.
"""

from __future__ import annotations

import itertools
import re
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator


class Strict(BaseModel):
    """Base for all scenario models: unknown keys are errors, so typos never pass silently."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# -- provenance ------------------------------------------------------------------------------
class Source(StrEnum):
    RULES = "rules"
    HISTORICAL = "historical"
    RECONSTRUCTED = "reconstructed"


_PROVENANCE_RE = re.compile(r"^\s*(rules|historical|reconstructed)\s*(?::\s*(.*))?$", re.S)


class Provenance(Strict):
    """Where a value comes from: the rules text, the historical record, or the project's choice."""

    source: Source
    note: str = ""

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, value: Any) -> Any:
        # Data files write provenance as one line: "reconstructed: why this value".
        if isinstance(value, str):
            m = _PROVENANCE_RE.match(value)
            if not m:
                raise ValueError(
                    "provenance must start with 'rules', 'historical' or 'reconstructed', "
                    f"optionally followed by ': note' (got {value!r})"
                )
            return {"source": m.group(1), "note": (m.group(2) or "").strip()}
        return value

    def __str__(self) -> str:
        return f"{self.source.value}: {self.note}" if self.note else self.source.value


class Sourced(Strict):
    """A record with provenance: one for the whole record, or one per field."""

    provenance: Provenance | dict[str, Provenance]

    def provenance_of(self, field: str) -> Provenance:
        """The provenance of one field; a record-level provenance covers every field."""
        p = self.provenance
        if isinstance(p, Provenance):
            return p
        if field in p:
            return p[field]
        if "*" in p:
            return p["*"]
        raise KeyError(f"{type(self).__name__} has no provenance for {field!r}")


# -- common vocabulary -----------------------------------------------------------------------
class Side(StrEnum):
    ALLIED = "allied"
    ITALIAN = "italian"

    @property
    def enemy(self) -> Side:
        return _ENEMY[self]  # a dict: reading an enum member off its class is slow, and this is asked all the time

    @property
    def adjective(self) -> str:
        return "Allied" if self is Side.ALLIED else "Italian"


_ENEMY = {Side.ALLIED: Side.ITALIAN, Side.ITALIAN: Side.ALLIED}


class Phase(StrEnum):
    """The phases of a player turn, rule 7.0, in order."""

    REINFORCEMENT = "reinforcement"
    MOVEMENT = "movement"
    REACTION = "reaction"
    COMBAT = "combat"
    SUPPLY = "supply"
    EXPLOITATION = "exploitation"


HexLabel = Annotated[str, Field(pattern=r"^\d{4}$", description="hex label CCRR, e.g. 0712")]
HexsideLabel = Annotated[
    str, Field(pattern=r"^\d{4}[/-]\d{4}$", description="two adjacent hexes CCRR/CCRR")
]
Letter = Annotated[str, Field(pattern=r"^[A-Z]$", description="a setup letter A-Z")]
Key = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", description="a lower_snake_case key")]
Turn = Annotated[int, Field(ge=1, le=12, description="a game turn 1..12")]


# -- terrain key: terrain.yaml --------------------------------------------------------------
class TerrainType(Sourced):
    """One row of the terrain key (rule 1.1)."""

    key: Key
    char: str = Field(min_length=1, max_length=1, description="its character in map rows")
    name: str
    move_cost: float | None = Field(
        gt=0, le=100, allow_inf_nan=False,
        description="MP to enter off-road (rule 9.0); null means units may never enter",
    )
    stack_limit: int = Field(ge=0, description="stacking limit (rule 3.1)")
    column_shift: int = Field(ge=0, description="columns in the defender's favour (rule 11.1)")
    mountain: bool = Field(False, description="a mountain hex (rules 4.0, 9.1, 11.0, 12.0)")
    hill: bool = Field(False, description="a hill hex: shortens supply lines (rule 12.0)")
    playable: bool = Field(True, description="false for sea and for the hexes under the key")
    colour: str = Field(pattern=r"^#[0-9a-fA-F]{6}$", description="fill colour on the map")


class HexsideFeature(Sourced):
    move_cost: float = Field(ge=0, le=100, allow_inf_nan=False, description="extra MP to cross off-road (rule 9.0)")
    column_shift: int = Field(ge=0, description="shift if every attacker crosses (rule 11.1)")


class RouteFeature(Sourced):
    move_cost: float | None = Field(
        gt=0, le=100, allow_inf_nan=False, description="MP per hex when following it (rule 9.0); null: pay the terrain"
    )


class TerrainKey(Strict):
    """terrain.yaml"""

    terrain: list[TerrainType] = Field(min_length=1)
    river: HexsideFeature
    road: RouteFeature
    track: RouteFeature

    @field_validator("terrain")
    @classmethod
    def _unique(cls, value: list[TerrainType]) -> list[TerrainType]:
        _require_unique([t.key for t in value], "terrain key")
        _require_unique([t.char for t in value], "terrain character")
        return value


# -- the map: map.yaml -----------------------------------------------------------------------
class TownKind(StrEnum):
    TOWN = "town"
    VILLAGE = "village"
    CITY = "city"


class Town(Sourced):
    """A town, village or city that can be controlled and scores VP (rules 1.2, 2.1, 14.0)."""

    name: str
    hex: HexLabel
    kind: TownKind = TownKind.TOWN
    vp: int = Field(ge=0)
    letter: Letter | None = None
    lat: float | None = Field(None, description="historical latitude, degrees N")
    lon: float | None = Field(None, description="historical longitude, degrees E")


class GarrisonArea(Sourced):
    """A garrison area (rules 1.3 and 6.0), drawn on the map with its character in ``areas``."""

    key: Key
    name: str
    char: str = Field(min_length=1, max_length=1)


class NativeVillage(Sourced):
    """A native village (rule 12.3): supplies its own native unit; not a town (rule 12.1)."""

    name: str
    hex: HexLabel


class Route(Sourced):
    """A road or track as a chain of adjacent hexes (rules 9.0, 12.0)."""

    name: str
    hexes: list[HexLabel] = Field(min_length=2)


class River(Sourced):
    """A river as a chain of hexsides, each ``CCRR/CCRR`` (rules 9.0, 11.1)."""

    name: str
    hexsides: list[HexsideLabel] = Field(min_length=1)


class MapEdge(Sourced):
    """A red map edge: allied units in these edge hexes are in supply (rule 12.2)."""

    name: str
    hexes: list[HexLabel] = Field(min_length=1)
    first_turn: Turn = 1
    last_turn: Turn = 12

    @model_validator(mode="after")
    def _turns(self) -> MapEdge:
        if self.first_turn > self.last_turn:
            raise ValueError(f"first_turn {self.first_turn} is after last_turn {self.last_turn}")
        return self


class SupplySource(Sourced):
    """A friendly supply source (rule 1.4, lost: the data says where they are)."""

    name: str
    side: Side
    hexes: list[HexLabel] = Field(min_length=1)


class MapData(Strict):
    """map.yaml"""

    columns: int = Field(ge=2, le=99)
    rows: int = Field(ge=2, le=99)
    terrain: str = Field(description="one row per line, one terrain character per hex")
    extra_terrain: dict[HexLabel, list[Key]] = Field(
        default_factory=dict, description="hexes that hold more terrain than their character"
    )
    areas: str = Field(description="garrison area characters per hex, '.' for none")
    garrison_areas: list[GarrisonArea] = Field(default_factory=list)
    towns: list[Town] = Field(min_length=1)
    native_villages: list[NativeVillage] = Field(default_factory=list)
    roads: list[Route] = Field(default_factory=list)
    tracks: list[Route] = Field(default_factory=list)
    rivers: list[River] = Field(default_factory=list)
    allied_edges: list[MapEdge] = Field(default_factory=list)
    supply_sources: list[SupplySource] = Field(default_factory=list)
    provenance: Provenance

    @field_validator("towns")
    @classmethod
    def _unique_towns(cls, value: list[Town]) -> list[Town]:
        _require_unique([t.name for t in value], "town name")
        _require_unique([t.hex for t in value], "town hex")
        _require_unique([t.letter for t in value if t.letter], "setup letter")
        return value

    @field_validator("garrison_areas")
    @classmethod
    def _unique_areas(cls, value: list[GarrisonArea]) -> list[GarrisonArea]:
        _require_unique([a.key for a in value], "garrison key")
        _require_unique([a.char for a in value], "garrison character")
        if any(a.char == "." for a in value):
            raise ValueError("'.' means 'no garrison area' and cannot be an area's character")
        return value

    @field_validator("native_villages")
    @classmethod
    def _unique_villages(cls, value: list[NativeVillage]) -> list[NativeVillage]:
        _require_unique([v.name for v in value], "native village name")
        return value


# -- units: counters.yaml ------------------------------------------------------------------
class UnitSize(StrEnum):
    SQUADRON = "squadron"  # I (also a company)
    BATTALION = "battalion"  # II
    REGIMENT = "regiment"  # III
    BRIGADE = "brigade"  # X
    NONE = "none"  # the air unit


class UnitType(Sourced):
    """A unit type of rule 2.3 with its capabilities."""

    key: Key
    name: str
    symbol: Literal[
        "infantry",
        "mountain",
        "artillery",
        "naval",
        "cavalry",
        "commando",
        "tank",
        "motorized_infantry",
        "motorized_artillery",
        "air",
    ]
    may_enter_mountain: bool = Field(description="false: never enters, attacks or retreats into mountain (9.1)")
    support: bool = Field(description="counts in the support comparison (11.4)")
    may_exploit: bool = Field(description="moves in the Exploitation phase (13.0)")
    motorized: bool = Field(description="tank or motorized: cannot move with No supply (12.6)")
    artillery: bool = Field(False, description="artillery restrictions (11.2, 11.6, 11.9)")
    air: bool = Field(False, description="the air support unit (11.3)")


class Face(Strict):
    """One side of a counter: strength and movement points."""

    sp: int = Field(ge=0)
    mp: int = Field(ge=0)


class Arrival(Strict):
    """Where and when a unit enters: a setup letter, and a turn if it is a reinforcement."""

    letter: Letter
    turn: Turn | None = Field(None, description="absent: on the map at setup (5.0)")
    alternative: Arrival | None = Field(
        None, description="a later option the owner may choose instead (8.4: K7-F8)"
    )

    @property
    def code(self) -> str:
        text = self.letter + (str(self.turn) if self.turn else "")
        return f"{text}-{self.alternative.code}" if self.alternative else text


class Native(Strict):
    """Native unit data printed on the counter (5.0): its garrison and native village."""

    garrison: Key | None = Field(None, description="absent for the Eritrea native unit (6.0)")
    village: str
    defected: Face = Field(description="the back: the allied version after defection (6.0, 11.6)")


class Counter(Sourced):
    """One counter of the counter sheet (rule 2.3)."""

    id: Key
    name: str = Field(description="designation printed on the counter")
    side: Side
    type: Key
    size: UnitSize
    faces: list[Face] = Field(min_length=1, max_length=2, description="front, then back if it has one")
    stack: int = Field(1, ge=0, description="stacking value (3.0); 1 unless printed")
    colour: Literal["red", "blue", "green", "black"]
    arrival: Arrival | None = Field(None, description="setup letter / arrival; absent for natives and replacements")
    native: Native | None = None
    garrison: Key | None = Field(None, description="a non-native garrison unit's area (6.0)")
    replacement: Key | None = Field(None, description="the brigade's replacement counter (11.6)")
    is_replacement: bool = Field(False, description="a brigade replacement counter, off map at setup (5.0)")
    immobile: bool = Field(False, description="never moves, advances or retreats (8.5: Massaua)")


class CounterSheet(Strict):
    """counters.yaml"""

    unit_types: list[UnitType] = Field(min_length=1)
    counters: list[Counter] = Field(min_length=1)

    @field_validator("unit_types")
    @classmethod
    def _unique_types(cls, value: list[UnitType]) -> list[UnitType]:
        _require_unique([t.key for t in value], "unit type")
        return value

    @field_validator("counters")
    @classmethod
    def _unique_counters(cls, value: list[Counter]) -> list[Counter]:
        _require_unique([c.id for c in value], "counter id")
        return value


# -- combat results table: crt.yaml ---------------------------------------------------------
_RATIO_RE = re.compile(r"^(\d+)-(\d+)$")
_CELL_RE = re.compile(r"^(\d+)/(\d+)(r?)$")


def parse_ratio(text: str) -> tuple[int, int]:
    m = _RATIO_RE.match(text.strip())
    if not m or (m.group(1) != "1" and m.group(2) != "1"):
        raise ValueError(f"odds column {text!r} is not a ratio like 1-3 or 5-1")
    return int(m.group(1)), int(m.group(2))


class CombatResult(Strict):
    """One CRT cell: steps lost by the attacker and the defender, and whether the defender retreats."""

    attacker: int = Field(ge=0)
    defender: int = Field(ge=0)
    retreat: bool = False

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, value: Any) -> Any:
        # Cells are written as on a printed CRT: "attacker/defender", "r" for a retreat.
        if isinstance(value, str):
            m = _CELL_RE.match(value.strip())
            if not m:
                raise ValueError(
                    f"CRT cell {value!r} is not 'A/D' or 'A/Dr' (steps lost by attacker/defender)"
                )
            return {"attacker": int(m.group(1)), "defender": int(m.group(2)), "retreat": bool(m.group(3))}
        return value

    def __str__(self) -> str:
        return f"{self.attacker}/{self.defender}{'r' if self.retreat else ''}"


class CombatTable(Strict):
    """crt.yaml: columns from 1-3 to 13-1; each column lists the results for die rolls 1..6."""

    columns: dict[str, list[CombatResult]]
    provenance: Provenance

    @field_validator("columns")
    @classmethod
    def _shape(cls, value: dict[str, list[CombatResult]]) -> dict[str, list[CombatResult]]:
        ratios = []
        for name, cells in value.items():
            a, d = parse_ratio(name)
            if len(cells) != 6:
                raise ValueError(f"column {name} has {len(cells)} results; it needs one per die roll 1..6")
            ratios.append(a / d)
        if ratios != sorted(ratios) or len(set(ratios)) != len(ratios):
            raise ValueError("columns must be listed from the lowest odds to the highest, each once")
        names = list(value)
        if names[0] != "1-3" or names[-1] != "13-1":
            raise ValueError(f"columns must run from 1-3 to 13-1 (rule 11.5); got {names[0]} .. {names[-1]}")
        return value


# -- chits: chits.yaml ----------------------------------------------------------------------
class ChitWindow(Strict):
    """When a chit may be played: a phase, and whose phase it is."""

    phase: Phase
    player: Literal["phasing", "non_phasing"]


KNOWN_CHIT_EFFECTS = frozenset(
    {
        "infiltrate",
        "exploit",
        "column_shift",
        "win_support",
        "engineers",
        "forced_march",
        "supply_convoy",
        "roadblock",
        "demolition",
        "support_points",
        "reaction_limit",
    }
)


#: The numbers each chit effect takes, with their ranges: what the rules engine reads.
CHIT_PARAMS: dict[str, dict[str, tuple[int, int]]] = {
    "column_shift": {"columns": (1, 3)},
    "support_points": {"sp": (1, 10)},
    "forced_march": {"mp": (1, 8)},
    "reaction_limit": {"limit": (1, 20)},
}


class Chit(Sourced):
    """One kind of chit (rules 5.0, 5.1; the chit chart is lost)."""

    key: Key
    name: str
    side: Side
    count: int = Field(ge=1)
    one_time: bool = Field(False, description="starred: leaves play after use (5.1)")
    windows: list[ChitWindow] = Field(min_length=1)
    effect: Key
    params: dict[str, int | str | bool] = Field(
        default_factory=dict, description="the effect's numbers (see CHIT_PARAMS): columns, sp, mp, limit"
    )
    low_supply_target: bool = Field(
        True, description="false: a unit with a Low/No supply marker cannot be its object (12.5)"
    )
    text: str = Field(description="what it does, in the project's words")

    @field_validator("effect")
    @classmethod
    def _effect_known(cls, value: str) -> str:
        if value not in KNOWN_CHIT_EFFECTS:
            raise ValueError(
                f"unknown chit effect {value!r}; the engine knows {', '.join(sorted(KNOWN_CHIT_EFFECTS))}"
            )
        return value

    @model_validator(mode="after")
    def _params_fit_the_effect(self) -> Chit:
        allowed = CHIT_PARAMS.get(self.effect, {})
        for name, value in self.params.items():
            if name not in allowed:
                known = ", ".join(sorted(allowed)) or "none"
                raise ValueError(f"params.{name}: the {self.effect} effect takes no such parameter (it takes: {known})")
            low, high = allowed[name]
            if type(value) is not int or not low <= value <= high:
                raise ValueError(f"params.{name}: must be a whole number from {low} to {high}, not {value!r}")
        return self


class ChitChart(Strict):
    """chits.yaml"""

    hand_size: int = Field(4, ge=0, description="chits each side draws at setup (5.0)")
    chits: list[Chit] = Field(min_length=1)

    @field_validator("chits")
    @classmethod
    def _unique_chits(cls, value: list[Chit]) -> list[Chit]:
        _require_unique([c.key for c in value], "chit key")
        return value


# -- the scenario file: scenario.yaml -------------------------------------------------------
class VictoryBand(Strict):
    """A band of the victory scale (14.0): Allied VP from min_vp to max_vp inclusive."""

    min_vp: int | None = Field(None, ge=0, description="absent: no lower bound")
    max_vp: int | None = Field(None, ge=0, description="absent: no upper bound")
    level: str
    winner: Side | None = None


class TurnInfo(Strict):
    turn: Turn
    week_of: str = Field(description="the historical week the turn stands for")
    replacement: bool = Field(False, description="allied replacement turn (8.3)")


class ScenarioFile(Sourced):
    """scenario.yaml: the top-level description and the files it is made of."""

    name: str
    description: str = ""
    format_version: Literal[1]
    files: dict[Literal["terrain", "map", "counters", "crt", "chits"], str]
    turns: list[TurnInfo] = Field(min_length=12, max_length=12)
    victory: list[VictoryBand] = Field(min_length=1)
    allied_control_at_start: list[str] = Field(description="town names with a Control marker (5.0)")
    air_support_from_turn: Turn = Field(3, description="rule 11.3")
    variants: list[str] = Field(
        default_factory=list, description="optional rules switched on for every game (`cheren variants` lists them)"
    )

    @field_validator("variants")
    @classmethod
    def _known_variants(cls, value: list[str]) -> list[str]:
        from cheren.scenario.variants import VARIANTS

        unknown = [v for v in value if v not in VARIANTS]
        if unknown:
            raise ValueError(f"unknown variant {unknown[0]!r}; known: {', '.join(VARIANTS)}")
        return value

    @field_validator("turns")
    @classmethod
    def _turn_order(cls, value: list[TurnInfo]) -> list[TurnInfo]:
        if [t.turn for t in value] != list(range(1, 13)):
            raise ValueError("turns must list game turns 1 to 12 in order")
        return value

    @field_validator("victory")
    @classmethod
    def _bands(cls, value: list[VictoryBand]) -> list[VictoryBand]:
        # The scale must cover every VP total exactly once, from lowest to highest.
        if value[0].min_vp not in (None, 0):
            raise ValueError("the first victory band must start at 0 VP (or leave min_vp out)")
        if value[-1].max_vp is not None:
            raise ValueError("the last victory band must be open-ended (leave max_vp out)")
        for lower, upper in itertools.pairwise(value):
            if lower.max_vp is None or upper.min_vp != lower.max_vp + 1:
                raise ValueError(
                    f"victory bands '{lower.level}' and '{upper.level}' leave a gap or overlap: "
                    f"{lower.max_vp} then {upper.min_vp}"
                )
        return value


def _require_unique(values: list[Any], what: str) -> None:
    seen: set[Any] = set()
    for v in values:
        if v in seen:
            raise ValueError(f"{what} {v!r} appears more than once")
        seen.add(v)
