"""A fuzzer for the legality gate: random and malformed calls at every point of seeded games.

Each call hands the gate something a careless or malicious caller might: an action of every type
with fields of the right kind but wrong value (unknown units, hexes off the map, paths that jump
or leave the map, chits nobody holds), fields of the wrong kind altogether, a legal action of the
other side or of another moment of the game, a legal action with one field changed, an answer to
a decision that is not pending, and objects that are not actions at all.  ``check`` must answer
with a verdict and ``apply`` either apply a legal action or raise :class:`IllegalAction` with
check's refusal, citing a rule, leaving the game exactly as it was; nothing else may escape.

``tests/test_gate_fuzz.py`` runs it in CI; ``python -m tests.gate_fuzz CALLS`` runs a longer one.
"""

from __future__ import annotations

import itertools
import random
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field, fields, replace
from typing import Any

from cheren.engine.actions import ACTION_TYPES, Action, Move
from cheren.engine.game import Game
from cheren.engine.registry import IllegalAction
from cheren.files import library_names, load_position
from cheren.hexes import Hex
from cheren.players.bots import Bot, make_bot
from cheren.players.views import SideSeat
from cheren.scenario import Scenario, Side, load_scenario


@dataclass
class Tally:
    calls: int = 0
    legal: int = 0
    refused: int = 0
    by_kind: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)  # anything but a verdict or a refusal


def fingerprint(game: Game) -> tuple[Any, ...]:
    """A cheap summary that changes whenever the game does (units by their change stamps)."""
    p = game.position
    c = p.chits
    return (
        p.stamp(Side.ALLIED), p.stamp(Side.ITALIAN), p.turn, p.side, p.phase, p.dice.state,
        tuple(sorted(p.allied_control)), tuple(sorted(p.released)), tuple(c.cup), tuple(c.played),
        tuple(c.removed), tuple(c.hands[Side.ALLIED]), tuple(c.hands[Side.ITALIAN]), len(game.log),
        len(game.flow.queue), tuple(sorted(game.flow.moved)), game.flow.reaction_used, game.over,
        repr(game.flow.queue[0]) if game.flow.queue else None,
    )


class Fuzzer:
    def __init__(self, scenario: Scenario, rng: random.Random) -> None:
        self.s = scenario
        self.rng = rng
        self.units = sorted(scenario.units)
        self.hexes = sorted(scenario.playable)
        self.chits = sorted(f"{k}.{n}" for k, c in scenario.chits.items() for n in range(1, c.count + 2))
        self.seen: list[Action] = []  # legal actions met earlier (another side, another moment)

    # -- values -----------------------------------------------------------------------------------
    def text(self) -> Any:
        r = self.rng
        return r.choice([
            r.choice(self.units), r.choice(self.units), r.choice(self.chits), "", "nobody", "K7-F8", "0101",
            "x" * 300, r.choice(self.hexes).label, f"{r.choice(self.hexes).label}/{r.choice(self.hexes).label}",
            "\x00", "ind_5;drop", r.choice(self.units).upper(),
        ])

    def hex(self) -> Any:
        r = self.rng
        h = r.choice(self.hexes)
        return r.choice([
            h, h, h.neighbours()[r.randrange(6)], Hex(r.randint(-40, 60), r.randint(-40, 60)),
            Hex(r.randint(-10**6, 10**6), r.randint(-10**6, 10**6)), Hex(10**9, 0), Hex(0, -1), Hex(-1, 0),
        ])

    def path(self, start: Hex | None) -> Any:
        r = self.rng
        here = start if start is not None else r.choice(self.hexes)
        out = []
        for _ in range(r.choice([0, 1, 1, 2, 3, 5, 9, 70])):
            here = here.neighbours()[r.randrange(6)] if r.random() < 0.8 else self.hex()
            out.append(here)
        return tuple(out)

    def wrong(self) -> Any:
        r = self.rng
        return r.choice([None, 0, -1, 10**30, 1.5, float("nan"), True, [], {}, ["0101"], ("0101",), b"0101",
                         object(), Hex(1.5, 2), (1, 2), "0101", self.hex(), self.text()])  # type: ignore[arg-type]

    def value(self, annotation: str, game: Game) -> Any:
        r = self.rng
        if r.random() < 0.07:
            return self.wrong()
        if annotation == "str":
            return self.text()
        if annotation == "bool":
            return r.random() < 0.5
        if annotation == "Hex":
            return self.hex()
        if annotation == "tuple[Hex, ...]":
            unit = game.position.units.get(r.choice(self.units))
            return self.path(unit.hex if unit is not None else None)
        if annotation == "tuple[str, ...]":
            return tuple(self.text() for _ in range(r.choice([0, 1, 2, 3, 70])))
        return self.wrong()

    # -- actions ----------------------------------------------------------------------------------
    def action(self, game: Game, legal: list[Action]) -> tuple[str, Any]:
        r = self.rng
        roll = r.random()
        if roll < 0.45:
            cls = r.choice(list(ACTION_TYPES.values()))
            kwargs = {f.name: self.value(str(f.type), game) for f in fields(cls)}
            if cls is Move and r.random() < 0.5:  # a unit of the side to move, on a path from its hex
                mine = [u for u, st in game.position.units.items() if st.side is game.acting]
                uid = r.choice(mine)
                kwargs = {"unit": uid, "path": self.path(game.position.units[uid].hex)}
            return cls.kind, cls(**kwargs)
        if roll < 0.65 and legal:
            base = r.choice(legal)
            names = [f.name for f in fields(base)]
            if not names:
                return "legal", base
            name = r.choice(names)
            annotation = str(next(f.type for f in fields(base) if f.name == name))
            return "changed " + base.kind, replace(base, **{name: self.value(annotation, game)})
        if roll < 0.85 and self.seen:
            return "elsewhere", r.choice(self.seen)
        if roll < 0.93 and legal:
            return "legal", r.choice(legal)
        return "not an action", self.wrong()

    # -- one call ---------------------------------------------------------------------------------
    def call(self, game: Game, legal: list[Action], tally: Tally) -> None:
        kind, action = self.action(game, legal)
        tally.calls += 1
        tally.by_kind[kind.split(" ")[0]] += 1
        before = fingerprint(game)
        try:
            verdict = game.check(action)
        except Exception as exc:
            tally.failures.append(f"check({action!r}) raised {exc!r} at {game.status()}")
            return
        if fingerprint(game) != before:
            tally.failures.append(f"check({action!r}) changed the game at {game.status()}")
            return
        if verdict.ok:
            tally.legal += 1
            return  # applying a legal action is play; the caller plays on
        tally.refused += 1
        if not verdict.refusal or not verdict.refusal.rules or not all(verdict.refusal.rules):
            tally.failures.append(f"check({action!r}) refused without citing a rule: {verdict}")
        try:
            game.apply(action)
        except IllegalAction as exc:
            if exc.refusal != verdict.refusal:
                tally.failures.append(f"apply({action!r}) refused otherwise than check: {exc.refusal} / {verdict}")
        except Exception as exc:
            tally.failures.append(f"apply({action!r}) raised {exc!r} at {game.status()}")
            return
        else:
            tally.failures.append(f"apply({action!r}) applied what check refused ({verdict})")
            return
        if fingerprint(game) != before:
            tally.failures.append(f"a refused apply({action!r}) changed the game at {game.status()}")


def games(seed: int, s: Scenario) -> Iterator[tuple[Game, dict[Side, Bot]]]:
    """Games to fuzz, in turn: from the opening, from each library position (mid-game, some in
    the middle of a phase), and now and then with a heuristic player (more combat)."""
    names = library_names()
    for i in itertools.count():
        game_seed = seed + i
        if i % 2:
            game = Game.from_position(load_position(names[(i // 2) % len(names)], s), seed=game_seed)
        else:
            game = Game(s, seed=game_seed)
        kinds = ("heuristic", "random") if i % 5 == 4 else ("random", "random")
        yield game, {side: make_bot(kind, game_seed) for side, kind in zip(Side, kinds, strict=True)}


def run(calls: int, seed: int = 0, per_state: int = 12, scenario: Scenario | None = None) -> Tally:
    """About ``calls`` gate calls, ``per_state`` at each point of bot games seeded from ``seed``
    (a new game whenever one ends), undoing a move now and then."""
    s = scenario or load_scenario()
    rng = random.Random(seed)
    fuzz = Fuzzer(s, rng)
    tally = Tally()
    for game, bots in games(seed, s):
        if tally.calls >= calls:
            break
        while not game.over and tally.calls < calls:
            legal = game.legal_actions()
            for _ in range(per_state):
                fuzz.call(game, legal, tally)
            if rng.random() < 0.05:
                fuzz.seen.extend(rng.sample(legal, min(3, len(legal))))
            side = game.acting
            game.apply(bots[side].choose(SideSeat(game, side)).action)
            if rng.random() < 0.03:
                game.undo()  # the bot may choose otherwise: a new line from the same point
    return tally


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    found = run(n, seed=int(sys.argv[2]) if len(sys.argv) > 2 else 0)
    print(f"{found.calls} calls: {found.legal} legal, {found.refused} refused, {len(found.failures)} failures")
    print(dict(found.by_kind))
    for line in found.failures[:40]:
        print(" ", line[:400])
