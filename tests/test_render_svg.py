"""The map renderer: the scene model's geometry and the SVG back-end.

The SVG is checked as XML: one hex polygon per map hex, every town named, each unit on the map
exactly once as a counter group with the markers its state calls for, overlays with their
labels.  A small hand-made scenario keeps every feature in view; one test renders the bundled
map when its data is complete.
"""

from __future__ import annotations

import itertools
import math
import xml.etree.ElementTree as ET
from collections import Counter as Tally
from pathlib import Path
from typing import Any

import pytest

from cheren.engine.opening import initial_position
from cheren.engine.position import Position, Status, Supply
from cheren.hexes import SQRT3, Hex, Hexside, Layout, line, parse_label
from cheren.render import Overlay, build_scene, position_svg, render_svg
from cheren.render.counters import stack_offsets
from cheren.render.geometry import (
    bounds,
    centre_segment,
    hex_polygon,
    hexside_segment,
    join_segments,
    outward_sides,
    region_centre,
)
from cheren.render.primitives import Polygon
from cheren.scenario import Scenario, load_scenario
from tests.scenario_factory import counter, mini_scenario, town

NS = {"svg": "http://www.w3.org/2000/svg"}
H = Hex.from_label

# -- a small map with every feature ----------------------------------------------------------
#   col:  01 02 03 04 05 06 07 08
#   row 1  .  .  r  h  h  M  ~  ~
#   row 2  .  .  r  h  M  M  .  ~     Cheren 0502 (C)
#   row 3  .  r  .  h  M  C  .  ~     Kassala 0103 (K), Biscia 0303 (B, + rough), Asmara 0603 (D)
#   row 4  .  .  r  .  h  .  .  ~
#   row 5  .  r  r  .  h  h  .  .     Tole 0405; native village Hamasien 0705
#   row 6  .  .  r  .  .  h  .  .     garrison area Wolkait: 0105 0205 0106 0206 0306
TERRAIN = ["..rhhM~~", "..rhMM.~", ".r.hMC.~", "..r.h..~", ".rr.hh..", "..r..h.."]
AREAS = ["........", "........", "........", "........", "ww......", "www....."]


def _labels(hexes: list[Hex]) -> list[str]:
    return [h.label for h in hexes]


def _chain(*towns: str) -> list[str]:
    out: list[Hex] = []
    for a, b in itertools.pairwise(towns):
        seg = line(H(a), H(b))
        out += seg if not out else seg[1:]
    return _labels(out)


def _river() -> list[str]:
    h = H("0404")
    # the S, SE and NE sides of 0404 meet corner to corner
    return [Hexside.between(h, h.neighbour(d)).label for d in (5, 0, 1)]


UNIT_TYPES: list[dict[str, Any]] = [
    {
        "key": key,
        "name": key.replace("_", " "),
        "symbol": symbol,
        "may_enter_mountain": not motor,
        "support": support,
        "may_exploit": motor,
        "motorized": motor,
        **extra,
    }
    for key, symbol, motor, support, extra in [
        ("infantry", "infantry", False, False, {}),
        ("mountain", "mountain", False, False, {}),
        ("artillery", "artillery", False, True, {"artillery": True}),
        ("naval", "naval", False, False, {}),
        ("cavalry", "cavalry", False, False, {}),
        ("commando", "commando", False, False, {}),
        ("tank", "tank", True, True, {}),
        ("motorized_infantry", "motorized_infantry", True, False, {}),
        ("motorized_artillery", "motorized_artillery", True, True, {"artillery": True}),
        ("air", "air", False, True, {"air": True}),
    ]
]

COUNTERS = [
    counter("ind_5", "allied", letter="K", faces=((8, 5), (6, 5)), size="brigade", stack=2, replacement="ind_5_r"),
    counter("ind_5_r", "allied", faces=((4, 5), (2, 5)), size="brigade", stack=2, is_replacement=True),
    counter("ind_7", "allied", letter="K", faces=((8, 5), (6, 5)), size="brigade", stack=2, replacement="ind_7_r"),
    counter("ind_7_r", "allied", faces=((4, 5), (2, 5)), size="brigade", stack=2, is_replacement=True),
    counter("tank", "allied", letter="K", faces=((2, 8),), type="tank", size="squadron"),
    counter("ff_13", "allied", letter="B", faces=((3, 6),), type="mountain", colour="blue"),
    counter("raf", "allied", letter="K", turn=3, faces=((1, 0),), type="air", size="none"),
    counter("col_1", "italian", letter="C", faces=((4, 5), (2, 5)), size="brigade", stack=2),
    counter("art_1", "italian", letter="D", faces=((3, 4),), type="artillery", size="regiment"),
    counter("marina", "italian", letter="D", faces=((2, 0),), type="naval", stack=0, immobile=True),
    counter("late", "italian", letter="C", turn=3, faces=((3, 5),)),
    counter(
        "nat_h",
        "italian",
        faces=((2, 5),),
        colour="black",
        native={"village": "Hamasien", "defected": {"sp": 1, "mp": 5}},
    ),
]

OPTIONS: dict[str, Any] = {
    "name": "Render test",
    "terrain": TERRAIN,
    "areas": AREAS,
    "garrison_areas": [{"key": "wolkait", "name": "Wolkait", "char": "w"}],
    "extra_terrain": {"0303": ["rough"]},
    "towns": [
        town("Kassala", "0103", vp=2, letter="K"),
        town("Biscia", "0303", vp=2, letter="B", kind="village"),
        town("Cheren", "0502", vp=10, letter="C"),
        town("Asmara", "0603", vp=12, letter="D", kind="city"),
        town("Tole", "0405", vp=1, kind="village"),
    ],
    "native_villages": [{"name": "Hamasien", "hex": "0705"}],
    "roads": [_chain("0103", "0303", "0502", "0603")],
    "tracks": [_chain("0303", "0405")],
    "rivers": [_river()],
    "allied_edges": [
        {"name": "Kassala edge", "hexes": ["0102", "0103", "0104"]},
        {"name": "North edge", "hexes": ["0301", "0401"], "first_turn": 5},
    ],
    "supply_sources": [
        {"name": "Asmara", "side": "italian", "hexes": ["0603"]},
        {"name": "South edge", "side": "italian", "hexes": ["0706", "0806"]},
    ],
    "unit_types": UNIT_TYPES,
    "counters": COUNTERS,
    "allied_control_at_start": ["Kassala"],
}


@pytest.fixture(scope="module")
def scenario(tmp_path_factory: pytest.TempPathFactory) -> Scenario:
    return mini_scenario(tmp_path_factory.mktemp("render"), **OPTIONS)


@pytest.fixture
def position(scenario: Scenario) -> Position:
    return initial_position(scenario, seed=3)


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def elements(root: ET.Element, tag: str, cls: str | None = None) -> list[ET.Element]:
    found = root.iter(f"{{{NS['svg']}}}{tag}")
    if cls is None:
        return list(found)
    return [e for e in found if cls in (e.get("class") or "").split()]


def counters(root: ET.Element) -> dict[str, ET.Element]:
    groups = elements(root, "g", "counter")
    ids = [g.get("data-unit") for g in groups]
    assert len(ids) == len(set(ids)), f"a unit is drawn twice: {Tally(ids).most_common(3)}"
    return {str(g.get("data-unit")): g for g in groups}


def layer(root: ET.Element, name: str) -> ET.Element:
    found = [g for g in elements(root, "g") if g.get("id") == f"layer-{name}"]
    assert len(found) == 1, f"no layer {name}"
    return found[0]


def has(group: ET.Element, tag: str, cls: str) -> bool:
    return bool(elements(group, tag, cls))


def texts(root: ET.Element, cls: str | None = None) -> list[str]:
    return [e.text or "" for e in elements(root, "text", cls)]


# -- geometry ------------------------------------------------------------------------------
def test_hex_polygon_corners_are_one_size_from_the_centre_starting_east() -> None:
    layout = Layout(10.0, 100.0, 50.0)
    h = Hex(2, -1)
    cx, cy = layout.to_pixel(h)
    corners = hex_polygon(layout, h)
    assert len(corners) == 6
    assert corners[0] == pytest.approx((cx + 10.0, cy))
    assert corners[3] == pytest.approx((cx - 10.0, cy))
    # flat-topped: the top edge (corners 4, 5) is horizontal, above the centre
    assert corners[4][1] == pytest.approx(cy - 10.0 * SQRT3 / 2)
    assert corners[5][1] == pytest.approx(cy - 10.0 * SQRT3 / 2)
    for x, y in corners:
        assert math.dist((x, y), (cx, cy)) == pytest.approx(10.0)
    inner = hex_polygon(layout, h, 0.5)
    assert inner[0] == pytest.approx((cx + 5.0, cy))


def test_neighbours_share_the_hexside_segment() -> None:
    layout = Layout(12.0)
    h = Hex(3, 1)
    for d in range(6):
        n = h.neighbour(d)
        a, b = hexside_segment(layout, Hexside.between(h, n))
        mine = {(round(x, 6), round(y, 6)) for x, y in hex_polygon(layout, h)}
        theirs = {(round(x, 6), round(y, 6)) for x, y in hex_polygon(layout, n)}
        shared = mine & theirs
        assert shared == {(round(a[0], 6), round(a[1], 6)), (round(b[0], 6), round(b[1], 6))}
        assert math.dist(a, b) == pytest.approx(12.0)


def test_centre_segment_joins_centres_one_hex_width_apart() -> None:
    layout = Layout(10.0)
    side = Hexside.between(Hex(0, 0), Hex(1, 0))
    a, b = centre_segment(layout, side)
    assert math.dist(a, b) == pytest.approx(10.0 * SQRT3)
    assert {a, b} == {layout.to_pixel(Hex(0, 0)), layout.to_pixel(Hex(1, 0))}


def test_outward_sides_and_joined_outline() -> None:
    layout = Layout(10.0)
    one = [Hex(0, 0)]
    assert len(outward_sides(one)) == 6
    pair = [Hex(0, 0), Hex(1, 0)]
    sides = outward_sides(pair)
    assert len(sides) == 10
    assert Hexside.between(Hex(0, 0), Hex(1, 0)) not in sides
    loops = join_segments(hexside_segment(layout, s) for s in sides)
    assert len(loops) == 1
    loop = loops[0]
    assert len(loop) == 11 and loop[0] == pytest.approx(loop[-1])  # closed
    # a ring of hexes has an outer and an inner border
    ring = Hex(0, 0).ring(1)
    assert len(join_segments(hexside_segment(layout, s) for s in outward_sides(ring))) == 2
    # with "inside" the whole map, only the sides facing off the map count
    field = set(Hex(0, 0).within(2))
    edge = [h for h in field if h.distance(Hex(0, 0)) == 2][:1]
    facing_off = outward_sides(edge, inside=field)
    assert facing_off and all((s.a in field) != (s.b in field) for s in facing_off)
    assert len(outward_sides([Hex(0, 0)], inside=field)) == 0


def test_join_segments_keeps_open_chains_open() -> None:
    segs = [((0.0, 0.0), (1.0, 0.0)), ((2.0, 0.0), (1.0, 0.0)), ((2.0, 0.0), (3.0, 1.0))]
    lines = join_segments(segs)
    assert len(lines) == 1
    assert lines[0][0] in ((0.0, 0.0), (3.0, 1.0)) and lines[0][-1] in ((0.0, 0.0), (3.0, 1.0))
    assert len(lines[0]) == 4


def test_bounds_and_region_centre() -> None:
    layout = Layout(10.0)
    assert bounds(layout, [Hex(0, 0)]) == pytest.approx((-10.0, -5 * SQRT3, 10.0, 5 * SQRT3))
    blob = Hex(4, 4).within(1)
    assert region_centre(layout, blob) == Hex(4, 4)


def test_stack_offsets_step_up_and_right() -> None:
    assert stack_offsets(1, 40.0) == [(0.0, 0.0)]
    offs = stack_offsets(4, 40.0)
    assert len(offs) == 4
    assert all(b[0] > a[0] and b[1] < a[1] for a, b in itertools.pairwise(offs))
    assert offs[0][1] == 0.0  # the bottom counter's foot stays put


# -- the scene -----------------------------------------------------------------------------
def test_scene_layers_and_hex_batches(scenario: Scenario, position: Position) -> None:
    scene = build_scene(scenario, position)
    assert list(scene.layers)[:4] == ["terrain", "features", "counters", "overlays"]
    batches = scene.polygons_by_style("terrain", "hex")
    # one batch per terrain that is the main terrain of some hex, all hexes in the batches
    assert sum(len(v) for v in batches.values()) == len(scenario.hexes)
    primaries = {info.terrains[0].colour for info in scenario.hexes.values()}
    assert {style.fill for style in batches} == primaries
    # clicking the centre of a hex finds it; clicking the paper off the map finds nothing
    h = H("0502")
    assert scene.hex_at(*scene.layout.to_pixel(h)) == h
    assert scene.hex_at(1.0, 1.0) is None
    assert len(scene.find("counter")) == sum(1 for u in position.units.values() if u.on_map)


def test_scene_without_position_has_no_counters(scenario: Scenario) -> None:
    scene = build_scene(scenario)
    assert scene.find("counter") == []
    assert len([i for i in scene.items("terrain") if isinstance(i, Polygon) and i.cls == "hex"]) == len(scenario.hexes)


# -- the SVG -------------------------------------------------------------------------------
def test_svg_is_xml_with_one_polygon_per_hex(scenario: Scenario, position: Position) -> None:
    svg = render_svg(scenario, position)
    root = parse(svg)
    assert root.tag == f"{{{NS['svg']}}}svg"
    hexes = elements(root, "polygon", "hex")
    labels = [e.get("data-hex") for e in hexes]
    assert len(labels) == len(scenario.hexes)
    assert set(labels) == {h.label for h in scenario.hexes}
    # standalone: no external resources
    for needle in ("href", "url(", "@import", "<image"):
        assert needle not in svg


def test_hex_fills_follow_the_terrain_key(scenario: Scenario) -> None:
    root = parse(render_svg(scenario))
    by_hex = {e.get("data-hex"): e for e in elements(root, "polygon", "hex")}
    # the fill sits on the polygon or on the style group around it: look it up via terrain
    assert by_hex["0502"].get("data-terrain") == "mountain"
    assert by_hex["0303"].get("data-terrain") == "clear+rough"
    mixed = [e.get("data-hex") for e in elements(root, "polygon", "hex-mixed")]
    assert mixed == ["0303"]


def test_every_town_is_named_with_vp_and_letter(scenario: Scenario) -> None:
    root = parse(render_svg(scenario))
    names = texts(root, "town-name")
    for t in scenario.map.towns:
        expected = f"{t.name.upper() if t.kind.value == 'city' else t.name} ({t.vp})"
        assert expected in names
    letters = {e.get("data-town") for e in elements(layer(root, "features"), "circle", "setup-letter")}
    assert letters == {t.name for t in scenario.map.towns if t.letter}
    assert "Hamasien" in texts(root, "village-name")


def test_map_features_are_drawn(scenario: Scenario) -> None:
    layout_scene = build_scene(scenario)
    layout = layout_scene.layout
    root = parse(render_svg(scenario))
    # roads pass through the centres of every hex of the road
    road_points = {
        tuple(round(float(v)) for v in p.split(","))
        for e in elements(root, "polyline", "road")
        for p in (e.get("points") or "").split()
    }
    for side in scenario.road_sides:
        for h in side:
            x, y = layout.to_pixel(h)
            assert (round(x), round(y)) in road_points
    assert elements(root, "polyline", "track")
    assert len(elements(root, "polyline", "river")) == 1  # the three hexsides join into one line
    edges = elements(root, "polyline", "allied-edge")
    assert {e.get("data-edge") for e in edges} == {"Kassala edge", "North edge"}
    labels = texts(root, "allied-edge-label")
    assert "Kassala edge" in labels and "North edge · turns 5-12" in labels
    assert [e.get("data-area") for e in elements(root, "path", "garrison-area")] == ["wolkait"]
    assert "WOLKAIT" in texts(root, "area-label")
    features = layer(root, "features")
    # a supply source inside the map rings its hex; one along the border is a band with a label
    assert [e.get("data-hex") for e in elements(features, "polygon", "supply-ring")] == ["0603"]
    assert {e.get("data-source") for e in elements(features, "polyline", "supply-edge")} == {"South edge"}
    assert texts(features, "supply-edge-label") == ["Italian supply: South edge"]
    assert [e.get("data-village") for e in elements(features, "rect", "native-village")] == ["Hamasien"]
    # without a position no Control markers are drawn
    assert elements(features, "polygon", "control") == []


def test_each_unit_on_the_map_is_one_counter(scenario: Scenario, position: Position) -> None:
    position.place("late", "0405")  # a reinforcement placed by hand
    root = parse(render_svg(scenario, position))
    drawn = counters(root)
    on_map = {uid for uid, u in position.units.items() if u.status is Status.MAP}
    assert set(drawn) == on_map
    assert "raf" not in drawn  # still in the pool
    for uid, g in drawn.items():
        assert g.get("data-hex") == position.units[uid].hex.label  # type: ignore[union-attr]
    position.remove("tank", Status.ELIMINATED)
    assert "tank" not in counters(parse(render_svg(scenario, position)))


def test_counter_values_and_type_symbols(scenario: Scenario, position: Position) -> None:
    drawn = counters(parse(render_svg(scenario, position)))
    assert texts(drawn["ind_5"], "values") == ["8-5"]
    assert texts(drawn["ind_5"], "size") == ["X"]
    assert texts(drawn["art_1"], "size") == ["III"]
    assert texts(drawn["tank"], "size") == ["I"]
    assert texts(drawn["ind_5"], "stack-value") == ["2"]
    assert texts(drawn["tank"], "stack-value") == []
    assert texts(drawn["marina"], "stack-value") == ["0"]
    assert texts(drawn["ind_5"], "designation") == [scenario.counters["ind_5"].name]
    # infantry is an X (two lines), tank an oval (a rounded rect), artillery a dot
    assert len(elements(drawn["ind_5"], "polyline")) == 2
    ovals = [r for r in elements(drawn["tank"], "rect") if r.get("rx") and float(r.get("height", 0)) < 10]
    assert ovals and not elements(drawn["tank"], "polyline")
    assert elements(drawn["art_1"], "circle")


def test_reduced_and_replacement_faces(scenario: Scenario, position: Position) -> None:
    position.place("ind_5", "0103", steps_lost=1)
    position.place("ind_7", "0104", steps_lost=2)
    position.place("tank", "0102")
    drawn = counters(parse(render_svg(scenario, position)))
    assert has(drawn["ind_5"], "rect", "reduced-bar")
    assert texts(drawn["ind_5"], "values") == ["6-5"]
    assert not has(drawn["ind_5"], "circle", "replacement-dot")
    # the replacement counter's front: white dot, no grey bar, its own values
    assert has(drawn["ind_7"], "circle", "replacement-dot")
    assert not has(drawn["ind_7"], "rect", "reduced-bar")
    assert texts(drawn["ind_7"], "values") == ["4-5"]
    assert not has(drawn["tank"], "rect", "reduced-bar")
    assert not has(drawn["tank"], "circle", "replacement-dot")
    position.place("ind_7", "0104", steps_lost=3)
    drawn = counters(parse(render_svg(scenario, position)))
    assert has(drawn["ind_7"], "circle", "replacement-dot") and has(drawn["ind_7"], "rect", "reduced-bar")
    assert texts(drawn["ind_7"], "values") == ["2-5"]


def test_supply_markers_and_native_allegiance(scenario: Scenario, position: Position) -> None:
    position.set_supply("ind_5", Supply.LOW)
    position.set_supply("col_1", Supply.NO)
    drawn = counters(parse(render_svg(scenario, position)))
    assert has(drawn["ind_5"], "rect", "supply-low") and "LOW" in texts(drawn["ind_5"])
    assert has(drawn["col_1"], "rect", "supply-no") and "NO" in texts(drawn["col_1"])
    assert not has(drawn["tank"], "rect", "supply-low") and not has(drawn["tank"], "rect", "supply-no")
    assert has(drawn["nat_h"], "rect", "allegiance-italian")
    position.set_defected("nat_h")
    drawn = counters(parse(render_svg(scenario, position)))
    assert has(drawn["nat_h"], "rect", "allegiance-allied")
    assert not has(drawn["nat_h"], "rect", "allegiance-italian")
    assert texts(drawn["nat_h"], "values") == ["1-5"]  # the defected back


def test_stacks_offset_with_a_count_badge(scenario: Scenario, position: Position) -> None:
    # ind_5, ind_7 and tank all set up at Kassala (K)
    root = parse(render_svg(scenario, position))
    drawn = counters(root)
    stack = [uid for uid, g in drawn.items() if g.get("data-hex") == "0103"]
    assert sorted(stack) == ["ind_5", "ind_7", "tank"]
    badges = {uid: texts(drawn[uid], "stack-count") for uid in stack}
    assert sorted(badges.values()) == [[], [], ["3"]]
    top = next(uid for uid, b in badges.items() if b)
    assert drawn[top].get("data-level") == "2"
    # counters of a stack are offset from one another
    xs = {float(elements(drawn[uid], "rect", "body")[0].get("x", "nan")) for uid in stack}
    assert len(xs) == 3
    # art_1 and marina share Asmara: the stronger on top carries the badge
    assert texts(drawn["art_1"], "stack-count") == ["2"] and texts(drawn["marina"], "stack-count") == []


def test_control_markers_follow_the_position(scenario: Scenario, position: Position) -> None:
    root = layer(parse(render_svg(scenario, position)), "features")
    assert {e.get("data-town") for e in elements(root, "polygon", "control")} == {"Kassala"}
    position.set_control("Cheren", "allied")
    root = layer(parse(render_svg(scenario, position)), "features")
    assert {e.get("data-town") for e in elements(root, "polygon", "control")} == {"Kassala", "Cheren"}


def test_status_line_and_live_edges(scenario: Scenario, position: Position) -> None:
    root = parse(render_svg(scenario, position))
    status = texts(root, "status")
    assert len(status) == 1 and status[0].startswith("Turn 1 ") and "Allied VP 2 of 27" in status[0]
    assert "Allied reinforcement phase" in status[0]
    north = [e for e in elements(root, "polyline", "allied-edge") if e.get("data-edge") == "North edge"]
    assert all(e.get("stroke-opacity") for e in north)  # faded before turn 5
    position.set_turn(5)
    root = parse(render_svg(scenario, position))
    north = [e for e in elements(root, "polyline", "allied-edge") if e.get("data-edge") == "North edge"]
    assert north and not any(e.get("stroke-opacity") for e in north)


def test_overlays_add_hexes_labels_and_paths(scenario: Scenario, position: Position) -> None:
    plain = parse(render_svg(scenario, position))
    assert elements(plain, "polygon", "overlay") == []
    reach = Overlay("reach", {H("0202"): "1", H("0302"): "2.5", H("0203"): None}, colour="#2266cc")
    trace = Overlay("supply", {}, colour="#dd7700", paths=[[H("0603"), H("0503"), H("0404")]], title="Supply line")
    root = parse(render_svg(scenario, position, overlays=[reach, trace]))
    cells = elements(root, "polygon", "overlay")
    assert sorted(e.get("data-hex") or "" for e in cells) == ["0202", "0203", "0302"]
    assert all(e.get("data-kind") == "reach" for e in cells)
    assert sorted(texts(root, "overlay-label")) == ["1", "2.5"]
    paths = elements(root, "g", "overlay-path")
    assert [p.get("data-hexes") for p in paths] == ["0603 0503 0404"]
    assert len(elements(paths[0], "polyline")) == 1 and elements(paths[0], "polygon", "overlay-arrow")
    assert "Supply line" in texts(root, "key-label") and "reach" in texts(root, "key-label")
    # overlays paint above the counters
    layers = [g.get("id") for g in elements(root, "g") if g.get("class") == "layer"]
    assert layers.index("layer-overlays") > layers.index("layer-counters")


def test_position_svg(scenario: Scenario, position: Position) -> None:
    svg = position_svg(position)
    assert svg == render_svg(scenario, position)
    assert len(counters(parse(svg))) == sum(1 for u in position.units.values() if u.on_map)
    reach = Overlay("reach", {H("0202"): "x"})
    assert "overlay" in position_svg(position, [reach]) and "overlay" not in svg


# -- the bundled map ---------------------------------------------------------------------------
def test_bundled_map_renders(tmp_path: Path) -> None:
    scenario = load_scenario()
    position = initial_position(scenario, seed=1)
    svg = render_svg(scenario, position)  # how long it takes: benchmarks/bench_ui.py
    root = parse(svg)
    assert len(elements(root, "polygon", "hex")) == len(scenario.hexes)
    names = " ".join(texts(root, "town-name"))
    assert all(t.name.upper() in names.upper() for t in scenario.map.towns)
    on_map = {uid for uid, u in position.units.items() if u.on_map}
    assert set(counters(root)) == on_map
    assert all(
        parse_label(label) in scenario.hexes
        for label in (e.get("data-hex") or "" for e in elements(root, "polygon", "hex"))
    )
