"""The evaluation's widgets: the bar beside the map (the chance of an Allied win, a draw and an
Italian win, after every action), the line's curve under the log, and the Review panel that steps
through the marked decisions.  They show what ``board.evaluation`` (:mod:`cheren.app.evaluations`)
computes; every number says what made it (the caption's bot and games)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cheren.app import panels
from cheren.app.widgets import button, panel

if TYPE_CHECKING:
    from cheren.app.board import Board
    from cheren.study.evaluation.model import Chances

ALLIED = "#b8412f"
ITALIAN = "#557f38"
DRAW = "#c9b98f"


# each share named beside its side's colour, read sideways along the narrow bar: a bare "58%" at the
# top was read by newcomers as the Allied chance.  The numbers stand at the bar's ends, so a short
# segment clips its name rather than its number.
SIDEWAYS = ("overflow:hidden;writing-mode:vertical-rl;display:flex;align-items:center;white-space:nowrap;"
            "padding:3px 0")


def bar_html(chances: Chances | None, unavailable: str | None, height: int) -> str:
    if chances is None:
        return (f"<div class='cheren-eval-bar cheren-eval-off' title='{panels.esc(unavailable or '')}' "
                f"style='width:34px;height:{height}px;background:#ddd;font-size:10px;writing-mode:vertical-rl;"
                "text-align:center;color:#555'>evaluation unavailable</div>")
    a, d, i = chances.allied, chances.draw, chances.italian
    title = f"learned evaluation: Allied win {a:.0%}, draw {d:.0%}, Italian win {i:.0%}"
    return (f"<div class='cheren-eval-bar' data-allied='{a:.4f}' title='{panels.esc(title)}' "
            f"style='width:34px;height:{height}px;display:flex;flex-direction:column;border:1px solid #6b5a3c;"
            "font-size:10px;text-align:center;color:#fff'>"
            f"<div class='cheren-eval-italian' style='flex:{i:.4f} 1 0;background:{ITALIAN};{SIDEWAYS}'>"
            f"{i:.0%} Italian</div>"
            f"<div style='flex:{d:.4f} 1 0;background:{DRAW};overflow:hidden'></div>"
            f"<div class='cheren-eval-allied' style='flex:{a:.4f} 1 0;background:{ALLIED};{SIDEWAYS};"
            f"justify-content:flex-end'>Allied {a:.0%}</div></div>")


def curve_svg(values: list[float], marks: list[int], width: int = 320, height: int = 90) -> str:
    """The line's P(Allied win) after each action, as a small SVG; ``marks``: action numbers."""
    if not values:
        return ""
    n = max(1, len(values) - 1)

    def xy(i: int, v: float) -> str:
        return f"{4 + (width - 8) * i / n:.1f},{4 + (height - 8) * (1 - v):.1f}"

    points = " ".join(xy(i, v) for i, v in enumerate(values))
    dots = "".join(f"<circle cx='{xy(k, values[k]).split(',')[0]}' cy='{xy(k, values[k]).split(',')[1]}' r='3' "
                   f"fill='#2d2418'/>" for k in marks if 0 <= k < len(values))
    mid = 4 + (height - 8) / 2
    return (f"<svg class='cheren-eval-curve' width='{width}' height='{height}' data-points='{len(values)}'>"
            f"<rect width='{width}' height='{height}' fill='#fbf8ef'/>"
            f"<line x1='4' x2='{width - 4}' y1='{mid}' y2='{mid}' stroke='#999' stroke-dasharray='2,3'/>"
            f"<polyline points='{points}' fill='none' stroke='{ALLIED}' stroke-width='1.5'/>{dots}</svg>")


class EvaluationView:
    """The bar (``bar``, beside the map), the curve panel (``curve_panel``) and ``review_panel``."""

    def __init__(self, board: Board, height: int) -> None:
        import ipywidgets as w

        self.board = board
        self.height = height
        self.bar = w.HTML()
        self.bar.add_class("cheren-eval-bar-box")
        self.curve = w.HTML()
        self.note = w.HTML()
        self.curve_panel = panel("Evaluation", [self.curve, self.note], "cheren-evaluation-panel")
        self.review_text = w.HTML("<small>Review the line played so far: each decision's change in the Allied win "
                                  "chance; those that gave away 10 points or more are marked, with the better choice "
                                  "the bot finds shown on the map.</small>")
        self.review_text.add_class("cheren-review-text")
        self.review_button = button("Review this line", "cheren-review-run", self.run_review)
        self.prev_button = button("◂ Previous mark", "cheren-review-prev", lambda: self.step(-1))
        self.next_button = button("Next mark ▸", "cheren-review-next", lambda: self.step(1))
        self.review_panel = panel("Review", [self.review_text, self.review_button,
                                             w.HBox([self.prev_button, self.next_button])], "cheren-review-panel")

    def run_review(self) -> None:
        ev = self.board.evaluation
        rv = ev.run_review()
        self._show_review()
        if rv is not None and rv.marks:
            self.step(1)

    def step(self, delta: int) -> None:
        self.board.evaluation.step_mark(delta)
        self._show_review()

    def _show_review(self) -> None:
        ev = self.board.evaluation
        rv = ev.review
        if rv is None:
            self.review_text.value = f"<small>{panels.esc(ev.unavailable or 'No review yet.')}</small>"
            return
        head = (f"<div><b>{len(rv.marks)} marked</b> of {len(rv.decisions)} actions "
                f"(P(Allied win) {rv.start:.0%} at the start, {rv.curve()[-1]:.0%} at the end).</div>")
        body = ""
        if rv.marks and ev.mark >= 0:
            d = rv.marks[ev.mark]
            body = (f"<div class='cheren-review-mark' data-mark='{ev.mark + 1}'>Mark {ev.mark + 1} of {len(rv.marks)}: "
                    f"move {d.number} (turn {d.turn}, {panels.esc(d.phase)}), {panels.esc(d.side.adjective)}: "
                    f"<b>{panels.esc(d.text)}</b> took P(Allied win) from {d.judged_before:.0%} to {d.judged:.0%}"
                    f"{' ' + panels.esc(d.judged_text) if d.judged_text else ''}. "
                    f"Better ({panels.esc(d.better_by if d.better_kept else f'the {rv.bot} bot')}): "
                    f"<b class='cheren-review-better'>{panels.esc(d.better_text)}</b>: "
                    f"{(d.better_after or 0):.0%} (green on the map).</div>")
        self.review_text.value = head + body + f"<small><i>{panels.esc(rv.caption)}</i></small>"

    def changed(self, what: set[str]) -> None:
        if "game" not in what:
            return
        ev = self.board.evaluation
        now = ev.now()
        self.bar.value = bar_html(now, ev.unavailable, self.height)
        marks = [d.number for d in ev.review.marks] if ev.review is not None else []
        self.curve.value = curve_svg(ev.curve(), marks)
        if ev.unavailable:
            self.note.value = f"<small>The evaluation is unavailable: {panels.esc(ev.unavailable)}</small>"
        else:
            warn = f"<b>{panels.esc(ev.warning)}</b><br>" if ev.warning else ""
            summary = ev.summary(now.allied if now is not None else None)
            # one short sentence a newcomer reads; the whole provenance (some 650 characters) folded
            self.note.value = (f"<small>{warn}P(Allied win) along this line, after each action, "
                               f"{panels.esc(summary)}.<details class='cheren-eval-provenance'>"
                               f"<summary>How this evaluation was made</summary><i>{panels.esc(ev.caption())}.</i>"
                               "</details></small>")

    def as_dict(self) -> dict[str, Any]:
        return {"bar": self.bar.value, "curve": self.curve.value}
