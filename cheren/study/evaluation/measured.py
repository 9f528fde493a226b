"""How far off a model was where it was measured: kept in its model file, so that every caption of
its numbers can say so (``cheren calibrate-eval --record``).

A record holds one measurement against play-outs (:mod:`.calibration`): at how many positions the
model was never trained on, how many play-outs of which bot each, on which seeds, its mean
absolute error of P(Allied win) there, at how many it was within :data:`CLOSE`, the positions'
codes, and at each position the model's P and the play-outs the Allies won.  Positions the model
learnt from are left out of a record, so the figure is a held-out one; a position already in a
record is refused, so none is counted twice.

The error depends on what the model said: where it gives one side little chance it is seldom far
off, in between it often is (docs/evaluation.md).  So the per-position figures are kept, and a
caption can give the error for the band of P the bar shows (:func:`band_of`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

CLOSE = 0.05  # within this of the play-outs' share counts as close (issue 34's target for the mean)
ROUNDING = 1e-9  # an error of 0.05 computed as 0.050000000000000044 is within CLOSE
# the bands of P(Allied win), in whole percent as the bar shows it: where the model gives one side
# little chance its error was a few points, in between several times that (docs/evaluation.md)
BANDS = ((0, 9), (10, 90), (91, 100))


@dataclass(frozen=True)
class Measured:
    """One measurement of a model against play-outs of positions it was not trained on."""

    playouts: int  # play-outs per position
    bot: str
    mae: float  # mean absolute error of P(Allied win) over the positions
    close: int  # positions where the model was within CLOSE of the play-outs' share
    seeds: list[int] = field(default_factory=list)  # the positions' play-out seeds (cheren simulate --position)
    codes: list[str] = field(default_factory=list)  # the positions' codes (cheren/files/position_code.py)
    chances: list[float] = field(default_factory=list)  # the model's P(Allied win) at each position
    wins: list[int] = field(default_factory=list)  # the play-outs of each position the Allies won

    @property
    def pairs(self) -> list[tuple[float, float]]:
        """Each position's (model's P, play-outs' Allied share); empty for a record made before
        they were kept."""
        return [(p, w / self.playouts) for p, w in zip(self.chances, self.wins, strict=True)]

    @property
    def positions(self) -> int:
        return len(self.seeds)

    def to_json(self) -> dict[str, Any]:
        """What the model file keeps; ``positions`` is written too, for a reader of the file."""
        return {"positions": self.positions, "playouts": self.playouts, "bot": self.bot, "mae": self.mae,
                "close": self.close, "seeds": list(self.seeds), "codes": list(self.codes)} | (
                    {"chances": list(self.chances), "wins": list(self.wins)} if self.chances else {})

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
        record = cls(playouts, bot, float(mae), close, [whole_number(s, "a measurement's seed", negative=True)
                                                        for s in seeds], list(codes))
        return record.with_points(data.get("chances", []), data.get("wins", []))

    def with_points(self, chances: Any, wins: Any) -> Measured:
        """This record with each position's P and Allied wins, which must give its mean error and
        its count of close ones (else a ValueError: the file was damaged or edited by hand)."""
        if not isinstance(chances, list) or not isinstance(wins, list):
            raise TypeError("a measurement's chances or wins are not lists")
        if not chances and not wins:
            return self
        if len(chances) != self.positions or len(wins) != self.positions:
            raise ValueError("a measurement's chances or wins are not one for each position")
        if any(isinstance(p, bool) or not isinstance(p, int | float) or not 0.0 <= p <= 1.0 for p in chances):
            raise ValueError("a measurement's chances are not numbers from 0 to 1")
        won = [whole_number(w, "a measurement's wins") for w in wins]
        if any(w > self.playouts for w in won):
            raise ValueError("a measurement's wins are more than its play-outs")
        kept = Measured(self.playouts, self.bot, self.mae, self.close, self.seeds, self.codes,
                        [float(p) for p in chances], won)
        errors = [abs(p - s) for p, s in kept.pairs]
        if abs(sum(errors) / len(errors) - self.mae) > ROUNDING or \
                sum(1 for e in errors if e <= CLOSE + ROUNDING) != self.close:
            raise ValueError("a measurement's chances and wins do not give its mae and close")
        return kept


def measured(points: Sequence[Any], seeds: Sequence[int], playouts: int, bot: str) -> Measured:
    """The record of calibration ``points`` (each with ``error`` and ``code``;
    :class:`.calibration.Point`) played out on ``seeds``."""
    if not points:
        raise ValueError("no positions to record")
    errors = [float(p.error) for p in points]
    return Measured(playouts, bot, sum(errors) / len(errors), sum(1 for e in errors if e <= CLOSE + ROUNDING),
                    list(seeds), [str(p.code) for p in points], [float(p.model) for p in points],
                    [int(p.wins) for p in points])


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
    text += f"off by {off} on average, within {CLOSE * 100:.0f} points at {close:,} of the {n:,}"
    banded = by_band(records)
    return f"{text}; {banded}" if banded else text


@dataclass(frozen=True)
class Band:
    """The positions at which the model said a P(Allied win) from ``low`` to ``high`` percent (as
    shown), and its mean absolute error there."""

    low: int
    high: int
    positions: int
    mae: float

    @property
    def words(self) -> str:
        if self.low == 0:
            return f"{self.high}% or less"
        return f"{self.low}% or more" if self.high == 100 else f"{self.low}% to {self.high}%"


def shown(p: float) -> int:
    """P as the bar shows it, in whole percent: by the bar's own format, so that a P on a band's edge
    falls in the band of the number the reader sees."""
    return int(f"{p:.0%}".removesuffix("%"))


def bands(pairs: Sequence[tuple[float, float]]) -> list[Band]:
    """The error by band of the model's P, over (model's P, play-outs' share) ``pairs``; bands
    without positions are left out."""
    out = []
    for low, high in BANDS:
        errors = [abs(p - s) for p, s in pairs if low <= shown(p) <= high]
        if errors:
            out.append(Band(low, high, len(errors), sum(errors) / len(errors)))
    return out


def kept_pairs(records: Sequence[Measured]) -> list[tuple[float, float]]:
    return [pair for r in records for pair in r.pairs]


def band_of(records: Sequence[Measured], p: float) -> Band | None:
    """The band a P(Allied win) of ``p`` falls in, over the records that keep their positions'
    figures; None when none of them lies in it."""
    return next((b for b in bands(kept_pairs(records)) if b.low <= shown(p) <= b.high), None)


def by_band(records: Sequence[Measured]) -> str:
    """The error in each band of the model's P, for a caption ("" when no record keeps its
    positions' figures): "by what it said: 9% or less, off by 3 points at 40; ..."."""
    pairs = kept_pairs(records)
    if not pairs:
        return ""
    parts = [f"{b.words}, off by {points_text(b.mae)}{' on average' if b.positions > 1 else ''} at {b.positions:,}"
             for b in bands(pairs)]
    n = sum(r.positions for r in records)
    whose = "" if len(pairs) == n else f" (at the {len(pairs):,} of them recorded one by one)"
    return f"by what it said{whose}: {'; '.join(parts)}"


def points_text(mae: float) -> str:
    """An error of P(Allied win) in points, as the bar shows it: "8 points", "under 1 point"."""
    from cheren.engine.wording import counted

    return "under 1 point" if mae < 0.005 else counted(int(mae * 100 + 0.5), "point")


def pooled_error(records: Sequence[Measured]) -> tuple[int, str]:
    """The positions of all the records and their mean absolute error of P(Allied win), in points
    as the bar shows it ("8 points", "under 1 point"); the records must not be empty."""
    n = sum(r.positions for r in records)
    return n, points_text(sum(r.mae * r.positions for r in records) / n)


def whole_number(value: Any, what: str, *, negative: bool = False) -> int:
    """``value`` if it is a whole number (not a bool; not below 0 unless ``negative``), else a
    TypeError naming ``what``: the check every field of a model file that counts something needs."""
    if isinstance(value, bool) or not isinstance(value, int) or (value < 0 and not negative):
        raise TypeError(f"{what} is not a whole number")
    return value
