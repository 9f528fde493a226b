"""An exercise being worked: the learner acts on a real game through the app's controller (so
through the one legality gate), and Check judges the result with the exercise's tests.

    run = ExerciseRun(lesson, "stop-in-hard-zoc")
    run.controller.select("tank_sqn"); run.controller.click_hex(Hex.from_label("0409"))
    run.check()          # Verdict(passed=..., text=..., rules=..., stars=...)
    run.hint()           # the next graded hint
    run.show_solution()  # plays the solution on the map (and the exercise earns no star)

Steps written in a lesson file (``move``, ``attack``, ``roll``, ``answer`` ...) are turned into
the same controller calls a click makes, so a solution checked by ``cheren lessons check`` is a
solution a learner can click.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from cheren.app.controller import Controller, Feedback, as_bot, pass_bot
from cheren.engine.actions import Action
from cheren.engine.game import Game
from cheren.hexes import Hex
from cheren.scenario.compiled import Scenario
from cheren.scenario.models import Side
from cheren.study.lessons.files import Lesson, start_position
from cheren.study.lessons.model import Exercise, Step, Test, WrongAnswer


@dataclass(frozen=True)
class Verdict:
    """What Check says: passed or not, the words, the rules that decide, and the stars earned."""

    passed: bool
    text: str
    rules: tuple[str, ...] = ()
    stars: int = 0
    wrong: WrongAnswer | None = None  # the expected mistake the learner made, if recognised

    def __str__(self) -> str:
        missing = [r for r in self.rules if r not in self.text]
        return self.text + (f" (rule {', '.join(missing)})" if missing else "")


class LessonController(Controller):
    """The play controller that also remembers what the gate refused and which attacks were
    rolled at which column: what the exercise tests ask about."""

    def __init__(self, game: Game, **kwargs: Any) -> None:
        super().__init__(game, **kwargs)
        self.refusals: list[Feedback] = []
        self.rolled_columns: list[tuple[Hex, int]] = []  # (defending hex, final column index) of each attack rolled

    def _say(self, fb: Feedback, *what: str) -> Feedback:
        if fb.kind == "refused":
            self.refusals.append(fb)
        return super()._say(fb, *what)

    def resolve_attack(self) -> Feedback:
        target = self.attack.defender
        w = self.whatif() if target is not None and self.attack.attackers else None
        fb = super().resolve_attack()
        if fb.ok and w is not None and target is not None:
            self.rolled_columns.append((target, int(getattr(w, "odds", w).column)))
        return fb


class ExerciseRun:
    """One exercise on the map: reset, act, check, hints, solution and the stars earned."""

    def __init__(
        self,
        lesson: Lesson,
        exercise: Exercise | str | int,
        scenario: Scenario | None = None,
        *,
        on_solved: Callable[[ExerciseRun, Verdict], None] | None = None,
        controller: LessonController | None = None,
    ) -> None:
        """``controller``: play on this controller (the lesson app keeps one map for every
        exercise) instead of a new one."""
        if scenario is None:
            from cheren.scenario import load_scenario

            scenario = load_scenario()
        self.lesson = lesson
        self.exercise = exercise if isinstance(exercise, Exercise) else lesson.exercise(exercise)
        self.scenario = scenario
        self.on_solved = on_solved
        self._names = {d.name: uid for uid, d in scenario.units.items()} | {uid: uid for uid in scenario.units}
        self.controller = controller if controller is not None else LessonController(self._new_game())
        self.hints_shown = 0
        self.solution_shown = False
        self.solved = False
        self._wrong_signatures: list[tuple[WrongAnswer, Any]] | None = None
        self.reset()

    # -- the game ------------------------------------------------------------------------------
    def _new_game(self) -> Game:
        return Game.from_position(start_position(self.lesson, self.exercise, self.scenario))

    def reset(self) -> Feedback:
        """Back to the start position (hints and the stars lost to them stay)."""
        c = self.controller
        c.set_game(self._new_game())
        c.bot, c.bot_side = None, None  # the setup plays both sides' steps as written
        c.refusals, c.rolled_columns = [], []
        for step in self.exercise.setup:
            fb = self.do(step)
            if not fb.ok:
                raise ValueError(f"{self.lesson.source}: exercises[{self.exercise.id}].setup: {fb}")
        other = Side.ITALIAN if self.exercise.side is Side.ALLIED else Side.ALLIED
        c.bot, c.bot_side = as_bot(passing_opponent, other), other  # then the other side only passes
        c._after_human()  # and answers what is already its to answer (a chit window)
        c.selected, c.stack_hex, c.hover = None, None, None
        c.refusals, c.rolled_columns = [], []
        self.start_signature = self._signature()
        return c._say(Feedback("info", self.exercise.goal.strip(), tuple(self.exercise.rules)), "game", "selection")

    @property
    def game(self) -> Game:
        return self.controller.game

    def uid(self, ref: str) -> str:
        try:
            return self._names[ref]
        except KeyError:
            where = f"{self.lesson.source}: exercises[{self.exercise.id}]"
            raise ValueError(f"{where}: no counter called {ref!r}") from None

    def focus_hexes(self) -> list[Hex]:
        """The part of the map the exercise is about: the learner's units, the hexes its tests
        and solution name, and the enemy units within three hexes of them."""
        p, e = self.game.position, self.exercise
        labels: list[str] = []
        for test in e.success:
            v = test.value
            labels += [*(getattr(v, "hexes", None) or []), getattr(v, "hex", None) or ""]
        for step in [*e.setup, *e.solution]:
            v = step.value
            labels += [getattr(v, "to", None) or "", getattr(v, "hex", None) or "", getattr(v, "target", None) or ""]
            if step.key == "click":
                labels.append(str(v))
        core = {Hex.from_label(x) for x in labels if len(x) == 4 and x.isdigit()}
        core |= {u.hex for u in p.units.values() if u.hex is not None and u.side is e.side}
        near = {u.hex for u in p.units.values() if u.hex is not None and any(u.hex.distance(h) <= 3 for h in core)}
        return sorted(core | near, key=lambda h: h.label)

    # -- steps ---------------------------------------------------------------------------------
    def do(self, step: Step) -> Feedback:
        """One step of a solution or a wrong answer, as the clicks the app would make."""
        c = self.controller
        key, value = step.key, step.value
        if key == "select":
            return c.select(self.uid(value))
        if key == "click":
            return c.click_hex(Hex.from_label(value))
        if key == "move":
            c.select(self.uid(value.unit))
            c.move_stack = value.stack
            try:
                return c.move_to(Hex.from_label(value.to))
            finally:
                c.move_stack = False
        if key == "attack":
            c.stack_hex = None
            c.set_defender(None)
            fb = c.set_defender(Hex.from_label(value.hex))
            for ref in value.with_:
                uid = self.uid(ref)
                if uid not in c.attack.attackers:
                    fb = c.toggle_attacker(uid)
            if value.air:
                fb = c.set_air(True)
            return fb
        if key == "roll":
            return c.resolve_attack()
        if key == "end_phase":
            return c.end_phase()
        if key == "pass_chit":
            from cheren.engine.rules.chits import PassChit

            return c.apply(PassChit())
        if key == "answer":
            return self._answer(value)
        if key == "replace":
            return c.replace_step(self.uid(value))
        if key == "play_chit":
            return self._play_chit(value)
        raise ValueError(f"unknown step {key!r}")  # the model admits no other key

    def play(self, steps: Iterable[Step]) -> list[Feedback]:
        return [self.do(s) for s in steps]

    def _answer(self, value: Any) -> Feedback:
        c = self.controller
        options = c.decision_options()
        for _, action in options:
            if action.kind == value.kind and self._fits(action, value.unit, value.hex, value.value):
                return c.answer(action)
        d = c.game.pending
        what = f"{value.kind}" + (f" {value.unit}" if value.unit else "") + (f" {value.hex}" if value.hex else "")
        if d is None:
            return c._say(Feedback("refused", f"There is no decision to answer now ({what})."))
        return c._say(Feedback("refused", f"{what} is not one of the answers to: {d.prompt}", d.rules))

    def _play_chit(self, value: Any) -> Feedback:
        from cheren.engine.rules.chits import PlayChit

        c = self.controller
        unit = self.uid(value.unit) if value.unit else ""
        target = value.target or ""
        named = [a for a in c.legal_actions() if isinstance(a, PlayChit) and self._chit_name(a.chit) == value.chit]
        for a in named:
            if a.unit == unit and a.target == target:
                return c.apply(a)
        # Not legal as written: hand it to the gate anyway, so the learner reads the rule.
        hand = self._hand(c.game.acting)
        chit = next((k for k in hand if self._chit_name(k) == value.chit), value.chit)
        return c.apply(PlayChit(chit, unit, target))

    def _hand(self, side: Side) -> list[str]:
        return list(self.game.position.chits.hands.get(side, []))

    def _chit_name(self, instance: str) -> str:
        from cheren.engine.position import chit_key
        from cheren.files.position_files import chit_label

        return chit_label(self.scenario, chit_key(instance))

    def _fits(self, action: Action, unit: str | None, hex_label: str | None, yes: bool | None = None) -> bool:
        fields = vars(action)
        if yes is not None and getattr(action, "yes", None) is not yes:
            return False
        if unit is not None:
            uid = self.uid(unit)
            if uid not in [v for v in fields.values() if isinstance(v, str)] and not any(
                isinstance(v, tuple) and uid in v for v in fields.values()
            ):
                return False
        if hex_label is not None:
            h = Hex.from_label(hex_label)
            if h not in [v for v in fields.values() if isinstance(v, Hex)] and hex_label not in fields.values():
                return False
        return True

    # -- checking ------------------------------------------------------------------------------
    def test(self, test: Test) -> tuple[bool, str]:
        """Whether one test holds, and what it asks in words (said when it does not)."""
        c, p, s = self.controller, self.game.position, self.scenario
        key, v = test.key, test.value
        if key == "unit_in":
            uid = self.uid(v.unit)
            where = p.units[uid].hex
            ok = where is not None and where.label in v.hexes
            now = f"it is in {where.label}" if where is not None else "it is not on the map"
            return ok, f"{s.units[uid].name} must end in {_either(v.hexes)} ({now})"
        if key == "odds_at_least":
            want = next((i for i, col in enumerate(s.odds_columns) if col.name == v.column), 0)
            columns = [col for h, col in c.rolled_columns if v.hex is None or h.label == v.hex]
            w = c.whatif() if c.attack.defender is not None and c.attack.attackers else None
            on_target = v.hex is None or (c.attack.defender is not None and c.attack.defender.label == v.hex)
            if w is not None and on_target:
                refusal = getattr(w, "refusal", None)
                if refusal is None:
                    columns.append(int(getattr(w, "odds", w).column))
            best = max(columns, default=None)
            now = f"the best so far is {s.odds_columns[best].name}" if best is not None else "no attack lined up yet"
            on = f" on {v.hex}" if v.hex else ""
            return best is not None and best >= want, f"line up an attack{on} at {v.column} or better ({now})"
        if key == "supplied":
            uid = self.uid(v.unit)
            trace = c.supply_trace(uid) if p.units[uid].hex is not None else None
            ok = trace is not None and bool(trace.supplied) == v.value
            state = "in supply" if v.value else "out of supply"
            return ok, f"{s.units[uid].name} must be {state}"
        if key == "controls":
            ok = p.controller(v.town) is v.side
            return ok, f"{v.town} must be under {v.side.adjective} control (it is {p.controller(v.town).adjective})"
        if key == "did":
            who = self.uid(v.unit) if v.unit else None
            found = any(e.action.kind == v.kind and self._fits(e.action, who, v.hex, v.value) for e in self.game.log)
            obj = f" with {s.units[who].name}" if who else ""
            return found, f"make a {v.kind.replace('_', ' ')}{obj}" + (f" on {v.hex}" if v.hex else "")
        if key == "refused":
            ok = any(v.rule in fb.rules for fb in c.refusals)
            return ok, f"try something rule {v.rule} forbids, and read why it is refused"
        if key == "reached":
            g = self.game
            ok = g.phase is v.phase and (v.side is None or g.phasing is v.side) and (v.turn is None or g.turn == v.turn)
            side = f"{v.side.adjective} " if v.side else ""
            return ok, f"reach the {side}{v.phase.value.title()} phase (now: {g.status()})"
        if key == "released":
            area = next((k for k, a in s.garrison_areas.items() if v.area in (k, a.name)), v.area)
            ok = (area in p.released) == v.value
            name = s.garrison_areas[area].name if area in s.garrison_areas else v.area
            return ok, f"the {name} garrison must be {'released' if v.value else 'still held'} (6.0)"
        if key == "steps_left":
            uid = self.uid(v.unit)
            unit = p.units[uid]
            left = 0 if unit.hex is None else s.units[uid].steps - unit.steps_lost
            return left == v.steps, f"{s.units[uid].name} must have {v.steps} step(s) left (it has {left})"
        raise ValueError(f"unknown test {key!r}")

    def passed(self) -> bool:
        return all(self.test(t)[0] for t in self.exercise.success)

    def stars(self) -> int:
        if self.solution_shown:
            return 0
        return max(1, 3 - self.hints_shown)

    def check(self) -> Verdict:
        """Judge the map now: success, a recognised mistake with its feedback and rule, or what
        is still missing."""
        e = self.exercise
        results = [self.test(t) for t in e.success]
        if all(ok for ok, _ in results):
            first = not self.solved
            self.solved = True
            stars = self.stars()
            text = "Solved" + (f" ({'★' * stars})" if stars else " (with the solution shown)") + "."
            if e.explain:
                text += " " + e.explain.strip()
            verdict = Verdict(True, text, tuple(e.rules), stars)
            if first and self.on_solved is not None:
                self.on_solved(self, verdict)
            return verdict
        wrong = self.recognise()
        if wrong is not None:
            return Verdict(False, f"Not quite. {wrong.feedback.strip()}", (wrong.rule,), 0, wrong)
        if self._signature() == self.start_signature:
            return Verdict(False, f"Nothing done yet. {e.goal.strip()}", tuple(e.rules))
        missing = "; ".join(text for ok, text in results if not ok)
        return Verdict(False, f"Not yet: {missing}.", tuple(e.rules))

    def hint(self) -> str | None:
        """The next hint (each one costs a star), or None when there are no more."""
        hints = self.exercise.hints
        if self.hints_shown >= len(hints):
            return None
        self.hints_shown += 1
        return hints[self.hints_shown - 1]

    def show_solution(self) -> list[Feedback]:
        """Reset and play the solution on the map; the exercise then earns no star."""
        self.solution_shown = True
        self.reset()
        return self.play(self.exercise.solution)

    # -- recognising expected mistakes ----------------------------------------------------------
    def _signature(self) -> tuple[Any, ...]:
        c, p = self.controller, self.game.position
        units = tuple(sorted((u.id, u.hex.label if u.hex else "", u.steps_lost) for u in p.units.values()))
        draft = (c.attack.defender, frozenset(c.attack.attackers), c.attack.air)
        return (units, draft, len(self.game.log))

    def _rules_refused(self) -> set[str]:
        return {r for fb in self.controller.refusals for r in fb.rules}

    def recognise(self) -> WrongAnswer | None:
        """The expected mistake whose steps lead to the map as it is now (and whose refusals the
        learner met), if any."""
        if self._wrong_signatures is None:
            self._wrong_signatures = [(w, self._replay_signature(w)) for w in self.exercise.wrong]
        mine, refused = self._signature(), self._rules_refused()
        for wrong, (signature, rules) in self._wrong_signatures:
            if signature == mine and rules <= refused and (rules or signature != self.start_signature):
                return wrong
        return None

    def _replay_signature(self, wrong: WrongAnswer) -> tuple[Any, set[str]]:
        shadow = ExerciseRun(self.lesson, self.exercise, self.scenario)
        shadow.play(wrong.steps)
        return shadow._signature(), shadow._rules_refused()


def passing_opponent(game: Game) -> Action:
    """The other side in a lesson: it plays no chit, answers what the rules force it to answer
    with the first legal answer, and otherwise ends its phase."""
    for action in game.legal_actions():
        if action.kind == "pass_chit":
            return action
    return pass_bot(game)


def _either(hexes: list[str]) -> str:
    return hexes[0] if len(hexes) == 1 else ", ".join(hexes[:-1]) + " or " + hexes[-1]
