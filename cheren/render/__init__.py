"""Rendering, kept apart from the rules: a scene model and its back-ends.

``build_scene`` turns a scenario, a position and overlays into a :class:`Scene` of primitives;
``render_svg`` paints it as a standalone SVG.  The engine never imports this package:
``position_svg(position)`` draws a position."""

from cheren.render.scene import LAYERS, Scene, build_scene
from cheren.render.svg import position_svg, render_svg, scene_to_svg
from cheren.study.overlays import Overlay

__all__ = ["LAYERS", "Overlay", "Scene", "build_scene", "position_svg", "render_svg", "scene_to_svg"]
