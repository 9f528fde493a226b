"""Retreat priorities, rule 11.7 (shared by combat and by 8.1 arrivals)."""

from __future__ import annotations

from pathlib import Path

from cheren.engine.rules.retreat import retreat_options
from tests.boards import H, allied, board, italian, position

CLEAR = ["........", "........", "........", "........", "........"]


def test_11_7_retreat_priority_prefers_hexes_outside_zoc(tmp_path: Path) -> None:
    # The Italian stack in 0403 retreats away from the allied unit in 0303, whose ZoC covers
    # 0402 and 0404 (soft) but not 0503, 0504, 0502.
    s = board(tmp_path, CLEAR, [allied("a"), italian("i")])
    p = position(s, {"a": "0303", "i": "0403"})
    options = retreat_options(p, ["i"], H("0403"))
    assert options.priority == 1
    assert set(options.hexes) == {h for h in H("0403").neighbours() if h not in H("0303").neighbours()} - {H("0303")}
    assert H("0303") in options.refused  # enemy units there


# Three allied stacks two hexes away whose ZoCs together cover every neighbour of 0403.
COVER = {"a": "0302", "b": "0603", "c": "0305"}


def test_11_7_soft_zoc_is_second_choice(tmp_path: Path) -> None:
    s = board(tmp_path, CLEAR, [allied("a"), allied("b"), allied("c"), italian("i")])
    p = position(s, COVER | {"i": "0403"})
    options = retreat_options(p, ["i"], H("0403"))
    assert options.priority == 2
    assert set(options.hexes) == set(H("0403").neighbours())


def test_11_7_hard_zoc_only_with_a_friend_there(tmp_path: Path) -> None:
    s = board(tmp_path, CLEAR, [allied("a", stack=3), allied("b", stack=3), allied("c", stack=3),
                                italian("i"), italian("friend")])
    p = position(s, COVER | {"i": "0403", "friend": "0404"})
    options = retreat_options(p, ["i"], H("0403"))
    assert options.priority == 3 and options.hexes == (H("0404"),)
    assert sum("hard enemy ZoC" in why for why in options.refused.values()) == 5
    p.remove("friend")
    assert not retreat_options(p, ["i"], H("0403")).possible


def test_11_7_no_mountain_for_tanks_and_8_5_massaua_never_retreats(tmp_path: Path) -> None:
    s = board(tmp_path, ["........", "...MMM..", "...M.M..", "...MMM..", "........"],
              [allied("a"), italian("tank", type="tank", size="squadron"), italian("marina", immobile=True)])
    p = position(s, {"a": "0101", "tank": "0503", "marina": "0805"})
    assert not retreat_options(p, ["tank"], H("0503")).possible
    options = retreat_options(p, ["marina"], H("0805"))
    assert not options.possible and "8.5" in options.refused[H("0805")]
