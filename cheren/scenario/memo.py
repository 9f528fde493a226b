"""What is worked out once per scenario and kept while the scenario lives (movement graphs,
ZoC maps by stamp, supply tables), with a fast answer for the scenario asked about last.

A plain :class:`weakref.WeakKeyDictionary` answers in Python code and makes a weak reference on
every ``setdefault``; the rules ask it thousands of times in one game, nearly always about the
same scenario, so the last answer is remembered by the scenario's identity."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar
from weakref import ReferenceType, WeakKeyDictionary, ref

from cheren.scenario.compiled import Scenario

V = TypeVar("V")


class ScenarioMemo(Generic[V]):
    """One value per scenario, made on first use by ``make`` and kept while the scenario lives."""

    __slots__ = ("_last", "_last_ref", "_make", "_table")

    def __init__(self, make: Callable[[Scenario], V]) -> None:
        self._make = make
        self._table: WeakKeyDictionary[Scenario, V] = WeakKeyDictionary()
        self._last_ref: ReferenceType[Scenario] | None = None
        self._last: V | None = None

    def __call__(self, s: Scenario) -> V:
        last = self._last_ref
        if last is not None and last() is s:
            found = self._last
            assert found is not None
            return found
        value = self._table.get(s)
        if value is None:
            value = self._table[s] = self._make(s)
        self._last_ref, self._last = ref(s), value
        return value

    def clear(self) -> None:
        """Forget every value (benchmarks that measure the work itself)."""
        self._table.clear()
        self._last_ref, self._last = None, None
