"""The variation tree: one game explored along several lines, as on a chess analysis board
(python-chess's ``pgn.GameNode``, lichess's analysis tree), each line replayable from the seed.

A :class:`Study` starts from a game; its first line is the main line.  ``branch`` starts a new
line at any point of the current line's history (by default where it stands now): the new line
shares the actions before that point and goes its own way after it.  A branch takes the same
dice stream as its parent (``luck="same"``: an attack made again rolls the same die) or a fresh
one (``luck="new"``: the dice are seeded afresh at the branch point, so the same attack may go
another way).  ``switch`` moves between lines, ``promote`` makes a line the main line (the old
main line is renamed, so nothing else is called main), ``delete`` removes a line and the lines
branching from it, and ``compare`` sets two lines side by side: victory points, steps lost,
town control, the dice each rolled since they parted and the hexes where the units differ.
``goto`` shows the current line after any number of its actions, as a move list does: the
later actions stay in the line until something else is played there.

Every line is stored as the actions it adds after its branch point plus the points where its
dice were seeded afresh, so a line replays exactly through the legality gate, and a game save
keeps the whole tree (:mod:`cheren.study.game_saves`, version 2).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from cheren.engine.actions import Action
from cheren.engine.dice import Dice
from cheren.engine.game import Game
from cheren.hexes import Hex
from cheren.scenario.models import Side
from cheren.study.line import Line, Luck
from cheren.study.overlays import Overlay

__all__ = ["MAIN", "Line", "LineComparison", "Luck", "Study", "TreeError"]

MAIN = "main"
UNDO_STEPS = 500  # a rebuilt line can undo this many of its last actions
LINE_DIFF = "#00838f"  # teal: no other overlay is near it (the bot's moves and the supply cuts are purple)


class TreeError(ValueError):
    """A tree operation that cannot be done (an unknown line, deleting the main line ...)."""


@dataclass(frozen=True)
class LineComparison:
    a: str
    b: str
    vp: tuple[int, int]
    steps_lost: dict[str, tuple[int, int]]  # side -> (in a, in b), since the lines parted
    parted_at: int  # the number of actions both lines share
    only_a: tuple[str, ...]  # towns the Allies hold in a and not in b
    only_b: tuple[str, ...]
    differ: dict[Hex, str]  # hexes whose units differ: what each line has there
    dice: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # each line's die rolls since they parted

    def explain(self) -> str:
        lines = [
            f"**{self.a}** against **{self.b}** (they share the first {self.parted_at} actions)",
            "",
            "| | " + self.a + " | " + self.b + " |",
            "|---|---|---|",
            f"| Allied VP | {self.vp[0]} | {self.vp[1]} |",
        ]
        for side, (x, y) in self.steps_lost.items():
            lines.append(f"| {side} steps lost since they parted | {x} | {y} |")
        if self.only_a or self.only_b:
            lines.append(f"| towns held by the Allies only here | {', '.join(self.only_a) or '-'} | "
                         f"{', '.join(self.only_b) or '-'} |")
        rolls = [", ".join(_die(e) for e in d) or "none" for d in self.dice]
        lines.append(f"| dice rolled since they parted | {rolls[0]} | {rolls[1]} |")
        lines += ["", f"The units differ in {len(self.differ)} hexes."]
        for name, d in zip((self.a, self.b), self.dice, strict=True):
            if d:
                lines += ["", f"Dice of **{name}**:", *(f"- {e}" for e in d)]
        return "\n".join(lines)

    def _repr_markdown_(self) -> str:
        return self.explain()

    def overlay(self) -> Overlay:
        """The hexes where the units differ, labelled A (only the first line has units there),
        B (only the second) or A≠B (both, not the same ones)."""
        return Overlay("line-diff", dict(self.differ), colour=LINE_DIFF, opacity=0.35,
                       title=f"where {self.a} and {self.b} differ")


class Study:
    """A game and its lines of play (see the module)."""

    def __init__(self, game: Game, name: str = MAIN) -> None:
        self.scenario = game.scenario
        self.seed = game.seed
        self.start = game.start.copy()
        self.lines: dict[str, Line] = {name: Line(name, None, 0, "same", list(game.actions()))}
        self.current = name
        self._games: dict[str, Game] = {name: game}
        self._stepped: set[str] = set()  # lines whose game stands before the line's end (goto)

    @classmethod
    def from_lines(cls, scenario: Any, seed: int, start: Any, lines: list[Line], current: str) -> Study:
        """A study from its lines (a save's tree): every line is replayed through the gate now, so
        a line that does not replay is refused (TreeError naming it and the action)."""
        from cheren.study.tree_replay import ReplayError, replay_tree

        study = cls.__new__(cls)
        study.scenario, study.seed, study.start = scenario, seed, start.copy()
        study.lines = {line.name: line for line in lines}
        study.current = current
        study._games = {}
        try:
            game = replay_tree(scenario, seed, study.start, lines, current, UNDO_STEPS)
        except ReplayError as exc:
            raise TreeError(str(exc)) from None
        study._stepped = set()
        study._games[current] = game  # the other lines' games are built when asked for
        return study

    # -- where we are ----------------------------------------------------------------------------
    @property
    def game(self) -> Game:
        """The current line's game, live: play on it and the line grows."""
        return self._games[self.current]

    @property
    def main(self) -> str:
        return next(n for n, line in self.lines.items() if line.parent is None)

    def line(self, name: str) -> Line:
        try:
            return self.lines[name]
        except KeyError:
            raise TreeError(f"there is no line named {name!r}; the lines are {', '.join(self.lines)}") from None

    def sync(self) -> None:
        """Take the actions played on the current game into its line.  A game stepped back along
        its line (:meth:`goto`) keeps the rest of the line, until something else is played."""
        line = self.lines[self.current]
        game = self._games.get(self.current)
        if game is None:  # still being built (a study read from a save)
            return
        actions = game.actions()
        if self.current in self._stepped:
            stored, _ = self._stored(self.current)
            if len(actions) <= len(stored) and actions == stored[: len(actions)]:
                return
            self._stepped.discard(self.current)
        line.actions = list(actions[line.at :])
        line.reseeds = {i: s for i, s in line.reseeds.items() if i <= len(actions)}

    def history(self, name: str) -> tuple[list[Action], dict[int, int]]:
        """A line's whole history from the start of the game: its actions and its reseeds."""
        self.sync()
        return self._stored(name)

    def _stored(self, name: str) -> tuple[list[Action], dict[int, int]]:
        """A line's history as stored (the current game not taken in)."""
        chain = [self.line(name)]
        while chain[-1].parent is not None:  # a loop, not a recursion: lines may nest thousands deep
            chain.append(self.lines[chain[-1].parent])
        actions: list[Action] = []
        reseeds: dict[int, int] = {}
        for line in reversed(chain):
            del actions[line.at :]
            actions += line.actions
            reseeds = {i: s for i, s in reseeds.items() if i < line.at} | line.reseeds
        return actions, reseeds

    def length(self, name: str | None = None) -> int:
        """How many actions a line has from the start of the game (default: the current line)."""
        return len(self.history(name or self.current)[0])

    def owner(self, name: str, at: int) -> str:
        """The line whose own actions hold action number ``at`` of ``name``'s history (``name`` itself, or
        the ancestor it branched from before that point)."""
        line = self.line(name)
        while line.parent is not None and at < line.at:
            line = self.lines[line.parent]
        return line.name

    def branch_point(self, name: str) -> int:
        """How many actions of its history the line shares with its parent (0 for the main line)."""
        return self.line(name).at

    # -- building games ------------------------------------------------------------------------------
    def build(self, name: str) -> Game:
        """The line replayed from the start through the gate (each reseed where it was made)."""
        actions, reseeds = self.history(name)
        return self._replay(actions, reseeds, name)

    def _replay(self, actions: list[Action], reseeds: dict[int, int], name: str | None = None) -> Game:
        name = name or self.current
        game = Game(self.scenario, self.seed, self.start.copy())
        first_kept = len(actions) - UNDO_STEPS  # undo history for the last steps only: flat memory
        for i, action in enumerate(actions):
            if i in reseeds:
                game.position.dice = Dice(reseeds[i])
            verdict = game.check(action)
            if not verdict.ok:
                raise TreeError(f"line {name!r}, action {i + 1} ({action.describe()}): {verdict}")
            game.apply(action, history=i >= first_kept)
        if len(actions) in reseeds:
            game.position.dice = Dice(reseeds[len(actions)])
        return game

    def game_of(self, name: str) -> Game:
        if name not in self._games:
            self._games[name] = self.build(name)
        return self._games[name]

    def goto(self, n: int) -> Game:
        """The current line's game after its first ``n`` actions (0 to the line's length), the way a
        move list steps: back by undoing, forward by playing the line's own next actions again.  The
        later actions stay in the line; playing something else there replaces them (the app branches
        a new line first instead)."""
        actions, reseeds = self.history(self.current)
        if not 0 <= n <= len(actions):
            raise TreeError(f"line {self.current!r} has {len(actions)} actions: go to 0 to {len(actions)}, not {n}")
        game = self.game
        while len(game.log) > n and game.can_undo():
            game.undo()
        if len(game.log) > n:  # older than the undo history kept: replay from the start
            game = self._games[self.current] = self._replay(actions[:n], reseeds)
        while len(game.log) < n:
            i = len(game.log)
            if i in reseeds:
                game.position.dice = Dice(reseeds[i])
            game.push(actions[i])
        if n < len(actions):
            self._stepped.add(self.current)
        else:
            self._stepped.discard(self.current)
        return game

    # -- the tree ------------------------------------------------------------------------------------
    def branch(self, name: str | None = None, *, at: int | None = None, luck: Luck = "same") -> Line:
        """A new line from the current one, sharing its first ``at`` actions (default: all that
        were played), and make it current."""
        self.sync()
        played = len(self.game.log)
        at = played if at is None else at
        if not 0 <= at <= self.length(self.current):
            raise TreeError(f"a line branches after 0 to {self.length(self.current)} actions of {self.current!r}, "
                            f"not {at}")
        parent = self.owner(self.current, at)  # before the line's own start: from the line it came from
        name = name or self._fresh_name()
        if name in self.lines:
            raise TreeError(f"there is already a line named {name!r}")
        if luck not in ("same", "new"):
            raise TreeError(f"luck is 'same' or 'new', not {luck!r}")
        line = Line(name, parent, at, luck)
        if luck == "new":
            line.reseeds[at] = self._new_seed(name, at)
        self.lines[name] = line
        self._games[name] = self.build(name)
        self.current = name
        return line

    def switch(self, name: str) -> Game:
        self.line(name)
        self.sync()
        self.current = name
        return self.game_of(name)

    def delete(self, name: str) -> None:
        """Remove a line and every line branching from it (never the main line)."""
        line = self.line(name)
        if line.parent is None:
            raise TreeError("the main line cannot be deleted; promote another line first")
        self.sync()
        gone = {name} | set(self.descendants(name))
        if self.current in gone:
            self.current = line.parent
        for n in gone:
            del self.lines[n]
            self._games.pop(n, None)
            self._stepped.discard(n)

    def descendants(self, name: str) -> list[str]:
        """Every line branching from ``name``, from lines branching from those, and so on."""
        children: dict[str, list[str]] = {}
        for n, line in self.lines.items():
            if line.parent is not None:
                children.setdefault(line.parent, []).append(n)
        out: list[str] = []
        todo = list(reversed(children.get(name, [])))
        while todo:
            n = todo.pop()
            out.append(n)
            todo += reversed(children.get(n, []))
        return out

    def promote(self, name: str) -> None:
        """Make ``name`` the main line; every other line keeps its history and hangs from the
        line it shares the most of that history with."""
        self.line(name)
        self.sync()
        old_main = self.main
        if name == old_main:
            return
        full = {n: self.history(n) for n in self.lines}
        old = self.lines
        order = [name, *sorted((n for n in old if n != name), key=lambda n: old[n].at)]
        placed: dict[str, Line] = {}
        for n in order:
            actions, reseeds = full[n]
            if not placed:
                placed[n] = Line(n, None, 0, old[n].luck, list(actions), dict(reseeds))
                continue
            candidates = [(p, _shared(full[p], full[n])) for p in placed]
            best, shared = max(candidates, key=lambda x: (x[1], x[0] == old[n].parent))
            placed[n] = Line(n, best, shared, old[n].luck, list(actions[shared:]),
                             {i: s for i, s in reseeds.items() if i >= shared})
        self.lines = placed
        if old_main == MAIN:  # nothing but the main line is called main: the old one is renamed
            self.rename(MAIN, self._free_name("former main"))

    def rename(self, old: str, new: str) -> None:
        """Give a line another name (its branches follow)."""
        self.line(old)
        new = new.strip()
        if not new:
            raise TreeError("a line needs a name")
        if new in self.lines and new != old:
            raise TreeError(f"there is already a line named {new!r}")
        self.lines = {(new if n == old else n): line for n, line in self.lines.items()}
        line = self.lines[new]
        line.name = new
        for other in self.lines.values():
            if other.parent == old:
                other.parent = new
        if old in self._games:
            self._games[new] = self._games.pop(old)
        if old in self._stepped:
            self._stepped.discard(old)
            self._stepped.add(new)
        if self.current == old:
            self.current = new

    # -- comparing -----------------------------------------------------------------------------------
    def parting(self, a: str, b: str) -> int:
        """How many actions (with the same dice) two lines share before they part."""
        return _shared(self.history(a), self.history(b))

    def compare(self, a: str, b: str) -> LineComparison:
        """Two lines side by side, each whole: a line stepped back along its moves is compared at
        its end, not where it was left standing."""
        self.sync()
        ga, gb = (g if len((g := self.game_of(n)).log) == self.length(n) else self.build(n) for n in (a, b))
        parted = _shared(self.history(a), self.history(b))
        pa, pb = ga.position, gb.position
        lost: dict[str, tuple[int, int]] = {}
        for side in Side:
            counts = []
            for g in (ga, gb):
                counts.append(sum(x.steps for e in g.log[parted:] for x in e.losses if x.side is side))
            lost[side.adjective] = (counts[0], counts[1])
        dice = tuple(tuple(e for entry in g.log[parted:] for e in entry.events if e.startswith("die "))
                     for g in (ga, gb))
        differ: dict[Hex, str] = {}
        for h in set(pa.stacks()) | set(pb.stacks()):
            ua, ub = sorted(pa.units_at(h)), sorted(pb.units_at(h))
            if ua != ub:
                differ[h] = "A" if not ub else "B" if not ua else "A≠B"
        return LineComparison(
            a, b, (pa.allied_vp(), pb.allied_vp()), lost, parted,
            tuple(sorted(pa.allied_control - pb.allied_control)), tuple(sorted(pb.allied_control - pa.allied_control)),
            dict(sorted(differ.items())), (dice[0], dice[1]),
        )

    # -- saves ---------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        self.sync()
        return {
            "current": self.current,
            "lines": [
                {"name": line.name, "parent": line.parent, "at": line.at, "luck": line.luck,
                 "reseeds": {str(i): s for i, s in sorted(line.reseeds.items())},
                 "actions": [a.to_json() for a in line.actions]}
                for line in self.lines.values()
            ],
        }

    # -- helpers -------------------------------------------------------------------------------------
    def _fresh_name(self) -> str:
        n = len(self.lines)
        while f"line {n}" in self.lines:
            n += 1
        return f"line {n}"

    def _free_name(self, base: str) -> str:
        name, n = base, 2
        while name in self.lines:
            name, n = f"{base} {n}", n + 1
        return name

    def _new_seed(self, name: str, at: int) -> int:
        text = f"{self.seed}/{name}/{at}/{len(self.lines)}".encode()
        return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 1


def _die(event: str) -> str:
    """A die roll as the comparison lists it: "die 5 on the 3-1 column: ..." -> "5 (3-1)"."""
    words = event.split()
    column = event.split(" on the ", 1)[1].split(" column", 1)[0] if " on the " in event else ""
    return f"{words[1]} ({column})" if len(words) > 1 and column else event


def _shared(a: tuple[list[Action], dict[int, int]], b: tuple[list[Action], dict[int, int]]) -> int:
    """How many actions two histories share with the same dice (a reseed at an action number
    makes the histories part there)."""
    n = 0
    for x, y in zip(a[0], b[0], strict=False):
        if x != y or a[1].get(n) != b[1].get(n):
            break
        n += 1
    return n
