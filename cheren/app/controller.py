"""The notebook app's brain, with no widgets in it: what a click means, what to show.

Every canvas callback and every button of :class:`cheren.app.app.App` calls one method of
:class:`Controller`; the controller acts only through the game's legality gate
(``legal_actions`` / ``check`` / ``push`` / ``undo`` / ``redo``) and answers with a
:class:`Feedback` (a refusal carries the rule numbers).  It also says what the map should show
(:meth:`Controller.scene`), so the whole app can be driven and tested without a browser.

Rule areas that are still being written are found at run time: combat
(:mod:`cheren.engine.rules.combat`) and supply (:mod:`cheren.engine.rules.supply`) light up their overlays
and panels when their modules exist (:func:`feature`).
"""

from __future__ import annotations

import importlib
import importlib.util
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import ModuleType
from typing import Any, Literal

from cheren.engine.actions import Action, EndPhase, Move, Place, Retreat
from cheren.engine.game import Game
from cheren.engine.position import Position
from cheren.engine.rules.movement import explain_move
from cheren.engine.wording import hex_text, mp_text, rules_cited
from cheren.hexes import Hex, line
from cheren.render.geometry import hex_polygon, route_polyline
from cheren.render.primitives import Circle, Item, Polygon, Polyline, Style, Text
from cheren.render.scene import DEFAULT_HEX_SIZE, Scene, build_scene
from cheren.scenario.models import Phase, Side
from cheren.scenario.sequence import PHASE_RULES, PHASE_TITLES
from cheren.study.overlays import Overlay

Bot = Callable[[Game], Action]
Kind = Literal["ok", "refused", "info"]

__all__ = ["OVERLAYS", "Bot", "Controller", "Feedback", "UnitInfo", "as_bot", "feature", "pass_bot"]


# -- optional rule areas -------------------------------------------------------------------
def feature(name: str) -> ModuleType | None:
    """The module ``cheren.engine.rules.<name>`` if it exists in this tree, else None (never raises
    for a missing module: the app works without it and hides what needs it)."""
    return feature_module(f"cheren.engine.rules.{name}")


def feature_module(module: str) -> ModuleType | None:
    """Any optional module by its dotted name, or None when it is not there."""
    try:
        if importlib.util.find_spec(module) is None:
            return None
    except (ImportError, ValueError):
        return None
    return importlib.import_module(module)


def as_bot(bot: Any, side: Side) -> Bot:
    """A ``Callable[[Game], Action]`` from either such a callable or a :mod:`cheren.players.bots` bot
    (an object with ``choose(seat) -> Choice``, which sees only its side's view)."""
    if not hasattr(bot, "choose"):
        return bot  # type: ignore[no-any-return]
    from cheren.players.views import SideSeat

    def play(game: Game) -> Action:
        choice = bot.choose(SideSeat(game, side))
        play.reason = str(getattr(choice, "reason", ""))  # type: ignore[attr-defined]
        return choice.action  # type: ignore[no-any-return]

    play.__name__ = str(getattr(bot, "name", "bot"))
    return play


def pass_bot(game: Game) -> Action:
    """A stand-in opponent until the real bots exist: it answers a pending decision with its
    first legal answer and otherwise ends the phase.  Any ``Callable[[Game], Action]`` works."""
    actions = game.legal_actions()
    if game.pending is not None:
        return actions[0]
    return next((a for a in actions if isinstance(a, EndPhase)), actions[0])


# -- what the controller answers -------------------------------------------------------------
@dataclass(frozen=True)
class Feedback:
    """The outcome of a click or a button: ``ok`` (something happened, ``events`` says what),
    ``refused`` (nothing changed; ``rules`` are the rule numbers of the reason) or ``info``."""

    kind: Kind
    text: str
    rules: tuple[str, ...] = ()
    events: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.kind != "refused"

    def __str__(self) -> str:
        """The text, with the rule numbers of a refusal when the text does not name them."""
        missing = [r for r in self.rules if r not in self.text]
        if self.kind == "refused" and missing:
            return f"{self.text} (rule {', '.join(self.rules)})"
        return self.text


@dataclass(frozen=True)
class UnitInfo:
    """One counter of a stack as the side panel lists it."""

    id: str
    name: str
    side: Side
    type: str
    sp: int
    mp: int
    steps_left: int
    steps: int
    markers: tuple[str, ...]
    selected: bool
    can_move: bool


#: The overlays the user can switch: key -> label.  ``needs`` says which rule module they need.
OVERLAYS: dict[str, str] = {
    "reach": "Movement reach",
    "zoc-allied": "Allied ZoC",
    "zoc-italian": "Italian ZoC",
    "supply-unit": "Unit's supply line",
    "supply-allied": "Allied supply map",
    "supply-italian": "Italian supply map",
    "control": "Town control & VP",
    "garrisons": "Garrison areas",
    "markers": "Low/No supply",
    "edges": "Af Abed edge (12.2)",
    "threats": "Enemy threats next turn",
    "line-diff": "Where two lines differ",
}
NEEDS: dict[str, str] = {"supply-unit": "supply", "supply-allied": "supply", "supply-italian": "supply"}
DEFAULT_OVERLAYS = frozenset({"reach", "supply-unit"})

SELECT = "#ffd21f"
ATTACK = "#ff7a1a"
TARGET = "#d0201a"
CHOICE = "#e8791d"
PATH = "#1d4fa0"
LAST = "#6b5a3c"


@dataclass(frozen=True)
class BotMove:
    """One action the bot took after the human's last one, with the reason it gives."""

    text: str
    reason: str
    path: tuple[Hex, ...] = ()


@dataclass
class AttackDraft:
    """An attack being lined up in the Combat phase: attackers and a defending hex."""

    attackers: list[str] = field(default_factory=list)
    defender: Hex | None = None
    air: bool = False


class Controller:
    """The game plus what the user has selected and switched on.

    ``bot``/``bot_side``: an opponent that plays every action of that side (including its
    decisions) after each human action.  ``chits``: a hook returning the chits a side may see
    (hot-seat: its own hand); without it only the counts are shown."""

    def __init__(
        self,
        game: Game,
        *,
        bot: Bot | None = None,
        bot_side: Side | None = None,
        hex_size: float = DEFAULT_HEX_SIZE,
        chits: Callable[[Game, Side], list[str]] | None = None,
    ) -> None:
        from cheren.study.variations import Study

        self.game = game
        self.study = Study(game)  # the lines explored from this game (cheren.study.variations)
        self.comparison: Any = None  # the last two lines compared, drawn while "line-diff" is on
        self.bot: Bot | None = None
        self.bot_side: Side | None = None
        if bot is not None and bot_side is not None:
            self.bot, self.bot_side = as_bot(bot, bot_side), bot_side
        self.hex_size = hex_size
        self.chits_hook = chits
        self.bot_moves: list[BotMove] = []  # what the bot did after the human's last action
        self.bot_step: int | None = None  # the bot move picked out on the map
        self.curtains = True  # hot-seat: hide one side's hand from the other between turns
        self._shown_side: Side = game.acting
        self.selected: str | None = None
        self.stack_hex: Hex | None = None
        self.hover: Hex | None = None
        self.move_stack = False
        self.overlays: set[str] = set(DEFAULT_OVERLAYS)
        self.attack = AttackDraft()
        self.rolled: tuple[Hex, tuple[str, ...], Any] | None = None  # the attack last rolled, with its what-if
        self.last_move: tuple[Hex, ...] = ()
        self.feedback = Feedback("info", "Click a unit to see where it can go.")
        self.version = 0  # bumps whenever the game changes
        self._warned_at = -1  # the game version at which the stacking warning was last shown
        self._listeners: list[Callable[[set[str]], None]] = []
        self._legal: tuple[int, list[Action]] | None = None
        self._scene_key: tuple[Any, ...] | None = None
        self._scene: Scene | None = None
        self._overlays: tuple[Any, list[Overlay]] | None = None

    # -- plumbing ----------------------------------------------------------------------------
    @property
    def position(self) -> Position:
        return self.game.position

    @property
    def scenario(self) -> Any:
        return self.game.scenario

    def subscribe(self, fn: Callable[[set[str]], None]) -> None:
        """``fn(changed)`` after every change; ``changed`` holds some of ``game``,
        ``selection``, ``overlays``, ``hover``, ``feedback``."""
        self._listeners.append(fn)

    def _bump(self) -> None:
        """The game changed: forget what was computed from it."""
        self.version += 1
        self._warned_at = -1
        self._legal = None

    def _notify(self, *what: str) -> None:
        for fn in self._listeners:
            fn(set(what))

    def _say(self, fb: Feedback, *what: str) -> Feedback:
        """Set the feedback and tell the listeners once what changed."""
        self.feedback = fb
        self._notify("feedback", *what)
        return fb

    def legal_actions(self) -> list[Action]:
        if self._legal is None or self._legal[0] != self.version:
            self._legal = (self.version, self.game.legal_actions())
        return self._legal[1]

    def name(self, uid: str) -> str:
        return str(self.scenario.units[uid].name)

    def describe(self, action: Action) -> str:
        """An action in words, with unit names instead of ids."""
        text = action.describe()
        chit = getattr(action, "chit", None)
        if isinstance(chit, str) and chit:
            # chits by name, never by their instance ids ("roadblock.2")
            from cheren.engine.position import chit_key

            found = self.scenario.chits.get(chit_key(chit))
            if found is not None:
                text = text.replace(chit, found.name, 1)
        ids = sorted(self.scenario.units, key=len, reverse=True)
        pattern = re.compile(r"\b(" + "|".join(re.escape(u) for u in ids) + r")\b")
        return pattern.sub(lambda m: self.name(m.group(1)), text)

    # -- status ------------------------------------------------------------------------------
    def status(self) -> dict[str, Any]:
        g, p = self.game, self.position
        vp = p.allied_vp()
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
            "can_undo": g.can_undo(),
            "can_redo": g.can_redo(),
            "mode": "hot-seat" if self.bot_side is None else f"against the bot ({self.bot_side.adjective} bot)",
        }

    def chit_counts(self) -> dict[Side, int]:
        return {side: len(hand) for side, hand in self.position.chits.hands.items()}

    def chits_visible(self, side: Side) -> list[str] | None:
        """The names of the chits in ``side``'s hand, from the ``chits`` hook or the side's view
        (:mod:`cheren.players.views`, rule 5.0); None when neither exists (only counts are shown).  The
        app shows them only to the side acting now (hot-seat)."""
        if self.chits_hook is not None:
            return self.chits_hook(self.game, side)
        views = feature_module("cheren.players.views")
        if views is None or not hasattr(views, "chit_view"):
            return None
        from cheren.engine.position import chit_key

        names = []
        for instance in views.chit_view(self.position, side).hand:
            chit = self.scenario.chits.get(chit_key(instance))
            names.append(f"{chit.name}{' ★' if chit.one_time else ''}" if chit is not None else instance)
        return names

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

    # -- the selection -----------------------------------------------------------------------
    def legal_moves(self, uid: str) -> dict[Hex, Move]:
        """The legal moves of a unit now, by destination (cheapest path)."""
        return {a.to: a for a in self.legal_actions() if isinstance(a, Move) and a.unit == uid}

    def stack(self, h: Hex | None = None) -> list[UnitInfo]:
        """The counters in a hex (default: the selected stack), top of the stack first."""
        where = h if h is not None else self.stack_hex
        if where is None:
            return []
        p = self.position
        ids = sorted(p.units_at(where), key=lambda u: (p.strength(u), self.scenario.units[u].stack, u), reverse=True)
        out = []
        for uid in ids:
            d = self.scenario.units[uid]
            u = p.units[uid]
            markers = []
            if u.supply is not None:
                markers.append(f"{u.supply.value.title()} supply")
            if u.defected:
                markers.append("defected")
            if d.garrison is not None and not u.defected:
                area = self.scenario.garrison_areas[d.garrison].name
                markers.append(f"{area} garrison" + (" (released)" if d.garrison in p.released else " (held)"))
            if self.game.has_moved(uid):
                markers.append("moved")
            if u.steps_lost:
                markers.append("reduced")
            out.append(
                UnitInfo(
                    uid,
                    d.name,
                    u.side,
                    d.type.name,
                    p.strength(uid),
                    p.movement(uid),
                    p.steps_left(uid),
                    d.steps,
                    tuple(markers),
                    uid == self.selected,
                    bool(self.legal_moves(uid)),
                )
            )
        return out

    def select(self, uid: str | None) -> Feedback:
        """Select a unit (None: clear the selection).  Says where it can go, or why it cannot
        move now, with the rule."""
        if uid is None:
            self.selected, self.stack_hex = None, None
            return self._say(Feedback("info", "Nothing selected."), "selection")
        if uid not in self.position.units:
            return self._say(Feedback("refused", f"there is no unit {uid!r}", ("2.3",)))
        unit = self.position.units[uid]
        self.selected = uid
        self.stack_hex = unit.hex
        name = self.name(uid)
        if unit.hex is None:
            return self._say(Feedback("info", f"{name} is not on the map ({unit.status.value})."), "selection")
        moves = self.legal_moves(uid)
        if moves:
            mp = self.game.reach(uid).mp
            text = f"{name} ({unit.hex.label}): {mp_text(mp)} MP, {len(moves)} hexes in reach. Click one to move there."
            return self._say(Feedback("info", text), "selection")
        if unit.side is not self.game.acting:
            reach = self.next_reach(uid)
            text = (f"{name} ({unit.side.adjective}, {unit.hex.label}): in its next Movement phase it can reach "
                    f"{len(reach)} hexes (shaded); its supply line is drawn.")
            return self._say(Feedback("info", text), "selection")
        from cheren.scenario.models import Phase

        why = self.why_immobile(uid)
        text = f"{name} ({unit.hex.label}) cannot move now: {why.reason} (rule {', '.join(why.rules)})"
        if self.game.phase not in (Phase.MOVEMENT, Phase.REACTION, Phase.EXPLOITATION):
            text += f". {self.phase_hint()}"
        return self._say(Feedback("info", text, why.rules), "selection")

    def next_reach(self, uid: str) -> dict[Hex, Any]:
        """Where a unit not acting now could end a move in its side's next Movement phase (full
        movement points, the map as it stands): what a player asks of an enemy stack."""
        from cheren.engine.rules.movement import reachable

        reach = reachable(self.position, uid).reach
        start = self.position.units[uid].hex
        return {h: r for h, r in reach.items() if h != start}

    def why_immobile(self, uid: str) -> Any:
        """The refusal a move of this unit gets now, whatever the hex (a Refusal)."""
        from cheren.engine.registry import Refusal

        unit = self.position.units[uid]
        assert unit.hex is not None
        refusals = []
        for n in unit.hex.neighbours():
            if n not in self.scenario.playable:
                continue
            verdict = self.game.check(Move(uid, (n,)))
            if verdict.refusal is not None:
                refusals.append(verdict.refusal)
        if refusals and all(r == refusals[0] for r in refusals):
            return refusals[0]
        if refusals:
            return Refusal(refusals[0].rules, f"no hex is within its reach: {refusals[0].reason}")
        return Refusal(("9.0",), "no legal move")

    # -- clicks ------------------------------------------------------------------------------
    def click_map(self, x: float, y: float) -> Feedback:
        """A click at scene pixel ``(x, y)`` (what the map widget sends)."""
        h = self.scene().hex_at(x, y)
        if h is None:
            return self._say(Feedback("info", "Off the map."))
        return self.click_hex(h)

    def click_hex(self, h: Hex) -> Feedback:
        """What a click on hex ``h`` means now: answer a decision, line up an attack, move the
        selected unit, or select the units there."""
        g, p = self.game, self.position
        if g.over:
            return self._say(Feedback("info", g.status()))
        d = g.pending
        if d is not None:
            choices = self.hex_choices()
            if h in choices:
                return self.answer(choices[h])
            if p.units_at(h):
                self._select_in(h)
            why = self._why_not_retreat(h)
            if why is not None:
                return self._say(why, "selection")
            text = f"{d.side.adjective} must first decide: {d.prompt} (rule {', '.join(d.rules)})"
            return self._say(Feedback("refused", text, d.rules), "selection")
        if g.phase is Phase.COMBAT and feature("combat") is not None:
            return self._combat_click(h)
        here = p.units[self.selected].hex if self.selected is not None else None
        if self.selected is not None and h != here:
            if h in self.legal_moves(self.selected):
                return self.move_to(h)
            if p.units_at(h):  # any stack, the enemy's too: look at it
                return self._select_in(h)
            # only highlighted hexes are moves: this click deselects, saying why the unit could not go
            why = self.why_not_there(self.selected, h)
            self.selected, self.stack_hex = None, None
            return self._say(why, "selection")
        if self.selected is not None and h == here:
            ids = [u.id for u in self.stack(h)]
            if len(ids) > 1:
                return self.select(ids[(ids.index(self.selected) + 1) % len(ids)])
            return self.select(None)
        if p.units_at(h):
            return self._select_in(h)
        self.stack_hex = None
        return self._say(Feedback("info", self.hex_text(h)), "selection")

    def _why_not_retreat(self, h: Hex) -> Feedback | None:
        """A click on a neighbour the retreat may not go to: why not, in the words of 11.7."""
        from cheren.engine.rules.retreat import PRIORITY_TEXT, retreat_options

        d = self.game.pending
        origin = d.hex if d is not None else None
        if d is None or origin is None or not any(isinstance(a, Retreat) for _, a in self.decision_options()):
            return None
        if h not in origin.neighbours():
            return None
        units = [u for u in d.units if self.position.units[u].hex == origin]
        options = retreat_options(self.position, units, origin)
        who = ", ".join(self.name(u) for u in units) or "the stack"
        if h in options.refused:
            return Feedback("refused", f"{who} may not retreat to {h.label}: {options.refused[h]}", ("11.7",))
        if options.priority is None:
            return None
        where = ", ".join(x.label for x in options.hexes)
        return Feedback(
            "refused",
            f"{who} may not retreat to {h.label} while {PRIORITY_TEXT[options.priority]} is free: {where}",
            ("11.7",),
        )

    def why_not_there(self, uid: str, h: Hex) -> Feedback:
        """Why ``uid`` cannot move to ``h`` now (nothing is moved), with the rule."""
        unit = self.position.units[uid]
        if unit.side is not self.game.acting:
            return Feedback("info", f"{self.name(uid)} is not yours to move now. {self.hex_text(h)}")
        assert unit.hex is not None
        path = tuple(line(unit.hex, h)[1:]) or (h,)
        verdict = self.game.check(Move(uid, path))
        if verdict.refusal is not None:
            r = verdict.refusal
            return Feedback("refused", f"{self.name(uid)} cannot go to {hex_text(h)}: {r.reason}", r.rules)
        why = explain_move(self.position, uid, h, self.game.move_options(uid))
        return Feedback("refused", why, rules_cited(why))

    def escape(self) -> Feedback:
        """Esc: drop the selection and the attack being lined up."""
        self.attack = AttackDraft()
        self.selected, self.stack_hex = None, None
        return self._say(Feedback("info", "Nothing selected. " + self.phase_hint()), "selection")

    def phase_hint(self) -> str:
        """What to do now, in one line: the pending decision, or the phase's own task."""
        from cheren.scenario.models import Phase

        g = self.game
        if g.over:
            return g.status()
        d = g.pending
        if d is not None:
            prompt = d.prompt.removeprefix(f"{d.side.adjective}: ")
            return f"{d.side.adjective} to decide: {prompt} ({', '.join(d.rules)})."
        who = g.acting.adjective
        if g.phase is Phase.REINFORCEMENT:
            extra = (" This is a replacement turn: select a unit that lost a step and press +1 step (8.3)."
                     if self.replaceable() else "")
            return f"{who} Reinforcement phase: arrivals are placed at their towns (8.0).{extra} Then End phase."
        if g.phase is Phase.MOVEMENT:
            return f"{who} Movement: click a unit, then one of its highlighted hexes (9.0). End phase when done."
        if g.phase is Phase.REACTION:
            return (f"{who} reaction: move units worth up to 3 stacking value, none next to an enemy unit (10.0), "
                    "or End phase.")
        if g.phase is Phase.COMBAT:
            return (f"{who} Combat: click an enemy hex next to your units, then your stacks to add them, "
                    "then Roll the attack (11.0). End phase when done.")
        if g.phase is Phase.SUPPLY:
            return f"{who} Supply check: End phase traces supply for every {who} unit (12.0)."
        return f"{who} Exploitation: cavalry, tanks and motorized units may move again (13.0). End phase when done."

    def _select_in(self, h: Hex) -> Feedback:
        """Select the best unit of a stack: a unit that can move now, else the top counter."""
        stack = self.stack(h)
        movable = [u for u in stack if u.can_move]
        return self.select((movable or stack)[0].id)

    def hex_text(self, h: Hex) -> str:
        info = self.scenario.hexes.get(h)
        if info is None:
            return "Off the map."
        parts = [f"{h.label}: {info.terrain_names}"]
        if not info.playable:
            return parts[0] + " (not playable, 1.1)"
        if info.move_cost is not None:
            parts.append(f"costs {info.move_cost:g} MP")
        if info.town is not None:
            owner = self.position.controller(info.town.name).adjective
            parts.append(f"{info.town.name}, {info.town.vp} VP, {owner} control")
        if info.village is not None:
            parts.append(f"native village {info.village.name}")
        if info.area is not None:
            parts.append(f"{self.scenario.garrison_areas[info.area].name} garrison area")
        return ", ".join(parts) + "."

    def set_hover(self, h: Hex | None) -> bool:
        """The hex under the mouse (shows the path the selected unit would take).  Returns
        whether anything changed."""
        if h == self.hover:
            return False
        self.hover = h
        self._notify("hover")
        return True

    # -- moving ------------------------------------------------------------------------------
    def move_to(self, h: Hex) -> Feedback:
        """Move the selected unit (or, with ``move_stack``, every unit of its stack that can)
        to ``h`` along the shown path; refuse with the rule otherwise."""
        uid = self.selected
        if uid is None:
            return self._say(Feedback("refused", "Select a unit first, then click where it should go.", ("9.0",)))
        moves = self.legal_moves(uid)
        if h not in moves:
            unit = self.position.units[uid]
            assert unit.hex is not None
            path = tuple(line(unit.hex, h)[1:]) or (h,)
            verdict = self.game.check(Move(uid, path))
            if verdict.refusal is not None:
                r = verdict.refusal
                text = f"{self.name(uid)} cannot go to {hex_text(h)}: {r.reason}"
                return self._say(Feedback("refused", text, r.rules))
            why = explain_move(self.position, uid, h, self.game.move_options(uid))
            return self._say(Feedback("refused", why, rules_cited(why)))
        movers = [uid]
        if self.move_stack and self.stack_hex is not None:
            movers += [u.id for u in self.stack(self.stack_hex) if u.id != uid and h in self.legal_moves(u.id)]
        events: list[str] = []
        start = self.position.units[uid].hex
        path = moves[h].path
        for mover in movers:
            move = self.legal_moves(mover).get(h)
            if move is None:
                continue
            events += self.game.push(move)
            self._bump()
        self.last_move = (start, *path) if start is not None else path
        self.stack_hex = h
        events += self._after_human()
        return self._say(Feedback("ok", "; ".join(events[:3]) or "moved", events=tuple(events)), "game", "selection")

    # -- the phase stepper -------------------------------------------------------------------
    def end_phase(self) -> Feedback:
        verdict = self.game.check(EndPhase())
        if verdict.refusal is not None:
            r = verdict.refusal
            return self._say(Feedback("refused", f"The phase cannot end yet: {r.reason}", r.rules))
        warning = self._stacking_warning()
        if warning is not None and self._warned_at != self.version:
            # 3.1 costs steps at the end of the phase: say so once before doing it
            self._warned_at = self.version
            return self._say(Feedback("info", warning, ("3.1",)))
        events = self.game.push(EndPhase())
        self.attack = AttackDraft()
        self.last_move = ()
        self._bump()
        events += self._after_human()
        return self._say(Feedback("ok", self.game.status(), events=tuple(events)), "game", "selection")

    def _stacking_warning(self) -> str | None:
        from cheren.engine.rules.stacking import overstacked
        from cheren.scenario.models import Phase

        if self.game.phase is Phase.REINFORCEMENT:
            return None  # 3.1: not checked at the end of this phase
        mine = [(h, over) for h, side, over in overstacked(self.position) if side is self.game.acting]
        if not mine:
            return None
        where = ", ".join(f"{h.label} (+{over})" for h, over in mine)
        return (
            f"Over the stacking limit in {where}: ending the phase now means removing steps until each "
            "stack fits (3.1). Move units apart, or click End phase again to go on."
        )

    def undo(self) -> Feedback:
        start = self.study.branch_point(self.study.current)
        if len(self.game.log) <= start and self.study.lines[self.study.current].parent is not None:
            parent = self.study.lines[self.study.current].parent
            return self._say(Feedback("refused", f"This line starts here (it branched from {parent} after {start} "
                                                 f"actions): switch to {parent} to go further back."))
        if not self.game.can_undo():
            return self._say(Feedback("refused", "Nothing to undo."))
        undone = [self.game.undo()]
        while self.bot_side is not None and self.game.acting is self.bot_side and self.game.can_undo():
            undone.append(self.game.undo())  # take back the bot's reply too
        self.attack = AttackDraft()
        self.last_move = ()
        self._bump()
        text = "Undid: " + "; ".join(self.describe(a) for a in undone)
        return self._say(Feedback("ok", text), "game", "selection")

    def redo(self) -> Feedback:
        if not self.game.can_redo():
            return self._say(Feedback("refused", "Nothing to redo."))
        action = self.game.redo()
        self._bump()
        return self._say(Feedback("ok", "Redid: " + self.describe(action)), "game", "selection")

    # -- decisions ---------------------------------------------------------------------------
    def decision_options(self) -> list[tuple[str, Action]]:
        """The legal answers to the pending decision, as (label, action)."""
        if self.game.pending is None:
            return []
        return [(self.describe(a), a) for a in self.legal_actions()]

    def hex_choices(self) -> dict[Hex, Action]:
        """Answers to the pending decision that are a hex on the map (retreat, placement)."""
        out: dict[Hex, Action] = {}
        for _, a in self.decision_options():
            if isinstance(a, Retreat):
                out[a.to] = a
            elif isinstance(a, Place):
                out[a.hex] = a
            else:
                h = _hex_field(a)
                if h is not None:
                    out.setdefault(h, a)
        return out

    def answer(self, choice: Action | int) -> Feedback:
        """Answer the pending decision with one of :meth:`decision_options` (or its index)."""
        options = self.decision_options()
        action = options[choice][1] if isinstance(choice, int) else choice
        return self._push(action, lead_with_roll=True)

    def apply(self, action: Action) -> Feedback:
        """Any action, through the gate (what a button for an action type the app does not
        know yet calls)."""
        return self._push(action)

    def _push(self, action: Action, *, lead_with_roll: bool = False) -> Feedback:
        verdict = self.game.check(action)
        if verdict.refusal is not None:
            r = verdict.refusal
            return self._say(Feedback("refused", r.reason, r.rules))
        events = self.game.push(action)
        self._bump()
        events += self._after_human()
        # an answer that rolls the die (a retreat choice, a chit window) reports the roll first
        roll = next((e for e in events if e.startswith("die ")), None) if lead_with_roll else None
        text = roll or "; ".join(events[:3]) or self.describe(action)
        return self._say(Feedback("ok", text, events=tuple(events)), "game")

    # -- chits and replacements outside a decision ----------------------------------------------
    def playable_chits(self) -> dict[str, list[tuple[str, Action]]]:
        """The chits the acting side may play now on its own initiative (5.1), by name, each
        with its legal targets as (label, action)."""
        if self.game.pending is not None:
            return {}
        out: dict[str, list[tuple[str, Action]]] = {}
        for action in self.legal_actions():
            chit = getattr(action, "chit", None)
            if action.kind != "play_chit" or not isinstance(chit, str):
                continue
            from cheren.engine.position import chit_key

            found = self.scenario.chits.get(chit_key(chit))
            name = found.name if found is not None else chit
            target = getattr(action, "unit", "") or getattr(action, "target", "")
            label = self.name(target) if target in self.scenario.units else (target or "no target needed")
            out.setdefault(name, []).append((label, action))
        return out

    def chit_targets(self) -> dict[Hex, str | None]:
        """In a chit window: the hexes its chits aim at (a hex, both sides of a hexside, a unit's
        hex), each labelled with the chit's initial."""
        from cheren.engine.position import chit_key

        d = self.game.pending
        if d is None or d.kind != "chit_window":
            return {}  # chits played on one's own initiative name their targets in the Chits panel
        plays = [a for _, a in self.decision_options()]
        out: dict[Hex, str | None] = {}
        for action in plays:
            chit = getattr(action, "chit", None)
            if action.kind != "play_chit" or not isinstance(chit, str):
                continue
            found = self.scenario.chits.get(chit_key(chit))
            mark = found.name[:1] if found is not None else "?"
            hexes: list[Hex] = []
            target = str(getattr(action, "target", "") or "")
            for part in target.replace("-", "/").split("/"):
                if len(part) == 4 and part.isdigit():
                    hexes.append(Hex.from_label(part))
            unit = str(getattr(action, "unit", "") or "")
            if unit in self.position.units and self.position.units[unit].hex is not None:
                hexes.append(self.position.units[unit].hex)  # type: ignore[arg-type]
            for h in hexes:
                out[h] = mark if out.get(h) in (None, mark) else "*"
        return out

    def replaceable(self) -> list[str]:
        """Units that may take back a lost step now (8.3)."""
        return [str(getattr(a, "unit", "")) for a in self.legal_actions() if a.kind == "replace"]

    def replace_step(self, uid: str) -> Feedback:
        """The Allied replacement of 8.3 on ``uid``, through the gate."""
        from cheren.engine.actions import Replace

        return self._push(Replace(uid))

    # -- the bot -----------------------------------------------------------------------------
    def set_bot(self, bot: Any, side: Side | None) -> Feedback:
        """Play against ``bot`` (a ``Callable[[Game], Action]`` or a :mod:`cheren.players.bots` bot) on
        ``side``; None for hot-seat.  The bot moves at once if it is its turn."""
        if bot is not None and side is not None:
            self.bot, self.bot_side = as_bot(bot, side), side
        else:
            self.bot, self.bot_side = None, None
        events = self._after_human()
        mode = "hot-seat" if self.bot is None else f"the bot plays the {side.adjective if side else ''} side"
        return self._say(Feedback("info", f"Mode: {mode}.", events=tuple(events)), "game")

    def _after_human(self, limit: int = 2000) -> list[str]:
        """Let the bot play while it is the acting side; keep what it did, with its reasons."""
        events: list[str] = []
        if self.bot is None or self.bot_side is None:
            return events
        self.bot_moves, self.bot_step = [], None
        n = 0
        while not self.game.over and self.game.acting is self.bot_side and n < limit:
            action = self.bot(self.game)
            start = self.position.units[action.unit].hex if isinstance(action, Move) else None
            text = self.describe(action)
            events += self.game.push(action)
            if action.kind not in ("end_phase", "pass_chit"):
                path = (start, *action.path) if isinstance(action, Move) and start is not None else ()
                self.bot_moves.append(BotMove(text, str(getattr(self.bot, "reason", "")), path))
            n += 1
        if n:
            self._bump()
        return events

    def step_bot(self, index: int | None) -> Feedback:
        """Pick out one of the bot's last moves on the map (None: show them all)."""
        if index is None or not self.bot_moves:
            self.bot_step = None
            return self._say(Feedback("info", f"The bot's last moves: {len(self.bot_moves)}."), "overlays")
        self.bot_step = max(0, min(index, len(self.bot_moves) - 1))
        m = self.bot_moves[self.bot_step]
        why = f" Why: {m.reason}" if m.reason else ""
        return self._say(Feedback("info", f"Bot move {self.bot_step + 1}/{len(self.bot_moves)}: {m.text}.{why}"),
                         "overlays")

    # -- hot-seat ------------------------------------------------------------------------------
    @property
    def curtain(self) -> Side | None:
        """Hot-seat: the side about to act while the screen still shows the other side's view;
        the app hides the game (and the hands) until that player says it is there."""
        if self.bot is not None or not self.curtains or self.game.over:
            return None
        return self.game.acting if self.game.acting is not self._shown_side else None

    def reveal(self) -> Feedback:
        """The player of the side to act is at the screen: show the game."""
        self._shown_side = self.game.acting
        return self._say(Feedback("info", f"{self.game.acting.adjective} player: {self.phase_hint()}"), "game")

    # -- overlays ----------------------------------------------------------------------------
    def available_overlays(self) -> dict[str, tuple[str, bool]]:
        """key -> (label, available now); overlays needing a missing rule module are off."""
        return {k: (label, NEEDS.get(k) is None or feature(NEEDS[k]) is not None) for k, label in OVERLAYS.items()}

    def set_overlay(self, key: str, on: bool = True) -> Feedback:
        if key not in OVERLAYS:
            return self._say(Feedback("refused", f"no overlay {key!r}; choose from {', '.join(OVERLAYS)}"))
        label, available = self.available_overlays()[key]
        if on and not available:
            module = NEEDS[key]
            text = f"{label} needs cheren/rules/{module}.py, which this version does not have yet"
            return self._say(Feedback("refused", text))
        (self.overlays.add if on else self.overlays.discard)(key)
        return self._say(Feedback("info", f"{label}: {'on' if on else 'off'}"), "overlays")

    def overlay_list(self) -> list[Overlay]:
        """The overlays to draw now, bottom first."""
        key = (self.version, frozenset(self.overlays), self.selected, self.bot_step, len(self.bot_moves))
        if self._overlays is None or self._overlays[0] != key:
            self._overlays = (key, self._overlay_list())
        return self._overlays[1]

    def _overlay_list(self) -> list[Overlay]:
        from cheren.study import overlays as analysis

        p = self.position
        out: list[Overlay] = []
        on = self.overlays
        if "garrisons" in on:
            out += analysis.garrison_overlays(p)
        if "control" in on:
            out += analysis.control_overlays(p)
        if "edges" in on:
            out += analysis.edge_overlays(p)
        for side in (Side.ALLIED, Side.ITALIAN):
            if f"zoc-{side.value}" in on:
                out += analysis.zoc_overlays(p, side)
            if f"supply-{side.value}" in on and feature("supply") is not None:
                out += self._supply_map(side)
        if "markers" in on:
            out += analysis.supply_marker_overlays(p)
        if "threats" in on:
            from cheren.engine.threats import threats

            out += analysis.threat_overlays(threats(p, p.side))
        if "line-diff" in on and self.comparison is not None:
            out.append(self.comparison.overlay())
        uid = self.selected
        if uid is not None and p.units[uid].on_map:
            if "reach" in on and self.legal_moves(uid):
                out.append(self._reach(uid))
            elif "reach" in on and p.units[uid].side is not self.game.acting:
                labels: dict[Hex, str | None] = {h: mp_text(r.cost) for h, r in self.next_reach(uid).items()}
                title = f"{self.name(uid)}: reach in its next Movement phase (MP)"
                out.append(Overlay("reach-next", labels, colour="#8a5a00", opacity=0.25, title=title))
            if "supply-unit" in on and feature("supply") is not None:
                out += self._supply_line(uid)
        if self.bot_moves:
            picked = [self.bot_moves[self.bot_step]] if self.bot_step is not None else self.bot_moves
            paths = [m.path for m in picked if len(m.path) > 1]
            ends = {m.path[-1]: str(i + 1) for i, m in enumerate(self.bot_moves) if m.path and m in picked}
            if paths or ends:
                out.append(Overlay("bot-moves", ends, colour="#7a1fa2", opacity=0.3, paths=paths,
                                   title="The bot's last moves"))
        targets = self.chit_targets()
        if targets:
            out.append(Overlay("chit-targets", targets, colour="#b8860b", opacity=0.35,
                               title="Where a chit can be played now"))
        choices = self.hex_choices()
        if choices:
            out.append(Overlay("choices", {h: "?" for h in choices}, colour=CHOICE, opacity=0.45, title="Your choices"))
        return out

    def _reach(self, uid: str) -> Overlay:
        reach = self.game.reach(uid)
        legal = self.legal_moves(uid)
        labels: dict[Hex, str | None] = {}
        for h, r in reach.reach.items():
            if h in legal:
                labels[h] = mp_text(r.cost) + ("!" if r.stops else "")
        return Overlay("reach", labels, colour="#2b6cc4", opacity=0.3, title=f"{self.name(uid)}: reach (MP; ! = stop)")

    def supply_trace(self, uid: str) -> Any:
        """The supply module's trace for a unit, or None without the module."""
        supply = feature("supply")
        if supply is None or not hasattr(supply, "unit_supply"):
            return None
        return supply.unit_supply(self.position, uid)

    def _supply_line(self, uid: str) -> list[Overlay]:
        trace = self.supply_trace(uid)
        if trace is None:
            return []
        unit = self.position.units[uid]
        colour = "#2f6b2a" if trace.supplied else "#d0201a"
        if trace.supplied:
            hexes = (unit.hex, *trace.line) if unit.hex is not None else trace.line
            paths = [hexes] if len(hexes) > 1 else []
            if len(trace.route) > 1:
                paths.append(trace.route)
            title = f"{self.name(uid)}: in supply ({trace.rule})"
            return [Overlay("supply-line", {}, colour=colour, opacity=0.9, paths=paths, title=title)]
        tried: dict[Hex, str | None] = {}
        for c in getattr(trace, "candidates", ()):
            for b in c.blocks:
                if b.hex is not None:
                    tried[b.hex] = "x"
        return [Overlay("supply-line", tried, colour=colour, opacity=0.35, title=f"{self.name(uid)}: out of supply")]

    def _supply_map(self, side: Side) -> list[Overlay]:
        supply = feature("supply")
        if supply is None or not hasattr(supply, "supplied_hexes"):
            return []
        hexes = supply.supplied_hexes(self.position, side)
        colour = "#2f6b2a" if side is Side.ITALIAN else "#b0231b"
        out = []
        # darker where the line is shorter: 0 = on a source, the road/track network or a live edge
        for n, opacity in ((0, 0.34), (1, 0.25), (2, 0.17), (3, 0.1)):
            ring: dict[Hex, str | None] = {h: None for h, length in hexes.items() if length == n}
            what = "on a source, road/track or edge" if n == 0 else f"supply line of {n} hex{'es' if n > 1 else ''}"
            out.append(
                Overlay(
                    f"supply-{side.value}",
                    ring,
                    colour=colour,
                    opacity=opacity,
                    title=f"{side.adjective} supply: {what}",
                )
            )
        return out

    # -- what the map shows ------------------------------------------------------------------
    def scene(self) -> Scene:
        """The map scene: the position, the switched-on overlays, and a ``ui`` layer with the
        selection, the path to the hovered hex, the last move and an attack being lined up."""
        overlays = self.overlay_list()
        key = (self.version, id(self.position), overlays)
        if self._scene is None or self._scene_key != key:
            self._scene = build_scene(self.scenario, self.position, overlays, self.hex_size, legend=False)
            self._scene_key = key
        base = self._scene
        return replace(base, layers={**base.layers, "ui": self.ui_items(base)})

    def ui_items(self, scene: Scene) -> list[Item]:
        layout = scene.layout
        s = layout.size
        items: list[Item] = []
        if len(self.last_move) > 1:
            items.append(
                Polyline(
                    points=tuple(route_polyline(layout, list(self.last_move))),
                    style=Style(stroke=LAST, stroke_width=s * 0.08, dash=(s * 0.2, s * 0.15), linecap="round"),
                    layer="ui",
                    cls="last-move",
                )
            )
        if self.stack_hex is not None:
            items.append(
                Polygon(
                    points=hex_polygon(layout, self.stack_hex, 0.96),
                    style=Style(stroke=SELECT, stroke_width=s * 0.12, linejoin="round"),
                    layer="ui",
                    cls="selection",
                    data=(("hex", self.stack_hex.label),),
                )
            )
        for uid in self.attack.attackers:
            h = self.position.units[uid].hex
            if h is not None:
                items.append(
                    Polygon(
                        points=hex_polygon(layout, h, 0.88),
                        style=Style(stroke=ATTACK, stroke_width=s * 0.1, dash=(s * 0.18, s * 0.1)),
                        layer="ui",
                        cls="attacker",
                    )
                )
        if self.attack.defender is not None:
            items.append(
                Polygon(
                    points=hex_polygon(layout, self.attack.defender, 0.96),
                    style=Style(stroke=TARGET, stroke_width=s * 0.14, linejoin="round"),
                    layer="ui",
                    cls="defender",
                )
            )
        chosen = self.selected
        if chosen is not None and self.hover is not None and self.game.pending is None:
            move = self.legal_moves(chosen).get(self.hover)
            start = self.position.units[chosen].hex
            if move is not None and start is not None:
                pts = tuple(route_polyline(layout, [start, *move.path]))
                items.append(
                    Polyline(
                        points=pts,
                        style=Style(
                            stroke="#ffffff", stroke_width=s * 0.22, linecap="round", linejoin="round", opacity=0.8
                        ),
                        layer="ui",
                    )
                )
                items.append(
                    Polyline(
                        points=pts,
                        style=Style(stroke=PATH, stroke_width=s * 0.12, linecap="round", linejoin="round"),
                        layer="ui",
                        cls="path",
                    )
                )
                ex, ey = pts[-1]
                dot = Style(fill=PATH, stroke="#ffffff", stroke_width=s * 0.05)
                items.append(Circle(cx=ex, cy=ey, r=s * 0.18, style=dot, layer="ui"))
                r = self.game.reach(chosen).reach.get(self.hover)
                if r is not None:
                    items.append(
                        Text(
                            x=ex,
                            y=ey - s * 0.3,
                            text=f"{mp_text(r.cost)} MP",
                            size=s * 0.34,
                            weight="bold",
                            halo="#ffffff",
                            halo_width=s * 0.1,
                            style=Style(fill=PATH),
                            layer="ui",
                        )
                    )
        return items

    # -- saves -------------------------------------------------------------------------------
    def save(self, path: str | Path) -> Feedback:
        from cheren.study.game_saves import save_game

        try:
            save_game(self.study, path)
        except OSError as exc:
            return self._say(Feedback("refused", f"Could not save to {path}: {exc}"))
        lines = len(self.study.lines)
        extra = f" and its {lines} lines" if lines > 1 else ""
        return self._say(Feedback("ok", f"Saved the game ({len(self.game.log)} actions){extra} to {path}."))

    def load(self, path: str | Path) -> Feedback:
        from cheren.files.position_saves import SaveError
        from cheren.study.game_saves import load_study

        try:
            study = load_study(path, self.scenario)
        except SaveError as exc:
            return self._say(Feedback("refused", str(exc)))
        self.set_game(study.game)
        self.study = study
        return self._say(Feedback("ok", f"Loaded {path}: {study.game.status()}"), "game", "selection")

    # -- lines of play (the variation tree, cheren.study.variations) ------------------------------------------
    def lines_info(self) -> list[dict[str, Any]]:
        """Each line as the Lines panel shows it, the main line first and each branch after its parent."""
        study = self.study
        study.sync()
        out: list[dict[str, Any]] = []

        def walk(name: str, depth: int) -> None:
            line = study.lines[name]
            length = len(line.actions) + line.at
            out.append({"name": name, "parent": line.parent, "at": line.at, "luck": line.luck, "depth": depth,
                        "current": name == study.current, "actions": length})
            children = [n for n, x in study.lines.items() if x.parent == name]
            for child in sorted(children, key=lambda n: study.lines[n].at):
                walk(child, depth + 1)

        walk(study.main, 0)
        return out

    def branch(self, name: str | None = None, *, luck: str = "same", at: int | None = None) -> Feedback:
        from cheren.study.variations import TreeError

        try:
            line = self.study.branch(name or None, at=at, luck="new" if luck == "new" else "same")
        except TreeError as exc:
            return self._say(Feedback("refused", str(exc)))
        self._switched()
        dice = "fresh dice" if line.luck == "new" else "the same dice as its parent"
        text = (f"New line {line.name!r} from {line.parent} after {line.at} actions, with {dice}: play on; "
                f"switch back to {line.parent} any time.")
        return self._say(Feedback("ok", text), "game", "selection")

    def switch_line(self, name: str) -> Feedback:
        from cheren.study.variations import TreeError

        try:
            self.study.switch(name)
        except TreeError as exc:
            return self._say(Feedback("refused", str(exc)))
        self._switched()
        return self._say(Feedback("ok", f"On line {name!r}: {self.game.status()}"), "game", "selection")

    def promote_line(self, name: str) -> Feedback:
        from cheren.study.variations import TreeError

        try:
            self.study.promote(name)
        except TreeError as exc:
            return self._say(Feedback("refused", str(exc)))
        return self._say(Feedback("ok", f"{name!r} is now the main line."), "game")

    def delete_line(self, name: str) -> Feedback:
        from cheren.study.variations import TreeError

        try:
            before = self.study.current
            self.study.delete(name)
        except TreeError as exc:
            return self._say(Feedback("refused", str(exc)))
        if self.study.current != before:
            self._switched()
        return self._say(Feedback("ok", f"Deleted line {name!r} and the lines branching from it."), "game")

    def compare_lines(self, a: str, b: str) -> Feedback:
        from cheren.study.variations import TreeError

        try:
            self.comparison = self.study.compare(a, b)
        except TreeError as exc:
            return self._say(Feedback("refused", str(exc)))
        self.overlays.add("line-diff")
        self._bump()
        c = self.comparison
        return self._say(Feedback("info", f"{a}: {c.vp[0]} Allied VP, {b}: {c.vp[1]}; the units differ in "
                                          f"{len(c.differ)} hexes (marked on the map)."), "game", "overlays")

    def _switched(self) -> None:
        self.game = self.study.game
        self.selected = self.stack_hex = self.hover = None
        self.attack = AttackDraft()
        self.last_move = ()
        self._scene = None
        self._bump()

    def set_game(self, game: Game) -> None:
        from cheren.study.variations import Study

        self.study = Study(game)
        self.comparison = None
        self.game = game
        self.selected = self.stack_hex = self.hover = None
        self.attack = AttackDraft()
        self.last_move = ()
        self._scene = None
        self._bump()

    # -- combat (lights up when cheren/rules/combat.py exists) --------------------------------
    def combat_available(self) -> bool:
        return feature("combat") is not None

    def _need_combat(self) -> ModuleType:
        module = feature("combat")
        if module is None:
            raise NotImplementedError(
                "attacks need the combat rules (cheren/rules/combat.py, rule 11.0), "
                "which this version does not have yet"
            )
        return module

    def _enemy_at(self, h: Hex) -> bool:
        p = self.position
        return any(p.units[u].side is not self.game.phasing for u in p.units_at(h))

    def _combat_click(self, h: Hex) -> Feedback:
        """Combat phase: a click on an enemy hex picks the defender; a click on your own stack
        selects it and, once a defender is picked, adds (or takes out) its eligible units."""
        p = self.position
        if self._enemy_at(h):
            return self.set_defender(h)
        mine = [u for u in p.units_at(h) if p.units[u].side is self.game.phasing]
        if not mine:
            self.stack_hex = None
            return self._say(Feedback("info", self.hex_text(h)), "selection")
        self.selected, self.stack_hex = self._best_in(h), h
        if self.attack.defender is None:
            text = f"{self.name(self.selected)} selected. Click an enemy hex next to it to line up an attack (11.0)."
            return self._say(Feedback("info", text), "selection")
        eligible = [u for u in mine if self.attack_refusal(u) is None]
        if not eligible:
            why = self.attack_refusal(mine[0])
            assert why is not None
            text = f"{self.name(mine[0])} cannot attack {self.attack.defender.label}: {why.reason}"
            return self._say(Feedback("refused", text, why.rules), "selection")
        if all(u in self.attack.attackers for u in eligible):
            self.attack.attackers = [u for u in self.attack.attackers if u not in eligible]
            said = f"Took {', '.join(self.name(u) for u in eligible)} ({h.label}) out of the attack. "
        else:
            added = [u for u in eligible if u not in self.attack.attackers]
            self.attack.attackers += added
            said = f"Added {', '.join(self.name(u) for u in added)} ({h.label}) to the attack. "
        fb = self._odds_feedback()
        return self._say(Feedback(fb.kind, said + fb.text, fb.rules), "selection")

    def _best_in(self, h: Hex) -> str:
        stack = self.stack(h)
        return stack[0].id

    def attack_refusal(self, uid: str) -> Any:
        """Why ``uid`` may not join the attack on the picked defender (a Refusal), or None."""
        module = self._need_combat()
        target = self.attack.defender
        if target is None:
            from cheren.engine.registry import Refusal

            return Refusal(("11.0",), "pick the defending hex first")
        return self.game.check(module.Commit(uid, target)).refusal

    def set_defender(self, h: Hex | None) -> Feedback:
        """Pick the hex to attack; the selected stack's eligible units join at once."""
        self._need_combat()
        if h is None:
            self.attack = AttackDraft()
            return self._say(Feedback("info", "Attack cleared."), "selection")
        if not self._enemy_at(h):
            return self._say(Feedback("refused", f"{hex_text(h)} holds no enemy unit to attack", ("11.0",)))
        if self.attack.defender != h:
            self.attack = AttackDraft(defender=h)
            if self.stack_hex is not None:
                for uid in self.position.units_at(self.stack_hex):
                    if self.position.units[uid].side is self.game.phasing and self.attack_refusal(uid) is None:
                        self.attack.attackers.append(uid)
        return self._say(self._odds_feedback(), "selection")

    def toggle_attacker(self, uid: str) -> Feedback:
        """Add a unit to the attack being lined up, or take it out; refused with the rule when
        it may not attack that hex."""
        self._need_combat()
        if uid in self.attack.attackers:
            self.attack.attackers.remove(uid)
            return self._say(self._odds_feedback(), "selection")
        why = self.attack_refusal(uid)
        if why is not None:
            return self._say(Feedback("refused", f"{self.name(uid)} cannot join this attack: {why.reason}", why.rules))
        self.attack.attackers.append(uid)
        return self._say(self._odds_feedback(), "selection")

    def air_refusal(self) -> Any:
        """Why the air unit may not join an attack now (not arrived before turn 3, already used
        this phase), or None (11.3)."""
        from cheren.engine.rules.combat_eligibility import air_refusal

        state = self.combat_state()
        return air_refusal(self.position, self.game.phasing, bool(getattr(state, "air_used", False)))

    def set_air(self, on: bool) -> Feedback:
        self._need_combat()
        why = self.air_refusal() if on else None
        if why is not None:
            self.attack.air = False
            return self._say(Feedback("refused", f"No air support: {why.reason}", why.rules), "selection")
        self.attack.air = on
        return self._say(self._odds_feedback(), "selection")

    def whatif(self) -> Any:
        """The what-if of the attack lined up (odds, shifts with reasons, the exact outcome
        distribution), or None while attackers or defender are missing."""
        self._need_combat()
        a = self.attack
        if a.defender is None or not a.attackers:
            return None
        target, attackers = a.defender, tuple(a.attackers)
        shifts: tuple[Any, ...] = ()
        try:
            from cheren.engine.rules.combat_resolution import chit_modifiers

            shifts = tuple(chit_modifiers(self.game, target, self.game.phasing).get("extra_shifts", ()))
        except (ImportError, AttributeError):
            pass
        try:
            from cheren.engine.combat_whatif import proposed, what_if
        except ImportError:
            from cheren.engine.rules.combat_odds import compute_odds

            air = None
            if a.air:
                from cheren.engine.rules.combat_eligibility import air_unit

                air = air_unit(self.position, self.game.phasing)
            return compute_odds(self.position, attackers, target, air, extra_shifts=shifts)
        return what_if(self.position, proposed(target, attackers, a.air), shifts=shifts)

    def _odds_feedback(self) -> Feedback:
        a = self.attack
        if a.defender is None:
            return Feedback("info", "Click an enemy hex to attack it.")
        if not a.attackers:
            return Feedback("info", f"Defender: {a.defender.label}. Click your units next to it to add them (11.0).")
        w = self.whatif()
        odds = getattr(w, "odds", w)
        names = ", ".join(self.name(u) for u in a.attackers)
        text = f"{names} against {a.defender.label}: {odds.explain()}"
        refusal = getattr(w, "refusal", None)
        if refusal is not None:
            return Feedback("refused", f"{text}. Not allowed now: {refusal.reason}", refusal.rules)
        return Feedback("info", text)

    def resolve_attack(self) -> Feedback:
        """Roll the attack lined up (one ``Attack`` action through the gate); the choices it
        hands out (losses, retreat, push, advance) follow as pending decisions."""
        module = self._need_combat()
        a = self.attack
        if a.defender is None or not a.attackers:
            return self._say(Feedback("refused", "Pick a defending hex and at least one attacker first.", ("11.0",)))
        action = module.Attack(a.defender, tuple(a.attackers), a.air)
        verdict = self.game.check(action)
        if verdict.refusal is not None:
            r = verdict.refusal
            return self._say(Feedback("refused", f"The attack is refused: {r.reason}", r.rules))
        # the odds stay on show while a chit window holds the die back (5.1)
        self.rolled = (a.defender, tuple(a.attackers), self.whatif())
        events = self.game.push(action)
        self.attack = AttackDraft()
        self._bump()
        events += self._after_human()
        return self._say(Feedback("ok", self._combat_text(events), events=tuple(events)), "game", "selection")

    def _combat_text(self, events: list[str]) -> str:
        """The die roll if it happened, else what the rules wait for (a chit window first)."""
        roll = next((e for e in events if e.startswith("die ")), None)
        if roll is not None:
            return roll
        d = self.game.pending
        if d is not None:
            return f"{d.side.adjective} to decide first: {d.prompt.removeprefix(d.side.adjective + ': ')}"
        return "; ".join(events[:2]) or "attack declared"

    def waiting_attack(self) -> tuple[Hex, tuple[str, ...], Any, list[str]] | None:
        """The attack rolled whose die waits for a chit window: its hex, attackers, what-if, and
        each chit that may be played on it now, with what it does (5.1)."""
        d = self.game.pending
        if self.rolled is None or d is None or d.kind != "chit_window":
            return None
        chits = []
        for label, action in self.decision_options():
            chit = getattr(action, "chit", None)
            if isinstance(chit, str) and chit:
                from cheren.engine.position import chit_key

                found = self.scenario.chits.get(chit_key(chit))
                if found is not None:
                    chits.append(f"{label}: {found.text}")
        return (*self.rolled, chits)

    def combat_state(self) -> Any:
        """The combat module's record of this phase (assemblies, who attacked), or None."""
        module = feature("combat")
        if module is None or not hasattr(module, "combat_state"):
            return None
        return module.combat_state(self.game)


# -- helpers -------------------------------------------------------------------------------
def _hex_field(action: Action) -> Hex | None:
    for value in vars(action).values():
        if isinstance(value, Hex):
            return value
    return None
