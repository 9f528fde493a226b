"""Positions as versioned JSON (never pickle).  Saving is deterministic, so save -> load -> save
gives identical bytes; loading checks everything and names the file and field at fault."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError

from cheren.engine.dice import Dice
from cheren.engine.position import ChitState, Position, Status, Supply, UnitState, chit_instances, chit_key
from cheren.engine.wording import counted
from cheren.hexes import Hex
from cheren.scenario.compiled import Scenario
from cheren.scenario.models import Phase, Side

FORMAT = "cheren-position"
VERSION = 1


class SaveError(ValueError):
    """A save file that cannot be read; the message names the file and the field."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _ScenarioRef(_Strict):
    name: str
    digest: str


class _Unit(_Strict):
    status: Status
    hex: str | None = Field(None, pattern=r"^\d{4}$")
    steps_lost: StrictInt = Field(0, ge=0)
    supply: Supply | None = None
    side: Side
    defected: StrictBool = False


class _Chits(_Strict):
    hands: dict[Side, list[str]]
    cup: list[str]
    played: list[str] = Field(default_factory=list)
    removed: list[str] = Field(default_factory=list)
    seen: dict[Side, list[str]] = Field(default_factory=dict)


class _Dice(_Strict):
    seed: StrictInt = Field(ge=0, le=2**63 - 1)
    state: str = Field(pattern=r"^0x[0-9a-f]{1,16}$", description="the dice's 64-bit state in hex")


class PositionFile(_Strict):
    format: Literal["cheren-position"]
    version: StrictInt
    scenario: _ScenarioRef
    turn: StrictInt = Field(ge=1, le=12)
    side: Side
    phase: Phase
    units: dict[str, _Unit]
    allied_control: list[str]
    garrisons_released: list[str]
    chits: _Chits
    postponed: list[str] = Field(default_factory=list)
    delayed: list[str] = Field(default_factory=list)
    dice: _Dice


def scenario_digest(scenario: Scenario) -> str:
    """The fingerprint of the scenario files as they were loaded."""
    return scenario.digest


def position_to_dict(position: Position) -> dict[str, Any]:
    s = position.scenario
    units: dict[str, Any] = {}
    for uid in s.units:
        u = position.units[uid]
        entry: dict[str, Any] = {"status": u.status.value}
        if u.hex is not None:
            entry["hex"] = u.hex.label
        entry["steps_lost"] = u.steps_lost
        entry["supply"] = u.supply.value if u.supply else None
        entry["side"] = u.side.value
        if u.defected:
            entry["defected"] = True
        units[uid] = entry
    return {
        "format": FORMAT,
        "version": VERSION,
        "scenario": {"name": s.name, "digest": scenario_digest(s)},
        "turn": position.turn,
        "side": position.side.value,
        "phase": position.phase.value,
        "units": units,
        "allied_control": sorted(position.allied_control),
        "garrisons_released": sorted(position.released),
        "chits": {
            "hands": {side.value: list(position.chits.hands[side]) for side in Side},
            "cup": list(position.chits.cup),
            "played": list(position.chits.played),
            "removed": list(position.chits.removed),
            "seen": {side.value: list(position.chits.seen[side]) for side in Side},
        },
        "postponed": sorted(position.postponed),
        "delayed": sorted(position.delayed),
        "dice": {"seed": position.dice.seed, "state": f"{position.dice.state:#x}"},
    }


def dumps(position: Position) -> str:
    return json.dumps(position_to_dict(position), indent=2, ensure_ascii=False) + "\n"


def write_atomically(path: str | Path, text: str) -> None:
    """Write a file so that a failure never leaves a truncated file behind
    (:func:`cheren.files.outputs.write_output`: mode and symbolic links kept)."""
    from cheren.files.outputs import write_output

    write_output(path, text)


MAX_SAVE_BYTES = 64_000_000  # a save of 10^5 actions is about 5 MB


def read_save(path: str | Path) -> str:
    """A save's text: a regular file (not a pipe or a device), of bounded size, in UTF-8."""
    from cheren.scenario.safe_yaml import YamlInputError, read_text

    try:
        return read_text(path, str(path), limit=MAX_SAVE_BYTES)
    except YamlInputError as exc:
        raise SaveError(str(exc).replace("such files", "saves")) from None


def parse_json_object(text: str, source: str) -> dict[str, Any]:
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SaveError(f"{source}: not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise SaveError(f"{source}: nested too deeply to be a save; refused") from None
    except ValueError as exc:  # e.g. a number of thousands of digits
        raise SaveError(f"{source}: not a readable save: {str(exc)[:160]}") from None
    if not isinstance(raw, dict):
        raise SaveError(f"{source}: a save holds a JSON object, not {type(raw).__name__}")
    return raw


def save_position(position: Position, path: str | Path) -> None:
    write_atomically(path, dumps(position))


def read_position_save(path: str | Path, scenario: Scenario) -> Position:
    return loads(read_save(path), scenario, source=str(path))


def loads(text: str, scenario: Scenario, source: str = "<save>") -> Position:
    raw = parse_json_object(text, source)
    if raw.get("format") != FORMAT:
        raise SaveError(f"{source}: format: not a cheren position file (format is {raw.get('format')!r})")
    if raw.get("version") != VERSION:
        raise SaveError(
            f"{source}: version: this cheren reads position files of version {VERSION}, "
            f"the file is version {raw.get('version')!r}"
        )
    try:
        data = PositionFile.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err["loc"])
        more = f" (and {len(exc.errors()) - 1} more problems)" if len(exc.errors()) > 1 else ""
        raise SaveError(f"{source}: {where}: {err['msg']}{more}") from exc
    return _build(data, scenario, source)


def _build(data: PositionFile, s: Scenario, source: str) -> Position:
    def fail(field: str, message: str) -> SaveError:
        return SaveError(f"{source}: {field}: {message}")

    if data.scenario.name != s.name:
        raise fail("scenario.name", f"the save is for scenario {data.scenario.name!r}, not {s.name!r}")
    digest = scenario_digest(s)
    if data.scenario.digest != digest:
        raise fail(
            "scenario.digest",
            f"the scenario data changed since this save was made (save {data.scenario.digest}, "
            f"data now {digest}); load it with the scenario files it was made with",
        )
    missing = set(s.units) - set(data.units)
    if missing:
        raise fail("units", f"missing units: {', '.join(sorted(missing))}")
    units: dict[str, UnitState] = {}
    for uid, u in data.units.items():
        field = f"units.{uid}"
        if uid not in s.units:
            raise fail(field, "no such unit in the scenario")
        definition = s.units[uid]
        if u.steps_lost >= definition.steps:
            raise fail(f"{field}.steps_lost", f"{u.steps_lost} but the unit has {counted(definition.steps, 'step')}")
        h: Hex | None = None
        if u.status is Status.MAP:
            if u.hex is None:
                raise fail(f"{field}.hex", "a unit on the map needs a hex")
            try:
                h = Hex.from_label(u.hex)
            except ValueError as exc:
                raise fail(f"{field}.hex", str(exc)) from exc
            if h not in s.playable:
                raise fail(f"{field}.hex", f"{u.hex} is not a playable hex")
        elif u.hex is not None:
            raise fail(f"{field}.hex", f"a unit with status {u.status.value} has no hex")
        if u.defected and not definition.is_native:
            raise fail(f"{field}.defected", "only native units defect")
        units[uid] = UnitState(uid, u.side, u.status, h, u.steps_lost, u.supply, u.defected)
    for i, town in enumerate(data.allied_control):
        if town not in s.towns:
            raise fail(f"allied_control[{i}]", f"no town named {town!r}")
    for i, area in enumerate(data.garrisons_released):
        if area not in s.garrison_areas:
            raise fail(f"garrisons_released[{i}]", f"no garrison area {area!r}")
    seen: set[str] = set()
    for where, items in [
        *((f"chits.hands.{side.value}", data.chits.hands.get(side, [])) for side in Side),
        ("chits.cup", data.chits.cup),
        ("chits.played", data.chits.played),
        ("chits.removed", data.chits.removed),
    ]:
        for item in items:
            if chit_key(item) not in s.chits:
                raise fail(where, f"unknown chit {item!r}")
            if item in seen:
                raise fail(where, f"chit {item!r} is in two places")
            seen.add(item)
    for where, items in (("postponed", data.postponed), ("delayed", data.delayed)):
        for i, uid in enumerate(items):
            if uid not in s.units:
                raise fail(f"{where}[{i}]", f"no unit {uid!r}")
    missing_chits = set(chit_instances(s)) - seen
    if missing_chits:
        listed = ", ".join(sorted(missing_chits))
        raise fail("chits", f"chits missing from hands, cup, played and removed: {listed}")
    for side, items in data.chits.seen.items():
        stray = [c for c in items if c not in data.chits.removed]
        if stray:
            raise fail(f"chits.seen.{side.value}", f"{', '.join(stray)} are not among the removed chits")
    unknown = seen - set(chit_instances(s))
    if unknown:
        raise fail("chits", f"chits that the scenario does not have: {', '.join(sorted(unknown))}")
    state = int(data.dice.state, 16)
    if state >= 2**64:
        raise fail("dice.state", "the dice state is a 64-bit number (at most 16 hex digits)")
    chits = ChitState(
        hands={side: list(data.chits.hands.get(side, [])) for side in Side},
        cup=list(data.chits.cup),
        played=list(data.chits.played),
        removed=list(data.chits.removed),
        seen={side: list(data.chits.seen.get(side, [])) for side in Side},
    )
    position = Position(
        scenario=s,
        units=units,
        dice=Dice(data.dice.seed, state),
        turn=data.turn,
        side=data.side,
        phase=data.phase,
        allied_control=set(data.allied_control),
        released=set(data.garrisons_released),
        chits=chits,
        postponed=set(data.postponed),
        delayed=set(data.delayed),
    )
    # a state no play can reach (a unit of one side on the other, both sides in one hex, a
    # marker on a unit off the map ...) is refused; what depends on the sequence of play
    # (stacking mid-phase, arrivals) is left to position files, which name their moment
    from cheren.files.position_problems import STRUCTURAL, errors

    for problem in errors(position, only=STRUCTURAL):
        where = f"units.{problem.unit}" if problem.unit else "units"
        label = f" [hex {problem.hex.label}]" if problem.hex is not None else ""
        raise fail(where + label, str(problem))
    return position
