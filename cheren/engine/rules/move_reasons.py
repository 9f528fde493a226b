"""Why a unit can or cannot end its move in a hex, in words that cite the rule that decides
it (9.0, 9.1, 4.0, 1.1), and when a chit played this phase decides it, which one (5.1): the
explanation the gate gives with every refused move, and the reason a move stops.

Split from :mod:`cheren.engine.rules.movement`, which finds where a unit can go; this module
only says why, with the same search."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from cheren.engine.position import Position
from cheren.engine.rules.movement import MoveOptions, immobile_reason, move_graph, reachable
from cheren.engine.rules.zoc import Zoc, zoc_map
from cheren.engine.wording import hex_text, mp_text
from cheren.hexes import Hex


def stop_reason(position: Position, unit_id: str, h: Hex, options: MoveOptions | None = None) -> str:
    """Why a unit entering ``h`` must stop there, with the rule: a hard enemy ZoC (4.0) or a
    Roadblock (5.1); "" when nothing stops it.  A hard ZoC is named first when both do."""
    enemy = position.units[unit_id].side.enemy
    ignore_zoc = options is not None and options.ignore_zoc
    if not ignore_zoc and zoc_map(position, enemy).get(h) is Zoc.HARD:
        return "in a hard enemy ZoC (4.0)"
    if options is not None and h in options.stop_at:
        return f"at the Roadblock in {h.label} (5.1)"
    return ""


def explain_move(position: Position, unit_id: str, target: Hex, options: MoveOptions | None = None) -> str:
    """Why the unit can or cannot end its move in ``target``, in words, citing the rules; when a
    chit played this phase decides it (5.1), which one."""
    why = _explain_move(position, unit_id, target, options)
    return why if "5.1)" in why else why + chit_note(position, unit_id, target, options)


def chit_note(position: Position, unit_id: str, target: Hex, options: MoveOptions | None) -> str:
    """"" unless the chits played this phase (``options``) decide whether the unit can end its
    move in ``target``: then which chit lets it go there or keeps it out, citing 5.1."""
    if options is None or options == MoveOptions():
        return ""
    can = target in reachable(position, unit_id, options).reach
    if can == (target in reachable(position, unit_id).reach):
        return ""
    if can:
        helped = [text for on, text in (
            (options.extra_mp, f"Forced march gives it {options.extra_mp} more MP"),
            (options.ignore_zoc, "Infiltrate lets it ignore enemy ZoC"),
            (options.ignore_rivers, "Engineers take it across rivers at no cost and through any Roadblock"),
        ) if on]
        return f"; a chit decides it: {'; '.join(helped) or 'a chit played this phase'} (5.1)"
    plain = MoveOptions(extra_mp=options.extra_mp, ignore_zoc=options.ignore_zoc, ignore_rivers=options.ignore_rivers)
    kept = []
    for effect, relaxed in (
        ("roadblock", replace(options, stop_at=frozenset(), no_road=frozenset())),
        ("demolition", replace(options, blown_bridges=frozenset())),
    ):
        if relaxed != options and target in reachable(position, unit_id, relaxed).reach:
            kept.append(effect)
    if not kept and target in reachable(position, unit_id, plain).reach:
        kept = ["roadblock", "demolition"]
    texts = []
    if "roadblock" in kept and options.stop_at | options.no_road:
        where = ", ".join(sorted(h.label for h in options.stop_at | options.no_road))
        texts.append(f"the Roadblock in {where} (no road movement there, and a unit entering it stops)")
    if "demolition" in kept and options.blown_bridges:
        texts.append("a blown bridge (Demolition: the road crossing pays the river cost again)")
    return f"; without {' and '.join(texts) or 'the chits played this phase'} it could go there (5.1)"


def _explain_move(position: Position, unit_id: str, target: Hex, options: MoveOptions | None = None) -> str:
    s = position.scenario
    d = s.units[unit_id]
    why = immobile_reason(position, unit_id)
    if why is not None:
        return f"{why[1]} ({why[0]})"
    reach = reachable(position, unit_id, options)
    label = hex_text(target)
    if target in reach.reach:
        r = reach.reach[target]
        stop = ""
        if r.stops:
            stop = f"; it must stop there, {stop_reason(position, unit_id, target, options)}"
        return f"{d.name} can reach {label} for {mp_text(r.cost)} of {mp_text(reach.mp)} MP{stop}"
    info = s.hexes.get(target)
    if info is None or not info.playable:
        return f"{label} is not a playable hex of the map (1.1)"
    if info.move_cost is None:
        return f"{label} is {info.terrain_names}: units never enter it (1.1)"
    if info.mountain and not d.type.may_enter_mountain:
        return f"{label} is a mountain hex: tanks and motorized units never enter mountains (9.1)"
    enemy = position.units[unit_id].side.enemy
    if any(position.units[u].side is enemy for u in position.units_at(target)):
        return f"{label} holds enemy units: a unit never enters an enemy-occupied hex (9.0)"
    start = reach.start
    if target == start:
        return f"{d.name} is already in {label}"
    # Cheapest way in from a hex the unit can reach (or its start) and still leave.
    graph = move_graph(s)
    zoc = {} if (options and options.ignore_zoc) else zoc_map(position, enemy)
    candidates: list[tuple[Fraction | None, Hex]] = []
    for n in target.neighbours():
        if n == start:
            spent = Fraction(0)
        elif n in reach.reach and not reach.reach[n].stops:
            spent = reach.reach[n].cost
        elif n in reach.reach:
            candidates.append((None, n))
            continue
        else:
            continue
        edge = next(e for e in graph.edges[n] if e.to == target)
        cost = graph.mp(edge.ticks) + (1 if target in zoc else 0)
        candidates.append((spent + cost, n))
    costed: list[tuple[Fraction, Hex]] = [(c, n) for c, n in candidates if c is not None]
    if costed:
        total, via = min(costed)
        parts = "road" if next(e for e in graph.edges[via] if e.to == target).road else info.terrain_names
        extra = ", +1 entering enemy ZoC (4.0)" if target in zoc else ""
        return (
            f"{label} would cost {mp_text(total)} MP via {via.label} ({parts}{extra}); "
            f"{d.name} has {mp_text(reach.mp)} MP (9.0)"
        )
    if candidates:
        via = candidates[0][1]
        if options is not None and via in options.stop_at and zoc.get(via) is not Zoc.HARD:
            return f"{d.name} can get next to {label} only through {via.label}, where a Roadblock stops it (5.1)"
        return f"{d.name} can get next to {label} only through {via.label}, where a hard enemy ZoC stops it (4.0)"
    return f"{label} is out of {d.name}'s reach this phase ({mp_text(reach.mp)} MP, 9.0)"
