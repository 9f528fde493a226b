"""Every rule area that plugs into the game loop through :mod:`cheren.engine.registry`, imported once.
Add a line here when a rule area registers actions, phase hooks or decision kinds."""

from __future__ import annotations

import cheren.engine.rules.supply  # noqa: F401  (12.0-12.7: the Supply check & attrition phase)
from cheren.engine.rules import chits  # noqa: F401  (5.0, 5.1: chit plays and effects)
from cheren.engine.rules import combat as combat  # (11.0-11.9: declaring and resolving attacks)
