"""The app's one controller: it owns the study (the lines of play, the current one and the game on
it), the selection and the last message, and tells whoever listens what changed.  There are no
widgets in it, so the whole app can be driven and tested without a browser.

Each feature of the app is a small controller of its own that holds the board and works through
it (the model is lichess's analysis board: one controller owns the tree and the current path,
each feature a controller and a view in its own module, none subclassing the main one):

* ``board.play`` (:mod:`cheren.app.play`): what a click means, moves, phases, undo and redo;
* ``board.decisions`` (:mod:`cheren.app.decisions`): answers to the rules' questions, chits, replacements;
* ``board.combat`` (:mod:`cheren.app.combat_draft`): the attack being lined up and its what-if;
* ``board.overlays`` (:mod:`cheren.app.map_overlays`): what the map shades;
* ``board.lines`` (:mod:`cheren.app.lines`): the lines of play, branching and comparing;
* ``board.moves`` (:mod:`cheren.app.moves`): the move list of the current line, stepping through it;
* ``board.opponent`` (:mod:`cheren.app.opponent`): the bot across the table;
* ``board.hidden`` (:mod:`cheren.app.hidden_info`): analysis or hot-seat, what each side may see;
* ``board.positions`` (:mod:`cheren.app.positions`): opening a position for study;
* ``board.playouts`` (:mod:`cheren.app.playouts`): playing the position out in the background;
* ``board.evaluation`` (:mod:`cheren.app.evaluations`): the learned evaluation, the line's curve, the review.

The small interface the features use: ``game``/``position``/``scenario``, ``say`` (set the
message and tell the listeners), ``notify``, ``changed`` (the game changed: forget what was
computed from it), ``push`` (an action through the gate, then the bot's reply),
``legal_actions``, ``describe`` and the selection (``selected``, ``stack_hex``, ``hover``).
A mode built on top (the lesson mode, a course) subscribes and calls these controllers; it never
subclasses one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cheren.app.combat_draft import CombatDraft
from cheren.app.decisions import Decisions
from cheren.app.evaluations import Evaluations
from cheren.app.hidden_info import HiddenInfo
from cheren.app.lines import Lines
from cheren.app.map_overlays import MapOverlays
from cheren.app.map_scene import MapScene
from cheren.app.moves import Moves
from cheren.app.opponent import Opponent
from cheren.app.play import Play
from cheren.app.playouts import PlayOuts
from cheren.app.positions import Positions
from cheren.engine.actions import Action
from cheren.engine.game import Game
from cheren.engine.position import Position
from cheren.engine.wording import named
from cheren.hexes import Hex
from cheren.render.scene import DEFAULT_HEX_SIZE, Scene
from cheren.scenario.models import Side
from cheren.scenario.sequence import PHASE_RULES, PHASE_TITLES
from cheren.study.map_intents import Feedback
from cheren.study.variations import Study

Listener = Callable[[set[str]], None]


class Board:
    """A game being played or studied, and everything the app shows about it (see the module).

    ``bot``/``bot_side``: an opponent that plays every action of that side after each human
    action.  ``chits``: a hook returning the chits a side may see (hot-seat: its own hand)."""

    def __init__(
        self,
        game: Game,
        *,
        bot: Any = None,
        bot_side: Side | None = None,
        hex_size: float = DEFAULT_HEX_SIZE,
        chits: Callable[[Game, Side], list[str]] | None = None,
    ) -> None:
        self.study = Study(game)  # the lines explored from this game (cheren.study.variations)
        self.hex_size = hex_size
        self.version = 0  # bumps whenever the game changes
        self.feedback = Feedback("info", "Click a unit to see where it can go.")
        self.selected: str | None = None
        self.stack_hex: Hex | None = None
        self.hover: Hex | None = None
        self.last_move: tuple[Hex, ...] = ()
        self.suggestion: tuple[Hex, ...] = ()  # a better choice the review shows (its route, or its target)
        self.move_stack = False
        self.undo_floor = 0  # actions at the start nobody may take back: an exercise's setup
        self._listeners: list[Listener] = []
        self._legal: tuple[int, list[Action]] | None = None
        self.opponent = Opponent(self, bot, bot_side)
        self.hidden = HiddenInfo(self, chits)
        self.overlays = MapOverlays(self)
        self.combat = CombatDraft(self)
        self.decisions = Decisions(self)
        self.play = Play(self)
        self.lines = Lines(self)
        self.moves = Moves(self)
        self.positions = Positions(self)
        self.playouts = PlayOuts(self)
        self.evaluation = Evaluations(self)
        self.map_scene = MapScene(self)

    # -- what every feature works through ---------------------------------------------------------
    @property
    def game(self) -> Game:
        """The game of the current line: play on it and the line grows."""
        return self.study.game

    @property
    def position(self) -> Position:
        return self.study.game.position

    @property
    def scenario(self) -> Any:
        return self.study.game.scenario

    def subscribe(self, fn: Listener) -> None:
        """``fn(changed)`` after every change; ``changed`` holds some of ``game``,
        ``selection``, ``overlays``, ``hover``, ``feedback``."""
        self._listeners.append(fn)

    def notify(self, *what: str) -> None:
        for fn in list(self._listeners):
            fn(set(what))

    def say(self, fb: Feedback, *what: str) -> Feedback:
        """Set the message and tell the listeners, once, what changed with it."""
        self.feedback = fb
        self.notify("feedback", *what)
        return fb

    def changed(self) -> None:
        """The game changed: forget what was computed from it."""
        self.version += 1
        self._legal = None
        self.suggestion = ()

    def legal_actions(self) -> list[Action]:
        if self._legal is None or self._legal[0] != self.version:
            self._legal = (self.version, self.game.legal_actions())
        return self._legal[1]

    def commit(self, action: Action) -> list[str]:
        """An action the gate has allowed (``game.check``) played on the current line, where the board
        stands.  Stepped back along the line (the move list), the line's own next action just steps
        on; anything else starts a new line there, so the rest of the line is kept."""
        study = self.study
        at = len(self.game.log)
        if at < study.length():
            if study.history(study.current)[0][at] == action:
                study.goto(at + 1)
                return list(self.game.log[-1].events)
            line = study.branch(None, at=at)
            self.clear_selection()
            self.map_scene.forget()
            return [f"new line {line.name!r} from {line.parent} after {at} actions", *self.game.push(action)]
        return self.game.push(action)

    def push(self, action: Action) -> list[str]:
        """An action the gate has allowed, on the current line (:meth:`commit`), then the bot's
        reply; the events."""
        events = self.commit(action)
        self.changed()
        return events + self.opponent.reply()

    def name(self, uid: str) -> str:
        return str(self.scenario.units[uid].name)

    def describe(self, action: Action) -> str:
        """An action in words, with unit and chit names instead of ids."""
        return named(action, self.scenario)

    def clear_selection(self) -> None:
        """Nothing selected, no attack lined up, no last move drawn (after the game is replaced)."""
        self.selected = self.stack_hex = self.hover = None
        self.last_move = self.suggestion = ()
        self.combat.clear()

    def set_game(self, game: Game) -> None:
        """Study ``game`` from now on (a new study: its lines start afresh)."""
        self.take_study(Study(game))

    def take_study(self, study: Study) -> None:
        """Study these lines from now on (a loaded save)."""
        self.study = study
        self.undo_floor = 0
        self.positions.record = None
        self.lines.comparison = None
        self.clear_selection()
        self.combat.rolls = []
        self.map_scene.forget()
        self.changed()

    def can_undo(self) -> bool:
        """Whether Undo has something of the player's to take back (never an exercise's setup)."""
        return len(self.game.log) > self.undo_floor and self.game.can_undo()

    # -- what the map widget asks (cheren.app.map.MapController) ------------------------------------
    def scene(self) -> Scene:
        return self.map_scene.scene()

    def click_map(self, x: float, y: float) -> Feedback:
        """A click at scene pixel ``(x, y)`` (what the map widget sends)."""
        h = self.scene().hex_at(x, y)
        if h is None:
            return self.say(Feedback("info", "Off the map."))
        return self.click_hex(h)

    def click_hex(self, h: Hex) -> Feedback:
        return self.play.click_hex(h)

    def set_hover(self, h: Hex | None) -> bool:
        """The hex under the mouse (shows the path the selected unit would take).  Returns
        whether anything changed."""
        if h == self.hover:
            return False
        self.hover = h
        self.notify("hover")
        return True

    def escape(self) -> Feedback:
        return self.play.escape()

    def key(self, name: str) -> Feedback | None:
        """A key pressed on the map: Esc drops the selection; ← → step through the line's moves,
        Home and End go to its ends."""
        if name == "Escape":
            return self.escape()
        if name in ("ArrowLeft", "ArrowRight"):
            return self.moves.step(-1 if name == "ArrowLeft" else 1)
        if name in ("Home", "End"):
            return self.moves.goto(0 if name == "Home" else self.moves.length)
        return None

    # -- what the status bar and the log read --------------------------------------------------------
    def status(self) -> dict[str, Any]:
        g, p = self.game, self.position
        vp = p.allied_vp()
        side = self.opponent.side
        mode = "analysis (both sides)" if self.hidden.seating == "analysis" else "hot-seat"
        return {
            "turn": g.turn,
            "turns": len(self.scenario.info.turns),
            "week": self.scenario.info.turns[g.turn - 1].week_of,
            "phase": PHASE_TITLES[g.phase],
            "rule": PHASE_RULES[g.phase],
            "phasing": g.phasing.adjective,
            "acting": g.acting.adjective,
            "vp": vp,
            "total_vp": self.scenario.total_vp,
            "level": self.scenario.victory_level(vp),
            "pending": g.pending.prompt if g.pending is not None else None,
            "over": g.over,
            "text": g.status(),
            "can_undo": self.can_undo(),
            "can_redo": g.can_redo(),
            "mode": self.opponent.label or (mode if side is None else f"against the bot ({side.adjective} bot)"),
        }

    def log_entries(self, last: int = 40) -> list[tuple[str, list[str]]]:
        """The last log entries, oldest first: a heading (when, who, what) and the events,
        dice rolls included."""
        out: list[tuple[str, list[str]]] = []
        for entry in self.game.log[-last:]:
            m = entry.moment
            head = (
                f"{entry.index}. T{m.turn} {m.side.adjective} {PHASE_TITLES[m.phase]} · "
                f"{entry.side.adjective}: {self.describe(entry.action)}"
            )
            out.append((head, list(entry.events)))
        return out

    def log_lines(self, last: int = 40) -> list[str]:
        """The log as lines, oldest first, events indented under their action."""
        return [line for head, events in self.log_entries(last) for line in (head, *(f"    {e}" for e in events))]
