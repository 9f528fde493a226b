"""``cheren lessons``: the course on the command line."""

from __future__ import annotations

from pathlib import Path

from cheren.scenario import load_scenario
from cheren.scenario.compiled import Scenario
from cheren.scenario.errors import Problem
from cheren.study.lessons.check import check_lesson
from cheren.study.lessons.course import load_lesson, read_course
from cheren.study.lessons.files import Lesson, LessonError, read_lesson_file
from cheren.study.lessons.stars import Progress


def run_lessons(what: list[str], *, scenario_dir: str | None = None, progress: str | None = None,
                folders: list[str] | None = None) -> int:
    """``folders``: a teacher's lesson folders (as ``cheren app --lessons``), with the course."""
    s = load_scenario(scenario_dir)
    found = read_course(s, folders or [])
    for problem in found.problems:
        print(f"warning: {problem}")
    if what and what[0] == "check":
        lessons = [lesson for ref in what[1:] for lesson in _named(ref, s, folders or [])] or found.lessons
        return _check(lessons, s) or (1 if found.problems else 0)
    if what:
        for ref in what:
            _show(load_lesson(ref, s, folders or []), Progress.open(progress))
        return 0
    _list(found.lessons, Progress.open(progress))
    return 0


def _named(ref: str, s: Scenario, folders: list[str]) -> list[Lesson]:
    """A lesson by name or file, or every lesson file of a folder."""
    if not ref.strip():
        raise LessonError([Problem("lessons check", None, "name a lesson, a lesson file or a folder of lesson "
                                                          "files (got an empty name)")])
    if Path(ref).is_dir():
        files = [f for f in sorted(Path(ref).iterdir()) if f.suffix in (".yaml", ".yml") and f.is_file()]
        if not files:
            raise LessonError([Problem(ref, None, "a folder with no lesson files in it (*.yaml)")])
        return [read_lesson_file(f) for f in files]
    return [load_lesson(ref, s, folders)]


def _stars(progress: Progress, lesson: Lesson) -> tuple[int, int]:
    keys = [lesson.key(e) for e in lesson.exercises]
    return sum(progress.is_solved(k) for k in keys), sum(progress.stars.get(k, 0) for k in keys)


def _list(lessons: list[Lesson], progress: Progress) -> None:
    total = sum(len(lesson.exercises) for lesson in lessons)
    print(f"The course: {len(lessons)} lessons, {total} exercises (in the app: cheren app, then Course)")
    for lesson in lessons:
        solved, stars = _stars(progress, lesson)
        rules = ", ".join(lesson.model.rules)
        print(f"  {lesson.model.order:2d}. {lesson.name:28s} {lesson.title}  [rules {rules}]"
              f"  {solved}/{len(lesson.exercises)} solved, {stars} stars")
    if progress.problem:
        print(f"warning: {progress.problem}")


def _show(lesson: Lesson, progress: Progress) -> None:
    print(f"{lesson.model.order}. {lesson.title} (rules {', '.join(lesson.model.rules)})")
    for i, e in enumerate(lesson.exercises, 1):
        mark = "*" * progress.stars.get(lesson.key(e), 0) if progress.is_solved(lesson.key(e)) else "-"
        print(f"  {i}. {e.title} [{mark}]\n     {e.goal}")


def _check(lessons: list[Lesson], s: Scenario) -> int:
    failed = 0
    exercises = wrong = 0
    for lesson in lessons:
        report = check_lesson(lesson, s)
        exercises += report.exercises
        wrong += report.wrong_answers
        where = Path(lesson.source).name
        if report.ok:
            print(f"ok   {where}: {report.exercises} exercises, {report.wrong_answers} wrong answers")
        else:
            failed += 1
            print(f"FAIL {where}:")
            for problem in report.problems:
                print(f"  - {problem}")
        for warning in report.warnings:
            print(f"  warning: {warning}")
    print(f"{len(lessons) - failed} of {len(lessons)} lessons ok; {exercises} exercises, {wrong} wrong answers checked")
    return 1 if failed else 0
