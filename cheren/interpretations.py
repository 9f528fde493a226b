"""Where the rules are silent or ambiguous: the reading the engine takes, and why.

Each entry names the rule, the question, the reading and the reason, and the tests that pin
the reading down.  The notebooks show this list; a teacher can point at it when a player asks
"but does that really work like this?"."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Interpretation:
    rule: str
    question: str
    reading: str
    why: str
    tests: tuple[str, ...] = ()


INTERPRETATIONS: tuple[Interpretation, ...] = (
    Interpretation(
        "4.0",
        "Is a ZoC hard when two separate stacks, each of stacking value 2 or less, are next to a hex?",
        "No. Hardness is judged stack by stack; a hex next to two soft stacks is in a soft ZoC. "
        "Only units that project a ZoC count towards a stack's total.",
        "4.0 defines hard and soft ZoC by the unit or stack that projects it; units with No supply "
        "project none, so they cannot make another unit's ZoC hard.",
        ("test_4_0_two_soft_stacks_do_not_make_a_hard_zoc", "test_4_0_no_supply_units_do_not_count_for_hardness"),
    ),
    Interpretation(
        "9.0",
        "May a unit move, stop, and move again later in the same phase?",
        "No. Each unit moves once per phase, along a path of any length it can pay for.",
        "The usual hex-and-counter convention; the rules describe one move per unit.",
        ("test_9_0_a_unit_moves_once_per_phase",),
    ),
    Interpretation(
        "9.0",
        "What does following a road 'from track onto road' mean?",
        "Crossing a track hexside into a hex that a road passes through pays the road cost.",
        "9.0 allows road cost when a unit comes from a track onto a road; the hex entered is the road hex.",
        ("test_9_0_track_onto_road_pays_road_cost",),
    ),
    Interpretation(
        "9.0",
        "Does the +1 for entering an enemy ZoC apply when moving along a road?",
        "Yes. The road replaces terrain and river costs only; the ZoC cost of 4.0 is not terrain.",
        "9.0 says road movement skips 'other terrain in the hex, including rivers'; ZoC is a rule of 4.0.",
        ("test_4_0_zoc_costs_one_extra_even_on_a_road",),
    ),
    Interpretation(
        "9.0",
        "May a unit enter a hex holding enemy units?",
        "No.",
        "The rules never let opposing units share a hex; 11.7 forbids retreating onto enemy units.",
        ("test_9_0_never_enter_an_enemy_hex",),
    ),
    Interpretation(
        "10.0",
        "How is the reaction limit of stacking value 3 counted?",
        "By the stacking values of the units moved in the phase, added up as they move.",
        "10.0 limits the total stacking value moved, not the number of units or stacks.",
        ("test_10_0_reaction_limit_counts_stacking_value",),
    ),
    Interpretation(
        "11.0",
        "Does 'a movement value of 6' mean 6 or more?",
        "Exactly 6 on the face the unit shows: cavalry with 8 MP may not attack mountain hexes.",
        "The rule names a value, and the units it is meant for (mountain troops, commandos, the Alpini) "
        "are the 6-MP units; faster units are motorized or cavalry.",
        (),
    ),
    Interpretation(
        "11.7",
        "May the units of a retreating stack go to different hexes?",
        "No. The stack retreats together into one hex, chosen among the best-priority hexes; if a unit "
        "of the stack may not enter mountains, mountains are ruled out for all.",
        "11.7 speaks of all defending units retreating one hex; one destination keeps the priority "
        "order well defined.",
        ("test_11_7_retreat_priority_prefers_hexes_outside_zoc",),
    ),
    Interpretation(
        "8.1",
        "If the Italians in an allied arrival town cannot retreat and survive, where do the allied "
        "reinforcements go?",
        "They stay in the pool and try again in the next allied Reinforcement phase.",
        "8.1 assumes the town is emptied; units never share a hex with the enemy.",
        ("test_8_1_italians_who_cannot_retreat_keep_the_town",),
    ),
    Interpretation(
        "8.4",
        "When is the K7-F8 choice made?",
        "In the allied Reinforcement phase of turn 7: arrive at Kassala now, or postpone both units to "
        "Af Abed on turn 8.",
        "8.4 makes turn 7 the default and turn 8 the option, and both units must arrive together.",
        ("test_8_4_postponed_units_arrive_at_af_abed_on_turn_8", "test_8_4_taking_kassala_on_turn_7"),
    ),
    Interpretation(
        "6.0",
        "Is the garrison release checked at the end of Italian phases as well as allied ones?",
        "Yes, at the end of every phase of either player turn, after the phase's moves.",
        "6.0 says 'at the end of any phase'; an allied unit can be inside the area after an Italian "
        "phase too (it reacted there, or the Italians retreated away from it).",
        ("test_6_0_release_when_allied_unit_ends_phase_in_area",),
    ),
    Interpretation(
        "3.1",
        "Which steps go when a stack is over the limit?",
        "The owner picks, one step at a time, from any unit of the stack, until the stack fits.",
        "3.1 says to eliminate steps until the limit is met and gives the choice to no one else.",
        ("test_3_1_overstacked_owner_removes_steps_until_legal",),
    ),
    Interpretation(
        "7.0",
        "When a decision has a single legal answer (one unit to lose a step, one retreat hex), does "
        "the player still have to make it?",
        "No. The engine takes it at once and says so in the log.",
        "It saves clicks without hiding anything: the log records the forced choice.",
        ("test_single_choice_decisions_are_taken_automatically",),
    ),
)


def as_markdown() -> str:
    lines = ["| rule | question | reading | why |", "|---|---|---|---|"]
    for i in INTERPRETATIONS:
        lines.append(f"| {i.rule} | {i.question} | {i.reading} | {i.why} |")
    return "\n".join(lines)
