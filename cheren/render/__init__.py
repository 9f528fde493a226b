"""Rendering, kept apart from the rules: a scene model and its back-ends.

``build_scene`` turns a scenario, a position and overlays into a :class:`Scene` of primitives;
``render_svg`` paints it as a standalone SVG.  The engine never imports this package (the
position imports it lazily for ``_repr_svg_``)."""

from cheren.render.scene import LAYERS, Overlay, Scene, build_scene
from cheren.render.svg import render_svg, scene_to_svg

__all__ = ["LAYERS", "Overlay", "Scene", "build_scene", "render_svg", "scene_to_svg"]
