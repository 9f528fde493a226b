"""The app's analysis: the position report (:func:`cheren.study.analysis.report.analyse`) in a wide
tab beside the map (tables and headings whole), the threat map on the map, and play-outs in the
background (:mod:`cheren.app.playouts`) with a progress bar, the running estimate, Stop, and the
chart of where the games ended.

The HTML comes from pure functions (:func:`report_html`, :func:`gauge_html`), so the tests read
what the panel shows without a browser."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from cheren.app import panels
from cheren.app.widgets import button
from cheren.players.bots import STRONGEST
from cheren.render.report_html import markdown_to_html
from cheren.study.analysis.evaluate import MEASURES, Evaluation, bots_played
from cheren.study.analysis.report import AnalysisReport

if TYPE_CHECKING:
    from cheren.app.board import Board
    from cheren.app.playouts import PlayOuts

ALLIED = "#b8412f"
ITALIAN = "#557f38"
DRAW = "#8c7b55"
REPORT_CSS = """
<style>
.cheren-analysis-report { font-size: 13px; line-height: 1.4; max-width: 1100px; }
.cheren-analysis-report h1 { font-size: 18px; margin: 6px 0; } .cheren-analysis-report h2 { font-size: 15px; }
.cheren-analysis-report h3 { font-size: 14px; }
.cheren-analysis-report h1, .cheren-analysis-report h2, .cheren-analysis-report h3 { white-space: normal;
  overflow: visible; }
.cheren-analysis-report table { border-collapse: collapse; margin: 4px 0 10px 0; }
.cheren-analysis-report th, .cheren-analysis-report td { border: 1px solid #d8c9a6; padding: 2px 6px;
  text-align: left; vertical-align: top; white-space: normal; }
.cheren-analysis-report th { background: #efe7d2; }
.cheren-gauge-bar { height: 8px; background: #e0d4b8; border-radius: 3px; overflow: hidden; margin: 3px 0; }
.cheren-gauge-bar > div { height: 100%; background: #2d2418; }
</style>
"""


def report_html(report: AnalysisReport) -> str:
    return f"<div class='cheren-analysis-report'>{markdown_to_html(report.explain())}</div>"


def shares_html(ev: Evaluation) -> str:
    """P(Allied win) / P(draw) / P(Italian win) as one bar, each part named where it has room (a
    bare "100%" read as the progress of the run)."""
    w = ev.winners()
    parts = []
    for key, colour, name in (("allied", ALLIED, "Allied win"), ("draw", DRAW, "draw"),
                              ("italian", ITALIAN, "Italian win")):
        share = w[key]
        if share.count:
            text = f"{name} {share.p:.0%}" if share.p >= 0.3 else f"{share.p:.0%}"
            parts.append(f"<div title='{name}: {share}' style='width:{share.p * 100:.1f}%;background:{colour};"
                         f"color:#fff;text-align:center;font-size:11px;overflow:hidden;white-space:nowrap'>{text}</div>")
    style = "display:flex;height:18px;border:1px solid #2d2418;border-radius:3px;overflow:hidden"
    return f"<div style='{style}'>{''.join(parts)}</div>"


def gauge_html(ev: Evaluation | None, total: int, state: str = "done", seconds: float = 0.0) -> str:
    """The play-outs so far: a progress bar with the games done, the running estimate of each
    result with its 95% interval, and which bots played."""
    done = len(ev.results) if ev is not None else 0
    progress = (f"<div class='cheren-gauge-bar'><div style='width:{100 * done / max(1, total):.1f}%'></div></div>")
    when = f" in {seconds:.0f} s" if seconds >= 1 else ""
    said = {"running": f"{done} of {total} play-outs so far{when}…",
            "stopped": f"Stopped: {done} of {total} play-outs finished and kept{when}",
            "failed": f"{done} of {total} play-outs, then a failure",
            }.get(state, f"{done} of {total} play-outs{when}")
    if ev is None or not ev.results:
        return (f"<div class='cheren-gauge' data-games='{done}' data-state='{state}'>{progress}"
                f"<i>{panels.esc(said)}</i></div>")
    w = ev.winners()
    med = ev.vp_stats()["median"]
    bots = bots_played(ev.allied_bot, ev.italian_bot)
    return (
        f"<div class='cheren-gauge' data-games='{done}' data-state='{state}'>{progress}{shares_html(ev)}"
        f"<div style='font-size:12px'><b>{panels.esc(said)}</b> by {panels.esc(bots)} · Allied win {w['allied']} · "
        f"draw {w['draw']} · Italian win {w['italian']} (95% intervals) · median {med:g} Allied VP</div>"
        f"<div class='cheren-gauge-note' style='font-size:11px;color:#5a4a35'>{panels.esc(MEASURES)}</div></div>"
    )


class AnalysisPanel:
    """Analyse the board's position, show the threat map, play the position out."""

    def __init__(self, board: Board) -> None:
        import ipywidgets as w

        self.board = board
        self._w = w
        self.report: AnalysisReport | None = None
        self._version = -1
        self.output = w.HTML()  # the report, shown in the wide Report tab
        self.output.add_class("cheren-analysis")
        self.report_box = w.VBox([w.HTML(REPORT_CSS), self.output], layout=w.Layout(width="100%", padding="6px"))
        self.report_box.add_class("cheren-report-box")
        self.show_report: Any = None  # the app sets how the Report tab is brought forward
        self.games = w.BoundedIntText(value=40, min=1, max=2000, description="games", layout=w.Layout(width="140px"))
        # the planner first and by default (the bot the evaluation model predicts), then planner2 (its
        # supply mends, which the model has not seen), then the quicker ones for a first look (docs/bots.md)
        self.bot = w.Dropdown(options=[STRONGEST, "planner2", "lookahead", "tactician", "heuristic", "random"],
                              value=STRONGEST, layout=w.Layout(width="110px"))
        self.play_button = button("Play out ▸", "cheren-playout", self.play_out)
        self.stop_button = button("Stop ■", "cheren-playout-stop", self.stop, style="warning")
        self.stop_button.disabled = True
        self.gauge = w.HTML(gauge_html(None, self.games.value, "idle"))
        self.gauge.add_class("cheren-gauge-box")
        self.chart = w.Image(format="png", layout=w.Layout(max_width="330px"))
        self.chart.add_class("cheren-playout-chart")
        self.chart.layout.display = "none"
        self.widget = w.VBox([
            button("Analyse this position", "cheren-analyse", self.analyse),
            w.HTML("<small>The report opens in the <b>Report</b> tab beside the map; the threats go on the "
                   "map.</small>"),
            w.HBox([self.games, self.bot]), w.HBox([self.play_button, self.stop_button]), self.gauge, self.chart])
        board.playouts.watch(self._progress)

    @property
    def playouts(self) -> PlayOuts:
        return self.board.playouts

    def analyse(self) -> AnalysisReport:
        from cheren.study.analysis.report import analyse

        b = self.board
        self.report = analyse(b.position)
        self._version = b.version
        self.output.value = report_html(self.report)
        b.overlays.set("threats", True)
        if self.show_report is not None:
            self.show_report()
        return self.report

    def play_out(self, *, wait: bool = False) -> Evaluation | None:
        """Start the play-outs (in the background; ``wait``: until they are over)."""
        fb = self.playouts.start(int(self.games.value), str(self.bot.value), wait=wait)
        return self.playouts.evaluation if fb.ok else None

    def stop(self) -> None:
        self.playouts.stop()

    def _progress(self) -> None:
        """Called as the games finish (from the play-outs' thread): only this panel's widgets."""
        po = self.playouts
        now = time.monotonic()
        seconds = (po.ended or now) - po.started if po.started else 0.0
        self.gauge.value = gauge_html(po.evaluation, po.total, po.state, seconds)
        self.play_button.disabled = po.running
        self.stop_button.disabled = not po.running
        ev = po.evaluation
        if not po.running and ev is not None and ev.results:
            from cheren.study.analysis.charts import to_png, vp_histogram

            self.chart.value = to_png(vp_histogram(ev), dpi=60)
            self.chart.layout.display = None

    def changed(self, what: set[str]) -> None:
        if "game" in what and self.report is not None and self.board.version != self._version:
            self.output.value = ("<div class='cheren-msg info'>The position has changed: analyse it again.</div>"
                                 + report_html(self.report))
