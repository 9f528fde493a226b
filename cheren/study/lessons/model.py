"""The lesson file, as a teacher writes it: pydantic models of ``lessons/<NN>_<name>.yaml``.

A lesson is explanation blocks plus exercises.  An exercise is data, never Python: a start
position (a library position, a position file, a code, or an inline position), the side the
learner plays, a goal in words, a success test from a small vocabulary, up to three hints, a
solution written as the clicks a learner makes, and the wrong answers a teacher expects with
the feedback to give.  ``cheren schema --file lesson`` prints the JSON Schema.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Discriminator, Field, Tag, model_validator

from cheren.files.position_model import HexText as _HexText
from cheren.files.position_model import UnitRef, _quoted_hex
from cheren.scenario.models import Phase, Side, Strict

RuleNumber = Annotated[str, Field(pattern=r"^\d{1,2}\.\d$", description="a rule number, e.g. 11.7")]
Panel = Literal["stack", "decision", "attack", "overlays", "chits", "rules", "log"]
DEFAULT_PANELS: tuple[Panel, ...] = ("stack", "decision", "attack", "rules")
HexText = Annotated[_HexText, BeforeValidator(_quoted_hex)]  # an unquoted 0408 gets a plain message


def _plain_text(value: Any) -> Any:
    # "Tip: do this" unquoted in YAML is a mapping, not a sentence: say so plainly.
    if isinstance(value, dict):
        raise ValueError(
            "this reads as a mapping: a colon followed by a space starts one in YAML; put the text in quotes"
        )
    return value


Text = Annotated[str, BeforeValidator(_plain_text), Field(min_length=1)]
Column = Annotated[str, Field(pattern=r"^\d{1,2}-\d{1,2}$", description="a combat table column, e.g. 3-1")]


class _OneKey(Strict):
    """A mapping holding exactly one of the fields (a step or a test names what it is by its key)."""

    @model_validator(mode="before")
    @classmethod
    def _exactly_one(cls, value: Any) -> Any:
        if not isinstance(value, dict):
            raise ValueError(f"write a mapping with one of: {', '.join(cls.model_fields)}")
        keys = [k for k in value if k in cls.model_fields]
        unknown = [str(k) for k in value if k not in cls.model_fields]
        if unknown:
            raise ValueError(f"unknown key {unknown[0]!r}; use one of: {', '.join(cls.model_fields)}")
        if len(keys) != 1:
            raise ValueError(f"write exactly one of: {', '.join(cls.model_fields)} (found {len(keys)})")
        return value

    @property
    def key(self) -> str:
        return next(k for k in type(self).model_fields if getattr(self, k) is not None)

    @property
    def value(self) -> Any:
        return getattr(self, self.key)


# -- steps: what a learner does on the map, in the app's own terms ------------------------------
class MoveStep(Strict):
    unit: UnitRef
    to: HexText
    stack: bool = Field(False, description="move every unit of the stack that can go there")


class AttackStep(Strict):
    hex: HexText = Field(description="the defending hex")
    with_: list[UnitRef] = Field(alias="with", min_length=1, description="the attacking units")
    air: bool = Field(False, description="add the air support unit (11.3)")


class AnswerStep(Strict):
    """An answer to the decision the rules hand the learner, picked by its kind and object."""

    kind: str = Field(description="retreat, stay_and_lose, remove_step, push, advance, no_advance, place, ...")
    unit: UnitRef | None = None
    hex: HexText | None = None
    value: bool | None = Field(None, description="for a yes-or-no answer such as push: true or false")


class ChitStep(Strict):
    chit: str = Field(min_length=1, description="the chit's name, e.g. Roadblock")
    unit: UnitRef | None = None
    target: str | None = Field(None, description="a hex label, or a hexside CCRR/CCRR")


class Step(_OneKey):
    """One thing the learner does: select a unit, click a hex, move, line up an attack, roll it,
    answer a decision, play or pass a chit, end the phase."""

    select: UnitRef | None = None
    click: HexText | None = None
    move: MoveStep | None = None
    attack: AttackStep | None = None
    roll: Literal[True] | None = None
    answer: AnswerStep | None = None
    play_chit: ChitStep | None = None
    pass_chit: Literal[True] | None = None
    replace: UnitRef | None = None
    end_phase: Literal[True] | None = None


# -- tests: what must hold when the learner presses Check ---------------------------------------
class UnitIn(Strict):
    unit: UnitRef
    hexes: list[HexText] = Field(min_length=1)


class OddsAtLeast(Strict):
    column: Column
    hex: HexText | None = Field(None, description="the defending hex (default: any)")
    with_: list[UnitRef] = Field(default_factory=list, alias="with",
                                 description="units the attack must include (those the goal names)")


class Supplied(Strict):
    unit: UnitRef
    value: bool = Field(True, description="true: the unit must be in supply; false: out of it")


class Controls(Strict):
    town: str
    side: Side


class Did(Strict):
    """The learner made an action of this kind (with this unit or hex) through the gate."""

    kind: str
    unit: UnitRef | None = None
    hex: HexText | None = None
    value: bool | None = Field(None, description="for a yes-or-no action such as push: true or false")


class Refused(Strict):
    """The learner tried something the rules forbid, and the refusal cites this rule (and names
    this hex, when the goal asks for a try at a hex)."""

    rule: RuleNumber
    hex: HexText | None = Field(None, description="the refusal must be about this hex (it names it)")


class Reached(Strict):
    phase: Phase
    side: Side | None = None
    turn: int | None = Field(None, ge=1, le=12)


class Released(Strict):
    area: str = Field(description="a garrison area: Wolkait or Tigre")
    value: bool = True


class StepsLeft(Strict):
    unit: UnitRef
    steps: int = Field(ge=0, description="steps the unit has left (0: eliminated)")


class Test(_OneKey):
    """One condition of success."""

    unit_in: UnitIn | None = None
    odds_at_least: OddsAtLeast | None = None
    supplied: Supplied | None = None
    controls: Controls | None = None
    did: Did | None = None
    refused: Refused | None = None
    reached: Reached | None = None
    steps_left: StepsLeft | None = None
    released: Released | None = None


class WrongAnswer(Strict):
    """A mistake a teacher expects: the steps that make it, what to tell the learner, and the
    rule that decides it (the gate's refusal cites it, or the teacher names it)."""

    steps: list[Step] = Field(min_length=1)
    feedback: Text
    rule: RuleNumber


class InlinePosition(Strict):
    """A small teaching position: only the units it lists are on the map; every other unit is
    eliminated unless listed under ``to_arrive``.  It goes through the same checker as a position
    file (rules 3.1, 4.0, 6.0 and the rest)."""

    turn: int = Field(1, ge=1, le=12)
    side: Side = Side.ALLIED
    phase: Phase = Phase.MOVEMENT
    seed: int = Field(1941, ge=0, le=2**63 - 1)
    units: list[dict[str, Any]] = Field(min_length=1, description="as in a position file; provenance optional")
    to_arrive: list[UnitRef] = Field(default_factory=list)
    allied_control: list[str] = Field(default_factory=list)
    garrisons_released: list[str] = Field(default_factory=list)
    chits: dict[str, Any] | None = None


def _position_kind(value: Any) -> str:
    # one branch by the value's shape, so an inline position's own mistakes are the ones named;
    # the tags read as type names, which error messages leave out
    return "dict[InlinePosition]" if isinstance(value, dict | InlinePosition) else "Reference"


PositionRef = Annotated[
    Annotated[str, Tag("Reference")] | Annotated[InlinePosition, Tag("dict[InlinePosition]")],
    Discriminator(_position_kind),
]


class Exercise(Strict):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    title: Text
    goal: Text = Field(description="what the learner must do, in words")
    position: PositionRef = Field(
        description="a library name, a position file beside the lesson, a code, or inline"
    )
    side: Side = Field(description="the side the learner plays; the other side passes")
    rules: list[RuleNumber] = Field(default_factory=list)
    setup: list[Step] = Field(default_factory=list, description="steps played before the learner starts")
    success: list[Test] = Field(min_length=1)
    hints: list[Text] = Field(default_factory=list, max_length=3)
    solution: list[Step] = Field(min_length=1)
    explain: str = Field("", description="shown when the exercise is solved")
    wrong: list[WrongAnswer] = Field(default_factory=list)


class Checklist(Strict):
    title: Text
    items: list[Text] = Field(min_length=1)


class Block(_OneKey):
    """One block of explanation: a paragraph, a TIP, or an "Order of ..." checklist."""

    text: Text | None = None
    tip: Text | None = None
    checklist: Checklist | None = None


class LessonFileModel(Strict):
    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", description="the lesson's name: lower case, digits and '-'")
    title: str = Field(min_length=1)
    order: int = Field(ge=0, le=99, description="its place in the course")
    rules: list[RuleNumber] = Field(min_length=1, description="the rules it covers")
    panels: list[Panel] = Field(
        default_factory=lambda: list(DEFAULT_PANELS),
        description="the app's side panels the lesson shows (the others stay hidden)",
    )
    blocks: list[Block] = Field(min_length=1)
    exercises: list[Exercise] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique_ids(self) -> LessonFileModel:
        seen: set[str] = set()
        for e in self.exercises:
            if e.id in seen:
                raise ValueError(f"two exercises are called {e.id!r}")
            seen.add(e.id)
        return self
