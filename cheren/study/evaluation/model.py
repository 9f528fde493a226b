"""The learned evaluation: the chance of each victory level of 14.0 for a position, in a few
milliseconds, from a LightGBM model trained on self-play (:mod:`.training`).

The model file is JSON: what made the model (the scenario's digest, the bot that played the
games, how many games and positions, the seeds, the features) and LightGBM's own text model,
which :class:`lightgbm.Booster` reads from a string, and (version 2) an optional per-turn
correction of P(Allied win) fitted on games the trees never saw (:mod:`.recalibration`).  Nothing
is unpickled: a model file is data.

LightGBM is the ``eval`` extra (``pip install 'cheren[eval]'``); without it :func:`load_model`
raises :class:`EvaluationUnavailable` saying so, and the app shows the bar as unavailable."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from cheren.engine.position import Position
from cheren.scenario.compiled import Scenario
from cheren.study.evaluation.features import feature_names, features
from cheren.study.evaluation.measured import (
    Measured,
    accuracy,
    band_of,
    kept_pairs,
    points_text,
    pooled_error,
    whole_number,
)
from cheren.study.evaluation.recalibration import Recalibration

FORMAT = "cheren-evaluation"
VERSION = 2  # 2: the optional "recalibration"; a version 1 file (without it) still loads
READABLE = (1, 2)
INSTALL_HINT = "the evaluation needs LightGBM: pip install 'cheren[eval]'"
SHIPPED = "model.json"  # package data beside this module


class EvaluationUnavailable(Exception):
    """No evaluation can be given: the library is missing, or the model file is bad.  The
    message is one line naming the file (or the missing package)."""


@dataclass(frozen=True)
class Chances:
    """The chance of each victory level (in the order of the scale, 14.0), and what made them."""

    levels: dict[str, float]
    allied: float
    draw: float
    italian: float
    expected_vp_level: float  # the levels' mean position on the scale, 0 (Italian major) .. 6 (Allied major)

    def __str__(self) -> str:
        return f"Allied win {self.allied:.0%}, draw {self.draw:.0%}, Italian win {self.italian:.0%}"


# the keys of Provenance.starts beside the library positions' names
SET_UP = "set-up"
OTHER_POSITIONS = "other positions"  # games played on from a position of no library name (a random one, a code)


@dataclass
class Provenance:
    """What made a model: for the captions that say what the numbers are."""

    scenario: str
    bot: str
    games: int
    positions: int
    seeds: list[int] = field(default_factory=list)
    trained: str = ""
    validation: dict[str, float] = field(default_factory=dict)
    starts: dict[str, int] = field(default_factory=dict)  # games by where they began (SET_UP, names, OTHER_POSITIONS)
    measured: list[Measured] = field(default_factory=list)  # where it was measured (calibrate-eval --record)

    def caption(self) -> str:
        from cheren.study.analysis.evaluate import bot_label

        return (f"learned evaluation: LightGBM trained on {self.positions:,} positions of {self.games:,} games of the "
                f"{bot_label(self.bot)} bot against itself{self._where()} (chance of each victory level at the end "
                "of turn 12, 14.0, as those bots would play on)")

    def _where(self) -> str:
        """Where the games began, when not all from the set-up: "(300 from the set-up, 400 from 10
        library positions)"."""
        if not self.starts or set(self.starts) == {SET_UP}:
            return ""
        parts = []
        if self.starts.get(SET_UP):
            parts.append(f"{self.starts[SET_UP]:,} from the set-up")
        library = {k: v for k, v in self.starts.items() if k not in (SET_UP, OTHER_POSITIONS)}
        if library:
            where = "1 library position" if len(library) == 1 else f"{len(library)} library positions"
            parts.append(f"{sum(library.values()):,} played on from {where}")
        if self.starts.get(OTHER_POSITIONS):
            parts.append(f"{self.starts[OTHER_POSITIONS]:,} played on from other positions")
        return f" ({', '.join(parts)})"


class EvaluationModel:
    """A loaded model; :meth:`chances` evaluates a position."""

    def __init__(self, booster: Any, provenance: Provenance, levels: list[str], winners: list[str | None],
                 source: str, recalibration: Recalibration | None = None, turn_feature: int = 0) -> None:
        self.booster = booster
        self.provenance = provenance
        self.levels = levels
        self.winners = winners
        self.source = source
        self.recalibration = recalibration
        self.turn_feature = turn_feature  # where the game turn is in a row of features

    def caption(self) -> str:
        """What the numbers are: the provenance's caption, and the correction when there is one."""
        text = self.provenance.caption()
        if self.recalibration is not None and self.recalibration.by_turn:
            n = self.recalibration.games
            text += (f"; its P(Allied win) then corrected turn by turn on {n:,} further game{'' if n == 1 else 's'} "
                     "of the same bot that it was not trained on")
        if self.provenance.measured:
            text += f"; {accuracy(self.provenance.measured)}"
        return text

    def summary(self, allied: float | None = None) -> str:
        """The caption in one short sentence, for the app's Evaluation panel: whose play it predicts,
        from how many games, and how far off it was where measured (the whole story stays in
        :meth:`caption`); given the P(Allied win) ``allied`` it shows, how far off it was where it
        said as much."""
        from cheren.engine.wording import counted
        from cheren.study.analysis.evaluate import bot_label

        p = self.provenance
        text = f"as the {bot_label(p.bot)} bot would play on, learned from {p.games:,} of its games against itself"
        if p.measured:
            n, off = pooled_error(p.measured)
            average = " on average" if n > 1 else ""
            text += f"; off by {off}{average} against its play-outs at {counted(n, 'position')} it never saw"
            band = band_of(p.measured, allied) if allied is not None else None
            if band is not None:
                kept = len(kept_pairs(p.measured))
                of = f" of the {kept:,} recorded one by one" if kept < n else ""
                average = " on average" if band.positions > 1 else ""
                text += (f"; where it said {band.words}, as here, off by {points_text(band.mae)}{average} "
                         f"(at {counted(band.positions, 'position')}{of})")
        return text

    def chances(self, position: Position) -> Chances:
        return self.chances_of_rows([features(position)])[0]

    def chances_of_rows(self, rows: list[list[float]]) -> list[Chances]:
        import numpy as np

        # one thread: for one position OpenMP's threads cost more than they save, and on a busy
        # machine they wait for each other (tens of milliseconds a call)
        probs = self.booster.predict(np.asarray(rows, dtype=np.float64), num_threads=1)
        fix = self.recalibration
        if fix is None:
            return [self._chances(list(map(float, row))) for row in probs]
        return [self._chances(fix.levels(list(map(float, p)), self.winners, int(row[self.turn_feature])))
                for p, row in zip(probs, rows, strict=True)]

    def _chances(self, probs: list[float]) -> Chances:
        levels = dict(zip(self.levels, probs, strict=True))
        by = {"allied": 0.0, "italian": 0.0, None: 0.0}
        for p, winner in zip(probs, self.winners, strict=True):
            by[winner] += p
        return Chances(levels, by["allied"], by[None], by["italian"], sum(i * p for i, p in enumerate(probs)))

    def mismatch(self, scenario: Scenario) -> str | None:
        """What to tell a user when this model was trained on other scenario data (or other
        features) than those in use; None when they match."""
        if self.provenance.scenario != scenario.digest:
            return ("the evaluation was trained on other scenario data than the scenario in use (changed since); "
                    "its numbers may be off until it is retrained (cheren train-eval)")
        return None


def shipped_model_path() -> Path:
    return Path(str(resources.files("cheren.study.evaluation").joinpath(SHIPPED)))


def model_json(booster: Any, provenance: Provenance, scenario: Scenario,
               recalibration: Recalibration | None = None) -> str:
    """The model file's text."""
    from dataclasses import asdict

    data = {
        "format": FORMAT,
        "version": VERSION,
        **asdict(provenance),
        "features": list(feature_names(scenario)),
        "levels": [band.level for band in scenario.info.victory],
        "winners": [band.winner.value if band.winner is not None else None for band in scenario.info.victory],
        "model": booster.model_to_string(),
    }
    if recalibration is not None:
        data["recalibration"] = recalibration.to_json()
    return json.dumps(data, indent=1) + "\n"


def add_measurement(path: str | Path, record: Measured, text: str) -> None:
    """Add ``record`` to the model file ``path``, its trees and everything else in it as they were;
    written atomically.  ``text``: the file as it was when the model measured was read from it; a
    file changed since (retrained, or recorded into by another run) is a ValueError, untouched."""
    from cheren.files.outputs import write_output

    if Path(path).read_text(encoding="utf-8") != text:
        raise ValueError(f"{path} changed while the play-outs ran; run again to measure the model as it is now")
    data = json.loads(text)
    data["measured"] = [*data.get("measured", []), record.to_json()]
    write_output(path, json.dumps(data, indent=1) + "\n")


def load_model(path: str | Path | None = None, scenario: Scenario | None = None) -> EvaluationModel:
    """The model in ``path`` (default: the one shipped with cheren).  With ``scenario``, its
    features must be the ones this cheren computes for that scenario.  A missing library, or a
    file that is not a model, is an :class:`EvaluationUnavailable` naming the file."""
    file = Path(path) if path is not None else shipped_model_path()
    try:
        import lightgbm
    except ImportError:
        raise EvaluationUnavailable(INSTALL_HINT) from None
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not a text file"
        raise EvaluationUnavailable(f"{file}: cannot read the evaluation model: {reason}") from None
    try:
        data = json.loads(text)
    except ValueError:
        raise EvaluationUnavailable(f"{file}: not an evaluation model (not JSON)") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise EvaluationUnavailable(f"{file}: not an evaluation model (format is not {FORMAT!r})")
    if data.get("version") not in READABLE:
        raise EvaluationUnavailable(f"{file}: an evaluation model of another version ({str(data.get('version'))[:10]})")
    try:
        provenance = Provenance(
            scenario=_text(data, "scenario"), bot=_text(data, "bot"), games=whole_number(data["games"], "games"),
            positions=whole_number(data["positions"], "positions"), seeds=[int(s) for s in data.get("seeds", [])],
            trained=str(data.get("trained", "")),
            validation={str(k): float(v) for k, v in dict(data.get("validation", {})).items()},
            starts={str(k): whole_number(v, "a value in starts") for k, v in dict(data.get("starts", {})).items()},
            measured=[Measured.from_json(m) for m in _list(data, "measured")],
        )
        levels = [str(x) for x in data["levels"]]
        winners = [None if w is None else str(w) for w in data["winners"]]
        names = [str(x) for x in data["features"]]
        if len(levels) != len(winners) or not levels:
            raise ValueError("levels and winners differ in length")
        recalibration = Recalibration.from_json(data["recalibration"]) if "recalibration" in data else None
        if recalibration is not None and "turn" not in names:
            raise ValueError("a recalibration by turn, but no turn among the features")
    except (KeyError, TypeError, ValueError) as exc:
        raise EvaluationUnavailable(f"{file}: a damaged evaluation model ({_short(exc)})") from None
    if scenario is not None and tuple(names) != feature_names(scenario):
        raise EvaluationUnavailable(f"{file}: the model was trained on other features than this cheren computes "
                                    "(retrain it: cheren train-eval)")
    if scenario is not None and [b.level for b in scenario.info.victory] != levels:
        raise EvaluationUnavailable(f"{file}: the model's victory levels are not those of the scenario (14.0)")
    try:
        booster = lightgbm.Booster(model_str=_text(data, "model"))
    except Exception as exc:  # LightGBM raises its own error class for a model text it cannot read
        raise EvaluationUnavailable(f"{file}: a damaged evaluation model (LightGBM: {_short(exc)})") from None
    if booster.num_feature() != len(names) or booster.num_model_per_iteration() != len(levels):
        raise EvaluationUnavailable(f"{file}: a damaged evaluation model (its trees do not fit its features "
                                    "and levels)")
    return EvaluationModel(booster, provenance, levels, winners, str(file), recalibration,
                           names.index("turn") if "turn" in names else 0)


def _text(data: dict[str, Any], key: str) -> str:
    value = data[key]
    if not isinstance(value, str):
        raise TypeError(f"{key} is not a text")
    return value


def _list(data: dict[str, Any], key: str) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise TypeError(f"{key} is not a list")
    return value


def _short(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:160] or type(exc).__name__
