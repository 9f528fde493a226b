"""The app's Analysis panel: the position report (:func:`cheren.study.analysis.report.analyse`) and a
play-out evaluation whose gauge fills in as the games finish.

The HTML comes from pure functions (:func:`report_html`, :func:`gauge_html`), so the tests read
what the panel shows without a browser; :class:`AnalysisPanel` wires them to widgets and to the
board (the threat map is the board's ``threats`` overlay)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cheren.players.bots import STRONGEST
from cheren.render.report_html import markdown_to_html
from cheren.study.analysis.evaluate import MEASURES, Evaluation, bots_played
from cheren.study.analysis.report import AnalysisReport

if TYPE_CHECKING:
    from cheren.app.board import Board

ALLIED = "#b8412f"
ITALIAN = "#557f38"
DRAW = "#8c7b55"


def report_html(report: AnalysisReport) -> str:
    return f"<div class='cheren-analysis-report'>{markdown_to_html(report.explain())}</div>"


def gauge_html(ev: Evaluation | None, total: int) -> str:
    """P(Allied win) / P(draw) / P(Italian win) as one bar, with the number of games so far."""
    if ev is None or not ev.results:
        return f"<div class='cheren-gauge'><i>0 of {total} play-outs</i></div>"
    w = ev.winners()
    parts = []
    for key, colour, name in (("allied", ALLIED, "Allied win"), ("draw", DRAW, "draw"),
                              ("italian", ITALIAN, "Italian win")):
        share = w[key]
        if share.count:
            parts.append(f"<div title='{name}: {share}' style='width:{share.p * 100:.1f}%;background:{colour};"
                         f"color:#fff;text-align:center;font-size:11px;overflow:hidden'>{share.p:.0%}</div>")
    bar = "".join(parts)
    med = ev.vp_stats()["median"]
    return (
        f"<div class='cheren-gauge' data-games='{ev.games}'>"
        f"<div style='display:flex;height:18px;border:1px solid #2d2418;border-radius:3px;overflow:hidden'>{bar}</div>"
        f"<div style='font-size:12px'>{ev.games} of {total} play-outs by {bots_played(ev.allied_bot, ev.italian_bot)}"
        f" · Allied win {w['allied']} · draw {w['draw']} · Italian win {w['italian']} (95% intervals) · median "
        f"{med:g} Allied VP</div><div class='cheren-gauge-note' style='font-size:11px;color:#5a4a35'>{MEASURES}"
        f"</div></div>"
    )


class AnalysisPanel:
    """Analyse the game's position, show the threat map, play the position out."""

    def __init__(self, board: Board) -> None:
        import ipywidgets as w

        self.board = board
        self._w = w
        self.report: AnalysisReport | None = None
        self.evaluation: Evaluation | None = None
        self._version = -1
        self.output = w.HTML()
        self.output.add_class("cheren-analysis")
        self.output.layout = w.Layout(max_height="360px", overflow="auto")
        analyse = w.Button(description="Analyse this position", layout=w.Layout(width="auto"))
        analyse.add_class("cheren-analyse")
        analyse.on_click(lambda _: self.analyse())
        self.games = w.BoundedIntText(value=40, min=1, max=2000, description="games",
                                      layout=w.Layout(width="140px"))
        # the strongest bot first and by default; the quicker ones for a first look (docs/bots.md)
        self.bot = w.Dropdown(options=[STRONGEST, "lookahead", "tactician", "heuristic", "random"], value=STRONGEST,
                              layout=w.Layout(width="110px"))
        play = w.Button(description="Play out ▸", layout=w.Layout(width="auto"))
        play.add_class("cheren-playout")
        play.on_click(lambda _: self.play_out())
        self.gauge = w.HTML(gauge_html(None, self.games.value))
        self.chart = w.Image(format="png", layout=w.Layout(max_width="330px"))
        self.chart.layout.display = "none"
        self.widget = w.VBox([analyse, self.output, w.HBox([self.games, self.bot, play]), self.gauge, self.chart])
        board.subscribe(self._changed)

    def analyse(self) -> AnalysisReport:
        from cheren.study.analysis.report import analyse

        c = self.board
        self.report = analyse(c.position)
        self._version = c.version
        self.output.value = report_html(self.report)
        c.overlays.set("threats", True)
        return self.report

    def play_out(self) -> Evaluation:
        from cheren.study.analysis.charts import to_png, vp_histogram
        from cheren.study.analysis.evaluate import evaluate

        c = self.board
        total = int(self.games.value)
        ev = Evaluation(c.scenario, "this position", self.bot.value, self.bot.value, 0, c.position.side.value)
        self.gauge.value = gauge_html(ev, total)

        def finished(result: Any) -> None:
            ev.results.append(result)
            self.gauge.value = gauge_html(ev, total)

        done = evaluate(c.position, total, allied=self.bot.value, italian=self.bot.value, seed=c.version,
                        label="this position", on_result=finished)
        self.evaluation = done
        self.gauge.value = gauge_html(done, total)
        self.chart.value = to_png(vp_histogram(done), dpi=60)
        self.chart.layout.display = None
        return done

    def _changed(self, what: set[str]) -> None:
        if "game" in what and self.report is not None and self.board.version != self._version:
            self.output.value = ("<div class='cheren-msg info'>The position has changed: analyse it again.</div>"
                                 + report_html(self.report))
