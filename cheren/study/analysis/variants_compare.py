"""What an optional rule does to the game, measured: the standard rules and each variant play
the same seeds with the same bots, and the results are compared (``cheren compare-variants``).

Each rule set's games are independent of the others' except for the seeds, so a difference in a
share is read against both intervals; the same seeds make the comparison paired (a game changes
only where the rules made it change), which the report counts as games whose winner changed."""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cheren.players.simulate import FailedGame, GameResult, SimulationInterrupted, simulate
from cheren.scenario import load_scenario
from cheren.scenario.variants import VARIANTS, check_variants
from cheren.study.analysis.evaluate import wilson

STANDARD = "standard rules"
LEVELS = (
    "Allied major victory", "Allied fair victory", "Allied minor victory", "Draw",
    "Italian minor victory", "Italian fair victory", "Italian major victory",
)


@dataclass
class RuleSet:
    name: str  # STANDARD or a variant's name
    results: list[GameResult] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.results)

    def share(self, winner: str) -> tuple[float, float, float]:
        k = sum(r.winner == winner for r in self.results)
        lo, hi = wilson(k, self.games)
        return (k / self.games if self.games else 0.0, lo, hi)

    def level_share(self, level: str) -> float:
        return sum(r.level == level for r in self.results) / self.games if self.games else 0.0

    @property
    def median_vp(self) -> float:
        return float(statistics.median(r.allied_vp for r in self.results))

    def mean_steps(self, side: str) -> float:
        key = "allied_steps_lost" if side == "allied" else "italian_steps_lost"
        return statistics.fmean(getattr(r, key) for r in self.results)


@dataclass
class VariantComparison:
    games: int
    seed: int
    allied: str
    italian: str
    sets: list[RuleSet]

    @property
    def standard(self) -> RuleSet:
        return self.sets[0]

    def changed_winner(self, rule_set: RuleSet) -> int:
        """Games (same seed) whose winner differs from the standard rules'."""
        base = {r.seed: r.winner for r in self.standard.results}
        return sum(base.get(r.seed) != r.winner for r in rule_set.results)

    def swings(self, rule_set: RuleSet) -> tuple[int, int]:
        """Paired games whose winner went from the Allies to the Italians, and the other way."""
        base = {r.seed: r.winner for r in self.standard.results}
        to_italy = sum(base.get(r.seed) == "allied" and r.winner == "italian" for r in rule_set.results)
        to_allies = sum(base.get(r.seed) == "italian" and r.winner == "allied" for r in rule_set.results)
        return to_italy, to_allies


def compare_variants(
    names: Iterable[str] | None = None,
    *,
    games: int = 200,
    seed: int = 0,
    allied: str = "heuristic",
    italian: str = "heuristic",
    jobs: int = 1,
    progress: bool = False,
    scenario_dir: str | None = None,
    done: Iterable[GameResult] = (),
    failed: list[FailedGame] | None = None,
) -> VariantComparison:
    """Play the standard rules and each variant (default: all) on the same seeds.

    ``done``: games already played (an interrupted run's), kept and not played again; ``failed``
    collects the games that fail (else they raise).  Ctrl-C raises
    :class:`~cheren.players.simulate.SimulationInterrupted` with every game finished so far, of
    every rule set."""
    chosen = sorted(check_variants(names)) if names is not None else list(VARIANTS)
    sets = [RuleSet(STANDARD)] + [RuleSet(n) for n in chosen]
    kept = list(done)
    finished: list[GameResult] = []
    base = set(load_scenario(scenario_dir).variants)  # a game's record lists these too
    for rule_set in sets:
        variants = [] if rule_set.name == STANDARD else [rule_set.name]
        before = [r for r in kept if r.variants == sorted(base | set(variants))]
        lost = {f.index for f in failed or [] if f.variants == variants}
        todo = sorted(set(range(games)) - {r.index for r in before} - lost)
        try:
            new = simulate(games, seed, allied, italian, jobs=jobs, progress=progress, scenario_dir=scenario_dir,
                           variants=variants, only=todo, failed=failed)
        except SimulationInterrupted as stop:
            raise SimulationInterrupted([*finished, *before, *stop.results], stop.failed) from None
        rule_set.results = sorted([*before, *new], key=lambda r: r.index)
        finished += rule_set.results
    return VariantComparison(games, seed, allied, italian, sets)


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def report_markdown(c: VariantComparison, chart: str | None = None) -> str:
    lines = [
        f"{c.games} games per rule set, {c.allied} bot (Allies) against {c.italian} bot (Italians), "
        f"seed {c.seed}: every rule set plays the same {c.games} seeds.",
        "",
        "| rules | Allied win (95% interval) | draw | Italian win (95% interval) | median Allied VP "
        "| Allied steps lost | Italian steps lost | winner changed |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for s in c.sets:
        a, alo, ahi = s.share("allied")
        d, _, _ = s.share("draw")
        i, ilo, ihi = s.share("italian")
        if s is c.standard:
            changed = ""
        else:
            to_italy, to_allies = c.swings(s)
            changed = f"{c.changed_winner(s)} of {s.games} ({to_italy} to Italian, {to_allies} to Allied)"
        lines.append(
            f"| {s.name} | {_pct(a)} ({_pct(alo)}-{_pct(ahi)}) | {_pct(d)} | {_pct(i)} ({_pct(ilo)}-{_pct(ihi)}) "
            f"| {s.median_vp:g} | {s.mean_steps('allied'):.1f} | {s.mean_steps('italian'):.1f} | {changed} |"
        )
    lines += ["", "Victory levels (share of games):", "", "| rules | " + " | ".join(LEVELS) + " |",
              "|---|" + "---|" * len(LEVELS)]
    for s in c.sets:
        lines.append(f"| {s.name} | " + " | ".join(_pct(s.level_share(lv)) for lv in LEVELS) + " |")
    if chart:
        lines += ["", f"![Allied VP at the end of turn 12 under each rule set]({Path(chart).name})"]
    return "\n".join(lines) + "\n"


def chart_figure(c: VariantComparison) -> Any:
    from cheren.study.analysis.charts import _figure, _style

    fig = _figure(6.4, 3.6)
    ax = fig.add_subplot(1, 1, 1)
    data = [[r.allied_vp for r in s.results] for s in c.sets]
    ax.boxplot(data, orientation="horizontal", showmeans=True)
    ax.set_yticks(range(1, len(c.sets) + 1), [s.name for s in c.sets])
    ax.axvline(21, color="#7a6a4f", linestyle="--", linewidth=1)
    ax.set_xlabel("Allied VP at the end of turn 12 (21 = draw)")
    _style(ax)
    fig.tight_layout()
    return fig


def write_chart(c: VariantComparison, path: str | Path) -> None:
    from cheren.files.outputs import write_output
    from cheren.study.analysis.charts import to_png

    write_output(path, to_png(chart_figure(c)))  # whole or not at all, and only over a regular file
