"""The notebook app: the map, the phase stepper and the side panels, in one ipywidgets tree.

    from cheren.app import App
    App()                      # a new game of the bundled scenario, hot-seat
    App(game, bot=my_bot, bot_side=Side.ITALIAN)
    App(position="agordat")    # a library position (or a code, or a file), opened for study

``app.board`` (:class:`~cheren.app.board.Board`) is the whole state, for scripts and tests; every
widget calls one of its controllers, and the app only redraws what the board says changed."""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cheren.app import panels
from cheren.app.analysis_panel import AnalysisPanel
from cheren.app.answer_key_panel import AnswerKeyBox, AnswerKeyPanel
from cheren.app.board import Board
from cheren.app.combat_view import CombatView
from cheren.app.evaluation_view import EvaluationView
from cheren.app.game_panel import GamePanel
from cheren.app.hidden_info import Seating
from cheren.app.lines_panel import LinesPanel
from cheren.app.map import MapWidget
from cheren.app.map_overlays import OVERLAYS
from cheren.app.play_view import PlayView
from cheren.app.position_view import PositionView
from cheren.app.rules_panel import RulesPanel
from cheren.app.widgets import button, panel
from cheren.engine.game import Game
from cheren.hexes import Hex
from cheren.scenario.models import Side
from cheren.study.map_intents import Feedback

if TYPE_CHECKING:
    from cheren.app.editor_app import EditorApp

PANELS = ("decision", "attack", "position", "answer", "lines", "review", "stack", "bot", "analysis", "overlays",
          "chits", "rules", "log", "evaluation", "game")


class App:
    def __init__(
        self,
        game: Game | None = None,
        *,
        seed: int = 1941,
        bot: Any = None,
        bot_side: Side | None = None,
        width: int = 1080,
        height: int = 712,
        save_path: str | Path = "cheren-game.json",
        board: Board | None = None,
        show: Collection[str] | None = None,
        autosave: str | Path | None = None,
        position: str | Path | None = None,
        seating: Seating | None = None,
        intro: str = "",
    ) -> None:
        """``board``: show this board instead of a new one (lesson mode); ``show``: show only these
        side panels (of :data:`PANELS`; default all); ``autosave``: keep the game in this file after
        every change and take it up again from there (a page reload in Voila starts the notebook
        afresh, and finds the game where it was); ``position``: open this library position, code
        or file (in analysis unless ``seating`` says "hot-seat"), with its answer key (question,
        what happened next, the historical plan and the comparison with the analysis) in the
        "answer" panel; ``seating``: "analysis" (one person studies both sides, no curtain) or
        "hot-seat" (two players, a curtain between; the default for a game); ``intro``: a few words of
        HTML above the top bar, put away with it while the course is open."""
        import ipywidgets as w

        shown = set(PANELS if show is None else show)
        unknown = shown - set(PANELS)
        if unknown:
            raise ValueError(f"unknown panel(s) {', '.join(sorted(unknown))}; known: {', '.join(PANELS)}")
        self.record = None
        if position is not None and game is None and board is None:
            from cheren.files import open_position

            self.record = open_position(position)
            game = Game.from_position(self.record.position)
        if board is None:
            if game is None:
                from cheren import load_scenario

                game = Game(load_scenario(), seed=seed)
            board = Board(game, bot=bot, bot_side=bot_side)
            board.hidden.seating = seating or "hot-seat"
        self.board = b = board
        self._play = "game" in shown  # the play app (a lesson shows its own panels, and no Game panel)
        if position is not None:
            b.positions.open(position, seating=seating or "analysis")
        self.map = MapWidget(b, width, height)
        self.status = w.HTML()
        self.status.add_class("cheren-status")
        self.hint = w.HTML()
        self.hint.add_class("cheren-hint")
        self.feedback = w.HTML()
        self.feedback.add_class("cheren-feedback")
        self.position_view = PositionView(b)
        self.play_view = PlayView(b)
        self.combat_view = CombatView(b)
        self.game_panel = GamePanel(b, save_path, bot)
        self.analysis = AnalysisPanel(b)
        self.lines = LinesPanel(b)
        self.rules = RulesPanel(b)
        self.answers = AnswerKeyBox(b)  # the opened library position's answer key, in the "answer" panel
        self.evaluation = EvaluationView(b, height)  # the bar beside the map, the curve, the Review panel
        self.map_column, self.side = self._map_column(), self._side_panel(shown)
        self.body = w.HBox([self.map_column, self.side], layout=w.Layout(width="100%", align_items="flex-start"))
        self.editor: Any = None  # the position editor, while it has the map (Edit position ✎)
        self.body.add_class("cheren-body")
        self.curtain_text = w.HTML()
        self.curtain_button = button("Show the game", "cheren-reveal", b.hidden.reveal, style="primary")
        self.curtain = w.VBox([self.curtain_text, self.curtain_button],
                              layout=w.Layout(padding="40px", align_items="center"))
        self.curtain.add_class("cheren-curtain")
        self.course_box = w.VBox()  # the course, in place of the game while it is open
        self.course: Any = None
        self.top = self._top_bar(shown, intro)
        from cheren.app.page_keys import PageKeys

        self.keys = PageKeys(self._key)  # Esc from anywhere on the page, not only on the map
        self.widget = w.VBox([w.HTML(panels.CSS), self.keys, self.top, self.game_panel.confirm, self.status,
                              self.hint, self.position_view.picker, self.curtain, self.body,
                              self.course_box], layout=w.Layout(width="100%"))
        self.widget.add_class("cheren-app")
        self.autosave = Path(autosave) if autosave is not None else None
        if self.autosave is not None:
            self._restore(self.autosave)
        b.subscribe(self._changed)
        self._changed({"game", "selection", "feedback", "overlays", "position"})
        if self.minimap is not None:
            from cheren.app.minimap import action_hexes

            self.map.open_on(action_hexes(b))

    # -- the layout ----------------------------------------------------------------------------
    def _map_column(self) -> Any:
        import ipywidgets as w

        b = self.board
        self.end_button = button("End phase ▸", "cheren-end-phase", b.play.end_phase, style="primary")
        self.undo_button = button("↶ Undo", "cheren-undo", b.play.undo)
        self.redo_button = button("↷ Redo", "cheren-redo", b.play.redo)
        self.hover_info = w.HTML()
        self.hover_info.add_class("cheren-hover")
        self.hover_info.layout = w.Layout(flex="1 1 auto", margin="0 8px", overflow="hidden")
        self.edit_button = button("Edit position ✎", "cheren-edit-position", self.edit,
                                  tooltip="Change the position on the map in the position editor, then study it")
        self.back_button = button("◂ Back, unchanged", "cheren-edit-back", lambda: self.stop_editing())
        self.back_button.layout.display = "none"
        opening = [self.position_view.open_button, self.edit_button] if self._play else []  # not in a lesson
        self.play_tools = [*opening, self.undo_button, self.redo_button, self.end_button]
        self.toolbar = toolbar = w.HBox([self.map.toolbar, self.hover_info, *self.play_tools, self.back_button],
                         layout=w.Layout(align_items="center", padding="4px 6px"))
        self.minimap: Any = None
        parts = [self.map.widget]
        if self._play:  # the play map opens on the action, with the whole map in a corner
            from cheren.app.minimap import MiniMap, action_hexes

            self.minimap = MiniMap(b, self.map)
            self.position_view.on_open = lambda: self.map.open_on(action_hexes(b))  # a new position's action
            parts.append(self.minimap.widget)
        map_box = w.VBox(parts, layout=w.Layout(width="100%", align_items="center"))
        map_box.add_class("cheren-map-box")
        # the analysis report takes the map's place in a tab of its own: as wide as it needs
        map_row = w.HBox([map_box, self.evaluation.bar], layout=w.Layout(width="100%", align_items="flex-start"))
        self.tabs = w.Tab(children=[map_row, self.analysis.report_box], titles=("Map", "Report"),
                          layout=w.Layout(width="100%"))
        self.tabs.add_class("cheren-map-tabs")
        self.analysis.show_report = lambda: setattr(self.tabs, "selected_index", 1)
        return w.VBox([toolbar, self.feedback, self.tabs],
                      layout=w.Layout(flex="1 1 auto", min_width="0", width="auto"))

    def _top_bar(self, shown: set[str], intro: str) -> Any:
        """The course, who plays, Save and Load, at the top (the play app's; a lesson has its own),
        under the intro if there is one (it speaks of the map, so it goes when the course comes)."""
        import ipywidgets as w

        if "game" not in shown:
            return w.HBox()
        course = button("☰ Course", "cheren-course-open", self.open_course, style="info",
                        tooltip="Learn the rules: lessons with exercises on this map")
        bar = w.HBox([course, self.game_panel.bar], layout=w.Layout(align_items="center", flex_flow="row wrap"))
        bar.add_class("cheren-top-bar")
        if not intro:
            return bar
        words = w.HTML(intro)
        words.add_class("cheren-intro")
        return w.VBox([words, bar])

    def open_course(self) -> Any:
        """Show the course in place of the game (the game stays as it is, behind)."""
        if self.course is None:
            from cheren.app.course_view import CourseView

            self.course = CourseView(on_close=self.close_course)
            self.course_box.children = [self.course.widget]
        else:
            self.course.course.home()
        for part in (self.top, self.status, self.hint, self.position_view.picker, self.curtain, self.body):
            part.layout.display = "none"
        self.course_box.layout.display = "flex"
        return self.course

    def close_course(self) -> None:
        """Back to the game."""
        self.course_box.layout.display = "none"
        for part in (self.top, self.status, self.hint):
            part.layout.display = None
        self._curtain()

    def _side_panel(self, shown: set[str]) -> Any:
        import ipywidgets as w

        b = self.board
        self.overlay_boxes: dict[str, Any] = {}
        for key, label in OVERLAYS.items():
            box = w.Checkbox(value=key in b.overlays.on, description=label, indent=False, layout=w.Layout(width="auto"))
            box.add_class(f"cheren-overlay-{key}")
            box.observe(lambda change, k=key: self._toggle_overlay(k, change["new"]), "value")
            self.overlay_boxes[key] = box
        grid = w.GridBox(list(self.overlay_boxes.values()),
                         layout=w.Layout(grid_template_columns="repeat(2, minmax(0, 1fr))"))
        self.key = w.HTML()
        self.key.add_class("cheren-key-panel")
        pv = self.play_view
        everything = {
            "stack": pv.stack_panel,
            "decision": pv.decision_panel,
            "attack": self.combat_view.panel,
            "position": self.position_view.panel,
            "answer": self.answers.panel,
            "overlays": panel("Overlays", [grid, self.key], "cheren-overlays"),
            "analysis": panel("Analysis", [self.analysis.widget], "cheren-analysis-panel"),
            "lines": panel("Moves & lines", [self.lines.widget], "cheren-lines-panel"),
            "bot": pv.bot_panel,
            "chits": pv.chits_panel,
            "rules": panel("Rules", [self.rules.widget], "cheren-rules-panel"),
            "log": pv.log_panel,
            "evaluation": self.evaluation.curve_panel,
            "review": self.evaluation.review_panel,
            "game": self.game_panel.panel,
        }
        side = w.VBox([everything[name] for name in PANELS if name in shown],
                      layout=w.Layout(width="350px", min_width="330px", flex="0 0 350px"))
        side.add_class("cheren-side-panel")
        return side

    @property
    def answer_key(self) -> AnswerKeyPanel | None:  # the library position's answer key (None: it has none)
        return self.answers.key

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    # -- the position editor on the same map ----------------------------------------------------
    def edit(self) -> EditorApp:
        """The position on the board, in the position editor, on this map; its Play from here
        brings the edited position back to the board for study."""
        from cheren.app.editor_app import EditorApp

        record = self.board.positions.on_board()
        editor = self.editor = EditorApp(record=record, map=self.map, on_play=self._edited,
                                         save_path=f"my-{record.name}.yaml")
        self._editing(True)
        return editor

    def _edited(self, record: Any, _game: Game) -> None:
        seating = self.board.hidden.seating
        self.stop_editing()
        self.board.positions.show(record, seating=seating)

    def stop_editing(self) -> None:
        """Back to the board, as it was."""
        if self.editor is not None:
            self.editor = None
            self.map.set_controller(self.board)
            self._editing(False)

    def _editing(self, on: bool) -> None:
        for b in self.play_tools:
            b.layout.display = "none" if on else None
        self.back_button.layout.display = None if on else "none"
        feedback = self.editor.feedback if on else self.feedback
        self.map_column.children = [self.toolbar, feedback, self.tabs]
        self.body.children = [self.map_column, self.editor.side_panel if on else self.side]
        self.tabs.selected_index = 0
        self.hint.value = ('<div class="cheren-hint-line">Editing the position: pick a counter, click a hex to put '
                           "it there; Play from here brings it back to the board.</div>") if on else ""
        if not on:
            self._changed({"game", "selection", "feedback", "overlays", "position"})

    # -- autosave ------------------------------------------------------------------------------
    def take_up(self, autosave: str | Path) -> None:
        """Keep the game in ``autosave`` from now on, taking it up from there if the file exists:
        what ``App(autosave=...)`` does, for an app built before its page was asked for (the app
        notebook under ``cheren app``, whose kernel is started and run ahead, cheren.app.launch)."""
        self.autosave = Path(autosave)
        self._restore(self.autosave)
        self._changed({"game", "selection", "feedback", "overlays", "position"})

    def _restore(self, path: Path) -> None:
        from cheren.app.autosave import take_up_autosave

        if not take_up_autosave(self.board, path):
            self.autosave = None
        self.game_panel.show_mode()

    def _autosave(self) -> None:
        if self.autosave is not None:
            from cheren.app.autosave import write_autosave

            problem = write_autosave(self.board, self.autosave)
            if problem is not None:
                self.board.feedback = Feedback("refused", problem)

    # -- callbacks -----------------------------------------------------------------------------
    def _key(self, key: str) -> None:
        if key == "Escape" and self.course_box.layout.display != "flex":  # the course hears its own
            self.board.escape()

    def _toggle_overlay(self, key: str, on: bool) -> None:
        if (key in self.board.overlays.on) != on:
            self.board.overlays.set(key, on)

    # -- redraw --------------------------------------------------------------------------------
    def _changed(self, what: set[str]) -> None:
        b = self.board
        if what & {"game", "selection", "feedback"}:
            self._curtain()  # first: the page hides the game before it shows what changed
        if "hover" in what:
            h = b.hover
            self.hover_info.value = f"<small>{panels.esc(b.play.hex_text(h))}</small>" if h is not None else ""
        if "game" in what:
            self._autosave()
            self.status.value = panels.status_html(b)
            self.undo_button.disabled = not b.can_undo()
            self.redo_button.disabled = not b.game.can_redo()
            self.end_button.disabled = b.game.over
        self.answers.changed(what)
        self.position_view.changed(what)
        self.lines.changed(what)
        self.analysis.changed(what)
        self.play_view.changed(what)
        self.combat_view.changed(what)
        self.evaluation.changed(what)
        if "game" in what:
            self.game_panel.show_mode()
        if "overlays" in what:
            for key, box in self.overlay_boxes.items():
                box.value = key in b.overlays.on
        if what & {"game", "selection", "overlays"}:
            self.key.value = panels.key_html(b)
        if "feedback" in what:
            self.feedback.value = panels.feedback_html(b.feedback)
        if what & {"game", "selection", "feedback"}:
            self.hint.value = f'<div class="cheren-hint-line">{panels.esc(b.play.phase_hint())}</div>'

    def _curtain(self) -> None:
        """Hot-seat: the game hidden between turns, so one side's hand is never shown to the other."""
        side = self.board.hidden.curtain
        if side is None:
            self.curtain.layout.display = "none"
            self.body.layout.display = "flex"
            return
        self.curtain_text.value = (
            f"<h3>Hand over to the {panels.esc(side.adjective)} player</h3>"
            "<p>The game is hidden so that neither player sees the other's chits. "
            "Studying alone? Pick <b>Study</b> in <i>Who plays</i>, at the top: no curtains.</p>"
        )
        self.curtain_button.description = f"I am the {side.adjective} player: show the game"
        self.curtain.layout.display = "flex"
        self.body.layout.display = "none"

    # -- for scripts ---------------------------------------------------------------------------
    def click_hex(self, label: str) -> Feedback:
        return self.board.click_hex(Hex.from_label(label))
