"""Charts of an evaluation, drawn with matplotlib (the ``analysis`` extra), imported only when a
chart is asked for so the engine never needs it.

* :func:`vp_histogram`: the play-outs' Allied VP, each bar coloured by its victory level (14.0);
* :func:`vp_over_turns`: the median Allied VP at the end of each turn, with the middle half;
* :func:`candidates_chart`: each candidate's chance of an Allied win, a draw and an Italian win,
  with 95% intervals.

The threat map is drawn on the map itself: :func:`cheren.study.overlays.threat_overlays`.

Each chart function returns a matplotlib ``Figure`` that shows itself as a picture in a notebook
(JupyterLab, nbconvert, Voila), whether pyplot was ever imported or not; :func:`to_svg` and
:func:`to_png` turn one into text or bytes for a page or a file.
"""

from __future__ import annotations

import functools
import io
from typing import TYPE_CHECKING, Any

from cheren.study.analysis.evaluate import Comparison, Evaluation

if TYPE_CHECKING:
    from matplotlib.figure import Figure

ALLIED = "#b8412f"
ITALIAN = "#557f38"
DRAW = "#8c7b55"
INK = "#2d2418"
PAPER = "#fbf8ef"


def _figure(width: float = 6.4, height: float = 3.4) -> Figure:
    return _chart_class()(figsize=(width, height), dpi=100, facecolor=PAPER)


@functools.cache
def _chart_class() -> type[Figure]:
    from matplotlib.figure import Figure

    class Chart(Figure):
        """A figure a notebook shows as a picture.  IPython draws a bare ``Figure`` only once
        pyplot's inline backend is on; these charts never import pyplot, so they say how."""

        def _repr_png_(self) -> bytes:
            return to_png(self)

    return Chart


def _style(ax: Any) -> None:
    ax.set_facecolor(PAPER)
    for spine in ("top", "right"):
        ax.spines[spine].set_visible(False)
    ax.tick_params(colors=INK, labelsize=9)
    ax.xaxis.label.set_color(INK)
    ax.yaxis.label.set_color(INK)
    ax.title.set_color(INK)


def level_colour(winner: str | None) -> str:
    return {"allied": ALLIED, "italian": ITALIAN}.get(winner or "", DRAW)


def vp_histogram(ev: Evaluation) -> Figure:
    """How many play-outs ended on each Allied VP total, coloured by victory level."""
    fig = _figure()
    ax = fig.add_subplot()
    bands = ev.scenario.info.victory
    counts: dict[int, int] = {}
    for vp in ev.vps:
        counts[vp] = counts.get(vp, 0) + 1
    lo = min([*counts, 14]) if counts else 14
    hi = max([*counts, 28]) if counts else 28
    for vp in range(lo, hi + 1):
        band = next(b for b in bands if (b.min_vp or 0) <= vp and (b.max_vp is None or vp <= b.max_vp))
        winner = band.winner.value if band.winner is not None else None
        ax.bar(vp, counts.get(vp, 0), width=0.85, color=level_colour(winner), edgecolor=INK, linewidth=0.4)
    ax.axvline(21, color=INK, linestyle=":", linewidth=1)
    ax.text(21, ax.get_ylim()[1] * 0.95, " draw (21)", color=INK, fontsize=8, va="top")
    ax.set_xlabel("Allied VP at the end of turn 12")
    ax.set_ylabel("play-outs")
    ax.set_title(f"{ev.label}: {ev.games} play-outs ({ev.allied_bot} vs {ev.italian_bot})", fontsize=10)
    _style(ax)
    fig.tight_layout()
    return fig


def vp_over_turns(*evs: Evaluation) -> Figure:
    """The median Allied VP at the end of each turn, the middle half shaded."""
    fig = _figure()
    ax = fig.add_subplot()
    colours = [ALLIED, "#2b6cc4", ITALIAN, "#8e44ad", DRAW]
    for i, ev in enumerate(evs):
        by_turn = ev.vp_by_turn()
        turns = list(by_turn)
        if not turns:
            continue
        med = [
            sorted(v)[len(v) // 2] if len(v) % 2 else sum(sorted(v)[len(v) // 2 - 1 : len(v) // 2 + 1]) / 2
            for v in by_turn.values()
        ]
        lows = [_quantile(v, 0.25) for v in by_turn.values()]
        highs = [_quantile(v, 0.75) for v in by_turn.values()]
        colour = colours[i % len(colours)]
        ax.fill_between(turns, lows, highs, color=colour, alpha=0.18, linewidth=0)
        ax.plot(turns, med, color=colour, marker="o", markersize=3, label=ev.label)
    ax.axhline(21, color=INK, linestyle=":", linewidth=1)
    ax.set_xlabel("end of game turn")
    ax.set_ylabel("Allied VP (median, middle half)")
    ax.set_xlim(left=1, right=12)
    if len(evs) > 1:
        ax.legend(fontsize=8, frameon=False)
    _style(ax)
    fig.tight_layout()
    return fig


def candidates_chart(comparison: Comparison) -> Figure:
    """P(Allied win), P(draw) and P(Italian win) for each candidate, with 95% intervals."""
    fig = _figure(height=1.2 + 0.55 * len(comparison.candidates))
    ax = fig.add_subplot()
    labels = [ev.label for ev in comparison.candidates]
    for offset, (key, colour, name) in zip(
        (-0.25, 0.0, 0.25),
        (("allied", ALLIED, "Allied win"), ("draw", DRAW, "draw"), ("italian", ITALIAN, "Italian win")),
        strict=True,
    ):
        ys = [i + offset for i in range(len(labels))]
        shares = [ev.winners()[key] for ev in comparison.candidates]
        ps = [x.p for x in shares]
        errs = [[x.p - x.interval[0] for x in shares], [x.interval[1] - x.p for x in shares]]
        ax.barh(ys, ps, height=0.24, color=colour, label=name, xerr=errs, ecolor=INK, capsize=2)
    ax.set_yticks(range(len(labels)), labels=[_short(x) for x in labels])
    ax.set_xlim(0, 1)
    ax.set_xlabel("chance (95% interval)")
    ax.invert_yaxis()
    ax.legend(fontsize=8, frameon=False, loc="lower right")
    _style(ax)
    fig.tight_layout()
    return fig


def to_svg(fig: Figure) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg")
    return buf.getvalue()


def to_png(fig: Figure, dpi: int = 110) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return buf.getvalue()


def _quantile(values: list[int], q: float) -> float:
    v = sorted(values)
    pos = q * (len(v) - 1)
    lo = int(pos)
    return v[lo] + (v[min(lo + 1, len(v) - 1)] - v[lo]) * (pos - lo)


def _short(text: str, limit: int = 42) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
