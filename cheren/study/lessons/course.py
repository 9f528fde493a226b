"""The course: every lesson file of the scenario, in course order, and a teacher's lessons from
folders of their own (``cheren app --lessons DIR``; ``$CHEREN_LESSONS``).

A teacher's lesson is a YAML file and nothing else: it runs in the app's lesson view like the
bundled ones.  A teacher's file that cannot be used never hides the rest of the course: it is
listed in :attr:`Course.problems` with the file and field at fault."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from cheren.scenario.compiled import Scenario
from cheren.scenario.errors import Problem
from cheren.study.lessons.files import Lesson, LessonError, lessons_dir, read_lesson_file

ENV = "CHEREN_LESSONS"  # more lesson folders, separated like PATH


@dataclass
class Course:
    """The lessons in course order, and why any teacher's file among them was left out."""

    lessons: list[Lesson] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def find(self, name: str) -> Lesson | None:
        return next((lesson for lesson in self.lessons if lesson.name == name), None)


def course(scenario: Scenario | None = None, folders: Iterable[str | Path] = ()) -> list[Lesson]:
    """Every lesson of the scenario's ``lessons/`` folder and of ``folders``, in course order (a
    bundled lesson that cannot be read raises :class:`LessonError`; a teacher's is left out)."""
    return read_course(scenario, folders).lessons


def read_course(scenario: Scenario | None = None, folders: Iterable[str | Path] = ()) -> Course:
    """The course with a teacher's folders added, each problem of their files named."""
    folder = lessons_dir(_scenario(scenario))
    lessons = [read_lesson_file(f) for f in _files(folder)] if folder.is_dir() else []
    found = Course(lessons)
    for extra in folders:
        where = Path(extra).expanduser()
        if not where.is_dir():
            found.problems.append(f"{where}: no such folder of lessons")
            continue
        for f in _files(where):
            try:
                lesson = read_lesson_file(f)
            except LessonError as exc:
                found.problems.append(f"{f}: {exc}".replace(f"{f}: {f.name}: ", f"{f}: "))
                continue
            taken = found.find(lesson.name)
            if taken is not None:
                found.problems.append(f"{f}: name: {lesson.name!r} is already the name of {taken.source}; "
                                      "give the lesson a name of its own")
                continue
            found.lessons.append(lesson)
    found.lessons.sort(key=lambda lesson: (lesson.model.order, lesson.name))
    return found


def lesson_folders(value: str | None = None) -> list[Path]:
    """The teacher's lesson folders named by ``$CHEREN_LESSONS`` (or ``value``)."""
    text = os.environ.get(ENV, "") if value is None else value
    return [Path(part) for part in text.split(os.pathsep) if part.strip()]


def load_lesson(ref: str | Path, scenario: Scenario | None = None, folders: Iterable[str | Path] = ()) -> Lesson:
    """A lesson by name (``cheren lessons`` lists them) or a lesson file."""
    path = Path(ref)
    if path.suffix in (".yaml", ".yml") and ("/" in str(ref) or path.is_file()):
        return read_lesson_file(path)
    lessons = course(scenario, folders)
    for lesson in lessons:
        if lesson.name == str(ref):
            return lesson
    known = ", ".join(lesson.name for lesson in lessons)
    raise LessonError([Problem(str(ref), None, f"not a lesson of the course ({known}) nor a lesson file")])


def _files(folder: Path) -> list[Path]:
    return sorted(f for f in folder.iterdir() if f.suffix in (".yaml", ".yml") and f.is_file())


def _scenario(scenario: Scenario | None) -> Scenario:
    if scenario is not None:
        return scenario
    from cheren.scenario import load_scenario

    return load_scenario()
