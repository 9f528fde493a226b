"""Play: what a click on the map means (answer a decision, line up an attack, move the selected
unit, or select the units there), the selection and what it shows, moving, the phase stepper,
undo and redo.  Every action goes through the game's gate; a refusal names its rules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cheren.engine.actions import EndPhase, Move
from cheren.engine.registry import Refusal
from cheren.engine.wording import mp_text
from cheren.hexes import Hex
from cheren.scenario.models import Phase, Side
from cheren.study.map_intents import Feedback, legal_moves, move_refusal, retreat_refusal, stacking_warning

if TYPE_CHECKING:
    from cheren.app.board import Board


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


class Play:
    """Clicks, the selection, moves and the phase stepper, over the board's game."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self._warned_at = -1  # the game version at which the stacking warning was last shown

    # -- the selection -----------------------------------------------------------------------------
    def legal_moves(self, uid: str) -> dict[Hex, Move]:
        """The legal moves of a unit now, by destination (cheapest path)."""
        return legal_moves(self.board.game, uid, self.board.legal_actions())

    def stack(self, h: Hex | None = None) -> list[UnitInfo]:
        """The counters in a hex (default: the selected stack), top of the stack first."""
        b = self.board
        where = h if h is not None else b.stack_hex
        if where is None:
            return []
        p, s = b.position, b.scenario
        ids = sorted(p.units_at(where), key=lambda u: (p.strength(u), s.units[u].stack, u), reverse=True)
        out = []
        for uid in ids:
            d, u = s.units[uid], p.units[uid]
            markers = []
            if u.supply is not None:
                markers.append(f"{u.supply.value.title()} supply")
            if u.defected:
                markers.append("defected")
            if d.garrison is not None and not u.defected:
                area = s.garrison_areas[d.garrison].name
                markers.append(f"{area} garrison" + (" (released)" if d.garrison in p.released else " (held)"))
            if b.game.has_moved(uid):
                markers.append("moved")
            if u.steps_lost:
                markers.append("reduced")
            out.append(UnitInfo(uid, d.name, u.side, d.type.name, p.strength(uid), p.movement(uid), p.steps_left(uid),
                                d.steps, tuple(markers), uid == b.selected, bool(self.legal_moves(uid))))
        return out

    def select(self, uid: str | None) -> Feedback:
        """Select a unit (None: clear the selection).  Says where it can go, or why it cannot
        move now, with the rule."""
        b = self.board
        if uid is None:
            b.selected, b.stack_hex = None, None
            return b.say(Feedback("info", "Nothing selected."), "selection")
        if uid not in b.position.units:
            return b.say(Feedback("refused", f"there is no unit {uid!r}", ("2.3",)))
        unit = b.position.units[uid]
        b.selected, b.stack_hex = uid, unit.hex
        name = b.name(uid)
        if unit.hex is None:
            return b.say(Feedback("info", f"{name} is not on the map ({unit.status.value})."), "selection")
        moves = self.legal_moves(uid)
        if moves:
            mp = b.game.reach(uid).mp
            text = f"{name} ({unit.hex.label}): {mp_text(mp)} MP, {len(moves)} hexes in reach. Click one to move there."
            return b.say(Feedback("info", text), "selection")
        if unit.side is not b.game.acting:
            reach = self.next_reach(uid)
            text = (f"{name} ({unit.side.adjective}, {unit.hex.label}): in its next Movement phase it can reach "
                    f"{len(reach)} hexes (shaded); its supply line is drawn.")
            return b.say(Feedback("info", text), "selection")
        why = self.why_immobile(uid)
        text = f"{name} ({unit.hex.label}) cannot move now: {why.reason} (rule {', '.join(why.rules)})"
        if b.game.phase not in (Phase.MOVEMENT, Phase.REACTION, Phase.EXPLOITATION):
            text += f". {self.phase_hint()}"
        return b.say(Feedback("info", text, why.rules), "selection")

    def next_reach(self, uid: str) -> dict[Hex, Any]:
        """Where a unit not acting now could end a move in its side's next Movement phase (full
        movement points, the map as it stands): what a player asks of an enemy stack."""
        from cheren.engine.rules.movement import reachable

        p = self.board.position
        start = p.units[uid].hex
        return {h: r for h, r in reachable(p, uid).reach.items() if h != start}

    def why_immobile(self, uid: str) -> Refusal:
        """The refusal a move of this unit gets now, whatever the hex."""
        b = self.board
        unit = b.position.units[uid]
        assert unit.hex is not None
        refusals = []
        for n in unit.hex.neighbours():
            if n in b.scenario.playable:
                verdict = b.game.check(Move(uid, (n,)))
                if verdict.refusal is not None:
                    refusals.append(verdict.refusal)
        if refusals and all(r == refusals[0] for r in refusals):
            return refusals[0]
        if refusals:
            return Refusal(refusals[0].rules, f"no hex is within its reach: {refusals[0].reason}")
        return Refusal(("9.0",), "no legal move")

    def select_in(self, h: Hex) -> Feedback:
        """Select the best unit of a stack: a unit that can move now, else the top counter."""
        stack = self.stack(h)
        movable = [u for u in stack if u.can_move]
        return self.select((movable or stack)[0].id)

    # -- clicks ------------------------------------------------------------------------------------
    def click_hex(self, h: Hex) -> Feedback:
        """What a click on hex ``h`` means now: answer a decision, line up an attack, move the
        selected unit, or select the units there."""
        b = self.board
        g, p = b.game, b.position
        if g.over:
            return b.say(Feedback("info", g.status()))
        d = g.pending
        if d is not None or b.decisions.armed is not None:
            played = b.decisions.click_target(h)  # a chit's target marked on the map
            if played is not None:
                return played
        if d is None and b.decisions.armed is not None:
            return b.say(Feedback("refused", f"{h.label} is not a target of {b.decisions.armed}: click a marked hex "
                                             "(Esc puts the chit back).", ("5.1",)))
        if d is not None:
            choices = b.decisions.hex_choices()
            if h in choices:
                return b.decisions.answer(choices[h])
            if p.units_at(h):
                self.select_in(h)
            refusal = retreat_refusal(g, h)
            if refusal is not None:
                return b.say(Feedback.refused(refusal), "selection")
            text = f"{d.side.adjective} must first decide: {d.prompt} (rule {', '.join(d.rules)})"
            return b.say(Feedback("refused", text, d.rules), "selection")
        if g.phase is Phase.COMBAT:
            return b.combat.click(h)
        here = p.units[b.selected].hex if b.selected is not None else None
        if b.selected is not None and h != here:
            if h in self.legal_moves(b.selected):
                return self.move_to(h)
            if p.units_at(h):  # any stack, the enemy's too: look at it
                return self.select_in(h)
            # only highlighted hexes are moves: this click deselects, saying why the unit could not go
            why = self.why_not_there(b.selected, h)
            b.selected, b.stack_hex = None, None
            return b.say(why, "selection")
        if b.selected is not None and h == here:
            ids = [u.id for u in self.stack(h)]
            if len(ids) > 1:
                return self.select(ids[(ids.index(b.selected) + 1) % len(ids)])
            return self.select(None)
        if p.units_at(h):
            return self.select_in(h)
        b.stack_hex = None
        return b.say(Feedback("info", self.hex_text(h)), "selection")

    def why_not_there(self, uid: str, h: Hex) -> Feedback:
        """Why ``uid`` cannot move to ``h`` now (nothing is moved), with the rule."""
        b = self.board
        if b.position.units[uid].side is not b.game.acting:
            return Feedback("info", f"{b.name(uid)} is not yours to move now. {self.hex_text(h)}")
        return Feedback.refused(move_refusal(b.game, uid, h))

    def escape(self) -> Feedback:
        """Esc: drop the selection and the attack being lined up."""
        b = self.board
        b.combat.clear()
        b.selected, b.stack_hex = None, None
        b.decisions.armed, b.decisions.choosing = None, []
        return b.say(Feedback("info", "Nothing selected. " + self.phase_hint()), "selection", "overlays")

    def phase_hint(self) -> str:
        """What to do now, in one line: the pending decision, or the phase's own task."""
        g = self.board.game
        if g.over:
            return g.status()
        d = g.pending
        if d is not None:
            prompt = d.prompt.removeprefix(f"{d.side.adjective}: ")
            return f"{d.side.adjective} to decide: {prompt} ({', '.join(d.rules)})."
        who = g.acting.adjective
        if g.phase is Phase.REINFORCEMENT:
            extra = (" This is a replacement turn: select a unit that lost a step and press +1 step (8.3)."
                     if self.board.decisions.replaceable() else "")
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

    def hex_text(self, h: Hex) -> str:
        b = self.board
        info = b.scenario.hexes.get(h)
        if info is None:
            return "Off the map."
        parts = [f"{h.label}: {info.terrain_names}"]
        if not info.playable:
            return parts[0] + " (not playable, 1.1)"
        if info.move_cost is not None:
            parts.append(f"costs {info.move_cost:g} MP")
        if info.town is not None:
            owner = b.position.controller(info.town.name).adjective
            parts.append(f"{info.town.name}, {info.town.vp} VP, {owner} control")
        if info.village is not None:
            parts.append(f"native village {info.village.name}")
        if info.area is not None:
            parts.append(f"{b.scenario.garrison_areas[info.area].name} garrison area")
        return ", ".join(parts) + "."

    # -- moving ------------------------------------------------------------------------------------
    def move_to(self, h: Hex) -> Feedback:
        """Move the selected unit (or, with the board's ``move_stack``, every unit of its stack
        that can) to ``h`` along the shown path; refuse with the rule otherwise."""
        b = self.board
        uid = b.selected
        if uid is None:
            return b.say(Feedback("refused", "Select a unit first, then click where it should go.", ("9.0",)))
        moves = self.legal_moves(uid)
        if h not in moves:
            return b.say(Feedback.refused(move_refusal(b.game, uid, h)))
        movers = [uid]
        if b.move_stack and b.stack_hex is not None:
            movers += [u.id for u in self.stack(b.stack_hex) if u.id != uid and h in self.legal_moves(u.id)]
        events: list[str] = []
        start = b.position.units[uid].hex
        path = moves[h].path
        for mover in movers:
            move = self.legal_moves(mover).get(h)
            if move is not None:
                events += b.commit(move)
                b.changed()
        b.last_move = (start, *path) if start is not None else path
        b.stack_hex = h
        events += b.opponent.reply()
        return b.say(Feedback("ok", "; ".join(events[:3]) or "moved", events=tuple(events)), "game", "selection")

    # -- the phase stepper -------------------------------------------------------------------------
    def end_phase(self) -> Feedback:
        b = self.board
        verdict = b.game.check(EndPhase())
        if verdict.refusal is not None:
            return b.say(Feedback.refused(verdict.refusal, "The phase cannot end yet: "))
        warning = stacking_warning(b.game)
        if warning is not None and self._warned_at != b.version:
            # 3.1 costs steps at the end of the phase: say so once before doing it
            self._warned_at = b.version
            return b.say(Feedback("info", warning, ("3.1",)))
        b.combat.clear()
        b.last_move = ()
        events = b.push(EndPhase())
        return b.say(Feedback("ok", b.game.status(), events=tuple(events)), "game", "selection")

    def undo(self) -> Feedback:
        b = self.board
        study = b.study
        start = study.branch_point(study.current)
        parent = study.lines[study.current].parent
        if len(b.game.log) <= start and parent is not None:
            return b.say(Feedback("refused", f"This line starts here (it branched from {parent} after {start} "
                                             f"actions): switch to {parent} to go further back."))
        if len(b.game.log) <= b.undo_floor:
            return b.say(Feedback("refused", "The exercise starts here: there is nothing of yours to undo "
                                             "(Reset starts it again)."))
        if not b.can_undo():
            return b.say(Feedback("refused", "Nothing to undo."))
        undone = [b.game.undo()]
        side = b.opponent.side
        while side is not None and b.game.acting is side and b.can_undo():
            undone.append(b.game.undo())  # take back the bot's reply too
        b.combat.clear()
        b.last_move = ()
        b.changed()
        self.follow_selection()
        return b.say(Feedback("ok", "Undid: " + "; ".join(b.describe(a) for a in undone)), "game", "selection")

    def redo(self) -> Feedback:
        b = self.board
        if not b.game.can_redo():
            return b.say(Feedback("refused", "Nothing to redo."))
        action = b.game.redo()
        b.changed()
        self.follow_selection()
        return b.say(Feedback("ok", "Redid: " + b.describe(action)), "game", "selection")

    def follow_selection(self) -> None:
        """After undo or redo: the selection goes where its unit is now (cleared if it left the
        map), and a stack looked at that is no longer there is let go."""
        b = self.board
        if b.selected is not None:
            here = b.position.units[b.selected].hex
            b.stack_hex = here
            if here is None:
                b.selected = None
        elif b.stack_hex is not None and not b.position.units_at(b.stack_hex):
            b.stack_hex = None
