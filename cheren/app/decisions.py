"""The rules' questions and the plays outside them: the answers to a pending decision (as buttons,
or as hexes on the map), the chits a side may play on its own initiative (5.1), and the Allied
replacement (8.3).  Every answer goes through the gate."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cheren.engine.actions import Action
from cheren.engine.registry import Refusal
from cheren.hexes import Hex
from cheren.study.map_intents import Feedback, hex_answers, refused_answers

if TYPE_CHECKING:
    from cheren.app.board import Board


class Decisions:
    def __init__(self, board: Board) -> None:
        self.board = board
        # a lesson offers the answers the rules refuse too, so that the buttons never give the
        # answer away; a click on one is refused with the rule's reason
        self.every_answer = False
        self.armed: str | None = None  # the chit picked with Play, whose targets the map marks
        self.choosing: list[Action] = []  # plays aimed at one hex, for the Chits panel to pick from

    def options(self) -> list[tuple[str, Action]]:
        """The legal answers to the pending decision, as (label, action)."""
        b = self.board
        if b.game.pending is None:
            return []
        return [(b.describe(a), a) for a in b.legal_actions()]

    def candidates(self) -> list[tuple[str, Action, Refusal | None]]:
        """The answers to offer: the legal ones (no refusal) and, with :attr:`every_answer`, the
        ones a player may think of that the rules refuse, with why; in the order of their words."""
        b = self.board
        legal: list[tuple[str, Action, Refusal | None]] = [(label, a, None) for label, a in self.options()]
        if not self.every_answer or not legal:
            return legal
        refused: list[tuple[str, Action, Refusal | None]] = [
            (b.describe(a), a, why) for a, why in refused_answers(b.game)]
        return sorted([*legal, *refused], key=lambda c: (c[1].kind, c[0]))

    def offer(self, action: Action, refusal: Refusal | None) -> Feedback:
        """A click on an offered answer: the answer, or the rule's reason it is refused."""
        if refusal is not None:
            return self.board.say(Feedback.refused(refusal))
        return self.answer(action)

    def hex_choices(self) -> dict[Hex, Action]:
        """Answers to the pending decision that are a hex on the map (retreat, placement)."""
        return hex_answers([a for _, a in self.options()])

    def marked_hexes(self) -> list[Hex]:
        """The hexes the map marks as choices: the answers' hexes (with :attr:`every_answer`, the
        refused ones too, so the mark is no give-away)."""
        return list(hex_answers([a for _, a, _ in self.candidates()]))

    def answer(self, choice: Action | int) -> Feedback:
        """Answer the pending decision with one of :meth:`options` (or its index)."""
        action = self.options()[choice][1] if isinstance(choice, int) else choice
        return self.apply(action, lead_with_roll=True)

    def apply(self, action: Action, *, lead_with_roll: bool = False) -> Feedback:
        """Any action, through the gate (what a button for an action the app has no panel for calls)."""
        b = self.board
        refusal = b.game.check(action).refusal
        if refusal is not None:
            return b.say(Feedback.refused(refusal))
        events = b.push(action)
        # an answer that rolls the die (a retreat choice, a chit window) reports the roll first
        roll = next((e for e in events if e.startswith("die ")), None) if lead_with_roll else None
        text = roll or "; ".join(events[:3]) or b.describe(action)
        if roll and events[0].startswith("new line "):  # played at an earlier move: say the line it started
            text = f"{events[0]}; {roll}"
        return b.say(Feedback("ok", text, events=tuple(events)), "game")

    # -- chits and replacements outside a decision ------------------------------------------------
    def playable_chits(self) -> dict[str, list[tuple[str, Action]]]:
        """The chits the acting side may play now on its own initiative (5.1), by name, each
        with its legal targets as (label, action)."""
        from cheren.engine.position import chit_key

        b = self.board
        if b.game.pending is not None:
            return {}
        out: dict[str, list[tuple[str, Action]]] = {}
        for action in b.legal_actions():
            chit = getattr(action, "chit", None)
            if action.kind != "play_chit" or not isinstance(chit, str):
                continue
            found = b.scenario.chits.get(chit_key(chit))
            name = found.name if found is not None else chit
            target = getattr(action, "unit", "") or getattr(action, "target", "")
            label = b.name(target) if target in b.scenario.units else (target or "no target needed")
            out.setdefault(name, []).append((label, action))
        return out

    def chit_plays(self) -> list[Action]:
        """The chit plays open now: those of a chit window, or of the chit picked with Play."""
        b = self.board
        d = b.game.pending
        if d is not None:
            return [a for _, a in self.options() if a.kind == "play_chit"] if d.kind == "chit_window" else []
        if self.armed is None:
            return []
        return [a for _, a in self.playable_chits().get(self.armed, [])]

    def play_hexes(self, action: Action) -> list[Hex]:
        """Where a chit play aims on the map: its hex, both hexes of its hexside, its unit's hex."""
        b = self.board
        hexes: list[Hex] = []
        target = str(getattr(action, "target", "") or "")
        for part in target.replace("-", "/").split("/"):
            if len(part) == 4 and part.isdigit():
                hexes.append(Hex.from_label(part))
        unit = str(getattr(action, "unit", "") or "")
        where = b.position.units[unit].hex if unit in b.position.units else None
        return hexes + ([where] if where is not None else [])

    def chit_targets(self) -> dict[Hex, str | None]:
        """The hexes the chits open now aim at (a chit window's, or the chit picked with Play),
        each labelled with the chit's initial: a click on one plays it there."""
        from cheren.engine.position import chit_key

        b = self.board
        out: dict[Hex, str | None] = {}
        for action in self.chit_plays():
            found = b.scenario.chits.get(chit_key(str(getattr(action, "chit", ""))))
            mark = found.name[:1] if found is not None else "?"
            for h in self.play_hexes(action):
                out[h] = mark if out.get(h) in (None, mark) else "*"
        return out

    def arm(self, name: str | None) -> Feedback:
        """Pick a chit to play (the Chits panel's Play button): its targets light up on the map,
        and a click on one plays it there.  None: put it back."""
        b = self.board
        plays = self.playable_chits().get(name or "", [])
        if name is None or not plays:
            self.armed, self.choosing = None, []
            return b.say(Feedback("info", "No chit picked." if name is None else f"{name} cannot be played now."),
                         "overlays")
        self.armed, self.choosing = name, []
        where = len({h for _, a in plays for h in self.play_hexes(a)})
        if not where:  # a chit with no target on the map
            return self.apply(plays[0][1])
        return b.say(Feedback("info", f"{name}: click one of the {where} marked hexes on the map to play it there "
                                      "(Esc to put it back)."), "overlays")

    def click_target(self, h: Hex) -> Feedback | None:
        """A click on the map while chit targets are marked: the play aimed at ``h`` (the
        selected unit's first, when a stack offers several), or None when ``h`` is no target."""
        b = self.board
        plays = [a for a in self.chit_plays() if h in self.play_hexes(a)]
        if not plays:
            return None
        mine = [a for a in plays if getattr(a, "unit", None) == b.selected]
        if len(plays) > 1 and not mine:  # several units there: the Chits panel asks which
            self.choosing = plays
            names = ", ".join(b.describe(a) for a in plays)
            text = f"More than one play aims at {h.label}: pick one in the Chits panel ({names})."
            return b.say(Feedback("info", text), "overlays")
        self.armed, self.choosing = None, []
        return self.apply((mine or plays)[0])

    def chit_effects(self) -> list[str]:
        """Each chit that may be played in the window open now, with what it does (5.1)."""
        from cheren.engine.position import chit_key

        out = []
        for label, action in self.options():
            chit = getattr(action, "chit", None)
            if isinstance(chit, str) and chit:
                found = self.board.scenario.chits.get(chit_key(chit))
                if found is not None:
                    out.append(f"{label}: {found.text}")
        return out

    def replaceable(self) -> list[str]:
        """Units that may take back a lost step now (8.3)."""
        return [str(getattr(a, "unit", "")) for a in self.board.legal_actions() if a.kind == "replace"]

    def replace_step(self, uid: str) -> Feedback:
        """The Allied replacement of 8.3 on ``uid``, through the gate."""
        from cheren.engine.actions import Replace

        return self.apply(Replace(uid))
