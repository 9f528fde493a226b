"""The app's autosave and the editor's Open."""


from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cheren.engine.game import Game
from tests.hostile.core import (
    KEPT,
    RECOVERED,
    REFUSED,
    ROOT,
    SCENARIO,
    Case,
    _kind,
    later,
    special_files,
)
from tests.hostile.saves import study_text


def bad_autosaves(tmp: Path) -> dict[str, Callable[[Path], None]]:
    good = study_text()

    def write(text: str | bytes) -> Callable[[Path], None]:
        def make(p: Path) -> None:
            if isinstance(text, bytes):
                p.write_bytes(text)
            else:
                p.write_text(text, encoding="utf-8")
        return make

    def fifo(p: Path) -> None:
        os.mkfifo(p)

    def folder(p: Path) -> None:
        p.mkdir()

    data = json.loads(good)
    data["final"]["turn"] = 7
    return {
        "not JSON": write("{ not json"), "empty": write(""), "binary": write(b"\x00\xff" * 50),
        "JSON of another kind": write('{"format": "cheren-results"}'), "a list": write("[1, 2]"),
        "nested 100,000 deep": write("[" * 100_000),
        "a position save": write(json.dumps({"format": "cheren-position"})),
        "an edited final position": write(json.dumps(data)), "cut in half": write(good[: len(good) // 2]),
        "a named pipe": fifo, "a folder": folder,
    }


def autosave_outcome(tmp: Path, label: str, make: Callable[[Path], None], fault: str | None = None) -> str:
    from cheren.app.app import App
    from cheren.study import game_saves

    folder = tmp / f"auto-{abs(hash(label))}"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "cheren-autosave.json"
    make(path)
    before = path.read_bytes() if path.is_file() else None
    kind = _kind(path)
    saved = game_saves.load_study, Path.rename
    try:
        if fault == "bug":
            game_saves.load_study = _raise_assertion
        if fault == "unmovable":
            Path.rename = _raise_permission  # type: ignore[method-assign]
        app = App(Game(SCENARIO, seed=3), autosave=path)
    finally:
        game_saves.load_study, Path.rename = saved  # type: ignore[method-assign]
    said = app.board.feedback.text
    if "could not be read" not in said or path.name not in said or len(app.board.game.log) != 0:
        return "unclear"
    if fault == "unmovable":
        return RECOVERED if _kind(path) == kind and app.autosave is None and "not autosaved" in said else "lost"
    aside = [p for p in folder.iterdir() if p.name.startswith("cheren-autosave.unreadable-")]
    if len(aside) != 1 or aside[0].name not in said or _kind(aside[0]) != kind:
        return "lost"
    if before is not None and aside[0].read_bytes() != before:
        return "lost"
    return RECOVERED


def _raise_assertion(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("a fault of cheren's own while replaying")


def _raise_permission(self: Path, target: Any) -> Any:
    raise PermissionError(13, "Permission denied")


def autosave_cases(tmp: Path, size: int) -> list[Case]:
    cases = [Case(label, later(60, autosave_outcome, tmp, label, make))
             for label, make in bad_autosaves(tmp).items()]
    good = study_text()

    def write(p: Path) -> None:
        p.write_text(good[:-40], encoding="utf-8")

    cases.append(Case("a fault of cheren's own while loading",
                      later(60, autosave_outcome, tmp, "bug", write, "bug")))
    cases.append(Case("a bad file in a folder where it cannot be moved",
                      later(60, autosave_outcome, tmp, "unmovable", write, "unmovable")))
    return cases


def editor_inputs(tmp: Path) -> dict[str, tuple[str, bool]]:
    """What a user may type into the editor's Open: (the text, whether it is one the app writes)."""
    from cheren.files import open_position, position_code, write_position_file
    from cheren.files.position_saves import save_position
    from cheren.players.results_file import Run, write_results
    from cheren.study.game_saves import save_game
    from cheren.study.variations import Study

    tmp.mkdir(parents=True, exist_ok=True)
    g = Game(SCENARIO, seed=3)
    for _ in range(30):
        g.apply(g.legal_actions()[-1])
    save_game(g, tmp / "game.json")
    study = Study(g)
    study.branch("x")
    study.game.apply(study.game.legal_actions()[0])
    save_game(study, tmp / "cheren-autosave.json")
    save_position(g.position, tmp / "position.json")
    write_position_file(open_position("agordat", SCENARIO), tmp / "my-position.yaml")
    (tmp / "empty.json").write_text("")
    (tmp / "binary.json").write_bytes(b"\x00\xff" * 10)
    (tmp / "hello.yaml").write_text("hello")
    write_results([], tmp / "results.json", Run(1, 0, "random", "random"))
    sp = special_files(tmp / "special")
    return {
        "a library name": ("agordat", True), "a position file": (str(tmp / "my-position.yaml"), True),
        "a position save": (str(tmp / "position.json"), True), "a position code": (position_code(g.position), True),
        "a game save": (str(tmp / "game.json"), True),
        "the autosave (a study)": (str(tmp / "cheren-autosave.json"), True),
        "nothing": ("", False), "spaces": ("   ", False), "a missing file": (str(tmp / "missing.json"), False),
        "a folder": (str(sp["folder"]), False), "a named pipe": (str(sp["fifo"]), False),
        "a link to /dev/zero": (str(sp["link to /dev/zero"]), False), "binary": (str(tmp / "binary.json"), False),
        "an empty file": (str(tmp / "empty.json"), False), "a results file": (str(tmp / "results.json"), False),
        "a lesson file": (str(ROOT / "scenarios/road_to_cheren/lessons/03_stacking.yaml"), False),
        "a text file": (str(tmp / "hello.yaml"), False), "half a code": ("C1", False), "a hex label": ("1100", False),
    }


def editor_cases(tmp: Path, size: int) -> list[Case]:
    from cheren.app.editor import EditorController

    inputs = editor_inputs(tmp / "editor")
    editor = EditorController(scenario=SCENARIO)

    def open_it(text: str, ours: bool) -> str:
        fb = editor.load(text)
        if ours:
            return KEPT if fb.kind == "ok" else "refused"
        return REFUSED if fb.kind == "refused" and fb.text else "accepted"

    return [Case(label, later(30, open_it, text, ours))
            for label, (text, ours) in inputs.items()]


