"""What-if for one attack: the odds with every reason, and the exact chances of every outcome.

Pure: nothing here changes a position or a game.  The chance is one die (11.5), so the
distribution is exact (:class:`fractions.Fraction`, sixths).  The players' choices during a
combat are stated up front as :class:`Choices` (the defender retreats when it can or takes the
loss; the attacker pushes or not, 11.7 and 11.8); which unit loses each step does not change
the number of steps lost, so it is not a choice here.

    >>> w = what_if(position, proposed("0403", ["ind_5", "ind_9"], air=True))
    >>> print(w.explain())                 # Markdown a teacher can read out
    >>> w.distribution, w.expected_defender_steps
    >>> compare(position, w.attack, without=["ind_9"]).explain()

Steps lost to over-stacking in the hex a stack retreats into (3.1) are not counted; the
what-if says so when every retreat hex would be over the limit.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Protocol

from cheren.engine.position import Position, chit_key
from cheren.engine.registry import Refusal
from cheren.engine.rules.combat_eligibility import air_refusal, air_unit, attack_refusal
from cheren.engine.rules.combat_odds import Odds, Shift, compute_odds, defenders_in
from cheren.engine.rules.combat_resolution import modifiers_from_effects
from cheren.engine.rules.combat_sequence import (
    ATTACKER_LOSS,
    CHOOSE_PUSH,
    CHOOSE_RETREAT,
    DEFENDER_LOSS,
    PUSH_LOSS,
    RETREAT,
    STAY_LOSS,
    Resolution,
    next_step,
)
from cheren.engine.rules.optional_rules import push_allowed
from cheren.engine.rules.retreat import RetreatOptions, retreat_options
from cheren.engine.rules.stacking import stack_value
from cheren.hexes import Hex
from cheren.scenario.compiled import Scenario
from cheren.scenario.memo import ScenarioMemo
from cheren.scenario.models import CombatResult, Side

SIXTH = Fraction(1, 6)


class AttackLike(Protocol):
    """Anything naming an attack: a :class:`ProposedAttack` or the game's ``Attack`` action."""

    @property
    def target(self) -> Hex: ...
    @property
    def attackers(self) -> tuple[str, ...]: ...
    @property
    def air(self) -> bool: ...


@dataclass(frozen=True)
class ProposedAttack:
    target: Hex
    attackers: tuple[str, ...]
    air: bool = False


def proposed(target: Hex | str, attackers: Iterable[str], air: bool = False) -> ProposedAttack:
    """An attack to study; ``target`` may be a hex label like ``"0403"``."""
    h = Hex.from_label(target) if isinstance(target, str) else target
    return ProposedAttack(h, tuple(attackers), air)


@dataclass(frozen=True)
class Choices:
    """The choices the players are assumed to make during the combat."""

    defender_retreats: bool = True  # on an "r", retreat when possible; else stay and lose a step (11.7)
    attacker_pushes: bool = False  # push whenever 11.8 allows it
    max_pushes: int | None = None  # at most this many pushes (None: as long as allowed)
    losses_first: tuple[str, ...] = ()  # defenders that take steps first; the rest in the hex's order (11.6)

    def describe(self) -> str:
        d = "the defender retreats when it can (otherwise it stays and loses a step)" if self.defender_retreats \
            else "the defender always stays and takes the extra loss instead of retreating"
        if not self.attacker_pushes or self.max_pushes == 0:
            a = "the attacker never pushes"
        elif self.max_pushes is None:
            a = "the attacker pushes whenever it may"
        else:
            a = f"the attacker pushes whenever it may, at most {self.max_pushes} time(s)"
        first = f"; losses fall first on {', '.join(self.losses_first)}" if self.losses_first else ""
        return f"{d}; {a}{first}"


@dataclass(frozen=True, order=True)
class Outcome:
    """What one combat did, in steps (11.6) and to the hex."""

    attacker_steps: int
    defender_steps: int
    defender_eliminated: bool
    vacated: bool  # the defenders retreated or were eliminated (an advance is possible, 11.9)
    retreated: bool = False
    pushes: int = 0

    def describe(self) -> str:
        parts = [f"attacker loses {self.attacker_steps}", f"defender loses {self.defender_steps}"]
        if self.defender_eliminated:
            parts.append("defender eliminated")
        elif self.retreated:
            parts.append("defender retreats")
        elif not self.vacated:
            parts.append("defender holds")
        if self.pushes:
            parts.append(f"{self.pushes} push{'es' if self.pushes > 1 else ''}")
        return ", ".join(parts)


@dataclass(frozen=True)
class DieRoll:
    die: int
    result: CombatResult
    outcome: Outcome
    story: str


@dataclass(frozen=True)
class WhatIf:
    """The odds of an attack and the exact distribution of its outcomes under ``choices``."""

    attack: ProposedAttack
    odds: Odds
    choices: Choices
    rolls: tuple[DieRoll, ...]
    distribution: dict[Outcome, Fraction]
    attacker_total_steps: int
    defender_total_steps: int
    can_retreat: bool
    refusal: Refusal | None = None  # why the position's rules would refuse it (not what this phase used up)
    notes: tuple[str, ...] = field(default=())
    # (expected attacker steps, expected defender steps, chance the hex is vacated), worked out
    # once with the distribution they come from when it is shared (see _Dice)
    means: tuple[Fraction, Fraction, Fraction] | None = field(default=None, compare=False, repr=False)

    # -- the odds ------------------------------------------------------------------------------
    @property
    def raw_ratio(self) -> str:
        return self.odds.raw

    @property
    def shifts(self) -> tuple[Shift, ...]:
        return self.odds.shifts

    @property
    def column(self) -> str:
        return self.odds.column_name

    @property
    def results(self) -> tuple[CombatResult, ...]:
        return self.odds.results

    @property
    def legal(self) -> bool:
        return self.refusal is None

    # -- the chances -----------------------------------------------------------------------------
    def probability(self, event: Callable[[Outcome], bool]) -> Fraction:
        return sum((p for o, p in self.distribution.items() if event(o)), Fraction(0))

    def expected(self, value: Callable[[Outcome], int]) -> Fraction:
        return sum((p * value(o) for o, p in self.distribution.items()), Fraction(0))

    @property
    def expected_attacker_steps(self) -> Fraction:
        if self.means is not None:
            return self.means[0]
        return self.expected(lambda o: o.attacker_steps)

    @property
    def expected_defender_steps(self) -> Fraction:
        if self.means is not None:
            return self.means[1]
        return self.expected(lambda o: o.defender_steps)

    @property
    def p_vacated(self) -> Fraction:
        if self.means is not None:
            return self.means[2]
        return self.probability(lambda o: o.vacated)

    @property
    def p_defender_eliminated(self) -> Fraction:
        return self.probability(lambda o: o.defender_eliminated)

    # -- words -----------------------------------------------------------------------------------
    def summary(self) -> str:
        """One line: odds, column and the headline chances."""
        return (
            f"{self.odds.explain()}; vacated {_pct(self.p_vacated)}, expected steps lost: attacker "
            f"{_num(self.expected_attacker_steps)}, defender {_num(self.expected_defender_steps)}"
        )

    def explain(self) -> str:
        """A Markdown account a teacher can read: odds and shifts with rules, the six results,
        and the chances."""
        p = self.odds
        lines = [f"**Attack on {self.attack.target.label}**", ""]
        lines.append(f"- Strength: {p.attack_sp} attacking vs {p.defence_sp} defending (11.0)")
        lines.append(f"- Odds: {p.explain()}")
        lines += [f"- {n}" for n in p.notes]
        if not p.shifts:
            lines.append("- No column shifts (11.1, 11.4)")
        lines.append(f"- Final column: **{p.column_name}** (11.5)")
        if self.refusal is not None:
            lines.append(f"- The rules would refuse this attack now: {self.refusal}")
        lines += [f"- {n}" for n in self.notes]
        lines += ["", f"Assumed: {self.choices.describe()}.", ""]
        lines += ["| die | result | what happens | attacker steps | defender steps |", "|---|---|---|---|---|"]
        for r in self.rolls:
            o = r.outcome
            lines.append(f"| {r.die} | {r.result} | {r.story} | {o.attacker_steps} | {o.defender_steps} |")
        lines += ["", "| outcome | chance |", "|---|---|"]
        for o, pr in sorted(self.distribution.items(), key=lambda kv: (-kv[1], kv[0])):
            lines.append(f"| {o.describe()} | {pr} ({_pct(pr)}) |")
        lines += [
            "",
            f"Expected steps lost: attacker {_num(self.expected_attacker_steps)}, defender "
            f"{_num(self.expected_defender_steps)}.  Hex vacated: {self.p_vacated} ({_pct(self.p_vacated)}); "
            f"defender eliminated: {self.p_defender_eliminated} ({_pct(self.p_defender_eliminated)}).",
        ]
        return "\n".join(lines)

    def _repr_markdown_(self) -> str:
        return self.explain()


def what_if(
    position: Position,
    attack: AttackLike,
    *,
    choices: Choices | None = None,
    extra_shift: int = 0,
    shifts: Iterable[Shift] = (),
    chits: Iterable[str] = (),
) -> WhatIf:
    """The odds and the exact outcome distribution of ``attack`` in ``position``, resolved at
    once.  ``extra_shift`` adds columns (positive: the attacker's favour), e.g. to ask what a
    terrain or support change would do; ``shifts`` adds named shifts; ``chits`` (instances such
    as ``air_strike.1``, or keys) are taken as played on this attack by their owners (5.1), so a
    player sees what a chit in the hand would do.  Never changes anything."""
    choices = choices or Choices()
    target = attack.target
    attackers = tuple(attack.attackers)
    if not attackers:
        raise ValueError("an attack needs at least one attacking unit")
    sides = {position.units[u].side for u in attackers}
    if len(sides) != 1:
        raise ValueError("the attacking units belong to both sides")
    side = sides.pop()
    air = air_unit(position, side) if attack.air else None
    if attack.air and air is None:
        raise ValueError(f"the {side.adjective} side has no air support unit")
    extra = [*shifts]
    if extra_shift:
        extra.append(Shift(extra_shift, "what-if", "a what-if change"))
    effects = []
    for instance in chits:
        chit = position.scenario.chits[chit_key(instance)]
        effects.append({"effect": chit.effect, "side": chit.side.value, "params": dict(chit.params), "chit": instance})
    mods = modifiers_from_effects(position.scenario, effects, side)
    odds = compute_odds(
        position,
        attackers,
        target,
        air,
        extra_shifts=[*extra, *mods["extra_shifts"]],
        support_bonus=mods["support_bonus"],
        support_winner=mods["support_winner"],
    )
    refusal = attack_refusal(position, attackers, target, attack.air)
    if refusal is None and attack.air:
        refusal = air_refusal(position, side)
    defenders = defenders_in(position, target, side)
    options = _retreat_options(position, defenders, target)
    notes = []
    if options.possible and all(_overstacks(position, defenders, h) for h in options.hexes):
        notes.append("every retreat hex would be over-stacked: the steps 3.1 removes there are not counted")
    for uid in attackers:
        where = position.units[uid].hex
        if where is not None and not where.is_adjacent(target):
            name = position.scenario.units[uid].name
            notes.append(f"{name} fires from two hexes away ({where.label}; artillery-range variant)")
    if not push_allowed(position) and choices.attacker_pushes:
        choices = replace(choices, attacker_pushes=False)
        notes.append("no push: a loss taken instead of a retreat is final (losses-stand variant, 11.8 off)")
    att_steps = sum(position.steps_left(u) for u in attackers)
    def_steps = sum(position.steps_left(u) for u in defenders)
    retreat_cache: dict[tuple[str, ...], Hex | None] = {
        tuple(sorted(defenders)): options.hexes[0] if options.hexes else None
    }

    def retreat_hex(units: tuple[str, ...]) -> Hex | None:
        """A hex the stack may retreat to (which one does not change the steps), or None."""
        key = tuple(sorted(units))
        if key not in retreat_cache:
            hexes = retreat_options(position, list(units), target).hexes
            retreat_cache[key] = hexes[0] if hexes else None
        return retreat_cache[key]

    pushing = push_allowed(position)
    start = _Stack.of(position, defenders, choices.losses_first, att_steps)
    # Without a push the dice can ask only whether the whole stack may retreat, at its first
    # choice (11.7): the six play-outs then depend on nothing but the key below, and are shared.
    key = None
    if not (choices.attacker_pushes and pushing) and sorted(start.alive()) == sorted(defenders):
        key = (odds.column, odds.die_shift, tuple((start.steps[u], u in start.artillery) for u in start.order),
               att_steps, bool(options.hexes), choices.defender_retreats, pushing)
        dice = _DICE(position.scenario)
        found = dice.get(key)
    if key is None or found is None:
        rolls = []
        distribution: dict[Outcome, Fraction] = {}
        for die, result in enumerate(odds.results, start=1):
            stack = start.copy()
            # the push looks at the die as the variant's modifiers move it, as the engine does
            cur = Resolution(target, side, attackers, odds.row(die), result, odds.column_name)
            outcome, story = _play_out(cur, stack, retreat_hex, choices, pushing)
            rolls.append(DieRoll(die, result, outcome, story))
            distribution[outcome] = distribution.get(outcome, Fraction(0)) + SIXTH
        found = _Dice(tuple(rolls), distribution)
        if key is not None:
            if len(dice) > 4096:
                dice.clear()
            dice[key] = found
    return WhatIf(
        attack=ProposedAttack(target, attackers, attack.air),
        odds=odds,
        choices=choices,
        rolls=found.rolls,
        distribution=dict(found.distribution),
        attacker_total_steps=att_steps,
        defender_total_steps=def_steps,
        can_retreat=options.possible,
        refusal=refusal,
        notes=tuple(notes),
        means=found.means if key is not None else None,
    )


class _Dice:
    """The six die rolls of one what-if and their distribution, with its means (exact), as
    many attacks with the same column, stack and retreat share them."""

    __slots__ = ("distribution", "means", "rolls")

    def __init__(self, rolls: tuple[DieRoll, ...], distribution: dict[Outcome, Fraction]) -> None:
        self.rolls, self.distribution = rolls, distribution
        self.means = (
            sum((p * o.attacker_steps for o, p in distribution.items()), Fraction(0)),
            sum((p * o.defender_steps for o, p in distribution.items()), Fraction(0)),
            sum((p for o, p in distribution.items() if o.vacated), Fraction(0)),
        )


def _retreat_options(position: Position, defenders: tuple[str, ...], target: Hex) -> RetreatOptions:
    """:func:`retreat_options` of the whole defending stack, kept under both sides' change stamps
    (it reads the units and the map only): the same attack asked with and without the air unit,
    and with fewer units (the tactician's trim), asks it again of an unchanged position."""
    key = (position.stamp(Side.ALLIED), position.stamp(Side.ITALIAN), target, defenders)
    kept = _RETREATS(position.scenario)
    found = kept.get(key)
    if found is None:
        if len(kept) > 4096:
            kept.clear()
        found = kept[key] = retreat_options(position, list(defenders), target)
    return found


def _no_retreats(s: Scenario) -> dict[Hashable, RetreatOptions]:
    return {}


_RETREATS = ScenarioMemo(_no_retreats)


def _no_dice(s: Scenario) -> dict[Hashable, _Dice]:
    return {}


# per scenario: the key holds the column's index in its table
_DICE = ScenarioMemo(_no_dice)


class _Stack:
    """The units of a what-if combat as :func:`next_step` sees them: the defenders' steps per
    unit, lost in the stated order (11.6: artillery only when the stack retreats or no other unit
    is left), and the attackers' steps as a total (which attacking unit loses a step does not
    change the count).  Six play-outs (one per die) start from copies of one stack."""

    def __init__(self, order: list[str], steps: dict[str, int], artillery: frozenset[str], attacker_steps: int,
                 pushing: bool = True) -> None:
        self.order = order
        self.steps = steps
        self.artillery = artillery
        self.attackers_left = attacker_steps
        self.pushing = pushing
        self._alive: tuple[str, ...] | None = None
        self._total = sum(steps.values())

    @classmethod
    def of(cls, position: Position, units: tuple[str, ...], first: tuple[str, ...], attacker_steps: int) -> _Stack:
        order = [u for u in first if u in units] + [u for u in units if u not in first]
        artillery = frozenset(u for u in units if position.scenario.units[u].type.artillery)
        return cls(order, {u: position.steps_left(u) for u in units}, artillery, attacker_steps)

    def copy(self) -> _Stack:
        return _Stack(self.order, dict(self.steps), self.artillery, self.attackers_left, self.pushing)

    def alive(self) -> tuple[str, ...]:
        if self._alive is None:
            self._alive = tuple(u for u in self.order if self.steps[u] > 0)
        return self._alive

    def total(self) -> int:
        return self._total

    def lose(self, n: int, artillery_ok: bool) -> int:
        lost = 0
        for _ in range(n):
            alive = self.alive()
            if not alive:
                break
            others = [u for u in alive if u not in self.artillery]
            unit = (alive if artillery_ok or not others else others)[0]
            self.steps[unit] -= 1
            self._total -= 1
            self._alive = None
            lost += 1
        return lost

    # -- what next_step asks (cheren.engine.rules.combat_sequence.Combatants) ------------------
    def defenders(self) -> tuple[str, ...]:
        return self.alive()

    def defender_steps(self) -> int:
        return self.total()

    def attacker_steps(self) -> int:
        return self.attackers_left

    def push_allowed(self) -> bool:
        return self.pushing

    def may_advance(self) -> bool:
        return False  # the what-if ends with the losses: the advance changes no step (11.9)


def _play_out(
    cur: Resolution,
    stack: _Stack,
    retreat_hex: Callable[[tuple[str, ...]], Hex | None],
    choices: Choices,
    pushing: bool,
) -> tuple[Outcome, str]:
    """One die roll carried through the engine's own order of 11.5-11.8
    (:func:`~cheren.engine.rules.combat_sequence.next_step`), each choice answered by
    ``choices``: the defender retreats when it may and ``choices`` says so, the attacker pushes
    while ``choices`` allows (``pushing``: the rules in use allow a push at all)."""
    start, attacker_start = stack.total(), stack.attackers_left
    stack.pushing = pushing
    able = False  # whether the stack could retreat when it first chose (11.6, 11.7)
    story: list[str] = []
    while (step := next_step(cur, stack)) is not None:
        kind = step.kind
        if kind == CHOOSE_RETREAT:
            to = retreat_hex(stack.alive())
            if cur.pushes == 0:
                able = to is not None
            if choices.defender_retreats and to is not None:
                cur.retreat(to)
            else:
                cur.stay()
        elif kind == DEFENDER_LOSS:
            stack.lose(step.n, artillery_ok=cur.retreat_to is not None)
            story.append(f"defender loses {step.n}")
        elif kind == RETREAT:
            story.append("attacker pushes (loses 1), defender retreats" if cur.pushes else "defender retreats")
        elif kind == STAY_LOSS:
            stack.lose(1, artillery_ok=False)
            if cur.pushes:
                story.append("attacker pushes (loses 1), defender loses 1 more")
            else:
                story.append("defender stays and loses 1" if able else "defender cannot retreat and loses 1")
        elif kind == CHOOSE_PUSH:
            if choices.attacker_pushes and (choices.max_pushes is None or cur.pushes < choices.max_pushes):
                cur.push()
        elif kind == PUSH_LOSS:
            stack.attackers_left -= 1
        elif kind == ATTACKER_LOSS:
            paid = min(step.n, stack.attackers_left)
            stack.attackers_left -= paid
            story.append(f"attacker loses {paid}")
    eliminated = not stack.alive()
    if eliminated:
        story.append("defender eliminated")
    retreated = cur.retreat_to is not None
    outcome = Outcome(attacker_start - stack.attackers_left, start - stack.total(), eliminated,
                      eliminated or retreated, retreated and not eliminated, cur.pushes)
    return outcome, "; ".join(story) or "no effect"


# -- comparisons ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Comparison:
    """The same attack before and after one change."""

    base: WhatIf
    variant: WhatIf
    change: str

    @property
    def column_change(self) -> int:
        return self.variant.odds.column - self.base.odds.column

    def explain(self) -> str:
        b, v = self.base, self.variant
        rows = [
            ("column", b.column, v.column),
            ("odds", b.odds.explain(), v.odds.explain()),
            ("hex vacated", _pct(b.p_vacated), _pct(v.p_vacated)),
            ("defender eliminated", _pct(b.p_defender_eliminated), _pct(v.p_defender_eliminated)),
            ("expected attacker steps lost", _num(b.expected_attacker_steps), _num(v.expected_attacker_steps)),
            ("expected defender steps lost", _num(b.expected_defender_steps), _num(v.expected_defender_steps)),
        ]
        lines = [f"**{self.change}** (attack on {b.attack.target.label})", "", "| | as proposed | with the change |",
                 "|---|---|---|"]
        lines += [f"| {name} | {x} | {y} |" for name, x, y in rows]
        return "\n".join(lines)

    def _repr_markdown_(self) -> str:
        return self.explain()


def compare(
    position: Position,
    attack: AttackLike,
    *,
    without: Iterable[str] = (),
    adding: Iterable[str] = (),
    with_air: bool | None = None,
    extra_shift: int = 0,
    choices: Choices | None = None,
) -> Comparison:
    """``attack`` as proposed against the same attack without some units, with more units,
    with or without the air unit, or shifted by ``extra_shift`` columns (a terrain or support
    change: positive helps the attacker)."""
    base_attack = ProposedAttack(attack.target, tuple(attack.attackers), attack.air)
    drop, add = set(without), [u for u in adding if u not in base_attack.attackers]
    units = tuple(u for u in base_attack.attackers if u not in drop) + tuple(add)
    variant = replace(base_attack, attackers=units, air=base_attack.air if with_air is None else with_air)
    words = []
    names = position.scenario.units
    if drop:
        words.append("without " + ", ".join(names[u].name for u in sorted(drop)))
    if add:
        words.append("adding " + ", ".join(names[u].name for u in add))
    if with_air is not None and with_air != base_attack.air:
        words.append("with the air unit" if with_air else "without the air unit")
    if extra_shift:
        words.append(f"{abs(extra_shift)} column{'s' if abs(extra_shift) != 1 else ''} "
                     f"{'right' if extra_shift > 0 else 'left'}")
    return Comparison(
        what_if(position, base_attack, choices=choices),
        what_if(position, variant, choices=choices, extra_shift=extra_shift),
        "; ".join(words) or "no change",
    )


def _overstacks(position: Position, units: tuple[str, ...], h: Hex) -> bool:
    s = position.scenario
    if not units:
        return False
    side = position.units[units[0]].side
    moving = sum(s.units[u].stack for u in units)
    return stack_value(position, h, side) + moving > s.hexes[h].stack_limit


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.0f}%"


def _num(x: Fraction) -> str:
    return f"{float(x):.2f}"
