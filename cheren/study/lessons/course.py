"""The course: every lesson file of the scenario, in course order."""

from __future__ import annotations

from pathlib import Path

from cheren.scenario.compiled import Scenario
from cheren.scenario.errors import Problem
from cheren.study.lessons.files import Lesson, LessonError, lessons_dir, read_lesson_file


def course(scenario: Scenario | None = None) -> list[Lesson]:
    """Every lesson of the scenario's ``lessons/`` folder, in course order."""
    folder = lessons_dir(_scenario(scenario))
    lessons = [read_lesson_file(f) for f in sorted(folder.glob("*.yaml"))] if folder.is_dir() else []
    return sorted(lessons, key=lambda lesson: (lesson.model.order, lesson.name))


def load_lesson(ref: str | Path, scenario: Scenario | None = None) -> Lesson:
    """A lesson by name (``cheren lessons`` lists them) or a lesson file."""
    path = Path(ref)
    if path.suffix in (".yaml", ".yml") and ("/" in str(ref) or path.is_file()):
        return read_lesson_file(path)
    lessons = course(scenario)
    for lesson in lessons:
        if lesson.name == str(ref):
            return lesson
    known = ", ".join(lesson.name for lesson in lessons)
    raise LessonError([Problem(str(ref), None, f"not a lesson of the course ({known}) nor a lesson file")])


def _scenario(scenario: Scenario | None) -> Scenario:
    if scenario is not None:
        return scenario
    from cheren.scenario import load_scenario

    return load_scenario()
