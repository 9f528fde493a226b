"""The order of 11.5 to 11.9 after the die of one attack, as a small state machine.

The game (:mod:`cheren.engine.rules.combat_resolution`) and the what-if
(:mod:`cheren.engine.combat_whatif`) both follow it: :func:`next_step` says what comes next for
the attack being resolved, each of them does it its own way (the game asks the players and
changes the position; the what-if answers from stated choices and counts steps), and the
answers go back through :meth:`Resolution.retreat`, :meth:`Resolution.stay` and
:meth:`Resolution.push`.  So the two can never disagree on the order:

1. on an "r" result the defender chooses first: retreat, or stay and lose one extra step
   (11.7; the choice comes first because 11.6 lets artillery absorb losses only in a retreat),
   unless the result eliminates the whole stack;
2. the defender's losses (11.5, 11.6);
3. the retreat, or the extra step for staying (11.7);
4. on a die of 5 or 6, when the defender stayed and still holds the hex, the attacker may push
   if it has a step to spare beyond its table loss; the push costs it a step and the defender
   chooses again (11.8), then back to 3;
5. the attacker's losses (11.5, 11.6);
6. if the hex was vacated, the advance (11.9).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

from cheren.hexes import Hex
from cheren.scenario.models import CombatResult, Side

PUSH_ROLLS = (5, 6)  # 11.8

# What :func:`next_step` asks for.
CHOOSE_RETREAT = "choose_retreat"  # the defender: retreat or stay (11.7, 11.8)
DEFENDER_LOSS = "defender_loss"  # the defender loses ``n`` steps (11.5, 11.6)
RETREAT = "retreat"  # the defenders move to ``retreat_to`` (11.7)
STAY_LOSS = "stay_loss"  # the defender stayed: one more step (11.7)
CHOOSE_PUSH = "choose_push"  # the attacker: push or not (11.8)
PUSH_LOSS = "push_loss"  # the push costs the attacker one step (11.8)
ATTACKER_LOSS = "attacker_loss"  # the attacker loses ``n`` steps (11.5)
CHOOSE_ADVANCE = "choose_advance"  # the attacker: advance into the vacated hex (11.9)


class Step(NamedTuple):
    kind: str
    n: int = 0  # steps to lose


@dataclass
class Resolution:
    """The attack being resolved: where the sequence of 11.5-11.9 stands."""

    target: Hex
    side: Side  # the attacker
    attackers: tuple[str, ...]
    die: int
    result: CombatResult
    column: str
    stage: str = "choice"
    retreat_to: Hex | None = None
    stayed: bool = False
    pushes: int = 0
    lost: list[str] = field(default_factory=list)  # attackers that lost a step in this attack
    advanced: list[str] = field(default_factory=list)

    # -- the answers ---------------------------------------------------------------------------
    def retreat(self, to: Hex) -> None:
        """The defender retreats to ``to`` (11.7)."""
        self.retreat_to = to

    def stay(self) -> None:
        """The defender stays and loses a step instead (11.7)."""
        self.stayed = True

    def push(self) -> None:
        """The attacker pushes (11.8)."""
        self.pushes += 1
        self.stage = "push_loss"


class Combatants(Protocol):
    """What the sequence needs to know of the units as it goes."""

    def defenders(self) -> tuple[str, ...]:
        """The defending units still in the hex."""
        ...

    def defender_steps(self) -> int: ...

    def attacker_steps(self) -> int:
        """The steps the attacking units have left."""
        ...

    def push_allowed(self) -> bool:
        """Whether the rules in use allow a push at all (the losses-stand variant does not)."""
        ...

    def may_advance(self) -> bool:
        """Whether any attacking unit may advance now (11.9)."""
        ...


def next_step(cur: Resolution, units: Combatants) -> Step | None:
    """What comes next for the attack (and ``cur.stage`` moves past it), or None when it is over."""
    while True:
        stage = cur.stage
        if stage == "choice":
            cur.stage = "defender_losses"
            cur.retreat_to, cur.stayed = None, False
            first = cur.pushes == 0
            if units.defenders() and (
                not first or (cur.result.retreat and cur.result.defender < units.defender_steps())
            ):
                return Step(CHOOSE_RETREAT)
        elif stage == "defender_losses":
            cur.stage = "after_losses"
            n = cur.result.defender
            if cur.pushes == 0 and n and units.defenders():
                return Step(DEFENDER_LOSS, n)
        elif stage == "after_losses":
            cur.stage = "push" if cur.stayed else "attacker_losses"
            if cur.retreat_to is not None and units.defenders():
                return Step(RETREAT)
            if cur.stayed and units.defenders():
                return Step(STAY_LOSS, 1)
        elif stage == "push":
            cur.stage = "attacker_losses"
            # 11.8 makes the push an extra step, and 11.5 takes the table's loss after the
            # defender's: an attacker with no step left beyond that loss cannot pay for a push.
            payable = units.attacker_steps() > cur.result.attacker
            if cur.stayed and cur.die in PUSH_ROLLS and units.defenders() and payable and units.push_allowed():
                return Step(CHOOSE_PUSH)
        elif stage == "push_loss":
            cur.stage = "choice"
            if units.attacker_steps():
                return Step(PUSH_LOSS, 1)
        elif stage == "attacker_losses":
            cur.stage = "advance"
            n = cur.result.attacker
            if n and units.attacker_steps():
                return Step(ATTACKER_LOSS, n)
        elif stage == "advance":
            cur.stage = "done"
            if not units.defenders() and units.may_advance():
                return Step(CHOOSE_ADVANCE)
        else:
            return None
