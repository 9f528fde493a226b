"""The planning bot: it weighs whole-phase plans by playing each out through the engine in every
phase where a plan is more than one choice - its Movement, its Exploitation and its reaction in
the enemy's turn (10.0) - and plays its attacks, chits, retreats, advances and pushes through
the tactician (:mod:`cheren.players.bots.tactician`), which plans each Combat phase's attacks
together from the exact odds.

How a plan is weighed: the bot's view of the position (its own seat; the chits it cannot see
dealt afresh, :func:`cheren.players.bots.lookahead.determinise`) is played on through the gate,
the plan first, then the tactician for both sides, to the start of the bot's next Movement
phase; that position is valued by :func:`value` (VP, steps, and steps out of supply now and
marked).  Every plan of one search rolls the same dice, so plans differ by the plan first (and a
play-out whose planned phase comes out exactly as an earlier one's, bots and dice alike, takes
that one's value rather than playing the same rest again).  The
enemy of a play-out is the tactician, which raids hubs left empty and retakes its own, so a
plan that leaves Kassala open to a raid pays for it in the play-out.

The plans, in words the bot gives as its reasons:

* Movement: the tactician's own; with ``pin`` (planner2), a unit of ours next to each enemy unit
  whose reaction could cut our supply, so that it may not react (10.0); a garrison for every
  town the enemy could reach before our next Movement phase, its reaction and exploitation
  counted (hubs first); a move that cuts an enemy supply line; a hub retaken at once; a reserve
  held back behind a long line for the next reaction (designer's notes, 15.0); then, around the
  best of those, the best with the garrisons, the pins or the cut added, or with one of its
  movers kept back.
* Reaction (10.0): the tactician's (guard, retake); none; the move that cuts most enemy steps
  off from supply (a reacting unit does not check supply that turn, 15.0).
* Exploitation (13.0): the tactician's; none; garrisons; an Exploit chit on the unit that
  gains most.

``budget`` caps the plans weighed in a Movement phase (the other phases weigh at most half as
many); the same seed gives the same games.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from cheren.engine.actions import Action, EndPhase, Move, PlayChit
from cheren.engine.game import Flow, Game
from cheren.engine.position import Position, Status, chit_key
from cheren.engine.rules.supply import supplied_at, supply_context
from cheren.hexes import Hex
from cheren.players.bots.base import Choice
from cheren.players.bots.heuristic import MoveScores
from cheren.players.bots.hubs import hub_weights, may_react, town_lines
from cheren.players.bots.lookahead import Candidate, _BeliefSeat, determinise
from cheren.players.bots.reaches import deep_reach, reaction_cuts
from cheren.players.bots.tactician import TacticianBot
from cheren.players.views import SideSeat
from cheren.scenario.models import Phase, Side

DEFAULT_BUDGET = 6
VARIED = 2  # of a Movement phase's budget, the plans that vary the best of the others
PLANNED = (Phase.MOVEMENT, Phase.REACTION, Phase.EXPLOITATION)
PLAYOUT_LIMIT = 3000
EXPOSURE = 0.3  # value per own step the enemy could cut off next turn, where a movement plan leaves it
CUT = 0.3  # value per step out of supply at the horizon (it will be marked, then worn by 12.6)
STEP = 0.35  # value per step of material, ours against theirs
HUB_AREA = 8  # hexes: a town that carries supply for at least this many hexes is a hub
RETAKE = 6.0  # pull of a lost hub on the retake plan's units


@dataclass(frozen=True)
class Plan:
    """How to make one plan: actions to open with, units to leave where they stand, pulls
    towards hexes for the tactician, its random nudge, and whether to stop after the opening."""

    label: str
    first: tuple[Action, ...] = ()
    hold: frozenset[str] = frozenset()
    pull: tuple[tuple[Hex, float], ...] = ()
    tie_break: float = 0.0
    stop: bool = False


def value(position: Position, side: Side) -> tuple[float, int, int, int]:
    """How good ``position`` is for ``side``: Allied VP (against them for the Italians), the
    steps each side has left, and the steps each side could not supply now or carries marked
    (those are the steps 12.6 takes next and that may not attack).  Material counts less in the
    last turns, where only the VP of 14.0 will."""
    vp = position.allied_vp()
    ours = theirs = marked = 0
    risk = 0.0
    # whether each unit's hex is one its side could draw supply in (12.0-12.2), asked of the
    # units' hexes alone rather than of the whole map (supplied_hexes answers the same)
    contexts = {s: supply_context(position, s) for s in Side}
    air = {uid for uid, d in position.scenario.units.items() if d.type.air}
    for uid, unit in position.units.items():
        if unit.hex is None or unit.status is not Status.MAP or uid in air:
            continue
        left = position.steps_left(uid)
        bad = (unit.supply is not None) + (not supplied_at(contexts[unit.side], unit.hex))
        if unit.side is side:
            ours += left
            marked += unit.supply is not None
            risk -= left * bad
        else:
            theirs += left
            risk += left * bad
    last = len(position.scenario.info.turns)
    weight = min(1.0, (last + 1 - position.turn) / 3)
    sign = 1 if side is Side.ALLIED else -1
    return sign * vp + weight * (STEP * (ours - theirs) + CUT * risk), vp, ours - theirs, marked


class PlannerBot:
    name = "planner"

    def __init__(self, seed: int = 0, budget: int = DEFAULT_BUDGET, *, starve: float = 0.0,
                 reaction_cut: float = 0.0, pin: bool = False) -> None:
        """``starve``, ``reaction_cut`` and ``pin`` (all off: the planner the evaluation model was
        trained on) are the supply mends of ``planner2`` (docs/bots.md): what its tacticians
        charge a unit cut off from supply for a move that takes it no nearer to supply (twice that
        under a marker, 12.4); what a movement plan pays per own step that the enemy's next
        reaction (10.0) could cut off with one unit before our supply check (12.1), the worst such
        move counted; and a movement plan that pins the enemy units whose reaction could cut most."""
        if budget < 1:
            raise ValueError("the planner's budget is at least 1 plan")
        self.rng = random.Random(seed)
        self.budget = budget
        self.starve = starve
        self.reaction_cut = reaction_cut
        self.pin = pin
        self.base = TacticianBot(seed, starve=starve)
        self._plan: list[tuple[Action, str]] = []
        self._plan_for: tuple[int, Side, Phase] | None = None
        self._reason = ""
        self._chosen = ""
        self._made = 0
        self._after: Position | None = None
        self._hold_for: tuple[int, Side, Phase] | None = None
        self.last_candidates: list[Candidate] = []
        self._caches: dict[str, Any] = {}  # the engine's move cache, shared by the play-outs (see Game)

    @staticmethod
    def _over_the_limit(p: Position, side: Side) -> set[Hex]:
        s = p.scenario
        out = set()
        for h, ids in p.stacks().items():
            if sum(s.units[u].stack for u in ids if p.units[u].side is side) > s.stack_limits[h]:
                out.add(h)
        return out

    def choose(self, seat: SideSeat) -> Choice:
        game = seat.game
        key = (game.turn, game.phasing, game.phase)
        if self._hold_for != key:
            self.base.hold = frozenset()
            self._hold_for = key
        if game.pending is None and game.phase in PLANNED and game.acting is seat.side:
            if self._plan_for != key:
                self._plan_for = key
                self._plan, self._reason = self._search(seat)
                self._made = 0
            if self._reason:
                while self._plan:
                    action, why = self._plan.pop(0)
                    if game.check(action).ok:
                        self._made += 1
                        if self._made == 1:
                            return Choice(action, f"{self._reason}\nthis move: {why}")
                        return Choice(action, f"{why} (step {self._made} of {self._chosen})")
                crowded = self._over_the_limit(game.position, seat.side)
                if crowded:
                    # A move of the plan was refused here (the dice or a chit differed from its
                    # play-out): the units of an over-stacked hex move out rather than lose steps.
                    self.base.hold = frozenset(u for u, x in game.position.units.items()
                                               if x.side is seat.side and x.hex not in crowded)
                    choice = self.base.choose(seat)
                    if isinstance(choice.action, Move):
                        return Choice(choice.action, f"{choice.reason}; out of an over-stacked hex (3.1)")
                end = EndPhase()
                if game.check(end).ok:
                    if self._made == 0:
                        return Choice(end, f"{self._reason}\nit moves no unit")
                    return Choice(end, f"{self._chosen} is made")
        return self.base.choose(seat)

    # -- the plans ---------------------------------------------------------------------------
    def _plans(self, seat: SideSeat) -> list[Plan]:
        phase = seat.game.phase
        moves = [a for a in seat.legal_actions() if isinstance(a, Move)]
        if not moves:
            return []
        plans = [Plan("the tactician's plan")]
        # each kind of plan in turn, until the budget is full (a plan past it is not made)
        if phase is Phase.MOVEMENT:
            room = max(1, self.budget - VARIED)
            makers: tuple[Callable[[SideSeat], Plan | None], ...] = (
                self._guard_plan, self._cut_plan, self._retake_plan, self._reserve_plan)
            if self.pin:
                makers = (self._pin_plan, *makers)
            for make in makers:
                if len(plans) >= room:
                    break
                extra = make(seat)
                if extra is not None:
                    plans.append(extra)
            return plans[:room]
        room = max(2, self.budget // 2)
        plans.append(Plan("no " + ("reaction" if phase is Phase.REACTION else "exploitation"), stop=True))
        if phase is Phase.REACTION:
            cut = self._cut_plan(seat) if len(plans) < room else None
            if cut is not None:
                plans.append(replace(cut, stop=True))
        else:
            for make in (self._guard_plan, self._exploit_chit_plan):
                extra = make(seat) if len(plans) < room else None
                if extra is not None:
                    plans.append(extra)
        return plans[:room]

    def _variations(self, seat: SideSeat, best: Plan, moves: list[tuple[Action, str]], bases: list[Plan],
                    n: int) -> list[Plan]:
        """``n`` more plans around the best weighed so far: the best with the garrisons of the
        guard plan, or opening with the supply cut, when it has not; then the best with one of
        its movers kept back, first mover first."""
        names = seat.game.scenario.units
        out: list[Plan] = []
        for other in bases:
            if other is best or len(out) >= n:
                continue
            if other.label.startswith(("garrison", "pin")) and not other.hold <= best.hold:
                out.append(Plan(f"{best.label}, and {other.label}", first=(*other.first, *best.first),
                                hold=best.hold | other.hold, pull=best.pull))
            elif other.label.startswith("cut a supply line") and not best.first:
                out.append(Plan(f"{other.label}, then {best.label}", first=other.first, hold=best.hold,
                                pull=best.pull))
        movers = list(dict.fromkeys(a.unit for a, _ in moves if isinstance(a, Move) and a.unit not in best.hold))
        for u in movers:
            if len(out) >= n:
                break
            out.append(Plan(f"{best.label}, but {names[u].name} stays", first=best.first,
                            hold=best.hold | {u}, pull=best.pull))
        return out[:n]

    def _guard_plan(self, seat: SideSeat) -> Plan | None:
        """Every own town the enemy could enter before our next Movement phase (its reaction and
        exploitation counted), hubs first, then by VP: its weakest unit stays, or the weakest
        unit that can reach it steps in.  (Hub garrisons sized against the enemy that could reach
        them won fewer games: docs/bots.md.)"""
        p = seat.position()
        side = seat.side
        s = p.scenario
        by_unit = deep_reach(p, side.enemy)
        reach = set().union(*by_unit.values()) if by_unit else set()
        lines = town_lines(p, side)
        hold: set[str] = set()
        fill: list[Move] = []
        names: list[str] = []
        legal = [a for a in seat.legal_actions() if isinstance(a, Move)]
        towns = [t for t in s.towns.values() if p.controller(t.name) is side]
        for town in sorted(towns, key=lambda t: (-(lines.get(t.name, 0).bit_count() >= HUB_AREA), -t.vp, t.name)):
            h = s.town_hex(town.name)
            hub = lines.get(town.name, 0).bit_count() >= HUB_AREA
            if not hub and town.vp < 2:
                continue
            ours = [u for u in p.units_at(h) if p.units[u].side is side and all(f.unit != u for f in fill)]
            if ours:
                if reach & set(s.adjacent.get(h, ())) and not any(u in hold for u in ours):
                    hold.add(min(ours, key=lambda u: (p.strength(u), u)))
                    names.append(town.name)
            elif h in reach:
                movers = [m for m in legal if m.to == h and m.unit not in hold and all(m.unit != f.unit for f in fill)]
                if movers:
                    fill.append(min(movers, key=lambda m: (p.strength(m.unit), len(m.path), m.unit)))
                    names.append(town.name)
        if not names:
            return None
        return Plan(f"garrison the towns the enemy can reach before our next move ({', '.join(names)})",
                    first=tuple(fill), hold=frozenset(hold))

    def _cut_plan(self, seat: SideSeat) -> Plan | None:
        """The legal move that leaves the most enemy steps unable to draw supply at their next
        check (the threat map's supply cuts, read from our side)."""
        from cheren.engine.threats import supply_cuts

        p = seat.position()
        legal = {(a.unit, a.to): a for a in seat.legal_actions() if isinstance(a, Move)}
        if not legal:
            return None
        reach: dict[str, frozenset[Hex]] = {}
        for uid, to in legal:
            reach[uid] = reach.get(uid, frozenset()) | {to}
        cut: dict[Move, int] = {}
        for c in supply_cuts(p, seat.side.enemy, reach, explain=False, every=True):
            move = legal.get((c.by, c.at))
            if move is not None:
                cut[move] = cut.get(move, 0) + p.steps_left(c.unit)
        best = sorted(cut, key=lambda m: (-cut[m], m.unit, m.to))
        move = next((m for m in best if seat.game.check(m).ok), None)
        if move is None:
            return None
        name = p.scenario.units[move.unit].name
        return Plan(f"cut a supply line: {name} to {move.to.label} leaves {cut[move]} enemy steps without "
                    "supply (12.1)", first=(move,))

    def _pin_plan(self, seat: SideSeat) -> Plan | None:
        """In our own Movement phase: a unit of ours next to each of the (at most two) enemy units
        whose reaction (10.0) could cut most of our steps off before our supply check (12.1); a
        unit next to one of ours may not react."""
        game = seat.game
        side = seat.side
        if game.phasing is not side:
            return None
        p = seat.position()
        worst: dict[str, int] = {}  # per enemy unit, the most steps one reaction move of it cuts off
        for (by, _), steps in reaction_cuts(p, side).items():
            worst[by] = max(worst.get(by, 0), steps)
        if not worst:
            return None
        legal = [a for a in seat.legal_actions() if isinstance(a, Move)]
        first: list[Move] = []
        names: list[str] = []
        for by in sorted(worst, key=lambda u: (-worst[u], u))[:2]:
            there = p.units[by].hex
            assert there is not None
            around = set(there.neighbours())
            movers = [m for m in legal if m.to in around and all(m.unit != f.unit for f in first)
                      and game.check(m).ok]
            if not movers:
                continue
            m = max(movers, key=lambda m: (p.strength(m.unit), -len(m.path), m.unit))
            first.append(m)
            names.append(f"{p.scenario.units[m.unit].name} next to {p.scenario.units[by].name}")
        if not first:
            return None
        return Plan(f"pin the enemy units whose reaction could cut our supply (10.0, 12.1): {', '.join(names)}",
                    first=tuple(first), hold=frozenset(f.unit for f in first))

    def _retake_plan(self, seat: SideSeat) -> Plan | None:
        """A hub of ours the enemy holds (its loss cuts our units off, 12.1): the units that can
        reach it go in at once, or next to it to attack."""
        p = seat.position()
        side = seat.side
        s = p.scenario
        weights = hub_weights(p, side)
        lost = [t for t, n in weights.items() if n >= 2 and p.controller(t) is side.enemy]
        if not lost:
            return None
        pulls = tuple((s.town_hex(t), RETAKE + weights[t]) for t in lost)
        legal = [a for a in seat.legal_actions() if isinstance(a, Move)]
        first: list[Move] = []
        for h, _ in pulls:
            if not p.units_at(h):
                movers = [m for m in legal if m.to == h]
                if movers:
                    first.append(min(movers, key=lambda m: (p.strength(m.unit), len(m.path), m.unit)))
        return Plan(f"retake {', '.join(lost)} at once: our supply hangs on it (12.1, 15.0)",
                    first=tuple(first), pull=pulls)

    def _reserve_plan(self, seat: SideSeat) -> Plan | None:
        """Keep a reserve (stacking value up to 3, the reaction limit of 10.0) behind the line: the
        fastest units that are in supply, not next to the enemy and near our hubs stay put."""
        p = seat.position()
        side = seat.side
        s = p.scenario
        weights = hub_weights(p, side)
        hubs = [s.town_hex(t) for t, n in weights.items() if n >= 4 and p.controller(t) is side]
        if not hubs:
            return None
        candidates = [uid for uid, u in p.units.items()
                      if u.side is side and u.hex is not None and may_react(p, uid)
                      and min(h.distance(u.hex) for h in hubs) <= 4]
        candidates.sort(key=lambda u: (-p.movement(u), -p.strength(u), u))
        held: list[str] = []
        room = 3
        for uid in candidates:
            if s.units[uid].stack <= room:
                held.append(uid)
                room -= s.units[uid].stack
        if not held:
            return None
        names = ", ".join(s.units[u].name for u in held)
        return Plan(f"keep {names} back as a reaction reserve behind the line (10.0, 15.0)", hold=frozenset(held))

    def _exploit_chit_plan(self, seat: SideSeat) -> Plan | None:
        """An Exploit chit on the unit whose exploitation the tactician values most."""
        chits = [a for a in seat.legal_actions()
                 if isinstance(a, PlayChit) and seat.game.scenario.chits[chit_key(a.chit)].effect == "exploit"]
        if not chits:
            return None
        p = seat.position()
        best = max(chits, key=lambda a: (p.strength(a.unit), p.movement(a.unit), a.unit))
        return Plan(f"play Exploit on {p.scenario.units[best.unit].name} (13.0)", first=(best,))

    # -- the search --------------------------------------------------------------------------
    def _search(self, seat: SideSeat) -> tuple[list[tuple[Action, str]], str]:
        phase = seat.game.phase
        plans = self._plans(seat)
        if len(plans) < 2:
            return [], ""  # nothing to weigh: the tactician plays the phase
        start = determinise(seat, self.rng)
        dice_seed = self.rng.randrange(2**63)
        results: list[tuple[Candidate, list[tuple[Action, str]]]] = []
        after: dict[int, Position] = {}
        rests: list[_Rest] = []
        bases = list(plans)
        k = 0
        while k < len(plans):
            plan = plans[k]
            moves, (val, vp, steps, marked) = self._play_out(start, seat.side, plan, dice_seed, rests,
                                                             keep_after=phase is Phase.MOVEMENT)
            if self._after is not None:
                after[k] = self._after
            results.append((Candidate(k, len(moves), val, vp, steps, marked, plan.label), moves))
            if k == len(bases) - 1 and phase is Phase.MOVEMENT and len(plans) < self.budget:
                top, top_moves = max(results, key=lambda c: (c[0].value, -c[0].index))
                plans += self._variations(seat, bases[top.index], top_moves, bases, self.budget - len(plans))
            k += 1
        if phase is Phase.MOVEMENT:
            results = self._charge_exposure(results, after, seat.side)
        best, plan_moves = max(results, key=lambda c: (c[0].value, -c[0].index))
        results.sort(key=lambda c: c[0].index)
        self.last_candidates = [c for c, _ in results]
        others = "\n".join(c.brief() for c, _ in results if c is not best)
        what = {Phase.MOVEMENT: "movement", Phase.REACTION: "reaction", Phase.EXPLOITATION: "exploitation"}[phase]
        reason = f"planner over {len(results)} {what} plans: chose {best.describe()}" + (
            f"\nalso weighed {others}" if others else "")
        self._chosen = best.name()
        return plan_moves, reason

    def _charge_exposure(self, results: list[tuple[Candidate, list[tuple[Action, str]]]],
                         after: dict[int, Position], side: Side) -> list[tuple[Candidate, list[tuple[Action, str]]]]:
        """Each plan pays for the steps it leaves where one enemy move could cut them off (the
        threat map's supply cuts), best first, while a plan could still beat the best checked."""
        from cheren.engine.threats import supply_cuts

        checked: set[int] = set()
        while True:
            results.sort(key=lambda c: (-c[0].value, c[0].index))
            top = next((i for i, (c, _) in enumerate(results) if c.index not in checked), None)
            if top is None or (top > 0 and results[0][0].index in checked
                               and results[0][0].value >= results[top][0].value):
                return results
            c, moves = results[top]
            checked.add(c.index)
            position = after.get(c.index)
            if position is None:
                continue
            cut = {x.unit for x in supply_cuts(position, side, explain=False)}
            exposed = sum(position.steps_left(u) for u in cut)
            charge = EXPOSURE * exposed
            if self.reaction_cut and position.side is side:
                # the enemy's reaction comes before our supply check, so its worst cut bites at once
                charge += self.reaction_cut * max(reaction_cuts(position, side).values(), default=0)
            if charge:
                results[top] = (replace(c, value=c.value - charge, exposed=exposed), moves)

    def _play_out(self, start: Position, side: Side, plan: Plan, dice_seed: int, rests: list[_Rest] | None = None,
                  keep_after: bool = True) -> tuple[list[tuple[Action, str]], tuple[float, int, int, int]]:
        """Play the plan, then the tactician for both sides, to the start of our next Movement
        phase; the plan's own actions come back with their reasons.

        Every play-out of a search starts from the same position with the same dice and bots, so
        one whose planned phase ends with the very actions of an earlier one's, its bots in the
        same state, plays the rest of that one's play-out again: its value is taken from
        ``rests`` instead (two plans often make the same phase: the tactician's reaction that
        moves no unit and no reaction at all).  The position as the planned phase left it is kept
        in ``_after`` only when ``keep_after`` (a movement plan pays for the steps it leaves
        exposed there)."""
        game = Game.from_position(start, seed=dice_seed, caches=self._caches, undo=False)
        planner = TacticianBot(dice_seed % 2**31 + 1, tie_break=plan.tie_break, starve=self.starve)
        planner.hold = plan.hold
        planner.pull = dict(plan.pull)
        enemy = TacticianBot(dice_seed % 2**31, starve=self.starve)
        seats = {s: _BeliefSeat(game, s) for s in Side}
        bots = {side: planner, side.enemy: enemy}
        begun = (game.turn, game.phasing, game.phase)
        taken: list[tuple[Action, str]] = []
        for action in plan.first:
            while game.pending is not None and game.acting is not side:
                game.apply(enemy.choose(seats[game.acting]).action)
            if game.check(action).ok:
                game.apply(action)
                taken.append((action, plan.label))
        if plan.stop:
            while (game.turn, game.phasing, game.phase) == begun and not game.over:
                if game.pending is not None:
                    game.apply(bots[game.acting].choose(seats[game.acting]).action)
                elif game.check(EndPhase()).ok:
                    game.apply(EndPhase())
                else:
                    break
        self._after = None
        inside = (game.turn, game.phasing, game.phase) == begun
        left = not inside  # the planned phase is over: the rest may be one played already
        n = 0
        rest: _Rest | None = None
        while not game.over and n < PLAYOUT_LIMIT:
            if inside and (game.turn, game.phasing, game.phase) != begun:
                inside = False
                left = True
                planner.hold = frozenset()
                planner.pull = {}
                if keep_after:
                    self._after = game.position.copy()
            if left and rests is not None:
                left = False
                rest = _Rest(tuple(e.action for e in game.log), game.position.dice.state,
                             (_bot_state(planner), _bot_state(enemy)), n)
                if self._after is not None:  # made just now, as the planned phase ended: the position here
                    rest.state = (self._after, game.flow.copy())
                for seen in rests:
                    if seen.same(rest) and seen.horizon is not None and n + seen.length <= PLAYOUT_LIMIT:
                        if self._after is None and keep_after:
                            self._after = seen.horizon
                        return taken, seen.value
            if not inside and game.phase is Phase.MOVEMENT and game.phasing is side and game.pending is None:
                break
            acting = game.acting
            choice = bots[acting].choose(seats[acting])
            action = choice.action
            if inside and acting is side and game.pending is None and action.kind in ("move", "play_chit"):
                taken.append((action, choice.reason))
            game.apply(action)
            n += 1
        if self._after is None and keep_after:
            self._after = game.position.copy()
        outcome = value(game.position, side)
        if rest is not None and rests is not None and (game.over or n < PLAYOUT_LIMIT):
            rest.horizon, rest.length = game.position, n - rest.length  # this game plays no more
            rest.value = outcome
            rests.append(rest)
        return taken, outcome


class _Rest:
    """A play-out as its planned phase left it (the actions played since the search's position,
    the dice and both bots' state), and where the rest of it went: the position at the horizon
    and the actions it took to get there."""

    __slots__ = ("actions", "bots", "dice", "horizon", "length", "state", "value")

    def __init__(self, actions: tuple[Action, ...], dice: int, bots: tuple[dict[str, object], dict[str, object]],
                 n: int) -> None:
        self.actions, self.dice, self.bots, self.length = actions, dice, bots, n
        self.horizon: Position | None = None
        self.value: tuple[float, int, int, int] = (0.0, 0, 0, 0)
        self.state: tuple[Position, Flow] | None = None  # the position and the flow, where they were kept

    def same(self, other: _Rest) -> bool:
        """Would the two play-outs go on alike?  With the same dice and bots, they would from the
        same actions, and from the same position and flow reached by other actions (moves made
        in another order): the rules and the bots read the position and the flow, never the log."""
        if self.dice != other.dice or self.bots != other.bots:
            return False
        if self.actions == other.actions:
            return True
        return (self.state is not None and other.state is not None and self.state[1] == other.state[1]
                and self.state[0] == other.state[0])


# What a tactician keeps that no later choice reads as it was when a phase ended, so two
# play-outs whose bots differ only there go on alike: ``_ours`` and ``_keep`` are written by every
# move scoring before the phase's plan reads them; ``_queue``/``_queue_for`` and ``_hubs`` are
# read only while the phase (turn, side, phase) they were made in lasts.
_REMADE = frozenset({"_ours", "_keep", "_queue", "_queue_for", "_hubs"})


def _bot_state(bot: TacticianBot) -> dict[str, object]:
    """Everything a tactician carries from one phase to the next (its random generator's state
    for the generator), to tell whether two play-outs' bots would go on alike."""
    names: tuple[str, ...] | None = getattr(type(bot), "__mypyc_attrs__", None)  # compiled: no __dict__
    fields = vars(bot) if names is None else {k: getattr(bot, k) for k in names if hasattr(bot, k)}
    return {k: (v.getstate() if isinstance(v, random.Random) else v.kept if isinstance(v, MoveScores) else v)
            for k, v in fields.items() if k not in _REMADE}
