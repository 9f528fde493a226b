"""The legal actions as a view (:meth:`Game.legal_view`): the very actions ``legal_actions()``
lists, in the same order, made only as they are read.

A Movement phase lists some 300 moves after every action, one per hex each unit can reach; a
player who takes one of them (a random bot, a random game) needs their number and one of them,
not all 300 made and put in a list.  python-chess lists a board's legal moves so
(``board.legal_moves``, a generator that counts, indexes and iterates without a list).  The
view holds the contributors' parts as they are kept (a unit's moves as its paths, see
:class:`cheren.engine.rules.moves.UnitMoves`) and finds ``view[i]`` by bisection."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from typing import overload

from cheren.engine.actions import Action, Move
from cheren.engine.registry import ListedPart


class LegalActions(Sequence[Action]):
    """The legal actions, in ``legal_actions()``'s order: ``len``, ``view[i]``, iteration (and
    what :class:`~collections.abc.Sequence` adds) without making the actions not read.  A view of
    the game as it is now: read it before the next action."""

    __slots__ = ("_ends", "_parts")

    def __init__(self, parts: Sequence[ListedPart]) -> None:
        self._parts = [part for part in parts if len(part)]
        ends: list[int] = []
        n = 0
        for part in self._parts:
            n += len(part)
            ends.append(n)
        self._ends = ends

    def __len__(self) -> int:
        return self._ends[-1] if self._ends else 0

    @overload
    def __getitem__(self, i: int) -> Action: ...
    @overload
    def __getitem__(self, i: slice) -> list[Action]: ...
    def __getitem__(self, i: int | slice) -> Action | list[Action]:
        if isinstance(i, slice):
            return list(self)[i]
        ends = self._ends
        n = ends[-1] if ends else 0
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("legal action index out of range")
        k = bisect_right(ends, i)
        return self._parts[k][i - ends[k - 1] if k else i]

    def __iter__(self) -> Iterator[Action]:
        for part in self._parts:
            yield from part

    def indexes(self, kind: type[Action]) -> list[int]:
        """Where the actions of ``kind`` are, looking only into the parts that are lists (a
        unit's moves, :class:`~cheren.engine.rules.moves.UnitMoves`, hold moves alone and are
        not made for this): ``[i for i, a in enumerate(view) if isinstance(a, kind)]`` for any
        kind but :class:`~cheren.engine.actions.Move` (and its bases)."""
        if issubclass(Move, kind):
            raise ValueError(f"the view does not make its moves to find {kind.__name__} actions: iterate it")
        out: list[int] = []
        start = 0
        for part, end in zip(self._parts, self._ends, strict=True):
            if isinstance(part, list):
                out += [start + j for j, a in enumerate(part) if isinstance(a, kind)]
            start = end
        return out

    def __repr__(self) -> str:
        return f"LegalActions({len(self)} actions)"
