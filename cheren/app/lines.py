"""The lines of play (:mod:`cheren.study.variations`): branch, switch, promote, delete and compare
them, and save or load the whole study as one game save (:mod:`cheren.study.game_saves`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from cheren.study.map_intents import Feedback
from cheren.study.variations import LineComparison, TreeError

if TYPE_CHECKING:
    from cheren.app.board import Board


class Lines:
    def __init__(self, board: Board) -> None:
        self.board = board
        self.comparison: LineComparison | None = None  # the last two lines compared ("line-diff" draws it)

    def info(self) -> list[dict[str, Any]]:
        """Each line as the Lines panel shows it, the main line first and each branch after its parent."""
        study = self.board.study
        study.sync()
        out: list[dict[str, Any]] = []

        def walk(name: str, depth: int) -> None:
            line = study.lines[name]
            out.append({"name": name, "parent": line.parent, "at": line.at, "luck": line.luck, "depth": depth,
                        "current": name == study.current, "actions": len(line.actions) + line.at})
            children = [n for n, x in study.lines.items() if x.parent == name]
            for child in sorted(children, key=lambda n: study.lines[n].at):
                walk(child, depth + 1)

        walk(study.main, 0)
        return out

    def _switched(self) -> None:
        b = self.board
        b.clear_selection()
        b.map_scene.forget()
        b.changed()

    def branch(self, name: str | None = None, *, luck: str = "same", at: int | None = None) -> Feedback:
        b = self.board
        try:
            line = b.study.branch(name or None, at=at, luck="new" if luck == "new" else "same")
        except TreeError as exc:
            return b.say(Feedback("refused", str(exc)))
        self._switched()
        dice = "fresh dice" if line.luck == "new" else "the same dice as its parent"
        text = (f"New line {line.name!r} from {line.parent} after {line.at} actions, with {dice}: play on; "
                f"switch back to {line.parent} any time.")
        return b.say(Feedback("ok", text), "game", "selection")

    def switch(self, name: str) -> Feedback:
        b = self.board
        try:
            b.study.switch(name)
        except TreeError as exc:
            return b.say(Feedback("refused", str(exc)))
        self._switched()
        return b.say(Feedback("ok", f"On line {name!r}: {b.game.status()}"), "game", "selection")

    def promote(self, name: str) -> Feedback:
        b = self.board
        before = set(b.study.lines)
        try:
            b.study.promote(name)
        except TreeError as exc:
            return b.say(Feedback("refused", str(exc)))
        renamed = sorted(set(b.study.lines) - before)
        also = f"; the old main line is now called {renamed[0]!r}" if renamed else ""
        return b.say(Feedback("ok", f"{name!r} is now the main line{also}."), "game")

    def delete(self, name: str) -> Feedback:
        b = self.board
        try:
            before = b.study.current
            b.study.delete(name)
        except TreeError as exc:
            return b.say(Feedback("refused", str(exc)))
        if b.study.current != before:
            self._switched()
        return b.say(Feedback("ok", f"Deleted line {name!r} and the lines branching from it."), "game")

    def compare(self, a: str, other: str) -> Feedback:
        b = self.board
        try:
            self.comparison = c = b.study.compare(a, other)
        except TreeError as exc:
            return b.say(Feedback("refused", str(exc)))
        b.overlays.on.add("line-diff")
        b.changed()
        return b.say(Feedback("info", f"{a}: {c.vp[0]} Allied VP, {other}: {c.vp[1]}; the units differ in "
                                      f"{len(c.differ)} hexes (marked on the map)."), "game", "overlays")

    # -- the study as a file ------------------------------------------------------------------------
    def save(self, path: str | Path) -> Feedback:
        from cheren.app.autosave import seat_of
        from cheren.study.game_saves import save_game

        b = self.board
        try:
            save_game(b.study, path, b.opponent.saved(), seat_of(b))
        except OSError as exc:
            return b.say(Feedback("refused", f"Could not save to {path}: {exc}"))
        lines = len(b.study.lines)
        extra = f" and its {lines} lines" if lines > 1 else ""
        return b.say(Feedback("ok", f"Saved the game ({len(b.game.log)} actions){extra} to {path}."))

    def load(self, path: str | Path) -> Feedback:
        from cheren.app.autosave import take_up_seat
        from cheren.files.position_saves import SaveError
        from cheren.study.game_saves import load_study, read_opponent

        b = self.board
        try:
            study = load_study(path, b.scenario)
            opponent = read_opponent(path)
        except SaveError as exc:
            return b.say(Feedback("refused", str(exc)))
        b.take_study(study)
        b.opponent.take_up(opponent)  # the bot the save names plays on (a save without one keeps the table's)
        note = take_up_seat(b, path)  # a study comes back as a study, with its position; hot-seat behind the curtain
        return b.say(Feedback("ok" if not note else "refused", f"Loaded {path}: {study.game.status()}{note}"),
                     "game", "selection")
