"""The position file, as a person writes it: pydantic models of ``positions/<name>.yaml``.

A position file names units by counter id or printed name and hexes by their CCRR label, so a
teacher can write one by hand.  The models check each value on its own; what needs the scenario
(does that unit exist, is that hex on the map, is the stack legal) is checked when the file is
built into a position (:mod:`cheren.files.position_files`), with the same precise messages.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any

from pydantic import AfterValidator, Field, field_validator, model_validator

from cheren.hexes import parse_label
from cheren.scenario.models import Phase, Provenance, Side, Strict


def _real_label(value: str) -> str:
    parse_label(value)  # '0000', '1100': four digits, yet no hex (columns and rows count from 01)
    return value


HexText = Annotated[
    str,
    Field(pattern=r"^\d{4}$", description="hex label CCRR, e.g. 1708 (write it in quotes)"),
    AfterValidator(_real_label),
]
UnitRef = Annotated[str, Field(min_length=1, description="a counter id or its printed name, e.g. '5 Ind'")]


def _quoted_hex(value: Any) -> Any:
    # YAML reads an unquoted 1708 as a number (and 0407 as an octal one): say so plainly.
    if isinstance(value, int) and not isinstance(value, bool):
        raise ValueError(f'write the hex label in quotes, e.g. hex: "{value:04d}" (YAML reads {value} as a number)')
    return value


class Placement(Strict):
    """One unit on the map."""

    unit: UnitRef
    hex: HexText
    steps: int | None = Field(None, ge=1, description="steps left (default: all of them, 11.6)")
    supply: Annotated[str, Field(pattern=r"^(low|no)$")] | None = Field(
        None, description="a Low or No supply marker (12.4)"
    )
    defected: bool = Field(False, description="a native unit that went over to the Allies (6.0)")
    provenance: Provenance = Field(
        description="'historical: source' or 'reconstructed: reason' for putting the unit here"
    )

    @field_validator("hex", mode="before")
    @classmethod
    def _hex_in_quotes(cls, value: Any) -> Any:
        return _quoted_hex(value)


class Chits(Strict):
    """The chits, by name.  Omit the section to draw both hands from the seed (5.0)."""

    allied: list[str] = Field(default_factory=list, description="the Allied hand")
    italian: list[str] = Field(default_factory=list, description="the Italian hand")
    cup: list[str] | None = Field(None, description="the common cup in draw order (default: the rest, sorted)")
    played: list[str] = Field(default_factory=list, description="face up until the end of the phase (5.1)")
    removed: list[str] = Field(default_factory=list, description="out of play: one-time chits used (5.1)")
    seen_allied: list[str] = Field(default_factory=list, description="removed Italian chits the Allies drew unseen")
    seen_italian: list[str] = Field(default_factory=list, description="removed Allied chits the Italians drew unseen")


class Question(Strict):
    """The question a position puts, and the side whose commander must answer it."""

    side: Side = Field(description="who decides: the side to act when the position opens")
    text: str = Field(min_length=1, description="the decision, in a sentence or two (Markdown)")


class Event(Strict):
    """Something that happened after the position's moment, dated, with its source in brackets."""

    date: dt.date
    text: str = Field(min_length=1, description="what happened, citing its source as [Key, chapter]")


class PlanStep(Strict):
    """One action of a line of play, as a person writes it: units by printed name, hexes by label.
    ``kind`` is an action of the gate (move, attack, end_phase, choose_arrival, ...); a move names
    its destination (``to``, the cheapest legal path is taken) or its whole ``path``."""

    kind: str = Field(pattern=r"^[a-z_]+$", description="the action: move, attack, end_phase, choose_arrival ...")
    unit: UnitRef | None = None
    to: HexText | None = Field(None, description="a move's destination")
    path: list[HexText] | None = Field(None, description="a move's hexes, the start excluded")
    target: HexText | None = Field(None, description="the hex attacked")
    attackers: list[UnitRef] | None = None
    air: bool | None = Field(None, description="add the air support unit to the attack (11.3)")
    code: str | None = Field(None, description="the arrival code of choose_arrival, e.g. K7-F8 (8.4)")
    postpone: bool | None = None

    @field_validator("to", "target", mode="before")
    @classmethod
    def _hexes_in_quotes(cls, value: Any) -> Any:
        return _quoted_hex(value)

    @field_validator("path", mode="before")
    @classmethod
    def _path_in_quotes(cls, value: Any) -> Any:
        return [_quoted_hex(v) for v in value] if isinstance(value, list) else value


class Plan(Strict):
    """The historical plan: what the commander who decided actually did, as a line of play from the
    position through the gate (it ends at the first die roll: what follows depends on the dice)."""

    summary: str = Field(min_length=1, description="the plan in words, with its source in brackets")
    steps: list[PlanStep] = Field(min_length=1)


class Follows(Strict):
    """The library position this one follows (the same week's earlier one, or the week before), and
    what was played in between, so a reader knows why the units stand elsewhere now."""

    position: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", description="the library name of the earlier position")
    why: str = Field(min_length=1, description="what was played between the two")


class PositionFileModel(Strict):
    """``positions/<name>.yaml``: a named, dated position to study or play from."""

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", description="the library name: lower case, digits and '-'")
    title: str = Field(min_length=1)
    date: dt.date = Field(description="the historical date the position represents (ISO, e.g. 1941-01-26)")
    turn: int = Field(ge=1, le=12, description="the game turn (turn 1 is the week of 19 January 1941)")
    side: Side = Field(description="the phasing side (7.0)")
    phase: Phase = Field(description="the phase the position starts in (7.0)")
    seed: int = Field(0, ge=0, le=2**63 - 1, description="dice seed for play from here (and the chit draw)")
    dice_state: Annotated[str, Field(pattern=r"^0x[0-9a-f]{1,16}$")] | None = Field(
        None, description="the dice exactly (only when it is not the seed's own start)"
    )
    sources: list[str] = Field(default_factory=list, description="the works the narrative and placements cite")
    narrative: str = Field("", description="what happened that week and what each side faced (Markdown)")
    question: Question | None = Field(None, description="the decision the position puts, and whose it is")
    happened_next: list[Event] = Field(default_factory=list, description="what actually happened next, dated")
    historical_plan: Plan | None = Field(None, description="what the deciding side did, as a line of play")
    follows: Follows | None = Field(
        None, description="the earlier library position this one follows, and what came between"
    )
    units: list[Placement] = Field(default_factory=list, description="every unit on the map")
    eliminated: list[UnitRef] = Field(default_factory=list)
    to_arrive: list[UnitRef] = Field(
        default_factory=list,
        description="reinforcements not yet arrived; units due later than the position are to arrive anyway",
    )
    allied_control: list[str] = Field(default_factory=list, description="towns with an Allied Control marker (2.1)")
    garrisons_released: list[str] = Field(default_factory=list, description="released garrison areas (6.0)")
    postponed: list[UnitRef] = Field(default_factory=list, description="took the later arrival option (8.4)")
    delayed: list[UnitRef] = Field(default_factory=list, description="arrivals waiting for a free town (8.1, 8.2)")
    to_arrive_steps: dict[UnitRef, int] = Field(
        default_factory=dict,
        description="steps left of an Allied reinforcement still to arrive that lost steps fighting for its "
        "arrival town and waits to arrive again (8.1); a unit not named here arrives at full strength",
    )
    off_map: list[UnitRef] = Field(
        default_factory=list,
        description="the air unit waiting off the map, in its arrival phase once it has arrived (11.3; "
        "later it is off the map whenever the file does not place it)",
    )
    mid_phase: bool = Field(
        False,
        description="taken in the middle of its phase (a game's position): a stack may stand over its limit "
        "until the phase ends (3.1)",
    )
    chits: Chits | None = None

    @model_validator(mode="before")
    @classmethod
    def _mapping(cls, value: Any) -> Any:
        if not isinstance(value, dict):
            raise ValueError(f"a position file holds a mapping of fields, not {type(value).__name__}")
        return value
