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
        "5.1",
        "When may the player who is not acting play a chit whose window is the enemy's phase?",
        "At the start of that phase (Roadblock, Demolition), and, for chits aimed at an attack "
        "(Ambush, Regia Aeronautica), when the attacker resolves that attack, before the die; the "
        "phasing player's Supply convoy is offered before the supply check runs.",
        "The chit chart is lost; these are the moments at which the chit can still change what it is "
        "meant to change, and each is a single window the player may pass.",
        ("test_roadblock_window_opens_for_the_italians_in_the_allied_movement_phase",
         "test_5_1_the_defender_may_play_ambush_before_the_die_is_rolled",
         "test_supply_convoy_is_offered_before_the_check_and_keeps_a_stack_supplied"),
    ),
    Interpretation(
        "2.1",
        "How does a town change hands? (Rule 2.1 is lost.)",
        "A town passes to a side as soon as one of its units enters it, even passing through on a move, "
        "a retreat or an advance; empty towns also change by supply (12.7).",
        "The designer's note under 6.0 has allied units 'pass through and control' Om Ager during "
        "exploitation, which only works if entering a town takes it.",
        ("test_2_1_passing_through_a_town_takes_control",),
    ),
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
        "What does following a road 'from track onto road' mean, and what does a unit pay to enter Cheru "
        "over the track from Biscia?",
        "Crossing a track hexside into a hex that a road passes through pays the road cost. On the "
        "reconstructed map the Kassala road ends at Cheru and the Biscia track begins there, so a unit "
        "entering Cheru along either pays the road cost; one coming across country pays rough, the "
        "costlier of its two terrains.",
        "9.0 names two ways to pay the road cost only: following a road from hex to hex, or coming from a "
        "track onto a road; the second would add nothing if the step onto the road paid the terrain. The "
        "Cheru example sets entering along the road against entering across country and says nothing of "
        "tracks, so it does not contradict the sentence. A rules audit doubted this reading; it was kept "
        "for that reason.",
        ("test_9_0_track_onto_road_pays_road_cost",
         "test_9_0_cheru_entered_along_the_road_or_the_track_pays_the_road_and_across_country_rough"),
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
        ("test_11_0_only_units_showing_6_mp_attack_mountain_hexes",),
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
        "reinforcements go, and is the exchange fought again?",
        "They stay in the pool and try again in the next allied Reinforcement phase, and each try is a new "
        "8.1 exchange: a step from each side, then the Italians retreat or, unable to, lose a step instead "
        "(11.7). Repeated tries wear both sides down, as a renewed assault on the town would.",
        "8.1 assumes the town is emptied and units never share a hex with the enemy; nothing in 8.1 makes a "
        "second arrival attempt different from the first, and 11.7 (which 8.1 invokes for the retreat) turns "
        "an impossible retreat into a step loss.",
        ("test_8_1_italians_who_cannot_retreat_keep_the_town",
         "test_8_1_italians_who_cannot_retreat_are_fought_again_next_turn"),
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
    Interpretation(
        "12.0, 12.2",
        "What are the Allies' 'friendly supply sources' when tracing a supply line (rule 1.4 is lost)?",
        "The hexes of the red map edges that are live this turn (plus any allied source the scenario "
        "data lists). A line may end there, and a road or track that runs to a live edge hex carries "
        "allied supply like a road to an Italian source.",
        "12.2 makes the red edges the Allies' lifeline; treating them as sources lets 12.0 and 12.1 apply "
        "to both sides in the same way. The Italian sources are data (supply_sources in map.yaml).",
        ("test_12_2_a_road_to_a_live_red_edge_carries_allied_supply",
         "test_1_4_supply_sources_come_from_the_scenario_data"),
    ),
    Interpretation(
        "12.2",
        "Which units are 'adjacent to the red map edges'?",
        "Allied units in the edge hexes the map data lists for each red edge, on the turns the edge is "
        "live (the Af Abed edge on turns 5-12). They are in supply whatever the enemy does around them.",
        "The edge is a line on the map's border; the hexes along it are the ones next to it.",
        ("test_12_2_allied_units_on_a_red_edge_are_in_supply",
         "test_12_2_the_af_abed_edge_supplies_only_on_turns_5_to_12"),
    ),
    Interpretation(
        "12.0",
        "Is a unit that stands on a road/track leading to a source (or on a source) in supply?",
        "Yes, with a line of no hexes. Its own hex is never part of the line, so nothing about it (an enemy "
        "ZoC, an enemy-controlled town) matters; the road/track from it onward must still be open (12.1).",
        "12.0 leaves the unit's hex out of the line; the Arressa example of 12.1 supplies the 8-5 standing "
        "on the track 'along the track'.",
        ("test_12_1_arressa_example_the_8_5_is_supplied_along_the_track",
         "test_12_0_a_road_or_track_leading_to_a_source_carries_supply"),
    ),
    Interpretation(
        "12.0, 12.1",
        "May the road/track beyond the supply line cross a mountain hex?",
        "Yes. The mountain ban of 12.0 binds the supply line of up to three hexes; the road/track is bound "
        "by 12.1 only (no enemy units, enemy-controlled towns or unheld enemy ZoC).",
        "12.0 states the mountain rule for the supply line; 12.1 lists what the 'supply line and the "
        "road/track' may not enter, and mountains are not among them. Tracks over mountain passes exist.",
        ("test_12_1_mountains_bind_the_line_not_the_road",),
    ),
    Interpretation(
        "12.0, 12.1",
        "Does an enemy ZoC hex that a friendly unit holds still shorten the supply line?",
        "Yes. The friendly unit lets the line enter the hex (12.1), but the hex is still in an enemy ZoC, "
        "so the line may be 2 hexes (1 if it also enters a hill hex). Hill and ZoC need not be the same hex.",
        "12.1 only lifts the ban on entering; the limits of 12.0 count what the line enters. The Arressa "
        "example's one-hex line through hill and enemy ZoC can only arise this way.",
        ("test_12_1_a_friendly_unit_in_enemy_zoc_still_counts_as_zoc_for_the_length",
         "test_12_0_hill_and_zoc_anywhere_on_the_line_make_it_one_hex"),
    ),
    Interpretation(
        "12.1",
        "Which towns are 'enemy controlled towns' for supply?",
        "Every town, village and city of the map (the VP places of 1.2) controlled by the other side. The "
        "native villages of 12.3 are not towns and never block.",
        "12.1 says native villages do not matter; the other places are all controlled and scored as towns.",
        ("test_12_1_enemy_controlled_towns_block_but_native_villages_do_not",),
    ),
    Interpretation(
        "12.4, 12.6",
        "In what order are markers and attrition applied, and when does the first step go?",
        "All units of the phasing side are traced on the same position (after the 12.7 town changes); then "
        "markers change (none -> Low -> No; removed if supplied); then every unit with a No marker loses a "
        "step. So a unit cut off for two checks in a row loses its first step in the second.",
        "Judging everyone on one position makes the order of units irrelevant; 12.6 gives the step loss "
        "to units with a No marker, which a unit gets at its second failed check.",
        ("test_12_6_low_then_no_supply_then_attrition_over_two_turns",),
    ),
    Interpretation(
        "12.7",
        "When and how is town control checked?",
        "In every Supply check phase, the Italian player's and the Allied player's, before the units: each "
        "town with no unit of either side in it traces supply for both sides as if it were a unit (12.2 "
        "edges included). An Italian town with no Italian supply but Allied supply turns Allied; an Allied "
        "town with Italian supply but no Allied supply turns Italian. All towns are judged together.",
        "12.7 names no player; 'Check this before you check units' fixes the order. Judging all towns on "
        "one position keeps the result independent of the order towns are looked at.",
        ("test_12_7_control_is_checked_before_units",
         "test_12_7_an_empty_italian_town_cut_off_from_italian_supply_becomes_allied",
         "test_12_7_occupied_towns_and_towns_both_sides_supply_keep_their_control"),
    ),
    Interpretation(
        "11.3",
        "Does the air unit ever get a supply marker?",
        "No. It is always in supply, on or off the map; only units on the map trace supply.",
        "11.3 says it is always in supply; it is kept off the map between combats.",
        ("test_11_3_the_air_unit_is_always_in_supply",),
    ),
    Interpretation(
        "11.3, 11.4",
        "Does the air unit's strength count in the support comparison?",
        "Yes. The air unit is a support unit: its 1 SP adds to the attack and to the attacker's support total.",
        "11.4 names air among the support units, and 2.3 lists air support among the underlined types.",
        ("test_11_4_the_air_unit_counts_in_the_support_comparison",),
    ),
    Interpretation(
        "11.0, 11.5",
        "How are the ratio, the column shifts and the ends of the table combined?",
        "Round the ratio in the defender's favour (5 vs 8 is 1-2), then down to a column the table has; a "
        "ratio below 1-3 starts on 1-3 and one above 13-1 on 13-1. Add up all shifts as column moves from "
        "there, and only then hold the result to the ends of the table.",
        "11.0 rounds down and 11.5 plays missing ratios on the next lower column; starting from a real column "
        "makes every shift one printed column, as in the examples of 11.1 and 11.4.",
        ("test_11_0_odds_below_one_to_one_round_in_the_defenders_favour",
         "test_11_5_shifts_move_from_the_raw_column_then_clamp", "test_11_5_below_1_to_3_and_above_13_to_1_clamp"),
    ),
    Interpretation(
        "11.1",
        "Does a river shift add to the shift of the defender's terrain, and does the air unit count as "
        "an attacker for it?",
        "It adds: the best terrain in the hex gives its shift, and a river gives its own when every attacking "
        "ground unit attacks across a river hexside. The air unit crosses nothing and is not counted.",
        "The best-terrain clause of 11.1 speaks of the terrains inside the hex; the river lies on a hexside "
        "and has its own condition.",
        ("test_11_1_a_river_shift_adds_to_the_terrain_shift",
         "test_11_1_the_river_shifts_only_when_every_attacker_crosses_it"),
    ),
    Interpretation(
        "11.2, 11.3",
        "May artillery attack with only the air unit beside it?",
        "No. The air unit is flying artillery (11.3), so it is not the non-artillery unit 11.2 asks for.",
        "11.3 calls it flying artillery and says it may not attack by itself.",
        ("test_11_3_the_air_unit_never_takes_losses_and_is_not_the_partner_artillery_needs",),
    ),
    Interpretation(
        "11.0",
        "How are attacks declared and in what order are they resolved?",
        "One at a time, in the order the attacker chooses: units are committed against a hex (several attacks "
        "may be assembled at once), then each attack is rolled. Each unit attacks once per Combat phase, and "
        "the phase cannot end while an attack is assembled but not rolled.",
        "11.7 tells the attacker to mind the order of attacks, so they are resolved one after another.",
        ("test_11_0_each_unit_attacks_once_per_combat_phase",
         "test_11_0_combat_is_optional_but_an_assembled_attack_must_be_resolved_or_withdrawn"),
    ),
    Interpretation(
        "11.6, 11.7",
        "When does the defender choose between retreating and staying, given that artillery may only take "
        "losses when the stack retreats?",
        "On an 'r' result the defender chooses first (retreat and to which hex, or stay), then takes the "
        "result's losses (artillery may take them only if the stack retreats), then retreats or loses the "
        "extra step (artillery last). When the result alone eliminates the stack there is nothing to choose.",
        "11.6 makes the artillery rule depend on retreating, so the decision must come before the losses; "
        "11.5 still has the losses applied before the stack moves.",
        ("test_11_6_artillery_loses_steps_only_when_retreating_or_alone",
         "test_11_5_the_defender_applies_its_result_first_then_the_attacker"),
    ),
    Interpretation(
        "11.6",
        "Does the artillery rule apply to the attacker's losses too?",
        "Yes. An attacker's artillery loses a step only when no other attacking unit can (an attacker never "
        "retreats). The air unit never takes losses.",
        "11.6 states the rule for step losses in general, not for the defender only.",
        ("test_11_6_attacking_artillery_loses_a_step_only_when_no_other_unit_can",),
    ),
    Interpretation(
        "11.8",
        "May the attacker push when the defender could not retreat, may it push more than once, and what "
        "does a push cost?",
        "A push is open whenever the die was 5 or 6 and the defender took the loss instead of retreating, by "
        "choice or because it could not; after each push the defender chooses again, and if it stays again "
        "the attacker may push again. Each push costs one step on top of the table's loss, so it is open "
        "only while the attacking units have more steps left than the table takes from them.",
        "11.8 asks only that the defender did not retreat, and the new retreat result meets the same "
        "conditions. It calls the push's step an extra loss, and 11.5 applies the attacker's result after "
        "the defender's, so an attacker its own result eliminates has no step to push with.",
        ("test_11_8_a_push_is_allowed_when_the_defender_could_not_retreat",
         "test_11_8_the_attacker_may_push_again_while_the_defender_keeps_staying",
         "test_11_8_an_attacker_its_result_eliminates_cannot_push",
         "test_11_8_a_push_costs_a_step_beyond_the_table_loss"),
    ),
    Interpretation(
        "11.9",
        "How does an advance after combat move, and who may advance?",
        "One unit at a time straight into the vacated hex, paying no movement points and ignoring enemy ZoC. "
        "Units that lost steps in that attack go first; artillery, the Massaua garrison (8.5), garrison units "
        "not yet released (6.0) and tanks or motorized units into a mountain (9.1) never advance. Stacking is "
        "enforced at the end of the phase (3.1).",
        "An advance is not a move of 9.0; the rules give it no cost and 4.0's ZoC costs apply to movement.",
        ("test_11_9_advancing_ignores_enemy_zoc", "test_11_9_units_that_lost_steps_advance_first_and_artillery_never",
         "test_8_5_the_massaua_garrison_never_advances"),
    ),
    Interpretation(
        "5.1, 11.4",
        "What do the combat chits do to an attack (the chit chart is lost)?",
        "A column-shift chit moves the column towards its owner's favour; a chit that wins the support "
        "comparison gives its owner the support shift whatever the totals; a support-points chit adds to its "
        "owner's support total only, not to the combat strength.",
        "The reconstructed chits.yaml describes each effect in words; these are the nearest rules they touch.",
        ("test_5_1_combat_chits_shift_the_odds_of_the_attack_they_are_played_on",),
    ),
    Interpretation(
        "10.0",
        "Do units moving in the Enemy reaction phase pay the ZoC cost and stop on entering a hard ZoC?",
        "Yes. A reacting unit moves under the movement rules of 9.0 and 4.0: +1 MP entering an enemy ZoC, "
        "and a stop on entering a hard one.",
        "10.0 only limits which units may move and how much stacking value; it sets no other way of moving, "
        "and 4.0 applies to every move.",
        ("test_10_0_a_reacting_unit_pays_for_enemy_zoc_and_stops_in_a_hard_one",),
    ),
    Interpretation(
        "8.3",
        "What does replacing one step do to a brigade that is on its white-dot replacement counter?",
        "It steps back up the ladder of 11.6: the replacement counter goes and the brigade's own counter "
        "returns, flipped (the 6-5 side of the 8-5).",
        "8.3 replaces one step loss, and 11.6 describes a brigade's four steps as one ladder across its two "
        "counters; undoing one loss climbs one rung.",
        ("test_8_3_a_brigade_on_its_replacement_counter_steps_back_onto_its_own",),
    ),
    Interpretation(
        "8.1",
        "Who takes the allied step when the turn-6 artillery arrives alone at a town the Italians hold?",
        "The artillery itself: it is the only arriving unit, and 11.6 lets artillery take a step when no "
        "other unit can. The Italians lose their step and retreat as usual, and the gun is placed.",
        "8.1 says to do the exchange in game turn 6 too, even with a sole artillery unit; 11.6 decides who "
        "takes the loss.",
        ("test_8_1_artillery_arriving_alone_takes_the_step_itself",
         "test_8_1_arriving_artillery_loses_the_step_only_if_nothing_else_can"),
    ),
    Interpretation(
        "13.0",
        "May a unit that moved in the Movement phase move again in the Exploitation phase?",
        "Yes. The once-a-phase limit of 9.0 starts afresh in each phase; a unit that may exploit (or holds an "
        "Exploit chit) and has no supply marker moves in Exploitation whatever it did in Movement.",
        "13.0 names who may move (the exploiting types, Exploit chits, no Low/No marker) and nothing else; the "
        "designer's notes praise the motorized battalions because they move in both phases.",
        ("test_13_0_a_unit_that_moved_in_movement_may_move_again_in_exploitation",),
    ),
    Interpretation(
        "9.0",
        "May a move end in the hex where it began (into a town and back, say)?",
        "Yes. The path is walked hex by hex like any other: it pays every hex, it stops on re-entering a hard "
        "ZoC or a Roadblock, and a town it passes through is taken (2.1). Such round trips are accepted by "
        "the gate but not listed among the legal actions, which list one move per reachable hex.",
        "9.0 limits a move by its movement points, its terrain and the hexes it may enter, not by where it "
        "ends; the 6.0 note has units pass through a town to take it.",
        ("test_9_0_a_unit_may_step_into_a_town_and_back",
         "test_4_0_re_entering_the_start_hex_in_a_hard_zoc_is_entering_it",
         "test_9_0_4_0_the_gate_and_the_reach_agree_with_the_rules_read_afresh"),
    ),
    Interpretation(
        "8.2",
        "Where does an Italian reinforcement go when it was delayed because no Tigre town was free?",
        "To a Tigre town free of allied units, as soon as one is (the Italian player picks which), even if its "
        "own arrival town has been freed meanwhile.",
        "8.2 delays the reinforcement until it can be placed in a Tigre town: once its town was lost, the "
        "reinforcement is redirected to Tigre, and the delay ends when Tigre can take it.",
        ("test_8_2_a_delayed_italian_reinforcement_goes_to_a_free_tigre_town",
         "test_8_2_allied_held_italian_arrival_town_sends_reinforcements_to_tigre"),
    ),
    Interpretation(
        "9.0",
        "Does a unit that follows a track onto a road across a river pay the river?",
        "No: from a track onto a road it pays the road cost only, and the road cost leaves out rivers. The "
        "other way, from a road onto a track hex, it pays that hex's terrain and the river.",
        "9.0 lets a unit pay the road cost only when it follows a road, or comes from a track onto one, and "
        "says road movement pays no river; entering a track hex pays its terrain, river included.",
        ("test_9_0_from_track_onto_road_across_a_river_pays_the_road_cost_only",
         "test_9_0_track_onto_road_pays_road_cost"),
    ),
    Interpretation(
        "6.0, 2.1",
        "Does a defecting native placed into an empty Italian town take it?",
        "Yes. Being placed in a town takes it like entering it, for a defector (6.0) as for an Italian "
        "reinforcement sent to a Tigre town (8.2).",
        "Every other way onto a hex (a move, a retreat, an advance, an arrival) takes a town (2.1); nothing "
        "makes a placement different.",
        ("test_6_0_a_defector_placed_in_an_empty_italian_town_takes_control_of_it",),
    ),
    Interpretation(
        "11.8, variant die-modifiers",
        "Under the die-modifiers variant, is the 5 or 6 a push needs read on the die as rolled or as the "
        "modifiers moved it? (Seed 004 does not say.)",
        "As moved: the push follows the row of the table the attack was read on, so a rolled 4 raised to 5 "
        "allows a push and a rolled 5 lowered to 4 does not.",
        "Gordon's rule 1 has each modifier 'add one to the die roll', so the number it leaves is the die "
        "roll; and 11.8 ties the push to the high rows of the table, which are the ones the moved die reads.",
        ("test_11_8_under_die_modifiers_the_push_reads_the_moved_die",),
    ),
    Interpretation(
        "11.1, variant die-modifiers",
        "Does a hex of mixed terrain such as Cheru (rough with some clear) count as clear for the cavalry "
        "modifier of seed 004, 1 (c)?",
        "No. For the modifiers a hex is clear only when all its terrain is clear: Cheru counts as rough.",
        "11.1 gives the defender the terrain of a mixed hex that suits it best, and the 9.0 example makes "
        "Cheru rough for movement; nothing makes the modifiers judge the hex in the attacker's favour.",
        ("test_seed_004_1c_cheru_is_not_clear_ground_for_the_cavalry",),
    ),
    Interpretation(
        "2.3, variant die-modifiers",
        "Which units are seed 004's armoured cars, 1 (b) and (g)?",
        "The tank squadrons (Tank, Matilda, M11/39), in both: they give their side a point attacking or "
        "defending a hex that is clear, the city or on a road (b), and count as a mobile unit for combined "
        "arms (g).",
        "They are the game's only armour. The variant once counted tanks as armoured cars for (g) while "
        "dropping (b) for want of armoured cars; one mapping for both removes that inconsistency.",
        ("test_seed_004_1b_tanks_are_the_armoured_cars_in_the_open_and_on_roads",),
    ),
    Interpretation(
        "11.7, 11.8, variant losses-stand",
        "Is the losses-stand variant seed 004's rule 5?",
        "No. Rule 5 (a side hit may take losses instead of retreating, all or nothing) is already the "
        "standard game: 11.7 lets the defender stay and lose a step. The switch is the project's own rule "
        "after rule 5's idea that the choice is the defender's alone: with it on, 11.8's push is off.",
        "Calling the switch rule 5 would credit Gordon with a rule he did not write; the catalogue says so.",
        ("test_losses_stand_says_it_is_the_projects_rule_and_rule_5_is_the_standard_stay",),
    ),
    Interpretation(
        "12.4, 11.6",
        "Does an eliminated unit keep its Low or No supply marker?",
        "No. The marker goes with the unit when it leaves the map.",
        "Markers show the supply state of units on the map (2.2, 12.4); an eliminated unit traces nothing.",
        ("test_12_4_an_eliminated_unit_keeps_no_supply_marker",),
    ),
)


def as_markdown() -> str:
    lines = ["| rule | question | reading | why |", "|---|---|---|---|"]
    for i in INTERPRETATIONS:
        lines.append(f"| {i.rule} | {i.question} | {i.reading} | {i.why} |")
    return "\n".join(lines)
