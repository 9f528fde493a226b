"""Chits, rules 5.0 and 5.1, and their effects (the chit chart is lost; chits.yaml says what each
chit does, when it may be played and whether a unit with a Low/No supply marker may be its object).

The mechanism: a chit is played from its owner's hand, only in a window its data gives (a
phase, and whether the phasing or the non-phasing player plays it); the owner then draws from
the common cup, keeping an own chit and removing an opponent's from play unseen, with no
redraw; at the end of the phase the played chit goes back to the cup, or out of play if it is
a one-time (starred) chit; only one chit of a kind per phase.

Effects plug into the rules through the rulebook (:mod:`cheren.engine.rulebook`): movement options (Infiltrate, Forced
march, Engineers, Roadblock, Demolition), exploitation (Exploit), the reaction limit (Reserves).
Combat and supply chits keep their target in the phase state for those rule areas to read
(:func:`attack_effects`, :func:`convoy_hex`).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from cheren.engine.actions import Action, PassChit, PlayChit
from cheren.engine.position import Position, chit_key
from cheren.engine.registry import ActionRule, Decision, DecisionKind, GameState, Refusal
from cheren.engine.rules.movement import MoveOptions
from cheren.hexes import Hex, parse_hexside
from cheren.scenario.compiled import Scenario
from cheren.scenario.memo import ScenarioMemo
from cheren.scenario.models import Chit, Phase, Side
from cheren.scenario.sequence import PHASE_TITLES

# Effects whose object is one of the player's own units on the map, chosen before it moves.
UNIT_EFFECTS = frozenset({"infiltrate", "exploit", "engineers", "forced_march"})
# Effects aimed at a hex: a road hex (Roadblock), a stack (Supply convoy), an attack's target.
HEX_EFFECTS = frozenset({"roadblock", "supply_convoy", "column_shift", "win_support", "support_points"})


# -- windows ------------------------------------------------------------------------------------
def in_window(chit: Chit, phase: Phase, side: Side, phasing: Side) -> bool:
    role = "phasing" if side is phasing else "non_phasing"
    return any(w.phase is phase and w.player == role for w in chit.windows)


def _state(game: GameState) -> dict[str, Any]:
    # looked up before it is made: setdefault would build the empty state (three containers)
    # on every call, and every unit's move options ask for it
    state: dict[str, Any] | None = game.flow.extra.get("chits")
    if state is None:
        state = game.flow.extra["chits"] = {"kinds": [], "played_by": {}, "effects": {}}
    return state


def effects(game: GameState) -> dict[str, Any]:
    """The chit effects in force this phase, keyed by effect name."""
    return dict(_state(game)["effects"])


def _targets(game: GameState, side: Side, chit: Chit) -> list[tuple[str, str]]:
    """(unit, target) pairs the chit may be played on now."""
    p = game.position
    s = p.scenario
    effect = chit.effect
    if effect in UNIT_EFFECTS:
        out = []
        for uid, unit in p.units.items():
            if unit.side is not side or not unit.on_map or uid in game.flow.moved:
                continue
            d = s.units[uid]
            if d.type.air or d.counter.immobile:
                continue
            if not chit.low_supply_target and unit.supply is not None:
                continue
            if effect == "exploit" and d.type.may_exploit:
                continue
            out.append((uid, ""))
        return out
    if effect == "roadblock":
        return [("", h.label) for h in sorted(road_hexes(p)) if not p.units_at(h)]
    if effect == "demolition":
        return [("", side_.label) for side_ in sorted(s.road_sides & s.river_sides)]
    if effect == "supply_convoy":
        return [("", h.label) for h, units in sorted(p.stacks().items()) if p.units[units[0]].side is side]
    if effect == "reaction_limit":
        return [("", "")]
    if effect in ("column_shift", "win_support", "support_points"):
        return [("", h.label) for h in attack_targets(game)]
    return []


def road_hexes(position: Position) -> set[Hex]:
    return {h for side in position.scenario.road_sides for h in side}


def attack_targets(game: GameState) -> list[Hex]:
    """Hexes attacked (assembled or resolved) this combat phase; the combat rules keep them in
    ``flow.extra['combat']['attacks']`` (keys are hex labels)."""
    combat = game.flow.extra.get("combat")
    if not isinstance(combat, dict):
        return []
    attacks = combat.get("attacks", {})
    return sorted(Hex.from_label(k) if isinstance(k, str) else k for k in attacks)


def playable(game: GameState, side: Side) -> list[PlayChit]:
    """Every chit play open to ``side`` right now."""
    p = game.position
    s = p.scenario
    state = _state(game)
    out: list[PlayChit] = []
    seen: set[str] = set()
    windows = _WINDOWS(s)
    now = (p.phase, "phasing" if side is p.side else "non_phasing")  # in_window's question, asked of a set
    made = _made_plays(game)
    for instance in p.chits.hands[side]:
        key = chit_key(instance)
        if key in seen:
            continue  # duplicates of one kind give the same plays
        seen.add(key)
        if key in state["kinds"] or now not in windows[key]:
            continue
        for unit, target in _targets(game, side, s.chits[key]):
            found = made.get((instance, unit, target))
            if found is None:
                found = made[instance, unit, target] = PlayChit(instance, unit, target)
            out.append(found)
    return out


def _made_plays(game: GameState) -> dict[tuple[str, str, str], PlayChit]:
    """The PlayChit actions made so far in this game, by their fields: a chit held for a whole
    phase is offered again for every unit after every action, and an action is immutable, so
    the same one is handed out again rather than made (a frozen dataclass is slow to make)."""
    found: dict[tuple[str, str, str], PlayChit] | None = game.caches.get("chit_plays")
    if found is None:
        found = game.caches["chit_plays"] = {}
    return found


def _chit_windows(s: Scenario) -> dict[str, frozenset[tuple[Phase, str]]]:
    """Each chit's windows as (phase, "phasing" or "non_phasing"): asked of every hand after
    every action."""
    return {key: frozenset((w.phase, w.player) for w in chit.windows) for key, chit in s.chits.items()}


_WINDOWS = ScenarioMemo(_chit_windows)


def refusal(game: GameState, action: PlayChit) -> Refusal | None:
    p = game.position
    s = p.scenario
    key = chit_key(action.chit)
    if key not in s.chits:
        return Refusal(("5.1",), f"there is no chit {action.chit!r}")
    chit = s.chits[key]
    d = game.pending
    window_side = d.side if d is not None and d.kind == "chit_window" else game.acting
    if d is not None and d.kind != "chit_window":
        return Refusal(d.rules, f"{d.side.adjective} must first decide: {d.prompt}")
    holder = next((side for side in Side if action.chit in p.chits.hands[side]), None)
    if holder is None:
        return Refusal(("5.1",), f"{chit.name} ({action.chit}) is not in a player's hand")
    if holder is not window_side:
        return Refusal(("5.1",), f"{chit.name} belongs to the {holder.adjective} hand; it is not their turn to play")
    if key in _state(game)["kinds"]:
        return Refusal(("5.1",), f"a {chit.name} chit has already been played this phase: one of a kind per phase")
    if not in_window(chit, p.phase, holder, p.side):
        when = ", ".join(
            f"{PHASE_TITLES[w.phase]} ({'own' if w.player == 'phasing' else 'enemy'} turn)" for w in chit.windows
        )
        return Refusal(("5.1",), f"{chit.name} may be played only in: {when}")
    if (action.unit, action.target) not in _targets(game, holder, chit):
        return Refusal(("5.1", "12.5"), _target_problem(game, holder, chit, action))
    return None


def _target_problem(game: GameState, side: Side, chit: Chit, action: PlayChit) -> str:
    p = game.position
    if chit.effect in UNIT_EFFECTS:
        unit = p.units.get(action.unit)
        if unit is None:
            return f"{chit.name} needs one of your units as its object"
        name = p.scenario.units[action.unit].name
        if unit.side is not side or not unit.on_map:
            return f"{name} is not one of your units on the map"
        if unit.supply is not None and not chit.low_supply_target:
            return f"{name} has a Low/No supply marker and cannot be the object of {chit.name} (12.5)"
        if action.unit in game.flow.moved:
            return f"{name} has already moved this phase"
        return f"{name} cannot be the object of {chit.name}"
    return f"{action.target or 'that'} is not a target {chit.name} may be played on now"


def apply(game: GameState, action: PlayChit) -> None:
    p = game.position
    s = p.scenario
    key = chit_key(action.chit)
    chit = s.chits[key]
    side = next(side for side in Side if action.chit in p.chits.hands[side])
    state = _state(game)
    p.chits.hands[side].remove(action.chit)
    p.chits.played.append(action.chit)
    state["kinds"].append(key)
    state["played_by"][action.chit] = side.value
    _start_effect(game, chit, action)
    obj = s.units[action.unit].name if action.unit else action.target
    game.event(f"{side.adjective} plays {chit.name}{' on ' + obj if obj else ''}: {chit.text} (5.1)")
    _draw(game, side)
    if game.pending is not None and game.pending.kind == "chit_window":
        game.flow.queue.pop(0)  # a window decision is answered by the play


def _draw(game: GameState, side: Side) -> None:
    """5.1: after a play, draw from the cup; an opponent's chit leaves play unseen."""
    p = game.position
    cup = p.chits.cup
    if not cup:
        game.event("the chit cup is empty: no draw (5.1)")
        return
    drawn = cup.pop(p.dice.below(len(cup)))
    owner = p.scenario.chits[chit_key(drawn)].side
    if owner is side:
        p.chits.hands[side].append(drawn)
        game.event(f"{side.adjective} draws a chit from the cup (5.1)")
    else:
        p.chits.removed.append(drawn)
        p.chits.seen[side].append(drawn)  # only the drawer knows which chit left play
        game.event(f"{side.adjective} draws an enemy chit: it leaves play unseen, no redraw (5.1)")


def _start_effect(game: GameState, chit: Chit, action: PlayChit) -> None:
    state = _state(game)["effects"]
    effect = chit.effect
    if effect in UNIT_EFFECTS:
        state.setdefault(effect, {})[action.unit] = dict(chit.params)
    elif effect == "roadblock":
        state.setdefault("roadblock", []).append(action.target)
    elif effect == "demolition":
        game.flow.turn_extra.setdefault("blown_bridges", []).append(action.target)
    elif effect == "reaction_limit":
        game.flow.extra["reaction_limit"] = int(chit.params.get("limit", 5))
    elif effect == "supply_convoy":
        state["supply_convoy"] = action.target
    else:  # combat chits: the combat rules read them per attack
        state.setdefault("attacks", {}).setdefault(action.target, []).append(
            {"effect": effect, "side": chit.side.value, "params": dict(chit.params), "chit": action.chit}
        )


def attack_effects(game: GameState, target: Hex) -> list[dict[str, Any]]:
    """Chits played on the attack against ``target`` this phase (column shifts, support)."""
    attacks = _state(game)["effects"].get("attacks", {})
    return list(attacks.get(target.label, []))


def convoy_hex(game: GameState) -> Hex | None:
    """The stack a Supply convoy keeps in supply during this check, if one was played."""
    label = _state(game)["effects"].get("supply_convoy")
    return Hex.from_label(label) if label else None


# -- effects on movement --------------------------------------------------------------------------
def move_options(game: GameState, uid: str, options: MoveOptions) -> None:
    state = _state(game)["effects"]
    unit = game.position.units[uid]
    if uid in state.get("infiltrate", {}):
        options.ignore_zoc = True
    if uid in state.get("forced_march", {}):
        options.extra_mp += int(state["forced_march"][uid].get("mp", 2))
    engineers = uid in state.get("engineers", {})
    if engineers:
        options.ignore_rivers = True
    roadblocks = state.get("roadblock", [])
    if roadblocks and unit.side is Side.ALLIED and not engineers:
        hexes = frozenset(Hex.from_label(h) for h in roadblocks)
        options.no_road = options.no_road | hexes
        options.stop_at = options.stop_at | hexes
    blown = game.flow.turn_extra.get("blown_bridges", [])
    if blown and unit.side is Side.ALLIED:
        options.blown_bridges = options.blown_bridges | frozenset(parse_hexside(b) for b in blown)


def may_exploit(game: GameState, uid: str) -> bool:
    return uid in _state(game)["effects"].get("exploit", {})


MOVE_EFFECTS = ("infiltrate", "forced_march", "engineers", "roadblock", "exploit")


def effects_key(game: GameState) -> Hashable:
    """All that :func:`move_options` and :func:`may_exploit` read besides the unit: the chit
    effects of the phase and the bridges blown this turn (the game caches reach under it)."""
    state = game.flow.extra.get("chits")
    effects = state["effects"] if state else None
    blown = game.flow.turn_extra.get("blown_bridges")
    if not effects and not blown:
        return _NO_EFFECTS  # most of a game: one shared value, nothing made
    moving = tuple(repr(effects[k]) for k in MOVE_EFFECTS if k in effects) if effects else ()
    return moving, tuple(blown) if blown else ()


_NO_EFFECTS: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())


# -- windows for the player who is not acting ---------------------------------------------------
def open_windows(game: GameState) -> None:
    """At the start of a phase, the side that does not act in it is asked once whether to play
    a chit whose window this is (Roadblock and Demolition in the enemy's movement)."""
    p = game.position
    actor = game.moment.acting
    other = actor.enemy
    if p.phase is Phase.SUPPLY:
        # The supply check runs as the phase begins, so a Supply convoy must be played first.
        convoy = [a for a in playable(game, actor) if p.scenario.chits[chit_key(a.chit)].effect == "supply_convoy"]
        if convoy:
            game.queue_front(
                Decision("chit_window", actor, ("5.1", "12.0"),
                         f"{actor.adjective}: play a Supply convoy before the supply check?")
            )
    plays = playable(game, other)
    if plays:
        game.queue_front(
            Decision(
                "chit_window",
                other,
                ("5.1",),
                f"{other.adjective}: play a chit now, before the {PHASE_TITLES[p.phase]} phase goes on?",
            )
        )


def open_attack_window(game: GameState, target: Hex) -> bool:
    """As an attack on ``target`` is resolved, offer the defender its chits for that attack
    (5.1: e.g. Ambush).  True if a window decision was queued (at the front)."""
    defender = game.moment.acting.enemy
    if not [a for a in playable(game, defender) if a.target == target.label]:
        return False
    game.queue_front(
        Decision(
            "chit_window",
            defender,
            ("5.1",),
            f"{defender.adjective}: play a chit on the attack against {target.label} before the die is rolled?",
            hex=target,
        )
    )
    return True


def _window_actions(game: GameState, d: Decision) -> list[Action]:
    plays = playable(game, d.side)
    if d.hex is not None:  # a window for one attack: only plays on that attack
        plays = [a for a in plays if a.target == d.hex.label]
    return [*plays, PassChit()]


def _window_answer(game: GameState, d: Decision, action: Action) -> None:
    if isinstance(action, PassChit):
        game.flow.queue.pop(0)
        game.event(f"{d.side.adjective} plays no chit")
    elif isinstance(action, PlayChit):
        apply(game, action)


def _pass_refusal(game: GameState, action: PassChit) -> Refusal | None:
    d = game.pending
    if d is None or d.kind != "chit_window":
        return Refusal(("5.1",), "no chit window is open")
    return None


def _pass_apply(game: GameState, action: PassChit) -> None:
    d = game.pending
    assert d is not None
    _window_answer(game, d, action)


def legal_actions(game: GameState) -> list[Action]:
    return list(playable(game, game.acting))


def end_of_phase(game: GameState) -> None:
    """5.1: played chits go back to the cup, one-time chits leave play."""
    p = game.position
    s = p.scenario
    for instance in list(p.chits.played):
        chit = s.chits[chit_key(instance)]
        p.chits.played.remove(instance)
        if chit.one_time:
            p.chits.removed.append(instance)
            game.event(f"{chit.name} is a one-time chit and leaves play (5.1)")
        else:
            p.chits.cup.append(instance)
    p.chits.cup.sort()


def _apply_play(game: GameState, action: PlayChit) -> None:
    apply(game, action)


def _refuse_play(game: GameState, action: PlayChit) -> Refusal | None:
    return refusal(game, action)


PLAY: ActionRule = ActionRule(_refuse_play, _apply_play)
PASS: ActionRule = ActionRule(_pass_refusal, _pass_apply)
WINDOW: DecisionKind = DecisionKind(_window_actions, _window_answer, auto=False)


@dataclass(frozen=True)
class ChitInfo:
    instance: str
    name: str
    one_time: bool
    text: str


def describe(position: Position, instance: str) -> ChitInfo:
    chit = position.scenario.chits[chit_key(instance)]
    return ChitInfo(instance, chit.name, chit.one_time, chit.text)

