"""HTML for the app's side panels, as pure functions of the controller (testable without widgets):
the status bar, the selected stack with its counters drawn by the SVG back-end, the log, the
chits, the what-if odds panel and the feedback line."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

from cheren.engine.position import Position
from cheren.hexes import Layout
from cheren.render.counters import counter_group
from cheren.render.palette import PALETTE
from cheren.render.scene import Scene
from cheren.render.svg import scene_to_svg
from cheren.scenario.models import Side

if TYPE_CHECKING:
    from cheren.app.board import Board
    from cheren.study.map_intents import Feedback

INK = "#2d2418"
PAPER = "#f4efe1"
SIDE_COLOUR = {Side.ALLIED: "#b8412f", Side.ITALIAN: "#557f38"}

CSS = """
<style>
.cheren-app { font-family: "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; color: #2d2418; }
.cheren-app .widget-html-content { line-height: 1.35; }
.cheren-bar { background: #2d2418; color: #f4efe1; padding: 6px 12px; border-radius: 6px 6px 0 0;
  display: flex; gap: 16px; align-items: baseline; flex-wrap: wrap; }
.cheren-bar b { color: #ffd88a; }
.cheren-bar .side { padding: 1px 8px; border-radius: 10px; color: #fff; font-weight: bold; }
.cheren-bar .title { font-family: serif; font-weight: bold; letter-spacing: 1px; font-size: 15px; }
.cheren-panel { background: #f4efe1; border: 1px solid #b9a57e; border-radius: 6px; padding: 6px 8px;
  margin: 0 0 6px 0; }
.cheren-panel h4 { margin: 0 0 4px 0; font-size: 12px; text-transform: uppercase; letter-spacing: 1px;
  color: #6e5a3c; border-bottom: 1px solid #d8c9a6; }
.cheren-unit { display: flex; gap: 8px; align-items: center; margin: 2px 0; }
.cheren-unit .info { font-size: 12px; }
.cheren-unit .name { font-weight: bold; }
.cheren-unit .marker { display: inline-block; background: #e8dec3; border-radius: 3px; padding: 0 4px;
  margin-right: 3px; font-size: 11px; }
.cheren-unit .marker.low { background: #f2c318; } .cheren-unit .marker.no { background: #d0201a; color: #fff; }
.cheren-msg { padding: 5px 10px; border-radius: 4px; font-size: 13px; min-height: 20px; margin-bottom: 4px; }
.cheren-hover { color: #6e5a3c; white-space: nowrap; }
.cheren-msg.ok { background: #e3efd9; border-left: 4px solid #557f38; }
.cheren-msg.refused { background: #f8ddd8; border-left: 4px solid #b3261e; }
.cheren-msg.info { background: #efe7d2; border-left: 4px solid #b9a57e; }
.cheren-rule { display: inline-block; background: #2d2418; color: #ffd88a; border-radius: 3px; padding: 0 5px;
  font-size: 11px; font-weight: bold; margin-left: 4px; }
.cheren-log { max-height: 210px; overflow-y: auto; font-family: "DejaVu Sans Mono", monospace; font-size: 11px;
  white-space: pre-wrap; background: #fbf8ef; border: 1px solid #e0d4b8; padding: 4px; }
.cheren-log .ev { color: #6e5a3c; padding-left: 1.2em; }
.cheren-log .entry { border-bottom: 1px dotted #e0d4b8; padding: 1px 0; }
.cheren-odds table { border-collapse: collapse; font-size: 12px; }
.cheren-odds td, .cheren-odds th { padding: 0 4px; text-align: left; }
.cheren-rolls { margin: 4px 0; background: #fbf8ef; border: 1px solid #e0d4b8; }
.cheren-key { font-size: 11px; }
.cheren-key .swatch { display: inline-block; width: 12px; height: 10px; margin-right: 4px; border: 1px solid #b9a57e;
  vertical-align: middle; }
.cheren-key .key-row .swatch { opacity: 0.7; }
.cheren-key .terrains { margin-top: 3px; }
.cheren-key .terrain { margin-right: 8px; white-space: nowrap; }
.cheren-side-panel { min-width: 330px; max-width: 360px; }
.cheren-map-box { background: #34302a; border-radius: 4px; position: relative; }
.cheren-minimap { position: absolute; right: 8px; bottom: 8px; border: 2px solid #f4efe1; border-radius: 3px;
  box-shadow: 0 1px 4px rgba(0,0,0,0.5); cursor: crosshair; opacity: 0.95; }
.cheren-map, .cheren-map:focus { outline: none; cursor: pointer; }
.cheren-toolbar { gap: 2px; }
.cheren-toolbar button { min-width: 30px; }
.cheren-body { gap: 8px; flex-wrap: wrap; }
.cheren-body > .cheren-side-panel { flex: 1 1 330px !important; }
.cheren-body > .widget-vbox:first-child { flex: 999 1 620px !important; }
.cheren-app .widget-button { flex-shrink: 0; overflow: visible; }
.cheren-side-panel .widget-hbox { flex-wrap: wrap; gap: 2px; }
.cheren-side-panel .widget-checkbox { height: auto; align-items: flex-start; }
.cheren-side-panel .widget-checkbox label { white-space: normal; overflow: visible; line-height: 1.25; }
.cheren-toolbar { flex-wrap: nowrap; }
.cheren-hint-line { padding: 2px 6px; color: #4a3f2f; }
.cheren-intro p { margin: 0 0 4px 0; max-width: 80em; }
.cheren-curtain { background: #2d2418; border-radius: 6px; }
.cheren-position { font-size: 12px; overflow-wrap: anywhere; }
.cheren-answer-output { width: 100%; min-width: 0; }
.cheren-answer-compare { font-size: 12px; overflow-wrap: anywhere; min-width: 0; }
.cheren-answer-compare table { display: block; overflow-x: auto; max-width: 100%; font-size: 11px;
  contain: inline-size; }
.cheren-answer-compare th, .cheren-answer-compare td { overflow-wrap: normal; word-break: normal; }
.cheren-position .title { font-size: 13px; }
.cheren-position .when { color: #6e5a3c; margin-bottom: 4px; }
.cheren-question { background: #fff3cf; border-left: 4px solid #c98a00; padding: 4px 8px; margin: 4px 0; }
.cheren-position details { margin: 3px 0; } .cheren-position summary { cursor: pointer; color: #6e5a3c; }
.cheren-position p { margin: 3px 0; } .cheren-position ul { margin: 2px 0; padding-left: 18px; }
.cheren-curtain, .cheren-curtain .widget-html-content, .cheren-curtain h3, .cheren-curtain p {
  color: #f4efe1 !important; }
</style>
"""


def esc(text: object) -> str:
    return html.escape(str(text))


def rules_badges(rules: tuple[str, ...] | list[str]) -> str:
    """Rule numbers as badges; pointing at one shows the rule's summary (cheren.engine.rule_summaries)."""
    from cheren.engine.rule_summaries import tooltip

    return "".join(
        f'<span class="cheren-rule" data-rule="{esc(r)}" title="{esc(tooltip(r))}">{esc(r)}</span>' for r in rules
    )


def status_html(c: Board) -> str:
    st = c.status()
    g = c.game
    acting = g.acting
    side_span = f'<span class="side" style="background:{SIDE_COLOUR[g.phasing]}">{esc(st["phasing"])}</span>'
    pending = "1" if st["pending"] else "0"
    parts = [
        f'<div class="cheren-bar" data-turn="{st["turn"]}" data-phase="{esc(g.phase.value)}" '
        f'data-phasing="{esc(g.phasing.value)}" data-pending="{pending}">',
        '<span class="title">THE ROAD TO CHEREN</span>',
        f'<span class="cheren-turn">Turn <b>{st["turn"]}</b>/{st["turns"]} '
        f"<small>(week of {esc(st['week'])})</small></span>",
        f'<span class="cheren-phase">{side_span} <b>{esc(st["phase"])}</b> <small>({esc(st["rule"])})</small></span>',
    ]
    if acting is not g.phasing or st["pending"]:
        parts.append(
            f'<span>to act: <span class="side" style="background:{SIDE_COLOUR[acting]}">'
            f"{esc(st['acting'])}</span></span>"
        )
    parts.append(f'<span class="cheren-vp">Allied VP <b>{st["vp"]}</b>/{st["total_vp"]} · {esc(st["level"])}</span>')
    parts.append(f"<span><small>{esc(st['mode'])}</small></span>")
    if st["over"]:
        parts.append(f"<span><b>{esc(st['text'])}</b></span>")
    parts.append("</div>")
    return "".join(parts)


def feedback_html(fb: Feedback) -> str:
    text = esc(fb.text)
    badges = rules_badges(fb.rules)
    extra = ""
    if fb.events and len(fb.events) > 3:
        extra = f" <small>(+{len(fb.events) - 3} more in the log)</small>"
    return f'<div class="cheren-msg {fb.kind}">{text}{badges}{extra}</div>'


def counter_svg(position: Position, uid: str, side: float = 46.0) -> str:
    """One counter as a small standalone SVG, drawn like on the map."""
    s = position.scenario
    d = s.units[uid]
    step = position.step(uid)
    pad = side * 0.16
    size = side + 2 * pad
    scene = Scene(width=size, height=size, layout=Layout(side / 1.3), background=PAPER)
    scene.add(
        counter_group(
            d,
            position.units[uid],
            step,
            s.counters[step.counter],
            size / 2 - side * 0.02,
            size / 2 - side * 0.02,
            side,
            PALETTE,
            strength=position.strength(uid),
            movement=position.movement(uid),
        )
    )
    svg = scene_to_svg(scene)
    return svg.replace("<svg xmlns", '<svg style="display:block" xmlns', 1)


def unit_html(c: Board, info: Any) -> str:
    markers = []
    for m in info.markers:
        cls = "low" if m.startswith("Low") else "no" if m.startswith("No supply") else ""
        markers.append(f'<span class="marker {cls}">{esc(m)}</span>')
    steps = f"{info.steps_left}/{info.steps} step{'s' if info.steps != 1 else ''}"
    move = "can move" if info.can_move else ""
    return (
        f'<div class="cheren-unit">{counter_svg(c.position, info.id)}'
        f'<div class="info"><span class="name">{esc(info.name)}</span><br>'
        f"{esc(info.side.adjective)} {esc(info.type)} · <b>{info.sp}-{info.mp}</b> · {steps}"
        f"{' · ' + move if move else ''}<br>{''.join(markers)}</div></div>"
    )


def selection_html(c: Board) -> str:
    """The header of the stack panel: which hex, which unit (the browser tests read it)."""
    if c.stack_hex is None:
        return '<div class="cheren-selected" data-hex="" data-unit="">Click a unit or a stack on the map.</div>'
    uid = c.selected or ""
    unit = c.position.units[uid] if uid else None
    where = unit.hex.label if unit is not None and unit.hex is not None else c.stack_hex.label
    name = c.name(uid) if uid else "-"
    return (
        f'<div class="cheren-selected" data-hex="{esc(where)}" data-unit="{esc(uid)}">'
        f"Selected: <b>{esc(name)}</b> in <b>{esc(where)}</b></div>"
    )


def log_html(c: Board, last: int = 60) -> str:
    """The log, newest entry first, each with its events (dice rolls included) under it."""
    blocks = []
    for head, events in reversed(c.log_entries(last)):
        lines = "".join(f'<div class="ev">  {esc(e)}</div>' for e in events)
        blocks.append(f'<div class="entry"><div>{esc(head)}</div>{lines}</div>')
    body = "".join(blocks) or "<div>Nothing has happened yet.</div>"
    return f'<div class="cheren-log">{body}</div>'


def chits_html(c: Board) -> str:
    """Each hand the screen may show (5.0: hot-seat, the acting side's own; analysis, both), by
    name with what each chit does; of the others only the count."""
    hidden = c.hidden
    counts = hidden.chit_counts()
    rows = []
    for side in (Side.ALLIED, Side.ITALIAN):
        visible = hidden.chits_visible(side) if hidden.sees(side) else None
        if visible and hidden.chits_hook is not None:  # the hook decides what the side sees, and names it
            names = ", ".join(esc(v) for v in visible)
            rows.append(f"<div><b>{side.adjective}</b> ({counts.get(side, 0)}): {names}</div>")
        elif visible:
            rows.append(f"<div><b>{side.adjective}</b> ({counts.get(side, 0)} in hand):</div>")
            rows.append(chit_list_html(c, side))
        else:
            rows.append(f"<div><b>{side.adjective}</b>: {counts.get(side, 0)} in hand</div>")
    return "".join(rows)


def chit_list_html(c: Board, side: Side) -> str:
    """Each chit of ``side``'s hand by name, with what it does and when it may be played (5.1)."""
    from cheren.engine.position import chit_key

    items = []
    for instance in c.position.chits.hands.get(side, []):
        chit = c.scenario.chits.get(chit_key(instance))
        if chit is None:
            continue
        star = " ★ <small>(one time)</small>" if chit.one_time else ""
        when = chit_windows_text(chit, side)
        items.append(
            f'<li class="cheren-chit"><b>{esc(chit.name)}</b>{star}: {esc(chit.text)} '
            f"<small>Play it: {esc(when)}.</small></li>"
        )
    return '<ul class="cheren-chit-list">' + "".join(items) + "</ul>"


def chit_windows_text(chit: Any, side: Side) -> str:
    """When a chit may be played, in words: "in your Movement phase", "in the enemy's Combat phase"."""
    parts = []
    for w in chit.windows:
        whose = "your" if w.player == "phasing" else "the enemy's"
        parts.append(f"in {whose} {w.phase.value.title()} phase")
    return " or ".join(parts) or "never (no window)"


def key_html(c: Board) -> str:
    """The key of what the map shows now: each overlay's colour and title, then the terrain."""
    rows = []
    seen: set[tuple[str, str]] = set()
    for ov in c.overlays.drawn():
        title = ov.title or ov.kind
        if (ov.colour, title) in seen:
            continue
        seen.add((ov.colour, title))
        # one swatch style for every overlay, whatever it draws (hexes, marks or lines)
        swatch = f'<span class="swatch" style="background:{esc(ov.colour)}"></span>'
        rows.append(f'<div class="key-row" data-kind="{esc(ov.kind)}">{swatch}{esc(title)}</div>')
    terrain = "".join(
        f'<span class="terrain"><span class="swatch" style="background:{esc(t.colour)}"></span>{esc(t.name)}</span>'
        for t in c.scenario.terrain_key.terrain
    )
    return f'<div class="cheren-key">{"".join(rows)}<div class="terrains">{terrain}</div></div>'


def attackers_html(c: Board) -> str:
    """The attack being lined up: the defending hex and every attacker, by name."""
    a = c.combat.draft
    if a.defender is None:
        return ""
    def where(uid: str) -> str:
        h = c.position.units[uid].hex
        return h.label if h is not None else "-"

    names = ", ".join(f"{c.name(u)} ({where(u)})" for u in a.attackers) or "none yet: click your stacks next to it"
    air = " + air support" if a.air else ""
    return (f'<div class="cheren-attackers"><b>Defender</b>: {a.defender.label} · <b>Attackers</b>: '
            f"{esc(names)}{air}</div>")


def odds_html(whatif: Any) -> str:
    """The what-if panel: the column, each shift with its reason, the six results of the column
    and the exact chance of each outcome as a small bar chart."""
    if whatif is None:
        return (
            "<div>Click an enemy hex next to your units to attack it, then click your stacks to add or "
            "take out attackers (11.0).</div>"
        )
    odds = getattr(whatif, "odds", whatif)
    rows = [
        f'<div class="cheren-odds-line"><b>{esc(odds.attack_sp)}</b> attack vs <b>{esc(odds.defence_sp)}</b> '
        f"defend → <b>{esc(odds.raw)}</b></div>"
    ]
    shifts = getattr(odds, "shifts", ())
    for shift in shifts:
        rule = getattr(shift, "rule", "")
        text = shift.describe().removesuffix(f" ({rule})") if rule else shift.describe()
        rows.append(f"<div>⇄ {esc(text)}{rules_badges((rule,)) if rule else ''}</div>")
    if not shifts:
        rows.append("<div><small>no column shifts (11.1, 11.4)</small></div>")
    for note in (*getattr(odds, "notes", ()), *getattr(whatif, "notes", ())):
        rows.append(f"<div><small>{esc(note)}</small></div>")
    rows.append(f'<div>Column: <b class="cheren-column">{esc(odds.column_name)}</b> (11.5)</div>')
    refusal = getattr(whatif, "refusal", None)
    if refusal is not None:
        rows.append(f'<div class="cheren-msg refused">Not allowed now: {esc(refusal)}</div>')
    rolls = getattr(whatif, "rolls", ())
    if rolls:
        cells = "".join(
            f"<tr><td>{r.die}</td><td><b>{esc(r.result)}</b></td><td>{esc(r.story)}</td></tr>" for r in rolls
        )
        rows.append(f'<table class="cheren-rolls"><tr><th>die</th><th>result</th><th></th></tr>{cells}</table>')
    dist = outcome_distribution(whatif)
    if dist:
        rows.append("<div><small>Chance of each outcome (exact, one die):</small></div>")
        rows.append(bar_chart(dist))
    return '<div class="cheren-odds">' + "".join(rows) + "</div>"


def outcome_distribution(whatif: Any) -> list[tuple[str, float]]:
    """(label, probability) pairs, likeliest first, from a what-if's ``distribution``, or from
    the six results of the odds column."""
    value = getattr(whatif, "distribution", None)
    if value:
        out = []
        for outcome, p in value.items():
            label = outcome.describe() if hasattr(outcome, "describe") else str(outcome)
            out.append((label, float(p)))
        return sorted(out, key=lambda item: -item[1])
    odds = getattr(whatif, "odds", whatif)
    results = getattr(odds, "results", None)
    if not results:
        return []
    tally: dict[str, float] = {}
    for r in results:
        tally[str(r)] = tally.get(str(r), 0.0) + 1 / 6
    return sorted(tally.items(), key=lambda item: -item[1])


def bar_chart(dist: list[tuple[str, float]], width: int = 310) -> str:
    """Horizontal bars, one per outcome: the label above its bar, the chance at the end."""
    bar_h, row = 9, 27
    h = len(dist) * row
    parts = [f'<svg width="{width}" height="{h}" class="cheren-chart" style="display:block">']
    top = max((p for _, p in dist), default=1.0) or 1.0
    for i, (label, p) in enumerate(dist):
        y = i * row
        w = (width - 52) * p / top
        parts.append(f'<text x="0" y="{y + 11}" font-size="11" fill="#2d2418">{esc(label)}</text>')
        parts.append(f'<rect x="0" y="{y + 14}" width="{w:.1f}" height="{bar_h}" fill="#b8412f" rx="2"/>')
        parts.append(
            f'<text x="{w + 4:.1f}" y="{y + 22}" font-size="11" font-weight="bold" fill="#2d2418">{p * 100:.1f}%</text>'
        )
    parts.append("</svg>")
    return "".join(parts)
