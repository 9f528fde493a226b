"""Every rule area that plugs into the game loop through :mod:`cheren.flow`, imported once.
Add a line here when a rule area registers actions, phase hooks or decision kinds."""

from __future__ import annotations

from cheren.rules import chits  # noqa: F401  (5.0, 5.1: chit plays and effects)
