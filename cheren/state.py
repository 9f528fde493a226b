"""The position: where every unit is, its steps and markers, town control, the chits, the turn
and phase, and the dice.  No rules live here: :mod:`cheren.setup` builds the opening position
(rule 5.0), the rules modules change positions, and :mod:`cheren.saves` stores them."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from cheren.dice import Dice
from cheren.hexes import Hex
from cheren.scenario.compiled import Scenario, Step, UnitDef
from cheren.scenario.models import Phase, Side

if TYPE_CHECKING:
    from cheren.render.scene import Overlay


class Status(StrEnum):
    MAP = "map"  # on a hex
    POOL = "pool"  # a reinforcement that has not arrived yet (5.0, 8.0)
    OFF_MAP = "off_map"  # arrived but kept off the map: the air unit between combats (11.3)
    ELIMINATED = "eliminated"


class Supply(StrEnum):
    LOW = "low"  # 12.4
    NO = "no"  # 12.4, 12.6


@dataclass(slots=True)
class UnitState:
    """One unit's changing state.  ``steps_lost`` indexes the unit's step ladder (11.6)."""

    id: str
    side: Side
    status: Status
    hex: Hex | None = None
    steps_lost: int = 0
    supply: Supply | None = None
    defected: bool = False  # a native unit that flipped to its allied side (6.0)

    @property
    def on_map(self) -> bool:
        return self.status is Status.MAP


@dataclass
class ChitState:
    """Chit instances are ``key.n`` (``infiltrate.2``).  Hands are private to their side (5.0)."""

    hands: dict[Side, list[str]] = field(default_factory=lambda: {Side.ALLIED: [], Side.ITALIAN: []})
    cup: list[str] = field(default_factory=list)
    played: list[str] = field(default_factory=list)  # face up until the end of the phase (5.1)
    removed: list[str] = field(default_factory=list)  # out of play (one-time chits, 5.1)
    # Enemy chits a side drew and removed unseen (5.1): only that side knows which they were.
    seen: dict[Side, list[str]] = field(default_factory=lambda: {Side.ALLIED: [], Side.ITALIAN: []})


def chit_key(instance: str) -> str:
    return instance.rsplit(".", 1)[0]


def chit_instances(scenario: Scenario, side: Side | None = None) -> list[str]:
    """Every physical chit as ``key.n``, in chart order (duplicates numbered from 1)."""
    return [
        f"{chit.key}.{n}"
        for chit in scenario.chit_chart.chits
        if side is None or chit.side is side
        for n in range(1, chit.count + 1)
    ]


@dataclass
class Position:
    """A game position.  Build the opening with :func:`cheren.setup.initial_position` or an
    empty board with :meth:`Position.empty` and the editing methods below."""

    scenario: Scenario
    units: dict[str, UnitState]
    dice: Dice
    turn: int = 1
    side: Side = Side.ALLIED  # the phasing side (7.0)
    phase: Phase = Phase.REINFORCEMENT
    allied_control: set[str] = field(default_factory=set)  # towns with a Control marker (2.1)
    released: set[str] = field(default_factory=set)  # released garrison areas (6.0)
    chits: ChitState = field(default_factory=ChitState)
    postponed: set[str] = field(default_factory=set)  # took the later arrival option (8.4)
    delayed: set[str] = field(default_factory=set)  # arrivals waiting for a free town (8.1, 8.2)

    # -- construction --------------------------------------------------------------------
    @classmethod
    def empty(cls, scenario: Scenario, seed: int = 0) -> Position:
        """Every unit off the board (in the pool), no control markers, every chit in the common
        cup: the blank board for hand-built positions."""
        units = {uid: UnitState(uid, u.side, Status.POOL) for uid, u in scenario.units.items()}
        return cls(scenario=scenario, units=units, dice=Dice(seed), chits=ChitState(cup=chit_instances(scenario)))

    def copy(self) -> Position:
        """An independent copy that shares the (immutable) scenario.  Written out by hand:
        undo snapshots and bots copy positions often, and deepcopy is slow."""
        return Position(
            scenario=self.scenario,
            units={
                uid: UnitState(u.id, u.side, u.status, u.hex, u.steps_lost, u.supply, u.defected)
                for uid, u in self.units.items()
            },
            dice=self.dice.copy(),
            turn=self.turn,
            side=self.side,
            phase=self.phase,
            allied_control=set(self.allied_control),
            released=set(self.released),
            chits=ChitState(
                hands={side: list(hand) for side, hand in self.chits.hands.items()},
                cup=list(self.chits.cup),
                played=list(self.chits.played),
                removed=list(self.chits.removed),
                seen={side: list(seen) for side, seen in self.chits.seen.items()},
            ),
            postponed=set(self.postponed),
            delayed=set(self.delayed),
        )

    # -- editing, for rule tests, historical positions and teaching ----------------------
    def place(self, unit_id: str, at: Hex | str, *, steps_lost: int = 0, supply: Supply | None = None) -> UnitState:
        """Put a unit on a hex at a given step; it keeps its allegiance unless defected."""
        unit = self._unit(unit_id)
        h = Hex.from_label(at) if isinstance(at, str) else at
        if h not in self.scenario.playable:
            raise ValueError(f"cannot place {unit_id} on {_label(h)}: not a playable hex of the map")
        definition = self.scenario.units[unit_id]
        if not 0 <= steps_lost < definition.steps:
            raise ValueError(
                f"{unit_id} has {definition.steps} step(s); steps_lost must be 0..{definition.steps - 1}"
            )
        unit.status, unit.hex, unit.steps_lost, unit.supply = Status.MAP, h, steps_lost, supply
        return unit

    def remove(self, unit_id: str, status: Status = Status.POOL) -> None:
        unit = self._unit(unit_id)
        if status is Status.MAP:
            raise ValueError("use place() to put a unit on the map")
        unit.status, unit.hex = status, None

    def set_supply(self, unit_id: str, marker: Supply | str | None) -> None:
        self._unit(unit_id).supply = Supply(marker) if marker is not None else None

    def set_defected(self, unit_id: str, defected: bool = True) -> None:
        unit = self._unit(unit_id)
        if not self.scenario.units[unit_id].is_native:
            raise ValueError(f"{unit_id} is not a native unit; only native units defect (6.0)")
        unit.defected = defected
        unit.side = Side.ALLIED if defected else self.scenario.units[unit_id].side

    def set_control(self, town: str, side: Side | str) -> None:
        if town not in self.scenario.towns:
            raise ValueError(f"no town named {town!r}")
        if Side(side) is Side.ALLIED:
            self.allied_control.add(town)
        else:
            self.allied_control.discard(town)

    def set_turn(self, turn: int, side: Side | str | None = None, phase: Phase | str | None = None) -> None:
        if not 1 <= turn <= len(self.scenario.info.turns):
            raise ValueError(f"turn {turn} is outside 1..{len(self.scenario.info.turns)}")
        self.turn = turn
        if side is not None:
            self.side = Side(side)
        if phase is not None:
            self.phase = Phase(phase)

    # -- questions -----------------------------------------------------------------------
    def unit_def(self, unit_id: str) -> UnitDef:
        return self.scenario.units[unit_id]

    def step(self, unit_id: str) -> Step:
        """The counter face a unit shows now (a defected native shows its allied back)."""
        return self.scenario.units[unit_id].ladder[self.units[unit_id].steps_lost]

    def strength(self, unit_id: str) -> int:
        unit = self.units[unit_id]
        definition = self.scenario.units[unit_id]
        if unit.defected and definition.counter.native is not None:
            return definition.counter.native.defected.sp
        return definition.ladder[unit.steps_lost].sp

    def movement(self, unit_id: str) -> int:
        unit = self.units[unit_id]
        definition = self.scenario.units[unit_id]
        if unit.defected and definition.counter.native is not None:
            return definition.counter.native.defected.mp
        return definition.ladder[unit.steps_lost].mp

    def steps_left(self, unit_id: str) -> int:
        return self.scenario.units[unit_id].steps - self.units[unit_id].steps_lost

    def units_at(self, h: Hex) -> list[str]:
        return [u.id for u in self.units.values() if u.hex == h and u.status is Status.MAP]

    def stacks(self) -> dict[Hex, list[str]]:
        out: dict[Hex, list[str]] = {}
        for u in self.units.values():
            if u.status is Status.MAP and u.hex is not None:
                out.setdefault(u.hex, []).append(u.id)
        return out

    def controller(self, town: str) -> Side:
        """Who controls a town: the Allies where a Control marker lies, otherwise Italy (2.1)."""
        return Side.ALLIED if town in self.allied_control else Side.ITALIAN

    def allied_vp(self) -> int:
        return sum(self.scenario.towns[t].vp for t in self.allied_control)

    # -- rendering (lazy, so the engine never needs the renderer) -------------------------
    def to_svg(self, overlays: list[Overlay] | None = None) -> str:
        from cheren.render.svg import render_svg

        return render_svg(self.scenario, self, overlays=overlays)

    def _repr_svg_(self) -> str:
        return self.to_svg()

    def _unit(self, unit_id: str) -> UnitState:
        try:
            return self.units[unit_id]
        except KeyError:
            raise KeyError(f"no unit {unit_id!r} in scenario {self.scenario.name!r}") from None


def _label(h: Hex) -> str:
    try:
        return h.label
    except ValueError:
        return str(tuple(h))
