"""From one phase to the next, rule 7.0: ending a phase, what happens as it ends, and what
happens as the next one begins.

Ending a phase (the :class:`EndPhase` action, refused while a rule still needs something done,
e.g. an attack assembled and not rolled) queues its closing steps, each run in turn with any
decision it raises answered before the next: the rule areas' end-of-phase hooks (chits go back
to the cup, 5.1), the garrison release (6.0), over-stacking (3.1; not after Reinforcement, whose
stacks 8.0 settles), then the next phase of the sequence (or the end of the game after the last
turn, 14.0) with its own start-of-phase hooks (arrivals 8.0, chit windows 5.1, the supply check
12.4) queued behind.
"""

from __future__ import annotations

from cheren.engine.actions import Action, EndPhase
from cheren.engine.registry import ActionRule, GameState, Refusal, call
from cheren.engine.rules import garrisons, stacking
from cheren.scenario.models import Phase
from cheren.scenario.sequence import PHASE_TITLES, next_moment


def end_phase_refusal(game: GameState) -> Refusal | None:
    """Why the phase may not end yet, or None."""
    for check in game.rules.end_phase_checks:
        refusal = check(game)
        if refusal is not None:
            return refusal
    return None


def offer_end_phase(game: GameState) -> list[Action]:
    return [EndPhase()] if end_phase_refusal(game) is None else []


def _end_phase(game: GameState, action: EndPhase) -> None:
    game.queue_back(call(_closing_steps))


END_PHASE: ActionRule = ActionRule(lambda game, action: end_phase_refusal(game), _end_phase)


def _closing_steps(game: GameState) -> None:
    game.event(f"end of {game.phasing.adjective} {PHASE_TITLES[game.phase]}")
    game.queue_front(call(_phase_end_hooks), call(garrisons.check_release), call(_stacking), call(_next_phase))


def _phase_end_hooks(game: GameState) -> None:
    for hook in game.rules.phase_end:
        hook(game)


def _stacking(game: GameState) -> None:
    if game.phase is not Phase.REINFORCEMENT:
        stacking.queue_all(game)


def _next_phase(game: GameState) -> None:
    flow = game.flow
    nxt = next_moment(game.moment, len(game.scenario.info.turns))
    flow.moved.clear()
    flow.reaction_used = 0
    flow.replacement_done = False
    flow.extra.clear()
    if nxt is None:
        flow.over = True
        vp = game.position.allied_vp()
        game.event(f"the game ends: {vp} allied VP, {game.scenario.victory_level(vp)} (14.0)")
        return
    p = game.position
    if nxt.turn != p.turn:
        flow.turn_extra.clear()
    p.turn, p.side, p.phase = nxt
    game.event(f"begin {nxt}")
    start_phase(game)


def start_phase(game: GameState) -> None:
    """Queue the start-of-phase hooks of the phase the game is in."""
    game.queue_back(*(call(hook) for hook in game.rules.phase_start.get(game.phase, ())))
