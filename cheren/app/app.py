"""The notebook app: the map, the phase stepper and the side panels, in one ipywidgets tree.

    from cheren.app import App
    App()                      # a new game of the bundled scenario, hot-seat
    App(game, bot=my_bot, bot_side=Side.ITALIAN)

Every widget callback calls one :class:`~cheren.app.controller.Controller` method; the app only
redraws what the controller says changed.  ``app.controller`` is the whole state, for scripts
and tests."""

from __future__ import annotations

import time
from collections.abc import Collection
from pathlib import Path
from typing import Any

from cheren.app import panels
from cheren.app.analysis_panel import AnalysisPanel
from cheren.app.controller import Bot, Controller, Feedback
from cheren.app.lines_panel import LinesPanel
from cheren.app.map import MapWidget
from cheren.app.rules_panel import RulesPanel
from cheren.engine.game import Game
from cheren.scenario.models import Side

MANY = 8  # more answers than this go into a drop-down list
PANELS = ("stack", "decision", "attack", "bot", "overlays", "analysis", "lines", "chits", "rules", "log", "game")


class App:
    def __init__(
        self,
        game: Game | None = None,
        *,
        seed: int = 1941,
        bot: Bot | None = None,
        bot_side: Side | None = None,
        width: int = 1080,
        height: int = 712,
        save_path: str | Path = "cheren-game.json",
        controller: Controller | None = None,
        show: Collection[str] | None = None,
        autosave: str | Path | None = None,
    ) -> None:
        """``controller``: drive this controller instead of a new one (lesson mode); ``show``:
        show only these side panels (of :data:`PANELS`; default all); ``autosave``: keep the game in
        this file after every change and take it up again from there (a page reload in Voila
        starts the notebook afresh, and finds the game where it was)."""
        import ipywidgets as w

        if controller is None and game is None:
            from cheren import load_scenario

            game = Game(load_scenario(), seed=seed)
        self._bot = bot
        self._bots: dict[str, Any] = {}
        if controller is None:
            assert game is not None
            controller = Controller(game, bot=bot, bot_side=bot_side)
        self.controller = c = controller
        self.map = MapWidget(c, width, height)
        self._w = w

        # -- the bar and the stepper -------------------------------------------------------
        self.status = w.HTML()
        self.status.add_class("cheren-status")
        self.end_button = self._button("End phase ▸", "cheren-end-phase", c.end_phase, style="primary")
        self.undo_button = self._button("↶ Undo", "cheren-undo", c.undo)
        self.redo_button = self._button("↷ Redo", "cheren-redo", c.redo)
        self.feedback = w.HTML()
        self.feedback.add_class("cheren-feedback")
        self.hover_info = w.HTML()
        self.hover_info.add_class("cheren-hover")
        self.hover_info.layout = w.Layout(flex="1 1 auto", margin="0 8px", overflow="hidden")
        toolbar = w.HBox(
            [self.map.toolbar, self.hover_info, self.undo_button, self.redo_button, self.end_button],
            layout=w.Layout(align_items="center", padding="4px 6px"),
        )
        map_box = w.VBox([self.map.widget], layout=w.Layout(width="100%", align_items="center"))
        map_box.add_class("cheren-map-box")
        map_column = w.VBox(
            [toolbar, self.feedback, map_box],
            layout=w.Layout(flex="1 1 auto", min_width="0", width="auto"),
        )

        # -- the side panel ----------------------------------------------------------------
        self.selection = w.HTML()
        self.units = w.VBox(layout=w.Layout(max_height="300px", overflow="auto"))
        self.move_stack = w.Checkbox(value=False, description="move the whole stack", indent=False)
        self.move_stack.add_class("cheren-move-stack")
        self.move_stack.observe(self._toggle_stack, "value")
        self.decision_prompt = w.HTML()
        self.decision_buttons = w.VBox()
        self.decision_panel = self._panel("Decision", [self.decision_prompt, self.decision_buttons], "cheren-decision")
        self.odds = w.HTML()
        self.odds.add_class("cheren-whatif")
        self.air = w.Checkbox(
            value=False, description="air support (11.3)", indent=False, layout=w.Layout(width="150px")
        )
        self.air.observe(lambda change: c.set_air(change["new"]) if change["new"] != c.attack.air else None, "value")
        self.attack_buttons = w.HBox(
            [
                self._button("Roll the attack", "cheren-resolve", c.resolve_attack, style="danger"),
                self._button("Clear", "cheren-clear-attack", lambda: c.set_defender(None)),
                self.air,
            ],
            layout=w.Layout(align_items="center"),
        )
        self.attack_panel = self._panel("Attack · what if", [self.odds, self.attack_buttons], "cheren-attack")
        self.overlay_boxes: dict[str, Any] = {}
        boxes = []
        for key, (label, available) in c.available_overlays().items():
            box = w.Checkbox(
                value=key in c.overlays,
                description=label,
                indent=False,
                disabled=not available,
                layout=w.Layout(width="auto"),
            )
            box.add_class(f"cheren-overlay-{key}")
            box.observe(lambda change, k=key: self._toggle_overlay(k, change["new"]), "value")
            self.overlay_boxes[key] = box
            boxes.append(box)
        overlays = w.GridBox(boxes, layout=w.Layout(grid_template_columns="repeat(2, minmax(0, 1fr))"))
        self.key = w.HTML()
        self.key.add_class("cheren-key-panel")
        self.chits = w.HTML()
        self.chit_plays = w.VBox()
        self.chit_plays.add_class("cheren-chit-plays")
        self.log = w.HTML()
        self.log.add_class("cheren-log-panel")
        self.mode = w.Dropdown(description="Play", layout=w.Layout(width="300px"))
        self._set_modes()
        self.mode.observe(self._mode_changed, "value")
        self.analysis = AnalysisPanel(c)
        self.lines = LinesPanel(c)
        self.bot_list = w.HTML()
        self.bot_list.add_class("cheren-bot-moves")
        self.bot_buttons = w.HBox(
            [
                self._button("◀", "cheren-bot-prev", lambda: c.step_bot((c.bot_step or 0) - 1)),
                self._button("▶", "cheren-bot-next", lambda: c.step_bot(0 if c.bot_step is None else c.bot_step + 1)),
                self._button("All", "cheren-bot-all", lambda: c.step_bot(None)),
            ]
        )
        self.path = w.Text(value=str(save_path), description="File", layout=w.Layout(width="300px"))
        self.path.add_class("cheren-save-path")
        save = self._button("Save", "cheren-save", self.save)
        self.save_list = w.Dropdown(description="Saved", layout=w.Layout(width="240px"))
        self.save_list.add_class("cheren-save-list")
        load = self._button("Load…", "cheren-load", self.ask_load)
        refresh = self._button("↻", "cheren-save-refresh", self._list_saves)
        self.confirm_text = w.HTML()
        self.confirm = w.VBox(
            [
                self.confirm_text,
                w.HBox([
                    self._button("Yes, load it", "cheren-load-yes", lambda: self.confirm_load(True), style="danger"),
                    self._button("No, keep this game", "cheren-load-no", lambda: self.confirm_load(False)),
                ]),
            ]
        )
        self.confirm.add_class("cheren-load-confirm")
        from cheren.scenario.variants import VARIANTS

        self.variant_boxes = {}
        for name, v in VARIANTS.items():
            vb = w.Checkbox(value=name in c.scenario.variants, description=v.title, indent=False,
                            tooltip=v.summary, layout=w.Layout(width="auto"))
            vb.add_class(f"cheren-variant-{name}")
            self.variant_boxes[name] = vb
        new_game = self._button("New game with these rules", "cheren-new-game", self.new_game)
        self.confirm.layout.display = "none"
        self._save_dir = Path(save_path).parent
        self._pending_load: Path | None = None
        self.rules = RulesPanel(c)
        shown = set(PANELS if show is None else show)
        unknown = shown - set(PANELS)
        if unknown:
            raise ValueError(f"unknown panel(s) {', '.join(sorted(unknown))}; known: {', '.join(PANELS)}")
        everything = {
            "stack": self._panel("Selected stack", [self.selection, self.units, self.move_stack], "cheren-stack"),
            "decision": self.decision_panel,
            "attack": self.attack_panel,
            "overlays": self._panel("Overlays", [overlays, self.key], "cheren-overlays"),
            "analysis": self._panel("Analysis", [self.analysis.widget], "cheren-analysis-panel"),
            "lines": self._panel("Lines", [self.lines.widget], "cheren-lines-panel"),
            "bot": self._panel("The bot's last moves", [self.bot_list, self.bot_buttons], "cheren-bot-panel"),
            "chits": self._panel("Chits", [self.chits, self.chit_plays], "cheren-chits"),
            "rules": self._panel("Rules", [self.rules.widget], "cheren-rules-panel"),
            "log": self._panel("Log", [self.log], "cheren-log-box"),
            "game": self._panel(
                "Game",
                [self.mode, w.HBox([self.path, save]), w.HBox([self.save_list, refresh, load]), self.confirm,
                 w.HTML("<small>Optional rules (cheren variants):</small>"), *self.variant_boxes.values(), new_game],
                "cheren-game",
            ),
        }
        side = w.VBox(
            [panel for name, panel in everything.items() if name in shown],
            layout=w.Layout(width="350px", min_width="330px", flex="0 0 350px"),
        )
        side.add_class("cheren-side-panel")
        body = w.HBox([map_column, side], layout=w.Layout(width="100%", align_items="flex-start"))
        body.add_class("cheren-body")
        self.body = body
        self.hint = w.HTML()
        self.hint.add_class("cheren-hint")
        self.curtain_text = w.HTML()
        self.curtain_button = self._button("Show the game", "cheren-reveal", c.reveal, style="primary")
        self.curtain = w.VBox(
            [self.curtain_text, self.curtain_button], layout=w.Layout(padding="40px", align_items="center")
        )
        self.curtain.add_class("cheren-curtain")
        self.widget = w.VBox(
            [w.HTML(panels.CSS), self.status, self.hint, self.curtain, body], layout=w.Layout(width="100%")
        )
        self.widget.add_class("cheren-app")
        self.autosave = Path(autosave) if autosave is not None else None
        if self.autosave is not None:
            self._restore(self.autosave)
        c.subscribe(self._changed)
        self._list_saves()
        self._changed({"game", "selection", "feedback", "overlays"})

    # -- building blocks -------------------------------------------------------------------
    def _button(self, text: str, cls: str, fn: Any, style: str = "") -> Any:
        b = self._w.Button(description=text, button_style=style, layout=self._w.Layout(width="auto"))
        b.add_class(cls)
        b.on_click(lambda _: fn())
        return b

    def _panel(self, title: str, children: list[Any], cls: str) -> Any:
        box = self._w.VBox([self._w.HTML(f"<h4>{panels.esc(title)}</h4>"), *children])
        box.add_class("cheren-panel")
        box.add_class(cls)
        return box

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    def new_game(self) -> Feedback:
        """A new game from the set-up with the optional rules ticked (the old one is replaced:
        save it first to keep it)."""
        c = self.controller
        chosen = sorted(n for n, box in self.variant_boxes.items() if box.value)
        c.set_game(Game(c.scenario, seed=c.game.seed, variants=chosen))
        c._shown_side = c.game.acting
        rules = ", ".join(chosen) if chosen else "the standard rules"
        return c._say(Feedback("ok", f"New game with {rules}. {c.phase_hint()}"), "game", "selection")

    # -- saving, loading, autosave -----------------------------------------------------------
    def save(self) -> Feedback:
        fb = self.controller.save(self.path.value)
        self._list_saves()
        return fb

    def save_files(self) -> list[Path]:
        """The game saves next to the save path, newest first (the autosave among them)."""
        folder = self._save_dir if str(self._save_dir) else Path(".")
        try:
            files = [f for f in folder.glob("*.json") if f.is_file()]
        except OSError:
            return []
        return sorted(files, key=lambda f: (-f.stat().st_mtime, f.name))

    def _list_saves(self) -> None:
        files = self.save_files()
        current = self.save_list.value
        self.save_list.options = [(f.name, str(f)) for f in files]
        values = [str(f) for f in files]
        self.save_list.value = current if current in values else (values[0] if values else None)
        self.save_list.disabled = not files

    def ask_load(self, path: str | Path | None = None) -> None:
        """Load asks first: the game on the map would be replaced."""
        chosen = path if path is not None else self.save_list.value
        if not chosen:
            self.controller._say(Feedback("refused", "No saved game here to load: Save one first."))
            return
        self._pending_load = Path(chosen)
        g = self.controller.game
        self.confirm_text.value = (
            f"<div>Replace the game on the map ({panels.esc(g.status())}, {len(g.log)} actions) with "
            f"<b>{panels.esc(self._pending_load.name)}</b>? Save it first if you want to keep it.</div>"
        )
        self.confirm.layout.display = "flex"

    def confirm_load(self, yes: bool) -> Feedback | None:
        target, self._pending_load = self._pending_load, None
        self.confirm.layout.display = "none"
        if not yes or target is None:
            return self.controller._say(Feedback("info", "Kept the game on the map."))
        return self.controller.load(target)

    def _restore(self, path: Path) -> None:
        c = self.controller
        if not path.exists():
            return
        from cheren.files.position_saves import SaveError
        from cheren.study.game_saves import load_study

        try:
            study = load_study(path, c.scenario)
        except SaveError as exc:
            # never lose it: keep the unreadable file aside and start afresh
            aside = path.with_name(f"{path.stem}.unreadable-{int(time.time())}{path.suffix}")
            path.rename(aside)
            c._say(Feedback("refused", f"The autosaved game could not be read ({exc}); it is kept as {aside.name}."))
            return
        c.set_game(study.game)
        c.study = study
        c._shown_side = study.game.acting.enemy  # whoever reloaded, the hands stay hidden until asked
        c._say(Feedback("ok", f"Took up the game where it was: {study.game.status()} (autosaved in {path.name})."))

    def _autosave(self) -> None:
        if self.autosave is None:
            return
        from cheren.files.outputs import write_output
        from cheren.study.game_saves import dumps_game

        try:
            write_output(self.autosave, dumps_game(self.controller.study))
        except OSError as exc:
            self.controller.feedback = Feedback("refused", f"Autosave to {self.autosave} failed: {exc}")

    # -- callbacks -------------------------------------------------------------------------
    def _toggle_overlay(self, key: str, on: bool) -> None:
        if (key in self.controller.overlays) != on:
            fb = self.controller.set_overlay(key, on)
            if not fb.ok:
                self.overlay_boxes[key].value = False

    def _toggle_stack(self, change: dict[str, Any]) -> None:
        self.controller.move_stack = bool(change["new"])

    def bots(self) -> dict[str, Any]:
        """The opponents on offer: the bot passed in, and the registered :mod:`cheren.players.bots`."""
        found: dict[str, Any] = {}
        if self._bot is not None:
            found[str(getattr(self._bot, "name", getattr(self._bot, "__name__", "bot")))] = self._bot
        from cheren.app.controller import feature_module

        registry = feature_module("cheren.players.bots")
        if registry is not None and hasattr(registry, "make_bot"):
            for name in sorted(getattr(registry, "BOTS", {})):
                found.setdefault(name, registry.make_bot(name, self.controller.game.seed))
        return found

    def _set_modes(self) -> None:
        options: list[tuple[str, Any]] = [("Hot-seat (both sides here)", "hot-seat")]
        self._bots = self.bots()
        for name in self._bots:
            for side in (Side.ITALIAN, Side.ALLIED):
                options.append((f"Against the {name} bot: it plays {side.adjective}", (name, side)))
        self.mode.options = options
        c = self.controller
        current = next((v for _, v in options if v != "hot-seat" and v[1] is c.bot_side), "hot-seat")
        self.mode.value = current
        self.mode.disabled = len(options) == 1
        self.mode.tooltip = "" if self._bots else "No bot yet: pass App(bot=...) to play against one"

    def _mode_changed(self, change: dict[str, Any]) -> None:
        choice = change["new"]
        if choice is None or choice == "hot-seat":
            self.controller.set_bot(None, None)
        else:
            name, side = choice
            self.controller.set_bot(self._bots[name], side)

    # -- redraw ----------------------------------------------------------------------------
    def _changed(self, what: set[str]) -> None:
        c = self.controller
        if what & {"game", "selection", "feedback"}:
            self._curtain()  # first: the page hides the game before it shows what changed
        if "hover" in what:
            h = c.hover
            self.hover_info.value = f"<small>{panels.esc(c.hex_text(h))}</small>" if h is not None else ""
        if what & {"game", "selection"}:
            self._stack()
        if "game" in what:
            self._autosave()
            self.status.value = panels.status_html(c)
            self.undo_button.disabled = not c.game.can_undo()
            self.redo_button.disabled = not c.game.can_redo()
            self.end_button.disabled = c.game.over
            self.log.value = panels.log_html(c)
            self.chits.value = panels.chits_html(c)
            self._chit_plays()
            self._decision()
        if what & {"game", "selection"}:
            self._attack()
        if "overlays" in what:
            for key, box in self.overlay_boxes.items():
                box.value = key in c.overlays
        if what & {"game", "selection", "overlays"}:
            self.key.value = panels.key_html(c)
        if "feedback" in what:
            self.feedback.value = panels.feedback_html(c.feedback)
        if what & {"game", "selection", "feedback"}:
            self.hint.value = f'<div class="cheren-hint-line">{panels.esc(c.phase_hint())}</div>'
        if what & {"game", "overlays"}:
            self._bot_moves()

    def _stack(self) -> None:
        w, c = self._w, self.controller
        self.selection.value = panels.selection_html(c)
        rows = []
        from cheren.scenario.models import Phase

        lining_up = c.game.phase is Phase.COMBAT and c.attack.defender is not None and c.combat_available()
        replaceable = set(c.replaceable()) if c.game.phase is Phase.REINFORCEMENT else set()
        for info in c.stack():
            pick = w.Button(
                description="selected" if info.selected else "select",
                disabled=info.selected,
                layout=w.Layout(width="74px"),
            )
            pick.add_class("cheren-pick")
            pick.on_click(lambda _, uid=info.id: c.select(uid))
            buttons = [pick]
            if info.id in replaceable:
                more = w.Button(
                    description="+1 step", tooltip="Allied replacement (8.3)", layout=w.Layout(width="74px")
                )
                more.add_class("cheren-replace")
                more.on_click(lambda _, uid=info.id: c.replace_step(uid))
                buttons.append(more)
            if lining_up and info.side is c.game.phasing:
                joined = info.id in c.attack.attackers
                toggle = w.Button(
                    description="− attack" if joined else "+ attack",
                    button_style="warning" if joined else "",
                    layout=w.Layout(width="74px"),
                )
                toggle.add_class("cheren-toggle-attacker")
                toggle.on_click(lambda _, uid=info.id: c.toggle_attacker(uid))
                buttons.append(toggle)
            rows.append(
                w.HBox(
                    [w.HTML(panels.unit_html(c, info), layout=w.Layout(flex="1")), w.VBox(buttons)],
                    layout=w.Layout(align_items="center", flex="0 0 auto"),
                )
            )
        self.units.children = rows

    def _curtain(self) -> None:
        """Hot-seat: between the two players' turns, the game is hidden until the next player
        says it is at the screen, so one side's hand is never shown to the other."""
        side = self.controller.curtain
        if side is None:
            self.curtain.layout.display = "none"
            self.body.layout.display = "flex"
            return
        self.curtain_text.value = (
            f"<h3>Hand over to the {panels.esc(side.adjective)} player</h3>"
            "<p>The game is hidden so that neither player sees the other's chits.</p>"
        )
        self.curtain_button.description = f"I am the {side.adjective} player: show the game"
        self.curtain.layout.display = "flex"
        self.body.layout.display = "none"

    def _bot_moves(self) -> None:
        c = self.controller
        rows = []
        for i, m in enumerate(c.bot_moves):
            on = ' class="on"' if c.bot_step == i else ""
            lines = panels.esc(m.reason).replace("\n", "<br>")  # the look-ahead bot's reasons come in lines
            why = f"<br><small>{lines}</small>" if m.reason else ""
            rows.append(f"<li{on}>{panels.esc(m.text)}{why}</li>")
        empty = "<small>The bot has not moved since your last action.</small>" if c.bot is not None else (
            "<small>Hot-seat: no bot.</small>")
        self.bot_list.value = f'<ol class="cheren-bot-list">{"".join(rows)}</ol>' if rows else empty

    def _chit_plays(self) -> None:
        """A row per chit the acting side may play now: its targets by name, and Play."""
        w, c = self._w, self.controller
        rows = []
        for name, options in c.playable_chits().items():
            pick = w.Dropdown(options=options, layout=w.Layout(width="170px"))
            pick.add_class("cheren-chit-target")
            play = w.Button(description=f"Play {name}", button_style="warning", layout=w.Layout(width="auto"))
            play.add_class("cheren-chit-play")
            play.on_click(lambda _, p=pick: c.apply(p.value) if p.value is not None else None)
            rows.append(w.HBox([play, pick], layout=w.Layout(align_items="center")))
        self.chit_plays.children = rows

    def _decision(self) -> None:
        w, c = self._w, self.controller
        d = c.game.pending
        if d is None:
            self.decision_panel.layout.display = "none"
            self.decision_buttons.children = []
            return
        self.decision_panel.layout.display = "flex"
        on_map = " Or click a highlighted hex on the map." if c.hex_choices() else ""
        prompt = d.prompt.removeprefix(f"{d.side.adjective}: ")
        self.decision_prompt.value = (
            f"<div><b>{panels.esc(d.side.adjective)}</b>: {panels.esc(prompt)}"
            f"{panels.rules_badges(d.rules)}{panels.esc(on_map)}</div>"
        )
        options = c.decision_options()
        simple = [(label, a) for label, a in options if not _has_object(a)]
        many = len(options) > MANY
        listed = [o for o in options if not (many and o in simple)]
        children: list[Any] = []
        buttons = simple if many else options
        for label, action in buttons:
            b = w.Button(description=label, tooltip=label, layout=w.Layout(width="auto", max_width="320px"))
            b.add_class("cheren-decision-option")
            b.add_class(f"cheren-answer-{action.kind}")  # lets tests pick an answer by its kind
            b.on_click(lambda _, a=action: c.answer(a))
            children.append(b)
        if many:
            pick = w.Dropdown(
                options=[(label, i) for i, (label, _) in enumerate(listed)], layout=w.Layout(width="240px")
            )
            go = w.Button(description="Do it", button_style="warning", layout=w.Layout(width="70px"))
            go.add_class("cheren-decision-go")
            go.on_click(lambda _: c.answer(listed[pick.value][1]) if pick.value is not None else None)
            children.insert(0, w.HBox([pick, go]))
        self.decision_buttons.children = children

    def _attack(self) -> None:
        c = self.controller
        from cheren.scenario.models import Phase

        combat = c.game.phase is Phase.COMBAT and c.combat_available()
        self.attack_panel.layout.display = "flex" if combat else "none"
        if not combat:
            return
        waiting = c.waiting_attack()
        if waiting is not None and c.attack.defender is None:
            target, attackers, whatif, chits = waiting
            names = ", ".join(c.name(u) for u in attackers)
            plays = "".join(f"<li>{panels.esc(x)}</li>" for x in chits)
            self.odds.value = (
                f'<div class="cheren-waiting"><b>Rolled</b>: {panels.esc(names)} against {target.label}. The die waits '
                f"for the chit window (5.1); a chit played now changes these odds:<ul>{plays}</ul></div>"
                + panels.odds_html(whatif)
            )
        else:
            self.odds.value = panels.attackers_html(c) + panels.odds_html(c.whatif())
        why = c.air_refusal()
        self.air.disabled = why is not None
        self.air.tooltip = f"Not now: {why.reason} (11.3)" if why is not None else "Add the air unit's 1 strength point"
        if self.air.value != c.attack.air:
            self.air.value = c.attack.air

    # -- for scripts -----------------------------------------------------------------------
    def click_hex(self, label: str) -> Feedback:
        from cheren.hexes import Hex

        return self.controller.click_hex(Hex.from_label(label))


def _has_object(action: Any) -> bool:
    from dataclasses import fields

    return any(getattr(action, f.name) not in ("", None, ()) for f in fields(action))
