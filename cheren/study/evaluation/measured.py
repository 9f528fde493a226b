"""How far off a model was where it was measured: kept in its model file, so that every caption of
its numbers can say so (``cheren calibrate-eval --record``).

A record holds one measurement against play-outs (:mod:`.calibration`): at how many positions the
model was never trained on, how many play-outs of which bot each, on which seeds, its mean
absolute error of P(Allied win) there and at how many it was within :data:`CLOSE`.  Positions
the model learnt from are left out of a record, so the figure is a held-out one; a seed already
in a record is refused, so one set of play-outs is never counted twice."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

CLOSE = 0.05  # within this of the play-outs' share counts as close (issue 34's target for the mean)


@dataclass(frozen=True)
class Measured:
    """One measurement of a model against play-outs of positions it was not trained on."""

    positions: int
    playouts: int  # play-outs per position
    bot: str
    mae: float  # mean absolute error of P(Allied win) over the positions
    close: int  # positions where the model was within CLOSE of the play-outs' share
    seeds: list[int] = field(default_factory=list)  # the positions' play-out seeds (cheren simulate --position)

    @classmethod
    def from_json(cls, data: Any) -> Measured:
        """Raises ValueError or TypeError on anything but what ``asdict`` of a record writes."""
        if not isinstance(data, dict):
            raise TypeError("a measurement is not a mapping")
        positions, playouts, close = (_whole(data, key) for key in ("positions", "playouts", "close"))
        mae = data["mae"]
        if isinstance(mae, bool) or not isinstance(mae, int | float) or not 0.0 <= mae <= 1.0:
            raise ValueError("a measurement's mae is not a number from 0 to 1")
        bot, seeds = data["bot"], data.get("seeds", [])
        if not isinstance(bot, str) or not isinstance(seeds, list):
            raise TypeError("a measurement's bot or seeds are of the wrong kind")
        if close > positions or positions == 0 or playouts == 0:
            raise ValueError("a measurement's counts do not add up")
        return cls(positions, playouts, bot, float(mae), close, [_seed(s) for s in seeds])


def measured(points: Sequence[Any], seeds: Sequence[int], playouts: int, bot: str) -> Measured:
    """The record of calibration ``points`` (each with ``error``; :class:`.calibration.Point`)
    played out on ``seeds``."""
    if not points:
        raise ValueError("no positions to record")
    errors = [float(p.error) for p in points]
    return Measured(len(errors), playouts, bot, sum(errors) / len(errors), sum(1 for e in errors if e <= CLOSE),
                    list(seeds))


def accuracy(records: Sequence[Measured]) -> str:
    """One sentence on how far off the model was, over all its records ("" when it has none):
    in points of P(Allied win), as the bar shows it."""
    if not records:
        return ""
    n = sum(r.positions for r in records)
    mae = sum(r.mae * r.positions for r in records) / n
    close = sum(r.close for r in records)
    playouts = sorted({r.playouts for r in records})
    each = f"{playouts[0]:,}" if len(playouts) == 1 else f"{playouts[0]:,}-{playouts[-1]:,}"
    from cheren.study.analysis.evaluate import bot_label

    bots = " and ".join(sorted({bot_label(r.bot) for r in records}))
    where = "1 position" if n == 1 else f"{n:,} positions"
    return (f"against {each} play-outs of the {bots} bot at {where} it was never trained on, its P(Allied win) was "
            f"off by {mae * 100:.0f} points on average, within {CLOSE * 100:.0f} points at {close:,} of them")


def _whole(data: dict[str, Any], key: str) -> int:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise TypeError(f"a measurement's {key} is not a whole number")
    return value


def _seed(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("a measurement's seeds are not whole numbers")
    return value
