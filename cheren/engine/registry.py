"""The vocabulary of the legality gate: what a rule area hands the game and reads of it.

* :class:`Refusal`, :class:`Verdict`, :class:`IllegalAction`: why an action is not legal now;
* :class:`Decision` and :class:`Task`: a choice the rules hand a player, an automatic step, both
  queued in the :class:`Flow` of the phase;
* :class:`GameState`: the part of the game a rule area may read and change (the game in
  :mod:`cheren.engine.game` is one; rule modules name this protocol, never the game itself);
* :class:`ActionRule`, :class:`DecisionKind` and :class:`Rulebook`: the shape of a rule area's
  part in the gate.  The one rulebook the game plays by is listed in :mod:`cheren.engine.rulebook`.

This module imports nothing of the rules or the game, so everything can import it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from enum import Enum
from fractions import Fraction
from types import BuiltinFunctionType, FunctionType
from typing import Any, Protocol

from pydantic import BaseModel

from cheren.engine.actions import Action
from cheren.engine.position import Position
from cheren.hexes import Hex
from cheren.scenario.compiled import Scenario
from cheren.scenario.models import Phase, Side
from cheren.scenario.sequence import Moment


@dataclass(frozen=True)
class Refusal:
    """Why an action is illegal: the rule numbers and a plain-language reason."""

    rules: tuple[str, ...]
    reason: str

    def __str__(self) -> str:
        return f"{self.reason} (rule {', '.join(self.rules)})"


class IllegalAction(ValueError):
    def __init__(self, action: Action, refusal: Refusal) -> None:
        self.action = action
        self.refusal = refusal
        try:
            what = action.describe()
        except Exception:  # a malformed action (refused for that very reason) may not describe itself
            what = f"{getattr(action, 'kind', type(action).__name__)} action"
        super().__init__(f"{what}: {refusal}")


@dataclass(frozen=True)
class Verdict:
    refusal: Refusal | None = None

    @property
    def ok(self) -> bool:
        return self.refusal is None

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        return "legal" if self.refusal is None else str(self.refusal)


OK = Verdict()


@dataclass
class Decision:
    """A choice the rules hand to one player before play goes on."""

    kind: str
    side: Side
    rules: tuple[str, ...]
    prompt: str
    units: tuple[str, ...] = ()
    hex: Hex | None = None
    count: int = 1  # losses: how many steps remain to be taken
    choices: tuple[Hex, ...] = ()  # place: the hexes offered
    code: str = ""  # arrival: the arrival code offered (8.4)
    data: dict[str, Any] = field(default_factory=dict)  # anything else a rule area needs


@dataclass
class Task:
    """An automatic step of the sequence of play, queued behind decisions: ``data`` holds a
    module-level function (``handler``, called with the game) and its keyword arguments
    (``args``), kept plain so undo can copy them.  ``kind`` names the step for a reader."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)


def call(handler: Callable[..., None], **args: Any) -> Task:
    """A task that calls ``handler(game, **args)``."""
    return Task("call", {"handler": handler, "args": args} if args else {"handler": handler})


@dataclass
class Flow:
    """Where the sequence of play stands inside a phase (copied for undo)."""

    queue: list[Decision | Task] = field(default_factory=list)
    moved: set[str] = field(default_factory=set)
    reaction_used: int = 0
    replacement_done: bool = False
    over: bool = False
    extra: dict[str, Any] = field(default_factory=dict)  # per-phase state of rule areas (reset each phase)
    turn_extra: dict[str, Any] = field(default_factory=dict)  # per-game-turn state (reset each turn)

    def copy(self, like: Flow | None = None) -> Flow:
        """A deep copy, as :func:`copy.deepcopy` makes it, at a fraction of its cost: immutable
        values (strings, numbers, hexes, enums, tuples of those, functions) are shared and only
        the containers are rebuilt.  Undo takes one before every action.

        ``like``: an earlier copy that nobody changes (an undo snapshot); the parts of this flow
        equal to its parts are shared with it instead of copied.  Most actions leave the rule
        areas' ``extra`` state as it was, so consecutive snapshots share it.  (Sharing part by
        part assumes ``extra`` holds none of the queue's decisions; the game's rule areas never
        put them there.)"""
        memo: dict[int, Any] = {}
        return Flow(
            # an undo snapshot's queue is never changed (a restore copies it): an empty one is shared
            queue=like.queue if like is not None and not self.queue and not like.queue
            else [_copy_item(q, memo) for q in self.queue],
            moved=like.moved if like is not None and like.moved == self.moved else set(self.moved),
            reaction_used=self.reaction_used,
            replacement_done=self.replacement_done,
            over=self.over,
            extra=like.extra if like is not None and like.extra == self.extra else _copy_value(self.extra, memo),
            turn_extra=(like.turn_extra if like is not None and like.turn_extra == self.turn_extra
                        else _copy_value(self.turn_extra, memo)),
        )


_SHARED = (str, int, float, bool, type(None), Fraction, Enum, FunctionType, BuiltinFunctionType, type)


def _copy_value(value: Any, memo: dict[int, Any]) -> Any:
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    found = memo.get(id(value))
    if found is not None:
        return found
    if kind is dict:
        out: Any = {}
        memo[id(value)] = out
        for k, v in value.items():
            out[k] = _copy_value(v, memo)
        return out
    if kind is list:
        out = []
        memo[id(value)] = out
        out.extend(_copy_value(v, memo) for v in value)
        return out
    if kind is set:
        out = set(value)  # set members are hashable, so immutable in practice
        memo[id(value)] = out
        return out
    if isinstance(value, _SHARED):
        return value
    if isinstance(value, tuple):  # hexes, tuples of unit ids: shared when everything in them is
        items = [_copy_value(v, memo) for v in value]
        if all(a is b for a, b in zip(items, value, strict=True)):
            return value
        if kind is tuple:
            return tuple(items)
    if isinstance(value, Decision | Task):
        return _copy_item(value, memo)
    if isinstance(value, BaseModel) and value.model_config.get("frozen"):
        return value  # scenario data (a combat result): frozen
    kind_params = getattr(kind, "__dataclass_params__", None)
    if kind_params is not None and not kind_params.frozen and hasattr(value, "__dict__"):
        # the rule areas' own state objects (combat's): the same object, each field copied
        out = object.__new__(kind)
        memo[id(value)] = out
        out.__dict__.update({k: _copy_value(v, memo) for k, v in value.__dict__.items()})
        return out
    if kind_params is not None and not hasattr(value, "__dict__"):
        # slotted, or made by the compiled engine (mypyc's native classes keep their fields in C)
        out = value.__new__(kind)  # not object.__new__, which refuses a native class
        memo[id(value)] = out
        for f in fields(value):
            object.__setattr__(out, f.name, _copy_value(getattr(value, f.name), memo))
        return out
    return copy.deepcopy(value, memo)


def _copy_item(item: Decision | Task, memo: dict[int, Any]) -> Decision | Task:
    found = memo.get(id(item))
    if found is not None:
        return found  # type: ignore[no-any-return]
    out: Decision | Task
    if type(item) is Task:
        out = Task(item.kind, _copy_value(item.data, memo))
    elif type(item) is Decision:
        out = Decision(item.kind, item.side, item.rules, item.prompt, item.units, item.hex, item.count, item.choices,
                       item.code, _copy_value(item.data, memo))
    else:
        out = copy.deepcopy(item, memo)
    memo[id(item)] = out
    return out


# -- what the rules see of the game -------------------------------------------------------------
class GameState(Protocol):
    """The part of a game a rule area reads and changes: the position, the flow of the phase,
    where the sequence of play stands, and the ways to report and queue what happens."""

    position: Position
    flow: Flow
    # what rule areas keep between actions to go faster (never game state: undo, saves and
    # replays ignore it, and forgetting it changes no game)
    caches: dict[str, Any]

    @property
    def rules(self) -> Rulebook: ...
    @property
    def scenario(self) -> Scenario: ...
    @property
    def moment(self) -> Moment: ...
    @property
    def turn(self) -> int: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def phasing(self) -> Side: ...
    @property
    def acting(self) -> Side: ...
    @property
    def pending(self) -> Decision | None: ...

    def event(self, text: str) -> None: ...
    def queue_front(self, *items: Decision | Task) -> None: ...
    def queue_back(self, *items: Decision | Task) -> None: ...
    def lose_step(self, uid: str, rules: tuple[str, ...]) -> None: ...
    def eliminate(self, uid: str, rules: tuple[str, ...], why: str) -> None: ...


# -- a rule area's part in the gate ---------------------------------------------------------------
@dataclass(frozen=True)
class ActionRule:
    """One action type: why it is refused now (None: legal) and what doing it changes."""

    refusal: Callable[[GameState, Any], Refusal | None]
    apply: Callable[[GameState, Any], None]


@dataclass(frozen=True)
class DecisionKind:
    """One kind of decision: the actions that answer it and what answering does."""

    actions: Callable[[GameState, Decision], list[Action]]
    answer: Callable[[GameState, Decision, Action], None]
    auto: bool = True  # take a single legal answer automatically (7.0 reading)
    # what happens when nothing answers it (a retreat with nowhere to go: 11.7); None: it lapses
    impossible: Callable[[GameState, Decision], None] | None = None


Hook = Callable[[GameState], None]


class ListedPart(Protocol):
    """A run of listed legal actions: a list, or one that makes its actions when read (a unit's
    moves, :class:`~cheren.engine.rules.moves.UnitMoves`)."""

    def __len__(self) -> int: ...
    def __getitem__(self, i: int, /) -> Action: ...
    def __iter__(self) -> Iterator[Action]: ...


@dataclass(frozen=True)
class Rulebook:
    """Everything the game plays by, each list in the order the game runs it.

    ``move_options`` hooks change how one unit moves (``fn(game, unit, options)`` on a
    :class:`~cheren.engine.rules.movement.MoveOptions`, changed in place), ``exploit_grants`` who
    may move in the Exploitation phase (13.0).  ``hook_keys`` sum up, as hashable values, what
    those hooks read of the game besides the unit, so reach and moves can be kept under them;
    ``None`` says some hook reads more, and nothing is kept."""

    actions: Mapping[type[Action], ActionRule]
    decisions: Mapping[str, DecisionKind]
    legal_actions: tuple[Callable[[GameState], list[Action]], ...]
    phase_start: Mapping[Phase, tuple[Hook, ...]]
    phase_end: tuple[Hook, ...]
    end_phase_checks: tuple[Callable[[GameState], Refusal | None], ...]
    move_options: tuple[Callable[[GameState, str, Any], None], ...] = ()
    exploit_grants: tuple[Callable[[GameState, str], bool], ...] = ()
    hook_keys: tuple[Callable[[GameState], Hashable], ...] | None = ()
    # a legal_actions contributor's list in parts, uncombined and unmade (see :meth:`listed_parts`)
    in_parts: Mapping[Callable[[GameState], list[Action]], Callable[[GameState], Sequence[ListedPart]]] = field(
        default_factory=dict)

    def hooks_key(self, game: GameState) -> Hashable | None:
        """Everything the move-option and exploitation hooks depend on now, or None when some
        hook did not say (then nothing may be cached on them)."""
        keys = self.hook_keys
        if keys is None:
            return None
        if len(keys) == 1:  # the game's rulebook: asked before every reach and every move's check
            return (keys[0](game),)
        return tuple([key(game) for key in keys])

    def listed(self, game: GameState) -> list[Action]:
        """What ``legal_actions`` give together, in their order (``+=`` copies a list whole, where
        chaining them went item by item: a Movement phase lists hundreds after every action)."""
        out: list[Action] = []
        for contribute in self.legal_actions:
            out += contribute(game)
        return out

    def listed_parts(self, game: GameState) -> list[ListedPart]:
        """What :meth:`listed` gives, in the same order, as the contributors' lists (and the
        parts of those that have them, ``in_parts``), not put together."""
        out: list[ListedPart] = []
        for contribute in self.legal_actions:
            parts = self.in_parts.get(contribute)
            if parts is None:
                out.append(contribute(game))
            else:
                out += parts(game)
        return out
