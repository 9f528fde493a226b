"""The combat what-if (cheren.engine.combat_whatif): odds with reasons, exact outcome distributions,
comparisons, and a check that the exact distribution is what the engine actually does."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cheren.engine.actions import Action, Attack, NoAdvance, Push, RemoveStep, Retreat, StayAndLose
from cheren.engine.combat_whatif import Choices, Outcome, compare, proposed, what_if
from cheren.engine.dice import Dice
from cheren.engine.game import Game
from cheren.engine.position import Position, Status
from cheren.hexes import Hex
from cheren.scenario import Phase, Scenario
from tests.boards import H, allied, italian, position
from tests.scenario_factory import counter
from tests.test_rules_combat import COVER, air, brigade, make, two_step

ROUGH = ["........", "........", "...r....", "........", "........"]


@pytest.fixture
def teacher(tmp_path: Path) -> Position:
    """17 vs 5 in rough terrain, the Allies ahead on support 5 vs 3 (the brief's example)."""
    s = make(tmp_path, [allied("inf", sp=12), allied("guns", sp=5, type="field_gun"), air(),
                        two_step("i", sp=2), two_step("it_guns", sp=3, type="field_gun")], ROUGH)
    p = position(s, {"inf": "0303", "guns": "0304", "i": "0403", "it_guns": "0403"}, phase=Phase.COMBAT, turn=3)
    p.units["air"].status = Status.OFF_MAP
    return p


def test_11_0_the_whatif_gives_the_ratio_each_shift_with_its_rule_and_the_column(teacher: Position) -> None:
    w = what_if(teacher, proposed("0403", ["inf", "guns"]))
    assert w.raw_ratio == "3-1" and w.column == "3-1" and w.legal
    assert [(x.columns, x.rule) for x in w.shifts] == [(-1, "11.1"), (1, "11.4")]
    assert w.odds.explain() == (
        "17 vs 5 = 3.4 -> 3-1; rough terrain in 0403: 1 column left (11.1); "
        "the Allies win the support comparison 5 vs 3: 1 column right (11.4) -> 3-1"
    )
    assert [str(r) for r in w.results] == ["1/0", "1/0r", "1/1r", "1/1r", "0/1r", "0/2r"]
    text = w.explain()
    for needle in ("**Attack on 0403**", "(11.1)", "(11.4)", "Final column: **3-1**", "| 6 | 0/2r |"):
        assert needle in text


def test_11_5_the_distribution_is_exact_in_sixths(teacher: Position) -> None:
    w = what_if(teacher, proposed("0403", ["inf", "guns"]))
    assert sum(w.distribution.values()) == 1
    assert all(isinstance(p, Fraction) and (p * 6).denominator == 1 for p in w.distribution.values())
    # retreating whenever it can: die 1 holds, dice 2-6 retreat
    assert w.expected_attacker_steps == Fraction(4, 6)
    assert w.expected_defender_steps == Fraction(5, 6)
    assert w.p_vacated == Fraction(5, 6) and w.p_defender_eliminated == 0
    assert w.distribution[Outcome(1, 1, False, True, True)] == Fraction(2, 6)


def test_11_7_11_8_stated_choices_change_the_distribution(teacher: Position) -> None:
    attack = proposed("0403", ["inf", "guns"])
    stays = what_if(teacher, attack, choices=Choices(defender_retreats=False))
    assert stays.p_vacated == 0
    assert stays.expected_defender_steps == Fraction(0 + 1 + 2 + 2 + 2 + 3, 6)
    pushes = what_if(teacher, attack, choices=Choices(defender_retreats=False, attacker_pushes=True))
    # die 5: 0/1r, stays (2 lost), push (attacker 1, defender 3rd), push (attacker 2, defender gone)
    assert pushes.rolls[4].outcome == Outcome(2, 4, True, True, False, 2)
    assert pushes.rolls[5].outcome == Outcome(1, 4, True, True, False, 1)
    once = what_if(teacher, attack, choices=Choices(defender_retreats=False, attacker_pushes=True, max_pushes=1))
    assert once.rolls[4].outcome == Outcome(1, 3, False, False, False, 1)
    # a defender that retreats after the push gives the hex up for one attacker step
    retreat_after = what_if(teacher, attack, choices=Choices(attacker_pushes=True))
    assert retreat_after.rolls[4].outcome == Outcome(0, 1, False, True, True, 0)


def test_11_7_8_5_a_stack_that_cannot_retreat_takes_the_loss(tmp_path: Path) -> None:
    marina = counter("marina", "italian", letter="Z", faces=((2, 0), (1, 0)), type="naval", immobile=True)
    s = make(tmp_path, [allied("a", sp=12), marina])
    p = position(s, {"a": "0303", "marina": "0403"}, phase=Phase.COMBAT)
    w = what_if(p, proposed("0403", ["a"]))
    assert not w.can_retreat and w.p_vacated == w.p_defender_eliminated
    assert "cannot retreat" in w.rolls[1].story


def test_the_whatif_never_changes_the_position(teacher: Position) -> None:
    before = teacher.copy()
    what_if(teacher, proposed("0403", ["inf", "guns"], air=True)).explain()
    compare(teacher, proposed("0403", ["inf", "guns"]), without=["guns"], with_air=True, extra_shift=2)
    assert teacher.units == before.units and teacher.dice == before.dice


def test_11_2_11_3_the_whatif_says_when_the_rules_would_refuse(teacher: Position) -> None:
    w = what_if(teacher, proposed("0403", ["guns"], air=True))
    assert w.refusal is not None and w.refusal.rules == ("11.2", "11.3")
    assert "would refuse" in w.explain()
    teacher.turn = 2
    early = what_if(teacher, proposed("0403", ["inf"], air=True))
    assert early.refusal is not None and early.refusal.rules == ("11.3",)


def test_the_whatif_takes_the_games_attack_action(teacher: Position) -> None:
    w = what_if(teacher, Attack(H("0403"), ("inf", "guns"), True))
    assert w.odds.attack_sp == 18 and w.odds.air == "air"


def test_compare_with_and_without_a_unit_the_air_unit_or_a_shift(teacher: Position) -> None:
    attack = proposed("0403", ["inf", "guns"])
    without = compare(teacher, attack, without=["guns"])
    # 12 vs 5 = 2-1, rough left, the Italians now win support 3 vs 0: 1-2
    assert (without.base.column, without.variant.column, without.column_change) == ("3-1", "1-2", -3)
    assert "without Guns" in without.explain()
    with_air = compare(teacher, attack, with_air=True)
    assert with_air.variant.odds.attack_sp == 18 and with_air.change == "with the air unit"
    shifted = compare(teacher, attack, extra_shift=-1)
    assert shifted.variant.column == "2-1" and "1 column left" in shifted.explain()
    assert shifted.variant.p_vacated < shifted.base.p_vacated


def test_losses_are_capped_at_the_steps_there_are(tmp_path: Path) -> None:
    s = make(tmp_path, [allied("a", sp=1), italian("i", sp=1)])
    p = position(s, {"a": "0303", "i": "0403"}, phase=Phase.COMBAT)
    w = what_if(p, proposed("0403", ["a"]))  # 1-1: the attacker never loses more than its 2 steps
    assert max(o.attacker_steps for o in w.distribution) <= 2 == w.attacker_total_steps
    assert w.rolls[4].outcome == Outcome(1, 1, True, True, False, 0)  # die 5: 1/1r eliminates the 1-step unit


def test_11_8_who_loses_steps_first_decides_whether_the_stack_can_retreat_after_a_push(tmp_path: Path) -> None:
    marina = counter("marina", "italian", letter="Z", faces=((2, 0), (1, 0)), type="naval", immobile=True)
    s = make(tmp_path, [allied("a", sp=8), marina, two_step("i", sp=2)])
    p = position(s, {"a": "0303", "marina": "0403", "i": "0403"}, phase=Phase.COMBAT)
    attack = proposed("0403", ["a"])
    pushing = Choices(attacker_pushes=True)
    # 8 vs 4 = 2-1, die 6: 0/1r.  The Marina cannot retreat, so the stack stays and loses 2 steps.
    keep_marina = what_if(p, attack, choices=replace(pushing, losses_first=("i",)))
    lose_marina = what_if(p, attack, choices=replace(pushing, losses_first=("marina",)))
    assert keep_marina.rolls[5].outcome == Outcome(2, 4, True, True, False, 2)
    assert lose_marina.rolls[5].outcome == Outcome(1, 2, False, True, True, 1)  # free to retreat after the push
    assert "losses fall first on marina" in lose_marina.explain()


# -- the exact distribution is what the engine does ---------------------------------------------------
@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Scenario:
    counters = [allied("a1", sp=3), allied("a2", sp=5), *brigade("ind"), allied("guns", sp=3, type="field_gun"),
                allied("c1", stack=3), allied("c2", stack=3), allied("c3", stack=3),
                two_step("i1", sp=2), italian("i2", sp=3), two_step("it_guns", sp=2, type="field_gun"),
                counter("marina", "italian", letter="Z", faces=((2, 0), (1, 0)), type="naval", immobile=True)]
    return make(tmp_path_factory.mktemp("lab"), counters, ROUGH)


ATTACKER_HEXES = {"a1": "0303", "a2": "0304", "ind": "0402", "guns": "0303"}


def lab_position(s: Scenario, attackers: list[str], defenders: list[str], blocked: bool, wounded: bool) -> Position:
    places: dict[str, str | tuple[str, int]] = {u: ATTACKER_HEXES[u] for u in attackers}
    if wounded and "ind" in places:
        places["ind"] = ("0402", 1)
    places |= {u: "0403" for u in defenders}
    if blocked:  # hard ZoCs with no friend around 0403: no retreat at all
        places |= {k: v for k, v in COVER.items() if k != "x"}
    return position(s, places, phase=Phase.COMBAT)


def resolve(s: Scenario, p: Position, attackers: tuple[str, ...], seed: int, choices: Choices) -> Outcome:
    """Resolve the attack in a real game, answering every decision as ``choices`` says."""
    start = p.copy()
    start.dice = Dice(seed)
    g = Game(s, seed, start)
    steps = {u: g.position.steps_left(u) for u in g.position.units if g.position.units[u].status is Status.MAP}
    defenders = [u for u in steps if g.position.units[u].side is not g.phasing]
    g.apply(Attack(H("0403"), attackers))
    pushes = 0
    retreated = False
    while g.pending is not None:
        options = g.legal_actions()
        kind = g.pending.kind
        action: Action
        if kind == "combat_retreat":
            retreats = [a for a in options if isinstance(a, Retreat)]
            action = retreats[0] if choices.defender_retreats and retreats else StayAndLose()
            retreated = isinstance(action, Retreat)
        elif kind == "combat_push":
            allowed = choices.max_pushes is None or pushes < choices.max_pushes
            action = Push(choices.attacker_pushes and allowed)
            pushes += isinstance(action, Push) and action.yes
        elif kind == "combat_advance":
            action = NoAdvance()
        else:
            action = next(a for a in options if isinstance(a, RemoveStep))
        g.apply(action)

    def lost(units: list[str] | tuple[str, ...]) -> int:
        return sum(steps[u] - (g.position.steps_left(u) if g.position.units[u].status is Status.MAP else 0)
                   for u in units)

    gone = all(g.position.units[u].status is Status.ELIMINATED for u in defenders)
    held = any(g.position.units[u].hex == H("0403") for u in defenders)
    return Outcome(lost(attackers), lost(defenders), gone, not held, retreated and not gone, pushes)


@settings(max_examples=25, deadline=None)
@given(
    attackers=st.lists(st.sampled_from(["a1", "a2", "ind", "guns"]), min_size=1, max_size=4, unique=True).filter(
        lambda xs: xs != ["guns"]
    ),
    defenders=st.lists(st.sampled_from(["i1", "i2", "it_guns", "marina"]), min_size=1, max_size=3, unique=True),
    blocked=st.booleans(),
    wounded=st.booleans(),
    retreats=st.booleans(),
    pushes=st.booleans(),
    base=st.integers(min_value=0, max_value=1_000_000),
)
def test_11_5_the_exact_distribution_matches_seeded_resolutions(
    lab: Scenario, attackers: list[str], defenders: list[str], blocked: bool, wounded: bool,
    retreats: bool, pushes: bool, base: int,
) -> None:
    p = lab_position(lab, attackers, defenders, blocked, wounded)
    choices = Choices(defender_retreats=retreats, attacker_pushes=pushes)
    w = what_if(p, proposed(Hex.from_label("0403"), attackers), choices=choices)
    assert w.legal and not w.notes
    n = 150
    seen: Counter[Outcome] = Counter()
    for seed in range(base, base + n):
        die = Dice(seed).roll()
        outcome = resolve(lab, p, tuple(attackers), seed, choices)
        assert outcome == w.rolls[die - 1].outcome, (die, w.rolls[die - 1].story)
        seen[outcome] += 1
    for outcome in set(seen) | set(w.distribution):
        prob = float(w.distribution.get(outcome, Fraction(0)))
        freq = seen[outcome] / n
        bound = 4.5 * math.sqrt(prob * (1 - prob) / n) + 1 / n
        assert abs(freq - prob) <= bound, (outcome, freq, prob)


def test_5_1_the_what_if_shows_what_a_held_chit_would_do(tmp_path: Path) -> None:
    from cheren.engine.actions import Commit, EndPhase, PlayChit
    from cheren.engine.game import Game
    from cheren.engine.rules.combat_resolution import odds_for
    from cheren.scenario import Phase, Side
    from tests.boards import allied, board, italian, position
    from tests.scenario_factory import DEFAULT_CHITS

    s = board(tmp_path, ["........", "........", "........", "........", "........"],
              [allied("a", sp=8), italian("i", sp=4)], chits=list(DEFAULT_CHITS))
    p = position(s, {"a": "0303", "i": "0403"}, phase=Phase.COMBAT)
    plain = what_if(p, proposed("0403", ["a"]))
    with_chit = what_if(p, proposed("0403", ["a"]), chits=["air_strike.1"])
    assert (plain.column, with_chit.column) == ("2-1", "3-1")
    assert any(sh.rule == "5.1" and "air strike" in sh.reason.lower() for sh in with_chit.shifts)
    assert with_chit.expected_defender_steps > plain.expected_defender_steps
    # the same odds the game rolls on once the chit is really played on the attack
    p.chits.hands[Side.ALLIED] = ["air_strike.1"]
    p.chits.cup = [c for c in p.chits.cup if c != "air_strike.1"]
    g = Game(s, 1, p)
    g.apply(Commit("a", H("0403")))
    g.apply(PlayChit("air_strike.1", "", "0403"))
    assert odds_for(g, H("0403"), ("a",), None).column_name == with_chit.column
    assert EndPhase() not in g.legal_actions()  # the assembled attack must be resolved or withdrawn


def test_what_ifs_with_the_same_column_stack_and_retreat_share_their_dice_and_stay_exact(lab: Scenario) -> None:
    """The six die rolls are worked out once per column, defending stack, attacking steps and
    whether the stack may retreat (what they depend on without a push), and shared: every
    what-if reads as one worked out afresh, and a stack that cannot retreat is never given the
    rolls of one that can."""
    from cheren.engine import combat_whatif

    attackers = ["a1", "a2"]
    for choices in (Choices(), Choices(defender_retreats=False), Choices(attacker_pushes=True)):
        for blocked in (False, True, False):
            p = lab_position(lab, attackers, ["i1", "i2"], blocked, False)
            shared = what_if(p, proposed("0403", attackers), choices=choices)
            combat_whatif._DICE.clear()
            combat_whatif._RETREATS.clear()
            fresh = what_if(p, proposed("0403", attackers), choices=choices)
            assert shared == fresh and shared.rolls == fresh.rolls and shared.distribution == fresh.distribution
            means = (fresh.expected(lambda o: o.attacker_steps), fresh.expected(lambda o: o.defender_steps),
                     fresh.probability(lambda o: o.vacated))
            assert (shared.expected_attacker_steps, shared.expected_defender_steps, shared.p_vacated) == means
            assert shared.can_retreat is not blocked
    open_, closed = (what_if(lab_position(lab, attackers, ["i1", "i2"], b, False), proposed("0403", attackers))
                     for b in (False, True))
    assert open_.odds.column == closed.odds.column and open_.rolls != closed.rolls
    # the stack's retreat is kept under the units' change stamps: a unit moved is a new question
    p = lab_position(lab, attackers, ["i1", "i2"], False, False)
    assert what_if(p, proposed("0403", attackers)).can_retreat
    for uid, where in COVER.items():
        if uid != "x":
            p.place(uid, where)
    assert not what_if(p, proposed("0403", attackers)).can_retreat
