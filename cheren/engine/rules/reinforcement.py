"""Reinforcement and replacement, rules 8.0 to 8.5: arrivals as the Reinforcement phase begins,
the arrival option of 8.4 (a decision), and the Replace action of 8.3."""

from __future__ import annotations

from cheren.engine.actions import Action, ChooseArrival, Replace
from cheren.engine.position import Position, Status
from cheren.engine.registry import ActionRule, Decision, DecisionKind, GameState, Refusal, call
from cheren.hexes import Hex
from cheren.scenario.models import Arrival, Phase, Side


def due(position: Position, side: Side, turn: int) -> dict[str, str]:
    """Units of ``side`` due to arrive now, mapped to their arrival letter.  Postponed units
    (8.4) arrive on their alternative's turn; delayed Italian units (8.2) try every turn."""
    s = position.scenario
    out: dict[str, str] = {}
    for uid, d in s.units.items():
        unit = position.units[uid]
        if d.side is not side or unit.status is not Status.POOL or d.arrival is None:
            continue
        arrival: Arrival | None = d.arrival
        if uid in position.postponed:
            arrival = d.arrival.alternative
        if arrival is None or arrival.turn is None:
            continue
        if arrival.turn == turn or (uid in position.delayed and arrival.turn <= turn):
            out[uid] = arrival.letter
    return out


def arrivals(game: GameState) -> None:
    """8.0: place the phasing side's reinforcements at their letter's town.  Units with a later
    option (8.4) ask their owner first; the placing then runs once, after every such answer."""
    position = game.position
    s = position.scenario
    side, turn = position.side, position.turn
    codes: dict[str, list[str]] = {}
    for uid in due(position, side, turn):
        arrival = s.units[uid].arrival
        if arrival is not None and arrival.alternative is not None and uid not in position.postponed:
            codes.setdefault(arrival.code, []).append(uid)
    if not codes:
        _place_due(game)
        return
    decisions = []
    for code, group in sorted(codes.items()):
        names = ", ".join(s.units[u].name for u in group)
        alt = s.units[group[0]].arrival
        assert alt is not None and alt.alternative is not None
        decisions.append(
            Decision(
                "arrival",
                side,
                ("8.4",),
                f"{names} ({code}): arrive at {s.towns_by_letter[alt.letter].name} now, or postpone to "
                f"{s.towns_by_letter[alt.alternative.letter].name} on turn {alt.alternative.turn}?",
                tuple(group),
                code=code,
            )
        )
    game.queue_front(*decisions, call(_place_due))


def choose_arrival(game: GameState, code: str, postpone: bool) -> None:
    """8.4: both units of the code arrive together, now or at the later option."""
    position = game.position
    s = position.scenario
    group = [u for u, d in s.units.items() if d.arrival is not None and d.arrival.code == code]
    if not postpone:
        game.event(f"{', '.join(s.units[u].name for u in group)} take the first arrival option (8.4)")
        return
    position.postponed.update(group)
    alt = s.units[group[0]].arrival
    assert alt is not None and alt.alternative is not None
    game.event(
        f"{', '.join(s.units[u].name for u in group)} postpone their arrival to "
        f"{s.towns_by_letter[alt.alternative.letter].name} on turn {alt.alternative.turn} (8.4)"
    )


def _place_due(game: GameState) -> None:
    position = game.position
    s = position.scenario
    by_town: dict[str, list[str]] = {}
    for uid, letter in due(position, position.side, position.turn).items():
        if s.units[uid].type.air:
            position.units[uid].status = Status.OFF_MAP
            position.delayed.discard(uid)
            game.event(f"{s.units[uid].name} arrives and stands ready off map (11.3)")
            continue
        by_town.setdefault(s.towns_by_letter[letter].name, []).append(uid)
    for town, group in by_town.items():
        if position.side is Side.ALLIED:
            _allied_arrival(game, town, group)
        else:
            _italian_arrival(game, town, group)


def _allied_arrival(game: GameState, town: str, group: list[str]) -> None:
    """8.0/8.1 for one town: an Italian-held arrival town costs each side a step and the
    Italians retreat (11.7); an Italian-controlled empty town just takes a Control marker."""
    position = game.position
    s = position.scenario
    h = s.town_hex(town)
    occupants = tuple(u for u in position.units_at(h) if position.units[u].side is Side.ITALIAN)
    if not occupants:
        _place(game, town, group)
        return
    names = ", ".join(s.units[u].name for u in group)
    game.event(
        f"{names} arrive at {town}, which Italian units hold: each side loses a step and the Italians retreat (8.1)"
    )
    # 11.6: the arriving units do not retreat, so artillery takes the step only if nothing else can
    not_artillery = tuple(u for u in group if not s.units[u].type.artillery)
    losers = not_artillery or tuple(group)
    game.queue_front(
        Decision("loss", Side.ALLIED, ("8.1", "11.6"), f"remove a step from the units arriving at {town}", losers),
        Decision("loss", Side.ITALIAN, ("8.1",), f"remove a step from the Italian units in {town}", occupants),
        Decision(
            "retreat", Side.ITALIAN, ("8.1", "11.7"), f"retreat the Italian units in {town} one hex", occupants, hex=h
        ),
        call(_after_exchange, town=town, group=tuple(group)),
    )


def _after_exchange(game: GameState, town: str, group: tuple[str, ...]) -> None:
    position = game.position
    s = position.scenario
    alive = [u for u in group if position.units[u].status is Status.POOL]
    h = s.town_hex(town)
    if any(position.units[u].side is Side.ITALIAN for u in position.units_at(h)):
        # Reading taken: Italians who could not retreat still hold the town, so the allied
        # reinforcements wait in the pool and try again next allied turn.
        position.delayed.update(alive)
        game.event(f"Italians still hold {town}: the arriving units wait for the next allied turn (8.1)")
        return
    _place(game, town, alive)


def _italian_arrival(game: GameState, town: str, group: list[str]) -> None:
    """8.0/8.2: an allied-held arrival town sends Italian reinforcements to a Tigre town free of
    allied units, or delays them until one is free; an allied-controlled empty town loses its
    Control marker."""
    position = game.position
    s = position.scenario
    h = s.town_hex(town)
    # 8.2 sends a reinforcement that could not come to its town to a Tigre town: one that was
    # delayed waits for a free Tigre town, not for its own town to be free again.
    waiting = [u for u in group if u in position.delayed]
    fresh = [u for u in group if u not in position.delayed]
    if fresh and not any(position.units[u].side is Side.ALLIED for u in position.units_at(h)):
        _place(game, town, fresh)
        fresh = []
    group = waiting + fresh
    if not group:
        return
    choices = tigre_towns(position)
    if not choices:
        position.delayed.update(group)
        game.event(f"{town} is held by allied units and no Tigre town is free: the reinforcements are delayed (8.2)")
        return
    for uid in group:
        game.queue_front(
            Decision(
                "place",
                Side.ITALIAN,
                ("8.2",),
                f"{s.units[uid].name} cannot come to {town}: place it in a Tigre town free of allied units",
                (uid,),
                choices=choices,
            )
        )


def tigre_towns(position: Position) -> tuple[Hex, ...]:
    s = position.scenario
    area = "tigre" if "tigre" in s.garrison_areas else None
    if area is None:
        return ()
    hexes = s.area_hexes(area)
    out = []
    for town in s.towns.values():
        h = s.town_hex(town.name)
        if h in hexes and not any(position.units[u].side is Side.ALLIED for u in position.units_at(h)):
            out.append(h)
    return tuple(sorted(out))


def after_place(game: GameState, uid: str, h: Hex, decision: Decision) -> None:
    """A placed unit is no longer waiting for a town (8.1, 8.2); the town itself was taken as
    the unit was placed (2.1)."""
    game.position.delayed.discard(uid)


def _place(game: GameState, town: str, group: list[str]) -> None:
    if not group:  # nobody survived to arrive: the town stays as it is (2.1: control needs a unit)
        return
    position = game.position
    s = position.scenario
    h = s.town_hex(town)
    for uid in group:
        unit = position.units[uid]
        unit.status, unit.hex = Status.MAP, h
        position.delayed.discard(uid)
        position.postponed.discard(uid)
    if group:
        game.event(f"{', '.join(s.units[u].name for u in group)} arrive at {town} ({h.label}) (8.0)")
    side = position.units[group[0]].side if group else position.side
    if side is Side.ALLIED and town not in position.allied_control:
        position.allied_control.add(town)
        game.event(f"a Control marker goes on {town} (8.1)")
    elif side is Side.ITALIAN and town in position.allied_control:
        position.allied_control.discard(town)
        game.event(f"the Control marker on {town} is removed (8.2)")


def replacement_problem(position: Position, uid: str) -> str | None:
    """8.3: one allied unit on the map, without a Low/No supply marker, may get one step back."""
    s = position.scenario
    if uid not in position.units:
        return f"there is no unit {uid!r}"
    unit = position.units[uid]
    d = s.units[uid]
    if unit.side is not Side.ALLIED:
        return f"{d.name} is not an allied unit"
    if unit.status is not Status.MAP:
        return f"{d.name} is not on the map"
    if unit.supply is not None:
        return f"{d.name} has a Low/No supply marker"
    if unit.steps_lost == 0:
        return f"{d.name} has lost no steps"
    return None


# -- 8.4: the arrival option, a decision -------------------------------------------------------
def _arrival_actions(game: GameState, d: Decision) -> list[Action]:
    return [ChooseArrival(d.code, False), ChooseArrival(d.code, True)]


def _arrival_answer(game: GameState, d: Decision, action: Action) -> None:
    assert isinstance(action, ChooseArrival)
    game.flow.queue.pop(0)
    choose_arrival(game, action.code, action.postpone)


ARRIVAL: DecisionKind = DecisionKind(_arrival_actions, _arrival_answer, auto=False)


# -- 8.3: the Replace action -------------------------------------------------------------------
def replacement_open(game: GameState) -> bool:
    return (
        game.phasing is Side.ALLIED
        and game.scenario.is_replacement_turn(game.turn)
        and not game.flow.replacement_done
    )


def replacements(game: GameState) -> list[Action]:
    """The Replace actions open now (the Allied Reinforcement phase of a replacement turn)."""
    if game.phase is not Phase.REINFORCEMENT or not replacement_open(game):
        return []
    return [Replace(u) for u in game.position.units if replacement_problem(game.position, u) is None]


def _replace_refusal(game: GameState, action: Replace) -> Refusal | None:
    if game.phase is not Phase.REINFORCEMENT or game.phasing is not Side.ALLIED:
        return Refusal(("8.3",), "replacements are taken in the Allied Reinforcement & replacement phase")
    if not game.scenario.is_replacement_turn(game.turn):
        turns = [t.turn for t in game.scenario.info.turns if t.replacement]
        return Refusal(("8.3",), f"turn {game.turn} is not a replacement turn ({', '.join(map(str, turns))})")
    if game.flow.replacement_done:
        return Refusal(("8.3",), "one step is replaced per replacement turn, and it has been taken")
    problem = replacement_problem(game.position, action.unit)
    return None if problem is None else Refusal(("8.3",), problem)


def _replace(game: GameState, action: Replace) -> None:
    game.position.units[action.unit].steps_lost -= 1
    game.flow.replacement_done = True
    game.event(f"{game.scenario.units[action.unit].name} replaces a step (8.3)")


REPLACE: ActionRule = ActionRule(_replace_refusal, _replace)
