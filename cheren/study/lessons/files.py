"""Reading lesson files and building the start position of each exercise.

Lesson files live in the scenario's ``lessons/`` folder and are read like every other file a
user may hand us (:mod:`cheren.scenario.safe_yaml`); a bad one is refused with every problem named by
file and field.  An exercise's position goes through the position checker
(:func:`cheren.files.position_files.build_record`), so a lesson can never start from a position the
rules do not allow.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cheren.engine.position import Position
from cheren.files.position_code import PREFIX as CODE_PREFIX
from cheren.files.position_files import PositionError, build_record
from cheren.files.position_library import _date_of, library_names, open_position
from cheren.files.position_model import PositionFileModel
from cheren.scenario.compiled import Scenario
from cheren.scenario.errors import Problem
from cheren.scenario.loader import inside, validate_model
from cheren.scenario.models import Side
from cheren.scenario.safe_yaml import YamlInputError, parse, read_text
from cheren.study.lessons.model import Exercise, InlinePosition, LessonFileModel

FOLDER = "lessons"
TEACHING = "reconstructed: a teaching position of the course"


class LessonError(ValueError):
    """A lesson file that cannot be used; ``problems`` names each problem's file and field."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = list(problems)
        if len(self.problems) == 1:
            text = str(self.problems[0])
        else:
            text = "\n".join([f"{len(self.problems)} problems:", *(f"  - {p}" for p in self.problems[:20])])
            if len(self.problems) > 20:
                text += f"\n  ... and {len(self.problems) - 20} more"
        super().__init__(text)


@dataclass
class Lesson:
    """A lesson file read and validated: the model plus where it came from."""

    model: LessonFileModel
    source: str
    path: Path | None = None
    _positions: dict[str, Position] = field(default_factory=dict, repr=False)

    @property
    def name(self) -> str:
        return self.model.name

    @property
    def title(self) -> str:
        return self.model.title

    @property
    def exercises(self) -> list[Exercise]:
        return list(self.model.exercises)

    def exercise(self, ref: str | int) -> Exercise:
        if isinstance(ref, int):
            return self.model.exercises[ref]
        for e in self.model.exercises:
            if e.id == ref:
                return e
        known = ", ".join(e.id for e in self.model.exercises)
        raise LessonError([Problem(self.source, "exercises", f"no exercise {ref!r}; this lesson has: {known}")])

    def key(self, exercise: Exercise) -> str:
        """The exercise's name in progress files: ``lesson/exercise``."""
        return f"{self.name}/{exercise.id}"


def lessons_dir(scenario: Scenario) -> Path:
    return Path(scenario.directory) / FOLDER


def read_lesson_file(path: str | Path) -> Lesson:
    p = Path(path)
    try:
        text = read_text(p, p.name)
    except YamlInputError as exc:
        raise LessonError([Problem(p.name, None, str(exc).removeprefix(f"{p.name}: "))]) from None
    lesson = parse_lesson_text(text, p.name)
    lesson.path = p
    return lesson


def parse_lesson_text(text: str, source: str = "<lesson>") -> Lesson:
    try:
        data = parse(text, source)
    except YamlInputError as exc:
        raise LessonError([Problem(source, None, str(exc).removeprefix(f"{source}: "))]) from None
    if not isinstance(data, dict):
        kind = type(data).__name__
        raise LessonError([Problem(source, None, f"a lesson file holds a mapping of fields, not {kind}")])
    problems: list[Problem] = []
    model = validate_model(LessonFileModel, data, source, problems)
    if model is None:
        raise LessonError(problems)
    return Lesson(model, source)


def start_position(lesson: Lesson, exercise: Exercise, scenario: Scenario) -> Position:
    """The position the exercise starts from (a copy each time: the learner plays on it)."""
    cached = lesson._positions.get(exercise.id)
    if cached is None:
        cached = _build(lesson, exercise, scenario)
        lesson._positions[exercise.id] = cached
    return cached.copy()


def _build(lesson: Lesson, exercise: Exercise, s: Scenario) -> Position:
    where = f"exercises[{exercise.id}].position"
    ref = exercise.position
    try:
        if isinstance(ref, str):
            return open_position(_lesson_position_ref(lesson, ref, s, where), s).position
        problems: list[Problem] = []
        model = validate_model(PositionFileModel, _file_data(ref, exercise, s), lesson.source, problems)
        if model is None:
            raise PositionError(problems)
        return build_record(model, s, lesson.source).position
    except PositionError as exc:
        raise LessonError(
            [Problem(lesson.source, f"{where}.{p.field}" if p.field else where, p.message, p.hex)
             for p in exc.problems]
        ) from None


def _lesson_position_ref(lesson: Lesson, ref: str, s: Scenario, where: str) -> str | Path:
    """A lesson's position comes from the library, a code, or a file beside the lesson (in its
    folder or below): a lesson handed over by someone else reads nothing else on the machine."""
    text = ref.strip()
    if text.startswith(CODE_PREFIX) or text in library_names(s):
        return text
    beside = inside(lesson.path.parent, text) if lesson.path is not None else None
    if beside is not None and beside.is_file():
        return beside
    known = ", ".join(library_names(s))
    raise LessonError([Problem(
        lesson.source, where,
        f"{ref!r} is not a library position ({known}), a position code or a position file beside the lesson; "
        "a lesson reads no other file",
    )])


def _file_data(inline: InlinePosition, exercise: Exercise, s: Scenario) -> dict[str, Any]:
    names = {d.name: uid for uid, d in s.units.items()} | {uid: uid for uid in s.units}
    mentioned = {names.get(str(u.get("unit", "")), "") for u in inline.units}
    mentioned |= {names.get(u, "") for u in inline.to_arrive}
    # Every other counter is out of the lesson, except the air unit (off the map between
    # attacks, 11.3), the brigades' replacement counters (they stand in for steps, 11.6) and
    # the units due after this turn (still to arrive, 8.0).
    def later(d: Any) -> bool:
        turn = d.arrival.turn if d.arrival is not None else None
        if turn is None:
            return False
        # the Italian turn follows the Allied one: in an Allied phase, Italian units due this turn are still to come
        italian_later = d.side is Side.ITALIAN and inline.side is Side.ALLIED
        return bool(turn > inline.turn or (turn == inline.turn and italian_later))

    others = [
        uid for uid, d in s.units.items()
        if uid not in mentioned and not d.type.air and not uid.endswith("_repl") and not later(d.counter)
    ]
    data: dict[str, Any] = {
        "name": exercise.id,
        "title": exercise.title,
        "date": _date_of(s, inline.turn),
        "turn": inline.turn,
        "side": inline.side,
        "phase": inline.phase,
        "seed": inline.seed,
        "units": [{"provenance": TEACHING, **u} for u in inline.units],
        "eliminated": others,
        "to_arrive": list(inline.to_arrive),
        "allied_control": list(inline.allied_control),
        "garrisons_released": list(inline.garrisons_released),
    }
    if inline.chits is not None:
        data["chits"] = inline.chits
    return data
