"""Every rule area that plugs into the game loop through :mod:`cheren.flow`, imported once.
Add a line here when a rule area registers actions, phase hooks or decision kinds."""

from __future__ import annotations

import cheren.rules.supply  # noqa: F401  (12.0-12.7: the Supply check & attrition phase)
from cheren.rules import chits  # noqa: F401  (5.0, 5.1: chit plays and effects)
from cheren.rules import combat as combat  # (11.0-11.9: declaring and resolving attacks)
