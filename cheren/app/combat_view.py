"""The attack panel ("Attack · what if"), shown in the Combat phase: the defender and the
attackers, the odds with every shift and the chance of each outcome, Roll, Clear and the air
box; after a roll, while a chit window holds the die back, the attack rolled and the chits that
may change it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cheren.app import panels
from cheren.app.widgets import button, panel
from cheren.scenario.models import Phase

if TYPE_CHECKING:
    from cheren.app.board import Board


class CombatView:
    def __init__(self, board: Board) -> None:
        import ipywidgets as w

        self.board = b = board
        c = b.combat
        self.odds = w.HTML()
        self.odds.add_class("cheren-whatif")
        self.air = w.Checkbox(value=False, description="air support (11.3)", indent=False,
                              layout=w.Layout(width="150px"))
        self.air.observe(lambda change: c.set_air(change["new"]) if change["new"] != c.draft.air else None, "value")
        self.air_note = w.HTML()  # why the air box is off, in words (a disabled box shows no tooltip)
        self.air_note.add_class("cheren-air-note")
        buttons = w.HBox([
            button("Roll the attack", "cheren-resolve", c.resolve_attack, style="danger"),
            button("Clear", "cheren-clear-attack", lambda: c.set_defender(None)),
            self.air,
        ], layout=w.Layout(align_items="center"))
        self.panel = panel("Attack · what if", [self.odds, buttons, self.air_note], "cheren-attack")

    def changed(self, what: set[str]) -> None:
        if not what & {"game", "selection"}:
            return
        b = self.board
        c = b.combat
        shown = b.game.phase is Phase.COMBAT
        self.panel.layout.display = "flex" if shown else "none"
        if not shown:
            return
        waiting = c.waiting_attack()
        if waiting is not None and c.draft.defender is None:
            target, attackers, whatif, chits = waiting
            names = ", ".join(b.name(u) for u in attackers)
            plays = "".join(f"<li>{panels.esc(x)}</li>" for x in chits)
            self.odds.value = (
                f'<div class="cheren-waiting"><b>Rolled</b>: {panels.esc(names)} against {target.label}. The die waits '
                f"for the chit window (5.1); a chit played now changes these odds:<ul>{plays}</ul></div>"
                + panels.odds_html(whatif)
            )
        else:
            self.odds.value = panels.attackers_html(b) + panels.odds_html(c.whatif())
        why = c.air_refusal()
        self.air.disabled = why is not None
        self.air.tooltip = f"Not now: {why.reason} (11.3)" if why is not None else "Add the air unit's 1 strength point"
        self.air_note.value = (f"<small>No air support now: {panels.esc(why.reason)}{panels.rules_badges(why.rules)}"
                               "</small>" if why is not None else "")
        if self.air.value != c.draft.air:
            self.air.value = c.draft.air
