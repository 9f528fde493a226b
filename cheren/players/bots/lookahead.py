"""A bot that looks ahead: at the start of each of its Movement phases it weighs whole-phase
movement plans by playing each one out through the engine, to the start of its next Movement
phase (the rest of its turn and the enemy's whole reply), and follows the plan that ends best.

Why whole-phase plans: a turn here is many moves that only make sense together, and the
heuristic bot's known weakness is what the enemy does next (it cannot see which of its units the
enemy can cut off before the next supply check). Planning over the whole turn with the engine as
the forward model, as Justesen et al. do for multi-action turns, lets the enemy's reply (its
reaction, movement, attacks and exploitation, and the supply check that follows) judge each plan.

What it may know: its own seat's view only. The enemy's hand is dealt afresh from the chits it
cannot have seen (:func:`determinise`), and every play-out rolls its own dice from the bot's seed,
never the game's. Every action it takes goes through the gate. ``budget`` is the number of plans
weighed per Movement phase (more: stronger and slower); the same seed gives the same games.
Outside the Movement phase, and when a plan's next step is no longer legal, it plays as the
heuristic bot does.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from cheren.engine.actions import Action, EndPhase, Move
from cheren.engine.game import Game
from cheren.engine.position import Position, chit_instances
from cheren.players.bots.base import Choice
from cheren.players.bots.heuristic import HeuristicBot, MoveScores
from cheren.players.views import SideSeat, chit_view
from cheren.scenario.models import Phase, Side

DEFAULT_BUDGET = 8
VARIATIONS = (0.4, 0.8, 1.5, 2.5, 4.0)  # how far each varied plan strays from the heuristic's
EXPOSURE = 0.3  # value lost per step of ours the enemy could cut off next turn
PLAYOUT_LIMIT = 3000  # actions: a play-out that runs away is cut short


@dataclass(frozen=True)
class PlanSpec:
    """How to make one plan: moves to open with, units to leave where they stand, and the
    random nudge the heuristic planner gives its move scores for the rest."""

    label: str
    first: tuple[Action, ...] = ()
    hold: frozenset[str] = frozenset()
    tie_break: float = 0.0


@dataclass(frozen=True)
class Candidate:
    """One plan weighed: its number, the moves it makes, and what the play-out gave."""

    index: int
    moves: int
    value: float
    vp: int
    steps: int  # our steps left minus the enemy's, at the horizon
    marked: int  # our units carrying a Low/No supply marker at the horizon
    label: str = ""
    exposed: int = 0  # our steps the enemy could cut off next turn, where the plan leaves them

    def describe(self) -> str:
        """The plan and every figure its value comes from."""
        cut = f", {self.exposed} of our steps open to a supply cut" if self.exposed else ""
        return (f"{self.name()}: {_count(self.moves, 'move')}; value {self.value:.1f} from Allied VP {self.vp}, "
                f"steps {self.steps:+d} against the enemy's, {self.marked} of ours out of supply{cut}")

    def brief(self) -> str:
        return f"{self.name()}: value {self.value:.1f}, Allied VP {self.vp}"

    def name(self) -> str:
        return f"plan {self.index + 1}" + (f" ({self.label})" if self.label else "")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


class _BeliefSeat(SideSeat):
    """A seat in one of the bot's own play-outs.  The play-out's position is already the bot's
    belief (:func:`determinise` dealt the hidden chits), so there is nothing left to hide, and
    the copy a :class:`SideSeat` makes on every call is spared: the heuristic bots only read it."""

    def position(self) -> Position:
        return self.game.position


def determinise(seat: SideSeat, rng: random.Random) -> Position:
    """The seat's view with the hidden chits dealt afresh: the enemy's hand (as many as it holds)
    drawn from the enemy chits this side has not seen, the rest in the cup; fresh dice."""
    from cheren.engine.dice import Dice

    p = seat.position()
    view = chit_view(seat.game.position, seat.side)
    s = p.scenario
    known = {*p.chits.hands[seat.side], *p.chits.played, *p.chits.removed, *p.chits.seen[seat.side]}
    unseen = [c for c in chit_instances(s) if c not in known]
    enemy_own = [c for c in unseen if s.chits[c.rsplit(".", 1)[0]].side is seat.side.enemy]
    rng.shuffle(enemy_own)
    hand = sorted(enemy_own[: view.enemy_hand_count])
    p.chits.hands[seat.side.enemy] = hand
    p.chits.cup = sorted(c for c in unseen if c not in hand)
    p.dice = Dice(rng.randrange(2**63))
    return p


def evaluate(position: Position, side: Side) -> tuple[float, int, int, int]:
    """How good the position is for ``side``: Allied VP (for the Allies; against them for the
    Italians), the steps each side has left, and the steps each side has out of supply (those
    are the steps attrition takes next, 12.6, and they may not attack meanwhile)."""
    vp = position.allied_vp()
    ours = theirs = marked = 0
    at_risk = 0.0
    for uid, unit in position.units.items():
        if unit.hex is None:
            continue
        left = position.steps_left(uid)
        cut = unit.supply is not None
        if unit.side is side:
            ours += left
            marked += cut
            at_risk -= left if cut else 0
        else:
            theirs += left
            at_risk += left if cut else 0
    sign = 1 if side is Side.ALLIED else -1
    value = sign * vp * 1.0 + 0.35 * (ours - theirs) + 0.3 * at_risk
    return value, vp, ours - theirs, marked


def _cut_steps(position: Position, side: Side) -> int:
    """The steps of ``side``'s units that could not draw supply if it checked now."""
    from cheren.engine.rules.supply import check_side

    return sum(position.steps_left(uid) for uid, t in check_side(position, side).items() if not t.supplied)


class LookaheadBot:
    name = "lookahead"

    def __init__(self, seed: int = 0, budget: int = DEFAULT_BUDGET) -> None:
        if budget < 1:
            raise ValueError("the look-ahead budget is at least 1 plan")
        self.seed = seed
        self.rng = random.Random(seed)
        self.budget = budget
        self.base = HeuristicBot(seed)
        self._plan: list[tuple[Action, str]] = []  # the chosen plan's moves, each with its reason
        self._plan_for: tuple[int, Side] | None = None
        self._reason = ""  # what the search weighed and why it chose the plan
        self._chosen = ""  # the chosen plan, in a few words
        self._made = 0  # moves of the plan made so far
        self._after_move: Position | None = None
        self.last_candidates: list[Candidate] = []
        # what the play-outs share (never a decision: see Game's caches and heuristic.MoveScores)
        self._caches: dict[str, Any] = {}
        self._scores = MoveScores()

    def choose(self, seat: SideSeat) -> Choice:
        game = seat.game
        if game.pending is None and game.phase is Phase.MOVEMENT and game.phasing is seat.side:
            key = (game.turn, seat.side)
            if self._plan_for != key:
                self._plan_for = key
                self._plan, self._reason = self._search(seat)
                self._made = 0
            while self._plan:
                action, why = self._plan.pop(0)
                if game.check(action).ok:
                    self._made += 1
                    if self._made == 1:  # the first move of the plan says what was weighed
                        return Choice(action, f"{self._reason}\nthis move: {why}")
                    return Choice(action, f"{why} (move {self._made} of the look-ahead's {self._chosen})")
            # The plan is made: the heuristic must not go on moving (it would undo a garrison).
            end = EndPhase()
            if game.check(end).ok:
                if self._made == 0:
                    return Choice(end, f"{self._reason}\nit moves no unit")
                return Choice(end, f"the look-ahead's {self._chosen} is made")
        return self.base.choose(seat)

    # -- the search --------------------------------------------------------------------------
    def _plans(self, seat: SideSeat) -> list[PlanSpec]:
        """The plans to weigh, at most ``budget`` of them: the heuristic's own; one that
        garrisons our towns the enemy can reach; one that opens with a move cutting an enemy
        supply line; then the heuristic's with ever larger random nudges to its move scores."""
        names = seat.game.scenario.units
        specs = [PlanSpec("the heuristic's plan")]
        guard = self._guard_plan(seat)
        if guard is not None:
            specs.append(guard)
        cut = self._cut_opening(seat)
        if cut is not None:
            specs.append(PlanSpec(f"open by cutting a supply line: {names[cut.unit].name} to {cut.to.label}",
                                  first=(cut,)))
        return specs[: self.budget]

    def _variations(self, seat: SideSeat, heuristic: list[tuple[Action, str]], n: int) -> list[PlanSpec]:
        """``n`` more plans, each the heuristic's own with one of its moves left out: the unit
        it moved first stays where it is, then the second, and so on; when those run out, the
        heuristic's with ever larger random nudges to its move scores."""
        names = seat.game.scenario.units
        movers = list(dict.fromkeys(a.unit for a, _ in heuristic if isinstance(a, Move)))
        out = [PlanSpec(f"the heuristic's, but {names[u].name} stays", hold=frozenset({u})) for u in movers[:n]]
        k = 0
        while len(out) < n:
            tie_break = VARIATIONS[k % len(VARIATIONS)]
            out.append(PlanSpec(f"the heuristic's, varied (nudge {tie_break})", tie_break=tie_break))
            k += 1
        return out

    def _search(self, seat: SideSeat) -> tuple[list[tuple[Action, str]], str]:
        start = determinise(seat, self.rng)
        dice_seed = self.rng.randrange(2**63)  # the same dice for every plan: they differ by the plan only
        candidates: list[tuple[Candidate, list[tuple[Action, str]]]] = []
        left: dict[int, Position] = {}
        specs = self._plans(seat)
        k = 0
        while k < len(specs):
            spec = specs[k]
            planner = HeuristicBot(self.rng.randrange(2**31), tie_break=spec.tie_break)
            planner.hold = spec.hold
            self._after_move = start
            moves, outcome = self._play_out(start, seat.side, planner, dice_seed, [(a, spec.label) for a in spec.first])
            left[k] = self._after_move
            value, vp, steps, marked = outcome
            candidates.append((Candidate(k, len(moves), value, vp, steps, marked, spec.label), moves))
            if k == 0:  # the heuristic's plan: the rest of the budget varies it
                specs += self._variations(seat, moves, self.budget - len(specs))
            k += 1
        # Does a plan leave a supply line the enemy could cut next turn (12.0, 15.0)?  The heuristic
        # enemy of the play-outs does not look for cuts, so each plan pays for the steps it leaves
        # exposed.  A penalty only lowers a value: best first, a plan is checked only while it
        # could still beat the best checked so far.
        checked: set[int] = set()
        while True:
            candidates.sort(key=lambda c: (-c[0].value, c[0].index))
            top = next((i for i, (c, _) in enumerate(candidates) if c.index not in checked), None)
            if top is None or (top > 0 and candidates[0][0].index in checked
                               and candidates[0][0].value >= candidates[top][0].value):
                break
            c, moves = candidates[top]
            checked.add(c.index)
            exposed = self._exposure(left[c.index], seat.side)
            if exposed:
                candidates[top] = (replace(c, value=c.value - EXPOSURE * exposed, exposed=exposed), moves)
        best, plan = max(candidates, key=lambda c: (c[0].value, -c[0].index))
        candidates.sort(key=lambda c: c[0].index)
        self.last_candidates = [c for c, _ in candidates]
        others = "\n".join(c.brief() for c, _ in candidates if c is not best)
        reason = f"look-ahead over {len(candidates)} movement plans: chose {best.describe()}" + (
            f"\nalso weighed {others}" if others else "")
        self._chosen = best.name()
        return plan, reason

    def _guard_plan(self, seat: SideSeat) -> PlanSpec | None:
        """Our towns an enemy unit could enter next turn, most VP first: the weakest unit in each
        one we hold stays there, and the weakest free unit that can reach each empty one (the
        nearest of equals) steps in, so the strong go on with the heuristic's plan."""
        from cheren.engine.threats import enemy_reach

        p = seat.position()
        side = seat.side
        s = p.scenario
        reach = enemy_reach(p, side.enemy)
        enemy_can = set().union(*reach.values()) if reach else set()
        hold: set[str] = set()
        fill: list[Move] = []
        names: list[str] = []
        legal = [a for a in seat.legal_actions() if isinstance(a, Move)]
        for town in sorted(s.towns.values(), key=lambda t: (-t.vp, t.name)):
            h = s.town_hex(town.name)
            if p.controller(town.name) is not side:
                continue
            ours = [u for u in p.units_at(h) if p.units[u].side is side and all(f.unit != u for f in fill)]
            if ours:
                if enemy_can & set(s.adjacent.get(h, ())) and not any(u in hold for u in ours):
                    hold.add(min(ours, key=lambda u: (p.strength(u), u)))
                    names.append(town.name)
            elif h in enemy_can:
                movers = [m for m in legal if m.to == h and m.unit not in hold
                          and all(m.unit != f.unit for f in fill)]
                if movers:
                    fill.append(min(movers, key=lambda m: (p.strength(m.unit), len(m.path), m.unit)))
                    names.append(town.name)
        if not names:
            return None
        return PlanSpec(f"garrison the towns the enemy can reach ({', '.join(names)})",
                        first=tuple(fill), hold=frozenset(hold))

    def _cut_opening(self, seat: SideSeat) -> Move | None:
        """A move open now that would leave an enemy unit out of supply at its next check (the
        supply-cut half of the threat map, cheren.engine.threats, read from our side): the one
        cutting off the most enemy steps."""
        from cheren.engine.threats import supply_cuts

        p = seat.position()
        legal = {(a.unit, a.to): a for a in seat.legal_actions() if isinstance(a, Move)}
        cut: dict[Move, int] = {}
        for c in supply_cuts(p, seat.side.enemy, explain=False, every=True):
            move = legal.get((c.by, c.at))
            if move is not None:
                cut[move] = cut.get(move, 0) + p.steps_left(c.unit)
        best = sorted(cut, key=lambda m: (-cut[m], m.unit, m.to))
        return next((m for m in best if seat.game.check(m).ok), None)

    def _play_out(
        self,
        start: Position,
        side: Side,
        planner: HeuristicBot,
        dice_seed: int,
        first: list[tuple[Action, str]] | None = None,
    ) -> tuple[list[tuple[Action, str]], tuple[float, int, int, int]]:
        """Play ``first``, then the planner's movement, then everything to the start of our next
        Movement phase (both sides heuristic), and evaluate that position.  The plan's moves
        come back with the reason for each."""
        # it plays on a copy of its own, sharing with the other plans' play-outs what the engine
        # and the heuristic bots keep (each plan moves from the same position: until they part,
        # the units' reach and the moves' scores are the same)
        game = Game.from_position(start, seed=dice_seed, caches=self._caches, undo=False)
        moves: list[tuple[Action, str]] = []
        for action, why in first or ():
            while game.pending is not None and game.acting is not side:  # the enemy's chit window first
                game.apply(self._bot(dice_seed % 2**31).choose(_BeliefSeat(game, game.acting)).action)
            if game.check(action).ok:
                game.apply(action)
                moves.append((action, why))
        planner.scores = self._scores
        bots = {side: planner, side.enemy: self._bot(dice_seed % 2**31)}
        seats = {s: _BeliefSeat(game, s) for s in Side}
        turn = game.turn
        n = 0
        lines = 0.0  # supply lines as our move leaves them: enemy steps cut off, less ours
        moving = True
        while not game.over and n < PLAYOUT_LIMIT:
            if moving and not (game.phase is Phase.MOVEMENT and game.phasing is side):
                moving = False
                planner.hold = frozenset()  # garrisons are held for the plan's Movement phase only
                lines = _cut_steps(game.position, side.enemy) - _cut_steps(game.position, side)
                self._after_move = game.position.copy()
            if game.phase is Phase.MOVEMENT and game.phasing is side and game.turn > turn and game.pending is None:
                break  # our next Movement phase: the horizon
            acting = game.acting
            choice = bots[acting].choose(seats[acting])
            action = choice.action
            if (acting is side and game.phase is Phase.MOVEMENT and game.phasing is side and game.turn == turn
                    and game.pending is None and action.kind == "move"):
                moves.append((action, choice.reason))
            game.apply(action)
            n += 1
        value, vp, steps, marked = evaluate(game.position, side)
        return moves, (value + 0.3 * lines, vp, steps, marked)

    def _bot(self, seed: int) -> HeuristicBot:
        bot = HeuristicBot(seed)
        bot.scores = self._scores
        return bot

    def _exposure(self, position: Position, side: Side) -> int:
        """The steps of ours the enemy could cut off with one move next turn, from where our
        move leaves them (the threat map's supply cuts)."""
        from cheren.engine.threats import supply_cuts

        cut = {c.unit for c in supply_cuts(position, side, explain=False)}
        return sum(position.steps_left(u) for u in cut)
