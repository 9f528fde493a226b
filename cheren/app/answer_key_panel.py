"""A library position's answer key beside the game: its question, what happened next, the
historical plan (played on the board as a line of its own) and the comparison with the analysis's
best alternative, both played out by the bots (:mod:`cheren.study.answer_keys`).

The HTML comes from pure functions (:func:`answer_key_html`, :func:`comparison_html`), so tests read
what the panel shows without a browser."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from cheren.files.position_files import PositionRecord
from cheren.render.report_html import markdown_to_html
from cheren.study.answer_keys import AnswerKey
from cheren.study.map_intents import Feedback

if TYPE_CHECKING:
    from cheren.app.board import Board

HISTORICAL_LINE = "historical plan"


def answer_key_html(record: PositionRecord) -> str:
    """The question, what happened next and the historical plan, in words, with their sources."""
    parts = [f"### {record.title}", f"*{record.date:%d %B %Y}, turn {record.turn}*", ""]
    if record.question is not None:
        parts += [f"**The question ({record.question.side.adjective} to decide):** {record.question.text}", ""]
    if record.plan is not None:
        parts += [f"**The historical plan:** {record.plan.summary}", ""]
    if record.happened_next:
        parts.append("**What happened next:**")
        parts += [f"- {e.date:%d %B %Y}: {' '.join(e.text.split())}" for e in record.happened_next]
    return f"<div class='cheren-answer-key'>{markdown_to_html(chr(10).join(parts))}</div>"


def comparison_html(key: AnswerKey | None, running: str = "") -> str:
    if key is None:
        return f"<div class='cheren-answer-compare'><i>{running}</i></div>" if running else ""
    return f"<div class='cheren-answer-compare'>{markdown_to_html(key.explain())}</div>"


class GamesPlayed:
    """The comparison's progress in the panel as the games finish: both plans are played out in
    turn, each reporting (games done, games), so a plan is finished when its count reaches the
    total and the next one starts again from nothing."""

    PLANS = 2  # the historical plan and the analysis's alternative

    def __init__(self, panel: AnswerKeyPanel, opening: str, games: int) -> None:
        self.panel, self.opening, self.games = panel, opening, games
        self.finished = 0  # plans played out

    def __call__(self, done: int, total: int) -> None:
        if done >= total:
            self.finished += 1
            done = 0
        played = min(self.finished * total + done, self.PLANS * total)
        self.panel.output.value = comparison_html(
            None, f"{self.opening} {played} of {self.PLANS * total} games played."
        )


class AnswerKeyPanel:
    """The answer key of ``record`` (a library position), beside ``board``'s game if one is given."""

    def __init__(self, record: PositionRecord, board: Board | None = None, *, games: int = 20) -> None:
        import ipywidgets as w

        self.record = record
        self.board = board
        self.key: AnswerKey | None = None
        self.thread: threading.Thread | None = None
        self.text = w.HTML(answer_key_html(record))
        self.games = w.BoundedIntText(value=games, min=1, max=2000, description="games",
                                      layout=w.Layout(width="140px"))
        compare = w.Button(description="Compare with the analysis ▸", layout=w.Layout(width="auto"))
        compare.add_class("cheren-answer-compare-button")
        compare.on_click(lambda _: self.compare(background=True))  # the map stays live meanwhile
        self.compare_button = compare
        self.output = w.HTML()
        self.output.add_class("cheren-answer-output")
        row = [self.games, compare]
        if board is not None:
            play = w.Button(description="Play the historical plan", layout=w.Layout(width="auto"))
            play.add_class("cheren-answer-play")
            play.on_click(lambda _: self.play_plan())
            row.insert(0, play)
        self.widget = w.VBox([self.text, w.HBox(row), self.output])
        self.widget.add_class("cheren-answer-key-panel")

    def play_plan(self) -> Feedback:
        """Play the historical plan on the board from the position, as a line of its own (the main
        line is kept: the Lines panel switches back), and roll its attack if it ends with one."""
        from cheren.files.position_plans import pass_other_side, play_plan

        b = self.board
        if b is None:
            return Feedback("refused", "no game to play the plan on")
        played = play_plan(self.record)
        if HISTORICAL_LINE in b.study.lines:
            b.lines.delete(HISTORICAL_LINE)
        b.lines.branch(HISTORICAL_LINE, at=0)
        start = len(b.game.log)
        for action in played.actions:
            pass_other_side(b.game, played.side)
            b.push(action)
        pass_other_side(b.game, played.side)  # an attack that ends the plan is rolled
        b.changed()
        events = [e for entry in b.game.log[start:] for e in entry.events]
        done = "; ".join(b.describe(a) for a in played.actions)
        text = f"The historical plan, played as the line '{HISTORICAL_LINE}': {done}. " + "; ".join(events[-6:])
        return b.say(Feedback("ok", text), "game", "selection")

    def compare(self, background: bool = False, **options: Any) -> AnswerKey | None:
        """Play the historical plan and the analysis's best alternative out (``games`` each, the
        heuristic bot on both sides); in the ``background`` the numbers fill in when done."""
        from cheren.study.answer_keys import answer_key

        games = int(self.games.value)
        opening = (f"Playing each plan out {games} times with the heuristic bot on both sides..."
                   + (" The board stays yours meanwhile; the numbers come here when done." if background else ""))
        self.output.value = comparison_html(None, opening)
        if "progress" not in options:
            options["progress"] = GamesPlayed(self, opening, games)
        self.compare_button.disabled = True  # one comparison at a time

        def run() -> AnswerKey | None:
            from cheren.app.playouts import _LIVE, default_jobs
            from cheren.players.simulate import stop_pool, worker_pool

            # in the background the games run in worker processes, so the kernel answers clicks
            pool = worker_pool(default_jobs(), background=True) if background and "executor" not in options else None
            if pool is not None:
                _LIVE.add(pool)
                options["executor"] = pool
            try:
                key = answer_key(self.record, games, **options)
            except Exception as exc:  # said in the panel: a background thread has nowhere else to say it
                self.output.value = comparison_html(None, f"The comparison could not be played out: {exc}")
                if not background:
                    raise
                return None
            finally:
                self.compare_button.disabled = False
                if pool is not None:
                    stop_pool(pool)
                    _LIVE.discard(pool)
            self.key = key
            self.output.value = comparison_html(key)
            return key

        if background:
            self.thread = threading.Thread(target=run, name=f"answer key {self.record.name}", daemon=True)
            self.thread.start()
            return None
        return run()


class AnswerKeyBox:
    """The app's "answer" panel: the answer key of the library position on the board, made when
    a position is opened, hidden when the board's position has none.  The question and the
    answers themselves are in the position panel (folded, to read after one's own study); here
    are the historical plan to play and the comparison with the analysis."""

    def __init__(self, board: Board) -> None:
        import ipywidgets as w

        from cheren.app.widgets import panel

        self.board = board
        self.key: AnswerKeyPanel | None = None
        self.box = w.VBox()
        self.panel = panel("The historical plan", [self.box], "cheren-answer-panel")
        self.panel.layout.display = "none"

    def changed(self, what: set[str]) -> None:
        if "position" not in what:
            return
        record = self.board.positions.record
        if self.key is not None and self.key.record is record:
            return
        if record is not None and (record.question is not None or record.plan is not None or record.happened_next):
            self.key = AnswerKeyPanel(record, self.board)
            self.key.text.layout.display = "none"  # the position panel shows it
            self.box.children = [self.key.widget]
            self.panel.layout.display = None
        else:
            self.key = None
            self.box.children = []
            self.panel.layout.display = "none"
