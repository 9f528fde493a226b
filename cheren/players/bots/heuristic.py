"""A heuristic bot in the spirit of Wesnoth's candidate-action AI.

Each call scores a few kinds of candidate action for the side to act and takes the best, with
the reason in words: answer a pending decision sensibly; attack where the exact what-if says
the attack pays (steps it costs the enemy against steps it costs us, plus the chance of taking
the hex); move units towards valuable enemy towns while keeping them where they can draw
supply, leaving over-stacked hexes (3.1) and bringing Low-supply units back into supply (12.4);
guard threatened own towns in the reaction phase; replace a step on replacement turns; play a
defensive chit when its window opens, and an attack chit (Air strike, Barrage, Counterattack) on
its own best attack, which it then builds unit by unit so the chit has an attack to go on.
Equal move scores are broken at random from the bot's seed, so the same seed plays the same game
and different seeds open differently.
It reads the position only through its seat, which hides the enemy's chits and the dice
(:func:`cheren.players.views.redacted_position`).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Hashable, Iterable, Mapping
from collections.abc import Set as AbstractSet
from fractions import Fraction
from types import MappingProxyType
from weakref import WeakKeyDictionary

from cheren.engine.actions import (
    Action,
    AddAir,
    Advance,
    Attack,
    ChooseArrival,
    Commit,
    EndPhase,
    Move,
    NoAdvance,
    PassChit,
    Place,
    PlayChit,
    Push,
    RemoveStep,
    Replace,
    Resolve,
    Retreat,
    StayAndLose,
    Uncommit,
)
from cheren.engine.combat_whatif import WhatIf, proposed, what_if
from cheren.engine.game import Game
from cheren.engine.position import Position, chit_key
from cheren.engine.registry import Decision
from cheren.engine.rules.combat_eligibility import air_refusal, air_unit, unit_refusal
from cheren.engine.rules.combat_odds import defenders_in
from cheren.engine.rules.combat_resolution import Assembly, peek
from cheren.engine.rules.optional_rules import active, in_artillery_range
from cheren.engine.rules.stacking import stack_value
from cheren.engine.rules.supply_hexes import supplied_view
from cheren.hexes import Hex
from cheren.players.bots.base import Choice
from cheren.players.views import SideSeat
from cheren.scenario.compiled import Scenario
from cheren.scenario.models import Phase, Side
from cheren.scenario.variants import ARTILLERY_RANGE

FIELD_DECAY = 0.75  # how fast a town's pull fades per hex of distance
# Many moves score exactly the same (every unit that can reach the same hex, say).  Without a
# random tie-break the bot made the same opening in every game, whatever the seed, so a batch of
# games sampled one opening and any data change that altered it moved every game at once.
TIE_BREAK = 0.02
ATTACK_THRESHOLD = 0.25  # the least an attack must be worth (attack_value) for the bot to make it
DEFENDED_TOWN = "defended"
ATTACK_CHIT_EFFECTS = ("column_shift", "win_support")  # chits the attacker plays on its own attack


class HeuristicBot:
    name = "heuristic"

    def __init__(self, seed: int = 0, attack_threshold: float = ATTACK_THRESHOLD, tie_break: float = TIE_BREAK) -> None:
        self.rng = random.Random(seed)
        self.attack_threshold = attack_threshold
        self.tie_break = tie_break  # the largest random nudge to a move's score, from the seed
        self.hold: frozenset[str] = frozenset()  # units it leaves where they stand (a planner's garrisons)
        self._plan: Attack | None = None  # the attack being assembled to carry a chit
        # move scores kept between calls (see _move): never a decision, only what it is made from
        self.scores = MoveScores()

    # -- the entry point ---------------------------------------------------------------------
    def choose(self, seat: SideSeat) -> Choice:
        game = seat.game
        actions = seat.legal_actions()
        if not actions:
            raise ValueError(f"{seat.side.adjective} has no legal action now")
        d = game.pending
        if d is not None:
            return self._decide(seat, d, actions)
        phase = game.phase
        if phase is Phase.REINFORCEMENT:
            return self._reinforce(seat, actions)
        if phase is Phase.COMBAT:
            return self._combat(seat, actions)
        if phase in (Phase.MOVEMENT, Phase.EXPLOITATION, Phase.REACTION):
            return self._move(seat, actions)
        return Choice(EndPhase(), "nothing to do in this phase")

    # -- decisions ---------------------------------------------------------------------------
    def _decide(self, seat: SideSeat, d: Decision, actions: list[Action]) -> Choice:
        p = seat.position()
        if d.kind == "chit_window":
            plays = [a for a in actions if isinstance(a, PlayChit)]
            for a in plays:
                effect = p.scenario.chits[chit_key(a.chit)].effect
                if effect in ("column_shift", "support_points", "supply_convoy"):
                    return Choice(a, f"a {effect.replace('_', ' ')} chit pays here")
            roadblocks = [a for a in plays if p.scenario.chits[chit_key(a.chit)].effect == "roadblock"]
            if roadblocks:
                enemy_near = self._enemy_hexes(p, seat.side)
                field = town_field(p, seat.side)
                best = max(roadblocks, key=lambda a: _near(Hex.from_label(a.target), enemy_near) + field.get(
                    Hex.from_label(a.target), 0.0))
                if _near(Hex.from_label(best.target), enemy_near):
                    return Choice(best, f"block the road at {best.target}, next to the enemy's advance")
            return Choice(PassChit(), "no chit worth playing now")
        if d.kind == "arrival":
            take = next(a for a in actions if isinstance(a, ChooseArrival) and not a.postpone)
            return Choice(take, "reinforcements are worth most as early as possible")
        losses = [a for a in actions if isinstance(a, RemoveStep)]
        if losses:
            # keep units alive: take the step from the unit with the most steps left
            best_loss = max(losses, key=lambda a: (p.steps_left(a.unit), -p.strength(a.unit)))
            return Choice(best_loss, f"{p.scenario.units[best_loss.unit].name} has the most steps to spare")
        retreats = [a for a in actions if isinstance(a, Retreat)]
        stay = next((a for a in actions if isinstance(a, StayAndLose)), None)
        if retreats or stay is not None:
            if stay is not None and d.hex is not None:
                town = p.scenario.towns_by_hex.get(d.hex)
                steps = sum(p.steps_left(u) for u in p.units_at(d.hex))
                if (town is not None and town.vp > 0 and steps > 1) or not retreats:
                    return Choice(stay, f"hold {town.name if town else d.hex.label} and take the loss")
            own = own_field(p, seat.side)
            best_retreat = max(retreats, key=lambda a: (self._fits(p, seat.side, a.units, a.to), own.get(a.to, 0.0)))
            return Choice(best_retreat, f"fall back to {best_retreat.to.label}, towards our own towns")
        pushes = [a for a in actions if isinstance(a, Push)]
        if pushes:
            target = d.hex
            town = p.scenario.towns_by_hex.get(target) if target is not None else None
            yes = town is not None and town.vp > 0
            choice = next(a for a in pushes if a.yes == yes)
            return Choice(choice, "push for the town" if yes else "a push costs a step for little gain")
        advances = [a for a in actions if isinstance(a, Advance)]
        if advances:
            target = d.hex
            town = p.scenario.towns_by_hex.get(target) if target is not None else None
            no = next((a for a in actions if isinstance(a, NoAdvance)), None)
            if target is not None:
                room = p.scenario.hexes[target].stack_limit - stack_value(p, target, seat.side)
                fitting = [a for a in advances if p.scenario.units[a.unit].stack <= room]
                if not fitting and no is not None:
                    return Choice(no, f"{target.label} is full: advancing more would break its stacking limit (3.1)")
                advances = fitting or advances
            if town is not None:
                return Choice(advances[0], f"advance into {town.name}: entering it takes control (2.1)")
            if no is not None:
                return Choice(no, "no gain in advancing further")
            return Choice(advances[0], "the units that lost steps must advance first")
        places = [a for a in actions if isinstance(a, Place)]
        if places:
            field = town_field(p, seat.side)  # (made only where it is read: most decisions are steps and retreats)
            best_place = max(places, key=lambda a: field.get(a.hex, 0.0))
            return Choice(best_place, "place it nearest the fighting")
        return Choice(self.rng.choice(actions), "no rule of thumb for this decision: random")

    # -- phases ------------------------------------------------------------------------------
    def _reinforce(self, seat: SideSeat, actions: list[Action]) -> Choice:
        p = seat.position()
        replace = [a for a in actions if isinstance(a, Replace)]
        if replace:
            best = max(replace, key=lambda a: (p.units[a.unit].steps_lost, p.strength(a.unit)))
            return Choice(best, f"restore a step of {p.scenario.units[best.unit].name}, the most worn unit")
        return Choice(EndPhase(), "reinforcements are placed")

    def _combat(self, seat: SideSeat, actions: list[Action]) -> Choice:
        game = seat.game
        p = seat.position()
        side = seat.side
        st = peek(game)
        if st.assemblies:  # never leave a half-built attack behind
            return self._finish_attack(seat, st.assemblies, actions)
        busy = set(st.attacked)
        best: tuple[float, Attack, str] | None = None
        air = air_unit(p, side)
        air_ok = air is not None and air_refusal(p, side, used=st.air_used) is None
        for target, attackers in self._attack_options(p, side, busy):
            # one that could not beat the best so far, nor pay at all, is not worked out (the same
            # attack is chosen)
            most = attack_value_bound(p, target, side)
            for use_air in ((False, True) if air_ok else (False,)):
                floor = self.attack_threshold if best is None else max(best[0], self.attack_threshold)
                if (most + 0.05 if use_air else most) <= floor:
                    continue
                wi = what_if(p, proposed(target, attackers, air=use_air))
                if not wi.legal:
                    continue
                value = attack_value(p, target, wi.expected_defender_steps, wi.expected_attacker_steps, wi.p_vacated)
                if use_air:
                    value += 0.05  # the air unit is free: use it where it helps most
                if best is None or value > best[0]:
                    reason = attack_reason(p, target, wi)
                    best = (value, Attack(target, tuple(attackers), use_air), reason)
        return self._make_attack(game, p, side, best)

    def _make_attack(self, game: Game, p: Position, side: Side, best: tuple[float, Attack, str] | None) -> Choice:
        """The best attack if it pays and the gate takes it, else the end of the phase."""
        if best is not None and best[0] > self.attack_threshold and game.check(best[1]).ok:
            attack = best[1]
            chit = self._attack_chit(p, side)
            if chit is not None:
                # A chit plays on an attack that is assembled but not yet resolved (5.1), so build
                # this one unit by unit instead of in one Attack action.
                self._plan = attack
                return Choice(Commit(attack.attackers[0], attack.target), f"{best[2]}; assemble it to play {chit}")
            return Choice(attack, best[2])
        return Choice(EndPhase(), "no attack pays")

    @staticmethod
    def _attack_chit(p: Position, side: Side) -> str | None:
        for instance in p.chits.hands[side]:
            chit = p.scenario.chits[chit_key(instance)]
            if chit.effect in ATTACK_CHIT_EFFECTS and any(w.phase is Phase.COMBAT for w in chit.windows):
                return chit.name
        return None

    def _finish_attack(self, seat: SideSeat, assemblies: dict[Hex, Assembly], actions: list[Action]) -> Choice:
        game = seat.game
        p = seat.position()
        target, assembly = next(iter(assemblies.items()))
        plan = self._plan if self._plan is not None and self._plan.target == target else None
        if plan is not None:
            for uid in plan.attackers:
                commit = Commit(uid, target)
                if uid not in assembly.units and game.check(commit).ok:
                    return Choice(commit, f"commit {p.scenario.units[uid].name} to the attack on {target.label}")
            if plan.air and assembly.air is None and game.check(AddAir(target)).ok:
                return Choice(AddAir(target), f"add the air unit to the attack on {target.label}")
        for a in actions:
            if isinstance(a, PlayChit) and a.target == target.label:
                chit = p.scenario.chits[chit_key(a.chit)]
                if chit.effect in ATTACK_CHIT_EFFECTS:
                    return Choice(a, f"play {chit.name} on the attack on {target.label}")
        self._plan = None
        resolve = Resolve(target)
        if game.check(resolve).ok:
            return Choice(resolve, f"resolve the attack on {target.label}")
        return Choice(next(a for a in actions if isinstance(a, Uncommit)), "withdraw an attack that cannot go in")

    def _attack_options(self, p: Position, side: Side, busy: set[str]) -> Iterable[tuple[Hex, list[str]]]:
        enemy_hexes = self._enemy_hexes(p, side)
        ranged = ARTILLERY_RANGE in active(p)
        for target in sorted(enemy_hexes):
            attackers = []
            for n in p.scenario.adjacent.get(target, ()):
                for uid in p.units_at(n):
                    if p.units[uid].side is side and uid not in busy and unit_refusal(p, uid, target) is None:
                        attackers.append(uid)
            if attackers and ranged:  # the artillery-range variant: guns two hexes away join in
                attackers += [
                    uid for uid, u in p.units.items()
                    if u.side is side and uid not in busy and u.hex is not None and u.hex.distance(target) == 2
                    and in_artillery_range(p, uid, target) and unit_refusal(p, uid, target) is None
                ]
            if attackers:
                yield target, attackers

    def _move(self, seat: SideSeat, actions: list[Action]) -> Choice:
        p = seat.position()
        side = seat.side
        hold = self.hold
        moves = [a for a in actions if isinstance(a, Move) and a.unit not in hold]
        if not moves:
            return Choice(EndPhase(), "no unit may move")
        s = p.scenario
        field = town_field(p, side)
        supplied_key, supplied = supplied_view(p, side)
        enemy_near = self._enemy_hexes(p, side)
        reaction = seat.game.phase is Phase.REACTION
        # What every candidate move asks, worked out once for the position rather than per move.
        near_enemy = {n for h in enemy_near for n in s.adjacent[h]}  # map hexes next to an enemy unit
        stacks = p.stacks()
        ours = {h: sum(s.units[u].stack for u in ids if p.units[u].side is side) for h, ids in stacks.items()}
        limits = s.stack_limits
        # enemy-held towns: taking one is worth 2 plus its VP
        prizes = {h: 2.0 + town.vp for h, town in s.towns_by_hex.items() if p.controller(town.name) is not side}
        # per unit: start, field there, drawing supply there, stacking value, strength, marked,
        # and the stacking score for leaving its hex
        units: dict[str, tuple[Hex, float, bool, int, int, bool, float]] = {}
        # A move's score but for stacking and the tie-break depends on its unit (its stamp) and
        # on what the key below holds, so it is kept from one call to the next: a phase scores
        # the same moves again after every move made, and only the moved unit's are new.
        kept = self.scores.under((side, supplied_key, frozenset(p.allied_control)))
        unit_stamp = p.unit_stamp
        tie_break, random = self.tie_break, self.rng.random
        best: tuple[float, Move] | None = None
        for m in moves:
            uid = m.unit
            unit = units.get(uid)
            if unit is None:
                here = p.units[uid].hex
                assert here is not None
                unit = (here, field.get(here, 0.0), here in supplied, s.units[uid].stack, p.strength(uid),
                        p.units[uid].supply is not None, 10.0 if ours.get(here, 0) > limits[here] else 0.0)
                units[uid] = unit
            to = m.path[-1]
            if reaction:
                score = self._guard_score(p, side, m, enemy_near, stacks) - 0.5
            else:
                found = kept.get(id(m))  # the entry holds the move, so its id is not reused meanwhile
                if found is not None and found[0] is m and found[1] == unit_stamp(uid):
                    score = found[2]
                else:
                    score = field.get(to, 0.0) - unit[1]
                    prize = prizes.get(to)
                    if prize is not None:
                        score += prize
                    if unit[2]:
                        if to not in supplied:
                            score -= 3.0  # 12.4: out of supply means Low, then No and attrition
                    elif to in supplied:
                        # a marked unit that draws supply again sheds its marker (12.4) before 12.6 bites
                        score += 3.0 if unit[5] else 1.0
                    if unit[4] <= 1 and to in near_enemy:
                        score -= 1.0
                    kept[id(m)] = (m, unit_stamp(uid), score)
            # 3.1 removes steps from every stack over its limit at the end of the phase, so
            # leaving an over-stacked hex is worth as much as entering one costs.
            if ours.get(to, 0) + unit[3] > limits[to]:
                score += -10.0
            else:
                score += unit[6]
            if tie_break:
                # random.uniform(-t, t) written out, so the same draw gives the same float
                score += -tie_break + (tie_break - -tie_break) * random()
            if best is None or score > best[0]:
                best = (score, m)
        assert best is not None
        if best[0] > 0.2:
            m = best[1]
            here, _, drew, stack, _, marked, _ = units[m.unit]
            gains = move_gains(p, side, m, here, drew, marked, supplied, reaction, enemy_near)
            if ours.get(here, 0) > limits[here] and ours.get(m.to, 0) + stack <= limits[m.to]:
                gains.append(f"leaves the over-stacked {here.label} (3.1 would cost it steps)")
            said = "; ".join(gains) or "a small gain in position"
            return Choice(m, f"{s.units[m.unit].name} to {m.to.label}: {said}")
        return Choice(EndPhase(), "no move improves the position")

    @staticmethod
    def _fits(p: Position, side: Side, units: Iterable[str], to: Hex) -> bool:
        extra = sum(p.scenario.units[u].stack for u in units)
        return stack_value(p, to, side) + extra <= p.scenario.hexes[to].stack_limit

    def _guard_score(
        self, p: Position, side: Side, m: Move, enemy_near: AbstractSet[Hex], stacks: dict[Hex, list[str]]
    ) -> float:
        town = p.scenario.towns_by_hex.get(m.to)
        if town is None or p.controller(town.name) is not side or m.to in stacks:
            return 0.0
        return float(town.vp) + (1.0 if _near(m.to, enemy_near) else 0.0)

    @staticmethod
    def _enemy_hexes(p: Position, side: Side) -> frozenset[Hex]:
        """The hexes holding enemy units (kept by the position under the enemy's change stamp)."""
        return p.occupied(side.enemy)


class MoveScores:
    """Move scores but for stacking and the tie-break (:meth:`HeuristicBot._move`), each kept
    with its move and its unit's stamp under what the rest of it depends on.  They are no bot's
    own, so bots playing out one position can share them (the look-ahead's plans do)."""

    LIMIT = 16  # keys kept: a few phases of a few play-outs

    def __init__(self) -> None:
        self.kept: dict[Hashable, dict[int, tuple[Move, int, float]]] = {}

    def under(self, key: Hashable) -> dict[int, tuple[Move, int, float]]:
        found = self.kept.pop(key, None)
        if found is None:
            found = {}
            if len(self.kept) >= self.LIMIT:
                del self.kept[next(iter(self.kept))]  # the longest unused
        self.kept[key] = found  # the latest last
        return found


def move_gains(
    p: Position, side: Side, m: Move, here: Hex, drew: bool, marked: bool, supplied: Mapping[Hex, int],
    reaction: bool, enemy_near: AbstractSet[Hex],
) -> list[str]:
    """What a move gains, in words (the parts of its score that count): a town taken or guarded,
    a town come closer, supply kept or found again.  Said for the move chosen only."""
    s = p.scenario
    to = m.path[-1]
    out: list[str] = []
    town = s.towns_by_hex.get(to)
    if reaction:
        if town is not None:
            near = ", next to the enemy" if _near(to, enemy_near) else ""
            out.append(f"guards {town.name} ({town.vp} VP){near}")
        return out
    if town is not None and p.controller(town.name) is not side:
        out.append(f"takes {town.name} ({town.vp} VP, 2.1)")
    else:
        # the enemy-held town this move brings most within reach (the pull that scored it)
        best: tuple[float, str, int] | None = None
        for name, t in s.towns.items():
            if p.controller(name) is side:
                continue
            where = s.town_hex(name)
            before, after = here.distance(where), to.distance(where)
            gain = (t.vp + 0.5) * (FIELD_DECAY**after - FIELD_DECAY**before)
            if after < before and (best is None or gain > best[0]):
                best = (gain, name, after)
        if best is not None:
            vp = s.towns[best[1]].vp
            out.append(f"closer to {best[1]} ({vp} VP, {best[2]} hex{'es' if best[2] != 1 else ''} away)")
    if to in supplied and not drew:
        out.append("back in supply (it sheds its Low/No marker, 12.4)" if marked else "draws supply there (12.0)")
    elif to in supplied:
        out.append("stays in supply (12.0)")
    elif drew:
        out.append("but leaves supply (12.4: Low, then No)")
    return out


def attack_reason(p: Position, target: Hex, wi: WhatIf) -> str:
    """An attack in words: what it is against, its odds, and what it is expected to win."""
    town = p.scenario.towns_by_hex.get(target)
    where = f"{town.name} ({target.label}, {town.vp} VP)" if town is not None else target.label
    o = wi.odds
    return (f"attack {where} at {wi.column} ({o.attack_sp} against {o.defence_sp}): on average "
            f"{float(wi.expected_defender_steps):.1f} enemy steps lost for {float(wi.expected_attacker_steps):.1f} "
            f"of ours, a {float(wi.p_vacated):.0%} chance to take the hex")


def attack_value(p: Position, target: Hex, enemy_steps: Fraction, our_steps: Fraction, p_vacated: Fraction) -> float:
    return _attack_value(p, target, float(enemy_steps), float(our_steps), float(p_vacated))


def _attack_value(p: Position, target: Hex, enemy_steps: float, our_steps: float, p_vacated: float) -> float:
    town = p.scenario.towns_by_hex.get(target)
    vp = town.vp if town is not None else 0
    return enemy_steps * 1.2 - our_steps + p_vacated * (0.5 + vp)


def attack_value_bound(p: Position, target: Hex, side: Side) -> float:
    """The most :func:`attack_value` can give an attack by ``side`` on ``target``: every
    defending step lost, none of ours, the hex taken (the same float operations; a whole
    number of steps as a float is what its Fraction gives, without making one)."""
    steps = sum(p.steps_left(u) for u in defenders_in(p, target, side))
    return _attack_value(p, target, float(steps), 0.0, 1.0)


def _near(h: Hex, hexes: AbstractSet[Hex]) -> bool:
    return any(n in hexes for n in h.neighbours())


def _bfs(s: Scenario, sources: Iterable[Hex], limit: int = 30) -> dict[Hex, int]:
    dist: dict[Hex, int] = {}
    queue: deque[Hex] = deque()
    for h in sources:
        if h in s.playable:
            dist[h] = 0
            queue.append(h)
    while queue:
        h = queue.popleft()
        if dist[h] >= limit:
            continue
        for n in s.adjacent[h]:
            if n not in dist:
                dist[n] = dist[h] + 1
                queue.append(n)
    return dist


TOWN_REACH = 14  # hexes over which an enemy town pulls
OWN_REACH = 10  # hexes over which an own town draws a retreat


class _Fields:
    """A scenario's town fields: each town's pull on every hex near it (fixed by the map), and
    the fields summed for each set of towns in play (they change only when a town changes
    hands, so a game needs a handful)."""

    def __init__(self, s: Scenario) -> None:
        self.towns = list(s.towns.values())
        self.pull: dict[tuple[str, int], list[tuple[Hex, float]]] = {}
        for town in self.towns:
            dist = _bfs(s, [s.town_hex(town.name)], limit=TOWN_REACH)
            for reach in (TOWN_REACH, OWN_REACH):
                self.pull[town.name, reach] = [
                    (h, (town.vp + 0.5) * FIELD_DECAY**d) for h, d in dist.items() if d <= reach
                ]
        self.summed: dict[tuple[bool, int, frozenset[str]], Mapping[Hex, float]] = {}

    def field(self, towns: frozenset[str], inside: bool, reach: int) -> Mapping[Hex, float]:
        """The summed pull of the towns in ``towns`` (or, ``inside`` False, of those not in it)."""
        key = (inside, reach, towns)
        found = self.summed.get(key)
        if found is None:
            out: dict[Hex, float] = {}
            get = out.get
            for town in self.towns:
                if (town.name in towns) is not inside:
                    continue
                for h, pull in self.pull[town.name, reach]:
                    out[h] = get(h, 0.0) + pull
            if len(self.summed) > 512:
                self.summed.clear()
            found = self.summed[key] = MappingProxyType(out)
        return found


_FIELDS: WeakKeyDictionary[Scenario, _Fields] = WeakKeyDictionary()


def _fields(s: Scenario) -> _Fields:
    found = _FIELDS.get(s)
    if found is None:
        found = _FIELDS[s] = _Fields(s)
    return found


def _held(p: Position, side: Side) -> frozenset[str]:
    """The towns ``side`` controls (2.1)."""
    towns = frozenset(p.allied_control)
    return towns if side is Side.ALLIED else frozenset(p.scenario.towns) - towns


def town_field(p: Position, side: Side) -> Mapping[Hex, float]:
    """How strongly each hex pulls ``side``'s units: enemy-held towns by their VP, fading with
    distance."""
    return _fields(p.scenario).field(_held(p, side), False, TOWN_REACH)


def own_field(p: Position, side: Side) -> Mapping[Hex, float]:
    return _fields(p.scenario).field(_held(p, side), True, OWN_REACH)

