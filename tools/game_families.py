"""Sort the games of a `cheren simulate --logs` results file into families (issue 33, "diagnose
before tuning"), so the counts in docs/balance.md can be reproduced:

    python tools/game_families.py RESULTS.json [--list] [--scenario DIR]

Each game is replayed from its seed and its logged actions through the gate, and put in the first
family it fits, in this order:

1. **Kassala raid, held**: Italian units take Kassala, the Allied hub (12.1), and hold it at the
   end.  The raid is told apart by how it came: walking into an empty Kassala (no Allied unit
   there) or advancing into it after an attack, and in which phase (Movement, Exploitation, or the
   reaction in the Allied turn, where a reacting unit does not check supply: 10.0, 15.0).
2. **Kassala raid, retaken**: Kassala fell at some point but is Allied at the end.
3. **Breakthrough**: the Allies took Cheren; split by whether they went on to Asmara or Massaua.
4. **Held at Cheren**: the Allies took Agordat but never Cheren; split by whether they attacked
   the ring round Cheren (Cheren, the Dongolaas gorge and the other hexes next to it).
5. **Stopped in the west**: the Allies never took Agordat.

A game is also marked **collapse** when one side loses at least half the steps it started with
(``--collapse``), and the table gives each family's mean Allied VP and its steps lost to
attrition (12.6) on each side, which is what tells a collapse from a fight.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cheren.engine.actions import Attack, Move, Resolve, action_from_json  # noqa: E402
from cheren.engine.game import Game  # noqa: E402
from cheren.players.results_file import GameResult, read_results  # noqa: E402
from cheren.scenario import Scenario, Side, load_scenario  # noqa: E402
from cheren.scenario.sequence import PHASE_TITLES  # noqa: E402

FAMILIES = (
    "Kassala raid, held: walked into an empty Kassala",
    "Kassala raid, held: advanced into Kassala after an attack",
    "Kassala raid, retaken",
    "Breakthrough: Cheren and Asmara or Massaua",
    "Breakthrough: Cheren only",
    "Held at Cheren: the ring attacked",
    "Held at Cheren: the ring never attacked",
    "Stopped in the west: Agordat never taken",
)


@dataclass
class Raid:
    turn: int
    phase: str  # the phase's title, and whose turn it was
    unit: str
    empty: bool  # walked in (no Allied unit there) rather than advanced after an attack
    column: str = ""  # the CRT column of the attack it followed (11.5), as the log gives it


@dataclass
class Facts:
    result: GameResult
    raids: list[Raid] = field(default_factory=list)
    ring_attacks: int = 0
    ring_steps_lost: int = 0  # Allied steps lost in those attacks (the combat results, 11.x)
    start_steps: dict[str, int] = field(default_factory=dict)
    # at the end: the Italian units in Kassala and their supply markers (12.4), "" for none
    kassala_holders: list[tuple[str, str]] = field(default_factory=list)

    def held_at(self, town: str) -> int | None:
        r = self.result
        return next((r.first_turn + i for i, held in enumerate(r.control) if town in held), None)

    @property
    def kassala_lost(self) -> bool:
        return any("Kassala" not in held for held in self.result.control)

    @property
    def kassala_end(self) -> bool:
        return bool(self.result.control) and "Kassala" not in self.result.control[-1]

    def lost(self, side: Side) -> int:
        r = self.result
        return r.allied_steps_lost if side is Side.ALLIED else r.italian_steps_lost

    def collapse(self, share: float) -> list[str]:
        return [s.adjective for s in Side if self.start_steps.get(s.value) and
                self.lost(s) >= share * self.start_steps[s.value]]

    @property
    def family(self) -> str:
        if self.kassala_end:
            first = self.raids[0] if self.raids else None
            return FAMILIES[0] if first is None or first.empty else FAMILIES[1]
        if self.kassala_lost:
            return FAMILIES[2]
        if self.held_at("Cheren") is not None:
            return FAMILIES[3] if self.held_at("Asmara") or self.held_at("Massaua") else FAMILIES[4]
        if self.held_at("Agordat") is not None:
            return FAMILIES[5] if self.ring_attacks else FAMILIES[6]
        return FAMILIES[7]


def facts(scenario: Scenario, result: GameResult) -> Facts:
    """Replay one logged game and note what the families need."""
    if result.log is None:
        raise SystemExit(f"game {result.index} has no log: run `cheren simulate` with --logs")
    kassala = scenario.town_hex("Kassala")
    cheren = scenario.town_hex("Cheren")
    ring = {cheren, *cheren.neighbours()}
    game = Game(scenario, seed=result.seed)
    out = Facts(result)
    column = ""
    s = game.position.scenario
    out.start_steps = {side.value: sum(game.position.steps_left(u) for u, d in s.units.items() if d.side is side)
                       for side in Side}
    for data in result.log:
        action = action_from_json(data)
        moment, acting = game.moment, game.acting
        before = len(game.log)
        held = game.position.controller("Kassala")
        game.apply(action)
        if acting is Side.ITALIAN and isinstance(action, Attack | Resolve) and action.target == kassala:
            column = next((e.split(" -> ")[-1] for entry in game.log[before:] for e in entry.events
                           if " -> " in e and "attack" in e), "")
        if held is Side.ALLIED and game.position.controller("Kassala") is Side.ITALIAN:
            there = game.position.units_at(kassala)
            who = s.units[action.unit].name if isinstance(action, Move) else ", ".join(s.units[u].name for u in there)
            walked = isinstance(action, Move)
            out.raids.append(Raid(moment.turn, f"{moment.side.adjective} {PHASE_TITLES[moment.phase]}", who,
                                  walked, "" if walked else column))
        if acting is Side.ALLIED and isinstance(action, Attack | Resolve) and action.target in ring:
            out.ring_attacks += 1
            out.ring_steps_lost += sum(loss.steps for e in game.log[before:] for loss in e.losses
                                       if loss.side is Side.ALLIED)
    p = game.position
    out.kassala_holders = [(s.units[u].name, str(p.units[u].supply or ""))
                           for u in p.units_at(kassala) if p.units[u].side is Side.ITALIAN]
    return out


def table(all_facts: Sequence[Facts], collapse: float) -> list[str]:
    n = len(all_facts)
    lines = [
        f"{n} games, {all_facts[0].result.allied_bot} (Allies) against {all_facts[0].result.italian_bot} (Italians)",
        "",
        "| family | games | share | mean Allied VP | Allied wins | collapses (Allied / Italian) "
        "| steps lost to attrition (Allied / Italian) |",
        "|---|---|---|---|---|---|---|",
    ]
    for family in FAMILIES:
        members = [f for f in all_facts if f.family == family]
        if not members:
            continue
        k = len(members)
        vp = statistics.fmean(f.result.allied_vp for f in members)
        won = sum(f.result.winner == "allied" for f in members)
        col = Counter(side for f in members for side in f.collapse(collapse))
        att = [statistics.fmean(f.result.losses.get(side.value, {}).get("attrition", 0) for f in members)
               for side in Side]
        lines.append(f"| {family} | {k} | {k / n:.0%} | {vp:.1f} | {won} | {col['Allied']} / {col['Italian']} "
                     f"| {att[0]:.1f} / {att[1]:.1f} |")
    raids = [f.raids[0] for f in all_facts if f.raids]
    if raids:
        lines += ["", f"The first Italian entry into Kassala, in the {len(raids)} games with one:", "",
                  "| how | phase | games | turns (median) |", "|---|---|---|---|"]
        by = Counter(("walked into it empty" if r.empty else "advanced after an attack", r.phase) for r in raids)
        for (how, phase), k in by.most_common():
            turns = [r.turn for r in raids if (r.empty, r.phase) == (how.startswith("walked"), phase)]
            lines.append(f"| {how} | {phase} | {k} | {statistics.median(turns):g} |")
        columns = Counter(r.column or "?" for r in raids if not r.empty)
        if columns:
            lines += ["", "The attacks the Italians advanced into Kassala after, by CRT column (11.5): "
                      + ", ".join(f"{c} {k}" for c, k in sorted(columns.items()))]
        units = Counter(r.unit for r in raids)
        lines += ["", "Raiders: " + ", ".join(f"{u} {k}" for u, k in units.most_common())]
    held = [f for f in all_facts if f.kassala_end]
    if held:
        empty = sum(not f.kassala_holders for f in held)
        marked = Counter(m or "in supply" for f in held for _, m in f.kassala_holders)
        lines += ["", f"Kassala Italian at the end: {len(held)} games; empty in {empty}; the Italian units "
                  "there and their supply: " + (", ".join(f"{m} {k}" for m, k in marked.most_common()) or "none")]
    ring = [f for f in all_facts if f.ring_attacks]
    if ring:
        lines += ["", f"Allied attacks on the ring round Cheren: in {len(ring)} games, "
                  f"{statistics.fmean(f.ring_attacks for f in ring):.1f} attacks and "
                  f"{statistics.fmean(f.ring_steps_lost for f in ring):.1f} Allied steps lost in them per game."]
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", type=Path)
    ap.add_argument("--collapse", type=float, default=0.5,
                    help="share of its starting steps a side loses in a collapse (default 0.5)")
    ap.add_argument("--list", action="store_true", help="also list each game's family")
    ap.add_argument("--scenario", default=None, help="the scenario directory the games were played with "
                    "(simulate's --scenario; default: the bundled one)")
    args = ap.parse_args(argv)
    results = read_results(args.results)
    if not results:
        raise SystemExit(f"{args.results}: no games")
    scenario = load_scenario(args.scenario)
    all_facts = [facts(scenario, r) for r in results]
    if args.list:
        for f in all_facts:
            raid = f"; Kassala: {f.raids[0]}" if f.raids else ""
            print(f"game {f.result.index} (seed {f.result.seed}): {f.result.allied_vp} VP, {f.family}{raid}")
        print()
    print("\n".join(table(all_facts, args.collapse)))


if __name__ == "__main__":
    main()
