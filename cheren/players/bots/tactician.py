"""The tactician: the heuristic bot with the designer's advice on supply hubs, and attacks
planned together.  The planning bot (:mod:`cheren.players.bots.planner`) plays through it, and
so does every play-out it weighs, for both sides: a play-out's enemy that raids hubs judges
a plan that leaves one open.

What it adds to :class:`~cheren.players.bots.heuristic.HeuristicBot`, each in the designer's
words (15.0) where he gave them:

* **hubs** (:mod:`cheren.players.bots.hubs`): an enemy town is worth, besides its VP, the enemy
  steps whose supply hangs on it (12.1) and the own steps it would put back in supply; a unit
  leaving the last place in an own hub with enemy units about pays what the hub carries;
* **reactions** (10.0): "a very powerful weapon is the enemy reaction" - a reacting unit
  retakes a lost hub at once or walks into an enemy one left empty, since it "does not have to
  check supply during the turn it reacts"; otherwise it guards towns as the heuristic does;
* **attacks** (11.0): the units of an attack that do not change its odds are kept back for the
  next one, so two attacks can go in where one took every unit next to both; a town that
  carries enemy supply is worth taking;
* **retreats** (11.7): a hex in our supply before one out of it;
* **starving** (``starve``, on in planner2's plans only): a unit cut off from supply pays for a
  move that takes it no nearer to supply, more under a marker (12.4), before 12.6 wears it away;
* **chits** (5.1): every chit played is replaced from the cup, so it plays Reserves when the
  reaction wants it, and a chit drawn is one fewer for the enemy.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType

from cheren.engine.actions import Action, Attack, EndPhase, Move, PlayChit, Retreat, StayAndLose
from cheren.engine.combat_whatif import proposed, what_if
from cheren.engine.position import Position, chit_key
from cheren.engine.registry import Decision
from cheren.engine.rules.combat_eligibility import air_refusal, air_unit
from cheren.engine.rules.combat_resolution import peek
from cheren.engine.rules.supply_hexes import supplied_view
from cheren.hexes import Hex
from cheren.players.bots.base import Choice
from cheren.players.bots.heuristic import (
    ATTACK_THRESHOLD,
    TIE_BREAK,
    HeuristicBot,
    attack_value,
    attack_value_bound,
    own_field,
    town_field,
)
from cheren.players.bots.hubs import hub_weights, raid_values
from cheren.players.views import SideSeat
from cheren.scenario.models import Phase, Side

RAID = 0.5  # value per enemy step a town cuts off (or own step it restores), on top of its VP
HUB_GUARD = 0.6  # value per own step whose supply the last unit in a hub keeps, when it leaves
HUB_WATCH = 9  # hexes: an enemy unit this close to an own hub threatens it within a turn
_NO_FIELD: Mapping[Hex, float] = MappingProxyType({})
_NO_SUPPLY: Mapping[Hex, int] = MappingProxyType({})
_NO_UNIT = (Hex(0, 0), 0.0, False, 0, 0, False, 0.0, 0.0)  # before the first move's unit is read


class TacticianBot(HeuristicBot):
    name = "tactician"

    def __init__(self, seed: int = 0, attack_threshold: float = ATTACK_THRESHOLD, tie_break: float = TIE_BREAK,
                 batch: bool = True, starve: float = 0.0) -> None:
        super().__init__(seed, attack_threshold=attack_threshold, tie_break=tie_break)
        self.starve = starve
        self._hubs: tuple[object, dict[str, int], dict[str, int]] | None = None
        self.pull: dict[Hex, float] = {}  # hexes a planner wants reached (a lost hub), and how much
        self.batch = batch  # choose a phase's moves in one pass (see _batch_move)
        self._queue: list[tuple[Move, str]] = []
        self._queue_for: tuple[int, Side, Phase] | None = None
        self._ours: dict[Hex, int] = {}
        self._keep: dict[Hex, float] = {}

    def choose(self, seat: SideSeat) -> Choice:
        """As the heuristic bot chooses, without listing every legal action where the choice
        does not read them: an attack is chosen from the units next to the enemy and checked at
        the gate, and a phase's moves chosen in one pass are only checked (ending a phase is
        legal then, 7.0, so the list would not be empty).  Play-outs make most of their choices
        there, and listing the moves again after every move was a tenth of a planner game."""
        game = seat.game
        if game.pending is None and seat.my_turn():
            phase = game.phase
            if phase is Phase.COMBAT and not peek(game).assemblies:
                return self._combat(seat, [])
            if (self.batch and phase in (Phase.MOVEMENT, Phase.EXPLOITATION)
                    and self._queue_for == (game.turn, game.phasing, phase)):
                return self._batch_move(seat, [])
        return super().choose(seat)

    # -- what hangs on each town --------------------------------------------------------------
    def hubs(self, p: Position, side: Side) -> tuple[dict[str, int], dict[str, int]]:
        """(own towns: steps of ours their loss cuts off; enemy towns: what taking them is worth
        in steps), worked out once a phase (units moving within it change little) and again when
        a town changes hands."""
        key = (side, p.turn, p.side, p.phase, frozenset(p.allied_control))
        if self._hubs is None or self._hubs[0] != key:
            own = {t: n for t, n in hub_weights(p, side).items() if n and p.controller(t) is side}
            self._hubs = (key, own, raid_values(p, side))
        return self._hubs[1], self._hubs[2]

    # -- movement, reaction, exploitation ------------------------------------------------------
    def _move(self, seat: SideSeat, actions: list[Action]) -> Choice:
        game = seat.game
        reaction = game.phase is Phase.REACTION
        if self.batch and not reaction:
            return self._batch_move(seat, actions)
        p = seat.position()
        side = seat.side
        reserves = self._reserves_chit(p, side, actions) if reaction else None
        scored = self._score_moves(seat, p, actions, reaction)
        if not scored:
            return Choice(EndPhase(), "no unit may move")
        scored = [c for c in scored if c.stack > -10.0]  # never over the stacking limit (3.1)
        best = max(scored, key=lambda c: c.total(), default=None)
        if best is not None and best.total() > 0.2:
            if reserves is not None and game.flow.reaction_used == 0:
                return Choice(reserves, "play Reserves first: the reaction may then move a stacking value of 5, "
                                        "not 3 (10.0)")
            return Choice(best.move, best.reason(p))
        return Choice(EndPhase(), "no move improves the position")

    def _batch_move(self, seat: SideSeat, actions: list[Action]) -> Choice:
        """The phase's moves chosen in one pass, best first, each unit once: a move's stacking,
        the town it takes and the hub it leaves are judged as the moves chosen before it leave
        them (what choosing again after every move would see, for a fraction of the work)."""
        game = seat.game
        key = (game.turn, game.phasing, game.phase)
        if self._queue_for != key:
            self._queue_for = key
            self._queue = self._plan_phase(seat, actions)
        while self._queue:
            move, why = self._queue.pop(0)
            if game.check(move).ok:
                return Choice(move, why)
        return Choice(EndPhase(), "no move improves the position")

    def _plan_phase(self, seat: SideSeat, actions: list[Action]) -> list[tuple[Move, str]]:
        import heapq

        p = seat.position()
        s = p.scenario
        scored = self._score_moves(seat, p, actions, False)
        if not scored:
            return []
        ours = dict(self._ours)
        limits = s.stack_limits
        left = {h: len(p.units_at(h)) for h in self._keep}
        claimed: set[Hex] = set()
        pulled: set[Hex] = set()
        used: set[str] = set()
        heap = [(-c.total(), i) for i, c in enumerate(scored)]
        heapq.heapify(heap)
        out: list[tuple[Move, str]] = []
        while heap:
            neg, i = heapq.heappop(heap)
            c = scored[i]
            if c.move.unit in used:
                continue
            if ours.get(c.to, 0) + c.size > limits[c.to]:
                continue  # 3.1 would take steps at the end of the phase: never over the limit
            c.stack = c.leave
            c.last = self._keep.get(c.here, 0.0) if left.get(c.here, 0) == 1 else 0.0
            if c.town is not None and c.town in claimed:
                c.prize = 0.0
            if c.town is not None and c.town in pulled:
                c.pull = 0.0
            now = c.total()
            if now < -neg - 1e-9:
                heapq.heappush(heap, (-now, i))
                continue
            if now <= 0.2:
                break
            used.add(c.move.unit)
            ours[c.here] = ours.get(c.here, 0) - c.size
            ours[c.to] = ours.get(c.to, 0) + c.size
            if c.here in left:
                left[c.here] -= 1
            if c.town is not None:
                claimed.add(c.town)
            if c.to in self.pull:
                pulled.add(c.to)  # one unit retakes the hub; the others need not all go there
            out.append((c.move, c.reason(p)))
        return out

    def _score_moves(self, seat: SideSeat, p: Position, actions: list[Action], reaction: bool) -> list[_Scored]:
        side = seat.side
        hold = self.hold
        # the moves are read in one pass below, not copied out first (a phase lists hundreds)
        if not any(isinstance(a, Move) and a.unit not in hold for a in actions):
            return []
        s = p.scenario
        own_hubs, raids = self.hubs(p, side)
        # the town field and supply are read by the movement score only, not by a reaction's
        field = _NO_FIELD if reaction else town_field(p, side)
        supplied = _NO_SUPPLY if reaction else supplied_view(p, side)[1]  # kept by the engine: read, not copied
        enemy_near = self._enemy_hexes(p, side)
        near_enemy = {n for h in enemy_near for n in s.adjacent[h]}
        stacks = p.stacks()
        ours = {h: sum(s.units[u].stack for u in ids if p.units[u].side is side) for h, ids in stacks.items()}
        self._ours = ours
        limits = s.stack_limits
        prizes: dict[Hex, float] = {}
        for h, place in s.towns_by_hex.items():
            if p.controller(place.name) is not side:
                prizes[h] = 2.0 + place.vp + RAID * raids.get(place.name, 0)
        # The last unit in an own hub that an enemy unit could reach soon keeps it.
        keep: dict[Hex, float] = {}
        for name, weight in own_hubs.items():
            h = s.town_hex(name)
            if any(e.distance(h) <= HUB_WATCH for e in enemy_near):
                keep[h] = HUB_GUARD * weight
        self._keep = keep
        free_prizes = {h for h in prizes if not p.units_at(h)}
        units: dict[str, tuple[Hex, float, bool, int, int, bool, float, float]] = {}
        tie_break, rnd = self.tie_break, self.rng.random
        pull_of = self.pull
        adjacent = s.adjacent
        field_get, ours_get = field.get, ours.get
        out: list[_Scored] = []
        guards: dict[Hex, float] = {}
        # A reaction move that ends in no town, passes through no town it would take and leaves a
        # hex within its stacking limit scores at most -0.5 plus the nudge (no guard, no prize),
        # so it is never kept: it only draws its nudge, as every move does, and goes (a reaction
        # phase scores every unit's moves again after each reaction move).
        quiet = reaction and not pull_of
        towns_by_hex = s.towns_by_hex
        prizes_get = prizes.get
        last_uid: str | None = None
        gap: dict[Hex, int] | None = None
        here, here_field, here_supplied, size, strength, marked, over, last = _NO_UNIT
        for m in actions:
            if not isinstance(m, Move):
                continue
            uid = m.unit
            if hold and uid in hold:
                continue
            if uid is not last_uid:  # a unit's moves come one after another: its part read once
                unit = units.get(uid)
                if unit is None:
                    at = p.units[uid].hex
                    assert at is not None
                    unit = (at, field_get(at, 0.0), at in supplied, s.units[uid].stack, p.strength(uid),
                            p.units[uid].supply is not None, 10.0 if ours_get(at, 0) > limits[at] else 0.0,
                            keep.get(at, 0.0) if len(p.units_at(at)) == 1 else 0.0)
                    units[uid] = unit
                here, here_field, here_supplied, size, strength, marked, over, last = unit
                last_uid = uid
            path = m.path
            to = path[-1]
            if quiet and to not in towns_by_hex and not over and (not free_prizes or free_prizes.isdisjoint(path)):
                if tie_break:
                    rnd()
                continue
            found = prizes_get(to)
            town: Hex | None = None
            prize = 0.0
            if found is not None:
                town, prize = to, found
            # a town the path passes through is taken too (2.1); ``to`` is none of them here
            elif free_prizes and not free_prizes.isdisjoint(path):
                town = next((h for h in path[:-1] if h in free_prizes), None)
                if town is not None:
                    prize = prizes[town]
            if reaction:
                base = guards.get(to)  # what guarding there is worth depends on the hex alone
                if base is None:
                    base = guards[to] = self._guard_score(p, side, m, enemy_near, stacks) - 0.5
                if town is not None:
                    prize -= 2.0  # retake a hub, or walk into an enemy one left empty
            else:
                base = field_get(to, 0.0) - here_field
                if here_supplied:
                    if to not in supplied:
                        base -= 3.0
                elif to in supplied:
                    base += 3.0 if marked else 1.0
                elif self.starve:
                    # a unit cut off pays for a move that takes it no nearer to supply (12.6 wears it)
                    if gap is None:
                        gap = supply_distances(supplied, adjacent)
                    if gap.get(to, 99) >= gap.get(here, 99):
                        base -= self.starve * (2.0 if marked else 1.0)
                if strength <= 1 and to in near_enemy:
                    base -= 1.0
            pull = 0.0
            if pull_of:
                pull = pull_of.get(to, 0.0) or 0.5 * max((pull_of.get(n, 0.0) for n in adjacent[to]), default=0.0)
            if tie_break:
                base += -tie_break + (tie_break - -tie_break) * rnd()
            # A move that cannot score enough even with its stacking at best is never chosen
            # (later moves only lower the other parts), so it is not kept.
            best_case = base + prize + pull + over - last
            if best_case <= 0.2:
                continue
            c = _Scored(m, to, here, size, base, prize, town if town is not None or to not in pull_of else to, over)
            c.pull = pull
            c.stack = -10.0 if ours_get(to, 0) + size > limits[to] else over
            c.last = last
            out.append(c)
        return out

    @staticmethod
    def _reserves_chit(p: Position, side: Side, actions: list[Action]) -> PlayChit | None:
        for a in actions:
            if isinstance(a, PlayChit) and p.scenario.chits[chit_key(a.chit)].effect == "reaction_limit":
                return a
        return None

    # -- combat ------------------------------------------------------------------------------
    def _combat(self, seat: SideSeat, actions: list[Action]) -> Choice:
        game = seat.game
        p = seat.position()
        side = seat.side
        st = peek(game)
        if st.assemblies:
            return self._finish_attack(seat, st.assemblies, actions)
        busy = set(st.attacked)
        _, raids = self.hubs(p, side)
        air = air_unit(p, side)
        air_ok = air is not None and air_refusal(p, side, used=st.air_used) is None
        options = list(self._attack_options(p, side, busy))
        contested = _contested(options)
        best: tuple[float, Attack, str] | None = None
        odds: tuple[Fraction, Fraction, Fraction] = (Fraction(0), Fraction(0), Fraction(0))
        for target, attackers in options:
            town = p.scenario.towns_by_hex.get(target)
            bonus = RAID * raids.get(town.name, 0) if town is not None else 0.0
            # The most the attack could be worth (every defending step lost, none of ours, the hex
            # taken), in the very float operations of its value: an attack that could not beat the
            # best so far, nor pay at all, is not worked out (the same attack is chosen).
            most = attack_value_bound(p, target, side) + 1.0 * bonus
            for use_air in ((False, True) if air_ok else (False,)):
                floor = self.attack_threshold if best is None else max(best[0], self.attack_threshold)
                if (most + 0.05 if use_air else most) <= floor:
                    continue
                wi = what_if(p, proposed(target, attackers, air=use_air))
                if not wi.legal:
                    continue
                d, a, v = wi.expected_defender_steps, wi.expected_attacker_steps, wi.p_vacated
                value = attack_value(p, target, d, a, v)
                value += float(v) * bonus
                if use_air:
                    value += 0.05
                if best is None or value > best[0]:
                    reason = (f"attack {target.label} at {wi.column}: expect {float(d):.2f} "
                              f"enemy steps for {float(a):.2f} of ours, "
                              f"{float(v):.0%} to take the hex"
                              + (f"; taking {town.name} cuts enemy supply (12.1)" if bonus and town else ""))
                    best = (value, Attack(target, tuple(attackers), use_air), reason)
                    odds = (d, a, v)
        if best is not None and best[0] > self.attack_threshold:
            attack = best[1]
            if contested & set(attack.attackers):
                used = self._trim(p, attack.target, attack.attackers, attack.air, *odds, contested)
                if len(used) < len(attack.attackers):
                    kept = len(attack.attackers) - len(used)
                    attack = Attack(attack.target, used, attack.air)
                    best = (best[0], attack, f"{best[2]}; {kept} unit(s) next to it kept for another attack")
        return self._make_attack(game, p, side, best)

    @staticmethod
    def _trim(p: Position, target: Hex, attackers: tuple[str, ...], air: bool, d: Fraction, a: Fraction,
              v: Fraction, contested: set[str]) -> tuple[str, ...]:
        """Leave out, weakest first, the units that also stand next to another target and add
        nothing to this attack's odds (the same expected losses both ways and chance to take it)."""
        kept = list(attackers)
        for uid in sorted((u for u in attackers if u in contested), key=lambda u: (p.strength(u), u)):
            trial = [u for u in kept if u != uid]
            if not trial:
                break
            wi = what_if(p, proposed(target, trial, air=air))
            if wi.legal and (wi.expected_defender_steps, wi.expected_attacker_steps, wi.p_vacated) == (d, a, v):
                kept = trial
        return tuple(kept)

    # -- decisions -----------------------------------------------------------------------------
    def _decide(self, seat: SideSeat, d: Decision, actions: list[Action]) -> Choice:
        retreats = [a for a in actions if isinstance(a, Retreat)]
        if retreats:
            choice = super()._decide(seat, d, actions)
            if not isinstance(choice.action, Retreat):
                return choice
            p = seat.position()
            side = seat.side
            supplied = supplied_view(p, side)[1]
            own = own_field(p, side)
            best = max(retreats, key=lambda a: (self._fits(p, side, a.units, a.to), a.to in supplied,
                                                own.get(a.to, 0.0)))
            stay = next((a for a in actions if isinstance(a, StayAndLose)), None)
            if stay is not None and not self._fits(p, side, best.units, best.to):
                return Choice(stay, "stay and lose one step: every hex to fall back to is full, and 11.7 would "
                                    "take the steps over its stacking limit (3.1)")
            return Choice(best, f"fall back to {best.to.label}: "
                                + ("it draws supply (12.0)" if best.to in supplied else "towards our own towns"))
        return super()._decide(seat, d, actions)


class _Scored:
    """One candidate move and the parts of its score that the moves chosen before it change."""

    __slots__ = ("base", "here", "last", "leave", "move", "prize", "pull", "size", "stack", "to", "town")

    def __init__(self, move: Move, to: Hex, here: Hex, size: int, base: float, prize: float, town: Hex | None,
                 leave: float) -> None:
        self.move, self.to, self.here, self.size = move, to, here, size
        self.base, self.prize, self.town, self.leave = base, prize, town, leave
        self.stack = 0.0
        self.last = 0.0
        self.pull = 0.0

    def total(self) -> float:
        return self.base + self.prize + self.pull + self.stack - self.last

    def reason(self, p: Position) -> str:
        name = p.scenario.units[self.move.unit].name
        parts = []
        if self.town is not None and self.prize > 0:
            parts.append(f"takes {p.scenario.towns_by_hex[self.town].name} (2.1)")
        if self.last:
            parts.append("leaves a hub with no garrison")
        if self.stack < 0:
            parts.append("over the stacking limit (3.1)")
        extra = f"; {', '.join(parts)}" if parts else ""
        return f"{name} to {self.to.label}: score {self.total():.2f} (towns, hubs, supply, stacking){extra}"


def supply_distances(supplied: Mapping[Hex, int], adjacent: Mapping[Hex, tuple[Hex, ...]]) -> dict[Hex, int]:
    """Each map hex's distance in hexes to the nearest hex in supply."""
    out = {h: 0 for h in supplied}
    frontier = list(out)
    d = 0
    while frontier:
        d += 1
        nxt: list[Hex] = []
        for h in frontier:
            for n in adjacent.get(h, ()):
                if n not in out:
                    out[n] = d
                    nxt.append(n)
        frontier = nxt
    return out


def _contested(options: list[tuple[Hex, list[str]]]) -> set[str]:
    """Units that stand next to more than one enemy hex they may attack."""
    seen: dict[str, int] = {}
    for _, attackers in options:
        for u in attackers:
            seen[u] = seen.get(u, 0) + 1
    return {u for u, n in seen.items() if n > 1}


__all__ = ["TacticianBot", "town_field"]
