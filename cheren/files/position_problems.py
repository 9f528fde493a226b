"""What is wrong with a position, with the rule that says so.

One checker for every way a position is made: a position file, a position code, the editor.
*Errors* describe a state the rules can never reach (both sides in one hex, a tank in the
mountains, a stack over its limit at the start of a phase); a position with errors is refused.
*Warnings* describe a state that is legal to set up but that play would most likely have changed
(a town held under the other side's Control marker, a released garrison left unreleased, supply
markers that a supply check now would change): the editor shows them, and the library's
historical positions are kept free of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from cheren.engine.position import ChitState, Position, Status, Supply, chit_key
from cheren.engine.rules.garrisons import release_trigger
from cheren.engine.rules.stacking import stack_value
from cheren.engine.rules.supply import check_side
from cheren.engine.rules.supply_phase import town_control_changes
from cheren.hexes import Hex
from cheren.scenario.models import Phase, Side
from cheren.scenario.sequence import PLAYER_TURN, SIDES_IN_ORDER

Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class PositionProblem:
    severity: Severity
    rule: str
    message: str
    hex: Hex | None = None
    unit: str | None = None
    subject: str | None = None  # the town or unit the problem is about, by name (a narrative names it)

    def __str__(self) -> str:
        return f"{self.message} ({self.rule})"


def canonical(position: Position) -> Position:
    """A copy with what play can no longer see cleared: a unit off the board keeps no hex,
    marker or defection, and no steps lost unless it is a reinforcement still to arrive (one that
    lost steps fighting for its arrival town waits with them, 8.1).  Position files and codes hold
    exactly this."""
    out = position.copy()
    for uid, unit in out.units.items():
        if unit.status is not Status.MAP:
            unit.hex, unit.supply, unit.defected = None, None, False
            if unit.status is not Status.POOL:
                unit.steps_lost = 0
            unit.side = position.scenario.units[uid].side
    out.chits = canonical_chits(out.chits)
    return out


def canonical_chits(chits: ChitState) -> ChitState:
    """Duplicate chits are alike (5.1): number them in the order they are listed (hands,
    played, removed, cup), as a position file or code does."""
    c = chits
    counts: dict[str, int] = {}
    names: dict[str, str] = {}
    for chit in [*c.hands[Side.ALLIED], *c.hands[Side.ITALIAN], *c.played, *c.removed, *c.cup]:
        key = chit_key(chit)
        counts[key] = counts.get(key, 0) + 1
        names[chit] = f"{key}.{counts[key]}"

    def renamed(items: list[str]) -> list[str]:
        return [names.get(x, x) for x in items]

    return ChitState(
        hands={side: renamed(hand) for side, hand in c.hands.items()},
        cup=renamed(c.cup),
        played=renamed(c.played),
        removed=renamed(c.removed),
        seen={side: renamed(items) for side, items in c.seen.items()},
    )


def moment_index(turn: int, side: Side, phase: Phase) -> tuple[int, int, int]:
    """Order of moments in the sequence of play (7.0), for comparing arrival times."""
    return (turn, SIDES_IN_ORDER.index(side), PLAYER_TURN.index(phase))


def arrival_moment(position: Position, uid: str) -> tuple[int, int, int] | None:
    """When a reinforcement is placed (its side's Reinforcement phase of its arrival turn,
    8.0; the later option if postponed, 8.4), or None for a unit that starts on the map."""
    d = position.scenario.units[uid]
    arrival = d.arrival
    if arrival is not None and uid in position.postponed:
        arrival = arrival.alternative
    if arrival is None or arrival.turn is None:
        return None
    return moment_index(arrival.turn, d.side, Phase.REINFORCEMENT)


def has_arrived(position: Position, uid: str) -> bool:
    """Has the unit's arrival phase begun before this position?  At the very start of its
    Reinforcement phase it is still in the pool: the game places it as the phase opens."""
    due = arrival_moment(position, uid)
    return due is None or moment_index(position.turn, position.side, position.phase) > due


def is_due(position: Position, uid: str) -> bool:
    """Has the unit's arrival phase begun?  In that phase itself the unit may still wait in the
    pool or already be placed (the air unit off the map, 11.3): the game places it during the phase."""
    due = arrival_moment(position, uid)
    return due is None or moment_index(position.turn, position.side, position.phase) >= due


def position_problems(
    position: Position, *, warnings: bool = True, next_check: bool = False, mid_phase: bool = False
) -> list[PositionProblem]:
    """Every problem of the position, errors first, each with its rule and, where it has one,
    its hex.  ``next_check`` adds what the next supply check would change as the units stand
    (12.7: an empty town handed over; 12.4, 12.6: a unit marked Low, or Low turned to No): the
    editor and the review of historical positions ask for it; an exercise may set such a
    position up on purpose.  ``mid_phase``: the position may be taken in the middle of its phase
    (a game's position), where a stack may stand over its limit until the phase ends (3.1)."""
    out = _errors(position, mid_phase=mid_phase)
    if warnings and not any(p.severity == "error" for p in out):
        out += _warnings(position, next_check)
    return out


#: Errors no sequence of play can explain: a unit on the wrong side or somewhere it may never be,
#: both sides in one hex, a marker on a unit off the map.  (Stacking, arrivals and garrisons
#: depend on where in the sequence of play a position stands.)
STRUCTURAL = frozenset({"1.1", "2.3", "9.0", "9.1", "11.3", "12.4"})


def errors(
    position: Position, *, only: frozenset[str] | None = None, mid_phase: bool = False
) -> list[PositionProblem]:
    """The errors alone; ``only`` keeps those of these rules (see :data:`STRUCTURAL`);
    ``mid_phase`` as in :func:`position_problems`."""
    out = [p for p in _errors(position, mid_phase=mid_phase) if p.severity == "error"]
    return out if only is None else [p for p in out if p.rule in only]


def _errors(p: Position, *, mid_phase: bool = False) -> list[PositionProblem]:
    s = p.scenario
    out: list[PositionProblem] = []

    def error(rule: str, message: str, h: Hex | None = None, unit: str | None = None) -> None:
        out.append(PositionProblem("error", rule, message, h, unit))

    for uid, unit in p.units.items():
        d = s.units[uid]
        if unit.status is Status.MAP:
            h = unit.hex
            if h is None or h not in s.playable:
                error("1.1", f"{d.name} is on a hex that is not playable", h, uid)
                continue
            info = s.hexes[h]
            if info.move_cost is None:
                error("1.1", f"{d.name} is in {h.label}, which no unit may enter", h, uid)
            if d.type.air:
                error("11.3", f"{d.name} is kept off the map between combats; it cannot stand in {h.label}", h, uid)
            if info.mountain and not d.type.may_enter_mountain:
                error("9.1", f"{d.name} ({d.type.name}) is in {h.label}, a mountain hex it may never enter", h, uid)
            if unit.supply is not None and d.type.air:
                error("11.3", f"{d.name} is always in supply and carries no supply marker", h, uid)
        elif unit.supply is not None:
            error("12.4", f"{d.name} is not on the map but carries a supply marker", None, uid)
        if unit.status is Status.OFF_MAP and not d.type.air:
            error("11.3", f"only the air unit waits off the map; {d.name} must be on the map, eliminated or to arrive",
                  None, uid)
        if unit.status is Status.ELIMINATED and d.type.air:
            error("11.3", f"{d.name} never takes losses, so it cannot be eliminated", None, uid)
        if unit.defected and not d.is_native:
            error("6.0", f"only native units defect; {d.name} is not one", unit.hex, uid)
        expected = Side.ALLIED if unit.defected else d.side
        if unit.side is not expected:
            error("2.3", f"{d.name} fights for the {d.side.adjective} side", unit.hex, uid)
        # In the middle of the phase the step is lost before the Italians' retreat decides whether
        # the unit arrives or waits, so only a phase's start requires it to be delayed.
        waits = uid in p.delayed or mid_phase
        if unit.status is Status.POOL and unit.steps_lost and (not waits or d.side is not Side.ALLIED):
            error("8.1", f"{d.name} is still to arrive with steps lost; only an Allied reinforcement that fought "
                  "for its arrival town and waits to arrive again has lost any", None, uid)
        if unit.status is Status.POOL and unit.steps_lost >= d.steps:
            error("11.6", f"{d.name} has {d.steps} step(s); it cannot wait to arrive with none left", None, uid)
        if unit.status is Status.POOL and has_arrived(p, uid) and uid not in p.delayed:
            turn = _arrival_turn(p, uid)
            when = f"on turn {turn}" if turn is not None else "at the set-up (5.0)"
            error(
                "8.0",
                f"{d.name} arrives {when}; by this point it is on the map, eliminated or delayed (8.1, 8.2)",
                None,
                uid,
            )
        if unit.status is Status.OFF_MAP and not is_due(p, uid):
            error("11.3", f"{d.name} arrives on turn {_arrival_turn(p, uid)}; it is not in play yet", None, uid)
    for h, units in sorted(p.stacks().items()):
        sides = {p.units[u].side for u in units}
        if len(sides) > 1:
            error("9.0", f"{h.label} holds units of both sides; units never share a hex with the enemy", h)
        for side in sorted(sides):
            # 3.1 is enforced at the end of every phase but Reinforcement, so only the phasing
            # side's stacks at the start of its Movement phase may still be over the limit.
            # At the set-up itself (5.0) nothing has been enforced yet.
            # In the middle of a phase, stacks built during it stand until its end.
            start_checked = not (side is p.side and p.phase is Phase.MOVEMENT) and not _is_setup_moment(p)
            if start_checked and not mid_phase:
                value = stack_value(p, h, side)
                limit = s.hexes[h].stack_limit
                if value > limit:
                    error(
                        "3.1",
                        f"the {side.adjective} stack in {h.label} has stacking value {value}; "
                        f"the limit there is {limit} ({s.hexes[h].terrain_names})",
                        h,
                    )
    marina = [uid for uid, d in s.units.items() if d.type.key == "naval"]
    for uid in marina:
        unit = p.units[uid]
        home = _setup_hex(p, uid)
        if unit.status is Status.MAP and home is not None and unit.hex != home:
            error("8.5", f"{s.units[uid].name} never moves; it stands in {home.label}", unit.hex, uid)
    for area in s.garrison_areas:
        if area in p.released:
            continue
        for uid, d in s.units.items():
            unit = p.units[uid]
            stray = unit.status is Status.MAP and unit.hex is not None and unit.hex not in s.area_hexes(area)
            if d.garrison == area and stray and not unit.defected:
                error(
                    "6.0",
                    f"{d.name} belongs to the unreleased {s.garrison_areas[area].name} garrison and "
                    f"cannot have left its area (it is in {_label(unit.hex)})",
                    unit.hex,
                    uid,
                )
            if unit.defected and d.garrison == area:
                error("6.0", f"{d.name} defected, but its garrison is not released", unit.hex, uid)
    return out


def _warnings(p: Position, next_check: bool) -> list[PositionProblem]:
    s = p.scenario
    out: list[PositionProblem] = []

    def warn(
        rule: str, message: str, h: Hex | None = None, unit: str | None = None, subject: str | None = None
    ) -> None:
        if subject is None and unit is not None:
            subject = s.units[unit].name
        out.append(PositionProblem("warning", rule, message, h, unit, subject))

    for uid, unit in p.units.items():
        if unit.status in (Status.MAP, Status.ELIMINATED) and not is_due(p, uid):
            d = s.units[uid]
            warn("8.0", f"{d.name} is in play before its arrival on turn {_arrival_turn(p, uid)}", unit.hex, uid)
    for h, units in sorted(p.stacks().items()):
        town = s.towns_by_hex.get(h)
        if town is None:
            continue
        side = p.units[units[0]].side
        if p.controller(town.name) is not side:
            warn(
                "2.1",
                f"{town.name} ({h.label}) holds {side.adjective} units but is under "
                f"{p.controller(town.name).adjective} control; entering a town takes it",
                h,
                subject=town.name,
            )
    for area in s.garrison_areas:
        if area not in p.released:
            why = release_trigger(p, area)
            if why is not None:
                name = s.garrison_areas[area].name
                warn("6.0", f"the {name} garrison would have been released: {why}", subject=name)
    # Between the phases: what the next supply check would change as the units stand (12.7, 12.4).
    for change in town_control_changes(p) if next_check else ():
        warn(
            "12.7",
            f"{change.town} ({change.hex.label}) is empty and {_control_why(change.after)}: the next supply "
            f"check hands it to the {change.after.adjective} side",
            change.hex,
            subject=change.town,
        )
    for side in Side:
        checked = _supply_checked(p, side)
        settled = checked and _markers_settled(p, side)
        for uid, trace in check_side(p, side).items():
            unit = p.units[uid]
            name = s.units[uid].name
            if unit.supply is not None and not checked:
                warn(
                    "12.4",
                    f"{name} carries a supply marker, but no {side.adjective} supply check has run yet",
                    unit.hex,
                    uid,
                )
            elif settled and trace.supplied and unit.supply is not None:
                marker = "Low" if unit.supply is Supply.LOW else "No"
                warn(
                    "12.4",
                    f"{name} can draw supply, yet carries a {marker} supply marker from the check just made",
                    unit.hex,
                    uid,
                )
            elif settled and not trace.supplied and unit.supply is None and not _may_have_exploited(p, uid):
                warn(
                    "12.4",
                    f"{name} cannot draw supply, yet the check just made left it without a Low marker",
                    unit.hex,
                    uid,
                )
            elif not trace.supplied and next_check:
                where = _label(unit.hex)
                if unit.supply is None:
                    text = f"{name} in {where} cannot draw supply: the next {side.adjective} supply check marks it Low"
                    warn("12.4", text, unit.hex, uid)
                else:
                    text = (
                        f"{name} in {where} still cannot draw supply: the next {side.adjective} supply check "
                        f"{'turns its Low marker to No' if unit.supply is Supply.LOW else 'keeps it at No'} "
                        "and it loses a step to attrition"
                    )
                    warn("12.6", text, unit.hex, uid)
    return out


def _control_why(after: Side) -> str:
    if after is Side.ALLIED:
        return "cannot draw Italian supply but can draw Allied supply"
    return "can draw Italian supply and not Allied supply"


def _is_setup_moment(p: Position) -> bool:
    return moment_index(p.turn, p.side, p.phase) == moment_index(1, Side.ALLIED, Phase.REINFORCEMENT)


def _may_have_exploited(p: Position, uid: str) -> bool:
    """A unit that moves in Exploitation (13.0) may have left supply after its side's check."""
    return p.phase is Phase.REINFORCEMENT and p.scenario.units[uid].type.may_exploit


def _supply_checked(p: Position, side: Side) -> bool:
    """Has the side had a supply check yet?  Before its first Supply phase (12.0) no unit can
    carry a marker."""
    return moment_index(p.turn, p.side, p.phase) > moment_index(1, side, Phase.SUPPLY)


def _markers_settled(p: Position, side: Side) -> bool:
    """Do the side's markers still show its last supply check?  In its Exploitation phase and at
    the start of the enemy's Reinforcement phase only its own exploiting units have moved since
    the check (and units with a marker may not exploit, 13.0), so every marker follows from the
    position; later, movement on either side may have cut or reopened lines unchecked."""
    return (p.side is side and p.phase is Phase.EXPLOITATION) or (
        p.side is side.enemy and p.phase is Phase.REINFORCEMENT
    )


def _label(h: Hex | None) -> str:
    return h.label if h is not None else "no hex"


def _arrival_turn(p: Position, uid: str) -> int | None:
    d = p.scenario.units[uid]
    arrival = d.arrival
    if arrival is not None and uid in p.postponed:
        arrival = arrival.alternative
    return None if arrival is None else arrival.turn


def _setup_hex(p: Position, uid: str) -> Hex | None:
    arrival = p.scenario.units[uid].arrival
    if arrival is None:
        return None
    try:
        return p.scenario.letter_hex(arrival.letter)
    except (KeyError, ValueError):
        return None
