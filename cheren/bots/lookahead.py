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
from dataclasses import dataclass

from cheren.actions import Action
from cheren.bots.base import Choice
from cheren.bots.heuristic import HeuristicBot
from cheren.game import Game
from cheren.scenario.models import Phase, Side
from cheren.state import Position, chit_instances
from cheren.views import SideSeat, chit_view

DEFAULT_BUDGET = 8
TIE_BREAKS = (0.0, 0.4, 0.8, 1.5, 2.5, 4.0)  # how far each candidate plan strays from the heuristic's
PLAYOUT_LIMIT = 3000  # actions: a play-out that runs away is cut short


@dataclass(frozen=True)
class Candidate:
    """One plan weighed: its number, the moves it makes, and what the play-out gave."""

    index: int
    moves: int
    value: float
    vp: int
    steps: int  # our steps left minus the enemy's, at the horizon
    marked: int  # our units carrying a Low/No supply marker at the horizon

    def describe(self) -> str:
        return (f"plan {self.index + 1}: {self.moves} moves, value {self.value:.1f} "
                f"(Allied VP {self.vp}, steps {self.steps:+d}, {self.marked} of ours out of supply)")


def determinise(seat: SideSeat, rng: random.Random) -> Position:
    """The seat's view with the hidden chits dealt afresh: the enemy's hand (as many as it holds)
    drawn from the enemy chits this side has not seen, the rest in the cup; fresh dice."""
    from cheren.dice import Dice

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
    from cheren.rules.supply import check_side

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
        self._plan: list[Action] = []
        self._plan_for: tuple[int, Side] | None = None
        self._reason = ""
        self._after_move: Position | None = None
        self.last_candidates: list[Candidate] = []

    def choose(self, seat: SideSeat) -> Choice:
        game = seat.game
        if game.pending is None and game.phase is Phase.MOVEMENT and game.phasing is seat.side:
            key = (game.turn, seat.side)
            if self._plan_for != key:
                self._plan_for = key
                self._plan, self._reason = self._search(seat)
            while self._plan:
                action = self._plan.pop(0)
                if game.check(action).ok:
                    return Choice(action, self._reason)
            self._plan = []
        return self.base.choose(seat)

    # -- the search --------------------------------------------------------------------------
    def _search(self, seat: SideSeat) -> tuple[list[Action], str]:
        start = determinise(seat, self.rng)
        dice_seed = self.rng.randrange(2**63)  # the same dice for every plan: they differ by the plan only
        openings = self._cut_openings(seat)
        candidates: list[tuple[Candidate, list[Action]]] = []
        left: dict[int, Position] = {}
        for k in range(self.budget):
            planner = HeuristicBot(self.rng.randrange(2**31), tie_break=TIE_BREAKS[k % len(TIE_BREAKS)])
            # the first plans after the heuristic's own open with a move that cuts an enemy supply line
            first = [openings[k - 1]] if 1 <= k <= len(openings) else []
            self._after_move = start
            moves, outcome = self._play_out(start, seat.side, planner, dice_seed, first)
            left[k] = self._after_move
            value, vp, steps, marked = outcome
            candidates.append((Candidate(k, len(moves), value, vp, steps, marked), moves))
        # the two best: does our move leave a supply line the enemy can cut next turn? (12.0, 15.0)
        candidates.sort(key=lambda c: (-c[0].value, c[0].index))
        for i, (c, moves) in enumerate(candidates[:2]):
            exposed = self._exposure(left[c.index], seat.side)
            if exposed:
                candidates[i] = (Candidate(c.index, c.moves, c.value - 0.3 * exposed, c.vp, c.steps, c.marked), moves)
            else:
                break  # the best plan leaves nothing to cut: no need to look at the next one
        best, plan = max(candidates, key=lambda c: (c[0].value, -c[0].index))
        candidates.sort(key=lambda c: c[0].index)
        self.last_candidates = [c for c, _ in candidates]
        others = "; ".join(c.describe() for c, _ in candidates if c is not best)
        reason = f"look-ahead over {self.budget} movement plans: chose {best.describe()}" + (
            f"; weighed {others}" if others else "")
        return plan, reason

    def _cut_openings(self, seat: SideSeat) -> list[Action]:
        """Moves open now that would leave an enemy unit out of supply at its next check: the
        supply-cut half of the threat map (cheren.analysis.threats), read from our side."""
        from cheren.actions import Move
        from cheren.analysis.threats import supply_cuts

        game = seat.game
        legal = {(a.unit, a.to): a for a in seat.legal_actions() if isinstance(a, Move)}
        out: list[Action] = []
        for cut in supply_cuts(seat.position(), seat.side.enemy):
            move = legal.get((cut.by, cut.at))
            if move is not None and move not in out and game.check(move).ok:
                out.append(move)
        return out[: max(self.budget - 1, 0)]

    def _play_out(
        self, start: Position, side: Side, planner: HeuristicBot, dice_seed: int, first: list[Action] | None = None
    ) -> tuple[list[Action], tuple[float, int, int, int]]:
        """Play ``first``, then the planner's movement, then everything to the start of our next
        Movement phase (both sides heuristic), and evaluate that position."""
        game = Game.from_position(start, seed=dice_seed)  # it plays on a copy of its own
        for action in first or ():
            while game.pending is not None and game.acting is not side:  # the enemy's chit window first
                game.apply(HeuristicBot(dice_seed % 2**31).choose(SideSeat(game, game.acting)).action)
            if game.check(action).ok:
                game.apply(action)
        bots = {side: planner, side.enemy: HeuristicBot(dice_seed % 2**31)}
        seats = {s: SideSeat(game, s) for s in Side}
        moves: list[Action] = [a for a in (first or ()) if a in [e.action for e in game.log]]
        turn = game.turn
        n = 0
        lines = 0.0  # supply lines as our move leaves them: enemy steps cut off, less ours
        moving = True
        while not game.over and n < PLAYOUT_LIMIT:
            if moving and not (game.phase is Phase.MOVEMENT and game.phasing is side):
                moving = False
                lines = _cut_steps(game.position, side.enemy) - _cut_steps(game.position, side)
                self._after_move = game.position.copy()
            if game.phase is Phase.MOVEMENT and game.phasing is side and game.turn > turn and game.pending is None:
                break  # our next Movement phase: the horizon
            acting = game.acting
            action = bots[acting].choose(seats[acting]).action
            if (acting is side and game.phase is Phase.MOVEMENT and game.phasing is side and game.turn == turn
                    and game.pending is None and action.kind == "move"):
                moves.append(action)
            game.apply(action)
            n += 1
        value, vp, steps, marked = evaluate(game.position, side)
        return moves, (value + 0.3 * lines, vp, steps, marked)

    def _exposure(self, position: Position, side: Side) -> int:
        """The steps of ours the enemy could cut off with one move next turn, from where our
        move leaves them (the threat map's supply cuts)."""
        from cheren.analysis.threats import supply_cuts

        cut = {c.unit for c in supply_cuts(position, side)}
        return sum(position.steps_left(u) for u in cut)
