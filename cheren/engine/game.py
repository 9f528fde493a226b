"""The game: the sequence of play (7.0) driving a position through one legality gate.

Every action goes through :meth:`Game.check` and :meth:`Game.apply`; ``legal_actions()`` lists
what the acting side may do now.  A refused or failing action changes nothing.  Decisions the
rules give to a player (which step to lose, where to retreat, whether to take an option) are
pending :class:`Decision`s that the owner answers with ordinary actions.  The seed plus the log
replays the game exactly; undo and redo work on whole actions.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, NamedTuple

from cheren.engine.actions import (
    Action,
    ChooseArrival,
    EndPhase,
    Move,
    Place,
    RemoveStep,
    Replace,
    Retreat,
    shape_problem,
)
from cheren.engine.dice import Dice
from cheren.engine.opening import initial_position
from cheren.engine.position import Mark, Position, Status, Supply
from cheren.engine.registry import (
    ACTION_HANDLERS,
    DECISIONS,
    END_PHASE_CHECKS,
    EXPLOIT_GRANTS,
    LEGAL_ACTIONS,
    MOVE_OPTIONS,
    OK,
    PHASE_END,
    PHASE_START,
    Decision,
    Flow,
    IllegalAction,
    Refusal,
    Task,
    Verdict,
    hooks_key,
)
from cheren.engine.rules import control, garrisons, plugins, reinforcement, stacking
from cheren.engine.rules.movement import MoveOptions, ReachMap, explain_move, immobile_reason, reachable
from cheren.engine.rules.retreat import retreat_options
from cheren.engine.rules.zoc import Zoc, zoc_map
from cheren.engine.wording import hex_text, mp_text, rules_cited
from cheren.hexes import Hex
from cheren.scenario.compiled import Scenario
from cheren.scenario.models import Phase, Side
from cheren.scenario.sequence import PHASE_RULES, PHASE_TITLES, Moment, next_moment

REACTION_LIMIT = 3  # 10.0: total stacking value the reacting side may move

__all__ = [
    "OK", "Decision", "Flow", "Game", "IllegalAction", "LogEntry", "Refusal", "StepLoss", "Task", "Verdict", "plugins"
]


class StepLoss(NamedTuple):
    """Steps one unit lost, and the rules that took them (the first says why: 3.1, 12.6, 11.5...)."""

    unit: str
    side: Side
    steps: int
    rules: tuple[str, ...]


@dataclass
class LogEntry:
    index: int
    moment: Moment
    side: Side
    action: Action
    events: list[str]
    losses: list[StepLoss] = field(default_factory=list)  # the same losses as data, for analysis

    def __str__(self) -> str:
        lines = [f"{self.index:4d}. [{self.moment}] {self.side.adjective}: {self.action.describe()}"]
        lines += [f"        {e}" for e in self.events]
        return "\n".join(lines)


class _Snapshot(NamedTuple):
    """What undo needs to go back to before an action: the position's rollback mark (the units
    come back through its journal), a copy of the flow, and the length of the log."""

    position: Position
    mark: Mark
    flow: Flow
    log: int


class Game:
    def __init__(
        self,
        scenario: Scenario,
        seed: int = 0,
        position: Position | None = None,
        *,
        variants: Iterable[str] | None = None,
    ) -> None:
        """``variants``: the optional rules on for this game (cheren.scenario.variants); default: those the
        scenario (or the position's scenario) has on."""
        if variants is not None:
            scenario = scenario.with_variants(variants)
        if position is not None and position.scenario.variants != scenario.variants:
            position.scenario = scenario  # the rules read the variants from the position's scenario
        self.scenario = scenario
        self.seed = seed
        self.position = position if position is not None else initial_position(scenario, seed)
        self.start = self.position.copy()
        self.flow = Flow()
        self.log: list[LogEntry] = []
        self._events: list[str] = []
        self._losses: list[StepLoss] = []
        self._undo: list[_Snapshot] = []
        self._redo: list[Action] = []
        self._reach_cache: dict[tuple[Any, ...], ReachMap] = {}
        # each unit's latest reach and moves, across phases: a unit that stood still while the
        # enemy moved elsewhere gets them back after a check (see movement.reachable's previous)
        self._latest: dict[str, tuple[ReachMap, list[Action] | None]] = {}
        self._options_cache: dict[tuple[Any, ...], MoveOptions] = {}
        self._cache_moment: tuple[Any, ...] = ()
        self.caching = True  # False: work out every reach and move afresh (tests compare the two)
        self._last_walk: tuple[Any, ...] | None = None
        self._phase_moves: tuple[Any, dict[str, tuple[int, list[Action]]]] = (None, {})
        self._start_phase()
        self._run_queue()
        self.start_flow = self.flow.copy()
        self.position.record()  # undo rolls the units back through the position's journal
        self._opening_events = list(self._events)
        self._events = []

    # -- where we are ------------------------------------------------------------------------
    @property
    def moment(self) -> Moment:
        p = self.position
        return Moment(p.turn, p.side, p.phase)

    @property
    def turn(self) -> int:
        return self.position.turn

    @property
    def phase(self) -> Phase:
        return self.position.phase

    @property
    def phasing(self) -> Side:
        return self.position.side

    @property
    def pending(self) -> Decision | None:
        head = self.flow.queue[0] if self.flow.queue else None
        return head if isinstance(head, Decision) else None

    @property
    def acting(self) -> Side:
        """Who must act now: the owner of a pending decision, else the phase's actor (7.0)."""
        d = self.pending
        return d.side if d is not None else self.moment.acting

    @property
    def over(self) -> bool:
        return self.flow.over

    def status(self) -> str:
        if self.over:
            vp = self.position.allied_vp()
            return f"game over after turn {self.turn}: {vp} allied VP, {self.scenario.victory_level(vp)}"
        text = f"Turn {self.turn} - {self.phasing.adjective} {PHASE_TITLES[self.phase]} ({PHASE_RULES[self.phase]})"
        if self.pending is not None:
            text += f" - {self.pending.side.adjective} to decide: {self.pending.prompt}"
        return text

    # -- the gate ----------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every legal action for the acting side now.  Moves go to each reachable hex along
        the cheapest path (another legal path can be given to :meth:`apply` as well)."""
        if self.over:
            return []
        d = self.pending
        if d is not None:
            return self._decision_actions(d)
        out: list[Action] = []
        phase = self.phase
        if phase is Phase.REINFORCEMENT and self._replacement_open():
            out += [Replace(u) for u in self._replaceable()]
        if phase in (Phase.MOVEMENT, Phase.REACTION, Phase.EXPLOITATION):
            out += self._all_moves()
        for contribute in LEGAL_ACTIONS:
            out += contribute(self)
        if self._end_phase_refusal() is None:
            out.append(EndPhase())
        return out

    def check(self, action: Action) -> Verdict:
        """Is ``action`` legal now?  Never changes the game."""
        refusal = self._refusal(action)
        return OK if refusal is None else Verdict(refusal)

    def apply(self, action: Action, *, history: bool = True) -> list[str]:
        """Apply a legal action atomically and return what happened, in words.  Raises
        :class:`IllegalAction` (changing nothing) if it is refused.

        ``history=False`` keeps no undo step for it (loading a long save replays most of its log
        so, in flat memory); it applies only while there is no undo history to keep consistent."""
        refusal = self._refusal(action)
        if refusal is not None:
            raise IllegalAction(action, refusal)
        snapshot = self._snapshot()
        moment, side = self.moment, self.acting
        self._events, self._losses = [], []
        try:
            self._do(action)
            self._run_queue()
        except BaseException:
            self._restore(snapshot)
            raise
        if history or self._undo:
            self._undo.append(snapshot)
        else:
            self.position.forget()  # nothing can roll back past this action: drop its changes' journal
        self.log.append(LogEntry(len(self.log) + 1, moment, side, action, self._events, self._losses))
        events, self._events, self._losses = self._events, [], []
        return list(events)  # a copy: callers add to it, the log keeps its own

    def push(self, action: Action) -> list[str]:
        """Apply and forget the redo stack (a new line of play)."""
        events = self.apply(action)
        self._redo.clear()
        return events

    # -- history -----------------------------------------------------------------------------
    def can_undo(self) -> bool:
        return bool(self._undo)

    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo(self) -> Action:
        if not self._undo:
            raise IndexError("nothing to undo")
        snapshot = self._undo.pop()
        action = self.log[snapshot.log].action
        self._restore(snapshot)
        self._redo.append(action)
        return action

    def _snapshot(self) -> _Snapshot:
        """What undo needs to come back to this point.  Snapshots are never changed once taken
        (undo restores a copy), so each shares with the one before it what did not change."""
        position = self.position
        position.record()  # in case the position was replaced since
        last = self._undo[-1] if self._undo and self._undo[-1].position is position else None
        mark = position.mark(last.mark if last is not None else None)
        return _Snapshot(position, mark, self.flow.copy(last.flow if last is not None else None), len(self.log))

    def _restore(self, snapshot: _Snapshot) -> None:
        snapshot.position.rollback(snapshot.mark)
        self.position, self.flow = snapshot.position, snapshot.flow.copy()
        del self.log[snapshot.log :]

    def redo(self) -> Action:
        if not self._redo:
            raise IndexError("nothing to redo")
        action = self._redo.pop()
        self.apply(action)
        return action

    def actions(self) -> list[Action]:
        return [entry.action for entry in self.log]

    @classmethod
    def from_position(
        cls,
        position: Position,
        seed: int | None = None,
        *,
        variants: Iterable[str] | None = None,
    ) -> Game:
        """A game that starts from a position (:func:`cheren.files.load_position` opens one by
        library name, file, save or code).  The dice carry on from the position's own unless
        ``seed`` gives fresh ones."""
        start = position.copy()
        if seed is not None:
            start.dice = Dice(seed)
        return cls(start.scenario, start.dice.seed, start, variants=variants)

    @classmethod
    def replay(
        cls,
        scenario: Scenario,
        seed: int,
        actions: Iterable[Action],
        position: Position | None = None,
        *,
        undo_steps: int | None = None,
    ) -> Game:
        """Rebuild a game from its seed (or starting position) and its actions.  ``undo_steps``
        keeps undo history for only the last so many actions (memory stays flat over a long log)."""
        game = cls(scenario, seed, position.copy() if position is not None else None)
        todo = list(actions) if undo_steps is not None else actions
        first_kept = len(todo) - undo_steps if undo_steps is not None and isinstance(todo, list) else 0
        for i, action in enumerate(todo):
            game.apply(action, history=i >= first_kept)
        return game

    # -- refusals ----------------------------------------------------------------------------
    def _refusal(self, action: Action) -> Refusal | None:
        malformed = shape_problem(action)
        if malformed is not None:
            return Refusal(("7.0",), malformed)
        if self.over:
            return Refusal(("14.0",), "the game is over")
        d = self.pending
        if d is not None:
            if action in self._decision_actions(d):
                return None
            return Refusal(d.rules, f"{d.side.adjective} must first decide: {d.prompt}")
        handler = ACTION_HANDLERS.get(type(action))
        if handler is not None:
            return handler.refusal(self, action)
        if isinstance(action, EndPhase):
            return self._end_phase_refusal()
        if isinstance(action, Move):
            return self._move_refusal(action)
        if isinstance(action, Replace):
            return self._replace_refusal(action)
        if isinstance(action, RemoveStep | Place | Retreat | ChooseArrival):
            return Refusal(("7.0",), f"no decision is pending that {action.describe()} would answer")
        return Refusal(("7.0",), f"{action.describe()} is not something the rules allow here")

    def _move_refusal(self, action: Move) -> Refusal | None:
        p = self.position
        phase = self.phase
        uid = action.unit
        if uid not in p.units:
            return Refusal(("2.3",), f"there is no unit {uid!r}")
        unit = p.units[uid]
        name = self.scenario.units[uid].name
        if phase not in (Phase.MOVEMENT, Phase.REACTION, Phase.EXPLOITATION):
            return Refusal(
                ("7.0",),
                "units move only in the Movement, Enemy reaction and Exploitation phases, "
                f"not in {PHASE_TITLES[phase]}",
            )
        actor = self.moment.acting
        if unit.side is not actor:
            who = "the phasing player's" if phase is not Phase.REACTION else "the non-phasing player's"
            rule = {Phase.REACTION: "10.0", Phase.EXPLOITATION: "13.0"}.get(phase, "9.0")
            return Refusal((rule,), f"{name} is not one of {who} units in this phase")
        if uid in self.flow.moved:
            return Refusal(("9.0",), f"{name} has already moved this phase (each unit moves once per phase)")
        why = self._phase_mover_refusal(uid)
        if why is not None:
            return why
        blocked = immobile_reason(p, uid)
        if blocked is not None:
            return Refusal((blocked[0],), blocked[1])
        if not action.path:
            return Refusal(("9.0",), "a move needs at least one hex")
        return self._path_refusal(uid, action.path)

    def _phase_mover_refusal(self, uid: str, allowance: bool = True) -> Refusal | None:
        """Why the unit may not move in this phase (``allowance`` False: leave the reaction
        allowance of 10.0 aside, see :meth:`_allowance_refusal`)."""
        p = self.position
        d = self.scenario.units[uid]
        unit = p.units[uid]
        if self.phase is Phase.REACTION:
            if unit.supply is not None:
                marker = "Low" if unit.supply is Supply.LOW else "No"
                return Refusal(("10.0", "12.5"), f"{d.name} has a {marker} supply marker and may not react")
            assert unit.hex is not None
            enemy_hexes = p.occupied(unit.side.enemy)
            for n in unit.hex.neighbours():
                if n in enemy_hexes:
                    return Refusal(("10.0",), f"{d.name} is adjacent to an enemy unit in {n.label} and may not react")
            if allowance:
                return self._allowance_refusal(uid)
        if self.phase is Phase.EXPLOITATION:
            if not d.type.may_exploit and not any(grant(self, uid) for grant in EXPLOIT_GRANTS):
                return Refusal(("13.0",), f"{d.name} ({d.type.name}) does not move in the Exploitation phase")
            if unit.supply is not None:
                return Refusal(("13.0", "12.5"), f"{d.name} has a Low/No supply marker and may not exploit")
        return None

    def _allowance_refusal(self, uid: str) -> Refusal | None:
        """10.0: the reacting side moves units of a total stacking value of 3 at most."""
        d = self.scenario.units[uid]
        limit = self.flow.extra.get("reaction_limit", REACTION_LIMIT)
        if self.flow.reaction_used + d.stack > limit:
            return Refusal(
                ("10.0",),
                f"reaction may move units with a total stacking value of {limit}; "
                f"{self.flow.reaction_used} used, {d.name} adds {d.stack}",
            )
        return None

    def _path_refusal(self, uid: str, path: tuple[Hex, ...]) -> Refusal | None:
        p = self.position
        d = self.scenario.units[uid]
        start = p.units[uid].hex
        assert start is not None
        previous = start
        for h in path:
            if not previous.is_adjacent(h):
                return Refusal(("9.0",), f"the path jumps from {previous.label} to {hex_text(h)}: move hex by hex")
            previous = h
        key, options = self._reach_key(uid)
        if path[-1] == start:
            # Nothing in 9.0 forbids a move that ends where it began (into a town and back, say):
            # the path is walked hex by hex like any other that is not the cheapest.
            cost, walk_refusal = _walk_cost(p, uid, path, options)
            if walk_refusal is not None:
                return walk_refusal
            mp = p.movement(uid) + options.extra_mp
            return None if cost <= mp else Refusal(("9.0",), f"that path costs {mp_text(cost)} MP; {d.name} has {mp}")
        known = self._reach_cache.get(key) if self.caching else None
        if known is None and self._walked(uid, path, options) is not None:
            return None  # walked hex by hex and within the unit's MP: no need for its whole reach
        reach = known if known is not None else self._reach(uid)
        target = path[-1]
        best = reach.get(target)
        if best is None:
            why = explain_move(p, uid, target, self._move_options(uid))
            return Refusal(rules_cited(why), why)
        if best.path == path:
            return None
        # A path other than the cheapest: walk it and check every step.
        cost, walk_refusal = _walk_cost(p, uid, path, self._move_options(uid))
        if walk_refusal is not None:
            return walk_refusal
        if cost > reach.mp:
            return Refusal(("9.0",), f"that path costs {cost} MP; {d.name} has {reach.mp}")
        return None

    def _replace_refusal(self, action: Replace) -> Refusal | None:
        if self.phase is not Phase.REINFORCEMENT or self.phasing is not Side.ALLIED:
            return Refusal(("8.3",), "replacements are taken in the Allied Reinforcement & replacement phase")
        if not self.scenario.is_replacement_turn(self.turn):
            turns = [t.turn for t in self.scenario.info.turns if t.replacement]
            return Refusal(("8.3",), f"turn {self.turn} is not a replacement turn ({', '.join(map(str, turns))})")
        if self.flow.replacement_done:
            return Refusal(("8.3",), "one step is replaced per replacement turn, and it has been taken")
        problem = reinforcement.replacement_problem(self.position, action.unit)
        return None if problem is None else Refusal(("8.3",), problem)

    # -- doing -------------------------------------------------------------------------------
    def _do(self, action: Action) -> None:
        d = self.pending
        if d is not None:
            self._answer(d, action)
            return
        handler = ACTION_HANDLERS.get(type(action))
        if handler is not None:
            handler.apply(self, action)
        elif isinstance(action, EndPhase):
            self.flow.queue.append(Task("end_phase"))
        elif isinstance(action, Move):
            self._move(action)
        elif isinstance(action, Replace):
            name = self.scenario.units[action.unit].name
            self.position.units[action.unit].steps_lost -= 1
            self.flow.replacement_done = True
            self._events.append(f"{name} replaces a step (8.3)")

    def _move(self, action: Move) -> None:
        p = self.position
        uid = action.unit
        unit = p.units[uid]
        d = self.scenario.units[uid]
        walk, self._last_walk = self._last_walk, None
        enemy = unit.side.enemy
        if walk is not None and walk[:4] != (uid, action.path, p.unit_stamp(uid), p.stamp(enemy)):
            walk = None  # kept for another move or another position
        r = None
        if walk is None:
            reach = self._known_reach(uid)
            r = reach.get(action.to) if reach is not None else None
        if r is not None and r.path == action.path:
            cost, stops = r.cost, r.stops
        else:
            if walk is not None:
                cost, options = walk[4], walk[5]
            else:
                options = self._move_options(uid)
                cost = _walk_cost(p, uid, action.path, options)[0]
            hard = not options.ignore_zoc and zoc_map(p, enemy).get(action.to) is Zoc.HARD
            stops = hard or action.to in options.stop_at
        start = unit.hex
        assert start is not None
        unit.hex = action.to
        self.flow.moved.add(uid)
        control.enter_hexes(self, unit.side, action.path)
        if self.phase is Phase.REACTION:
            self.flow.reaction_used += d.stack
        stop = " and stops in a hard enemy ZoC (4.0)" if stops else ""
        self._events.append(f"{d.name} moves {start.label} -> {action.to.label} for {mp_text(cost)} MP{stop}")

    # -- decisions ---------------------------------------------------------------------------
    def _decision_actions(self, d: Decision) -> list[Action]:
        kind = DECISIONS.get(d.kind)
        if kind is not None:
            return kind.actions(self, d)
        if d.kind == "loss":
            return [RemoveStep(u) for u in d.units if self._alive(u)]
        if d.kind == "retreat":
            assert d.hex is not None
            units = [u for u in d.units if self._on_map(u)]
            options = retreat_options(self.position, units, d.hex)
            return [Retreat(tuple(units), h) for h in options.hexes]
        if d.kind == "place":
            return [Place(d.units[0], h) for h in d.choices]
        if d.kind == "arrival":
            return [ChooseArrival(d.code, False), ChooseArrival(d.code, True)]
        raise AssertionError(d.kind)

    def _answer(self, d: Decision, action: Action) -> None:
        p = self.position
        kind = DECISIONS.get(d.kind)
        if kind is not None:
            kind.answer(self, d, action)
            return
        if isinstance(action, RemoveStep):
            self._lose_step(action.unit, d.rules)
            d.count -= 1
            remaining = [u for u in d.units if self._alive(u)]
            if d.count <= 0 or not remaining:
                self.flow.queue.pop(0)
            else:
                d.units = tuple(remaining)
            if d.hex is not None and d.kind == "loss" and d.rules == ("3.1",):
                # 3.1: keep removing until the stack fits, whatever count was guessed
                self.flow.queue = [q for q in self.flow.queue if q is not d]
                stacking.queue_overstack(self, d.hex, d.side)
        elif isinstance(action, Retreat):
            for u in action.units:
                p.units[u].hex = action.to
            if action.units:
                control.enter_hexes(self, p.units[action.units[0]].side, [action.to])
            self.flow.queue.pop(0)
            self._events.append(f"{', '.join(self._name(u) for u in action.units)} retreat to {action.to.label} (11.7)")
            stacking.queue_overstack(self, action.to, d.side, front=True)
        elif isinstance(action, Place):
            p.units[action.unit].status = Status.MAP
            p.units[action.unit].hex = action.hex
            self.flow.queue.pop(0)
            self._events.append(f"{self._name(action.unit)} placed in {action.hex.label} ({', '.join(d.rules)})")
            # placing a unit in a town takes it like entering it (2.1): a defector (6.0), a
            # reinforcement sent to a Tigre town (8.2)
            control.enter_hexes(self, p.units[action.unit].side, [action.hex])
            reinforcement.after_place(self, action.unit, action.hex, d)
        elif isinstance(action, ChooseArrival):
            self.flow.queue.pop(0)
            reinforcement.choose_arrival(self, action.code, action.postpone)

    # -- the sequence of play ----------------------------------------------------------------
    def _run_queue(self) -> None:
        while self.flow.queue and isinstance(self.flow.queue[0], Task):
            task = self.flow.queue.pop(0)
            assert isinstance(task, Task)
            self._run_task(task)
            self._auto_answer()
        self._auto_answer()

    def _auto_answer(self) -> None:
        """A decision with a single legal answer is taken at once (and logged)."""
        while True:
            d = self.pending
            if d is None:
                return
            options = self._decision_actions(d)
            kind = DECISIONS.get(d.kind)
            auto = kind.auto if kind is not None else d.kind != "arrival"
            if len(options) == 1 and auto:
                self._events.append(f"{d.side.adjective} has one choice: {options[0].describe()}")
                self._answer(d, options[0])
                if self.flow.queue and isinstance(self.flow.queue[0], Task):
                    return self._run_queue()
                continue
            if not options:
                self.flow.queue.pop(0)
                self._on_impossible(d)
                if self.flow.queue and isinstance(self.flow.queue[0], Task):
                    return self._run_queue()
                continue
            return

    def _on_impossible(self, d: Decision) -> None:
        if d.kind == "retreat":
            units = [u for u in d.units if self._on_map(u)]
            if units:
                self._events.append("no retreat is possible: the stack loses a step instead (11.7)")
                loss = Decision("loss", d.side, ("11.7",), "take a step loss: no retreat possible", tuple(units))
                self.flow.queue.insert(0, loss)
        elif d.kind == "place":
            self._lose_all(d.units[0], d.rules, "no hex to place it in")

    def _run_task(self, task: Task) -> None:
        kind = task.kind
        if kind == "end_phase":
            self._events.append(f"end of {self.phasing.adjective} {PHASE_TITLES[self.phase]}")
            self.flow.queue[0:0] = [Task("phase_end_hooks"), Task("garrisons"), Task("stacking"), Task("advance")]
        elif kind == "phase_end_hooks":
            for hook in PHASE_END:
                hook(self)
        elif kind == "garrisons":
            garrisons.check_release(self)
        elif kind == "stacking":
            if self.phase is not Phase.REINFORCEMENT:
                stacking.queue_all(self)
        elif kind == "advance":
            self._advance()
        elif kind == "arrivals":
            reinforcement.arrivals(self)
        elif kind == "call":
            handler = task.data["handler"]
            handler(self, **task.data.get("args", {}))
        else:
            raise AssertionError(kind)

    def _advance(self) -> None:
        nxt = next_moment(self.moment, len(self.scenario.info.turns))
        self.flow.moved.clear()
        self.flow.reaction_used = 0
        self.flow.replacement_done = False
        self.flow.extra.clear()
        if nxt is None:
            self.flow.over = True
            vp = self.position.allied_vp()
            self._events.append(f"the game ends: {vp} allied VP, {self.scenario.victory_level(vp)} (14.0)")
            return
        if nxt.turn != self.position.turn:
            self.flow.turn_extra.clear()
        self.position.turn, self.position.side, self.position.phase = nxt
        self._events.append(f"begin {nxt}")
        self._start_phase()

    def _start_phase(self) -> None:
        if self.phase is Phase.REINFORCEMENT:
            self.flow.queue.append(Task("arrivals"))
        for hook in PHASE_START[self.phase]:
            self.flow.queue.append(Task("call", {"handler": _run_hook, "args": {"hook": hook}}))

    def _end_phase_refusal(self) -> Refusal | None:
        for check in END_PHASE_CHECKS:
            refusal = check(self)
            if refusal is not None:
                return refusal
        return None

    # -- helpers used by the rule modules ----------------------------------------------------
    def event(self, text: str) -> None:
        self._events.append(text)

    def queue_front(self, *items: Decision | Task) -> None:
        self.flow.queue[0:0] = list(items)

    def queue_back(self, *items: Decision | Task) -> None:
        self.flow.queue.extend(items)

    def _lose_step(self, uid: str, rules: tuple[str, ...]) -> None:
        p = self.position
        unit = p.units[uid]
        d = self.scenario.units[uid]
        unit.steps_lost += 1
        self._losses.append(StepLoss(uid, unit.side, 1, rules))
        if unit.steps_lost >= d.steps:
            unit.steps_lost = d.steps - 1
            unit.status, unit.hex, unit.supply = Status.ELIMINATED, None, None
            self._events.append(f"{d.name} loses its last step and is eliminated ({', '.join(rules)})")
        else:
            face = self.position.step(uid)
            self._events.append(f"{d.name} loses a step, now {face.sp}-{face.mp} ({', '.join(rules)}, 11.6)")

    def _lose_all(self, uid: str, rules: tuple[str, ...], why: str) -> None:
        unit = self.position.units[uid]
        self._losses.append(StepLoss(uid, unit.side, self.position.steps_left(uid), rules))
        unit.status, unit.hex, unit.supply = Status.ELIMINATED, None, None
        self._events.append(f"{self._name(uid)} is eliminated: {why} ({', '.join(rules)})")

    lose_step = _lose_step
    eliminate = _lose_all

    def _alive(self, uid: str) -> bool:
        return self.position.units[uid].status is not Status.ELIMINATED

    def _on_map(self, uid: str) -> bool:
        return self.position.units[uid].status is Status.MAP

    def _name(self, uid: str) -> str:
        return self.scenario.units[uid].name

    def _movers(self) -> list[str]:
        actor = self.moment.acting
        out = []
        for uid, unit in self.position.units.items():
            if unit.side is not actor or unit.status is not Status.MAP or uid in self.flow.moved:
                continue
            if self._may_move(uid):
                out.append(uid)
        return out

    def _may_move(self, uid: str, allowance: bool = True) -> bool:
        return self._phase_mover_refusal(uid, allowance) is None and immobile_reason(self.position, uid) is None

    def _all_moves(self) -> list[Action]:
        """Every legal move of the acting side, in the order of the units.

        Kept for the phase: whether a unit may move and where depends only on the unit itself,
        the enemy's units, released garrisons and the chits in force (and, in reaction, on the
        allowance used, checked apart), so the moves of a unit are kept under its change stamp
        and thrown away when any of the rest changes.  After one unit moves, the next call
        rebuilds nothing."""
        p = self.position
        self._phase_caches()
        actor = self.moment.acting
        hooks = hooks_key(self)
        context = (p.stamp(actor.enemy), frozenset(p.released), hooks)
        if hooks is None or not self.caching or self._phase_moves[0] != context:
            self._phase_moves = (context, {})
        kept = self._phase_moves[1]
        moved = self.flow.moved
        reaction = self.phase is Phase.REACTION
        out: list[Action] = []
        for uid, unit in p.units.items():
            if unit.side is not actor or unit.status is not Status.MAP or uid in moved:
                continue
            stamp = p.unit_stamp(uid)
            entry = kept.get(uid)
            if entry is None or entry[0] != stamp:
                entry = kept[uid] = (stamp, self._moves(uid, hooks) if self._may_move(uid, allowance=False) else [])
            if entry[1] and (not reaction or self._allowance_refusal(uid) is None):
                out += entry[1]
        return out

    def _moves(self, uid: str, hooks: Hashable | None = None) -> list[Action]:
        """The unit's legal moves (one per reachable hex, cheapest path), kept with its reach."""
        reach = self._reach(uid, hooks)
        latest = self._latest.get(uid)
        if latest is not None and latest[0] is reach and latest[1] is not None:
            return latest[1]
        moves: list[Action] = [Move(uid, path) for _, path in reach.targets()]
        self._latest[uid] = (reach, moves)
        return moves

    def _reach(self, uid: str, hooks: Hashable | None = None) -> ReachMap:
        """The unit's reach, cached: within a phase it changes only when the enemy's units, the
        unit itself, released garrisons or its chit options change, and the key holds exactly
        those (the units by their change stamps), so a stale entry can never be returned (undo
        and replay included)."""
        key, options = self._reach_key(uid, hooks)
        cached = self._reach_cache.get(key) if self.caching else None
        if cached is None:
            p = self.position
            enemy = p.units[uid].side.enemy
            latest = self._latest.get(uid) if self.caching else None
            previous = latest[0] if latest is not None else None
            cached = reachable(p, uid, options, zoc=zoc_map(p, enemy), enemy_hexes=p.occupied(enemy), previous=previous)
            if len(self._reach_cache) > 4096:
                self._reach_cache.clear()
            self._reach_cache[key] = cached
            if cached is not previous:
                self._latest[uid] = (cached, None)
        return cached

    def _reach_key(self, uid: str, hooks: Hashable | None = None) -> tuple[tuple[Any, ...], MoveOptions]:
        """The reach cache's key for the unit, and its options (``hooks``: the hooks' key if the
        caller has it already)."""
        p = self.position
        self._phase_caches()
        options = self._move_options(uid, hooks)
        key = (
            uid, p.unit_stamp(uid), p.stamp(p.units[uid].side.enemy), frozenset(p.released), options.extra_mp,
            options.ignore_zoc, options.ignore_rivers, options.stop_at, options.no_road, options.blown_bridges,
        )
        return key, options

    def _known_reach(self, uid: str) -> ReachMap | None:
        """The unit's reach if it is in the cache (a bot or the app listed the moves)."""
        return self._reach_cache.get(self._reach_key(uid)[0]) if self.caching else None

    def _walked(self, uid: str, path: tuple[Hex, ...], options: MoveOptions) -> Fraction | None:
        """The cost of ``path`` when walking it hex by hex shows it legal and within the unit's
        MP, else None (then the unit's reach decides, and explains).  A path back through the
        start hex is always left to the reach: a move never ends where it began (9.0)."""
        p = self.position
        if p.units[uid].hex in path:
            return None
        walked = _walk_cost(p, uid, path, options)
        cost: Fraction = walked[0]
        if walked[1] is not None or cost > p.movement(uid) + options.extra_mp:
            return None
        # the move that follows this check needs the same walk: keep it for this very position
        self._last_walk = (uid, path, p.unit_stamp(uid), p.stamp(p.units[uid].side.enemy), cost, options)
        return cost

    def _phase_caches(self) -> None:
        """The caches hold one phase: the stamps in their keys are never seen again once the units
        change, and a game-long cache would only give the garbage collector more to walk.  (Each
        unit's latest reach stays: it is checked, not trusted, before it is used again.)"""
        p = self.position
        moment = (p.turn, p.side, p.phase)
        if moment != self._cache_moment:
            self._reach_cache.clear()
            self._options_cache.clear()
            self._phase_moves = (None, {})
            self._cache_moment = moment

    def clear_caches(self) -> None:
        """Forget every cached reach and move (for benchmarks that measure the work itself)."""
        self._reach_cache.clear()
        self._options_cache.clear()
        self._phase_moves = (None, {})
        self._latest.clear()

    def reach(self, uid: str) -> ReachMap:
        """Where the unit can move this phase, chits' effects included (cached)."""
        return self._reach(uid)

    def move_options(self, uid: str) -> MoveOptions:
        """What the chits played this phase change about the unit's move."""
        return replace(self._move_options(uid))

    def has_moved(self, uid: str) -> bool:
        return uid in self.flow.moved

    def _move_options(self, uid: str, hooks: Hashable | None = None) -> MoveOptions:
        """The unit's options (shared: never change them), kept under the hooks' key."""
        if hooks is None:
            hooks = hooks_key(self)
        key = (uid, self.position.units[uid].side, hooks)
        options = self._options_cache.get(key) if hooks is not None and self.caching else None
        if options is None:
            options = MoveOptions()
            for modify in MOVE_OPTIONS:
                modify(self, uid, options)
            if hooks is not None:
                if len(self._options_cache) > 4096:
                    self._options_cache.clear()
                self._options_cache[key] = options
        return options

    def _replacement_open(self) -> bool:
        return (
            self.phasing is Side.ALLIED
            and self.scenario.is_replacement_turn(self.turn)
            and not self.flow.replacement_done
        )

    def _replaceable(self) -> list[str]:
        return [u for u in self.position.units if reinforcement.replacement_problem(self.position, u) is None]


def _run_hook(game: Game, hook: Any) -> None:
    hook(game)


def _walk_cost(position: Position, uid: str, path: tuple[Hex, ...], options: MoveOptions) -> tuple[Any, Refusal | None]:
    """Cost of an explicit path, refusing the first illegal step."""
    from fractions import Fraction

    from cheren.engine.rules.movement import edge_cost, move_graph
    from cheren.engine.rules.zoc import Zoc, zoc_map

    s = position.scenario
    graph = move_graph(s)
    d = s.units[uid]
    unit = position.units[uid]
    zoc = {} if options.ignore_zoc else zoc_map(position, unit.side.enemy)
    ticks = 0
    here = unit.hex
    assert here is not None
    for i, h in enumerate(path):
        # A unit may leave the hex it starts in whatever holds it there; coming back into that
        # hex later in the path is entering it, and stops it like any other (4.0, 5.1).
        if i > 0 and zoc.get(here) is Zoc.HARD:
            return Fraction(0), Refusal(("4.0",), f"{d.name} must stop in {here.label}: it is in a hard enemy ZoC")
        if i > 0 and here in options.stop_at:
            return Fraction(0), Refusal(("5.1",), f"{d.name} must stop in {here.label}: a Roadblock is there")
        edge = next((e for e in graph.edges[here] if e.to == h), None)
        if edge is None or edge.ticks < 0:
            return Fraction(0), Refusal(("1.1",), f"{hex_text(h)} cannot be entered")
        if edge.mountain and not d.type.may_enter_mountain:
            return Fraction(0), Refusal(("9.1",), f"{h.label} is a mountain hex: {d.name} may never enter it")
        if any(position.units[o].side is not unit.side for o in position.units_at(h)):
            return Fraction(0), Refusal(("9.0",), f"{h.label} holds enemy units")
        ticks += edge_cost(graph, here, edge, options) + (graph.scale if h in zoc else 0)
        here = h
    return graph.mp(ticks), None
