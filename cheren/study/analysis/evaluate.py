"""Where a position leads: play it out to the end of turn 12 many times and count.

:func:`evaluate` plays a position out N times with two bots (:func:`cheren.players.simulate.simulate`
does the playing, on any executor), each play-out with its own dice and with the chits that the
side to move cannot see dealt again (so the evaluation does not know the enemy's hand).  It
returns the VP distribution, the chance of each victory level with a 95% interval, the expected
steps lost and town control turn by turn.  :func:`compare` does the same for several candidate
actions or short plans from the same position, on the same seeds.

What the numbers can tell depends on the bots that play them out: the report says which.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from cheren.engine.actions import Action
from cheren.engine.game import Game
from cheren.engine.position import Position
from cheren.files import position_code
from cheren.players.bots import STRONGEST
from cheren.players.progress_bar import Progress
from cheren.players.simulate import FailedGame, GameResult, simulate
from cheren.scenario.compiled import Scenario

Z95 = 1.959963984540054


def bot_label(name: str) -> str:
    """A bot as a report names it, with the planning bots' budgets: "lookahead (6 plans per
    Movement phase)"."""
    base, _, budget = name.partition(":")
    if base == "lookahead":
        from cheren.players.bots.lookahead import DEFAULT_BUDGET

        return f"lookahead ({budget or DEFAULT_BUDGET} plans per Movement phase)"
    if base in ("planner", "planner2"):
        from cheren.players.bots.planner import DEFAULT_BUDGET as PLANNER_BUDGET

        return f"{base} ({budget or PLANNER_BUDGET} plans per Movement phase)"
    return base


MEASURES = ("These numbers measure the reconstructed components (README: The components are a "
            "reconstruction) played by bots, not the printed game played by people.")


def bots_played(allied: str, italian: str) -> str:
    """Who played the play-outs, in words: "the planner bot on both sides"."""
    if allied == italian:
        return f"the {bot_label(allied)} bot on both sides"
    return f"the {bot_label(allied)} bot as the Allies and the {bot_label(italian)} bot as the Italians"


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion k/n (a good one also near 0 and 1)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if k == 0 else max(0.0, centre - half)  # exact ends: no rounding just above 0 or below 1
    hi = 1.0 if k == n else min(1.0, centre + half)
    return (lo, hi)


@dataclass(frozen=True)
class Share:
    """A probability estimated from play-outs, with its 95% interval."""

    count: int
    games: int

    @property
    def p(self) -> float:
        return self.count / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.count, self.games)

    def __str__(self) -> str:
        lo, hi = self.interval
        return f"{self.p:.0%} ({lo:.0%}-{hi:.0%})"


@dataclass
class Evaluation:
    """The play-outs of one position (or of one candidate from it)."""

    scenario: Scenario
    label: str
    allied_bot: str
    italian_bot: str
    seed: int
    viewer: str
    results: list[GameResult] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.results)

    @property
    def vps(self) -> list[int]:
        return [r.allied_vp for r in self.results]

    def levels(self) -> dict[str, Share]:
        """Every victory level of 14.0, in the order of the scale, with its share of the games."""
        counts = Counter(r.level for r in self.results)
        return {band.level: Share(counts[band.level], self.games) for band in self.scenario.info.victory}

    def winners(self) -> dict[str, Share]:
        counts = Counter(r.winner for r in self.results)
        return {w: Share(counts[w], self.games) for w in ("allied", "draw", "italian")}

    def vp_stats(self) -> dict[str, float]:
        v = sorted(self.vps)
        if not v:
            return {}
        q = statistics.quantiles(v, n=10, method="inclusive") if len(v) > 1 else [float(v[0])] * 9
        return {
            "mean": statistics.fmean(v),
            "median": statistics.median(v),
            "p10": q[0],
            "p25": q[2] if len(q) > 2 else q[0],
            "p75": q[6],
            "p90": q[8],
            "min": v[0],
            "max": v[-1],
            "stdev": statistics.stdev(v) if len(v) > 1 else 0.0,
        }

    def steps_lost(self) -> dict[str, float]:
        n = max(1, self.games)
        return {
            "allied": sum(r.allied_steps_lost for r in self.results) / n,
            "italian": sum(r.italian_steps_lost for r in self.results) / n,
        }

    def vp_by_turn(self) -> dict[int, list[int]]:
        """For each game turn from the position's, every play-out's Allied VP at its end."""
        towns = self.scenario.towns
        out: dict[int, list[int]] = {}
        for r in self.results:
            for i, held in enumerate(r.control):
                out.setdefault(r.first_turn + i, []).append(sum(towns[t].vp for t in held))
        return dict(sorted(out.items()))

    def control_by_turn(self) -> dict[int, dict[str, float]]:
        """For each turn, the share of play-outs in which the Allies hold each town at its end."""
        out: dict[int, dict[str, float]] = {}
        for turn, counts in self._control_counts().items():
            out[turn] = {town: counts[town] / len(self.results) for town in sorted(self.scenario.towns)}
        return out

    def _control_counts(self) -> dict[int, Counter[str]]:
        out: dict[int, Counter[str]] = {}
        for r in self.results:
            for i, held in enumerate(r.control):
                out.setdefault(r.first_turn + i, Counter()).update(held)
        return dict(sorted(out.items()))

    def caption(self) -> str:
        """What the numbers are: how many play-outs, by which bots, with which intervals, and
        that they measure the reconstruction as bots play it."""
        return (f"{self.games} play-outs by {bots_played(self.allied_bot, self.italian_bot)} (seed {self.seed}); "
                f"shares with 95% Wilson intervals, the mean VP with a 95% interval. {MEASURES}")

    def mean_interval(self) -> tuple[float, float]:
        """The 95% interval of the mean Allied VP (normal approximation)."""
        st = self.vp_stats()
        if not st:
            return (0.0, 0.0)
        half = Z95 * st["stdev"] / math.sqrt(self.games) if self.games > 1 else 0.0
        return (st["mean"] - half, st["mean"] + half)

    def explain(self) -> str:
        if not self.results:
            return f"{self.label}: no play-outs yet."
        st = self.vp_stats()
        w = self.winners()
        lost = self.steps_lost()
        lo, hi = self.mean_interval()
        lines = [
            f"**{self.label}**: {self.games} play-outs to the end of turn 12, {bot_label(self.allied_bot)} (Allies) "
            f"against {bot_label(self.italian_bot)} (Italians), chits the {self.viewer} side cannot see dealt again; "
            f"seed {self.seed}.",
            "",
            f"Allied VP: median {st['median']:g}, mean {st['mean']:.1f} (95% interval {lo:.1f}-{hi:.1f}), middle "
            f"half {st['p25']:g}-{st['p75']:g} (21 is a draw, 14.0).",
            f"Allied win {w['allied']}, draw {w['draw']}, Italian win {w['italian']} (95% intervals).",
            f"Steps lost per game: Allied {lost['allied']:.1f}, Italian {lost['italian']:.1f}.",
            "",
            "| victory level | chance (95% interval) |",
            "|---|---|",
        ]
        lines += [f"| {level} | {share} |" for level, share in self.levels().items()]
        lines += ["", f"*{self.caption()}*"]
        return "\n".join(lines)

    def _repr_markdown_(self) -> str:
        return self.explain()

    def to_json(self) -> dict[str, Any]:
        def share(x: Share) -> dict[str, Any]:
            lo, hi = x.interval
            return {"games": x.count, "p": x.p, "interval": [lo, hi]}

        by_turn = self.vp_by_turn()
        return {
            "label": self.label,
            "games": self.games,
            "bots": {"allied": self.allied_bot, "italian": self.italian_bot},
            "played_by": bots_played(self.allied_bot, self.italian_bot),
            "intervals": "95% Wilson score intervals for shares; 95% normal interval for the mean VP",
            "measures": MEASURES,
            "seed": self.seed,
            "hidden_chits_redealt_for": self.viewer,
            "vp": {**self.vp_stats(), "mean_interval": list(self.mean_interval()),
                   "histogram": dict(sorted(Counter(self.vps).items()))},
            "victory_levels": {level: share(x) for level, x in self.levels().items()},
            "winner": {k: share(x) for k, x in self.winners().items()},
            "steps_lost": self.steps_lost(),
            "vp_by_turn": {
                str(t): {"median": statistics.median(v), "p25": _q(v, 0.25), "p75": _q(v, 0.75)}
                for t, v in by_turn.items()
            },
            "allied_control_by_turn": {str(t): shares for t, shares in self.control_by_turn().items()},
        }


def _q(values: list[int], q: float) -> float:
    v = sorted(values)
    if len(v) == 1:
        return float(v[0])
    pos = q * (len(v) - 1)
    lo = int(pos)
    return v[lo] + (v[min(lo + 1, len(v) - 1)] - v[lo]) * (pos - lo)


def evaluate(
    position: Position | Game,
    games: int = 100,
    *,
    allied: str = STRONGEST,
    italian: str = STRONGEST,
    seed: int = 0,
    plan: Sequence[Action] = (),
    label: str | None = None,
    executor: Executor | None = None,
    jobs: int = 1,
    progress: Progress | bool | None = None,
    on_result: Callable[[GameResult], None] | None = None,
    only: Iterable[int] | None = None,
    failed: list[FailedGame] | None = None,
) -> Evaluation:
    """Play ``position`` out ``games`` times (after ``plan``, actions applied through the gate in
    each play-out) and gather the results.  The same seed gives the same play-outs.  The bots
    default to the strongest (:data:`cheren.players.bots.STRONGEST`, rated in docs/bots.md);
    every report names the bots, the games and the intervals (:meth:`Evaluation.caption`).
    ``only`` and ``failed`` are :func:`cheren.players.simulate.simulate`'s: play only those
    play-outs (finishing an interrupted run), and collect the play-outs that fail rather than raise."""
    p = position.position if isinstance(position, Game) else position
    s = p.scenario
    if plan:
        _check_plan(p, plan)
    viewer = p.side.value
    ev = Evaluation(s, label or "the position", allied, italian, seed, viewer)
    ev.results = simulate(
        games,
        seed,
        allied,
        italian,
        executor=executor,
        jobs=jobs,
        scenario_dir=_dir(s),
        progress=progress,
        start=position_code(p),
        plan=[a.to_json() for a in plan] or None,
        viewer=viewer,
        on_result=on_result,
        only=only,
        failed=failed,
    )
    return ev


@dataclass
class Comparison:
    """Several candidates from one position, played out on the same seeds."""

    candidates: list[Evaluation]

    def explain(self) -> str:
        lines = [
            "| candidate | Allied win | draw | Italian win | median VP | steps lost (A/I) |",
            "|---|---|---|---|---|---|",
        ]
        for ev in self.candidates:
            w = ev.winners()
            st = ev.vp_stats()
            sl = ev.steps_lost()
            lines.append(
                f"| {ev.label} | {w['allied']} | {w['draw']} | {w['italian']} | {st['median']:g} | "
                f"{sl['allied']:.1f} / {sl['italian']:.1f} |"
            )
        if self.candidates and self.candidates[0].results:
            lines += ["", f"*Each candidate: {self.candidates[0].caption()}*"]
        return "\n".join(lines)

    def _repr_markdown_(self) -> str:
        return self.explain()

    def to_json(self) -> dict[str, Any]:
        return {"candidates": [ev.to_json() for ev in self.candidates]}


def compare(
    position: Position | Game,
    candidates: Sequence[Action | Sequence[Action]],
    games: int = 100,
    *,
    labels: Sequence[str] | None = None,
    **options: Any,
) -> Comparison:
    """Evaluate each candidate (an action, or a short plan of actions) from the same position,
    on the same play-out seeds, so the differences come from the candidates and not the dice of
    the rest of the game."""
    p = position.position if isinstance(position, Game) else position
    out = []
    for i, candidate in enumerate(candidates):
        plan = [candidate] if isinstance(candidate, Action) else list(candidate)
        label = labels[i] if labels is not None else describe_plan(p, plan)
        out.append(evaluate(p, games, plan=plan, label=label, **options))
    return Comparison(out)


def describe_plan(position: Position, plan: Sequence[Action]) -> str:
    """A plan in words, with counter names rather than ids."""
    import re

    if not plan:
        return "no action"
    names = position.scenario.units
    pattern = re.compile(r"\b(" + "|".join(re.escape(u) for u in sorted(names, key=len, reverse=True)) + r")\b")
    return "; ".join(pattern.sub(lambda m: names[m.group(1)].name, a.describe()) for a in plan)


def let_the_other_side_pass(game: Game, side: object) -> None:
    """Answer the decisions pending for the side that is not ``side`` (a chit window opening the
    phase, say) by passing, or with their first answer where passing is not one: how a plan of
    ``side`` is checked before it is played out."""
    while game.pending is not None and game.acting is not side:
        options = game.legal_actions()
        game.apply(next((a for a in options if a.kind == "pass_chit"), options[0]))


def _check_plan(position: Position, plan: Sequence[Action]) -> None:
    """Refuse a plan the gate refuses, before any play-out starts; the other side's decisions on
    the way are passed (a play-out lets its bot decide them)."""
    game = Game.from_position(position.copy())
    planner = game.moment.acting
    for i, action in enumerate(plan):
        if not game.check(action).ok:
            let_the_other_side_pass(game, planner)
        verdict = game.check(action)
        if not verdict.ok:
            raise ValueError(f"step {i + 1} of the plan ({describe_plan(position, [action])}) is refused: {verdict}")
        game.apply(action)


def _dir(s: Scenario) -> str | None:
    from cheren.scenario.loader import bundled_scenario_dir

    return None if s.directory == bundled_scenario_dir() else str(s.directory)
