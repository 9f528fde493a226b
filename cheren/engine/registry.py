"""The vocabulary of the legality gate, and the registries rule areas plug into.

:mod:`cheren.engine.game` drives the sequence of play; a rule area (combat, supply, chits) adds to it
without touching the game loop by registering here:

* an action type with its ``refusal`` and ``apply`` functions (:func:`register_action`),
* a contributor of legal actions for the current phase (:func:`register_legal_actions`),
* a hook at the start or the end of a phase (:func:`on_phase_start`, :func:`on_phase_end`),
* a check that may forbid ending the phase yet (:func:`check_end_phase`),
* a decision kind: the actions that answer it and what answering does (:func:`register_decision`).

Rule modules import this module, never :mod:`cheren.engine.game` (only for type checking), so there
are no import cycles; :mod:`cheren.engine.rules.plugins` imports every rule area once.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from types import BuiltinFunctionType, FunctionType
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from cheren.engine.actions import Action
from cheren.hexes import Hex
from cheren.scenario.models import Phase, Side

if TYPE_CHECKING:
    from cheren.engine.game import Game


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
    """An automatic step of the sequence of play, queued behind decisions.  ``call`` tasks
    carry a module-level function and keyword arguments (kept plain so undo can copy them)."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)


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
            queue=[_copy_item(q, memo) for q in self.queue],
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


# -- registries ----------------------------------------------------------------------------------
RefusalFn = Callable[["Game", Any], Refusal | None]
ApplyFn = Callable[["Game", Any], None]


@dataclass(frozen=True)
class ActionHandler:
    refusal: RefusalFn
    apply: ApplyFn


@dataclass(frozen=True)
class DecisionKind:
    actions: Callable[[Game, Decision], list[Action]]
    answer: Callable[[Game, Decision, Action], None]
    auto: bool = True  # take a single legal answer automatically (7.0 reading)


ACTION_HANDLERS: dict[type[Action], ActionHandler] = {}
LEGAL_ACTIONS: list[Callable[[Game], list[Action]]] = []
PHASE_START: dict[Phase, list[Callable[[Game], None]]] = {phase: [] for phase in Phase}
PHASE_END: list[Callable[[Game], None]] = []
END_PHASE_CHECKS: list[Callable[[Game], Refusal | None]] = []
# Chits change how one unit moves (cheren.engine.rules.movement.MoveOptions, changed in place) and
# who may move in the Exploitation phase (13.0: "plus any friendly unit with an Exploit chit").
MOVE_OPTIONS: list[Callable[[Game, str, Any], None]] = []
EXPLOIT_GRANTS: list[Callable[[Game, str], bool]] = []
# What those hooks read of the game besides the unit itself, each as a hashable value that
# changes whenever their answer may: the game keeps units' reach and legal moves under it.
# A hook registered without one makes the game ask the hooks every time instead.
HOOK_KEYS: list[Callable[[Game], Hashable]] = []
UNKEYED_HOOKS: list[Callable[..., Any]] = []
DECISIONS: dict[str, DecisionKind] = {}


def register_action(action_type: type[Action], refusal: RefusalFn, apply: ApplyFn) -> None:
    ACTION_HANDLERS[action_type] = ActionHandler(refusal, apply)


def register_legal_actions(fn: Callable[[Game], list[Action]]) -> None:
    if fn not in LEGAL_ACTIONS:
        LEGAL_ACTIONS.append(fn)


def on_phase_start(phase: Phase, fn: Callable[[Game], None], *, first: bool = False) -> None:
    """Run ``fn`` at the start of ``phase``.  ``first`` puts it before the hooks already
    registered (chit windows must open before a phase's automatic processing, e.g. the supply
    check), so the order never depends on import order."""
    if fn in PHASE_START[phase]:
        return
    if first:
        PHASE_START[phase].insert(0, fn)
    else:
        PHASE_START[phase].append(fn)


def on_phase_end(fn: Callable[[Game], None]) -> None:
    if fn not in PHASE_END:
        PHASE_END.append(fn)


def check_end_phase(fn: Callable[[Game], Refusal | None]) -> None:
    """A rule that may forbid ending the phase yet (e.g. an attack declared but not resolved)."""
    if fn not in END_PHASE_CHECKS:
        END_PHASE_CHECKS.append(fn)


def modify_move_options(fn: Callable[[Game, str, Any], None], key: Callable[[Game], Hashable] | None = None) -> None:
    """``fn(game, unit, options)`` changes a unit's :class:`~cheren.engine.rules.movement.MoveOptions`;
    ``key(game)`` sums up everything ``fn`` reads of the game other than the unit (see
    ``HOOK_KEYS``)."""
    if fn not in MOVE_OPTIONS:
        MOVE_OPTIONS.append(fn)
        _register_key(fn, key)


def grant_exploitation(fn: Callable[[Game, str], bool], key: Callable[[Game], Hashable] | None = None) -> None:
    if fn not in EXPLOIT_GRANTS:
        EXPLOIT_GRANTS.append(fn)
        _register_key(fn, key)


def _register_key(fn: Callable[..., Any], key: Callable[[Game], Hashable] | None) -> None:
    if key is None:
        UNKEYED_HOOKS.append(fn)
    elif key not in HOOK_KEYS:
        HOOK_KEYS.append(key)


def hooks_key(game: Game) -> Hashable | None:
    """Everything the move-option and exploitation hooks depend on now, or None when some hook
    did not say (then nothing may be cached on them)."""
    if UNKEYED_HOOKS:
        return None
    return tuple([key(game) for key in HOOK_KEYS])


def register_decision(kind: str, decision: DecisionKind) -> None:
    DECISIONS[kind] = decision
