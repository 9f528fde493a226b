"""How far off a model was where it was measured: kept in its model file, so that every caption of
its numbers can say so (``cheren calibrate-eval --record``).

A record holds one measurement against play-outs (:mod:`.calibration`): at how many positions the
model was never trained on, how many play-outs of which bot each, on which seeds, its mean
absolute error of P(Allied win) there, at how many it was within :data:`CLOSE`, and the positions'
codes.  Positions the model learnt from are left out of a record, so the figure is a held-out
one; a position already in a record is refused, so none is counted twice."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

CLOSE = 0.05  # within this of the play-outs' share counts as close (issue 34's target for the mean)
ROUNDING = 1e-9  # an error of 0.05 computed as 0.050000000000000044 is within CLOSE


@dataclass(frozen=True)
class Measured:
    """One measurement of a model against play-outs of positions it was not trained on."""

    playouts: int  # play-outs per position
    bot: str
    mae: float  # mean absolute error of P(Allied win) over the positions
    close: int  # positions where the model was within CLOSE of the play-outs' share
    seeds: list[int] = field(default_factory=list)  # the positions' play-out seeds (cheren simulate --position)
    codes: list[str] = field(default_factory=list)  # the positions' codes (cheren/files/position_code.py)

    @property
    def positions(self) -> int:
        return len(self.seeds)

    def to_json(self) -> dict[str, Any]:
        """What the model file keeps; ``positions`` is written too, for a reader of the file."""
        return {"positions": self.positions, "playouts": self.playouts, "bot": self.bot, "mae": self.mae,
                "close": self.close, "seeds": list(self.seeds), "codes": list(self.codes)}

    @classmethod
    def from_json(cls, data: Any) -> Measured:
        """Raises ValueError or TypeError on anything but what :meth:`to_json` writes."""
        if not isinstance(data, dict):
            raise TypeError("a measurement is not a mapping")
        positions, playouts, close = (whole_number(data[key], f"a measurement's {key}")
                                      for key in ("positions", "playouts", "close"))
        mae = data["mae"]
        if isinstance(mae, bool) or not isinstance(mae, int | float) or not 0.0 <= mae <= 1.0:
            raise ValueError("a measurement's mae is not a number from 0 to 1")
        bot, seeds, codes = data["bot"], data.get("seeds", []), data.get("codes", [])
        if not isinstance(bot, str) or not isinstance(seeds, list) or not isinstance(codes, list):
            raise TypeError("a measurement's bot, seeds or codes are of the wrong kind")
        if not all(isinstance(c, str) for c in codes):
            raise TypeError("a measurement's codes are not texts")
        if close > positions or positions == 0 or playouts == 0 or len(seeds) != positions or \
                len(codes) not in (0, positions):
            raise ValueError("a measurement's counts do not add up")
        return cls(playouts, bot, float(mae), close, [whole_number(s, "a measurement's seed", negative=True)
                                                      for s in seeds], list(codes))


def measured(points: Sequence[Any], seeds: Sequence[int], playouts: int, bot: str) -> Measured:
    """The record of calibration ``points`` (each with ``error`` and ``code``;
    :class:`.calibration.Point`) played out on ``seeds``."""
    if not points:
        raise ValueError("no positions to record")
    errors = [float(p.error) for p in points]
    return Measured(playouts, bot, sum(errors) / len(errors),
                    sum(1 for e in errors if e <= CLOSE + ROUNDING), list(seeds), [str(p.code) for p in points])


def accuracy(records: Sequence[Measured]) -> str:
    """One sentence on how far off the model was, over all its records ("" when it has none):
    in points of P(Allied win), as the bar shows it."""
    from cheren.engine.wording import counted
    from cheren.study.analysis.evaluate import bot_label

    if not records:
        return ""
    n, off = pooled_error(records)
    close = sum(r.close for r in records)
    low, high = min(r.playouts for r in records), max(r.playouts for r in records)
    each = counted(low, "play-out") if low == high else f"{low:,}-{high:,} play-outs"
    bots = sorted({bot_label(r.bot) for r in records})
    whose = f"the {bots[0]} bot" if len(bots) == 1 else f"the {' and '.join(bots)} bots"
    text = f"against {each} each of {whose} at {counted(n, 'position')} it was never trained on, its P(Allied win) was "
    if n == 1:
        return text + f"off by {off}"
    return text + f"off by {off} on average, within {CLOSE * 100:.0f} points at {close:,} of the {n:,}"


def pooled_error(records: Sequence[Measured]) -> tuple[int, str]:
    """The positions of all the records and their mean absolute error of P(Allied win), in points
    as the bar shows it ("8 points", "under 1 point"); the records must not be empty."""
    from cheren.engine.wording import counted

    n = sum(r.positions for r in records)
    mae = sum(r.mae * r.positions for r in records) / n
    return n, "under 1 point" if mae < 0.005 else counted(int(mae * 100 + 0.5), "point")


def whole_number(value: Any, what: str, *, negative: bool = False) -> int:
    """``value`` if it is a whole number (not a bool; not below 0 unless ``negative``), else a
    TypeError naming ``what``: the check every field of a model file that counts something needs."""
    if isinstance(value, bool) or not isinstance(value, int) or (value < 0 and not negative):
        raise TypeError(f"{what} is not a whole number")
    return value
