"""Combat, rules 11.0 to 11.9: declaring attacks, and the registration of the whole rule area.

In its Combat phase the phasing side assembles attacks one unit at a time (:class:`Commit`,
:class:`Uncommit`), may lay its air unit on one of them (:class:`AddAir`, 11.3) and rolls each
(:class:`Resolve`) in the order it likes (11.7 warns the order matters); :class:`Attack` does
it all in one action.  Attacks may be assembled against several hexes at once, but the phase
cannot end while one is assembled and not rolled.  Each unit attacks once per Combat phase.

Who may attack lives in :mod:`cheren.engine.rules.combat_eligibility`, the odds in
:mod:`cheren.engine.rules.combat_odds`, the resolution and its decisions in
:mod:`cheren.engine.rules.combat_resolution`.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from cheren.engine.actions import (
    Action,
    AddAir,
    Attack,
    Commit,
    Resolve,
    Uncommit,
)
from cheren.engine.position import Status
from cheren.engine.registry import ActionRule, GameState, Refusal, call
from cheren.engine.rules import chits
from cheren.engine.rules.combat_eligibility import (
    MOUNTAIN_MP,
    advance_refusal,
    air_refusal,
    air_unit,
    attack_refusal,
    group_refusal,
    label,
    unit_refusal,
)
from cheren.engine.rules.combat_resolution import (
    Assembly,
    CombatState,
    odds_for,
    peek,
    publish,
    roll,
    state,
)
from cheren.engine.rules.combat_sequence import Resolution
from cheren.engine.rules.optional_rules import active, in_artillery_range
from cheren.hexes import Hex
from cheren.scenario.models import Phase
from cheren.scenario.variants import ARTILLERY_RANGE

__all__ = [
    "MOUNTAIN_MP",
    "Assembly",
    "CombatState",
    "Resolution",
    "advance_refusal",
    "air_unit",
    "attack_refusal",
    "combat_state",
    "group_refusal",
    "legal_actions",
    "odds_for",
    "unit_refusal",
    "unresolved",
]


def combat_state(game: GameState) -> CombatState:
    """What has been declared and rolled in this Combat phase (read only, for UIs)."""
    return peek(game)


# -- refusals ----------------------------------------------------------------------------------
def _phase_refusal(game: GameState) -> Refusal | None:
    if game.phase is not Phase.COMBAT:
        return Refusal(("11.0",), "attacks are declared and resolved in the Combat phase")
    return None


def _placed_air(st: CombatState) -> Hex | None:
    return next((a.target for a in st.assemblies.values() if a.air is not None), None)


def _attacker_refusal(game: GameState, uid: str, target: Hex, st: CombatState) -> Refusal | None:
    p = game.position
    if uid not in p.units:
        return Refusal(("2.3",), f"there is no unit {uid!r}")
    name = p.scenario.units[uid].name
    if p.units[uid].side is not game.phasing:
        return Refusal(("11.0",), f"{name} is not one of the phasing player's units: only they attack")
    if uid in st.attacked:
        return Refusal(("11.0",), f"{name} has already attacked this phase (each unit attacks once per Combat phase)")
    for a in st.assemblies.values():
        if uid in a.units:
            where = "" if a.target == target else ": withdraw it from that attack first"
            return Refusal(("11.0",), f"{name} is already committed against {a.target.label}{where}")
    return unit_refusal(p, uid, target)


def _commit_refusal(game: GameState, action: Commit) -> Refusal | None:
    return _phase_refusal(game) or _attacker_refusal(game, action.unit, action.target, peek(game))


def _uncommit_refusal(game: GameState, action: Uncommit) -> Refusal | None:
    why = _phase_refusal(game)
    if why is not None:
        return why
    a = peek(game).assemblies.get(action.target)
    if a is None or (action.unit not in a.units and action.unit != a.air):
        return Refusal(("11.0",), f"{action.unit} is not committed against {label(action.target)}")
    return None


def _add_air_refusal(game: GameState, action: AddAir) -> Refusal | None:
    why = _phase_refusal(game)
    if why is not None:
        return why
    st = peek(game)
    why = air_refusal(game.position, game.phasing, st.air_used, _placed_air(st))
    if why is not None:
        return why
    if action.target not in st.assemblies:
        return Refusal(
            ("11.3",),
            f"the air support unit never attacks by itself: commit a unit against {label(action.target)} first",
        )
    return None


def _resolve_refusal(game: GameState, action: Resolve) -> Refusal | None:
    why = _phase_refusal(game)
    if why is not None:
        return why
    a = peek(game).assemblies.get(action.target)
    if a is None:
        return Refusal(("11.0",), f"no attack is being assembled against {label(action.target)}: commit units first")
    return attack_refusal(game.position, a.units, action.target, a.air is not None)


def _attack_refusal(game: GameState, action: Attack) -> Refusal | None:
    why = _phase_refusal(game)
    if why is not None:
        return why
    st = peek(game)
    if action.target in st.assemblies:
        return Refusal(
            ("11.0",),
            f"an attack on {label(action.target)} is being assembled: resolve it or withdraw its units first",
        )
    why = group_refusal(game.position, action.attackers, action.air)
    if why is not None:
        return why
    for uid in action.attackers:
        why = _attacker_refusal(game, uid, action.target, st)
        if why is not None:
            return why
    if action.air:
        return air_refusal(game.position, game.phasing, st.air_used, _placed_air(st))
    return None


# -- applying ----------------------------------------------------------------------------------
def _commit(game: GameState, action: Commit) -> None:
    st = state(game)
    a = st.assemblies.setdefault(action.target, Assembly(action.target))
    a.units.append(action.unit)
    publish(game, action.target, a.units)
    game.event(f"{_name(game, action.unit)} is committed against {action.target.label} (11.0)")


def _uncommit(game: GameState, action: Uncommit) -> None:
    st = state(game)
    a = st.assemblies[action.target]
    if action.unit == a.air:
        a.air = None
    else:
        a.units.remove(action.unit)
    game.event(f"{_name(game, action.unit)} is withdrawn from the attack on {action.target.label}")
    if a.units:
        publish(game, action.target, a.units)
    else:
        del st.assemblies[action.target]
        publish(game, action.target, None)
        game.event(f"no attack on {action.target.label} is being assembled any more")


def _add_air(game: GameState, action: AddAir) -> None:
    air = air_unit(game.position, game.phasing)
    assert air is not None
    state(game).assemblies[action.target].air = air
    game.event(f"{_name(game, air)} is laid on the attack on {action.target.label} (11.3)")


def _resolve(game: GameState, action: Resolve) -> None:
    a = state(game).assemblies.pop(action.target)
    _roll_after_window(game, action.target, tuple(a.units), a.air)


def _attack(game: GameState, action: Attack) -> None:
    air = air_unit(game.position, game.phasing) if action.air else None
    _roll_after_window(game, action.target, action.attackers, air)


def _roll_after_window(game: GameState, target: Hex, attackers: tuple[str, ...], air: str | None) -> None:
    """The attack is declared; before the die the defender may answer with a chit played on it
    (Ambush, Regia Aeronautica: 5.1), so its window opens here, then the roll follows."""
    publish(game, target, attackers)
    if chits.open_attack_window(game, target):
        game.flow.queue.insert(1, call(_roll_task, target=target, attackers=attackers, air=air))
    else:
        roll(game, target, attackers, air)


def _roll_task(game: GameState, target: Hex, attackers: tuple[str, ...], air: str | None) -> None:
    roll(game, target, attackers, air)


# -- what may be done now ----------------------------------------------------------------------
def legal_actions(game: GameState) -> list[Action]:
    """The declaring actions open now: Commit for every eligible unit and adjacent enemy hex,
    Uncommit, AddAir and Resolve for the attacks being assembled.  That is linear in the units
    (never a list of subsets); the one-shot :class:`Attack` is not listed, since every attack it
    makes can be reached step by step."""
    if game.phase is not Phase.COMBAT:
        return []
    p = game.position
    side = game.phasing
    st = peek(game)
    out: list[Action] = []
    air_ok = air_refusal(p, side, st.air_used, _placed_air(st)) is None
    for target, a in st.assemblies.items():
        if attack_refusal(p, a.units, target, a.air is not None) is None:
            out.append(Resolve(target))
        out += [Uncommit(u, target) for u in a.units]
        if a.air is not None:
            out.append(Uncommit(a.air, target))
        elif air_ok:
            out.append(AddAir(target))
    busy = st.attacked | {u for a in st.assemblies.values() for u in a.units}
    ranged = ARTILLERY_RANGE in active(p)
    # the hexes holding enemy units (kept under the enemy's stamp); the range variant walks them
    # in the order of a scan of the units, as it always has
    enemy_hexes: AbstractSet[Hex | None] = (
        {u.hex for u in p.units.values() if u.side is not side and u.status is Status.MAP} if ranged
        else p.occupied(side.enemy)
    )
    adjacent = p.scenario.adjacent
    if not ranged:
        # a unit's Commits depend only on the unit and the enemy's units (unit_refusal): kept under
        # their change stamps, since every Commit, Uncommit and air unit laid lists them all again
        kept = _kept_commits(game)
        enemy_stamp = p.stamp(side.enemy)
        for uid, unit in p.units.items():
            if unit.side is not side or unit.status is not Status.MAP or unit.hex is None or uid in busy:
                continue
            key = (uid, p.unit_stamp(uid), enemy_stamp)
            commits = kept.get(key)
            if commits is None:
                if len(kept) > 4096:
                    kept.clear()
                commits = kept[key] = [Commit(uid, n) for n in adjacent[unit.hex]
                                       if n in enemy_hexes and unit_refusal(p, uid, n) is None]
            out += commits
        return out
    for uid, unit in p.units.items():
        if unit.side is not side or unit.status is not Status.MAP or unit.hex is None or uid in busy:
            continue
        targets = adjacent[unit.hex]
        if ranged:  # the artillery-range variant: guns reach two hexes
            targets += tuple(h for h in enemy_hexes if h is not None and unit.hex.distance(h) == 2
                             and in_artillery_range(p, uid, h))
        for n in targets:
            if n in enemy_hexes and unit_refusal(p, uid, n) is None:
                out.append(Commit(uid, n))
    return out


def _kept_commits(game: GameState) -> dict[tuple[str, int, int], list[Action]]:
    """The game's Commits by (unit, its stamp, the enemy's stamp), for this scenario (a game's
    caches may be shared with others, see Game; stamps are never issued twice)."""
    s = game.position.scenario
    found = game.caches.get("commits")
    if found is None or found[0] is not s:
        found = game.caches["commits"] = (s, {})
    kept: dict[tuple[str, int, int], list[Action]] = found[1]
    return kept


def unresolved(game: GameState) -> Refusal | None:
    st = peek(game)
    if game.phase is Phase.COMBAT and st.assemblies:
        hexes = ", ".join(h.label for h in st.assemblies)
        return Refusal(
            ("11.0",), f"an attack is assembled against {hexes} but not resolved: resolve it or withdraw its units"
        )
    return None


def _name(game: GameState, uid: str) -> str:
    return game.scenario.units[uid].name


def _refuse_answer(rule: str, what: str) -> ActionRule:
    """An answer to a combat decision given when no combat waits for it (with one pending the
    gate takes it as that decision's answer before it looks here)."""
    refusal = Refusal((rule,), f"no combat is waiting for {what}")

    def nothing(game: GameState, action: Action) -> None:
        raise AssertionError("a refused action is never applied")

    return ActionRule(lambda game, action: refusal, nothing)


COMMIT: ActionRule = ActionRule(_commit_refusal, _commit)
UNCOMMIT: ActionRule = ActionRule(_uncommit_refusal, _uncommit)
ADD_AIR: ActionRule = ActionRule(_add_air_refusal, _add_air)
RESOLVE: ActionRule = ActionRule(_resolve_refusal, _resolve)
ATTACK: ActionRule = ActionRule(_attack_refusal, _attack)
STAY_AND_LOSE: ActionRule = _refuse_answer("11.7", "a retreat-or-loss choice")
PUSH: ActionRule = _refuse_answer("11.8", "a push")
ADVANCE: ActionRule = _refuse_answer("11.9", "an advance")
NO_ADVANCE: ActionRule = _refuse_answer("11.9", "an advance")
