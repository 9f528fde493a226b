"""What an optional rule does to the game: the same games played under the printed rules and
under each variant, bot against bot, on the same seeds, counted side by side.

:func:`compare_variants` plays the games (:func:`cheren.simulate.simulate`, any executor) and
returns a :class:`VariantComparison`: per rule set, the share of each victory level (14.0) and of
each winner with 95% Wilson intervals, the median Allied VP and the median steps each side lost
with 95% intervals, the paired change against the printed rules (same seeds), and how often the
variant acted at all.  :func:`comparison_chart` draws it with matplotlib.

What the numbers can tell depends on the bots: a variant a bot never exploits (it does not plan
for a die modifier, say) measures the bot as much as the rule.  The report says so.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cheren.analysis.evaluate import Z95, Share
from cheren.progress import Progress
from cheren.scenario import Scenario, load_scenario
from cheren.simulate import GameResult, simulate
from cheren.variants import VARIANTS, check_variants

if TYPE_CHECKING:
    from matplotlib.figure import Figure

PRINTED = "printed rules"


def median_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """A distribution-free 95% interval for the median: the order statistics whose ranks lie
    z·√n/2 either side of the middle (exact enough from a few dozen games on)."""
    v = sorted(values)
    n = len(v)
    if n == 0:
        return (math.nan, math.nan)
    half = z * math.sqrt(n) / 2
    lo = max(0, math.floor(n / 2 - half))
    hi = min(n - 1, math.ceil(n / 2 + half) - 1)
    return (float(v[lo]), float(v[hi]))


@dataclass(frozen=True)
class Median:
    value: float
    interval: tuple[float, float]

    @classmethod
    def of(cls, values: Sequence[float]) -> Median:
        return cls(float(statistics.median(values)) if values else math.nan, median_interval(values))

    def __str__(self) -> str:
        lo, hi = self.interval
        return f"{self.value:g} ({lo:g}-{hi:g})"


@dataclass
class Arm:
    """The games of one rule set: the printed rules or some variants on."""

    variants: tuple[str, ...]
    results: list[GameResult] = field(default_factory=list)

    @property
    def label(self) -> str:
        return ", ".join(self.variants) if self.variants else PRINTED

    @property
    def games(self) -> int:
        return len(self.results)

    def levels(self, scenario: Scenario) -> dict[str, Share]:
        counts = Counter(r.level for r in self.results)
        return {b.level: Share(counts[b.level], self.games) for b in scenario.info.victory}

    def winners(self) -> dict[str, Share]:
        counts = Counter(r.winner for r in self.results)
        return {w: Share(counts[w], self.games) for w in ("allied", "draw", "italian")}

    def vp(self) -> Median:
        return Median.of([r.allied_vp for r in self.results])

    def steps_lost(self, side: str) -> Median:
        return Median.of([r.allied_steps_lost if side == "allied" else r.italian_steps_lost for r in self.results])

    def uses(self) -> dict[str, dict[str, float]]:
        """Per variant and attacking side: the mean number of attacks (log entries) per game it
        changed something in."""
        n = max(1, self.games)
        total: Counter[tuple[str, str]] = Counter()
        for r in self.results:
            for name, by_side in r.variant_uses.items():
                for side, count in by_side.items():
                    total[name, side] += count
        return {name: {side: total[name, side] / n for side in ("allied", "italian")} for name in self.variants}


@dataclass(frozen=True)
class Paired:
    """One arm against the printed rules, game by game on the same seeds."""

    changed: Share  # games whose Allied VP differs
    mean_vp_change: float
    interval: tuple[float, float]  # 95%, normal approximation of the paired mean

    def __str__(self) -> str:
        lo, hi = self.interval
        return f"{self.mean_vp_change:+.2f} ({lo:+.2f} to {hi:+.2f})"


@dataclass
class VariantComparison:
    scenario: Scenario
    games: int
    seed: int
    allied_bot: str
    italian_bot: str
    printed: Arm
    arms: list[Arm]

    def paired(self, arm: Arm) -> Paired:
        base = {r.seed: r.allied_vp for r in self.printed.results}
        diffs = [r.allied_vp - base[r.seed] for r in arm.results if r.seed in base]
        n = len(diffs)
        mean = statistics.fmean(diffs) if diffs else 0.0
        sd = statistics.stdev(diffs) if n > 1 else 0.0
        half = Z95 * sd / math.sqrt(n) if n else 0.0
        return Paired(Share(sum(1 for d in diffs if d), n), mean, (mean - half, mean + half))

    def explain(self) -> str:
        """Markdown: the set-up, one table of the headline numbers, one of the victory levels."""
        arms = [self.printed, *self.arms]
        lines = [
            f"**Variants compared**: {self.games} games per rule set, {self.allied_bot} (Allies) against "
            f"{self.italian_bot} (Italians), run seed {self.seed}: every rule set plays the same game seeds.",
            "",
            "| rule set | Allied win | Italian win | median Allied VP | median steps lost: Allied | "
            "Italian | VP change vs printed (same seeds) | games changed | variant acted per game (Allied / Italian "
            "attacks) |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for arm in arms:
            w = arm.winners()
            if arm is self.printed:
                change, changed, used = "-", "-", "-"
            else:
                pair = self.paired(arm)
                change, changed = str(pair), str(pair.changed)
                used = ", ".join(f"{n} {u['allied']:.1f} / {u['italian']:.1f}" for n, u in arm.uses().items())
            lines.append(
                f"| {arm.label} | {w['allied']} | {w['italian']} | {arm.vp()} | {arm.steps_lost('allied')} | "
                f"{arm.steps_lost('italian')} | {change} | {changed} | {used} |"
            )
        bands = [b.level for b in self.scenario.info.victory]
        lines += ["", "| victory level (14.0) | " + " | ".join(a.label for a in arms) + " |",
                  "|---|" + "---|" * len(arms)]
        shares = [a.levels(self.scenario) for a in arms]
        for level in bands:
            lines.append(f"| {level} | " + " | ".join(str(s[level]) for s in shares) + " |")
        lines += ["", "Shares with 95% Wilson intervals; medians with 95% distribution-free intervals; the VP "
                  "change is the mean of the game-by-game differences with a 95% normal interval. "
                  "\"Variant acted\" counts the attacks per game, by the attacking side, in which the variant changed "
                  "something (for losses-instead-of-retreat: a push the printed rules would have offered)."]
        return "\n".join(lines)

    def _repr_markdown_(self) -> str:
        return self.explain()

    def to_json(self) -> dict[str, Any]:
        def share(x: Share) -> dict[str, Any]:
            return {"count": x.count, "games": x.games, "p": x.p, "interval": list(x.interval)}

        def arm_json(a: Arm) -> dict[str, Any]:
            out: dict[str, Any] = {
                "variants": list(a.variants),
                "games": a.games,
                "levels": {k: share(v) for k, v in a.levels(self.scenario).items()},
                "winners": {k: share(v) for k, v in a.winners().items()},
                "median_vp": {"value": a.vp().value, "interval": list(a.vp().interval)},
                "median_steps_lost": {
                    side: {"value": a.steps_lost(side).value, "interval": list(a.steps_lost(side).interval)}
                    for side in ("allied", "italian")
                },
                "variant_uses_per_game": a.uses(),
            }
            if a is not self.printed:
                p = self.paired(a)
                out["paired"] = {"mean_vp_change": p.mean_vp_change, "interval": list(p.interval),
                                 "games_changed": share(p.changed)}
            return out

        return {"games": self.games, "seed": self.seed, "allied": self.allied_bot, "italian": self.italian_bot,
                "rule_sets": [arm_json(a) for a in (self.printed, *self.arms)]}


def compare_variants(
    rule_sets: Sequence[Sequence[str]] | None = None,
    games: int = 200,
    seed: int = 0,
    allied: str = "heuristic",
    italian: str = "heuristic",
    *,
    scenario: Scenario | None = None,
    executor: Executor | None = None,
    jobs: int = 1,
    progress: Progress | bool | None = None,
) -> VariantComparison:
    """Play ``games`` games under the printed rules and under each rule set of ``rule_sets``
    (each a list of variant names; default: every variant alone), all on the same seeds."""
    s = scenario or load_scenario()
    sets = [check_variants(r) for r in (rule_sets if rule_sets is not None else [[n] for n in VARIANTS])]
    directory = None if scenario is None else str(s.directory)

    def run(variants: tuple[str, ...]) -> Arm:
        results = simulate(games, seed, allied, italian, executor=executor, jobs=jobs, scenario_dir=directory,
                           progress=progress, variants=variants)
        return Arm(variants, results)

    printed = run(())
    return VariantComparison(s, games, seed, allied, italian, printed, [run(v) for v in sets])


def comparison_chart(c: VariantComparison) -> Figure:
    """Two panels: each rule set's chance of an Allied win, a draw and an Italian win (95%
    intervals), and its median Allied VP (95% interval) against the printed rules'."""
    from cheren.analysis.charts import ALLIED, DRAW, INK, ITALIAN, _figure, _style

    arms = [c.printed, *c.arms]
    lines = sum(max(1, len(a.variants)) for a in arms)
    fig = _figure(9.6, 1.4 + 0.3 * lines + 0.25 * len(arms))
    left, right = fig.subplots(1, 2, sharey=True, gridspec_kw={"width_ratios": [3, 2]})
    y = list(range(len(arms)))[::-1]
    height = 0.26
    for k, (who, colour) in enumerate((("allied", ALLIED), ("draw", DRAW), ("italian", ITALIAN))):
        shares = [a.winners()[who] for a in arms]
        ys = [yy + (1 - k) * height for yy in y]
        ps = [s.p for s in shares]
        errs = [[s.p - s.interval[0] for s in shares], [s.interval[1] - s.p for s in shares]]
        left.barh(ys, ps, height=height, color=colour, xerr=errs, ecolor=INK, capsize=2,
                  label={"allied": "Allied win", "draw": "draw", "italian": "Italian win"}[who])
    left.set_yticks(y, ["\n".join(a.variants) if a.variants else PRINTED for a in arms], fontsize=8)
    left.set_xlim(0, 1)
    left.set_xlabel("share of games (95% Wilson interval)")
    left.legend(fontsize=8, frameon=False, ncol=3, loc="lower left", bbox_to_anchor=(0.0, 1.0))
    _style(left)
    meds = [a.vp() for a in arms]
    right.errorbar([m.value for m in meds], y,
                   xerr=[[m.value - m.interval[0] for m in meds], [m.interval[1] - m.value for m in meds]],
                   fmt="o", color=INK, capsize=3)
    right.axvline(meds[0].value, color=DRAW, linestyle=":", linewidth=1)
    right.set_xlabel("median Allied VP (95% interval)")
    _style(right)
    fig.suptitle(f"{c.games} games per rule set, {c.allied_bot} vs {c.italian_bot}, same seeds", color=INK,
                 fontsize=10)
    fig.tight_layout()
    return fig
