"""The play panels of the app: the selected stack (with select, +1 step and attack buttons), the
pending decision with its answers, the chits, the bot's last moves and the log.  The app calls
:meth:`PlayView.changed` with what the board says changed, after it has drawn the curtain."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from cheren.app import panels
from cheren.app.widgets import button, panel
from cheren.scenario.models import Phase

if TYPE_CHECKING:
    from cheren.app.board import Board

MANY = 8  # more answers than this go into a drop-down list


@dataclass(frozen=True)
class _Row:
    box: Any
    html: Any
    pick: Any
    more: Any  # +1 step (8.3)
    toggle: Any  # + / − attack


class PlayView:
    def __init__(self, board: Board) -> None:
        import ipywidgets as w

        self.board = b = board
        self._w = w
        self.selection = w.HTML()
        self.units = w.VBox(layout=w.Layout(max_height="300px", overflow="auto"))
        self._rows: dict[str, _Row] = {}
        self.move_stack = w.Checkbox(value=False, description="move the whole stack", indent=False)
        self.move_stack.add_class("cheren-move-stack")
        self.move_stack.observe(lambda change: setattr(b, "move_stack", bool(change["new"])), "value")
        self.stack_panel = panel("Selected stack", [self.selection, self.units, self.move_stack], "cheren-stack")

        self.decision_prompt = w.HTML()
        self.decision_buttons = w.VBox()
        self.decision_panel = panel("Decision", [self.decision_prompt, self.decision_buttons], "cheren-decision")

        self.chits = w.HTML()
        self.chit_plays = w.VBox()
        self.chit_plays.add_class("cheren-chit-plays")
        self.hide_hands = w.Checkbox(value=False, indent=False, description="hide the hands (only the side to act's)")
        self.hide_hands.add_class("cheren-hide-hands")
        self.hide_hands.observe(
            lambda change: b.hidden.set_hide_hands(bool(change["new"])) if change["new"] != b.hidden.hide_hands
            else None, "value")
        self.chits_panel = panel("Chits", [self.hide_hands, self.chits, self.chit_plays], "cheren-chits")

        self.bot_list = w.HTML()
        self.bot_list.add_class("cheren-bot-moves")
        o = b.opponent
        self.bot_buttons = w.HBox([
            button("◀", "cheren-bot-prev", lambda: o.pick((o.step or 0) - 1)),
            button("▶", "cheren-bot-next", lambda: o.pick(0 if o.step is None else o.step + 1)),
            button("All", "cheren-bot-all", lambda: o.pick(None)),
        ])
        self.bot_panel = panel("The bot's last moves", [self.bot_list, self.bot_buttons], "cheren-bot-panel")

        self.log = w.HTML()
        self.log.add_class("cheren-log-panel")
        self.log_panel = panel("Log", [self.log], "cheren-log-box")

    def changed(self, what: set[str]) -> None:
        b = self.board
        if what & {"game", "selection"}:
            self._stack()
        if "game" in what:
            self.hide_hands.layout.display = "flex" if b.hidden.seating == "analysis" else "none"
            self.hide_hands.value = b.hidden.hide_hands
            self.log.value = panels.log_html(b)
            self.chits.value = panels.chits_html(b)
            self._decision()
        if what & {"game", "overlays"}:
            self._chit_plays()
        if what & {"game", "overlays"}:
            self._bot_moves()

    def _stack(self) -> None:
        b = self.board
        self.selection.value = panels.selection_html(b)
        draft = b.combat.draft
        lining_up = b.game.phase is Phase.COMBAT and draft.defender is not None
        replaceable = set(b.decisions.replaceable()) if b.game.phase is Phase.REINFORCEMENT else set()
        rows = []
        for info in b.play.stack():
            row = self._row(info.id)
            row.html.value = panels.unit_html(b, info)
            row.pick.description = "selected" if info.selected else "select"
            row.pick.disabled = info.selected
            row.more.layout.display = None if info.id in replaceable else "none"
            joined = info.id in draft.attackers
            row.toggle.layout.display = None if lining_up and info.side is b.game.phasing else "none"
            row.toggle.description = "− attack" if joined else "+ attack"
            row.toggle.button_style = "warning" if joined else ""
            rows.append(row.box)
        if [id(r) for r in rows] != [id(r) for r in self.units.children]:
            self.units.children = rows

    def _row(self, uid: str) -> _Row:
        """A unit's row of the stack panel, made once and kept: a click on the map then only
        changes what differs, instead of building new widgets in the page."""
        row = self._rows.get(uid)
        if row is None:
            w, b = self._w, self.board
            size = w.Layout(width="74px")
            pick = w.Button(description="select", layout=size)
            pick.add_class("cheren-pick")
            pick.on_click(lambda _: b.play.select(uid))
            more = w.Button(description="+1 step", tooltip="Allied replacement (8.3)", layout=w.Layout(width="74px"))
            more.add_class("cheren-replace")
            more.on_click(lambda _: b.decisions.replace_step(uid))
            toggle = w.Button(description="+ attack", layout=w.Layout(width="74px"))
            toggle.add_class("cheren-toggle-attacker")
            toggle.on_click(lambda _: b.combat.toggle_attacker(uid))
            html = w.HTML(layout=w.Layout(flex="1"))
            box = w.HBox([html, w.VBox([pick, more, toggle])], layout=w.Layout(align_items="center", flex="0 0 auto"))
            row = self._rows[uid] = _Row(box, html, pick, more, toggle)
        return row

    def _bot_moves(self) -> None:
        o = self.board.opponent
        rows = []
        for i, m in enumerate(o.moves):
            on = ' class="on"' if o.step == i else ""
            lines = panels.esc(m.reason).replace("\n", "<br>")  # the look-ahead bot's reasons come in lines
            why = f"<br><small>{lines}</small>" if m.reason else ""
            rows.append(f"<li{on}>{panels.esc(m.text)}{why}</li>")
        empty = ("<small>The bot has not moved since your last action.</small>" if o.bot is not None
                 else f"<small>{'Study' if self.board.hidden.seating == 'analysis' else 'Hot-seat'}: no bot.</small>")
        self.bot_list.value = f'<ol class="cheren-bot-list">{"".join(rows)}</ol>' if rows else empty

    def _chit_plays(self) -> None:
        """A Play button per chit the acting side may play now: it marks the chit's targets on the
        map, where a click plays it; when one hex holds several, a button for each."""
        w, b = self._w, self.board
        rows: list[Any] = []
        for name, options in b.decisions.playable_chits().items():
            armed = b.decisions.armed == name
            play = w.Button(description=f"Play {name}…" if not armed else f"Pick a target for {name}",
                            button_style="warning" if not armed else "info", layout=w.Layout(width="auto"),
                            tooltip=f"{len(options)} possible targets: they light up on the map")
            play.add_class("cheren-chit-play")
            play.on_click(lambda _, n=name: b.decisions.arm(n))
            rows.append(play)
        for action in b.decisions.choosing:
            pick = w.Button(description=b.describe(action), layout=w.Layout(width="auto"))
            pick.add_class("cheren-chit-target")
            pick.on_click(lambda _, a=action: b.decisions.apply(a))
            rows.append(pick)
        self.chit_plays.children = rows

    def _decision(self) -> None:
        w, b = self._w, self.board
        d = b.game.pending
        if d is None:
            self.decision_panel.layout.display = "none"
            self.decision_buttons.children = []
            return
        self.decision_panel.layout.display = "flex"
        on_map = " Or click a highlighted hex on the map." if b.decisions.hex_choices() else ""
        prompt = d.prompt.removeprefix(f"{d.side.adjective}: ")
        self.decision_prompt.value = (
            f"<div><b>{panels.esc(d.side.adjective)}</b>: {panels.esc(prompt)}"
            f"{panels.rules_badges(d.rules)}{panels.esc(on_map)}</div>"
        )
        options = b.decisions.candidates()
        simple = [o for o in options if not _has_object(o[1])]
        many = len(options) > MANY
        listed = [o for o in options if not (many and o in simple)]
        children: list[Any] = []
        for label, action, why in simple if many else options:
            answer = w.Button(description=label, tooltip=label, layout=w.Layout(width="auto", max_width="320px"))
            answer.add_class("cheren-decision-option")
            answer.add_class(f"cheren-answer-{action.kind}")  # lets tests pick an answer by its kind
            answer.on_click(lambda _, a=action, r=why: b.decisions.offer(a, r))
            children.append(answer)
        if many:
            pick = w.Dropdown(options=[(label, i) for i, (label, _, _) in enumerate(listed)],
                              layout=w.Layout(width="240px"))
            go = w.Button(description="Do it", button_style="warning", layout=w.Layout(width="70px"))
            go.add_class("cheren-decision-go")
            go.on_click(lambda _: b.decisions.offer(*listed[pick.value][1:]) if pick.value is not None else None)
            children.insert(0, w.HBox([pick, go]))
        self.decision_buttons.children = children


def _has_object(action: Any) -> bool:
    return any(getattr(action, f.name) not in ("", None, ()) for f in fields(action))
