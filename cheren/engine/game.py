"""The game: one legality gate driving a position through the sequence of play (7.0).

Every action goes through :meth:`Game.check` and :meth:`Game.apply`; ``legal_actions()`` lists
what the acting side may do now.  A refused or failing action changes nothing.  Decisions the
rules give to a player (which step to lose, where to retreat, whether to take an option) are
pending :class:`Decision`s that the owner answers with ordinary actions.  The seed plus the log
replays the game exactly; undo and redo work on whole actions.

The gate knows no rule: it checks an action's shape, asks the rulebook (:mod:`cheren.engine.rulebook`)
whether the action is legal and what it does, runs the queued steps of the sequence of play,
records the log and keeps undo.  The rules live in :mod:`cheren.engine.rules`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from cheren.engine.actions import Action, shape_problem
from cheren.engine.dice import Dice
from cheren.engine.game_log import LogEntry, StepLoss
from cheren.engine.listing import LegalActions
from cheren.engine.opening import initial_position
from cheren.engine.position import Mark, Position, Status
from cheren.engine.registry import OK, Decision, Flow, IllegalAction, Refusal, Rulebook, Task, Verdict
from cheren.engine.rulebook import RULEBOOK
from cheren.engine.rules import moves, phases
from cheren.engine.rules.movement import MoveOptions, ReachMap
from cheren.engine.wording import named
from cheren.scenario.compiled import Scenario
from cheren.scenario.models import Phase, Side
from cheren.scenario.sequence import PHASE_RULES, PHASE_TITLES, Moment

__all__ = ["OK", "Decision", "Flow", "Game", "IllegalAction", "LogEntry", "Refusal", "StepLoss", "Task", "Verdict"]


class _Snapshot(NamedTuple):
    """What undo needs to go back to before an action: the position's rollback mark (the units
    come back through its journal), a copy of the flow, and the length of the log."""

    position: Position
    mark: Mark
    flow: Flow
    log: int


class Game:
    rules: Rulebook = RULEBOOK

    def __init__(self, scenario: Scenario, seed: int = 0, position: Position | None = None, *,
                 variants: Iterable[str] | None = None, caches: dict[str, Any] | None = None,
                 undo: bool = True) -> None:
        """``variants``: the optional rules on for this game (cheren.scenario.variants); default: those the
        scenario (or the position's scenario) has on.  ``caches``: another game's :attr:`caches` to
        share (play-outs of one position): entries are keyed by what they depend on (units by stamp).
        ``undo=False``: a game played once and thrown away (a bot's play-out) keeps no undo and
        takes no snapshot before an action, so an action that fails midway is not rolled back and
        the game must not be played on (a snapshot before every action was a twentieth of a
        planner game, and a legal action never fails)."""
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
        self.caches: dict[str, Any] = caches if caches is not None else {}
        self._events: list[str] = []
        self._losses: list[StepLoss] = []
        self._undo: list[_Snapshot] = []
        self._redo: list[Action] = []
        self._keeps_undo = undo
        phases.start_phase(self)
        self._run_queue()
        if undo:
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
        d, p = self.pending, self.position  # Moment.acting without making a Moment: asked after every action
        return d.side if d is not None else (p.side.enemy if p.phase is Phase.REACTION else p.side)

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
            return self.rules.decisions[d.kind].actions(self, d)
        return self.rules.listed(self)

    def legal_view(self) -> LegalActions:
        """:meth:`legal_actions` as a view: the same actions in the same order, each made only
        when it is read (``len``, ``view[i]``, iteration; see :mod:`cheren.engine.listing`).  For a
        player who takes one of them: a Movement phase lists some 300 moves a step."""
        if self.over:
            return LegalActions([])
        d = self.pending
        if d is not None:
            return LegalActions([self.rules.decisions[d.kind].actions(self, d)])
        return LegalActions(self.rules.listed_parts(self))

    def check(self, action: Action) -> Verdict:
        """Is ``action`` legal now?  Never changes the game."""
        refusal = self._refusal(action)
        return OK if refusal is None else Verdict(refusal)

    def apply(self, action: Action, *, history: bool = True) -> list[str]:
        """Apply a legal action atomically and return what happened, in words.  Raises
        :class:`IllegalAction` (changing nothing) if it is refused.  A new action after
        :meth:`undo` starts a new line of play: there is nothing left to redo.

        ``history=False`` keeps no undo step for it (loading a long save replays most of its log
        so, in flat memory); it applies only while there is no undo history to keep consistent."""
        events = self._apply(action, history)
        self._redo.clear()
        return events

    push = apply  # the name the app used while apply kept the redo stack

    def _apply(self, action: Action, history: bool = True) -> list[str]:
        refusal = self._refusal(action)
        if refusal is not None:
            raise IllegalAction(action, refusal)
        snapshot = self._snapshot() if self._keeps_undo else None
        moment, side = self.moment, self.acting
        if self.log and self.log[-1].moment == moment:
            moment = self.log[-1].moment  # one tuple a phase, not one an action (immutable: shared)
        self._events, self._losses = [], []
        try:
            d = self.pending
            if d is not None:
                self.rules.decisions[d.kind].answer(self, d, action)
            else:
                self.rules.actions[type(action)].apply(self, action)
            self._run_queue()
        except BaseException:
            if snapshot is not None:
                self._restore(snapshot)
            raise
        if snapshot is not None and (history or self._undo):
            self._undo.append(snapshot)
        elif snapshot is not None:
            self.position.forget()  # nothing can roll back past this action: drop its changes' journal
        self.log.append(LogEntry(len(self.log) + 1, moment, side, action, self._events, self._losses))
        events, self._events, self._losses = self._events, [], []
        return list(events)  # a copy: callers add to it, the log keeps its own

    def _refusal(self, action: Action) -> Refusal | None:
        malformed = shape_problem(action)
        if malformed is not None:
            return Refusal(("7.0",), malformed)
        if self.over:
            return Refusal(("14.0",), "the game is over")
        d = self.pending
        if d is not None:
            if action in self.rules.decisions[d.kind].actions(self, d):
                return None
            return Refusal(d.rules, f"{d.side.adjective} must first decide: {d.prompt}")
        rule = self.rules.actions.get(type(action))
        if rule is None:
            return Refusal(("7.0",), f"{action.describe()} is not something the rules allow here")
        return rule.refusal(self, action)

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

    def redo(self) -> Action:
        if not self._redo:
            raise IndexError("nothing to redo")
        action = self._redo.pop()
        self._apply(action)
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

    def actions(self) -> list[Action]:
        return [entry.action for entry in self.log]

    @classmethod
    def from_position(cls, position: Position, seed: int | None = None, *,
                      variants: Iterable[str] | None = None, caches: dict[str, Any] | None = None,
                      undo: bool = True) -> Game:
        """A game from a position (:func:`cheren.files.load_position` opens one by name, file, save or
        code); the position's own dice carry on unless ``seed`` gives fresh ones; ``caches`` and
        ``undo`` as in Game."""
        start = position.copy()
        if seed is not None:
            start.dice = Dice(seed)
        return cls(start.scenario, start.dice.seed, start, variants=variants, caches=caches, undo=undo)

    @classmethod
    def replay(cls, scenario: Scenario, seed: int, actions: Iterable[Action], position: Position | None = None, *,
               undo_steps: int | None = None) -> Game:
        """Rebuild a game from its seed (or starting position) and its actions.  ``undo_steps``
        keeps undo history for only the last so many actions (memory stays flat over a long log)."""
        game = cls(scenario, seed, position.copy() if position is not None else None)
        todo = list(actions) if undo_steps is not None else actions
        first_kept = len(todo) - undo_steps if undo_steps is not None and isinstance(todo, list) else 0
        for i, action in enumerate(todo):
            game._apply(action, history=i >= first_kept)
        return game

    # -- the sequence of play ----------------------------------------------------------------
    def _run_queue(self) -> None:
        """Run the queued steps up to the next decision a player must answer."""
        while self.flow.queue and isinstance(self.flow.queue[0], Task):
            task = self.flow.queue.pop(0)
            assert isinstance(task, Task)
            task.data["handler"](self, **task.data.get("args", {}))
            self._auto_answer()
        self._auto_answer()

    def _auto_answer(self) -> None:
        """A decision with a single legal answer is taken at once (and logged); one with none
        is dropped, with what its rule says happens then."""
        while True:
            d = self.pending
            if d is None:
                return
            kind = self.rules.decisions[d.kind]
            options = kind.actions(self, d)
            if len(options) == 1 and kind.auto:
                self._events.append(f"{d.side.adjective} has one choice: {named(options[0], self.scenario)}")
                kind.answer(self, d, options[0])
            elif not options:
                self.flow.queue.pop(0)
                if kind.impossible is not None:
                    kind.impossible(self, d)
            else:
                return
            if self.flow.queue and isinstance(self.flow.queue[0], Task):
                return self._run_queue()

    # -- what the rule areas use (cheren.engine.registry.GameState) --------------------------
    def event(self, text: str) -> None:
        self._events.append(text)

    def queue_front(self, *items: Decision | Task) -> None:
        self.flow.queue[0:0] = list(items)

    def queue_back(self, *items: Decision | Task) -> None:
        self.flow.queue.extend(items)

    def lose_step(self, uid: str, rules: tuple[str, ...]) -> None:
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
            face = p.step(uid)
            self._events.append(f"{d.name} loses a step, now {face.sp}-{face.mp} ({', '.join(rules)}, 11.6)")

    def eliminate(self, uid: str, rules: tuple[str, ...], why: str) -> None:
        unit = self.position.units[uid]
        self._losses.append(StepLoss(uid, unit.side, self.position.steps_left(uid), rules))
        unit.status, unit.hex, unit.supply = Status.ELIMINATED, None, None
        self._events.append(f"{self.scenario.units[uid].name} is eliminated: {why} ({', '.join(rules)})")

    # -- movement, for players and the app (cheren.engine.rules.moves) ----------------------
    def reach(self, uid: str) -> ReachMap:
        """Where the unit can move this phase, chits' effects included (cached)."""
        return moves.unit_reach(self, uid)

    def move_options(self, uid: str) -> MoveOptions:
        """What the chits played this phase change about the unit's move."""
        return moves.move_options(self, uid)

    def has_moved(self, uid: str) -> bool:
        return uid in self.flow.moved

    def clear_caches(self) -> None:
        """Forget every cached reach and move (for benchmarks that measure the work itself)."""
        self.caches.clear()
