"""The position: where every unit is, its steps and markers, town control, the chits, the turn
and phase, and the dice.  No rules live here: :mod:`cheren.engine.opening` builds the opening position
(rule 5.0), the rules modules change positions, and :mod:`cheren.files.position_saves` stores them."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import InitVar, dataclass, field, fields
from enum import StrEnum
from types import MappingProxyType
from typing import Any, NamedTuple

from cheren.engine.dice import Dice
from cheren.hexes import Hex
from cheren.scenario.compiled import Scenario, Step
from cheren.scenario.models import Phase, Side


class Status(StrEnum):
    MAP = "map"  # on a hex
    POOL = "pool"  # a reinforcement that has not arrived yet (5.0, 8.0)
    OFF_MAP = "off_map"  # arrived but kept off the map: the air unit between combats (11.3)
    ELIMINATED = "eliminated"


class Supply(StrEnum):
    LOW = "low"  # 12.4
    NO = "no"  # 12.4, 12.6


# Unit fields whose changes the position tracks (occupancy index, change stamps, undo journal).
_TRACKED = frozenset({"side", "status", "hex", "steps_lost", "supply", "defected"})
# Change stamps come from one counter for the whole process, so a stamp is never issued twice:
# two positions carrying the same stamp for a side hold the same units for it (one is a copy of
# the other and neither changed since), which is what lets caches key on stamps.
_STAMPS = itertools.count(1)


@dataclass(slots=True, init=False)
class UnitState:
    """One unit's changing state.  ``steps_lost`` indexes the unit's step ladder (11.6).

    Assigning a field of a unit that belongs to a :class:`Position` keeps the position's
    occupancy index, change stamps and undo journal up to date, so rules simply assign."""

    id: str
    side: Side
    status: Status
    hex: Hex | None
    steps_lost: int
    supply: Supply | None
    defected: bool  # a native unit that flipped to its allied side (6.0)
    _tracker: _Tracker | None = field(repr=False, compare=False)

    def __init__(
        self,
        id: str,
        side: Side,
        status: Status,
        hex: Hex | None = None,
        steps_lost: int = 0,
        supply: Supply | None = None,
        defected: bool = False,
    ) -> None:
        # object.__setattr__ spelt out each time: compiled (mypyc), each becomes a store into the
        # unit (called through a name, CPython refuses it for a class with its own __setattr__)
        object.__setattr__(self, "_tracker", None)
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "side", side)
        object.__setattr__(self, "status", status)
        object.__setattr__(self, "hex", hex)
        object.__setattr__(self, "steps_lost", steps_lost)
        object.__setattr__(self, "supply", supply)
        object.__setattr__(self, "defected", defected)

    def __setattr__(self, name: str, value: Any) -> None:
        tracker = self._tracker
        if tracker is None or name not in _TRACKED:
            object.__setattr__(self, name, value)
        else:
            tracker.change(self, name, value)

    def _clone(self, tracker: _Tracker) -> UnitState:
        """The same unit for another position (see ``Position.copy``)."""
        new = UnitState(self.id, self.side, self.status, self.hex, self.steps_lost, self.supply, self.defected)
        object.__setattr__(new, "_tracker", tracker)
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        # copy, deepcopy and pickle give a unit of no position (never one wired to this one's)
        return (UnitState, (self.id, self.side, self.status, self.hex, self.steps_lost, self.supply, self.defected))

    @property
    def on_map(self) -> bool:
        return self.status is Status.MAP




class _Tracker:
    """What a position keeps alongside its units, updated on every change of a unit field:

    * ``at``: the units on the map by hex, in the order of ``Position.units`` (what a scan of
      every unit would give, without the scan);
    * change stamps, one per unit and one per side, fresh on every change (see ``_STAMPS``);
    * ``journal``: while a game records, each change as (unit id, field, old value, and the
      unit's and both sides' stamps before it), so undo can put back just what an action changed,
      stamps included, instead of keeping a copy of every unit and stamp."""

    __slots__ = ("at", "journal", "occupied", "order", "side_stamps", "stack_order", "unit_stamps")

    def __init__(self, units: dict[str, UnitState] | None) -> None:
        if units is None:  # an empty one for copy() to fill (compiled, __new__ calls __init__)
            return
        self.order = {uid: i for i, uid in enumerate(units)}
        self.at: dict[Hex, list[str]] = {}
        for uid, u in units.items():
            if u.status is Status.MAP and u.hex is not None:
                self.at.setdefault(u.hex, []).append(uid)
        stamp = next(_STAMPS)
        self.unit_stamps = dict.fromkeys(units, stamp)
        self.side_stamps = {Side.ALLIED: stamp, Side.ITALIAN: stamp}
        # entries name the unit by id: a journal holding the units themselves would make
        # units -> tracker -> journal -> units a cycle, left for the garbage collector
        self.journal: list[tuple[str, str, Any, int, int, int]] | None = None
        self.occupied: dict[Side, tuple[int, frozenset[Hex]]] = {}
        # the occupied hexes in the order of their first unit, under both sides' stamps
        self.stack_order: tuple[tuple[int, int], list[Hex]] | None = None
        for u in units.values():
            object.__setattr__(u, "_tracker", self)

    def copy(self) -> _Tracker:
        """The same index and stamps for a copy of the units (the same units: the same stamps)."""
        out = _Tracker(None)
        out.order = dict(self.order)
        out.at = {h: list(ids) for h, ids in self.at.items()}
        out.unit_stamps = dict(self.unit_stamps)
        out.side_stamps = dict(self.side_stamps)
        out.journal = None
        out.occupied = dict(self.occupied)
        out.stack_order = self.stack_order
        return out

    def change(self, unit: UnitState, name: str, value: Any) -> None:
        old = getattr(unit, name)
        if old == value:
            return
        stamps = self.side_stamps
        if self.journal is not None:
            self.journal.append(
                (unit.id, name, old, self.unit_stamps[unit.id], stamps[Side.ALLIED], stamps[Side.ITALIAN]))
        if name == "hex" or name == "status":
            before = unit.hex if unit.status is Status.MAP else None
            object.__setattr__(unit, name, value)
            after = unit.hex if unit.status is Status.MAP else None
            if before != after:
                self._relocate(unit.id, before, after)
        else:
            object.__setattr__(unit, name, value)
        stamp = next(_STAMPS)
        self.unit_stamps[unit.id] = stamp
        stamps[unit.side] = stamp
        if name == "side":
            stamps[old] = stamp

    def _relocate(self, uid: str, before: Hex | None, after: Hex | None) -> None:
        if before is not None:
            stack = self.at[before]
            stack.remove(uid)
            if not stack:
                del self.at[before]
        if after is not None:
            order = self.order
            rank = order.setdefault(uid, len(order))
            stack = self.at.setdefault(after, [])
            i = 0
            while i < len(stack) and order[stack[i]] < rank:
                i += 1
            stack.insert(i, uid)


@dataclass
class ChitState:
    """Chit instances are ``key.n`` (``infiltrate.2``).  Hands are private to their side (5.0)."""

    hands: dict[Side, list[str]] = field(default_factory=lambda: {Side.ALLIED: [], Side.ITALIAN: []})
    cup: list[str] = field(default_factory=list)
    played: list[str] = field(default_factory=list)  # face up until the end of the phase (5.1)
    removed: list[str] = field(default_factory=list)  # out of play (one-time chits, 5.1)
    # Enemy chits a side drew and removed unseen (5.1): only that side knows which they were.
    seen: dict[Side, list[str]] = field(default_factory=lambda: {Side.ALLIED: [], Side.ITALIAN: []})

    def __reduce__(self) -> tuple[Any, ...]:
        # pickle and copy by field: compiled (mypyc), a chit state has no __dict__ they could read
        return (ChitState, (self.hands, self.cup, self.played, self.removed, self.seen))

    def copy(self) -> ChitState:
        return ChitState(
            hands={side: list(hand) for side, hand in self.hands.items()},
            cup=list(self.cup),
            played=list(self.played),
            removed=list(self.removed),
            seen={side: list(seen) for side, seen in self.seen.items()},
        )


class Mark(NamedTuple):  # after ChitState: compiled (mypyc), its field types must exist before it
    """A point a position can be rolled back to (see :meth:`Position.mark`): the length of the
    unit journal then (the units and their stamps come back through it), and copies of the
    small rest of the position."""

    journal: int
    turn: int
    side: Side
    phase: Phase
    allied_control: set[str]
    released: set[str]
    chits: ChitState
    postponed: set[str]
    delayed: set[str]
    dice: Dice


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
    """A game position.  Build the opening with :func:`cheren.engine.opening.initial_position` or an
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
    # not a field: copy() hands the copy its units' tracker (their index and stamps) this way
    tracker: InitVar[_Tracker | None] = None

    def __post_init__(self, tracker: _Tracker | None) -> None:
        # not a dataclass field: it is derived from the units, never compared, saved or shown
        self._tracker: _Tracker = tracker if tracker is not None else _Tracker(self.units)

    # copy.copy, copy.deepcopy and pickle give a position with its own units and tracker
    def __copy__(self) -> Position:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> Position:
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        # by its fields (compiled, mypyc, a position has no __dict__, and __new__ runs __init__)
        return (Position, tuple(getattr(self, f.name) for f in fields(self)))

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
        tracker = self._tracker.copy()
        return Position(
            self.scenario, {uid: u._clone(tracker) for uid, u in self.units.items()}, self.dice.copy(),
            self.turn, self.side, self.phase, set(self.allied_control), set(self.released), self.chits.copy(),
            set(self.postponed), set(self.delayed), tracker)

    # -- change tracking, for undo and caches --------------------------------------------------
    def stamp(self, side: Side) -> int:
        """A number that changes whenever a unit of ``side`` changes (moves, loses a step, gets
        a marker, defects...) and is never reused: a cache key for what a side's units decide."""
        return self._tracker.side_stamps[side]

    def unit_stamp(self, unit_id: str) -> int:
        """The same for one unit."""
        return self._tracker.unit_stamps[unit_id]

    def occupied(self, side: Side) -> frozenset[Hex]:
        """The hexes holding units of ``side`` (kept under the side's stamp: no scan)."""
        t = self._tracker
        stamp = t.side_stamps[side]
        found = t.occupied.get(side)
        if found is None or found[0] != stamp:
            # one pass over the units (what the index holds: units on the map, with a hex), not a
            # generator per stack: asked again after every change of the side's units
            on_map = Status.MAP
            hexes = frozenset([u.hex for u in self.units.values()
                               if u.side is side and u.status is on_map and u.hex is not None])
            found = t.occupied[side] = (stamp, hexes)
        return found[1]

    def record(self) -> None:
        """Keep a journal of unit changes from now on, so :meth:`rollback` can undo them."""
        if self._tracker.journal is None:
            self._tracker.journal = []

    def forget(self) -> None:
        """Empty the journal of unit changes (while still recording): no mark taken before now
        may be rolled back to afterwards."""
        if self._tracker.journal is not None:
            self._tracker.journal.clear()

    def mark(self, like: Mark | None = None) -> Mark:
        """Where :meth:`rollback` returns to.  The units share structure with the present
        (through the journal, see :meth:`record`); the small rest is copied, or shared with
        ``like`` (an earlier mark of this position, never changed) where it is equal."""
        t = self._tracker
        if t.journal is None:
            raise ValueError("mark() needs a position that records its changes: call record() first")
        if like is None:
            return Mark(
                len(t.journal), self.turn, self.side, self.phase, set(self.allied_control), set(self.released),
                self.chits.copy(), set(self.postponed), set(self.delayed), self.dice.copy(),
            )
        return Mark(
            len(t.journal), self.turn, self.side, self.phase,
            like.allied_control if like.allied_control == self.allied_control else set(self.allied_control),
            like.released if like.released == self.released else set(self.released),
            like.chits if like.chits == self.chits else self.chits.copy(),
            like.postponed if like.postponed == self.postponed else set(self.postponed),
            like.delayed if like.delayed == self.delayed else set(self.delayed),
            self.dice.copy(),
        )

    def rollback(self, mark: Mark) -> None:
        """Put the position back as it was at ``mark`` (taken from this position)."""
        t = self._tracker
        journal = t.journal
        assert journal is not None and len(journal) >= mark.journal
        t.journal = None
        try:
            units = self.units
            unit_stamps, side_stamps = t.unit_stamps, t.side_stamps
            # newest first: each unit and side ends with the stamps it had before its first change
            # since the mark, which are the stamps it had at the mark
            undone = journal[mark.journal :]
            undone.reverse()
            for uid, name, old, unit_stamp, allied, italian in undone:
                setattr(units[uid], name, old)
                unit_stamps[uid] = unit_stamp
                side_stamps[Side.ALLIED], side_stamps[Side.ITALIAN] = allied, italian
        finally:
            del journal[mark.journal :]
            t.journal = journal
        self.turn, self.side, self.phase = mark.turn, mark.side, mark.phase
        self.allied_control, self.released = set(mark.allied_control), set(mark.released)
        self.chits, self.postponed, self.delayed = mark.chits.copy(), set(mark.postponed), set(mark.delayed)
        self.dice = mark.dice.copy()

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
        """The units on the map in ``h``, in the order of :attr:`units` (from the index)."""
        return list(self._tracker.at.get(h, ()))

    def stacks(self) -> dict[Hex, list[str]]:
        """Every occupied hex with its units, hexes in the order of their first unit."""
        t = self._tracker
        at = t.at
        key = (t.side_stamps[Side.ALLIED], t.side_stamps[Side.ITALIAN])  # change with any unit
        if t.stack_order is None or t.stack_order[0] != key:
            order = t.order
            t.stack_order = (key, sorted(at, key=lambda h: order[at[h][0]]))
        return {h: list(at[h]) for h in t.stack_order[1]}

    def stack_map(self) -> Mapping[Hex, Sequence[str]]:
        """Every occupied hex with its units, in no particular order: a read-only view of the
        position's own index, for rules that scan every stack (read it, never change it)."""
        return MappingProxyType(self._tracker.at)

    def controller(self, town: str) -> Side:
        """Who controls a town: the Allies where a Control marker lies, otherwise Italy (2.1)."""
        return Side.ALLIED if town in self.allied_control else Side.ITALIAN

    def allied_vp(self) -> int:
        return sum(self.scenario.towns[t].vp for t in self.allied_control)

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

