"""Lessons as data: the course that teaches the rules in the order of play, with exercises the
engine judges (see the README: Learning the rules)."""

from cheren.lessons.files import Lesson, LessonError, lessons_dir, parse_lesson_text, read_lesson_file, start_position
from cheren.lessons.library import course, load_lesson
from cheren.lessons.run import ExerciseRun, Verdict

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
