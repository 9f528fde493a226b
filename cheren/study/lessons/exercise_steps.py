"""A lesson's steps played on a game through the gate, with no app: what the exercise runner
uses for an exercise's setup, to replay an expected mistake, and for ``cheren lessons check``.

Each step means what the learner's clicks mean in the app (both ask
:mod:`cheren.study.map_intents`): ``move`` is a click on the unit and one on the hex, ``attack``
lines up the attack the way clicks on the defender and the attackers do, ``click`` answers a
decision with the hex clicked, and so on.  After each of the learner's actions the other side
plays (in a lesson it only passes).  What the gate refused and which attacks were rolled at which
column are kept: the exercise's tests ask about them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cheren.engine.actions import Action, EndPhase
from cheren.engine.game import Game
from cheren.hexes import Hex
from cheren.scenario.models import Phase, Side
from cheren.study.lessons.model import Step
from cheren.study.map_intents import (
    AttackDraft,
    Feedback,
    air_refusal,
    attack_account,
    attacker_refusal,
    draft_attack,
    draft_whatif,
    enemy_at,
    hex_answers,
    legal_moves,
    move_refusal,
    retreat_refusal,
    stacking_warning,
)

Opponent = Callable[[Game], Action]


class ExerciseBoard:
    """A game with the learner's selection and attack draft, played step by step (see the module)."""

    def __init__(self, game: Game, uid: Callable[[str], str]) -> None:
        """``uid``: a counter's id from the name or id a lesson file writes."""
        self.game = game
        self.uid = uid
        self.selected: str | None = None
        self.draft = AttackDraft()
        self.refusals: list[Feedback] = []
        # (defending hex, final column index, attackers) of each attack rolled
        self.rolled: list[tuple[Hex, int, frozenset[str]]] = []
        self.attacks: list[str] = []  # each attack rolled, in words (map_intents.attack_account)
        self.opponent: Opponent | None = None
        self.opponent_side: Side | None = None
        self._warned_at = -1

    # -- what is said ----------------------------------------------------------------------------
    def say(self, fb: Feedback) -> Feedback:
        if fb.kind == "refused":
            self.refusals.append(fb)
        return fb

    def reply(self) -> list[str]:
        """The other side plays while it is the one to act (a lesson's opponent only passes)."""
        events: list[str] = []
        n = 0
        while self.opponent is not None and not self.game.over and self.game.acting is self.opponent_side and n < 500:
            events += self.game.push(self.opponent(self.game))
            n += 1
        return events

    def push(self, action: Action, *, lead_with_roll: bool = False) -> Feedback:
        """One action of the learner through the gate, then the other side's reply."""
        refusal = self.game.check(action).refusal
        if refusal is not None:
            return self.say(Feedback.refused(refusal))
        events = self.game.push(action)
        events += self.reply()
        roll = next((e for e in events if e.startswith("die ")), None) if lead_with_roll else None
        return Feedback("ok", roll or "; ".join(events[:3]) or action.describe(), events=tuple(events))

    # -- the steps -------------------------------------------------------------------------------
    def do(self, step: Step) -> Feedback:
        """One step of a lesson file, as the clicks the app would make."""
        key, value = step.key, step.value
        if key == "select":
            return self.select(self.uid(value))
        if key == "click":
            return self.click(Hex.from_label(value))
        if key == "move":
            return self.move(self.uid(value.unit), Hex.from_label(value.to), stack=value.stack)
        if key == "attack":
            return self.line_up(Hex.from_label(value.hex), [self.uid(ref) for ref in value.with_], air=value.air)
        if key == "roll":
            return self.roll()
        if key == "end_phase":
            return self.end_phase()
        if key == "pass_chit":
            from cheren.engine.actions import PassChit

            return self.push(PassChit())
        if key == "answer":
            return self.answer(value)
        if key == "replace":
            from cheren.engine.actions import Replace

            return self.push(Replace(self.uid(value)))
        if key == "play_chit":
            return self.play_chit(value)
        raise ValueError(f"unknown step {key!r}")  # the model admits no other key

    def select(self, uid: str) -> Feedback:
        if uid not in self.game.position.units:
            return self.say(Feedback("refused", f"there is no unit {uid!r}", ("2.3",)))
        self.selected = uid
        return Feedback("info", f"{self.game.scenario.units[uid].name} selected.")

    def click(self, h: Hex) -> Feedback:
        """A click on a hex: the answer it stands for while a decision waits, else a move of the
        selected unit there."""
        g = self.game
        if g.over:
            return Feedback("info", g.status())
        d = g.pending
        if d is not None:
            choices = hex_answers(g.legal_actions())
            if h in choices:
                return self.push(choices[h], lead_with_roll=True)
            why = retreat_refusal(g, h)
            if why is not None:
                return self.say(Feedback.refused(why))
            text = f"{d.side.adjective} must first decide: {d.prompt} (rule {', '.join(d.rules)})"
            return self.say(Feedback("refused", text, d.rules))
        if g.phase is Phase.COMBAT:
            return self.say(Feedback("refused", "in a lesson file, line up an attack with an attack step"))
        uid = self.selected
        if uid is None:
            return Feedback("info", f"{h.label}: nothing selected to move there.")
        if h not in legal_moves(g, uid) and g.position.units_at(h):
            return self.select(sorted(g.position.units_at(h))[0])  # a click on another stack looks at it
        if g.position.units[uid].side is not g.acting:
            return Feedback("info", f"{g.scenario.units[uid].name} is not yours to move now.")
        fb = self.move(uid, h)
        if not fb.ok:
            self.selected = None  # a click on a hex that is no move deselects, saying why
        return fb

    def move(self, uid: str, h: Hex, *, stack: bool = False) -> Feedback:
        """Select ``uid`` and move it (with ``stack``, every unit of its stack that can) to ``h``."""
        fb = self.select(uid)
        if not fb.ok:
            return fb
        g = self.game
        start = g.position.units[uid].hex
        if h not in legal_moves(g, uid):
            return self.say(Feedback.refused(move_refusal(g, uid, h)))
        movers = [uid]
        if stack and start is not None:
            movers += [u for u in g.position.units_at(start) if u != uid and h in legal_moves(g, u)]
        events: list[str] = []
        for mover in movers:
            move = legal_moves(g, mover).get(h)
            if move is not None:
                events += g.push(move)
        events += self.reply()
        return Feedback("ok", "; ".join(events[:3]) or "moved", events=tuple(events))

    def line_up(self, target: Hex, attackers: list[str], *, air: bool = False) -> Feedback:
        """The attack on ``target`` with these attackers, as clicks on the defender and on each
        attacker: each one the rules refuse is refused with its rule."""
        g = self.game
        self.draft = AttackDraft()
        if not enemy_at(g, target):
            return self.say(Feedback("refused", f"{target.label} holds no enemy unit to attack", ("11.0",)))
        self.draft = AttackDraft(defender=target)
        fb = self._odds()
        for uid in attackers:
            if uid in self.draft.attackers:
                continue
            why = attacker_refusal(g, self.draft, uid)
            if why is not None:
                fb = self.say(Feedback.refused(why, f"{g.scenario.units[uid].name} cannot join this attack: "))
                continue
            self.draft.attackers.append(uid)
            fb = self._odds()
        if air:
            why = air_refusal(g)
            if why is not None:
                return self.say(Feedback.refused(why, "No air support: "))
            self.draft.air = True
            fb = self._odds()
        return fb

    def _odds(self) -> Feedback:
        w = draft_whatif(self.game, self.draft)
        if w is None:
            return Feedback("info", "Attack lined up: add attackers.")
        refusal = getattr(w, "refusal", None)
        if refusal is not None:
            text = f"{w.odds.explain()}. Not allowed now: {refusal.reason}"
            return self.say(Feedback("refused", text, refusal.rules))
        return Feedback("info", w.odds.explain())

    def roll(self) -> Feedback:
        """Roll the attack lined up (one ``Attack`` action through the gate)."""
        g, draft = self.game, self.draft
        if draft.defender is None or not draft.attackers:
            return self.say(Feedback("refused", "Pick a defending hex and at least one attacker first.", ("11.0",)))
        action = draft_attack(draft)
        refusal = g.check(action).refusal
        if refusal is not None:
            return self.say(Feedback.refused(refusal, "The attack is refused: "))
        w = draft_whatif(g, draft)
        self.rolled.append((draft.defender, int(w.odds.column), frozenset(draft.attackers)))
        self.attacks.append(attack_account(g, draft.defender, draft.attackers, w))
        self.draft = AttackDraft()
        events = g.push(action) + self.reply()
        roll = next((e for e in events if e.startswith("die ")), None)
        return Feedback("ok", roll or "; ".join(events[:2]) or "attack declared", events=tuple(events))

    def end_phase(self) -> Feedback:
        g = self.game
        refusal = g.check(EndPhase()).refusal
        if refusal is not None:
            return self.say(Feedback.refused(refusal, "The phase cannot end yet: "))
        warning = stacking_warning(g)
        if warning is not None and self._warned_at != len(g.log):
            self._warned_at = len(g.log)  # said once, as the app does: the next End phase goes on
            return Feedback("info", warning, ("3.1",))
        self.draft = AttackDraft()
        return self.push(EndPhase())

    def answer(self, value: Any) -> Feedback:
        """The answer to the pending decision of this kind (and unit, hex, yes or no)."""
        found = self.find_answer(value)
        return self.push(found, lead_with_roll=True) if isinstance(found, Action) else self.say(found)

    def find_answer(self, value: Any) -> Action | Feedback:
        """The legal answer an ``answer`` step names, or why there is none (a refusal)."""
        g = self.game
        d = g.pending
        if d is not None:
            for action in g.legal_actions():
                if action.kind == value.kind and self.fits(action, value.unit, value.hex, value.value):
                    return action
        what = f"{value.kind}" + (f" {value.unit}" if value.unit else "") + (f" {value.hex}" if value.hex else "")
        if d is None:
            return Feedback("refused", f"There is no decision to answer now ({what}).")
        return Feedback("refused", f"{what} is not one of the answers to: {d.prompt}", d.rules)

    def play_chit(self, value: Any) -> Feedback:
        return self.push(self.chit_play(value))

    def chit_play(self, value: Any) -> Action:
        """The chit play a ``play_chit`` step names: the legal one if there is one, else the play as
        written (the gate then says which rule forbids it)."""
        from cheren.engine.actions import PlayChit
        from cheren.engine.position import chit_key
        from cheren.files.position_files import chit_label

        def name(instance: str) -> str:
            return chit_label(self.game.scenario, chit_key(instance))

        unit = self.uid(value.unit) if value.unit else ""
        target = value.target or ""
        for a in self.game.legal_actions():
            if isinstance(a, PlayChit) and name(a.chit) == value.chit and a.unit == unit and a.target == target:
                return a
        hand = self.game.position.chits.hands.get(self.game.acting, [])
        chit = next((k for k in hand if name(k) == value.chit), value.chit)
        return PlayChit(chit, unit, target)

    def fits(self, action: Action, unit: str | None, hex_label: str | None, yes: bool | None = None) -> bool:
        """Whether an action names this unit and this hex (and says yes or no as asked)."""
        fields = action.field_values()
        if yes is not None and getattr(action, "yes", None) is not yes:
            return False
        if unit is not None:
            uid = self.uid(unit)
            if uid not in [v for v in fields.values() if isinstance(v, str)] and not any(
                isinstance(v, tuple) and uid in v for v in fields.values()
            ):
                return False
        if hex_label is not None:
            h = Hex.from_label(hex_label)
            if h not in [v for v in fields.values() if isinstance(v, Hex)] and hex_label not in fields.values():
                return False
        return True
