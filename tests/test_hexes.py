"""The hex grid (cheren.hexes): labels, coordinates, metrics, hexsides and the pixel layout."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from cheren.hexes import (
    DIRECTIONS,
    Hex,
    Hexside,
    Layout,
    grid,
    hex_range,
    line,
    parse_hexside,
    parse_label,
    ring,
)

# -- strategies -------------------------------------------------------------------------------
labelled_offsets = st.tuples(st.integers(1, 99), st.integers(1, 99))  # 1-based column, row
labelled_hexes = labelled_offsets.map(lambda cr: Hex.from_offset(cr[0] - 1, cr[1] - 1))
axial = st.builds(Hex, st.integers(-200, 200), st.integers(-200, 200))
directions = st.integers(0, 5)
radii = st.integers(0, 8)
layouts = st.builds(
    Layout,
    st.floats(5.0, 200.0),
    st.floats(-1000.0, 1000.0),
    st.floats(-1000.0, 1000.0),
)


@st.composite
def hexsides(draw: st.DrawFn) -> Hexside:
    h = draw(axial)
    return Hexside.between(h, h.neighbour(draw(directions)))


def close(p: tuple[float, float], q: tuple[float, float], tol: float = 1e-6) -> bool:
    return math.hypot(p[0] - q[0], p[1] - q[1]) <= tol


# -- labels and offset coordinates -----------------------------------------------------------
@given(labelled_offsets)
def test_label_is_column_then_row_two_digits_each(cr: tuple[int, int]) -> None:
    col, row = cr
    text = f"{col:02d}{row:02d}"
    h = Hex.from_label(text)
    assert (h.col + 1, h.row + 1) == (col, row)
    assert h.label == text


@given(labelled_hexes)
def test_label_round_trip(h: Hex) -> None:
    assert Hex.from_label(h.label) == h
    assert parse_label(h.label) == h
    assert str(h) == h.label


@given(axial)
def test_axial_to_offset_round_trip(h: Hex) -> None:
    assert Hex.from_offset(h.col, h.row) == h


@given(st.integers(-200, 200), st.integers(-200, 200))
def test_offset_to_axial_round_trip(col: int, row: int) -> None:
    h = Hex.from_offset(col, row)
    assert (h.col, h.row) == (col, row)
    assert h.q + h.r + h.s == 0


def test_odd_columns_sit_half_a_hex_lower() -> None:
    # Odd-q, counting columns from 0: column index 1 (label column 02) is shoved down.
    layout = Layout(10.0)
    y_0101 = layout.to_pixel(Hex.from_label("0101"))[1]
    y_0201 = layout.to_pixel(Hex.from_label("0201"))[1]
    y_0301 = layout.to_pixel(Hex.from_label("0301"))[1]
    assert y_0201 == pytest.approx(y_0101 + 10.0 * math.sqrt(3) / 2)
    assert y_0301 == pytest.approx(y_0101)


@pytest.mark.parametrize("bad", ["12", "abcd", "0012", "1200", "12345", "", "07 12", "-712", "0x12"])
def test_bad_labels_raise_value_error_with_a_message(bad: str) -> None:
    with pytest.raises(ValueError) as exc:
        Hex.from_label(bad)
    message = str(exc.value)
    assert repr(bad) in message
    assert "CCRR" in message or "count from 01" in message


def test_label_needs_two_digit_column_and_row() -> None:
    with pytest.raises(ValueError, match="columns and rows count from 01"):
        parse_label("0012")
    with pytest.raises(ValueError, match="not four digits"):
        parse_label("712")


@pytest.mark.parametrize("h", [Hex.from_offset(-1, 0), Hex.from_offset(0, -1), Hex.from_offset(99, 0)])
def test_hexes_outside_the_label_range_have_no_label(h: Hex) -> None:
    with pytest.raises(ValueError, match="no CCRR label"):
        _ = h.label


# -- neighbours and distance -----------------------------------------------------------------
def test_neighbours_of_an_even_label_column() -> None:
    # 07 is label column 7 = index 6 (even): its side neighbours are in rows 11 and 12.
    # Order: SE, NE, N, NW, SW, S.
    got = [n.label for n in Hex.from_label("0712").neighbours()]
    assert got == ["0812", "0811", "0711", "0611", "0612", "0713"]


def test_neighbours_of_an_odd_label_column() -> None:
    # 08 is index 7 (odd, shoved down): its side neighbours are in rows 12 and 13.
    got = [n.label for n in Hex.from_label("0812").neighbours()]
    assert got == ["0913", "0912", "0811", "0712", "0713", "0813"]


def test_direction_names_match_screen_geometry() -> None:
    # SE, NE, N, NW, SW, S with screen y growing downwards.
    layout = Layout(10.0)
    cx, cy = layout.to_pixel(Hex(0, 0))
    expected_angles = [30, -30, -90, -150, 150, 90]
    for (dq, dr), angle in zip(DIRECTIONS, expected_angles, strict=True):
        x, y = layout.to_pixel(Hex(dq, dr))
        assert math.degrees(math.atan2(y - cy, x - cx)) == pytest.approx(angle)


@given(axial)
def test_six_distinct_neighbours_at_distance_one(h: Hex) -> None:
    ns = h.neighbours()
    assert len(set(ns)) == 6
    assert h not in ns
    for d, n in enumerate(ns):
        assert h.distance(n) == 1
        assert h.is_adjacent(n)
        assert h.neighbour(d) == n
        assert h.direction_to(n) == d
        # the opposite direction leads back
        assert n.neighbour(d + 3) == h


@given(axial)
def test_distance_identity(a: Hex) -> None:
    assert a.distance(a) == 0
    assert not a.is_adjacent(a)


@given(axial, axial)
def test_distance_symmetric_and_positive(a: Hex, b: Hex) -> None:
    assert a.distance(b) == b.distance(a)
    assert (a.distance(b) == 0) == (a == b)


@given(axial, axial, axial)
def test_distance_triangle_inequality(a: Hex, b: Hex, c: Hex) -> None:
    assert a.distance(c) <= a.distance(b) + b.distance(c)


@given(axial, axial)
def test_distance_is_the_cube_metric(a: Hex, b: Hex) -> None:
    assert a.distance(b) == max(abs(a.q - b.q), abs(a.r - b.r), abs(a.s - b.s))


def test_distance_examples_on_labels() -> None:
    d = Hex.from_label
    assert d("0101").distance(d("0103")) == 2  # straight down a column
    assert d("0101").distance(d("0401")) == 3  # zig-zag along row 01
    assert d("0712").distance(d("0712")) == 0


@given(labelled_hexes, labelled_hexes)
def test_direction_to_non_adjacent_raises(a: Hex, b: Hex) -> None:
    assume(a.distance(b) != 1)
    with pytest.raises(ValueError, match="not adjacent"):
        a.direction_to(b)


def test_direction_to_non_adjacent_names_the_problem_off_the_label_range() -> None:
    with pytest.raises(ValueError, match="not adjacent"):
        Hex(0, 0).direction_to(Hex(0, -2))


# -- rings, ranges, lines --------------------------------------------------------------------
@given(axial, st.integers(1, 8))
def test_ring_has_6k_distinct_hexes_at_distance_k(h: Hex, k: int) -> None:
    hexes = ring(h, k)
    assert len(hexes) == 6 * k
    assert len(set(hexes)) == 6 * k
    assert all(h.distance(x) == k for x in hexes)
    # consecutive ring hexes are adjacent, and the ring closes
    for a, b in zip(hexes, [*hexes[1:], hexes[0]], strict=True):
        assert a.is_adjacent(b)
    assert h.ring(k) == hexes


def test_ring_zero_and_negative() -> None:
    h = Hex(3, -2)
    assert ring(h, 0) == [h]
    with pytest.raises(ValueError):
        ring(h, -1)
    with pytest.raises(ValueError):
        hex_range(h, -1)


@given(axial, radii)
def test_hex_range_counts_3k_k_plus_1(h: Hex, k: int) -> None:
    hexes = hex_range(h, k)
    assert len(hexes) == 3 * k * (k + 1) + 1
    assert len(set(hexes)) == len(hexes)
    # exactly the hexes within distance k (brute force over a bounding box)
    box = {Hex(h.q + dq, h.r + dr) for dq in range(-k, k + 1) for dr in range(-k, k + 1)}
    assert set(hexes) == {x for x in box if h.distance(x) <= k}
    assert set(h.within(k)) == set(hexes)


@given(axial, radii)
def test_hex_range_is_the_union_of_rings(h: Hex, k: int) -> None:
    union = {x for radius in range(k + 1) for x in ring(h, radius)}
    assert union == set(hex_range(h, k))


@given(axial, axial)
def test_line_runs_through_adjacent_hexes(a: Hex, b: Hex) -> None:
    path = line(a, b)
    assert path[0] == a and path[-1] == b
    assert len(path) == a.distance(b) + 1
    for x, y in itertools.pairwise(path):
        assert x.is_adjacent(y)


# -- hexsides --------------------------------------------------------------------------------
@given(axial, directions)
def test_hexside_is_the_same_from_either_side(h: Hex, d: int) -> None:
    n = h.neighbour(d)
    assert Hexside.between(h, n) == Hexside.between(n, h)
    assert hash(Hexside.between(h, n)) == hash(Hexside.between(n, h))


@given(axial, axial)
def test_hexside_between_non_adjacent_raises(a: Hex, b: Hex) -> None:
    assume(a.distance(b) != 1)
    with pytest.raises(ValueError, match="not adjacent"):
        Hexside.between(a, b)


def test_parse_hexside_accepts_slash_and_dash_in_either_order() -> None:
    side = Hexside.between(Hex.from_label("0712"), Hex.from_label("0713"))
    assert parse_hexside("0712/0713") == side
    assert parse_hexside("0713/0712") == side
    assert parse_hexside("0712-0713") == side
    assert parse_hexside(" 0712 / 0713 ") == side
    assert side.label == "0712/0713"


@pytest.mark.parametrize("bad", ["0712", "0712/0713/0714", "0712/0714", "0712/xx13"])
def test_parse_hexside_rejects_bad_text(bad: str) -> None:
    with pytest.raises(ValueError):
        parse_hexside(bad)


@given(layouts, hexsides())
def test_hexside_segment_endpoints_are_corners_of_both_hexes(layout: Layout, side: Hexside) -> None:
    p, q = layout.hexside_segment(side)
    tol = 1e-6 * max(1.0, abs(layout.origin_x), abs(layout.origin_y), layout.size * 200)
    assert not close(p, q, tol)
    # the segment is one hex edge long
    assert math.hypot(p[0] - q[0], p[1] - q[1]) == pytest.approx(layout.size, rel=1e-6)
    for point in (p, q):
        assert any(close(point, c, tol) for c in layout.corners(side.a))
        assert any(close(point, c, tol) for c in layout.corners(side.b))


@given(hexsides())
def test_each_hexside_touches_exactly_four_others(side: Hexside) -> None:
    around = {Hexside.between(h, n) for h in hex_range(side.a, 3) for n in h.neighbours()}
    assert sum(side.touches(other) for other in around) == 4
    assert not side.touches(side)


@given(hexsides(), st.integers(0, 2), directions, directions)
def test_touches_exactly_when_hexsides_meet_at_a_corner(side: Hexside, dist: int, walk: int, d: int) -> None:
    # A second hexside near the first, so that both answers occur often.
    start = side.a if dist == 0 else ring(side.a, dist)[walk % (6 * dist)]
    other = Hexside.between(start, start.neighbour(d))
    layout = Layout(10.0)
    p1, p2 = layout.hexside_segment(side)
    q1, q2 = layout.hexside_segment(other)
    share_corner = any(close(a, b) for a in (p1, p2) for b in (q1, q2))
    assert side.touches(other) == (share_corner and side != other)
    assert side.touches(other) == other.touches(side)


def test_touches_examples() -> None:
    s = parse_hexside
    # 0712/0713 (its S edge) meets 0712/0612 (its SW edge) and 0713/0612 at the lower-left corner
    assert s("0712/0713").touches(s("0712/0612"))
    assert s("0712/0713").touches(s("0713/0612"))
    # ... but not the opposite N edge of 0712, nor a parallel edge one hex away
    assert not s("0712/0713").touches(s("0712/0711"))
    assert not s("0712/0713").touches(s("0713/0714"))


# -- pixels ----------------------------------------------------------------------------------
@given(layouts, axial)
def test_pixel_round_trip_at_the_centre(layout: Layout, h: Hex) -> None:
    x, y = layout.to_pixel(h)
    assert layout.from_pixel(x, y) == h


@given(
    layouts,
    axial,
    st.floats(0.0, 2 * math.pi),
    st.floats(0.0, 0.95),
)
def test_pixel_round_trip_off_centre_inside_the_hex(layout: Layout, h: Hex, angle: float, fraction: float) -> None:
    # Any point closer to the centre than the apothem (size * sqrt(3) / 2) is inside the hex.
    x, y = layout.to_pixel(h)
    reach = fraction * layout.size * math.sqrt(3) / 2
    assert layout.from_pixel(x + reach * math.cos(angle), y + reach * math.sin(angle)) == h


@given(layouts, axial, directions)
def test_neighbour_centres_are_size_sqrt3_apart(layout: Layout, h: Hex, d: int) -> None:
    a = layout.to_pixel(h)
    b = layout.to_pixel(h.neighbour(d))
    assert math.hypot(a[0] - b[0], a[1] - b[1]) == pytest.approx(layout.size * math.sqrt(3), rel=1e-9)


@given(layouts, axial)
def test_corners_lie_at_distance_size(layout: Layout, h: Hex) -> None:
    cx, cy = layout.to_pixel(h)
    corners = layout.corners(h)
    assert len(corners) == 6
    for x, y in corners:
        assert math.hypot(x - cx, y - cy) == pytest.approx(layout.size, rel=1e-9)


def test_grid_is_the_offset_rectangle_column_by_column() -> None:
    hexes = list(grid(3, 2))
    assert [h.label for h in hexes] == ["0101", "0102", "0201", "0202", "0301", "0302"]
