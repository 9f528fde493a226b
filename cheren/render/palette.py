"""Colours and line weights of the map, in one place.  Terrain fills come from the scenario's
terrain key (``terrain.colour``); everything else is here, so a back-end or a notebook can pass
a different :class:`Palette` without touching the drawing code."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Palette:
    paper: str = "#f4efe1"
    ink: str = "#2d2418"
    grid: str = "#6e5a3c"
    grid_width: float = 0.028  # x hex size
    grid_opacity: float = 0.55
    coord: str = "#6e5a3c"
    coord_opacity: float = 0.55
    river: str = "#3b78b8"
    road: str = "#8a2b17"
    track: str = "#5b3a1d"
    allied_edge: str = "#c4161c"
    area_tint: str = "#8e5aa8"
    area_line: str = "#6a3d80"
    town: str = "#2d2418"
    village_hut: str = "#6b4a2a"
    label_halo: str = "#f7f1df"
    supply: dict[str, str] = field(default_factory=lambda: {"italian": "#2f6b2a", "allied": "#b0231b"})
    control: str = "#c4161c"
    counter: dict[str, str] = field(
        default_factory=lambda: {"red": "#b8412f", "blue": "#35609f", "green": "#557f38", "black": "#262421"}
    )
    counter_ink: dict[str, str] = field(
        default_factory=lambda: {"red": "#fff8ec", "blue": "#fff8ec", "green": "#fff8ec", "black": "#fff8ec"}
    )
    allegiance: dict[str, str] = field(default_factory=lambda: {"italian": "#5fa03f", "allied": "#d2332a"})
    reduced_bar: str = "#a5a29b"
    low_supply: str = "#f2c318"
    no_supply: str = "#d0201a"


PALETTE = Palette()
