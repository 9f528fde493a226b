"""``cheren lessons check``: every lesson proves itself.

For each exercise: its start position is legal and the learner's side acts in it, its setup
plays, its solution passes its tests, and each expected mistake fails, is recognised, and says
its feedback with its rule.  Every rule a lesson cites has a summary in the rules reference.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from cheren.engine.rule_summaries import summary
from cheren.scenario.compiled import Scenario
from cheren.scenario.errors import Problem
from cheren.study.lessons.exercise_run import ExerciseRun
from cheren.study.lessons.files import Lesson, LessonError
from cheren.study.lessons.model import Exercise


@dataclass
class LessonReport:
    lesson: Lesson
    problems: list[Problem] = field(default_factory=list)
    exercises: int = 0
    wrong_answers: int = 0
    warnings: list[Problem] = field(default_factory=list)  # the lesson runs, but may mislead a learner

    @property
    def ok(self) -> bool:
        return not self.problems


def check_lesson(lesson: Lesson, scenario: Scenario) -> LessonReport:
    report = LessonReport(lesson)

    def fail(where: str, message: str) -> None:
        report.problems.append(Problem(lesson.source, where, message))

    cited = set(lesson.model.rules)
    for e in lesson.model.exercises:
        report.exercises += 1
        where = f"exercises[{e.id}]"
        cited |= set(e.rules) | {w.rule for w in e.wrong}
        try:
            _check_exercise(lesson, e, scenario, report, where, fail)
        except (LessonError, ValueError) as exc:  # a counter or hex the lesson names that is not there
            fail(where, f"cannot be checked: {exc}")
    for rule in sorted(cited):
        if summary(rule) is None:
            fail("rules", f"rule {rule} has no summary in the rules reference (cheren/rules_reference.yaml)")
    return report


def _check_exercise(
    lesson: Lesson, e: Exercise, scenario: Scenario, report: LessonReport, where: str, fail: Callable[[str, str], None]
) -> None:
    try:
        run = ExerciseRun(lesson, e, scenario)
    except (LessonError, ValueError) as exc:
        fail(where, f"cannot start: {exc}")
        return
    loose = goal_units_not_required(e, run)
    if loose:
        report.warnings.append(Problem(
            lesson.source, f"{where}.success",
            f"the goal names {', '.join(loose)}, but no success test requires "
            f"{'it' if len(loose) == 1 else 'them'}: an answer without "
            f"{'it' if len(loose) == 1 else 'them'} passes too (add unit_in, supplied, did, steps_left, "
            "or odds_at_least with: [...])"))
    if run.game.acting is not e.side and run.game.pending is None:
        fail(where, f"the {e.side.adjective} side is not the one to act at the start ({run.game.status()})")
    feedback = run.play(e.solution)
    if not run.passed():
        failing = "; ".join(text for ok, text in (run.test(t) for t in e.success) if not ok)
        said = " / ".join(str(fb) for fb in feedback if not fb.ok)
        fail(f"{where}.solution", f"does not pass: {failing}" + (f" (refused: {said})" if said else ""))
    for i, wrong in enumerate(e.wrong):
        report.wrong_answers += 1
        trial = ExerciseRun(lesson, e, scenario)
        trial.play(wrong.steps)
        verdict = trial.check()
        if verdict.passed:
            fail(f"{where}.wrong[{i}]", "passes the exercise's tests: it is not a wrong answer")
        elif verdict.wrong is not wrong:
            fail(f"{where}.wrong[{i}]", f"is not recognised when played (Check says: {verdict.text})")
        elif wrong.rule not in verdict.rules:
            fail(f"{where}.wrong[{i}]", f"the verdict does not cite rule {wrong.rule}")


def goal_units_not_required(e: Exercise, run: ExerciseRun) -> list[str]:
    """The learner's own units the goal names that no success test requires (an exercise whose
    test is a refusal asks for the rule, not for a unit: none)."""
    if any(t.refused is not None for t in e.success):
        return []
    p, s = run.game.position, run.scenario
    mine = {uid for uid, u in p.units.items() if u.side is e.side and u.hex is not None}
    found = {uid: re.search(rf"(?<![\w]){re.escape(s.units[uid].name)}(?![\w])", e.goal) for uid in mine}
    named = sorted((uid for uid, m in found.items() if m is not None), key=lambda u: found[u].start())  # type: ignore[union-attr]
    required: set[str] = set()
    for t in e.success:
        v = t.value
        for ref in [getattr(v, "unit", None), *getattr(v, "with_", [])]:
            if isinstance(ref, str):
                required.add(run.uid(ref))
    return [s.units[uid].name for uid in named if uid not in required]
