"""How far to trust the learned evaluation: its P(Allied win) against play-outs of the same
positions (:func:`cheren.study.analysis.evaluate.evaluate`, the bot the model learned from on
both sides), on positions it was not trained on: the library's positions, and mid-game
positions of games from seeds the training never used.

:func:`calibrate` measures; :func:`cheren.study.evaluation.charts.reliability_chart` draws the
model's chance against the play-outs' share (with 95% Wilson intervals) beside the diagonal a
perfect model would follow."""

from __future__ import annotations

import random
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from cheren.engine.game import Game
from cheren.engine.position import Position
from cheren.players.bots import Bot, make_bot
from cheren.players.views import SideSeat
from cheren.scenario.compiled import Scenario
from cheren.scenario.models import Side
from cheren.study.analysis.evaluate import evaluate, wilson
from cheren.study.evaluation.model import EvaluationModel


@dataclass(frozen=True)
class Point:
    label: str
    model: float  # the model's P(Allied win)
    wins: int  # play-outs the Allies won
    games: int

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

    def to_json(self) -> dict[str, Any]:
        return {"bot": self.bot, "playouts": self.playouts, "seed": self.seed, "mae": self.mae,
                "points": [{"label": p.label, "model": p.model, "wins": p.wins, "games": p.games}
                           for p in self.points]}


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
              progress: Callable[[int, int], None] | None = None) -> Calibration:
    """The model against ``playouts`` play-outs of each position by ``bot`` on both sides."""
    points = []
    for i, (label, position) in enumerate(positions):
        ev = evaluate(position, playouts, allied=bot, italian=bot, seed=seed + i, jobs=jobs, executor=executor)
        wins = sum(1 for r in ev.results if r.winner == "allied")
        points.append(Point(label, model.chances(position).allied, wins, ev.games))
        if progress is not None:
            progress(i + 1, len(positions))
    return Calibration(points, bot, playouts, seed)
