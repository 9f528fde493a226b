"""Where the bundled data lives: the scenario (with its positions and lessons) and the notebooks.

From a clone they are the repository's ``scenarios/`` and ``notebooks/``; from an installed wheel
they are installed as data files under ``<prefix>/share/cheren/`` (see pyproject.toml)."""

from __future__ import annotations

import site
import sys
import sysconfig
from pathlib import Path

_SOURCE = Path(__file__).resolve().parents[2]  # cheren/scenario/resources.py -> the clone


def data_root() -> Path:
    """The folder holding ``scenarios/`` and ``notebooks/``."""
    if (_SOURCE / "scenarios").is_dir():
        return _SOURCE
    candidates = [Path(sysconfig.get_paths()["data"]), Path(sys.prefix), Path(site.getuserbase())]
    for base in candidates:
        root = base / "share" / "cheren"
        if (root / "scenarios").is_dir():
            return root
    return _SOURCE  # not found: the loader then names the missing folder


def scenario_dir(name: str = "road_to_cheren") -> Path:
    return data_root() / "scenarios" / name


def notebooks_dir() -> Path:
    return data_root() / "notebooks"
