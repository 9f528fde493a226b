"""The game's controls: who plays (hot-seat or a bot on either side), Save and Load (Load lists
the game saves next to the save path and asks before it replaces the game on the map), in the
app's top bar (:attr:`GamePanel.bar`); the file to save to and a new game with the optional rules
ticked, in the Game panel."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from cheren.app import panels
from cheren.app.hidden_info import SEATINGS
from cheren.app.widgets import button, panel
from cheren.engine.game import Game
from cheren.scenario.models import Side
from cheren.study.map_intents import Feedback

if TYPE_CHECKING:
    from cheren.app.board import Board


class GamePanel:
    def __init__(self, board: Board, save_path: str | Path, bot: Any = None) -> None:
        import ipywidgets as w

        self.board = b = board
        self._bot = bot
        self._bots: dict[str, Any] = {}
        self._quiet = False
        self.mode = w.Dropdown(description="Who plays", layout=w.Layout(width="460px"),
                               style={"description_width": "70px"})
        self.mode.add_class("cheren-seating")
        self.mode.add_class("cheren-mode")
        self._set_modes()
        self.mode.observe(self._mode_changed, "value")
        self.path = w.Text(value=str(save_path), description="File", layout=w.Layout(width="300px"))
        self.path.add_class("cheren-save-path")
        self.save_list = w.Dropdown(layout=w.Layout(width="200px"), tooltip="The saved games next to the save file")
        self.save_list.add_class("cheren-save-list")
        self.confirm_text = w.HTML()
        self.confirm = w.VBox([
            self.confirm_text,
            w.HBox([
                button("Yes, load it", "cheren-load-yes", lambda: self.confirm_load(True), style="danger"),
                button("No, keep this game", "cheren-load-no", lambda: self.confirm_load(False)),
            ]),
        ])
        self.confirm.add_class("cheren-load-confirm")
        self.confirm.layout.display = "none"
        from cheren.scenario.variants import VARIANTS

        self.variant_boxes = {}
        for name, v in VARIANTS.items():
            box = w.Checkbox(value=name in b.scenario.variants, description=v.title, indent=False,
                             tooltip=v.summary, layout=w.Layout(width="auto"))
            box.add_class(f"cheren-variant-{name}")
            self.variant_boxes[name] = box
        self._save_dir = Path(save_path).parent
        self._pending_load: Path | None = None
        # the controls a player reaches for (who plays, Save, Load) go in the app's top bar; the
        # rest (the file to save to, the optional rules, a new game) in the Game panel
        self.bar = w.HBox([
            self.mode, button("Save", "cheren-save", self.save, tooltip="Save to the file named in the Game panel"),
            self.save_list, button("↻", "cheren-save-refresh", self.list_saves, tooltip="List the saves again"),
            button("Load…", "cheren-load", self.ask_load),
        ], layout=w.Layout(align_items="center", flex_flow="row wrap"))
        self.bar.add_class("cheren-game-bar")
        self.panel = panel("Game", [
            self.path,
            w.HTML("<small>Optional rules (cheren variants):</small>"),
            *self.variant_boxes.values(),
            button("New game with these rules", "cheren-new-game", self.new_game),
        ], "cheren-game")
        self.list_saves()

    def new_game(self) -> Feedback:
        """A new game from the set-up with the optional rules ticked (the old one is replaced:
        save it first to keep it)."""
        b = self.board
        chosen = sorted(n for n, box in self.variant_boxes.items() if box.value)
        b.set_game(Game(b.scenario, seed=b.game.seed, variants=chosen))
        b.hidden.show_acting()
        rules = ", ".join(chosen) if chosen else "the standard rules"
        return b.say(Feedback("ok", f"New game with {rules}. {b.play.phase_hint()}"), "game", "selection")

    # -- saving and loading ---------------------------------------------------------------------
    def save(self) -> Feedback:
        fb = self.board.lines.save(self.path.value)
        self.list_saves()
        return fb

    def save_files(self) -> list[Path]:
        """The game saves next to the save path, newest first (the autosave among them)."""
        folder = self._save_dir if str(self._save_dir) else Path(".")
        try:
            files = [f for f in folder.glob("*.json") if f.is_file()]
        except OSError:
            return []
        return sorted(files, key=lambda f: (-f.stat().st_mtime, f.name))

    def list_saves(self) -> None:
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
            self.board.say(Feedback("refused", "No saved game here to load: Save one first."))
            return
        self._pending_load = Path(chosen)
        g = self.board.game
        self.confirm_text.value = (
            f"<div>Replace the game on the map ({panels.esc(g.status())}, {len(g.log)} actions) with "
            f"<b>{panels.esc(self._pending_load.name)}</b>? Save it first if you want to keep it.</div>"
        )
        self.confirm.layout.display = "flex"

    def confirm_load(self, yes: bool) -> Feedback:
        target, self._pending_load = self._pending_load, None
        self.confirm.layout.display = "none"
        if not yes or target is None:
            return self.board.say(Feedback("info", "Kept the game on the map."))
        fb = self.board.lines.load(target)
        self.show_mode()
        return fb

    # -- who plays --------------------------------------------------------------------------------
    def bots(self) -> dict[str, Any]:
        """The opponents on offer: the bot passed in, and the registered :mod:`cheren.players.bots`."""
        from cheren.players.bots import BOTS, make_bot

        found: dict[str, Any] = {}
        if self._bot is not None:
            found[str(getattr(self._bot, "name", getattr(self._bot, "__name__", "bot")))] = self._bot
        for name in sorted(BOTS):
            found.setdefault(name, make_bot(name, self.board.game.seed))
        return found

    def _set_modes(self) -> None:
        options: list[tuple[str, Any]] = [(label, key) for key, label in SEATINGS.items()]
        self._bots = self.bots()
        for name in self._bots:
            for side in (Side.ITALIAN, Side.ALLIED):
                options.append((f"Against the {name} bot: it plays {side.adjective}", (name, side)))
        self.mode.options = options
        self.show_mode()

    def show_mode(self) -> None:
        """The drop-down says who plays now (a position opened for study sets analysis; a reload or
        a Load takes up the bot it names)."""
        b = self.board
        o = b.opponent
        now: Any = b.hidden.seating
        if o.side is not None:
            bots = [v for _, v in self.mode.options if isinstance(v, tuple) and v[1] is o.side]
            now = next((v for v in bots if v[0] == o.name), bots[0] if bots else now)
        if self.mode.value != now:
            self._quiet = True
            try:
                self.mode.value = now
            finally:
                self._quiet = False

    def _mode_changed(self, change: dict[str, Any]) -> None:
        choice = change["new"]
        if self._quiet or choice is None:
            return
        b = self.board
        if isinstance(choice, str):
            b.opponent.set_quietly(None, None)
            b.hidden.set_seating(choice)  # type: ignore[arg-type]
        else:
            name, side = choice
            b.hidden.seating = "hot-seat"
            b.opponent.set(self._bots[name], side, name)
