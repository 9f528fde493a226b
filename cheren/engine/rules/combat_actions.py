"""The actions of the Combat phase (11.0-11.9), as small immutable values registered for the
JSON log.  Their rules live in :mod:`cheren.engine.rules.combat`.

Declaring an attack is staged, so the list of legal actions stays small: :class:`Commit` adds
one unit to the attack being assembled against a hex, :class:`AddAir` lays the air unit on it,
:class:`Resolve` rolls.  :class:`Attack` does all three at once (handy for notebooks and bots).
The other actions answer the decisions a combat hands to the players; step losses are answered
with the ordinary :class:`cheren.engine.actions.RemoveStep`, a retreat with :class:`cheren.engine.actions.Retreat`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cheren.engine.actions import Action, register
from cheren.engine.wording import hex_text
from cheren.hexes import Hex


@dataclass(frozen=True)
class Commit(Action):
    """Add one unit to the attack being assembled against ``target`` (11.0)."""

    kind: ClassVar[str] = "commit"
    unit: str
    target: Hex

    def describe(self) -> str:
        return f"commit {self.unit} against {hex_text(self.target)}"


@dataclass(frozen=True)
class Uncommit(Action):
    """Take a unit (or the air unit) back out of an attack that has not been rolled yet."""

    kind: ClassVar[str] = "uncommit"
    unit: str
    target: Hex

    def describe(self) -> str:
        return f"withdraw {self.unit} from the attack on {hex_text(self.target)}"


@dataclass(frozen=True)
class AddAir(Action):
    """Lay the air support unit on the attack being assembled against ``target`` (11.3)."""

    kind: ClassVar[str] = "add_air"
    target: Hex

    def describe(self) -> str:
        return f"add the air support unit to the attack on {hex_text(self.target)}"


@dataclass(frozen=True)
class Resolve(Action):
    """Roll the attack assembled against ``target`` (11.5)."""

    kind: ClassVar[str] = "resolve"
    target: Hex

    def describe(self) -> str:
        return f"resolve the attack on {hex_text(self.target)}"


@dataclass(frozen=True)
class Attack(Action):
    """Declare and roll an attack in one action: the same as committing each unit, adding the
    air unit if ``air``, and resolving."""

    kind: ClassVar[str] = "attack"
    target: Hex
    attackers: tuple[str, ...]
    air: bool = False

    def describe(self) -> str:
        with_air = " with air support" if self.air else ""
        return f"attack {hex_text(self.target)} with {', '.join(self.attackers)}{with_air}"


@dataclass(frozen=True)
class StayAndLose(Action):
    """Answer a retreat result by staying put and losing one step for the stack (11.7)."""

    kind: ClassVar[str] = "stay_and_lose"

    def describe(self) -> str:
        return "stay and lose a step instead of retreating"


@dataclass(frozen=True)
class Push(Action):
    """Declare a push (``yes``) or not (11.8)."""

    kind: ClassVar[str] = "push"
    yes: bool

    def describe(self) -> str:
        return "push" if self.yes else "do not push"


@dataclass(frozen=True)
class Advance(Action):
    """Advance one attacking unit into the vacated hex (11.9)."""

    kind: ClassVar[str] = "advance"
    unit: str

    def describe(self) -> str:
        return f"advance {self.unit}"


@dataclass(frozen=True)
class NoAdvance(Action):
    """Advance no (more) units after this combat (11.9)."""

    kind: ClassVar[str] = "no_advance"

    def describe(self) -> str:
        return "advance no further"


for _cls in (Commit, Uncommit, AddAir, Resolve, Attack, StayAndLose, Push, Advance, NoAdvance):
    register(_cls)
