"""Charts of the learned evaluation (matplotlib, the ``analysis`` extra, imported only when a
chart is drawn), in the style of :mod:`cheren.study.analysis.charts`:

* :func:`review_chart`: P(Allied win) after each action of a reviewed line, turns marked, the
  marked decisions as dots with the better choice's chance beside them;
* :func:`reliability_chart`: the model's chance against play-outs' shares (calibration);
* :func:`left_out_chart`: the same for library positions, by the model trained on all the games and
  by models trained without each position's play-outs (held out)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cheren.study.analysis.charts import ALLIED, DRAW, INK, ITALIAN, _figure, _style
from cheren.study.analysis.evaluate import wilson
from cheren.study.evaluation.calibration import Calibration, LeftOut, Reliability
from cheren.study.evaluation.review import Review

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.transforms import Bbox


def review_chart(rv: Review, title: str = "") -> Figure:
    from matplotlib.ticker import MaxNLocator

    fig = _figure(7.2, 3.2)
    ax = fig.add_subplot(1, 1, 1)
    _style(ax)
    curve = rv.curve()
    ax.plot(range(len(curve)), curve, color=ALLIED, linewidth=1.2, label="P(Allied win) as played")
    ax.axhline(0.5, color=INK, linewidth=0.5, linestyle=":")
    turn = None
    for d in rv.decisions:
        if d.turn != turn:
            turn = d.turn
            ax.axvline(d.number - 1, color=DRAW, linewidth=0.4, alpha=0.6)
            ax.text(d.number - 1, 1.01, str(turn), fontsize=7, color=INK, ha="left", va="bottom")
    marks = rv.marks
    if marks:
        ax.scatter([d.number for d in marks], [d.after for d in marks], color=INK, zorder=3, s=18,
                   label="a marked decision")
        ax.scatter([d.number for d in marks], [d.better_after or 0.0 for d in marks], color=ITALIAN, marker="^",
                   zorder=3, s=18, label="the better choice there")
        # a decision judged after the enemy's reply is compared with the better choice there, not on the curve
        replied = [d for d in marks if d.reply is not None]
        if replied:
            ax.scatter([d.number for d in replied], [d.judged for d in replied], color=INK, marker="x", zorder=3,
                       s=22, label="the marked decision after the enemy's reply")
    ax.set_ylim(0, 1)
    ax.set_xlim(0, max(1, len(curve) - 1))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # actions are counted: no "action 1.5" on a short line
    ax.set_xlabel("action (game turns above)")
    ax.set_ylabel("P(Allied win)")
    # pad: the title above the row of turn numbers, not across it
    ax.set_title(title or "Review: the Allied win chance after each action", fontsize=10, pad=14)
    # the curve can run anywhere, and through the legend's words it did; lower than the others:
    # the row of turn numbers and the axis name sit under this chart's axes
    _legend_below(ax, gap=0.22, columns=2, size=7)
    fig.tight_layout()
    return fig


def reliability_chart(cal: Calibration) -> Figure:
    fig = _figure(5.2, 5.0)
    ax = fig.add_subplot(1, 1, 1)
    _style(ax)
    ax.plot([0, 1], [0, 1], color=INK, linewidth=0.8, linestyle="--", label="a perfect evaluation")
    xs = [p.model for p in cal.points]
    ys = [p.share for p in cal.points]
    lows = [p.share - wilson(p.wins, p.games)[0] for p in cal.points]
    highs = [wilson(p.wins, p.games)[1] - p.share for p in cal.points]
    ax.errorbar(xs, ys, yerr=[lows, highs], fmt="o", color=ALLIED, ecolor=ALLIED, alpha=0.8, capsize=2,
                label=f"a position ({cal.playouts} play-outs, 95% Wilson interval)")
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("learned evaluation: P(Allied win)")
    ax.set_ylabel(f"play-outs by {cal.bot}: share of Allied wins")
    ax.set_title(f"Calibration: mean absolute error {cal.mae:.3f} over {len(cal.points)} positions", fontsize=10)
    _legend_below(ax)
    fig.tight_layout()
    return fig


def left_out_chart(rows: list[LeftOut], bot: str) -> Figure:
    """Each library position's play-outs against the model trained on all the games (its play-outs
    included: not held out) and against the one trained without them (held out)."""
    fig = _figure(5.2, 5.0)
    ax = fig.add_subplot(1, 1, 1)
    _style(ax)
    ax.plot([0, 1], [0, 1], color=INK, linewidth=0.8, linestyle="--", label="a perfect evaluation")
    ys = [r.share for r in rows]
    lows = [r.share - wilson(r.wins, r.games)[0] for r in rows]
    highs = [wilson(r.wins, r.games)[1] - r.share for r in rows]
    ax.errorbar([r.without for r in rows], ys, yerr=[lows, highs], fmt="o", color=ALLIED, ecolor=ALLIED,
                capsize=2, label="trained without its play-outs (held out)")
    ax.scatter([r.all_games for r in rows], ys, facecolors="none", edgecolors=ITALIAN, zorder=3,
               label="trained on all the games (held out only where it saw no play-outs)")
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    held = sum(abs(r.without - r.share) for r in rows) / len(rows) if rows else float("nan")
    seen = sum(abs(r.all_games - r.share) for r in rows) / len(rows) if rows else float("nan")
    games = rows[0].games if rows else 0
    ax.set_xlabel("learned evaluation: P(Allied win)")
    ax.set_ylabel(f"{games} play-outs by {bot}: share of Allied wins (95% interval)")
    ax.set_title(f"Library positions: mean absolute error {held:.3f} held out,\n{seen:.3f} trained on all "
                 f"({len(rows)} positions)", fontsize=9)
    _legend_below(ax)
    fig.tight_layout()
    _label_points(fig, ax, [(r.without, r.share, r.label) for r in rows])
    return fig


def _label_points(fig: Figure, ax: Axes, points: list[tuple[float, float, str]]) -> None:
    """Each point's name beside it; where names would overprint (the positions the Allies nearly
    always lose crowd one corner), the name moves up and out to the right, into the empty side of
    the diagonal, with a thin line back to its point, so that every name can be read.  Names of
    points near the right edge go on their left, inside the chart."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.text import Text

    renderer = FigureCanvasAgg(fig).get_renderer()  # type: ignore[no-untyped-call]  # (matplotlib's stubs)
    placed: list[Bbox] = []
    for x, y, text in sorted(points, key=lambda p: (p[1], p[0])):
        left = x > 0.85
        rise = 0.0
        note = ax.annotate(text, (x, y), fontsize=7, color=INK, xytext=(-6 if left else 4, 4),
                           textcoords="offset points", ha="right" if left else "left")
        note.update_positions(renderer)
        box = Text.get_window_extent(note, renderer)  # the words only, not the line to the point
        while any(box.overlaps(other) for other in placed) and rise < 300:
            rise += 3
            note.remove()
            note = ax.annotate(text, (x, y), fontsize=7, color=INK, xytext=(-40 if left else 40, 4 + rise),
                               textcoords="offset points", ha="right" if left else "left",
                               arrowprops={"arrowstyle": "-", "color": INK, "linewidth": 0.4, "shrinkA": 1,
                                           "shrinkB": 3})
            note.update_positions(renderer)
            box = Text.get_window_extent(note, renderer)
        placed.append(box)


def reliability_bins_chart(rel: Reliability) -> Figure:
    """The model's mean P(Allied win) in each bin against the share of Allied wins there."""
    fig = _figure(5.2, 5.0)
    ax = fig.add_subplot(1, 1, 1)
    _style(ax)
    ax.plot([0, 1], [0, 1], color=INK, linewidth=0.8, linestyle="--", label="a perfect evaluation")
    used = [b for b in rel.bins if b.positions]
    sizes = [20 + 200 * b.positions / max(1, rel.positions) for b in used]
    ax.scatter([b.mean_model for b in used], [b.share for b in used], s=sizes, color=ALLIED, alpha=0.8,
               label="a bin of positions (size: how many)")
    for b in used:
        lo, hi = wilson(b.wins * b.games // max(1, b.positions), b.games)  # one outcome per game: n = games
        ax.plot([b.mean_model, b.mean_model], [lo, hi], color=ALLIED, linewidth=0.8)
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("learned evaluation: P(Allied win)")
    ax.set_ylabel("share of those positions whose game the Allies won")
    ax.set_title(f"Reliability on {rel.games} unseen games of {rel.bot}\n({rel.positions} positions; "
                 f"weighted gap {rel.ece:.3f}; bars: 95% intervals over games)", fontsize=9)
    _legend_below(ax)
    fig.tight_layout()
    return fig


def _legend_below(ax: Axes, gap: float = 0.13, columns: int = 1, size: int = 8) -> None:
    """The legend under the axes, ``gap`` (a share of the axes' height) below them: inside, it
    covered what it explains (the positions the model underrates most at the upper left, seen on
    session 37's report set, docs/evaluation-rounds.md; a named position's words at the right; the review's
    curve at the lower left)."""
    ax.legend(fontsize=size, frameon=False, loc="upper center", bbox_to_anchor=(0.5, -gap), ncol=columns)
