"""A correction of the learned evaluation's P(Allied win), turn by turn, fitted on games its
model never saw.

Why: a model's P can lean one way at some turns.  Session 33's, trained mostly on play-outs of a
few dozen positions, was too sure at turn 1 and leaned Allied at turns 2-3; the one shipped in
session 36, trained on games from the set-up, leans a little Italian through turn 8
(docs/evaluation-rounds.md, sessions 35 and 36).  Platt scaling per turn (Platt 1999, "Probabilistic outputs for
support vector machines") maps the model's P to ``sigmoid(a_t * logit(P) + b_t)``, with ``a_t`` and
``b_t`` chosen by log loss on positions of games the trees never learned from; a turn with too
few positions keeps the model's own P.

The victory levels follow: the Allied levels are scaled together to the new P(Allied win), the
others (the draw and the Italian levels) to the rest, so each side's levels keep their shape."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

LEAST = 200  # positions a turn needs before its own correction is fitted
EDGE = 1e-6  # P is kept this far from 0 and 1 so that its logit is finite


@dataclass(frozen=True)
class Recalibration:
    """``by_turn[t] = (a, b)``: at turn t the corrected P(Allied win) is sigmoid(a logit(P) + b)."""

    by_turn: dict[int, tuple[float, float]]
    games: int = 0  # the games it was fitted on
    seeds: list[int] = field(default_factory=list)  # their runs' seeds

    def allied(self, p: float, turn: int) -> float:
        if turn not in self.by_turn:
            return p
        a, b = self.by_turn[turn]
        return _sigmoid(a * _logit(p) + b)

    def levels(self, probs: Sequence[float], winners: Sequence[str | None], turn: int) -> list[float]:
        """The level probabilities with P(Allied win) corrected (see the module)."""
        p = sum(x for x, w in zip(probs, winners, strict=True) if w == "allied")
        q = self.allied(p, turn)
        if q == p or not 0.0 < p < 1.0:
            return list(probs)
        up, down = q / p, (1.0 - q) / (1.0 - p)
        return [x * (up if w == "allied" else down) for x, w in zip(probs, winners, strict=True)]

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "seeds": list(self.seeds),
                "by_turn": {str(t): [a, b] for t, (a, b) in sorted(self.by_turn.items())}}

    @classmethod
    def from_json(cls, data: Any) -> Recalibration:
        """Raises ValueError or TypeError on anything but what :meth:`to_json` writes."""
        if not isinstance(data, dict):
            raise TypeError("recalibration is not a mapping")
        by_turn: dict[int, tuple[float, float]] = {}
        for key, pair in dict(data["by_turn"]).items():
            a, b = (float(x) for x in pair)
            if not (math.isfinite(a) and math.isfinite(b)):
                raise ValueError(f"recalibration of turn {key} is not a number")
            by_turn[int(key)] = (a, b)
        games = data.get("games", 0)
        if not isinstance(games, int) or isinstance(games, bool) or games < 0:
            raise TypeError("recalibration games is not a whole number")
        return cls(by_turn, games, [int(s) for s in data.get("seeds", [])])


def fit(p: Sequence[float], won: Sequence[bool], turns: Sequence[int], *, games: int = 0,
        seeds: Sequence[int] = ()) -> Recalibration:
    """The per-turn correction that best fits (by log loss) the outcomes ``won`` of positions the
    model gave ``p`` (each at its game turn ``turns[i]``)."""
    if not len(p) == len(won) == len(turns):
        raise ValueError("one P, one outcome and one turn per position")
    groups: dict[int, tuple[list[float], list[float]]] = {}
    for pi, wi, ti in zip(p, won, turns, strict=True):
        zs, ws = groups.setdefault(int(ti), ([], []))
        zs.append(_logit(pi))
        ws.append(1.0 if wi else 0.0)
    by_turn = {t: _platt(zs, ws) for t, (zs, ws) in sorted(groups.items()) if len(zs) >= LEAST}
    return Recalibration(by_turn, games, list(seeds))


def _platt(z: list[float], w: list[float]) -> tuple[float, float]:
    """Newton's method on the log loss of sigmoid(a z + b), from (1, 0): the model as it is.  A
    small ridge toward (1, 0) keeps a turn whose outcomes are all one way finite."""
    ridge = 1e-3 * len(z)
    a, b = 1.0, 0.0
    for _ in range(100):
        ga, gb = ridge * (a - 1.0), ridge * b
        haa = hbb = ridge
        hab = 0.0
        for zi, wi in zip(z, w, strict=True):
            q = _sigmoid(a * zi + b)
            h = q * (1.0 - q)
            ga += (q - wi) * zi
            gb += q - wi
            haa += h * zi * zi
            hab += h * zi
            hbb += h
        det = haa * hbb - hab * hab
        da, db = (hbb * ga - hab * gb) / det, (haa * gb - hab * ga) / det
        a, b = a - da, b - db
        if abs(da) + abs(db) < 1e-10:
            break
    return a, b


def _logit(p: float) -> float:
    p = min(1.0 - EDGE, max(EDGE, p))
    return math.log(p / (1.0 - p))


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)
