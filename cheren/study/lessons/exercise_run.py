"""An exercise being worked: the learner acts on a real game through the one legality gate,
and Check judges the result with the exercise's tests.

    run = ExerciseRun(lesson, "stop-in-hard-zoc")
    run.do({"move": {"unit": "Tank Sqn", "to": "0409"}})   # a step, written as in a lesson file
    run.check()          # Verdict(passed=..., text=..., rules=..., stars=...)
    run.hint()           # the next graded hint
    run.show_solution()  # plays the solution (and the exercise earns no star)

The runner works on the :class:`~cheren.engine.game.Game` and the lesson only; its steps are
played by :class:`~cheren.study.lessons.exercise_steps.ExerciseBoard`, which gives them the
meaning the app's clicks have.  A UI that lets a learner click instead (the app's lesson mode)
plays on ``run.game`` and tells the runner what the game's log does not keep: each refusal
(:meth:`ExerciseRun.note_refusal`), the attack lined up (:meth:`ExerciseRun.note_draft`) and the
column of each attack rolled (:meth:`ExerciseRun.note_roll`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from cheren.engine.actions import Action
from cheren.engine.game import Game
from cheren.engine.wording import counted
from cheren.hexes import Hex
from cheren.scenario.compiled import Scenario
from cheren.scenario.models import Side
from cheren.study.lessons.exercise_steps import ExerciseBoard
from cheren.study.lessons.files import Lesson, start_position
from cheren.study.lessons.model import Exercise, Step, Test, WrongAnswer
from cheren.study.map_intents import AttackDraft, Feedback, attack_account, draft_whatif


@dataclass(frozen=True)
class Verdict:
    """What Check says: passed or not, the words, the rules that decide, and the stars earned."""

    passed: bool
    text: str
    rules: tuple[str, ...] = ()
    stars: int = 0
    wrong: WrongAnswer | None = None  # the expected mistake the learner made, if recognised
    account: tuple[str, ...] = ()  # what the learner did, in the engine's words (ExerciseRun.account)
    note: str = ""  # the lesson author's explanation, shown after the account

    def __str__(self) -> str:
        missing = [r for r in self.rules if r not in self.text]
        text = self.text + (f" (rule {', '.join(missing)})" if missing else "")
        lines = [text, *(f"- {line}" for line in self.account)]
        return "\n".join(lines + ([f"From the lesson: {self.note}"] if self.note else []))


class ExerciseRun:
    """One exercise: reset, act, check, hints, solution and the stars earned."""

    def __init__(
        self,
        lesson: Lesson,
        exercise: Exercise | str | int,
        scenario: Scenario | None = None,
        *,
        on_solved: Callable[[ExerciseRun, Verdict], None] | None = None,
    ) -> None:
        if scenario is None:
            from cheren.scenario import load_scenario

            scenario = load_scenario()
        self.lesson = lesson
        self.exercise = exercise if isinstance(exercise, Exercise) else lesson.exercise(exercise)
        self.scenario = scenario
        self.on_solved = on_solved
        self._names = {d.name: uid for uid, d in scenario.units.items()} | {uid: uid for uid in scenario.units}
        self.board = ExerciseBoard(self._new_game(), self.uid)
        self.hints_shown = 0
        self.solution_shown = False
        self.solved = False
        self._wrong_signatures: list[tuple[WrongAnswer, Any]] | None = None
        self.reset()

    # -- the game ------------------------------------------------------------------------------
    def _new_game(self) -> Game:
        return Game.from_position(start_position(self.lesson, self.exercise, self.scenario))

    def reset(self) -> Feedback:
        """Back to the start position, a new game (hints and the stars lost to them stay)."""
        board = self.board = ExerciseBoard(self._new_game(), self.uid)
        for step in self.exercise.setup:  # both sides' steps, as written
            fb = board.do(step)
            if not fb.ok:
                raise ValueError(f"{self.lesson.source}: exercises[{self.exercise.id}].setup: {fb}")
        board.opponent, board.opponent_side = passing_opponent, self.opponent_side
        board.reply()  # the other side only passes, and answers what is already its to answer
        board.selected = None
        board.refusals, board.rolled, board.attacks = [], [], []
        self.start_signature = self._signature()
        self.start_actions = len(self.game.log)
        return Feedback("info", self.exercise.goal.strip(), tuple(self.exercise.rules))

    @property
    def game(self) -> Game:
        return self.board.game

    @property
    def opponent_side(self) -> Side:
        """The side the learner does not play (it only passes: :func:`passing_opponent`)."""
        return Side.ITALIAN if self.exercise.side is Side.ALLIED else Side.ALLIED

    @property
    def draft(self) -> AttackDraft:
        """The attack lined up now."""
        return self.board.draft

    @property
    def refusals(self) -> list[Feedback]:
        """Everything refused since the start, with its rules."""
        return self.board.refusals

    def whatif(self) -> Any:
        """The what-if of the attack lined up now (None while a side of it is missing)."""
        return draft_whatif(self.game, self.board.draft)

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
    def do(self, step: Step | Mapping[str, Any]) -> Feedback:
        """One step, written as in a lesson file (``{"move": {"unit": "10 Ind", "to": "0509"}}``)."""
        return self.board.do(step if isinstance(step, Step) else Step.model_validate(step))

    def play(self, steps: Iterable[Step | Mapping[str, Any]]) -> list[Feedback]:
        return [self.do(s) for s in steps]

    # -- what a UI the learner clicks in tells the runner ----------------------------------------------
    def note_refusal(self, fb: Feedback) -> None:
        """The learner was refused something (the test ``refused`` asks for its rule)."""
        if fb.kind == "refused":
            self.board.refusals.append(fb)

    def note_draft(self, draft: AttackDraft) -> None:
        """The attack the learner has lined up now (``odds_at_least`` reads its odds)."""
        self.board.draft = AttackDraft(draft.defender, list(draft.attackers), draft.air)

    def note_roll(self, target: Hex, column: int, account: str = "", attackers: Iterable[str] = ()) -> None:
        """The learner rolled an attack on ``target`` at this column (an index of the table)
        with these attackers; ``account``: the attack in words
        (:func:`cheren.study.map_intents.attack_account`)."""
        self.board.rolled.append((target, column, frozenset(attackers)))
        if account:
            self.board.attacks.append(account)

    # -- checking ------------------------------------------------------------------------------
    def test(self, test: Test) -> tuple[bool, str]:
        """Whether one test holds, and what it asks in words (said when it does not)."""
        board, p, s = self.board, self.game.position, self.scenario
        key, v = test.key, test.value
        if key == "unit_in":
            uid = self.uid(v.unit)
            where = p.units[uid].hex
            ok = where is not None and where.label in v.hexes
            now = f"is in {where.label}" if where is not None else "is not on the map"
            # never the list of hexes that would do: that is the answer
            return ok, f"{s.units[uid].name} {now}, not where the goal asks" if not ok else f"{s.units[uid].name} {now}"
        if key == "odds_at_least":
            want = next((i for i, col in enumerate(s.odds_columns) if col.name == v.column), 0)
            need = frozenset(self.uid(u) for u in v.with_)
            columns = [col for h, col, who in board.rolled if (v.hex is None or h.label == v.hex) and need <= who]
            w = self.whatif()
            on_target = v.hex is None or (board.draft.defender is not None and board.draft.defender.label == v.hex)
            if w is not None and on_target and need <= set(board.draft.attackers):
                refusal = getattr(w, "refusal", None)
                if refusal is None:
                    columns.append(int(getattr(w, "odds", w).column))
            best = max(columns, default=None)
            none = "no attack with all of them yet" if need else "none lined up yet"
            now = f"the best so far is {s.odds_columns[best].name}" if best is not None else none
            on = f" on {v.hex}" if v.hex else ""
            with_ = f" with {_either([s.units[u].name for u in sorted(need)], 'and')}" if need else ""
            return best is not None and best >= want, f"line up an attack{on}{with_} at {v.column} or better ({now})"
        if key == "supplied":
            uid = self.uid(v.unit)
            from cheren.engine.rules.supply import unit_supply

            trace = unit_supply(p, uid) if p.units[uid].hex is not None else None
            ok = trace is not None and bool(trace.supplied) == v.value
            state = "in supply" if v.value else "out of supply"
            return ok, f"{s.units[uid].name} must be {state}"
        if key == "controls":
            ok = p.controller(v.town) is v.side
            return ok, f"{v.town} must be under {v.side.adjective} control (it is {p.controller(v.town).adjective})"
        if key == "did":
            who = self.uid(v.unit) if v.unit else None
            found = any(e.action.kind == v.kind and board.fits(e.action, who, v.hex, v.value) for e in self.game.log)
            obj = f" with {s.units[who].name}" if who else ""
            return found, f"make a {v.kind.replace('_', ' ')}{obj}" + (f" on {v.hex}" if v.hex else "")
        if key == "refused":
            ok = any(v.rule in fb.rules and (v.hex is None or v.hex in fb.text) for fb in board.refusals)
            at = f" at {v.hex}" if v.hex else ""
            return ok, f"try what the goal asks{at}, which rule {v.rule} forbids, and read why it is refused"
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
            return left == v.steps, f"{s.units[uid].name} must have {counted(v.steps, 'step')} left (it has {left})"
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
        account = tuple(self.account())
        if all(ok for ok, _ in results):
            first = not self.solved
            self.solved = True
            stars = self.stars()
            text = "Solved" + (f" ({'★' * stars})" if stars else " (with the solution shown)") + "."
            verdict = Verdict(True, text, tuple(e.rules), stars, account=account, note=" ".join(e.explain.split()))
            if first and self.on_solved is not None:
                self.on_solved(self, verdict)
            return verdict
        wrong = self.recognise()
        if wrong is not None:
            return Verdict(False, f"Not quite. {' '.join(wrong.feedback.split())}", (wrong.rule,), 0, wrong,
                           account=account)
        if self._signature() == self.start_signature and not self.board.refusals:
            return Verdict(False, f"Nothing done yet. {e.goal.strip()}", tuple(e.rules))
        # a mistake the lesson does not list: what the engine says about what was done, never the answer
        missing = "; ".join(text for ok, text in results if not ok)
        rules = tuple(dict.fromkeys(r for fb in self.board.refusals[-1:] for r in fb.rules)) or tuple(e.rules)
        return Verdict(False, f"Not yet: {missing}.", rules, account=account)

    def account(self, most: int = 12) -> list[str]:
        """What the learner did since the exercise began, in the engine's own words: the events
        of every action (each move with its cost, each attack with its strengths, ratio, shifts
        and die, each answer), the attack lined up, each refusal with its rule, and what the
        tests look at now (a unit's supply line, who holds a town, the steps left)."""
        s, p = self.scenario, self.game.position
        quiet = ("end of ", "begin turn", "plays no chit")
        lines = [ev for entry in self.game.log[self.start_actions:] for ev in entry.events
                 if not ev.startswith(quiet)]
        if len(lines) > most:
            lines = [*lines[:most], f"... and {len(lines) - most} more events (in the log)"]
        d = self.board.draft
        w = self.whatif()
        if w is not None and d.defender is not None:
            lines.append("Lined up: " + attack_account(self.game, d.defender, d.attackers, w))
        for said in dict.fromkeys(str(fb) for fb in self.board.refusals):
            lines.append(f"Refused: {said}")
        for test in self.exercise.success:
            v = test.value
            if test.key == "supplied" and p.units[self.uid(v.unit)].hex is not None:
                from cheren.engine.rules.supply import unit_supply

                lines.append(_brief(unit_supply(p, self.uid(v.unit)).explain()))
            elif test.key == "controls":
                lines.append(f"{v.town} is under {p.controller(v.town).adjective} control (2.1)")
            elif test.key == "steps_left":
                uid = self.uid(v.unit)
                left = s.units[uid].steps - p.units[uid].steps_lost
                lines.append(f"{s.units[uid].name} has {counted(left, 'step')} left")
        return lines

    def hint(self) -> str | None:
        """The next hint (each one costs a star), or None when there are no more."""
        hints = self.exercise.hints
        if self.hints_shown >= len(hints):
            return None
        self.hints_shown += 1
        return hints[self.hints_shown - 1]

    def show_solution(self) -> list[Feedback]:
        """Reset and play the solution; the exercise then earns no star."""
        self.solution_shown = True
        self.reset()
        return self.play(self.exercise.solution)

    # -- recognising expected mistakes ----------------------------------------------------------
    def _signature(self) -> tuple[Any, ...]:
        p = self.game.position
        units = tuple(sorted((u.id, u.hex.label if u.hex else "", u.steps_lost) for u in p.units.values()))
        return (units, self.board.draft.key(), len(self.game.log))

    def _rules_refused(self) -> set[str]:
        return {r for fb in self.board.refusals for r in fb.rules}

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
    actions = game.legal_actions()
    for action in actions:
        if action.kind == "pass_chit":
            return action
    if game.pending is not None:
        return actions[0]
    return next((a for a in actions if a.kind == "end_phase"), actions[0])


def _brief(explanation: str, ways: int = 2, width: int = 240) -> str:
    """A supply trace's explanation on one line: the verdict and the first ways tried (the
    Unit's supply line overlay shows them all)."""
    head, *tried = explanation.splitlines()
    parts = [head] + [" ".join(t.split()).removeprefix("- ") for t in tried[:ways]]
    text = " ".join(p if len(p) <= width else p[: width - 1] + "…" for p in parts)
    more = len(tried) - ways
    return text + (f" ... and {more} more way{'s' if more != 1 else ''}, each blocked" if more > 0 else "")


def _either(items: list[str], word: str = "or") -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {word} " + items[-1]
