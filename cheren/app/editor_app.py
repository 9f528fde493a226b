"""The position editor in the notebook: the map, each side's pool of counters, the picked
counter's steps and markers, towns, garrisons and the moment of play, the checker's verdict,
and Save, Code, Open and Play from here.

    from cheren.app.editor_app import EditorApp
    EditorApp("agordat")          # a library name, a position file or a code; blank: the set-up

Every widget calls one :class:`~cheren.app.editor.EditorController` method; the tests drive that
controller directly.  The app opens the editor on its own map (**Edit position ✎**): one map
widget for studying and editing, ``map=`` and ``on_play=`` say how."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from cheren.app import panels
from cheren.app.editor import EditorController
from cheren.app.map import MapWidget
from cheren.engine.game import Game
from cheren.engine.position import Status
from cheren.files import PositionRecord, open_position
from cheren.scenario.models import Side
from cheren.scenario.sequence import PHASE_TITLES, PLAYER_TURN


class EditorApp:
    def __init__(
        self,
        position: str | Path | None = None,
        *,
        width: int = 1000,
        height: int = 660,
        save_path: str | Path = "my-position.yaml",
        record: PositionRecord | None = None,
        map: MapWidget | None = None,
        on_play: Callable[[PositionRecord, Game], None] | None = None,
    ) -> None:
        """``record``: edit this position (instead of ``position``); ``map``: draw on this map
        widget (the app's), not a new one; ``on_play``: what Play from here does with the
        edited position and its game (default: a new app below the editor)."""
        import ipywidgets as w

        self._w = w
        self._syncing = False
        if record is None and position is not None:
            record = open_position(position)
        self.controller = c = EditorController(record)
        self.on_play = on_play
        if map is not None:
            map.set_controller(c)
            self.map = map
        else:
            self.map = MapWidget(c, width, height)
        self.feedback = w.HTML()
        self.feedback.add_class("cheren-feedback")

        # -- the moment of play and the titles --------------------------------------------
        self.turn = w.BoundedIntText(min=1, max=12, description="Turn", layout=w.Layout(width="140px"))
        self.side = w.Dropdown(
            options=[(s.adjective, s) for s in Side], description="Side", layout=w.Layout(width="170px")
        )
        self.phase = w.Dropdown(
            options=[(PHASE_TITLES[p], p) for p in PLAYER_TURN], description="Phase", layout=w.Layout(width="300px")
        )
        apply_moment = self._button(
            "Set", "cheren-edit-moment", lambda: c.set_moment(self.turn.value, self.side.value, self.phase.value)
        )
        self.title = w.Text(description="Title", layout=w.Layout(width="330px"))
        self.title.observe(lambda ch: c.set_info(title=ch["new"]) if ch["new"] != c.record.title else None, "value")

        # -- the pools and the picked counter -------------------------------------------------
        self.pools = {side: w.Select(rows=7, layout=w.Layout(width="160px")) for side in Side}
        for side, box in self.pools.items():
            box.add_class(f"cheren-pool-{side.value}")
            box.observe(self._pool_changed, "value")
        self.picked = w.HTML()
        self.stack_row = w.HBox()  # every counter of the picked one's hex: any of them may be picked
        self.stack_row.add_class("cheren-edit-stack")
        self.steps = w.BoundedIntText(min=1, max=4, description="Steps", layout=w.Layout(width="140px"))
        self.steps.observe(self._steps_changed, "value")
        self.supply = w.ToggleButtons(
            options=[("none", ""), ("Low", "low"), ("No", "no")], style={"button_width": "52px"}
        )
        self.supply.observe(self._supply_changed, "value")
        unit_buttons = w.HBox(
            [
                self._button("To pool", "cheren-edit-pool", lambda: self._remove(False)),
                self._button("Eliminate", "cheren-edit-eliminate", lambda: self._remove(True)),
                self._button("Defect", "cheren-edit-defect", self._toggle_defect),
            ]
        )

        # -- towns and garrisons --------------------------------------------------------------
        s = c.scenario
        self.towns = w.SelectMultiple(options=sorted(s.towns), rows=8, layout=w.Layout(width="170px"), description="")
        self.towns.observe(self._towns_changed, "value")
        self.garrisons = {
            key: w.Checkbox(description=f"{a.name} released (6.0)", indent=False) for key, a in s.garrison_areas.items()
        }
        for key, box in self.garrisons.items():
            box.observe(lambda ch, k=key: self._garrison_changed(k, ch["new"]), "value")

        # -- out of the editor ------------------------------------------------------------------
        self.problems = w.HTML()
        self.problems.add_class("cheren-edit-problems")
        self.path = w.Text(value=str(save_path), description="File", layout=w.Layout(width="330px"))
        self.code = w.Textarea(
            placeholder="the position code appears here", layout=w.Layout(width="330px", height="64px")
        )
        self.code.add_class("cheren-edit-code")
        self.open_ref = w.Text(placeholder="library name, file or code", layout=w.Layout(width="230px"))
        self.game_box = w.VBox()
        out_buttons = w.HBox(
            [
                self._button("↶ Undo", "cheren-edit-undo", c.undo),
                self._button("Save", "cheren-edit-save", lambda: c.save(self.path.value)),
                self._button("Code", "cheren-edit-code-button", self._show_code),
                self._button("Play from here ▸", "cheren-edit-play", self._play, style="primary"),
            ]
        )
        side_panel = w.VBox(
            [
                self._panel(
                    "Moment of play",
                    [w.HBox([self.turn, self.side]), self.phase, apply_moment, self.title],
                    "cheren-edit-when",
                ),
                self._panel(
                    "Counters off the map",
                    [w.HBox([self.pools[Side.ALLIED], self.pools[Side.ITALIAN]])],
                    "cheren-edit-pools",
                ),
                self._panel("Picked counter", [self.picked, self.stack_row, self.steps, self.supply, unit_buttons],
                            "cheren-edit-unit"),
                self._panel(
                    "Towns under Allied control (2.1) · garrisons",
                    [self.towns, *self.garrisons.values()],
                    "cheren-edit-towns",
                ),
                self._panel("Is it legal?", [self.problems], "cheren-edit-check"),
                self._panel(
                    "Save · code · open",
                    [
                        self.path,
                        out_buttons,
                        self.code,
                        w.HBox([self.open_ref, self._button("Open", "cheren-edit-open", self._open)]),
                    ],
                    "cheren-edit-out",
                ),
            ],
            layout=w.Layout(width="360px", min_width="340px", flex="0 0 360px"),
        )
        side_panel.add_class("cheren-side-panel")
        self.side_panel = side_panel
        map_column = w.VBox(
            [self.map.toolbar, self.feedback, self.map.widget], layout=w.Layout(flex="1 1 auto", min_width="0")
        )
        body = w.HBox([map_column, side_panel], layout=w.Layout(width="100%", align_items="flex-start"))
        body.add_class("cheren-body")
        self.editor = w.VBox([body])
        self.widget = w.VBox([w.HTML(panels.CSS), self.editor, self.game_box], layout=w.Layout(width="100%"))
        self.widget.add_class("cheren-app")
        self.widget.add_class("cheren-editor")
        self._syncing = False
        c.subscribe(self._changed)
        self._changed({"game", "selection", "feedback"})

    # -- building blocks -----------------------------------------------------------------------
    def _button(self, text: str, cls: str, fn: Any, style: str = "") -> Any:
        b = self._w.Button(description=text, button_style=style, layout=self._w.Layout(width="auto"))
        b.add_class(cls)
        b.on_click(lambda _: fn())
        return b

    def _panel(self, title: str, children: list[Any], cls: str) -> Any:
        box = self._w.VBox([self._w.HTML(f"<h4>{panels.esc(title)}</h4>"), *children])
        box.add_class("cheren-panel")
        box.add_class(cls)
        return box

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    # -- widget -> controller --------------------------------------------------------------------
    def _pool_changed(self, change: dict[str, Any]) -> None:
        # a Select picks its first option when its options change: only the user's choice counts
        if not self._syncing and change["new"] and change["new"] != self.controller.picked:
            self.controller.pick(change["new"])

    def _steps_changed(self, change: dict[str, Any]) -> None:
        c = self.controller
        if self._syncing or c.picked is None or c.position.units[c.picked].status is not Status.MAP:
            return
        c.set_steps(c.picked, int(change["new"]))

    def _supply_changed(self, change: dict[str, Any]) -> None:
        c = self.controller
        if self._syncing or c.picked is None or c.position.units[c.picked].status is not Status.MAP:
            return
        c.set_supply(c.picked, change["new"] or None)

    def _remove(self, eliminated: bool) -> None:
        c = self.controller
        if c.picked is not None:
            c.remove(c.picked, eliminated=eliminated)

    def _toggle_defect(self) -> None:
        c = self.controller
        if c.picked is not None:
            c.set_defected(c.picked, not c.position.units[c.picked].defected)

    def _towns_changed(self, change: dict[str, Any]) -> None:
        if self._syncing:
            return
        c = self.controller
        now, before = set(change["new"]), set(c.position.allied_control)
        for town in sorted(now - before):
            c.set_control(town, Side.ALLIED)
        for town in sorted(before - now):
            c.set_control(town, Side.ITALIAN)

    def _garrison_changed(self, key: str, on: bool) -> None:
        if not self._syncing and (key in self.controller.position.released) != on:
            self.controller.set_released(key, on)

    def _show_code(self) -> None:
        code = self.controller.code()
        self.code.value = code or ""

    def _open(self) -> None:
        ref = self.open_ref.value.strip()
        if ref and self.controller.load(ref).ok:
            # the code and the file named were the old position's: a save must not overwrite it
            self.code.value = ""
            self.path.value = f"my-{self.controller.record.name}.yaml"
            self.open_ref.value = ""

    def _play(self) -> None:
        from cheren.app.app import App

        game = self.controller.play()
        if game is not None and self.on_play is not None:
            from dataclasses import replace

            c = self.controller
            self.on_play(replace(c.record, position=c.position.copy()), game)
        elif game is not None:
            self.game_box.children = [self._w.HTML("<h3>Playing from the edited position</h3>"), App(game).widget]

    # -- controller -> widgets --------------------------------------------------------------------
    def _changed(self, what: set[str]) -> None:
        c = self.controller
        self.feedback.value = panels.feedback_html(c.feedback)
        if not what & {"game", "selection"}:
            return
        self._syncing = True
        try:
            p = c.position
            self.turn.value, self.side.value, self.phase.value = p.turn, p.side, p.phase
            self.title.value = c.record.title
            for side, box in self.pools.items():
                box.options = [(f"{e.name} · {e.note}", e.id) for e in c.pool(side)]
                box.value = c.picked if c.picked in {e.id for e in c.pool(side)} else None
            self.towns.value = tuple(sorted(p.allied_control))
            for key, box in self.garrisons.items():
                box.value = key in p.released
            self._picked_panel()
            self.problems.value = _problems_html(c)
        finally:
            self._syncing = False

    def _picked_panel(self) -> None:
        c = self.controller
        uid = c.picked
        self.stack_row.children = self._stack_buttons()
        if uid is None:
            self.picked.value = "<i>Pick a counter from a pool or click one on the map.</i>"
            self.steps.disabled = True
            self.supply.disabled = True
            return
        p = c.position
        unit = p.units[uid]
        d = c.scenario.units[uid]
        where = f"in {unit.hex.label}" if unit.hex is not None else "off the map"
        svg = panels.counter_svg(p, uid)
        self.picked.value = (
            f"<div class='cheren-unit'>{svg}<div class='info'><span class='name'>"
            f"{panels.esc(d.name)}</span><br>{panels.esc(d.type.name)}, {where}</div></div>"
        )
        on_map = unit.status is Status.MAP
        self.steps.max = d.steps
        self.steps.value = d.steps - unit.steps_lost
        self.steps.disabled = not on_map
        self.supply.value = unit.supply.value if unit.supply is not None else ""
        self.supply.disabled = not on_map


    def _stack_buttons(self) -> list[Any]:
        w, c = self._w, self.controller
        stack = c.stack()
        if len(stack) < 2:
            return []
        out: list[Any] = [w.HTML("<small>in this hex:</small>")]
        for uid in stack:
            b = w.Button(description=c.name(uid), disabled=uid == c.picked, layout=w.Layout(width="auto"),
                         tooltip="the picked counter" if uid == c.picked else "pick this counter")
            b.add_class("cheren-edit-stack-pick")
            b.on_click(lambda _, u=uid: c.pick(u))
            out.append(b)
        return out


def _problems_html(c: EditorController) -> str:
    problems = c.problems()
    if not problems:
        return "<div class='cheren-msg ok'>Legal, and nothing play would have changed.</div>"
    rows = []
    for p in problems:
        kind = "refused" if p.severity == "error" else "info"
        where = f"{p.hex.label}: " if p.hex is not None else ""
        rows.append(
            f"<div class='cheren-msg {kind}'>{panels.esc(where + p.message)}{panels.rules_badges((p.rule,))}</div>"
        )
    return "".join(rows)
