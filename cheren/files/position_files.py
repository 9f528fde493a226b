"""Position files: read one into a :class:`~cheren.engine.position.Position`, write one back.

Reading names every problem by file, field and hex (``agordat.yaml: units[3] (5 Ind).hex: ...``)
and refuses a position the rules could never reach (:mod:`cheren.files.position_problems`).  Writing
is canonical: a file written by :func:`dump_position_file` reads back and writes again to the
same bytes, which is how the library files are kept.
"""

from __future__ import annotations

import datetime as dt
import difflib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cheren.engine.dice import Dice
from cheren.engine.position import ChitState, Position, Status, Supply, UnitState, chit_instances, chit_key
from cheren.engine.wording import counted
from cheren.files.position_model import Chits, Event, Follows, Placement, Plan, PositionFileModel, Question
from cheren.files.position_problems import canonical, canonical_chits, errors, has_arrived
from cheren.files.position_saves import SaveError
from cheren.hexes import Hex
from cheren.scenario.compiled import Scenario
from cheren.scenario.errors import Problem
from cheren.scenario.loader import validate_model
from cheren.scenario.models import Provenance, Side
from cheren.scenario.safe_yaml import YamlInputError, parse, read_text

SUFFIX = ".yaml"


class PositionError(SaveError):
    """A position file or code that cannot be used; ``problems`` lists every problem found,
    each naming the file, the field and, where there is one, the hex."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = list(problems)
        if len(self.problems) == 1:
            text = str(self.problems[0])
        else:
            text = "\n".join([f"{len(self.problems)} problems:", *(f"  - {p}" for p in self.problems)])
        super().__init__(text)


@dataclass
class PositionRecord:
    """A position with what its file says about it: title, date, narrative, sources, and the
    provenance of every placement."""

    name: str
    title: str
    date: dt.date
    position: Position
    narrative: str = ""
    sources: list[str] = field(default_factory=list)
    provenance: dict[str, Provenance] = field(default_factory=dict)
    path: Path | None = None
    question: Question | None = None
    happened_next: list[Event] = field(default_factory=list)
    plan: Plan | None = None  # the historical plan (position_model.Plan); cheren.files.position_plans plays it
    follows: Follows | None = None

    @property
    def turn(self) -> int:
        return self.position.turn


# -- reading ---------------------------------------------------------------------------------
def read_position_file(path: str | Path, scenario: Scenario) -> PositionRecord:
    p = Path(path)
    try:
        text = read_text(p, p.name)
    except YamlInputError as exc:
        raise PositionError([Problem(p.name, None, str(exc).removeprefix(f"{p.name}: "))]) from None
    record = parse_position_text(text, scenario, source=p.name)
    record.path = p
    return record


def parse_position_text(text: str, scenario: Scenario, source: str = "<position>") -> PositionRecord:
    try:
        data = parse(text, source)
    except YamlInputError as exc:
        raise PositionError([Problem(source, None, str(exc).removeprefix(f"{source}: "))]) from None
    problems: list[Problem] = []
    if not isinstance(data, dict):
        raise PositionError([Problem(source, None, f"a position file holds a mapping of fields, not {_kind(data)}")])
    model = validate_model(PositionFileModel, data, source, problems)
    if model is None:
        raise PositionError(problems)
    return build_record(model, scenario, source)


def build_record(model: PositionFileModel, s: Scenario, source: str) -> PositionRecord:
    problems: list[Problem] = []

    def fail(where: str | None, message: str, h: str | None = None) -> None:
        problems.append(Problem(source, where, message, h))

    units = {uid: UnitState(uid, d.side, Status.POOL) for uid, d in s.units.items()}
    placed_where: dict[str, str] = {}
    provenance: dict[str, Provenance] = {}

    def claim(uid: str, where: str) -> bool:
        if uid in placed_where:
            fail(where, f"{s.units[uid].name} is already given at {placed_where[uid]}")
            return False
        placed_where[uid] = where
        return True

    for i, placement in enumerate(model.units):
        where = f"units[{i}] ({placement.unit})"
        uid = _unit(s, placement.unit, f"{where}.unit", fail)
        if uid is None or not claim(uid, where):
            continue
        _place(s, units[uid], placement, where, fail)
        provenance[uid] = placement.provenance
    for list_name, status in (
        ("eliminated", Status.ELIMINATED),
        ("to_arrive", Status.POOL),
        ("off_map", Status.OFF_MAP),
    ):
        for i, ref in enumerate(getattr(model, list_name)):
            uid = _unit(s, ref, f"{list_name}[{i}]", fail)
            if uid is not None and claim(uid, f"{list_name}[{i}]"):
                units[uid].status = status
    postponed = set(_units(s, model.postponed, "postponed", fail))
    delayed = set(_units(s, model.delayed, "delayed", fail))
    for ref, steps in model.to_arrive_steps.items():
        where = f"to_arrive_steps.{ref}"
        uid = _unit(s, ref, where, fail)
        if uid is None:
            continue
        d = s.units[uid]
        if units[uid].status is not Status.POOL:
            fail(where, f"{d.name} is not listed under to_arrive")
        elif not 1 <= steps <= d.steps:
            fail(where, f"{d.name} has {counted(d.steps, 'step')}; a reinforcement keeps 1 to {d.steps} (8.1, 11.6)")
        else:
            units[uid].steps_lost = d.steps - steps
    for uid in postponed:
        d = s.units[uid]
        if d.arrival is None or d.arrival.alternative is None:
            fail("postponed", f"{d.name} has no later arrival option to take (8.4)")

    allied_control: set[str] = set()
    for i, town in enumerate(model.allied_control):
        name = _named(town, s.towns, f"allied_control[{i}]", "town", fail)
        if name is not None:
            allied_control.add(name)
    released: set[str] = set()
    areas = {a.name: key for key, a in s.garrison_areas.items()} | {key: key for key in s.garrison_areas}
    for i, area in enumerate(model.garrisons_released):
        key = _named(area, areas, f"garrisons_released[{i}]", "garrison area", fail)
        if key is not None:
            released.add(areas[key])

    dice = Dice(model.seed)
    chits = _chits(s, model.chits, dice, fail)
    if model.dice_state is not None:
        dice = Dice(model.seed, int(model.dice_state, 16))
    if problems:
        raise PositionError(problems)

    position = Position(
        scenario=s,
        units=units,
        dice=dice,
        turn=model.turn,
        side=model.side,
        phase=model.phase,
        allied_control=allied_control,
        released=released,
        chits=chits,
        postponed=postponed,
        delayed=delayed,
    )
    # Units the file does not mention: due later (still to arrive), or the air unit waiting
    # off the map once it has arrived (11.3).
    for uid, unit in units.items():
        if uid in placed_where:
            continue
        if s.units[uid].type.air and has_arrived(position, uid):
            unit.status = Status.OFF_MAP
    for problem in errors(position, mid_phase=model.mid_phase):
        at = placed_where.get(problem.unit or "")
        if at is None and (problem.unit is not None or problem.hex is not None):
            at = "units"
        label = problem.hex.label if problem.hex is not None else None
        fail(at, str(problem), label)
    if problems:
        raise PositionError(problems)
    return PositionRecord(
        name=model.name,
        title=model.title,
        date=model.date,
        position=canonical(position),
        narrative=model.narrative,
        sources=list(model.sources),
        provenance=provenance,
        question=model.question,
        happened_next=list(model.happened_next),
        plan=model.historical_plan,
        follows=model.follows,
    )


def _place(s: Scenario, unit: UnitState, placement: Placement, where: str, fail: Any) -> None:
    d = s.units[unit.id]
    h = Hex.from_label(placement.hex)
    if h not in s.playable:
        fail(f"{where}.hex", f"{placement.hex} is not a playable hex of the map", placement.hex)
        return
    steps = d.steps if placement.steps is None else placement.steps
    if steps > d.steps:
        fail(f"{where}.steps", f"{d.name} has {counted(d.steps, 'step')}, not {steps} (11.6)", placement.hex)
        return
    if placement.defected and not d.is_native:
        fail(f"{where}.defected", f"only native units defect; {d.name} is not one (6.0)", placement.hex)
        return
    unit.status, unit.hex, unit.steps_lost = Status.MAP, h, d.steps - steps
    unit.supply = Supply(placement.supply) if placement.supply is not None else None
    unit.defected = placement.defected
    unit.side = Side.ALLIED if placement.defected else d.side


def _kind(value: Any) -> str:
    return "nothing" if value is None else type(value).__name__


def _unit(s: Scenario, ref: str, where: str, fail: Any) -> str | None:
    if ref in s.units:
        return ref
    by_name = {d.name.casefold(): uid for uid, d in s.units.items()}
    uid = by_name.get(ref.strip().casefold())
    if uid is not None:
        return uid
    close = difflib.get_close_matches(ref, [d.name for d in s.units.values()], n=3, cutoff=0.6)
    hint = (
        f"; did you mean {' or '.join(repr(c) for c in close)}?"
        if close
        else " (see the counter names in counters.yaml)"
    )
    fail(where, f"no unit named {ref!r}{hint}")
    return None


def _units(s: Scenario, refs: Iterable[str], list_name: str, fail: Any) -> list[str]:
    out = []
    for i, ref in enumerate(refs):
        uid = _unit(s, ref, f"{list_name}[{i}]", fail)
        if uid is not None:
            out.append(uid)
    return out


def _named(ref: str, names: Any, where: str, what: str, fail: Any) -> str | None:
    if ref in names:
        return ref
    folded = {n.casefold(): n for n in names}
    if ref.casefold() in folded:
        return str(folded[ref.casefold()])
    close = difflib.get_close_matches(ref, list(names), n=3, cutoff=0.6)
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    fail(where, f"no {what} named {ref!r}{hint}")
    return None


# -- chits -------------------------------------------------------------------------------------
def chit_label(s: Scenario, key: str) -> str:
    """A chit's name as files and players write it; 'Exploit (Allied)' where both sides have
    a chit of that name."""
    chit = s.chits[key]
    same = [c for c in s.chits.values() if c.name == chit.name]
    return f"{chit.name} ({chit.side.adjective})" if len(same) > 1 else chit.name


def _chit_key(s: Scenario, ref: str, side: Side | None) -> str | None:
    if ref in s.chits:
        return ref
    wanted = ref.strip().casefold()
    for key in s.chits:
        if chit_label(s, key).casefold() == wanted:
            return key
    matches = [k for k, c in s.chits.items() if c.name.casefold() == wanted and (side is None or c.side is side)]
    return matches[0] if len(matches) == 1 else None


def default_chits(s: Scenario, dice: Dice) -> ChitState:
    """Both hands drawn with the dice as at set-up (5.0), the rest in the cup."""
    from cheren.engine.opening import draw_hands

    return draw_hands(s, dice)


def _chits(s: Scenario, spec: Chits | None, dice: Dice, fail: Any) -> ChitState:
    if spec is None:
        return default_chits(s, dice)
    free = chit_instances(s)
    used: set[str] = set()

    def take(refs: list[str], where: str, side: Side | None) -> list[str]:
        out = []
        for i, ref in enumerate(refs):
            key = _chit_key(s, ref, side)
            if key is None:
                names = sorted({chit_label(s, k) for k, c in s.chits.items() if side is None or c.side is side})
                fail(f"chits.{where}[{i}]", f"no chit named {ref!r}; the chits are {', '.join(names)}")
                continue
            if side is not None and s.chits[key].side is not side:
                fail(f"chits.{where}[{i}]", f"{chit_label(s, key)} is not a {side.adjective} chit (5.0)")
                continue
            instance = next((c for c in free if chit_key(c) == key and c not in used), None)
            if instance is None:
                count = s.chits[key].count
                fail(
                    f"chits.{where}[{i}]",
                    f"there {'is' if count == 1 else 'are'} only {count} {chit_label(s, key)} chit(s)",
                )
                continue
            used.add(instance)
            out.append(instance)
        return out

    hands = {
        Side.ALLIED: take(spec.allied, "allied", Side.ALLIED),
        Side.ITALIAN: take(spec.italian, "italian", Side.ITALIAN),
    }
    played = take(spec.played, "played", None)
    removed = take(spec.removed, "removed", None)
    seen_from = {Side.ALLIED: spec.seen_allied, Side.ITALIAN: spec.seen_italian}
    seen: dict[Side, list[str]] = {}
    for side, refs in seen_from.items():
        seen[side] = []
        for i, ref in enumerate(refs):
            key = _chit_key(s, ref, side.enemy)
            instance = next(
                (c for c in removed if key is not None and chit_key(c) == key and c not in seen[side]), None
            )
            if instance is None:
                fail(f"chits.seen_{side.value}[{i}]", f"{ref!r} is not among the removed {side.enemy.adjective} chits")
                continue
            seen[side].append(instance)
    if spec.cup is None:
        cup = sorted(c for c in free if c not in used)
    else:
        cup = take(spec.cup, "cup", None)
        missing = [c for c in free if c not in used]
        if missing:
            names = ", ".join(chit_label(s, chit_key(c)) for c in missing)
            fail("chits.cup", f"the cup must hold every chit not in a hand, played or removed; missing: {names}")
    for side in Side:
        limit = s.chit_chart.hand_size
        if len(hands[side]) > limit:
            fail(f"chits.{side.value}", f"a hand holds at most {limit} chits (5.0), not {len(hands[side])}")
    return ChitState(hands=hands, cup=cup, played=played, removed=removed, seen=seen)


# -- writing ---------------------------------------------------------------------------------
def dump_position_file(record: PositionRecord) -> str:
    """The canonical text of a position file."""
    p = canonical(record.position)
    s = p.scenario
    lines = [
        "# A position of The Road to CHEREN for cheren (see the README: Positions).",
        "# Units by printed name, hexes by CCRR label; each placement says where it comes from.",
        f"name: {record.name}",
        f"title: {_q(record.title)}",
        f"date: {record.date.isoformat()}",
        f"turn: {p.turn}",
        f"side: {p.side.value}",
        f"phase: {p.phase.value}",
        f"seed: {p.dice.seed}",
    ]
    if errors(p) and not errors(p, mid_phase=True):
        lines.insert(-1, "mid_phase: true")
    expected_chits, expected_dice = _expected(p)
    if p.dice != expected_dice:
        lines.append(f'dice_state: "{p.dice.state:#x}"')
    if record.sources:
        lines.append("sources:")
        lines += [f"  - {_q(src)}" for src in record.sources]
    if record.narrative:
        lines.append("narrative: |")
        lines += _block(record.narrative, "  ")
    lines += _answer_key(record)
    on_map = [
        uid for side in Side for uid in s.units if p.units[uid].status is Status.MAP and p.units[uid].side is side
    ]
    lines.append("units:" if on_map else "units: []")
    for uid in on_map:
        u = p.units[uid]
        d = s.units[uid]
        assert u.hex is not None
        lines.append(f"  - unit: {_q(d.name)}")
        lines.append(f'    hex: "{u.hex.label}"')
        if u.steps_lost:
            lines.append(f"    steps: {d.steps - u.steps_lost}")
        if u.supply is not None:
            lines.append(f"    supply: {_q(u.supply.value)}")  # YAML reads a bare no as false
        if u.defected:
            lines.append("    defected: true")
        prov = record.provenance.get(uid)
        lines.append(
            f"    provenance: {_q(str(prov)) if prov is not None else _q('reconstructed: placed in the editor')}"
        )
    for list_name, status in (("eliminated", Status.ELIMINATED), ("to_arrive", Status.POOL)):
        names = [s.units[uid].name for uid in s.units if p.units[uid].status is status]
        lines += _list(list_name, names)
    # off the map without a word only once its arrival phase is over (see build_record)
    early = [s.units[u].name for u in s.units if p.units[u].status is Status.OFF_MAP and not has_arrived(p, u)]
    lines += _list("off_map", early, empty=False)
    lines += _list("allied_control", sorted(p.allied_control))
    lines += _list("garrisons_released", [s.garrison_areas[a].name for a in sorted(p.released)])
    lines += _list("postponed", [s.units[u].name for u in s.units if u in p.postponed], empty=False)
    lines += _list("delayed", [s.units[u].name for u in s.units if u in p.delayed], empty=False)
    reduced = [u for u in s.units if p.units[u].status is Status.POOL and p.units[u].steps_lost]
    if reduced:
        lines.append("to_arrive_steps:")
        lines += [f"  {_q(s.units[u].name)}: {s.units[u].steps - p.units[u].steps_lost}" for u in reduced]
    if p.chits != expected_chits:
        c = p.chits
        lines.append("chits:")
        lines += _list("allied", [chit_label(s, chit_key(x)) for x in c.hands[Side.ALLIED]], indent="  ")
        lines += _list("italian", [chit_label(s, chit_key(x)) for x in c.hands[Side.ITALIAN]], indent="  ")
        rest = sorted(
            x
            for x in chit_instances(s)
            if x not in {*c.hands[Side.ALLIED], *c.hands[Side.ITALIAN], *c.played, *c.removed}
        )
        if c.cup != rest:
            lines += _list("cup", [chit_label(s, chit_key(x)) for x in c.cup], indent="  ")
        for name, items in (
            ("played", c.played),
            ("removed", c.removed),
            ("seen_allied", c.seen[Side.ALLIED]),
            ("seen_italian", c.seen[Side.ITALIAN]),
        ):
            lines += _list(name, [chit_label(s, chit_key(x)) for x in items], indent="  ", empty=False)
    return "\n".join(lines) + "\n"


def _block(text: str, indent: str) -> list[str]:
    return [f"{indent}{line}".rstrip() for line in text.rstrip("\n").split("\n")]


def _answer_key(record: PositionRecord) -> list[str]:
    """The question, what happened next, the historical plan and the week's earlier position, as
    the library files write them."""
    lines: list[str] = []
    if record.question is not None:
        side = record.question.side.value
        lines += ["question:", f"  side: {side}", "  text: |", *_block(record.question.text, "    ")]
    if record.happened_next:
        lines.append("happened_next:")
        for event in record.happened_next:
            lines += [f"  - date: {event.date.isoformat()}", "    text: |", *_block(event.text, "      ")]
    if record.plan is not None:
        lines += ["historical_plan:", "  summary: |", *_block(record.plan.summary, "    "), "  steps:"]
        lines += [f"    - {_step(step.model_dump(exclude_none=True))}" for step in record.plan.steps]
    if record.follows is not None:
        lines += ["follows:", f"  position: {record.follows.position}", "  why: |", *_block(record.follows.why, "    ")]
    return lines


def _step(fields: dict[str, Any]) -> str:
    """A plan step as a one-line flow mapping: ``{kind: move, unit: "11 Ind", to: "1607"}``."""

    def hex_text(value: str) -> str:
        return f'"{value}"'

    items = []
    for key, value in fields.items():
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif key == "path":
            text = f"[{', '.join(hex_text(v) for v in value)}]"
        elif isinstance(value, list):
            text = f"[{', '.join(_flow(str(v)) for v in value)}]"
        elif key in ("to", "target"):
            text = hex_text(value)
        else:
            text = _flow(str(value))
        items.append(f"{key}: {text}")
    return "{" + ", ".join(items) + "}"


def _expected(p: Position) -> tuple[ChitState, Dice]:
    """The chits and dice a file without a chits section (and without dice_state) gives."""
    dice = Dice(p.dice.seed)
    chits = canonical_chits(default_chits(p.scenario, dice))
    if p.chits == chits:
        return chits, dice
    return chits, Dice(p.dice.seed)


def write_position_file(record: PositionRecord, path: str | Path) -> None:
    from cheren.files.position_saves import write_atomically

    write_atomically(path, dump_position_file(record))


def _list(name: str, items: list[str], indent: str = "", empty: bool = True) -> list[str]:
    if not items:
        return [f"{indent}{name}: []"] if empty else []
    return [f"{indent}{name}:", *(f"{indent}  - {_q(item)}" for item in items)]


def _flow(text: str) -> str:
    """A scalar inside a flow mapping or list, where , [ ] { } would end it: quoted then."""
    import json

    return json.dumps(text, ensure_ascii=False) if any(c in text for c in ",[]{}#") else _q(text)


_PLAIN_FIRST = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def _q(text: str) -> str:
    """A YAML scalar for ``text``: plain where YAML reads it back unchanged, else quoted."""
    import json

    import yaml

    if text and text[0] in _PLAIN_FIRST and text == text.strip() and "\n" not in text:
        try:
            if yaml.safe_load(f"k: {text}") == {"k": text}:
                return text
        except yaml.YAMLError:
            pass
    return json.dumps(text, ensure_ascii=False)
