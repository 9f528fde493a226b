"""The attack being lined up in the Combat phase (11.0): a click on an enemy hex picks the
defender, clicks on your stacks add or take out their eligible units, the what-if shows the odds
with every reason and the exact chance of each outcome, and Roll sends one ``Attack`` through the
gate.  While a chit window holds the die back (5.1), the attack rolled stays on show."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cheren.engine.registry import Refusal
from cheren.engine.wording import hex_text
from cheren.hexes import Hex
from cheren.study.map_intents import (
    AttackDraft,
    Feedback,
    air_refusal,
    attacker_refusal,
    draft_attack,
    draft_whatif,
    enemy_at,
)

if TYPE_CHECKING:
    from cheren.app.board import Board


@dataclass(frozen=True)
class Rolled:
    """An attack sent to the gate, with the what-if it was rolled on."""

    target: Hex
    attackers: tuple[str, ...]
    whatif: Any

    @property
    def column(self) -> int:
        return int(getattr(self.whatif, "odds", self.whatif).column)


class CombatDraft:
    def __init__(self, board: Board) -> None:
        self.board = board
        self.draft = AttackDraft()
        self.rolls: list[Rolled] = []  # every attack rolled in this game, the last one last

    def clear(self) -> None:
        """No attack lined up."""
        self.draft = AttackDraft()

    # -- clicks -------------------------------------------------------------------------------------
    def click(self, h: Hex) -> Feedback:
        """A click in the Combat phase: on an enemy hex it picks the defender; on your own stack
        it selects it and, once a defender is picked, adds (or takes out) its eligible units."""
        b = self.board
        p, g = b.position, b.game
        if enemy_at(g, h):
            return self.set_defender(h)
        mine = [u for u in p.units_at(h) if p.units[u].side is g.phasing]
        if not mine:
            b.stack_hex = None
            return b.say(Feedback("info", b.play.hex_text(h)), "selection")
        b.selected, b.stack_hex = b.play.stack(h)[0].id, h
        a = self.draft
        if a.defender is None:
            text = f"{b.name(b.selected)} selected. Click an enemy hex next to it to line up an attack (11.0)."
            return b.say(Feedback("info", text), "selection")
        eligible = [u for u in mine if self.attacker_refusal(u) is None]
        if not eligible:
            why = self.attacker_refusal(mine[0])
            assert why is not None
            text = f"{b.name(mine[0])} cannot attack {a.defender.label}: {why.reason}"
            return b.say(Feedback("refused", text, why.rules), "selection")
        if all(u in a.attackers for u in eligible):
            a.attackers = [u for u in a.attackers if u not in eligible]
            said = f"Took {', '.join(b.name(u) for u in eligible)} ({h.label}) out of the attack. "
        else:
            added = [u for u in eligible if u not in a.attackers]
            a.attackers += added
            said = f"Added {', '.join(b.name(u) for u in added)} ({h.label}) to the attack. "
        fb = self.odds_feedback()
        return b.say(Feedback(fb.kind, said + fb.text, fb.rules), "selection")

    def attacker_refusal(self, uid: str) -> Refusal | None:
        """Why ``uid`` may not join the attack on the picked defender, or None."""
        return attacker_refusal(self.board.game, self.draft, uid)

    def set_defender(self, h: Hex | None) -> Feedback:
        """Pick the hex to attack; the selected stack's eligible units join at once."""
        b = self.board
        if h is None:
            self.clear()
            return b.say(Feedback("info", "Attack cleared."), "selection")
        if not enemy_at(b.game, h):
            return b.say(Feedback("refused", f"{hex_text(h)} holds no enemy unit to attack", ("11.0",)))
        if self.draft.defender != h:
            self.draft = AttackDraft(defender=h)
            if b.stack_hex is not None:
                for uid in b.position.units_at(b.stack_hex):
                    if b.position.units[uid].side is b.game.phasing and self.attacker_refusal(uid) is None:
                        self.draft.attackers.append(uid)
        return b.say(self.odds_feedback(), "selection")

    def toggle_attacker(self, uid: str) -> Feedback:
        """Add a unit to the attack being lined up, or take it out; refused with the rule when
        it may not attack that hex."""
        b = self.board
        if uid in self.draft.attackers:
            self.draft.attackers.remove(uid)
            return b.say(self.odds_feedback(), "selection")
        why = self.attacker_refusal(uid)
        if why is not None:
            return b.say(Feedback.refused(why, f"{b.name(uid)} cannot join this attack: "))
        self.draft.attackers.append(uid)
        return b.say(self.odds_feedback(), "selection")

    def air_refusal(self) -> Refusal | None:
        """Why the air unit may not join an attack now (11.3), or None."""
        return air_refusal(self.board.game)

    def set_air(self, on: bool) -> Feedback:
        b = self.board
        why = self.air_refusal() if on else None
        if why is not None:
            self.draft.air = False
            return b.say(Feedback.refused(why, "No air support: "), "selection")
        self.draft.air = on
        return b.say(self.odds_feedback(), "selection")

    # -- the what-if and the roll ---------------------------------------------------------------
    def whatif(self) -> Any:
        """The what-if of the attack lined up (odds, shifts with reasons, the exact outcome
        distribution), or None while attackers or defender are missing."""
        return draft_whatif(self.board.game, self.draft)

    def odds_feedback(self) -> Feedback:
        b, a = self.board, self.draft
        if a.defender is None:
            return Feedback("info", "Click an enemy hex to attack it.")
        if not a.attackers:
            return Feedback("info", f"Defender: {a.defender.label}. Click your units next to it to add them (11.0).")
        w = self.whatif()
        names = ", ".join(b.name(u) for u in a.attackers)
        text = f"{names} against {a.defender.label}: {w.odds.explain()}"
        refusal = getattr(w, "refusal", None)
        if refusal is not None:
            return Feedback("refused", f"{text}. Not allowed now: {refusal.reason}", refusal.rules)
        return Feedback("info", text)

    def resolve_attack(self) -> Feedback:
        """Roll the attack lined up (one ``Attack`` action through the gate); the choices it
        hands out (losses, retreat, push, advance) follow as pending decisions."""
        b, a = self.board, self.draft
        if a.defender is None or not a.attackers:
            return b.say(Feedback("refused", "Pick a defending hex and at least one attacker first.", ("11.0",)))
        action = draft_attack(a)
        refusal = b.game.check(action).refusal
        if refusal is not None:
            return b.say(Feedback.refused(refusal, "The attack is refused: "))
        # the odds stay on show while a chit window holds the die back (5.1)
        self.rolls.append(Rolled(a.defender, tuple(a.attackers), self.whatif()))
        self.clear()
        events = b.push(action)
        return b.say(Feedback("ok", self._roll_text(events), events=tuple(events)), "game", "selection")

    def _roll_text(self, events: list[str]) -> str:
        """The die roll if it happened, else what the rules wait for (a chit window first)."""
        roll = next((e for e in events if e.startswith("die ")), None)
        if roll is not None:
            return roll
        d = self.board.game.pending
        if d is not None:
            return f"{d.side.adjective} to decide first: {d.prompt.removeprefix(d.side.adjective + ': ')}"
        return "; ".join(events[:2]) or "attack declared"

    def waiting_attack(self) -> tuple[Hex, tuple[str, ...], Any, list[str]] | None:
        """The attack rolled whose die waits for a chit window: its hex, attackers, what-if, and
        each chit that may be played on it now, with what it does (5.1)."""
        d = self.board.game.pending
        if not self.rolls or d is None or d.kind != "chit_window":
            return None
        last = self.rolls[-1]
        return (last.target, last.attackers, last.whatif, self.board.decisions.chit_effects())

    def combat_state(self) -> Any:
        """The combat rules' record of this phase (assemblies, who attacked)."""
        from cheren.engine.rules.combat import combat_state

        return combat_state(self.board.game)
