"""The rulebook the game plays by: the rule of every action type, every decision kind and
phase hook, listed here and nowhere else.

A rule area (a module of :mod:`cheren.engine.rules`) defines what it adds to the gate as plain
values: an :class:`~cheren.engine.registry.ActionRule` per action type it owns, a
:class:`~cheren.engine.registry.DecisionKind` per question it asks, the functions that list its
legal actions and run at the start or end of a phase.  Importing it registers nothing; this
module puts them together, in the order the game runs them (the order of the legal actions and
of the hooks is part of every seeded game, so a change here changes games).

To add a rule area: write its module, then add its parts below (docs/architecture.md).
"""

from __future__ import annotations

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
from cheren.engine.registry import ActionRule, Rulebook
from cheren.engine.rules import (
    chits,
    combat,
    combat_resolution,
    decisions,
    moves,
    phases,
    reinforcement,
    supply_phase,
)
from cheren.scenario.models import Phase

ACTIONS: dict[type[Action], ActionRule] = {
    EndPhase: phases.END_PHASE,  # 7.0
    Move: moves.MOVE,  # 9.0, 10.0, 13.0
    Replace: reinforcement.REPLACE,  # 8.3
    RemoveStep: decisions.ANSWER_ONLY,  # answers a loss decision (3.1, 8.1, 11.6)
    Place: decisions.ANSWER_ONLY,  # answers a place decision (6.0, 8.2)
    Retreat: decisions.ANSWER_ONLY,  # answers a retreat decision (8.1, 11.7)
    ChooseArrival: decisions.ANSWER_ONLY,  # answers an arrival decision (8.4)
    PlayChit: chits.PLAY,  # 5.1
    PassChit: chits.PASS,  # 5.1
    Commit: combat.COMMIT,  # 11.0
    Uncommit: combat.UNCOMMIT,  # 11.0
    AddAir: combat.ADD_AIR,  # 11.3
    Resolve: combat.RESOLVE,  # 11.5
    Attack: combat.ATTACK,  # 11.0-11.5 in one action
    StayAndLose: combat.STAY_AND_LOSE,  # answers a combat retreat decision (11.7)
    Push: combat.PUSH,  # answers a push decision (11.8)
    Advance: combat.ADVANCE,  # answers an advance decision (11.9)
    NoAdvance: combat.NO_ADVANCE,  # answers an advance decision (11.9)
}

RULEBOOK = Rulebook(
    actions=ACTIONS,
    decisions={
        "loss": decisions.LOSS,
        "retreat": decisions.RETREAT,
        "place": decisions.PLACE,
        "arrival": reinforcement.ARRIVAL,
        "chit_window": chits.WINDOW,
        "combat_loss": combat_resolution.LOSS,
        "combat_retreat": combat_resolution.RETREAT_OR_STAY,
        "combat_push": combat_resolution.PUSH,
        "combat_advance": combat_resolution.ADVANCE,
    },
    legal_actions=(
        reinforcement.replacements,
        moves.legal_moves,
        chits.legal_actions,
        combat.legal_actions,
        phases.offer_end_phase,
    ),
    # chit windows open before a phase's own automatic steps (a Supply convoy is played before
    # the check), but after the arrivals of the Reinforcement phase
    phase_start={
        Phase.REINFORCEMENT: (reinforcement.arrivals, chits.open_windows),
        Phase.MOVEMENT: (chits.open_windows,),
        Phase.REACTION: (chits.open_windows,),
        Phase.COMBAT: (chits.open_windows,),
        Phase.SUPPLY: (chits.open_windows, supply_phase.supply_phase),
        Phase.EXPLOITATION: (chits.open_windows,),
    },
    phase_end=(chits.end_of_phase,),
    end_phase_checks=(combat.unresolved,),
    move_options=(chits.move_options,),
    exploit_grants=(chits.may_exploit,),
    hook_keys=(chits.effects_key,),
    in_parts={moves.legal_moves: moves.unit_moves_listed},  # unit by unit, each Move made when read
)
