"""`./dev`'s choice of the Python it makes `.venv` with (README, Set up and run)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _find_python(python: str | None) -> subprocess.CompletedProcess[str]:
    # Only the choosing functions: sourcing the whole script would run its command dispatch.
    script = (
        f'source <(sed -n "/^say()/p;/^usable_python()/,/^}}/p;/^find_python()/,/^}}/p" {ROOT / "dev"}); '
        "find_python"
    )
    env = {"PATH": "/usr/bin:/bin:" + str(Path(sys.executable).parent)}
    if python is not None:
        env["PYTHON"] = python
    return subprocess.run(["bash", "-c", script], env=env, capture_output=True, text=True, timeout=60)


def test_dev_takes_the_python_named_by_PYTHON() -> None:
    chosen = _find_python(sys.executable)
    assert chosen.returncode == 0
    assert chosen.stdout.strip() == sys.executable
    assert chosen.stderr == ""


def test_dev_says_when_PYTHON_is_not_a_usable_python_and_takes_another() -> None:
    chosen = _find_python("/no/such/python3")
    assert chosen.returncode == 0
    assert "PYTHON=/no/such/python3 is not a Python >= 3.11" in chosen.stderr
    found = chosen.stdout.strip()
    version = subprocess.run([found, "-c", "import sys; print(sys.version_info >= (3, 11))"],
                             capture_output=True, text=True, check=True)
    assert version.stdout.strip() == "True"


def test_dev_prefers_the_distributions_python_when_its_headers_are_there() -> None:
    system = Path("/usr/bin/python3.11")
    if not system.exists():
        pytest.skip("no /usr/bin/python3.11 here: the PATH order applies, tested above")
    headers = "import os, sysconfig; print(os.path.exists(os.path.join(sysconfig.get_paths()['include'], 'Python.h')))"
    has_headers = subprocess.run([str(system), "-c", headers], capture_output=True, text=True).stdout.strip() == "True"
    chosen = _find_python(None).stdout.strip()
    assert (chosen == str(system)) == has_headers
