"""Lessons as data: the course that teaches the rules in the order of play, with exercises the
engine judges (see the README: Learning the rules)."""

from cheren.study.lessons.course import course, load_lesson
from cheren.study.lessons.exercise_run import ExerciseRun, Verdict
from cheren.study.lessons.files import (
    Lesson,
    LessonError,
    lessons_dir,
    parse_lesson_text,
    read_lesson_file,
    start_position,
)

__all__ = [
    "ExerciseRun",
    "Lesson",
    "LessonError",
    "Verdict",
    "course",
    "lessons_dir",
    "load_lesson",
    "parse_lesson_text",
    "read_lesson_file",
    "start_position",
]
