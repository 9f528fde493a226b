"""Actions: everything a player does, as small immutable values.  Humans, bots, notebooks and
tests all hand these to :meth:`cheren.engine.game.Game.apply`; the log stores them as JSON
(:meth:`Action.to_json`, :func:`action_from_json`).

Each type is given its rule in :mod:`cheren.engine.rulebook`.  The Combat phase's are staged so
the list of legal actions stays small: :class:`Commit` adds one unit to the attack being
assembled against a hex, :class:`AddAir` lays the air unit on it, :class:`Resolve` rolls;
:class:`Attack` does all three at once (handy for notebooks and bots).  Step losses are answered
with :class:`RemoveStep`, a retreat with :class:`Retreat`, the other combat decisions with
:class:`StayAndLose`, :class:`Push`, :class:`Advance` and :class:`NoAdvance`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from cheren.engine.wording import hex_text
from cheren.hexes import Hex


@dataclass(frozen=True)
class Action:
    # no slots of its own, so that Move may have only its two (a game lists tens of thousands of
    # moves: one object each instead of an object and its dict, and less for the collector)
    __slots__ = ()
    kind: ClassVar[str] = "action"

    def field_values(self) -> dict[str, Any]:
        """The action's fields by name (``vars()`` does not see a Move's slots)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

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


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Move one unit along a path of adjacent hexes (9.0, 10.0, 13.0); the path excludes the start."""

    kind: ClassVar[str] = "move"
    unit: str
    path: tuple[Hex, ...]

    @property
    def to(self) -> Hex:
        return self.path[-1]

    def describe(self) -> str:
        return f"move {self.unit} to {hex_text(self.path[-1]) if self.path else 'nowhere'}"


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
        return f"place {self.unit} in {hex_text(self.hex)}"


@dataclass(frozen=True)
class Retreat(Action):
    """Retreat a stack one hex (11.7; 8.1 uses the same rule)."""

    kind: ClassVar[str] = "retreat"
    units: tuple[str, ...]
    to: Hex

    def describe(self) -> str:
        return f"retreat {', '.join(self.units)} to {hex_text(self.to)}"


@dataclass(frozen=True)
class PlayChit(Action):
    """Play a chit from the hand (5.1): ``unit`` for unit chits, ``target`` a hex label or a
    hexside ``CCRR/CCRR`` for chits aimed at the map; empty where the chit needs no object."""

    kind: ClassVar[str] = "play_chit"
    chit: str
    unit: str = ""
    target: str = ""

    def describe(self) -> str:
        obj = self.unit or self.target
        return f"play {self.chit}" + (f" on {obj}" if obj else "")


@dataclass(frozen=True)
class PassChit(Action):
    """Let a chit window go by without playing (5.1)."""

    kind: ClassVar[str] = "pass_chit"

    def describe(self) -> str:
        return "play no chit"


# -- the Combat phase (11.0-11.9) -----------------------------------------------------------------
@dataclass(frozen=True)
class Commit(Action):
    """Add one unit to the attack being assembled against ``target`` (11.0)."""

    kind: ClassVar[str] = "commit"
    unit: str
    target: Hex

    def describe(self) -> str:
        return f"commit {self.unit} against {hex_text(self.target)}"


@dataclass(frozen=True)
class Uncommit(Action):
    """Take a unit (or the air unit) back out of an attack that has not been rolled yet."""

    kind: ClassVar[str] = "uncommit"
    unit: str
    target: Hex

    def describe(self) -> str:
        return f"withdraw {self.unit} from the attack on {hex_text(self.target)}"


@dataclass(frozen=True)
class AddAir(Action):
    """Lay the air support unit on the attack being assembled against ``target`` (11.3)."""

    kind: ClassVar[str] = "add_air"
    target: Hex

    def describe(self) -> str:
        return f"add the air support unit to the attack on {hex_text(self.target)}"


@dataclass(frozen=True)
class Resolve(Action):
    """Roll the attack assembled against ``target`` (11.5)."""

    kind: ClassVar[str] = "resolve"
    target: Hex

    def describe(self) -> str:
        return f"resolve the attack on {hex_text(self.target)}"


@dataclass(frozen=True)
class Attack(Action):
    """Declare and roll an attack in one action: the same as committing each unit, adding the
    air unit if ``air``, and resolving."""

    kind: ClassVar[str] = "attack"
    target: Hex
    attackers: tuple[str, ...]
    air: bool = False

    def describe(self) -> str:
        with_air = " with air support" if self.air else ""
        return f"attack {hex_text(self.target)} with {', '.join(self.attackers)}{with_air}"


@dataclass(frozen=True)
class StayAndLose(Action):
    """Answer a retreat result by staying put and losing one step for the stack (11.7)."""

    kind: ClassVar[str] = "stay_and_lose"

    def describe(self) -> str:
        return "stay and lose a step instead of retreating"


@dataclass(frozen=True)
class Push(Action):
    """Declare a push (``yes``) or not (11.8)."""

    kind: ClassVar[str] = "push"
    yes: bool

    def describe(self) -> str:
        return "push" if self.yes else "do not push"


@dataclass(frozen=True)
class Advance(Action):
    """Advance one attacking unit into the vacated hex (11.9)."""

    kind: ClassVar[str] = "advance"
    unit: str

    def describe(self) -> str:
        return f"advance {self.unit}"


@dataclass(frozen=True)
class NoAdvance(Action):
    """Advance no (more) units after this combat (11.9)."""

    kind: ClassVar[str] = "no_advance"

    def describe(self) -> str:
        return "advance no further"



ACTION_TYPES: dict[str, type[Action]] = {
    cls.kind: cls
    for cls in (
        EndPhase, Move, RemoveStep, Replace, ChooseArrival, Place, Retreat,
        PlayChit, PassChit,
        Commit, Uncommit, AddAir, Resolve, Attack, StayAndLose, Push, Advance, NoAdvance,
    )
}
"""Every action type by its JSON ``kind`` (the rulebook gives each its rule)."""


MAX_TEXT = 200  # characters in an id or a label an action names
MAX_ITEMS = 64  # hexes in a path, units in a list
MAX_COORD = 10_000  # hexes far off any map are refused, not walked


def _hex_ok(v: object) -> bool:
    return (isinstance(v, Hex) and type(v.q) is int and type(v.r) is int
            and abs(v.q) <= MAX_COORD and abs(v.r) <= MAX_COORD)


def _text_ok(value: object) -> bool:
    return isinstance(value, str) and len(value) <= MAX_TEXT


def _bool_ok(value: object) -> bool:
    return type(value) is bool


def _hexes_ok(value: object) -> bool:
    if not isinstance(value, tuple) or len(value) > MAX_ITEMS:
        return False
    for v in value:  # _hex_ok inlined: the gate checks every hex of every move's path
        if not isinstance(v, Hex):
            return False
        q, r = v.q, v.r
        if type(q) is not int or type(r) is not int:
            return False
        if not -MAX_COORD <= q <= MAX_COORD or not -MAX_COORD <= r <= MAX_COORD:
            return False
    return True


def _texts_ok(value: object) -> bool:
    return isinstance(value, tuple) and len(value) <= MAX_ITEMS and all(_text_ok(v) for v in value)


# what each field annotation admits, and how a refusal words it
_FIELD_CHECKS: dict[str, tuple[Callable[[object], bool], str]] = {
    "str": (_text_ok, f"a text of at most {MAX_TEXT} characters"),
    "bool": (_bool_ok, "true or false"),
    "Hex": (_hex_ok, "a hex"),
    "tuple[Hex, ...]": (_hexes_ok, f"a list of at most {MAX_ITEMS} hexes"),
    "tuple[str, ...]": (_texts_ok, f"a list of at most {MAX_ITEMS} names"),
}


def field_problem(kind: str, name: str, annotation: str, value: object) -> str | None:
    """Why ``value`` cannot stand in the field ``name`` of an action (by its annotation), or None."""
    check = _FIELD_CHECKS.get(annotation)
    if check is None or check[0](value):
        return None
    return f"{kind}: {name} must be {check[1]}"


def shape_problem(action: object) -> str | None:
    """Why an object cannot be an action at all (the wrong type, a field of the wrong kind), or
    None: the legality gate asks this before any rule, so no rule sees a malformed action."""
    if not isinstance(action, Action):
        return f"{type(action).__name__} is not an action"
    shape = _SHAPES.get(type(action))
    if shape is None:
        # each field's check found once per action type (the gate asks before every action)
        shape = _SHAPES[type(action)] = tuple(
            (f.name, str(f.type), _FIELD_CHECKS[str(f.type)][0]) for f in fields(action)
            if str(f.type) in _FIELD_CHECKS)
    for name, annotation, ok in shape:
        if not ok(getattr(action, name)):
            return field_problem(action.kind, name, annotation, getattr(action, name))
    return None


_SHAPES: dict[type[Action], tuple[tuple[str, str, Callable[[object], bool]], ...]] = {}  # each type's checked fields


def action_from_json(data: Any) -> Action:
    """An action from its JSON form (:meth:`Action.to_json`); anything malformed raises
    ValueError naming the field."""
    if not isinstance(data, dict):
        raise ValueError(f"an action is a JSON object, not {type(data).__name__}")
    raw_kind = data.get("kind")
    cls = ACTION_TYPES.get(raw_kind) if isinstance(raw_kind, str) else None
    if cls is None:
        shown = raw_kind if isinstance(raw_kind, str) and len(raw_kind) <= 40 else type(raw_kind).__name__
        raise ValueError(f"unknown action kind {shown!r}")
    kind = cls.kind
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            raise ValueError(f"action {kind}: missing field {f.name!r}")
        value = data[f.name]
        annotation = str(f.type)
        try:
            if annotation == "Hex":
                value = _label(value)
            elif annotation.startswith("tuple[Hex"):
                value = tuple(_label(v) for v in _items(value))
            elif annotation.startswith("tuple["):
                value = tuple(_items(value))
        except ValueError as exc:
            raise ValueError(f"action {kind}: {f.name}: {exc}") from None
        problem = field_problem(kind, f.name, annotation, value)
        if problem is not None:
            raise ValueError(problem)
        kwargs[f.name] = value
    extra = set(data) - {f.name for f in fields(cls)} - {"kind"}
    if extra:
        names = sorted(str(x)[:40] for x in extra)[:5]
        raise ValueError(f"action {kind}: unknown fields {names}")
    return cls(**kwargs)


def _items(value: Any) -> list[Any]:
    if not isinstance(value, list) or len(value) > MAX_ITEMS:
        raise ValueError(f"expected a list of at most {MAX_ITEMS} items")
    return value


def _label(value: Any) -> Hex:
    if not isinstance(value, str) or len(value) > 8:
        raise ValueError("expected a hex label such as \"0712\"")
    return Hex.from_label(value)
