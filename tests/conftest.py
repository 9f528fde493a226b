"""Shared test setup: a deterministic hypothesis profile for CI."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=100
)
settings.register_profile("dev", deadline=None, max_examples=100)
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))

# Tests (and the notebooks nbval runs in kernels started from here) never touch a learner's
# progress or the app's autosave in the real home or the notebooks folder.
_SCRATCH = tempfile.mkdtemp(prefix="cheren-tests-")
os.environ.setdefault("CHEREN_PROGRESS", str(Path(_SCRATCH) / "progress.json"))
os.environ.setdefault("CHEREN_AUTOSAVE", str(Path(_SCRATCH) / "autosave.json"))
