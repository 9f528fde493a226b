"""Lesson positions, lesson files edited at random, and progress files that cannot be written."""


from __future__ import annotations

import json
import os
import random
import shutil
from pathlib import Path

from cheren.files import load_position
from tests.hostile.core import (
    KEPT,
    REFUSED,
    ROOT,
    SCENARIO,
    Case,
    later,
    run_cli,
)

LESSON = ROOT / "scenarios/road_to_cheren/lessons/01_map_and_terrain.yaml"


def lesson_with_position(folder: Path, ref: str, name: str) -> Path:
    text = LESSON.read_text(encoding="utf-8")
    i = text.index("    position:\n      turn: 1")
    j = text.index("    success:", i)
    path = folder / f"{name}.yaml"
    path.write_text(text[:i] + f"    position: {json.dumps(ref)}\n" + text[j:], encoding="utf-8")
    return path


def lesson_position_cases(tmp: Path, size: int) -> list[Case]:
    from cheren.study.lessons.files import LessonError, read_lesson_file, start_position

    folder = tmp / "lessons"
    folder.mkdir(parents=True, exist_ok=True)
    outside = tmp / "secret.yaml"
    shutil.copy(ROOT / "scenarios/road_to_cheren/positions/agordat.yaml", outside)
    shutil.copy(ROOT / "scenarios/road_to_cheren/positions/agordat.yaml", folder / "beside.yaml")
    (folder / "sub").mkdir(exist_ok=True)
    shutil.copy(ROOT / "scenarios/road_to_cheren/positions/agordat.yaml", folder / "sub" / "below.yaml")
    link = folder / "link.yaml"
    if not link.is_symlink():
        link.symlink_to(outside)
    from cheren.files import position_code

    refs = {"an absolute path": (str(outside), False), "/etc/passwd": ("/etc/passwd", False),
            "a path up and out": ("../secret.yaml", False), "a link leading out": ("link.yaml", False),
            "a folder": (".", False), "/dev/zero": ("/dev/zero", False),
            "a library name": ("agordat", True), "a file beside the lesson": ("beside.yaml", True),
            "a file below the lesson": ("sub/below.yaml", True),
            "a position code": (position_code(load_position("agordat", SCENARIO)), True)}

    def try_ref(label: str, ref: str, ok: bool) -> str:
        lesson = read_lesson_file(lesson_with_position(folder, ref, f"l{abs(hash(label))}"))
        try:
            start_position(lesson, lesson.exercises[0], SCENARIO)
        except LessonError as exc:
            return REFUSED if not ok and "a lesson reads no other file" in str(exc) else "refused"
        return KEPT if ok else "accepted"

    return [Case(label, later(30, try_ref, label, ref, ok))
            for label, (ref, ok) in refs.items()]


def lesson_fuzz_cases(tmp: Path, size: int) -> list[Case]:
    files = sorted((ROOT / "scenarios/road_to_cheren/lessons").glob("*.yaml"))
    rng = random.Random(2801)
    inserts = ["", "[", "{", ":", "- ", "0000", "1100", "9999", '"0000"', "-1", "99", "null", "true", "x",
               '\n  - move: {unit: Tank, to: "0000"}\n', "'", "\t", "Skinner's Horse"]
    folder = tmp / "lesson-fuzz"
    folder.mkdir(parents=True, exist_ok=True)
    cases = []
    for n in range(size):
        source = rng.choice(files)
        text = source.read_text(encoding="utf-8")
        at, cut, insert = rng.randrange(len(text) + 1), rng.randrange(0, 20), rng.choice(inserts)
        path = folder / f"case{n}.yaml"
        path.write_text(text[:at] + insert + text[at + cut:], encoding="utf-8")

        def check(p: Path = path) -> str:
            rc, _out, err = run_cli(["lessons", "check", str(p)])
            if "Traceback" in err:
                return "traceback"
            return KEPT if rc == 0 else REFUSED  # checked and passed, or refused / reported failing

        cases.append(Case(f"{source.name} edited at {at}", later(120, check)))
    return cases


def progress_cases(tmp: Path, size: int) -> list[Case]:
    from cheren.study.lessons.course import load_lesson
    from cheren.study.lessons.exercise_run import ExerciseRun
    from cheren.study.lessons.stars import Progress

    folder = tmp / "progress"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "a-file").write_text("x")
    (folder / "a-folder.json").mkdir(exist_ok=True)
    fifo = folder / "pipe.json"
    if not fifo.exists():
        os.mkfifo(fifo)
    paths = {"its folder is a file": folder / "a-file" / "progress.json", "it is a folder": folder / "a-folder.json",
             "it is a named pipe": fifo, "a link to /dev/null": folder / "null.json"}
    if not paths["a link to /dev/null"].is_symlink():
        paths["a link to /dev/null"].symlink_to("/dev/null")
    lesson = load_lesson("map-and-terrain", SCENARIO)

    def solve(path: Path) -> str:
        progress = Progress.open(path)
        run = ExerciseRun(lesson, "drive-by-road", SCENARIO,
                          on_solved=lambda r, v: progress.record(lesson.key(r.exercise), v.stars))
        run.play(lesson.exercise("drive-by-road").solution)
        verdict = run.check()
        warned = progress.problem is not None and str(path.name) in progress.problem
        return KEPT if verdict.passed and progress.is_solved(lesson.key(run.exercise)) and warned else "lost"

    return [Case(label, later(60, solve, p)) for label, p in paths.items()]


