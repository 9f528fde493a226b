"""Training the learned evaluation: positions from self-play, each with the victory level its
game ended in (14.0), and a LightGBM multiclass model fitted to them.

:func:`play_games` plays the games (:func:`cheren.players.simulate.simulate`: locally or on any
executor, Dask included, with the progress bar), keeping each game's actions; :func:`positions_of`
replays them (from the set-up, or from the position a ``cheren simulate --position`` run played
on from) and samples a position every few actions; :func:`train` fits the model, holding one game
in ten out to stop the boosting and to report how well it predicts games it never saw.
``cheren train-eval`` does all three and writes the model file (:mod:`.model`);
:func:`recalibrate` fits a model's per-turn correction (:mod:`.recalibration`) on games it never
saw (``cheren train-eval --recalibrate MODEL``)."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from cheren.engine.actions import action_from_json
from cheren.players.progress_bar import Progress, game_progress
from cheren.players.simulate import GameResult, simulate, starting_game
from cheren.scenario.compiled import Scenario
from cheren.study.evaluation.features import features
from cheren.study.evaluation.model import EvaluationModel, Provenance, model_json
from cheren.study.evaluation.recalibration import Recalibration, fit

EVERY = 5  # sample one position in this many actions (neighbouring positions tell little more)
HOLD_OUT_EVERY = 10  # one game in this many is kept out of the fit
PARAMS: dict[str, Any] = {
    "objective": "multiclass", "learning_rate": 0.05, "num_leaves": 15, "min_data_in_leaf": 40,
    "feature_fraction": 0.8, "bagging_fraction": 0.8, "bagging_freq": 1, "lambda_l2": 1.0,
    "verbose": -1, "deterministic": True, "force_row_wise": True,
}
ROUNDS = 400
# bigger trees, smaller leaves, no L2 penalty (the learning rate, LightGBM's shrinkage, unchanged):
# with 10,000 games (the play-outs of the library's and of random positions) they fit the rarer
# positions better (docs/evaluation-rounds.md, session 33's comparison)
LESS_REGULARISED: dict[str, Any] = {"num_leaves": 31, "min_data_in_leaf": 20, "lambda_l2": 0.0}


@dataclass
class Dataset:
    """Sampled positions: their features, the index of the level their game ended in, and the
    game each came from (so a split never puts one game on both sides)."""

    rows: list[list[float]]
    labels: list[int]
    games: list[int]


def play_games(games: int, seed: int, bot: str, *, executor: Executor | None = None, jobs: int = 1,
               progress: Progress | bool | None = None, scenario_dir: str | None = None) -> list[GameResult]:
    """``games`` games of ``bot`` against itself, with their actions (for :func:`positions_of`)."""
    return simulate(games, seed, bot, bot, executor=executor, jobs=jobs, keep_log=True, progress=progress,
                    scenario_dir=scenario_dir)


def level_index(scenario: Scenario, vp: int) -> int:
    for i, band in enumerate(scenario.info.victory):
        if (band.min_vp or 0) <= vp and (band.max_vp is None or vp <= band.max_vp):
            return i
    raise ValueError(f"no victory level for {vp} VP")


def sample_game(scenario: Scenario, result: GameResult, start: str | None = None) -> list[list[float]]:
    """Replay one game and take the features of a position every :data:`EVERY` actions (the
    opening included), from an offset the game's seed chooses.  ``start``: the code of the
    position the game was played on from (its run's ``position``: ``cheren simulate --position``),
    the side to move's hidden chits dealt again as the run dealt them; None: the set-up."""
    if result.log is None:
        raise ValueError(f"game {result.index} was played without its actions; play it with keep_log")
    game = starting_game(scenario, result.seed, start, to_move=True)  # the set-up when start is None
    offset = result.seed % EVERY
    rows = [features(game.position)]
    for i, data in enumerate(result.log):
        game.apply(action_from_json(data))
        if i % EVERY == offset and not game.over:
            rows.append(features(game.position))
    return rows


_WORKER_SCENARIO: dict[str, Scenario] = {}


def _sample(args: tuple[str | None, GameResult, str | None]) -> list[list[float]]:
    from cheren.scenario import load_scenario

    key = args[0] or ""
    if key not in _WORKER_SCENARIO:
        _WORKER_SCENARIO[key] = load_scenario(args[0])
    return sample_game(_WORKER_SCENARIO[key], args[1], args[2])


def positions_of(results: Sequence[GameResult], scenario: Scenario, *, jobs: int = 1, scenario_dir: str | None = None,
                 progress: bool = False, starts: Sequence[str | None] | None = None) -> Dataset:
    """The sampled positions of the games, labelled with how each game ended; ``starts[i]``: the
    code of the position game i was played on from (None, or no ``starts``: the set-up)."""
    data = Dataset([], [], [])
    begin = list(starts) if starts is not None else [None] * len(results)
    if len(begin) != len(results):
        raise ValueError("one start (or None) per game")

    def take(result: GameResult, rows: list[list[float]]) -> None:
        data.rows += rows
        data.labels += [level_index(scenario, result.allied_vp)] * len(rows)
        data.games += [result.index] * len(rows)

    with game_progress(len(results), "positions of games") if progress else _no_progress() as bar:
        if jobs <= 1:
            for n, (r, start) in enumerate(zip(results, begin, strict=True), 1):
                take(r, sample_game(scenario, r, start))
                bar(n, len(results))
        else:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                chunk = max(1, len(results) // (8 * jobs))
                tasks = [(scenario_dir, r, start) for r, start in zip(results, begin, strict=True)]
                for n, (r, rows) in enumerate(zip(results, pool.map(_sample, tasks, chunksize=chunk), strict=True), 1):
                    take(r, rows)
                    bar(n, len(results))
    return data


class _no_progress:
    def __enter__(self) -> Callable[[int, int], None]:
        return lambda done, total: None

    def __exit__(self, *exc: object) -> None:
        return None


@dataclass
class Trained:
    booster: Any
    validation: dict[str, float]


def train(data: Dataset, scenario: Scenario, *, seed: int = 0, rounds: int = ROUNDS,
          less_regularised: bool = False) -> Trained:
    """Fit the multiclass model; one game in :data:`HOLD_OUT_EVERY` (game numbers 9, 19, 29, ...)
    is held out, stops the boosting when they stop improving, and gives the validation figures:
    multiclass log loss, the Brier score and mean absolute error of P(Allied win) against the
    games' outcomes.  Every tenth game rather than the last tenth: games pooled from several
    runs (the set-up, each library position) are then held out from each of them alike.
    ``less_regularised``: :data:`PARAMS` with :data:`LESS_REGULARISED` (the shipped model's)."""
    import lightgbm
    import numpy as np

    if not data.rows:
        raise ValueError("no positions to train on")
    levels = len(scenario.info.victory)
    allied = [i for i, band in enumerate(scenario.info.victory) if band.winner is not None
              and band.winner.value == "allied"]
    games = sorted(set(data.games))
    out = {g for g in games if g % HOLD_OUT_EVERY == HOLD_OUT_EVERY - 1} if len(games) > 1 else set()
    x = np.asarray(data.rows, dtype=np.float64)
    y = np.asarray(data.labels)
    held = np.isin(np.asarray(data.games), sorted(out))
    # one thread: on a machine others share, OpenMP threads wait for each other (many times slower)
    params = {**PARAMS, **(LESS_REGULARISED if less_regularised else {}), "num_class": levels, "seed": seed,
              "num_threads": 1}
    fit = lightgbm.Dataset(x[~held], y[~held], free_raw_data=False)
    callbacks: list[Any] = []
    valid = []
    if held.any():
        valid = [lightgbm.Dataset(x[held], y[held], reference=fit)]
        callbacks = [lightgbm.early_stopping(30, verbose=False)]
    booster = lightgbm.train(params, fit, num_boost_round=rounds, valid_sets=valid, callbacks=callbacks)
    report: dict[str, float] = {"positions": float((~held).sum()), "held_out_positions": float(held.sum()),
                                "held_out_games": float(len(out)),
                                "rounds": float(booster.best_iteration or booster.current_iteration())}
    if held.any():
        probs: Any = booster.predict(x[held], num_iteration=booster.best_iteration or None)
        eps = 1e-12
        report["log_loss"] = float(-np.mean(np.log(probs[np.arange(len(probs)), y[held]] + eps)))
        brier, mae = _allied_error(probs, y[held], allied)
        report["allied_win_brier"], report["allied_win_mae"] = brier, mae
    return Trained(booster, report)


def _allied_error(probs: Any, labels: Any, allied: list[int]) -> tuple[float, float]:
    """Brier score and mean absolute error of P(Allied win) against the games' outcomes."""
    import numpy as np

    p = probs[:, allied].sum(axis=1)
    won = np.isin(labels, allied).astype(float)
    return float(np.mean((p - won) ** 2)), float(np.mean(np.abs(p - won)))


def model_file(trained: Trained, scenario: Scenario, results: Sequence[GameResult], bot: str, seeds: list[int],
               positions: int, starts: dict[str, int] | None = None) -> str:
    """The model file's text; ``starts``: how many of the games began where (the set-up, library
    positions by name)."""
    provenance = Provenance(scenario=scenario.digest, bot=bot, games=len(results), positions=positions, seeds=seeds,
                            trained=datetime.date.today().isoformat(), validation=trained.validation,
                            starts=dict(starts or {}))
    return model_json(trained.booster, provenance, scenario)


def recalibrate(model: EvaluationModel, data: Dataset, seeds: Sequence[int]) -> Recalibration:
    """The per-turn correction of ``model``'s P(Allied win) that best fits how the games of
    ``data`` ended: games the model was not trained on (the trees' own P, any earlier correction
    set aside)."""
    import numpy as np

    if not data.rows:
        raise ValueError("no positions to recalibrate on")
    allied = [i for i, winner in enumerate(model.winners) if winner == "allied"]  # the model's own levels
    probs: Any = model.booster.predict(np.asarray(data.rows, dtype=np.float64), num_threads=1)
    p = probs[:, allied].sum(axis=1).tolist()
    won = [label in allied for label in data.labels]
    turns = [int(row[model.turn_feature]) for row in data.rows]
    return fit(p, won, turns, games=len(set(data.games)), seeds=seeds)
