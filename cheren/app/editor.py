"""The position editor's brain, with no widgets in it (the lichess board editor for this game).

Pick a counter from a side's pool or from the map, click a hex to put it there; set its steps,
supply marker and defection; set town control, garrison release, the turn, the phasing side and
the phase.  After every change the checker (:mod:`cheren.files.position_problems`) says what is wrong,
with the rule that says so, and the map marks the hexes at fault.  The result is saved as a
position file, copied as a one-line code, or played: **Play from here** starts a game.

It answers the same small protocol as the play board, so the same map widget draws it:
``scene()``, ``subscribe()``, ``click_map()``, ``set_hover()`` and ``stack_hex``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from cheren.app.editor_marks import editor_marks
from cheren.engine.game import Game
from cheren.engine.opening import initial_position
from cheren.engine.position import Position, Status, Supply
from cheren.engine.wording import counted, hex_text, rules_cited
from cheren.files import (
    PositionProblem,
    PositionRecord,
    canonical,
    position_code,
    position_problems,
    write_position_file,
)
from cheren.hexes import Hex
from cheren.render.scene import DEFAULT_HEX_SIZE, Scene, build_scene
from cheren.scenario.compiled import Scenario
from cheren.scenario.models import Phase, Provenance, Side
from cheren.scenario.sequence import PHASE_TITLES
from cheren.study.map_intents import Feedback

EDITED = Provenance.model_validate("reconstructed: placed in the position editor")


@dataclass(frozen=True)
class PoolEntry:
    """A counter that is not on the map, as the editor's pool lists it."""

    id: str
    name: str
    side: Side
    status: Status
    note: str


class EditorController:
    """A position being edited, the counter picked, and what the checker says about it."""

    def __init__(
        self,
        record: PositionRecord | None = None,
        *,
        scenario: Scenario | None = None,
        hex_size: float = DEFAULT_HEX_SIZE,
    ) -> None:
        if record is None:
            if scenario is None:
                from cheren.scenario import load_scenario

                scenario = load_scenario()
            record = PositionRecord("my-position", "A new position", dt.date(1941, 1, 19), initial_position(scenario))
        self.hex_size = hex_size
        self._set_record(record)
        self.feedback = Feedback("info", "Pick a counter from a pool or the map, then click a hex to put it there.")
        self.hover: Hex | None = None
        self._listeners: list[Callable[[set[str]], None]] = []

    def _set_record(self, record: PositionRecord) -> None:
        self.record = replace(record, position=canonical(record.position), provenance=dict(record.provenance))
        self.picked: str | None = None
        self.version = 0
        self._history: list[tuple[Position, dict[str, Provenance]]] = []
        self._problems: tuple[int, list[PositionProblem]] | None = None
        self._scene: tuple[int, Scene] | None = None

    # -- plumbing ---------------------------------------------------------------------------
    @property
    def position(self) -> Position:
        return self.record.position

    @property
    def scenario(self) -> Scenario:
        return self.position.scenario

    def subscribe(self, fn: Callable[[set[str]], None]) -> None:
        self._listeners.append(fn)

    def _notify(self, *what: str) -> None:
        for fn in self._listeners:
            fn(set(what))

    def _say(self, fb: Feedback, *what: str) -> Feedback:
        self.feedback = fb
        self._notify("feedback", *what)
        return fb

    def _edit(self, change: Callable[[Position], str | None], *, done: str) -> Feedback:
        """Apply one edit to a copy; keep it only if it worked (a refusal changes nothing)."""
        before = self.position.copy()
        before_provenance = dict(self.record.provenance)
        try:
            refusal = change(self.position)
        except (ValueError, KeyError) as exc:
            refusal = str(exc).strip("'\"")
        if refusal is not None:
            self.record.position = before
            self.record.provenance = before_provenance
            return self._say(Feedback("refused", refusal, _rules_in(refusal)))
        self._history.append((before, before_provenance))
        self.version += 1
        return self._say(self._after(done), "game", "selection")

    def _after(self, done: str) -> Feedback:
        errors = [p for p in self.problems() if p.severity == "error"]
        if errors:
            text = f"{done}. Not legal yet: {errors[0]}" + (f" (and {len(errors) - 1} more)" if len(errors) > 1 else "")
            return Feedback("refused", text, tuple(dict.fromkeys(p.rule for p in errors)))
        warnings = self.problems()
        if warnings:
            return Feedback("info", f"{done}. Note: {warnings[0]}", (warnings[0].rule,))
        return Feedback("ok", f"{done}.")

    def undo(self) -> Feedback:
        if not self._history:
            return self._say(Feedback("info", "Nothing to undo."))
        self.record.position, self.record.provenance = self._history.pop()
        self.version += 1
        return self._say(Feedback("ok", "Undone."), "game", "selection")

    # -- what the checker says ---------------------------------------------------------------
    def problems(self) -> list[PositionProblem]:
        if self._problems is None or self._problems[0] != self.version:
            self._problems = (self.version, position_problems(self.position, next_check=True))
        return self._problems[1]

    @property
    def legal(self) -> bool:
        return not any(p.severity == "error" for p in self.problems())

    # -- the pools -----------------------------------------------------------------------------
    def pool(self, side: Side) -> list[PoolEntry]:
        """The side's counters not on the map: still to arrive, eliminated, or (the air unit)
        waiting off the map."""
        s = self.scenario
        out = []
        for uid, unit in self.position.units.items():
            d = s.units[uid]
            if d.side is not side or unit.status is Status.MAP:
                continue
            arrival = d.arrival
            if unit.status is Status.ELIMINATED:
                note = "eliminated"
            elif unit.status is Status.OFF_MAP:
                note = "off the map (11.3)"
            elif arrival is not None and arrival.turn is not None:
                note = f"arrives turn {arrival.turn}"
            else:
                note = "set-up unit"
            out.append(PoolEntry(uid, d.name, side, unit.status, note))
        return out

    def name(self, uid: str) -> str:
        return str(self.scenario.units[uid].name)

    # -- picking and placing -------------------------------------------------------------------
    def pick(self, uid: str | None) -> Feedback:
        if uid is None:
            self.picked = None
            return self._say(Feedback("info", "Nothing picked."), "selection")
        if uid not in self.position.units:
            return self._say(Feedback("refused", f"there is no counter {uid!r}"))
        self.picked = uid
        unit = self.position.units[uid]
        where = f"in {unit.hex.label}" if unit.hex is not None else "from the pool"
        return self._say(
            Feedback("info", f"{self.name(uid)} picked {where}: click a hex to put it there."), "selection"
        )

    def click_map(self, x: float, y: float) -> Feedback:
        h = self.scene().hex_at(x, y)
        if h is None:
            return self._say(Feedback("info", "Off the map."))
        return self.click_hex(h)

    @property
    def stack_hex(self) -> Hex | None:
        """The hex outlined on the map: the picked counter's, wherever it is now (none in a pool)."""
        if self.picked is None:
            return None
        unit = self.position.units[self.picked]
        return unit.hex if unit.status is Status.MAP else None

    def stack(self, h: Hex | None = None) -> list[str]:
        """The counters in a hex (default: the picked counter's), top first."""
        where = h if h is not None else self.stack_hex
        return list(reversed(self.position.units_at(where))) if where is not None else []

    def click_hex(self, h: Hex) -> Feedback:
        """With a counter picked, put it in ``h`` (a click on its own hex picks the next counter
        of the stack instead, then none); otherwise pick the top counter there."""
        here = self.stack(h)
        if self.picked is not None:
            uid = self.picked
            if self.position.units[uid].hex == h:
                i = here.index(uid)
                return self.pick(here[i + 1]) if i + 1 < len(here) else self.pick(None)
            return self.place(uid, h)
        if not here:
            return self._say(Feedback("info", f"{h.label} is empty. Pick a counter from a pool first."), "selection")
        return self.pick(here[0])

    def key(self, name: str) -> Feedback | None:
        """Esc on the map: put the picked counter down where it is."""
        return self.pick(None) if name == "Escape" else None

    def set_hover(self, h: Hex | None) -> bool:
        if h == self.hover:
            return False
        self.hover = h
        return True

    def place(self, uid: str, at: Hex | str) -> Feedback:
        h = Hex.from_label(at) if isinstance(at, str) else at
        unit = self.position.units[uid]
        steps_lost, supply = (unit.steps_lost, unit.supply) if unit.status is Status.MAP else (0, None)
        name = self.name(uid)

        def change(p: Position) -> str | None:
            if h not in self.scenario.playable:
                return f"{hex_text(h)} is not a playable hex of the map (1.1)"
            p.place(uid, h, steps_lost=steps_lost, supply=supply)
            self.record.provenance[uid] = EDITED
            return None

        return self._edit(change, done=f"{name} placed in {h.label}")

    def remove(self, uid: str, *, eliminated: bool = False) -> Feedback:
        name = self.name(uid)
        d = self.scenario.units[uid]

        def change(p: Position) -> str | None:
            if d.type.air and not eliminated:
                p.remove(uid, Status.OFF_MAP)
            else:
                p.remove(uid, Status.ELIMINATED if eliminated else Status.POOL)
            p.units[uid].supply = None
            self.record.provenance.pop(uid, None)
            return None

        if self.picked == uid:
            self.picked = None
        return self._edit(change, done=f"{name} {'eliminated' if eliminated else 'taken off the map'}")

    def set_steps(self, uid: str, steps_left: int) -> Feedback:
        d = self.scenario.units[uid]

        def change(p: Position) -> str | None:
            if not 1 <= steps_left <= d.steps:
                return f"{d.name} has {counted(d.steps, 'step')}; steps left must be 1 to {d.steps} (11.6)"
            if p.units[uid].status is not Status.MAP:
                return f"{d.name} is not on the map"
            p.units[uid].steps_lost = d.steps - steps_left
            return None

        return self._edit(change, done=f"{d.name} now has {counted(steps_left, 'step')}")

    def set_supply(self, uid: str, marker: Supply | str | None) -> Feedback:
        d = self.scenario.units[uid]
        value = Supply(marker) if marker is not None else None

        def change(p: Position) -> str | None:
            if p.units[uid].status is not Status.MAP:
                return f"{d.name} is not on the map; only units on the map carry supply markers (12.4)"
            p.set_supply(uid, value)
            return None

        what = "no supply marker" if value is None else f"a {value.value.title()} supply marker"
        return self._edit(change, done=f"{d.name} has {what}")

    def set_defected(self, uid: str, defected: bool = True) -> Feedback:
        d = self.scenario.units[uid]
        return self._edit(
            lambda p: p.set_defected(uid, defected),
            done=f"{d.name} {'defected to the Allies' if defected else 'is Italian'}",
        )

    def set_control(self, town: str, side: Side | str) -> Feedback:
        who = Side(side)
        return self._edit(lambda p: p.set_control(town, who), done=f"{town} is under {who.adjective} control")

    def set_released(self, area: str, released: bool = True) -> Feedback:
        s = self.scenario
        key = next((k for k, a in s.garrison_areas.items() if area in (k, a.name)), None)

        def change(p: Position) -> str | None:
            if key is None:
                return f"no garrison area {area!r}"
            (p.released.add if released else p.released.discard)(key)
            return None

        name = s.garrison_areas[key].name if key is not None else area
        return self._edit(change, done=f"the {name} garrison is {'released' if released else 'not released'}")

    def set_moment(self, turn: int, side: Side | str, phase: Phase | str) -> Feedback:
        who, when = Side(side), Phase(phase)
        return self._edit(
            lambda p: p.set_turn(turn, who, when),
            done=f"turn {turn}, {who.adjective} {PHASE_TITLES[when]}",
        )

    def set_info(
        self,
        *,
        name: str | None = None,
        title: str | None = None,
        date: dt.date | None = None,
        narrative: str | None = None,
    ) -> Feedback:
        if name is not None:
            import re

            if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", name):
                return self._say(Feedback("refused", "a position's name uses lower-case letters, digits and '-'"))
            self.record.name = name
        if title is not None:
            self.record.title = title
        if date is not None:
            self.record.date = date
        if narrative is not None:
            self.record.narrative = narrative
        return self._say(Feedback("ok", "Title, date and narrative kept."))

    # -- out of the editor -------------------------------------------------------------------
    def _refuse_illegal(self, what: str) -> Feedback | None:
        errors = [p for p in self.problems() if p.severity == "error"]
        if not errors:
            return None
        return self._say(Feedback("refused", f"cannot {what}: {errors[0]}", (errors[0].rule,)))

    def code(self) -> str | None:
        """The position's one-line code, or None (with the reason in the feedback) while it is
        not legal."""
        if self._refuse_illegal("make a code") is not None:
            return None
        code = position_code(self.position)
        self._say(Feedback("ok", "The position code is ready to copy."))
        return code

    def save(self, path: str | Path) -> Feedback:
        refusal = self._refuse_illegal("save the position")
        if refusal is not None:
            return refusal
        try:
            write_position_file(self.record, path)
        except OSError as exc:
            return self._say(Feedback("refused", f"cannot write {path}: {exc.strerror or exc}"))
        return self._say(Feedback("ok", f"Saved as {Path(path).name}."))

    def load(self, ref: str | Path) -> Feedback:
        """A library name, a position file or save, a position code, or a game save (its
        current position); anything else is refused with the reason."""
        from cheren.files.position_saves import SaveError
        from cheren.study.game_saves import open_position_or_game

        try:
            record = open_position_or_game(ref, self.scenario)
        except SaveError as exc:
            return self._say(Feedback("refused", str(exc)))
        except OSError as exc:
            return self._say(Feedback("refused", f"cannot open {ref}: {exc.strerror or exc}"))
        self._set_record(record)
        return self._say(Feedback("ok", f"Opened {record.title}."), "game", "selection")

    def play(self, **game_options: Any) -> Game | None:
        """A game starting from the position (**Play from here**), or None while it is not legal."""
        if self._refuse_illegal("play from here") is not None:
            return None
        self._say(Feedback("ok", "A game starts from this position."))
        return Game.from_position(self.position.copy(), **game_options)

    # -- the map -------------------------------------------------------------------------------
    def scene(self) -> Scene:
        if self._scene is None or self._scene[0] != self.version:
            self._scene = (self.version, build_scene(self.scenario, self.position, (), self.hex_size, legend=False))
        base = self._scene[1]
        return replace(base, layers={**base.layers, "ui": editor_marks(base, self.problems(), self.stack_hex)})


def _rules_in(text: str) -> tuple[str, ...]:
    return tuple(r for r in rules_cited(text, default="") if r)
