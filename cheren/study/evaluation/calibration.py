"""How far to trust the learned evaluation: its P(Allied win) against play-outs of the same
positions (:func:`cheren.study.analysis.evaluate.evaluate`, the bot the model learned from on
both sides), on positions it was not trained on: the library's positions, and mid-game
positions of games from seeds the training never used.

:func:`calibrate` measures; :func:`cheren.study.evaluation.charts.reliability_chart` draws the
model's chance against the play-outs' share (with 95% Wilson intervals) beside the diagonal a
perfect model would follow."""

from __future__ import annotations

import random
from collections.abc import Callable, Collection
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from cheren.engine.game import Game
from cheren.engine.position import Position
from cheren.files import position_code
from cheren.players.bots import Bot, make_bot
from cheren.players.views import SideSeat
from cheren.scenario.compiled import Scenario
from cheren.scenario.models import Side
from cheren.study.analysis.evaluate import evaluate, wilson
from cheren.study.evaluation.model import OTHER_POSITIONS, EvaluationModel, Provenance


@dataclass(frozen=True)
class Point:
    label: str
    model: float  # the model's P(Allied win)
    wins: int  # play-outs the Allies won
    games: int
    code: str = ""  # the position's code (a random position has no name to find it by again)

    @property
    def share(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def error(self) -> float:
        return abs(self.model - self.share)


@dataclass
class Calibration:
    points: list[Point]
    bot: str
    playouts: int
    seed: int

    @property
    def mae(self) -> float:
        return sum(p.error for p in self.points) / len(self.points) if self.points else float("nan")

    def table(self) -> str:
        lines = ["| position | model P(Allied win) | play-outs: Allied wins (95% interval) | error |",
                 "|---|---|---|---|"]
        for p in self.points:
            lo, hi = wilson(p.wins, p.games)
            lines.append(f"| {p.label} | {p.model:.2f} | {p.wins}/{p.games} = {p.share:.2f} ({lo:.2f}-{hi:.2f}) "
                         f"| {p.error:.2f} |")
        lines.append(f"| **mean absolute error** | | | **{self.mae:.3f}** |")
        return "\n".join(lines)

    def bands_table(self) -> str:
        """The mean absolute error by band of the model's P (:data:`.measured.BANDS`): where it gives
        one side little chance, and in between."""
        from cheren.study.evaluation.measured import bands

        lines = ["| model P(Allied win) | positions | mean absolute error |", "|---|---|---|"]
        lines += [f"| {b.words} | {b.positions} | {b.mae:.3f} |"
                  for b in bands([(p.model, p.share) for p in self.points])]
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {"bot": self.bot, "playouts": self.playouts, "seed": self.seed, "mae": self.mae,
                "points": [{"label": p.label, "model": p.model, "wins": p.wins, "games": p.games}
                           | ({"code": p.code} if p.code else {}) for p in self.points]}


def not_held_out(provenance: Provenance, labels: list[str], seeds: list[int],
                 corrected: Collection[int] = ()) -> tuple[list[str], int]:
    """Which measured positions the model learnt from (see :func:`learnt`): the library positions
    by name, and how many others."""
    mask = learnt(provenance, labels, seeds, corrected)
    named = [label for label, was in zip(labels, mask, strict=True) if was and label in provenance.starts]
    return named, sum(mask) - len(named)


def learnt(provenance: Provenance, labels: list[str], seeds: list[int], corrected: Collection[int] = ()) -> list[bool]:
    """For each measured position, whether the model learnt from its play-outs: its trees, a library
    position by name and another by its play-outs' seed (counted only when the model was trained
    on games played on from unnamed positions, so that a set-up run's seed that happens to match
    does not count); its per-turn correction, by ``corrected``, the seeds of the games it was
    fitted on (whatever games they were: a set-up run's seed may leave a position out needlessly,
    a position's play-outs are never counted as held out)."""
    others = provenance.starts.get(OTHER_POSITIONS, 0) > 0
    return [label in provenance.starts or (others and seed in provenance.seeds) or seed in corrected
            for label, seed in zip(labels, seeds, strict=True)]


def corrected_on(model: EvaluationModel) -> set[int]:
    """The seeds of the games the model's per-turn correction was fitted on."""
    return set(model.recalibration.seeds) if model.recalibration is not None else set()


def mid_game_positions(scenario: Scenario, count: int, seed: int, bot: str) -> list[tuple[str, Position]]:
    """``count`` positions from games of ``bot`` against itself on seeds drawn from ``seed``
    (keep them apart from the training seeds), each stopped at a random turn 2-11."""
    rng = random.Random(seed)
    out: list[tuple[str, Position]] = []
    for n in range(count):
        game_seed = rng.getrandbits(31)
        stop_turn = rng.randint(2, 11)
        game = Game(scenario, seed=game_seed)
        bots: dict[Side, Bot] = {}
        while not game.over and game.turn < stop_turn:
            side = game.acting
            if side not in bots:
                bots[side] = make_bot(bot, game_seed * 2 + len(bots))
            game.apply(bots[side].choose(SideSeat(game, side)).action)
        out.append((f"game {n + 1} (seed {game_seed}), turn {game.turn}", game.position.copy()))
    return out


def calibrate(model: EvaluationModel, positions: list[tuple[str, Position]], playouts: int, *, bot: str,
              seed: int = 0, jobs: int = 1, executor: Executor | None = None,
              progress: Callable[[int, int], None] | None = None, offsets: list[int] | None = None) -> Calibration:
    """The model against ``playouts`` play-outs of each position by ``bot`` on both sides; the
    play-outs of the i-th position are on seed ``seed + offsets[i]`` (default ``seed + i``)."""
    points = []
    for i, (label, position) in enumerate(positions):
        run_seed = seed + (offsets[i] if offsets is not None else i)
        ev = evaluate(position, playouts, allied=bot, italian=bot, seed=run_seed, jobs=jobs, executor=executor)
        wins = sum(1 for r in ev.results if r.winner == "allied")
        points.append(Point(label, model.chances(position).allied, wins, ev.games, position_code(position)))
        if progress is not None:
            progress(i + 1, len(positions))
    return Calibration(points, bot, playouts, seed)


@dataclass(frozen=True)
class Bin:
    low: float
    high: float
    positions: int
    games: int  # distinct games among them
    mean_model: float
    wins: int  # positions whose game the Allies won

    @property
    def share(self) -> float:
        return self.wins / self.positions if self.positions else 0.0


@dataclass
class Reliability:
    """The model on positions of games it never saw, against how those games ended: binned by
    the model's P(Allied win), each bin's mean against the share of its positions whose game the
    Allies won.  A game's positions are many but one outcome: the bins' intervals are wide."""

    bins: list[Bin]
    games: int
    positions: int
    bot: str

    @property
    def ece(self) -> float:
        """Expected calibration error: the bins' gaps weighted by their positions."""
        n = sum(b.positions for b in self.bins)
        return sum(b.positions * abs(b.mean_model - b.share) for b in self.bins) / n if n else float("nan")

    def table(self) -> str:
        lines = ["| model P(Allied win) | positions (games) | mean model | Allied won | gap |", "|---|---|---|---|---|"]
        for b in self.bins:
            if b.positions:
                lines.append(f"| {b.low:.1f}-{b.high:.1f} | {b.positions} ({b.games}) | {b.mean_model:.2f} | "
                             f"{b.share:.2f} | {abs(b.mean_model - b.share):.2f} |")
        lines.append(f"| **all** | {self.positions} ({self.games}) | | | **{self.ece:.3f}** (weighted) |")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {"bot": self.bot, "games": self.games, "positions": self.positions, "ece": self.ece,
                "bins": [vars(b) | {"share": b.share} for b in self.bins]}


def reliability(model: EvaluationModel, scenario: Scenario, results: list[Any], *, bins: int = 10,
                jobs: int = 1) -> Reliability:
    """The model against the outcomes of ``results`` (games with their actions), every sampled
    position (:func:`cheren.study.evaluation.training.positions_of`)."""
    from cheren.study.evaluation.training import positions_of

    data = positions_of(results, scenario, jobs=jobs)
    allied = {i for i, band in enumerate(scenario.info.victory) if band.winner is not None
              and band.winner.value == "allied"}
    ps = [c.allied for c in model.chances_of_rows(data.rows)] if data.rows else []
    out = []
    for k in range(bins):
        lo, hi = k / bins, (k + 1) / bins
        idx = [i for i, p in enumerate(ps) if lo <= p < hi or (k == bins - 1 and p == 1.0)]
        out.append(Bin(lo, hi, len(idx), len({data.games[i] for i in idx}),
                       sum(ps[i] for i in idx) / len(idx) if idx else 0.0,
                       sum(1 for i in idx if data.labels[i] in allied)))
    bot = results[0].allied_bot if results else ""
    return Reliability(out, len(results), len(ps), bot)


@dataclass(frozen=True)
class LeftOut:
    """One measured position (of the library, or a random one) by a model that never saw its play-outs."""

    label: str
    wins: int  # of the calibration play-outs, the Allies won
    games: int
    all_games: float  # P(Allied win) of the model trained on every game (the position's own included)
    without: float  # P(Allied win) of the model trained without the games played on from this position
    trained_without: int  # games that model was trained on

    @property
    def share(self) -> float:
        return self.wins / self.games if self.games else 0.0


def leave_one_out(data: Any, starts: dict[int, str], measured: list[tuple[Point, Position]], scenario: Scenario,
                  full: EvaluationModel, *, seed: int = 0, less_regularised: bool = False) -> list[LeftOut]:
    """For each measured position whose play-outs are among the training games (``starts``: where
    each game began, by game number: the code of the position it was played on from, or a library
    position's name), a model trained without those games, and
    its P(Allied win) there: the honest measure of a model trained on play-outs of the positions
    it is measured on.  A position without play-outs among the games is measured by ``full``
    itself, held out there already.  ``data``: the :class:`~cheren.study.evaluation.training.Dataset` of all
    the games, ``full`` the model trained on all of them (``less_regularised`` as it was trained)."""
    from cheren.study.evaluation.training import Dataset, train

    out = []
    for point, position in measured:
        keys = {point.label, position_code(position)}
        own = {g for g, where in starts.items() if where in keys}
        if not own:  # never trained on its play-outs: the full model is held out there itself
            p = full.chances(position).allied
            out.append(LeftOut(point.label, point.wins, point.games, p, p, len(set(data.games))))
            continue
        keep = [i for i, g in enumerate(data.games) if g not in own]
        subset = Dataset([data.rows[i] for i in keep], [data.labels[i] for i in keep], [data.games[i] for i in keep])
        trained = train(subset, scenario, seed=seed, less_regularised=less_regularised)
        model = EvaluationModel(trained.booster, full.provenance, full.levels, full.winners, "left out")
        out.append(LeftOut(point.label, point.wins, point.games, full.chances(position).allied,
                           model.chances(position).allied, len(set(subset.games))))
    return out


def left_out_table(rows: list[LeftOut]) -> str:
    lines = ["| position | play-outs: Allied wins (95% interval) | trained on all | error | trained without "
             "its play-outs | error |", "|---|---|---|---|---|---|"]
    for r in rows:
        lo, hi = wilson(r.wins, r.games)
        lines.append(f"| {r.label} | {r.wins}/{r.games} = {r.share:.2f} ({lo:.2f}-{hi:.2f}) | {r.all_games:.2f} | "
                     f"{abs(r.all_games - r.share):.2f} | {r.without:.2f} | {abs(r.without - r.share):.2f} |")
    if rows:
        seen = sum(abs(r.all_games - r.share) for r in rows) / len(rows)
        held = sum(abs(r.without - r.share) for r in rows) / len(rows)
        lines.append(f"| **mean absolute error** | | | **{seen:.3f}** (not held out) | | **{held:.3f}** (held out) |")
    return "\n".join(lines)
