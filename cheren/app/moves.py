"""The move list of the current line: every action with who played it, when and the dice it
rolled, the point the board stands at, and stepping along the line (a click on a move, the arrow
keys).  Playing something else at an earlier point starts a new line there
(:meth:`cheren.app.board.Board.commit`), so a line is never overwritten by stepping back."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from cheren.engine.actions import Action
from cheren.scenario.sequence import PHASE_TITLES
from cheren.study.map_intents import Feedback
from cheren.study.variations import TreeError

if TYPE_CHECKING:
    from cheren.app.board import Board


@dataclass(frozen=True)
class MoveEntry:
    """One action of the line as the move list shows it."""

    n: int  # its number from the start of the game (1 = the first action)
    text: str
    who: str  # the side that played it
    when: str  # "T2 Allied Movement"
    dice: tuple[str, ...]  # the die rolls it led to
    branches: tuple[str, ...]  # other lines that part from this one after this action
    ahead: bool  # after the point the board stands at


class Moves:
    def __init__(self, board: Board) -> None:
        self.board = board
        self._seen: dict[tuple[str, int, Action], tuple[str, str, tuple[str, ...]]] = {}  # what the log said

    @property
    def ply(self) -> int:
        """How many actions of the line the board stands after."""
        return len(self.board.game.log)

    @property
    def length(self) -> int:
        return self.board.study.length()

    def _remember(self) -> None:
        line = self.board.study.current
        for entry in self.board.game.log:
            m = entry.moment
            when = f"T{m.turn} {m.side.adjective} {PHASE_TITLES[m.phase]}"
            dice = tuple(e for e in entry.events if e.startswith("die "))
            self._seen[(line, entry.index, entry.action)] = (entry.side.adjective, when, dice)

    def entries(self) -> list[MoveEntry]:
        """The whole line, the actions after the board's point included."""
        b = self.board
        study = b.study
        self._remember()
        actions, _ = study.history(study.current)
        parting: dict[int, list[str]] = {}
        for name in study.lines:
            if name != study.current:
                parting.setdefault(study.parting(name, study.current), []).append(name)
        out = []
        for i, action in enumerate(actions):
            who, when, dice = self._seen.get((study.current, i + 1, action), ("", "", ()))
            out.append(MoveEntry(i + 1, b.describe(action), who, when, dice, tuple(sorted(parting.get(i + 1, ()))),
                                 i >= self.ply))
        return out

    def branches_at_start(self) -> list[str]:
        """Lines that part from this one before its first action."""
        study = self.board.study
        return sorted(n for n in study.lines if n != study.current and study.parting(n, study.current) == 0)

    def goto(self, n: int) -> Feedback:
        """Stand after the line's first ``n`` actions (0: the start)."""
        b = self.board
        self._remember()
        try:
            b.study.goto(n)
        except TreeError as exc:
            return b.say(Feedback("refused", str(exc)))
        b.clear_selection()
        b.map_scene.forget()
        b.changed()
        length = self.length
        where = "the start" if n == 0 else f"move {n} of {length}"
        ahead = f" ({length - n} more in this line: play something else to start a new line here)" if n < length else ""
        return b.say(Feedback("info", f"At {where}: {b.game.status()}.{ahead}"), "game", "selection")

    def step(self, delta: int) -> Feedback:
        """One action back (-1) or on (+1) along the line; stays at either end."""
        n = max(0, min(self.length, self.ply + delta))
        if n == self.ply:
            end = "the start" if delta < 0 else "the end"
            return self.board.say(Feedback("info", f"Already at {end} of the line."))
        return self.goto(n)
