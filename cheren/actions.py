"""Actions: everything a player does, as small immutable values.  Humans, bots, notebooks and
tests all hand these to :meth:`cheren.game.Game.apply`; the log stores them as JSON."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from cheren.hexes import Hex


@dataclass(frozen=True)
class Action:
    kind: ClassVar[str] = "action"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, Hex):
                value = value.label
            elif isinstance(value, tuple):
                value = [v.label if isinstance(v, Hex) else v for v in value]
            out[f.name] = value
        return out

    def describe(self) -> str:
        return self.kind


@dataclass(frozen=True)
class EndPhase(Action):
    """Finish the current phase (7.0)."""

    kind: ClassVar[str] = "end_phase"

    def describe(self) -> str:
        return "end the phase"


@dataclass(frozen=True)
class Move(Action):
    """Move one unit along a path of adjacent hexes (9.0, 10.0, 13.0); the path excludes the start."""

    kind: ClassVar[str] = "move"
    unit: str
    path: tuple[Hex, ...]

    @property
    def to(self) -> Hex:
        return self.path[-1]

    def describe(self) -> str:
        return f"move {self.unit} to {self.to.label}"


@dataclass(frozen=True)
class RemoveStep(Action):
    """The owner removes one step from a unit (3.1 over-stacking, 8.1 arrival losses)."""

    kind: ClassVar[str] = "remove_step"
    unit: str

    def describe(self) -> str:
        return f"remove a step from {self.unit}"


@dataclass(frozen=True)
class Replace(Action):
    """Replace one step of an allied unit on a replacement turn (8.3)."""

    kind: ClassVar[str] = "replace"
    unit: str

    def describe(self) -> str:
        return f"replace a step of {self.unit}"


@dataclass(frozen=True)
class ChooseArrival(Action):
    """Take an arrival option for the units sharing an arrival code (8.4: K7-F8)."""

    kind: ClassVar[str] = "choose_arrival"
    code: str
    postpone: bool

    def describe(self) -> str:
        return f"{'postpone' if self.postpone else 'take'} the {self.code} arrival"


@dataclass(frozen=True)
class Place(Action):
    """Place a unit where a rule lets its owner choose: a defector one hex away (6.0), an
    Italian reinforcement in a Tigre town (8.2)."""

    kind: ClassVar[str] = "place"
    unit: str
    hex: Hex

    def describe(self) -> str:
        return f"place {self.unit} in {self.hex.label}"


@dataclass(frozen=True)
class Retreat(Action):
    """Retreat a stack one hex (11.7; 8.1 uses the same rule)."""

    kind: ClassVar[str] = "retreat"
    units: tuple[str, ...]
    to: Hex

    def describe(self) -> str:
        return f"retreat {', '.join(self.units)} to {self.to.label}"


ACTION_TYPES: dict[str, type[Action]] = {
    cls.kind: cls for cls in (EndPhase, Move, RemoveStep, Replace, ChooseArrival, Place, Retreat)
}


def register(cls: type[Action]) -> type[Action]:
    """Later rule areas (combat, chits) add their action types here."""
    ACTION_TYPES[cls.kind] = cls
    return cls


def action_from_json(data: dict[str, Any]) -> Action:
    kind = data.get("kind")
    cls = ACTION_TYPES.get(str(kind))
    if cls is None:
        raise ValueError(f"unknown action kind {kind!r}")
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            raise ValueError(f"action {kind}: missing field {f.name!r}")
        value = data[f.name]
        annotation = str(f.type)
        if annotation == "Hex":
            value = Hex.from_label(value)
        elif annotation.startswith("tuple[Hex"):
            value = tuple(Hex.from_label(v) for v in value)
        elif annotation.startswith("tuple["):
            value = tuple(value)
        kwargs[f.name] = value
    extra = set(data) - {f.name for f in fields(cls)} - {"kind"}
    if extra:
        raise ValueError(f"action {kind}: unknown fields {sorted(extra)}")
    return cls(**kwargs)
