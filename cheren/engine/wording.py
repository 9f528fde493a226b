"""Small helpers for the words the engine writes: movement points, hex labels, rule numbers."""

from __future__ import annotations

import re
from dataclasses import fields, is_dataclass
from fractions import Fraction
from typing import Any
from weakref import WeakKeyDictionary

from cheren.hexes import Hex


def mp_text(value: Any) -> str:
    """Movement points as a player reads them: 3, 2.5."""
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"
    return str(value)


def counted(n: int, noun: str) -> str:
    """A count with its noun as a player writes it: '1 step', '4 steps' (never 'step(s)')."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def hex_text(h: Hex) -> str:
    """A hex's CCRR label, or its axial pair when it lies off the labelled grid (or, for
    something that is not a hex at all, as a malformed action may hold, its repr)."""
    try:
        return h.label
    except (ValueError, AttributeError, TypeError):
        return str(tuple(h)) if isinstance(h, tuple) else repr(h)


def rules_cited(text: str, default: str = "9.0") -> tuple[str, ...]:
    """The rule numbers cited in brackets in an explanation, e.g. '... (9.1)' -> ('9.1',)."""
    found = re.findall(r"(\d+\.\d+)\)", text)
    return tuple(dict.fromkeys(found)) or (default,)


_NAMES: WeakKeyDictionary[Any, dict[str, str]] = WeakKeyDictionary()


def named(action: Any, scenario: Any) -> str:
    """An action in words as a player reads them: its ``describe()`` with the unit ids and chit
    instances it names (``ind_10``, ``roadblock.1``) replaced by their names.  Only the action's
    own ids are replaced, so a short id never touches a word of the sentence around it."""
    names = _NAMES.get(scenario)
    if names is None:
        names = {uid: str(d.name) for uid, d in scenario.units.items()}
        # every physical chit is key.n (cheren.engine.position.chit_instances)
        names |= {f"{c.key}.{n}": str(c.name) for c in scenario.chit_chart.chits for n in range(1, c.count + 1)}
        _NAMES[scenario] = names
    text = str(action.describe())
    values = [getattr(action, f.name) for f in fields(action)] if is_dataclass(action) else []
    ids = {v for v in values if isinstance(v, str)} | {x for v in values if isinstance(v, tuple) for x in v}
    for found in sorted((i for i in ids if isinstance(i, str) and i in names), key=len, reverse=True):
        text = re.compile(rf"(?<![\w.]){re.escape(found)}(?![\w])").sub(names[found].replace("\\", r"\\"), text)
    return text
